/* experiment: the plan of a before/after run, the network configuration and the cost
 * estimate. Interleaving is the point: tasks of both arms started minutes apart would
 * compare the time of day, not the image. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/experiment.h"
#include "ecsprof/xalloc.h"

static bool
name_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

int
exp_arm_parse(const char *spec, struct exp_arm *out, struct err *err)
{
	const char *eq = strchr(spec, '=');
	size_t nlen;

	memset(out, 0, sizeof *out);
	if (eq == NULL || eq == spec || eq[1] == '\0')
		return err_set(err, ERR_USAGE,
			       "--arm '%s': expected NAME=TASKDEF, e.g. --arm no-soci=web:7", spec);
	nlen = (size_t)(eq - spec);
	if (nlen > 64)
		return err_set(err, ERR_USAGE, "--arm '%s': the name is longer than 64 characters",
			       spec);
	for (size_t i = 0; i < nlen; i++)
		if (!name_char(spec[i]))
			return err_set(err, ERR_USAGE, "--arm '%s': a name is letters, digits, '.', "
				       "'_' and '-' (it becomes a tag value and a group name)", spec);
	for (const char *p = eq + 1; *p != '\0'; p++)
		if (isspace((unsigned char)*p))
			return err_set(err, ERR_USAGE, "--arm '%s': a task definition has no spaces",
				       spec);
	out->name = xstrndup(spec, nlen);
	out->taskdef = xstrdup(eq + 1);
	return 0;
}

void
exp_arm_cleanup(struct exp_arm *a)
{
	free(a->name);
	free(a->taskdef);
	memset(a, 0, sizeof *a);
}

bool
exp_id_valid(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && id[i] != '-' && id[i] != '_')
			return false;
	return true;
}

/* ---- the plan ------------------------------------------------------------------------ */

static void
plan_add(struct exp_plan *p, size_t *cap, size_t arm, long count, size_t round, bool wait)
{
	if (p->ncalls == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		p->calls = xreallocarray(p->calls, *cap, sizeof *p->calls);
	}
	p->calls[p->ncalls++] = (struct exp_call){ arm, count, round, wait };
	p->total += count;
}

int
exp_plan_build(const struct exp_plan_options *o, struct exp_plan *p, struct err *err)
{
	size_t cap = 0;
	long k = o->round_size;

	memset(p, 0, sizeof *p);
	if (o->narms < 1 || o->narms > EXP_MAX_ARMS)
		return err_set(err, ERR_USAGE, "an experiment has 1 to %d arms (--arm NAME=TASKDEF), "
			       "got %zu", EXP_MAX_ARMS, o->narms);
	if (o->per_arm < 1)
		return err_set(err, ERR_USAGE, "-n: at least 1 task per arm");
	if (k < 1 || k > EXP_RUNTASK_MAX)
		return err_set(err, ERR_USAGE, "--round-size: 1 to %d tasks per arm and round",
			       EXP_RUNTASK_MAX);
	/* checked before anything is built, by division: n x arms cannot wrap */
	if (o->per_arm > o->max_tasks / (long)o->narms) {
		if (o->per_arm > o->max_tasks)
			return err_set(err, ERR_USAGE, "%ld tasks per arm x %zu arms is more than "
				       "--max-tasks %ld: lower -n or raise --max-tasks", o->per_arm,
				       o->narms, o->max_tasks);
		return err_set(err, ERR_USAGE,
			       "%ld tasks per arm x %zu arms = %ld tasks, more than --max-tasks %ld: "
			       "lower -n or raise --max-tasks", o->per_arm, o->narms,
			       o->per_arm * (long)o->narms, o->max_tasks);
	}
	if (o->sequential) {
		for (size_t a = 0; a < o->narms; a++)
			for (long left = o->per_arm; left > 0;) {
				long c = left < EXP_RUNTASK_MAX ? left : EXP_RUNTASK_MAX;
				plan_add(p, &cap, a, c, a, a > 0 && left == o->per_arm);
				left -= c;
			}
		p->nrounds = o->narms;
		return 0;
	}
	for (long done = 0; done < o->per_arm; done += k) {
		long c = o->per_arm - done < k ? o->per_arm - done : k;

		for (size_t a = 0; a < o->narms; a++)
			plan_add(p, &cap, a, c, p->nrounds, false);
		p->nrounds++;
	}
	return 0;
}

