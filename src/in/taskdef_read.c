/* taskdef_read: the task definition JSON (register-task-definition's input or
 * DescribeTaskDefinition's answer) into a plain struct taskdef. jansson stays in this
 * file: every value is copied out and the DOM freed before returning. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/buf.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/taskdef_read.h"
#include "ecsprof/xalloc.h"

/* ECS's Integer is 32 bits: a larger number is not one it would take. */
#define TD_INT_MAX 2147483647LL

struct rd {
	const char *file;
	struct err *err;
	bool failed;            /* read_objects() failed: err says why */
};

static int
bad(struct rd *r, const char *path, const char *what)
{
	return err_set(r->err, ERR_PARSE, "%s: %s: %s", r->file, path, what);
}

static const char *
json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static int
wrong_type(struct rd *r, const char *path, const char *want, const json_t *v)
{
	char msg[96];

	snprintf(msg, sizeof msg, "expected %s, got %s", want, json_kind(v));
	return bad(r, path, msg);
}

/* path of member key under prefix ("" at the top); keys and prefixes are this file's
 * own words, far shorter than the cuts, which only keep the compiler's bound checks */
static void
member_path(char *out, size_t size, const char *prefix, const char *key)
{
	snprintf(out, size, "%.150s%s%.100s", prefix, prefix[0] ? "." : "", key);
}

/* json null counts as absent, as the AWS CLI reads it */
static const json_t *
member(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return v != NULL && !json_is_null(v) ? v : NULL;
}

/* Member key when it is there and of type want_type (JSON_TRUE stands for either boolean):
 * *out NULL when absent, an error naming its path and want when of another type. */
static int
get_typed(struct rd *r, const json_t *obj, const char *prefix, const char *key,
	  json_type want_type, const char *want, const json_t **out)
{
	const json_t *v = member(obj, key);
	char path[256];
	bool ok;

	*out = NULL;
	if (v == NULL)
		return 0;
	ok = want_type == JSON_TRUE ? json_is_boolean(v) : json_typeof(v) == want_type;
	if (!ok) {
		member_path(path, sizeof path, prefix, key);
		return wrong_type(r, path, want, v);
	}
	*out = v;
	return 0;
}

static int
get_str(struct rd *r, const json_t *obj, const char *prefix, const char *key, char **out)
{
	const json_t *v;

	if (get_typed(r, obj, prefix, key, JSON_STRING, "a string", &v) != 0)
		return -1;
	if (v != NULL) {
		free(*out);
		*out = xstrdup(json_string_value(v));
	}
	return 0;
}

static int
get_int(struct rd *r, const json_t *obj, const char *prefix, const char *key, long *out)
{
	const json_t *v;
	char path[256];
	json_int_t n;

	if (get_typed(r, obj, prefix, key, JSON_INTEGER, "a whole number", &v) != 0)
		return -1;
	if (v == NULL)
		return 0;
	n = json_integer_value(v);
	if (n < 0 || n > TD_INT_MAX) {
		member_path(path, sizeof path, prefix, key);
		return bad(r, path, "a whole number from 0 to 2147483647 (ECS's Integer)");
	}
	*out = (long)n;
	return 0;
}

static int
get_bool(struct rd *r, const json_t *obj, const char *prefix, const char *key,
	 enum taskdef_flag *out)
{
	const json_t *v;

	if (get_typed(r, obj, prefix, key, JSON_TRUE, "true or false", &v) != 0)
		return -1;
	if (v != NULL)
		*out = json_is_true(v) ? TD_FLAG_TRUE : TD_FLAG_FALSE;
	return 0;
}

static int
get_flag(struct rd *r, const json_t *obj, const char *prefix, const char *key, bool *out)
{
	enum taskdef_flag f = TD_FLAG_UNSET;

	if (get_bool(r, obj, prefix, key, &f) != 0)
		return -1;
	*out = f == TD_FLAG_TRUE;
	return 0;
}

/* An array member: NULL when absent; an error when something else. */
static int
get_array(struct rd *r, const json_t *obj, const char *prefix, const char *key,
	  const json_t **out)
{
	return get_typed(r, obj, prefix, key, JSON_ARRAY, "an array", out);
}

