/* awserr: a failed AWS answer as one line a user can act on: the AWS error code, its
 * message, and what to do, for the JSON protocols' __type and the XML errors (moto, STS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "awsjson.h"
#include "ecsprof/buf.h"
#include "ecsprof/xmlscan.h"

/* Codes every JSON-protocol service shares, then each service's own (a service adds its
 * rows here). */
static const struct {
	const char *code;
	const char *hint;       /* NULL: the IAM hint naming the operation */
	enum err_code ec;
} hints[] = {
	{ "AccessDeniedException", NULL, ERR_AWS },
	{ "AccessDenied", NULL, ERR_AWS },
	{ "UnauthorizedOperation", NULL, ERR_AWS },
	{ "InvalidSignatureException", "check the secret key and the clock", ERR_CREDS },
	{ "SignatureDoesNotMatch", "check the secret key and the clock", ERR_CREDS },
	{ "UnrecognizedClientException",
	  "the access key is unknown here; check AWS_ACCESS_KEY_ID / --profile, the session token and --region", ERR_CREDS },
	{ "InvalidClientTokenId",
	  "the access key is unknown here; check AWS_ACCESS_KEY_ID / --profile, the session token and --region", ERR_CREDS },
	{ "ExpiredTokenException", "the credentials expired; refresh them (e.g. aws sso login) and run again", ERR_CREDS },
	{ "ExpiredToken", "the credentials expired; refresh them (e.g. aws sso login) and run again", ERR_CREDS },
	{ "RequestExpired", "check the clock of this machine", ERR_CREDS },
	{ "IncompleteSignatureException", "the request was not signed as AWS expects; check --endpoint-url and --region", ERR_CREDS },
	{ "MissingAuthenticationTokenException", "the request was not signed as AWS expects; check --endpoint-url and --region", ERR_CREDS },
	{ "ClusterNotFoundException", "check --cluster and --region", ERR_AWS },
	{ "ServiceNotFoundException", "check --service, --cluster and --region", ERR_AWS },
	{ "InvalidParameterException", "check the SELECT options", ERR_AWS },
	{ "TargetGroupNotFound", "the target group is gone, or in another account or region "
	  "than --region", ERR_AWS },
};

/* Printable one-line excerpt of an unknown body. */
static void
excerpt(const char *s, size_t len, char *out, size_t size)
{
	size_t j = 0;

	for (size_t i = 0; i < len && j + 4 < size; i++) {
		unsigned char ch = (unsigned char)s[i];
		out[j++] = (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch;
	}
	out[j] = '\0';
	if (len > j && j + 4 >= size)
		memcpy(out + j, "...", 4);
}

int
awsjson_error(const struct awsjson_service *svc, const char *op,
	      const struct http_response *resp, int attempts, struct err *err)
{
	char no_code[96];

	char code[64] = "", message[384] = "", hint[160] = "", after[48] = "";
	enum err_code ec = ERR_AWS;
	json_t *root;

	http_aws_error_code(resp, code, sizeof code);
	root = json_loadb(buf_str(&resp->body), resp->body.len, 0, NULL);
	if (json_is_object(root)) {
		const char *m = json_string_value(json_object_get(root, "message"));
		if (m == NULL)
			m = json_string_value(json_object_get(root, "Message"));
		if (m != NULL)
			snprintf(message, sizeof message, "%s", m);
	} else {
		xmlscan_text(buf_str(&resp->body), "Message", message, sizeof message);
	}
	json_decref(root);
	for (char *p = message; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';

	if (resp->status >= 500 || resp->status == 429)
		snprintf(after, sizeof after, " (HTTP %ld%s", resp->status,
			 attempts > 1 ? "" : ")");
	if (attempts > 1)
		snprintf(after + strlen(after), sizeof after - strlen(after), "%safter %d attempts)",
			 after[0] ? ", " : " (", attempts);
	for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
		if (strcmp(code, hints[i].code) == 0) {
			if (hints[i].hint == NULL)
				snprintf(hint, sizeof hint,
					 "grant %s:%s in the IAM policy of these credentials",
					 svc->iam_prefix != NULL ? svc->iam_prefix
					 : svc->signing_name, op);
			else
				snprintf(hint, sizeof hint, "%s", hints[i].hint);
			ec = hints[i].ec;
			break;
		}
	}
	if (hint[0] == '\0' && (resp->status == 429 || http_is_throttling_code(code))) {
		snprintf(hint, sizeof hint,
			 "still throttled; lower --concurrency, raise AWS_MAX_ATTEMPTS, or retry later");
		ec = ERR_THROTTLED;
	} else if (hint[0] == '\0' && resp->status >= 500) {
		snprintf(hint, sizeof hint, "a failure on the AWS side; retry later");
	}
	if (code[0] == '\0') {
		char ex[160];
		excerpt(buf_str(&resp->body), resp->body.len, ex, sizeof ex);
		char tries[32] = "";
		if (attempts > 1)
			snprintf(tries, sizeof tries, " (after %d attempts)", attempts);
		snprintf(no_code, sizeof no_code, " — is --endpoint-url an %s endpoint?",
			 svc->service_id);
		err_set(err, ec, "%s: HTTP %ld%s with no AWS error code%s%s%s%s", op, resp->status,
			tries, ex[0] ? ": " : "", ex, hint[0] ? " — " : no_code, hint);
	} else {
		err_set(err, ec, "%s: %s%s%s%s%s", code, message[0] ? message : "(no message)",
			after, hint[0] ? " — " : "", hint, "");
	}
	snprintf(err->aws_type, sizeof err->aws_type, "%s", code);
	err->http_status = resp->status;
	return -1;
}

/* ---- calling one operation ------------------------------------------------------------ */

/* POSTs body to op and returns the parsed answer in *out. A 200 whose body is not JSON
 * (cut short by a proxy or a broken connection) is tried again like a 5xx. */
