/* select: the SELECT filter, applied to saved data as the ECS API applies it to live
 * data (ListTasks filters on desiredStatus; a task file may only have lastStatus). */
#include <string.h>

#include "ecsprof/select.h"

static bool
matches_task_id(const struct task *t, const char *want)
{
	size_t n = strlen(want);

	if (task_arn_is(t, want) || strcmp(task_id(t), want) == 0)
		return true;
	/* the short id the table and the TUI print (313da244), as git takes a short hash */
	return n >= 4 && strchr(want, '/') == NULL && strchr(want, ':') == NULL &&
	       strncmp(task_id(t), want, n) == 0;
}

static bool
matches_service(const struct task *t, const struct select_options *o)
{
	for (size_t i = 0; i < o->nservices; i++) {
		const char *s = o->services[i], *slash = strrchr(s, '/');

		/* a service ARN ends in /NAME */
		if (strcmp(t->prof->service, slash ? slash + 1 : s) == 0)
			return true;
	}
	return false;
}

bool
select_keep(const struct select_options *o, const struct task *t)
{
	if (o->cluster != NULL && strcmp(t->prof->cluster, o->cluster) != 0 &&
	    (t->prof->cluster_arn == NULL || strcmp(t->prof->cluster_arn, o->cluster) != 0))
		return false;
	if (o->nservices > 0 && !matches_service(t, o))
		return false;
	if (o->family != NULL && strcmp(t->prof->family, o->family) != 0)
		return false;
	if (o->started_by != NULL && (t->prof->started_by == NULL || strcmp(t->prof->started_by, o->started_by) != 0))
		return false;
	if (o->status != SELECT_ALL) {
		const char *st = t->prof->desired_status ? t->prof->desired_status : t->prof->last_status;
		bool stopped = st != NULL && strcmp(st, "STOPPED") == 0;

		if ((o->status == SELECT_STOPPED) != stopped)
			return false;
	}
	if (o->ntasks > 0) {
		bool any = false;

		for (size_t i = 0; i < o->ntasks && !any; i++)
			any = matches_task_id(t, o->tasks[i]);
		if (!any)
			return false;
	}
	if (o->since_ms != TS_NONE && (task_ts(t, TS_CREATED) == TS_NONE || task_ts(t, TS_CREATED) < o->since_ms))
		return false;
	return true;
}

static bool
keep_fn(const struct task *t, void *ctx)
{
	return select_keep(ctx, t);
}

/* whether any option is set: with none, every task passes */
static bool
select_any(const struct select_options *o)
{
	return o->cluster != NULL || o->nservices > 0 || o->family != NULL ||
	       o->started_by != NULL || o->status != SELECT_ALL || o->ntasks > 0 ||
	       o->since_ms != TS_NONE;
}

void
select_apply(const struct select_options *o, struct task_set *set)
{
	/* nothing to remove: the set (and its index, rebuilt by every filter) stays as it is */
	if (!select_any(o))
		return;
	task_set_filter(set, keep_fn, (void *)o);
}
