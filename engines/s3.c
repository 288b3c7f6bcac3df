/* s3.c: the object-storage engines on libcurl: ioengine=s3 (objects in
 * s3_bucket, a file's bytes in one object or in objects of s3_object_size,
 * ranged GETs) and fio's ioengine=http (fio's object names and modes:
 * webdav, s3, swift), with fio's http_* options.  A write is a PUT (marked
 * with the run's owner), a read a GET, a trim a DELETE.  Requests run on
 * libcurl's multi interface, iodepth of them at once on reused
 * connections; what S3 asks to retry is retried with a backoff, bounded by
 * s3_retries.  Requests and bodies: engines/s3req.c. */
#include <inttypes.h>
#include <stddef.h>

#include "engines/s3.h"

static const struct sb_opt_enum https_vals[] = {
	{ .name = "off", .val = S3_HTTPS_OFF, .help = "http://" },
	{ .name = "on", .val = S3_HTTPS_ON, .help = "https://, the server's certificate checked" },
	{ .name = "insecure", .val = S3_HTTPS_INSECURE, .help = "https://, the certificate not checked" },
	{ .name = NULL },
};
static const struct sb_opt_enum mode_vals[] = {
	{ .name = "webdav", .val = S3_MODE_WEBDAV, .help = "plain PUT/GET/DELETE (http_user/http_pass)" },
	{ .name = "s3", .val = S3_MODE_S3, .help = "S3, signed with AWS Signature Version 4" },
	{ .name = "swift", .val = S3_MODE_SWIFT, .help = "OpenStack Swift (http_swift_auth_token)" },
	{ .name = NULL },
};
static const struct sb_opt_enum objmode_vals[] = {
	{ .name = "block", .val = S3_OBJ_BLOCK, .help = "one object per block: FILENAME_OFFSET_LENGTH" },
	{ .name = "range", .val = S3_OBJ_RANGE, .help = "one object per file, ranged GETs per block" },
	{ .name = NULL },
};

