/* scaleout_live: the live answers a scale-out's story is told from (input_scaleout.h's
 * documents): DescribeServices of one service, Application Auto Scaling's activities and
 * policies, CloudWatch's alarms named by the policies and their history, ELBv2's target
 * groups of the service's load balancers and their health observed now; the independent
 * page chains at once, one thread each. Each document is the text `report --scaleout` reads saved.
 * Ownership: the docs are the caller's (scaleout_live_docs_cleanup); the session is
 * borrowed. */
#ifndef ECSPROF_SCALEOUT_LIVE_H
#define ECSPROF_SCALEOUT_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/live.h"

struct scaleout_live_docs {
	char **v;          /* each one JSON document (the AWS CLI's shape) */
	size_t n;
	int64_t fetched_at_ms;
};

void scaleout_live_docs_cleanup(struct scaleout_live_docs *d);

/* Fetches the documents of service in cluster, the activities and alarm history from
 * since_ms (TS_NONE: all AWS keeps). A failed DescribeServices is an error (-1, err); a
 * source denied or missing (AccessDenied, a missing alarm, an unknown target group) is
 * left out, named once on stderr ("no cloudwatch:DescribeAlarmHistory (AccessDenied):
 * detect not measured"), and the rest is fetched. Adds to *d (zero it first). */
int scaleout_live_fetch(struct live_session *s, const char *cluster, const char *service,
			int64_t since_ms, struct scaleout_live_docs *d, struct err *err);

/* The same in two steps, so that the caller's own fetch (the tasks) runs beside it:
 * start returns once every chain is under way (0, *j the caller's; -1 with err when
 * none could start), finish waits for them and gives what scaleout_live_fetch would
 * (freeing j; NULL is fine). The session is borrowed until finish; its ECS client may
 * fetch tasks meanwhile (DescribeServices goes on a transport of its own). */
struct scaleout_live_job;
int scaleout_live_start(struct live_session *s, const char *cluster, const char *service,
			int64_t since_ms, struct scaleout_live_job **j, struct err *err);
int scaleout_live_finish(struct scaleout_live_job *j, struct scaleout_live_docs *d,
			 struct err *err);

/* The client of the scale-out calls (aws_scaleout.h) on the session's region,
 * credentials, retries and endpoints; the caller frees it (aws_scaleout_free) before the
 * session. */
struct aws_scaleout;
int scaleout_live_client(struct live_session *s, struct aws_scaleout **c, struct err *err);

/* `watch --record`: target health has no times, so each poll observes it and keeps what
 * changed (scaleout_health.c). One watcher per watch; it owns its client, transport and
 * the last state seen of each target, and borrows the session. */
struct scaleout_health_watch;
struct scaleout_health_watch *scaleout_health_watch_new(struct live_session *s);
/* DescribeTargetHealth now of each target group service_json (a DescribeServices Service
 * object) names: the targets first seen, or whose state changed since the last call, as
 * one wrapped document per target group ({"observed_at":NOW,"target_group_arn":ARN,
 * "TargetHealthDescriptions":[those targets]}) added to *d; nothing when none changed. A
 * group whose target health *d holds already (this poll's scaleout_live_fetch) is not
 * asked again: that document is cut to what changed in place. A call that fails is
 * named once per watch on stderr, and the watch goes on. */
void scaleout_health_watch_poll(struct scaleout_health_watch *w, const char *service_json,
				struct scaleout_live_docs *d);
void scaleout_health_watch_free(struct scaleout_health_watch *w);

/* live_options.more_lines for `record --service S`: each service's documents as recording
 * lines (record_scaleout_lines); arg is the live_options (services, since). */
int scaleout_live_record_lines(void *arg, struct live_session *s, const char *region,
			       const char *cluster, char ***lines, size_t *nlines,
			       struct err *err);

#endif
