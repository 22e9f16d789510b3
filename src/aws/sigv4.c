/* sigv4: AWS4-HMAC-SHA256 header signing on OpenSSL 3 (EVP_Digest, HMAC; fetched once per
 * signer cache).
 * The rules follow the aws-c-auth signer, which the shared test suites pin down:
 * the path is encoded once more as sent (non-S3 services), the query is decoded then
 * strictly re-encoded and sorted after encoding, header values are folded and squeezed. */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/hex.h"
#include "ecsprof/sigv4.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "sigv4_canon.h"

#define SIGV4_ALGORITHM "AWS4-HMAC-SHA256"

/* md: SHA-256 as fetched once by a signer's cache, or NULL for EVP_sha256() (which looks
 * it up again at each call) */
static void
sha256_hex_md(const EVP_MD *md_, const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (EVP_Digest(data, len, md, &mdlen, md_ != NULL ? md_ : EVP_sha256(), NULL) != 1 ||
	    mdlen != 32) {
		/* only on a broken OpenSSL install; a wrong hash would just be a 403 later */
		memset(out, '0', 64);
		out[64] = '\0';
		return;
	}
	hex_encode(md, 32, out);
	out[64] = '\0';
}

void
sigv4_sha256_hex(const void *data, size_t len, char out[65])
{
	sha256_hex_md(NULL, data, len, out);
}

void
sigv4_format_amz_date(int64_t time_ms, char out[17])
{
	int64_t secs = time_ms >= 0 ? time_ms / 1000 : -((-time_ms + 999) / 1000);
	int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
	unsigned rem = (unsigned)(secs - days * 86400);
	unsigned yy;
	int64_t y;
	unsigned m, d;

	timeutil_civil_from_days(days, &y, &m, &d);
	/* years outside 0..9999 cannot be written in 4 digits; clamp rather than overflow */
	yy = y < 0 ? 0 : y > 9999 ? 9999 : (unsigned)y;
	/* "%04u%02u%02uT%02u%02u%02uZ" without printf (once a request) */
	const unsigned v[6] = { yy / 100, yy % 100, m, d, rem / 3600, rem / 60 % 60 };
	char *p = out;

	for (int i = 0; i < 6; i++) {
		if (i == 4)
			*p++ = 'T';
		*p++ = (char)('0' + v[i] / 10 % 10);
		*p++ = (char)('0' + v[i] % 10);
	}
	*p++ = (char)('0' + rem % 60 / 10);
	*p++ = (char)('0' + rem % 10);
	*p++ = 'Z';
	*p = '\0';
}

/* Deriving the key costs four HMACs; a watch signs every few seconds with the same
 * (date, region, service, secret), so a handful of slots is plenty. The secret itself
 * is never stored: only its SHA-256 identifies the slot. The cache belongs to whoever
 * signs repeatedly (one per AWS client); the client's fetch threads share it, hence the
 * lock. */
#define KEY_CACHE_SLOTS 4

struct key_slot {
	bool used;
	unsigned long long stamp;
	char date[9];
	char region[64];
	char service[64];
	char secret_hash[65];
	unsigned char key[32];
};

struct sigv4_cache {
	pthread_mutex_t lock;
	struct key_slot slot[KEY_CACHE_SLOTS];
	unsigned long long clock;       /* least recently used = smallest stamp */
	unsigned long long hits;
	/* SHA-256 and HMAC-SHA256 fetched from OpenSSL's provider once per signer:
	 * EVP_sha256() and HMAC() look them up again at every call (HMAC() fetches the MAC
	 * and, in its init, the digest once more), under the store's lock, on each of the
	 * fetch's threads and for each of its requests. Set when the cache is made, only read
	 * afterwards (no lock); NULL if a fetch failed: the per-call functions then. */
	EVP_MD *sha256;
	EVP_MAC_CTX *hmac;              /* a template with its digest set: HMACs use copies */
};

