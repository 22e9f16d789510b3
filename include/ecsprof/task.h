/* task: the in-memory model of one ECS task (as DescribeTasks describes it) and the set
 * of tasks a run works on, merged by task ARN from any number of inputs.
 * Ownership, one rule: every string of a task and its containers and tags arrays live in
 * one string pool (t->pool), and each pool has exactly one owner, who frees it whole:
 * the set (task_set_pool()) once its tasks are in it, before that the code building the
 * tasks (a batch pool from task_strpool_new() for a reader's workers; a task's own pool,
 * made by its first task_str() when it was built by itself: tests, task_copy()). Taking
 * a task into a set (task_set_take()) hands its pool's storage to the set's pool whole,
 * without a copy; a task of another set is copied in (task_set_take_copy(), into the
 * set's pool): no string is ever shared between two sets or counted. Strings are read-only
 * (const) and shared between the tasks of one pool, as are containers and tags arrays
 * (task_share_containers()) and profiles (struct task_profile). So write a task's strings
 * only with task_str()/task_strn(), its arrays only with task_containers()/task_tags(),
 * its profile only through task_edit_profile(). A task may also point at static strings,
 * arrays and a profile while it has no pool and is never taken (a probe on the stack). */
#ifndef ECSPROF_TASK_H
#define ECSPROF_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ecsprof/timeutil.h"

/* The lifecycle timestamps of an ECS Task, in ms since the epoch, TS_NONE when absent. */
enum ts_field {
	TS_CREATED,
	TS_CONNECTIVITY,
	TS_PULL_STARTED,
	TS_PULL_STOPPED,
	TS_STARTED,
	TS_STOPPING,
	TS_EXECUTION_STOPPED,
	TS_STOPPED,
	TS_HEALTHY,          /* not an ECS field: when the task was first HEALTHY (health.h) */
	TS_COUNT
};

/* The slot of when a recorded task was fetched (TS_NONE otherwise): a time of the task
 * kept beside the lifecycle ones (task_ts()), though not one of them (ts_defs). */
#define TS_FETCHED TS_COUNT
#define TS_SLOTS (TS_COUNT + 1)
#define TS_D_NONE INT32_MIN

struct ts_def {
	enum ts_field id;
	const char *json_name;  /* ECS member name: "createdAt" */
	const char *meta_name;  /* task metadata v4 name: "PullStartedAt"; NULL if none */
	const char *csv_name;   /* "created_at" */
};
extern const struct ts_def ts_defs[TS_COUNT];

/* A fact an input may or may not state. */
enum tri { TRI_UNKNOWN, TRI_NO, TRI_YES };

enum soci_label { SOCI_UNKNOWN, SOCI_YES, SOCI_NO };
enum soci_evidence { SOCI_EVIDENCE_NONE, SOCI_EVIDENCE_METADATA, SOCI_EVIDENCE_RULE,
		     SOCI_EVIDENCE_ECR };

/* The structs are laid out largest members first, so that padding costs nothing: a set
 * holds one struct task per task (issue 16: memory per task). The small enums are kept
 * in a byte each (uint8_t, holding the enum named beside them). */
/* What a container shares with the same container of the other tasks of its service (its
 * name, image and how it stands): kept once by the pool, as a task's profile is (issue 35:
 * a container 72 -> 32 bytes). Immutable once shared: read it as c->prof->image, write it
 * through container_edit_profile(). */
struct container_profile {
	const char *name;
	const char *image;
	const char *last_status;
	const char *reason;
	const char *snapshotter;   /* task metadata v4 only: "soci", "overlayfs"; NULL if unknown */
	const char *health_status; /* healthStatus / metadata Health.status: HEALTHY, UNHEALTHY, ... */
	uint64_t draft;            /* as struct task_profile's */
};

