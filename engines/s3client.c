/* s3client.c: S3 outside a job (see s3client.h), on the engine's own
 * request code: one request slot, run to its end each time. */
#include "engines/s3client.h"
#include "engines/s3.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
struct sb_s3_client {
	struct s3_opts o;
	struct s3_td d;
	struct s3_req r;
	struct sb_engine_job job;
	struct sb_engine_td td;
	char endpoint[600];
	char last_run[700];      /* the run record asked last, and its answer */
	int last_kept;
};

/* a client with a job's options (opts: its struct s3_opts), or the
 * environment's alone (NULL) */
static int client_for(struct sb_s3_client **out, const struct s3_opts *opts, const struct sb_engine_fs *fs,
		      char *why, size_t wlen)
{
	struct sb_s3_client *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->o.path_style = true;
	c->o.retries = 5;
	if (opts)
		c->o = *opts;
	c->job.fs = fs;
	c->td.job = &c->job;
	c->d.kind = S3_KIND_S3;
	c->d.o = &c->o;
	int e = sb_s3_auth(&c->d, &c->td);
	if (!e)
		e = sb_s3_req_init(&c->d, &c->r);
	if (e) {
		snprintf(why, wlen, "%s", c->td.errmsg[0] ? c->td.errmsg : strerror(-e));
		sb_s3_client_close(c);
		return e;
	}
	snprintf(c->endpoint, sizeof(c->endpoint), "%s://%s", c->d.https ? "https" : "http", c->d.host);
	c->d.reqs = &c->r;
	if (fs && fs->mark)
		fs->mark(NULL, c->d.mark, sizeof(c->d.mark));
	*out = c;
	return 0;
}

int sb_s3_client_open(struct sb_s3_client **out, const struct sb_engine_fs *fs, char *why, size_t wlen)
{
	return client_for(out, NULL, fs, why, wlen);
}

/* a client with a job's options for the object at a job's path, whose
 * "/BUCKET/KEY" goes into p (plen bytes): 0 or -errno (err says why) */
static int client_at(struct sb_s3_client **c, const void *opts, const struct sb_engine_fs *fs,
		     const struct sb_engine_sink *sink, const char *path, char *p, size_t plen, char *err,
		     size_t elen)
{
	const struct s3_opts *o = opts;
	*c = NULL;
	int e = sb_s3_key_path(o ? o->bucket : NULL, path, p, plen);
	if (!e && !(e = client_for(c, o, fs, err, elen)) && sink)
		(*c)->d.sink = *sink, (*c)->d.count_sync = true; /* its requests are the job's */
	return e;
}

int sb_s3_object_size(const void *opts, const struct sb_engine_fs *fs, const char *path, uint64_t *size,
		      char *err, size_t elen)
{
	struct sb_s3_client *c = NULL;
	char p[1536], body[64];
	long status = 0;
	int e = client_at(&c, opts, fs, NULL, path, p, sizeof(p), err, elen);
	if (!e && (e = sb_s3_sync(&c->d, &c->r, "HEAD", p, "", body, sizeof(body), &status)))
		snprintf(err, elen, "HEAD %s at %s: %s", p, c->endpoint, c->r.errbody);
	if (!e && status == 404)
		e = -ENOENT;
	else if (!e && (status < 200 || status > 299 || c->r.clen < 0)) {
		sb_s3_explain(err, elen, &c->r, status);
		e = status == 403 ? -EACCES : -EIO;
	} else if (!e) {
		*size = (uint64_t)c->r.clen;
	}
	sb_s3_client_close(c);
	return e;
}

int sb_s3_object_put(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
		     const char *job, const char *path, int fd, const void *buf, uint64_t len, char *err,
		     size_t elen)
{
	struct sb_s3_client *c = NULL;
	char p[1536], body[256];
	long status = 0;
	int e = client_at(&c, opts, fs, sink, path, p, sizeof(p), err, elen);
	if (e)
		return e;
	if (fs && fs->mark)
		fs->mark(job, c->d.mark, sizeof(c->d.mark));
	e = sb_s3_sync(&c->d, &c->r, "HEAD", p, "", body, sizeof(body), &status);
	if (!e && status != 404 && strncmp(c->r.owner, "storbench ", 10)) {
		snprintf(err, elen, "object %.300s is there and storbench did not make it: it is left as it is: "
			 "choose another prefix (data_dir=, directory=) or s3_bucket=", p);
		e = -EPERM;
	}
	struct sb_io_u io = { .ddir = SB_DDIR_WRITE, .len = len };
	c->r.io = &io;
	c->r.body_fd = fd;
	c->d.m = NULL;
	if (!e && !(e = sb_s3_start(&c->d, &c->r, "PUT", "", fd < 0 ? buf : NULL, len))) {
		CURLcode cc = curl_easy_perform(c->r.h);
		curl_easy_getinfo(c->r.h, CURLINFO_RESPONSE_CODE, &status);
		sb_s3_count(&c->d, &c->r, cc, status, SB_DDIR_WRITE);
		if (cc != CURLE_OK) {
			snprintf(err, elen, "PUT %.300s: %s", p, curl_easy_strerror(cc));
			e = -EIO;
		} else if (status < 200 || status > 299) {
			sb_s3_explain(err, elen, &c->r, status);
			e = status == 403 ? -EACCES : -EIO;
		}
	}
	c->r.body_fd = -1;
	c->r.io = NULL;
	sb_s3_client_close(c);
	return e;
}

