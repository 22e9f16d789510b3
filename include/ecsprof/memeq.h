/* memeq: are two runs of n bytes the same, for the short texts the readers and the string
 * pool compare by the million (keys, statuses, zones): inline, in 8-byte (then 4, 2, 1)
 * loads that overlap at the end, where a libc memcmp() call costs more than the compare. */
#ifndef ECSPROF_MEMEQ_H
#define ECSPROF_MEMEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool
mem_eq(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	uint32_t u, v;
	uint16_t s, t;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		if (u != v)
			return false;
		memcpy(&u, a + n - 4, 4);
		memcpy(&v, b + n - 4, 4);
		return u == v;
	}
	if (n >= 2) {
		memcpy(&s, a, 2);
		memcpy(&t, b, 2);
		return s == t && a[n - 1] == b[n - 1];
	}
	return n == 0 || a[0] == b[0];
}

#endif
