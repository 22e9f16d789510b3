/* utf8: utf8_len, the validity check the table and JSON outputs share: valid sequences of
 * each length, and the invalid kinds (truncated, overlong, surrogate, out of range, stray
 * continuation) each refused. */
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
