/* err, buf, log: the small shared pieces every module leans on. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "ecsprof/buf.h"
#include "ecsprof/err.h"
#include "ecsprof/hex.h"
#include "ecsprof/log.h"
#include "ecsprof/ncpu.h"
#include "ecsprof/procsec.h"
#include "ecsprof/strset.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/xalloc.h"

Test(err, set_prefix_and_exit_status)
{
	struct err e;

	err_clear(&e);
	cr_expect_eq(err_set(&e, ERR_PARSE, "%s:%d:%d: bad", "f.json", 3, 7), -1);
	cr_expect_str_eq(e.msg, "f.json:3:7: bad");
	cr_expect_eq(err_prefix(&e, "--group-by"), -1);
	cr_expect_str_eq(e.msg, "--group-by: f.json:3:7: bad");
	cr_expect_eq(err_exit_status(ERR_USAGE), 2);
	cr_expect_eq(err_exit_status(ERR_PARSE), 1);
	cr_expect_eq(err_exit_status(ERR_AWS), 1);
	cr_expect_eq(err_exit_status(ERR_OK), 0);
	cr_expect_str_eq(err_label(ERR_CREDS), "no credentials");
}

Test(err, one_line_always)
{
	struct err e;
	char big[2000];

	err_clear(&e);
	err_set(&e, ERR_AWS, "first\nsecond\r\nthird");
	cr_expect_str_eq(e.msg, "first second  third");
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	err_set(&e, ERR_AWS, "%s", big);
	cr_expect_eq(strlen(e.msg), sizeof e.msg - 1, "truncated, still terminated");
	err_prefix(&e, "ctx");
	cr_expect_eq(strncmp(e.msg, "ctx", 3), 0);
	cr_expect_lt(strlen(e.msg), sizeof e.msg);
}

Test(buf, grows_formats_and_caps)
{
	struct buf b;

	buf_init(&b, 16);
	cr_expect_str_eq(buf_str(&b), "", "an empty buf is an empty string, never NULL");
	cr_expect_eq(buf_adds(&b, "0123456789"), 0);
	cr_expect_eq(buf_addf(&b, "%d%c", 42, '!'), 0);
	cr_expect_str_eq(buf_str(&b), "012345678942!");
	cr_expect_eq(buf_adds(&b, "abcd"), -1, "over the cap of 16");
	cr_expect_str_eq(buf_str(&b), "012345678942!", "a failed add changes nothing");
	cr_expect_eq(buf_addf(&b, "%s", "xyzw"), -1);
	cr_expect_eq(buf_addc(&b, 'Z'), 0);
	cr_expect_eq(b.len, 14);
	char *s = buf_take(&b);
	cr_expect_str_eq(s, "012345678942!Z");
	cr_expect_null(b.data);
	free(s);
	buf_reset(&b);
	cr_expect_eq(buf_add(&b, "a\0b", 3), 0, "binary data keeps its NUL");
	cr_expect_eq(b.len, 3);
	cr_expect_eq(memcmp(b.data, "a\0b", 4), 0);
	buf_cleanup_secure(&b);
	cr_expect_null(b.data);
}

static char last_line[256];
static int last_level = -1;

static void
sink(enum log_level level, const char *line, void *ctx)
{
	(void)ctx;
	last_level = (int)level;
	snprintf(last_line, sizeof last_line, "%s", line);
}

Test(log, levels_and_sink)
{
	struct log lg;

	log_init(&lg, 0, sink, NULL);
	log_info(&lg, "hidden %d", 1);
	cr_expect_eq(last_level, -1, "info needs --verbose");
	log_warn(&lg, "%zu phases", (size_t)3);
	cr_expect_eq(last_level, LOG_WARN);
	cr_expect_str_eq(last_line, "3 phases");
	log_debug(&lg, "hidden");
	cr_expect_str_eq(last_line, "3 phases", "debug needs --debug");
	lg.verbosity = 2;
	log_debug(&lg, "shown");
	cr_expect_str_eq(last_line, "shown");
	cr_expect_eq(log_verbosity(&lg), 2);
	cr_expect_eq(log_verbosity(NULL), 0, "no log: errors and warnings");
	log_cleanup(&lg);
}

/* A struct log is a context, not a setting of the process: each sink sees the lines of
 * its own log only, at its own verbosity, and no log (NULL) writes to stderr. */
struct kept {
	char lines[8][64];
	int n;
};

