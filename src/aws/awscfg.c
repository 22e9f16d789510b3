/* awscfg: the shared AWS config-file grammar, as the SDKs' profile-parser test suite
 * defines it (smithy-rs wording for errors). Each file is kept as parsed; the merged
 * profile view is rebuilt after every parse so lookups stay simple and const. */
#include <ctype.h>
#include <errno.h>
#include <openssl/crypto.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecsprof/awscfg.h"
#include "ecsprof/buf.h"
#include "ecsprof/strset.h"
#include "ecsprof/xalloc.h"

/* Real config files are a few KB; the cap keeps a stray binary from eating memory. */
#define AWSCFG_FILE_MAX ((size_t)16 << 20)

/* Sections and keys are found through hash indexes (strset): with linear searches a
 * 40,000-profile file took 11 s and a 15 MB one did not end (issue 10 item 9). A section
 * indexes its keys once it has more than SECTION_INDEX_MIN; below, a scan is cheaper than
 * the index's memory (most profiles have a few keys). */
#define SECTION_INDEX_MIN 8

struct prop;

struct section {
	char *name;
	struct prop *props;
	size_t nprops, cap;
	struct strset index;    /* lower-cased key -> position, once nprops > SECTION_INDEX_MIN */
};

struct prop {
	char *key;              /* lower-cased */
	char *value;
	struct section subs;    /* parsed from a value that starts with "\n" (name unused) */
};

struct sectlist {
	struct section *v;
	size_t n, cap;
	struct strset index;    /* name -> position */
};

struct awscfg {
	struct sectlist cfg_profiles;     /* [profile NAME] and [profile default] */
	struct sectlist cfg_legacy;       /* [default] in the config file (0 or 1 entry) */
	struct sectlist cred_profiles;    /* [NAME] in the credentials file */
	struct sectlist sso;              /* [sso-session NAME] */
	struct sectlist services;         /* [services NAME] */
	struct sectlist merged;           /* the profile view lookups read */
};

static void
wipe_free(char *s)
{
	if (s != NULL) {
		OPENSSL_cleanse(s, strlen(s));
		free(s);
	}
}

static void section_clear(struct section *s);

static void
props_free(struct prop *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].key);
		wipe_free(p[i].value);
		section_clear(&p[i].subs);
	}
	free(p);
}

static void
section_clear(struct section *s)
{
	free(s->name);
	props_free(s->props, s->nprops);
	strset_cleanup(&s->index);
	memset(s, 0, sizeof *s);
}

static void
sectlist_clear(struct sectlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		section_clear(&l->v[i]);
	free(l->v);
	strset_cleanup(&l->index);
	memset(l, 0, sizeof *l);
}

struct awscfg *
awscfg_new(void)
{
	return xcalloc(1, sizeof(struct awscfg));
}

void
awscfg_free(struct awscfg *cfg)
{
	if (cfg == NULL)
		return;
	sectlist_clear(&cfg->cfg_profiles);
	sectlist_clear(&cfg->cfg_legacy);
	sectlist_clear(&cfg->cred_profiles);
	sectlist_clear(&cfg->sso);
	sectlist_clear(&cfg->services);
	sectlist_clear(&cfg->merged);
	free(cfg);
}

static struct section *
sectlist_find(const struct sectlist *l, const char *name)
{
	size_t i;

	if (name == NULL || !strset_get(&l->index, name, &i))
		return NULL;
	return &l->v[i];
}

static struct section *
sectlist_get(struct sectlist *l, const char *name)
{
	struct section *s = sectlist_find(l, name);

	if (s != NULL)
		return s;
	l->v = xgrow(l->v, l->n + 1, &l->cap, sizeof *l->v);
	s = &l->v[l->n];
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	/* the index borrows the name, which stays put when l->v moves */
	strset_add(&l->index, s->name, l->n);
	l->n++;
	return s;
}

