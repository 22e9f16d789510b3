/* scaleout_live: a scale-out's source documents fetched live (scaleout_live.h).
 * DescribeServices first (it names the target groups), then one thread per AWS service
 * with its own transport: Application Auto Scaling then CloudWatch (the policies name the
 * alarms, so CloudWatch waits for them on the same thread), and ELBv2 beside it. */
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/buf.h"
#include "ecsprof/creds.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/scaleout_live.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* How far before --since the alarm history is asked: the breaching datapoints before a
 * scale-out's alarm (Period x DatapointsToAlarm) lie before its activity. */
#define HISTORY_LEAD_MS ((int64_t)3600 * 1000)

/* One thread's share: its calls, its transport, its documents */
struct fetch_job {
	struct live_session *s;
	struct aws_scaleout *c;
	const char *cluster, *service;
	int64_t since_ms;
	const char *const *tgs;          /* the service's target groups */
	size_t ntgs;
	struct scaleout_live_docs docs;
	struct err err;                  /* a failure to run at all (no transport) */
	int rc;
};

void
scaleout_live_docs_cleanup(struct scaleout_live_docs *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

static void
docs_add(struct scaleout_live_docs *d, char *doc)
{
	d->v = xreallocarray(d->v, d->n + 1, sizeof *d->v);
	d->v[d->n++] = doc;
}

/* A source left out: named once, with the stages it costs */
static void
source_missing(const char *action, const char *costs, const struct err *e)
{
	log_warn("no %s (%s): %s", action, e->aws_type[0] ? e->aws_type : e->msg, costs);
}

static int
creds_of(void *arg, struct aws_creds *out, struct err *err)
{
	return creds_get(arg, out, err);
}

/* doc's strings at LIST[].SUB[].KEY (ScalingPolicies[].Alarms[].AlarmName, or
 * services[].loadBalancers[].targetGroupArn; LIST "": doc itself, MetricAlarms[].AlarmName),
 * each once, in order */
static void
strings_at(const char *doc, const char *list, const char *sub, const char *key,
	   char ***out, size_t *n)
{
	json_t *root = json_loads(doc, 0, NULL), *one = json_array(), *p, *a;
	json_t *items = *list != '\0' ? json_object_get(root, list) : one;
	size_t i, j;

	*out = NULL;
	*n = 0;
	if (*list == '\0' && root != NULL)
		json_array_append(one, root);
	json_array_foreach(items, i, p) {
		json_array_foreach(json_object_get(p, sub), j, a) {
			const char *v = json_string_value(json_object_get(a, key));
			bool seen = v == NULL;

			for (size_t k = 0; k < *n && !seen; k++)
				seen = strcmp((*out)[k], v) == 0;
			if (seen)
				continue;
			*out = xreallocarray(*out, *n + 1, sizeof **out);
			(*out)[(*n)++] = xstrdup(v);
		}
	}
	json_decref(one);
	json_decref(root);
}

static void
names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* An alarm a policy names that DescribeAlarms does not have (deleted, or another
 * account's) is just absent from its answer: named, as a denied source is */
static void
alarms_absent(const char *alarms, char *const *names, size_t n)
{
	char **have[2];
	size_t nhave[2];

	strings_at(alarms, "", "MetricAlarms", "AlarmName", &have[0], &nhave[0]);
	strings_at(alarms, "", "CompositeAlarms", "AlarmName", &have[1], &nhave[1]);
	for (size_t i = 0; i < n; i++) {
		bool found = false;

		for (int k = 0; k < 2; k++)
			for (size_t m = 0; m < nhave[k] && !found; m++)
				found = strcmp(have[k][m], names[i]) == 0;
		if (!found)
			log_warn("no alarm %s (cloudwatch:DescribeAlarms): detect not measured",
				 names[i]);
	}
	for (int k = 0; k < 2; k++)
		names_free(have[k], nhave[k]);
}

/* CloudWatch: the alarms the policies name, and each one's state changes */
static void
fetch_alarms(struct fetch_job *j, const struct http_transport *t, const char *policies)
{
	char **names, *doc;
	size_t n;
	struct err e;
	bool denied = false;
	int64_t from = j->since_ms == TS_NONE ? TS_NONE : j->since_ms - HISTORY_LEAD_MS;

	strings_at(policies, "ScalingPolicies", "Alarms", "AlarmName", &names, &n);
	if (n == 0) {
		names_free(names, n);
		return;   /* no alarm named: nothing to ask (n == 0 would list the account's) */
	}
	err_clear(&e);
	if (cloudwatch_describe_alarms(j->c, t, (const char *const *)names, n, &doc, &e) == 0) {
		alarms_absent(doc, names, n);
		docs_add(&j->docs, doc);
	} else {
		source_missing("cloudwatch:DescribeAlarms", "detect not estimated", &e);
	}
	for (size_t i = 0; i < n && !denied; i++) {
		err_clear(&e);
		if (cloudwatch_alarm_history(j->c, t, names[i], from, TS_NONE, &doc, &e) == 0) {
			docs_add(&j->docs, doc);
			continue;
		}
		/* said once: every alarm's history fails alike when the action is denied */
		source_missing("cloudwatch:DescribeAlarmHistory", "detect not measured", &e);
		denied = true;
	}
	names_free(names, n);
}

/* Application Auto Scaling, then CloudWatch on a transport of its own */
static void *
appscaling_thread(void *arg)
{
	struct fetch_job *j = arg;
	struct http_transport t = { 0 }, cw = { 0 };
	struct err e;
	char *doc, *policies = NULL;

	if (live_session_transport_new(j->s, &t, &j->err) != 0 ||
	    live_session_transport_new(j->s, &cw, &j->err) != 0) {
		j->rc = -1;
		goto out;
	}
	err_clear(&e);
	if (appscaling_describe_activities(j->c, &t, j->cluster, j->service, j->since_ms, &doc,
					   &e) == 0)
		docs_add(&j->docs, doc);
	else
		source_missing("application-autoscaling:DescribeScalingActivities",
			       "react not measured", &e);
	err_clear(&e);
	if (appscaling_describe_policies(j->c, &t, j->cluster, j->service, &policies, &e) == 0) {
		fetch_alarms(j, &cw, policies);
		docs_add(&j->docs, policies);
	} else {
		source_missing("application-autoscaling:DescribeScalingPolicies",
			       "the alarms not known, detect not measured", &e);
	}
out:
	http_curl_free(&t);
	http_curl_free(&cw);
	return NULL;
}

/* DescribeTargetHealth's answer wrapped with when and where it was observed */
static char *
health_doc(const char *answer, const char *arn, int64_t at_ms)
{
	json_t *root = json_loads(answer, 0, NULL);
	char iso[TIMEUTIL_ISO_LEN], *out;

	if (!json_is_object(root)) {
		json_decref(root);
		return NULL;
	}
	timeutil_format_iso(at_ms, iso);
	json_object_set_new(root, "observed_at", json_string(iso));
	json_object_set_new(root, "target_group_arn", json_string(arn));
	out = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return out;
}

static void *
elbv2_thread(void *arg)
{
	struct fetch_job *j = arg;
	struct http_transport t = { 0 };
	struct err e;
	char *doc;

	if (j->ntgs == 0)
		return NULL;
	if (live_session_transport_new(j->s, &t, &j->err) != 0) {
		j->rc = -1;
		return NULL;
	}
	err_clear(&e);
	if (elbv2_describe_target_groups(j->c, &t, j->tgs, j->ntgs, &doc, &e) == 0)
		docs_add(&j->docs, doc);
	else
		source_missing("elasticloadbalancing:DescribeTargetGroups",
			       "register's end not estimated", &e);
	for (size_t i = 0; i < j->ntgs; i++) {
		char *h;

		err_clear(&e);
		if (elbv2_describe_target_health(j->c, &t, j->tgs[i], &doc, &e) != 0) {
			source_missing("elasticloadbalancing:DescribeTargetHealth",
				       "register not measured", &e);
			break;
		}
		h = health_doc(doc, j->tgs[i], timeutil_now_ms());
		free(doc);
		if (h != NULL)
			docs_add(&j->docs, h);
	}
	http_curl_free(&t);
	return NULL;
}

int
scaleout_live_client(struct live_session *s, struct aws_scaleout **c, struct err *err)
{
	struct aws_context *ctx = live_session_context(s);
	struct aws_scaleout_options so = { 0 };
	char *url[3] = { NULL, NULL, NULL };
	int rc = -1;

	for (int i = 0; i < 3; i++)
		if (aws_scaleout_endpoint(ctx, (enum aws_scaleout_service)i, &url[i], err) != 0)
			goto out;
	so.region = ctx->region;
	so.appscaling_endpoint = url[AWS_SCALEOUT_APPSCALING];
	so.cloudwatch_endpoint = url[AWS_SCALEOUT_CLOUDWATCH];
	so.elbv2_endpoint = url[AWS_SCALEOUT_ELBV2];
	so.max_attempts = ctx->max_attempts;
	so.creds = creds_of;
	so.creds_arg = ctx;
	so.debug = ctx->debug;
	rc = aws_scaleout_new(&so, c, err);
out:
	for (int i = 0; i < 3; i++)
		free(url[i]);
	return rc;
}

static void
docs_take(struct scaleout_live_docs *d, struct scaleout_live_docs *from)
{
	for (size_t i = 0; i < from->n; i++)
		docs_add(d, from->v[i]);
	free(from->v);
	from->v = NULL;
	from->n = 0;
}

int
scaleout_live_fetch(struct live_session *s, const char *cluster, const char *service,
		    int64_t since_ms, struct scaleout_live_docs *d, struct err *err)
{
	const char *names[1] = { service };
	struct fetch_job jobs[2];
	pthread_t th[2];
	bool started[2] = { false, false };
	struct aws_scaleout *c = NULL;
	char *services = NULL, **tgs = NULL;
	size_t ntgs = 0;
	int rc = -1;

	d->fetched_at_ms = timeutil_now_ms();
	if (ecs_describe_services_json(live_session_ecs(s), cluster, names, 1, &services,
				       err) != 0)
		return err_prefix(err, "DescribeServices");
	strings_at(services, "services", "loadBalancers", "targetGroupArn", &tgs, &ntgs);
	docs_add(d, services);
	if (scaleout_live_client(s, &c, err) != 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].s = s;
		jobs[i].c = c;
		jobs[i].cluster = cluster;
		jobs[i].service = service;
		jobs[i].since_ms = since_ms;
		jobs[i].tgs = (const char *const *)tgs;
		jobs[i].ntgs = ntgs;
		err_clear(&jobs[i].err);
	}
	for (int i = 0; i < 2; i++)
		started[i] = pthread_create(&th[i], NULL, i == 0 ? appscaling_thread : elbv2_thread,
					    &jobs[i]) == 0;
	rc = 0;
	for (int i = 0; i < 2; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else if (rc == 0)
			rc = err_set(err, ERR_INTERNAL, "scaleout: cannot start a thread");
		if (jobs[i].rc != 0 && rc == 0) {
			*err = jobs[i].err;
			rc = -1;
		}
		docs_take(d, &jobs[i].docs);
	}
out:
	names_free(tgs, ntgs);
	aws_scaleout_free(c);
	return rc;
}

int
scaleout_live_record_lines(void *arg, struct live_session *s, const char *region,
			   const char *cluster, char ***lines, size_t *nlines, struct err *err)
{
	const struct live_options *o = arg;
	int64_t since_ms = TS_NONE;

	if (o->since != NULL && timeutil_parse_since(o->since, timeutil_now_ms(), &since_ms) != 0)
		since_ms = TS_NONE;   /* the task fetch has refused a bad one already */
	for (size_t i = 0; i < o->nservices; i++) {
		struct scaleout_live_docs d = { 0 };
		int rc = scaleout_live_fetch(s, cluster, o->services[i], since_ms, &d, err);

		for (size_t k = 0; k < d.n && rc == 0; k++)
			rc = record_scaleout_lines(d.v[k], strlen(d.v[k]), region, cluster,
						   o->services[i], d.fetched_at_ms, lines, nlines,
						   err);
		scaleout_live_docs_cleanup(&d);
		if (rc != 0)
			return -1;
	}
	return 0;
}
