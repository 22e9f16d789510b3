/* creds_util: the pieces every credential provider shares. The JSON reader is our own
 * (about a page) because credential documents carry secrets and jansson would free its
 * copies without wiping them. */
#include <ctype.h>
#include <errno.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "creds_int.h"
#include "ecsprof/awscfg.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

void
creds_free_secret(char *s)
{
	if (s != NULL) {
		OPENSSL_cleanse(s, strlen(s));
		free(s);
	}
}

void
aws_creds_cleanup(struct aws_creds *c)
{
	creds_free_secret(c->access_key_id);
	creds_free_secret(c->secret_access_key);
	creds_free_secret(c->session_token);
	free(c->source);
	c->access_key_id = c->secret_access_key = c->session_token = c->source = NULL;
	c->expires_ms = TS_NONE;
}

void
creds_set(struct aws_creds *c, const char *akid, const char *secret, const char *token,
	  int64_t expires_ms, const char *source)
{
	c->access_key_id = xstrdup(akid);
	c->secret_access_key = xstrdup(secret);
	c->session_token = token != NULL && token[0] != '\0' ? xstrdup(token) : NULL;
	c->expires_ms = expires_ms;
	c->source = xstrdup(source);
}

void
creds_copy(struct aws_creds *dst, const struct aws_creds *src)
{
	creds_set(dst, src->access_key_id, src->secret_access_key, src->session_token,
		  src->expires_ms, src->source);
}

const char *
creds_env(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' ? v : NULL;
}

bool
creds_truthy(const char *v)
{
	return v != NULL && strcasecmp(v, "true") == 0;
}

const char *
creds_prof(const struct aws_context *ctx, const char *profile, const char *key)
{
	const char *v;

	if (ctx->cfg == NULL || profile == NULL)
		return NULL;
	v = awscfg_get(ctx->cfg, profile, key);
	return v != NULL && v[0] != '\0' ? v : NULL;
}

static void
argv_push(char ***argv, size_t *n, size_t *cap, struct buf *word)
{
	if (*n + 2 > *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*argv = xrealloc(*argv, *cap * sizeof **argv);
	}
	(*argv)[(*n)++] = buf_take(word);
	(*argv)[*n] = NULL;
	buf_init(word, 0);
}

int
creds_split_command(const char *line, char ***argv_out, struct err *err)
{
	char **argv = NULL;
	size_t n = 0, cap = 0;
	struct buf w;
	bool in_word = false;
	char quote = 0;              /* ' or " while inside quotes */
	const char *p, *why;

	*argv_out = NULL;
	buf_init(&w, 0);
	for (p = line; *p != '\0'; p++) {
		char c = *p;

		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				buf_add(&w, &c, 1);
		} else if (quote == '"') {
			if (c == '"') {
				quote = 0;
			} else if (c == '\\') {
				if (p[1] == '\0') {
					why = "no escaped character";
					goto fail;
				}
				p++;
				if (*p != '"' && *p != '\\')
					buf_add(&w, "\\", 1);
				buf_add(&w, p, 1);
			} else {
				buf_add(&w, &c, 1);
			}
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			if (in_word)
				argv_push(&argv, &n, &cap, &w);
			in_word = false;
		} else if (c == '\'' || c == '"') {
			quote = c;
			in_word = true;
		} else if (c == '\\') {
			if (p[1] == '\0') {
				why = "no escaped character";
				goto fail;
			}
			p++;
			buf_add(&w, p, 1);
			in_word = true;
		} else {
			buf_add(&w, &c, 1);
			in_word = true;
		}
	}
	if (quote != 0) {
		why = "no closing quotation";
		goto fail;
	}
	if (in_word)
		argv_push(&argv, &n, &cap, &w);
	buf_cleanup(&w);
	if (n == 0)
		return err_set(err, ERR_CONFIG, "no command");
	*argv_out = argv;
	return 0;
fail:
	buf_cleanup(&w);
	creds_argv_free(argv);
	return err_set(err, ERR_CONFIG, "%s", why);
}

void
creds_argv_free(char **argv)
{
	if (argv == NULL)
		return;
	for (char **a = argv; *a != NULL; a++)
		free(*a);
	free(argv);
}

