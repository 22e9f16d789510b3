/* jsonscan: the per-key steps against a byte-by-byte reading of the same text: keys of
 * every length with a special byte at every position, compact and spaced, far from and
 * near the end of the text (jsonscan_member's one-load read and its general one), the
 * inline compare (mem_eq) and the lookup by length then bytes (jsonscan_lookup).
 * The readers over jsonscan are checked against jansson in test_taskscan.c. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/jsonscan.h"

/* a and b, n bytes each, differing at diff (-1: nowhere), padded past n with bytes that
 * differ, so that a compare reading past n would say "different" */
Test(jsonscan, eq_reads_n_bytes_and_all_of_them)
{
	char a[64], b[64];

	for (int n = 0; n <= 40; n++)
		for (int diff = -1; diff < n; diff++) {
			for (int i = 0; i < 64; i++) {
				a[i] = (char)('a' + (i * 7 + n) % 26);
				b[i] = i < n ? a[i] : (char)(a[i] ^ 0x55);
			}
			if (diff >= 0)
				b[diff] = (char)(a[diff] ^ (1 << (diff % 8)));
			cr_assert_eq(mem_eq(a, b, (size_t)n), diff < 0, "n %d diff %d", n, diff);
		}
}

Test(jsonscan, lookup_by_length_then_bytes)
{
	static const struct jsonscan_key names[] = { JSONSCAN_KEY("name"), JSONSCAN_KEY("value"),
		JSONSCAN_KEY("nam"), JSONSCAN_KEY("names"), JSONSCAN_KEY(""),
		JSONSCAN_KEY("taskDefinitionArn"), JSONSCAN_KEY("taskDefinitionArm") };
	static const char *const keys[] = { "name", "value", "nam", "names", "", "taskDefinitionArn",
		"taskDefinitionArm", "nome", "Name", "valu", "taskDefinitionAr", "x" };
	static const int want[] = { 0, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1 };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		struct jsonscan_str k = { keys[i], strlen(keys[i]) };
		uint64_t seen = 0;

		cr_assert_eq(jsonscan_lookup(&k, names, 7, &seen), want[i], "%s", keys[i]);
		if (want[i] >= 0) {
			cr_assert_eq(seen, (uint64_t)1 << want[i]);
			cr_assert_eq(jsonscan_lookup(&k, names, 7, &seen), -2, "%s twice", keys[i]);
		}
	}
}

/* what a key of these bytes is: 1 plain (read as it stands), 0 refused (an escape, a
 * control byte, broken UTF-8; a quote ends it early, so what follows is no ':') */
static int
key_ok(const char *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)k[i];

		if (c == '"' || c == '\\' || c < 0x20)
			return 0;
		if (c >= 0x80) {
			if (c != 0xc3 || i + 1 >= n || ((unsigned char)k[i + 1] & 0xc0) != 0x80)
				return 0;
			i++;
		}
	}
	return 1;
}

/* {"KEY":1,"KEY":2} and its spaced forms, the text ending right after or well after: the
 * first member is KEY, the second a repeated key; a refused key gives -1 */
Test(jsonscan, keys_of_every_length_and_byte)
{
	static const char specials[] = { '"', '\\', '\n', 0x1f, (char)0xc3, (char)0x80, 0x7f, ':',
		' ' };
	static struct jsonscan_dup dup;
	char key[48], text[256];

	/* lengths past 32: the two-load read of jsonscan_member_key() and past it */
	for (int len = 0; len <= 40; len++)
		for (int at = -1; at < len; at++)
			for (size_t k = 0; k < sizeof specials; k++)
				for (int f = 0; f < 4; f++)
					for (int pad = 0; pad <= 40; pad += 40) {
						struct jsonscan sc;
						struct jsonscan_str out;
						int n, ok, rc;

						for (int i = 0; i < len; i++)
							key[i] = (char)('a' + (i * 5) % 26);
						if (at >= 0) {
							key[at] = specials[k];
							if (specials[k] == (char)0xc3 && at + 1 < len)
								key[at + 1] = (char)0xa9;
						}
						key[len] = '\0';
						if (at >= 0 && specials[k] == '\0')
							continue;
						/* compact, spaced, the second key's ':' after a tab, one space
						 * after each ',' and ':' */
						if (f == 0)
							n = snprintf(text, sizeof text, "{\"%s\":1,\"%s\":2}", key, key);
						else if (f == 1)
							n = snprintf(text, sizeof text, "{ \"%s\" : 1 , \"%s\" :2 }", key, key);
						else if (f == 2)
							n = snprintf(text, sizeof text, "{\"%s\":\n1,\"%s\"\t:2}", key, key);
						else   /* Python's json.dumps */
							n = snprintf(text, sizeof text, "{\"%s\": 1, \"%s\": 2}", key, key);
						/* pad: white space after the text, inside its end */
						memset(text + n, ' ', (size_t)pad);
						ok = key_ok(key, (size_t)len);
						sc = (struct jsonscan){ text, text + n + pad, NULL, 0, &dup };
						rc = jsonscan_member(&sc, true, &out);
						cr_assert_eq(rc, ok ? 1 : -1, "form %d key '%s' (%d at %d)", f, key,
							     len, at);
						if (!ok)
							continue;
						cr_assert_eq(out.n, (size_t)len, "key '%s'", key);
						cr_assert_eq(out.s, strchr(text, '"') + 1, "key '%s'", key);
						cr_assert_eq(*sc.p, '1', "form %d key '%s'", f, key);
						sc.p++;
						/* the same key again: refused as repeated */
						cr_assert_eq(jsonscan_member(&sc, false, &out), -1, "key '%s' twice", key);
						/* and the whole object, skipped, too */
						sc = (struct jsonscan){ text, text + n + pad, NULL, 0, &dup };
						cr_assert_eq(jsonscan_skip(&sc), -1, "key '%s' twice", key);
					}
}

/* keys that differ in one byte are not repeats, whatever their length and however many
 * came before (the filter's bits and their chains), compact and spaced */
Test(jsonscan, different_keys_are_no_repeats)
{
	static struct jsonscan_dup dup;
	char text[8192];

	for (int keys = 1; keys <= JSONSCAN_DUP_KEYS; keys++)
		for (int spaced = 0; spaced <= 1; spaced++) {
			struct jsonscan sc;
			size_t o = 0;

			text[o++] = '{';
			for (int i = 0; i < keys; i++)
				o += (size_t)snprintf(text + o, sizeof text - o, "%s\"%.*s%d\"%s:%d",
						      i ? "," : "", i % 23, "abcdefghijklmnopqrstuvwxyz",
						      i / 23, spaced ? " " : "", i);
			text[o++] = '}';
			sc = (struct jsonscan){ text, text + o, NULL, 0, &dup };
			cr_assert_eq(jsonscan_skip(&sc), 0, "%d keys", keys);
			cr_assert_eq(sc.p, text + o);
		}
}
