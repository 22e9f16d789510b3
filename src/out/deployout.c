/* deployout: the writers of `report --deployments`. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/csv.h"
#include "ecsprof/deployout.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/timeutil.h"

/* The contract's columns, then ours. */
static const char *const deploy_cols[] = {
	"service", "deployment_id", "started_at", "desired", "tasks_started", "first_running_s",
	"p50_running_s", "all_running_s", "all_healthy_s", "steady_state_s", "failed_tasks",
	"status", "rollout_state", "task_definition",
};
#define NCOLS (sizeof deploy_cols / sizeof deploy_cols[0])

static void
cell(const struct deploy_row *r, size_t c, char *out, size_t size)
{
	const struct deployment *d = r->d;
	char iso[TIMEUTIL_ISO_LEN];

	out[0] = '\0';
	switch (c) {
	case 0: snprintf(out, size, "%s", d->service ? d->service : ""); break;
	case 1: snprintf(out, size, "%s", d->id ? d->id : ""); break;
	case 2: timeutil_format_iso(d->created_ms, iso); snprintf(out, size, "%s", iso); break;
	case 3: if (d->desired >= 0) snprintf(out, size, "%ld", d->desired); break;
	case 4: snprintf(out, size, "%zu", r->tasks_started); break;
	case 5: timeutil_format_secs(r->first_running_ms, out, size); break;
	case 6: timeutil_format_secs(r->p50_running_ms, out, size); break;
	case 7: timeutil_format_secs(r->all_running_ms, out, size); break;
	case 8: timeutil_format_secs(r->all_healthy_ms, out, size); break;
	case 9: timeutil_format_secs(r->steady_ms, out, size); break;
	case 10: snprintf(out, size, "%ld", r->failed_tasks < 0 ? 0 : r->failed_tasks); break;
	case 11: snprintf(out, size, "%s", d->status ? d->status : ""); break;
	case 12: snprintf(out, size, "%s", d->rollout_state ? d->rollout_state : ""); break;
	case 13: snprintf(out, size, "%s", d->taskdef ? d->taskdef : ""); break;
	}
}

static int
done(FILE *f, int rc, struct err *err)
{
	if (rc != 0 || ferror(f))
		return err_set(err, ERR_IO, "deployments: cannot write the output: %s",
			       err_strerror(errno ? errno : EIO));
	return 0;
}

int
deployout_csv(FILE *f, const struct deploy_row *rows, size_t n, struct err *err)
{
	struct buf b;
	char v[2048];
	int rc = 0;

	buf_init(&b, 1 << 20);
	for (size_t c = 0; c < NCOLS; c++)
		rc |= (c ? buf_addc(&b, ',') : 0) | buf_adds(&b, deploy_cols[c]);
	rc |= buf_addc(&b, '\n');
	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < NCOLS; c++) {
			cell(&rows[i], c, v, sizeof v);
			rc |= (c ? buf_addc(&b, ',') : 0) |
			      csv_add_cell(&b, v, c <= 1 || c >= 11);
		}
		rc |= buf_addc(&b, '\n');
	}
	if (rc == 0 && fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	buf_cleanup(&b);
	return done(f, rc, err);
}

/* "+140.0 s" */
static void
offset(int64_t ms, char *out, size_t size)
{
	if (ms == TS_NONE)
		snprintf(out, size, "-");
	else
		snprintf(out, size, "%.1f", (double)ms / 1000.0);
}

/* Text for a terminal: ESC, BEL, C1 and bidi controls from the data (service event
 * messages come from ECS) become '?' (termsafe), as in every other output. */
static void
clean(const char *s, char *out, size_t size)
{
	snprintf(out, size, "%s", s != NULL ? s : "");
	termsafe_scrub(out, NULL);
}