void
creds_buf_secret(struct buf *b, size_t max)
{
	/* one allocation up front: growing by realloc would leave unwiped copies behind */
	buf_init(b, max);
	b->data = xmalloc(max + 1);
	b->data[0] = '\0';
	b->cap = max + 1;
}

void
creds_response_cleanup(struct http_response *r)
{
	buf_cleanup_secure(&r->body);
	http_response_cleanup(r);
}

int
creds_read_file(const char *path, size_t max, char **out, struct err *err)
{
	FILE *f = fopen(path, "rb");
	struct buf b;
	char chunk[4096];
	size_t n;

	*out = NULL;
	if (f == NULL)
		return err_set(err, ERR_CREDS, "cannot read %s: %s", path, err_strerror(errno));
	creds_buf_secret(&b, max);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (buf_add(&b, chunk, n) != 0) {
			OPENSSL_cleanse(chunk, sizeof chunk);
			fclose(f);
			buf_cleanup_secure(&b);
			return err_set(err, ERR_CREDS, "%s is larger than %zu bytes", path, max);
		}
	}
	OPENSSL_cleanse(chunk, sizeof chunk);
	if (ferror(f)) {
		fclose(f);
		buf_cleanup_secure(&b);
		return err_set(err, ERR_CREDS, "cannot read %s", path);
	}
	fclose(f);
	while (b.len > 0 && isspace((unsigned char)b.data[b.len - 1]))
		b.data[--b.len] = '\0';
	*out = buf_take(&b);
	return 0;
}

int
creds_url_split(const char *url, struct creds_url *u)
{
	const char *p = strstr(url, "://"), *h, *end;
	size_t n;

	memset(u, 0, sizeof *u);
	if (p == NULL || (size_t)(p - url) >= sizeof u->scheme || p == url)
		return -1;
	memcpy(u->scheme, url, (size_t)(p - url));
	for (char *s = u->scheme; *s; s++)
		*s = (char)tolower((unsigned char)*s);
	h = p + 3;
	end = h + strcspn(h, "/?#");
	n = (size_t)(end - h);
	/* userinfo is never legitimate here and would confuse the host checks */
	if (n == 0 || n >= sizeof u->host || memchr(h, '@', n) != NULL)
		return -1;
	memcpy(u->host, h, n);
	if (h[0] == '[') {
		const char *close = memchr(h, ']', n);
		if (close == NULL)
			return -1;
		memcpy(u->hostname, h + 1, (size_t)(close - h - 1));
	} else {
		size_t hn = strcspn(u->host, ":");
		memcpy(u->hostname, u->host, hn);
	}
	if (u->hostname[0] == '\0')
		return -1;
	u->path = end;
	return 0;
}

void
creds_urlencode(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
			buf_addc(b, (char)c);
		else
			buf_addf(b, "%%%02X", c);
	}
}

/* ---- JSON ---- */

struct jp {
	const char *s, *end, *start;
	struct err *err;
	struct creds_json *out;
	int depth;
};

static int
jp_fail(struct jp *p, const char *why)
{
	return err_set(p->err, ERR_PARSE, "byte %zu: %s", (size_t)(p->s - p->start) + 1, why);
}