static struct prop *
section_find(const struct section *s, const char *key)
{
	char small[64], *lower;
	size_t i, n;
	bool found;

	if (s == NULL || key == NULL)
		return NULL;
	if (s->index.cap == 0) {
		for (i = 0; i < s->nprops; i++)
			if (strcasecmp(s->props[i].key, key) == 0)
				return &s->props[i];
		return NULL;
	}
	n = strlen(key);
	lower = n < sizeof small ? small : xmalloc(n + 1);
	for (i = 0; i <= n; i++)
		lower[i] = (char)tolower((unsigned char)key[i]);
	found = strset_get(&s->index, lower, &i);
	if (lower != small)
		free(lower);
	return found ? &s->props[i] : NULL;
}

/* Last definition wins, but the property keeps its first position. */
static struct prop *
section_set(struct section *s, const char *key, const char *value)
{
	struct prop *p = section_find(s, key);

	if (p == NULL) {
		s->props = xgrow(s->props, s->nprops + 1, &s->cap, sizeof *s->props);
		p = &s->props[s->nprops++];
		memset(p, 0, sizeof *p);
		p->key = xstrdup(key);
		for (char *c = p->key; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (s->nprops > SECTION_INDEX_MIN) {
			/* the keys are borrowed: they stay put when s->props moves */
			if (s->index.cap == 0)
				for (size_t i = 0; i + 1 < s->nprops; i++)
					strset_add(&s->index, s->props[i].key, i);
			strset_add(&s->index, p->key, s->nprops - 1);
		}
	}
	wipe_free(p->value);
	p->value = xstrdup(value);
	return p;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Trims spaces and tabs in place on [*b, *e). */
static void
trim(const char **b, const char **e)
{
	while (*b < *e && is_blank(**b))
		(*b)++;
	while (*e > *b && (is_blank((*e)[-1]) || (*e)[-1] == '\r'))
		(*e)--;
}

static bool
valid_profile_name(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!isalnum(c) && strchr("-/.%@_:+", c) == NULL)
			return false;
	}
	return true;
}

static bool
has_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_blank(s[i]))
			return true;
	return false;
}

/* "profile foo", "profile\tfoo": the word must be followed by a blank. */
static bool
strip_prefix(const char **b, const char *e, const char *word)
{
	size_t wl = strlen(word);

	if ((size_t)(e - *b) <= wl || memcmp(*b, word, wl) != 0 || !is_blank((*b)[wl]))
		return false;
	*b += wl;
	while (*b < e && is_blank(**b))
		(*b)++;
	return true;
}

struct parse_state {
	struct awscfg *cfg;
	enum awscfg_file which;
	struct sectlist *target;     /* where the current section lives; NULL = ignored */
	char *section;               /* current section name (NULL before the first) */
	bool in_section;
	char *prop_key;              /* current property, for continuations; NULL = none */
	bool prop_is_parent;         /* defined with an empty value: continuations are sub-properties */
	bool prop_ignored;
	struct buf value;            /* value being built */
};

static void
flush_prop(struct parse_state *st)
{
	if (st->prop_key != NULL && !st->prop_ignored && st->target != NULL) {
		struct section *s = sectlist_get(st->target, st->section);
		section_set(s, st->prop_key, buf_str(&st->value));
	}
	free(st->prop_key);
	st->prop_key = NULL;
	buf_cleanup_secure(&st->value);
	buf_init(&st->value, AWSCFG_FILE_MAX);
}

