/* input_dupkeys: the members a JSON text names twice in one object, which jansson reads
 * silently keeping the last value: found so that the reader can warn, naming the task (the
 * taskArn or TaskARN of the nearest object around the member that has one) and the
 * member's path in it. Only run on a text jansson (JSON_REJECT_DUPLICATES) found a
 * duplicate in and then read without that flag, so the text is valid JSON: this is a
 * tokenizer, not a parser. Linear in the text: objects past 16 members get a hash table. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_int.h"

#define LINEAR_KEYS 16

struct span {
	const char *s;
	size_t n;
};

struct frame {
	bool object, want_key;
	size_t key0;         /* its keys: keys[key0..nkeys) */
	size_t index;        /* arrays: the element being read */
	struct span key;     /* objects: the member whose value is being read */
	struct span arn;
	size_t *ht, htcap;   /* objects past LINEAR_KEYS: indexes + 1 into keys */
};

struct pending {
	size_t owner;        /* the frame that will name it */
	long line;
	char path[INPUT_DUP_PATH];
};

struct scan {
	struct frame *f;
	size_t nf, fcap;
	struct span *keys;
	size_t nkeys, kcap;
	struct pending *pend;
	size_t npend, pcap;
	size_t found, said;
	input_dup_fn *fn;
	void *ctx;
};

static uint64_t
span_hash(struct span k)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < k.n; i++)
		h = (h ^ (unsigned char)k.s[i]) * 1099511628211ULL;
	return h;
}

