/* s3done.c: the end of one request of the object-storage engines: the
 * counters, another try after a backoff for what S3 says to retry (500,
 * 502, 503 SlowDown, 504) and for a connection the server dropped, the
 * next step of a multipart upload or a stream, or the I/O's result. */
#include "engines/s3.h"

#if defined(CONFIG_LIBCURL) && defined(CONFIG_OPENSSL)
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* what to retry: S3's "try again" statuses and a dropped connection */
static bool retryable(CURLcode cc, long status)
{
	if (cc == CURLE_OK)
		return status == 500 || status == 502 || status == 503 || status == 504;
	return cc == CURLE_SEND_ERROR || cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING ||
	       cc == CURLE_PARTIAL_FILE || cc == CURLE_COULDNT_CONNECT || cc == CURLE_OPERATION_TIMEDOUT;
}

int sb_s3_finish(struct s3_td *d, struct sb_engine_td *td, struct s3_req *r, CURLcode cc)
{
	long status = 0;
	struct sb_io_u *io = r->io;
	curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
	curl_multi_remove_handle(d->m, r->h);
	r->active = false;
	sb_s3_count(d, r, cc, status, io->ddir);
	if (retryable(cc, status) && r->tries < d->o->retries) {
		uint64_t ms = 20u << (r->tries < 6 ? r->tries : 6); /* 20 ms, doubling, at most 1.28 s */
		r->tries++;
		if (d->sink.counters)
			d->sink.counters[S3_C_RETRY]++;
		r->retry_at = sb_s3_now() + ms * 1000000u;
		return 1;
	}
	bool ok = cc == CURLE_OK && status >= 200 && status <= 299;
	if (r->stream && ok)
		return sb_s3_stream_next(d, td, r);
	if (r->stream)
		sb_s3_stream_failed(d, r); /* below: the failure's own result */
	if (r->mp_phase && ok)
		return sb_s3_mp_next(d, td, r);
	if (r->mp_phase)
		sb_s3_mp_failed(d, r);
	if (cc != CURLE_OK) {
		snprintf(td->errmsg, sizeof(td->errmsg), "%s %.120s: %.80s%s", r->method, r->path,
			 curl_easy_strerror(cc), r->tries ? " (after retries)" : "");
		io->result = sb_s3_conn_errno(cc);
		return 0;
	}
	if (io->ddir == SB_DDIR_READ && status == 404 && r->zero_404) {
		memset(io->buf, 0, io->len); /* fio's http engine: a missing object reads as zeros */
		io->result = (int64_t)io->len;
		return 0;
	}
	if (io->ddir == SB_DDIR_READ && status == 416)
		return io->result = 0, 0; /* past the object's end (it shrank): end of file, as a file's read */
	if (status < 200 || status > 299) {
		if (io->ddir == SB_DDIR_TRIM && status == 404)
			return io->result = (int64_t)io->len, 0; /* gone already: as fio */
		sb_s3_explain(td->errmsg, sizeof(td->errmsg), r, status);
		io->result = sb_s3_status_errno(status);
		return 0;
	}
	io->result = io->ddir == SB_DDIR_READ && !r->zero_404 ? (int64_t)r->got : (int64_t)io->len;
	if (io->ddir == SB_DDIR_WRITE)
		sb_s3_wrote(d, r);
	return 0;
}

#endif