#define OO(f) offsetof(struct s3_opts, f)
#define STR(n, f, h) { .name = n, .type = SB_OT_STR, .off = OO(f), .category = SB_CAT_ENG, .help = h }
static const struct sb_option s3_options[] = {
	STR("http_host", host, "http/s3: the server, HOST[:PORT] (default: AWS_ENDPOINT_URL's, else localhost)"),
	STR("http_user", user, "http: user name (http_mode=webdav)"),
	STR("http_pass", pass, "http: password (http_mode=webdav)"),
	STR("http_s3_keyid", keyid, "http/s3: access key id (default: AWS_ACCESS_KEY_ID or ~/.aws/credentials)"),
	STR("http_s3_key", key, "http/s3: secret key (default: AWS_SECRET_ACCESS_KEY or ~/.aws/credentials)"),
	STR("http_s3_security_token", token, "http/s3: session token (default: AWS_SESSION_TOKEN)"),
	STR("http_s3_region", region, "http/s3: region signed into requests (default: AWS_REGION, else us-east-1)"),
	STR("http_s3_storage_class", storage_class, "http/s3: x-amz-storage-class of PUTs"),
	STR("http_swift_auth_token", swift_token, "http: X-Auth-Token (http_mode=swift)"),
	STR("s3_bucket", bucket, "s3: the bucket the objects are in"),
	{ .name = "https", .type = SB_OT_ENUM, .off = OO(https), .def = "off", .enums = https_vals,
	  .category = SB_CAT_ENG, .help = "http/s3: off, on or insecure" },
	{ .name = "http_mode", .type = SB_OT_ENUM, .off = OO(mode), .def = "webdav", .enums = mode_vals,
	  .category = SB_CAT_ENG, .help = "http: webdav, s3 or swift (ioengine=s3 is always s3)" },
	{ .name = "http_object_mode", .type = SB_OT_ENUM, .off = OO(object_mode), .def = "block",
	  .enums = objmode_vals, .category = SB_CAT_ENG, .help = "http: block or range" },
	{ .name = "http_verbose", .type = SB_OT_INT, .off = OO(verbose), .def = "0", .min = 0, .max = 2,
	  .category = SB_CAT_ENG, .help = "http/s3: 1 or 2: libcurl's verbose trace on stderr" },
	{ .name = "s3_object_size", .type = SB_OT_SIZE, .off = OO(object_size), .def = "0", .unit = "bytes",
	  .category = SB_CAT_ENG, .help = "s3: bytes per object; a file is objects FILE/0, FILE/1, ... (0: one object per file)" },
	{ .name = "s3_multipart_size", .type = SB_OT_SIZE, .off = OO(multipart_size), .def = "0", .unit = "bytes",
	  .category = SB_CAT_ENG, .help = "s3: a write of a larger object is a multipart upload in parts of this many bytes (at least 5m; 0: one PUT)" },
	{ .name = "s3_path_style", .type = SB_OT_BOOL, .off = OO(path_style), .def = "1",
	  .category = SB_CAT_ENG, .help = "s3: HOST/BUCKET/KEY (1) or BUCKET.HOST/KEY (0)" },
	{ .name = "s3_sign_payload", .type = SB_OT_BOOL, .off = OO(sign_payload), .def = "0",
	  .category = SB_CAT_ENG, .help = "http/s3: sign each PUT's SHA-256 (1) or UNSIGNED-PAYLOAD (0)" },
	{ .name = "s3_retries", .type = SB_OT_UINT, .off = OO(retries), .def = "5", .min = 0, .max = 20,
	  .category = SB_CAT_ENG, .help = "http/s3: tries again after 5xx or a dropped connection, backoff 20 ms doubling" },
};
const struct sb_engine_options sb_s3_optset = {
	s3_options, sizeof(s3_options) / sizeof(s3_options[0]), sizeof(struct s3_opts),
};

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
static const char s3_notes[] =
	"  credentials: http_s3_keyid/http_s3_key, else AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY\n"
	"    (AWS_SESSION_TOKEN), else profile AWS_PROFILE (default) of ~/.aws/credentials\n"
	"    (AWS_SHARED_CREDENTIALS_FILE); never printed (<hidden>)\n"
	"  objects (s3): the file is object KEY, or KEY/0, KEY/1, ... of s3_object_size bytes;\n"
	"    a write PUTs one whole object (bs = s3_object_size), a read GETs a byte range,\n"
	"    a trim DELETEs; (http) FILENAME_OFFSET_LENGTH per block, as fio\n"
	"  before the first I/O (exit 1, nothing written): a listing with the credentials\n"
	"    (the server's code: InvalidAccessKeyId, SignatureDoesNotMatch, NoSuchBucket);\n"
	"    writers and trimmers refuse any object there without storbench's mark\n"
	"    (x-amz-meta-storbench-owner); readers PUT their missing objects (marked)\n"
	"  retries: 500, 502, 503 SlowDown, 504, a refused or dropped connection; after\n"
	"    20 ms doubling to 1.28 s, at most s3_retries times; then the I/O fails (exit 3):\n"
	"    403 EACCES, 404 ENOENT, others EIO, no server ECONNREFUSED; a read past an\n"
	"    object's end (416) ends as a file's read at end of file\n"
	"  results, JSON \"engine\" (counts): requests, http_2xx, http_3xx, http_4xx, http_5xx,\n"
	"    retries, slowdown_503, connection_errors: the requests of the I/Os (parts and\n"
	"    KV-cache entries too; not the checks and layout before them); per direction \"ttfb_ns\":\n"
	"    time to first byte of each answered GET or PUT, ns (min, max, mean, percentiles)\n";

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const s3_counters[S3_C_N] = {
	[S3_C_2XX] = "http_2xx", [S3_C_3XX] = "http_3xx", [S3_C_4XX] = "http_4xx",
	[S3_C_5XX] = "http_5xx", [S3_C_RETRY] = "retries", [S3_C_SLOWDOWN] = "slowdown_503",
	[S3_C_CONNERR] = "connection_errors", [S3_C_REQS] = "requests",
};

