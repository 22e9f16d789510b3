/* check: `ecsprof check`, the judgement of a task definition before anyone deploys it.
 * It owns the rule table (check_rules.c: one row per rule, id, severity, field path,
 * message, fix and the test that finds it), the findings those tests emit, the network
 * facts the image-path rule weighs (filled offline from nothing, live from EC2), and the
 * findings' row table for the sink.
 * Ownership: struct check_findings owns its findings' strings (check_findings_free());
 * a check_input borrows everything it points at; the rule table is static. */
#ifndef ECSPROF_CHECK_H
#define ECSPROF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/cost.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/taskdef.h"

struct task_set;
struct image_facts;

/* error: rejected at registration or certain not to start; warn: starts slowly or fails
 * under some conditions; info: facts (price, what was not checked). Ordered so. */
enum check_severity { CHECK_ERROR, CHECK_WARN, CHECK_INFO };

/* Yes, no, or not known (offline, or EC2 did not say). */
enum check_fact { FACT_UNKNOWN, FACT_NO, FACT_YES };

/* What the image-path rule needs to know of the task's network: the seam between the
 * offline check (nothing known) and the live one, which fills it from EC2
 * (DescribeSubnets, DescribeRouteTables: the subnet's own table, else the VPC's main one,
 * DescribeVpcEndpoints). */
struct check_network {
	bool checked;                   /* the facts below were looked up */
	const char *subnet;             /* the subnet they are about, for messages */
	/* what the command line gave, for the lookup: --subnets (each "ID" or "ID,ID"),
	 * --security-groups; borrowed */
	const char *const *subnets_given;
	size_t nsubnets_given;
	const char *const *security_groups_given;
	size_t nsecurity_groups_given;
	/* the task gets one: YES with --assign-public-ip, NO with --subnets without it
	 * (RunTask's default is DISABLED), else unknown */
	enum check_fact public_ip;
	enum check_fact igw_route;      /* 0.0.0.0/0 to an internet gateway */
	enum check_fact nat_route;      /* 0.0.0.0/0 to a NAT gateway (or instance) */
	enum check_fact ecr_api, ecr_dkr;   /* interface endpoints with private DNS */
	enum check_fact s3_gateway;     /* S3 gateway endpoint on the subnet's route table */
	/* what is there but does not count, for the image-path message: "0.0.0.0/0 goes to
	 * NAT gateway nat-1, which is deleted; ecr.api endpoint vpce-1 has private DNS off" */
	char why[384];
	/* the ECR interface endpoints that count but have no interface in the subnet:
	 * "ecr.api vpce-1 (subnet-a, subnet-b)"; "" none */
	char elsewhere[384];
};

/* A target group of the service (live, --service): what ELB says of it; borrowed. */
struct check_target_group {
	const char *arn;
	const char *name;               /* TargetGroupName; NULL: ELB did not list it */
	const char *type;               /* TargetType: "ip", "instance", "lambda", "alb" */
	const char *container;          /* the service's loadBalancers[].containerName */
};

/* Fargate platform version as numbers; LATEST is 1.4.0. */
struct check_platform {
	int major, minor, patch;
	bool latest;
};

struct check_input {
	const struct taskdef *td;
	struct check_platform platform;
	const char *region;             /* prices; never NULL (us-east-1 when none) */
	const struct cost_prices *prices;   /* --prices, may be NULL */
	struct check_network net;
	/* --history: recorded pulls (any input report reads) for the pull forecast; NULL
	 * without. history_name names it in messages (the file, or "N files"). */
	const struct task_set *history;
	const char *history_name;
	/* --service: the service's name and its load balancers' target groups (live) */
	const char *service;
	const struct check_target_group *target_groups;
	size_t ntarget_groups;
};

/* The figures of a finding that states some, for scripts (CSV and JSON carry them beside
 * the message that says them in words): NAN / -1 / NULL when the finding has none. */
struct check_figures {
	/* pull-forecast: the expected pull and its spread, the recorded pulls it rests on
	 * and all of the history's, and on what ("throughput", "same-image", "none") */
	double pull_p10_s, pull_p50_s, pull_p90_s;
	long pulls_used, pulls_recorded;
	const char *basis;              /* static */
	/* price: per hour, and per 1,000 starts at the expected start (NAN with no forecast:
	 * the message then gives it per minute of start) and that start in seconds */
	double usd_per_hour, usd_per_1000_starts, start_s;
};

