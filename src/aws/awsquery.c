/* awsquery: one query-protocol request through the awsjson client (signing, retries,
 * error lines shared with every AWS call), and its XML answer read along the operation's
 * output shape into the JSON the AWS CLI prints, on base's one XML scanner. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "awsquery.h"
#include "ecsprof/buf.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "ecsprof/xmlscan.h"

#define CONTENT_TYPE "application/x-www-form-urlencoded; charset=utf-8"
/* one string of an answer (an alarm's description, a history item's data) */
#define MAX_TEXT ((size_t)1 << 20)

/* ---- reading an answer ------------------------------------------------------------- */

struct reader {
	const char *op;
	struct err *err;
	struct buf text;        /* one decoded string at a time */
};

static int
bad(struct reader *r, const struct xmlscan_el *el, const char *why)
{
	if (el == NULL)
		return err_set(r->err, ERR_AWS, "%s: the XML answer is refused: %s", r->op, why);
	return err_set(r->err, ERR_AWS, "%s: the XML answer is refused: <%.*s> %s", r->op,
		       (int)(el->name_len > 64 ? 64 : el->name_len), el->name, why);
}

/* el's text, decoded, in r->text; -1 when it holds elements or is too long */
static int
leaf_text(struct reader *r, const struct xmlscan_el *el)
{
	buf_reset(&r->text);
	if (memchr(el->body, '<', el->body_len) != NULL)
		return bad(r, el, "holds elements where the shape has a value");
	if (xmlscan_decode(el->body, el->body_len, &r->text) != 0)
		return bad(r, el, "is longer than 1 MiB");
	return 0;
}

static int read_struct(struct reader *r, const char *p, const char *end,
		       const struct awsquery_field *members, json_t *obj, int depth);

static int
read_scalar(struct reader *r, const struct xmlscan_el *el, enum awsquery_type type,
	    json_t **v)
{
	const char *s;
	char *e;
	int64_t ms;

	if (leaf_text(r, el) != 0)
		return -1;
	s = buf_str(&r->text);
	errno = 0;
	switch (type) {
	case AQ_STRING:
		*v = json_stringn(s, r->text.len);
		return *v != NULL ? 0 : bad(r, el, "is not UTF-8 text");
	case AQ_INTEGER: {
		long long n = strtoll(s, &e, 10);
		if (*s == '\0' || *e != '\0' || errno != 0)
			return bad(r, el, "is not an integer");
		*v = json_integer(n);
		return 0;
	}
	case AQ_DOUBLE: {
		double x = strtod(s, &e);
		if (*s == '\0' || *e != '\0' || !isfinite(x))
			return bad(r, el, "is not a number");
		*v = json_real(x);
		return 0;
	}
	case AQ_BOOLEAN:
		if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)
			return bad(r, el, "is not true or false");
		*v = json_boolean(s[0] == 't');
		return 0;
	case AQ_TIMESTAMP: {
		char out[AWSJSON_TIME_LEN];
		/* to the millisecond: the CLI prints moto's "...07.598669Z" as .598000 too */
		if (timeutil_parse_iso8601(s, &ms) != 0)
			return bad(r, el, "is not an ISO 8601 time");
		awsjson_format_time(ms * 1000, out);
		*v = json_string(out);
		return 0;
	}
	default:
		return bad(r, el, "has a type this reader does not know");
	}
}

static int
read_value(struct reader *r, const struct xmlscan_el *el, const struct awsquery_field *f,
	   json_t **v, int depth);

/* <X><member>..</member>...</X> or <X><entry><key/><value/></entry></X> */
static int
read_list(struct reader *r, const struct xmlscan_el *el, const struct awsquery_field *f,
	  json_t **v, int depth)
{
	const char *p = el->body, *end = el->body + el->body_len, *why = NULL;
	const struct awsquery_field item = { "member", f->members ? AQ_STRUCT : AQ_STRING,
					     f->members };
	struct xmlscan_el m;
	int rc;

	*v = f->type == AQ_MAP ? json_object() : json_array();
	while ((rc = xmlscan_next(&p, end, &m, &why)) == 1) {
		json_t *x = NULL;

		if (f->type == AQ_LIST) {
			/* EC2 names its list items <item>, every other query service <member> */
			if (!xmlscan_is(&m, "member") && !xmlscan_is(&m, "item"))
				continue;
			if (read_value(r, &m, &item, &x, depth + 1) != 0) {
				json_decref(x);
				return -1;
			}
			json_array_append_new(*v, x);
			continue;
		}
		if (!xmlscan_is(&m, "entry"))
			continue;
		{
			static const struct awsquery_field kv[] = {
				{ "key", AQ_STRING, NULL }, { "value", AQ_STRING, NULL }, { NULL, 0, NULL },
			};
			json_t *e = json_object();
			const char *key;

			if (read_struct(r, m.body, m.body + m.body_len, kv, e, depth + 1) != 0) {
				json_decref(e);
				return -1;
			}
			key = json_string_value(json_object_get(e, "key"));
			if (key == NULL || json_object_get(e, "value") == NULL) {
				json_decref(e);
				return bad(r, &m, "is a map entry without a key or a value");
			}
			json_object_set(*v, key, json_object_get(e, "value"));
			json_decref(e);
		}
	}
	return rc < 0 ? bad(r, el, why) : 0;
}


