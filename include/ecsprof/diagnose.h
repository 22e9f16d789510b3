/* diagnose: why a task stopped, in words a user can act on. One table of stop-reason
 * patterns (stopCode, the task's stoppedReason and its containers' reasons, and the
 * task's network facts: awsvpc, public IP) gives each known failure a cause and a next
 * step, from the message texts of AWS's ECS troubleshooting guide.
 * Ownership: the rules are static; everything returned is borrowed from them. */
#ifndef ECSPROF_DIAGNOSE_H
#define ECSPROF_DIAGNOSE_H

#include <stddef.h>

#include "ecsprof/task.h"

/* Which public-IP / awsvpc fact a rule needs: any, or stated yes, or anything but yes. */
enum diag_net { DN_ANY, DN_YES, DN_NOT_YES, DN_NOT_NO };

struct diag_rule {
	const char *id;          /* the `diagnosis` column: "no-route-to-ecr" */
	const char *stop_code;   /* must equal the task's stopCode; NULL: any */
	const char *all[3];      /* each must occur in the reasons (case-insensitive) */
	const char *any[8];      /* one of them must occur, when the first is not NULL */
	enum diag_net public_ip;
	enum diag_net awsvpc;
	const char *cause;       /* "no route to ECR from a private subnet" */
	const char *next_step;   /* "add a NAT gateway or ..." */
};

/* In the order they are tried; the first that matches wins. */
extern const struct diag_rule diag_rules[];
extern const size_t diag_nrules;

/* The rule that explains t, or NULL (not stopped, or a reason no rule knows). */
const struct diag_rule *diagnose_task(const struct task *t);

/* The rule of that id (the summary counts by id), or NULL. */
const struct diag_rule *diagnose_rule(const char *id);

#endif
