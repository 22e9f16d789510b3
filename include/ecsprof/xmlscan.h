/* xmlscan: the one reader of the small, fixed-shape XML answers AWS sends (STS results, the
 * query protocol's and moto's <Error> bodies): the text of the first <tag>...</tag>. It is
 * not an XML parser: no attributes, namespaces, CDATA or nesting rules, by design.
 * Ownership: xmlscan_find returns a view into the caller's body and allocates nothing;
 * xmlscan_decode appends to the caller's buf (so a secret lands only in memory it wipes). */
#ifndef ECSPROF_XMLSCAN_H
#define ECSPROF_XMLSCAN_H

#include <stddef.h>

#include "ecsprof/buf.h"

/* Text between the first "<tag>" in body and the first "</tag>" after it, undecoded, with
 * its length in *len; NULL (and *len untouched) when either is missing. */
const char *xmlscan_find(const char *body, const char *tag, size_t *len);

/* Appends s[0..len) to out with the five predefined entities (&amp; &lt; &gt; &quot;
 * &apos;) decoded; any other '&' is kept as it is. Returns 0, or -1 when out's cap cut the
 * text short (what fitted was added). */
int xmlscan_decode(const char *s, size_t len, struct buf *out);

/* xmlscan_find then xmlscan_decode into out[size], cut to size - 1 bytes; out is "" when
 * the tag is missing. Returns 0 when the tag was found, -1 when not. */
int xmlscan_text(const char *body, const char *tag, char *out, size_t size);

#endif