void sb_s3_client_close(struct sb_s3_client *c)
{
	if (!c)
		return;
	sb_s3_req_free(&c->r);
	free(c);
}

const char *sb_s3_client_endpoint(const struct sb_s3_client *c)
{
	return c->endpoint;
}

int sb_s3_client_list(struct sb_s3_client *c, const char *bucket, const char *prefix,
		      int (*each)(const char *key, uint64_t size, void *arg), void *arg, char *why, size_t wlen)
{
	if (wlen)
		why[0] = '\0';
	int e = sb_s3_list(&c->d, why, wlen, bucket, prefix, each, arg);
	if (e && wlen && !why[0])
		snprintf(why, wlen, "listing /%s/%s at %s: %s", bucket, prefix, c->endpoint,
			 c->r.errbody[0] ? c->r.errbody : strerror(-e));
	return e;
}

/* one request on the slot; status into *status, or -errno with why */
static int one(struct sb_s3_client *c, const char *method, const char *bucket, const char *key, long *status,
	       char *why, size_t wlen)
{
	char path[1536], body[4096];
	snprintf(path, sizeof(path), "/%s/%s", bucket, key);
	int e = sb_s3_sync(&c->d, &c->r, method, path, "", body, sizeof(body), status);
	if (e)
		snprintf(why, wlen, "%s %s at %s: %s", method, path, c->endpoint, c->r.errbody);
	return e;
}

int sb_s3_client_owner(struct sb_s3_client *c, const char *bucket, const char *key, char *mark, size_t mlen,
		       int *gone, char *why, size_t wlen)
{
	long status = 0;
	*gone = 0;
	mark[0] = '\0';
	int e = one(c, "HEAD", bucket, key, &status, why, wlen);
	if (e)
		return e;
	if (status == 404)
		return *gone = 1, 0;
	if (status < 200 || status > 299) {
		sb_s3_explain(why, wlen, &c->r, status);
		return -EIO;
	}
	snprintf(mark, mlen, "%s", c->r.owner);
	return 0;
}

int sb_s3_client_run_kept(struct sb_s3_client *c, const char *bucket, const char *mark, int *kept,
			  char *why, size_t wlen)
{
	char key[700], m[300];
	int gone = 0;
	*kept = 0;
	if (sb_s3_run_key(mark, key, sizeof(key)))
		return 0; /* a mark without a run's identity: nothing recorded */
	if (!strcmp(key, c->last_run)) {
		*kept = c->last_kept;
		return 0;
	}
	int e = sb_s3_client_owner(c, bucket, key, m, sizeof(m), &gone, why, wlen);
	if (e)
		return e;
	*kept = !gone;
	snprintf(c->last_run, sizeof(c->last_run), "%s", key);
	c->last_kept = *kept;
	return 0;
}

int sb_s3_client_delete(struct sb_s3_client *c, const char *bucket, const char *key, char *why, size_t wlen)
{
	long status = 0;
	int e = one(c, "DELETE", bucket, key, &status, why, wlen);
	if (e)
		return e;
	if ((status >= 200 && status <= 299) || status == 404)
		return 0;
	sb_s3_explain(why, wlen, &c->r, status);
	return status == 403 ? -EACCES : -EIO;
}
int sb_s3_object_end(const void *opts, const struct sb_engine_fs *fs, const char *path)
{
	struct sb_s3_client *c = NULL;
	char where[1536], err[256];
	int e = client_at(&c, opts, fs, NULL, path, where, sizeof(where), err, sizeof(err));
	if (e)
		return e;
	e = sb_s3_put_record(&c->d, &c->r, where + 1);
	sb_s3_client_close(c);
	return e;
}