struct container {
	/* never NULL in a task's array (task_containers()): a shared profile, a draft of the
	 * task's, or container_profile_none */
	const struct container_profile *prof;
	/* The image digest, the one string of a container that a task may have alone: read it
	 * with container_digest(), write it with container_set_digest(). ECS's form,
	 * "sha256:" and 64 lowercase hex digits, is kept as its 32 bytes behind a mark
	 * (DIGEST_RAW_SHA256, issue 35: 73 bytes -> 34); any other text as it is (behind
	 * DIGEST_RAW_TEXT if it begins with a mark). NULL: none. A probe may point it at a
	 * static text that begins with neither mark. */
	const char *digest_raw;
	int64_t health_since_ms;
	int exit_code;
	bool has_exit_code;
	bool has_health_since;   /* metadata Health.statusSince */
	uint8_t essential;       /* enum tri: metadata "Essential" where a document has it */
};

struct tag {
	const char *key;
	const char *value;
};

/* What a task shares with the other tasks of its service: the low-cardinality strings
 * (where it runs, what it runs, how it stands) and what task_derive() takes from them. A
 * set keeps one copy of each distinct profile (issue 35: 8 bytes a task for these 22
 * strings instead of 176), so a profile is immutable once a task points at it: read it
 * as t->prof->service, write it only through task_edit_profile(t), which gives the task
 * a draft of its own until task_derive() stores the draft as one of the pool's shared
 * profiles. */
struct task_profile {
	/* as ECS names them */
	const char *cluster_arn;
	const char *taskdef_arn;
	const char *group;             /* ECS "group": "service:web" or "family:web" */
	const char *started_by;        /* "ecs-svc/123..." for service tasks */
	const char *launch_type;
	const char *platform_version;
	const char *platform_family;
	const char *capacity_provider;
	const char *availability_zone;
	const char *cpu;               /* strings in the API: "256", "1 vCPU" */
	const char *memory;
	const char *last_status;
	const char *desired_status;
	const char *stop_code;
	const char *stopped_reason;
	const char *health_status;
	const char *cpu_arch;          /* attribute ecs.cpu-architecture: "x86_64", "arm64" */
	/* where it came from: input file name, "-" for stdin, or "live" */
	const char *source;

	/* derived by task_derive() from the above; never NULL after it ran */
	const char *cluster;           /* cluster short name, "" if unknown */
	const char *service;           /* from group "service:NAME", "" if not a service task */
	const char *family;            /* task definition family, "" if unknown */
	const char *taskdef;           /* "family:revision", "" if unknown */

	/* the task's ARN up to its id ("arn:aws:ecs:REGION:ACCOUNT:task/CLUSTER/"), the same
	 * for every task of a cluster: kept here, once, and the id in the task (arn_tail);
	 * NULL when the task keeps its ARN whole or has none. Written by task_set_arn(). */
	const char *arn_prefix;

	/* the task's tags: a service's tasks mostly have the same (ECS propagates them from
	 * the service or the task definition), so they are kept here, one array for all */
	const struct tag *tags;        /* ntags of them */
	size_t ntags;

	/* private to task.c: nonzero in a task's own draft (task_edit_profile()) rather than
	 * a shared profile; 0 in a shared one */
	uint64_t draft;
};

struct task {
	/* The task's ARN as ECS names it, in two parts: its profile's arn_prefix and this, the
	 * id (issue 35: an ARN is 80 bytes, its id 33); the whole ARN when the profile has no
	 * prefix (an ARN without a '/', longer than TASK_ARN_MAX, or a probe's static string).
	 * NULL without an ARN. Read it with task_arn(), task_arn_is(), task_id(); write it with
	 * task_set_arn(). */
	const char *arn_tail;
	/* never NULL: a shared profile, the task's own draft, or task_profile_none */
	const struct task_profile *prof;
	struct container *containers;  /* ncontainers of them */

	/* where its strings and arrays are (see the top of this file); NULL while it has none */
	struct task_strpool *pool;

	int64_t version;               /* when has_version */

