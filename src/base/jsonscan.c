/* jsonscan: JSON checked byte by byte as jansson's lexer and parser check it; see
 * jsonscan.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/utf8.h"
#include "ecsprof/jsonscan.h"
/* after ws: ',' (true, more to come), or the closer (false); -1 on anything else */
static int
jsonscan_next_member(struct jsonscan *sc, char closer)
{
	jsonscan_ws(sc);
	if (jsonscan_at(sc, ',')) {
		sc->p++;
		jsonscan_ws(sc);
		return 1;
	}
	if (jsonscan_at(sc, closer)) {
		sc->p++;
		return 0;
	}
	return -1;
}

static int
hex4(const char *q, const char *end)
{
	int v = 0;

	if (end - q < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = q[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A \u escape at q (its backslash) as jansson's lexer takes it, checked, not decoded:
 * its length (6, or 12 for a surrogate pair), or -1 where jansson refuses it (a lone or
 * unpaired surrogate, \u0000 without JSON_ALLOW_NUL) or we are not sure. */
static int
unicode_escape(const char *q, const char *end)
{
	int v = hex4(q + 2, end), w;

	if (v <= 0 || (v >= 0xDC00 && v <= 0xDFFF))
		return -1;
	if (v < 0xD800 || v > 0xDBFF)
		return 6;
	if (end - q < 12 || q[6] != '\\' || q[7] != 'u')
		return -1;
	w = hex4(q + 8, end);
	return w >= 0xDC00 && w <= 0xDFFF ? 12 : -1;
}

/* The rest of a string whose plain run from start stopped at q, before its end or at a
 * byte that is no closing quote: escapes, UTF-8, or the end of the text (jsonscan.h). */
int
jsonscan_string_rest(struct jsonscan *sc, bool may_escape, struct jsonscan_str *out,
		     const char *start, const char *q)
{
	size_t o = (size_t)(q - start);
	bool escaped = false, checked = false;   /* checked: escapes seen with no buf */

	while (q < sc->end) {
		unsigned char c;

		if (!escaped)
			q = jsonscan_plain_run(q, sc->end);
		if (q >= sc->end)
			break;
		c = (unsigned char)*q;

		if (c == '"') {
			if (checked) {
				out->s = NULL;   /* checked, not decoded */
				out->n = 0;
			} else if (escaped) {
				out->s = sc->buf;
				out->n = o;
			} else {
				out->s = start;
				out->n = (size_t)(q - start);
			}
			sc->p = q + 1;
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c >= 0x80) {
			size_t len;

			if (sc->end - q < 4 || (len = utf8_len((const unsigned char *)q)) == 0)
				return -1;
			if (escaped)
				memcpy(sc->buf + o, q, len);
			o += len;
			q += len;
			continue;
		}
		if (c == '\\') {
			if (!may_escape || sc->end - q < 2)
				return -1;
			if (sc->buf == NULL) {
				/* checking only: the plain runs stay fast, nothing is copied */
				int k = q[1] == 'u' ? unicode_escape(q, sc->end) :
				    strchr("\"\\/bfnrt", q[1]) != NULL && q[1] != '\0' ? 2 : -1;

				if (k < 0)
					return -1;
				q += k;
				checked = true;
				continue;
			}
			if (!escaped) {
				memcpy(sc->buf, start, (size_t)(q - start));
				o = (size_t)(q - start);
				escaped = true;
			}
			int e = jsonscan_unescape(q[1]);

			if (e < 0)
				return -1;   /* \u and anything wrong: jansson's */
			sc->buf[o++] = (char)e;
			q += 2;
			continue;
		}
		if (escaped)
			sc->buf[o] = (char)c;
		o++;
		q++;
	}
	return -1;
}

/* A real D.F (no exponent) of at most 15 digits in all, between digits and q, as strtod
 * reads it: D and F as one integer below 2^53 and 10^|F| are both exact doubles, so their
 * quotient, rounded once, is the nearest double to D.F (Clinger's fast path). false: the
 * caller's strtod. Epoch seconds with milliseconds are all such. */
static bool
fast_real(const char *digits, const char *q, bool neg, double *dv)
{
	static const double pow10[16] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
		1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	uint64_t v = 0;
	int nd = 0, nf = -1;

	for (const char *d = digits; d < q; d++) {
		if (*d == '.') {
			nf = 0;
			continue;
		}
		if (*d < '0' || *d > '9' || ++nd > 15)
			return false;   /* an exponent, or too many digits */
		v = v * 10 + (uint64_t)(*d - '0');
		if (nf >= 0)
			nf++;
	}
	if (nf < 0)
		return false;
	*dv = (double)v / pow10[nf];
	if (neg)
		*dv = -*dv;
	return true;
}

/* A number in JSON's grammar. Integers as jansson reads them (up to 18 digits here, so
 * no overflow to word); reals through strtod, as jansson, refused when they overflow. */
int
jsonscan_number(struct jsonscan *sc, bool *is_int, int64_t *iv, double *dv)
{
	const char *q = sc->p, *digits;
	bool neg = false, real = false;
	char tmp[64], *stop;

	if (q < sc->end && *q == '-') {
		neg = true;
		q++;
	}
	digits = q;
	if (q >= sc->end || *q < '0' || *q > '9')
		return -1;
	if (*q == '0')
		q++;
	else
		while (q < sc->end && *q >= '0' && *q <= '9')
			q++;
	if (q < sc->end && *q >= '0' && *q <= '9')
		return -1;   /* "01" */
	if (q < sc->end && *q == '.') {
		real = true;
		q++;
		if (q >= sc->end || *q < '0' || *q > '9')
			return -1;
		while (q < sc->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < sc->end && (*q == 'e' || *q == 'E')) {
		real = true;
		q++;
		if (q < sc->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= sc->end || *q < '0' || *q > '9')
			return -1;
		while (q < sc->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (real && fast_real(digits, q, neg, dv)) {
		*is_int = false;
	} else if (real) {
		size_t n = (size_t)(q - sc->p);

		if (n >= sizeof tmp)
			return -1;
		memcpy(tmp, sc->p, n);
		tmp[n] = '\0';
		*dv = strtod(tmp, &stop);
		/* a locale with a decimal comma stops early: jansson converts, we give up */
		if (isinf(*dv) || stop != tmp + n)
			return -1;
		*is_int = false;
	} else {
		int64_t v = 0;

		if (q - digits > 18)
			return -1;
		for (const char *d = digits; d < q; d++)
			v = v * 10 + (*d - '0');
		*iv = neg ? -v : v;
		*is_int = true;
	}
	sc->p = q;
	return 0;
}

int
jsonscan_word(struct jsonscan *sc, const char *w, size_t n)
{
	if ((size_t)(sc->end - sc->p) < n || memcmp(sc->p, w, n) != 0)
		return -1;
	/* jansson reads a whole run of letters as one word: "truex" is no "true" */
	if (sc->p + n < sc->end && ((sc->p[n] >= 'a' && sc->p[n] <= 'z') ||
				   (sc->p[n] >= 'A' && sc->p[n] <= 'Z')))
		return -1;
	sc->p += n;
	return 0;
}


/* A key's pack: its first 7 bytes (fewer: zeros after them) and the low byte of its
 * length, as one word; byte by byte, for a key near the end of the text. */
static uint64_t
key_pack_bytes(const struct jsonscan_str *k)
{
	unsigned char b[8] = { 0 };
	uint64_t pack;

	memcpy(b, k->s, k->n < 7 ? k->n : 7);
	b[7] = (unsigned char)k->n;
	memcpy(&pack, b, sizeof pack);
	return pack;
}

/* the pack key_pack_bytes() makes, from the key's first 8 bytes w as one load gives them
 * on a little-endian machine: the bytes past its first 7 (or fewer) masked off */
static inline uint64_t
key_pack_word(uint64_t w, size_t n)
{
	static const uint64_t keep[8] = { 0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF,
		0xFFFFFFFFFFULL, 0xFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFULL };

	return (w & keep[n < 7 ? n : 7]) | (uint64_t)(unsigned char)n << 56;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JSONSCAN_LE 1
#else
#define JSONSCAN_LE 0
#endif

static uint64_t
key_pack(const struct jsonscan *sc, const struct jsonscan_str *k)
{
	uint64_t w;

	if (!JSONSCAN_LE || sc->end - k->s < 8)
		return key_pack_bytes(k);
	memcpy(&w, k->s, sizeof w);
	return key_pack_word(w, k->n);
}

/* A member key (its pack) of the object open at sc->depth: -1 when the object has it
 * already (or more keys, or more depth, than sc->dup tracks). Once for every key not a
 * reader's own (skipped objects', and a task's keys the model does not keep): a key
 * whose bit in the filter is clear is new; one whose bit is set is compared with the
 * earlier keys of that bit only (a chain from head[bit]; head[] is valid for the bits set
 * since the object opened (dup_open), so it is never cleared), not with every earlier
 * key. */
static inline int
jsonscan_key_new(struct jsonscan *sc, const struct jsonscan_str *k, uint64_t pack)
{
	unsigned lvl = (unsigned)(sc->depth - 1), n, bit, next = JSONSCAN_DUP_KEYS;
	struct jsonscan_dup_level *l;

	if (lvl >= JSONSCAN_DUP_DEPTH)
		return -1;
	l = &sc->dup->level[lvl];
	if ((n = l->n) >= JSONSCAN_DUP_KEYS)
		return -1;
	/* the bit of this pack, of 256: an event's task object has some 35 keys */
	bit = (unsigned)((pack * 0x9E3779B97F4A7C15ULL) >> 56);
	if (l->seen[bit >> 6] & ((uint64_t)1 << (bit & 63))) {
		next = l->head[bit];
		for (unsigned i = next; i < JSONSCAN_DUP_KEYS; i = l->next[i])
			if (l->key[i].n == k->n && mem_eq(l->key[i].s, k->s, k->n))
				return -1;
	}
	l->seen[bit >> 6] |= (uint64_t)1 << (bit & 63);
	l->head[bit] = (unsigned char)n;
	l->next[n] = (unsigned char)next;
	l->key[n].s = k->s;
	l->key[n].n = k->n;
	l->n = n + 1;
	return 0;
}

int
jsonscan_key_other(struct jsonscan *sc, const struct jsonscan_str *key)
{
	if (sc->dup == NULL)
		return 0;
	return jsonscan_key_new(sc, key, key_pack(sc, key));
}

/* the object just opened at sc->depth has no keys yet (for jsonscan_key_new) */
static inline void
dup_open(struct jsonscan *sc)
{
	unsigned lvl = (unsigned)(sc->depth - 1);

	if (sc->dup != NULL && lvl < JSONSCAN_DUP_DEPTH) {
		struct jsonscan_dup_level *l = &sc->dup->level[lvl];

		l->n = 0;
		l->seen[0] = l->seen[1] = l->seen[2] = l->seen[3] = 0;
	}
}

/* white space from p: where it ends (p itself for none), on locals, not through sc */
static inline const char *
ws_from(const char *p, const char *end)
{
	while (p < end && (unsigned char)*p <= ' ' &&
	       (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* A key and its ':' as jsonscan_member_key() reads them, for any key (white space,
 * escapes, which are refused, UTF-8, the end of the text near): 0 or -1. */
static int
member_key(struct jsonscan *sc, struct jsonscan_str *key)
{
	if (jsonscan_string(sc, false, key) != 0)
		return -1;
	jsonscan_ws(sc);
	if (!jsonscan_at(sc, ':'))
		return -1;
	sc->p++;
	return 0;
}

#ifdef __SSE2__
/* the bytes of v that end a plain run (a quote, a backslash, a control or non-ASCII
 * byte), as a bit mask */
static inline unsigned
special_mask(__m128i v)
{
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
	    _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))));
}
#endif

/* Any member as jsonscan_member_key() reads it: the first, white space anywhere, long
 * or escaped keys, the object's end. Apart, so that the usual member's path there saves
 * no registers. On locals: a store through key or sc may alias sc->p, and each made the
 * compiler load it again. */
static __attribute__((noinline)) int
member_any(struct jsonscan *sc, bool first, struct jsonscan_str *key)
{
	const char *p = sc->p, *end = sc->end;

	if (first) {
		if (p >= end || *p != '{' || ++sc->depth > JSONSCAN_DEPTH)
			return -1;
		p = ws_from(p + 1, end);
		if (p < end && *p == '}') {
			sc->p = p + 1;
			sc->depth--;
			return 0;
		}
		dup_open(sc);
	} else if (p < end && *p == ',') {
		p++;
		if (p < end && (unsigned char)*p <= ' ')
			p = ws_from(p, end);
	} else {
		int more = jsonscan_next_member(sc, '}');

		if (more != 1) {
			if (more == 0)
				sc->depth--;
			return more;
		}
		p = sc->p;
	}
#ifdef __SSE2__
	if (end - p >= 18 && *p == '"') {
		/* the key's bytes from p + 1: its closing quote the first special byte, its ':'
		 * straight after; p + 17 is in the text */
		size_t n = (size_t)__builtin_ctz(special_mask(_mm_loadu_si128(
		    (const __m128i *)(const void *)(p + 1))) | 0x10000);

		if (n < 16 && p[1 + n] == '"' && p[2 + n] == ':') {
			const char *s = p + 1;

			p += n + 3;
			/* the space after the colon of a pretty answer: no call */
			if (p < end && (unsigned char)*p <= ' ')
				p = ws_from(p, end);
			sc->p = p;
			key->s = s;
			key->n = n;
			return 1;
		}
	}
#endif
	sc->p = p;
	if (member_key(sc, key) != 0)
		return -1;
	jsonscan_ws(sc);
	return 1;
}

/* An object's members one by one (jsonscan.h); the depth counts the object while open.
 * Most members of an answer or a line are the usual one, read here: its '{' or the ','
 * after a value and at most one space, a key of under 32 plain bytes (one or two 16-byte
 * loads), its ':' straight after it, and the white space after that; and the '}' straight
 * after a value. Anything else in member_any(). No repeated-key check:
 * jsonscan_member(). */
int
jsonscan_member_key(struct jsonscan *sc, bool first, struct jsonscan_str *key)
{
#ifdef __SSE2__
	const char *p = sc->p, *end = sc->end;

	/* p + 2 + 33 (the ':' of the longest key read here) is in the text */
	if (end - p >= 36) {
		if (!first && *p == '}') {
			sc->p = p + 1;
			sc->depth--;
			return 0;
		}
		if (first ? *p != '{' || sc->depth >= JSONSCAN_DEPTH : *p != ',')
			return member_any(sc, first, key);
		p += p[1] == ' ' ? 2 : 1;
		if (*p == '"') {
			size_t n = (size_t)__builtin_ctz(special_mask(_mm_loadu_si128(
			    (const __m128i *)(const void *)(p + 1))) | 0x10000);

			if (n == 16)
				n += (size_t)__builtin_ctz(special_mask(_mm_loadu_si128(
				    (const __m128i *)(const void *)(p + 17))) | 0x10000);
			if (n < 32 && p[1 + n] == '"' && p[2 + n] == ':') {
				if (first) {
					sc->depth++;
					dup_open(sc);
				}
				key->s = p + 1;
				key->n = n;
				p += n + 3;
				if (p < end && (unsigned char)*p <= ' ')
					p = ws_from(p, end);
				sc->p = p;
				return 1;
			}
		}
	}
#endif
	return member_any(sc, first, key);
}

int
jsonscan_member(struct jsonscan *sc, bool first, struct jsonscan_str *key)
{
	int m = jsonscan_member_key(sc, first, key);

	if (m == 1 && jsonscan_key_other(sc, key) != 0)
		return -1;
	return m;
}

/* The elements of an array one by one, as jsonscan_member(): 1: an element is next. */
int
jsonscan_element(struct jsonscan *sc, bool first)
{
	int more;

	if (first) {
		if (!jsonscan_at(sc, '[') || ++sc->depth > JSONSCAN_DEPTH)
			return -1;
		sc->p++;
		jsonscan_ws(sc);
		if (jsonscan_at(sc, ']')) {
			sc->p++;
			sc->depth--;
			return 0;
		}
		return 1;
	}
	if ((more = jsonscan_next_member(sc, ']')) == 0)
		sc->depth--;
	return more;
}

/* the members of an object or the elements of an array, at its opening bracket, checked
 * and skipped: the readers' own member and element steps */
static int
skip_container(struct jsonscan *sc, bool object)
{
	struct jsonscan_str k;
	int more;

	for (bool first = true;; first = false) {
		if ((more = object ? jsonscan_member(sc, first, &k) : jsonscan_element(sc, first)) != 1)
			return more;
		if (jsonscan_skip(sc) != 0)
			return -1;
	}
}

int
jsonscan_skip(struct jsonscan *sc)
{
	struct jsonscan_str s;
	bool is_int;
	int64_t iv;
	double dv;

	if (sc->p >= sc->end)
		return -1;
	switch (*sc->p) {
	case '{': return skip_container(sc, true);
	case '[': return skip_container(sc, false);
	case '"': return jsonscan_string(sc, true, &s);
	case 't': return jsonscan_word(sc, "true", 4);
	case 'f': return jsonscan_word(sc, "false", 5);
	case 'n': return jsonscan_word(sc, "null", 4);
	default: return jsonscan_number(sc, &is_int, &iv, &dv);
	}
}

bool
jsonscan_document(const char *p, size_t n)
{
	struct jsonscan sc = { p, p + n, NULL, 0, NULL };

	jsonscan_ws(&sc);
	if ((!jsonscan_at(&sc, '{') && !jsonscan_at(&sc, '[')) || jsonscan_skip(&sc) != 0)
		return false;
	jsonscan_ws(&sc);
	return sc.p == sc.end;
}
