/* input_export: the shapes people already have lying around, beside the API's own:
 * Container Insights performance-log "Type": "Task" events (months of task times without
 * any EventBridge set-up), CloudWatch Logs export lines ("<ISO time> <message>"; the
 * values back to back that Firehose writes are input_lines.c's), and, for the shapes that hold
 * no task times (list-tasks, --output text|table|yaml), a hint saying what to run instead.
 * Ownership: a task filled by input_parse_insights() owns its strings (no pool), like a
 * task metadata document's; hints are static strings. */
#include <stdio.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_int.h"

/* ---- Container Insights performance log events ------------------------------------ */

/* {"Version":"0","Type":"Task","TaskId":"7ac4...","ClusterName":"c",...}: every event of
 * the log group has Type and Version; tasks and containers also carry a TaskId. */
bool
input_is_insights(const json_t *o)
{
	return json_is_object(o) && json_is_string(json_object_get(o, "Type")) &&
	    json_object_get(o, "Version") != NULL &&
	    (json_object_get(o, "TaskId") != NULL || json_object_get(o, "ClusterName") != NULL);
}

bool
input_insights_is_task(const json_t *o)
{
	return strcmp(json_string_value(json_object_get(o, "Type")), "Task") == 0;
}

/* Container Insights times are epoch milliseconds (DescribeTasks gives seconds). */
static int
get_ms(const json_t *o, const char *key, int64_t *out, struct why *w)
{
	const json_t *v = json_object_get(o, key);
	char d[80];

	if (v == NULL || json_is_null(v))
		return 0;
	if (json_is_integer(v) && json_integer_value(v) > 0 &&
	    json_integer_value(v) < (json_int_t)253402300800000) {
		*out = (int64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_real(v) && json_real_value(v) > 0 && json_real_value(v) < 253402300800000.0) {
		*out = (int64_t)json_real_value(v);
		return 0;
	}
	input_describe(v, d, sizeof d);
	return input_why_set(w, "%s: expected a time in epoch milliseconds, got %s", key, d);
}

int
input_parse_insights(const json_t *o, struct task *t, struct why *w)
{
	static const struct { enum ts_field id; const char *name; } times[] = {
		{ TS_CREATED, "CreatedAt" }, { TS_PULL_STARTED, "PullStartedAt" },
		{ TS_PULL_STOPPED, "PullStoppedAt" }, { TS_STARTED, "StartedAt" },
		{ TS_STOPPED, "StoppedAt" },
	};
	char *id = NULL, *cluster = NULL, *family = NULL, *revision = NULL, *service = NULL;
	char *account = NULL, *region = NULL;
	const json_t *rev;
	int rc = -1;

	w->msg[0] = '\0';
	w->ndropped = 0;
	if (input_get_str(o, "TaskId", &id, w) != 0 ||
	    input_get_str(o, "ClusterName", &cluster, w) != 0 ||
	    input_get_str(o, "TaskDefinitionFamily", &family, w) != 0 ||
	    input_get_str(o, "ServiceName", &service, w) != 0 ||
	    input_get_str(o, "AccountID", &account, w) != 0 ||
	    input_get_str(o, "Region", &region, w) != 0 ||
	    input_task_str(t, o, "KnownStatus", &task_edit_profile(t)->last_status, w) != 0 ||
	    input_task_str(t, o, "AvailabilityZone", &task_edit_profile(t)->availability_zone, w) != 0 ||
	    input_task_str(t, o, "LaunchType", &task_edit_profile(t)->launch_type, w) != 0)
		goto out;
	rev = json_object_get(o, "TaskDefinitionRevision");
	if (json_is_integer(rev))
		revision = xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(rev));
	else if (input_get_str(o, "TaskDefinitionRevision", &revision, w) != 0)
		goto out;
	/* a bad time is left out with a warning, as input_parse_task() does; the task kept */
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		int64_t ms = task_ts(t, times[i].id);

		if (get_ms(o, times[i].name, &ms, w) == 0) {
			task_set_ts(t, times[i].id, ms);
			continue;
		}
		task_set_ts(t, times[i].id, TS_NONE);
		input_why_drop(w);
	}
	if (id == NULL || cluster == NULL) {
		input_why_set(w, "%s: missing", id == NULL ? "TaskId" : "ClusterName");
		goto out;
	}
	/* the ARN DescribeTasks would give, so that the same task read from both merges */
	{
		char *arn = xasprintf("arn:aws:ecs:%s:%s:task/%s/%s", region ? region : "",
				      account ? account : "", cluster, id);

		task_set_arn(t, arn, strlen(arn));
		free(arn);
	}
	task_strf(t, &task_edit_profile(t)->cluster_arn, "arn:aws:ecs:%s:%s:cluster/%s", region ? region : "",
	    account ? account : "", cluster);
	if (family != NULL)
		task_strf(t, &task_edit_profile(t)->taskdef_arn, "arn:aws:ecs:%s:%s:task-definition/%s%s%s",
		    region ? region : "", account ? account : "", family, revision ? ":" : "",
		    revision ? revision : "");
	if (service != NULL)
		task_strf(t, &task_edit_profile(t)->group, "service:%s", service);
	/* the task's size, as DescribeTasks states it ("1024"), for the cost columns */
	if (json_is_number(json_object_get(o, "CpuReserved")))
		task_strf(t, &task_edit_profile(t)->cpu, "%.0f", json_number_value(json_object_get(o, "CpuReserved")));
	if (json_is_number(json_object_get(o, "MemoryReserved")))
		task_strf(t, &task_edit_profile(t)->memory, "%.0f",
		    json_number_value(json_object_get(o, "MemoryReserved")));
	rc = 0;
