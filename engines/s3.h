/* s3.h: what the files of the object-storage engines share: the options
 * (fio's http engine's plus storbench's s3_*), a thread's state and an I/O
 * unit's request.  engines/s3.c is the engine (ioengine=s3 and fio's
 * ioengine=http); s3auth.c finds the endpoint and keys; s3req.c builds and
 * signs one HTTP request on libcurl, s3done.c ends it (retries, counters);
 * s3mp.c and s3stream.c are multipart uploads of whole objects and of
 * files written in pieces; s3list.c lists, s3own.c checks whose objects
 * are there and lays out what reads need; s3client.c is S3 outside a job
 * (datasets, --cleanup). */
#ifndef SB_ENGINES_S3_H
#define SB_ENGINES_S3_H
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "engines/engine.h"

/* fio's http engine options (engines/http.c of fio) and storbench's s3_* */
enum { S3_HTTPS_OFF, S3_HTTPS_ON, S3_HTTPS_INSECURE };
enum { S3_MODE_WEBDAV, S3_MODE_S3, S3_MODE_SWIFT };
enum { S3_OBJ_BLOCK, S3_OBJ_RANGE };
struct s3_opts {
	char *host;           /* http_host: host[:port] */
	char *user, *pass;    /* http_user, http_pass (webdav) */
	char *keyid, *key;    /* http_s3_keyid, http_s3_key */
	char *token;          /* http_s3_security_token */
	char *region;         /* http_s3_region */
	char *storage_class;  /* http_s3_storage_class */
	char *swift_token;    /* http_swift_auth_token */
	char *bucket;         /* s3_bucket */
	unsigned https, mode, object_mode;
	int verbose;          /* http_verbose: 0, 1 (libcurl's verbose), 2 */
	uint64_t object_size;    /* s3_object_size: bytes per object (0: the whole file) */
	uint64_t multipart_size; /* s3_multipart_size: part bytes (0: never multipart) */
	bool path_style;      /* s3_path_style */
	bool sign_payload;    /* s3_sign_payload */
	unsigned retries;     /* s3_retries */
};
extern const struct sb_engine_options sb_s3_optset;

/* the results' counters of these engines (struct sb_engine_ops.counters) */
enum {
	S3_C_2XX, S3_C_3XX, S3_C_4XX, S3_C_5XX, S3_C_RETRY, S3_C_SLOWDOWN, S3_C_CONNERR,
	S3_C_REQS, S3_C_N
};

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/sigv4.h"

enum s3_kind { S3_KIND_S3, S3_KIND_HTTP };

/* one request in flight for one io unit */
struct s3_req {
	struct s3_td *td;
	struct sb_io_u *io;
	CURL *h;
	struct curl_slist *hdrs;
	char url[6144];
	char path[1536];         /* the object's path (/bucket/key), not encoded */
	const char *method;
	uint64_t body_at, body_len; /* PUT: bytes of io->buf sent / to send */
	uint64_t got;            /* GET: bytes received into io->buf */
	uint64_t want;           /* GET: bytes expected */
	char errbody[1024];      /* an error's body (S3's XML <Error>) */
	size_t errlen;
	unsigned tries;          /* retries made */
	uint64_t retry_at;       /* ns (CLOCK_MONOTONIC) of the next try; 0: none due */
	bool active;             /* in the multi handle */
	bool zero_404;           /* a 404 on GET reads zeros (fio's http engine) */
	bool whole;              /* GET the whole object, no Range (listings) */
	bool unranged;           /* this GET of an I/O asked for the whole object */
	uint64_t cycle;          /* PUT body: io->buf's bytes repeated (layout); 0: no */
	char owner[256];         /* the answer's x-amz-meta-storbench-owner ("" none) */
	char etag[80];           /* the answer's ETag ("" none) */
	const char *body;        /* what a PUT or POST sends (body_len bytes) */
	int body_fd;             /* or, when >= 0, the file it is read from (offset 0 on) */
	int64_t clen;            /* a sb_s3_sync answer's Content-Length (-1 none) */
	/* a multipart upload in progress (s3mp.c) */
	unsigned mp_phase;       /* S3_MP_*: the step in flight */
	unsigned mp_part, mp_parts, mp_max; /* part in flight (1-based), parts, room */
	char upload[256];        /* UploadId */
	char (*etags)[80];       /* each part's ETag */
	char *xml;               /* CompleteMultipartUpload's body */
	size_t xml_len;
	struct s3_stream *stream; /* the file written in pieces this request sends (s3stream.c) */
};

