/* select_why: "(no tasks)" with a reason. Each SELECT option is tried alone on the tasks
 * read (a copy of the options with only that one set), so the line can say which option
 * emptied the result and what the data holds instead. */
#include <stdio.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "select_why.h"

int64_t
select_data_now(const struct task_set *set)
{
	int64_t m = TS_NONE;

	for (size_t i = 0; i < set->len; i++) {
		int64_t t = task_latest_ms(&set->tasks[i]);

		if (t != TS_NONE && (m == TS_NONE || t > m))
			m = t;
	}
	return m;
}

/* Whether any task passes: the first that does ends the look (with no SELECT option set,
 * the first task, where a count read all 1M of them after the read; issue 35 item 2b). */
static bool
any_kept(const struct task_set *set, const struct cli_opts *only, int64_t since_ms,
	 select_keep_fn *keep)
{
	for (size_t i = 0; i < set->len; i++)
		if (keep(&set->tasks[i], only, since_ms))
			return true;
	return false;
}

/* Up to 4 distinct values of a field, "a, b, c and 2 more" ("" values skipped). */
static void
distinct(struct buf *b, const struct task_set *set, const char *(*field)(const struct task *))
{
	const char *seen[4];
	size_t n = 0, more = 0;

	for (size_t i = 0; i < set->len; i++) {
		const char *v = field(&set->tasks[i]);
		bool dup = v == NULL || v[0] == '\0';

		for (size_t k = 0; k < n && !dup; k++)
			dup = strcmp(seen[k], v) == 0;
		if (dup)
			continue;
		if (n < 4)
			seen[n++] = v;
		else
			more++;   /* an upper bound: later duplicates of the fifth count again */
	}
	for (size_t k = 0; k < n; k++)
		buf_addf(b, "%s%s", k ? ", " : "", seen[k]);
	if (more > 0)
		buf_addf(b, " and others");
	if (n == 0)
		buf_adds(b, "none named");
}

static const char *f_cluster(const struct task *t) { return t->prof->cluster; }
static const char *f_service(const struct task *t) { return t->prof->service; }
static const char *f_family(const struct task *t) { return t->prof->family; }
static const char *f_started_by(const struct task *t) { return t->prof->started_by; }

static void
span(struct buf *b, const struct task_set *set)
{
	int64_t lo = TS_NONE, hi = TS_NONE;
	char a[TIMEUTIL_ISO_LEN], z[TIMEUTIL_ISO_LEN];

	for (size_t i = 0; i < set->len; i++) {
		int64_t c = task_ts(&set->tasks[i], TS_CREATED);

		if (c == TS_NONE)
			continue;
		if (lo == TS_NONE || c < lo)
			lo = c;
		if (hi == TS_NONE || c > hi)
			hi = c;
	}
	if (lo == TS_NONE) {
		buf_adds(b, "no task has a createdAt");
		return;
	}
	timeutil_format_iso(lo, a);
	timeutil_format_iso(hi, z);
	buf_addf(b, "the tasks were created from %.19sZ to %.19sZ", a, z);
}

/* Starts the part for one option that keeps nothing alone: "; --x y matches none". */
static void
part(struct buf *b, int *nzero, const char *what)
{
	buf_addf(b, "%s %s matches none", (*nzero)++ ? ";" : "", what);
}

bool
select_why(const struct task_set *set, const struct cli_opts *o, int64_t since_ms,
	   int64_t now_ms, bool data_time, select_keep_fn *keep)
{
	struct cli_opts only;
	struct buf b;
	char what[256];
	int nzero = 0;

	if (set->len == 0 || any_kept(set, o, since_ms, keep))
		return false;
	buf_init(&b, BUF_MAX_DEFAULT);
	buf_addf(&b, "no task matched: of the %zu read,", set->len);
	memset(&only, 0, sizeof only);
	if (o->cluster != NULL && (only.cluster = o->cluster, !any_kept(set, &only, TS_NONE, keep))) {
		snprintf(what, sizeof what, "--cluster %s", o->cluster);
		part(&b, &nzero, what);
		buf_adds(&b, " (clusters in the data: ");
		distinct(&b, set, f_cluster);
		buf_addc(&b, ')');
	}
	memset(&only, 0, sizeof only);
	if (o->services.n > 0 &&
	    (only.services = o->services, !any_kept(set, &only, TS_NONE, keep))) {
		snprintf(what, sizeof what, "--service %s%s", o->services.v[0],
			 o->services.n > 1 ? " (and the others)" : "");
		part(&b, &nzero, what);
		buf_adds(&b, " (services in the data: ");
		distinct(&b, set, f_service);
		buf_addc(&b, ')');
	}
	memset(&only, 0, sizeof only);
	if (o->family != NULL && (only.family = o->family, !any_kept(set, &only, TS_NONE, keep))) {
		snprintf(what, sizeof what, "--family %s", o->family);
		part(&b, &nzero, what);
		buf_adds(&b, " (families in the data: ");
		distinct(&b, set, f_family);
		buf_addc(&b, ')');
	}
	memset(&only, 0, sizeof only);
	if (o->started_by != NULL &&
	    (only.started_by = o->started_by, !any_kept(set, &only, TS_NONE, keep))) {
		snprintf(what, sizeof what, "--started-by %s", o->started_by);
		part(&b, &nzero, what);
		buf_adds(&b, " (started by in the data: ");
		distinct(&b, set, f_started_by);
		buf_addc(&b, ')');
	}
	memset(&only, 0, sizeof only);
	if (o->status != STATUS_ALL && (only.status = o->status, !any_kept(set, &only, TS_NONE, keep)))
		part(&b, &nzero, o->status == STATUS_STOPPED ? "--status stopped" : "--status running");
	memset(&only, 0, sizeof only);
	if (o->tasks.n > 0 && (only.tasks = o->tasks, !any_kept(set, &only, TS_NONE, keep))) {
		snprintf(what, sizeof what, "--task %s%s", o->tasks.v[0],
			 o->tasks.n > 1 ? " (and the others)" : "");
		part(&b, &nzero, what);
		buf_addf(&b, " (ids here look like %.8s: give an id, 4 or more of its first "
			 "characters, or the ARN)", task_id(&set->tasks[0]));
	}
	memset(&only, 0, sizeof only);
	if (o->since != NULL && since_ms != TS_NONE &&
	    (only.since = o->since, !any_kept(set, &only, since_ms, keep))) {
		char at[TIMEUTIL_ISO_LEN], base[TIMEUTIL_ISO_LEN];
		int64_t d;

		timeutil_format_iso(since_ms, at);
		timeutil_format_iso(now_ms, base);
		if (timeutil_parse_duration(o->since, &d) == 0)
			snprintf(what, sizeof what, "--since %s (from %.19sZ, %s before %s %.19sZ)",
				 o->since, at, o->since,
				 data_time ? "the data's newest time" : "now", base);
		else
			snprintf(what, sizeof what, "--since %s (from %.19sZ)", o->since, at);
		part(&b, &nzero, what);
		buf_adds(&b, ": ");
		span(&b, set);
	}
	if (nzero == 0)
		buf_adds(&b, " each SELECT option alone keeps some, but no task passes them all");
	log_warn(o->log, "%s", buf_str(&b));
	buf_cleanup(&b);
	return true;
}
