/* fuzz_creds: libFuzzer harness for what a credential or AWS endpoint sends back before
 * any signature protects us: the container/SSO credential JSON, the STS XML answers, AWS
 * error bodies (JSON or XML, with headers) and HTTP Date headers. The first byte picks
 * the reader; the rest is the server's bytes. What must hold for every input:
 * - no crash, leak or out-of-bounds read (ASan/UBSan);
 * - an error is one line that names its source ("fuzz ..."), as err.h promises;
 * - credentials, when accepted, have a non-empty key id and secret;
 * - a parsed HTTP date formats back (IMF-fixdate) to the same instant. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ecsprof/creds.h"
#include "ecsprof/http.h"
#include "ecsprof/timeutil.h"
#include "src/aws/awsjson.h"
#include "src/aws/creds_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
one_line(const struct err *err, const char *prefix)
{
	if (strchr(err->msg, '\n') != NULL || strchr(err->msg, '\r') != NULL)
		abort();
	if (prefix != NULL && strncmp(err->msg, prefix, strlen(prefix)) != 0)
		abort();
}

static void
accepted(const struct aws_creds *c)
{
	if (c->access_key_id == NULL || c->access_key_id[0] == '\0' ||
	    c->secret_access_key == NULL || c->secret_access_key[0] == '\0')
		abort();
}

static void
json_doc(const char *text, size_t len)
{
	struct creds_json j;
	struct aws_creds c = { 0 };
	struct err err = { 0 };

	if (creds_json_parse(text, len, &j, &err) == 0) {
		for (size_t i = 0; i < j.n; i++) {
			const struct creds_json_item *it = creds_json_item(&j, j.items[i].key);
			if (it == NULL || it->value == NULL)
				abort();
		}
		creds_json_free(&j);
	} else {
		one_line(&err, NULL);
	}
	err_clear(&err);
	if (creds_from_doc(text, len, "fuzz", &c, &err) == 0)
		accepted(&c);
	else
		one_line(&err, "fuzz");
	aws_creds_cleanup(&c);
}

static void
sts(const char *text, size_t len, long status)
{
	struct http_response r;
	struct aws_creds c = { 0 };
	struct err err = { 0 };

	http_response_init(&r);
	r.status = status;
	buf_add(&r.body, text, len);
	if (creds_sts_answer(&r, "fuzz", "fuzz", &c, &err) == CREDS_FOUND)
		accepted(&c);
	else
		one_line(&err, "fuzz");
	aws_creds_cleanup(&c);
	http_response_cleanup(&r);
}

/* "headers\n\nbody": the header block as curl hands it over, then the body */
static void
aws_error(const char *text, size_t len)
{
	struct http_response r;
	struct err err = { 0 };
	const char *split = memmem(text, len, "\n\n", 2);
	char code[64];

	http_response_init(&r);
	r.status = 400;
	if (split != NULL) {
		size_t hl = (size_t)(split - text);
		r.headers = malloc(hl + 1);
		if (r.headers == NULL)
			abort();
		memcpy(r.headers, text, hl);
		r.headers[hl] = '\0';
		buf_add(&r.body, split + 2, len - hl - 2);
	} else {
		buf_add(&r.body, text, len);
	}
	if (http_aws_error_code(&r, code, sizeof code) == 0 &&
	    (code[0] == '\0' || strlen(code) >= sizeof code))
		abort();
	if (awsjson_error(&awsjson_ecs, "DescribeTasks", &r, 1, &err) != -1)
		abort();
	one_line(&err, NULL);
	http_response_cleanup(&r);
}

static void
http_date(const char *text)
{
	int64_t ms, again;
	time_t secs;
	struct tm tm;
	char back[64];

	if (http_parse_date(text, &ms) != 0)
		return;
	if (ms % 1000 != 0)
		abort();
	secs = (time_t)(ms / 1000);
	if (gmtime_r(&secs, &tm) == NULL || tm.tm_year + 1900 < 1 || tm.tm_year + 1900 > 9999)
		return;
	strftime(back, sizeof back, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (http_parse_date(back, &again) != 0 || again != ms)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text;
	size_t len;
	char *z;

	if (size == 0)
		return 0;
	text = (const char *)data + 1;
	len = size - 1;
	/* the readers below take NUL-terminated text where the network layer gives it */
	if ((z = malloc(len + 1)) == NULL)
		abort();
	memcpy(z, text, len);
	z[len] = '\0';
	switch (data[0] % 5) {
	case 0: json_doc(text, len); break;
	case 1: sts(z, len, 200); break;
	case 2: sts(z, len, 403); break;
	case 3: aws_error(z, len); break;
	default: http_date(z); break;
	}
	free(z);
	return 0;
}