static void s3_cleanup(struct sb_engine_td *td)
{
	struct s3_td *d = td->data;
	if (!d)
		return;
	for (unsigned i = 0; d->reqs && i < td->nios; i++)
		if (d->reqs[i].active)
			curl_multi_remove_handle(d->m, d->reqs[i].h);
	for (unsigned i = 0; i < td->nfiles; i++)
		sb_s3_stream_free(d, d->reqs ? &d->reqs[0] : NULL, &td->files[i]); /* none in flight now */
	if (d->reqs)
		(void)sb_s3_record_kept(d); /* best effort: without it --cleanup sees a killed run */
	for (unsigned i = 0; d->reqs && i < td->nios; i++) {
		sb_s3_mp_free(&d->reqs[i]);
		sb_s3_req_free(&d->reqs[i]);
	}
	if (d->m)
		curl_multi_cleanup(d->m);
	free(d->reqs);
	free(d->done);
	free(d);
	td->data = NULL;
}

static int init_kind(struct sb_engine_td *td, enum s3_kind kind)
{
	static const struct s3_opts defaults = { .path_style = true, .retries = 5 };
	if (!td->ios || !td->nios)
		return -EINVAL;
	struct s3_td *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	td->data = d;
	d->kind = kind;
	d->o = td->job && td->job->opts ? td->job->opts : &defaults;
	d->sink = td->sink;
	int e = sb_s3_auth(d, td);
	if (e)
		return s3_cleanup(td), e;
	if (td->job && td->job->fs && td->job->fs->mark)
		td->job->fs->mark(td->job->job, d->mark, sizeof(d->mark));
	d->reqs = calloc(td->nios, sizeof(*d->reqs));
	d->done = calloc(td->nios, sizeof(*d->done));
	if (!d->reqs || !d->done || !(d->m = curl_multi_init()))
		return s3_cleanup(td), -ENOMEM;
	curl_multi_setopt(d->m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)td->nios);
	for (unsigned i = 0; i < td->nios; i++) {
		if ((e = sb_s3_req_init(d, &d->reqs[i])))
			return s3_cleanup(td), e;
		d->reqs[i].zero_404 = kind == S3_KIND_HTTP;
		td->ios[i].engine_priv = &d->reqs[i];
	}
	if (kind == S3_KIND_S3 && (e = sb_s3_mp_init(d, td)))
		return s3_cleanup(td), e;
	return 0;
}

/* before any I/O: the bucket answers a listing with these credentials (a
 * wrong key, a missing bucket or no server fail the job here, with S3's
 * own code and message) */
static int preflight(struct sb_engine_td *td, struct s3_td *d)
{
	char path[300], body[16384]; /* a page of one key: well under 16 KiB */
	long status = 0;
	struct s3_req *r = &d->reqs[0];
	const char *b = d->o->bucket && *d->o->bucket ? d->o->bucket : NULL;
	for (unsigned i = 0; !b && i < td->nfiles; i++) /* s3://BUCKET/KEY files name theirs */
		if (td->files[i].path && !strncmp(td->files[i].path, "s3://", 5))
			b = td->files[i].path + 5;
	if (!b)
		return 0; /* an ML worker's files come later: their first request answers */
	snprintf(path, sizeof(path), "/%.*s", (int)strcspn(b, "/"), b);
	int e = sb_s3_sync(d, r, "GET", path, "list-type=2&max-keys=1", body, sizeof(body), &status);
	if (e) {
		td->machine_lacks = true; /* the server is not reachable from here (--parse-only=job warns) */
		snprintf(td->errmsg, sizeof(td->errmsg), "no answer from %s://%.200s: %.120s: check http_host= and https=",
			 d->https == S3_HTTPS_OFF ? "http" : "https", d->host, r->errbody);
		return e;
	}
	if (status >= 200 && status <= 299)
		return 0;
	char why[200];
	sb_s3_explain(why, sizeof(why), r, status);
	snprintf(td->errmsg, sizeof(td->errmsg), "%s%s", why,
		 status == 403 ? " (check http_s3_keyid=, http_s3_key= and http_s3_region=)" :
		 status == 404 ? " (check s3_bucket=: the bucket must exist)" : "");
	return status == 403 ? -EACCES : status == 404 ? -ENOENT : -EIO;
}

static int s3_init(struct sb_engine_td *td)
{
	int e = init_kind(td, S3_KIND_S3);
	if (!e && ((e = preflight(td, td->data)) || (e = sb_s3_prepare(td->data, td))))
		s3_cleanup(td);
	return e;
}