static int
get_object(struct rd *r, const json_t *obj, const char *prefix, const char *key,
	   const json_t **out)
{
	return get_typed(r, obj, prefix, key, JSON_OBJECT, "an object", out);
}

static int
count_array(struct rd *r, const json_t *obj, const char *prefix, const char *key, size_t *n)
{
	const json_t *a;

	if (get_array(r, obj, prefix, key, &a) != 0)
		return -1;
	*n = a != NULL ? json_array_size(a) : 0;
	return 0;
}

/* Element i of array member key must be an object; its path into out. */
static int
element(struct rd *r, const json_t *a, size_t i, const char *prefix, const char *key,
	char *out, size_t size, const json_t **el)
{
	snprintf(out, size, "%s%s%s[%zu]", prefix, prefix[0] ? "." : "", key, i);
	*el = json_array_get(a, i);
	if (!json_is_object(*el))
		return wrong_type(r, out, "an object", *el);
	return 0;
}

static int
get_strings(struct rd *r, const json_t *obj, const char *prefix, const char *key,
	    char ***out, size_t *n)
{
	const json_t *a;
	char path[256];

	if (get_array(r, obj, prefix, key, &a) != 0)
		return -1;
	if (a == NULL)
		return 0;
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);

		snprintf(path, sizeof path, "%s%s%s[%zu]", prefix, prefix[0] ? "." : "", key, i);
		if (!json_is_string(v))
			return wrong_type(r, path, "a string", v);
		(*out)[(*n)++] = xstrdup(json_string_value(v));
	}
	return 0;
}

/* Digits, else a decimal followed by the unit word ("vcpu", "gb"), spaces allowed. */
static long
parse_size(const char *s, const char *unit, long per_unit)
{
	char *end;
	double v;

	if (s == NULL)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !isfinite(v) || v < 0 || v > (double)TD_INT_MAX)
		return -1;
	while (*end == ' ')
		end++;
	if (*end == '\0') {
		if (v != floor(v) || strpbrk(s, ".eE") != NULL)
			return -1;
		return (long)v;
	}
	if (strcasecmp(end, unit) != 0 || v * per_unit > (double)TD_INT_MAX)
		return -1;
	return (long)llround(v * per_unit);
}

long
taskdef_parse_cpu(const char *s)
{
	return parse_size(s, "vcpu", 1024);
}

long
taskdef_parse_memory(const char *s)
{
	return parse_size(s, "gb", 1024);
}

/* cpu/memory: RegisterTaskDefinition takes a string ("2 vCPU", "8 GB", "2048"); the
 * container's are numbers; either is read here. */
static int
get_size(struct rd *r, const json_t *obj, const char *prefix, const char *key, bool cpu,
	 char **text, long *out)
{
	const json_t *v = member(obj, key);
	char path[256], num[32];
	const char *s;

	if (v == NULL)
		return 0;
	member_path(path, sizeof path, prefix, key);
	if (json_is_integer(v)) {
		snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
		s = num;
	} else if (json_is_string(v)) {
		s = json_string_value(v);
	} else {
		return wrong_type(r, path, "a number or a string", v);
	}
	*out = cpu ? taskdef_parse_cpu(s) : taskdef_parse_memory(s);
	if (*out < 0)
		return bad(r, path, cpu ? "expected CPU units (1024) or vCPUs (\"1 vCPU\")"
				       : "expected MiB (2048) or GB (\"2 GB\")");
	if (text != NULL) {
		free(*text);
		*text = xstrdup(s);
	}
	return 0;
}

static int
read_health(struct rd *r, const json_t *obj, const char *prefix, struct taskdef_health *h)
{
	const json_t *hc;
	char path[256];

	h->interval_s = h->timeout_s = h->retries = h->start_period_s = TASKDEF_UNSET;
	if (get_object(r, obj, prefix, "healthCheck", &hc) != 0)
		return -1;
	if (hc == NULL)
		return 0;
	h->set = true;
	member_path(path, sizeof path, prefix, "healthCheck");
	if (count_array(r, hc, path, "command", &h->ncommand) != 0 ||
	    get_int(r, hc, path, "interval", &h->interval_s) != 0 ||
	    get_int(r, hc, path, "timeout", &h->timeout_s) != 0 ||
	    get_int(r, hc, path, "retries", &h->retries) != 0 ||
	    get_int(r, hc, path, "startPeriod", &h->start_period_s) != 0)
		return -1;
	return 0;
}

