/* Unit tests for http.c: the retry policy driven by a scripted transport and a fake clock,
 * error-code extraction and HTTP dates. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/ecr.h"
#include "ecsprof/http.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

struct step {
	long status;            /* 0 = network error */
	const char *headers;
	const char *body;
	const char *net_type;   /* aws_type of the network error */
};

struct script {
	const struct step *steps;
	size_t n, next;
	int64_t sent_time[16];  /* the now_ms each attempt was prepared with */
};

static int64_t fake_now;
static int64_t slept[16];
static size_t nslept;

static int64_t
now_fake(void *ctx)
{
	(void)ctx;
	return fake_now;
}

static void
sleep_fake(void *ctx, int64_t ms)
{
	(void)ctx;
	cr_assert(ms >= 0);
	if (nslept < 16)
		slept[nslept++] = ms;
	fake_now += ms;
}

static const struct timeutil_clock fake_clock = { now_fake, sleep_fake, NULL };

static int
send_scripted(void *ctx, const struct http_request *req, struct http_response *resp,
	      struct err *err)
{
	struct script *s = ctx;
	const struct step *st;

	cr_assert(s->next < s->n, "more attempts than scripted");
	st = &s->steps[s->next++];
	fake_now += 5;
	if (st->status == 0) {
		err_set(err, ERR_NETWORK, "connection reset");
		snprintf(err->aws_type, sizeof err->aws_type, "%s", st->net_type);
		return -1;
	}
	resp->status = st->status;
	resp->headers = xstrdup(st->headers ? st->headers : "");
	buf_adds(&resp->body, st->body ? st->body : "");
	return 0;
}

struct prep {
	struct script *s;
	int calls;
};

static int
prepare(void *ctx, int64_t now_ms, struct http_request *req, struct err *err)
{
	struct prep *p = ctx;

	if (p->calls < 16)
		p->s->sent_time[p->calls] = now_ms;
	p->calls++;
	req->method = "POST";
	req->url = "http://127.0.0.1/";
	req->body = "{}";
	req->body_len = 2;
	return 0;
}

static void
setup(void)
{
	fake_now = 1700000000000;
	nslept = 0;
}

static int
run(const struct step *steps, size_t n, struct http_retry *r, struct http_response *resp,
    struct err *err, struct script *s)
{
	struct http_transport t = { send_scripted, s };
	struct prep p = { s, 0 };

	s->steps = steps;
	s->n = n;
	s->next = 0;
	http_response_init(resp);
	err_clear(err);
	r->clock = &fake_clock;   /* passed in: the process clock is never touched */
	return http_send_retry(&t, r, prepare, &p, resp, err);
}

TestSuite(http, .init = setup);

Test(http, retries_503_then_429_retry_after_then_200)
{
	static const struct step steps[] = {
		{ 503, "Content-Type: text/plain\r\n", "unavailable", NULL },
		{ 429, "Retry-After: 2\r\n", "{\"__type\":\"TooManyRequestsException\"}", NULL },
		{ 200, "Content-Type: application/x-amz-json-1.1\r\n", "{\"taskArns\":[]}", NULL },
	};
	struct script s = { 0 };
	struct http_retry r = { 0 };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 3, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 200);
	cr_expect_str_eq(buf_str(&resp.body), "{\"taskArns\":[]}");
	cr_expect_eq(r.attempts, 3);
	cr_expect_eq(r.throttled, 1);
	cr_assert_eq(nslept, 2);
	/* first retry: full jitter within the base */
	cr_expect_leq(slept[0], 100);
	/* second retry: Retry-After (2 s) beats the jitter ceiling of 200 ms */
	cr_expect_eq(slept[1], 2000);
	http_response_cleanup(&resp);
}

/* issue 10 item 8: seconds * 1000 overflowed (UBSan), and the wrapped negative delay
 * made the retry come at once instead of after the cap */