static void
keep_line(enum log_level level, const char *line, void *ctx)
{
	struct kept *k = ctx;

	if (k->n < 8)
		snprintf(k->lines[k->n++], sizeof k->lines[0], "%d %s", (int)level, line);
}

Test(log, two_logs_do_not_see_each_others_lines)
{
	struct kept a = { 0 }, b = { 0 };
	struct log la, lb;

	log_init(&la, 0, keep_line, &a);
	log_init(&lb, 1, keep_line, &b);
	log_warn(&la, "to a");
	log_warn(&lb, "to b");
	log_info(&la, "a is not verbose");
	log_info(&lb, "b is");
	log_debug(&lb, "nor is b debugging");
	log_block(&la, "block a\n");
	cr_expect_eq(a.n, 2);
	cr_expect_str_eq(a.lines[0], "1 to a");
	cr_expect_str_eq(a.lines[1], "4 block a");
	cr_expect_eq(b.n, 2);
	cr_expect_str_eq(b.lines[0], "1 to b");
	cr_expect_str_eq(b.lines[1], "2 b is");
	log_cleanup(&la);
	log_cleanup(&lb);
}

Test(log, once_says_through_its_own_log)
{
	struct kept k = { 0 };
	struct log lg;
	struct log_once o;

	log_init(&lg, 0, keep_line, &k);
	log_once_init(&o, &lg);
	log_once_warn(&o, "bad task");
	log_once_warn(&o, "bad task");
	log_once_warn(&o, "other task");
	cr_expect_eq(k.n, 2);
	cr_expect_str_eq(k.lines[0], "1 bad task");
	cr_expect_str_eq(k.lines[1], "1 other task");
	log_once_cleanup(&o);
	log_cleanup(&lg);
}

/* NULL: "ecsprof: warning: " lines on stderr, info and debug dropped, blocks verbatim */
Test(log, no_log_is_stderr_with_warnings_only, .init = cr_redirect_stderr)
{
	log_warn(NULL, "said %d", 1);
	log_info(NULL, "not said");
	log_debug(NULL, "not said");
	log_block(NULL, "ecsprof: debug: trace\n");
	fflush(stderr);
	cr_expect_stderr_eq_str("ecsprof: warning: said 1\necsprof: debug: trace\n");
}

/* item 5 of issue 10: what a server says reaches the terminal only through err and log,
 * and both make it printable there, once */
#define EVIL "\x1b]0;pwned\x07\x1b[31mred\xe2\x80\xae" "evil\xe2\x81\xa9\xc2\x9b" "end"
#define EVIL_CLEAN "?]0;pwned?" "?[31mred?evil?" "?end"

Test(termsafe, what_is_hostile)
{
	char s[] = "ok caf\xc3\xa9 \xe2\x80\xa6 tab\there" EVIL "\xff\x7f";

	cr_expect_eq(termsafe_bad_len("\x1b[", NULL), 1);
	cr_expect_eq(termsafe_bad_len("\n", NULL), 1);
	cr_expect_eq(termsafe_bad_len("\n", "\n"), 0);
	cr_expect_eq(termsafe_bad_len("\xc2\x9b", NULL), 2, "C1 CSI");
	cr_expect_eq(termsafe_bad_len("\xc2\xa0", NULL), 0, "NBSP is text");
	cr_expect_eq(termsafe_bad_len("\xe2\x80\xaa", NULL), 3, "U+202A");
	cr_expect_eq(termsafe_bad_len("\xe2\x80\xae", NULL), 3, "U+202E");
	cr_expect_eq(termsafe_bad_len("\xe2\x81\xa6", NULL), 3, "U+2066");
	cr_expect_eq(termsafe_bad_len("\xe2\x81\xa9", NULL), 3, "U+2069");
	cr_expect_eq(termsafe_bad_len("\xe2\x80\xa9", NULL), 0, "U+2029 is not bidi");
	cr_expect_eq(termsafe_bad_len("\xe2\x81\xaa", NULL), 0, "U+206A is not bidi");
	cr_expect_eq(termsafe_bad_len("\xe2\x80", NULL), 1, "cut sequence");
	termsafe_scrub(s, "\t");
	cr_expect_str_eq(s, "ok caf\xc3\xa9 \xe2\x80\xa6 tab\there" EVIL_CLEAN "??");
}