static int
read_linux(struct rd *r, const json_t *obj, const char *prefix, struct taskdef_container *c)
{
	const json_t *lp, *caps;
	char path[256], cpath[256];
	long n = TASKDEF_UNSET;
	size_t ntmpfs = 0;

	if (get_object(r, obj, prefix, "linuxParameters", &lp) != 0)
		return -1;
	if (lp == NULL)
		return 0;
	c->linux_parameters = true;
	member_path(path, sizeof path, prefix, "linuxParameters");
	if (count_array(r, lp, path, "devices", &c->ndevices) != 0 ||
	    get_int(r, lp, path, "sharedMemorySize", &n) != 0)
		return -1;
	c->shared_memory_size = n != TASKDEF_UNSET;
	if (count_array(r, lp, path, "tmpfs", &ntmpfs) != 0)
		return -1;
	c->tmpfs = ntmpfs > 0;
	n = TASKDEF_UNSET;
	if (get_int(r, lp, path, "maxSwap", &n) != 0)
		return -1;
	c->max_swap = n != TASKDEF_UNSET;
	n = TASKDEF_UNSET;
	if (get_int(r, lp, path, "swappiness", &n) != 0)
		return -1;
	c->swappiness = n != TASKDEF_UNSET;
	if (get_object(r, lp, path, "capabilities", &caps) != 0)
		return -1;
	member_path(cpath, sizeof cpath, path, "capabilities");
	if (caps != NULL && get_strings(r, caps, cpath, "add", &c->cap_add, &c->ncap_add) != 0)
		return -1;
	return 0;
}

/* One object of an array member: item is its slot (zeroed), path its JSON path. */
typedef int item_fn(struct rd *r, const json_t *el, const char *path, void *item);

/* Array member key of objects, each read by fn into its slot of the array of *n items of
 * size bytes returned (NULL when absent; size 0: no array, each item is arg). A failure
 * sets r->failed, after which it reads nothing more; *n counts an item before it is
 * read, so the caller keeps what it returns and frees it as usual. */
static void *
read_objects(struct rd *r, const json_t *obj, const char *prefix, const char *key,
	     size_t size, size_t *n, item_fn *fn, void *arg)
{
	const json_t *a, *el;
	char path[256];
	char *v = NULL;

	if (r->failed || get_array(r, obj, prefix, key, &a) != 0) {
		r->failed = true;
		return NULL;
	}
	if (a == NULL)
		return NULL;
	if (size > 0)
		v = xcalloc(json_array_size(a) + 1, size);
	for (size_t i = 0; i < json_array_size(a); i++) {
		if (element(r, a, i, prefix, key, path, sizeof path, &el) != 0) {
			r->failed = true;
			break;
		}
		if (n != NULL)
			(*n)++;
		if (fn(r, el, path, size > 0 ? v + i * size : arg) != 0) {
			r->failed = true;
			break;
		}
	}
	return v;
}

static int
read_port(struct rd *r, const json_t *el, const char *path, void *item)
{
	struct taskdef_port *p = item;

	p->container_port = p->host_port = TASKDEF_UNSET;
	if (get_int(r, el, path, "containerPort", &p->container_port) != 0 ||
	    get_int(r, el, path, "hostPort", &p->host_port) != 0)
		return -1;
	return 0;
}

static int
read_dep(struct rd *r, const json_t *el, const char *path, void *item)
{
	struct taskdef_dep *d = item;

	if (get_str(r, el, path, "containerName", &d->container) != 0 ||
	    get_str(r, el, path, "condition", &d->condition) != 0)
		return -1;
	return 0;
}

static int
read_ulimit(struct rd *r, const json_t *el, const char *path, void *item)
{
	struct taskdef_ulimit *u = item;

	u->soft = u->hard = TASKDEF_UNSET;
	if (get_str(r, el, path, "name", &u->name) != 0 ||
	    get_int(r, el, path, "softLimit", &u->soft) != 0 ||
	    get_int(r, el, path, "hardLimit", &u->hard) != 0)
		return -1;
	return 0;
}