static int
parse_section(struct parse_state *st, const char *b, const char *e, const char *file,
	      size_t lineno, struct err *err)
{
	/* comments may touch the closing bracket on section lines: "[profile foo]; x" */
	for (const char *c = b; c < e; c++) {
		if (*c == '#' || *c == ';') {
			e = c;
			break;
		}
	}
	trim(&b, &e);
	if (e - b < 2 || e[-1] != ']')
		return err_set(err, ERR_CONFIG, "%s:%zu: Profile definition must end with ']'",
			       file, lineno);
	b++;
	e--;
	trim(&b, &e);

	flush_prop(st);
	free(st->section);
	st->section = NULL;
	st->in_section = true;
	st->target = NULL;

	struct sectlist *target = NULL;
	if (st->which == AWSCFG_CONFIG) {
		if (strip_prefix(&b, e, "profile"))
			target = &st->cfg->cfg_profiles;
		else if (strip_prefix(&b, e, "sso-session"))
			target = &st->cfg->sso;
		else if (strip_prefix(&b, e, "services"))
			target = &st->cfg->services;
		else if (e - b == 7 && memcmp(b, "default", 7) == 0)
			target = &st->cfg->cfg_legacy;
		/* anything else ("[foo]", "[sso-sesion foo]") is not for us: ignored */
	} else {
		target = &st->cfg->cred_profiles;
	}
	if (target == NULL || !valid_profile_name(b, (size_t)(e - b)))
		return 0;
	st->section = xstrndup(b, (size_t)(e - b));
	st->target = target;
	/* an empty section still exists: "[profile foo]" alone is profile foo */
	sectlist_get(target, st->section);
	return 0;
}

static int
parse_property(struct parse_state *st, const char *b, const char *e, const char *file,
	       size_t lineno, struct err *err)
{
	/* a comment inside a value needs a blank before it: "value;x" keeps ";x" */
	for (const char *c = b; c < e; c++) {
		if ((*c == '#' || *c == ';') && c > b && is_blank(c[-1])) {
			e = c;
			break;
		}
	}
	trim(&b, &e);
	const char *eq = memchr(b, '=', (size_t)(e - b));
	if (eq == NULL)
		return err_set(err, ERR_CONFIG,
			       "%s:%zu: Expected an '=' sign defining a property", file, lineno);
	const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
	trim(&kb, &ke);
	trim(&vb, &ve);
	if (kb == ke)
		return err_set(err, ERR_CONFIG, "%s:%zu: Property did not have a name", file,
			       lineno);
	flush_prop(st);
	st->prop_key = xstrndup(kb, (size_t)(ke - kb));
	st->prop_ignored = has_blank(kb, (size_t)(ke - kb));
	st->prop_is_parent = vb == ve;
	buf_add(&st->value, vb, (size_t)(ve - vb));
	return 0;
}

static int
parse_continuation(struct parse_state *st, const char *b, const char *e, const char *file,
		   size_t lineno, struct err *err)
{
	trim(&b, &e);
	if (st->prop_key == NULL)
		return err_set(err, ERR_CONFIG,
			       "%s:%zu: Expected a property definition, found continuation",
			       file, lineno);
	if (st->prop_is_parent) {
		const char *eq = memchr(b, '=', (size_t)(e - b));
		if (eq == NULL)
			return err_set(err, ERR_CONFIG,
				       "%s:%zu: Expected an '=' sign defining a sub-property",
				       file, lineno);
		const char *kb = b, *ke = eq;
		trim(&kb, &ke);
		if (kb == ke)
			return err_set(err, ERR_CONFIG, "%s:%zu: Sub-property did not have a name",
				       file, lineno);
	}
	if (buf_addc(&st->value, '\n') != 0 || buf_add(&st->value, b, (size_t)(e - b)) != 0)
		return err_set(err, ERR_CONFIG, "%s:%zu: value too long", file, lineno);
	return 0;
}

/* Splits "\nname = value\nname2 = value2" into sub-properties. */
static void
parse_subs(struct prop *p)
{
	const char *s = p->value;

	section_clear(&p->subs);
	if (s == NULL || s[0] != '\n')
		return;
	while (*s != '\0') {
		const char *b = *s == '\n' ? s + 1 : s;
		const char *e = strchr(b, '\n');
		if (e == NULL)
			e = b + strlen(b);
		const char *eq = memchr(b, '=', (size_t)(e - b));
		if (eq != NULL) {
			const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
			trim(&kb, &ke);
			trim(&vb, &ve);
			if (kb < ke) {
				char *k = xstrndup(kb, (size_t)(ke - kb));
				char *v = xstrndup(vb, (size_t)(ve - vb));
				section_set(&p->subs, k, v);
				free(k);
				wipe_free(v);
			}
		}
		s = e;
	}
}