Test(termsafe, json_escapes_decode_to_the_same_string)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	cr_assert_not_null(f);
	cr_assert_eq(termsafe_put_json(f, "{\"a\":\"x\xe2\x80\xaey\xe2\x81\xa6\xc2\x9b\x7f\xc3\xa9\"}"),
		     0);
	fclose(f);
	cr_expect_str_eq(out, "{\"a\":\"x\\u202Ey\\u2066\\u009B\\u007F\xc3\xa9\"}");
	free(out);
}

/* issue 31 items 2 and 4: the one set of code points unsafe in shared text */
Test(termsafe, shared_text_set)
{
	static const uint32_t unsafe[] = { 0x01, 0x0b, 0x0c, 0x1b, 0x1c, 0x7f, 0x85, 0x9b, 0x061c,
					   0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0xfdd0,
					   0xfdef, 0xfffe, 0xffff, 0x1fffe, 0x10ffff };
	static const uint32_t safe[] = { '\t', '\n', '\r', ' ', '~', 0xa0, 0xe9, 0x061b, 0x200d,
					 0x2029, 0x202f, 0x2065, 0x206a, 0xfdcf, 0xfdf0, 0xfffd,
					 0x1f600, 0x1fffd };
	char *out = NULL;
	size_t len;
	FILE *f;

	for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++)
		cr_expect(termsafe_cp_unsafe(unsafe[i]), "U+%04X is unsafe", (unsigned)unsafe[i]);
	for (size_t i = 0; i < sizeof safe / sizeof *safe; i++)
		cr_expect(!termsafe_cp_unsafe(safe[i]), "U+%04X is safe", (unsigned)safe[i]);
	cr_expect_eq(termsafe_shared_bad_len("\xef\xbf\xbe"), 3, "U+FFFE");
	cr_expect_eq(termsafe_shared_bad_len("\xf0\x9f\xbf\xbf"), 4, "U+1FFFF");
	cr_expect_eq(termsafe_shared_bad_len("\xd8\x9c"), 2, "U+061C");
	cr_expect_eq(termsafe_shared_bad_len("\n"), 0);
	cr_expect_eq(termsafe_bad_len("\xe2\x80\x8f", NULL), 3, "RLM on a terminal too");
	f = open_memstream(&out, &len);
	cr_assert_not_null(f);
	cr_assert_eq(termsafe_put_json(f, "\"\xef\xbf\xbf\xf0\x9f\xbf\xbe\xe2\x80\x8e\""), 0);
	fclose(f);
	cr_expect_str_eq(out, "\"\\uFFFF\\uD83F\\uDFFE\\u200E\"");
	free(out);
}

static bool
ascii8_one(unsigned char c, unsigned char a, unsigned char b)
{
	return c >= 0x20 && c < 0x7f && c != a && c != b;
}

/* termsafe_ascii8 (the CSV and JSON writers' 8-byte step) against a byte at a time, for
 * every pair of byte values at three pairs of positions among plain ones, with each
 * writer's two specials: a borrow or carry between bytes must not hide or invent one. */
Test(termsafe, ascii8_is_a_byte_at_a_time)
{
	static const unsigned char specials[2][2] = { { ',', '"' }, { '"', '\\' } };
	static const int at[3][2] = { { 0, 7 }, { 3, 4 }, { 6, 7 } };
	size_t wrong = 0;

	for (int s = 0; s < 2; s++)
		for (int k = 0; k < 3; k++)
			for (unsigned v = 0; v < 256; v++)
				for (unsigned w = 0; w < 256; w++) {
					unsigned char a = specials[s][0], b = specials[s][1], t[8];
					uint64_t x;

					memset(t, 'm', 8);
					t[at[k][0]] = (unsigned char)v;
					t[at[k][1]] = (unsigned char)w;
					memcpy(&x, t, 8);
					wrong += termsafe_ascii8(x, a, b) !=
						 (ascii8_one((unsigned char)v, a, b) &&
						  ascii8_one((unsigned char)w, a, b));
				}
	cr_expect_eq(wrong, 0, "%zu of 393,216 cases differ from a byte at a time", wrong);
}

/* termsafe_ascii16 (the writers' 16-byte step, SSE2 on x86-64) against a byte at a time:
 * every byte value at every one of the 16 places, and every pair of values at pairs of
 * places in each half and across them, with each writer's two specials */
