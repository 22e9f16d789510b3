/* check_wiring: the rules about how the containers start together: what each needs, what
 * it waits for (dependsOn), its health check's timings, and its ulimits. ECS's ranges
 * and defaults are its HealthCheck and Ulimit API pages': interval 5-300 s (30),
 * timeout 2-60 s (5), retries 1-10 (3), startPeriod 0-300 s (off). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/xalloc.h"

#define HC_INTERVAL_DEFAULT 30L
#define HC_TIMEOUT_DEFAULT 5L
#define HC_RETRIES_DEFAULT 3L
/* A first check later than this holds HEALTHY (and dependsOn HEALTHY, and a service's
 * deployment) back by more than a fast start takes in all. */
#define HC_FIRST_CHECK_WARN_S 10L
/* An ALB's default target group check gives up on a target after 2 x 30 s; a container
 * check that takes three times that to call a broken start UNHEALTHY replaces it late. */
#define HC_UNHEALTHY_WARN_S 180L

static long
or_default(long v, long def)
{
	return v != TASKDEF_UNSET ? v : def;
}

/* "WHAT: the rule's message" at containerDefinitions[i]FIELD */
static void
emit_c(struct check_findings *out, const struct check_rule *r, size_t i, const char *field,
       const char *what)
{
	char *path = xasprintf("containerDefinitions[%zu]%s", i, field);

	check_emit(out, r, path, NULL, "%s: %s", what, r->message);
	free(path);
}

void
check_container_required(const struct check_rule *r, const struct check_input *in,
			 struct check_findings *out)
{
	const struct taskdef *td = in->td;

	if (td->ncontainers == 0)
		check_emit(out, r, "containerDefinitions", "add a container definition",
			   "containerDefinitions is empty: a task runs at least one container");
	for (size_t i = 0; i < td->ncontainers; i++) {
		if (td->containers[i].name == NULL)
			emit_c(out, r, i, ".name", "no name");
		if (td->containers[i].image == NULL)
			emit_c(out, r, i, ".image", "no image");
	}
}

void
check_container_name_dup(const struct check_rule *r, const struct check_input *in,
			 struct check_findings *out)
{
	const struct taskdef *td = in->td;

	for (size_t j = 0; j < td->ncontainers; j++) {
		long i = taskdef_find(td, td->containers[j].name);

		if (i >= 0 && (size_t)i < j)
			emit_c(out, r, j, ".name", td->containers[j].name);
	}
}

void
check_container_resources(const struct check_rule *r, const struct check_input *in,
			  struct check_findings *out)
{
	const struct taskdef *td = in->td;
	long cpu = 0, reserved = 0;

	if (td->cpu_units == TASKDEF_UNSET || td->memory_mib == TASKDEF_UNSET)
		return;
	for (size_t i = 0; i < td->ncontainers; i++) {
		const struct taskdef_container *c = &td->containers[i];
		char *path;

		cpu += c->cpu != TASKDEF_UNSET ? c->cpu : 0;
		reserved += c->memory_reservation != TASKDEF_UNSET ? c->memory_reservation :
			    c->memory != TASKDEF_UNSET ? c->memory : 0;
		if (c->memory == TASKDEF_UNSET || c->memory <= td->memory_mib)
			continue;
		path = xasprintf("containerDefinitions[%zu].memory", i);
		check_emit(out, r, path, NULL, "memory %ld MiB of container %s is more than the "
			   "task's %ld MiB", c->memory, c->name ? c->name : "?", td->memory_mib);
		free(path);
	}
	if (cpu > td->cpu_units)
		check_emit(out, r, "containerDefinitions", NULL, "the containers' cpu adds up to "
			   "%ld units, more than the task's %ld", cpu, td->cpu_units);
	if (reserved > td->memory_mib)
		check_emit(out, r, "containerDefinitions", NULL, "the containers reserve %ld MiB "
			   "(memoryReservation, else memory), more than the task's %ld MiB",
			   reserved, td->memory_mib);
}

void
check_no_essential(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	const struct taskdef *td = in->td;

	for (size_t i = 0; i < td->ncontainers; i++)
		if (taskdef_essential(&td->containers[i]))
			return;
	if (td->ncontainers > 0)
		check_emit(out, r, "containerDefinitions", NULL, "%s", r->message);
}

/* Each dependsOn entry (container i, entry k) and the container it names (-1: none). */
typedef void dep_fn(const struct check_rule *r, const struct check_input *in, size_t i,
		    size_t k, long target, struct check_findings *out);

static void
each_dep(const struct check_rule *r, const struct check_input *in, dep_fn *fn,
	 struct check_findings *out)
{
	const struct taskdef *td = in->td;

	for (size_t i = 0; i < td->ncontainers; i++)
		for (size_t k = 0; k < td->containers[i].ndeps; k++)
			fn(r, in, i, k, taskdef_find(td, td->containers[i].deps[k].container), out);
}

