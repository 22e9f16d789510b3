/* input_scaleout: a scale-out's source documents (input_scaleout.h) into plain structs
 * (scaleout_src.h). jansson stays here: the model sees numbers, names and instants. A
 * field that is absent or of another type is left absent (a CLI document is a server's
 * answer, and a missing member is not an error); a document whose list is not a list, an
 * item that is not an object, or target health with no time it was observed is an
 * error naming where. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/input_scaleout.h"
#include "ecsprof/xalloc.h"
#include "input_int.h"

struct sc_ctx {
	struct so_sources *s;
	const char *name;
	long line;                /* 0: a whole text */
	size_t docs;
	struct err *err;
};

static int sc_fail(struct sc_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
sc_fail(struct sc_ctx *c, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (c->line > 0)
		return err_set(c->err, ERR_PARSE, "%s:%ld: %s", c->name, c->line, what);
	return err_set(c->err, ERR_PARSE, "%s: %s", c->name, what);
}

static char *
sc_str(const json_t *o, const char *key)
{
	return xstrdup_or_null(json_string_value(json_object_get(o, key)));
}

/* An item's identity: "" when it has none, so that items without one merge into one
 * rather than piling up each time a document is read again */
static const char *
sc_id(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v != NULL ? v : "";
}

static long
sc_long(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 1000000000)
		return (long)json_integer_value(v);
	return -1;
}

static double
sc_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void
sc_activity(struct sc_ctx *c, const json_t *o)
{
	struct so_activity *a = so_sources_activity(c->s, sc_id(o, "ActivityId"));

	a->resource_id = sc_str(o, "ResourceId");
	a->description = sc_str(o, "Description");
	a->cause = sc_str(o, "Cause");
	a->status = sc_str(o, "StatusCode");
	a->start_ms = input_aws_time(o, "StartTime");
	a->end_ms = input_aws_time(o, "EndTime");
	a->desired_to = so_desired_of_description(a->description);
	so_cause_names(a->cause, &a->alarm, &a->policy);
	so_activity_resource(a);
}

/* an array of objects' string member into a new vector; its length in *n */
static char **
sc_names(const json_t *arr, const char *key, size_t *n)
{
	char **v = xcalloc(json_array_size(arr) + 1, sizeof *v);
	const json_t *e;
	size_t i;

	*n = 0;
	json_array_foreach(arr, i, e) {
		const char *s = key ? json_string_value(json_object_get(e, key)) :
				json_string_value(e);

		if (s != NULL)
			v[(*n)++] = xstrdup(s);
	}
	return v;
}

static void
sc_policy(struct sc_ctx *c, const json_t *o)
{
	struct so_policy *p = so_sources_policy(c->s,
		json_string_value(json_object_get(o, "PolicyARN")), sc_id(o, "PolicyName"));
	const json_t *tt = json_object_get(o, "TargetTrackingScalingPolicyConfiguration");
	const json_t *ss = json_object_get(o, "StepScalingPolicyConfiguration");

	p->resource_id = sc_str(o, "ResourceId");
	p->type = sc_str(o, "PolicyType");
	p->alarms = sc_names(json_object_get(o, "Alarms"), "AlarmName", &p->nalarms);
	if (json_is_object(tt)) {
		const json_t *pre = json_object_get(tt, "PredefinedMetricSpecification");
		const json_t *cus = json_object_get(tt, "CustomizedMetricSpecification");

		p->target_value = sc_num(tt, "TargetValue");
		p->metric = json_is_object(pre) ? sc_str(pre, "PredefinedMetricType") :
			    json_is_object(cus) ? sc_str(cus, "MetricName") : NULL;
		p->scale_out_cooldown_s = sc_long(tt, "ScaleOutCooldown");
		p->scale_in_cooldown_s = sc_long(tt, "ScaleInCooldown");
	} else if (json_is_object(ss)) {
		p->scale_out_cooldown_s = p->scale_in_cooldown_s = sc_long(ss, "Cooldown");
	}
}

static void
sc_alarm(struct sc_ctx *c, const json_t *o)
{
	struct so_alarm *a = so_sources_alarm(c->s,
		json_string_value(json_object_get(o, "AlarmArn")), sc_id(o, "AlarmName"));
	const json_t *m;
	size_t i;

	a->metric = sc_str(o, "MetricName");
	a->comparison = sc_str(o, "ComparisonOperator");
	a->threshold = sc_num(o, "Threshold");
	a->period_s = sc_long(o, "Period");
	a->evaluation_periods = sc_long(o, "EvaluationPeriods");
	a->datapoints = sc_long(o, "DatapointsToAlarm");
	if (a->datapoints < 0)
		a->datapoints = a->evaluation_periods;
	/* a metric-math alarm: the period of the query that returns data */
	json_array_foreach(json_object_get(o, "Metrics"), i, m) {
		const json_t *stat = json_object_get(m, "MetricStat");

		if (a->period_s < 0 && json_is_object(stat))
			a->period_s = sc_long(stat, "Period");
		if (a->metric == NULL && json_is_object(json_object_get(stat, "Metric")))
			a->metric = sc_str(json_object_get(stat, "Metric"), "MetricName");
	}
	a->actions = sc_names(json_object_get(o, "AlarmActions"), NULL, &a->nactions);
}

