/* input_fields: the field readers of every input shape: typed values out of a jansson
 * object into struct task, each problem worded as "FIELD: what" so that the caller can
 * name the task first; and the quoting of untrusted text inside messages. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_int.h"
#include "input_serving.h"

/* Untrusted text inside a message: printable ASCII only, so a message stays one line and
 * never carries terminal escapes; long values are cut. */
void
input_quote(char *out, size_t size, const char *s, size_t len)
{
	size_t o = 0, max = size > 200 ? 192 : size - 8;

	if (size < 16)
		return;
	out[o++] = '"';
	for (size_t i = 0; i < len && o + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == max) {
			out[o++] = '.';
			out[o++] = '.';
			out[o++] = '.';
			break;
		}
		out[o++] = (c >= 0x20 && c < 0x7f && c != '"') ? (char)c : '?';
	}
	out[o++] = '"';
	out[o] = '\0';
}

void
input_sanitize(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

void
input_describe(const json_t *v, char *out, size_t size)
{
	if (v == NULL) {
		/* a member that is missing altogether, e.g. a recording line without "task" */
		snprintf(out, size, "nothing");
		return;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		input_quote(out, size, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		snprintf(out, size, "the number %" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(out, size, "the number %g", json_real_value(v));
		break;
	case JSON_OBJECT:
		snprintf(out, size, "an object");
		break;
	case JSON_ARRAY:
		snprintf(out, size, "an array");
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		snprintf(out, size, "a boolean");
		break;
	default:
		snprintf(out, size, "null");
		break;
	}
}


int
input_why_set(struct why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int
input_why_set(struct why *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof w->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* "containers[2]." before a field problem found inside an array element */
static void
why_in(struct why *w, const char *array, size_t i)
{
	char inner[sizeof w->msg + 64];
	size_t n;

	snprintf(inner, sizeof inner, "%s[%zu].%s", array, i, w->msg);
	n = strnlen(inner, sizeof w->msg - 1);
	memcpy(w->msg, inner, n);
	w->msg[n] = '\0';
}

/* The string at key, checked; *out is NULL when it is absent or null. */
static int
str_value(const json_t *obj, const char *key, const json_t **out, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		input_describe(v, d, sizeof d);
		return input_why_set(w, "%s: expected a string, got %s", key, d);
	}
	if (json_string_length(v) > INPUT_MAX_STRING)
		return input_why_set(w, "%s: a string of %zu bytes, longer than the %zu-byte limit", key,
		    json_string_length(v), INPUT_MAX_STRING);
	*out = v;
	return 0;
}

int
input_get_str(const json_t *obj, const char *key, char **dst, struct why *w)
{
	const json_t *v;

	if (str_value(obj, key, &v, w) != 0)
		return -1;
	if (v != NULL) {
		free(*dst);
		*dst = xstrndup(json_string_value(v), json_string_length(v));
	}
	return 0;
}

int
input_task_str(struct task *t, const json_t *obj, const char *key, const char **dst,
    struct why *w)
{
	const json_t *v;

	if (str_value(obj, key, &v, w) != 0)
		return -1;
	if (v != NULL)
		task_strn(t, dst, json_string_value(v), json_string_length(v));
	return 0;
}

/* The task's ARN from obj's string member key (absent or null: left as it is). */
static int
task_arn_str(struct task *t, const json_t *obj, const char *key, struct why *w)
{
	const json_t *v;

	if (str_value(obj, key, &v, w) != 0)
		return -1;
	if (v != NULL)
		task_set_arn(t, json_string_value(v), json_string_length(v));
	return 0;
}

/* A whole number that is really a number: "3" or 3.5 are refused, not guessed. */
int
input_get_int(const json_t *obj, const char *key, bool *has, int64_t *out, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];

	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v)) {
		input_describe(v, d, sizeof d);
		return input_why_set(w, "%s: expected a whole number, got %s", key, d);
	}
	*has = true;
	*out = json_integer_value(v);
	return 0;
}

/* A timestamp: epoch seconds as a number (the API) or an ISO 8601 string (the AWS CLI,
 * EventBridge, task metadata). A numeric string is read as epoch seconds too, decimal
 * only. An ECS time is at or after 1970-01-01T00:00:00Z: timeutil parses earlier ISO
 * times (it is general), this reader refuses them, as epoch seconds refuse them. */
int64_t
input_aws_time(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	int64_t ms;

	if (json_is_number(v) && timeutil_epoch_seconds_to_ms(json_number_value(v), &ms) == 0)
		return ms;
	/* timeutil reads any year; an AWS time is not before 1970 (as epoch seconds) */
	if (json_is_string(v) && timeutil_parse_iso8601(json_string_value(v), &ms) == 0 && ms >= 0)
		return ms;
	return TS_NONE;
}

int
input_get_time(const json_t *obj, const char *key, int64_t *out, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];
	double secs;

	if (v == NULL || json_is_null(v))
		return 0;
	if (json_is_integer(v)) {
		secs = (double)json_integer_value(v);
	} else if (json_is_real(v)) {
		secs = json_real_value(v);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		size_t n = json_string_length(v);
		int64_t ms;
		char *end;

		if (n < 64 && timeutil_parse_iso8601(s, &ms) == 0) {
			if (ms < 0) {
				input_describe(v, d, sizeof d);
				return input_why_set(w, "%s: %s is before 1970, not an ECS time", key, d);
			}
			*out = ms;
			return 0;
		}
		errno = 0;
		secs = strtod(s, &end);
		/* decimal only: strtod also reads hex ("0x6631f8a0" as 1714551968 s), inf
		 * and nan; "1.7145576e9" is fine */
		if (!(s[0] >= '0' && s[0] <= '9') || end == s || *end != '\0' || errno != 0 ||
		    n >= 64 || strspn(s, "0123456789.eE+-") != n) {
			input_describe(v, d, sizeof d);
			return input_why_set(w, "%s: expected a time (ISO 8601 or epoch seconds), got %s",
			    key, d);
		}
	} else {
		input_describe(v, d, sizeof d);
		return input_why_set(w, "%s: expected a time, got %s", key, d);
	}
	if (timeutil_epoch_seconds_to_ms(secs, out) != 0) {
		input_describe(v, d, sizeof d);
		return input_why_set(w, "%s: %s is not a time in epoch seconds between 1970 and 9999%s",
		    key, d, secs > 1e11 && secs < 1e15 ? " (milliseconds? ECS gives seconds)" : "");
	}
	return 0;
}