static int http_init(struct sb_engine_td *td)
{
	int e = init_kind(td, S3_KIND_HTTP);
	if (!e && (e = sb_s3_prepare(td->data, td)))
		s3_cleanup(td);
	return e;
}

static int start(struct s3_td *d, struct s3_req *r)
{
	struct sb_io_u *io = r->io;
	switch (io->ddir) {
	case SB_DDIR_READ:
		return sb_s3_start(d, r, "GET", "", NULL, 0);
	case SB_DDIR_WRITE:
		if (r->stream)
			return sb_s3_stream_send(d, r); /* a step tried again */
		if (r->mp_phase)
			return sb_s3_mp_send(d, r);
		if (sb_s3_mp_wanted(d, io))
			return sb_s3_mp_begin(d, r);
		return sb_s3_start(d, r, "PUT", "", io->buf, io->len);
	case SB_DDIR_TRIM:
		return sb_s3_start(d, r, "DELETE", "", NULL, 0);
	default: /* fsync and friends: objects are durable once the PUT is answered */
		return 1;
	}
}

/* files opened one by one (the ML workloads' files): the ones about to be
 * written are checked as a job's are before its first I/O */
static int s3_open_file(struct sb_engine_td *td, struct sb_file *f)
{
	return sb_s3_open_check(td->data, td, f);
}

static enum sb_q_status s3_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct s3_td *d = td->data;
	struct s3_req *r = io->engine_priv;
	int e = d->need_layout ? sb_s3_layout(d, td) : 0; /* before the first I/O: never in --parse-only */
	if (e) {
		io->result = e;
		return SB_Q_COMPLETED;
	}
	r->io = io;
	r->tries = 0;
	r->retry_at = 0;
	r->mp_phase = S3_MP_NONE;
	r->stream = NULL;
	e = io->ddir <= SB_DDIR_TRIM ? sb_s3_object(d, td, r) : 0;
	if (!e && sb_s3_stream_wanted(d, io)) { /* a piece of a file written into one object */
		e = sb_s3_stream_queue(d, td, r);
		if (e == S3_STREAM_BUSY)
			return SB_Q_BUSY;
		if (e == 1)
			return SB_Q_COMPLETED;
	} else if (!e) {
		e = start(d, r);
	}
	if (e) {
		io->result = e > 0 ? 0 : e;
		return SB_Q_COMPLETED;
	}
	d->inflight++;
	return SB_Q_QUEUED;
}

/* what finished, and retries whose backoff is over */
static void reap(struct sb_engine_td *td, struct s3_td *d)
{
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(d->m, &left))) {
		struct s3_req *r = NULL;
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
		if (sb_s3_finish(d, td, r, msg->data.result) == 0) { /* 1: to retry, 2: next step sent */
			d->done[d->ndone++] = r->io;
			d->inflight--;
		}
	}
	uint64_t now = sb_s3_now();
	for (unsigned i = 0; i < td->nios; i++) {
		struct s3_req *r = &d->reqs[i];
		if (!r->retry_at || r->retry_at > now)
			continue;
		r->retry_at = 0;
		if (start(d, r) != 0) { /* cannot even send it again */
			r->io->result = -EIO;
			d->done[d->ndone++] = r->io;
			d->inflight--;
		}
	}
}

/* ms to wait in curl_multi_poll: until timeout, or the next retry */
static int wait_ms(const struct s3_td *d, unsigned nios, uint64_t deadline)
{
	uint64_t now = sb_s3_now(), until = deadline;
	for (unsigned i = 0; i < nios; i++)
		if (d->reqs[i].retry_at && d->reqs[i].retry_at < until)
			until = d->reqs[i].retry_at;
	if (until <= now)
		return 0;
	uint64_t ms = (until - now + 999999u) / 1000000u;
	return ms > 1000 ? 1000 : (int)ms;
}