Test(termsafe, ascii16_is_a_byte_at_a_time)
{
	static const unsigned char specials[2][2] = { { ',', '"' }, { '"', '\\' } };
	static const int at[3][2] = { { 0, 15 }, { 7, 8 }, { 3, 12 } };
	size_t wrong = 0;

	for (int s = 0; s < 2; s++) {
		unsigned char a = specials[s][0], b = specials[s][1], t[16];

		for (int i = 0; i < 16; i++)
			for (unsigned v = 0; v < 256; v++) {
				memset(t, 'm', 16);
				t[i] = (unsigned char)v;
				wrong += termsafe_ascii16(t, a, b) != ascii8_one((unsigned char)v, a, b);
			}
		for (int k = 0; k < 3; k++)
			for (unsigned v = 0; v < 256; v++)
				for (unsigned w = 0; w < 256; w++) {
					memset(t, 'm', 16);
					t[at[k][0]] = (unsigned char)v;
					t[at[k][1]] = (unsigned char)w;
					wrong += termsafe_ascii16(t, a, b) !=
						 (ascii8_one((unsigned char)v, a, b) &&
						  ascii8_one((unsigned char)w, a, b));
				}
	}
	cr_expect_eq(wrong, 0, "%zu cases differ from a byte at a time", wrong);
}

Test(err, messages_are_terminal_safe)
{
	struct err e;

	err_clear(&e);
	err_set(&e, ERR_AWS, "ClusterNotFoundException: %s", EVIL "\ttab");
	cr_expect_str_eq(e.msg, "ClusterNotFoundException: " EVIL_CLEAN " tab");
	err_set(&e, ERR_AWS, "plain");
	err_prefix(&e, "cluster %s", EVIL);
	cr_expect_str_eq(e.msg, "cluster " EVIL_CLEAN ": plain");
}

Test(log, lines_and_blocks_are_terminal_safe)
{
	struct log lg;

	log_init(&lg, 0, sink, NULL);
	log_warn(&lg, "skipped %s", EVIL);
	cr_expect_str_eq(last_line, "skipped " EVIL_CLEAN);
	log_block(&lg, "< HTTP 200\n< {\"m\":\"" EVIL "\"}\n");
	cr_expect_str_eq(last_line, "< {\"m\":\"" EVIL_CLEAN "\"}");
	log_cleanup(&lg);
}

Test(xalloc, strings)
{
	char *a = xstrndup("abcdef", 3), *b = xasprintf("%s-%d", a, 7);

	cr_expect_str_eq(a, "abc");
	cr_expect_str_eq(b, "abc-7");
	cr_expect_null(xstrdup_or_null(NULL));
	free(a);
	free(b);
}

Test(err, check_write_reports_a_failed_stream)
{
	struct err e;
	FILE *f = fopen("/dev/full", "w");

	cr_assert_not_null(f);
	err_clear(&e);
	fputs("x", f);
	cr_expect_eq(err_check_write(f, 0, "csv", &e), -1, "/dev/full cannot be flushed");
	cr_expect(strncmp(e.msg, "csv: write failed: ", 19) == 0, "%s", e.msg);
	fclose(f);
	err_clear(&e);
	cr_expect_eq(err_check_write(stdout, -1, "json", &e), -1, "an earlier failure counts");
	cr_expect_eq(e.code, ERR_IO);
	cr_expect_eq(err_check_write(stdout, 0, "json", &e), 0);
}

/* A secret buf: its bytes survive growth intact, and reset and cleanup leave nothing of
 * them in the memory the buf still holds or hands back. */
Test(buf, secret_wiped_on_reset_and_kept_through_growth)
{
	struct buf b;
	const char *key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
	size_t cap;

	buf_init_secret(&b, 0);
	for (int i = 0; i < 40; i++)      /* 40 x 40 bytes: 64 -> 2048, five moves */
		cr_assert_eq(buf_adds(&b, key), 0);
	cr_assert_eq(b.len, 1600);
	for (int i = 0; i < 40; i++)
		cr_assert_eq(memcmp(b.data + 40 * i, key, 40), 0, "block %d", i);
	cap = b.cap;
	buf_reset(&b);
	cr_assert_eq(b.cap, cap, "reset keeps the memory");
	for (size_t i = 0; i < cap; i++)
		cr_assert_eq(b.data[i], 0, "byte %zu not wiped by reset", i);
	cr_assert_eq(buf_adds(&b, key), 0);
	cr_assert_str_eq(buf_str(&b), key);
	buf_cleanup(&b);
	cr_assert_null(b.data);
	cr_assert(b.secret, "cleanup leaves the buf a secret one for its next use");
}

