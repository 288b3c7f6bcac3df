/* s3stream.c: a file written in pieces into one object (ioengine=s3 with
 * one object per file: a checkpoint's or a dataset's files written bs at
 * a time), as S3 clients that stream do (the s3torchconnector writer DLIO
 * uses): the pieces are gathered in a part buffer of s3_multipart_size
 * bytes (8 MiB when unset), and each full part is an UploadPart of one
 * multipart upload; the write that reaches the file's end sends the last
 * part and completes the upload.  A file that fits in one part is one PUT.
 * A write that only fills the buffer completes at once (the client's
 * memory took it); one that sends a part completes when S3 answers.
 * The pieces of a file must come in order, one at a time in flight: a
 * write that is not the next piece fails (EINVAL, naming the fix), a
 * write while a part is on its way waits (BUSY). */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S3_STREAM_PART (8u << 20) /* the part size when s3_multipart_size is unset */

struct s3_stream {
	char path[1536];        /* the object's path this stream writes */
	uint64_t next;          /* offset the next piece must start at */
	uint64_t size;          /* the object's bytes (the file's size) */
	uint64_t part_cap;      /* part size */
	char *part;             /* part_cap + the largest piece */
	uint64_t part_len;
	bool started, busy, last;
	char upload[256];
	unsigned nparts, cap;
	char (*etags)[80];
	char *xml;
};

static uint64_t part_size(const struct s3_td *d)
{
	return d->o->multipart_size ? d->o->multipart_size : S3_STREAM_PART;
}

bool sb_s3_stream_wanted(const struct s3_td *d, const struct sb_io_u *io)
{
	const struct sb_file *f = io->file;
	return io->ddir == SB_DDIR_WRITE && d->kind == S3_KIND_S3 && !d->o->object_size &&
	       !(io->offset == 0 && io->len >= f->size);
}

void sb_s3_stream_free(struct s3_td *d, struct s3_req *r, struct sb_file *f)
{
	struct s3_stream *s = f->engine_data;
	if (!s)
		return;
	if (s->started && r) /* cut short (runtime=, a stop): no parts left */
		sb_s3_abort_upload(d, r, s->path, s->upload);
	free(s->part);
	free(s->etags);
	free(s->xml);
	free(s);
	f->engine_data = NULL;
}

/* start over for the object at path (a file the ML workloads reuse) */
static void reset(struct s3_stream *s, const char *path, uint64_t size)
{
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->next = 0;
	s->size = size;
	s->part_len = 0;
	s->started = s->busy = s->last = false;
	s->upload[0] = '\0';
	s->nparts = 0;
}

/* r: the request about to carry io's piece (not in flight: it may abort
 * the slot's last upload first) */
static struct s3_stream *stream_of(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r)
{
	struct sb_file *f = r->io->file;
	const char *path = r->path;
	struct s3_stream *s = f->engine_data;
	if (!s) {
		if (!(s = calloc(1, sizeof(*s))))
			return NULL;
		s->part_cap = part_size(d);
		if (!(s->part = malloc(s->part_cap + td->buf_per_io))) {
			free(s);
			return NULL;
		}
		f->engine_data = s;
		reset(s, path, f->size);
	}
	if (strcmp(s->path, path) || s->size != f->size) {
		if (s->started && s->upload[0]) { /* the slot's last file was cut short */
			sb_s3_stream_free(d, r, f);
			return stream_of(d, td, r);
		}
		reset(s, path, f->size); /* another file in the same slot */
	}
	return s;
}

