/* app: placeholder until the pieces land. */
#include <stdio.h>

#include "ecsprof/app.h"
#include "ecsprof/cli.h"
#include "ecsprof_version.h"

int
app_main(int argc, char **argv)
{
	struct cli_opts o;
	struct err err;

	err_clear(&err);
	if (cli_parse(argc, argv, &o, &err) != 0) {
		fprintf(stderr, "ecsprof: %s\n", err.msg);
		cli_opts_cleanup(&o);
		return 2;
	}
	if (o.help)
		cli_usage(stdout);
	else if (o.version)
		printf("ecsprof %s\n", ECSPROF_VERSION);
	cli_opts_cleanup(&o);
	return 0;
}