struct sigv4_cache *
sigv4_cache_new(void)
{
	struct sigv4_cache *c = xcalloc(1, sizeof *c);
	EVP_MAC *mac;
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
		OSSL_PARAM_construct_end(),
	};

	pthread_mutex_init(&c->lock, NULL);
	c->sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
	/* with SHA-256 fetched, HMACs are two digests on it (hmac_sha256_md): the MAC
	 * template is only the fallback. Its fetch, OpenSSL's first of a MAC, builds the
	 * provider's table of MACs: 2.6M instructions (~0.9 ms) of every run's start,
	 * for a template no request used (issue 35) */
	if (c->sha256 != NULL)
		return c;
	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (mac != NULL) {
		c->hmac = EVP_MAC_CTX_new(mac);
		if (c->hmac != NULL && EVP_MAC_CTX_set_params(c->hmac, params) != 1) {
			EVP_MAC_CTX_free(c->hmac);
			c->hmac = NULL;
		}
		EVP_MAC_free(mac);   /* the context keeps its own reference */
	}
	return c;
}

/* HMAC-SHA256 (RFC 2104) on the fetched SHA-256: a request's signature is one HMAC, and
 * copying the MAC template and keying it cost ~19,000 instructions of the ~50,000 a
 * request's signing took besides its hashing (issue 35); two digests on one context cost
 * a fifth of that. -1 when OpenSSL fails. */
static int
hmac_sha256_md(const EVP_MD *md, const void *key, size_t keylen, const void *data,
	       size_t len, unsigned char out[32])
{
	unsigned char k[64] = { 0 }, pad[64], inner[32];
	unsigned int n = 0;
	EVP_MD_CTX *x = EVP_MD_CTX_new();
	int ok = x != NULL;

	if (ok && keylen > sizeof k)
		ok = EVP_Digest(key, keylen, k, &n, md, NULL) == 1 && n == 32;
	else if (ok)
		memcpy(k, key, keylen);
	for (size_t i = 0; i < sizeof pad; i++)
		pad[i] = k[i] ^ 0x36;
	ok = ok && EVP_DigestInit_ex2(x, md, NULL) == 1 &&
	     EVP_DigestUpdate(x, pad, sizeof pad) == 1 && EVP_DigestUpdate(x, data, len) == 1 &&
	     EVP_DigestFinal_ex(x, inner, &n) == 1 && n == 32;
	for (size_t i = 0; i < sizeof pad; i++)
		pad[i] = k[i] ^ 0x5c;
	ok = ok && EVP_DigestInit_ex2(x, md, NULL) == 1 &&
	     EVP_DigestUpdate(x, pad, sizeof pad) == 1 &&
	     EVP_DigestUpdate(x, inner, sizeof inner) == 1 &&
	     EVP_DigestFinal_ex(x, out, &n) == 1 && n == 32;
	EVP_MD_CTX_free(x);
	OPENSSL_cleanse(k, sizeof k);
	OPENSSL_cleanse(pad, sizeof pad);
	OPENSSL_cleanse(inner, sizeof inner);
	return ok ? 0 : -1;
}

/* HMAC-SHA256 on c's fetched SHA-256, or with its fetched MAC template, else HMAC() */
static int
hmac_sha256(const struct sigv4_cache *c, const void *key, size_t keylen, const void *data,
	    size_t len, unsigned char out[32])
{
	unsigned int outlen = 0;

	if (c != NULL && c->sha256 != NULL)
		return hmac_sha256_md(c->sha256, key, keylen, data, len, out);
	if (c != NULL && c->hmac != NULL) {
		EVP_MAC_CTX *x = EVP_MAC_CTX_dup(c->hmac);
		size_t n = 0;
		int ok = x != NULL && EVP_MAC_init(x, key, keylen, NULL) == 1 &&
			 EVP_MAC_update(x, data, len) == 1 && EVP_MAC_final(x, out, &n, 32) == 1 &&
			 n == 32;

		EVP_MAC_CTX_free(x);   /* cleanses the key it holds */
		return ok ? 0 : -1;
	}
	if (HMAC(c != NULL && c->sha256 != NULL ? c->sha256 : EVP_sha256(), key, (int)keylen,
		 data, len, out, &outlen) == NULL || outlen != 32)
		return -1;
	return 0;
}

static void
sha256_hex(const struct sigv4_cache *c, const void *data, size_t len, char out[65])
{
	sha256_hex_md(c != NULL ? c->sha256 : NULL, data, len, out);
}

