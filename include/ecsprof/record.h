/* record: writing ecsprof recordings, the format `ecsprof record` saves and `report` reads.
 * Ownership: record_line_new() returns a string the caller frees; record_merge_file()
 * borrows its lines and owns nothing after it returns.
 *
 * The format, "record/1": JSON Lines (UTF-8, one object per line, '\n' after each):
 *
 *   {"ecsprof":"record/1","fetched_at":"2026-01-02T03:04:05.678Z","region":"us-east-1",
 *    "cluster":"prod","source":"live","task":{...}}
 *
 *   ecsprof     "record/1": marks the line as a recording and names the format version;
 *               a reader refuses versions it does not know.
 *   fetched_at  when DescribeTasks returned this state (ISO 8601 UTC, ms).
 *   region      the AWS region asked; "" if unknown.
 *   cluster     the cluster as given on the command line (name or ARN); "" if unknown.
 *   source      how it was fetched: "live".
 *   healthy_at, healthy_resolution_ms   (optional, `watch --record`) when a poll first saw
 *               the task HEALTHY, and how late that may be (health.h); "healthy_at" is
 *               ISO 8601 UTC, the resolution whole milliseconds.
 *   task        the DescribeTasks Task object exactly as the API returned it (epoch-second
 *               numbers and all), with line breaks between tokens turned into spaces.
 *
 * With --service, a recording also holds the services' deployments and events, one line
 * each, with "service" (the name) and "deployment" (a DescribeServices Deployment) or
 * "event" (a ServiceEvent) in place of "task": keyed by service and deployment id (the
 * newer fetched_at wins) or event id (an event never changes); and a scale-out's source
 * documents, "scaleout" (a document of the AWS CLI's shape, input_scaleout.h) in place of
 * "task", keyed by its items (record_scaleout_lines writes one item a line).
 *
 * One line per task (taskArn): a file holds the newest state seen of each task. The newest
 * is the higher "version"; when either side has no version, the later fetched_at (one
 * that does not read as a time is older than any that does); on a tie, the state already
 * in the file stays, so recording unchanged tasks again leaves the
 * file byte for byte as it was. Lines keep their order; new tasks are appended. */
#ifndef ECSPROF_RECORD_H
#define ECSPROF_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"

#define RECORD_FORMAT "record/1"

/* One recording line (no trailing newline) for a raw DescribeTasks task object, which
 * must be a JSON object with a taskArn. region and cluster may be NULL. NULL on error. */
char *record_line_new(const char *raw_task_json, size_t len, const char *region,
    const char *cluster, int64_t fetched_at_ms, struct err *err);
/* The same, with the line's merge key (input_peek_record's, as the line is read back
 * anyway) in *k, the caller's (input_key_cleanup; zeroed on error), for
 * record_merge_keyed(). */
struct input_key;
char *record_line_new_key(const char *raw_task_json, size_t len, const char *region,
    const char *cluster, int64_t fetched_at_ms, struct input_key *k, struct err *err);

/* The line with the observed healthy_at (and its resolution) added before "task"; takes
 * line (freed) and returns the new one (record_serving.c). */
char *record_line_add_healthy(char *line, int64_t healthy_at_ms, int64_t resolution_ms);
/* A newer line of a task that has no healthy_at, given the older line it replaces: the
 * older one's observed healthy_at and resolution copied in (a task that served once did
 * so, whatever a later poll or StopTask shows), so that a later `record`, experiment
 * StopTask or cleanup does not lose what a poll saw. Takes line (freed); *len updated. */
char *record_line_keep_healthy(char *line, size_t *len, const char *old, size_t old_len);

/* The deployment and event lines of one DescribeServices Service object (raw compact
 * JSON), appended to *lines (grown; each line the caller's to free). Returns how many. */
size_t record_service_lines(const char *service_json, const char *region, const char *cluster,
			    int64_t fetched_at_ms, char ***lines, size_t *nlines);

/* The lines of a scale-out's source document (input_scaleout.h: the AWS CLI's shape,
 * pages merged), appended to *lines (each the caller's to free): one line per item, so
 * that a later recording merges item by item (an activity by its id, an alarm by its
 * name, ...); target health, which has no times, comes wrapped as
 * {"observed_at":...,"target_group_arn":...,"TargetHealthDescriptions":[...]} and is one
 * line. Each line: {"ecsprof":"record/1","fetched_at":...,"region":...,"cluster":...,
 * "source":"live","service":SERVICE,"scaleout":{"KIND":[item]}}. -1 with err for a text
 * that is not one of the documents. */
struct err;
struct log;                    /* log.h: where a kept line's warning goes */
int record_scaleout_lines(const char *doc, size_t len, const char *region, const char *cluster,
			  const char *service, int64_t fetched_at_ms, char ***lines, size_t *nlines,
			  struct err *err);

/* Merges lines (from record_line_new) into the recording at path, creating it if needed.
 * The new file is written beside the old one, fsync'ed and renamed over it
 * (atomicfile.h), so a crash leaves either the old or the new file, never a mix; a
 * symlink is followed to the real file, which is updated; a new recording is 0600 minus
 * the umask, an old one keeps its mode. Refuses (-1) a file that is not a
 * recording, and leaves it alone. When nothing changes, the file is not rewritten.
 * Writers take turns on an flock(2) of the real file's directory, so concurrent runs
 * appending to one recording lose nothing.
 * *added and *updated (either may be NULL) tell how many tasks were new or newer. */
int record_merge_file(const struct log *lg, const char *path, char *const *lines, size_t nlines,
    size_t *added, size_t *updated, struct err *err);
/* Whether record_merge_file could write path, asked before anything is done that would
 * need the recording (an experiment's first RunTask): a file that is not a regular file
 * or not a recording is refused (-1, the same error), as is a new file in a directory the
 * user cannot write. Reads the file; writes nothing. */
int record_check_file(const struct log *lg, const char *path, struct err *err);
/* The same, where keys[i] (keys may be NULL, a key's arn NULL) is line i's key from
 * record_line_new_key(), taken (zeroed): such a line is not read again. */
int record_merge_keyed(const struct log *lg, const char *path, char *const *lines,
    struct input_key *keys, size_t nlines, size_t *added, size_t *updated, struct err *err);

#endif
