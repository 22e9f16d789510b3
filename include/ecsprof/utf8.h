/* utf8: the one check of "is this a valid UTF-8 sequence" that the outputs share (the
 * table's cell sanitiser, the JSON writer's repair of stray bytes), so both agree on what
 * is valid: no overlong forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
 * Ownership: nothing here allocates. */
#ifndef ECSPROF_UTF8_H
#define ECSPROF_UTF8_H

#include <stddef.h>

/* Length (1..4) of the valid UTF-8 sequence at p, 0 when it is not one. p must be
 * NUL-terminated: a sequence cut short by the terminator is invalid, and no byte past
 * the terminator is read. */
size_t utf8_len(const unsigned char *p);

#endif
