/* utf8: the ranges are those of RFC 3629's table (section 4); the lead byte decides which
 * second bytes are allowed, which is where overlong forms and surrogates are refused.
 * The line breaker is greedy (as fmt and par's simplest mode are): fill each line with as
 * many words as fit, which is what the help and the summaries have always printed. */
#include <string.h>

#include "ecsprof/utf8.h"

size_t
utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	/* the && chains stop at the first byte that is not a continuation, so a NUL
	 * (never a continuation byte) ends the check before anything past it is read */
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		return (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xe0 && p[0] <= 0xef) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f))
			return 0;   /* overlong, surrogate */
		return 3;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
			return 0;
		if ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
			return 0;   /* overlong, above U+10FFFF */
		return 4;
	}
	return 0;   /* a continuation byte, 0xc0/0xc1 (overlong) or 0xf5..0xff */
}

uint32_t
utf8_decode(const unsigned char *p, size_t len)
{
	static const unsigned char lead_bits[5] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = p[0] & lead_bits[len];

	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	return cp;
}

static bool
utf8_is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* the bytes of the code point at s (s not empty): its lead byte and the continuation
 * bytes after it */
static size_t
utf8_cp_bytes(const char *s)
{
	size_t n = 1;

	while (s[n] != '\0' && utf8_is_cont(s[n]))
		n++;
	return n;
}

int
utf8_cols(const char *s, size_t n)
{
	int cols = 0;

	for (size_t i = 0; i < n; i++)
		cols += !utf8_is_cont(s[i]);
	return cols;
}

bool
utf8_break_keeps_figures(const char *text, const char *sp)
{
	if (sp[1] == '=' || (sp > text && sp[-1] == '='))
		return false;
	if (strncmp(sp + 1, "vs ", 3) == 0 || (sp - text >= 3 && strncmp(sp - 3, " vs", 3) == 0))
		return false;
	return true;
}

size_t
utf8_line_break(const char *text, int width, bool cut_words, utf8_may_break_fn *may_break,
		size_t *next)
{
	size_t i = 0, len;
	size_t fit_break = 0, fit_cut = 0;   /* 0: none (a line is never empty) */
	int cols = 0;                        /* columns of text[0..i) */

	while (text[i] != '\0') {
		if (text[i] == ' ' && i > 0 && text[i - 1] != ' ' &&
		    (may_break == NULL || may_break(text, text + i))) {
			if (cols > width)
				break;   /* the first break past the width: the long word ends here */
			fit_break = i;
		}
		size_t step = utf8_cp_bytes(text + i);

		cols += !utf8_is_cont(text[i]);
		if (cols <= width)
			fit_cut = i + step;
		i += step;
	}
	if (text[i] == '\0' && cols <= width)
		len = i;                                /* it all fits */
	else if (fit_break > 0)
		len = fit_break;
	else if (cut_words)
		len = fit_cut > 0 ? fit_cut : utf8_cp_bytes(text);
	else
		len = i;                                /* the word whole, to its end */
	if (next != NULL) {
		size_t n = len;

		while (text[n] == ' ')
			n++;
		*next = n;
	}
	return len;
}