static int
read_value(struct reader *r, const struct xmlscan_el *el, const struct awsquery_field *f,
	   json_t **v, int depth)
{
	*v = NULL;
	if (depth > 16)
		return bad(r, el, "is nested deeper than any shape read here");
	switch (f->type) {
	case AQ_STRUCT:
		*v = json_object();
		return read_struct(r, el->body, el->body + el->body_len, f->members, *v, depth + 1);
	case AQ_LIST:
	case AQ_MAP:
		return read_list(r, el, f, v, depth);
	default:
		return read_scalar(r, el, f->type, v);
	}
}

/* The members of members that the elements in [p, end) have, in the shape's order;
 * elements the shape does not name are skipped, as botocore skips them. */
static int
read_struct(struct reader *r, const char *p, const char *end,
	    const struct awsquery_field *members, json_t *obj, int depth)
{
	const char *why = NULL;
	struct xmlscan_el el;
	int rc;

	for (const struct awsquery_field *f = members; f->name != NULL; f++)
		json_object_set_new(obj, f->name, json_null());   /* holds the order */
	while ((rc = xmlscan_next(&p, end, &el, &why)) == 1) {
		for (const struct awsquery_field *f = members; f->name != NULL; f++) {
			json_t *v;

			if (!xmlscan_is(&el, f->name))
				continue;
			if (read_value(r, &el, f, &v, depth) != 0) {
				json_decref(v);
				return -1;
			}
			json_object_set_new(obj, f->name, v);
			break;
		}
	}
	if (rc < 0)
		return bad(r, NULL, why);
	/* members absent from the answer are absent from the JSON, as the CLI prints it */
	for (const struct awsquery_field *f = members; f->name != NULL; f++)
		if (json_is_null(json_object_get(obj, f->name)))
			json_object_del(obj, f->name);
	return 0;
}

int
awsquery_read(const char *body, size_t len, const char *op,
	      const struct awsquery_field *shape, json_t **out, struct err *err)
{
	struct reader r = { op, err, { 0 } };
	const char *p = body, *end = body + len, *why = NULL;
	struct xmlscan_el root, el;
	char name[128];
	bool wrapped = false;
	int rc;

	*out = NULL;
	if (len > AWSQUERY_MAX_ANSWER)
		return err_set(err, ERR_AWS, "%s: the XML answer is refused: %zu bytes, more than "
			       "the %zu MiB any page of it needs", op, len, AWSQUERY_MAX_ANSWER >> 20);
	if (memchr(body, '\0', len) != NULL)
		return err_set(err, ERR_AWS, "%s: the XML answer is refused: it holds a NUL byte",
			       op);
	rc = xmlscan_next(&p, end, &root, &why);
	if (rc <= 0)
		return err_set(err, ERR_AWS, "%s: the XML answer is refused: %s", op,
			       rc < 0 ? why : "no element in it");
	snprintf(name, sizeof name, "%sResponse", op);
	if (!xmlscan_is(&root, name))
		return err_set(err, ERR_AWS, "%s: the XML answer is refused: its root is <%.*s>, "
			       "not <%s>", op, (int)(root.name_len > 64 ? 64 : root.name_len),
			       root.name, name);
	snprintf(name, sizeof name, "%sResult", op);
	p = root.body;
	end = root.body + root.body_len;
	buf_init(&r.text, MAX_TEXT);
	*out = json_object();
	while ((rc = xmlscan_next(&p, end, &el, &why)) == 1) {
		if (!xmlscan_is(&el, name))
			continue;
		rc = read_struct(&r, el.body, el.body + el.body_len, shape, *out, 0);
		why = NULL;     /* read_struct said why */
		wrapped = true;
		break;
	}
	/* EC2 has no <opResult>: its members are the root's own children */
	if (rc == 0 && !wrapped)
		rc = read_struct(&r, root.body, root.body + root.body_len, shape, *out, 0);
	if (rc < 0 && why != NULL)
		bad(&r, NULL, why);
	buf_cleanup(&r.text);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* ---- sending ------------------------------------------------------------------------ */

/* application/x-www-form-urlencoded as botocore's query serializer writes it (Python's
 * urlencode): what a server that signs the form again from its fields (moto) computes */
static void
form_add(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.' || c == '~') {
			buf_addc(b, (char)c);
		} else if (c == ' ') {
			buf_addc(b, '+');   /* as botocore (urlencode) sends it */
		} else {
			buf_addc(b, '%');
			buf_addc(b, hex[c >> 4]);
			buf_addc(b, hex[c & 15]);
		}
	}
}