Test(buf, plain_reset_keeps_bytes_beyond_len)
{
	struct buf b;

	/* the contrast that shows the secret test can fail: a plain buf is not wiped */
	buf_init(&b, 0);
	buf_adds(&b, "abcdef");
	buf_reset(&b);
	cr_assert_eq(b.data[1], 'b');
	buf_cleanup(&b);
}

Test(procsec, no_core_and_not_dumpable)
{
	struct rlimit rl;

	/* criterion runs each test in a process of its own, so this one is changed alone */
	cr_assert_eq(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1, "a test process starts dumpable");
	cr_assert_eq(procsec_protect(), 0);
	cr_assert_eq(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0);
	cr_assert_eq(getrlimit(RLIMIT_CORE, &rl), 0);
	cr_assert_eq(rl.rlim_cur, 0);
	cr_assert_eq(rl.rlim_max, 0);
}

/* issue 9 item 3: a --debug trace is one block per request. On stderr the block is one
 * locked write; to a sink (the tasks TUI holds its log lines until the screen closes) it
 * goes line by line, and the lines of two threads' blocks must not interleave there
 * either. The sink yields after each line to give another thread the chance. */
#define BLK_THREADS 6
#define BLK_BLOCKS 20
#define BLK_LINES 12

static pthread_mutex_t blk_lock = PTHREAD_MUTEX_INITIALIZER;
static char blk_seen[BLK_THREADS * BLK_BLOCKS * BLK_LINES][32];
static size_t blk_n;

static void
blk_sink(enum log_level level, const char *line, void *ctx)
{
	(void)level;
	(void)ctx;
	pthread_mutex_lock(&blk_lock);
	if (blk_n < sizeof blk_seen / sizeof blk_seen[0])
		snprintf(blk_seen[blk_n++], sizeof blk_seen[0], "%s", line);
	pthread_mutex_unlock(&blk_lock);
	sched_yield();
}

static struct log blk_log;   /* the threads' one log */

static void *
blk_thread(void *arg)
{
	int t = (int)(intptr_t)arg;
	char text[BLK_LINES * 32];

	for (int b = 0; b < BLK_BLOCKS; b++) {
		size_t off = 0;
		for (int l = 0; l < BLK_LINES; l++)
			off += (size_t)snprintf(text + off, sizeof text - off, "t%d b%d l%d\n", t, b, l);
		log_block(&blk_log, text);
	}
	return NULL;
}

Test(log, blocks_to_a_sink_do_not_interleave)
{
	pthread_t th[BLK_THREADS];

	blk_n = 0;
	log_init(&blk_log, 0, blk_sink, NULL);
	for (int t = 0; t < BLK_THREADS; t++)
		cr_assert_eq(pthread_create(&th[t], NULL, blk_thread, (void *)(intptr_t)t), 0);
	for (int t = 0; t < BLK_THREADS; t++)
		pthread_join(th[t], NULL);
	log_cleanup(&blk_log);
	cr_assert_eq(blk_n, (size_t)BLK_THREADS * BLK_BLOCKS * BLK_LINES);
	for (size_t i = 0; i < blk_n; i += BLK_LINES) {
		int t, b, l;
		cr_assert_eq(sscanf(blk_seen[i], "t%d b%d l%d", &t, &b, &l), 3, "%s", blk_seen[i]);
		for (int k = 0; k < BLK_LINES; k++) {
			char want[32];
			snprintf(want, sizeof want, "t%d b%d l%d", t, b, k);
			cr_assert_str_eq(blk_seen[i + (size_t)k], want,
					 "line %zu: a block was cut by another thread's", i + (size_t)k);
		}
	}
}

/* strset: the set's answers, whatever its hash: keys of every length around a word's
 * (the hash reads 8 bytes at a time and a tail), keys that differ only in their last
 * byte or only in length, and enough of them to grow the table several times. */
