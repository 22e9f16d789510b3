/* utf8: the ranges are those of RFC 3629's table (section 4); the lead byte decides which
 * second bytes are allowed, which is where overlong forms and surrogates are refused. */
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
