/* s3own.c: before the first I/O of an object-storage job (engines/s3.c),
 * what is in the bucket: storbench never writes over or deletes an object
 * it did not make, and lays out the objects a read job needs, as it lays
 * out files.
 *
 * A job that writes or trims lists its keys (ListObjectsV2 with the
 * file's key as prefix) and asks each object already there for its
 * x-amz-meta-storbench-owner (HEAD): one without storbench's mark is the
 * user's, and the job is refused before anything is sent.  A read job
 * (ioengine=s3) PUTs, marked, each object that is missing or shorter than
 * the job reads; a user's object long enough is read as it is, as a
 * user's file is. */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* one listed object */
struct listed {
	char *key;
	uint64_t size;
};

struct listing {
	struct listed *v;
	size_t n, cap;
	bool sorted;
};

static void listing_free(struct listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].key);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int collect(const char *key, uint64_t size, void *arg)
{
	struct listing *l = arg;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct listed *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v, l->cap = cap;
	}
	if (!(l->v[l->n].key = strdup(key)))
		return -ENOMEM;
	l->v[l->n++].size = size;
	return 0;
}

/* "/BUCKET/KEY", or "/KEY" on a virtual-hosted endpoint (bucket "") */
static void obj_path(char *out, size_t len, const char *bucket, const char *key)
{
	snprintf(out, len, "%s%s/%s", bucket[0] ? "/" : "", bucket, key);
}

/* bucket and key prefix of file f's objects; what a key of f looks like */
static int split(struct s3_td *d, const struct sb_file *f, char *bucket, size_t bl, char *prefix, size_t pl)
{
	const char *p = f->path + strspn(f->path, "/");
	if (d->kind == S3_KIND_S3) {
		char bk[1536];
		int e = sb_s3_key_path(d->o->bucket, f->path, bk, sizeof(bk));
		if (e)
			return e;
		size_t n = strcspn(bk + 1, "/");
		snprintf(bucket, bl, "%.*s", (int)n, bk + 1);
		snprintf(prefix, pl, "%s", bk[1 + n] ? bk + 2 + n : "");
	} else { /* http_mode=s3: /BUCKET/KEY */
		size_t n = strcspn(p, "/");
		if (!p[n])
			return -EINVAL;
		snprintf(bucket, bl, "%.*s", (int)n, p);
		snprintf(prefix, pl, "%s", p + n + 1);
	}
	return 0;
}

/* key k (listed under file f's prefix pre) is one of f's objects: the
 * key itself (s3 with one object per file, http_object_mode=range),
 * PRE/N (s3_object_size), PRE_OFFSET_LENGTH (http_object_mode=block) */
static bool of_file(const struct s3_td *d, const char *k, const char *pre)
{
	size_t n = strlen(pre);
	if (strncmp(k, pre, n))
		return false;
	bool whole = d->kind == S3_KIND_S3 ? !d->o->object_size : d->o->object_mode == S3_OBJ_RANGE;
	if (whole || !k[n])
		return whole && !k[n];
	if (d->kind == S3_KIND_S3)
		return k[n] == '/' && k[n + 1] && strspn(k + n + 1, "0123456789") == strlen(k + n + 1);
	return k[n] == '_';
}

/* is /bucket/key marked as storbench's? 1 yes, 0 no, -errno */
static int marked(struct s3_td *d, struct sb_engine_td *td, const char *bucket, const char *key)
{
	char path[1536];
	long status = 0;
	struct s3_req *r = &d->reqs[0];
	obj_path(path, sizeof(path), bucket, key);
	int e = sb_s3_sync(d, r, "HEAD", path, "", NULL, 0, &status);
	if (e)
		return e;
	if (status == 404)
		return 1; /* gone since the listing: nobody's */
	if (status < 200 || status > 299) {
		sb_s3_explain(td->errmsg, sizeof(td->errmsg), r, status);
		return -EIO;
	}
	return !strncmp(r->owner, "storbench ", 10);
}

/* refuse the job when an object it may write or delete is the user's */
/* the answer to one HEAD of check_owner: 0 marked or gone, -EPERM a
 * user's (td->errmsg says which), -errno */
static int judged(struct sb_engine_td *td, struct s3_req *r, CURLcode cc,
		  const char *bucket, const char *key)
{
	long status = 0;
	curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
	if (cc != CURLE_OK) {
		snprintf(td->errmsg, sizeof(td->errmsg), "HEAD /%.60s/%.200s: %s", bucket, key, curl_easy_strerror(cc));
		return (int)sb_s3_conn_errno(cc);
	}
	if (status == 404)
		return 0; /* gone since the listing: nobody's */
	if (status < 200 || status > 299) {
		sb_s3_explain(td->errmsg, sizeof(td->errmsg), r, status);
		return -EIO;
	}
	if (!strncmp(r->owner, "storbench ", 10))
		return 0;
	snprintf(td->errmsg, sizeof(td->errmsg), "object /%.60s/%.200s is there and storbench did not make it "
		 "(no x-amz-meta-storbench-owner): storbench never writes over or deletes a user's object: "
		 "choose another filename= or s3_bucket=", bucket, key);
	return -EPERM;
}

