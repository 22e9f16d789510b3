/* record_serving: the observed health a `watch --record` line carries beside its task. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

char *
record_line_add_healthy(char *line, int64_t healthy_at_ms, int64_t resolution_ms)
{
	/* record_line_new() writes ...,"source":"live","task":{...}}: insert before "task" */
	const char *at = strstr(line, ",\"task\":");
	char iso[TIMEUTIL_ISO_LEN], *out;

	if (at == NULL || healthy_at_ms == TS_NONE)
		return line;
	timeutil_format_iso(healthy_at_ms, iso);
	out = xasprintf("%.*s,\"healthy_at\":\"%s\",\"healthy_resolution_ms\":%" PRId64 "%s",
			(int)(at - line), line, iso, resolution_ms < 0 ? 0 : resolution_ms, at);
	free(line);
	return out;
}

/* The top-level fields before "task" (record_line_new's order; a string value cannot
 * hold a bare ,"task": since its quotes are escaped): where the healthy fields are. */
static const char *
head_field(const char *line, size_t len, const char *field, const char **task)
{
	const char *t = memmem(line, len, ",\"task\":", 8), *f;

	*task = t;
	if (t == NULL)
		return NULL;
	f = memmem(line, (size_t)(t - line), field, strlen(field));
	return f;
}

char *
record_line_keep_healthy(char *line, size_t *len, const char *old, size_t old_len)
{
	const char *ot, *nt, *from = head_field(old, old_len, ",\"healthy_at\":", &ot);
	char *out;

	if (from == NULL || head_field(line, *len, ",\"healthy_at\":", &nt) != NULL || nt == NULL)
		return line;
	/* old: ...,"healthy_at":"...","healthy_resolution_ms":N,"task":...: copy that run */
	out = xasprintf("%.*s%.*s%s", (int)(nt - line), line, (int)(ot - from), from, nt);
	*len = strlen(out);
	free(line);
	return out;
}

/* jansson's dump: malloc'd (nothing in ecsprof replaces jansson's allocator), the
 * caller's to free() */
static char *
record_dump(const json_t *o)
{
	return json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
}

static void
record_push(char ***lines, size_t *n, const char *head, const char *svc, const char *kind,
	    const json_t *obj)
{
	json_t *name = json_string(svc);
	char *body = record_dump(obj), *q = name != NULL ? record_dump(name) : NULL;

	if (body != NULL && q != NULL) {
		*lines = xreallocarray(*lines, *n + 1, sizeof **lines);
		(*lines)[(*n)++] = xasprintf("%s,\"service\":%s,\"%s\":%s}", head, q, kind, body);
	}
	free(body);
	free(q);
	json_decref(name);
}

/* A line's head without its closing brace (the line goes on after it), or NULL */
static char *
record_head(const char *region, const char *cluster, int64_t fetched_at_ms)
{
	char iso[TIMEUTIL_ISO_LEN], *m;
	json_t *meta;

	timeutil_format_iso(fetched_at_ms, iso);
	meta = json_pack("{s:s,s:s,s:s,s:s,s:s}", "ecsprof", RECORD_FORMAT, "fetched_at", iso,
			 "region", region ? region : "", "cluster", cluster ? cluster : "",
			 "source", "live");
	m = meta != NULL ? record_dump(meta) : NULL;
	json_decref(meta);
	if (m != NULL)
		m[strlen(m) - 1] = '\0';
	return m;
}

size_t
record_service_lines(const char *service_json, const char *region, const char *cluster,
		     int64_t fetched_at_ms, char ***lines, size_t *nlines)
{
	json_error_t e;
	json_t *svc = service_json ? json_loads(service_json, 0, &e) : NULL, *v;
	const char *name;
	char *head;
	size_t before = *nlines, i;

	if (svc == NULL)
		return 0;
	name = json_string_value(json_object_get(svc, "serviceName"));
	head = record_head(region, cluster, fetched_at_ms);
	if (name != NULL && head != NULL) {
		json_array_foreach(json_object_get(svc, "deployments"), i, v)
			record_push(lines, nlines, head, name, "deployment", v);
		json_array_foreach(json_object_get(svc, "events"), i, v)
			record_push(lines, nlines, head, name, "event", v);
	}
	free(head);
	json_decref(svc);
	return *nlines - before;
}

/* The documents whose items are recorded one per line (the merge key is the item's) */
static const char *const record_scaleout_kinds[] = {
	"ScalingActivities", "ScalingPolicies", "MetricAlarms", "AlarmHistoryItems", "services",
	"TargetGroups",
};

int
record_scaleout_lines(const char *doc, size_t len, const char *region, const char *cluster,
		      const char *service, int64_t fetched_at_ms, char ***lines, size_t *nlines,
		      struct err *err)
{
	json_error_t e;
	json_t *root = json_loadb(doc, len, 0, &e), *v;
	const char *kind = NULL;
	char *head;
	size_t i;

	if (root == NULL)
		return err_set(err, ERR_PARSE, "scale-out source document: malformed JSON at "
			       "column %d", e.column);
	for (i = 0; i < sizeof record_scaleout_kinds / sizeof *record_scaleout_kinds; i++)
		if (json_is_array(json_object_get(root, record_scaleout_kinds[i])))
			kind = record_scaleout_kinds[i];
	if (kind == NULL && !json_is_array(json_object_get(root, "TargetHealthDescriptions"))) {
		json_decref(root);
		return err_set(err, ERR_PARSE, "not a scale-out source document");
	}
	head = record_head(region, cluster, fetched_at_ms);
	if (head == NULL) {
		json_decref(root);
		return err_set(err, ERR_INTERNAL, "out of memory");
	}
	if (kind == NULL) {
		/* an observation of a target group, wrapped with its time: one line whole */
		record_push(lines, nlines, head, service ? service : "", "scaleout", root);
	} else {
		json_array_foreach(json_object_get(root, kind), i, v) {
			json_t *one = json_pack("{s:[O]}", kind, v);

			if (one != NULL)
				record_push(lines, nlines, head, service ? service : "", "scaleout", one);
			json_decref(one);
		}
	}
	free(head);
	json_decref(root);
	return 0;
}
