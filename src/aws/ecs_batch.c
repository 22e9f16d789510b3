/* ecs_batch: the DescribeTasks side of the fetch (ecs_fetch_int.h). Listed ARNs are cut
 * into batches as soon as a page brings them (a batch of 100 from a page of 100), so that
 * describing runs beside the ListTasks chain from its first page on; a worker describes a
 * batch, keeping the answer's bytes and pointing each task into them (no copy, no text
 * written back), and the calling thread hands the tasks over in ListTasks order, known
 * ones (watch) in their place. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ecs_fetch_int.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define DESCRIBE_BATCH 100 /* DescribeTasks: at most 100 tasks per call */
#define BATCH_ENTRIES 1000 /* listed tasks per batch, known ones (not described) included */

static void
add_batch(struct ecs_fetch *f, const struct entry *e, size_t n)
{
	struct batch *b = xcalloc(1, sizeof *b);

	b->entries = xcalloc(n, sizeof *b->entries);
	memcpy(b->entries, e, n * sizeof *e);
	b->nentries = n;
	b->arns = xcalloc(n, sizeof *b->arns);
	for (size_t i = 0; i < n; i++)
		if (e[i].known)
			b->nknown++;
		else
			b->arns[b->n++] = e[i].arn;
	f->batches = xgrow(f->batches, f->nbatches + 1, &f->batches_cap, sizeof *f->batches);
	f->batches[f->nbatches++] = b;
}

void
ecs_batch_cut(struct ecs_fetch *f, bool flush)
{
	size_t at = 0;

	for (;;) {
		size_t end = at, ask = 0;

		while (end < f->npending && ask < DESCRIBE_BATCH && end - at < BATCH_ENTRIES)
			ask += !f->pending[end++].known;
		if (end == at || (!flush && ask < DESCRIBE_BATCH && end - at < BATCH_ENTRIES))
			break;
		add_batch(f, f->pending + at, end - at);
		at = end;
	}
	/* nothing cut: pending may still be NULL, and memmove(NULL, ...) is undefined */
	if (at > 0)
		memmove(f->pending, f->pending + at, (f->npending - at) * sizeof *f->pending);
	f->npending -= at;
}

static const char *
json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: case JSON_REAL: return "number";
	case JSON_TRUE: case JSON_FALSE: return "boolean";
	case JSON_NULL: return "null";
	default: return "object";
	}
}

/* The place of the described task arn among b's entries (answers come in the order asked,
 * so the search starts after the last match), SIZE_MAX when it is not there verbatim. */
static size_t
entry_of(const struct batch *b, const char *arn, size_t *cursor)
{
	if (arn == NULL)
		return SIZE_MAX;
	for (size_t k = 0; k < b->nentries; k++) {
		size_t i = (*cursor + k) % b->nentries;

		if (!b->entries[i].known && strcmp(b->entries[i].arn, arn) == 0) {
			*cursor = i + 1;
			return i;
		}
	}
	return SIZE_MAX;
}

static void
add_warning(struct batch *b, char *line, bool missing)
{
	b->warnings = xgrow(b->warnings, b->nwarnings + 1, &b->warnings_cap, sizeof *b->warnings);
	b->warnings[b->nwarnings++] = (struct warning){ line, missing };
}

/* One described task (its taskArn, createdAt and text: in b's body, or own, taken) into
 * b's results, or dropped with a warning when it was not asked for. */
static void
take_described(struct ecs_fetch *f, struct batch *b, const char *arn, int64_t created_ms,
	       const char *text, size_t len, char *own, const struct ecs_scanned_task *read,
	       int64_t at, size_t *described, size_t *unasked, size_t *cursor)
{
	const struct ecs_query *q = &f->q;

	if (!ecs_task_was_asked_at(b->arns, b->n, q->cluster, arn, &b->asked_hint)) {
		add_warning(b, xasprintf("DescribeTasks: the answer holds task %.200s, which was "
					 "not asked for; dropped", arn ? arn : "(no ARN)"), false);
		(*unasked)++;
		free(own);
		return;
	}
	(*described)++;
	if (q->since_ms != TS_NONE && (created_ms == TS_NONE || created_ms < q->since_ms)) {
		free(own);
		return;
	}
	b->results = xgrow(b->results, b->nresults + 1, &b->results_cap, sizeof *b->results);
	b->results[b->nresults++] = (struct result){ text, len, own, at,
		b->nknown > 0 ? entry_of(b, arn, cursor) : SIZE_MAX, read != NULL && read->read,
		read != NULL ? read->slot : 0 };
}

