/* utf8: the one check of "is this a valid UTF-8 sequence" that the outputs share (the
 * table's cell sanitiser, the JSON writer's repair of stray bytes), so both agree on what
 * is valid: no overlong forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF;
 * and the one word wrapper (--help, the printed summary, the TUI's summary), in columns.
 * Ownership: nothing here allocates. */
#ifndef ECSPROF_UTF8_H
#define ECSPROF_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length (1..4) of the valid UTF-8 sequence at p, 0 when it is not one. p must be
 * NUL-terminated: a sequence cut short by the terminator is invalid, and no byte past
 * the terminator is read. */
size_t utf8_len(const unsigned char *p);
/* The code point of the valid sequence of len bytes (utf8_len's answer, not 0) at p. */
uint32_t utf8_decode(const unsigned char *p, size_t len);

/* Display columns of the n bytes at s: one per code point, continuation bytes none (the
 * convention of every output here, which prints no wide glyphs). */
int utf8_cols(const char *s, size_t n);

/* May a line break at the space sp? text is the start of the line being broken, sp a
 * space after it. */
typedef bool utf8_may_break_fn(const char *text, const char *sp);
/* The summaries' rule: not inside "n = 12 vs 18" or "p = 0.41" (next to '=' or "vs"), which
 * a reader takes in at a glance. */
bool utf8_break_keeps_figures(const char *text, const char *sp);

/* Where the first line of text ends when it is wrapped at spaces into lines of at most
 * width columns (utf8_cols): the whole text when it fits, else the longest run of words
 * that fits, ending at a word's end (a space not after a space) that may_break allows
 * (NULL: any). When not even the first word fits, cut_words cuts it after the last code
 * point that fits (at least one); otherwise the line is that whole word, up to the next
 * allowed break, since a long word (an ARN, a URL) is worth more whole. Returns the
 * line's length in bytes (0 only for an empty text) and sets *next to where the next line
 * starts (past the spaces at the break). */
size_t utf8_line_break(const char *text, int width, bool cut_words,
		       utf8_may_break_fn *may_break, size_t *next);

#endif