struct check_finding {
	enum check_severity severity;
	const char *rule;               /* the rule's id (static) */
	char *path, *message, *fix;
	struct check_figures fig;       /* check_emit() sets them to none */
};

struct check_findings {
	struct check_finding *v;
	size_t n;
	/* the size's price, for the table's closing lines; NAN when unknown */
	double usd_hour;
};

struct check_rule;
typedef void check_test_fn(const struct check_rule *r, const struct check_input *in,
			   struct check_findings *out);

struct check_rule {
	const char *id;                 /* "fargate-size": stable, in the man page */
	enum check_severity severity;
	const char *path;               /* the field it judges: containerDefinitions[].privileged */
	const char *message;            /* what is wrong, when the test says no more */
	const char *fix;
	check_test_fn *test;
};

/* The rule table, in the order they run. */
const struct check_rule *check_rules(size_t *n);
const struct check_rule *check_rule_by_id(const char *id);

/* "LATEST" or "1.4.0" / "1.3" into *p; -1 for anything else. */
int check_platform_parse(const char *s, struct check_platform *p);

/* Runs every rule; the findings sorted by severity (errors first), in rule order within
 * one. */
void check_run(const struct check_input *in, struct check_findings *out);
void check_findings_free(struct check_findings *f);
size_t check_count(const struct check_findings *f, enum check_severity s);
const char *check_severity_name(enum check_severity s);

/* For the rules (check_*.c): a finding of rule r at path, its message and fix printf
 * formats (NULL: the rule's own text). */
void check_emit(struct check_findings *out, const struct check_rule *r, const char *path,
		const char *fix, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- the Fargate size grid (check_grid.c) ---- */
/* cpu units and MiB a valid Fargate size? */
bool check_grid_valid(long cpu, long mib);
/* What cpu takes, for a message: "4-16 GB in 1 GB steps"; NULL for an unknown cpu. */
const char *check_grid_describe(long cpu);
/* Up to max valid sizes near (cpu, mib): the cheapest that hold both, then the largest
 * below; returns how many. */
size_t check_grid_nearest(long cpu, long mib, long (*out)[2], size_t max);
/* Price per hour of a size, NAN when there is no price for region/arch (Windows: none). */
double check_size_usd_hour(const struct check_input *in, long cpu, long mib);

/* ---- the pull forecast (check_pull.c) ---- */
enum check_forecast_how {
	FORECAST_NONE,          /* no recorded pull fits: no figure */
	FORECAST_THROUGHPUT,    /* similar-size pulls' bytes/s applied to the images' size */
	FORECAST_SAME_IMAGE,    /* the pull seconds of the same images (size not known) */
};
struct check_forecast {
	enum check_forecast_how how;
	size_t n;                       /* the recorded pulls it rests on */
	size_t recorded;                /* the history's pulls, all of them */
	double p10_s, p50_s, p90_s;     /* the expected pull and its spread; NAN */
	double mbps_p50;                /* THROUGHPUT: the pulls' median MB/s; NAN */
	double start_s;                 /* those tasks' median pullStoppedAt to startedAt; NAN */
	int64_t size_bytes;             /* the task definition's images, compressed; -1 */
	int64_t class_lo, class_hi;     /* the size class: half to twice size_bytes */
	const struct image_facts *largest;  /* its largest image's facts (borrowed); NULL */
	char platform[16];              /* "linux/arm64" */
};
/* The forecast from in->history (false, how NONE, when nothing fits or no history). */
bool check_pull_forecast(const struct check_input *in, struct check_forecast *out);

/* ---- image references (check_image.c) ---- */
struct check_image_ref {
	char registry[256];             /* "docker.io" when none is written */
	bool docker_hub;
	bool ecr;                       /* *.dkr.ecr.*.amazonaws.com(.cn) */
	bool has_tag, has_digest;
	bool latest;                    /* no tag and no digest, or :latest */
};
void check_image_parse(const char *image, struct check_image_ref *out);

/* ---- the findings as rows (check_rows.c) ---- */
/* The findings' row table (severity, rule, path, message, fix) and its closing lines:
 * the price (the price finding's text) and the verdict. The view borrows f. */
struct check_view {
	const struct check_findings *f;
	char price[512];
	char verdict[128];
	const char *notes[2];
	struct row_table table;
};
void check_view_init(struct check_view *v, const struct check_findings *f);
/* "will not start on Fargate: 2 errors" / "will start: 0 errors, 1 warning" */
void check_verdict(const struct check_findings *f, char *out, size_t size);

#endif
