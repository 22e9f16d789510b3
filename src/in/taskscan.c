/* taskscan: a one-pass reader of the line's bytes over jsonscan.c, which checks the JSON
 * as strictly as jansson does wherever it reads or skips; a key given twice (where
 * jansson keeps the last) ends the attempt too: a reader's own keys found so by its seen
 * bits, any other by jsonscan_key_other(). Field rules are input_fields.c's and
 * input_serving.c's: a value of a type they would warn about ends the attempt, so the
 * jansson path words the warning. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/input.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "input_int.h"
#include "ecsprof/jsonscan.h"
#include "taskscan.h"
#include "taskscan_time.h"

static int
str_or_null(struct jsonscan *sc, struct jsonscan_str *out)
{
	if (jsonscan_at(sc, 'n')) {
		out->s = NULL;
		out->n = 0;
		return jsonscan_word(sc, "null", 4);
	}
	if (jsonscan_string(sc, true, out) != 0 || out->n > INPUT_MAX_STRING)
		return -1;
	return 0;
}

static void
keep(struct task *t, const char **dst, const struct jsonscan_str *v)
{
	if (v->s != NULL)
		task_strn(t, dst, v->s, v->n);   /* the last value given, as input_get_str */
}

/* Any value; a string is kept in *out (decoded), anything else gives out->s NULL. */
static int
any_str(struct jsonscan *sc, struct jsonscan_str *out)
{
	out->s = NULL;
	if (jsonscan_at(sc, '"'))
		return jsonscan_string(sc, true, out);
	return jsonscan_skip(sc);
}

/* *dst = v's string in t's pool: had, (a string of the same pool, may be NULL) when it
 * is the same text, which interning would give too, without hashing it (the tasks of one
 * answer mostly share their cluster, task definition, group, statuses...). */
static inline void
keep_like(struct task *t, const char **dst, const char *had, const struct jsonscan_str *v)
{
	if (v->s != NULL && had != NULL && strncmp(had, v->s, v->n) == 0 && had[v->n] == '\0')
		*dst = had;
	else
		keep(t, dst, v);
}

/* ---- the task's arrays ------------------------------------------------------------ */

/* k's digest v: like's (the container at k's place in the task read before, in the same
 * pool; may be NULL) when it is the same text, which container_set_digest() would give
 * too (the same interned bytes or text), without decoding and interning it: the tasks of
 * a service mostly share their image (issue 35: 800 instructions a container). Tried only
 * after the same image (the caller's test): writing like's digest as text costs half a
 * decoding, lost on tasks of different images. */
static void
digest_like(struct task *t, struct container *k, const struct container *like,
	    const struct jsonscan_str *v)
{
	struct digest_buf db;
	const char *had = like != NULL ? container_digest(like, &db) : NULL;

	if (had != NULL && strncmp(had, v->s, v->n) == 0 && had[v->n] == '\0')
		k->digest_raw = like->digest_raw;
	else
		container_set_digest(t, k, v->s, v->n);
}

/* The 7 a container's profile keeps, then keys ECS gives every container that are only
 * skipped: looked up here, they are checked for a repeat by the seen bits, not by
 * jsonscan_key_other()'s filter (~75 instructions each, 4 a container, issue 35). */
static const struct jsonscan_key container_keys[] = { JSONSCAN_KEY("name"), JSONSCAN_KEY("image"), JSONSCAN_KEY("imageDigest"),
	JSONSCAN_KEY("lastStatus"), JSONSCAN_KEY("reason"), JSONSCAN_KEY("exitCode"), JSONSCAN_KEY("healthStatus"),
	JSONSCAN_KEY("containerArn"), JSONSCAN_KEY("taskArn"), JSONSCAN_KEY("runtimeId"), JSONSCAN_KEY("networkBindings"),
	JSONSCAN_KEY("networkInterfaces"), JSONSCAN_KEY("managedAgents"), JSONSCAN_KEY("cpu"), JSONSCAN_KEY("memory") };

