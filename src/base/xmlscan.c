/* xmlscan: text of the first <tag>...</tag> in a small AWS XML answer (see xmlscan.h). */
#include <stdio.h>
#include <string.h>

#include "ecsprof/xmlscan.h"

/* First "<" prefix tag ">" in s (prefix "" or "/"), NULL when absent; *end gets the byte
 * after the '>'. Built without a fixed-size pattern buffer so no tag is cut short. */
static const char *
find_tag(const char *s, const char *prefix, const char *tag, const char **end)
{
	size_t np = strlen(prefix), nt = strlen(tag);

	for (const char *p = strchr(s, '<'); p != NULL; p = strchr(p + 1, '<')) {
		const char *q = p + 1;

		if (strncmp(q, prefix, np) != 0)
			continue;
		q += np;
		if (strncmp(q, tag, nt) != 0 || q[nt] != '>')
			continue;
		*end = q + nt + 1;
		return p;
	}
	return NULL;
}

const char *
xmlscan_find(const char *body, const char *tag, size_t *len)
{
	const char *start, *close, *after;

	if (find_tag(body, "", tag, &start) == NULL)
		return NULL;
	if ((close = find_tag(start, "/", tag, &after)) == NULL)
		return NULL;
	*len = (size_t)(close - start);
	return start;
}

int
xmlscan_decode(const char *s, size_t len, struct buf *out)
{
	static const struct { const char *ent; size_t n; char c; } ents[] = {
		{ "&amp;", 5, '&' }, { "&lt;", 4, '<' }, { "&gt;", 4, '>' },
		{ "&quot;", 6, '"' }, { "&apos;", 6, '\'' },
	};
	const char *e = s + len;

	while (s < e) {
		char c = *s;
		size_t used = 1;

		if (c == '&') {
			for (size_t i = 0; i < sizeof ents / sizeof ents[0]; i++) {
				if ((size_t)(e - s) >= ents[i].n &&
				    memcmp(s, ents[i].ent, ents[i].n) == 0) {
					c = ents[i].c;
					used = ents[i].n;
					break;
				}
			}
		}
		if (buf_addc(out, c) != 0)
			return -1;
		s += used;
	}
	return 0;
}

int
xmlscan_text(const char *body, const char *tag, char *out, size_t size)
{
	const char *v;
	size_t len = 0;
	struct buf b;

	if (size == 0)
		return -1;
	out[0] = '\0';
	if ((v = xmlscan_find(body, tag, &len)) == NULL)
		return -1;
	buf_init(&b, size - 1 ? size - 1 : 1);
	xmlscan_decode(v, len, &b);
	snprintf(out, size, "%s", buf_str(&b));
	buf_cleanup(&b);
	return 0;
}
