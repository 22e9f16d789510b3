/* xmlscan: the one reader of the small, fixed-shape XML answers AWS sends (STS results, the
 * query protocol's answers and <Error> bodies): the text of the first <tag>...</tag>, and
 * the child elements of an element one at a time (xmlscan_next), which the query client
 * (src/aws/xmljson.c) walks along an answer's shape. It is not an XML parser: attributes
 * are skipped, namespaces not resolved, and what AWS never sends (DOCTYPE and entity
 * declarations, CDATA, comments, processing instructions after the prolog) is refused.
 * Ownership: xmlscan_find returns a view into the caller's body and allocates nothing;
 * xmlscan_decode appends to the caller's buf (so a secret lands only in memory it wipes). */
#ifndef ECSPROF_XMLSCAN_H
#define ECSPROF_XMLSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/buf.h"

/* Text between the first "<tag>" in body and the first "</tag>" after it, undecoded, with
 * its length in *len; NULL (and *len untouched) when either is missing. */
const char *xmlscan_find(const char *body, const char *tag, size_t *len);

/* Appends s[0..len) to out with the five predefined entities (&amp; &lt; &gt; &quot;
 * &apos;) and character references (&#10; &#x2014;, as UTF-8) decoded; any other '&' is
 * kept as it is (a reference to a control other than tab, newline and return, or past
 * U+10FFFF, too). Returns 0, or -1 when out's cap cut the
 * text short (what fitted was added). */
int xmlscan_decode(const char *s, size_t len, struct buf *out);

/* xmlscan_find then xmlscan_decode into out[size], cut to size - 1 bytes; out is "" when
 * the tag is missing. Returns 0 when the tag was found, -1 when not. */
int xmlscan_text(const char *body, const char *tag, char *out, size_t size);

/* An element xmlscan_next found: its name and its content (between the tags, undecoded;
 * empty for <name/>). Views into the caller's text. */
struct xmlscan_el {
	const char *name;
	size_t name_len;
	const char *body;
	size_t body_len;
};

/* Nesting xmlscan_next follows inside one element before it refuses the text. */
#define XMLSCAN_MAX_DEPTH 64

/* The next child element in [*p, end) (the content of an element, or a whole document:
 * an XML declaration and whitespace before the root are skipped), with *p moved past it.
 * Text between elements is skipped. Returns 1 and *el, 0 when no element is left, -1 when
 * the text is malformed or refused, *why (static text) saying why: a tag never closed, a
 * closing tag that does not match, a DOCTYPE, an entity declaration, CDATA, a comment, a
 * processing instruction, nesting past XMLSCAN_MAX_DEPTH. */
int xmlscan_next(const char **p, const char *end, struct xmlscan_el *el, const char **why);

/* Whether an element's name is name. */
bool xmlscan_is(const struct xmlscan_el *el, const char *name);

#endif