static void
jp_ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int
hex4(const char *s, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void
utf8_put(struct buf *b, unsigned cp)
{
	if (cp < 0x80) {
		buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		buf_addc(b, (char)(0xC0 | (cp >> 6)));
		buf_addc(b, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		buf_addc(b, (char)(0xE0 | (cp >> 12)));
		buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		buf_addc(b, (char)(0x80 | (cp & 0x3F)));
	} else {
		buf_addc(b, (char)(0xF0 | (cp >> 18)));
		buf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
		buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		buf_addc(b, (char)(0x80 | (cp & 0x3F)));
	}
}

/* At the opening quote; leaves the unescaped text in b. */
static int
jp_string(struct jp *p, struct buf *b)
{
	p->s++;
	while (p->s < p->end && *p->s != '"') {
		unsigned char c = (unsigned char)*p->s;

		if (c < 0x20)
			return jp_fail(p, "control character in string");
		if (c != '\\') {
			buf_addc(b, (char)c);
			p->s++;
			continue;
		}
		if (p->end - p->s < 2)
			return jp_fail(p, "unterminated string");
		p->s++;
		switch (*p->s) {
		case '"': buf_addc(b, '"'); break;
		case '\\': buf_addc(b, '\\'); break;
		case '/': buf_addc(b, '/'); break;
		case 'b': buf_addc(b, '\b'); break;
		case 'f': buf_addc(b, '\f'); break;
		case 'n': buf_addc(b, '\n'); break;
		case 'r': buf_addc(b, '\r'); break;
		case 't': buf_addc(b, '\t'); break;
		case 'u': {
			unsigned cp, lo;
			if (p->end - p->s < 5 || hex4(p->s + 1, &cp) != 0)
				return jp_fail(p, "bad \\u escape");
			p->s += 4;
			if (cp >= 0xD800 && cp < 0xDC00) {
				if (p->end - p->s < 7 || p->s[1] != '\\' || p->s[2] != 'u' ||
				    hex4(p->s + 3, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
					return jp_fail(p, "bad surrogate pair");
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				p->s += 6;
			}
			utf8_put(b, cp);
			break;
		}
		default:
			return jp_fail(p, "bad escape in string");
		}
		p->s++;
	}
	if (p->s >= p->end)
		return jp_fail(p, "unterminated string");
	p->s++;
	return 0;
}

static void
jp_add(struct jp *p, const char *key, struct buf *val, bool is_string)
{
	struct creds_json *j = p->out;

	j->items = xgrow(j->items, j->n + 1, &j->cap, sizeof *j->items);
	j->items[j->n].key = xstrdup(key);
	j->items[j->n].value = buf_take(val);
	j->items[j->n].is_string = is_string;
	j->n++;
}

static int jp_value(struct jp *p, const char *path, bool keep);

static int
jp_object(struct jp *p, const char *path, bool keep)
{
	p->s++;
	jp_ws(p);
	if (p->s < p->end && *p->s == '}') {
		p->s++;
		return 0;
	}
	for (;;) {
		struct buf key, full;
		int rc;

		jp_ws(p);
		if (p->s >= p->end || *p->s != '"')
			return jp_fail(p, "expected a string key");
		buf_init(&key, 4096);
		if (jp_string(p, &key) != 0) {
			buf_cleanup(&key);
			return -1;
		}
		buf_init(&full, 8192);
		if (path[0] != '\0')
			buf_addf(&full, "%s.", path);
		buf_adds(&full, buf_str(&key));
		buf_cleanup(&key);
		jp_ws(p);
		if (p->s >= p->end || *p->s != ':') {
			buf_cleanup(&full);
			return jp_fail(p, "expected ':'");
		}
		p->s++;
		rc = jp_value(p, buf_str(&full), keep);
		buf_cleanup(&full);
		if (rc != 0)
			return -1;
		jp_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == '}') {
			p->s++;
			return 0;
		}
		return jp_fail(p, "expected ',' or '}'");
	}
}

static int
jp_array(struct jp *p)
{
	p->s++;
	jp_ws(p);
	if (p->s < p->end && *p->s == ']') {
		p->s++;
		return 0;
	}
	for (;;) {
		if (jp_value(p, "", false) != 0)
			return -1;
		jp_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == ']') {
			p->s++;
			return 0;
		}
		return jp_fail(p, "expected ',' or ']'");
	}
}

static int
jp_value(struct jp *p, const char *path, bool keep)
{
	struct buf v;
	int rc = 0;

	jp_ws(p);
	if (p->s >= p->end)
		return jp_fail(p, "unexpected end of input");
	if (++p->depth > 16)
		return jp_fail(p, "nested too deeply");
	if (*p->s == '"') {
		/* the unescaped text is never longer than the quoted one */
		const char *q = p->s + 1;
		while (q < p->end && *q != '"')
			q += *q == '\\' && q + 1 < p->end ? 2 : 1;
		creds_buf_secret(&v, (size_t)(q - p->s));
	} else {
		buf_init(&v, 1 << 20);
	}
	if (*p->s == '{') {
		rc = jp_object(p, path, keep);
	} else if (*p->s == '[') {
		rc = jp_array(p);
	} else if (*p->s == '"') {
		rc = jp_string(p, &v);
		if (rc == 0 && keep)
			jp_add(p, path, &v, true);
	} else {
		const char *st = p->s;
		while (p->s < p->end && (isalnum((unsigned char)*p->s) || *p->s == '-' ||
					 *p->s == '+' || *p->s == '.'))
			p->s++;
		buf_add(&v, st, (size_t)(p->s - st));
		if (strcmp(buf_str(&v), "true") != 0 && strcmp(buf_str(&v), "false") != 0 &&
		    strcmp(buf_str(&v), "null") != 0) {
			char *e;
			errno = 0;
			(void)strtod(buf_str(&v), &e);
			if (v.len == 0 || *e != '\0' || !(isdigit((unsigned char)v.data[0]) ||
							  v.data[0] == '-'))
				rc = jp_fail(p, "unexpected character");
		}
		if (rc == 0 && keep)
			jp_add(p, path, &v, false);
	}
	buf_cleanup_secure(&v);
	p->depth--;
	return rc;
}

int
creds_json_parse(const char *text, size_t len, struct creds_json *out, struct err *err)
{
	struct jp p = { text, text + len, text, err, out, 0 };

	memset(out, 0, sizeof *out);
	jp_ws(&p);
	if (p.s >= p.end || *p.s != '{') {
		jp_fail(&p, "expected a JSON object");
		creds_json_free(out);
		return -1;
	}
	if (jp_value(&p, "", true) != 0) {
		creds_json_free(out);
		return -1;
	}
	jp_ws(&p);
	if (p.s != p.end) {
		jp_fail(&p, "trailing data after the object");
		creds_json_free(out);
		return -1;
	}
	return 0;
}

const struct creds_json_item *
creds_json_item(const struct creds_json *j, const char *key)
{
	/* last duplicate wins, like most JSON readers */
	for (size_t i = j->n; i-- > 0;)
		if (strcmp(j->items[i].key, key) == 0)
			return &j->items[i];
	return NULL;
}

const char *
creds_json_get(const struct creds_json *j, const char *key)
{
	const struct creds_json_item *it = creds_json_item(j, key);

	return it != NULL ? it->value : NULL;
}

void
creds_json_free(struct creds_json *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->items[i].key);
		creds_free_secret(j->items[i].value);
	}
	free(j->items);
	memset(j, 0, sizeof *j);
}

