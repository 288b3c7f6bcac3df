/* iolog.c: writing fio-compatible bw/iops/lat log files and draining the
 * per-I/O ring (see iolog.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sched.h>
#include <zlib.h>

#include "lib/iologfmt.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/infile.h"
#include "stats/iolog.h"

int sb_iolog_ring_init(struct sb_iolog_ring *r)
{
	memset(r, 0, sizeof(*r));
	r->ent = calloc(SB_IOLOG_RING, sizeof(*r->ent));
	return r->ent ? 0 : -ENOMEM;
}

void sb_iolog_ring_free(struct sb_iolog_ring *r)
{
	free(r->ent);
	r->ent = NULL;
}

void sb_iolog_wake_init(struct sb_iolog_wake *w)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->work, &ca);
	pthread_cond_init(&w->room, &ca);
	pthread_condattr_destroy(&ca);
}

void sb_iolog_wake_destroy(struct sb_iolog_wake *w)
{
	pthread_cond_destroy(&w->room);
	pthread_cond_destroy(&w->work);
	pthread_mutex_destroy(&w->mu);
}

void sb_iolog_kick(struct sb_iolog_ring *r)
{
	struct sb_iolog_wake *w = r->wake;
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->kicked = true;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->mu);
}

static bool full(struct sb_iolog_ring *r, uint64_t h)
{
	return h - atomic_load_explicit(&r->tail, memory_order_seq_cst) >= SB_IOLOG_RING;
}

void sb_iolog_wait_room(struct sb_iolog_ring *r, uint64_t h)
{
	struct sb_iolog_wake *w = r->wake;
	atomic_fetch_add_explicit(&r->waits, 1, memory_order_relaxed);
	if (!w) { /* no writer thread: whoever drains does it on its own time */
		while (full(r, h))
			sched_yield();
		return;
	}
	pthread_mutex_lock(&w->mu);
	atomic_fetch_add_explicit(&w->waiting, 1, memory_order_seq_cst);
	while (full(r, h)) {
		/* the writer stores the tail, then reads waiting (both seq_cst)
		 * and broadcasts under mu: one of the two sees the other; the
		 * timeout is a second safety only */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 100000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		w->kicked = true;
		pthread_cond_signal(&w->work);
		pthread_cond_timedwait(&w->room, &w->mu, &ts);
	}
	atomic_fetch_sub_explicit(&w->waiting, 1, memory_order_relaxed);
	pthread_mutex_unlock(&w->mu);
}

/* the writer moved the tail: wake the I/O threads waiting for room */
static void room(struct sb_iolog_ring *r)
{
	struct sb_iolog_wake *w = r->wake;
	if (!w || !atomic_load_explicit(&w->waiting, memory_order_seq_cst))
		return;
	pthread_mutex_lock(&w->mu);
	pthread_cond_broadcast(&w->room);
	pthread_mutex_unlock(&w->mu);
}

static int open_one(struct sb_iolog_files *lf, int k, const char *name, const char *kind,
		    unsigned no, size_t gz)
{
	char path[4096], opt[32];
	const char *fz = gz ? ".fz" : "";
	int n = no ? snprintf(path, sizeof(path), "%s_%s.%u.log%s", name, kind, no, fz)
		   : snprintf(path, sizeof(path), "%s_%s.log%s", name, kind, fz);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		sb_err(name, "log file name too long");
		return -ENAMETOOLONG;
	}
	snprintf(opt, sizeof(opt), "write_%s_log", k == SB_LOG_BW ? "bw" : k == SB_LOG_IOPS ? "iops"
		 : "lat");
	int e = sb_outfile_open(&lf->af[k], path, &(struct sb_outname){ opt, NULL, "the log" }, 0);
	if (e)
		return e; /* the gate said why */
	if (gz && (e = sb_outfile_compress(&lf->af[k], gz))) {
		sb_outfile_abort(&lf->af[k]);
		return e;
	}
	lf->f[k] = lf->af[k].f;
	setvbuf(lf->f[k], NULL, _IOFBF, 1 << 16);
	return 0;
}

int sb_iolog_open(struct sb_iolog_files *lf, const char *bw, const char *iops, const char *lat,
		  unsigned thread_no, bool log_offset, bool slat, size_t gz)
{
	int e = 0;
	memset(lf, 0, sizeof(*lf));
	lf->log_offset = log_offset;
	lf->slat = slat;
	if (bw && *bw)
		e = open_one(lf, SB_LOG_BW, bw, "bw", thread_no, gz);
	if (!e && iops && *iops)
		e = open_one(lf, SB_LOG_IOPS, iops, "iops", thread_no, gz);
	if (!e && lat && *lat) {
		e = open_one(lf, SB_LOG_CLAT, lat, "clat", thread_no, gz);
		if (!e)
			e = open_one(lf, SB_LOG_SLAT, lat, "slat", thread_no, gz);
		if (!e)
			e = open_one(lf, SB_LOG_LAT, lat, "lat", thread_no, gz);
	}
	if (e)
		sb_iolog_close(lf);
	return e;
}

