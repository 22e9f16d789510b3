/* http: response helpers and the retry policy of the AWS SDKs' "standard" mode, kept
 * above the transport so that unit tests drive it with a scripted transport and a fake
 * clock. No JSON library here: finding an error code needs only a small scan. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/http.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "ecsprof/xmlscan.h"

#define DEFAULT_ATTEMPTS 3
#define DEFAULT_BASE_MS 100
#define DEFAULT_CAP_MS 20000
/* the InvalidSignature family means skew only when the clocks are this far apart;
 * AWS rejects requests more than 5 minutes off */
#define SKEW_SUSPECT_MS (4 * 60 * 1000)
#define RETRY_AFTER_MAX_S 86400L

void
http_response_init(struct http_response *r)
{
	r->status = 0;
	buf_init(&r->body, 0);
	r->headers = NULL;
}

void
http_response_init_secret(struct http_response *r)
{
	http_response_init(r);
	buf_init_secret(&r->body, 0);
}

void
http_response_cleanup(struct http_response *r)
{
	buf_cleanup(&r->body);
	free(r->headers);
	r->headers = NULL;
	r->status = 0;
}

int
http_response_header(const struct http_response *r, const char *name, char *out, size_t size)
{
	size_t nlen = strlen(name);
	const char *p = r->headers;

	if (p == NULL)
		return -1;
	while (*p != '\0') {
		size_t n = strcspn(p, "\r\n");
		if (n > nlen && strncasecmp(p, name, nlen) == 0 && p[nlen] == ':') {
			const char *v = p + nlen + 1, *end = p + n;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
			if (size > 0)
				snprintf(out, size, "%.*s", (int)(end - v), v);
			return 0;
		}
		p += n;
		p += strspn(p, "\r\n");
	}
	return -1;
}

/* Smithy's rule: "ns#Code:extra" -> "Code". */
static void
sanitise_code(const char *s, size_t len, char *out, size_t size)
{
	const char *end, *hash;
	size_t i;

	end = memchr(s, ':', len);
	if (end != NULL)
		len = (size_t)(end - s);
	for (i = len; i > 0; i--)
		if (s[i - 1] == '#')
			break;
	hash = s + i;
	len -= i;
	while (len > 0 && isspace((unsigned char)*hash)) {
		hash++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)hash[len - 1]))
		len--;
	snprintf(out, size, "%.*s", (int)len, hash);
}

/* The string value of "key" in a JSON object body, without unescaping (codes have no
 * escapes); NULL if the key is not found. */
static const char *
json_scan_string(const char *body, const char *key, size_t *len)
{
	char pat[32];
	const char *p = body;

	snprintf(pat, sizeof pat, "\"%s\"", key);
	while ((p = strstr(p, pat)) != NULL) {
		const char *q = p + strlen(pat);
		while (isspace((unsigned char)*q))
			q++;
		if (*q != ':') {
			p++;
			continue;
		}
		q++;
		while (isspace((unsigned char)*q))
			q++;
		if (*q != '"') {
			p++;
			continue;
		}
		q++;
		*len = strcspn(q, "\"\\");
		return q;
	}
	return NULL;
}

int
http_aws_error_code(const struct http_response *r, char *out, size_t size)
{
	char hdr[256];
	const char *body = buf_str(&r->body), *v;
	size_t len = 0;

	if (size > 0)
		out[0] = '\0';
	if (http_response_header(r, "x-amzn-errortype", hdr, sizeof hdr) == 0 && hdr[0]) {
		sanitise_code(hdr, strlen(hdr), out, size);
		if (out[0])
			return 0;
	}
	v = json_scan_string(body, "__type", &len);
	if (v == NULL)
		v = json_scan_string(body, "code", &len);
	if (v == NULL)
		v = json_scan_string(body, "Code", &len);
	if (v == NULL)
		v = xmlscan_find(body, "Code", &len);
	if (v == NULL)
		return -1;
	sanitise_code(v, len, out, size);
	return out[0] ? 0 : -1;
}

static bool
in_list(const char *code, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(code, *list) == 0)
			return true;
	return false;
}

/* botocore/retries/standard.py and _retry.json */
static const char *const throttling_codes[] = {
	"Throttling", "ThrottlingException", "ThrottledException",
	"RequestThrottledException", "TooManyRequestsException",
	"ProvisionedThroughputExceededException", "TransactionInProgressException",
	"RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException",
	"RequestThrottled", "SlowDown", "PriorRequestNotComplete", "EC2ThrottledException",
	NULL
};
static const char *const transient_codes[] = {
	"RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete",
	"InternalFailure", "InternalError", "ServiceUnavailable", NULL
};
/* the server says outright that our clock is off */
static const char *const skew_codes[] = {
	"RequestTimeTooSkewed", "RequestExpired", "RequestInTheFuture", NULL
};
/* may be skew or a wrong secret: only a far-off Date decides */
static const char *const maybe_skew_codes[] = {
	"InvalidSignatureException", "SignatureDoesNotMatch", "AuthFailure",
	"InvalidSignature", NULL
};