Test(http, retry_after_overflow_is_capped)
{
	static const struct step steps[] = {
		{ 429, "Retry-After: 9223372036854775807\r\n", "{}", NULL },
		{ 429, "Retry-After: 99999999999999999999999\r\n", "{}", NULL },
		{ 200, "", "{}", NULL },
	};
	struct script s = { 0 };
	struct http_retry r = { 0 };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 3, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 200);
	cr_assert_eq(nslept, 2);
	cr_expect_eq(slept[0], 20000, "slept %lld", (long long)slept[0]);
	cr_expect_eq(slept[1], 20000, "slept %lld", (long long)slept[1]);
	http_response_cleanup(&resp);
}

Test(http, throttling_body_is_retried_until_attempts_run_out)
{
	static const struct step steps[] = {
		{ 400, "", "{\"__type\":\"ThrottlingException\",\"message\":\"Rate exceeded\"}", NULL },
		{ 400, "", "{\"__type\":\"com.amazon.coral#ThrottlingException\",\"message\":\"Rate exceeded\"}", NULL },
		{ 400, "x-amzn-ErrorType: ThrottlingException:http://internal\r\n", "{}", NULL },
		{ 400, "", "{\"__type\":\"ThrottlingException\",\"message\":\"Rate exceeded\"}", NULL },
		{ 400, "", "{\"__type\":\"ThrottlingException\",\"message\":\"Rate exceeded\"}", NULL },
	};
	struct script s = { 0 };
	struct http_retry r = { .max_attempts = 5, .base_ms = 100, .cap_ms = 300 };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 5, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 400);
	cr_expect_eq(r.attempts, 5);
	cr_expect_eq(r.throttled, 5);
	cr_assert_eq(nslept, 4);
	cr_expect_leq(slept[0], 100);
	cr_expect_leq(slept[1], 200);
	cr_expect_leq(slept[2], 300);   /* capped */
	cr_expect_leq(slept[3], 300);
	http_response_cleanup(&resp);
}

Test(http, other_4xx_is_not_retried)
{
	static const struct step steps[] = {
		{ 400, "", "{\"__type\":\"AccessDeniedException\",\"Message\":\"no\"}", NULL },
		{ 200, "", "{}", NULL },
	};
	struct script s = { 0 };
	struct http_retry r = { 0 };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 2, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 400);
	cr_expect_eq(r.attempts, 1);
	cr_expect_eq(nslept, 0);
	http_response_cleanup(&resp);
}

Test(http, network_reset_retried_but_tls_failure_not)
{
	static const struct step reset[] = {
		{ 0, NULL, NULL, HTTP_NET_CONNECTION },
		{ 0, NULL, NULL, HTTP_NET_TIMEOUT },
		{ 200, "", "{}", NULL },
	};
	static const struct step tls[] = {
		{ 0, NULL, NULL, "" },
		{ 200, "", "{}", NULL },
	};
	struct script s = { 0 };
	struct http_retry r = { 0 };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(reset, 3, &r, &resp, &err, &s), 0);
	cr_expect_eq(r.attempts, 3);
	http_response_cleanup(&resp);

	cr_assert_eq(run(tls, 2, &r, &resp, &err, &s), -1);
	cr_expect_eq(r.attempts, 1);
	cr_expect_eq(err.code, ERR_NETWORK);
	http_response_cleanup(&resp);
}

Test(http, network_errors_give_up_after_max_attempts)
{
	static const struct step steps[] = {
		{ 0, NULL, NULL, HTTP_NET_TIMEOUT },
		{ 0, NULL, NULL, HTTP_NET_TIMEOUT },
		{ 0, NULL, NULL, HTTP_NET_TIMEOUT },
	};
	struct script s = { 0 };
	struct http_retry r = { 0 };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 3, &r, &resp, &err, &s), -1);
	cr_expect_eq(r.attempts, 3);
	cr_expect(strstr(err.msg, "3 attempts") != NULL, "%s", err.msg);
	http_response_cleanup(&resp);
}