Test(strset, add_get_across_lengths_and_growth)
{
	static char keys[600][40];
	struct strset s;
	size_t v;

	strset_init(&s);
	cr_expect(!strset_get(&s, "", &v), "an empty set has nothing");
	for (size_t i = 0; i < 600; i++) {
		size_t len = 1 + i % 33;

		memset(keys[i], 'a', len);
		keys[i][len] = '\0';
		keys[i][len - 1] = (char)('A' + i / 33);   /* differs in the last byte */
		cr_expect(strset_add(&s, keys[i], i), "key %zu (%s) added", i, keys[i]);
	}
	cr_expect(strset_add(&s, "", 600), "the empty key too");
	cr_expect_eq(s.n, 601);
	for (size_t i = 0; i < 600; i++) {
		char copy[40];

		memcpy(copy, keys[i], sizeof copy);   /* found by its bytes, not its address */
		cr_expect(strset_get(&s, copy, &v), "key %zu found", i);
		cr_expect_eq(v, i);
		cr_expect(!strset_add(&s, copy, 9999), "key %zu twice", i);
	}
	cr_expect(strset_get(&s, "", &v) && v == 600);
	cr_expect(!strset_get(&s, "aaaaaaaaZ", NULL));
	cr_expect(!strset_get(&s, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaA", NULL), "longer");
	cr_expect_eq(s.n, 601, "nothing changed by refused adds");
	strset_cleanup(&s);
}

Test(strset, hash_uses_every_byte)
{
	char a[24] = "arn:aws:ecs:task/abcdef", b[24];

	for (size_t i = 0; i < strlen(a); i++) {
		memcpy(b, a, sizeof b);
		b[i] ^= 1;
		cr_expect_neq(strset_hash(a), strset_hash(b), "byte %zu", i);
	}
	cr_expect_neq(strset_hash("abcdefgh"), strset_hash("abcdefg"));
	cr_expect_neq(strset_hash(""), strset_hash("a"));
}

/* `taskset -c 0` confines a run to one core while the machine has more online: the worker
 * count follows the affinity mask, not sysconf's online count (issue 35). Criterion runs
 * each test in its own process, so the mask set here ends with it. */
Test(ncpu, follows_the_affinity_mask)
{
	cpu_set_t all, one;
	int first = -1;

	cr_assert_eq(sched_getaffinity(0, sizeof all, &all), 0);
	cr_expect_eq(ncpu_usable(), (unsigned)CPU_COUNT(&all));
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &all))
			first = c;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
	cr_expect_eq(ncpu_usable(), 1u);
}

Test(hex, bytes_round_trip_through_lowercase_digits)
{
	unsigned char all[256], back[256];
	char text[513];

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	hex_encode(all, sizeof all, text);
	text[512] = '\0';
	cr_expect_eq(strncmp(text, "000102030405060708090a0b0c0d0e0f10", 34), 0, "%.34s", text);
	cr_expect_str_eq(text + 500, "fafbfcfdfeff");
	memset(back, 0, sizeof back);
	cr_expect(hex_decode_lower(text, 256, back));
	cr_expect_eq(memcmp(all, back, sizeof all), 0);
}

/* every byte at every place of a digest's 64 digits (the 16-digit steps and the table's
 * tail alike): read as a digit exactly when it is one of 0-9a-f, and each digit in its place */
Test(hex, each_byte_at_each_place_of_a_digest)
{
	char text[66];
	unsigned char b[33];

	for (int at = 0; at < 66; at++)
		for (int c = 1; c < 256; c++) {
			bool digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
			size_t n = at < 64 ? 32 : 33;

			memset(text, '0', sizeof text);
			text[at] = (char)c;
			if (!digit) {
				cr_expect_not(hex_decode_lower(text, n, b), "byte %d at %d", c, at);
				continue;
			}
			cr_assert(hex_decode_lower(text, n, b), "byte %d at %d", c, at);
			for (size_t i = 0; i < n; i++)
				cr_assert_eq(b[i], i == (size_t)at / 2 ?
				    (unsigned)hex_value((char)c) << (at % 2 ? 0 : 4) : 0u,
				    "byte %d at %d: %zu", c, at, i);
			hex_encode(b, n, text);
			cr_assert_eq(text[at], (char)c);
		}
}

Test(hex, only_lowercase_digits_decode)
{
	unsigned char b[2];

	cr_expect(hex_decode_lower("09af", 2, b));
	cr_expect_eq(b[0], 0x09);
	cr_expect_eq(b[1], 0xaf);
	/* a digest written in uppercase keeps its text: it must not read as bytes */
	cr_expect_not(hex_decode_lower("09AF", 2, b));
	cr_expect_not(hex_decode_lower("0g00", 2, b));
	cr_expect_not(hex_decode_lower("/0:0", 2, b));   /* the bytes beside '0' and '9' */
	cr_expect_not(hex_decode_lower("`0g0", 2, b));   /* and beside 'a' and 'f' */
	cr_expect_eq(hex_value('0'), 0);
	cr_expect_eq(hex_value('F'), 15);
	cr_expect_eq(hex_value('f'), 15);
	cr_expect_eq(hex_value('g'), -1);
	cr_expect_eq(hex_value('%'), -1);
}
