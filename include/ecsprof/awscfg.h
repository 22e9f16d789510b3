/* awscfg: ~/.aws/config and ~/.aws/credentials parsed into profiles, sso-sessions and
 * [services NAME] sections with the AWS SDKs' shared rules, and the file locations.
 * Ownership: struct awscfg owns every string it holds (freed by awscfg_free(), secret
 * values wiped); every const char * it returns is borrowed until the next parse or free;
 * a char * returned (awscfg_locate) is the caller's to free. */
#ifndef ECSPROF_AWSCFG_H
#define ECSPROF_AWSCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/err.h"

enum awscfg_file {
	AWSCFG_CONFIG,          /* ~/.aws/config: [profile NAME], [default], [sso-session NAME], [services NAME] */
	AWSCFG_CREDENTIALS,     /* ~/.aws/credentials: [NAME] */
};

enum awscfg_kind {
	AWSCFG_PROFILE,
	AWSCFG_SSO_SESSION,
	AWSCFG_SERVICES,
};

struct awscfg;

struct awscfg *awscfg_new(void);
void awscfg_free(struct awscfg *cfg);

/* Parses one file's text and merges it in (credentials win over config on a clash, the
 * last duplicate property wins). Errors (ERR_CONFIG) read "FILE:LINE: why"; after an
 * error cfg still holds what came before the bad line, so callers normally free it. */
int awscfg_parse_text(struct awscfg *cfg, const char *text, size_t len,
		      enum awscfg_file which, const char *filename_for_errors, struct err *err);
/* Reads both files (either path may be NULL to skip it). A missing file is fine; an
 * unreadable or malformed one is an error naming file (and line). */
int awscfg_load(struct awscfg *cfg, const char *config_path, const char *credentials_path,
		struct err *err);

/* Merged property of a profile (key case-insensitive); NULL when absent. A property with
 * sub-properties ("s3 =\n  a = b") has the raw folded text "\na = b" as value. */
const char *awscfg_get(const struct awscfg *cfg, const char *profile, const char *key);
bool awscfg_has_profile(const struct awscfg *cfg, const char *profile);
/* One sub-property: awscfg_get_sub(cfg, "dev", "s3", "max_concurrent_requests"). */
const char *awscfg_get_sub(const struct awscfg *cfg, const char *profile, const char *key,
			   const char *subkey);
const char *awscfg_sso_session_get(const struct awscfg *cfg, const char *session,
				   const char *key);
/* [services NAME] section: awscfg_services_get(cfg, "my-svcs", "ecs", "endpoint_url")
 * for "ecs =\n  endpoint_url = ..."; service "" or NULL reads a top-level key. */
const char *awscfg_services_get(const struct awscfg *cfg, const char *services_section,
				const char *service, const char *key);

/* Enumeration, in first-seen order (for tests and --debug). */
size_t awscfg_section_count(const struct awscfg *cfg, enum awscfg_kind kind);
const char *awscfg_section_name(const struct awscfg *cfg, enum awscfg_kind kind, size_t i);
size_t awscfg_property_count(const struct awscfg *cfg, enum awscfg_kind kind,
			     const char *section);
/* 0 and *key, *value set, or -1 when i or section is out of range. */
int awscfg_property_at(const struct awscfg *cfg, enum awscfg_kind kind, const char *section,
		       size_t i, const char **key, const char **value);

/* The environment that decides file locations and the profile; NULL = unset. */
struct awscfg_env {
	const char *home;                       /* HOME */
	const char *aws_config_file;            /* AWS_CONFIG_FILE */
	const char *aws_shared_credentials_file;/* AWS_SHARED_CREDENTIALS_FILE */
	const char *aws_profile;                /* AWS_PROFILE */
};

void awscfg_env_from_process(struct awscfg_env *env);
/* Paths with a leading "~" expanded from HOME (or the passwd entry when HOME is unset,
 * for the process variant). -1 (ERR_CONFIG) when a path needs a home and none is known. */
int awscfg_locate_env(const struct awscfg_env *env, char **config_path,
		      char **credentials_path, struct err *err);
int awscfg_locate(char **config_path, char **credentials_path, struct err *err);
/* AWS_PROFILE when set and non-empty, else "default". Borrowed from env. */
const char *awscfg_profile_name(const struct awscfg_env *env);

#endif