/* each part's ETag kept (grown as parts come) */
static int keep_etag(struct s3_stream *s, const char *etag)
{
	if (s->nparts == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 16;
		if (cap > S3_MP_MAX)
			return -EFBIG;
		char(*v)[80] = realloc(s->etags, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->etags = v, s->cap = cap;
	}
	snprintf(s->etags[s->nparts++], sizeof(*s->etags), "%s", etag);
	return 0;
}

static int complete_xml(struct s3_stream *s, size_t *len)
{
	size_t cap = (size_t)s->nparts * 96 + 128;
	char *x = realloc(s->xml, cap);
	if (!x)
		return -ENOMEM;
	s->xml = x;
	return sb_s3_complete_xml((const char(*)[80])s->etags, s->nparts, x, cap, len);
}

/* send the step r->mp_phase of r's stream */
int sb_s3_stream_send(struct s3_td *d, struct s3_req *r)
{
	struct s3_stream *s = r->stream;
	char q[400], enc[300];
	size_t xl = 0;
	if (r->mp_phase == S3_MP_NONE) /* the whole object in one PUT */
		return sb_s3_start(d, r, "PUT", "", s->part, s->part_len);
	if (r->mp_phase == S3_MP_CREATE)
		return sb_s3_start(d, r, "POST", "uploads=", NULL, 0);
	if (sb_sigv4_encode(s->upload, false, enc, sizeof(enc)))
		return -ENAMETOOLONG;
	if (r->mp_phase == S3_MP_PART) {
		snprintf(q, sizeof(q), "partNumber=%u&uploadId=%s", s->nparts + 1, enc);
		return sb_s3_start(d, r, "PUT", q, s->part, s->part_len);
	}
	int e = complete_xml(s, &xl);
	if (e)
		return e;
	snprintf(q, sizeof(q), "uploadId=%s", enc);
	return sb_s3_start(d, r, "POST", q, s->xml, xl);
}

int sb_s3_stream_queue(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r)
{
	struct sb_io_u *io = r->io;
	struct s3_stream *s = stream_of(d, td, r);
	if (!s)
		return -ENOMEM;
	if (s->busy)
		return S3_STREAM_BUSY;
	if (io->offset != s->next || s->last) {
		snprintf(td->errmsg, sizeof(td->errmsg), "a write at %" PRIu64 " of object %.200s, whose next "
			 "piece starts at %" PRIu64 ": an object is written in order, once (rw=write, or "
			 "bs= the file's size, or s3_object_size=)", io->offset, r->path, s->next);
		return -EINVAL;
	}
	memcpy(s->part + s->part_len, io->buf, io->len);
	s->part_len += io->len;
	s->next += io->len;
	s->last = s->next >= s->size;
	if (!s->last && s->part_len < s->part_cap) {
		io->result = (int64_t)io->len; /* in the client's buffer: done */
		return 1;
	}
	r->stream = s;
	s->busy = true;
	r->mp_phase = s->last && !s->started ? S3_MP_NONE : s->started ? S3_MP_PART : S3_MP_CREATE;
	int e = sb_s3_stream_send(d, r);
	if (e) {
		s->busy = false;
		r->stream = NULL;
	}
	return e;
}

int sb_s3_stream_next(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r)
{
	struct s3_stream *s = r->stream;
	const char *u;
	int e = 0;
	switch (r->mp_phase) {
	case S3_MP_CREATE:
		if (!(u = strstr(r->errbody, "<UploadId>")) || sscanf(u + 10, "%255[^<]", s->upload) != 1)
			e = -EIO;
		s->started = true;
		r->mp_phase = S3_MP_PART;
		break;
	case S3_MP_PART: /* the whole buffer went: a part is at least part_cap bytes, but the last */
		if (!r->etag[0] || (e = keep_etag(s, r->etag)))
			e = e ? e : -EIO;
		s->part_len = 0;
		if (!e && s->last)
			r->mp_phase = S3_MP_COMPLETE;
		else if (!e)
			goto done;
		break;
	default: /* the object is whole: a PUT or the upload's completion answered */
		s->part_len = 0;
		s->started = false;
		sb_s3_wrote(d, r);
		goto done;
	}
	if (!e && !(e = sb_s3_stream_send(d, r)))
		return 2;
	snprintf(td->errmsg, sizeof(td->errmsg), "writing %.200s in parts: %s", s->path, strerror(-e));
	sb_s3_stream_failed(d, r);
	r->io->result = e;
	return 0;
done:
	s->busy = false;
	r->stream = NULL;
	r->mp_phase = S3_MP_NONE;
	r->io->result = (int64_t)r->io->len;
	return 0;
}

void sb_s3_stream_failed(struct s3_td *d, struct s3_req *r)
{
	struct s3_stream *s = r->stream;
	if (!s)
		return;
	if (s->started) /* no parts left */
		sb_s3_abort_upload(d, r, s->path, s->upload);
	s->busy = false;
	s->last = true; /* the object is not written: later pieces fail */
	s->started = false;
	r->stream = NULL;
	r->mp_phase = S3_MP_NONE;
}
#endif