int sb_s3_object_get(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
		     const char *path, void *buf, uint64_t cap, uint64_t *got, char *err, size_t elen)
{
	struct sb_s3_client *c = NULL;
	char p[1536];
	long status = 0;
	int e = client_at(&c, opts, fs, sink, path, p, sizeof(p), err, elen);
	if (e)
		return e;
	struct sb_io_u io = { .ddir = SB_DDIR_READ, .buf = buf, .len = cap };
	snprintf(c->r.path, sizeof(c->r.path), "%s", p);
	c->r.io = &io;
	c->r.whole = true; /* the object, no range */
	if (!(e = sb_s3_start(&c->d, &c->r, "GET", "", NULL, 0))) {
		CURLcode cc = curl_easy_perform(c->r.h);
		curl_easy_getinfo(c->r.h, CURLINFO_RESPONSE_CODE, &status);
		sb_s3_count(&c->d, &c->r, cc, status, SB_DDIR_READ);
		if (cc == CURLE_WRITE_ERROR)
			e = -EFBIG; /* more than cap */
		else if (cc != CURLE_OK)
			e = (int)sb_s3_conn_errno(cc), snprintf(err, elen, "GET %.300s: %s", p, curl_easy_strerror(cc));
		else if (status == 404)
			e = -ENOENT;
		else if (status < 200 || status > 299)
			sb_s3_explain(err, elen, &c->r, status), e = -EIO;
	}
	*got = c->r.got;
	c->r.whole = false;
	c->r.io = NULL;
	sb_s3_client_close(c);
	return e;
}

int sb_s3_object_delete(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
			const char *path, char *err, size_t elen)
{
	struct sb_s3_client *c = NULL;
	char p[1536], body[256], mine[700], theirs[700];
	long status = 0;
	int e = client_at(&c, opts, fs, sink, path, p, sizeof(p), err, elen);
	if (e)
		return e;
	e = sb_s3_sync(&c->d, &c->r, "HEAD", p, "", body, sizeof(body), &status);
	if (!e && status != 404) {
		if (sb_s3_run_key(c->d.mark, mine, sizeof(mine)) || sb_s3_run_key(c->r.owner, theirs, sizeof(theirs)) ||
		    strcmp(mine, theirs))
			e = -EPERM; /* not this run's: left as it is */
		else if (!(e = sb_s3_sync(&c->d, &c->r, "DELETE", p, "", body, sizeof(body), &status)) &&
			 (status < 200 || status > 299) && status != 404) {
			sb_s3_explain(err, elen, &c->r, status);
			e = -EIO;
		}
	}
	sb_s3_client_close(c);
	return e;
}
#else
int sb_s3_client_open(struct sb_s3_client **out, const struct sb_engine_fs *fs, char *why, size_t wlen)
{
	(void)fs;
	*out = NULL;
	snprintf(why, wlen, "this storbench has no S3 (apt-get install libcurl4-openssl-dev libssl-dev, ./configure)");
	return -ENOTSUP;
}
void sb_s3_client_close(struct sb_s3_client *c)
{
	(void)c;
}
const char *sb_s3_client_endpoint(const struct sb_s3_client *c)
{
	(void)c;
	return "";
}
int sb_s3_client_list(struct sb_s3_client *c, const char *bucket, const char *prefix,
		      int (*each)(const char *key, uint64_t size, void *arg), void *arg, char *why, size_t wlen)
{
	(void)c, (void)bucket, (void)prefix, (void)each, (void)arg, (void)why, (void)wlen;
	return -ENOTSUP;
}
int sb_s3_client_owner(struct sb_s3_client *c, const char *bucket, const char *key, char *mark, size_t mlen,
		       int *gone, char *why, size_t wlen)
{
	(void)c, (void)bucket, (void)key, (void)mark, (void)mlen, (void)gone, (void)why, (void)wlen;
	return -ENOTSUP;
}
int sb_s3_client_delete(struct sb_s3_client *c, const char *bucket, const char *key, char *why, size_t wlen)
{
	(void)c, (void)bucket, (void)key, (void)why, (void)wlen;
	return -ENOTSUP;
}
int sb_s3_client_run_kept(struct sb_s3_client *c, const char *bucket, const char *mark, int *kept,
			  char *why, size_t wlen)
{
	(void)c, (void)bucket, (void)mark, (void)why, (void)wlen;
	*kept = 0;
	return -ENOTSUP;
}
#endif