struct s3_td {
	enum s3_kind kind;
	const struct s3_opts *o;
	struct sb_sigv4 sig;
	bool sign;               /* SigV4 (s3, http_mode=s3) */
	unsigned https;          /* https=, or on for an https:// endpoint */
	char host[512];          /* host[:port] */
	bool vhost;              /* s3_path_style=0: requests go to BUCKET.host[:port]/KEY */
	const char *token;       /* x-amz-security-token (NULL: none) */
	char tokbuf[1024];       /* the credentials file's token */
	char mark[700];          /* x-amz-meta-storbench-owner of what this run writes */
	CURLM *m;
	struct s3_req *reqs;     /* one per io unit */
	struct sb_io_u **done;   /* completed, not yet handed out */
	unsigned ndone, handed;  /* handed: returned by the last getevents */
	unsigned inflight;       /* in the multi handle or waiting to retry */
	struct sb_engine_sink sink; /* td->sink: counters and time to first byte */
	bool count_sync;         /* sb_s3_sync's requests count too (a client's for a job) */
	char *page;              /* a listing's body (S3_PAGE bytes), while preparing */
	bool wrote;              /* an object was written (a PUT or upload answered 2xx) */
	bool need_layout;        /* a read job's objects are laid out at its first I/O */
	char wrote_bucket[256];  /* the bucket of the first one (the run's record goes there) */
};
#define S3_PAGE (2u << 20)
enum { S3_MP_NONE, S3_MP_CREATE, S3_MP_PART, S3_MP_COMPLETE };
#define S3_MP_MIN (5u << 20)  /* S3's smallest part (all but the last) */
#define S3_MP_PART_MAX (5ull << 30) /* S3's largest part */
#define S3_MP_MAX 10000u      /* S3's most parts */

/* s3client.c: whole objects outside the I/O threads (struct
 * sb_engine_ops.object_size and object_put) */
int sb_s3_object_size(const void *opts, const struct sb_engine_fs *fs, const char *path, uint64_t *size,
		      char *err, size_t elen);
int sb_s3_object_put(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
		     const char *job, const char *path, int fd, const void *buf, uint64_t len, char *err,
		     size_t elen);
int sb_s3_object_end(const void *opts, const struct sb_engine_fs *fs, const char *path);
int sb_s3_object_get(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
		     const char *path, void *buf, uint64_t cap, uint64_t *got, char *err, size_t elen);
int sb_s3_object_delete(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
			const char *path, char *err, size_t elen);

/* s3stream.c: a file written in pieces into one object */
struct s3_stream;
#define S3_STREAM_BUSY 3
bool sb_s3_stream_wanted(const struct s3_td *d, const struct sb_io_u *io);
/* r->io's piece taken: 1 completed (io->result set), 0 a request sent,
 * S3_STREAM_BUSY (a part of the file in flight), or -errno */
int sb_s3_stream_queue(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r);
int sb_s3_stream_send(struct s3_td *d, struct s3_req *r);
/* as sb_s3_mp_next and sb_s3_mp_failed, for a stream's request */
int sb_s3_stream_next(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r);
void sb_s3_stream_failed(struct s3_td *d, struct s3_req *r);
/* f's stream freed, an unfinished upload aborted on r (not in flight;
 * NULL: not aborted) */
void sb_s3_stream_free(struct s3_td *d, struct s3_req *r, struct sb_file *f);

/* s3mp.c: multipart uploads (s3_multipart_size) */
int sb_s3_mp_init(struct s3_td *d, struct sb_engine_td *td);
void sb_s3_mp_free(struct s3_req *r);
bool sb_s3_mp_wanted(const struct s3_td *d, const struct sb_io_u *io);
int sb_s3_mp_begin(struct s3_td *d, struct s3_req *r);
/* send the request of r's current step (also a retry of it) */
int sb_s3_mp_send(struct s3_td *d, struct s3_req *r);
/* the step in flight answered 2xx: 2 when the next step is sent, 0 when
 * the I/O is final (io->result set) */
int sb_s3_mp_next(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r);
/* the step in flight failed for good: the upload aborted */
int sb_s3_mp_failed(struct s3_td *d, struct s3_req *r);
/* the multipart upload `upload` of the object at path aborted (DELETE
 * ?uploadId=, best effort, waiting) on r, a request not in flight; r's
 * I/O, method, path and error body are as they were */
void sb_s3_abort_upload(struct s3_td *d, struct s3_req *r, const char *path, const char *upload);
/* CompleteMultipartUpload's body for the n parts' ETags into out (cap
 * bytes), its length into *len: 0 or -ENOSPC */
int sb_s3_complete_xml(const char (*etags)[80], unsigned n, char *out, size_t cap, size_t *len);

/* s3req.c */
int sb_s3_req_init(struct s3_td *d, struct s3_req *r);
void sb_s3_req_free(struct s3_req *r);
/* object path of io (/bucket/key...), into r->path; -EINVAL with
 * td->errmsg when a write does not cover whole objects */