/* refuse the job when an object it may write or delete is the user's:
 * a HEAD of each, iodepth of them at once on the I/O handles */
static int check_owner(struct s3_td *d, struct sb_engine_td *td, const struct listing *l,
		       const char *bucket, const char *pre)
{
	struct sb_io_u none = { .ddir = SB_DDIR_TRIM };  /* a HEAD moves no data */
	size_t next = 0, *of = calloc(td->nios, sizeof(*of));
	unsigned active = 0;
	int e = of ? 0 : -ENOMEM;
	while (!e && (next < l->n || active)) {
		for (unsigned k = 0; !e && k < td->nios && next < l->n; k++) {
			struct s3_req *r = &d->reqs[k];
			if (r->active)
				continue;
			while (next < l->n && !of_file(d, l->v[next].key, pre))
				next++;
			if (next == l->n)
				break;
			obj_path(r->path, sizeof(r->path), bucket, l->v[next].key);
			r->io = &none;
			of[k] = next++;
			if (!(e = sb_s3_start(d, r, "HEAD", "", NULL, 0)))
				active++;
		}
		int running = 0;
		CURLMsg *msg;
		if (!e && curl_multi_perform(d->m, &running) != CURLM_OK)
			e = -EIO;
		while (!e && (msg = curl_multi_info_read(d->m, &running))) {
			struct s3_req *r = NULL;
			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
			curl_multi_remove_handle(d->m, r->h);
			r->active = false;
			active--;
			e = judged(td, r, msg->data.result, bucket, l->v[of[r - d->reqs]].key);
		}
		if (!e && active && curl_multi_poll(d->m, NULL, 0, 1000, NULL) != CURLM_OK)
			e = -EIO;
	}
	for (unsigned k = 0; k < td->nios; k++) { /* a refusal leaves the others unanswered */
		if (d->reqs[k].active)
			curl_multi_remove_handle(d->m, d->reqs[k].h);
		d->reqs[k].active = false;
		d->reqs[k].io = NULL;
	}
	free(of);
	return e;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->key, ((const struct listed *)b)->key);
}

/* S3 lists keys in byte order (UTF-8 binary, strcmp's): a binary search;
 * sorted again first in case a server does not */
static const struct listed *find(struct listing *l, const char *key)
{
	if (!l->n)
		return NULL;
	if (!l->sorted) {
		qsort(l->v, l->n, sizeof(*l->v), by_key);
		l->sorted = true;
	}
	struct listed k = { .key = (char *)key };
	return bsearch(&k, l->v, l->n, sizeof(*l->v), by_key);
}

/* PUT the objects of f a read job needs that are missing or short */
static int lay_out(struct s3_td *d, struct sb_engine_td *td, const struct sb_file *f,
		   struct listing *l, const char *bucket, const char *pre)
{
	uint64_t os = d->o->object_size ? d->o->object_size : f->size;
	for (uint64_t i = 0; os && i * os < f->size; i++) {
		char key[1130], path[1536];
		uint64_t need = f->size - i * os < os ? f->size - i * os : os;
		if (d->o->object_size)
			snprintf(key, sizeof(key), "%s/%" PRIu64, pre, i);
		else
			snprintf(key, sizeof(key), "%s", pre);
		const struct listed *have = find(l, key);
		if (have && have->size >= need)
			continue;
		if (have && marked(d, td, bucket, key) != 1) {
			snprintf(td->errmsg, sizeof(td->errmsg), "object /%.60s/%.200s holds %" PRIu64 " bytes, the "
				 "job reads %" PRIu64 ", and storbench did not make it: it is left as it is: choose "
				 "another filename= or a smaller size=", bucket, key, have->size, need);
			return -EPERM;
		}
		obj_path(path, sizeof(path), bucket, key);
		int e = sb_s3_put_sync(d, td, &d->reqs[0], path, need);
		if (e)
			return e;
	}
	return 0;
}


/* f's listing, with bucket and prefix: ioengine=http's filename is
 * /BUCKET/KEY on a path-style endpoint, /KEY on a virtual-hosted one
 * (fio's examples/http-s3.fio): the first that lists is taken */
static int list_file(struct s3_td *d, struct sb_engine_td *td, const struct sb_file *f, char *bucket,
		     size_t bl, char *pre, size_t pl, struct listing *l)
{
	int e = split(d, f, bucket, bl, pre, pl);
	if (!e)
		e = sb_s3_list(d, td->errmsg, sizeof(td->errmsg), bucket, pre, collect, l);
	if (e && d->kind == S3_KIND_HTTP && e != -EACCES) {
		listing_free(l);
		bucket[0] = '\0';
		snprintf(pre, pl, "%s", f->path + strspn(f->path, "/"));
		e = sb_s3_list(d, td->errmsg, sizeof(td->errmsg), bucket, pre, collect, l);
	}
	return e;
}

