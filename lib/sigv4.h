/* sigv4.h: AWS Signature Version 4 for S3 requests (the ioengine=s3 and
 * ioengine=http engines), as AWS documents it ("Signature Calculations for
 * the Authorization Header", the S3 API reference): a canonical request,
 * a string to sign and an HMAC-SHA256 chain keyed by the secret.  Hashes
 * and HMACs come from OpenSSL's libcrypto (configure: CONFIG_OPENSSL);
 * without it every call returns -ENOTSUP.
 *
 * No allocation: the caller's buffers hold everything, so an engine can
 * sign a request per I/O.  The signing key depends on the day, the region
 * and the service only, so it is derived once per day and kept. */
#ifndef SB_LIB_SIGV4_H
#define SB_LIB_SIGV4_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define SB_SIGV4_UNSIGNED "UNSIGNED-PAYLOAD"
/* hex SHA-256 of no bytes (a GET, HEAD or DELETE's payload) */
#define SB_SIGV4_EMPTY "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

struct sb_sigv4 {
	char keyid[128];
	char secret[128];
	char region[64];
	char service[16];
	char day[9];                /* YYYYMMDD the key below is for ("" none yet) */
	unsigned char key[32];      /* the signing key of that day */
};

/* A header that is signed: name in lower case, value as sent. */
struct sb_sigv4_hdr {
	const char *name;
	const char *value;
};

/* 0, or -EINVAL when a value does not fit (the message says which) */
int sb_sigv4_init(struct sb_sigv4 *s, const char *keyid, const char *secret,
		  const char *region, const char *service);

/* x-amz-date for t: "YYYYMMDDTHHMMSSZ" (UTC) */
void sb_sigv4_date(time_t t, char out[17]);

/* The Authorization header's value for one request.  uri: the canonical
 * URI, already percent-encoded (sb_sigv4_encode with keep_slash); query:
 * the canonical query string (keys sorted, "k=v&k2=v2", values encoded;
 * "" none); h: the signed headers (host and x-amz-date among them; any
 * order, at most 16); payload: hex SHA-256 of the body or
 * SB_SIGV4_UNSIGNED; amzdate: the x-amz-date sent.  0 or -errno (-ENOSPC:
 * a buffer too small). */
int sb_sigv4_sign(struct sb_sigv4 *s, const char *method, const char *uri, const char *query,
		  const struct sb_sigv4_hdr *h, unsigned nh, const char *payload,
		  const char *amzdate, char *auth, size_t alen);

/* hex SHA-256 of len bytes at p into out (65 bytes with the NUL) */
int sb_sigv4_sha256_hex(const void *p, size_t len, char out[65]);

/* Percent-encode in as SigV4 asks: unreserved A-Z a-z 0-9 - . _ ~ kept,
 * '/' kept when keep_slash (a path), every other byte %XX (upper case).
 * 0, or -ENOSPC when out (len bytes) is too small. */
int sb_sigv4_encode(const char *in, bool keep_slash, char *out, size_t len);
#endif
