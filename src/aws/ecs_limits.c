/* ecs_limits: what the ECS client refuses to believe from a server: pagination that never
 * ends (a repeated nextToken, as the AWS SDKs stop on, or more pages than any cluster
 * has) and DescribeTasks answers about tasks that were not asked for (another cluster,
 * another account). Kept apart so that the fetch pool stays about scheduling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_int.h"
#include "ecsprof/log.h"

bool
ecs_page_continue(const struct log *lg, const char *op, const char *prev, const char *next,
		  size_t pages)
{
	if (next == NULL)
		return false;
	if (prev != NULL && strcmp(prev, next) == 0) {
		log_warn(lg, "%s: the server sent the same nextToken twice; stopped paging after "
			 "%zu pages (the AWS SDKs stop there too)", op, pages);
		return false;
	}
	if (pages >= ECS_MAX_PAGES) {
		log_warn(lg, "%s: stopped after %d pages of 100; the rest is left out", op,
			 ECS_MAX_PAGES);
		return false;
	}
	return true;
}

int
awsjson_page_next(const char *op, const char *prev, const char *next, size_t pages,
		  struct err *err)
{
	if (next == NULL)
		return 0;
	if (prev != NULL && strcmp(prev, next) == 0)
		return err_set(err, ERR_AWS, "%s: the server sent the token it was given again "
			       "after %zu pages; paging stopped (the AWS SDKs stop there too)", op,
			       pages);
	if (pages >= ECS_MAX_PAGES)
		return err_set(err, ERR_AWS, "%s: more than %d pages; paging stopped (no real "
			       "answer has that many)", op, ECS_MAX_PAGES);
	return 1;
}

/* "arn:aws:ecs:REGION:ACCOUNT:task/CLUSTER/ID" -> ID, or the whole string */
static const char *
last_segment(const char *s)
{
	const char *p = strrchr(s, '/');
	return p ? p + 1 : s;
}

bool
ecs_task_was_asked(char *const *asked, size_t n, const char *cluster, const char *arn)
{
	const char *id;

	if (arn == NULL)
		return false;
	id = last_segment(arn);
	for (size_t i = 0; i < n; i++) {
		const char *a = asked[i];
		if (strncmp(a, "arn:", 4) == 0) {
			if (strcmp(a, arn) == 0)
				return true;
			continue;
		}
		/* asked by id: the id must match, and the cluster too when the ARN has one
		 * (old-format ARNs, task/ID, have none) */
		if (strcmp(a, id) != 0)
			continue;
		if (cluster != NULL) {
			const char *t = strstr(arn, ":task/");
			const char *cl = last_segment(cluster);
			size_t cl_len = strlen(cl);
			if (t != NULL && last_segment(t + 6) != t + 6 &&
			    ((size_t)(last_segment(t + 6) - 1 - (t + 6)) != cl_len ||
			     strncmp(t + 6, cl, cl_len) != 0))
				continue;
		}
		return true;
	}
	return false;
}

/* As ecs_task_was_asked(), trying first the ARN asked at *hint (an answer lists the tasks
 * in the order asked, as a rule): the same answer, one compare instead of a search of the
 * batch for each task. *hint moves past the ARN found there. */
bool
ecs_task_was_asked_at(char *const *asked, size_t n, const char *cluster, const char *arn,
		      size_t *hint)
{
	size_t i = *hint;

	if (arn != NULL && i < n && strncmp(asked[i], "arn:", 4) == 0 &&
	    strcmp(asked[i], arn) == 0) {
		*hint = i + 1;
		return true;
	}
	return ecs_task_was_asked(asked, n, cluster, arn);
}
