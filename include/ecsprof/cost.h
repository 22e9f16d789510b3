/* cost: what a task's start cost on Fargate. Fargate bills from the start of the image
 * pull, so the start is billed from pullStartedAt until the task serves (healthy_at, else
 * startedAt): billed_startup_s, priced per vCPU-second and GB-second from a built-in table
 * of on-demand Linux prices per region and CPU architecture, which a --prices FILE
 * extends or replaces (and which alone can price Fargate Spot).
 * Ownership: a cost_prices owns its entries, freed by cost_prices_cleanup(). */
#ifndef ECSPROF_COST_H
#define ECSPROF_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/task.h"

struct cost_price {
	char region[32];     /* "us-east-1", or "*" for any region */
	char arch[16];       /* "x86_64" or "arm64" */
	bool spot;           /* capacity provider FARGATE_SPOT */
	double vcpu_hour;    /* USD per vCPU-hour */
	double gb_hour;      /* USD per GB-hour */
};

/* The prices given with --prices (tried before the built-in table). */
struct cost_prices {
	struct cost_price *v;
	size_t n;
};

/* The built-in on-demand Linux table (see cost.c for where the figures come from). */
extern const struct cost_price cost_builtin[];
extern const size_t cost_nbuiltin;

void cost_prices_init(struct cost_prices *p);
void cost_prices_cleanup(struct cost_prices *p);
/* Reads a prices file (format in ecsprof(1), PRICES FILE): lines of
 *   REGION ARCH CAPACITY USD_PER_VCPU_HOUR USD_PER_GB_HOUR
 * e.g. "us-east-1 arm64 FARGATE_SPOT 0.01295 0.00142"; '#' starts a comment. REGION may
 * be '*'; ARCH x86_64|arm64; CAPACITY FARGATE|FARGATE_SPOT. Later lines win. Errors name
 * FILE:LINE. */
int cost_prices_load(struct cost_prices *p, const char *path, struct err *err);
/* The same from text in memory (name for messages). */
int cost_prices_parse(struct cost_prices *p, const char *name, const char *text,
		      struct err *err);

/* Fargate (launch type or capacity provider FARGATE / FARGATE_SPOT)? */
bool cost_is_fargate(const struct task *t);
/* pullStartedAt to healthy_at, else startedAt, in ms; TS_NONE when not Fargate, an end is
 * missing, or it would be negative. */
int64_t cost_billed_ms(const struct task *t);
/* The task's region (from its ARN, else its AZ) into out; false when unknown. */
bool cost_task_region(const struct task *t, char *out, size_t size);
/* vCPUs and GB of the task ("256" CPU units or "0.25 vCPU"; "512" MiB or "1 GB"). */
bool cost_task_size(const struct task *t, double *vcpu, double *gb);
/* The price that applies (prices first, then the built-in table), or NULL. */
const struct cost_price *cost_price_for(const struct cost_prices *p, const struct task *t);
/* The same by region ("us-east-1"; NULL: none), CPU architecture as ECS or the task
 * definition writes it ("X86_64", "ARM64", "arm64"; NULL: x86_64) and capacity. */
const struct cost_price *cost_price_lookup(const struct cost_prices *p, const char *region,
					   const char *cpu_arch, bool spot);
/* billed_startup_s x (vCPU x price per vCPU-second + GB x price per GB-second), in USD;
 * NAN when any part is unknown. p may be NULL (built-in table only). */
double cost_startup_usd(const struct cost_prices *p, const struct task *t);

#endif
