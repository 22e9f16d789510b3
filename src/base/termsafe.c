/* termsafe: one definition of "hostile to a terminal", shared by the table, CSV, JSON and
 * every warning and error line, so that a new output cannot forget a case. */
#include <stdbool.h>
#include <string.h>

#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"

bool
termsafe_cp_unsafe(uint32_t cp)
{
	if (cp < 0x20)
		return cp != '\t' && cp != '\n' && cp != '\r';
	if (cp >= 0x7f && cp <= 0x9f)
		return true;                            /* DEL, C1 */
	if (cp == 0x061c || cp == 0x200e || cp == 0x200f)
		return true;                            /* ALM, LRM, RLM */
	if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
		return true;                            /* LRE RLE PDF LRO RLO, LRI RLI FSI PDI */
	return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;   /* noncharacters */
}

size_t
termsafe_shared_bad_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = utf8_len(p);

	if (len == 0)
		return 1;
	return termsafe_cp_unsafe(utf8_decode(p, len)) ? len : 0;
}

size_t
termsafe_bad_len(const char *s, const char *keep)
{
	const unsigned char *p = (const unsigned char *)s;

	if (p[0] < 0x20)
		return p[0] != '\0' && keep != NULL && strchr(keep, p[0]) != NULL ? 0 : 1;
	return termsafe_shared_bad_len(s);
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
		uint32_t cp = len > 0 ? utf8_decode(p, len) : 0;
		uint32_t units[2] = { cp, 0 };
		size_t nunits = 1;

		/* jansson already escapes C0 (in strings; outside them there is none) */
		if (len == 0 || cp < 0x20 || !termsafe_cp_unsafe(cp)) {
			p += len == 0 ? 1 : len;
			continue;
		}
		if (cp > 0xffff) {   /* a noncharacter of a supplementary plane: a surrogate pair */
			units[0] = 0xd800 + ((cp - 0x10000) >> 10);
			units[1] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
			nunits = 2;
		}
		if (fwrite(run, 1, (size_t)(p - run), f) != (size_t)(p - run))
			return -1;
		for (size_t i = 0; i < nunits; i++) {
			uint32_t u = units[i];
			char esc[6] = { '\\', 'u', hex[u >> 12], hex[(u >> 8) & 15],
					hex[(u >> 4) & 15], hex[u & 15] };

			if (fwrite(esc, 1, sizeof esc, f) != sizeof esc)
				return -1;
		}
		p += len;
		run = p;
	}
	return fwrite(run, 1, (size_t)(p - run), f) == (size_t)(p - run) ? 0 : -1;
}
