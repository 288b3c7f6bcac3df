/* test_sigv4.c: lib/sigv4.c against the worked examples of AWS's S3 API
 * reference ("Examples: Signature Calculations in AWS Signature Version 4",
 * sig-v4-header-based-auth: GET Object with a range, PUT Object with an
 * encoded key and a storage class, GET Bucket lifecycle, GET Bucket list
 * with a query): the same access key, secret, day and region give the
 * signatures AWS prints.  The real-server side is t/integration/test_s3*.py. */
#include <errno.h>
#include <string.h>

#include "config.h"
#include "harness.h"
#include "lib/sigv4.h"

#define AK "AKIAIOSFODNN7EXAMPLE"
#define SK "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define HOST "examplebucket.s3.amazonaws.com"
#define DATE "20130524T000000Z"

static const char *sig_of(const char *auth)
{
	const char *p = strstr(auth, "Signature=");
	return p ? p + 10 : "";
}

static void test_get_object_range(void)
{
#ifdef CONFIG_OPENSSL
	struct sb_sigv4 s;
	char auth[512];
	CU_ASSERT_EQUAL_FATAL(sb_sigv4_init(&s, AK, SK, "us-east-1", "s3"), 0);
	/* order given is not the signed order: the signer sorts */
	struct sb_sigv4_hdr h[] = { { "x-amz-date", DATE }, { "range", "bytes=0-9" }, { "host", HOST },
				    { "x-amz-content-sha256", SB_SIGV4_EMPTY } };
	CU_ASSERT_EQUAL(sb_sigv4_sign(&s, "GET", "/test.txt", "", h, 4, SB_SIGV4_EMPTY, DATE, auth,
				      sizeof(auth)), 0);
	CU_ASSERT_STRING_EQUAL(sig_of(auth), "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
	CU_ASSERT_PTR_NOT_NULL(strstr(auth, "Credential=" AK "/20130524/us-east-1/s3/aws4_request, "
					    "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "));
	/* a buffer too small is refused, never cut */
	CU_ASSERT_EQUAL(sb_sigv4_sign(&s, "GET", "/test.txt", "", h, 4, SB_SIGV4_EMPTY, DATE, auth, 64),
			-ENOSPC);
#endif
}

static void test_put_object(void)
{
#ifdef CONFIG_OPENSSL
	struct sb_sigv4 s;
	char auth[512], uri[64], payload[65];
	const char body[] = "Welcome to Amazon S3.";
	CU_ASSERT_EQUAL_FATAL(sb_sigv4_init(&s, AK, SK, "us-east-1", "s3"), 0);
	CU_ASSERT_EQUAL(sb_sigv4_sha256_hex(body, strlen(body), payload), 0);
	CU_ASSERT_STRING_EQUAL(payload, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
	CU_ASSERT_EQUAL(sb_sigv4_encode("/test$file.text", true, uri, sizeof(uri)), 0);
	CU_ASSERT_STRING_EQUAL(uri, "/test%24file.text");
	struct sb_sigv4_hdr h[] = { { "date", "Fri, 24 May 2013 00:00:00 GMT" }, { "host", HOST },
				    { "x-amz-date", DATE }, { "x-amz-storage-class", "REDUCED_REDUNDANCY" },
				    { "x-amz-content-sha256", payload } };
	CU_ASSERT_EQUAL(sb_sigv4_sign(&s, "PUT", uri, "", h, 5, payload, DATE, auth, sizeof(auth)), 0);
	CU_ASSERT_STRING_EQUAL(sig_of(auth), "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
#endif
}

static void test_bucket_queries(void)
{
#ifdef CONFIG_OPENSSL
	struct sb_sigv4 s;
	char auth[512];
	CU_ASSERT_EQUAL_FATAL(sb_sigv4_init(&s, AK, SK, "us-east-1", "s3"), 0);
	struct sb_sigv4_hdr h[] = { { "host", HOST }, { "x-amz-content-sha256", SB_SIGV4_EMPTY },
				    { "x-amz-date", DATE } };
	CU_ASSERT_EQUAL(sb_sigv4_sign(&s, "GET", "/", "lifecycle=", h, 3, SB_SIGV4_EMPTY, DATE, auth,
				      sizeof(auth)), 0);
	CU_ASSERT_STRING_EQUAL(sig_of(auth), "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
	CU_ASSERT_EQUAL(sb_sigv4_sign(&s, "GET", "/", "max-keys=2&prefix=J", h, 3, SB_SIGV4_EMPTY, DATE,
				      auth, sizeof(auth)), 0);
	CU_ASSERT_STRING_EQUAL(sig_of(auth), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
	/* another secret, another signature (the key is not cached across secrets) */
	CU_ASSERT_EQUAL_FATAL(sb_sigv4_init(&s, AK, "other", "us-east-1", "s3"), 0);
	CU_ASSERT_EQUAL(sb_sigv4_sign(&s, "GET", "/", "max-keys=2&prefix=J", h, 3, SB_SIGV4_EMPTY, DATE,
				      auth, sizeof(auth)), 0);
	CU_ASSERT_STRING_NOT_EQUAL(sig_of(auth), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
#endif
}

static void test_encode_and_date(void)
{
	char out[64];
	CU_ASSERT_EQUAL(sb_sigv4_encode("a b/c~d_e.f-g=h", false, out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "a%20b%2Fc~d_e.f-g%3Dh");
	CU_ASSERT_EQUAL(sb_sigv4_encode("dir/\xc3\xa9", true, out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "dir/%C3%A9");
	CU_ASSERT_EQUAL(sb_sigv4_encode("////", false, out, 12), -ENOSPC);
	CU_ASSERT_EQUAL(sb_sigv4_encode("////", false, out, 13), 0);
	char d[17];
	sb_sigv4_date((time_t)1369353600, d); /* 2013-05-24 00:00:00 UTC */
	CU_ASSERT_STRING_EQUAL(d, DATE);
}

static CU_TestInfo tests[] = {
	{ "GET Object with a range (AWS example)", test_get_object_range },
	{ "PUT Object with an encoded key (AWS example)", test_put_object },
	{ "bucket sub-resource and list queries (AWS examples)", test_bucket_queries },
	{ "URI encoding and x-amz-date", test_encode_and_date },
	CU_TEST_INFO_NULL,
};
SB_SUITE(sigv4, tests)