/* Arrays of objects; absent or null is an empty list. */
static int
get_array(const json_t *obj, const char *key, const json_t **arr, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];

	*arr = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_array(v)) {
		input_describe(v, d, sizeof d);
		return input_why_set(w, "%s: expected an array, got %s", key, d);
	}
	for (size_t i = 0; i < json_array_size(v); i++) {
		if (!json_is_object(json_array_get(v, i))) {
			input_describe(json_array_get(v, i), d, sizeof d);
			return input_why_set(w, "%s[%zu]: expected an object, got %s", key, i, d);
		}
	}
	*arr = v;
	return 0;
}

/* get_array() of a task's containers, refused past the most a task holds */
static int
get_containers(const json_t *obj, const char *key, const json_t **arr, struct why *w)
{
	if (get_array(obj, key, arr, w) != 0)
		return -1;
	if (*arr != NULL && json_array_size(*arr) > TASK_MAX_CONTAINERS)
		return input_why_set(w, "%s: %zu containers, more than the %u a task may have", key,
				     json_array_size(*arr), TASK_MAX_CONTAINERS);
	return 0;
}

static const struct {
	const char *key;
	size_t off;
} task_strings[] = {   /* the profile's, beside the task's own taskArn */
	{ "clusterArn", offsetof(struct task_profile, cluster_arn) },
	{ "taskDefinitionArn", offsetof(struct task_profile, taskdef_arn) },
	{ "group", offsetof(struct task_profile, group) },
	{ "startedBy", offsetof(struct task_profile, started_by) },
	{ "launchType", offsetof(struct task_profile, launch_type) },
	{ "platformVersion", offsetof(struct task_profile, platform_version) },
	{ "platformFamily", offsetof(struct task_profile, platform_family) },
	{ "capacityProviderName", offsetof(struct task_profile, capacity_provider) },
	{ "availabilityZone", offsetof(struct task_profile, availability_zone) },
	{ "cpu", offsetof(struct task_profile, cpu) },
	{ "memory", offsetof(struct task_profile, memory) },
	{ "lastStatus", offsetof(struct task_profile, last_status) },
	{ "desiredStatus", offsetof(struct task_profile, desired_status) },
	{ "stopCode", offsetof(struct task_profile, stop_code) },
	{ "stoppedReason", offsetof(struct task_profile, stopped_reason) },
	{ "healthStatus", offsetof(struct task_profile, health_status) },
};