struct xml_accept {
	const char *op;
	const struct awsquery_field *shape;
	json_t **out;
};

/* a 2xx answer: read at once; one that is cut short is asked again */
static int
xml_accept(void *arg, struct buf *body, char *why, size_t whysize, struct err *err)
{
	struct xml_accept *a = arg;
	struct err e = { 0 };

	if (awsquery_read(buf_str(body), body->len, a->op, a->shape, a->out, &e) == 0)
		return 0;
	if (strstr(e.msg, "cut short") == NULL && strstr(e.msg, "no element") == NULL) {
		*err = e;
		return -1;
	}
	snprintf(why, whysize, "%s", e.msg);
	return 1;
}

int
awsquery_call(struct awsjson_client *c, const struct http_transport *t, const char *op,
	      const char *version, const struct awsquery_param *params, size_t n,
	      const struct awsquery_field *shape, const int *cancel, json_t **out,
	      struct err *err)
{
	struct awsjson_raw r = { 0 };
	struct xml_accept a = { op, shape, out };
	struct buf body;
	int rc;

	*out = NULL;
	buf_init(&body, 0);
	buf_adds(&body, "Action=");
	form_add(&body, op);
	buf_adds(&body, "&Version=");
	form_add(&body, version);
	for (size_t i = 0; i < n; i++) {
		buf_addc(&body, '&');
		form_add(&body, params[i].name);
		buf_addc(&body, '=');
		form_add(&body, params[i].value);
	}
	r.content_type = CONTENT_TYPE;
	r.body = buf_str(&body);
	r.body_len = body.len;
	r.cancel = cancel;
	r.accept = xml_accept;
	r.accept_arg = &a;
	r.format = "XML";
	rc = awsjson_send(c, t, op, &r, err);
	buf_cleanup(&body);
	return rc;
}

int
awsquery_paged(struct awsjson_client *c, const struct http_transport *t,
	       const struct awsquery_paging *pg, const struct awsquery_param *params,
	       size_t n, const int *cancel, json_t **merged, struct err *err)
{
	struct awsquery_param *p = xcalloc(n + 1, sizeof *p);
	char *prev = NULL;
	size_t pages = 0;
	int more;

	if (*merged == NULL)
		*merged = json_object();
	for (const char *const *l = pg->lists; *l != NULL; l++)
		if (!json_is_array(json_object_get(*merged, *l)))
			json_object_set_new(*merged, *l, json_array());
	if (n > 0)
		memcpy(p, params, n * sizeof *p);
	do {
		json_t *page = NULL;
		const char *next;

		p[n].name = pg->token_in;
		p[n].value = prev;
		if (awsquery_call(c, t, pg->op, pg->version, p, n + (prev != NULL), pg->shape,
				  cancel, &page, err) != 0) {
			more = -1;
			break;
		}
		pages++;
		for (const char *const *l = pg->lists; *l != NULL; l++)
			json_array_extend(json_object_get(*merged, *l), json_object_get(page, *l));
		next = json_string_value(json_object_get(page, pg->token_out));
		more = awsjson_page_next(pg->op, prev, next, pages, err);
		if (more > 0) {
			free(prev);
			prev = xstrdup(next);
		}
		json_decref(page);
	} while (more > 0);
	free(prev);
	free(p);
	return more < 0 ? -1 : 0;
}

int
awsquery_batched(struct awsjson_client *c, const struct http_transport *t,
		 const struct awsquery_paging *pg, const struct awsquery_param *fixed,
		 size_t nfixed, const char *list, const char *const *items, size_t n,
		 size_t batch, const int *cancel, json_t **merged, struct err *err)
{
	int rc = 0;

	for (size_t at = 0; rc == 0 && (at == 0 || at < n); at += batch) {
		size_t end = at + batch < n ? at + batch : n, np = nfixed;
		struct awsquery_param *p = xcalloc(nfixed + end - at + 1, sizeof *p);
		char **keys = xcalloc(end - at + 1, sizeof *keys);

		if (nfixed > 0)
			memcpy(p, fixed, nfixed * sizeof *p);
		for (size_t i = at; i < end; i++) {
			keys[i - at] = xasprintf("%s.member.%zu", list, i - at + 1);
			p[np++] = (struct awsquery_param){ keys[i - at], items[i] };
		}
		rc = awsquery_paged(c, t, pg, p, np, cancel, merged, err);
		for (size_t i = at; i < end; i++)
			free(keys[i - at]);
		free(keys);
		free(p);
		if (n == 0)
			break;
	}
	return rc;
}