void
exp_plan_cleanup(struct exp_plan *p)
{
	free(p->calls);
	memset(p, 0, sizeof *p);
}

/* ---- network configuration ----------------------------------------------------------- */

void
exp_network_init(struct exp_network *n)
{
	memset(n, 0, sizeof *n);
	n->assign_public_ip = -1;
}

static void
free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
exp_network_cleanup(struct exp_network *n)
{
	free_list(n->subnets, n->nsubnets);
	free_list(n->security_groups, n->nsecurity_groups);
	exp_network_init(n);
}

static void
list_push(char ***v, size_t *n, const char *s, size_t len)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrndup(s, len);
}

int
exp_network_add_ids(char ***v, size_t *n, const char *csv, const char *what, struct err *err)
{
	const char *p = csv;

	for (;;) {
		size_t len = strcspn(p, ",");
		const char *s = p;
		size_t l = len;

		while (l > 0 && isspace((unsigned char)*s)) {
			s++;
			l--;
		}
		while (l > 0 && isspace((unsigned char)s[l - 1]))
			l--;
		if (l == 0)
			return err_set(err, ERR_USAGE, "%s '%s': an empty id", what, csv);
		list_push(v, n, s, l);
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* A tolerant reader of both the AWS CLI shorthand (k=v, [a,b], {..}) and JSON ("k": v):
 * keys and scalars may be quoted or bare, ':' and '=' both separate a key from its value. */
struct scan {
	const char *s;
	const char *spec;
	struct err *err;
};

static void
skip_ws(struct scan *sc)
{
	while (isspace((unsigned char)*sc->s))
		sc->s++;
}

static int
scan_fail(struct scan *sc, const char *what)
{
	return err_set(sc->err, ERR_USAGE, "--network-configuration: %s at character %ld of '%s' "
		       "(expected awsvpcConfiguration={subnets=[ID,...],securityGroups=[ID,...],"
		       "assignPublicIp=ENABLED|DISABLED} or the same as JSON)", what,
		       (long)(sc->s - sc->spec) + 1, sc->spec);
}

/* A scalar: "quoted" or a bare run up to a separator. */
static int
scan_scalar(struct scan *sc, const char **start, size_t *len)
{
	skip_ws(sc);
	if (*sc->s == '"') {
		const char *e = strchr(sc->s + 1, '"');
		if (e == NULL)
			return scan_fail(sc, "an unclosed quote");
		*start = sc->s + 1;
		*len = (size_t)(e - sc->s - 1);
		sc->s = e + 1;
		return 0;
	}
	*start = sc->s;
	while (*sc->s != '\0' && strchr(",]}=:[{", *sc->s) == NULL)
		sc->s++;
	*len = (size_t)(sc->s - *start);
	while (*len > 0 && isspace((unsigned char)(*start)[*len - 1]))
		(*len)--;
	if (*len == 0)
		return scan_fail(sc, "a missing value");
	return 0;
}

static bool
key_is(const char *k, size_t len, const char *want)
{
	return strlen(want) == len && strncasecmp(k, want, len) == 0;
}

static int
scan_list(struct scan *sc, char ***v, size_t *n)
{
	skip_ws(sc);
	if (*sc->s != '[') {   /* the shorthand also takes a single value */
		const char *s;
		size_t len;
		if (scan_scalar(sc, &s, &len) != 0)
			return -1;
		list_push(v, n, s, len);
		return 0;
	}
	sc->s++;
	skip_ws(sc);
	if (*sc->s == ']') {
		sc->s++;
		return 0;
	}
	for (;;) {
		const char *s;
		size_t len;

		if (scan_scalar(sc, &s, &len) != 0)
			return -1;
		list_push(v, n, s, len);
		skip_ws(sc);
		if (*sc->s == ',') {
			sc->s++;
			continue;
		}
		if (*sc->s == ']') {
			sc->s++;
			return 0;
		}
		return scan_fail(sc, "a list without its ']'");
	}
}

static int
scan_awsvpc(struct scan *sc, struct exp_network *n)
{
	skip_ws(sc);
	if (*sc->s != '{')
		return scan_fail(sc, "awsvpcConfiguration without '{'");
	sc->s++;
	for (;;) {
		const char *k, *v;
		size_t klen, vlen;

		skip_ws(sc);
		if (*sc->s == '}') {
			sc->s++;
			return 0;
		}
		if (scan_scalar(sc, &k, &klen) != 0)
			return -1;
		skip_ws(sc);
		if (*sc->s != '=' && *sc->s != ':')
			return scan_fail(sc, "a key without '=' or ':'");
		sc->s++;
		if (key_is(k, klen, "subnets")) {
			if (scan_list(sc, &n->subnets, &n->nsubnets) != 0)
				return -1;
		} else if (key_is(k, klen, "securityGroups")) {
			if (scan_list(sc, &n->security_groups, &n->nsecurity_groups) != 0)
				return -1;
		} else if (key_is(k, klen, "assignPublicIp")) {
			if (scan_scalar(sc, &v, &vlen) != 0)
				return -1;
			if (key_is(v, vlen, "ENABLED"))
				n->assign_public_ip = 1;
			else if (key_is(v, vlen, "DISABLED"))
				n->assign_public_ip = 0;
			else
				return scan_fail(sc, "assignPublicIp is ENABLED or DISABLED");
		} else {
			return scan_fail(sc, "an unknown key (subnets, securityGroups, assignPublicIp)");
		}
		skip_ws(sc);
		if (*sc->s == ',')
			sc->s++;
		else if (*sc->s != '}')
			return scan_fail(sc, "a missing ',' or '}'");
	}
}

int
exp_network_parse(const char *spec, struct exp_network *n, struct err *err)
{
	struct scan sc = { spec, spec, err };
	const char *k;
	size_t klen;
	bool braced;

	skip_ws(&sc);
	braced = *sc.s == '{';
	if (braced)
		sc.s++;
	if (scan_scalar(&sc, &k, &klen) != 0)
		return -1;
	if (!key_is(k, klen, "awsvpcConfiguration"))
		return scan_fail(&sc, "no awsvpcConfiguration");
	skip_ws(&sc);
	if (*sc.s != '=' && *sc.s != ':')
		return scan_fail(&sc, "awsvpcConfiguration without '=' or ':'");
	sc.s++;
	if (scan_awsvpc(&sc, n) != 0)
		return -1;
	skip_ws(&sc);
	if (braced) {
		if (*sc.s != '}')
			return scan_fail(&sc, "a missing '}'");
		sc.s++;
		skip_ws(&sc);
	}
	if (*sc.s != '\0')
		return scan_fail(&sc, "text after the configuration");
	return 0;
}

/* ---- sizes and cost ------------------------------------------------------------------ */

/* A number and an optional unit word: "256", "0.5 vCPU", "2GB". */
static int
number_unit(const char *s, double *v, const char **unit)
{
	char *end;

	if (s == NULL)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || end == s || !(*v > 0))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	*unit = end;
	return 0;
}

int
exp_parse_vcpu(const char *s, double *vcpu)
{
	const char *unit;
	double v;

	if (number_unit(s, &v, &unit) != 0)
		return -1;
	if (*unit == '\0')
		*vcpu = v / 1024.0;
	else if (strcasecmp(unit, "vcpu") == 0)
		*vcpu = v;
	else
		return -1;
	return 0;
}

int
exp_parse_memory_gb(const char *s, double *gb)
{
	const char *unit;
	double v;

	if (number_unit(s, &v, &unit) != 0)
		return -1;
	if (*unit == '\0' || strcasecmp(unit, "mib") == 0 || strcasecmp(unit, "mb") == 0)
		*gb = v / 1024.0;
	else if (strcasecmp(unit, "gb") == 0 || strcasecmp(unit, "gib") == 0)
		*gb = v;
	else
		return -1;
	return 0;
}

double
exp_fargate_cost(const struct cost_price *price, double vcpu, double gb, double seconds)
{
	double h = (seconds < 60 ? 60 : seconds) / 3600.0;

	if (price == NULL)
		return NAN;
	return h * (vcpu * price->vcpu_hour + gb * price->gb_hour);
}
