/* termsafe: one definition of "hostile to a terminal", shared by the table, CSV, JSON and
 * every warning and error line, so that a new output cannot forget a case. */
#include <stdbool.h>
#include <string.h>

#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"

/* U+202A-U+202E (LRE RLE PDF LRO RLO) and U+2066-U+2069 (LRI RLI FSI PDI) */
static bool
is_bidi(const unsigned char *p)
{
	return p[0] == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
				(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

size_t
termsafe_bad_len(const char *s, const char *keep)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = utf8_len(p);

	if (len == 0)
		return 1;
	if (len == 1 && (p[0] < 0x20 || p[0] == 0x7f))
		return p[0] != '\0' && keep != NULL && strchr(keep, p[0]) != NULL ? 0 : 1;
	if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 2;
	if (len == 3 && is_bidi(p))
		return 3;
	return 0;
}

void
termsafe_scrub(char *s, const char *keep)
{
	char *o = s;

	for (const char *p = s; *p != '\0';) {
		size_t bad = termsafe_bad_len(p, keep);

		if (bad > 0) {
			*o++ = '?';
			p += bad;
			continue;
		}
		size_t len = utf8_len((const unsigned char *)p);

		memmove(o, p, len);
		o += len;
		p += len;
	}
	*o = '\0';
}

int
termsafe_put_json(FILE *f, const char *json)
{
	static const char hex[] = "0123456789ABCDEF"   /* as jansson writes \\u001B */;
	const unsigned char *p = (const unsigned char *)json, *run = p;

	while (*p != '\0') {
		size_t len = utf8_len(p);
		unsigned cp;

		/* jansson already escapes C0; what is left is DEL, C1 (2 bytes), bidi (3) */
		if (len == 1 && *p == 0x7f)
			cp = 0x7f;
		else if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
			cp = p[1];
		else if (len == 3 && is_bidi(p))
			cp = 0x2000u | ((unsigned)(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
		else {
			p += len == 0 ? 1 : len;
			continue;
		}
		char esc[6] = { '\\', 'u', hex[cp >> 12], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
				hex[cp & 15] };

		if (fwrite(run, 1, (size_t)(p - run), f) != (size_t)(p - run) ||
		    fwrite(esc, 1, sizeof esc, f) != sizeof esc)
			return -1;
		p += len;
		run = p;
	}
	return fwrite(run, 1, (size_t)(p - run), f) == (size_t)(p - run) ? 0 : -1;
}