int
deployout_table(FILE *f, const struct deploy_row *rows, size_t n, struct err *err)
{
	static const char *const titles[] = { "SERVICE", "DEPLOYMENT", "STARTED", "DESIRED",
		"TASKS", "FIRST", "P50", "ALL-RUNNING", "ALL-HEALTHY", "STEADY", "FAILED" };
	int w[11];
	char v[512], s[600];
	int rc = 0;

	errno = 0;
	if (n == 0)
		return done(f, fputs("(no deployments: read with --service, or from "
				     "DescribeServices output or ECS deployment events)\n", f) == EOF,
			    err);
	for (size_t c = 0; c < 11; c++)
		w[c] = (int)strlen(titles[c]);
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < 11; c++) {
			if (c >= 5 && c <= 9) {
				int64_t ms[] = { rows[i].first_running_ms, rows[i].p50_running_ms,
						 rows[i].all_running_ms, rows[i].all_healthy_ms,
						 rows[i].steady_ms };
				offset(ms[c - 5], v, sizeof v);
			} else {
				cell(&rows[i], c, v, sizeof v);
				if (c == 2 && strlen(v) >= 19) {
					v[10] = ' ';
					v[19] = '\0';
				}
			}
			if ((int)strlen(v) > w[c])
				w[c] = (int)strlen(v);
		}
	for (size_t c = 0; c < 11; c++)
		rc |= fprintf(f, c < 3 ? "%-*s%s" : "%*s%s", w[c], titles[c], c < 10 ? "  " : "\n") < 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct deploy_row *r = &rows[i];

		for (size_t c = 0; c < 11; c++) {
			if (c >= 5 && c <= 9) {
				int64_t ms[] = { r->first_running_ms, r->p50_running_ms,
						 r->all_running_ms, r->all_healthy_ms, r->steady_ms };
				offset(ms[c - 5], v, sizeof v);
			} else {
				cell(r, c, v, sizeof v);
				if (c == 2 && strlen(v) >= 19) {
					v[10] = ' ';
					v[19] = '\0';
				}
			}
			if (v[0] == '\0')
				snprintf(v, sizeof v, "-");
			clean(v, s, sizeof s);
			rc |= fprintf(f, c < 3 ? "%-*s%s" : "%*s%s", w[c], s, c < 10 ? "  " : "\n") < 0;
		}
	}
	/* each deployment in a sentence, then its service events on its own time line */
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct deploy_row *r = &rows[i];

		char svc[256];

		deploy_row_sentence(r, v, sizeof v);
		termsafe_scrub(v, NULL);
		clean(r->d->service ? r->d->service : "-", svc, sizeof svc);
		clean(r->d->id, s, sizeof s);
		rc |= fprintf(f, "\n%s %s: %s\n", svc, s, v) < 0;
		for (size_t e = 0; e < r->nevents; e++) {
			char when[32];

			snprintf(when, sizeof when, "+%.1f s",
				 (double)(r->events[e]->at_ms - r->d->created_ms) / 1000.0);
			clean(r->events[e]->message, s, sizeof s);
			rc |= fprintf(f, "  %10s  %s\n", when, s) < 0;
		}
	}
	return done(f, rc, err);
}

static json_t *
jsecs(int64_t ms)
{
	return ms == TS_NONE ? json_null() : json_real((double)ms / 1000.0);
}

static json_t *
jstr(const char *s)
{
	json_t *j = s != NULL && *s != '\0' ? json_string(s) : NULL;

	return j != NULL ? j : json_null();
}

int
deployout_json(FILE *f, const struct deploy_row *rows, size_t n, struct err *err)
{
	int rc = 0;
	char iso[TIMEUTIL_ISO_LEN], sentence[512];

	errno = 0;
	rc |= fputs("{\"deployments\":[", f) == EOF;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct deploy_row *r = &rows[i];
		const struct deployment *d = r->d;
		json_t *o = json_object(), *ev = json_array();

		timeutil_format_iso(d->created_ms, iso);
		json_object_set_new(o, "service", jstr(d->service));
		json_object_set_new(o, "deployment_id", jstr(d->id));
		json_object_set_new(o, "started_at", jstr(iso));
		json_object_set_new(o, "desired", d->desired >= 0 ? json_integer(d->desired)
								   : json_null());
		json_object_set_new(o, "tasks_started", json_integer((json_int_t)r->tasks_started));
		json_object_set_new(o, "first_running_s", jsecs(r->first_running_ms));
		json_object_set_new(o, "p50_running_s", jsecs(r->p50_running_ms));
		json_object_set_new(o, "all_running_s", jsecs(r->all_running_ms));
		json_object_set_new(o, "all_healthy_s", jsecs(r->all_healthy_ms));
		json_object_set_new(o, "steady_state_s", jsecs(r->steady_ms));
		json_object_set_new(o, "failed_tasks", json_integer(r->failed_tasks < 0 ? 0
									   : r->failed_tasks));
		json_object_set_new(o, "status", jstr(d->status));
		json_object_set_new(o, "rollout_state", jstr(d->rollout_state));
		json_object_set_new(o, "task_definition", jstr(d->taskdef));
		deploy_row_sentence(r, sentence, sizeof sentence);
		json_object_set_new(o, "summary", jstr(sentence));
		for (size_t e = 0; e < r->nevents; e++) {
			json_t *x = json_object();

			timeutil_format_iso(r->events[e]->at_ms, iso);
			json_object_set_new(x, "at", jstr(iso));
			json_object_set_new(x, "offset_s",
					    jsecs(r->events[e]->at_ms - d->created_ms));
			json_object_set_new(x, "message", jstr(r->events[e]->message));
			json_array_append_new(ev, x);
		}
		json_object_set_new(o, "events", ev);
		rc |= fputs(i ? ",\n" : "\n", f) == EOF;
		/* jansson escapes C0; DEL, C1 and bidi controls as \uXXXX too (termsafe) */
		char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));

		rc |= text == NULL || termsafe_put_json(f, text) != 0;
		free(text);
		json_decref(o);
	}
	rc |= fputs(n ? "\n]}\n" : "]}\n", f) == EOF;
	return done(f, rc, err);
}
