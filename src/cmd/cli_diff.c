/* cli_diff: what `ecsprof diff` needs on its command line: two windows, either
 * BASELINE NEW, or --baseline-file FILE... and the new window's FILE..., or one history
 * and --split WHEN. The --fail-on expressions are parsed by the model (diff_gate_parse),
 * whose message names what is wrong in them. */
#include "cli_int.h"
#include "ecsprof/cli.h"

int
cli_diff_check(const struct cli_opts *o, struct err *err)
{
	if (o->split != NULL && o->baseline_files.n > 0)
		return err_set(err, ERR_USAGE,
			       "diff: --split cuts one history in two; --baseline-file names the baseline's files: use one of them");
	if (o->files.n == 0)
		return err_set(err, ERR_USAGE,
			       "diff needs BASELINE NEW, or --baseline-file FILE and the new window's FILEs, or --split WHEN FILE... (see 'ecsprof diff --help')");
	if (o->split == NULL && o->baseline_files.n == 0 && o->files.n != 2)
		return err_set(err, ERR_USAGE,
			       "diff takes two files, BASELINE and NEW (got %zu); for more files per side use --baseline-file FILE for each baseline file, or --split WHEN on one history",
			       o->files.n);
	return 0;
}
