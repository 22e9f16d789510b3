/* jsonout: the --format json writers (one document) and the JSON Lines task writer that
 * `watch` streams; built with jansson, which never leaves this module.
 * Ownership: the writers borrow the report, its rows and the FILE and keep nothing.
 *
 * Field names are stable; new fields may be added, none renamed or retyped. A missing
 * value is null, never "" or 0. Seconds are numbers rounded to the millisecond. The
 * document is compact JSON with one task (or group) per line, so it streams and greps;
 * strings are UTF-8 as read (a stray invalid byte becomes U+FFFD).
 *
 *   {"tasks": [TASK, ...], "groups": [GROUP, ...], "baseline": "NAME"}
 *   with --summary only: {"groups": [GROUP, ...], "baseline": "NAME"}
 *
 * TASK, one object per task, in the report's row order:
 *   every CSV column by its CSV name: task_arn, task_id, cluster, service, taskdef,
 *     launch_type, platform_version, availability_zone, cpu, memory, last_status, image,
 *     image_digest, soci, soci_evidence, group, stop_code, stopped_reason, source:
 *     string or null;
 *     created_at, connectivity_at, pull_started_at, pull_stopped_at, started_at,
 *     stopped_at: ISO 8601 UTC string with ms ("2024-05-01T10:00:03.123Z") or null;
 *     provision_s, pull_s, start_s, total_s, connectivity_s: seconds or null (null also
 *     when clock skew in the data made the phase negative);
 *   "phases": {"provision": s, "pull": s, "start": s, "total": s, "connectivity": s}
 *     the same durations keyed by phase name (seconds or null);
 *   "containers": [{"name", "image", "image_digest", "last_status", "reason",
 *     "snapshotter": string or null, "exit_code": integer or null}, ...];
 *   "tags": {"KEY": "VALUE", ...}.
 *
 * GROUP, one object per group, in report order (name order, "(none)" last):
 *   "name": string; "n": number of tasks; "baseline": true on the baseline group;
 *   "pull_share": sum of pull / sum of total over tasks having both (0..1) or null;
 *   "phases": {"provision": STATS, "pull": STATS, ...} with STATS =
 *     {"n", "min", "p50", "p90", "p99", "max", "mean"} in seconds (null when n = 0;
 *     percentiles interpolate linearly between closest ranks, as PERCENTILE.INC);
 *   "compare": null on the baseline group, else {"provision": CMP, "pull": CMP, ...} with
 *     CMP = null when a side has no data, else {"p50_delta_s", "p50_ratio",
 *     "p90_delta_s", "p90_ratio" (group against baseline: delta = group - baseline,
 *     ratio = group / baseline, null when not finite), "p_value" (two-sided Mann-Whitney
 *     U, null when not computable), "u", "verdict" (one sentence, as the table prints)}.
 *
 * jsonout_write_task_line() writes one TASK object on one line (JSON Lines). */
#ifndef ECSPROF_JSONOUT_H
#define ECSPROF_JSONOUT_H

#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/report.h"

int jsonout_write_tasks(FILE *f, const struct report *r, struct err *err);
int jsonout_write_summary(FILE *f, const struct report *r, struct err *err);
/* One TASK object and "\n". Returns 0, or -1 when the write failed (errno is set). */
int jsonout_write_task_line(FILE *f, const struct report *r, const struct report_row *row);

#endif