void
sigv4_cache_clear(struct sigv4_cache *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	OPENSSL_cleanse(c->slot, sizeof c->slot);
	memset(c->slot, 0, sizeof c->slot);
	pthread_mutex_unlock(&c->lock);
}

void
sigv4_cache_free(struct sigv4_cache *c)
{
	if (c == NULL)
		return;
	pthread_mutex_destroy(&c->lock);
	EVP_MAC_CTX_free(c->hmac);
	EVP_MD_free(c->sha256);
	OPENSSL_cleanse(c, sizeof *c);
	free(c);
}

unsigned long long
sigv4_cache_hits(struct sigv4_cache *c)
{
	unsigned long long n;

	if (c == NULL)
		return 0;
	pthread_mutex_lock(&c->lock);
	n = c->hits;
	pthread_mutex_unlock(&c->lock);
	return n;
}

static int
derive_key(struct sigv4_cache *c, const char *secret, const char *date, const char *region,
	   const char *service, unsigned char key[32])
{
	char hash[65];
	struct buf k;
	unsigned char a[32], b[32];
	int rc = -1;
	struct key_slot *slot = NULL, *victim;

	sha256_hex(c, secret, strlen(secret), hash);
	bool cacheable = c != NULL && strlen(region) < sizeof slot->region &&
			 strlen(service) < sizeof slot->service;

	if (cacheable) {
		pthread_mutex_lock(&c->lock);
		for (size_t i = 0; i < KEY_CACHE_SLOTS; i++) {
			struct key_slot *s = &c->slot[i];
			if (s->used && strcmp(s->date, date) == 0 &&
			    strcmp(s->region, region) == 0 && strcmp(s->service, service) == 0 &&
			    strcmp(s->secret_hash, hash) == 0) {
				memcpy(key, s->key, 32);
				s->stamp = ++c->clock;
				c->hits++;
				pthread_mutex_unlock(&c->lock);
				OPENSSL_cleanse(hash, sizeof hash);
				return 0;
			}
		}
		pthread_mutex_unlock(&c->lock);
	}

	buf_init(&k, 4096);
	if (buf_adds(&k, "AWS4") != 0 || buf_adds(&k, secret) != 0)
		goto out;
	if (hmac_sha256(c, k.data, k.len, date, strlen(date), a) != 0 ||
	    hmac_sha256(c, a, 32, region, strlen(region), b) != 0 ||
	    hmac_sha256(c, b, 32, service, strlen(service), a) != 0 ||
	    hmac_sha256(c, a, 32, "aws4_request", 12, key) != 0)
		goto out;
	rc = 0;

	if (cacheable) {
		pthread_mutex_lock(&c->lock);
		victim = &c->slot[0];
		for (size_t i = 0; i < KEY_CACHE_SLOTS; i++) {
			if (!c->slot[i].used) {
				victim = &c->slot[i];
				break;
			}
			if (c->slot[i].stamp < victim->stamp)
				victim = &c->slot[i];
		}
		OPENSSL_cleanse(victim, sizeof *victim);
		victim->used = true;
		victim->stamp = ++c->clock;
		snprintf(victim->date, sizeof victim->date, "%s", date);
		snprintf(victim->region, sizeof victim->region, "%s", region);
		snprintf(victim->service, sizeof victim->service, "%s", service);
		memcpy(victim->secret_hash, hash, sizeof hash);
		memcpy(victim->key, key, 32);
		pthread_mutex_unlock(&c->lock);
	}
out:
	buf_cleanup_secure(&k);
	OPENSSL_cleanse(a, sizeof a);
	OPENSSL_cleanse(b, sizeof b);
	OPENSSL_cleanse(hash, sizeof hash);
	return rc;
}

/* Copy of text with every occurrence of secret replaced, for --debug output. */
static char *
redact(const char *text, const char *secret)
{
	struct buf b;
	size_t sl = secret != NULL ? strlen(secret) : 0;
	const char *p = text, *hit;

	if (sl == 0)
		return xstrdup(text);
	buf_init(&b, 0);
	while ((hit = strstr(p, secret)) != NULL) {
		buf_add(&b, p, (size_t)(hit - p));
		buf_adds(&b, "<redacted>");
		p = hit + sl;
	}
	buf_adds(&b, p);
	return buf_take(&b);
}