/* like: the container at k's place in the task read before into the same pool, or NULL:
 * its strings are taken where they are the same text (keep_like) */
static int
one_container(struct jsonscan *sc, struct task *t, struct container *k,
	      const struct container *like)
{
	/* a draft of its own (object_array zeroed k), shared with the array (place_containers) */
	struct container_profile *p;
	const char **strs[5];
	const struct container_profile *lp = like != NULL ? like->prof : &container_profile_none;
	const char *had[5] = { lp->name, lp->image, NULL, lp->last_status, lp->reason };
	struct jsonscan_str key, v;
	uint64_t seen = 0;
	int m;

	k->prof = &container_profile_none;
	p = container_edit_profile(t, k);
	strs[0] = &p->name;
	strs[1] = &p->image;
	strs[2] = NULL;   /* the digest: container_set_digest() */
	strs[3] = &p->last_status;
	strs[4] = &p->reason;

	for (bool first = true; (m = jsonscan_member_key(sc, first, &key)) == 1; first = false) {
		int i = jsonscan_lookup(&key, container_keys,
					(int)(sizeof container_keys / sizeof container_keys[0]), &seen);
		bool is_int;
		int64_t iv;
		double dv;

		if (i == -2)
			return -1;
		if (i >= 0 && i < 5) {
			if (str_or_null(sc, &v) != 0)
				return -1;
			if (i != 2)
				keep_like(t, strs[i], had[i], &v);
			else if (v.s != NULL && p->image != NULL && p->image == lp->image)
				digest_like(t, k, like, &v);   /* the last value given, as keep() */
			else if (v.s != NULL)
				container_set_digest(t, k, v.s, v.n);
		} else if (i == 5) {
			if (jsonscan_at(sc, 'n')) {
				if (jsonscan_word(sc, "null", 4) != 0)
					return -1;
				continue;
			}
			if (jsonscan_number(sc, &is_int, &iv, &dv) != 0 || !is_int ||
			    iv < INT32_MIN || iv > INT32_MAX)
				return -1;
			k->has_exit_code = true;
			k->exit_code = (int)iv;
		} else if (i == 6) {
			/* input_serving: lenient, a string or nothing */
			if (any_str(sc, &v) != 0)
				return -1;
			keep_like(t, &p->health_status, lp->health_status, &v);
		} else if ((i < 0 && jsonscan_key_other(sc, &key) != 0) || jsonscan_skip(sc) != 0) {
			return -1;   /* i >= 7: a key only skipped, its repeat seen */
		}
	}
	return m;
}

/* null or an array of objects (get_array); each element read by fn into the n-th slot of
 * a growing array of size `size` (with prev, the task read before into the same pool, or
 * NULL, and n); more than max elements are for jansson's reader, which says why it
 * refuses them */
static int
object_array(struct jsonscan *sc, void (*place)(struct task *, void *, size_t), size_t size,
	     size_t max, int (*fn)(struct jsonscan *, struct task *, void *,
				   const struct task *, size_t),
	     struct task *t, const struct task *prev)
{
	/* read into scratch, then one array of the right size in t's pool (shared with
	 * its tasks that have the same) */
	_Alignas(16) char local[8 * sizeof(struct container)];
	char *arr = local;
	size_t count = 0, cap = sizeof local / size;
	int e;

	if (jsonscan_at(sc, 'n'))
		return jsonscan_word(sc, "null", 4);
	for (bool first = true; (e = jsonscan_element(sc, first)) == 1; first = false) {
		if (!jsonscan_at(sc, '{')) {
			e = -1;   /* get_array warns about a non-object */
			break;
		}
		if (count == max) {
			e = -1;
			break;
		}
		if (count == cap) {
			cap *= 2;
			arr = arr == local ? memcpy(xreallocarray(NULL, cap, size), local, count * size)
					   : xreallocarray(arr, cap, size);
		}
		memset(arr + count * size, 0, size);
		if (fn(sc, t, arr + count * size, prev, count) != 0) {
			e = -1;
			break;
		}
		count++;
	}
	if (e == 0 && count > 0)
		place(t, arr, count);
	if (arr != local)
		free(arr);
	return e;
}

