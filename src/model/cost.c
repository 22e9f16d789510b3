/* cost: the price table, the --prices reader, and the startup cost of one task. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/cost.h"
#include "ecsprof/xalloc.h"

/* On-demand AWS Fargate prices for Linux, per vCPU-hour and per GB-hour, from the AWS
 * Fargate pricing page (https://aws.amazon.com/fargate/pricing/, "Linux/X86" and
 * "Linux/ARM" tables). us-east-1 is the product contract's figures, which the pricing page
 * and its commonly quoted copies agree on (x86 $0.04048 / $0.004445, ARM $0.03238 /
 * $0.00356); us-east-2, us-west-2 and eu-west-1 are priced the same as us-east-1. The other
 * regions are as the pricing page listed them (ARM is 20% below x86 throughout); prices
 * change, so --prices FILE overrides any of them. Spot prices move with supply and are
 * not built in: give them with --prices (CAPACITY FARGATE_SPOT). */
const struct cost_price cost_builtin[] = {
	{ "us-east-1",      "x86_64", false, 0.04048, 0.004445 },
	{ "us-east-1",      "arm64",  false, 0.03238, 0.00356 },
	{ "us-east-2",      "x86_64", false, 0.04048, 0.004445 },
	{ "us-east-2",      "arm64",  false, 0.03238, 0.00356 },
	{ "us-west-2",      "x86_64", false, 0.04048, 0.004445 },
	{ "us-west-2",      "arm64",  false, 0.03238, 0.00356 },
	{ "us-west-1",      "x86_64", false, 0.04656, 0.00511 },
	{ "us-west-1",      "arm64",  false, 0.03725, 0.00409 },
	{ "eu-west-1",      "x86_64", false, 0.04048, 0.004445 },
	{ "eu-west-1",      "arm64",  false, 0.03238, 0.00356 },
	{ "eu-central-1",   "x86_64", false, 0.04656, 0.00511 },
	{ "eu-central-1",   "arm64",  false, 0.03725, 0.00409 },
	{ "eu-west-2",      "x86_64", false, 0.04656, 0.00511 },
	{ "eu-west-2",      "arm64",  false, 0.03725, 0.00409 },
	{ "ap-northeast-1", "x86_64", false, 0.05056, 0.00553 },
	{ "ap-northeast-1", "arm64",  false, 0.04045, 0.00442 },
	{ "ap-southeast-1", "x86_64", false, 0.05056, 0.00553 },
	{ "ap-southeast-1", "arm64",  false, 0.04045, 0.00442 },
	{ "ap-southeast-2", "x86_64", false, 0.04856, 0.00532 },
	{ "ap-southeast-2", "arm64",  false, 0.03885, 0.00426 },
	{ "ap-south-1",     "x86_64", false, 0.04256, 0.00467 },
	{ "ap-south-1",     "arm64",  false, 0.03405, 0.00374 },
};
const size_t cost_nbuiltin = sizeof cost_builtin / sizeof cost_builtin[0];

void
cost_prices_init(struct cost_prices *p)
{
	memset(p, 0, sizeof *p);
}

void
cost_prices_cleanup(struct cost_prices *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}

static bool
cost_arch_name(const char *s, char *out, size_t size)
{
	if (strcasecmp(s, "x86_64") == 0 || strcasecmp(s, "x86") == 0 ||
	    strcasecmp(s, "amd64") == 0)
		snprintf(out, size, "x86_64");
	else if (strcasecmp(s, "arm64") == 0 || strcasecmp(s, "arm") == 0 ||
		 strcasecmp(s, "aarch64") == 0)
		snprintf(out, size, "arm64");
	else
		return false;
	return true;
}

static bool
cost_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return errno == 0 && end != s && *end == '\0' && isfinite(*out) && *out >= 0;
}

