/* sigv4_canon: the parts of SigV4's canonical request (sigv4_canon.h). */
#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/hex.h"
#include "ecsprof/xalloc.h"
#include "sigv4_canon.h"

static bool
is_unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

/* keep_slash for paths; keep_pct for S3 paths that are already encoded. */
int
uri_encode(struct buf *out, const char *s, size_t n, bool keep_slash, bool keep_pct)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int rc;
		if (is_unreserved(c) || (keep_slash && c == '/') || (keep_pct && c == '%')) {
			rc = buf_addc(out, (char)c);
		} else {
			char e[3] = { '%', hex[c >> 4], hex[c & 15] };
			rc = buf_add(out, e, 3);
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* Percent-decodes s[0..n) into out; a '%' not followed by two hex digits stays literal. */
static int
uri_decode(struct buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (s[i] == '%' && i + 2 < n && (hi = hex_value(s[i + 1])) >= 0 &&
		    (lo = hex_value(s[i + 2])) >= 0) {
			if (buf_addc(out, (char)(hi * 16 + lo)) != 0)
				return -1;
			i += 2;
		} else if (buf_addc(out, s[i]) != 0) {
			return -1;
		}
	}
	return 0;
}

/* RFC 3986 remove_dot_segments plus squeezing of empty segments, on the raw path.
 * A trailing "/" (or a final "." / "..") keeps the path ending in "/". */
char *
normalize_path(const char *p, size_t n)
{
	size_t nseg = 0, cap = 8;
	struct { const char *s; size_t n; } *seg = xcalloc(cap, sizeof *seg);
	bool trailing = n > 0 && p[n - 1] == '/';
	struct buf out;
	size_t i = 0;

	while (i < n) {
		size_t j = i;
		while (j < n && p[j] != '/')
			j++;
		size_t len = j - i;
		bool last = j >= n;
		if (len == 0) {
			/* squeezed */
		} else if (len == 1 && p[i] == '.') {
			if (last)
				trailing = true;
		} else if (len == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (nseg > 0)
				nseg--;
			if (last)
				trailing = true;
		} else {
			seg = xgrow(seg, nseg + 1, &cap, sizeof *seg);
			seg[nseg].s = p + i;
			seg[nseg].n = len;
			nseg++;
		}
		i = j + 1;
	}
	buf_init(&out, SIGV4_TEXT_MAX);
	for (size_t k = 0; k < nseg; k++) {
		buf_addc(&out, '/');
		buf_add(&out, seg[k].s, seg[k].n);
	}
	if (nseg == 0 || trailing)
		buf_addc(&out, '/');
	free(seg);
	return buf_take(&out);
}

struct qparam {
	char *key;      /* encoded */
	char *value;    /* encoded */
};

static int
qparam_cmp(const void *a, const void *b)
{
	const struct qparam *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c != 0 ? c : strcmp(x->value, y->value);
}

static char *
encode_component(const char *s, size_t n)
{
	struct buf dec, enc;

	buf_init(&dec, SIGV4_TEXT_MAX);
	buf_init(&enc, 3 * SIGV4_TEXT_MAX);
	uri_decode(&dec, s, n);
	uri_encode(&enc, buf_str(&dec), dec.len, false, false);
	buf_cleanup(&dec);
	return buf_take(&enc);
}

int
canonical_query(struct buf *cr, const char *q, size_t n)
{
	size_t np = 0, cap = 8;
	struct qparam *ps = xcalloc(cap, sizeof *ps);
	size_t i = 0;
	int rc = 0;

	while (i < n) {
		size_t j = i;
		while (j < n && q[j] != '&')
			j++;
		if (j > i) {
			const char *eq = memchr(q + i, '=', j - i);
			ps = xgrow(ps, np + 1, &cap, sizeof *ps);
			if (eq != NULL) {
				ps[np].key = encode_component(q + i, (size_t)(eq - (q + i)));
				ps[np].value = encode_component(eq + 1, (size_t)(q + j - eq - 1));
			} else {
				ps[np].key = encode_component(q + i, j - i);
				ps[np].value = xstrdup("");
			}
			np++;
		}
		i = j + 1;
	}
	qsort(ps, np, sizeof *ps, qparam_cmp);
	for (size_t k = 0; k < np; k++) {
		if (rc == 0 && ((k > 0 && buf_addc(cr, '&') != 0) || buf_adds(cr, ps[k].key) != 0 ||
				buf_addc(cr, '=') != 0 || buf_adds(cr, ps[k].value) != 0))
			rc = -1;
		free(ps[k].key);
		free(ps[k].value);
	}
	free(ps);
	return rc;
}

int
chdr_cmp(const void *a, const void *b)
{
	const struct chdr *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool
is_ws(char c)
{
	/* CR and LF appear in obs-folded values ("v1\r\n  v2"); they fold to one space */
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

char *
squeeze_value(const char *v)
{
	size_t n = strlen(v);
	char *out = xmalloc(n + 1);
	size_t o = 0;
	bool pending = false;

	for (size_t i = 0; i < n; i++) {
		if (is_ws(v[i])) {
			pending = o > 0;
			continue;
		}
		if (pending)
			out[o++] = ' ';
		pending = false;
		out[o++] = v[i];
	}
	out[o] = '\0';
	return out;
}

char *
lower_dup(const char *s)
{
	char *d = xstrdup(s);
	for (char *p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return d;
}

void
chdrs_free(struct chdr *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (h[i].secret && h[i].value != NULL)
			OPENSSL_cleanse(h[i].value, strlen(h[i].value));
		free(h[i].name);
		free(h[i].value);
	}
	free(h);
}