static const struct {
	const char *key;
	size_t off;
	bool digest;   /* the container's own digest (container_set_digest), else its profile's */
} container_strings[] = {
	{ "name", offsetof(struct container_profile, name), false },
	{ "image", offsetof(struct container_profile, image), false },
	{ "imageDigest", 0, true },
	{ "lastStatus", offsetof(struct container_profile, last_status), false },
	{ "reason", offsetof(struct container_profile, reason), false },
};

/* c's image digest from obj's string member key (absent or null: none) */
static int
container_digest_str(struct task *t, struct container *c, const json_t *obj, const char *key,
		     struct why *w)
{
	const json_t *v;

	if (str_value(obj, key, &v, w) != 0)
		return -1;
	if (v != NULL)
		container_set_digest(t, c, json_string_value(v), json_string_length(v));
	return 0;
}

#define FIELD(base, off) ((const char **)(void *)((char *)(base) + (off)))

static int
parse_containers(const json_t *o, struct task *t, struct why *w)
{
	const json_t *arr;

	if (get_containers(o, "containers", &arr, w) != 0)
		return -1;
	if (arr == NULL || json_array_size(arr) == 0)
		return 0;
	task_containers(t, json_array_size(arr));
	for (size_t i = 0; i < t->ncontainers; i++) {
		const json_t *c = json_array_get(arr, i);
		struct container *k = &t->containers[i];
		int64_t code = 0;
		bool has = false;

		struct container_profile *p = container_edit_profile(t, k);

		for (size_t f = 0; f < sizeof container_strings / sizeof container_strings[0]; f++)
			if (container_strings[f].digest ?
			    container_digest_str(t, k, c, container_strings[f].key, w) != 0 :
			    input_task_str(t, c, container_strings[f].key,
					   FIELD(p, container_strings[f].off), w) != 0)
				goto bad;
		if (input_get_int(c, "exitCode", &has, &code, w) != 0)
			goto bad;
		if (has && (code < INT32_MIN || code > INT32_MAX)) {
			input_why_set(w, "exitCode: %" PRId64 " is out of range", code);
			goto bad;
		}
		k->has_exit_code = has;
		k->exit_code = (int)code;
		continue;
bad:
		why_in(w, "containers", i);
		return -1;
	}
	return 0;
}

static int
parse_tags(const json_t *o, struct task *t, struct why *w)
{
	const json_t *arr;
	struct tag *tg;

	if (get_array(o, "tags", &arr, w) != 0)
		return -1;
	if (arr == NULL || json_array_size(arr) == 0)
		return 0;
	tg = task_tags(t, json_array_size(arr));
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *g = json_array_get(arr, i);

		if (input_task_str(t, g, "key", &tg[i].key, w) != 0 ||
		    input_task_str(t, g, "value", &tg[i].value, w) != 0) {
			why_in(w, "tags", i);
			return -1;
		}
	}
	return 0;
}

/* A time field of a task: a bad one is left out (TS_NONE) with its problem in
 * w->dropped, and the task is kept: one odd timestamp must not cost the rest. */
static void
get_task_time(const json_t *o, const char *key, int64_t *ts, struct why *w)
{
	int64_t ms = *ts;

	w->msg[0] = '\0';
	if (input_get_time(o, key, &ms, w) == 0) {
		*ts = ms;
		return;
	}
	*ts = TS_NONE;
	input_why_drop(w);
}

void
input_why_drop(struct why *w)
{
	if (w->ndropped < WHY_MAX_DROPPED) {
		size_t n = strnlen(w->msg, sizeof w->dropped[0] - 1);

		memcpy(w->dropped[w->ndropped], w->msg, n);
		w->dropped[w->ndropped++][n] = '\0';
	}
	w->msg[0] = '\0';
}

/* A DescribeTasks Task (camelCase), wherever it was found. */
int
input_parse_task(const json_t *o, struct task *t, struct why *w)
{
	struct task_profile *p = task_edit_profile(t);
	bool has_version = t->has_version;   /* a bit-field of t's: no pointer to it */

	w->msg[0] = '\0';
	w->ndropped = 0;
	if (task_arn_str(t, o, "taskArn", w) != 0)
		return -1;
	for (size_t f = 0; f < sizeof task_strings / sizeof task_strings[0]; f++)
		if (input_task_str(t, o, task_strings[f].key, FIELD(p, task_strings[f].off), w) != 0)
			return -1;
	if (input_get_int(o, "version", &has_version, &t->version, w) != 0)
		return -1;
	t->has_version = has_version;
	for (int i = 0; i < TS_COUNT; i++) {
		int64_t ms = task_ts(t, i);

		get_task_time(o, ts_defs[i].json_name, &ms, w);
		task_set_ts(t, i, ms);
	}
	if (parse_containers(o, t, w) != 0 || parse_tags(o, t, w) != 0)
		return -1;
	input_serving_task(o, t);
	return 0;
}