out:
	free(id);
	free(cluster);
	free(family);
	free(revision);
	free(service);
	free(account);
	free(region);
	return rc;
}

/* ---- CloudWatch Logs exports: "2026-11-30T14:03:00.123Z {...}" ---------------------- */

size_t
input_log_prefix(const char *p, size_t n)
{
	size_t i = 0;

	/* YYYY-MM-DDT... up to a space, then the message starting with { or [ */
	if (n < 12 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' '))
		return 0;
	for (i = 0; i < 4; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	for (i = 11; i < n && i < 40 && p[i] != ' ' && p[i] != '\t'; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || strchr(":.+-Z", p[i]) != NULL))
			return 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i < n && (p[i] == '{' || p[i] == '[') ? i : 0;
}

/* ---- shapes without task times: say what to run instead ------------------------------ */

const char *
input_unknown_hint(const json_t *root)
{
	if (!json_is_object(root))
		return NULL;
	if (json_object_get(root, "taskArns") != NULL)
		return "this is aws ecs list-tasks output, which holds task ARNs but no times: "
		    "save aws ecs describe-tasks --cluster C --tasks ARN... (up to 100 at a time) "
		    "or run ecsprof tasks --cluster C (or ecsprof record) instead";
	if (json_object_get(root, "serviceArns") != NULL ||
	    json_object_get(root, "clusterArns") != NULL)
		return "this is an aws ecs list-services or list-clusters output, which holds no "
		    "tasks: run ecsprof tasks --cluster C [--service S] instead";
	return NULL;
}

/* What report reads, for the hints on a file it does not: one place, said whole. */
#define READS "report reads JSON: ecsprof recordings (record, watch --record), aws ecs " \
	"describe-tasks --output json, EventBridge task events and task metadata (ecsprof(1), " \
	"INPUTS)"

const char *
input_text_hint(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	size_t start = i;

	/* a table of its own output, written to a file: Markdown rows start with '|' (aws's
	 * tables start with a line of dashes); CSV (below) has commas in its first line */
	if (i < n && p[i] == '|')
		return "this looks like a Markdown table, not data: " READS;
	if (i < n && (p[i] == '-' || p[i] == '+') && i + 1 < n &&
	    (p[i + 1] == '-' || p[i + 1] == '|' || p[i + 1] == ' '))
		return "this looks like aws --output table: run the same aws command with "
		    "--output json";
	/* yaml: a lower-case key, a colon, then a space or the end ("failures: []") */
	if (i < n && p[i] >= 'a' && p[i] <= 'z') {
		size_t k = i;

		while (k < n && ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z')))
			k++;
		if (k < n && p[k] == ':' && (k + 1 == n || p[k + 1] == ' '))
			return "this looks like aws --output yaml: run the same aws command with "
			    "--output json";
	}
	/* text: an upper-case word, a tab, then values (TASKS\t..., TASKARNS\tarn:...) */
	if (i < n && p[i] >= 'A' && p[i] <= 'Z') {
		while (i < n && ((p[i] >= 'A' && p[i] <= 'Z') || p[i] == '_'))
			i++;
		if (i < n && p[i] == '\t')
			return "this looks like aws --output text: run the same aws command with "
			    "--output json";
	}
	if (start < n && p[start] != '{' && p[start] != '[' &&
	    memchr(p + start, ',', n - start) != NULL)
		return "this looks like a CSV file, not data: " READS;
	return NULL;
}