int sb_s3_object(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r);
/* set up r for io (method, URL, headers, signature) and add it to the
 * multi handle; 0 or -errno */
int sb_s3_start(struct s3_td *d, struct s3_req *r, const char *method, const char *query,
		const void *body, uint64_t len);
/* the request finished with curl code cc: io->result set, or 1 when it
 * is to be tried again (r->retry_at set); 0 when final */
int sb_s3_finish(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r, CURLcode cc);
/* a request's answer (curl code cc, HTTP status) into d->sink: the
 * counters, and for a 2xx GET or PUT of ddir READ or WRITE (-1: a request
 * about objects, not of an I/O's data) its time to first byte */
void sb_s3_count(struct s3_td *d, struct s3_req *r, CURLcode cc, long status, int ddir);
uint64_t sb_s3_now(void);
/* one request run to its end on r's handle, outside the multi handle (at
 * init, before any I/O): path as sb_s3_object makes it, the body (at most
 * cap-1 bytes, NUL-terminated) into out, the status into *status (0 when
 * no answer came: -errno, r->errbody says why) */
int sb_s3_sync(struct s3_td *d, struct s3_req *r, const char *method, const char *path,
	       const char *query, char *out, size_t cap, long *status);
/* PUT len bytes (td's first io buffer, repeated), marked, to path, and
 * wait for it: 0, or -errno with td->errmsg */
int sb_s3_put_sync(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r, const char *path,
		   uint64_t len);
/* "/BUCKET/KEY" of a path of ioengine=s3: an s3://BUCKET/KEY URL
 * (data_dir=, checkpoint_folder=) names its own bucket; any other path is
 * a key in bucket (s3_bucket=), its leading '/' dropped.  0, -EINVAL (no
 * bucket) or -ENAMETOOLONG */
static inline int sb_s3_key_path(const char *bucket, const char *path, char *out, size_t len)
{
	int n;
	if (!strncmp(path, "s3://", 5))
		n = snprintf(out, len, "/%s", path + 5);
	else if (!bucket || !*bucket)
		return -EINVAL;
	else
		n = snprintf(out, len, "/%s/%s", bucket, path + strspn(path, "/"));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* the errno of a request without an answer (cc), of an HTTP status */
int64_t sb_s3_conn_errno(CURLcode cc);
int sb_s3_status_errno(long status);
/* s3auth.c: d->host, d->https and the signing keys from the options, the AWS
 * environment and the credentials file (td->job->fs->read_cred); 0 or
 * -errno with td->errmsg */
int sb_s3_auth(struct s3_td *d, struct sb_engine_td *td);

/* s3list.c: each object under prefix of bucket (key, bytes) to each()
 * (its non-zero return ends the listing with it); err: the server's
 * refusal.  0 or -errno */
int sb_s3_list(struct s3_td *d, char *err, size_t elen, const char *bucket, const char *prefix,
	       int (*each)(const char *key, uint64_t size, void *arg), void *arg);
/* r's object is written: d->wrote and d->wrote_bucket */
void sb_s3_wrote(struct s3_td *d, const struct s3_req *r);
/* s3own.c: at init (also --parse-only's check: nothing is written), a
 * job that writes or trims refused when one of its objects is a user's;
 * at the first I/O, a read job's missing or short objects laid out */
int sb_s3_prepare(struct s3_td *d, struct sb_engine_td *td);
int sb_s3_layout(struct s3_td *d, struct sb_engine_td *td);
/* a file an ML workload is about to write (f->created): refused, -EPERM
 * with td->errmsg, when one of its objects is a user's */
int sb_s3_open_check(struct s3_td *d, struct sb_engine_td *td, const struct sb_file *f);
/* Objects outlive the run that made them: a run that ends (not killed)
 * records it once per bucket in the object S3_RUNS + HOST_BOOT_PIDNS_PID_START
 * (its mark, state=kept), so --cleanup tells what a finished run kept from
 * what a killed one left.  The record's key of a mark: 0 or -errno. */
#define S3_RUNS ".storbench-runs/"
int sb_s3_run_key(const char *mark, char *key, size_t len);
/* the run's record PUT into bucket (the first path component of it) on
 * r, a request not in flight; d->mark becomes state=kept: 0 or -errno */
int sb_s3_put_record(struct s3_td *d, struct s3_req *r, const char *bucket);
/* a thread that wrote ends: the run's record where it wrote (0 or -errno) */
int sb_s3_record_kept(struct s3_td *d);
/* "METHOD PATH: HTTP STATUS Code: Message" of r's answer into buf */
void sb_s3_explain(char *buf, size_t len, const struct s3_req *r, long status);
#endif
#endif
