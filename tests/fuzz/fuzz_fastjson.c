/* fuzz_fastjson: libFuzzer entry point checking fastjson_load() against json_loadb(), for
 * the whole input and for each of its lines (how input.c calls it). Whenever the fast path
 * accepts, jansson must accept too, with an equal value that dumps to the same bytes, sorted
 * and in insertion order; otherwise it aborts. Giving up is always allowed. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/in/fastjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
same_dump(const json_t *a, const json_t *b, size_t flags)
{
	char *x = json_dumps(a, flags), *y = json_dumps(b, flags);

	if (x == NULL || y == NULL || strcmp(x, y) != 0)
		abort();
	free(x);
	free(y);
}

/* the input and the scratch are exactly n bytes of heap, so ASan sees a read past the end */
static void
check(const uint8_t *s, size_t n)
{
	char *in = malloc(n ? n : 1), *buf = malloc(n ? n : 1);
	json_t *fast, *slow;
	json_error_t e;

	if (in == NULL || buf == NULL)
		abort();
	memcpy(in, s, n);
	fast = fastjson_load(in, n, buf);
	if (fast != NULL) {
		slow = json_loadb(in, n, 0, &e);
		if (slow == NULL || !json_equal(fast, slow))
			abort();
		same_dump(fast, slow, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
		same_dump(fast, slow, JSON_COMPACT | JSON_ENCODE_ANY);
		json_decref(slow);
		json_decref(fast);
	}
	free(in);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *nl;

	check(data, size);
	if (size == 0 || memchr(data, '\n', size) == NULL)
		return 0;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		check(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	return 0;
}