bool
http_is_throttling_code(const char *code)
{
	return code != NULL && in_list(code, throttling_codes);
}

static int
month_from_name(const char *s)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

	for (int i = 0; i < 12; i++)
		if (strncmp(s, names + 3 * i, 3) == 0)
			return i + 1;
	return -1;
}

static int
parse_uint(const char **p, int ndigits_max, long *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno != 0 || end - *p > ndigits_max)
		return -1;
	*p = end;
	*out = v;
	return 0;
}

static int
expect(const char **p, char c)
{
	if (**p != c)
		return -1;
	(*p)++;
	return 0;
}

static int
parse_hms(const char **p, long *h, long *mi, long *s)
{
	if (parse_uint(p, 2, h) || expect(p, ':') || parse_uint(p, 2, mi) ||
	    expect(p, ':') || parse_uint(p, 2, s))
		return -1;
	return 0;
}

int
http_parse_date(const char *s, int64_t *out_ms)
{
	const char *p = s, *comma;
	long d, y, h, mi, sec;
	int m;

	while (isspace((unsigned char)*p))
		p++;
	comma = strchr(p, ',');
	if (comma != NULL) {
		/* IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT" or RFC 850
		 * "Sunday, 06-Nov-94 08:49:37 GMT" */
		p = comma + 1;
		while (*p == ' ')
			p++;
		if (parse_uint(&p, 2, &d))
			return -1;
		if (*p != ' ' && *p != '-')
			return -1;
		p++;
		if ((m = month_from_name(p)) < 0)
			return -1;
		p += 3;
		if (*p != ' ' && *p != '-')
			return -1;
		p++;
		if (parse_uint(&p, 4, &y))
			return -1;
		if (y < 100)
			y += y < 70 ? 2000 : 1900;
		if (expect(&p, ' ') || parse_hms(&p, &h, &mi, &sec))
			return -1;
		while (*p == ' ')
			p++;
		if (strncmp(p, "GMT", 3) != 0 && strncmp(p, "UTC", 3) != 0)
			return -1;
	} else {
		/* asctime "Sun Nov  6 08:49:37 1994" */
		if (strlen(p) < 24 || p[3] != ' ')
			return -1;
		p += 4;
		if ((m = month_from_name(p)) < 0)
			return -1;
		p += 3;
		while (*p == ' ')
			p++;
		if (parse_uint(&p, 2, &d) || expect(&p, ' ') ||
		    parse_hms(&p, &h, &mi, &sec) || expect(&p, ' ') || parse_uint(&p, 4, &y))
			return -1;
	}
	if (d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1970 || y > 9999)
		return -1;
	*out_ms = (timeutil_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 +
		   h * 3600 + mi * 60 + sec) * 1000;
	return 0;
}

/* Retry-After: delay-seconds or an HTTP-date; -1 when absent or unreadable. */
static int64_t
retry_after_ms(const struct http_response *resp, int64_t now_ms)
{
	char v[128];
	char *end;
	long secs;
	int64_t when;

	if (http_response_header(resp, "retry-after", v, sizeof v) != 0)
		return -1;
	errno = 0;
	secs = strtol(v, &end, 10);
	/* any delay beyond a day is a day: the caller caps it far lower, and seconds * 1000
	 * must not overflow (Retry-After: 9223372036854775807) */
	if (end != v && *end == '\0' && (errno == 0 || errno == ERANGE) && secs >= 0)
		return (int64_t)(secs > RETRY_AFTER_MAX_S ? RETRY_AFTER_MAX_S : secs) * 1000;
	if (http_parse_date(v, &when) == 0)
		return when > now_ms ? when - now_ms : 0;
	return -1;
}

/* xorshift64*: jitter needs no quality, only independence between threads */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static int64_t
load_skew(const struct http_retry *r)
{
	return r->skew_ms ? __atomic_load_n(r->skew_ms, __ATOMIC_RELAXED) : 0;
}

enum verdict { V_DONE, V_RETRY, V_THROTTLED, V_SKEW };

/* signed_ms: the time the request was signed with. Comparing the server's Date with it,
 * not with the current skew, keeps a request that raced another thread's correction from
 * mistaking its stale signature for a wrong secret. */
static enum verdict
judge_response(struct http_retry *r, const struct http_response *resp, bool skew_tried,
	       int64_t signed_ms, char *code, size_t code_size)
{
	char date[128];
	int64_t server_ms;

	if (resp->status >= 200 && resp->status < 400)
		return V_DONE;
	http_aws_error_code(resp, code, code_size);
	if (!skew_tried && r->skew_ms != NULL && code[0] != '\0' &&
	    (in_list(code, skew_codes) || in_list(code, maybe_skew_codes)) &&
	    http_response_header(resp, "date", date, sizeof date) == 0 &&
	    http_parse_date(date, &server_ms) == 0) {
		if (in_list(code, skew_codes) || llabs(server_ms - signed_ms) >= SKEW_SUSPECT_MS) {
			__atomic_store_n(r->skew_ms, server_ms - timeutil_clock_now(r->clock),
					 __ATOMIC_RELAXED);
			return V_SKEW;
		}
	}
	if (resp->status == 429 || http_is_throttling_code(code))
		return V_THROTTLED;
	if (resp->status == 500 || resp->status == 502 || resp->status == 503 ||
	    resp->status == 504 || in_list(code, transient_codes))
		return V_RETRY;
	return V_DONE;
}