static void emit_dep(struct check_findings *out, const struct check_rule *r, size_t i,
		     size_t k, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void
emit_dep(struct check_findings *out, const struct check_rule *r, size_t i, size_t k,
	 const char *field, const char *fmt, ...)
{
	char *path = xasprintf("containerDefinitions[%zu].dependsOn[%zu].%s", i, k, field);
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	check_emit(out, r, path, NULL, "%s", msg != NULL ? msg : r->message);
	free(msg);
	free(path);
}

static void
dep_unknown(const struct check_rule *r, const struct check_input *in, size_t i, size_t k,
	    long target, struct check_findings *out)
{
	const char *name = in->td->containers[i].deps[k].container;

	if (target < 0)
		emit_dep(out, r, i, k, "containerName", "%s: %s",
			 name ? name : "(no containerName)", r->message);
}

void
check_depends_unknown(const struct check_rule *r, const struct check_input *in,
		      struct check_findings *out)
{
	each_dep(r, in, dep_unknown, out);
}

static bool
condition_is(const struct taskdef_dep *d, const char *what)
{
	return d->condition != NULL && strcmp(d->condition, what) == 0;
}

static void
dep_condition(const struct check_rule *r, const struct check_input *in, size_t i, size_t k,
	      long target, struct check_findings *out)
{
	const struct taskdef_dep *d = &in->td->containers[i].deps[k];

	if (!condition_is(d, "START") && !condition_is(d, "COMPLETE") &&
	    !condition_is(d, "SUCCESS") && !condition_is(d, "HEALTHY"))
		emit_dep(out, r, i, k, "condition", "condition %s: %s",
			 d->condition ? d->condition : "not set", r->message);
}

void
check_depends_condition(const struct check_rule *r, const struct check_input *in,
			struct check_findings *out)
{
	each_dep(r, in, dep_condition, out);
}

static void
dep_healthy(const struct check_rule *r, const struct check_input *in, size_t i, size_t k,
	    long target, struct check_findings *out)
{
	const struct taskdef_dep *d = &in->td->containers[i].deps[k];

	if (target >= 0 && condition_is(d, "HEALTHY") && !in->td->containers[target].health.set)
		emit_dep(out, r, i, k, "condition", "HEALTHY of %s: %s", d->container,
			 "it has no healthCheck, so it never becomes HEALTHY and this container never starts");
}

void
check_depends_healthy_no_check(const struct check_rule *r, const struct check_input *in,
			       struct check_findings *out)
{
	each_dep(r, in, dep_healthy, out);
}

static void
dep_exit(const struct check_rule *r, const struct check_input *in, size_t i, size_t k,
	 long target, struct check_findings *out)
{
	const struct taskdef_dep *d = &in->td->containers[i].deps[k];
	char *path;

	if (target < 0 || !(condition_is(d, "COMPLETE") || condition_is(d, "SUCCESS")) ||
	    !taskdef_essential(&in->td->containers[target]))
		return;
	path = xasprintf("containerDefinitions[%zu].dependsOn[%zu].condition", i, k);
	check_emit(out, r, path, NULL, "%s of %s: %s", d->condition, d->container, r->message);
	free(path);
}

void
check_depends_exit_essential(const struct check_rule *r, const struct check_input *in,
			     struct check_findings *out)
{
	each_dep(r, in, dep_exit, out);
}

/* Depth-first search; a dependsOn edge back to a container on the stack closes a cycle. */
struct dfs {
	const struct taskdef *td;
	char *color;                    /* 0 not seen, 1 on the stack, 2 done */
	size_t *stack;
	size_t depth;
	const struct check_rule *r;
	struct check_findings *out;
};

static void
dfs_visit(struct dfs *s, size_t i)
{
	const struct taskdef_container *c = &s->td->containers[i];

	s->color[i] = 1;
	s->stack[s->depth++] = i;
	for (size_t k = 0; k < c->ndeps; k++) {
		long t = taskdef_find(s->td, c->deps[k].container);

		if (t < 0)
			continue;
		if (s->color[t] == 0) {
			dfs_visit(s, (size_t)t);
		} else if (s->color[t] == 1) {
			struct buf cyc;
			char *path;
			size_t from = 0;

			while (s->stack[from] != (size_t)t)
				from++;
			buf_init(&cyc, 4096);
			for (size_t j = from; j < s->depth; j++)
				buf_addf(&cyc, "%s -> ", s->td->containers[s->stack[j]].name);
			buf_adds(&cyc, c->deps[k].container);
			path = xasprintf("containerDefinitions[%zu].dependsOn[%zu]", i, k);
			check_emit(s->out, s->r, path, NULL, "%s: %s", buf_str(&cyc), s->r->message);
			free(path);
			buf_cleanup(&cyc);
		}
	}
	s->depth--;
	s->color[i] = 2;
}

void
check_depends_cycle(const struct check_rule *r, const struct check_input *in,
		    struct check_findings *out)
{
	struct dfs s = { in->td, NULL, NULL, 0, r, out };

	s.color = xcalloc(in->td->ncontainers + 1, 1);
	s.stack = xcalloc(in->td->ncontainers + 1, sizeof *s.stack);
	for (size_t i = 0; i < in->td->ncontainers; i++)
		if (s.color[i] == 0)
			dfs_visit(&s, i);
	free(s.color);
	free(s.stack);
}

static void
health_value(struct check_findings *out, const struct check_rule *r, size_t i,
	     const char *field, long v, long min, long max)
{
	char *path;

	if (v == TASKDEF_UNSET || (v >= min && v <= max))
		return;
	path = xasprintf("containerDefinitions[%zu].healthCheck.%s", i, field);
	check_emit(out, r, path, NULL, "%s %ld: ECS takes %ld to %ld", field, v, min, max);
	free(path);
}

void
check_health_range(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const struct taskdef_health *h = &in->td->containers[i].health;

		if (!h->set)
			continue;
		if (h->ncommand == 0)
			emit_c(out, r, i, ".healthCheck.command", "command is empty");
		health_value(out, r, i, "interval", h->interval_s, 5, 300);
		health_value(out, r, i, "timeout", h->timeout_s, 2, 60);
		health_value(out, r, i, "retries", h->retries, 1, 10);
		health_value(out, r, i, "startPeriod", h->start_period_s, 0, 300);
	}
}