/* resourceRequirements: GPUs counted, an inference accelerator noted, on the container */
static int
read_resource(struct rd *r, const json_t *el, const char *path, void *item)
{
	struct taskdef_container *c = item;
	char *type = NULL, *value = NULL;
	int rc = get_str(r, el, path, "type", &type);

	if (rc == 0)
		rc = get_str(r, el, path, "value", &value);
	if (rc == 0 && type != NULL && strcasecmp(type, "GPU") == 0) {
		long n = value != NULL ? taskdef_parse_cpu(value) : -1;

		c->gpus += n > 0 ? n : 1;
	} else if (rc == 0 && type != NULL && strcasecmp(type, "InferenceAccelerator") == 0) {
		c->inference_accelerator = true;
	}
	free(type);
	free(value);
	return rc;
}

static int
read_container(struct rd *r, const json_t *el, const char *path, struct taskdef_container *c)
{
	const json_t *creds;

	c->cpu = c->memory = c->memory_reservation = TASKDEF_UNSET;
	c->essential = TD_FLAG_UNSET;
	if (get_str(r, el, path, "name", &c->name) != 0 ||
	    get_str(r, el, path, "image", &c->image) != 0 ||
	    get_bool(r, el, path, "essential", &c->essential) != 0 ||
	    get_size(r, el, path, "cpu", true, NULL, &c->cpu) != 0 ||
	    get_size(r, el, path, "memory", false, NULL, &c->memory) != 0 ||
	    get_size(r, el, path, "memoryReservation", false, NULL, &c->memory_reservation) != 0 ||
	    get_flag(r, el, path, "privileged", &c->privileged) != 0 ||
	    get_flag(r, el, path, "disableNetworking", &c->disable_networking) != 0 ||
	    get_object(r, el, path, "repositoryCredentials", &creds) != 0 ||
	    count_array(r, el, path, "links", &c->nlinks) != 0 ||
	    count_array(r, el, path, "dnsServers", &c->ndns_servers) != 0 ||
	    count_array(r, el, path, "dnsSearchDomains", &c->ndns_search) != 0 ||
	    count_array(r, el, path, "extraHosts", &c->nextra_hosts) != 0 ||
	    count_array(r, el, path, "dockerSecurityOptions", &c->nsecurity_opts) != 0 ||
	    read_linux(r, el, path, c) != 0)
		return -1;
	c->ports = read_objects(r, el, path, "portMappings", sizeof *c->ports, &c->nports,
				read_port, NULL);
	c->deps = read_objects(r, el, path, "dependsOn", sizeof *c->deps, &c->ndeps, read_dep,
			       NULL);
	c->ulimits = read_objects(r, el, path, "ulimits", sizeof *c->ulimits, &c->nulimits,
				  read_ulimit, NULL);
	read_objects(r, el, path, "resourceRequirements", 0, NULL, read_resource, c);
	if (r->failed || read_health(r, el, path, &c->health) != 0)
		return -1;
	c->repository_credentials = creds != NULL;
	return 0;
}

static int
read_volume(struct rd *r, const json_t *el, const char *path, void *item)
{
	struct taskdef_volume *v = item;
	const json_t *host;
	char hpath[256];
	char *src = NULL;

	if (get_str(r, el, path, "name", &v->name) != 0 ||
	    get_object(r, el, path, "host", &host) != 0)
		return -1;
	member_path(hpath, sizeof hpath, path, "host");
	if (host != NULL && get_str(r, host, hpath, "sourcePath", &src) != 0)
		return -1;
	v->host_source_path = src != NULL;
	free(src);
	v->docker_volume = member(el, "dockerVolumeConfiguration") != NULL;
	v->efs = member(el, "efsVolumeConfiguration") != NULL;
	return 0;
}

static int
read_placement(struct rd *r, const json_t *el, const char *path, void *item)
{
	struct taskdef_placement *p = item;

	if (get_str(r, el, path, "type", &p->type) != 0 ||
	    get_str(r, el, path, "expression", &p->expression) != 0)
		return -1;
	return 0;
}