static void
place_containers(struct task *t, void *v, size_t n)
{
	task_share_containers(t, v, n);
}

static void
place_tags(struct task *t, void *v, size_t n)
{
	task_share_tags(t, v, n);
}

static int
container_fn(struct jsonscan *sc, struct task *t, void *slot, const struct task *prev, size_t i)
{
	return one_container(sc, t, slot, prev != NULL && i < prev->ncontainers ?
					  &prev->containers[i] : NULL);
}

static const struct jsonscan_key tag_keys[] = { JSONSCAN_KEY("key"), JSONSCAN_KEY("value") };

static int
tag_fn(struct jsonscan *sc, struct task *t, void *slot, const struct task *prev, size_t n)
{
	struct tag *g = slot;
	/* the tag at its place in the task read before: its texts where they are the same */
	const struct tag *like = prev != NULL && n < prev->prof->ntags ? &prev->prof->tags[n] : NULL;
	struct jsonscan_str key, v;
	uint64_t seen = 0;
	int m;

	for (bool first = true; (m = jsonscan_member_key(sc, first, &key)) == 1; first = false) {
		int i = jsonscan_lookup(&key, tag_keys, 2, &seen);

		if (i == -2)
			return -1;
		if (i < 0) {
			if (jsonscan_key_other(sc, &key) != 0 || jsonscan_skip(sc) != 0)
				return -1;
			continue;
		}
		if (str_or_null(sc, &v) != 0)
			return -1;
		keep_like(t, i == 0 ? &g->key : &g->value,
			  like == NULL ? NULL : i == 0 ? like->key : like->value, &v);
	}
	return m;
}

/* serving_is_public_name's names, with their lengths known at compile time: a strlen of
 * each for each name read was 330k calls at 20k tasks. The lengths differ, so at most one
 * strncasecmp runs, and none for a name that does not start with p or P (subnetId and
 * macAddress have the lengths of two of them): only those two bytes fold to 'p'. */
static bool
public_name(const struct jsonscan_str *n)
{
	static const struct jsonscan_key names[] = { JSONSCAN_KEY("publicIPv4Address"),
		JSONSCAN_KEY("publicIp"), JSONSCAN_KEY("publicIpAddress"), JSONSCAN_KEY("publicIPv4") };

	if (n->n == 0 || (n->s[0] | 0x20) != 'p')
		return false;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].n == n->n && strncasecmp(names[i].s, n->s, n->n) == 0)
			return true;
	return false;
}

static const struct jsonscan_key pair_keys[] = { JSONSCAN_KEY("name"), JSONSCAN_KEY("value") };

/* {"name": ..., "value": ...}: *is_name when name is the string `want` (or, want NULL, a
 * public address name); *value_ok when value is a non-empty string, its text in *value
 * (valid until the next string is read). want's length is known and it holds no NUL, so
 * a name of equal bytes holds none either: no memchr for one. */
static int
name_value(struct jsonscan *sc, const struct jsonscan_key *want, bool *is_name, bool *value_ok,
	   struct jsonscan_str *value)
{
	struct jsonscan_str key, v;
	uint64_t seen = 0;
	int m;

	*is_name = *value_ok = false;
	if (!jsonscan_at(sc, '{'))
		return jsonscan_skip(sc);   /* json_object_get on a non-object: nothing */
	for (bool first = true; (m = jsonscan_member_key(sc, first, &key)) == 1; first = false) {
		int i = jsonscan_lookup(&key, pair_keys, 2, &seen);

		if (i == -2)
			return -1;
		if (i < 0) {
			if (jsonscan_key_other(sc, &key) != 0 || jsonscan_skip(sc) != 0)
				return -1;
			continue;
		}
		if (any_str(sc, &v) != 0)
			return -1;
		if (i == 0) {
			*is_name = v.s != NULL && (want != NULL ?
				   (v.n == want->n && mem_eq(v.s, want->s, v.n)) :
				   public_name(&v));
		} else {
			/* a decoded value would not outlive the name's decoding: jansson's */
			if (v.s == sc->buf)
				return -1;
			*value_ok = v.s != NULL;
			*value = v;
		}
	}
	return m;
}

