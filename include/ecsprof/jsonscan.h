/* jsonscan: the JSON lexing under taskscan.c (offline lines) and aws/ecs_scan.c
 * (DescribeTasks answers): one pass over the bytes, checked as strictly as jansson's
 * parser checks them (grammar, UTF-8, control characters, integer and real overflow),
 * giving up (-1) where jansson would accept but reading would be awkward here (\\u
 * escapes, escaped keys, nesting past JSONSCAN_DEPTH): a caller then hands the line to
 * jansson. Nothing allocates; a string is either in the line or, when it
 * had escapes, decoded into the caller's scratch buf (valid until the next string read).
 * Ownership: the line and buf are the caller's. */
#ifndef ECSPROF_JSONSCAN_H
#define ECSPROF_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ecsprof/memeq.h"

#define JSONSCAN_DEPTH 64
/* Keys named twice in one object: jansson keeps the last value silently, the reader
 * warns, so a scan with dup set gives such a line up (-1) to jansson. Objects up to
 * this deep, with up to this many members, are checked; others are given up too. */
#define JSONSCAN_DUP_DEPTH 16
#define JSONSCAN_DUP_KEYS 64

struct jsonscan_dup {
	/* the object open at each depth, its members together (one base address a key) */
	struct jsonscan_dup_level {
		unsigned n;               /* its keys so far */
		/* a filter of its keys (bit hash(pack) % 256 set: the pack, its first 7 bytes
		 * and length): a key whose bit is clear is new without a compare */
		uint64_t seen[4];
		/* the last key (its index) of each bit set in seen[], and the one before each
		 * key with its bit (JSONSCAN_DUP_KEYS: none): only keys of one bit are compared */
		unsigned char head[256];
		unsigned char next[JSONSCAN_DUP_KEYS];
		struct { const char *s; size_t n; } key[JSONSCAN_DUP_KEYS];
	} level[JSONSCAN_DUP_DEPTH];
};

struct jsonscan {
	const char *p, *end;
	char *buf;          /* a decoded string with escapes; one at a time. NULL: strings are
	                     * only checked (\u escapes too, as jansson checks them), for a
	                     * scan that reads no string value with escapes (input_stream.c) */
	int depth;
	struct jsonscan_dup *dup;   /* NULL: repeated keys not checked */
};

struct jsonscan_str {
	const char *s;      /* NULL: JSON null (or, from a reader of any value, not a string) */
	size_t n;
};

/* a key a reader looks for: its text and length */
struct jsonscan_key {
	const char *s;
	size_t n;
};
#define JSONSCAN_KEY(s) { s, sizeof s - 1 }

static inline void
jsonscan_ws(struct jsonscan *sc)
{
	/* one compare for the usual byte, which is above the space */
	while (sc->p < sc->end && (unsigned char)*sc->p <= ' ' &&
	       (*sc->p == ' ' || *sc->p == '\t' || *sc->p == '\n' || *sc->p == '\r'))
		sc->p++;
}

static inline bool
jsonscan_at(struct jsonscan *sc, char c)
{
	return sc->p < sc->end && *sc->p == c;
}

/* The first byte at or after q that is '"', '\\', a control or a non-ASCII byte (or
 * end), 16 (SSE2) or 8 bytes at a time: the bulk of a line is such plain text. */
static inline const char *
jsonscan_plain_run(const char *q, const char *end)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;

#ifdef __SSE2__
	/* as signed bytes, a control or a non-ASCII byte is < 0x20 */
	const __m128i quote16 = _mm_set1_epi8('"'), slash16 = _mm_set1_epi8('\\'),
		      space16 = _mm_set1_epi8(0x20);

	while (end - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
		int m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote16),
		    _mm_cmpeq_epi8(v, slash16)), _mm_cmplt_epi8(v, space16)));

		if (m != 0)
			return q + __builtin_ctz((unsigned)m);
		q += 16;
	}
#endif
	while (end - q >= 8) {
		uint64_t w, quote, slash, ctl;

		memcpy(&w, q, 8);
		quote = w ^ (ones * '"');
		slash = w ^ (ones * '\\');
		/* a zero byte in quote/slash, a byte below 0x20, or one with its high bit set */
		quote = (quote - ones) & ~quote;
		slash = (slash - ones) & ~slash;
		ctl = (w - ones * 0x20) & ~w;
		if (((quote | slash | ctl) & highs) | (w & highs))
			break;
		q += 8;
	}
	while (q < end) {
		unsigned char c = (unsigned char)*q;

		if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
			break;
		q++;
	}
	return q;
}