static bool
valid_amz_date(const char *s)
{
	if (strlen(s) != 16 || s[8] != 'T' || s[15] != 'Z')
		return false;
	for (int i = 0; i < 15; i++)
		if (i != 8 && (s[i] < '0' || s[i] > '9'))
			return false;
	return true;
}

static void
add_out_header(struct sigv4_output *out, const char *name, const char *value)
{
	out->add[out->nadd].name = xstrdup(name);
	out->add[out->nadd].value = xstrdup(value);
	out->nadd++;
}

int
sigv4_sign(const struct sigv4_input *in, const struct sigv4_key *key,
	   struct sigv4_output *out, struct err *err)
{
	struct chdr *h = NULL;
	size_t nh = 0;
	struct buf cr, sts, sh, auth;
	char payload_hash[65], cr_hash[65], date[17], sig[65];
	const char *given_date = NULL, *given_sha = NULL;
	bool given_token = false, want_token, sign_token, has_host = false;
	unsigned char skey[32], mac[32];
	int rc = -1;

	memset(out, 0, sizeof *out);
	buf_init(&cr, SIGV4_TEXT_MAX + 2 * 1024 * 1024);
	buf_init(&sts, 4096);
	buf_init(&sh, 64 * 1024);
	buf_init(&auth, 128 * 1024);

	if (in == NULL || key == NULL)
		return err_set(err, ERR_INTERNAL, "sigv4: no request or key to sign");
	if (in->method == NULL || in->method[0] == '\0')
		return err_set(err, ERR_INTERNAL, "sigv4: request has no method");
	if (in->region == NULL || in->region[0] == '\0')
		return err_set(err, ERR_CONFIG, "sigv4: no region to sign for");
	if (in->service == NULL || in->service[0] == '\0')
		return err_set(err, ERR_INTERNAL, "sigv4: no signing service name");
	if (key->access_key_id == NULL || key->access_key_id[0] == '\0')
		return err_set(err, ERR_CREDS, "sigv4: access key id is empty");
	if (key->secret_access_key == NULL || key->secret_access_key[0] == '\0')
		return err_set(err, ERR_CREDS, "sigv4: secret access key is empty");
	if (in->body == NULL && in->body_len != 0)
		return err_set(err, ERR_INTERNAL, "sigv4: body length without a body");
	if (in->nheaders > 0 && in->headers == NULL)
		return err_set(err, ERR_INTERNAL, "sigv4: header count without headers");

	want_token = key->session_token != NULL && key->session_token[0] != '\0';

	/* headers of the request, plus the ones we sign on the caller's behalf */
	h = xcalloc(in->nheaders + 4, sizeof *h);
	for (size_t i = 0; i < in->nheaders; i++) {
		const struct http_header *src = &in->headers[i];
		if (src->name == NULL || src->name[0] == '\0') {
			err_set(err, ERR_INTERNAL, "sigv4: header %zu has no name", i + 1);
			goto out;
		}
		h[nh].name = lower_dup(src->name);
		h[nh].value = squeeze_value(src->value != NULL ? src->value : "");
		h[nh].order = nh;
		if (strcmp(h[nh].name, "x-amz-date") == 0)
			given_date = h[nh].value;
		else if (strcmp(h[nh].name, "x-amz-content-sha256") == 0)
			given_sha = h[nh].value;
		else if (strcmp(h[nh].name, "host") == 0)
			has_host = true;
		else if (strcmp(h[nh].name, "x-amz-security-token") == 0) {
			given_token = true;
			h[nh].secret = true;
		}
		nh++;
	}
	if (!has_host) {
		err_set(err, ERR_INTERNAL, "sigv4: request has no Host header");
		goto out;
	}

	if (given_date != NULL) {
		if (!valid_amz_date(given_date)) {
			err_set(err, ERR_INTERNAL, "sigv4: X-Amz-Date '%s' is not YYYYMMDDTHHMMSSZ",
				given_date);
			goto out;
		}
		snprintf(date, sizeof date, "%s", given_date);
	} else {
		sigv4_format_amz_date(in->time_ms, date);
		h[nh].name = xstrdup("x-amz-date");
		h[nh].value = xstrdup(date);
		h[nh].order = nh;
		nh++;
	}