static const struct jsonscan_key attachment_keys[] = { JSONSCAN_KEY("type"), JSONSCAN_KEY("details") };

/* serving_attachments: awsvpc and public_ip of one element of "attachments" */
static int
one_attachment(struct jsonscan *sc, bool *eni, bool *public)
{
	struct jsonscan_str key, v;
	uint64_t seen = 0;
	int m;

	*eni = *public = false;
	if (!jsonscan_at(sc, '{'))
		return jsonscan_skip(sc);
	for (bool first = true; (m = jsonscan_member_key(sc, first, &key)) == 1; first = false) {
		int i = jsonscan_lookup(&key, attachment_keys, 2, &seen), e;

		if (i == -2)
			return -1;
		if (i == 0) {
			if (any_str(sc, &v) != 0)
				return -1;
			*eni = v.s != NULL && ((v.n == 23 && memcmp(v.s, "ElasticNetworkInterface", 23) == 0) ||
					      (v.n == 3 && memcmp(v.s, "eni", 3) == 0));
		} else if (i == 1 && jsonscan_at(sc, '[')) {
			for (bool first_d = true; (e = jsonscan_element(sc, first_d)) == 1; first_d = false) {
				bool is_pub, ok;

				if (name_value(sc, NULL, &is_pub, &ok, &v) != 0)
					return -1;
				if (is_pub && ok && v.n > 0)
					*public = true;
			}
			if (e != 0)
				return -1;
		} else if ((i < 0 && jsonscan_key_other(sc, &key) != 0) || jsonscan_skip(sc) != 0) {
			return -1;
		}
	}
	return m;
}

static int
attachments(struct jsonscan *sc, struct task *t)
{
	int e;

	if (!jsonscan_at(sc, '['))
		return jsonscan_skip(sc);   /* not an array: nothing said */
	t->awsvpc = TRI_NO;
	for (bool first = true; (e = jsonscan_element(sc, first)) == 1; first = false) {
		bool eni, pub;

		if (one_attachment(sc, &eni, &pub) != 0)
			return -1;
		if (eni) {
			t->awsvpc = TRI_YES;
			if (pub)
				t->public_ip = TRI_YES;
		}
	}
	return e;
}

/* the first "ecs.cpu-architecture" attribute with a string value */
static int
attributes(struct jsonscan *sc, struct task *t)
{
	static const struct jsonscan_key arch = JSONSCAN_KEY("ecs.cpu-architecture");
	int e;

	if (!jsonscan_at(sc, '['))
		return jsonscan_skip(sc);
	for (bool first = true; (e = jsonscan_element(sc, first)) == 1; first = false) {
		bool is_arch, ok;
		struct jsonscan_str v;

		if (name_value(sc, &arch, &is_arch, &ok, &v) != 0)
			return -1;
		if (is_arch && ok && t->prof->cpu_arch == NULL)
			keep(t, &task_edit_profile(t)->cpu_arch, &v);
	}
	return e;
}

/* ---- the task ------------------------------------------------------------------------ */

