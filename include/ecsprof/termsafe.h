/* termsafe: what may reach a terminal. Text from servers and input files can carry ESC
 * sequences, BEL, C1 controls and bidi overrides that retitle, recolour or reorder what the
 * user reads; these functions find and neutralise them where text leaves ecsprof.
 * Ownership: functions work in place or write to a caller's stream; nothing is kept. */
#ifndef ECSPROF_TERMSAFE_H
#define ECSPROF_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

/* Bytes of the sequence at p that must not reach a terminal raw: a C0 control (unless
 * it is in keep, e.g. "\n\t"), DEL, a C1 control, a bidi embedding, override or isolate
 * (U+202A-U+202E, U+2066-U+2069), or a byte that is not valid UTF-8 (1). 0 when the
 * sequence at p is harmless; never more than 4. p must be NUL-terminated. */
size_t termsafe_bad_len(const char *p, const char *keep);
/* Replaces each such sequence in s by '?', in place (s never grows). */
void termsafe_scrub(char *s, const char *keep);
/* Writes JSON text (as jansson dumps it: raw UTF-8 in strings) with DEL, C1 and bidi
 * controls written as \uXXXX escapes, which decode to the same string. Returns 0 or -1. */
int termsafe_put_json(FILE *f, const char *json);

#endif
