/* scaleout_health: `watch --record` observing target health (scaleout_live.h). ELBv2's
 * DescribeTargetHealth says a target's state now and never since when, so the register
 * stage's end can only be seen by asking at each poll: what changed since the last poll
 * (a target first seen `initial`, then `healthy`) is kept with the instant it was seen,
 * and only that, so that a day's watch of a steady service adds a line per change rather
 * than a copy of every target at every poll. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/log.h"
#include "ecsprof/scaleout_live.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* The last state seen of one target of one target group */
struct seen {
	char *key;     /* "TG ARN\nTarget.Id\nPort" */
	char *state;   /* TargetHealth.State; "" when the answer had none */
};

struct scaleout_health_watch {
	struct live_session *s;          /* borrowed */
	struct aws_scaleout *c;          /* made at the first poll; NULL until then */
	struct http_transport t;         /* this watcher's alone (one thread) */
	bool ready, broken;              /* client and transport made; could not be */
	bool said;                       /* a failed call named (once per watch) */
	struct seen *v;
	size_t n;
};

struct scaleout_health_watch *
scaleout_health_watch_new(struct live_session *s)
{
	struct scaleout_health_watch *w = xcalloc(1, sizeof *w);

	w->s = s;
	return w;
}

void
scaleout_health_watch_free(struct scaleout_health_watch *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].key);
		free(w->v[i].state);
	}
	free(w->v);
	if (w->ready)
		http_curl_free(&w->t);
	aws_scaleout_free(w->c);
	free(w);
}

/* Whether target d of group tg is new or changed state since the last poll; remembers
 * its state now either way */
static bool
changed(struct scaleout_health_watch *w, const char *tg, const json_t *d)
{
	const json_t *t = json_object_get(d, "Target");
	const char *id = json_string_value(json_object_get(t, "Id"));
	const char *state = json_string_value(
		json_object_get(json_object_get(d, "TargetHealth"), "State"));
	char *key;
	size_t len;

	if (id == NULL)
		return false;   /* no identity to follow */
	if (state == NULL)
		state = "";
	len = strlen(tg) + strlen(id) + 32;
	key = xmalloc(len);
	snprintf(key, len, "%s\n%s\n%lld", tg, id,
		 (long long)json_integer_value(json_object_get(t, "Port")));
	for (size_t i = 0; i < w->n; i++) {
		if (strcmp(w->v[i].key, key) != 0)
			continue;
		free(key);
		if (strcmp(w->v[i].state, state) == 0)
			return false;
		free(w->v[i].state);
		w->v[i].state = xstrdup(state);
		return true;
	}
	w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
	w->v[w->n].key = key;
	w->v[w->n++].state = xstrdup(state);
	return true;
}

/* DescribeTargetHealth's answer cut to the targets that changed, wrapped with when and
 * where it was seen; NULL when none changed */
static char *
changes_doc(struct scaleout_health_watch *w, const json_t *root, const char *tg,
	    const char *iso)
{
	json_t *keep = json_array(), *d, *out;
	char *text = NULL;
	size_t i;

	json_array_foreach(json_object_get(root, "TargetHealthDescriptions"), i, d)
		if (changed(w, tg, d))
			json_array_append(keep, d);
	if (json_array_size(keep) > 0) {
		out = json_pack("{s:s,s:s,s:O}", "observed_at", iso, "target_group_arn", tg,
				"TargetHealthDescriptions", keep);
		if (out != NULL)
			text = json_dumps(out, JSON_COMPACT);
		json_decref(out);
	}
	json_decref(keep);
	return text;
}

/* A wrapped target health document of group tg already in d (this poll's fetch of every
 * document, scaleout_live_fetch): it stands for this poll's observation, cut to what
 * changed (or dropped), so that the group is not asked twice; whether there was one */
static bool
taken(struct scaleout_health_watch *w, const char *tg, struct scaleout_live_docs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		json_t *root = json_loads(d->v[i], 0, NULL);
		const char *arn = json_string_value(json_object_get(root, "target_group_arn"));
		const char *at = json_string_value(json_object_get(root, "observed_at"));
		char *cut;

		if (arn == NULL || at == NULL || strcmp(arn, tg) != 0) {
			json_decref(root);
			continue;
		}
		cut = changes_doc(w, root, tg, at);
		json_decref(root);
		free(d->v[i]);
		if (cut != NULL) {
			d->v[i] = cut;
		} else {
			memmove(&d->v[i], &d->v[i + 1], (d->n - i - 1) * sizeof *d->v);
			d->n--;
		}
		return true;
	}
	return false;
}

static bool
ready(struct scaleout_health_watch *w)
{
	struct err e;

	if (w->ready || w->broken)
		return w->ready;
	err_clear(&e);
	if (scaleout_live_client(w->s, &w->c, &e) != 0 ||
	    live_session_transport_new(w->s, &w->t, &e) != 0) {
		log_warn(live_session_context(w->s)->log, "watch --record: target health not observed: %s", e.msg);
		w->broken = true;
		return false;
	}
	w->ready = true;
	return true;
}

void
scaleout_health_watch_poll(struct scaleout_health_watch *w, const char *service_json,
			   struct scaleout_live_docs *d)
{
	json_t *svc = service_json ? json_loads(service_json, 0, NULL) : NULL, *lb;
	size_t i;

	json_array_foreach(json_object_get(svc, "loadBalancers"), i, lb) {
		const char *tg = json_string_value(json_object_get(lb, "targetGroupArn"));
		char *answer = NULL, *doc, iso[TIMEUTIL_ISO_LEN];
		json_t *root;
		struct err e;

		if (tg == NULL || taken(w, tg, d) || !ready(w))
			continue;
		err_clear(&e);
		if (elbv2_describe_target_health(w->c, &w->t, tg, &answer, &e) != 0) {
			if (!w->said)
				log_warn(live_session_context(w->s)->log, "no elasticloadbalancing:DescribeTargetHealth (%s): register "
					 "not observed", e.aws_type[0] ? e.aws_type : e.msg);
			w->said = true;
			continue;
		}
		/* the answer is the state when it came back: the poll's instant */
		timeutil_format_iso(timeutil_now_ms(), iso);
		root = json_loads(answer, 0, NULL);
		doc = changes_doc(w, root, tg, iso);
		json_decref(root);
		free(answer);
		if (doc == NULL)
			continue;
		d->v = xreallocarray(d->v, d->n + 1, sizeof *d->v);
		d->v[d->n++] = doc;
	}
	json_decref(svc);
}
