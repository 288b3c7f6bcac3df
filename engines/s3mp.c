/* s3mp.c: multipart uploads of ioengine=s3 (s3_multipart_size=N): a write
 * of an object larger than N is one I/O made of S3's three steps,
 * CreateMultipartUpload (POST ?uploads, carrying the mark), UploadPart for
 * each N bytes (PUT ?partNumber=K&uploadId=U, the last part the rest), and
 * CompleteMultipartUpload (POST ?uploadId=U, the parts' ETags), sent one
 * after the other on the I/O's connection.  A step that fails for good
 * aborts the upload (DELETE ?uploadId=U), so no parts are left behind, and
 * fails the I/O. */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_s3_mp_init(struct s3_td *d, struct sb_engine_td *td)
{
	uint64_t part = d->o->multipart_size;
	if (!part)
		return 0;
	uint64_t n = td->buf_per_io / part + 1;
	if (n > S3_MP_MAX) {
		snprintf(td->errmsg, sizeof(td->errmsg), "a %" PRIu64 "-byte object in parts of s3_multipart_size=%"
			 PRIu64 " bytes has more than S3's 10000 parts: make s3_multipart_size larger",
			 td->buf_per_io, part);
		return -EINVAL;
	}
	for (unsigned i = 0; i < td->nios; i++) {
		struct s3_req *r = &d->reqs[i];
		r->etags = calloc(n, sizeof(*r->etags));
		r->xml = malloc(n * 96 + 128);
		if (!r->etags || !r->xml)
			return -ENOMEM;
		r->mp_max = (unsigned)n;
	}
	return 0;
}

void sb_s3_mp_free(struct s3_req *r)
{
	free(r->etags);
	free(r->xml);
	r->etags = NULL;
	r->xml = NULL;
}

bool sb_s3_mp_wanted(const struct s3_td *d, const struct sb_io_u *io)
{
	return io->ddir == SB_DDIR_WRITE && d->kind == S3_KIND_S3 && d->o->multipart_size &&
	       io->len > d->o->multipart_size;
}

/* bytes of part k (1-based) of io */
static uint64_t part_len(const struct s3_td *d, const struct sb_io_u *io, unsigned k)
{
	uint64_t ps = d->o->multipart_size, at = (uint64_t)(k - 1) * ps;
	return io->len - at < ps ? io->len - at : ps;
}

int sb_s3_complete_xml(const char (*etags)[80], unsigned n, char *out, size_t cap, size_t *len)
{
	size_t at = 0;
	int w = snprintf(out, cap, "<CompleteMultipartUpload>");
	for (unsigned k = 1; w >= 0 && (size_t)w < cap - at && k <= n + 1; k++) {
		at += (size_t)w;
		w = k <= n ? snprintf(out + at, cap - at, "<Part><PartNumber>%u</PartNumber><ETag>%s</ETag></Part>",
				      k, etags[k - 1])
			   : snprintf(out + at, cap - at, "</CompleteMultipartUpload>");
	}
	if (w < 0 || (size_t)w >= cap - at)
		return -ENOSPC;
	*len = at + (size_t)w;
	return 0;
}

int sb_s3_mp_send(struct s3_td *d, struct s3_req *r)
{
	char q[400], enc[300];
	const struct sb_io_u *io = r->io;
	if (r->mp_phase != S3_MP_CREATE && sb_sigv4_encode(r->upload, false, enc, sizeof(enc)))
		return -ENAMETOOLONG;
	switch (r->mp_phase) {
	case S3_MP_CREATE:
		return sb_s3_start(d, r, "POST", "uploads=", NULL, 0);
	case S3_MP_PART: {
		uint64_t at = (uint64_t)(r->mp_part - 1) * d->o->multipart_size;
		snprintf(q, sizeof(q), "partNumber=%u&uploadId=%s", r->mp_part, enc);
		return sb_s3_start(d, r, "PUT", q, (const char *)io->buf + at, part_len(d, io, r->mp_part));
	}
	case S3_MP_COMPLETE:
		snprintf(q, sizeof(q), "uploadId=%s", enc);
		return sb_s3_start(d, r, "POST", q, r->xml, r->xml_len);
	default:
		return -EINVAL;
	}
}