	if (given_sha != NULL) {
		/* the caller chose the payload hash (e.g. UNSIGNED-PAYLOAD): sign what is sent */
		snprintf(payload_hash, sizeof payload_hash, "%s", given_sha);
	} else {
		sha256_hex(in->cache, in->body_len ? in->body : "", in->body_len, payload_hash);
		if (in->sign_body) {
			h[nh].name = xstrdup("x-amz-content-sha256");
			h[nh].value = xstrdup(payload_hash);
			h[nh].order = nh;
			nh++;
		}
	}

	sign_token = want_token && !given_token && !in->omit_session_token;
	if (sign_token) {
		h[nh].name = xstrdup("x-amz-security-token");
		h[nh].value = xstrdup(key->session_token);
		h[nh].order = nh;
		h[nh].secret = true;
		nh++;
	}
	qsort(h, nh, sizeof *h, chdr_cmp);

	/* 1. canonical request */
	const char *path = in->path != NULL ? in->path : "";
	const char *qmark = strchr(path, '?');
	size_t plen = qmark != NULL ? (size_t)(qmark - path) : strlen(path);
	const char *hash = memchr(path, '#', plen);
	if (hash != NULL)
		plen = (size_t)(hash - path);

	if (buf_adds(&cr, in->method) != 0 || buf_addc(&cr, '\n') != 0)
		goto toolong;
	{
		char *p;
		if (in->normalize_path)
			p = normalize_path(path, plen);
		else if (plen == 0)
			p = xstrdup("/");
		else
			p = xstrndup(path, plen);
		int e = uri_encode(&cr, p, strlen(p), true, in->single_encode_path);
		free(p);
		if (e != 0 || buf_addc(&cr, '\n') != 0)
			goto toolong;
	}
	if (qmark != NULL) {
		const char *q = qmark + 1;
		const char *qend = strchr(q, '#');
		if (canonical_query(&cr, q, qend != NULL ? (size_t)(qend - q) : strlen(q)) != 0)
			goto toolong;
	}
	if (buf_addc(&cr, '\n') != 0)
		goto toolong;
	for (size_t i = 0; i < nh; i++) {
		bool first = i == 0 || strcmp(h[i].name, h[i - 1].name) != 0;
		bool last = i + 1 == nh || strcmp(h[i].name, h[i + 1].name) != 0;
		if (first) {
			if (buf_adds(&cr, h[i].name) != 0 || buf_addc(&cr, ':') != 0)
				goto toolong;
			if (sh.len > 0 && buf_addc(&sh, ';') != 0)
				goto toolong;
			if (buf_adds(&sh, h[i].name) != 0)
				goto toolong;
		} else if (buf_addc(&cr, ',') != 0) {
			goto toolong;
		}
		if (buf_adds(&cr, h[i].value) != 0)
			goto toolong;
		if (last && buf_addc(&cr, '\n') != 0)
			goto toolong;
	}
	if (buf_addc(&cr, '\n') != 0 || buf_add(&cr, sh.data, sh.len) != 0 ||
	    buf_addc(&cr, '\n') != 0 || buf_adds(&cr, payload_hash) != 0)
		goto toolong;

	/* 2. string to sign */
	char scope_date[9];
	memcpy(scope_date, date, 8);
	scope_date[8] = '\0';
	sha256_hex(in->cache, cr.data, cr.len, cr_hash);
	/* SIGV4_ALGORITHM "\n%s\n%s/%s/%s/aws4_request\n%s" of date, scope_date, region,
	 * service and cr_hash, without printf */
	if (buf_adds(&sts, SIGV4_ALGORITHM "\n") != 0 || buf_adds(&sts, date) != 0 ||
	    buf_addc(&sts, '\n') != 0 || buf_adds(&sts, scope_date) != 0 ||
	    buf_addc(&sts, '/') != 0 || buf_adds(&sts, in->region) != 0 ||
	    buf_addc(&sts, '/') != 0 || buf_adds(&sts, in->service) != 0 ||
	    buf_adds(&sts, "/aws4_request\n") != 0 || buf_adds(&sts, cr_hash) != 0)
		goto toolong;