/* Does a datapoint's value breach? The state reason says which way: "... were greater
 * than the threshold (50.0)"; unknown: every evaluated datapoint counts. */
static bool
sc_breaches(const json_t *dp, const char *reason, double threshold)
{
	const json_t *v = json_object_get(dp, "value");

	if (!json_is_number(v) || isnan(threshold) || reason == NULL)
		return json_is_number(v) || reason == NULL;
	if (strstr(reason, "greater than or equal") != NULL)
		return json_number_value(v) >= threshold;
	if (strstr(reason, "greater than") != NULL)
		return json_number_value(v) > threshold;
	if (strstr(reason, "less than or equal") != NULL)
		return json_number_value(v) <= threshold;
	if (strstr(reason, "less than") != NULL)
		return json_number_value(v) < threshold;
	return true;
}

static void
sc_history(struct sc_ctx *c, const json_t *o)
{
	const char *type = json_string_value(json_object_get(o, "HistoryItemType"));
	const char *data = json_string_value(json_object_get(o, "HistoryData"));
	const json_t *ns, *rd, *dp;
	struct so_transition *t;
	json_t *h;
	size_t i;

	if (type == NULL || strcmp(type, "StateUpdate") != 0)
		return;   /* ConfigurationUpdate, Action: not a transition */
	t = so_sources_transition(c->s, sc_id(o, "AlarmName"), input_aws_time(o, "Timestamp"));
	if (data == NULL || (h = json_loads(data, 0, NULL)) == NULL)
		return;   /* the transition without its datapoints */
	t->old_state = sc_str(json_object_get(h, "oldState"), "stateValue");
	ns = json_object_get(h, "newState");
	t->new_state = sc_str(ns, "stateValue");
	rd = json_object_get(ns, "stateReasonData");
	json_array_foreach(json_object_get(rd, "evaluatedDatapoints"), i, dp) {
		int64_t at = input_aws_time(dp, "timestamp");

		t->ndatapoints++;
		if (at != TS_NONE && sc_breaches(dp, json_string_value(json_object_get(ns,
		    "stateReason")), sc_num(rd, "threshold")) &&
		    (t->first_breach_ms == TS_NONE || at < t->first_breach_ms))
			t->first_breach_ms = at;
	}
	json_decref(h);
}

static void
sc_service(struct sc_ctx *c, const json_t *o)
{
	const char *name = json_string_value(json_object_get(o, "serviceName"));
	const char *arn = json_string_value(json_object_get(o, "serviceArn"));
	const char *cl = json_string_value(json_object_get(o, "clusterArn"));
	struct so_service *v;

	if (name == NULL && arn != NULL && strrchr(arn, '/') != NULL)
		name = strrchr(arn, '/') + 1;
	v = so_sources_service(c->s, name != NULL ? name : "");
	v->arn = xstrdup_or_null(arn);
	v->cluster = xstrdup(cl == NULL ? "" : strrchr(cl, '/') ? strrchr(cl, '/') + 1 : cl);
	v->desired = sc_long(o, "desiredCount");
	v->grace_s = sc_long(o, "healthCheckGracePeriodSeconds");
	v->target_groups = sc_names(json_object_get(o, "loadBalancers"), "targetGroupArn",
				    &v->ntarget_groups);
}

static void
sc_target_group(struct sc_ctx *c, const json_t *o)
{
	struct so_target_group *g = so_sources_target_group(c->s, sc_id(o, "TargetGroupArn"));

	g->name = sc_str(o, "TargetGroupName");
	g->target_type = sc_str(o, "TargetType");
	g->interval_s = sc_long(o, "HealthCheckIntervalSeconds");
	g->healthy_threshold = sc_long(o, "HealthyThresholdCount");
	g->unhealthy_threshold = sc_long(o, "UnhealthyThresholdCount");
	g->timeout_s = sc_long(o, "HealthCheckTimeoutSeconds");
}

struct sc_obs_ctx {
	const char *tg;
	int64_t at;
};

