/* cmd_check: `ecsprof check [NETWORK] [OUTPUT] TASKDEF.json | --task-definition F[:R]`:
 * the task definition read (taskdef_read.h, from the file or DescribeTaskDefinition),
 * judged by the rule table (check.h) for the platform version, region and network given,
 * and written through the sink: its own grouped table, or the findings' rows as CSV, JSON
 * or Markdown. With --subnets the image path is looked up live (check_live.h: EC2);
 * without, the network facts stay unknown and the image-path rule says what it would
 * need; a file without --subnets makes no AWS call at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/awscfg.h"
#include "ecsprof/check.h"
#include "ecsprof/check_live.h"
#include "ecsprof/check_out.h"
#include "ecsprof/cost.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/input.h"
#include "ecsprof/live.h"
#include "ecsprof/sink.h"
#include "ecsprof/taskdef_read.h"
#include "ecsprof/xalloc.h"

/* Prices need a region but no call: when none is configured, the contract's us-east-1. */
#define CHECK_DEFAULT_REGION "us-east-1"

static const char *
env_region(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' ? v : NULL;
}

/* --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region (as the AWS CLI picks
 * it), else us-east-1; a malformed config file is an error as it is for every command.
 * The result is the caller's. */
static int
check_region(const struct cli_opts *o, char **out, struct err *err)
{
	struct awscfg_env env;
	struct awscfg *cfg;
	char *config = NULL, *creds = NULL;
	const char *r = o->region != NULL && o->region[0] != '\0' ? o->region : NULL;
	int rc = 0;

	if (r == NULL)
		r = env_region("AWS_REGION");
	if (r == NULL)
		r = env_region("AWS_DEFAULT_REGION");
	if (r != NULL) {
		*out = xstrdup(r);
		return 0;
	}
	awscfg_env_from_process(&env);
	cfg = awscfg_new();
	if (awscfg_locate(&config, &creds, err) != 0 ||
	    awscfg_load(cfg, config, creds, err) != 0) {
		rc = -1;
	} else {
		r = awscfg_get(cfg, o->profile != NULL ? o->profile : awscfg_profile_name(&env),
			       "region");
		*out = xstrdup(r != NULL && r[0] != '\0' ? r : CHECK_DEFAULT_REGION);
	}
	awscfg_free(cfg);
	free(config);
	free(creds);
	return rc;
}

static const char *
format_name(enum cli_format f)
{
	switch (f) {
	case FMT_CSV: return "csv";
	case FMT_JSON: return "json";
	case FMT_MARKDOWN: return "markdown";
	case FMT_TABLE: return "table";
	default: return NULL;     /* -o FILE's extension, else the table */
	}
}

static int
write_findings(const struct cli_opts *o, const struct check_view *v, const char *title,
	       struct err *err)
{
	struct sink_options so = { .width = 0, .time_format = o->time_format, .log = o->log };
	const struct row_table *tables[] = { &v->table };
	struct check_out co = { v, title, 0 };
	struct sink s;
	int rc;

	if (sink_open(&s, o->output, format_name(o->format), &so, err) != 0)
		return -1;
	co.width = s.o.width;
	if (s.format->id == SINK_TABLE)
		rc = sink_write_custom(&s, check_out_table, &co, err);
	else
		rc = sink_write(&s, tables, 1, err);
	if (rc != 0) {
		sink_abort(&s);
		return -1;
	}
	return sink_commit(&s, err);
}

/* The task definition: the file, else DescribeTaskDefinition's answer of name (through
 * s). */
static int
read_taskdef(const struct cli_opts *o, const char *name, struct live_session *s,
	     struct taskdef *td, struct err *err)
{
	char *json = NULL;
	int rc;

	if (o->files.n > 0)
		return taskdef_read_file(o->files.v[0], td, err);
	if (ecs_describe_task_definition_json(live_session_ecs(s), name, &json, err) != 0)
		return -1;
	rc = taskdef_read_mem(name, json, strlen(json), td, err);
	free(json);
	return rc;
}

/* --history FILE...: the recorded pulls, read as report reads them (image facts lines
 * included), into set; *name is what messages call them */
static int
read_history(const struct cli_opts *o, struct task_set *set, char **name, struct err *err)
{
	const struct cli_list *h = &o->experiment.history;
	struct input_stats st = { 0 };
	struct input_options io = { .log = o->log };

	for (size_t i = 0; i < h->n; i++)
		if (input_read_file_with(h->v[i], &io, set, &st, err) != 0)
			return -1;
	*name = h->n == 1 ? xstrdup(strcmp(h->v[0], "-") == 0 ? "stdin" : h->v[0]) :
		xasprintf("%zu history files", h->n);
	return 0;
}

/* --service S: its network and platform stand for --subnets, --assign-public-ip and
 * --platform-version; its task definition for a file or --task-definition */
static int
service_network(const struct cli_opts *o, struct live_session *s, struct check_service *svc,
		struct check_input *in, struct err *err)
{
	const struct cli_experiment *e = &o->experiment;

