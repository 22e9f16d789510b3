/* scaleout_live: a scale-out's source documents fetched live (scaleout_live.h).
 * The independent page chains run at once, each on a thread with its own transports
 * (a transport is one curl handle: never shared between threads), each chain's pages in
 * order: Application Auto Scaling's activities; its policies, then CloudWatch's alarms
 * they name and each one's history; ECS's DescribeServices, then ELBv2's target groups it
 * names and their health. `scaleout` runs its task fetch beside them (the start/finish
 * pair), so the wall time is the longest chain's, not the sum. */
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

/* The chains, one thread each */
enum { JOB_ACTIVITIES, JOB_POLICIES, JOB_TARGETS, JOB_COUNT };

/* One thread's share: its calls, its transports, its documents */
struct fetch_job {
	struct live_session *s;
	struct aws_scaleout *c;
	const char *cluster, *service;
	int64_t since_ms;
	struct http_transport t[2];      /* made before the thread starts; t[1]: a second
					  * service's (CloudWatch, ELBv2) */
	bool have_t[2];
	struct scaleout_live_docs docs;
	char *services;                  /* JOB_TARGETS: DescribeServices' answer */
	struct err err;                  /* JOB_TARGETS: DescribeServices failed (fatal) */
	int rc;
};

struct scaleout_live_job {
	struct aws_scaleout *c;
	char *cluster, *service;
	int64_t fetched_at_ms;
	struct fetch_job jobs[JOB_COUNT];
	pthread_t th[JOB_COUNT];
	bool started[JOB_COUNT];
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
source_missing(struct fetch_job *j, const char *action, const char *costs, const struct err *e)
{
	log_warn(live_session_context(j->s)->log, "no %s (%s): %s", action, e->aws_type[0] ? e->aws_type : e->msg, costs);
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
alarms_absent(const struct log *lg, const char *alarms, char *const *names, size_t n)
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
			log_warn(lg, "no alarm %s (cloudwatch:DescribeAlarms): detect not measured",
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
		alarms_absent(live_session_context(j->s)->log, doc, names, n);
		docs_add(&j->docs, doc);
	} else {
		source_missing(j, "cloudwatch:DescribeAlarms", "detect not estimated", &e);
	}
	for (size_t i = 0; i < n && !denied; i++) {
		err_clear(&e);
		if (cloudwatch_alarm_history(j->c, t, names[i], from, TS_NONE, &doc, &e) == 0) {
			docs_add(&j->docs, doc);
			continue;
		}
		/* said once: every alarm's history fails alike when the action is denied */
		source_missing(j, "cloudwatch:DescribeAlarmHistory", "detect not measured", &e);
		denied = true;
	}
	names_free(names, n);
}

/* Application Auto Scaling's activities */
static void *
activities_thread(void *arg)
{
	struct fetch_job *j = arg;
	struct err e;
	char *doc;

	err_clear(&e);
	if (appscaling_describe_activities(j->c, &j->t[0], j->cluster, j->service, j->since_ms,
					   &doc, &e) == 0)
		docs_add(&j->docs, doc);
	else
		source_missing(j, "application-autoscaling:DescribeScalingActivities",
			       "react not measured", &e);
	return NULL;
}

/* Application Auto Scaling's policies, then CloudWatch on a transport of its own */
static void *
policies_thread(void *arg)
{
	struct fetch_job *j = arg;
	struct err e;
	char *policies = NULL;

	err_clear(&e);
	if (appscaling_describe_policies(j->c, &j->t[0], j->cluster, j->service, &policies,
					 &e) == 0) {
		fetch_alarms(j, &j->t[1], policies);
		docs_add(&j->docs, policies);
	} else {
		source_missing(j, "application-autoscaling:DescribeScalingPolicies",
			       "the alarms not known, detect not measured", &e);
	}
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

/* ECS's DescribeServices, then ELBv2 on a transport of its own: the target groups the
 * service's load balancers name, their settings and their health now */
static void *
targets_thread(void *arg)
{
	struct fetch_job *j = arg;
	const char *names[1] = { j->service };
	const struct http_transport *t = &j->t[1];
	struct err e;
	char *doc, **tgs;
	size_t ntgs;

	if (ecs_describe_services_json_on(live_session_ecs(j->s), &j->t[0], j->cluster, names,
					  1, &j->services, &j->err) != 0) {
		err_prefix(&j->err, "DescribeServices");
		j->rc = -1;
		return NULL;
	}
	strings_at(j->services, "services", "loadBalancers", "targetGroupArn", &tgs, &ntgs);
	err_clear(&e);
	if (ntgs > 0 && elbv2_describe_target_groups(j->c, t, (const char *const *)tgs, ntgs,
						     &doc, &e) == 0)
		docs_add(&j->docs, doc);
	else if (ntgs > 0)
		source_missing(j, "elasticloadbalancing:DescribeTargetGroups",
			       "register's end not estimated", &e);
	for (size_t i = 0; i < ntgs; i++) {
		char *h;

		err_clear(&e);
		if (elbv2_describe_target_health(j->c, t, tgs[i], &doc, &e) != 0) {
			source_missing(j, "elasticloadbalancing:DescribeTargetHealth",
				       "register not measured", &e);
			break;
		}
		h = health_doc(doc, tgs[i], timeutil_now_ms());
		free(doc);
		if (h != NULL)
			docs_add(&j->docs, h);
	}
	names_free(tgs, ntgs);
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
	so.common = aws_client_common_of(ctx, creds_of, ctx);
	so.appscaling_endpoint = url[AWS_SCALEOUT_APPSCALING];
	so.cloudwatch_endpoint = url[AWS_SCALEOUT_CLOUDWATCH];
	so.elbv2_endpoint = url[AWS_SCALEOUT_ELBV2];
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

static void
job_free(struct scaleout_live_job *f)
{
	for (int i = 0; i < JOB_COUNT; i++) {
		struct fetch_job *j = &f->jobs[i];

		for (int k = 0; k < 2; k++)
			if (j->have_t[k])
				http_curl_free(&j->t[k]);
		scaleout_live_docs_cleanup(&j->docs);
		free(j->services);
	}
	aws_scaleout_free(f->c);
	free(f->cluster);
	free(f->service);
	free(f);
}

int
scaleout_live_start(struct live_session *s, const char *cluster, const char *service,
		    int64_t since_ms, struct scaleout_live_job **out, struct err *err)
{
	static void *(*const fn[JOB_COUNT])(void *) = {
		[JOB_ACTIVITIES] = activities_thread, [JOB_POLICIES] = policies_thread,
		[JOB_TARGETS] = targets_thread,
	};
	struct scaleout_live_job *f = xcalloc(1, sizeof *f);

	*out = NULL;
	f->fetched_at_ms = timeutil_now_ms();
	f->cluster = xstrdup(cluster);
	f->service = xstrdup(service);
	if (scaleout_live_client(s, &f->c, err) != 0)
		goto fail;
	/* every transport made here, on one thread, before any chain starts */
	for (int i = 0; i < JOB_COUNT; i++) {
		struct fetch_job *j = &f->jobs[i];

		j->s = s;
		j->c = f->c;
		j->cluster = f->cluster;
		j->service = f->service;
		j->since_ms = since_ms;
		err_clear(&j->err);
		for (int k = 0; k < (i == JOB_ACTIVITIES ? 1 : 2); k++) {
			if (live_session_transport_new(s, &j->t[k], err) != 0)
				goto fail;
			j->have_t[k] = true;
		}
	}
	for (int i = 0; i < JOB_COUNT; i++) {
		f->started[i] = pthread_create(&f->th[i], NULL, fn[i], &f->jobs[i]) == 0;
		if (!f->started[i])
			fn[i](&f->jobs[i]);   /* no thread to be had: that chain on this one */
	}
	*out = f;
	return 0;
fail:
	job_free(f);
	return -1;
}

int
scaleout_live_finish(struct scaleout_live_job *f, struct scaleout_live_docs *d,
		     struct err *err)
{
	int rc = 0;

	if (f == NULL)
		return 0;
	for (int i = 0; i < JOB_COUNT; i++)
		if (f->started[i])
			pthread_join(f->th[i], NULL);
	d->fetched_at_ms = f->fetched_at_ms;
	if (f->jobs[JOB_TARGETS].rc != 0) {
		*err = f->jobs[JOB_TARGETS].err;
		rc = -1;
	} else {
		/* in the order one chain after the other would give them */
		docs_add(d, f->jobs[JOB_TARGETS].services);
		f->jobs[JOB_TARGETS].services = NULL;
		for (int i = 0; i < JOB_COUNT; i++)
			docs_take(d, &f->jobs[i].docs);
	}
	job_free(f);
	return rc;
}

int
scaleout_live_fetch(struct live_session *s, const char *cluster, const char *service,
		    int64_t since_ms, struct scaleout_live_docs *d, struct err *err)
{
	struct scaleout_live_job *f;

	if (scaleout_live_start(s, cluster, service, since_ms, &f, err) != 0)
		return -1;
	return scaleout_live_finish(f, d, err);
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