/* jsonscan_string() past a plain run from start that stopped at q on no closing quote:
 * escapes, UTF-8, the end of the text. For jsonscan_string() alone. */
int jsonscan_string_rest(struct jsonscan *sc, bool may_escape, struct jsonscan_str *out,
			 const char *start, const char *q);

/* Each reads one value at sc->p (whitespace before it already skipped) and returns 0, or
 * -1 to give up. A string at its opening quote; escapes only when may_escape: its bytes
 * in the line, or decoded into sc->buf when it had escapes; with no buf it is checked,
 * \u escapes too, and not decoded (out->s NULL for one with escapes). Inline: nearly
 * every string of a line is plain ASCII, one plain run to its closing quote. */
static inline int
jsonscan_string(struct jsonscan *sc, bool may_escape, struct jsonscan_str *out)
{
	const char *q, *start;

	if (!jsonscan_at(sc, '"'))
		return -1;
	start = sc->p + 1;
	q = jsonscan_plain_run(start, sc->end);
	if (q < sc->end && *q == '"') {
		out->s = start;
		out->n = (size_t)(q - start);
		sc->p = q + 1;
		return 0;
	}
	return jsonscan_string_rest(sc, may_escape, out, start, q);
}
/* a number: *is_int and *iv for integers (up to 18 digits), else *dv (strtod, finite) */
int jsonscan_number(struct jsonscan *sc, bool *is_int, int64_t *iv, double *dv);
/* the literal w (n bytes): true, false, null */
int jsonscan_word(struct jsonscan *sc, const char *w, size_t n);
/* any value, checked and skipped */
int jsonscan_skip(struct jsonscan *sc);
/* An object's members one by one: first call at '{' with first true; 1: *key (not
 * escaped, in the line) is next and its value not read yet; 0: the object ended; -1
 * (also for a key the object had already, with sc->dup set). */
int jsonscan_member(struct jsonscan *sc, bool first, struct jsonscan_str *key);
/* jsonscan_member() without the repeated-key check, for a reader that checks its own keys
 * by jsonscan_lookup()'s seen bits (a bitset, for the keys the model keeps: a task's are
 * most of its keys) and hands every other key to jsonscan_key_other() before skipping its
 * value: only those fill sc->dup's filter (issue 35: the filter was a third of a key's
 * cost). */
int jsonscan_member_key(struct jsonscan *sc, bool first, struct jsonscan_str *key);
/* key, just read by jsonscan_member_key() and none of the reader's own: 0, or -1 when the
 * object had it already (or more keys, or more depth, than sc->dup tracks); 0 with no dup */
int jsonscan_key_other(struct jsonscan *sc, const struct jsonscan_str *key);
/* An array's elements the same way: 1: an element is next; 0: the end; -1. */
int jsonscan_element(struct jsonscan *sc, bool first);
/* index of key among names[0..n), -1 if none; -2 when it was seen already in this object
 * (bit i of *seen: jansson keeps a repeated key's last value, a reader gives up). Inline:
 * with a reader's constant table and count the compiler unrolls the loop and knows each
 * length, so a key costs a compare or two (as a call it was 3% of a report's
 * instructions). */
static inline int
jsonscan_lookup(const struct jsonscan_str *key, const struct jsonscan_key *names, int n,
		uint64_t *seen)
{
	for (int i = 0; i < n; i++)
		if (names[i].n == key->n && mem_eq(names[i].s, key->s, key->n)) {
			if (*seen & ((uint64_t)1 << i))
				return -2;
			*seen |= (uint64_t)1 << i;
			return i;
		}
	return -1;
}

/* The text is one object or array and white space, as json_loadb(p, n, 0) accepts it
 * (keys named twice allowed); false also where the scan is not sure. Allocates nothing. */
bool jsonscan_document(const char *p, size_t n);

/* The byte a two-character escape \e stands for, or -1 for \u (left to jansson, whose
 * rules for surrogates we do not repeat) and anything that is no JSON escape. Shared by
 * the scanners so that they decode alike. */
static inline int
jsonscan_unescape(char e)
{
	switch (e) {
	case '"': return '"';
	case '\\': return '\\';
	case '/': return '/';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return -1;
	}
}

#endif