static void
copy_section_into(struct section *dst, const struct section *src)
{
	for (size_t i = 0; i < src->nprops; i++)
		section_set(dst, src->props[i].key, src->props[i].value);
}

static void
finalize_list(struct sectlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t j = 0; j < l->v[i].nprops; j++)
			parse_subs(&l->v[i].props[j]);
}

/* Config, then [default] only when no [profile default] exists, then credentials on top. */
static void
rebuild_merged(struct awscfg *cfg)
{
	sectlist_clear(&cfg->merged);
	for (size_t i = 0; i < cfg->cfg_profiles.n; i++)
		copy_section_into(sectlist_get(&cfg->merged, cfg->cfg_profiles.v[i].name),
				  &cfg->cfg_profiles.v[i]);
	if (cfg->cfg_legacy.n > 0 && sectlist_find(&cfg->cfg_profiles, "default") == NULL)
		copy_section_into(sectlist_get(&cfg->merged, "default"), &cfg->cfg_legacy.v[0]);
	for (size_t i = 0; i < cfg->cred_profiles.n; i++)
		copy_section_into(sectlist_get(&cfg->merged, cfg->cred_profiles.v[i].name),
				  &cfg->cred_profiles.v[i]);
	finalize_list(&cfg->merged);
	finalize_list(&cfg->sso);
	finalize_list(&cfg->services);
}

int
awscfg_parse_text(struct awscfg *cfg, const char *text, size_t len, enum awscfg_file which,
		  const char *filename_for_errors, struct err *err)
{
	struct parse_state st = { .cfg = cfg, .which = which };
	const char *file = filename_for_errors != NULL ? filename_for_errors :
			   which == AWSCFG_CONFIG ? "config" : "credentials";
	const char *p = text, *end = text + len;
	size_t lineno = 0;
	int rc = 0;

	buf_init(&st.value, AWSCFG_FILE_MAX);
	if (text == NULL && len > 0)
		return err_set(err, ERR_INTERNAL, "%s: no text to parse", file);
	while (rc == 0 && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;
		const char *b = p, *tb = p, *te = e;
		lineno++;
		p = nl != NULL ? nl + 1 : end;

		if (memchr(b, '\0', (size_t)(e - b)) != NULL) {
			rc = err_set(err, ERR_CONFIG, "%s:%zu: NUL byte in a text file", file,
				     lineno);
			break;
		}
		trim(&tb, &te);
		if (tb == te)
			continue;       /* blank lines never end a property */
		if (*b == '#' || *b == ';')
			continue;
		if (*b == '[') {
			rc = parse_section(&st, b, e, file, lineno, err);
		} else if (!st.in_section) {
			rc = err_set(err, ERR_CONFIG, "%s:%zu: Expected a profile definition", file,
				     lineno);
		} else if (is_blank(*b)) {
			rc = parse_continuation(&st, b, e, file, lineno, err);
		} else {
			rc = parse_property(&st, b, e, file, lineno, err);
		}
	}
	if (rc == 0)
		flush_prop(&st);
	free(st.prop_key);
	free(st.section);
	buf_cleanup_secure(&st.value);
	rebuild_merged(cfg);
	return rc;
}