int sb_iolog_open_io(struct sb_iolog_files *lf, const char *name, const char *const *paths,
		     unsigned npaths)
{
	int e = sb_outfile_open(&lf->afio, name,
				&(struct sb_outname){ "write_iolog", NULL, "the I/O log" }, 0);
	if (e)
		return e; /* the gate said why */
	lf->io = lf->afio.f;
	setvbuf(lf->io, NULL, _IOFBF, 1 << 16);
	lf->paths = paths;
	lf->npaths = npaths;
	lf->io_last_us = 0;
	fprintf(lf->io, "%s\n", SB_IOLOG_V3);
	for (unsigned i = 0; i < npaths; i++)
		fprintf(lf->io, "0 %s add\n", paths[i]);
	for (unsigned i = 0; i < npaths; i++)
		fprintf(lf->io, "0 %s open\n", paths[i]);
	return 0;
}

void sb_iolog_set_epoch(struct sb_iolog_files *lf, uint64_t t0_ns)
{
	struct timespec rt, mt;
	if (!lf->unix_epoch || lf->epoch_set)
		return;
	clock_gettime(lf->epoch_clock, &rt); /* CLOCK_REALTIME unless log_alternate_epoch_clock_id */
	clock_gettime(CLOCK_MONOTONIC, &mt);
	int64_t real_ns = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec;
	int64_t mono_ns = (int64_t)mt.tv_sec * 1000000000 + mt.tv_nsec;
	lf->epoch_ms = (uint64_t)((real_ns - (mono_ns - (int64_t)t0_ns)) / 1000000);
	lf->epoch_set = true;
}

void sb_iolog_share(struct sb_iolog_files *dst, const struct sb_iolog_files *src)
{
	*dst = *src;
	dst->shared = true;
	dst->io = NULL; /* write_iolog is never shared: numjobs=1 */
}

/* a log complete on disk under its name, or the reason reported (file,
 * errno) and no truncated file left in its place */
static int commit(struct sb_outfile *a, const char *what)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s", a->path);
	int e = sb_outfile_commit(a);
	if (e)
		sb_err(path, "writing %s failed: %s (no partial log was left there): free space "
		       "on that file system, or log to another folder", what, strerror(-e));
	return e;
}

int sb_iolog_close(struct sb_iolog_files *lf)
{
	int rc = 0;
	if (lf->io) {
		for (unsigned i = 0; i < lf->npaths; i++)
			fprintf(lf->io, "%" PRIu64 " %s close\n", lf->io_last_us, lf->paths[i]);
		rc = commit(&lf->afio, "write_iolog");
		lf->io = NULL;
	}
	if (lf->shared) {
		memset(lf->f, 0, sizeof(lf->f));
		memset(lf->af, 0, sizeof(lf->af));
		return rc;
	}
	for (int k = 0; k < SB_LOG_NKIND; k++) {
		if (!lf->f[k])
			continue;
		int e = commit(&lf->af[k], "the log");
		if (e && !rc)
			rc = e;
		lf->f[k] = NULL;
	}
	return rc;
}

static void line(FILE *f, uint64_t t_ms, uint64_t value, unsigned ddir, uint64_t bs,
		 uint64_t offset, bool log_offset, const char *prio)
{
	if (log_offset)
		fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", %" PRIu64 ", %s\n", t_ms, value,
			ddir, bs, offset, prio);
	else
		fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", %s\n", t_ms, value, ddir, bs, prio);
}

void sb_iolog_line(FILE *f, uint64_t t_ms, uint64_t value, unsigned ddir, uint64_t bs,
		   uint64_t offset, bool log_offset)
{
	line(f, t_ms, value, ddir, bs, offset, log_offset, "0");
}

void sb_iolog_linep(const struct sb_iolog_files *lf, FILE *f, uint64_t t_ms, uint64_t value,
		    unsigned ddir, uint64_t bs, uint64_t offset, bool log_offset)
{
	line(f, t_ms, value, ddir, bs, offset, log_offset, lf->prio[0] ? lf->prio : "0");
}

void sb_iolog_set_prio(struct sb_iolog_files *lf, bool log_prio, int ioprio)
{
	lf->log_prio = log_prio;
	lf->job_ioprio = (unsigned)ioprio & 0xffffu;
	if (log_prio)
		snprintf(lf->prio, sizeof(lf->prio), "0x%04x", (unsigned)ioprio & 0xffffu);
	else
		lf->prio[0] = 0;
}

