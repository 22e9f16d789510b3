/* bench_awscfg: how long ~/.aws/config parsing takes as files grow (issue 10 item 9: 40k
 * profiles took 22 s, a 15 MB file under the 16 MiB cap did not finish in a minute).
 * Prints one line per shape: size, sections, keys and the parse time; parsing must grow
 * linearly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ecsprof/awscfg.h"
#include "ecsprof/buf.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
run(const char *what, struct buf *t, size_t sections, size_t keys)
{
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };
	double t0 = now_s(), dt;

	if (awscfg_parse_text(cfg, buf_str(t), t->len, AWSCFG_CONFIG, "bench", &err) != 0) {
		fprintf(stderr, "bench_awscfg: %s: %s\n", what, err.msg);
		exit(1);
	}
	dt = now_s() - t0;
	printf("%-34s %6.1f MB %7zu sections %8zu keys  %8.3f s\n", what,
	       (double)t->len / 1e6, sections, keys, dt);
	awscfg_free(cfg);
	buf_cleanup(t);
}

int
main(int argc, char **argv)
{
	size_t scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
	struct buf t;
	size_t n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t profiles = 10000; profiles <= 40000 * scale; profiles *= 2) {
		/* 10k, 20k, 40k (x scale): the time doubles with the size when it is linear */
		buf_init(&t, (size_t)64 << 20);
		for (size_t i = 0; i < profiles; i++)
			buf_addf(&t, "[profile p%zu]\nregion = eu-west-1\nrole_arn = "
				 "arn:aws:iam::123456789012:role/r%zu\nsource_profile = base\n", i,
				 i);
		run(profiles == 40000 ? "profiles (issue: 40k took 22 s)" : "profiles", &t,
		    profiles, 3 * profiles);
	}
	/* one section holding almost 16 MiB of keys */
	buf_init(&t, (size_t)64 << 20);
	buf_adds(&t, "[profile one]\n");
	for (n = 0; t.len < (size_t)15 << 20; n++)
		buf_addf(&t, "key_number_%zu = value %zu\n", n, n);
	run("one section, 15 MB of keys", &t, 1, n);
	/* a parent key with 15 MB of sub-properties */
	buf_init(&t, (size_t)64 << 20);
	buf_adds(&t, "[profile one]\ns3 =\n");
	for (n = 0; t.len < (size_t)15 << 20; n++)
		buf_addf(&t, "  sub_%zu = value %zu\n", n, n);
	run("one key, 15 MB of sub-properties", &t, 1, n);
	/* 15 MB of one continued value */
	buf_init(&t, (size_t)64 << 20);
	buf_adds(&t, "[profile one]\nlong = start\n");
	while (t.len < (size_t)15 << 20)
		buf_adds(&t, "  continued line of a long value\n");
	run("one value, 15 MB of continuations", &t, 1, 1);
	return 0;
}