static int
read_file(const char *path, struct buf *out, bool *missing, struct err *err)
{
	FILE *f;
	char chunk[8192];
	size_t n;
	struct stat sb;

	*missing = false;
	f = fopen(path, "rb");
	if (f == NULL) {
		if (errno == ENOENT || errno == ENOTDIR) {
			*missing = true;
			return 0;
		}
		return err_set(err, ERR_CONFIG, "%s: cannot open: %s", path, err_strerror(errno));
	}
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fclose(f);
		return err_set(err, ERR_CONFIG, "%s: is a directory, not a file", path);
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (buf_add(out, chunk, n) != 0) {
			fclose(f);
			OPENSSL_cleanse(chunk, sizeof chunk);
			return err_set(err, ERR_CONFIG, "%s: larger than %zu bytes", path,
				       (size_t)AWSCFG_FILE_MAX);
		}
	}
	OPENSSL_cleanse(chunk, sizeof chunk);
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		return err_set(err, ERR_CONFIG, "%s: read error: %s", path, err_strerror(e));
	}
	fclose(f);
	return 0;
}

int
awscfg_load(struct awscfg *cfg, const char *config_path, const char *credentials_path,
	    struct err *err)
{
	const char *paths[2] = { config_path, credentials_path };
	const enum awscfg_file kinds[2] = { AWSCFG_CONFIG, AWSCFG_CREDENTIALS };

	for (int i = 0; i < 2; i++) {
		struct buf text;
		bool missing;
		int rc;

		if (paths[i] == NULL || paths[i][0] == '\0')
			continue;
		buf_init(&text, AWSCFG_FILE_MAX);
		rc = read_file(paths[i], &text, &missing, err);
		if (rc == 0 && !missing)
			rc = awscfg_parse_text(cfg, buf_str(&text), text.len, kinds[i], paths[i],
					       err);
		buf_cleanup_secure(&text);
		if (rc != 0)
			return -1;
	}
	return 0;
}

const char *
awscfg_get(const struct awscfg *cfg, const char *profile, const char *key)
{
	const struct prop *p;

	if (cfg == NULL)
		return NULL;
	p = section_find(sectlist_find(&cfg->merged, profile), key);
	return p != NULL ? p->value : NULL;
}

bool
awscfg_has_profile(const struct awscfg *cfg, const char *profile)
{
	return cfg != NULL && sectlist_find(&cfg->merged, profile) != NULL;
}

static const char *
sub_get(const struct sectlist *l, const char *section, const char *key, const char *subkey)
{
	const struct prop *p = section_find(sectlist_find(l, section), key);

	p = p != NULL ? section_find(&p->subs, subkey) : NULL;
	return p != NULL ? p->value : NULL;
}

const char *
awscfg_get_sub(const struct awscfg *cfg, const char *profile, const char *key,
	       const char *subkey)
{
	return cfg != NULL ? sub_get(&cfg->merged, profile, key, subkey) : NULL;
}

const char *
awscfg_sso_session_get(const struct awscfg *cfg, const char *session, const char *key)
{
	const struct prop *p;

	if (cfg == NULL)
		return NULL;
	p = section_find(sectlist_find(&cfg->sso, session), key);
	return p != NULL ? p->value : NULL;
}

const char *
awscfg_services_get(const struct awscfg *cfg, const char *services_section,
		    const char *service, const char *key)
{
	const struct prop *p;

	if (cfg == NULL)
		return NULL;
	if (service != NULL && service[0] != '\0')
		return sub_get(&cfg->services, services_section, service, key);
	p = section_find(sectlist_find(&cfg->services, services_section), key);
	return p != NULL ? p->value : NULL;
}

static const struct sectlist *
kind_list(const struct awscfg *cfg, enum awscfg_kind kind)
{
	switch (kind) {
	case AWSCFG_PROFILE:
		return &cfg->merged;
	case AWSCFG_SSO_SESSION:
		return &cfg->sso;
	case AWSCFG_SERVICES:
		return &cfg->services;
	}
	return NULL;
}

size_t
awscfg_section_count(const struct awscfg *cfg, enum awscfg_kind kind)
{
	const struct sectlist *l = cfg != NULL ? kind_list(cfg, kind) : NULL;
	return l != NULL ? l->n : 0;
}