void sb_iolog_write_ent(struct sb_iolog_files *lf, const struct sb_iolog_ent *e, uint64_t t0_ns)
{
	uint64_t t_ms = (e->t_ns > t0_ns ? (e->t_ns - t0_ns) / 1000000 : 0) + lf->epoch_ms;
	bool o = lf->log_offset;
	if (lf->io && e->file < lf->npaths) {
		uint64_t issue = e->t_ns - e->lat_ns, us = issue > t0_ns ? (issue - t0_ns) / 1000 : 0;
		fprintf(lf->io, "%" PRIu64 " %s %s %" PRIu64 " %u\n", us, lf->paths[e->file],
			sb_iologfmt_act_name((enum sb_iola)e->ddir), e->offset, (unsigned)e->bytes);
		lf->io_last_us = us > lf->io_last_us ? us : lf->io_last_us;
	}
	if (lf->maxv && e->ddir < SB_DDIR_N) {
		uint64_t *m = lf->wmax[e->ddir];
		m[0] = e->clat_ns > m[0] ? e->clat_ns : m[0];
		m[1] = e->slat_ns > m[1] ? e->slat_ns : m[1];
		m[2] = e->lat_ns > m[2] ? e->lat_ns : m[2];
	}
	if (lf->avg)
		return;
	char pb[8];
	unsigned prio = e->ioprio ? e->ioprio : lf->job_ioprio;
	const char *pr = (prio >> 13) == 1 ? "1" : "0"; /* IOPRIO_CLASS_RT */
	if (lf->log_prio) {
		snprintf(pb, sizeof(pb), "0x%04x", prio);
		pr = pb;
	}
	if (lf->f[SB_LOG_BW]) {
		/* KiB/s of this one I/O over its completion latency */
		uint64_t ns = e->clat_ns ? e->clat_ns : 1;
		uint64_t kibs = (uint64_t)((double)e->bytes * 1e9 / 1024.0 / (double)ns);
		line(lf->f[SB_LOG_BW], t_ms, kibs, e->ddir, e->bytes, e->offset, o, pr);
	}
	if (lf->f[SB_LOG_IOPS])
		line(lf->f[SB_LOG_IOPS], t_ms, 1, e->ddir, e->bytes, e->offset, o, pr);
	if (lf->f[SB_LOG_CLAT])
		line(lf->f[SB_LOG_CLAT], t_ms, e->clat_ns, e->ddir, e->bytes, e->offset, o, pr);
	if (lf->f[SB_LOG_SLAT] && lf->slat)
		line(lf->f[SB_LOG_SLAT], t_ms, e->slat_ns, e->ddir, e->bytes, e->offset, o, pr);
	if (lf->f[SB_LOG_LAT])
		line(lf->f[SB_LOG_LAT], t_ms, e->lat_ns, e->ddir, e->bytes, e->offset, o, pr);
}

#define DRAIN_BATCH 4096 /* entries written between tail updates */

uint64_t sb_iolog_drain(struct sb_iolog_ring *r, struct sb_iolog_files *lf, uint64_t t0_ns)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_acquire);
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t n = h - t;
	sb_iolog_set_epoch(lf, t0_ns);
	while (t != h) {
		uint64_t end = h - t > DRAIN_BATCH ? t + DRAIN_BATCH : h;
		for (; t != end; t++)
			sb_iolog_write_ent(lf, &r->ent[t & (SB_IOLOG_RING - 1)], t0_ns);
		atomic_store_explicit(&r->tail, t, memory_order_seq_cst);
		room(r);
	}
	return n;
}

/* --inflate-log: each zlib stream of the file in turn (fio iolog.c
 * iolog_file_inflate: the chunks are streams one after the other; gzip
 * headers taken too), its text to out */
int sb_iolog_inflate(const char *path, FILE *out)
{
	char why[512];
	size_t len = 0;
	int err = 0;
	unsigned char *in = (unsigned char *)sb_in_read(path, &sb_in_trace, 0, UINT64_MAX, &len, &err, why,
						       sizeof(why));
	if (!in) {
		if (strstr(why, path))
			sb_err("--inflate-log", "%s", why);
		else
			sb_err("--inflate-log", "cannot read %s: %s", path, why);
		return err ? err : -EIO;
	}
	unsigned char buf[1 << 16];
	z_stream z = { 0 };
	int r = inflateInit2(&z, 15 + 32) == Z_OK ? Z_OK : Z_MEM_ERROR, e = 0;
	z.next_in = in;
	z.avail_in = (uInt)len;
	while (r == Z_OK && !e) {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = inflate(&z, Z_NO_FLUSH);
		size_t got = sizeof(buf) - z.avail_out;
		if (memchr(buf, 0, got)) { /* fio's own .fz: its binary samples */
			sb_err("--inflate-log", "%s holds binary log samples, not storbench's text: it was "
			       "written by fio (log_store_compressed=1): inflate it with fio --inflate-log", path);
			e = -EINVAL;
		} else if (got && fwrite(buf, 1, got, out) != got) {
			e = -EIO;
		}
		if (r == Z_STREAM_END && z.avail_in) /* the next chunk */
			r = inflateReset(&z);
		else if (r == Z_BUF_ERROR)
			r = Z_DATA_ERROR; /* a stream cut short */
	}
	if (!e && r != Z_STREAM_END) {
		sb_err("--inflate-log", "%s is not a compressed log (%s at byte %zu): give a .fz log written "
		       "with log_compression= and log_store_compressed=1", path, z.msg ? z.msg : "it ends inside a chunk",
		       len - z.avail_in);
		e = -EINVAL;
	}
	inflateEnd(&z);
	free(in);
	if (!e && fflush(out))
		e = -EIO;
	return e;
}