struct scanned {
	char *body;             /* the answer's bytes (taken, or a copy), which the tasks
				 * point into */
	struct ecs_scanned_task *v;
	size_t n;
	bool failures;          /* v read, but failures[] is left to jansson's DOM */
	const struct ecs_task_reader *reader;   /* the query's (may be NULL) */
	void *read;             /* its batch of this attempt's tasks; NULL: none */
};

/* sc's reader batch dropped (an attempt's, or an answer's given up to the DOM) */
static void
drop_read(struct scanned *sc)
{
	if (sc->read != NULL)
		sc->reader->batch_free(sc->reader->arg, sc->read);
	sc->read = NULL;
}

/* awsjson's body hook (once per attempt): the answer read in one pass (ecs_scan.c), its
 * bytes taken so that they outlive the call, or 1 for the DOM */
static int
scan_answer(void *arg, struct buf *body)
{
	struct scanned *sc = arg;
	const char *at = buf_str(body);
	size_t len = body->len;
	int rc;

	ecs_scanned_free(sc->v, sc->n);
	free(sc->body);
	sc->v = NULL;
	sc->n = 0;
	sc->body = NULL;
	sc->failures = false;
	drop_read(sc);
	if (sc->reader != NULL)
		sc->read = sc->reader->batch_new(sc->reader->arg);
	rc = ecs_scan_describe_read(at, len, sc->reader, sc->read, &sc->v, &sc->n);
	if (rc == 0) {
		/* the answer's own bytes: taken, not copied (buf_take hands data over as it is,
		 * so the tasks still point into it) */
		sc->body = buf_take(body);
	} else if (rc == 2) {
		/* jansson reads the answer as it came for failures[]: the tasks go to a copy */
		sc->body = xmalloc(len + 1);
		memcpy(sc->body, at, len + 1);
		for (size_t i = 0; i < sc->n; i++)
			sc->v[i].json = sc->body + (sc->v[i].json - at);
		sc->failures = true;
		rc = 1;
	}
	if (sc->body != NULL)
		ecs_scanned_end(sc->body, sc->v, sc->n);
	else
		drop_read(sc);   /* given up: the DOM's tasks are text */
	return rc;
}

static void dom_failures(struct batch *b, json_t *resp);

/* The tasks of an answer the one-pass reader gave up, from jansson's DOM. */
static void
take_dom_answer(struct ecs_fetch *f, struct batch *b, json_t *resp, int64_t at,
		size_t *described, size_t *unasked, size_t *cursor)
{
	json_t *task;
	size_t i;

	json_array_foreach(json_object_get(resp, "tasks"), i, task) {
		char *text;

		if (!json_is_object(task)) {
			/* no ARN to match it to a request, nor to key it in a recording */
			add_warning(b, xasprintf("DescribeTasks: tasks[%zu] is a JSON %s, not a "
						 "task object; dropped", i, json_kind(task)), false);
			(*unasked)++;
			continue;
		}
		/* 16 digits keep epoch seconds with milliseconds exact */
		text = json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16));
		if (text == NULL)
			continue;
		take_described(f, b, json_string_value(json_object_get(task, "taskArn")),
			       ecs_json_time(task, "createdAt"), text, strlen(text), text, NULL,
			       at, described, unasked, cursor);
	}
	dom_failures(b, resp);
}

/* The failures[] of an answer, from jansson's DOM, as warnings. */
static void
dom_failures(struct batch *b, json_t *resp)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(resp, "failures"), i, v) {
		const char *arn = json_string_value(json_object_get(v, "arn"));
		const char *reason = json_string_value(json_object_get(v, "reason"));
		const char *detail = json_string_value(json_object_get(v, "detail"));

		add_warning(b, xasprintf("DescribeTasks: %s: %s%s%s%s", arn ? arn : "(no ARN)",
					 reason ? reason : "failed", detail ? " (" : "",
					 detail ? detail : "", detail ? ")" : ""),
			    reason != NULL && strcmp(reason, "MISSING") == 0);
	}
}

/* s as a JSON string into d, after the byte lead unless it is 0, when it needs no escape
 * and no UTF-8 check (printable ASCII but '"' and '\\': what awsjson_dump_compact writes as
 * it is); false otherwise */
