/* main: the process entry point; everything else lives in the library. Process-wide
 * policy is set here, not in the library, so the tests that link it keep their own. */
#include "ecsprof/app.h"
#include "ecsprof/procsec.h"

int
main(int argc, char **argv)
{
	(void)procsec_protect();
	return app_main(argc, argv);
}
