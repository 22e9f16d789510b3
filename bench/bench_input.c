/* bench_input: reads task files through input.c and prints one line per task with the
 * four startup durations, so the benchmark can time the input path on its own (and so
 * input can be tried before the CLI exists). Not installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/phase.h"

int
main(int argc, char **argv)
{
	struct task_set set;
	struct input_stats st;
	struct err err;
	char secs[4][32];
	struct input_options o = { 0 };
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_input FILE...\n");
		return 2;
	}
	/* BENCH_THREADS=N BENCH_CHUNK=BYTES: compare parser settings */
	if (getenv("BENCH_THREADS") != NULL)
		o.threads = (unsigned)strtoul(getenv("BENCH_THREADS"), NULL, 10);
	if (getenv("BENCH_CHUNK") != NULL)
		o.chunk_bytes = strtoul(getenv("BENCH_CHUNK"), NULL, 10);
	/* BENCH_WHOLE_DOC=1: a large document held whole first, as before issue 31 */
	o.whole_doc = getenv("BENCH_WHOLE_DOC") != NULL && strcmp(getenv("BENCH_WHOLE_DOC"), "1") == 0;
	task_set_init(&set);
	memset(&st, 0, sizeof st);
	err_clear(&err);
	for (int i = 1; i < argc && rc == 0; i++) {
		if (input_read_file_with(argv[i], &o, &set, &st, &err) != 0) {
			fprintf(stderr, "ecsprof: %s\n", err.msg);
			rc = err_exit_status(err.code);
		}
	}
	printf("task_id,provision_s,pull_s,start_s,total_s\n");
	for (size_t i = 0; i < set.len; i++) {
		for (int p = 0; p < 4; p++)
			timeutil_format_secs(phase_ms(&set.tasks[i], (enum phase_id)p), secs[p],
			    sizeof secs[p]);
		printf("%s,%s,%s,%s,%s\n", task_id(&set.tasks[i]), secs[0], secs[1], secs[2], secs[3]);
	}
	fprintf(stderr, "tasks %zu (states %zu: events %zu, records %zu, metadata %zu; "
	    "duplicates %zu, skipped %zu, failures %zu)\n", set.len, st.tasks, st.events,
	    st.records, st.metadata, st.duplicates, st.skipped, st.failures);
	task_set_cleanup(&set);
	return rc;
}
