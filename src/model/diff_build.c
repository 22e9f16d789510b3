/* diff_build: a whole diff of two windows (struct diff, its owner: diff_build fills it,
 * diff_cleanup frees it): every phase compared (diff.c), Holm's correction over them, the
 * attributes (diff_attr.c) and the notes (diff_text.c). Apart from diff.c, whose
 * statistics the attributes and the notes use, so that neither calls back into what
 * calls it. */
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"
#include "ecsprof/diff.h"

int
diff_build(struct diff *d, const struct diff_window *base, const struct diff_window *cur,
	   struct err *err)
{
	struct diff_cmp *fam[DIFF_PHASE_COUNT];

	memset(d, 0, sizeof *d);
	if (base->n == 0)
		return err_set(err, ERR_PARSE, "the baseline window has no task");
	if (cur->n == 0)
		return err_set(err, ERR_PARSE, "the new window has no task");
	d->base_n = base->n;
	d->new_n = cur->n;
	for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
		size_t na, nb;
		double *a = diff_window_values(base, (enum diff_phase)p, &na);
		double *b = diff_window_values(cur, (enum diff_phase)p, &nb);

		diff_compare(a, na, b, nb, &d->phase[p]);
		fam[p] = &d->phase[p];
		free(a);
		free(b);
	}
	diff_holm(fam, DIFF_PHASE_COUNT);
	diff_attrs_build(d, base, cur);   /* diff_attr.c */
	diff_notes_build(d);              /* diff_text.c */
	return 0;
}

void
diff_cleanup(struct diff *d)
{
	for (int a = 0; a < DIFF_ATTR_COUNT; a++) {
		for (size_t i = 0; i < d->mix[a].nvalues; i++)
			free(d->mix[a].values[i].value);
		free(d->mix[a].values);
	}
	free(d->parts);
	free(d->taskdef_note);
	for (size_t i = 0; i < d->nnotes; i++)
		free(d->notes[i]);
	free(d->notes);
	memset(d, 0, sizeof *d);
}
