/* taskdef: the plain task definition's lifetime and the defaults ECS applies to it. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/taskdef.h"

void
taskdef_init(struct taskdef *td)
{
	memset(td, 0, sizeof *td);
	td->revision = TASKDEF_UNSET;
	td->cpu_units = TASKDEF_UNSET;
	td->memory_mib = TASKDEF_UNSET;
}

static void
free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
container_free(struct taskdef_container *c)
{
	free(c->name);
	free(c->image);
	free_strings(c->cap_add, c->ncap_add);
	free(c->ports);
	for (size_t i = 0; i < c->ndeps; i++) {
		free(c->deps[i].container);
		free(c->deps[i].condition);
	}
	free(c->deps);
	for (size_t i = 0; i < c->nulimits; i++)
		free(c->ulimits[i].name);
	free(c->ulimits);
}

void
taskdef_free(struct taskdef *td)
{
	free(td->family);
	free(td->arn);
	free(td->cpu_text);
	free(td->memory_text);
	free(td->network_mode);
	free(td->pid_mode);
	free(td->ipc_mode);
	free_strings(td->requires, td->nrequires);
	free(td->os_family);
	free(td->cpu_arch);
	for (size_t i = 0; i < td->nplacements; i++) {
		free(td->placements[i].type);
		free(td->placements[i].expression);
	}
	free(td->placements);
	for (size_t i = 0; i < td->nvolumes; i++)
		free(td->volumes[i].name);
	free(td->volumes);
	for (size_t i = 0; i < td->ncontainers; i++)
		container_free(&td->containers[i]);
	free(td->containers);
	taskdef_init(td);
}

bool
taskdef_essential(const struct taskdef_container *c)
{
	return c->essential != TD_FLAG_FALSE;
}

long
taskdef_find(const struct taskdef *td, const char *name)
{
	for (size_t i = 0; name != NULL && i < td->ncontainers; i++)
		if (td->containers[i].name != NULL && strcmp(td->containers[i].name, name) == 0)
			return (long)i;
	return -1;
}

bool
taskdef_is_windows(const struct taskdef *td)
{
	return td->os_family != NULL && strncasecmp(td->os_family, "WINDOWS", 7) == 0;
}

const char *
taskdef_arch(const struct taskdef *td)
{
	return td->cpu_arch != NULL ? td->cpu_arch : "X86_64";
}

bool
taskdef_requires(const struct taskdef *td, const char *what)
{
	for (size_t i = 0; i < td->nrequires; i++)
		if (strcasecmp(td->requires[i], what) == 0)
			return true;
	return false;
}
