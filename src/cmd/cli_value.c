/* cli_value: what the option parsers (cli.c, cli_experiment.c) share to read a value:
 * a repeatable option's list, a whole number in a range. */
#include <errno.h>
#include <stdlib.h>

#include "cli_int.h"
#include "ecsprof/xalloc.h"

void
cli_list_add(struct cli_list *l, const char *v)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = v;
}

int
cli_parse_long(const char *opt, const char *s, long min, long max, long *out, struct err *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return err_set(err, ERR_USAGE, "%s: expected a whole number from %ld to %ld, got '%s'",
			       opt, min, max, s);
	*out = v;
	return 0;
}
