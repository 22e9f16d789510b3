/* utf8: utf8_len, the validity check the table and JSON outputs share: valid sequences of
 * each length, and the invalid kinds (truncated, overlong, surrogate, out of range, stray
 * continuation) each refused; utf8_line_break, the one word wrapper, in columns (multi-byte
 * text, exact widths, long words kept or cut on code points, the summaries' rule). */
#include <stdio.h>

#include <criterion/criterion.h>

#include "ecsprof/utf8.h"

static size_t
len_of(const char *s)
{
	return utf8_len((const unsigned char *)s);
}

Test(utf8, valid_sequences_of_each_length)
{
	cr_assert_eq(len_of("a"), 1);
	cr_assert_eq(len_of("\x7f"), 1);
	cr_assert_eq(len_of("\xc2\x80"), 2);         /* U+0080, lowest 2-byte */
	cr_assert_eq(len_of("\xc3\xa9x"), 2);        /* é, followed by more text */
	cr_assert_eq(len_of("\xdf\xbf"), 2);         /* U+07FF */
	cr_assert_eq(len_of("\xe0\xa0\x80"), 3);     /* U+0800, lowest 3-byte */
	cr_assert_eq(len_of("\xe2\x80\xa6"), 3);     /* … */
	cr_assert_eq(len_of("\xed\x9f\xbf"), 3);     /* U+D7FF, just below the surrogates */
	cr_assert_eq(len_of("\xee\x80\x80"), 3);     /* U+E000, just above them */
	cr_assert_eq(len_of("\xef\xbf\xbd"), 3);     /* U+FFFD */
	cr_assert_eq(len_of("\xf0\x90\x80\x80"), 4); /* U+10000, lowest 4-byte */
	cr_assert_eq(len_of("\xf0\x9f\x98\x80"), 4); /* an emoji */
	cr_assert_eq(len_of("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF, the highest */
}

Test(utf8, truncated_sequences_are_invalid)
{
	cr_assert_eq(len_of("\xc3"), 0);
	cr_assert_eq(len_of("\xe2\x80"), 0);
	cr_assert_eq(len_of("\xe2"), 0);
	cr_assert_eq(len_of("\xf0\x9f\x98"), 0);
	cr_assert_eq(len_of("\xf0\x9f"), 0);
	/* cut short by a byte that is not a continuation rather than by the end */
	cr_assert_eq(len_of("\xc3" "a"), 0);
	cr_assert_eq(len_of("\xe2\x80" "a"), 0);
	cr_assert_eq(len_of("\xf0\x9f\x98" "a"), 0);
}

Test(utf8, truncated_sequence_reads_nothing_past_the_terminator)
{
	/* the bytes after the NUL would complete the sequence; they must not be looked at */
	const unsigned char two[] = { 0xc3, 0x00, 0xa9 };
	const unsigned char four[] = { 0xf0, 0x9f, 0x00, 0x80, 0x80 };

	cr_assert_eq(utf8_len(two), 0);
	cr_assert_eq(utf8_len(four), 0);
}

Test(utf8, overlong_forms_are_invalid)
{
	cr_assert_eq(len_of("\xc0\x80"), 0);         /* NUL in two bytes */
	cr_assert_eq(len_of("\xc0\xaf"), 0);         /* '/' in two bytes */
	cr_assert_eq(len_of("\xc1\xbf"), 0);         /* U+007F in two bytes */
	cr_assert_eq(len_of("\xe0\x80\xaf"), 0);     /* '/' in three bytes */
	cr_assert_eq(len_of("\xe0\x9f\xbf"), 0);     /* U+07FF in three bytes */
	cr_assert_eq(len_of("\xf0\x80\x80\xaf"), 0); /* '/' in four bytes */
	cr_assert_eq(len_of("\xf0\x8f\xbf\xbf"), 0); /* U+FFFF in four bytes */
}

Test(utf8, surrogates_are_invalid)
{
	cr_assert_eq(len_of("\xed\xa0\x80"), 0);     /* U+D800 */
	cr_assert_eq(len_of("\xed\xad\xbf"), 0);     /* U+DB7F */
	cr_assert_eq(len_of("\xed\xb0\x80"), 0);     /* U+DC00 */
	cr_assert_eq(len_of("\xed\xbf\xbf"), 0);     /* U+DFFF */
	/* a CESU-8 pair (U+1F600 as two surrogates) is two invalid sequences, not one char */
	cr_assert_eq(len_of("\xed\xa0\xbd\xed\xb8\x80"), 0);
}

Test(utf8, out_of_range_and_stray_bytes_are_invalid)
{
	cr_assert_eq(len_of("\xf4\x90\x80\x80"), 0); /* U+110000 */
	cr_assert_eq(len_of("\xf5\x80\x80\x80"), 0);
	cr_assert_eq(len_of("\xf8\x88\x80\x80\x80"), 0); /* old 5-byte form */
	cr_assert_eq(len_of("\xff"), 0);
	cr_assert_eq(len_of("\xfe"), 0);
	cr_assert_eq(len_of("\x80"), 0);             /* lone continuation */
	cr_assert_eq(len_of("\xbf"), 0);
}

/* ---- utf8_line_break: the one word wrapper of --help, the summaries and the TUI ---- */

/* text wrapped to width, lines joined by '|' */
static const char *
wrap(const char *text, int width, bool cut_words, utf8_may_break_fn *may_break)
{
	static char out[1024];
	size_t o = 0;

	out[0] = '\0';
	while (*text != '\0' && o < sizeof out - 64) {
		size_t next, n = utf8_line_break(text, width, cut_words, may_break, &next);

		cr_assert_gt(n, 0, "an empty line would loop for ever");
		cr_assert_geq(next, n);
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%.*s", o ? "|" : "", (int)n, text);
		text += next;
	}
	return out;
}

Test(utf8, cols_count_code_points_not_bytes)
{
	cr_assert_eq(utf8_cols("abc", 3), 3);
	cr_assert_eq(utf8_cols("\xc2\xb1\xe2\x88\x9e", 5), 2);            /* ±∞ */
	cr_assert_eq(utf8_cols("\xf0\x9f\x98\x80 x", 6), 3);              /* an emoji, space, x */
	cr_assert_eq(utf8_cols("", 0), 0);
}

Test(utf8, line_break_at_exact_width)
{
	/* "aaa bbb" is 7 columns: it fits in 7, not in 6 */
	cr_assert_str_eq(wrap("aaa bbb", 7, false, NULL), "aaa bbb");
	cr_assert_str_eq(wrap("aaa bbb", 6, false, NULL), "aaa|bbb");
	/* a line may end exactly at the width: "aaa bbb" + " ccc" at 7 */
	cr_assert_str_eq(wrap("aaa bbb ccc", 7, false, NULL), "aaa bbb|ccc");
	cr_assert_str_eq(wrap("aaa bbb ccc", 8, false, NULL), "aaa bbb|ccc");
	cr_assert_str_eq(wrap("aaa bbb ccc", 11, false, NULL), "aaa bbb ccc");
	cr_assert_str_eq(wrap("", 10, false, NULL), "");
}

Test(utf8, line_break_counts_columns_in_multibyte_text)
{
	/* "±∞¹ ±∞¹ ±∞¹": 11 columns, 23 bytes; a byte count would break after the first */
	const char *t = "\xc2\xb1\xe2\x88\x9e\xc2\xb9 \xc2\xb1\xe2\x88\x9e\xc2\xb9 "
			"\xc2\xb1\xe2\x88\x9e\xc2\xb9";

	cr_assert_str_eq(wrap(t, 11, false, NULL), t);
	cr_assert_str_eq(wrap(t, 7, false, NULL),
			 "\xc2\xb1\xe2\x88\x9e\xc2\xb9 \xc2\xb1\xe2\x88\x9e\xc2\xb9|"
			 "\xc2\xb1\xe2\x88\x9e\xc2\xb9");
	/* "café café café…": 15 columns, 19 bytes */
	cr_assert_str_eq(wrap("caf\xc3\xa9 caf\xc3\xa9 caf\xc3\xa9\xe2\x80\xa6", 9, false, NULL),
			 "caf\xc3\xa9 caf\xc3\xa9|caf\xc3\xa9\xe2\x80\xa6");
}

Test(utf8, line_break_keeps_long_words_whole_or_cuts_them_on_code_points)
{
	const char *arn = "arn:aws:ecs:us-east-1:123456789012:task/prod/0d0d0d0d";

	/* kept whole: a line of its own, then the rest wraps as usual */
	cr_assert_str_eq(wrap("see ab cd", 1, false, NULL), "see|ab|cd");
	cr_assert_str_eq(wrap("x arn:aws:ecs:us-east-1 y z", 8, false, NULL),
			 "x|arn:aws:ecs:us-east-1|y z");
	cr_assert_str_eq(wrap(arn, 20, false, NULL), arn);
	/* cut (the TUI): after the last code point that fits, never inside one */
	cr_assert_str_eq(wrap("abcdefghij", 4, true, NULL), "abcd|efgh|ij");
	cr_assert_str_eq(wrap("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 2, true, NULL),
			 "\xc3\xa9\xc3\xa9|\xc3\xa9\xc3\xa9|\xc3\xa9");
	cr_assert_str_eq(wrap("ab abcdefgh", 4, true, NULL), "ab|abcd|efgh");
	/* a width of 0 or less still makes progress, one code point (or word) a line */
	cr_assert_str_eq(wrap("\xc3\xa9x", 0, true, NULL), "\xc3\xa9|x");
	cr_assert_str_eq(wrap("ab cd", -3, false, NULL), "ab|cd");
}

Test(utf8, line_break_skips_the_spaces_at_a_break)
{
	size_t next, n = utf8_line_break("aaa   bbb", 5, false, NULL, &next);

	cr_assert_eq(n, 3);
	cr_assert_eq(next, 6);
	cr_assert_str_eq(wrap("aaa   bbb", 5, false, NULL), "aaa|bbb");
	/* trailing spaces of a text that fits are its own */
	n = utf8_line_break("ab  ", 10, false, NULL, &next);
	cr_assert_eq(n, 4);
	cr_assert_eq(next, 4);
}

Test(utf8, line_break_keeps_figures_together)
{
	const char *v = "total p50 +3.3 s, significantly slower, p < 0.001, n = 12 vs 18";

	/* without the rule the break would fall inside "n = 12 vs 18" */
	cr_assert_str_eq(wrap(v, 57, false, NULL),
			 "total p50 +3.3 s, significantly slower, p < 0.001, n = 12|vs 18");
	cr_assert_str_eq(wrap(v, 57, false, utf8_break_keeps_figures),
			 "total p50 +3.3 s, significantly slower, p < 0.001,|n = 12 vs 18");
	/* one array each: the break position must point into the same string */
	static const char pv[] = "p = 0.41", vs[] = "a vs b", ab[] = "a b";

	cr_assert(!utf8_break_keeps_figures(pv, &pv[1]));
	cr_assert(!utf8_break_keeps_figures(pv, &pv[3]));
	cr_assert(!utf8_break_keeps_figures(vs, &vs[1]));
	cr_assert(!utf8_break_keeps_figures(vs, &vs[4]));
	cr_assert(utf8_break_keeps_figures(ab, &ab[1]));
}
