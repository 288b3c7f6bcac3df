/* s3req.c: one HTTP request of the object-storage engines on a libcurl
 * easy handle (see s3.h): the object's name, the URL, the headers and the
 * SigV4 signature, the body in and out of the I/O buffer, and requests run
 * to their end outside the multi handle (the checks before the first I/O,
 * layouts, --cleanup).  The end of a request in the I/O loop: s3done.c. */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

uint64_t sb_s3_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int64_t sb_s3_conn_errno(CURLcode cc)
{
	switch (cc) {
	case CURLE_COULDNT_CONNECT: return -ECONNREFUSED;
	case CURLE_COULDNT_RESOLVE_HOST: return -EHOSTUNREACH;
	case CURLE_OPERATION_TIMEDOUT: return -ETIMEDOUT;
	case CURLE_SEND_ERROR: case CURLE_RECV_ERROR: case CURLE_GOT_NOTHING: return -ECONNRESET;
	default: return -EIO;
	}
}

int sb_s3_status_errno(long status)
{
	switch (status) {
	case 400: return -EINVAL;
	case 401: case 403: return -EACCES;
	case 404: return -ENOENT;
	case 409: return -EBUSY;
	case 411: case 413: return -EFBIG;
	case 416: return -ENXIO;
	case 507: return -ENOSPC;
	default: return -EIO;
	}
}

/* PUT body out of io->buf */
static size_t body_out(char *p, size_t size, size_t n, void *arg)
{
	struct s3_req *r = arg;
	uint64_t left = r->body_len - r->body_at, len = (uint64_t)size * n;
	if (len > left)
		len = left;
	if (r->body_fd >= 0) { /* a whole file (a dataset's, made in memory) */
		ssize_t got = pread(r->body_fd, p, len, (off_t)r->body_at);
		if (got < 0)
			return CURL_READFUNC_ABORT;
		len = (uint64_t)got;
	} else if (r->cycle) { /* layout: the buffer's bytes over and over */
		uint64_t at = r->body_at % r->cycle;
		len = len < r->cycle - at ? len : r->cycle - at;
		memcpy(p, r->body + at, len);
	} else {
		memcpy(p, r->body + r->body_at, len);
	}
	r->body_at += len;
	return len;
}

/* a retried or redirected upload starts again */
static int body_seek(void *arg, curl_off_t off, int origin)
{
	struct s3_req *r = arg;
	if (origin != SEEK_SET || off < 0 || (uint64_t)off > r->body_len)
		return CURL_SEEKFUNC_FAIL;
	r->body_at = (uint64_t)off;
	return CURL_SEEKFUNC_OK;
}

/* GET body into io->buf; an error's body (S3's XML) into errbody */
static size_t body_in(char *p, size_t size, size_t n, void *arg)
{
	struct s3_req *r = arg;
	size_t len = size * n;
	long status = 0;
	curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
	if (status < 200 || status > 299 || r->io->ddir != SB_DDIR_READ) {
		size_t room = sizeof(r->errbody) - 1 - r->errlen, k = len < room ? len : room;
		memcpy(r->errbody + r->errlen, p, k);
		r->errlen += k;
		r->errbody[r->errlen] = '\0';
		return len;
	}
	if (r->got + len > r->want) {
		if (!r->unranged)
			return 0; /* more than asked (a server that ignored Range): an error */
		/* a whole-object GET of an object longer than the file (a user's,
		 * read as it is): what the I/O asked for is kept, the rest dropped */
		size_t keep = (size_t)(r->want - r->got);
		memcpy((char *)r->io->buf + r->got, p, keep);
		r->got += keep;
		return len;
	}
	memcpy((char *)r->io->buf + r->got, p, len);
	r->got += len;
	return len;
}

/* value of header line p (len bytes) when it is name's, into out */
static void header_value(const char *p, size_t len, const char *name, char *out, size_t olen)
{
	size_t k = strlen(name);
	if (len <= k || strncasecmp(p, name, k))
		return;
	const char *v = p + k;
	size_t vl = len - k;
	while (vl && (*v == ' ' || *v == '\t'))
		v++, vl--;
	while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
		vl--;
	snprintf(out, olen, "%.*s", (int)vl, v);
}