int
cost_prices_parse(struct cost_prices *p, const char *name, const char *text, struct err *err)
{
	const char *line = text;

	for (int lineno = 1; *line != '\0'; lineno++) {
		const char *nl = strchr(line, '\n');
		size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		char buf[512], *f[6], *save = NULL, *hash;
		struct cost_price e;
		int nf = 0;

		if (len >= sizeof buf)
			return err_set(err, ERR_USAGE, "%s:%d: line too long", name, lineno);
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl != NULL ? nl + 1 : line + len;
		if ((hash = strchr(buf, '#')) != NULL)
			*hash = '\0';
		for (char *tok = strtok_r(buf, " \t\r", &save); tok != NULL && nf < 6;
		     tok = strtok_r(NULL, " \t\r", &save))
			f[nf++] = tok;
		if (nf == 0)
			continue;
		if (nf != 5)
			return err_set(err, ERR_USAGE,
				       "%s:%d: expected REGION ARCH CAPACITY USD_PER_VCPU_HOUR "
				       "USD_PER_GB_HOUR (5 fields), got %d", name, lineno, nf);
		memset(&e, 0, sizeof e);
		if (strlen(f[0]) >= sizeof e.region)
			return err_set(err, ERR_USAGE, "%s:%d: region '%s' is too long", name,
				       lineno, f[0]);
		snprintf(e.region, sizeof e.region, "%s", f[0]);
		if (!cost_arch_name(f[1], e.arch, sizeof e.arch))
			return err_set(err, ERR_USAGE, "%s:%d: architecture '%s': expected x86_64 or "
				       "arm64", name, lineno, f[1]);
		if (strcasecmp(f[2], "FARGATE") == 0 || strcasecmp(f[2], "on-demand") == 0)
			e.spot = false;
		else if (strcasecmp(f[2], "FARGATE_SPOT") == 0 || strcasecmp(f[2], "spot") == 0)
			e.spot = true;
		else
			return err_set(err, ERR_USAGE, "%s:%d: capacity '%s': expected FARGATE or "
				       "FARGATE_SPOT", name, lineno, f[2]);
		if (!cost_number(f[3], &e.vcpu_hour) || !cost_number(f[4], &e.gb_hour))
			return err_set(err, ERR_USAGE, "%s:%d: prices must be non-negative numbers "
				       "(USD per vCPU-hour, per GB-hour), got '%s' '%s'", name,
				       lineno, f[3], f[4]);
		/* later lines win: put each in front */
		p->v = xreallocarray(p->v, p->n + 1, sizeof *p->v);
		memmove(p->v + 1, p->v, p->n * sizeof *p->v);
		p->v[0] = e;
		p->n++;
	}
	return 0;
}

int
cost_prices_load(struct cost_prices *p, const char *path, struct err *err)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t len = 0, cap = 4096;
	int rc;

	if (f == NULL)
		return err_set(err, ERR_IO, "--prices %s: cannot open: %s", path, err_strerror(errno));
	text = xmalloc(cap);
	for (;;) {
		size_t got = fread(text + len, 1, cap - len - 1, f);

		len += got;
		if (got == 0)
			break;
		if (cap - len - 1 == 0) {
			if (cap >= (1u << 20)) {
				fclose(f);
				free(text);
				return err_set(err, ERR_USAGE, "--prices %s: larger than 1 MiB", path);
			}
			cap *= 2;
			text = xrealloc(text, cap);
		}
	}
	if (ferror(f)) {
		fclose(f);
		free(text);
		return err_set(err, ERR_IO, "--prices %s: cannot read: %s", path, err_strerror(errno));
	}
	fclose(f);
	text[len] = '\0';
	rc = cost_prices_parse(p, path, text, err);
	free(text);
	return rc;
}

static bool
cost_is(const char *s, const char *want)
{
	return s != NULL && strcmp(s, want) == 0;
}

bool
cost_is_fargate(const struct task *t)
{
	return cost_is(t->prof->launch_type, "FARGATE") || cost_is(t->prof->capacity_provider, "FARGATE") ||
	       cost_is(t->prof->capacity_provider, "FARGATE_SPOT");
}

int64_t
cost_billed_ms(const struct task *t)
{
	int64_t from = task_ts(t, TS_PULL_STARTED);
	int64_t to = task_ts(t, TS_HEALTHY) != TS_NONE ? task_ts(t, TS_HEALTHY) : task_ts(t, TS_STARTED);

	if (!cost_is_fargate(t) || from == TS_NONE || to == TS_NONE || to < from)
		return TS_NONE;
	return to - from;
}

