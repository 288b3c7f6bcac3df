/* s3client.h: S3 outside a job, for `storbench --cleanup s3://BUCKET/PREFIX`
 * (run/cleanup_s3.c): the endpoint and credentials as ioengine=s3 finds
 * them without options (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, the AWS
 * keys, ~/.aws/credentials), then listings, the owner mark of an object
 * and deletes, one request at a time.  Without libcurl every call returns
 * -ENOTSUP. */
#ifndef SB_ENGINES_S3CLIENT_H
#define SB_ENGINES_S3CLIENT_H
#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"

struct sb_s3_client;

/* 0 and *c, or -errno with why (fs: run/'s reader for the credentials file) */
int sb_s3_client_open(struct sb_s3_client **c, const struct sb_engine_fs *fs, char *why, size_t wlen);
void sb_s3_client_close(struct sb_s3_client *c);
/* "http(s)://HOST" the client talks to, for messages */
const char *sb_s3_client_endpoint(const struct sb_s3_client *c);
/* each object under prefix (key, bytes) to each(); 0 or -errno with why */
int sb_s3_client_list(struct sb_s3_client *c, const char *bucket, const char *prefix,
		      int (*each)(const char *key, uint64_t size, void *arg), void *arg, char *why, size_t wlen);
/* the object's x-amz-meta-storbench-owner into mark ("" none): 0 (also
 * when gone: *gone set), or -errno with why */
int sb_s3_client_owner(struct sb_s3_client *c, const char *bucket, const char *key, char *mark, size_t mlen,
		       int *gone, char *why, size_t wlen);
/* *kept = 1 when the run that put mark on an object ended (its record,
 * S3_RUNS in engines/s3.h, is in bucket), else 0; 0 or -errno with why */
int sb_s3_client_run_kept(struct sb_s3_client *c, const char *bucket, const char *mark, int *kept,
			  char *why, size_t wlen);
/* DELETE the object: 0 or -errno with why */
int sb_s3_client_delete(struct sb_s3_client *c, const char *bucket, const char *key, char *why, size_t wlen);
#endif