static int
read_container_item(struct rd *r, const json_t *el, const char *path, void *item)
{
	return read_container(r, el, path, item);
}

static int
read_taskdef(struct rd *r, const json_t *o, const char *root, struct taskdef *td)
{
	const json_t *rp;
	char rpath[256];

	if (get_str(r, o, root, "family", &td->family) != 0 ||
	    get_int(r, o, root, "revision", &td->revision) != 0 ||
	    get_str(r, o, root, "taskDefinitionArn", &td->arn) != 0 ||
	    get_size(r, o, root, "cpu", true, &td->cpu_text, &td->cpu_units) != 0 ||
	    get_size(r, o, root, "memory", false, &td->memory_text, &td->memory_mib) != 0 ||
	    get_str(r, o, root, "networkMode", &td->network_mode) != 0 ||
	    get_str(r, o, root, "pidMode", &td->pid_mode) != 0 ||
	    get_str(r, o, root, "ipcMode", &td->ipc_mode) != 0 ||
	    get_strings(r, o, root, "requiresCompatibilities", &td->requires, &td->nrequires) != 0 ||
	    count_array(r, o, root, "inferenceAccelerators", &td->ninference_accelerators) != 0 ||
	    get_object(r, o, root, "runtimePlatform", &rp) != 0)
		return -1;
	member_path(rpath, sizeof rpath, root, "runtimePlatform");
	if (rp != NULL && (get_str(r, rp, rpath, "operatingSystemFamily", &td->os_family) != 0 ||
			   get_str(r, rp, rpath, "cpuArchitecture", &td->cpu_arch) != 0))
		return -1;
	td->volumes = read_objects(r, o, root, "volumes", sizeof *td->volumes, &td->nvolumes,
				   read_volume, NULL);
	td->placements = read_objects(r, o, root, "placementConstraints",
				      sizeof *td->placements, &td->nplacements, read_placement,
				      NULL);
	td->containers = read_objects(r, o, root, "containerDefinitions",
				      sizeof *td->containers, &td->ncontainers,
				      read_container_item, NULL);
	return r->failed ? -1 : 0;
}

int
taskdef_read_mem(const char *name, const char *data, size_t len, struct taskdef *td,
		 struct err *err)
{
	struct rd r = { name, err, false };
	json_error_t e;
	const json_t *body;
	json_t *root;
	int rc;

	taskdef_init(td);
	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &e);
	if (root == NULL)
		return err_set(err, ERR_PARSE, "%s:%d:%d: not a task definition: %s", name, e.line,
			       e.column, e.text[0] ? e.text : "out of memory");
	body = root;
	if (!json_is_object(root)) {
		rc = err_set(err, ERR_PARSE, "%s: expected a task definition object, got %s", name,
			     json_kind(root));
		goto out;
	}
	if (member(root, "taskDefinition") != NULL) {
		if (get_object(&r, root, "", "taskDefinition", &body) != 0) {
			rc = -1;
			goto out;
		}
		td->described = true;
	} else if (member(root, "containerDefinitions") == NULL && member(root, "family") == NULL) {
		rc = err_set(err, ERR_PARSE, "%s: neither a task definition (family, "
			     "containerDefinitions) nor DescribeTaskDefinition's answer "
			     "(taskDefinition)", name);
		goto out;
	}
	/* a path inside DescribeTaskDefinition's answer as the user reads the file */
	rc = read_taskdef(&r, body, td->described ? "taskDefinition" : "", td);
out:
	json_decref(root);
	if (rc != 0)
		taskdef_free(td);
	return rc;
}

int
taskdef_read_file(const char *path, struct taskdef *td, struct err *err)
{
	bool std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "rb");
	struct buf b;
	int rc;

	taskdef_init(td);
	if (f == NULL)
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, err_strerror(errno));
	rc = input_deploy_slurp(std ? "stdin" : path, f, &b, err);
	if (!std)
		fclose(f);
	if (rc == 0)
		rc = taskdef_read_mem(std ? "stdin" : path, b.data ? b.data : "", b.len, td, err);
	buf_cleanup(&b);
	return rc;
}