/* input_fields.c's task_strings, in its order */
static const struct jsonscan_key task_keys[] = {
	JSONSCAN_KEY("taskArn"), JSONSCAN_KEY("clusterArn"), JSONSCAN_KEY("taskDefinitionArn"), JSONSCAN_KEY("group"), JSONSCAN_KEY("startedBy"),
	JSONSCAN_KEY("launchType"), JSONSCAN_KEY("platformVersion"), JSONSCAN_KEY("platformFamily"), JSONSCAN_KEY("capacityProviderName"),
	JSONSCAN_KEY("availabilityZone"), JSONSCAN_KEY("cpu"), JSONSCAN_KEY("memory"), JSONSCAN_KEY("lastStatus"), JSONSCAN_KEY("desiredStatus"),
	JSONSCAN_KEY("stopCode"), JSONSCAN_KEY("stoppedReason"), JSONSCAN_KEY("healthStatus"),
	/* 17.. */
	JSONSCAN_KEY("version"), JSONSCAN_KEY("containers"), JSONSCAN_KEY("tags"), JSONSCAN_KEY("attachments"), JSONSCAN_KEY("attributes"),
	/* 22..: ts_defs' json names */
	JSONSCAN_KEY("createdAt"), JSONSCAN_KEY("connectivityAt"), JSONSCAN_KEY("pullStartedAt"), JSONSCAN_KEY("pullStoppedAt"),
	JSONSCAN_KEY("startedAt"), JSONSCAN_KEY("stoppingAt"), JSONSCAN_KEY("executionStoppedAt"), JSONSCAN_KEY("stoppedAt"), JSONSCAN_KEY("healthyAt"),
	/* 31..: keys of ECS's tasks the model does not keep, only skipped: looked up here,
	 * a repeat of one is found by the seen bits, not by jsonscan_key_other()'s filter
	 * (~75 instructions each, issue 35) */
	JSONSCAN_KEY("overrides"), JSONSCAN_KEY("connectivity"), JSONSCAN_KEY("containerInstanceArn"),
	JSONSCAN_KEY("enableExecuteCommand"), JSONSCAN_KEY("ephemeralStorage"), JSONSCAN_KEY("fargateEphemeralStorage"),
	JSONSCAN_KEY("inferenceAccelerators"),
};
#define K_VERSION 17
#define K_TS 22
#define K_SKIP 31
#define NKEYS ((int)(sizeof task_keys / sizeof task_keys[0]))
/* task_keys by a hash of their bytes: [h] is i + 1 for the key task_keys[i] whose hash is
 * h, 0 for none (written out, as C cannot compute it; taskscan_keys_check() and
 * tests/test_taskscan.c hold it to task_keys). A task has some 35 keys, a third of them
 * none of these: a key is compared with the one candidate its hash names, where trying
 * every key of its length (1 to 6 of them) cost 42 instructions a key, 1,100 a task. The
 * hash reads the first and the last 8 bytes (4, or 1, of a shorter key), which tell the 38
 * keys apart (startedAt and stoppedAt have the same length and ends); the multiplier was
 * searched for one that gives them 38 slots of 64 (a random search, some 650,000 tries). */
#define KEYS_MAXLEN 23
#define KEYS_HASH_BITS 6
#define KEYS_HASH_MUL 0x1cb7dd35bea5bdd1ULL
_Static_assert(KEYS_MAXLEN <= 24, "key_eq() compares up to 24 bytes");
static const unsigned char task_keys_by_hash[1 << KEYS_HASH_BITS] = {
	17, 18, 16, 0, 0, 19, 10, 0, 38, 0, 7, 21, 22, 0, 35, 0, 30, 5, 34, 0, 8, 0, 0, 14,
	3, 0, 29, 31, 0, 0, 26, 0, 0, 9, 0, 0, 15, 27, 0, 37, 28, 0, 0, 0, 23, 0, 1, 0,
	0, 11, 2, 20, 0, 13, 33, 24, 25, 12, 32, 0, 6, 0, 4, 36,
};

static inline uint64_t
load8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

static inline uint32_t
load4(const char *p)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return x;
}

/* the slot of a key of n bytes, 1 <= n <= KEYS_MAXLEN (reads only its n bytes) */
static inline unsigned
key_hash(const char *s, size_t n)
{
	uint64_t x;

	if (n >= 8) {
		uint64_t b = load8(s + n - 8);

		x = load8(s) ^ ((b << 17) | (b >> 47));
	} else if (n >= 4) {
		x = load4(s) ^ ((uint64_t)load4(s + n - 4) << 29);
	} else {
		x = (unsigned char)s[0];
	}
	return (unsigned)(((x ^ n) * KEYS_HASH_MUL) >> (64 - KEYS_HASH_BITS));
}