Test(http, skewed_date_gives_one_resigned_retry)
{
	/* server clock is 1 hour ahead of ours (fake_now = 2023-11-14T22:13:20Z) */
	static const struct step steps[] = {
		{ 400, "Date: Tue, 14 Nov 2023 23:13:20 GMT\r\n",
		  "{\"__type\":\"InvalidSignatureException\",\"message\":\"Signature expired: "
		  "20231114T221320Z is now earlier than 20231114T230820Z\"}", NULL },
		{ 200, "", "{}", NULL },
	};
	struct script s = { 0 };
	int64_t skew = 0;
	struct http_retry r = { .skew_ms = &skew };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 2, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 200);
	cr_expect_eq(r.attempts, 2);
	cr_expect(r.skew_corrected);
	cr_expect_eq(nslept, 0);
	/* the fake transport advanced the clock 5 ms during the first attempt */
	cr_expect_eq(skew, 3600000 - 5);
	cr_expect_eq(s.sent_time[1], 1700000000000 + 3600000);
	http_response_cleanup(&resp);
}

Test(http, skew_retry_happens_only_once)
{
	static const struct step steps[] = {
		{ 400, "Date: Tue, 14 Nov 2023 23:13:20 GMT\r\n",
		  "{\"__type\":\"RequestExpired\",\"message\":\"expired\"}", NULL },
		{ 400, "Date: Tue, 14 Nov 2023 23:13:20 GMT\r\n",
		  "{\"__type\":\"RequestExpired\",\"message\":\"expired\"}", NULL },
		{ 200, "", "{}", NULL },
	};
	struct script s = { 0 };
	int64_t skew = 0;
	struct http_retry r = { .skew_ms = &skew };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 3, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 400);
	cr_expect_eq(r.attempts, 2);
	http_response_cleanup(&resp);
}

Test(http, wrong_secret_with_good_clock_is_not_retried)
{
	/* Date equals our clock: InvalidSignatureException is a bad secret, not skew */
	static const struct step steps[] = {
		{ 400, "Date: Tue, 14 Nov 2023 22:13:20 GMT\r\n",
		  "{\"__type\":\"InvalidSignatureException\",\"message\":\"The request signature "
		  "we calculated does not match\"}", NULL },
		{ 200, "", "{}", NULL },
	};
	struct script s = { 0 };
	int64_t skew = 0;
	struct http_retry r = { .skew_ms = &skew };
	struct http_response resp;
	struct err err;

	cr_assert_eq(run(steps, 2, &r, &resp, &err, &s), 0);
	cr_expect_eq(resp.status, 400);
	cr_expect_eq(r.attempts, 1);
	cr_expect_eq(skew, 0);
	http_response_cleanup(&resp);
}

Test(http, error_codes_are_sanitised)
{
	static const struct {
		const char *headers, *body, *want;
	} cases[] = {
		{ "", "{\"__type\":\"ClusterNotFoundException\",\"message\":\"x\"}", "ClusterNotFoundException" },
		{ "", "{\"__type\": \"com.amazonaws.ecs#ClusterNotFoundException\"}", "ClusterNotFoundException" },
		{ "", "{\"__type\":\"aws.protocoltests.restjson#FooError:http://internal.amazon.com/coral/com.amazon.coral.validate/\"}", "FooError" },
		{ "X-Amzn-Errortype: AccessDeniedException:http://internal.amazon.com/\r\n", "{}", "AccessDeniedException" },
		{ "", "<ErrorResponse><Errors><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>bad</Message></Error></Errors></ErrorResponse>", "InvalidClientTokenId" },
		{ "", "{\"code\":\"ServerException\"}", "ServerException" },
	};
	struct http_response resp;
	char code[64];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		http_response_init(&resp);
		resp.status = 400;
		resp.headers = xstrdup(cases[i].headers);
		buf_adds(&resp.body, cases[i].body);
		cr_expect_eq(http_aws_error_code(&resp, code, sizeof code), 0, "case %zu", i);
		cr_expect_str_eq(code, cases[i].want, "case %zu", i);
		http_response_cleanup(&resp);
	}
	http_response_init(&resp);
	buf_adds(&resp.body, "<html>Bad Gateway</html>");
	cr_expect_eq(http_aws_error_code(&resp, code, sizeof code), -1);
	http_response_cleanup(&resp);
}

