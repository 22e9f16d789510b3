/* scaleout_src: the plain sources of a scale-out's story (scaleout_src.h): their storage,
 * one item per identity, and the few texts of the API that carry numbers and names
 * (an activity's description and cause, a scalable target's resource id). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/scaleout_src.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

const char *const so_source_names[SO_SRC_COUNT] = {
	"scaling activities", "scaling policies", "alarm settings", "alarm history",
	"service events", "target group settings", "target health observations",
};

void
so_sources_init(struct so_sources *s)
{
	memset(s, 0, sizeof *s);
	deploy_set_init(&s->deploys);
}

static void
strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
activity_clear(struct so_activity *a)
{
	free(a->id); free(a->resource_id); free(a->description); free(a->cause);
	free(a->status); free(a->alarm); free(a->policy); free(a->cluster); free(a->service);
	memset(a, 0, sizeof *a);
	a->start_ms = a->end_ms = TS_NONE;
	a->desired_to = -1;
}

static void
policy_clear(struct so_policy *p)
{
	free(p->name); free(p->arn); free(p->resource_id); free(p->type); free(p->metric);
	strv_free(p->alarms, p->nalarms);
	memset(p, 0, sizeof *p);
	p->target_value = NAN;
	p->scale_out_cooldown_s = p->scale_in_cooldown_s = -1;
}

static void
alarm_clear(struct so_alarm *a)
{
	free(a->name); free(a->arn); free(a->metric); free(a->comparison);
	strv_free(a->actions, a->nactions);
	memset(a, 0, sizeof *a);
	a->threshold = NAN;
	a->period_s = a->evaluation_periods = a->datapoints = -1;
}

static void
transition_clear(struct so_transition *t)
{
	free(t->alarm); free(t->old_state); free(t->new_state);
	memset(t, 0, sizeof *t);
	t->at_ms = t->first_breach_ms = TS_NONE;
}

static void
service_clear(struct so_service *v)
{
	free(v->name); free(v->arn); free(v->cluster);
	strv_free(v->target_groups, v->ntarget_groups);
	memset(v, 0, sizeof *v);
	v->desired = v->grace_s = -1;
}

static void
target_group_clear(struct so_target_group *g)
{
	free(g->arn); free(g->name); free(g->target_type);
	memset(g, 0, sizeof *g);
	g->interval_s = g->healthy_threshold = g->unhealthy_threshold = g->timeout_s = -1;
}

static void
observation_clear(struct so_target_obs *o)
{
	free(o->target_group); free(o->target); free(o->state); free(o->reason);
	memset(o, 0, sizeof *o);
	o->observed_ms = TS_NONE;
}

void
so_sources_cleanup(struct so_sources *s)
{
	for (size_t i = 0; i < s->nactivities; i++)
		activity_clear(&s->activities[i]);
	for (size_t i = 0; i < s->npolicies; i++)
		policy_clear(&s->policies[i]);
	for (size_t i = 0; i < s->nalarms; i++)
		alarm_clear(&s->alarms[i]);
	for (size_t i = 0; i < s->ntransitions; i++)
		transition_clear(&s->transitions[i]);
	for (size_t i = 0; i < s->nservices; i++)
		service_clear(&s->services[i]);
	for (size_t i = 0; i < s->ntarget_groups; i++)
		target_group_clear(&s->target_groups[i]);
	for (size_t i = 0; i < s->nobservations; i++)
		observation_clear(&s->observations[i]);
	free(s->activities); free(s->policies); free(s->alarms); free(s->transitions);
	free(s->services); free(s->target_groups); free(s->observations);
	deploy_set_cleanup(&s->deploys);
	so_sources_init(s);
}

static bool
same(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The position of the item of v[0..n) (of size sz) that matches key, else n */
typedef bool item_match_fn(const void *item, const void *key);
static size_t
item_find(const void *v, size_t n, size_t sz, item_match_fn *match, const void *key)
{
	size_t i;

	for (i = 0; i < n && !match((const char *)v + i * sz, key); i++)
		;
	return i;
}