int
taskscan_keys_check(void)
{
	unsigned char m[1 << KEYS_HASH_BITS] = { 0 };

	for (int i = 0; i < NKEYS; i++) {
		unsigned h;

		if (task_keys[i].n == 0 || task_keys[i].n > KEYS_MAXLEN)
			return -1;
		h = key_hash(task_keys[i].s, task_keys[i].n);
		if (m[h] != 0)
			return -1;   /* two keys in one slot */
		m[h] = (unsigned char)(i + 1);
	}
	return memcmp(m, task_keys_by_hash, sizeof m) == 0 ? 0 : -1;
}

/* a and b the same n bytes, n <= 24 (KEYS_MAXLEN), in a few loads that may overlap: a
 * call to memcmp for each key of a task and each of its length was 2% of a live run's
 * instructions */
static inline bool
key_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		if (load8(a) != load8(b) || load8(a + n - 8) != load8(b + n - 8))
			return false;
		return n <= 16 || load8(a + 8) == load8(b + 8);
	}
	if (n >= 4)
		return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* jsonscan_lookup() over task_keys, comparing key with the one key of its hash */
static int
task_key(const struct jsonscan_str *key, uint64_t *seen)
{
	int i;

	if (key->n == 0 || key->n > KEYS_MAXLEN)
		return -1;
	i = task_keys_by_hash[key_hash(key->s, key->n)] - 1;
	if (i < 0 || task_keys[i].n != key->n || !key_eq(task_keys[i].s, key->s, key->n))
		return -1;
	if (*seen & ((uint64_t)1 << i))
		return -2;
	*seen |= (uint64_t)1 << i;
	return i;
}

/* where task_keys[i]'s string is in a task's profile (0 < i < K_VERSION; 0, taskArn, is
 * the task's own) */
static const size_t task_field_at[] = {
	0, offsetof(struct task_profile, cluster_arn),
	offsetof(struct task_profile, taskdef_arn), offsetof(struct task_profile, group),
	offsetof(struct task_profile, started_by), offsetof(struct task_profile, launch_type),
	offsetof(struct task_profile, platform_version),
	offsetof(struct task_profile, platform_family),
	offsetof(struct task_profile, capacity_provider),
	offsetof(struct task_profile, availability_zone),
	offsetof(struct task_profile, cpu), offsetof(struct task_profile, memory),
	offsetof(struct task_profile, last_status), offsetof(struct task_profile, desired_status),
	offsetof(struct task_profile, stop_code), offsetof(struct task_profile, stopped_reason),
	offsetof(struct task_profile, health_status)
};
_Static_assert(sizeof task_field_at / sizeof *task_field_at == K_VERSION,
	       "a string field for each string key of task_keys");

/* a string field of t's profile: i > 0 (0, taskArn, is task_set_arn()'s) */
static const char **
task_field(struct task *t, int i)
{
	return (const char **)(void *)((char *)task_edit_profile(t) + task_field_at[i]);
}

static const char *
task_field_value(const struct task *t, int i)
{
	return *(const char *const *)(const void *)((const char *)t->prof + task_field_at[i]);
}