bool
cost_task_region(const struct task *t, char *out, size_t size)
{
	/* arn:aws:ecs:REGION:ACCOUNT:task/...: in the ARN's prefix when it has one */
	const char *arn = t->prof->arn_prefix != NULL ? t->prof->arn_prefix : t->arn_tail;

	if (arn != NULL && strncmp(arn, "arn:", 4) == 0) {
		const char *p = arn;

		for (int colons = 0; *p != '\0' && colons < 3; p++)
			colons += *p == ':';
		const char *end = strchr(p, ':');

		if (end != NULL && end > p && (size_t)(end - p) < size) {
			/* snprintf's "%.*s", without parsing a format: twice a row in a report */
			memcpy(out, p, (size_t)(end - p));
			out[end - p] = '\0';
			return true;
		}
	}
	/* us-east-1a -> us-east-1 (a Local Zone name like us-east-1-bos-1a is left alone) */
	if (t->prof->availability_zone != NULL) {
		size_t n = strlen(t->prof->availability_zone);

		if (n > 1 && n < size && t->prof->availability_zone[n - 1] >= 'a' &&
		    t->prof->availability_zone[n - 1] <= 'z' && t->prof->availability_zone[n - 2] >= '0' &&
		    t->prof->availability_zone[n - 2] <= '9') {
			memcpy(out, t->prof->availability_zone, n - 1);
			out[n - 1] = '\0';
			return true;
		}
	}
	return false;
}

/* "256" (units of 1/1024 vCPU or MiB) or "0.25 vCPU" / "1 GB" (already in the unit). */
static bool
cost_amount(const char *s, const char *unit, double *out)
{
	char *end;
	double v;
	uint32_t n = 0;
	size_t i = 0;

	if (s == NULL)
		return false;
	/* ECS's own form, digits alone ("256"): what strtod reads of it, without strtod
	 * (two calls a task, 2% of a live run's instructions) */
	while (i < 9 && s[i] >= '0' && s[i] <= '9')
		n = n * 10 + (uint32_t)(s[i++] - '0');
	if (i > 0 && s[i] == '\0') {
		if (n == 0)
			return false;
		*out = (double)n / 1024.0;
		return true;
	}
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !isfinite(v) || v <= 0)
		return false;
	while (*end == ' ')
		end++;
	if (*end == '\0') {
		*out = v / 1024.0;
		return true;
	}
	if (strcasecmp(end, unit) == 0) {
		*out = v;
		return true;
	}
	return false;
}

bool
cost_task_size(const struct task *t, double *vcpu, double *gb)
{
	return cost_amount(t->prof->cpu, "vCPU", vcpu) &&
	       (cost_amount(t->prof->memory, "GB", gb) || cost_amount(t->prof->memory, "GiB", gb));
}

static bool
cost_entry_fits(const struct cost_price *e, const char *region, const char *arch, bool spot)
{
	return e->spot == spot && strcmp(e->arch, arch) == 0 &&
	       (strcmp(e->region, "*") == 0 || strcmp(e->region, region) == 0);
}

const struct cost_price *
cost_price_for(const struct cost_prices *p, const struct task *t)
{
	char region[64];

	if (!cost_task_region(t, region, sizeof region))
		snprintf(region, sizeof region, "?");
	return cost_price_lookup(p, region, t->prof->cpu_arch,
				 cost_is(t->prof->capacity_provider, "FARGATE_SPOT"));
}

const struct cost_price *
cost_price_lookup(const struct cost_prices *p, const char *region, const char *cpu_arch,
		  bool spot)
{
	char arch[16] = "x86_64";

	/* Fargate's default when the task definition sets no runtimePlatform is X86_64 */
	if (cpu_arch != NULL && !cost_arch_name(cpu_arch, arch, sizeof arch))
		return NULL;
	if (region == NULL)
		region = "?";
	/* an exact region first, then "*", each in the order given */
	for (int pass = 0; p != NULL && pass < 2; pass++)
		for (size_t i = 0; i < p->n; i++)
			if ((strcmp(p->v[i].region, "*") == 0) == (pass == 1) &&
			    cost_entry_fits(&p->v[i], region, arch, spot))
				return &p->v[i];
	for (size_t i = 0; i < cost_nbuiltin; i++)
		if (cost_entry_fits(&cost_builtin[i], region, arch, spot))
			return &cost_builtin[i];
	return NULL;
}

double
cost_startup_usd(const struct cost_prices *p, const struct task *t)
{
	int64_t ms = cost_billed_ms(t);
	const struct cost_price *e;
	double vcpu, gb;

	if (ms == TS_NONE || !cost_task_size(t, &vcpu, &gb) || (e = cost_price_for(p, t)) == NULL)
		return NAN;
	return (double)ms / 1000.0 * (vcpu * e->vcpu_hour / 3600.0 + gb * e->gb_hour / 3600.0);
}