/* v with room for item n (grown by doubling as n crosses a power of two, so that no
 * capacity needs keeping beside the count) */
static void *
item_room(void *v, size_t n, size_t sz)
{
	if (n == 0 || (n & (n - 1)) == 0)
		v = xreallocarray(v, n == 0 ? 4 : n * 2, sz);
	memset((char *)v + n * sz, 0, sz);
	return v;
}

/* An identity: an ARN when there is one, else a name (as the API identifies them) */
struct so_key { const char *a, *b; int64_t at; };

static bool
activity_is(const void *it, const void *k)
{
	return same(((const struct so_activity *)it)->id, ((const struct so_key *)k)->a);
}

static bool
policy_is(const void *it, const void *k)
{
	const struct so_policy *p = it;
	const struct so_key *key = k;

	/* by name, the API's identity (an ARN is not always given) */
	return same(p->name, key->b);
}

static bool
alarm_is(const void *it, const void *k)
{
	const struct so_alarm *a = it;
	const struct so_key *key = k;

	return same(a->name, key->b);
}

static bool
transition_is(const void *it, const void *k)
{
	const struct so_transition *t = it;
	const struct so_key *key = k;

	return same(t->alarm, key->a) && t->at_ms == key->at;
}

static bool
service_is(const void *it, const void *k)
{
	return same(((const struct so_service *)it)->name, ((const struct so_key *)k)->a);
}

static bool
target_group_is(const void *it, const void *k)
{
	return same(((const struct so_target_group *)it)->arn, ((const struct so_key *)k)->a);
}

static bool
observation_is(const void *it, const void *k)
{
	const struct so_target_obs *o = it;
	const struct so_key *key = k;

	return same(o->target_group, key->a) && same(o->target, key->b) &&
	       o->observed_ms == key->at;
}

struct so_activity *
so_sources_activity(struct so_sources *s, const char *id)
{
	struct so_key k = { id, NULL, 0 };
	size_t i = item_find(s->activities, s->nactivities, sizeof *s->activities, activity_is, &k);

	if (i == s->nactivities)
		s->activities = item_room(s->activities, s->nactivities++, sizeof *s->activities);
	activity_clear(&s->activities[i]);
	s->activities[i].id = xstrdup_or_null(id);
	return &s->activities[i];
}

struct so_policy *
so_sources_policy(struct so_sources *s, const char *arn, const char *name)
{
	struct so_key k = { arn, name, 0 };
	size_t i = item_find(s->policies, s->npolicies, sizeof *s->policies, policy_is, &k);

	if (i == s->npolicies)
		s->policies = item_room(s->policies, s->npolicies++, sizeof *s->policies);
	policy_clear(&s->policies[i]);
	s->policies[i].arn = xstrdup_or_null(arn);
	s->policies[i].name = xstrdup_or_null(name);
	return &s->policies[i];
}

struct so_alarm *
so_sources_alarm(struct so_sources *s, const char *arn, const char *name)
{
	struct so_key k = { arn, name, 0 };
	size_t i = item_find(s->alarms, s->nalarms, sizeof *s->alarms, alarm_is, &k);

	if (i == s->nalarms)
		s->alarms = item_room(s->alarms, s->nalarms++, sizeof *s->alarms);
	alarm_clear(&s->alarms[i]);
	s->alarms[i].arn = xstrdup_or_null(arn);
	s->alarms[i].name = xstrdup_or_null(name);
	return &s->alarms[i];
}

struct so_transition *
so_sources_transition(struct so_sources *s, const char *alarm, int64_t at_ms)
{
	struct so_key k = { alarm, NULL, at_ms };
	size_t i = item_find(s->transitions, s->ntransitions, sizeof *s->transitions,
			     transition_is, &k);

	if (i == s->ntransitions)
		s->transitions = item_room(s->transitions, s->ntransitions++, sizeof *s->transitions);
	transition_clear(&s->transitions[i]);
	s->transitions[i].alarm = xstrdup_or_null(alarm);
	s->transitions[i].at_ms = at_ms;
	return &s->transitions[i];
}