	if (o->services.n > 1 || e->subnets.n > 0 || e->assign_public_ip)
		return err_set(err, ERR_USAGE, "check --service takes one service, whose network "
			       "stands for --subnets and --assign-public-ip");
	if (check_live_service(s, o->cluster, o->services.v[0], svc, err) != 0 ||
	    check_live_target_groups(s, svc, err) != 0)
		return -1;
	in->service = o->services.v[0];
	in->target_groups = svc->target_groups;
	in->ntarget_groups = svc->ntarget_groups;
	in->net.subnets_given = (const char *const *)svc->subnets;
	in->net.nsubnets_given = svc->nsubnets;
	in->net.public_ip = svc->assign_public_ip ? FACT_YES : FACT_NO;
	if (e->platform_version == NULL && svc->platform_version != NULL &&
	    check_platform_parse(svc->platform_version, &in->platform) != 0)
		return err_set(err, ERR_AWS, "service %s: platformVersion '%s' is not LATEST or "
			       "MAJOR.MINOR[.PATCH]", o->services.v[0], svc->platform_version);
	return 0;
}

int
cmd_check(const struct cli_opts *o, struct err *err)
{
	const char *path = o->files.n > 0 ? o->files.v[0] : NULL;
	struct live_session *live = NULL;
	struct check_service svc = { 0 };
	struct check_input in;
	struct check_findings f = { 0 };
	struct cost_prices prices;
	struct check_view view;
	struct taskdef td;
	struct task_set history;
	char *region = NULL, *title = NULL, *subnet = NULL, *history_name = NULL, rev[32] = "";
	int rc = -1;

	memset(&in, 0, sizeof in);
	cost_prices_init(&prices);
	taskdef_init(&td);
	task_set_init(&history);
	if (check_platform_parse(o->experiment.platform_version, &in.platform) != 0)
		return err_set(err, ERR_USAGE, "--platform-version: '%s' is not LATEST or "
			       "MAJOR.MINOR[.PATCH] (e.g. 1.4.0)", o->experiment.platform_version);
	if (o->prices != NULL && cost_prices_load(&prices, o->prices, err) != 0)
		goto out;
	if (o->experiment.history.n > 0) {
		if (read_history(o, &history, &history_name, err) != 0)
			goto out;
		in.history = &history;
		in.history_name = history_name;
	}
	/* live: the task definition from ECS, the network's facts from EC2 (one session:
	 * one region, one set of credentials) */
	if (path == NULL || o->experiment.subnets.n > 0 || o->services.n > 0) {
		struct live_options lo = app_live_options(o);

		lo.no_images = true;
		if (live_session_new(&lo, &live, err) != 0)
			goto out;
		region = xstrdup(live_session_region(live));
	} else if (check_region(o, &region, err) != 0) {
		goto out;
	}
	/* offline: the network's facts stay unknown (net.checked false); what the command
	 * line says is recorded for the live check, which fills in the rest from EC2 */
	in.net.subnets_given = o->experiment.subnets.v;
	in.net.nsubnets_given = o->experiment.subnets.n;
	in.net.security_groups_given = o->experiment.security_groups.v;
	in.net.nsecurity_groups_given = o->experiment.security_groups.n;
	in.net.public_ip = o->experiment.assign_public_ip ? FACT_YES :
			   o->experiment.subnets.n > 0 ? FACT_NO : FACT_UNKNOWN;
	if (o->services.n > 0 && service_network(o, live, &svc, &in, err) != 0)
		goto out;
	if (read_taskdef(o, o->experiment.task_definition ? o->experiment.task_definition :
			 svc.task_definition, live, &td, err) != 0)
		goto out;
	in.td = &td;
	in.region = region;
	in.prices = &prices;
	if (in.net.nsubnets_given > 0 && check_live_network(live, &in.net, &subnet, err) != 0)
		goto out;
	check_run(&in, &f);
	check_view_init(&view, &f);
	if (td.revision != TASKDEF_UNSET)
		snprintf(rev, sizeof rev, ":%ld", td.revision);
	title = xasprintf("%s%s (%s): Fargate platform %s, %s",
			  td.family ? td.family : path ? path : "?", rev,
			  path == NULL ? "DescribeTaskDefinition" :
			  strcmp(path, "-") == 0 ? "stdin" : path,
			  o->experiment.platform_version ? o->experiment.platform_version :
			  svc.platform_version ? svc.platform_version : "LATEST (1.4.0)", region);
	if (write_findings(o, &view, title, err) != 0)
		goto out;
	/* the verdict is written: errors found are exit status 1, not a failure to report */
	rc = check_count(&f, CHECK_ERROR) > 0 ? 1 : 0;
out:
	check_service_free(&svc);
	live_session_free(live);
	free(subnet);
	free(title);
	free(region);
	free(history_name);
	task_set_cleanup(&history);
	check_findings_free(&f);
	taskdef_free(&td);
	cost_prices_cleanup(&prices);
	return rc;
}