/* prev: the task read before t into the same pool (may be NULL) */
static int
task_object(struct jsonscan *sc, struct task *t, const struct task *prev)
{
	struct jsonscan_str key, v;
	uint64_t seen = 0;
	int m;

	for (bool first = true; (m = jsonscan_member_key(sc, first, &key)) == 1; first = false) {
		int i = task_key(&key, &seen);
		bool is_int;
		int64_t iv;
		double dv;

		if (i == -2)
			return -1;
		if (i < 0) {
			/* a key the model does not keep: checked for a repeat, its value skipped */
			if (jsonscan_key_other(sc, &key) != 0 || jsonscan_skip(sc) != 0)
				return -1;
		} else if (i < K_VERSION) {
			if (str_or_null(sc, &v) != 0)
				return -1;
			if (i == 0) {
				/* the last value given, as keep() */
				if (v.s != NULL)
					task_set_arn_like(t, v.s, v.n, prev);
			} else if (prev != NULL)
				keep_like(t, task_field(t, i),
					  task_field_value(prev, i), &v);
			else
				keep(t, task_field(t, i), &v);
		} else if (i == K_VERSION) {
			if (jsonscan_at(sc, 'n')) {
				if (jsonscan_word(sc, "null", 4) != 0)
					return -1;
				continue;
			}
			if (jsonscan_number(sc, &is_int, &iv, &dv) != 0 || !is_int)
				return -1;
			t->has_version = true;
			t->version = iv;
		} else if (i == K_VERSION + 1) {
			if (object_array(sc, place_containers, sizeof *t->containers, TASK_MAX_CONTAINERS,
					 container_fn, t, prev) != 0)
				return -1;
		} else if (i == K_VERSION + 2) {
			if (object_array(sc, place_tags, sizeof *t->prof->tags, SIZE_MAX, tag_fn, t,
					 prev) != 0)
				return -1;
		} else if (i == K_VERSION + 3) {
			if (attachments(sc, t) != 0)
				return -1;
		} else if (i == K_VERSION + 4) {
			if (attributes(sc, t) != 0)
				return -1;
		} else if (i >= K_SKIP) {
			if (jsonscan_skip(sc) != 0)
				return -1;
		} else {
			int64_t ms = task_ts(t, i - K_TS);

			if (taskscan_time(sc, &ms) != 0)
				return -1;
			task_set_ts(t, i - K_TS, ms);
		}
	}
	return m;
}

/* ---- the line: an event or a recording's task line --------------------------------- */

static const struct jsonscan_key line_keys[] = { JSONSCAN_KEY("detail-type"), JSONSCAN_KEY("detail"), JSONSCAN_KEY("ecsprof"),
	JSONSCAN_KEY("task"), JSONSCAN_KEY("fetched_at"), JSONSCAN_KEY("healthy_at"), JSONSCAN_KEY("healthy_resolution_ms") };
enum { L_DETAIL_TYPE, L_DETAIL, L_ECSPROF, L_TASK, L_FETCHED, L_HEALTHY, L_RESOLUTION };

/* input_serving_record's serving_time: lenient, any value; *ok when it is a time */
static int
healthy_value(struct jsonscan *sc, bool *ok, int64_t *out)
{
	struct jsonscan_str v;
	bool is_int;
	int64_t iv;
	double secs;

	*ok = false;
	if (jsonscan_at(sc, '"')) {
		if (jsonscan_string(sc, true, &v) != 0)
			return -1;
		if (v.n >= TASKSCAN_ISO_MAX)
			return -1;   /* a long string: the jansson path decides */
		if (timeutil_parse_iso8601n(v.s, v.n, &iv) == 0) {
			*ok = iv >= 0;   /* no ECS time before 1970 */
			if (*ok)
				*out = iv;
			return 0;
		}
		/* a NUL fails the parse here but cuts the string short on the jansson path,
		 * which decides (looked for only after a failure: rare) */
		return memchr(v.s, '\0', v.n) != NULL ? -1 : 0;
	}
	if (jsonscan_at(sc, '-') || (sc->p < sc->end && *sc->p >= '0' && *sc->p <= '9')) {
		if (jsonscan_number(sc, &is_int, &iv, &secs) != 0)
			return -1;
		*ok = timeutil_epoch_seconds_to_ms(is_int ? (double)iv : secs, out) == 0;
		return 0;
	}
	return jsonscan_skip(sc);
}