const char *
awscfg_section_name(const struct awscfg *cfg, enum awscfg_kind kind, size_t i)
{
	const struct sectlist *l = cfg != NULL ? kind_list(cfg, kind) : NULL;
	return l != NULL && i < l->n ? l->v[i].name : NULL;
}

size_t
awscfg_property_count(const struct awscfg *cfg, enum awscfg_kind kind, const char *section)
{
	const struct sectlist *l = cfg != NULL ? kind_list(cfg, kind) : NULL;
	const struct section *s = l != NULL ? sectlist_find(l, section) : NULL;
	return s != NULL ? s->nprops : 0;
}

int
awscfg_property_at(const struct awscfg *cfg, enum awscfg_kind kind, const char *section,
		   size_t i, const char **key, const char **value)
{
	const struct sectlist *l = cfg != NULL ? kind_list(cfg, kind) : NULL;
	const struct section *s = l != NULL ? sectlist_find(l, section) : NULL;

	if (s == NULL || i >= s->nprops)
		return -1;
	*key = s->props[i].key;
	*value = s->props[i].value;
	return 0;
}

static const char *
nonempty(const char *s)
{
	return s != NULL && s[0] != '\0' ? s : NULL;
}

void
awscfg_env_from_process(struct awscfg_env *env)
{
	env->home = nonempty(getenv("HOME"));
	env->aws_config_file = nonempty(getenv("AWS_CONFIG_FILE"));
	env->aws_shared_credentials_file = nonempty(getenv("AWS_SHARED_CREDENTIALS_FILE"));
	env->aws_profile = nonempty(getenv("AWS_PROFILE"));
}

/* "~" and "~/x" expand from home; "~user/x" is left alone (the SDKs do the same). */
static int
expand(const char *path, const char *home, const char *what, char **out, struct err *err)
{
	if (path[0] == '~' && (path[1] == '\0' || path[1] == '/')) {
		if (home == NULL)
			return err_set(err, ERR_CONFIG,
				       "cannot find the %s file: HOME is not set to expand '%s'",
				       what, path);
		size_t hl = strlen(home);
		/* "/" + "/.aws" must not become "//.aws" */
		while (hl > 1 && home[hl - 1] == '/')
			hl--;
		*out = xasprintf("%.*s%s", (int)hl, home, path + 1);
		return 0;
	}
	*out = xstrdup(path);
	return 0;
}

int
awscfg_locate_env(const struct awscfg_env *env, char **config_path, char **credentials_path,
		  struct err *err)
{
	const char *cfgp = nonempty(env->aws_config_file);
	const char *crp = nonempty(env->aws_shared_credentials_file);
	const char *home = nonempty(env->home);

	*config_path = NULL;
	*credentials_path = NULL;
	if (expand(cfgp != NULL ? cfgp : "~/.aws/config", home, "config", config_path,
		   err) != 0)
		return -1;
	if (expand(crp != NULL ? crp : "~/.aws/credentials", home, "credentials",
		   credentials_path, err) != 0) {
		free(*config_path);
		*config_path = NULL;
		return -1;
	}
	return 0;
}

int
awscfg_locate(char **config_path, char **credentials_path, struct err *err)
{
	struct awscfg_env env;
	struct passwd pw, *res = NULL;
	char pwbuf[4096];

	awscfg_env_from_process(&env);
	/* services started without HOME (systemd units, cron) still have a passwd entry */
	if (env.home == NULL && getpwuid_r(getuid(), &pw, pwbuf, sizeof pwbuf, &res) == 0 &&
	    res != NULL)
		env.home = nonempty(pw.pw_dir);
	return awscfg_locate_env(&env, config_path, credentials_path, err);
}

const char *
awscfg_profile_name(const struct awscfg_env *env)
{
	return env != NULL && nonempty(env->aws_profile) != NULL ? env->aws_profile : "default";
}