static bool
put_plain(struct buf *d, char lead, const char *s)
{
	size_t n = strlen(s), i = 0;
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t bad = 0;

	/* 8 bytes at a time (an ARN is ~90, nearly always plain; a branch per byte cost 15
	 * instructions each): a byte below 0x20, one with its high bit, or one equal to 0x7f,
	 * '"' or '\\' sets a high bit of bad (the zero-byte test of x ^ c; never missed, and a
	 * false alarm would only send the batch to the DOM) */
	for (; i + 8 <= n; i += 8) {
		uint64_t x, q, k, e;

		memcpy(&x, s + i, 8);
		q = x ^ (ones * '"');
		k = x ^ (ones * '\\');
		e = x ^ (ones * 0x7f);
		bad |= ((x - ones * 0x20) & ~x) | x | ((q - ones) & ~q) | ((k - ones) & ~k) |
		       ((e - ones) & ~e);
	}
	bad &= highs;
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		bad |= (c < 0x20 || c > 0x7e || c == '"' || c == '\\');
	}
	if (bad)
		return false;
	if (n <= 128) {
		/* one add for the separator, the quotes and an id (a call each cost ~80
		 * instructions: 0.6% of a live run's for three adds a task) */
		char q[132];
		size_t k = 0;

		if (lead != '\0')
			q[k++] = lead;
		q[k++] = '"';
		memcpy(q + k, s, n);
		k += n;
		q[k++] = '"';
		return buf_add(d, q, k) == 0;
	}
	return (lead == '\0' || buf_addc(d, lead) == 0) && buf_addc(d, '"') == 0 &&
	       buf_add(d, s, n) == 0 && buf_addc(d, '"') == 0;
}

/* What DescribeTasks is asked for a listed task: its id, the ARN's last part, when the
 * ARN is a task's ("arn:...:task/[CLUSTER/]ID"); else the text as listed. The "tasks"
 * member takes ids or ARNs, and an id is looked up in the cluster asked, the one ListTasks
 * listed it in: a third of the request's bytes (and of what signing hashes) less. The
 * answer still names each task by its ARN, matched against the ARN listed. */
static const char *
task_ref(const char *arn)
{
	const char *t = strncmp(arn, "arn:", 4) == 0 ? strstr(arn, ":task/") : NULL;
	const char *id = t != NULL ? strrchr(t, '/') + 1 : NULL;

	return id != NULL && *id != '\0' ? id : arn;
}

/* The DescribeTasks request of b, byte for byte what awsjson_dump_compact() makes of the
 * DOM below (keys in that order), written without one: building 100 jansson strings
 * and walking them cost more than a tenth of the call. false: a string needs the DOM. */
static bool
describe_text(const char *cluster, const struct batch *b, struct buf *d)
{
	/* room for ids of 32 bytes at once (the request grew by doubling, 8 copies) */
	bool ok = buf_reserve(d, 64 + (cluster != NULL ? strlen(cluster) : 0) + b->n * 35) == 0 &&
		  buf_addc(d, '{') == 0;

	if (cluster != NULL)
		ok = ok && buf_adds(d, "\"cluster\":") == 0 && put_plain(d, '\0', cluster) &&
		     buf_addc(d, ',') == 0;
	ok = ok && buf_adds(d, "\"tasks\":[") == 0;
	for (size_t i = 0; ok && i < b->n; i++)
		ok = put_plain(d, i == 0 ? '\0' : ',', task_ref(b->arns[i]));
	return ok && buf_adds(d, "],\"include\":[\"TAGS\"]}") == 0;
}

/* Each answer is read once: in one pass without a DOM (ecs_scan.c), its tasks read there
 * by the query's reader or handed over as the bytes ECS sent, or by jansson when that pass
 * is not sure of it. */
int
ecs_batch_describe(struct ecs_fetch *f, struct http_transport *t, struct batch *b,
		   struct err *err)
{
	const struct ecs_query *q = &f->q;
	struct awsjson_call_options o = { 0 };
	struct scanned sc = { NULL, NULL, 0, false, q->reader, NULL };
	json_t *req, *arr, *inc, *resp = NULL;
	size_t described = 0, unasked = 0, cursor = 0;
	struct buf text;
	int64_t at;
	int rc;

