/* taskdef: an ECS task definition as plain values, the fields `ecsprof check` judges
 * (names as botocore's ecs service-2.json spells them), read from JSON by the in/ layer
 * (taskdef_read.h) and, later, from DescribeTaskDefinition.
 * Ownership: a struct taskdef owns every string and array in it, freed by taskdef_free();
 * an absent number is TASKDEF_UNSET, an absent string NULL, never 0 or "". */
#ifndef ECSPROF_TASKDEF_H
#define ECSPROF_TASKDEF_H

#include <stdbool.h>
#include <stddef.h>

#define TASKDEF_UNSET (-1L)

/* A bool the definition may leave out (essential defaults to true, privileged to false). */
enum taskdef_flag { TD_FLAG_UNSET = -1, TD_FLAG_FALSE = 0, TD_FLAG_TRUE = 1 };

struct taskdef_port {
	long container_port, host_port;     /* TASKDEF_UNSET when absent */
};

struct taskdef_dep {
	char *container;                    /* containerName */
	char *condition;                    /* START, COMPLETE, SUCCESS, HEALTHY */
};

struct taskdef_ulimit {
	char *name;                         /* "nofile", ... */
	long soft, hard;                    /* softLimit, hardLimit */
};

struct taskdef_health {
	bool set;                           /* a healthCheck object is there */
	size_t ncommand;                    /* entries of command[] */
	long interval_s, timeout_s, retries, start_period_s;   /* TASKDEF_UNSET: ECS's default */
};

struct taskdef_container {
	char *name, *image;
	enum taskdef_flag essential;
	long cpu, memory, memory_reservation;   /* units, MiB, MiB */
	bool privileged;
	bool repository_credentials;        /* repositoryCredentials: authenticated pulls */
	long gpus;                          /* resourceRequirements type GPU; 0 none */
	bool inference_accelerator;         /* resourceRequirements type InferenceAccelerator */
	/* linuxParameters */
	bool linux_parameters;              /* the object is there */
	size_t ndevices;
	bool shared_memory_size, tmpfs, max_swap, swappiness;
	char **cap_add;                     /* capabilities.add */
	size_t ncap_add;
	/* Docker options Fargate refuses: how many entries (or 1 for a set flag) */
	size_t nlinks, ndns_servers, ndns_search, nextra_hosts, nsecurity_opts;
	bool disable_networking;
	struct taskdef_port *ports;
	size_t nports;
	struct taskdef_dep *deps;
	size_t ndeps;
	struct taskdef_ulimit *ulimits;
	size_t nulimits;
	struct taskdef_health health;
};

struct taskdef_volume {
	char *name;
	bool docker_volume;                 /* dockerVolumeConfiguration */
	bool host_source_path;              /* host.sourcePath */
	bool efs;                           /* efsVolumeConfiguration */
};

struct taskdef_placement {
	char *type, *expression;
};

struct taskdef {
	char *family;
	long revision;                      /* DescribeTaskDefinition only */
	char *arn;                          /* taskDefinitionArn, DescribeTaskDefinition only */
	char *cpu_text, *memory_text;       /* as written ("2 vCPU", "8192"), for messages */
	long cpu_units, memory_mib;         /* converted as RegisterTaskDefinition does */
	char *network_mode, *pid_mode, *ipc_mode;
	char **requires;                    /* requiresCompatibilities */
	size_t nrequires;
	char *os_family, *cpu_arch;         /* runtimePlatform; NULL: LINUX, X86_64 */
	size_t ninference_accelerators;     /* inferenceAccelerators */
	struct taskdef_placement *placements;
	size_t nplacements;
	struct taskdef_volume *volumes;
	size_t nvolumes;
	struct taskdef_container *containers;
	size_t ncontainers;
	bool described;                     /* read from DescribeTaskDefinition's answer */
};

void taskdef_init(struct taskdef *td);
void taskdef_free(struct taskdef *td);
/* essential as ECS reads it: true unless set false. */
bool taskdef_essential(const struct taskdef_container *c);
/* The container named name, or -1. */
long taskdef_find(const struct taskdef *td, const char *name);
/* Windows (an operatingSystemFamily starting WINDOWS_)? */
bool taskdef_is_windows(const struct taskdef *td);
/* "ARM64" or "X86_64" (the default). */
const char *taskdef_arch(const struct taskdef *td);
/* requiresCompatibilities names FARGATE. */
bool taskdef_requires(const struct taskdef *td, const char *what);

#endif
