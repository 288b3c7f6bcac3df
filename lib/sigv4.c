/* sigv4.c: AWS Signature Version 4 (see sigv4.h) on libcrypto's SHA-256
 * and HMAC. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "lib/sigv4.h"

#ifdef CONFIG_OPENSSL
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

static int copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src ? src : "");
	if (n >= len)
		return -EINVAL;
	memcpy(dst, src ? src : "", n + 1);
	return 0;
}

int sb_sigv4_init(struct sb_sigv4 *s, const char *keyid, const char *secret,
		  const char *region, const char *service)
{
	memset(s, 0, sizeof(*s));
	if (copy(s->keyid, sizeof(s->keyid), keyid) || copy(s->secret, sizeof(s->secret), secret) ||
	    copy(s->region, sizeof(s->region), region) || copy(s->service, sizeof(s->service), service))
		return -EINVAL;
	return 0;
}

void sb_sigv4_date(time_t t, char out[17])
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

int sb_sigv4_encode(const char *in, bool keep_slash, char *out, size_t len)
{
	static const char digits[] = "0123456789ABCDEF";
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		bool keep = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_' ||
			    *p == '~' || (keep_slash && *p == '/');
		if (o + (keep ? 1 : 3) >= len)
			return -ENOSPC;
		if (keep) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = digits[*p >> 4];
			out[o++] = digits[*p & 15];
		}
	}
	if (o >= len)
		return -ENOSPC;
	out[o] = '\0';
	return 0;
}

#ifdef CONFIG_OPENSSL
static void hex(const unsigned char *d, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * n] = '\0';
}

static int sha256(const void *p, size_t len, unsigned char out[32])
{
	unsigned n = 0;
	return EVP_Digest(p, len, out, &n, EVP_sha256(), NULL) == 1 && n == 32 ? 0 : -EIO;
}

static int hmac(const void *key, size_t klen, const char *msg, unsigned char out[32])
{
	unsigned n = 0;
	return HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)msg, strlen(msg), out, &n) &&
	       n == 32 ? 0 : -EIO;
}

int sb_sigv4_sha256_hex(const void *p, size_t len, char out[65])
{
	unsigned char d[32];
	int r = sha256(p, len, d);
	if (!r)
		hex(d, 32, out);
	return r;
}

/* the signing key of day (YYYYMMDD), kept while the day is the same */
static int day_key(struct sb_sigv4 *s, const char *day)
{
	if (!strcmp(s->day, day))
		return 0;
	char k0[4 + sizeof(s->secret)];
	unsigned char a[32], b[32];
	snprintf(k0, sizeof(k0), "AWS4%s", s->secret);
	int r = hmac(k0, strlen(k0), day, a);
	r = r ? r : hmac(a, 32, s->region, b);
	r = r ? r : hmac(b, 32, s->service, a);
	r = r ? r : hmac(a, 32, "aws4_request", s->key);
	memset(k0, 0, sizeof(k0));
	if (!r)
		snprintf(s->day, sizeof(s->day), "%s", day);
	return r;
}

static int cmp_hdr(const void *a, const void *b)
{
	return strcmp(((const struct sb_sigv4_hdr *)a)->name, ((const struct sb_sigv4_hdr *)b)->name);
}

/* append printf-style to buf at *at (len bytes in all); -ENOSPC when full */
#define PUT(buf, len, at, ...)                                                   \
	do {                                                                     \
		int n_ = snprintf((buf) + *(at), (len) - *(at), __VA_ARGS__);    \
		if (n_ < 0 || (size_t)n_ >= (len) - *(at))                       \
			return -ENOSPC;                                          \
		*(at) += (size_t)n_;                                             \
	} while (0)

/* "a;b;c" and "a:v\nb:v\n" of the sorted headers */
static int headers(const struct sb_sigv4_hdr *h, unsigned nh, char *canon, size_t clen, size_t *at,
		   char *names, size_t nlen)
{
	size_t nat = 0;
	names[0] = '\0';
	for (unsigned i = 0; i < nh; i++) {
		const char *v = h[i].value;
		size_t vl = strlen(v);
		while (vl && (*v == ' ' || *v == '\t')) /* trimmed, as AWS asks */
			v++, vl--;
		while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
			vl--;
		PUT(canon, clen, at, "%s:%.*s\n", h[i].name, (int)vl, v);
		PUT(names, nlen, &nat, "%s%s", i ? ";" : "", h[i].name);
	}
	return 0;
}

int sb_sigv4_sign(struct sb_sigv4 *s, const char *method, const char *uri, const char *query,
		  const struct sb_sigv4_hdr *h, unsigned nh, const char *payload,
		  const char *amzdate, char *auth, size_t alen)
{
	struct sb_sigv4_hdr sorted[16];
	char canon[8192], names[1024], sts[512], day[9];
	unsigned char sig[32];
	char crh[65], sighex[65];
	size_t at = 0;
	if (nh > 16 || strlen(amzdate) != 16)
		return -EINVAL;
	memcpy(sorted, h, nh * sizeof(*h));
	qsort(sorted, nh, sizeof(*sorted), cmp_hdr);
	PUT(canon, sizeof(canon), &at, "%s\n%s\n%s\n", method, uri, query ? query : "");
	int r = headers(sorted, nh, canon, sizeof(canon), &at, names, sizeof(names));
	if (r)
		return r;
	PUT(canon, sizeof(canon), &at, "\n%s\n%s", names, payload);
	if ((r = sb_sigv4_sha256_hex(canon, at, crh)))
		return r;
	memcpy(day, amzdate, 8);
	day[8] = '\0';
	at = 0;
	PUT(sts, sizeof(sts), &at, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n%s", amzdate, day,
	    s->region, s->service, crh);
	if ((r = day_key(s, day)) || (r = hmac(s->key, 32, sts, sig)))
		return r;
	hex(sig, 32, sighex);
	at = 0;
	PUT(auth, alen, &at, "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request, SignedHeaders=%s, "
	    "Signature=%s", s->keyid, day, s->region, s->service, names, sighex);
	return 0;
}
#else
int sb_sigv4_sha256_hex(const void *p, size_t len, char out[65])
{
	(void)p, (void)len;
	out[0] = '\0';
	return -ENOTSUP;
}

int sb_sigv4_sign(struct sb_sigv4 *s, const char *method, const char *uri, const char *query,
		  const struct sb_sigv4_hdr *h, unsigned nh, const char *payload,
		  const char *amzdate, char *auth, size_t alen)
{
	(void)s, (void)method, (void)uri, (void)query, (void)h, (void)nh, (void)payload, (void)amzdate;
	if (alen)
		auth[0] = '\0';
	return -ENOTSUP;
}
#endif