	if (b->n == 0)
		return 0;   /* every task of the batch is known: nothing to ask */
	o.body = scan_answer;
	o.body_arg = &sc;
	o.cancel = &f->cancel;
	buf_init(&text, 0);
	if (describe_text(q->cluster, b, &text)) {
		rc = awsjson_call_text(f->c->api, t, "DescribeTasks", buf_str(&text), text.len,
				       &o, &resp, err);
	} else {
		req = json_object();
		arr = json_array();
		inc = json_array();
		if (q->cluster != NULL)
			json_object_set_new(req, "cluster", json_string(q->cluster));
		for (size_t i = 0; i < b->n; i++)
			json_array_append_new(arr, json_string(task_ref(b->arns[i])));
		json_object_set_new(req, "tasks", arr);
		json_array_append_new(inc, json_string("TAGS"));
		json_object_set_new(req, "include", inc);
		rc = awsjson_call_opt(f->c->api, t, "DescribeTasks", req, &o, &resp, err);
		json_decref(req);
	}
	buf_cleanup(&text);
	at = o.answered_ms;
	if (rc != 0) {
		ecs_scanned_free(sc.v, sc.n);
		free(sc.body);
		drop_read(&sc);
		return -1;
	}
	if (resp == NULL || sc.failures) {
		/* the tasks as ECS sent them; failures[] worded from jansson's DOM */
		b->body = sc.body;
		b->reader = sc.reader;
		b->read = sc.read;
		sc.read = NULL;
		for (size_t i = 0; i < sc.n; i++)
			take_described(f, b, sc.v[i].arn, sc.v[i].created_ms, sc.v[i].json,
				       sc.v[i].len, NULL, &sc.v[i], at, &described, &unasked,
				       &cursor);
		if (resp != NULL)
			dom_failures(b, resp);
	} else {
		take_dom_answer(f, b, resp, at, &described, &unasked, &cursor);
		free(sc.body);   /* NULL: the hook gave the answer up */
		drop_read(&sc);
	}
	json_decref(resp);
	ecs_scanned_free(sc.v, sc.n);
	pthread_mutex_lock(&f->lock);
	f->st.described += described;
	f->st.describe_calls++;
	f->st.failures += b->nwarnings - unasked;
	pthread_mutex_unlock(&f->lock);
	return 0;
}

/* The answer and the texts of b's results, once they are handed over. */
static void
drop_results(struct batch *b)
{
	for (size_t j = 0; j < b->nresults; j++)
		free(b->results[j].own);
	b->nresults = 0;
	free(b->body);
	b->body = NULL;
	if (b->read != NULL)
		b->reader->batch_free(b->reader->arg, b->read);
	b->read = NULL;
}

/* One result to the caller: through the reader when it read it, else as text. */
static int
hand_over(const struct batch *b, const struct result *r, ecs_task_fn *fn, void *arg,
	  struct err *err)
{
	if (r->read)
		return b->reader->take(arg, b->read, r->slot, r->json, r->len, r->fetched_at_ms,
				       err);
	return fn(arg, r->json, r->len, r->fetched_at_ms, err);
}

void
ecs_batch_free(struct batch *b)
{
	drop_results(b);
	free(b->results);
	for (size_t j = 0; j < b->nwarnings; j++)
		free(b->warnings[j].line);
	free(b->warnings);
	free(b->arns);
	free(b->entries);
	free(b);
}

int
ecs_batch_deliver(struct ecs_fetch *f, struct batch *b, ecs_task_fn *fn, void *arg,
		  size_t *kept, size_t *skipped, size_t *reused, struct err *err)
{
	size_t *at = NULL;
	int rc = 0;

	for (size_t j = 0; j < b->nwarnings; j++) {
		log_warn(f->c->log, "%s", b->warnings[j].line);
		if (b->warnings[j].missing)
			log_info(f->c->log, "ECS forgets a task about an hour after it stops");
	}
	if (b->nknown > 0) {
		/* known and described tasks in the order ListTasks gave them, then any answer
		 * that matched no ARN asked verbatim */
		at = xcalloc(b->nentries, sizeof *at);
		for (size_t j = 0; j < b->nresults; j++)
			if (b->results[j].entry != SIZE_MAX)
				at[b->results[j].entry] = j + 1;
		for (size_t e = 0; rc == 0 && e < b->nentries; e++) {
			if (b->entries[e].known) {
				rc = f->q.reuse(f->q.known_arg, b->entries[e].arn,
						b->entries[e].listed_at_ms, err);
				*reused += rc == 0;
			} else if (at[e] != 0) {
				const struct result *r = &b->results[at[e] - 1];

				rc = hand_over(b, r, fn, arg, err);
				*kept += rc == 0;
				*skipped += rc > 0;
				rc = rc < 0 ? -1 : 0;
			}
		}
	}
	for (size_t j = 0; rc == 0 && j < b->nresults; j++) {
		if (b->nknown > 0 && b->results[j].entry != SIZE_MAX)
			continue;
		rc = hand_over(b, &b->results[j], fn, arg, err);
		*kept += rc == 0;
		*skipped += rc > 0;
		rc = rc < 0 ? -1 : 0;
	}
	free(at);
	drop_results(b);   /* delivered: not needed any more */
	return rc;
}