int sb_s3_prepare(struct s3_td *d, struct sb_engine_td *td)
{
	const struct sb_engine_job *j = td->job;
	d->need_layout = d->kind == S3_KIND_S3 && j && j->reads;
	if (!j || (!j->writes && !j->trims))
		return 0;
	if (d->kind == S3_KIND_HTTP && d->o->mode != S3_MODE_S3) {
		snprintf(td->errmsg, sizeof(td->errmsg), "http_mode=%s has no listing or object metadata, so "
			 "storbench cannot tell its objects from a user's: it writes and deletes over HTTP only "
			 "with http_mode=s3 (or run a read-only job)", d->o->mode ? "swift" : "webdav");
		return -EPERM;
	}
	int e = 0;
	for (unsigned i = 0; !e && i < td->nfiles; i++) {
		char bucket[256], pre[1100];
		struct listing l = { 0 };
		if (!td->files[i].path)
			continue; /* an ML worker's slot: its files come later (sb_s3_open_check) */
		e = list_file(d, td, &td->files[i], bucket, sizeof(bucket), pre, sizeof(pre), &l);
		if (!e)
			e = check_owner(d, td, &l, bucket, pre);
		listing_free(&l);
	}
	return e;
}

int sb_s3_layout(struct s3_td *d, struct sb_engine_td *td)
{
	int e = 0;
	if (!d->need_layout)
		return 0;
	d->need_layout = false;
	for (unsigned i = 0; !e && i < td->nfiles; i++) {
		char bucket[256], pre[1100];
		struct listing l = { 0 };
		if (!td->files[i].path)
			continue;
		e = list_file(d, td, &td->files[i], bucket, sizeof(bucket), pre, sizeof(pre), &l);
		if (!e)
			e = lay_out(d, td, &td->files[i], &l, bucket, pre);
		listing_free(&l);
	}
	return e;
}

int sb_s3_open_check(struct s3_td *d, struct sb_engine_td *td, const struct sb_file *f)
{
	char bucket[256], pre[1100];
	struct listing l = { 0 };
	if (!f->path || !f->created)
		return 0; /* read only: a user's object is read as it is */
	if (split(d, f, bucket, sizeof(bucket), pre, sizeof(pre))) {
		snprintf(td->errmsg, sizeof(td->errmsg), "%.200s: http_mode=s3 needs /BUCKET/KEY", f->path);
		return -EINVAL;
	}
	int e = sb_s3_list(d, td->errmsg, sizeof(td->errmsg), bucket, pre, collect, &l);
	if (!e)
		e = check_owner(d, td, &l, bucket, pre);
	listing_free(&l);
	return e;
}

/* value of " name=" in a mark, up to the next space, into out */
static void mark_field(const char *mark, const char *name, char *out, size_t len)
{
	char k[16];
	snprintf(k, sizeof(k), " %s=", name);
	const char *p = strstr(mark, k);
	size_t n = p ? strcspn(p + strlen(k), " ") : 0;
	snprintf(out, len, "%.*s", (int)n, p ? p + strlen(k) : "");
	for (char *c = out; *c; c++)
		if (*c == '/')
			*c = '_';
}

int sb_s3_run_key(const char *mark, char *key, size_t len)
{
	char host[256], boot[64], ns[32], pid[32], start[32];
	mark_field(mark, "host", host, sizeof(host));
	mark_field(mark, "boot", boot, sizeof(boot));
	mark_field(mark, "pidns", ns, sizeof(ns));
	mark_field(mark, "pid", pid, sizeof(pid));
	mark_field(mark, "start", start, sizeof(start));
	if (!pid[0] || !start[0])
		return -EINVAL;
	int n = snprintf(key, len, "%s%s_%s_%s_%s_%s", S3_RUNS, host, boot, ns, pid, start);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sb_s3_put_record(struct s3_td *d, struct s3_req *r, const char *bucket)
{
	char key[700];
	long status = 0;
	char *st = strstr(d->mark, " state=made");
	if (st)
		memcpy(st, " state=kept", 11); /* the record is kept on purpose */
	if (!d->mark[0] || sb_s3_run_key(d->mark, key, sizeof(key)))
		return -EINVAL;
	snprintf(r->path, sizeof(r->path), "/%.*s/%s", (int)strcspn(bucket, "/"), bucket, key);
	struct sb_io_u io = { .ddir = SB_DDIR_WRITE, .len = strlen(d->mark) };
	CURLM *m = d->m;
	r->io = &io;
	d->m = NULL; /* run to its end here, outside the multi handle */
	int e = sb_s3_start(d, r, "PUT", "", d->mark, io.len);
	d->m = m;
	if (!e) {
		CURLcode cc = curl_easy_perform(r->h);
		curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
		e = cc != CURLE_OK || status < 200 || status > 299 ? -EIO : 0;
	}
	r->io = NULL;
	return e;
}

int sb_s3_record_kept(struct s3_td *d)
{
	return d->wrote && d->wrote_bucket[0] && d->reqs ? sb_s3_put_record(d, &d->reqs[0], d->wrote_bucket) : 0;
}
#endif