/* "arn:aws:ecs:us-east-1:123:task/c/id" -> "arn:aws:ecs:us-east-1:123:" (6 fields). */
static size_t
arn_prefix_len(const char *arn)
{
	size_t colons = 0;

	if (strncmp(arn, "arn:", 4) != 0)
		return 0;
	for (size_t i = 0; arn[i] != '\0'; i++)
		if (arn[i] == ':' && ++colons == 5)
			return i + 1;
	return 0;
}

/* Task metadata endpoint v4 /task (PascalCase). Its Snapshotter is the one proof of a
 * lazily loaded (SOCI) image. ImageID is the local image config digest, not the registry
 * digest DescribeTasks reports, so it is not used as image_digest. */
int
input_parse_metadata(const json_t *o, struct task *t, struct why *w)
{
	char *family = NULL, *revision = NULL, *service = NULL;
	const json_t *arr, *rev;
	int rc = -1;

	w->msg[0] = '\0';
	w->ndropped = 0;
	if (task_arn_str(t, o, "TaskARN", w) != 0 ||
	    input_task_str(t, o, "Cluster", &task_edit_profile(t)->cluster_arn, w) != 0 ||
	    input_get_str(o, "Family", &family, w) != 0 ||
	    input_get_str(o, "ServiceName", &service, w) != 0 ||
	    input_task_str(t, o, "DesiredStatus", &task_edit_profile(t)->desired_status, w) != 0 ||
	    input_task_str(t, o, "KnownStatus", &task_edit_profile(t)->last_status, w) != 0 ||
	    input_task_str(t, o, "AvailabilityZone", &task_edit_profile(t)->availability_zone, w) != 0 ||
	    input_task_str(t, o, "LaunchType", &task_edit_profile(t)->launch_type, w) != 0)
		goto out;
	/* Revision is a string in v4 ("26"); accept a number too */
	rev = json_object_get(o, "Revision");
	if (json_is_integer(rev))
		revision = xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(rev));
	else if (input_get_str(o, "Revision", &revision, w) != 0)
		goto out;
	for (int i = 0; i < TS_COUNT; i++) {
		int64_t ms = task_ts(t, i);

		if (ts_defs[i].meta_name == NULL)
			continue;
		get_task_time(o, ts_defs[i].meta_name, &ms, w);
		task_set_ts(t, i, ms);
	}
	if (!task_has_arn(t)) {
		input_why_set(w, "TaskARN: missing");
		goto out;
	}
	if (family != NULL) {
		struct task_arn_buf ab;
		const char *arn = task_arn(t, &ab);
		size_t pl = arn_prefix_len(arn);

		char *td = xasprintf("%.*stask-definition/%s%s%s", (int)pl, arn, family,
		    revision ? ":" : "", revision ? revision : "");

		task_str(t, &task_edit_profile(t)->taskdef_arn, td);
		free(td);
	}
	if (service != NULL) {
		char *g = xasprintf("service:%s", service);

		task_str(t, &task_edit_profile(t)->group, g);
		free(g);
	}
	if (get_containers(o, "Containers", &arr, w) != 0)
		goto out;
	if (arr != NULL && json_array_size(arr) > 0) {
		task_containers(t, json_array_size(arr));
		for (size_t i = 0; i < t->ncontainers; i++) {
			const json_t *c = json_array_get(arr, i);
			struct container *k = &t->containers[i];
			int64_t code = 0;
			bool has = false;

			if (input_task_str(t, c, "Name", &container_edit_profile(t, k)->name, w) != 0 ||
			    input_task_str(t, c, "Image", &container_edit_profile(t, k)->image, w) != 0 ||
			    input_task_str(t, c, "KnownStatus", &container_edit_profile(t, k)->last_status, w) != 0 ||
			    input_task_str(t, c, "Snapshotter", &container_edit_profile(t, k)->snapshotter, w) != 0 ||
			    input_get_int(c, "ExitCode", &has, &code, w) != 0) {
				why_in(w, "Containers", i);
				goto out;
			}
			k->has_exit_code = has && code >= INT32_MIN && code <= INT32_MAX;
			k->exit_code = (int)code;
		}
	}
	input_serving_metadata(o, t);
	t->from_metadata = true;
	rc = 0;
out:
	free(family);
	free(revision);
	free(service);
	return rc;
}