/* the answer's headers: storbench's owner mark (the ownership checks) and
 * the ETag (a multipart upload's parts) */
static size_t header_in(char *p, size_t size, size_t n, void *arg)
{
	struct s3_req *r = arg;
	size_t len = size * n;
	header_value(p, len, "x-amz-meta-storbench-owner:", r->owner, sizeof(r->owner));
	header_value(p, len, "etag:", r->etag, sizeof(r->etag));
	return len;
}

int sb_s3_req_init(struct s3_td *d, struct s3_req *r)
{
	memset(r, 0, sizeof(*r));
	r->td = d;
	r->body_fd = -1;
	if (!(r->h = curl_easy_init()))
		return -ENOMEM;
	curl_easy_setopt(r->h, CURLOPT_PRIVATE, r);
	curl_easy_setopt(r->h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(r->h, CURLOPT_NOPROGRESS, 1L);
	curl_easy_setopt(r->h, CURLOPT_TCP_NODELAY, 1L);
	/* 512 KiB reads (libcurl's default 16 KiB: 6x the recv and poll calls of
	 * curl's own tool on a 16 MiB GET; bench/s3.py A/B: 14-26% less CPU per
	 * 16 MiB GET, 4 KiB unchanged) */
	curl_easy_setopt(r->h, CURLOPT_BUFFERSIZE, 512L * 1024);
	curl_easy_setopt(r->h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(r->h, CURLOPT_READFUNCTION, body_out);
	curl_easy_setopt(r->h, CURLOPT_READDATA, r);
	curl_easy_setopt(r->h, CURLOPT_SEEKFUNCTION, body_seek);
	curl_easy_setopt(r->h, CURLOPT_SEEKDATA, r);
	curl_easy_setopt(r->h, CURLOPT_WRITEFUNCTION, body_in);
	curl_easy_setopt(r->h, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(r->h, CURLOPT_HEADERFUNCTION, header_in);
	curl_easy_setopt(r->h, CURLOPT_HEADERDATA, r);
	if (d->o->verbose)
		curl_easy_setopt(r->h, CURLOPT_VERBOSE, 1L);
	if (d->https == S3_HTTPS_INSECURE) {
		curl_easy_setopt(r->h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(r->h, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (d->kind == S3_KIND_HTTP && d->o->mode == S3_MODE_WEBDAV && d->o->user && d->o->pass) {
		curl_easy_setopt(r->h, CURLOPT_USERNAME, d->o->user);
		curl_easy_setopt(r->h, CURLOPT_PASSWORD, d->o->pass);
		curl_easy_setopt(r->h, CURLOPT_HTTPAUTH, (long)CURLAUTH_ANY);
	}
	return 0;
}

void sb_s3_req_free(struct s3_req *r)
{
	curl_slist_free_all(r->hdrs);
	r->hdrs = NULL;
	if (r->h)
		curl_easy_cleanup(r->h);
	r->h = NULL;
}

/* "/bucket/key" of a file: s3 keys drop the path's leading '/' */
static int file_key(struct s3_td *d, const struct sb_file *f, char *out, size_t len)
{
	const char *p = f->path;
	int n;
	if (d->kind == S3_KIND_HTTP) /* fio: the filename is the path after the host */
		n = snprintf(out, len, "%s%s", *p == '/' ? "" : "/", p);
	else
		return sb_s3_key_path(d->o->bucket, p, out, len);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sb_s3_object(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r)
{
	const struct sb_io_u *io = r->io;
	uint64_t off = io->offset - io->xfer_done, len = io->len + io->xfer_done;
	int e = file_key(d, io->file, r->path, sizeof(r->path));
	size_t n = strlen(r->path);
	if (e)
		return e;
	if (d->kind == S3_KIND_HTTP) {
		if (d->o->object_mode == S3_OBJ_BLOCK) /* fio: one object per block */
			snprintf(r->path + n, sizeof(r->path) - n, "_%" PRIu64 "_%" PRIu64, off, len);
		return 0;
	}
	uint64_t os = d->o->object_size;
	if (!os)
		return 0; /* the file is one object */
	uint64_t obj = off / os, start = obj * os;
	snprintf(r->path + n, sizeof(r->path) - n, "/%" PRIu64, obj);
	if (io->ddir != SB_DDIR_WRITE)
		return 0;
	uint64_t whole = io->file->size - start < os ? io->file->size - start : os;
	if (off == start && len == whole)
		return 0;
	snprintf(td->errmsg, sizeof(td->errmsg), "a write of %" PRIu64 " bytes at %" PRIu64 " covers part "
		 "of object %s (%" PRIu64 " bytes): S3 writes whole objects: set bs= to s3_object_size=",
		 len, off, r->path, whole);
	return -EINVAL;
}

/* where a GET of io starts in its object (Range: bytes=) */
static uint64_t range_start(const struct s3_td *d, const struct sb_io_u *io)
{
	uint64_t os = d->kind == S3_KIND_S3 ? d->o->object_size : 0;
	return os ? io->offset % os : io->offset;
}

/* the signed headers and the curl header list of r */
static int headers(struct s3_td *d, struct s3_req *r, const char *host, const char *method, const char *uri,
		   const char *query, const char *payload, const char *range)
{
	struct sb_sigv4_hdr h[8];
	unsigned nh = 0;
	char date[17], auth[1024], line[1100];
	const struct s3_opts *o = d->o;
	/* the mark goes on what makes an object: a PUT, or a multipart upload's start */
	bool put = (!strcmp(method, "PUT") && !query[0]) || (!strcmp(method, "POST") && !strcmp(query, "uploads="));
	sb_sigv4_date(time(NULL), date);
	h[nh++] = (struct sb_sigv4_hdr){ "host", host };
	h[nh++] = (struct sb_sigv4_hdr){ "x-amz-date", date };
	h[nh++] = (struct sb_sigv4_hdr){ "x-amz-content-sha256", payload };
	if (range)
		h[nh++] = (struct sb_sigv4_hdr){ "range", range };
	if (put && d->mark[0])
		h[nh++] = (struct sb_sigv4_hdr){ "x-amz-meta-storbench-owner", d->mark };
	if (put && o->storage_class && *o->storage_class)
		h[nh++] = (struct sb_sigv4_hdr){ "x-amz-storage-class", o->storage_class };
	if (d->token)
		h[nh++] = (struct sb_sigv4_hdr){ "x-amz-security-token", d->token };
	curl_slist_free_all(r->hdrs);
	r->hdrs = curl_slist_append(NULL, "Expect:"); /* no 100-continue round trip */
	if (d->kind == S3_KIND_HTTP && o->mode == S3_MODE_SWIFT && o->swift_token) {
		snprintf(line, sizeof(line), "X-Auth-Token: %s", o->swift_token);
		r->hdrs = curl_slist_append(r->hdrs, line);
	}
	for (unsigned i = 0; i < nh && (d->sign || !strcmp(h[i].name, "range") || i == 0); i++) {
		snprintf(line, sizeof(line), "%s: %s", h[i].name, h[i].value);
		r->hdrs = curl_slist_append(r->hdrs, line);
	}
	if (d->sign) {
		int e = sb_sigv4_sign(&d->sig, method, uri, query, h, nh, payload, date, auth, sizeof(auth));
		if (e)
			return e;
		snprintf(line, sizeof(line), "Authorization: %s", auth);
		r->hdrs = curl_slist_append(r->hdrs, line);
	}
	return r->hdrs ? 0 : -ENOMEM;
}

/* method's curl settings on the reused handle */
static void method_opts(struct s3_req *r, const char *method, uint64_t len)
{
	bool up = !strcmp(method, "PUT") || !strcmp(method, "POST"); /* Content-Length always sent */
	curl_easy_setopt(r->h, CURLOPT_CUSTOMREQUEST, NULL);
	curl_easy_setopt(r->h, CURLOPT_NOBODY, 0L);
	curl_easy_setopt(r->h, CURLOPT_HTTPGET, 1L);
	if (up) {
		curl_easy_setopt(r->h, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(r->h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len); /* never chunked: 411 */
	}
	if (!strcmp(method, "HEAD"))
		curl_easy_setopt(r->h, CURLOPT_NOBODY, 1L);
	else if (strcmp(method, "GET") && strcmp(method, "PUT"))
		curl_easy_setopt(r->h, CURLOPT_CUSTOMREQUEST, method);
}

int sb_s3_start(struct s3_td *d, struct s3_req *r, const char *method, const char *query,
		const void *body, uint64_t len)
{
	char uri[3 * sizeof(r->path)], range[64], payload[65], host[sizeof(d->host) + 80];
	const char *scheme = d->https == S3_HTTPS_OFF ? "http" : "https", *path = r->path;
	const struct sb_io_u *io = r->io;
	bool get = !strcmp(method, "GET") && io;
	if (d->vhost) { /* virtual-hosted: BUCKET.HOST, the key alone as the path */
		size_t b = strcspn(path + 1, "/");
		snprintf(host, sizeof(host), "%.*s.%s", (int)(b < 63 ? b : 63), path + 1, d->host);
		path = path[1 + b] ? path + 1 + b : "/";
	} else {
		snprintf(host, sizeof(host), "%s", d->host);
	}
	int e = sb_sigv4_encode(path, true, uri, sizeof(uri));
	if (e)
		return e;
	int n = snprintf(r->url, sizeof(r->url), "%s://%s%s%s%s", scheme, host, uri, *query ? "?" : "", query);
	if (n < 0 || (size_t)n >= sizeof(r->url))
		return -ENAMETOOLONG;
	r->method = method;
	r->body = body;
	r->body_at = 0;
	r->body_len = len;
	r->got = 0;
	r->errlen = 0;
	r->errbody[0] = '\0';
	r->owner[0] = '\0';
	r->etag[0] = '\0';
	r->want = get ? io->len : 0;
	const char *rng = NULL;
	/* a read of a whole one-object file is a plain GET, as DLIO's S3 readers
	 * fetch an object (storage/s3_torch_storage.py get_data, no range) */
	bool whole = false;
	if (d->kind == S3_KIND_S3 && io && io->file) {
		uint64_t os = d->o->object_size, start = os ? io->offset - io->offset % os : 0;
		uint64_t end = os && start + os < io->file->size ? start + os : io->file->size;
		whole = io->offset == start && io->offset + io->len >= end; /* radosgw: a 206 costs more */
	}
	r->unranged = get && whole;
	if (get && !r->whole && !whole && (d->kind == S3_KIND_S3 || d->o->object_mode == S3_OBJ_RANGE)) {
		snprintf(range, sizeof(range), "bytes=%" PRIu64 "-%" PRIu64, range_start(d, io),
			 range_start(d, io) + io->len - 1);
		rng = range;
	}
	snprintf(payload, sizeof(payload), "%s", len ? SB_SIGV4_UNSIGNED : SB_SIGV4_EMPTY);
	if (len && d->o->sign_payload && (e = sb_sigv4_sha256_hex(body, len, payload)))
		return e;
	if ((e = headers(d, r, host, method, uri, query, payload, rng)))
		return e;
	method_opts(r, method, len);
	curl_easy_setopt(r->h, CURLOPT_URL, r->url);
	curl_easy_setopt(r->h, CURLOPT_HTTPHEADER, r->hdrs);
	if (!d->m) /* sb_s3_sync */
		return 0;
	if (curl_multi_add_handle(d->m, r->h) != CURLM_OK)
		return -EIO;
	r->active = true;
	return 0;
}

void sb_s3_count(struct s3_td *d, struct s3_req *r, CURLcode cc, long status, int ddir)
{
	uint64_t *c = d->sink.counters;
	if (c) {
		c[S3_C_REQS]++;
		if (cc != CURLE_OK)
			c[S3_C_CONNERR]++;
		else if (status >= 200 && status < 600)
			c[S3_C_2XX + (unsigned)(status / 100 - 2)]++;
		if (status == 503)
			c[S3_C_SLOWDOWN]++;
	}
	curl_off_t ttfb = 0;
	if (d->sink.ttfb && (ddir == SB_DDIR_READ || ddir == SB_DDIR_WRITE) && cc == CURLE_OK &&
	    status >= 200 && status <= 299 && (!strcmp(r->method, "GET") || !strcmp(r->method, "PUT")) &&
	    curl_easy_getinfo(r->h, CURLINFO_STARTTRANSFER_TIME_T, &ttfb) == CURLE_OK)
		d->sink.ttfb(d->sink.ctx, ddir, (uint64_t)ttfb * 1000u);
}

int sb_s3_sync(struct s3_td *d, struct s3_req *r, const char *method, const char *path,
	       const char *query, char *out, size_t cap, long *status)
{
	struct sb_io_u io = { .ddir = SB_DDIR_READ, .buf = out, .len = cap ? cap - 1 : 0 };
	CURLM *m = d->m;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->io = &io;
	r->whole = true;
	d->m = NULL;
	int e = sb_s3_start(d, r, method, query, NULL, 0);
	d->m = m;
	CURLcode cc = e ? CURLE_OK : curl_easy_perform(r->h);
	r->whole = false;
	r->io = NULL;
	*status = 0;
	if (e)
		return e;
	if (cc == CURLE_OK)
		curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, status);
	if (d->count_sync) /* a client's request (KV-cache entries), not an engine's check */
		sb_s3_count(d, r, cc, *status, -1);
	if (cc != CURLE_OK) {
		snprintf(r->errbody, sizeof(r->errbody), "%s", curl_easy_strerror(cc));
		return sb_s3_conn_errno(cc);
	}
	curl_off_t cl = -1;
	r->clen = curl_easy_getinfo(r->h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) == CURLE_OK ? (int64_t)cl : -1;
	if (cap)
		out[r->got] = '\0';
	return 0;
}

int sb_s3_put_sync(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r, const char *path,
		   uint64_t len)
{
	struct sb_io_u io = { .ddir = SB_DDIR_WRITE, .buf = td->ios[0].buf, .len = len };
	CURLM *m = d->m;
	long status = 0;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->io = &io;
	r->cycle = td->buf_per_io ? td->buf_per_io : len;
	d->m = NULL;
	int e = io.buf ? sb_s3_start(d, r, "PUT", "", io.buf, len) : -EINVAL;
	d->m = m;
	CURLcode cc = e ? CURLE_OK : curl_easy_perform(r->h);
	r->cycle = 0;
	r->io = NULL;
	if (e)
		return e;
	if (cc != CURLE_OK) {
		snprintf(td->errmsg, sizeof(td->errmsg), "laying out %.200s: %.100s", path, curl_easy_strerror(cc));
		return sb_s3_conn_errno(cc);
	}
	curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status <= 299)
		return 0;
	sb_s3_explain(td->errmsg, sizeof(td->errmsg), r, status);
	return sb_s3_status_errno(status);
}

void sb_s3_explain(char *buf, size_t len, const struct s3_req *r, long status)
{
	char code[64] = "", msg[160] = "";
	const char *c = strstr(r->errbody, "<Code>"), *m = strstr(r->errbody, "<Message>");
	if (c)
		sscanf(c + 6, "%63[^<]", code);
	if (m)
		sscanf(m + 9, "%159[^<]", msg);
	snprintf(buf, len, "%s %.100s: HTTP %ld%s%.40s%s%.90s", r->method, r->path, status,
		 code[0] ? " " : "", code, msg[0] ? ": " : "", msg);
}

void sb_s3_wrote(struct s3_td *d, const struct s3_req *r)
{
	d->wrote = true;
	if (!d->wrote_bucket[0]) /* path: /BUCKET/KEY */
		snprintf(d->wrote_bucket, sizeof(d->wrote_bucket), "%.*s", (int)strcspn(r->path + 1, "/"),
			 r->path + 1);
}
#endif