struct so_service *
so_sources_service(struct so_sources *s, const char *name)
{
	struct so_key k = { name, NULL, 0 };
	size_t i = item_find(s->services, s->nservices, sizeof *s->services, service_is, &k);

	if (i == s->nservices)
		s->services = item_room(s->services, s->nservices++, sizeof *s->services);
	service_clear(&s->services[i]);
	s->services[i].name = xstrdup_or_null(name);
	return &s->services[i];
}

struct so_target_group *
so_sources_target_group(struct so_sources *s, const char *arn)
{
	struct so_key k = { arn, NULL, 0 };
	size_t i = item_find(s->target_groups, s->ntarget_groups, sizeof *s->target_groups,
			     target_group_is, &k);

	if (i == s->ntarget_groups)
		s->target_groups = item_room(s->target_groups, s->ntarget_groups++,
					     sizeof *s->target_groups);
	target_group_clear(&s->target_groups[i]);
	s->target_groups[i].arn = xstrdup_or_null(arn);
	return &s->target_groups[i];
}

struct so_target_obs *
so_sources_observation(struct so_sources *s, const char *tg, const char *target,
		       int64_t observed_ms)
{
	struct so_key k = { tg, target, observed_ms };
	size_t i = item_find(s->observations, s->nobservations, sizeof *s->observations,
			     observation_is, &k);

	if (i == s->nobservations)
		s->observations = item_room(s->observations, s->nobservations++,
					    sizeof *s->observations);
	observation_clear(&s->observations[i]);
	s->observations[i].target_group = xstrdup_or_null(tg);
	s->observations[i].target = xstrdup_or_null(target);
	s->observations[i].observed_ms = observed_ms;
	return &s->observations[i];
}

long
so_desired_of_description(const char *d)
{
	static const char key[] = "desired count to ";
	const char *p = d ? strstr(d, key) : NULL;
	char *end;
	long v;

	if (p == NULL)
		return -1;
	p += sizeof key - 1;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	v = strtol(p, &end, 10);
	return errno != 0 || v < 0 || v > 1000000 ? -1 : v;
}

/* the word after `key` in s, up to a space (NULL when absent) */
static char *
word_after(const char *s, const char *key)
{
	const char *p = strstr(s, key), *e;

	if (p == NULL)
		return NULL;
	p += strlen(key);
	for (e = p; *e != '\0' && *e != ' '; e++)
		;
	return e > p ? xstrndup(p, (size_t)(e - p)) : NULL;
}

void
so_cause_names(const char *cause, char **alarm, char **policy)
{
	*alarm = *policy = NULL;
	if (cause == NULL)
		return;
	*alarm = word_after(cause, "monitor alarm ");
	*policy = word_after(cause, "triggered policy ");
}

bool
so_resource_service(const char *r, char *cluster, size_t csize, char *service, size_t ssize)
{
	const char *c, *slash;

	if (r == NULL || strncmp(r, "service/", 8) != 0)
		return false;
	c = r + 8;
	slash = strchr(c, '/');
	if (slash == NULL || slash == c || slash[1] == '\0' || strchr(slash + 1, '/') != NULL)
		return false;
	snprintf(cluster, csize, "%.*s", (int)(slash - c), c);
	snprintf(service, ssize, "%s", slash + 1);
	return true;
}

void
so_activity_resource(struct so_activity *a)
{
	char cluster[256], service[256];

	free(a->cluster);
	free(a->service);
	a->cluster = a->service = NULL;
	if (so_resource_service(a->resource_id, cluster, sizeof cluster, service, sizeof service)) {
		a->cluster = xstrdup(cluster);
		a->service = xstrdup(service);
	}
}

const struct so_alarm *
so_alarm_of(const struct so_sources *src, const char *name)
{
	for (size_t i = 0; name != NULL && i < src->nalarms; i++)
		if (src->alarms[i].name != NULL && strcmp(src->alarms[i].name, name) == 0)
			return &src->alarms[i];
	return NULL;
}