	/* Its times (the TS_COUNT lifecycle times and when it was fetched, TS_FETCHED), in ms
	 * since the epoch: read them with task_ts(), write them with task_set_ts(). Kept as a
	 * base and a 32-bit difference each (TS_D_NONE: absent), which holds any times within
	 * 24.8 days of the first one set (issue 35: 80 bytes -> 48); a task whose times
	 * spread wider has them all whole in an array of its pool (ts_wide), never written
	 * once made, so that a copy of the task may change its own times freely. */
	int64_t ts_base;               /* TS_NONE until a time is set */
	union {
		int32_t d[TS_SLOTS];
		const int64_t *wide;
	} tsv;

	/* ts[TS_HEALTHY] seen by a poll rather than stated by task metadata: then
	 * healthy_observed, with the poll interval as its resolution (how late it may be),
	 * as task_resolution_ms() keeps it */
	uint32_t healthy_resolution_ms;
	uint16_t ncontainers;          /* at most TASK_MAX_CONTAINERS */
	bool has_version : 1;
	bool healthy_observed : 1;
	bool from_metadata : 1;        /* a task metadata v4 document contributed to this task */
	bool ts_wide : 1;
	/* network facts for the diagnosis (input_serving.c): an ENI attachment (awsvpc) and
	 * a public IPv4 address in its details; enum tri. Two bits each beside the flags:
	 * the struct is 96 bytes rather than 104 */
	unsigned awsvpc : 2;
	unsigned public_ip : 2;
	/* set by group_apply_soci(): enum soci_label, enum soci_evidence */
	unsigned soci : 2;
	unsigned soci_evidence : 2;
};

struct task_set {
	struct task *tasks;
	size_t len;
	size_t cap;
	/* open-addressing index of arn: index_cap pairs (position + 1, hash), 32 bits each;
	 * private to task.c */
	uint32_t *index;
	size_t index_cap;
	/* every string and array of every task in the set (NULL until task_set_pool()) */
	struct task_strpool *pool;
	/* image facts by digest (image.h), NULL until a reader or a lookup adds some;
	 * owned, freed by task_set_cleanup() */
	struct image_set *images;
};

/* The most containers a task holds: ECS allows 10 a task definition; the readers refuse a
 * task with more than this, which fits ncontainers' 16 bits. */
#define TASK_MAX_CONTAINERS 65535u

/* A health resolution as a task keeps it: 0 for none or less, at most 2^32 - 1 ms (49.7
 * days; a poll interval is seconds to minutes). */