#define CANCEL_SLICE_MS 20

bool
http_cancelled(const int *cancel)
{
	return cancel != NULL && __atomic_load_n(cancel, __ATOMIC_RELAXED) != 0;
}

static int
cancelled(struct err *err)
{
	err_set(err, ERR_NETWORK, "cancelled");
	snprintf(err->aws_type, sizeof err->aws_type, "%s", HTTP_CANCELLED);
	return -1;
}

int
http_send_retry(const struct http_transport *t, struct http_retry *r,
		http_prepare_fn *prepare, void *pctx, struct http_response *resp,
		struct err *err)
{
	int max = r->max_attempts > 0 ? r->max_attempts : DEFAULT_ATTEMPTS;
	int64_t base = r->base_ms > 0 ? r->base_ms : DEFAULT_BASE_MS;
	int64_t cap = r->cap_ms > 0 ? r->cap_ms : DEFAULT_CAP_MS;
	bool skew_tried = false;
	/* the jitter's seed: the clock, the caller's state and this call's stack (so threads
	 * retrying in the same millisecond differ, without a counter shared by the process) */
	uint64_t rng = (uint64_t)timeutil_clock_now(r->clock) ^
		       ((uint64_t)(uintptr_t)r << 16) ^
		       ((uint64_t)(uintptr_t)&skew_tried * 0x9E3779B97F4A7C15ULL);
	int retries = 0, rc;

	if (rng == 0)
		rng = 1;
	r->attempts = 0;
	r->throttled = 0;
	r->skew_corrected = false;
	for (;;) {
		struct http_request req;
		char code[64] = "";
		char why[sizeof err->msg];
		enum verdict v;
		int64_t delay, ceiling, after, signed_ms;

		memset(&req, 0, sizeof req);
		if (http_cancelled(r->cancel))
			return cancelled(err);
		signed_ms = timeutil_clock_now(r->clock) + load_skew(r);
		if (prepare(pctx, signed_ms, &req, err) != 0)
			return -1;
		if (req.cancel == NULL)
			req.cancel = r->cancel;
		r->attempts++;
		buf_reset(&resp->body);
		free(resp->headers);
		resp->headers = NULL;
		resp->status = 0;
		rc = t->send(t->ctx, &req, resp, err);
		if (r->trace != NULL && r->trace->len > 0) {
			/* this attempt's trace, before the retry's own lines */
			log_block(r->log, buf_str(r->trace));
			buf_reset(r->trace);
		}
		if (rc != 0) {
			if (http_cancelled(r->cancel))
				return cancelled(err);
			if (strcmp(err->aws_type, HTTP_NET_TIMEOUT) != 0 &&
			    strcmp(err->aws_type, HTTP_NET_CONNECTION) != 0)
				return -1;
			if (retries + 1 >= max) {
				if (max > 1)
					err_prefix(err, "gave up after %d attempts", r->attempts);
				return -1;
			}
			snprintf(why, sizeof why, "%s", err->msg);
			v = V_RETRY;
			after = -1;
		} else {
			v = judge_response(r, resp, skew_tried, signed_ms, code, sizeof code);
			if (v == V_DONE)
				return 0;
			if (v == V_SKEW) {
				skew_tried = true;
				r->skew_corrected = true;
				log_info(r->log, "%s: clock off by %.1f s; signing again with the "
					 "server's time", code, (double)load_skew(r) / 1000.0);
				continue;
			}
			if (v == V_THROTTLED)
				r->throttled++;
			if (retries + 1 >= max)
				return 0;
			snprintf(why, sizeof why, "HTTP %ld%s%s", resp->status,
				 code[0] ? " " : "", code);
			after = retry_after_ms(resp, timeutil_clock_now(r->clock) + load_skew(r));
		}
		retries++;
		ceiling = base;
		for (int i = 1; i < retries && ceiling < cap; i++)
			ceiling *= 2;
		if (ceiling > cap)
			ceiling = cap;
		delay = (int64_t)(next_random(&rng) % (uint64_t)(ceiling + 1));
		if (after > delay)
			delay = after > cap ? cap : after;
		log_info(r->log, "%s; retry %d of %d in %lld ms", why, retries, max - 1,
			 (long long)delay);
		/* in slices, so that a cancelled run does not wait out a 20 s backoff */
		if (r->cancel == NULL)
			timeutil_clock_sleep(r->clock, delay);
		for (int64_t slept = 0; r->cancel != NULL && slept < delay &&
					!http_cancelled(r->cancel); slept += CANCEL_SLICE_MS)
			timeutil_clock_sleep(r->clock, delay - slept < CANCEL_SLICE_MS
							       ? delay - slept : CANCEL_SLICE_MS);
	}
}