static void
sc_observation(struct sc_ctx *c, const json_t *o, const struct sc_obs_ctx *w)
{
	const json_t *h = json_object_get(o, "TargetHealth");
	struct so_target_obs *ob = so_sources_observation(c->s, w->tg,
		sc_id(json_object_get(o, "Target"), "Id"), w->at);

	ob->state = sc_str(h, "State");
	ob->reason = sc_str(h, "Reason");
}

/* The documents, by the key that names each */
static const struct sc_kind {
	const char *key;
	enum so_source src;
} sc_kinds[] = {
	{ "ScalingActivities", SO_SRC_ACTIVITIES },
	{ "ScalingPolicies", SO_SRC_POLICIES },
	{ "MetricAlarms", SO_SRC_ALARMS },
	{ "AlarmHistoryItems", SO_SRC_ALARM_HISTORY },
	{ "services", SO_SRC_SERVICES },
	{ "TargetGroups", SO_SRC_TARGET_GROUPS },
	{ "TargetHealthDescriptions", SO_SRC_TARGET_HEALTH },
};

bool
input_scaleout_doc(const json_t *o)
{
	/* by its key, whatever its type: a list that is not a list is this reader's error */
	for (size_t j = 0; j < sizeof sc_kinds / sizeof sc_kinds[0]; j++)
		if (sc_kinds[j].src == SO_SRC_SERVICES ?
		    json_is_array(json_object_get(o, sc_kinds[j].key)) :
		    json_object_get(o, sc_kinds[j].key) != NULL)
			return true;
	return false;
}

/* The identity of an item of a document of kind k, as so_sources_* merge them */
static const char *const sc_id_keys[SO_SRC_COUNT] = {
	[SO_SRC_ACTIVITIES] = "ActivityId", [SO_SRC_POLICIES] = "PolicyName",
	[SO_SRC_ALARMS] = "AlarmName", [SO_SRC_ALARM_HISTORY] = "Timestamp",
	[SO_SRC_SERVICES] = "serviceName", [SO_SRC_TARGET_GROUPS] = "TargetGroupArn",
	[SO_SRC_TARGET_HEALTH] = NULL,
};

int
input_scaleout_record_key(const json_t *rec, char **key)
{
	const json_t *doc = json_object_get(rec, "scaleout"), *e;
	const struct sc_kind *k = NULL;
	struct buf b;
	size_t i;

	if (!json_is_object(doc) || json_object_get(rec, "task") != NULL)
		return -1;
	for (size_t j = 0; j < sizeof sc_kinds / sizeof sc_kinds[0] && k == NULL; j++)
		if (json_is_array(json_object_get(doc, sc_kinds[j].key)))
			k = &sc_kinds[j];
	if (k == NULL)
		return -1;
	buf_init(&b, 1 << 20);
	buf_addf(&b, "scaleout:%s/", k->key);
	if (k->src == SO_SRC_TARGET_HEALTH) {
		buf_addf(&b, "%s@%s", sc_id(doc, "target_group_arn"), sc_id(doc, "observed_at"));
	} else {
		json_array_foreach(json_object_get(doc, k->key), i, e) {
			buf_addf(&b, "%s%s", i ? "," : "", sc_id(e, sc_id_keys[k->src]));
			if (k->src == SO_SRC_ALARM_HISTORY)
				buf_addf(&b, "@%s", sc_id(e, "AlarmName"));
		}
	}
	*key = buf_take(&b);
	return 0;
}

/* One document; 1 when o is one, 0 when it is not, -1 on error */
static int
sc_doc(struct sc_ctx *c, const json_t *o)
{
	const struct sc_kind *k = NULL;
	struct sc_obs_ctx w = { NULL, TS_NONE };
	const json_t *arr, *e;
	char d[80], where[80];
	size_t i;

	for (size_t j = 0; j < sizeof sc_kinds / sizeof sc_kinds[0] && k == NULL; j++)
		if (json_object_get(o, sc_kinds[j].key) != NULL)
			k = &sc_kinds[j];
	if (k == NULL)
		return 0;
	arr = json_object_get(o, k->key);
	if (!json_is_array(arr)) {
		if (k->src == SO_SRC_SERVICES)
			return 0;   /* not DescribeServices' */
		input_describe(arr, d, sizeof d);
		return sc_fail(c, "%s: expected an array, got %s", k->key, d);
	}
	if (k->src == SO_SRC_TARGET_HEALTH) {
		w.tg = json_string_value(json_object_get(o, "target_group_arn"));
		w.at = input_aws_time(o, "observed_at");
		if (w.at == TS_NONE || w.tg == NULL)
			return sc_fail(c, "%s without \"observed_at\" and \"target_group_arn\": "
				       "describe-target-health has no times; wrap it as {\"observed_at\":"
				       "\"...\",\"target_group_arn\":\"...\",\"%s\":[...]} (watch "
				       "--record does)", k->key, k->key);
	}
	json_array_foreach(arr, i, e) {
		if (!json_is_object(e)) {
			input_describe(e, d, sizeof d);
			snprintf(where, sizeof where, "%s[%zu]", k->key, i);
			return sc_fail(c, "%s: expected an object, got %s", where, d);
		}
		switch (k->src) {
		case SO_SRC_ACTIVITIES: sc_activity(c, e); break;
		case SO_SRC_POLICIES: sc_policy(c, e); break;
		case SO_SRC_ALARMS: sc_alarm(c, e); break;
		case SO_SRC_ALARM_HISTORY: sc_history(c, e); break;
		case SO_SRC_SERVICES: sc_service(c, e); break;
		case SO_SRC_TARGET_GROUPS: sc_target_group(c, e); break;
		case SO_SRC_TARGET_HEALTH: sc_observation(c, e, &w); break;
		case SO_SRC_COUNT: break;
		}
	}
	c->s->read[k->src] = true;
	c->docs++;
	return 1;
}

