/* diff_int: what the diff files of src/model share: a window's values of a phase, Holm
 * over a family of comparisons, and the attribute half of diff_build.
 * Ownership: diff_values' array is the caller's to free; the rest fill the struct diff. */
#ifndef ECSPROF_DIFF_INT_H
#define ECSPROF_DIFF_INT_H

#include <stddef.h>

#include "ecsprof/diff.h"

/* diff.c: p_holm and significant of n comparisons as one family */
void diff_holm(struct diff_cmp *const *c, size_t n);
/* diff_attr.c: the mixes, the splits of the significant phases, the explanations */
void diff_attrs_build(struct diff *d, const struct diff_window *base,
		      const struct diff_window *cur);
/* diff_text.c: d->notes from the built diff */
void diff_notes_build(struct diff *d);

#endif