static bool
span_eq(struct span a, struct span b)
{
	return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

/* k into the hash table of f; false when it is there already */
static bool
ht_add(struct scan *sc, struct frame *f, size_t ki)
{
	size_t mask = f->htcap - 1, i = (size_t)span_hash(sc->keys[ki]) & mask;

	for (; f->ht[i] != 0; i = (i + 1) & mask)
		if (span_eq(sc->keys[f->ht[i] - 1], sc->keys[ki]))
			return false;
	f->ht[i] = ki + 1;
	return true;
}

static void
ht_grow(struct scan *sc, struct frame *f)
{
	size_t n = sc->nkeys - f->key0;

	if (f->ht != NULL && n * 2 < f->htcap)
		return;
	free(f->ht);
	f->htcap = f->htcap ? f->htcap * 2 : 64;
	while (f->htcap < n * 2)
		f->htcap *= 2;
	f->ht = xcalloc(f->htcap, sizeof *f->ht);
	for (size_t i = f->key0; i + 1 < sc->nkeys; i++)
		(void)ht_add(sc, f, i);   /* the keys before the new one are distinct */
}

static void
path_set(char *out, struct span k)
{
	size_t n = k.n < INPUT_DUP_PATH - 1 ? k.n : INPUT_DUP_PATH - 1;

	memcpy(out, k.s, n);
	out[n] = '\0';
}

/* a new member key of the object on top: a duplicate becomes a pending warning */
static void
add_key(struct scan *sc, struct span k, long line)
{
	struct frame *f = &sc->f[sc->nf - 1];
	bool dup = false;

	f->key = k;
	sc->keys = xgrow(sc->keys, sc->nkeys + 1, &sc->kcap, sizeof *sc->keys);
	sc->keys[sc->nkeys++] = k;
	if (sc->nkeys - f->key0 <= LINEAR_KEYS) {
		for (size_t i = f->key0; i + 1 < sc->nkeys && !dup; i++)
			dup = span_eq(sc->keys[i], k);
	} else {
		ht_grow(sc, f);
		dup = !ht_add(sc, f, sc->nkeys - 1);
	}
	if (!dup)
		return;
	sc->nkeys--;   /* one entry per distinct key */
	sc->found++;
	if (sc->said + sc->npend >= INPUT_DUP_MAX)
		return;    /* counted, not said */
	sc->pend = xgrow(sc->pend, sc->npend + 1, &sc->pcap, sizeof *sc->pend);
	sc->pend[sc->npend].owner = sc->nf - 1;
	sc->pend[sc->npend].line = line;
	path_set(sc->pend[sc->npend].path, k);
	sc->npend++;
}

static void
push(struct scan *sc, bool object)
{
	struct frame *f;

	sc->f = xgrow(sc->f, sc->nf + 1, &sc->fcap, sizeof *sc->f);
	f = &sc->f[sc->nf++];
	memset(f, 0, sizeof *f);
	f->object = object;
	f->want_key = object;
	f->key0 = sc->nkeys;
}

/* "key" or "[3]" in front of a path found inside a member or element of f */
static void
path_prefix(char *path, const struct frame *f)
{
	char tmp[INPUT_DUP_PATH];
	int n;

	if (f->object)
		n = snprintf(tmp, sizeof tmp, "%.*s%s%s", (int)(f->key.n < 100 ? f->key.n : 100),
		    f->key.s, path[0] == '[' ? "" : ".", path);
	else
		n = snprintf(tmp, sizeof tmp, "[%zu]%s%s", f->index, path[0] == '[' ? "" : ".",
		    path);
	if (n < 0)
		return;
	memcpy(path, tmp, sizeof tmp);
}

/* the frame on top closes: its pending warnings are said with its ARN, or moved up to
 * the frame around it (the root says them without one) */
static void
pop(struct scan *sc)
{
	size_t d = sc->nf - 1;
	struct frame *f = &sc->f[d];
	size_t i = sc->npend;
	char arn[INPUT_DUP_PATH];

	while (i > 0 && sc->pend[i - 1].owner == d)
		i--;
	if (f->arn.s != NULL || d == 0) {
		if (f->arn.s != NULL)
			path_set(arn, f->arn);
		else
			arn[0] = '\0';
		for (size_t j = i; j < sc->npend && sc->said < INPUT_DUP_MAX; j++, sc->said++)
			sc->fn(sc->ctx, sc->pend[j].line, arn, sc->pend[j].path);
		sc->npend = i;
	} else {
		for (size_t j = i; j < sc->npend; j++) {
			sc->pend[j].owner = d - 1;
			path_prefix(sc->pend[j].path, &sc->f[d - 1]);
		}
	}
	free(f->ht);
	sc->nkeys = f->key0;
	sc->nf--;
}

static bool
is_arn_key(struct span k)
{
	return (k.n == 7 && memcmp(k.s, "taskArn", 7) == 0) ||
	       (k.n == 7 && memcmp(k.s, "TaskARN", 7) == 0);
}

size_t
input_dup_keys(const char *p, size_t n, input_dup_fn *fn, void *ctx, size_t *said)
{
	struct scan sc;
	long line = 1;
	size_t i = 0;

	memset(&sc, 0, sizeof sc);
	sc.fn = fn;
	sc.ctx = ctx;
	while (i < n) {
		char c = p[i];
		struct frame *top = sc.nf ? &sc.f[sc.nf - 1] : NULL;

		if (c == '\n') {
			line++;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == ':') {
			i++;
		} else if (c == ',') {
			if (top != NULL && top->object)
				top->want_key = true;
			else if (top != NULL)
				top->index++;
			i++;
		} else if (c == '{' || c == '[') {
			push(&sc, c == '{');
			i++;
		} else if (c == '}' || c == ']') {
			if (sc.nf == 0)
				break;   /* not valid JSON after all: stop */
			pop(&sc);
			i++;
			if (sc.nf == 0)
				break;   /* one value (concatenated values: the caller's length) */
		} else if (c == '"') {
			struct span s = { p + i + 1, 0 };
			size_t j = i + 1;

			while (j < n && p[j] != '"')
				j += p[j] == '\\' ? 2 : 1;
			s.n = (j < n ? j : n) - (i + 1);
			i = j + 1;
			if (top != NULL && top->object && top->want_key) {
				top->want_key = false;
				add_key(&sc, s, line);
			} else if (top != NULL && top->object && top->arn.s == NULL &&
				   is_arn_key(top->key)) {
				top->arn = s;
			}
		} else {
			/* a number, true, false or null, or a byte no JSON has (a NUL: strchr()
			 * finds the set's own terminator, so it is told apart, and the first byte
			 * is always stepped over: such a line used to loop here for ever) */
			do
				i++;
			while (i < n && (p[i] == '\0' || strchr(" \t\r\n,:]}", p[i]) == NULL));
		}
	}
	while (sc.nf > 0)
		pop(&sc);
	free(sc.f);
	free(sc.keys);
	free(sc.pend);
	*said = sc.said;
	return sc.found;
}
