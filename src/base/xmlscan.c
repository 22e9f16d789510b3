/* xmlscan: text of the first <tag>...</tag> in a small AWS XML answer, and an answer's
 * elements one at a time (see xmlscan.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* "&#10;" or "&#x2014;" at s (n bytes left) as UTF-8 into u8 (its length in *u8len); the
 * reference's length, 0 when it is none or names what XML does not allow */
static size_t
char_ref(const char *s, size_t n, char u8[4], size_t *u8len)
{
	size_t i = 2;
	int base = 10;
	uint32_t cp = 0;

	if (n < 4 || s[1] != '#')
		return 0;
	if (s[2] == 'x') {
		base = 16;
		i = 3;
	}
	for (size_t start = i; i < n && s[i] != ';'; i++) {
		int d = isdigit((unsigned char)s[i]) ? s[i] - '0'
			: base == 16 && isxdigit((unsigned char)s[i])
			? tolower((unsigned char)s[i]) - 'a' + 10 : -1;
		if (d < 0 || i - start >= 8)
			return 0;
		cp = cp * (uint32_t)base + (uint32_t)d;
	}
	if (i >= n || i == (base == 16 ? 3u : 2u) || cp > 0x10FFFF ||
	    (cp >= 0xD800 && cp <= 0xDFFF) ||
	    (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r'))
		return 0;
	if (cp < 0x80) {
		u8[0] = (char)cp;
		*u8len = 1;
	} else if (cp < 0x800) {
		u8[0] = (char)(0xC0 | (cp >> 6));
		u8[1] = (char)(0x80 | (cp & 0x3F));
		*u8len = 2;
	} else if (cp < 0x10000) {
		u8[0] = (char)(0xE0 | (cp >> 12));
		u8[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u8[2] = (char)(0x80 | (cp & 0x3F));
		*u8len = 3;
	} else {
		u8[0] = (char)(0xF0 | (cp >> 18));
		u8[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u8[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u8[3] = (char)(0x80 | (cp & 0x3F));
		*u8len = 4;
	}
	return i + 1;
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
		char u8[4] = { *s };
		size_t used = 1, n = 1;

		if (*s == '&') {
			for (size_t i = 0; i < sizeof ents / sizeof ents[0]; i++) {
				if ((size_t)(e - s) >= ents[i].n &&
				    memcmp(s, ents[i].ent, ents[i].n) == 0) {
					u8[0] = ents[i].c;
					used = ents[i].n;
					break;
				}
			}
			if (used == 1 && (used = char_ref(s, (size_t)(e - s), u8, &n)) == 0)
				used = 1;
		}
		if (buf_add(out, u8, n) != 0)
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

/* ---- elements one at a time -------------------------------------------------------- */

enum tag_kind { TAG_OPEN, TAG_CLOSE, TAG_EMPTY };

struct tag {
	enum tag_kind kind;
	const char *name;
	size_t name_len;
	const char *after;      /* the byte after '>' */
};

static bool
name_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* The tag at q ('<'), attributes skipped. */
static int
read_tag(const char *q, const char *end, struct tag *t, const char **why)
{
	const char *s = q + 1;

	if (s < end && *s == '!') {
		*why = "a DOCTYPE, entity declaration, CDATA section or comment, which AWS "
		       "answers never have (refused)";
		return -1;
	}
	if (s < end && *s == '?') {
		*why = "a processing instruction after the prolog (refused)";
		return -1;
	}
	t->kind = TAG_OPEN;
	if (s < end && *s == '/') {
		t->kind = TAG_CLOSE;
		s++;
	}
	t->name = s;
	while (s < end && name_char((unsigned char)*s))
		s++;
	t->name_len = (size_t)(s - t->name);
	if (s >= end) {
		*why = "a tag cut short (the answer ends inside it)";
		return -1;
	}
	if (t->name_len == 0) {
		*why = "a '<' that starts no tag";
		return -1;
	}
	for (; s < end && *s != '>'; s++) {
		if (*s == '"' || *s == '\'') {
			const char *close = memchr(s + 1, *s, (size_t)(end - s - 1));
			if (close == NULL) {
				s = end;
				break;
			}
			s = close;
		} else if (*s == '<') {
			*why = "a '<' inside a tag";
			return -1;
		}
	}
	if (s >= end) {
		*why = "a tag cut short (the answer ends inside it)";
		return -1;
	}
	if (t->kind == TAG_OPEN && s[-1] == '/')
		t->kind = TAG_EMPTY;
	t->after = s + 1;
	return 0;
}

/* The XML declaration at the start of a document, if any: skipped. */
static const char *
skip_prolog(const char *s, const char *end)
{
	const char *q = s;

	while (q < end && isspace((unsigned char)*q))
		q++;
	if (end - q >= 5 && memcmp(q, "<?xml", 5) == 0) {
		for (q += 5; q + 1 < end; q++)
			if (q[0] == '?' && q[1] == '>')
				return q + 2;
	}
	return s;
}

static bool
same_name(const struct tag *a, const char *name, size_t len)
{
	return a->name_len == len && memcmp(a->name, name, len) == 0;
}

int
xmlscan_next(const char **p, const char *end, struct xmlscan_el *el, const char **why)
{
	const char *s = skip_prolog(*p, end), *q;
	struct { const char *name; size_t len; } stack[XMLSCAN_MAX_DEPTH];
	struct tag t;
	size_t depth = 0;

	if ((q = memchr(s, '<', (size_t)(end - s))) == NULL) {
		*p = end;
		return 0;
	}
	if (read_tag(q, end, &t, why) != 0)
		return -1;
	if (t.kind == TAG_CLOSE) {
		*why = "a closing tag with no opening tag";
		return -1;
	}
	el->name = t.name;
	el->name_len = t.name_len;
	el->body = t.after;
	el->body_len = 0;
	if (t.kind == TAG_EMPTY) {
		*p = t.after;
		return 1;
	}
	stack[depth].name = t.name;
	stack[depth++].len = t.name_len;
	for (s = t.after; (q = memchr(s, '<', (size_t)(end - s))) != NULL; s = t.after) {
		if (read_tag(q, end, &t, why) != 0)
			return -1;
		if (t.kind == TAG_EMPTY)
			continue;
		if (t.kind == TAG_OPEN) {
			if (depth == XMLSCAN_MAX_DEPTH) {
				*why = "elements nested too deep";
				return -1;
			}
			stack[depth].name = t.name;
			stack[depth++].len = t.name_len;
			continue;
		}
		depth--;
		if (!same_name(&t, stack[depth].name, stack[depth].len)) {
			*why = "a closing tag that does not match its opening tag";
			return -1;
		}
		if (depth == 0) {
			el->body_len = (size_t)(q - el->body);
			*p = t.after;
			return 1;
		}
	}
	*why = "an element never closed (the answer is cut short)";
	return -1;
}

bool
xmlscan_is(const struct xmlscan_el *el, const char *name)
{
	return strlen(name) == el->name_len && memcmp(el->name, name, el->name_len) == 0;
}