void
check_health_timeout(const struct check_rule *r, const struct check_input *in,
		     struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const struct taskdef_health *h = &in->td->containers[i].health;
		long iv = or_default(h->interval_s, HC_INTERVAL_DEFAULT);
		long to = or_default(h->timeout_s, HC_TIMEOUT_DEFAULT);
		char *path;

		if (!h->set || to < iv)
			continue;
		path = xasprintf("containerDefinitions[%zu].healthCheck.timeout", i);
		check_emit(out, r, path, NULL, "timeout %ld s, interval %ld s: a hung check "
			   "overlaps the next, and each failure takes the timeout to count", to, iv);
		free(path);
	}
}

void
check_health_first_check(const struct check_rule *r, const struct check_input *in,
			 struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const struct taskdef_health *h = &in->td->containers[i].health;
		long iv = or_default(h->interval_s, HC_INTERVAL_DEFAULT);
		char *path;

		if (!h->set || iv <= HC_FIRST_CHECK_WARN_S)
			continue;
		path = xasprintf("containerDefinitions[%zu].healthCheck.interval", i);
		check_emit(out, r, path, NULL, "interval %ld s%s: HEALTHY comes %ld s after the "
			   "container starts at the soonest, and what waits for it (dependsOn "
			   "HEALTHY, the service's deployment) waits as long", iv,
			   h->interval_s == TASKDEF_UNSET ? " (the default)" : "", iv);
		free(path);
	}
}

void
check_health_unhealthy_late(const struct check_rule *r, const struct check_input *in,
			    struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const struct taskdef_health *h = &in->td->containers[i].health;
		long iv = or_default(h->interval_s, HC_INTERVAL_DEFAULT);
		long n = or_default(h->retries, HC_RETRIES_DEFAULT);
		long sp = or_default(h->start_period_s, 0);
		char *path;

		if (!h->set || sp + iv * n <= HC_UNHEALTHY_WARN_S)
			continue;
		path = xasprintf("containerDefinitions[%zu].healthCheck", i);
		check_emit(out, r, path, NULL, "startPeriod %ld + interval %ld x retries %ld = "
			   "%ld s before a broken start is UNHEALTHY and replaced; an ALB's "
			   "default check gives up after 60 s", sp, iv, n, sp + iv * n);
		free(path);
	}
}

void
check_nofile_low(const struct check_rule *r, const struct check_input *in,
		 struct check_findings *out)
{
	/* Windows has no ulimits at all: fargate-windows-params says so */
	for (size_t i = 0; check_on_fargate(in->td) && !taskdef_is_windows(in->td) &&
			   i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];

		for (size_t k = 0; k < c->nulimits; k++) {
			const struct taskdef_ulimit *u = &c->ulimits[k];
			char *path;

			if (u->name == NULL || strcmp(u->name, "nofile") != 0 ||
			    u->soft == TASKDEF_UNSET || u->soft >= CHECK_FARGATE_NOFILE)
				continue;
			path = xasprintf("containerDefinitions[%zu].ulimits[%zu].softLimit", i, k);
			check_emit(out, r, path, NULL, "nofile soft limit %ld: below Fargate's "
				   "default of %ld, so this lowers it (a server runs out of sockets "
				   "under load)", u->soft, CHECK_FARGATE_NOFILE);
			free(path);
		}
	}
}

void
check_ulimit_order(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];

		for (size_t k = 0; k < c->nulimits; k++) {
			const struct taskdef_ulimit *u = &c->ulimits[k];
			char *path;

			if (u->soft == TASKDEF_UNSET || u->hard == TASKDEF_UNSET || u->soft <= u->hard)
				continue;
			path = xasprintf("containerDefinitions[%zu].ulimits[%zu]", i, k);
			check_emit(out, r, path, NULL, "%s soft %ld, hard %ld: %s",
				   u->name ? u->name : "?", u->soft, u->hard, r->message);
			free(path);
		}
	}
}