	/* 3. key and signature */
	if (derive_key(in->cache, key->secret_access_key, scope_date, in->region, in->service,
		       skey) != 0 ||
	    hmac_sha256(in->cache, skey, sizeof skey, sts.data, sts.len, mac) != 0) {
		err_set(err, ERR_INTERNAL, "sigv4: HMAC-SHA256 failed in OpenSSL");
		goto out;
	}
	for (int i = 0; i < 32; i++) {
		sig[2 * i] = "0123456789abcdef"[mac[i] >> 4];
		sig[2 * i + 1] = "0123456789abcdef"[mac[i] & 15];
	}
	sig[64] = '\0';

	/* SIGV4_ALGORITHM " Credential=%s/%s/%s/%s/aws4_request, SignedHeaders=%s,
	 * Signature=%s", without printf */
	if (buf_adds(&auth, SIGV4_ALGORITHM " Credential=") != 0 ||
	    buf_adds(&auth, key->access_key_id) != 0 || buf_addc(&auth, '/') != 0 ||
	    buf_adds(&auth, scope_date) != 0 || buf_addc(&auth, '/') != 0 ||
	    buf_adds(&auth, in->region) != 0 || buf_addc(&auth, '/') != 0 ||
	    buf_adds(&auth, in->service) != 0 ||
	    buf_adds(&auth, "/aws4_request, SignedHeaders=") != 0 ||
	    buf_adds(&auth, buf_str(&sh)) != 0 || buf_adds(&auth, ", Signature=") != 0 ||
	    buf_adds(&auth, sig) != 0)
		goto toolong;

	/* 4. what the caller adds */
	if (given_date == NULL)
		add_out_header(out, "X-Amz-Date", date);
	if (in->sign_body && given_sha == NULL)
		add_out_header(out, "X-Amz-Content-Sha256", payload_hash);
	if (want_token && !given_token)
		add_out_header(out, "X-Amz-Security-Token", key->session_token);
	add_out_header(out, "Authorization", buf_str(&auth));

	{
		const char *secret = NULL;
		for (size_t i = 0; i < nh; i++)
			if (h[i].secret)
				secret = h[i].value;
		out->canonical_request_redacted = redact(buf_str(&cr), secret);
	}
	out->canonical_request = buf_take(&cr);
	out->string_to_sign = buf_take(&sts);
	out->signature = xstrdup(sig);
	out->signed_headers = buf_take(&sh);
	out->authorization = buf_take(&auth);
	out->amz_date = xstrdup(date);
	rc = 0;
	goto out;

toolong:
	err_set(err, ERR_INTERNAL, "sigv4: request too large to sign");
out:
	OPENSSL_cleanse(skey, sizeof skey);
	OPENSSL_cleanse(mac, sizeof mac);
	/* the canonical request carries the session token when signed */
	buf_cleanup_secure(&cr);
	buf_cleanup(&sts);
	buf_cleanup(&sh);
	buf_cleanup(&auth);
	if (h != NULL)
		chdrs_free(h, nh);
	if (rc != 0)
		sigv4_output_cleanup(out);
	return rc;
}

void
sigv4_output_cleanup(struct sigv4_output *out)
{
	if (out == NULL)
		return;
	/* the canonical request holds the session token when it was signed */
	if (out->canonical_request != NULL)
		OPENSSL_cleanse(out->canonical_request, strlen(out->canonical_request));
	free(out->canonical_request);
	free(out->canonical_request_redacted);
	free(out->string_to_sign);
	free(out->signature);
	free(out->signed_headers);
	free(out->authorization);
	free(out->amz_date);
	for (size_t i = 0; i < out->nadd && i < SIGV4_MAX_ADD; i++) {
		if (out->add[i].value != NULL)
			OPENSSL_cleanse(out->add[i].value, strlen(out->add[i].value));
		free(out->add[i].name);
		free(out->add[i].value);
	}
	memset(out, 0, sizeof *out);
}
