/* main: the process entry point; everything else lives in the library. */
#include "ecsprof/app.h"

int
main(int argc, char **argv)
{
	return app_main(argc, argv);
}