static inline uint32_t
task_resolution_ms(int64_t ms)
{
	return ms <= 0 ? 0 : ms >= (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

/* The longest ARN kept in two parts (task.arn_tail); a longer one is kept whole. ECS's are
 * under 350 bytes (a cluster name is at most 255). */
#define TASK_ARN_MAX 511

/* Room for a task's whole ARN, which task_arn() may write there. */
struct task_arn_buf {
	char s[TASK_ARN_MAX + 1];
};

static inline bool
task_has_arn(const struct task *t)
{
	return t->arn_tail != NULL;
}

/* The task's whole ARN, NULL without one: its two parts joined in b, or the task's own
 * string when it keeps the ARN whole. Valid while t and b are. */
static inline const char *
task_arn(const struct task *t, struct task_arn_buf *b)
{
	const char *p = t->prof->arn_prefix;
	size_t n, m;

	if (p == NULL || t->arn_tail == NULL)
		return t->arn_tail;
	n = strlen(p);
	m = strlen(t->arn_tail);
	/* task_set_arn() split it only when the whole fits */
	memcpy(b->s, p, n);
	memcpy(b->s + n, t->arn_tail, m + 1);
	return b->s;
}

/* Is arn (may be NULL) the task's ARN? */
static inline bool
task_arn_is(const struct task *t, const char *arn)
{
	const char *p = t->prof->arn_prefix;

	if (arn == NULL || t->arn_tail == NULL)
		return false;
	if (p != NULL) {
		size_t n = strlen(p);

		if (strncmp(arn, p, n) != 0)
			return false;
		arn += n;
	}
	return strcmp(arn, t->arn_tail) == 0;
}

/* The task's id: its ARN's last segment (arn:aws:ecs:REGION:ACCOUNT:task/CLUSTER/ID, or
 * task/ID in the old format), "" without an ARN: the ARN's second part when it is kept in
 * two. */
static inline const char *
task_id(const struct task *t)
{
	const char *p;

	if (t->arn_tail == NULL)
		return "";
	if (t->prof->arn_prefix != NULL)
		return t->arn_tail;
	p = strrchr(t->arn_tail, '/');
	return p != NULL ? p + 1 : t->arn_tail;
}

/* The task's time in slot f (enum ts_field, or TS_FETCHED): ms since the epoch, TS_NONE
 * when absent. */
static inline int64_t
task_ts(const struct task *t, int f)
{
	int32_t d;

	if (t->ts_wide)
		return t->tsv.wide[f];
	d = t->tsv.d[f];
	return d == TS_D_NONE ? TS_NONE : t->ts_base + d;
}

/* Sets the task's time in slot f to v (TS_NONE: absent). A time too far from the others
 * moves them all into an array of t's pool (a private one made if t has none). */
void task_set_ts(struct task *t, int f, int64_t v);

/* Where a task stands: the one answer every output (table, TUI, watch, phases) reads,
 * so that no two of them can disagree about a task. */
enum task_stage {
	STAGE_UNKNOWN,        /* no createdAt, and no status that says more */
	STAGE_PROVISION,      /* createdAt: capacity, ENI, agent (PROVISIONING, PENDING) */
	STAGE_PULL,           /* pullStartedAt, no pullStoppedAt yet */
	STAGE_START,          /* pullStoppedAt, not RUNNING yet */
	STAGE_RUNNING,        /* startedAt, or lastStatus RUNNING */
	STAGE_STOPPED,        /* stopping or stopped after it ran */
	STAGE_FAILED,         /* stopping or stopped without ever running, or stop code
				 TaskFailedToStart: a failed start */
	STAGE_COUNT
};
extern const char *const task_stage_names[STAGE_COUNT];   /* "provision", ..., "failed" */

/* The task's stage and, in *since_ms (may be NULL), when that stage began (ms since the
 * epoch; TS_NONE when the data does not say). A task is on its way down from the first
 * sign of it: stoppingAt, executionStoppedAt or stoppedAt, a stop code or reason, or
 * lastStatus DEACTIVATING, STOPPING, DEPROVISIONING or STOPPED; it then is STAGE_FAILED
 * when it never had a startedAt (or ECS says TaskFailedToStart), else STAGE_STOPPED. */
enum task_stage task_stage(const struct task *t, int64_t *since_ms);
/* True for STAGE_PROVISION, STAGE_PULL and STAGE_START: still starting. */
bool task_stage_is_starting(enum task_stage s);
/* True for STAGE_STOPPED and STAGE_FAILED: on its way down or down, ran or not. */
bool task_stage_is_down(enum task_stage s);
/* ECS is done with the task: lastStatus STOPPED or a stoppedAt. A stage says where a task
 * is; this says whether it can still change. */
bool task_is_final(const struct task *t);
/* The newest of the task's timestamps and its fetch time, TS_NONE for none: what "when
 * the data was taken" is made of (report_data_time). */
int64_t task_latest_ms(const struct task *t);

/* Zeroes t, all ts = TS_NONE, no pool yet: the first string stored gives it a private
 * pool. */
void task_init(struct task *t);
/* task_init(), the strings to go to p (a batch pool, or task_set_pool() of the set it is
 * meant for; not a private pool). */
void task_init_pool(struct task *t, struct task_strpool *p);
/* Frees t's private pool if it has one (nothing else of it is ever freed) and
 * initialises it. */
void task_cleanup(struct task *t);
/* task_init() keeping t's pool (whose strings stay there): a parse that gave up. */
void task_reset(struct task *t);
/* *dst (a string field of t, its containers or tags) = t's pool's copy of s (may be NULL:
 * then *dst = NULL) / of the n bytes at s (NUL-terminated there). */
void task_str(struct task *t, const char **dst, const char *s);
void task_strn(struct task *t, const char **dst, const char *s, size_t n);
/* The task's ARN = the n bytes at s (NULL: none): the id in t's pool, what comes before it
 * in t's profile (a draft's until task_derive() shares it), or all of it in t's pool when it
 * has no '/' or is longer than TASK_ARN_MAX. */
void task_set_arn(struct task *t, const char *s, size_t n);
/* task_set_arn(), with like (may be NULL) a task of t's pool whose ARN's prefix is likely
 * the same: then taken from it without a lookup (the tasks of one answer). */
void task_set_arn_like(struct task *t, const char *s, size_t n, const struct task *like);
/* task_set_arn() of the text printf would write */
void task_set_arnf(struct task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* task_str() of the text printf would write */
void task_strf(struct task *t, const char **dst, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* n zeroed containers / tags in t's pool, as t->containers, t->ncontainers (the tags
 * of t's profile: t->prof->tags, t->prof->ntags, a draft's until task_derive() shares
 * both); returns the array (NULL when n is 0). Any previous array is dropped. Containers
 * past TASK_MAX_CONTAINERS are not kept: the readers refuse such a task first. */
struct container *task_containers(struct task *t, size_t n);
struct tag *task_tags(struct task *t, size_t n);
/* t->containers (t->prof->tags) = the n at v as t's pool keeps them: one copy of each distinct
 * array in a set's or batch pool (the tasks of one service mostly have the same tags),
 * so never write to it; v's strings must be t's pool's already (and the drafts of v's
 * container profiles are shared in v first). */
void task_share_containers(struct task *t, struct container *v, size_t n);
void task_share_tags(struct task *t, const struct tag *v, size_t n);
/* Fills the derived fields (the profile's cluster, service, family, taskdef) and
 * shares a draft profile (the pool's copy of an equal one); call after parsing. They are
 * tails of t's strings where they can be, "" (static) when empty, else from t's pool. */
void task_derive(struct task *t);
/* The profile every task starts with: all NULL. */
extern const struct task_profile task_profile_none;
/* t's profile to write: t's own draft, made now (in t's pool, a copy of its profile) when
 * t points at a shared one. task_derive() shares it again; until then t's reads see the
 * draft. A draft belongs to one task: do not write through a struct copy of a task that
 * has one. */
struct task_profile *task_edit_profile(struct task *t);
/* The container profile every container starts with: all NULL. */
extern const struct container_profile container_profile_none;
/* c's profile to write (c one of t's containers, or a container being built for t, which
 * may be zeroed): a draft in t's pool, as task_edit_profile(). task_share_containers() and task_derive()
 * share the drafts of t's containers again. */
struct container_profile *container_edit_profile(struct task *t, struct container *c);
/* The first container's image/digest, or NULL. */
const char *task_image(const struct task *t);

/* Room for an image digest as text: "sha256:" and 64 hex digits, or a text digest of up to
 * as many bytes (a longer one is read where it lies) */
#define DIGEST_TEXT_LEN 71
struct digest_buf {
	char s[DIGEST_TEXT_LEN + 1];
};
#define DIGEST_RAW_SHA256 '\001'   /* then the 32 bytes of a sha256 digest */
#define DIGEST_RAW_TEXT '\002'     /* then the text, which begins with a mark */
#define DIGEST_RAW_SHA256_LEN 33

/* The container's image digest as text, NULL without one: written into b when it is kept
 * as bytes, else the container's own string. Valid while c and b are. */
const char *container_digest(const struct container *c, struct digest_buf *b);
/* c's image digest (one of t's containers, or being built for t) = the n bytes at s (NULL:
 * none), in t's pool. */
void container_set_digest(struct task *t, struct container *c, const char *s, size_t n);
/* The length of a kept digest (c->digest_raw, not NULL): its bytes, which may hold NULs. */
size_t digest_raw_len(const char *raw);
/* The first container's digest (container_digest()), NULL when none has one. */
const char *task_image_digest(const struct task *t, struct digest_buf *b);
const char *task_tag(const struct task *t, const char *key);
/* Deep copy into dst (initialised by this call), its strings and arrays in p (the pool of
 * the set it is meant for, or a batch pool); task_copy(): in a pool of its own. */
void task_copy_to(struct task *dst, const struct task *src, struct task_strpool *p);
void task_copy(struct task *dst, const struct task *src);

/* A batch pool: for tasks made in bulk before a set takes them (see the top of this
 * file). task_strpool_free() takes NULL. */
struct task_strpool *task_strpool_new(void);
void task_strpool_free(struct task_strpool *p);

void task_set_init(struct task_set *s);
void task_set_cleanup(struct task_set *s);
/* The set's pool (made on first use): build a task there with task_init_pool() when it is
 * meant for this set anyway (a live fetch); it then costs nothing to take. */
struct task_strpool *task_set_pool(struct task_set *s);
/* The task of s whose ARN is arn / is t's (a task of another set); NULL if none, or
 * without an ARN. */
struct task *task_set_find(struct task_set *s, const char *arn);
struct task *task_set_find_task(struct task_set *s, const struct task *t);
/* Adds t, taking ownership of its contents (t is initialised again). Its pool's storage
 * moves into the set without a copy: a private pool whole, a batch pool's at the first of
 * its tasks taken (see the top of this file). To add a task held by another set, use
 * task_set_take_copy(). The derived fields are computed again. A
 * task whose ARN is already in the set is merged: the newer state wins (higher version,
 * else later fetched_at_ms, else more timestamps, else the later arrival) and fields only
 * one side has are kept (e.g. metadata Snapshotter onto a DescribeTasks task). A task
 * without ARN is added as is. Returns the task in the set. */
struct task *task_set_take(struct task_set *s, struct task *t);
/* task_set_take(), with *repeat (may be NULL) true when the set had the task already in
 * the same version (an at-least-once delivery repeating a state). One index probe for the
 * find and the insert. */
struct task *task_set_take_seen(struct task_set *s, struct task *t, bool *repeat);
/* task_set_take_seen() of t already derived (task_derive()) where it was read: a task new
 * to the set is not derived again, a merged one is (the input's workers derive their
 * tasks, so that the merge on the reading thread does not, issue 35). */
struct task *task_set_take_derived(struct task_set *s, struct task *t, bool *repeat);
/* What task_set_take_copy() remembers between the copies of one run from one set into
 * another (zero it first): the last task copied and its copy, so that what the next
 * task has in common with it (the same strings and arrays of the source set, as the tasks
 * of one service mostly have) is not looked up again. Valid while both sets live and
 * only tasks of the one source set are copied with it. */
struct task_copy_memo {
	struct task src, dst;
};
/* task_set_take() of a copy of src into s's pool: src is a task of another set, or a
 * shallow copy of one whose fields other than strings and arrays the caller changed (a
 * watch poll's task that did not change since the last poll). m may be NULL. */
struct task *task_set_take_copy(struct task_set *s, const struct task *src,
				struct task_copy_memo *m);
/* For a set read whole, before the work on it: drops the ARN index (8 to 16 bytes a
 * task; the next task_set_find() or take builds it again) and the tasks array's room to
 * grow, so that what a report allocates per task does not come on top (issue 35). The
 * first task_set_find() after it writes the index: not from two threads at once. */
void task_set_trim(struct task_set *s);
/* Removes tasks for which keep() returns false; keeps order. Their strings stay in the
 * pool until task_set_cleanup(). */
void task_set_filter(struct task_set *s, bool (*keep)(const struct task *, void *), void *ctx);

#endif