/* A value of the text: a document, a recording line, or an array of either */
static int
sc_value(struct sc_ctx *c, const json_t *v)
{
	const json_t *e;
	size_t i;

	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			if (sc_value(c, e) < 0)
				return -1;
		return 0;
	}
	if (!json_is_object(v))
		return 0;
	if (json_object_get(v, "ecsprof") != NULL) {
		const json_t *doc = json_object_get(v, "scaleout");

		/* the service's deployment and event lines tell what ECS did */
		if (json_is_object(json_object_get(v, "event")))
			c->s->read[SO_SRC_SERVICES] = true;
		if (doc == NULL)
			return 0;
		int r = json_is_object(doc) ? sc_doc(c, doc) : 0;

		if (r == 0)
			return sc_fail(c, "%s%s", "\"scaleout\": not a scale-out source document ",
				       "(ScalingActivities, ScalingPolicies, MetricAlarms, "
				       "AlarmHistoryItems, services, TargetGroups, "
				       "TargetHealthDescriptions)");
		return r < 0 ? -1 : 0;
	}
	return sc_doc(c, v) < 0 ? -1 : 0;
}

/* The next line of [*p, end) (without its '\n') in *n; *p moves past it */
static const char *
sc_line(const char **p, const char *end, size_t *n)
{
	const char *line = *p, *nl = memchr(line, '\n', (size_t)(end - line));

	*n = nl != NULL ? (size_t)(nl - line) : (size_t)(end - line);
	*p = line + *n + (nl != NULL);
	return line;
}

/* JSON Lines: the first line that is not blank is a JSON value on its own */
static bool
sc_first_line_json(const char *data, size_t len)
{
	const char *p = data, *end = data + len, *line;
	size_t n;
	json_t *v;

	while (p < end) {
		line = sc_line(&p, end, &n);
		if (!input_blank(line, n)) {
			v = json_loadb(line, n, JSON_DECODE_ANY, NULL);
			json_decref(v);
			return v != NULL;
		}
	}
	return false;
}

int
input_scaleout_read_mem(const struct log *lg, const char *name, const char *data, size_t len,
			struct so_sources *s, size_t *ndocs, struct err *err)
{
	struct sc_ctx c = { s, name, 0, 0, err };
	const char *p = data, *end = data + len;
	json_error_t e;
	json_t *root;
	int rc = 0;

	if ((root = json_loadb(data, len, JSON_DECODE_ANY, &e)) != NULL) {
		rc = sc_value(&c, root);
		json_decref(root);
	} else if (input_json_oom(&e)) {
		return err_set(err, ERR_INTERNAL, "%s: out of memory parsing the JSON", name);
	} else if (!sc_first_line_json(data, len)) {
		if (!input_blank(data, len))
			return err_set(err, ERR_PARSE, "%s:%d:%d: malformed JSON: %s", name, e.line,
				       e.column, e.text);
	} else {
		/* JSON Lines: a bad line is the task reader's to report (it reads every line) */
		for (long line = 1; p < end && rc == 0; line++) {
			size_t n;
			const char *l = sc_line(&p, end, &n);

			if (n > 0 && (root = json_loadb(l, n, JSON_DECODE_ANY, &e)) != NULL) {
				c.line = line;
				rc = sc_value(&c, root);
				json_decref(root);
			}
		}
	}
	if (ndocs != NULL)
		*ndocs = c.docs;
	if (rc != 0)
		return -1;
	return input_deploy_read_mem(lg, name, data, len, &s->deploys, err);
}