Test(http, dates_parse)
{
	int64_t ms;

	cr_assert_eq(http_parse_date("Sun, 06 Nov 1994 08:49:37 GMT", &ms), 0);
	cr_expect_eq(ms, 784111777000);
	cr_assert_eq(http_parse_date("Sunday, 06-Nov-94 08:49:37 GMT", &ms), 0);
	cr_expect_eq(ms, 784111777000);
	cr_assert_eq(http_parse_date("Sun Nov  6 08:49:37 1994", &ms), 0);
	cr_expect_eq(ms, 784111777000);
	cr_expect_eq(http_parse_date("yesterday", &ms), -1);
	cr_expect_eq(http_parse_date("Sun, 06 Foo 1994 08:49:37 GMT", &ms), -1);
	cr_expect_eq(http_parse_date("Sun, 06 Nov 1994 08:49 GMT", &ms), -1);
}

Test(http, header_lookup_is_case_insensitive_and_trimmed)
{
	struct http_response resp;
	char v[64];

	http_response_init(&resp);
	resp.headers = xstrdup("Content-Type: a\r\nX-Amzn-RequestId:  abc-1 \r\nDate: d\r\n");
	cr_assert_eq(http_response_header(&resp, "x-amzn-requestid", v, sizeof v), 0);
	cr_expect_str_eq(v, "abc-1");
	cr_expect_eq(http_response_header(&resp, "x-amzn", v, sizeof v), -1);
	cr_expect_eq(http_response_header(&resp, "retry-after", v, sizeof v), -1);
	http_response_cleanup(&resp);
}

/* ecr_get_url (the image config's GET) honours a cancel flag as the API calls do: a
 * quitting TUI gives the download up instead of running out its retries. */
static int cancel_flag;

static int
send_then_cancel(void *ctx, const struct http_request *req, struct http_response *resp,
		 struct err *err)
{
	int *attempts = ctx;

	(void)req, (void)resp;
	(*attempts)++;
	__atomic_store_n(&cancel_flag, 1, __ATOMIC_RELAXED);
	err_set(err, ERR_NETWORK, "timed out");
	snprintf(err->aws_type, sizeof err->aws_type, "%s", HTTP_NET_TIMEOUT);
	return -1;
}

Test(http, ecr_get_url_gives_up_when_cancelled)
{
	int attempts = 0;
	struct http_transport t = { send_then_cancel, &attempts };
	char *body = NULL;
	size_t len = 0;
	struct err err;

	cancel_flag = 0;
	err_clear(&err);
	cr_assert_eq(ecr_get_url(NULL, &t, "https://blob.example.test/config?sig=x", 1024,
				 &cancel_flag, &body, &len, &err), -1);
	cr_expect_eq(attempts, 1, "retried after the cancel: %d attempts", attempts);
	cr_expect(strstr(err.aws_type, HTTP_CANCELLED) != NULL, "%s / %s", err.aws_type,
		  err.msg);
	cr_expect_null(body);
}

/* issue 10 item 10: with every file descriptor in use, libcurl says "Couldn't connect to
 * server"; the message says what it is and what to do. (Criterion runs each test in a
 * process of its own: the lowered limit and the spent descriptors end with it.) */
Test(http, out_of_file_descriptors_is_said_so)
{
	struct http_curl_options co = { .connect_timeout_ms = 2000, .timeout_ms = 3000 };
	struct http_transport t;
	struct http_request req = { .method = "GET", .url = "http://127.0.0.1:9/" };
	struct http_response resp;
	struct rlimit rl;
	struct err err = { 0 };
	int n = 0;

	cr_assert_eq(http_curl_new(&co, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = 64;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	while (open("/dev/null", O_RDONLY) >= 0)
		n++;
	cr_assert_eq(errno, EMFILE);
	http_response_init(&resp);
	cr_assert_eq(t.send(t.ctx, &req, &resp, &err), -1);
	cr_expect(strstr(err.msg, "cannot open a connection: too many open files") != NULL &&
	    strstr(err.msg, "raise ulimit -n") != NULL, "%s (%d spent)", err.msg, n);
	cr_expect_eq(err.code, ERR_NETWORK);
	http_response_cleanup(&resp);
	http_curl_free(&t);
	cr_expect_str_eq(err_strerror(ENOMEM), "out of memory");
	cr_expect(strstr(err_strerror(ENFILE), "system-wide") != NULL);
}