int
creds_from_doc(const char *body, size_t len, const char *what, struct aws_creds *out,
	       struct err *err)
{
	struct creds_json j;
	const char *akid, *secret, *token, *exp, *code;
	int64_t exp_ms = TS_NONE;

	if (creds_json_parse(body, len, &j, err) != 0)
		return err_prefix(err, "%s: bad JSON in the credentials response", what);
	code = creds_json_get(&j, "Code");
	if (code != NULL && strcmp(code, "Success") != 0) {
		err_set(err, ERR_CREDS, "%s: credentials response has Code %.64s", what, code);
		creds_json_free(&j);
		return -1;
	}
	akid = creds_json_get(&j, "AccessKeyId");
	secret = creds_json_get(&j, "SecretAccessKey");
	token = creds_json_get(&j, "Token");
	exp = creds_json_get(&j, "Expiration");
	if (akid == NULL || secret == NULL || akid[0] == '\0' || secret[0] == '\0') {
		err_set(err, ERR_CREDS, "%s: credentials response lacks AccessKeyId or "
			"SecretAccessKey", what);
		creds_json_free(&j);
		return -1;
	}
	if (exp != NULL && timeutil_parse_iso8601(exp, &exp_ms) != 0) {
		err_set(err, ERR_CREDS, "%s: bad Expiration '%.40s'", what, exp);
		creds_json_free(&j);
		return -1;
	}
	creds_set(out, akid, secret, token, exp_ms, what);
	creds_json_free(&j);
	return 0;
}