int sb_s3_mp_begin(struct s3_td *d, struct s3_req *r)
{
	r->mp_phase = S3_MP_CREATE;
	r->mp_part = 0;
	r->mp_parts = (unsigned)((r->io->len + d->o->multipart_size - 1) / d->o->multipart_size);
	r->upload[0] = '\0';
	return sb_s3_mp_send(d, r);
}

void sb_s3_abort_upload(struct s3_td *d, struct s3_req *r, const char *path, const char *upload)
{
	char q[400], enc[300], body[256], where[sizeof(r->path)], keep[sizeof(r->path)];
	char errbody[sizeof(r->errbody)];
	long status;
	if (!upload[0] || sb_sigv4_encode(upload, false, enc, sizeof(enc)))
		return;
	struct sb_io_u *io = r->io;
	const char *method = r->method;
	snprintf(where, sizeof(where), "%s", path); /* path may be r->path, which the request rewrites */
	memcpy(keep, r->path, sizeof(keep));
	memcpy(errbody, r->errbody, sizeof(errbody)); /* the failure's own words, kept */
	snprintf(q, sizeof(q), "uploadId=%s", enc);
	(void)sb_s3_sync(d, r, "DELETE", where, q, body, sizeof(body), &status);
	memcpy(r->path, keep, sizeof(keep));
	memcpy(r->errbody, errbody, sizeof(errbody));
	r->io = io;
	r->method = method;
}

int sb_s3_mp_failed(struct s3_td *d, struct s3_req *r)
{
	unsigned phase = r->mp_phase;
	r->mp_phase = S3_MP_NONE;
	if (phase == S3_MP_PART || phase == S3_MP_COMPLETE)
		sb_s3_abort_upload(d, r, r->path, r->upload);
	return 0;
}

int sb_s3_mp_next(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r)
{
	const char *u;
	switch (r->mp_phase) {
	case S3_MP_CREATE:
		if (!(u = strstr(r->errbody, "<UploadId>")) ||
		    sscanf(u + 10, "%255[^<]", r->upload) != 1) {
			snprintf(td->errmsg, sizeof(td->errmsg), "POST %.200s?uploads: no UploadId in the answer",
				 r->path);
			r->mp_phase = S3_MP_NONE;
			return r->io->result = -EIO, 0;
		}
		r->mp_phase = S3_MP_PART;
		r->mp_part = 1;
		break;
	case S3_MP_PART:
		if (!r->etag[0]) {
			snprintf(td->errmsg, sizeof(td->errmsg), "PUT %.200s part %u: no ETag in the answer",
				 r->path, r->mp_part);
			sb_s3_mp_failed(d, r);
			return r->io->result = -EIO, 0;
		}
		snprintf(r->etags[r->mp_part - 1], sizeof(*r->etags), "%s", r->etag);
		if (r->mp_part < r->mp_parts) {
			r->mp_part++;
		} else if (sb_s3_complete_xml((const char(*)[80])r->etags, r->mp_parts, r->xml,
					      (size_t)r->mp_max * 96 + 128, &r->xml_len)) {
			sb_s3_mp_failed(d, r);
			return r->io->result = -ENOSPC, 0;
		} else {
			r->mp_phase = S3_MP_COMPLETE;
		}
		break;
	default: /* completed: the object is there */
		r->mp_phase = S3_MP_NONE;
		r->io->result = (int64_t)r->io->len;
		sb_s3_wrote(d, r);
		return 0;
	}
	r->tries = 0;
	int e = sb_s3_mp_send(d, r);
	if (e) {
		sb_s3_mp_failed(d, r);
		return r->io->result = e, 0;
	}
	return 2;
}
#endif
