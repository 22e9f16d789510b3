/* input_scaleout: the reader of a scale-out's source documents (scaleout_src.h), in the
 * shapes the AWS CLI prints with --output json (pages merged): {"ScalingActivities":[...]},
 * {"ScalingPolicies":[...]}, {"MetricAlarms":[...]}, {"AlarmHistoryItems":[...]},
 * {"services":[...]}, {"TargetGroups":[...]}, and describe-target-health's
 * {"TargetHealthDescriptions":[...]} wrapped with when it was observed:
 * {"observed_at":"...","target_group_arn":"...","TargetHealthDescriptions":[...]}; each
 * as a whole text, or as the "scaleout" member of an ecsprof recording line:
 *   {"ecsprof":"record/1","fetched_at":"...","region":"...","cluster":"...",
 *    "service":"web","scaleout":{ one of the documents above }}
 * The live path hands the same texts (the answers pages merged) to input_scaleout_read_mem.
 * Ownership: what is read is added to the caller's so_sources; nothing else is kept. */
#ifndef ECSPROF_INPUT_SCALEOUT_H
#define ECSPROF_INPUT_SCALEOUT_H

#include <stddef.h>

#include "ecsprof/err.h"
#include "ecsprof/scaleout_src.h"

struct log;   /* log.h: where the deployment reader says what it left out (NULL: stderr) */

/* Reads one text named name (in messages): a document above, a JSON array of them, or
 * JSON Lines (a recording: task lines and others are passed over, the task reader's).
 * The services' deployments and events go to s->deploys (input_deploy.h's reader, which
 * says through lg what it leaves out).
 * *ndocs (may be NULL) gets how many source documents it held. -1 with "NAME[:LINE]:
 * what" in err for malformed JSON in a whole text, a document whose parts have the wrong
 * type, or target health without "observed_at"; what was read before stays in s. */
int input_scaleout_read_mem(const struct log *lg, const char *name, const char *data,
			    size_t len, struct so_sources *s, size_t *ndocs, struct err *err);

#endif
