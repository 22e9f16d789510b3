/* fuzz_taskdef: libFuzzer harness for the task definition reader and the rules of
 * `ecsprof check`. The bytes are a task definition file; whatever they hold, the reader
 * either fails with one line naming the file, or every rule runs and every finding has a
 * known rule, a path, a message and a fix, under both a private subnet's network facts
 * and none, with the findings ordered by severity, and the row table and the verdict can
 * be made of them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/check.h"
#include "ecsprof/taskdef_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const struct taskdef *td, bool live)
{
	struct check_input in;
	struct check_findings f;
	struct check_view v;

	memset(&in, 0, sizeof in);
	in.td = td;
	in.region = "us-east-1";
	if (check_platform_parse(live ? "1.3.0" : NULL, &in.platform) != 0)
		abort();
	if (live) {
		in.net.checked = true;
		in.net.public_ip = FACT_YES;
		in.net.igw_route = in.net.nat_route = FACT_NO;
	}
	check_run(&in, &f);
	for (size_t i = 0; i < f.n; i++) {
		const struct check_rule *r = check_rule_by_id(f.v[i].rule);

		if (r == NULL || r->severity != f.v[i].severity || f.v[i].path == NULL ||
		    f.v[i].message == NULL || f.v[i].message[0] == '\0' || f.v[i].fix == NULL)
			abort();
		if (i > 0 && f.v[i].severity < f.v[i - 1].severity)
			abort();
	}
	check_view_init(&v, &f);
	if (v.table.nrows != f.n || v.table.nnotes == 0)
		abort();
	check_findings_free(&f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct taskdef td;
	struct err err = { 0 };

	if (taskdef_read_mem("fuzz", (const char *)data, size, &td, &err) != 0) {
		if (strncmp(err.msg, "fuzz", 4) != 0 || strchr(err.msg, '\n') != NULL ||
		    td.ncontainers != 0)
			abort();
		return 0;
	}
	run(&td, false);
	run(&td, true);
	taskdef_free(&td);
	return 0;
}