static int s3_getevents(struct sb_engine_td *td, unsigned min, unsigned max, const struct timespec *t)
{
	struct s3_td *d = td->data;
	uint64_t deadline = t ? sb_s3_now() + (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec
			      : UINT64_MAX;
	/* the ones handed out last time are gone */
	memmove(d->done, d->done + d->handed, (d->ndone - d->handed) * sizeof(*d->done));
	d->ndone -= d->handed;
	d->handed = 0;
	for (;;) {
		int running = 0;
		if (curl_multi_perform(d->m, &running) != CURLM_OK)
			return -EIO;
		reap(td, d);
		if (d->ndone >= min || d->ndone >= max || !d->inflight || sb_s3_now() >= deadline)
			break;
		int ms = wait_ms(d, td->nios, deadline);
		if (curl_multi_poll(d->m, NULL, 0, ms, NULL) != CURLM_OK)
			return -EIO;
	}
	d->handed = d->ndone < max ? d->ndone : max;
	return (int)d->handed;
}

static struct sb_io_u *s3_event(struct sb_engine_td *td, unsigned i)
{
	struct s3_td *d = td->data;
	return i < d->handed ? d->done[i] : NULL;
}

/* what the job file alone decides, refused at its line when it is parsed:
 * a bucket (s3_bucket=, or s3://BUCKET in filename= or directory=; an ML
 * workload's folder names its own), and parts S3 takes */
static int s3_check(const void *opts, const char *filename, const char *directory, bool io_job,
		    const char **opt, char *why, size_t wlen)
{
	const struct s3_opts *o = opts;
	if (o && o->multipart_size && (o->multipart_size < S3_MP_MIN || o->multipart_size > S3_MP_PART_MAX)) {
		*opt = "s3_multipart_size";
		snprintf(why, wlen, "s3_multipart_size=%" PRIu64 " is outside S3's part sizes, 5 MiB to 5 GiB "
			 "(5242880 to 5368709120 bytes): set s3_multipart_size=5m or more, or 0 for single PUTs",
			 o->multipart_size);
		return -EINVAL;
	}
	if (!io_job || (o && o->bucket && *o->bucket) || (directory && !strncmp(directory, "s3://", 5)))
		return 0;
	for (const char *f = filename; f && *f; f += strcspn(f, ":"), f += *f == ':')
		if (strncmp(f, "s3://", 5)) { /* s3://BUCKET/KEY: its ':' is not a separator here */
			*opt = "filename";
			snprintf(why, wlen, "ioengine=s3 has no bucket for %.*s: set s3_bucket=NAME, or name the "
				 "object s3://BUCKET/KEY", (int)strcspn(f, ":"), f);
			return -EINVAL;
		} else {
			f += 5;
		}
	if (!filename) {
		snprintf(why, wlen, "ioengine=s3 has no bucket for the job's objects: set s3_bucket=NAME, or "
			 "filename=s3://BUCKET/KEY");
		return -EINVAL;
	}
	return 0;
}

const struct sb_engine_ops sb_engine_s3 = {
	.check = s3_check,
	.name = "s3",
	.description = "S3 objects over HTTP(S) on libcurl: PUT, ranged GET, DELETE, SigV4 (s3_bucket=)",
	.flags = SB_ENGINE_NODISKIO | SB_ENGINE_OBJECTS,
	.object_size = sb_s3_object_size,
	.object_put = sb_s3_object_put,
	.object_get = sb_s3_object_get,
	.object_end = sb_s3_object_end,
	.object_delete = sb_s3_object_delete,
	.init = s3_init,
	.cleanup = s3_cleanup,
	.options = &sb_s3_optset,
	.open_file = s3_open_file,
	.queue = s3_queue,
	.getevents = s3_getevents,
	.event = s3_event,
	.counters = s3_counters,
	.ncounters = S3_C_N,
	.notes = s3_notes,
};

const struct sb_engine_ops sb_engine_http = {
	.name = "http",
	.description = "fio's http engine: PUT/GET/DELETE per block, http_mode=webdav, s3 or swift",
	.flags = SB_ENGINE_NODISKIO | SB_ENGINE_OBJECTS,
	.init = http_init,
	.cleanup = s3_cleanup,
	.options = &sb_s3_optset,
	.open_file = s3_open_file,
	.queue = s3_queue,
	.getevents = s3_getevents,
	.event = s3_event,
	.counters = s3_counters,
	.ncounters = S3_C_N,
	.notes = s3_notes,
};
#endif