static int
whole_line(struct jsonscan *sc, struct task *t, enum origin *origin)
{
	struct jsonscan_str key, v;
	uint64_t seen = 0;
	bool task_event = false, record = false, healthy = false;
	int64_t fetched = TS_NONE, healthy_at = TS_NONE, resolution = 0;
	int m;

	for (bool first = true; (m = jsonscan_member_key(sc, first, &key)) == 1; first = false) {
		int i = jsonscan_lookup(&key, line_keys, 7, &seen);
		bool is_int;
		int64_t iv;
		double dv;

		switch (i) {
		case -2:
			return -1;   /* a key twice: jansson keeps the last */
		case L_DETAIL_TYPE:
		case L_ECSPROF:
			if (!jsonscan_at(sc, '"') || jsonscan_string(sc, true, &v) != 0)
				return -1;
			if (i == L_DETAIL_TYPE)
				task_event = v.n == strlen(TASK_EVENT) &&
					     memcmp(v.s, TASK_EVENT, v.n) == 0;
			else
				record = v.n == strlen(RECORD_TAG) &&
					 memcmp(v.s, RECORD_TAG, v.n) == 0;
			break;
		case L_DETAIL:
		case L_TASK:
			/* both in one line: only one is the task, and that is jansson's call */
			if ((seen & (1u << L_DETAIL)) && (seen & (1u << L_TASK)))
				return -1;
			if (!jsonscan_at(sc, '{') || task_object(sc, t, NULL) != 0)
				return -1;
			break;
		case L_FETCHED:
			if (taskscan_time(sc, &fetched) != 0)
				return -1;
			break;
		case L_HEALTHY:
			if (healthy_value(sc, &healthy, &healthy_at) != 0)
				return -1;
			break;
		case L_RESOLUTION:
			if (jsonscan_at(sc, '-') || (sc->p < sc->end && *sc->p >= '0' && *sc->p <= '9')) {
				if (jsonscan_number(sc, &is_int, &iv, &dv) != 0)
					return -1;
				resolution = is_int && iv >= 0 ? iv : 0;
			} else if (jsonscan_skip(sc) != 0) {
				return -1;
			}
			break;
		default:
			if (jsonscan_key_other(sc, &key) != 0 || jsonscan_skip(sc) != 0)
				return -1;
			break;
		}
	}
	jsonscan_ws(sc);
	if (m != 0 || sc->p != sc->end)
		return -1;
	if (seen & (1u << L_ECSPROF)) {
		/* a recording line (shape_of looks at "ecsprof" first): one_record's task */
		if (!record || !(seen & (1u << L_TASK)))
			return -1;
		task_set_ts(t, TS_FETCHED, fetched);
		if (healthy) {   /* input_serving_record */
			task_set_ts(t, TS_HEALTHY, healthy_at);
			t->healthy_observed = true;
			t->healthy_resolution_ms = task_resolution_ms(resolution);
		}
		*origin = ORIGIN_RECORD;
		return 0;
	}
	if (!task_event || !(seen & (1u << L_DETAIL)) || (seen & (1u << L_TASK)))
		return -1;
	task_set_ts(t, TS_FETCHED, TS_NONE);   /* as one_task() sets it for an event */
	*origin = ORIGIN_EVENT;
	return 0;
}

int
taskscan_line(const char *line, size_t len, char *buf, struct task *t, enum origin *origin)
{
	struct jsonscan_dup dup;   /* only the counts of open objects are set */
	struct jsonscan sc = { line, line + len, buf, 0, &dup };

	jsonscan_ws(&sc);
	if (whole_line(&sc, t, origin) == 0)
		return 0;
	task_reset(t);
	return -1;
}

static int
task_text(const char *json, size_t len, char *buf, struct task *t, struct jsonscan_dup *dup)
{
	struct jsonscan sc = { json, json + len, buf, 0, dup };

	jsonscan_ws(&sc);
	if (task_object(&sc, t, NULL) == 0) {
		jsonscan_ws(&sc);
		if (sc.p == sc.end)
			return 0;
	}
	task_reset(t);
	return -1;
}

int
taskscan_task_at(struct jsonscan *sc, struct task *t, const struct task *prev)
{
	if (task_object(sc, t, prev) == 0)
		return 0;
	task_reset(t);
	return -1;
}

int
taskscan_task(const char *json, size_t len, char *buf, struct task *t)
{
	struct jsonscan_dup dup;   /* only the counts of open objects are set */

	return task_text(json, len, buf, t, &dup);
}

int
taskscan_task_unique(const char *json, size_t len, char *buf, struct task *t)
{
	return task_text(json, len, buf, t, NULL);
}
