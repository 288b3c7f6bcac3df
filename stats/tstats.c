/* tstats.c: initializing and merging per-thread statistics (threads of one
 * job, or all jobs of a group under group_reporting), and fio's I/O depth
 * buckets. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "stats/tstats.h"

void sb_tstats_init(struct sb_tstats *t)
{
	memset(t, 0, sizeof(*t));
	for (int d = 0; d < SB_DDIR_N; d++) {
		atomic_init(&t->live_bytes[d], 0);
		atomic_init(&t->live_ios[d], 0);
		sb_stat_init(&t->slat[d]);
		sb_stat_init(&t->clat[d]);
		sb_stat_init(&t->lat[d]);
		sb_stat_init(&t->bw_samples[d]);
		sb_stat_init(&t->iops_samples[d]);
		sb_stat_init(&t->gpu_copy[d]);
		sb_stat_init(&t->ttfb[d]);
	}
	sb_stat_init(&t->sync_lat);
}

/* Mapped, not calloc'd: calloc from a reused heap clears all 200 KB (4096
 * threads: 800 MB written at setup); fresh anonymous pages stay unbacked
 * until the I/O path counts into them (a few pages per used histogram). */
int sb_tstats_init_live(struct sb_tstats *t)
{
	sb_tstats_init(t);
	void *p = mmap(NULL, sizeof(*t->live_h), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	t->live_h = p;
	return 0;
}

void sb_tstats_release(struct sb_tstats *t)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		sb_shist_free(&t->slat_h[d]);
		sb_shist_free(&t->clat_h[d]);
		sb_shist_free(&t->lat_h[d]);
		sb_shist_free(&t->gpu_copy_h[d]);
		sb_shist_free(&t->ttfb_h[d]);
	}
	for (int d = 0; d < SB_PRIO_DIRS; d++)
		for (unsigned i = 0; i < t->nprio[d]; i++)
			sb_shist_free(&t->prio[d][i].h);
	sb_shist_free(&t->sync_h);
	if (t->live_h)
		munmap(t->live_h, sizeof(*t->live_h));
	t->live_h = NULL;
}

int sb_tstats_copy(struct sb_tstats *dst, const struct sb_tstats *src)
{
	memcpy(dst, src, sizeof(*dst));
	dst->live_h = NULL;
	int r = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		r |= sb_shist_copy(&dst->slat_h[d], &src->slat_h[d]);
		r |= sb_shist_copy(&dst->clat_h[d], &src->clat_h[d]);
		r |= sb_shist_copy(&dst->lat_h[d], &src->lat_h[d]);
		r |= sb_shist_copy(&dst->gpu_copy_h[d], &src->gpu_copy_h[d]);
		r |= sb_shist_copy(&dst->ttfb_h[d], &src->ttfb_h[d]);
	}
	for (int d = 0; d < SB_PRIO_DIRS; d++)
		for (unsigned i = 0; i < src->nprio[d]; i++) {
			dst->prio[d][i].h = (struct sb_shist){ 0 };
			r |= sb_shist_copy(&dst->prio[d][i].h, &src->prio[d][i].h);
		}
	r |= sb_shist_copy(&dst->sync_h, &src->sync_h);
	if (r) {
		sb_tstats_release(dst);
		return -ENOMEM;
	}
	return 0;
}

/* dst's kept histogram += src's: the live dense one when src runs, read only
 * where its sb_stat s (counted with it on the I/O path) saw samples: numjobs=4096
 * has 40,960 histograms of 20 KB, most never touched. */
static int merge_hist(struct sb_shist *dst, const struct sb_tstats *src, const struct sb_stat *s,
		      const struct sb_hist *live, const struct sb_shist *kept)
{
	if (!src->live_h)
		return sb_shist_merge(dst, kept);
	if (!s->n)
		return 0;
	return sb_shist_add_dense_range(dst, live, s->min, s->max);
}

int sb_tstats_prio_slot(struct sb_tstats *t, int d, uint16_t ioprio)
{
	for (unsigned i = 0; i < t->nprio[d]; i++)
		if (t->prio[d][i].ioprio == ioprio)
			return (int)i;
	if (t->nprio[d] >= SB_PRIO_MAX)
		return -1;
	struct sb_prio_lat *e = &t->prio[d][t->nprio[d]];
	*e = (struct sb_prio_lat){ .ioprio = ioprio };
	sb_stat_init(&e->s);
	return (int)t->nprio[d]++;
}

/* one of src's priorities (s: its figures, live or kept its histogram) into
 * dst's entry of the same priority in direction d */
static int merge_prio(struct sb_tstats *dst, int d, uint16_t ioprio, const struct sb_tstats *src,
		      const struct sb_stat *s, const struct sb_hist *live, const struct sb_shist *kept)
{
	if (!s->n)
		return 0;
	int i = sb_tstats_prio_slot(dst, d, ioprio);
	if (i < 0) {
		dst->prio_over[d] = true;
		return 0;
	}
	sb_stat_merge(&dst->prio[d][i].s, s);
	return merge_hist(&dst->prio[d][i].h, src, s, live, kept);
}

int sb_tstats_merge_prios(struct sb_tstats *dst, int dd, const struct sb_tstats *src, int sd)
{
	const struct sb_thist *lh = src->live_h;
	int r = 0;
	dst->prio_over[dd] |= src->prio_over[sd];
	if (!src->nprio[sd] && !src->prio_live) {
		bool l = src->prio_lat;
		return merge_prio(dst, dd, src->ioprio, src, l ? &src->lat[sd] : &src->clat[sd],
				  lh ? (l ? &lh->lat_h[sd] : &lh->clat_h[sd]) : NULL,
				  l ? &src->lat_h[sd] : &src->clat_h[sd]);
	}
	for (unsigned i = 0; i < src->nprio[sd]; i++)
		r |= merge_prio(dst, dd, src->prio[sd][i].ioprio, src, &src->prio[sd][i].s,
				lh ? &lh->prio_h[sd][i] : NULL, &src->prio[sd][i].h);
	return r;
}

static void add_live(_Atomic uint64_t *dst, const _Atomic uint64_t *src)
{
	uint64_t v = atomic_load_explicit(src, memory_order_relaxed);
	atomic_fetch_add_explicit(dst, v, memory_order_relaxed);
}

/* Bandwidth and IOPS samples of threads running side by side add up: the
 * merged series is their sum per interval (as fio's group_reporting shows
 * it), not a pool of per-thread samples.  As fio (stat.c sum_stat with
 * pure_sum) min, max, mean, m2 and the sample count add (sb_stat_sum). */
static int merge_ddir(struct sb_tstats *dst, const struct sb_tstats *src, int d)
{
	const struct sb_thist *lh = src->live_h;
	int r = 0;
	add_live(&dst->live_bytes[d], &src->live_bytes[d]);
	add_live(&dst->live_ios[d], &src->live_ios[d]);
	dst->io_bytes[d] += src->io_bytes[d];
	dst->total_ios[d] += src->total_ios[d];
	dst->short_ios[d] += src->short_ios[d];
	dst->drop_ios[d] += src->drop_ios[d];
	sb_stat_merge(&dst->slat[d], &src->slat[d]);
	sb_stat_merge(&dst->clat[d], &src->clat[d]);
	sb_stat_merge(&dst->lat[d], &src->lat[d]);
	r |= merge_hist(&dst->slat_h[d], src, &src->slat[d], lh ? &lh->slat_h[d] : NULL, &src->slat_h[d]);
	r |= merge_hist(&dst->clat_h[d], src, &src->clat[d], lh ? &lh->clat_h[d] : NULL, &src->clat_h[d]);
	r |= merge_hist(&dst->lat_h[d], src, &src->lat[d], lh ? &lh->lat_h[d] : NULL, &src->lat_h[d]);
	dst->gpu_bytes[d] += src->gpu_bytes[d];
	dst->gpu_overlap_ns[d] += src->gpu_overlap_ns[d];
	sb_stat_merge(&dst->gpu_copy[d], &src->gpu_copy[d]);
	r |= merge_hist(&dst->gpu_copy_h[d], src, &src->gpu_copy[d], lh ? &lh->gpu_copy_h[d] : NULL,
			&src->gpu_copy_h[d]);
	sb_stat_merge(&dst->ttfb[d], &src->ttfb[d]);
	r |= merge_hist(&dst->ttfb_h[d], src, &src->ttfb[d], lh ? &lh->ttfb_h[d] : NULL, &src->ttfb_h[d]);
	if (d < SB_PRIO_DIRS)
		r |= sb_tstats_merge_prios(dst, d, src, d);
	sb_stat_sum(&dst->bw_samples[d], &src->bw_samples[d]);
	sb_stat_sum(&dst->iops_samples[d], &src->iops_samples[d]);
	/* threads run side by side: a direction's runtime is the longest */
	if (src->runtime_ns[d] > dst->runtime_ns[d])
		dst->runtime_ns[d] = src->runtime_ns[d];
	return r;
}

/* Counters add, bw/iops samples sum, latency stats merge.  job_runtime_ns adds too (as fio's job_runtime does), so
 * usr/sys CPU over job_runtime stays the per-thread average. */
int sb_tstats_merge(struct sb_tstats *dst, const struct sb_tstats *src)
{
	int r = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		r |= merge_ddir(dst, src, d);
	sb_stat_merge(&dst->sync_lat, &src->sync_lat);
	r |= merge_hist(&dst->sync_h, src, &src->sync_lat, src->live_h ? &src->live_h->sync_h : NULL, &src->sync_h);
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++) {
		dst->iodepth_level[i] += src->iodepth_level[i];
		dst->iodepth_submit[i] += src->iodepth_submit[i];
		dst->iodepth_complete[i] += src->iodepth_complete[i];
	}
	if (!dst->gds_mode[0])
		memcpy(dst->gds_mode, src->gds_mode, sizeof(dst->gds_mode));
	if (!dst->eng_names && src->eng_names) {
		dst->eng_names = src->eng_names;
		dst->eng_n = src->eng_n;
	}
	for (unsigned i = 0; i < SB_ENG_CTR_MAX; i++)
		dst->eng_ctr[i] += src->eng_ctr[i];
	dst->job_runtime_ns += src->job_runtime_ns;
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	if (!dst->error && src->error) {
		dst->error = src->error;
		dst->err = src->err;
	}
	dst->total_err += src->total_err;
	if (!dst->first_error)
		dst->first_error = src->first_error;
	for (unsigned i = 0; i < src->ndump && dst->ndump < SB_ERRDUMP_MAX; i++)
		dst->dump[dst->ndump++] = src->dump[i];
	return r ? -ENOMEM : 0;
}

/* I/Os in flight: 1 (and 0), 2-3, 4-7, 8-15, 16-31, 32-63, >=64 */
unsigned sb_depth_level_bucket(unsigned depth)
{
	unsigned b = 0;
	while (depth > 1 && b < SB_DEPTH_BUCKETS - 1) {
		depth >>= 1;
		b++;
	}
	return b;
}

/* I/Os per submit or reap call: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
unsigned sb_depth_batch_bucket(unsigned n)
{
	if (n == 0)
		return 0;
	unsigned b = 1;
	unsigned lim = 4;
	while (n > lim && b < SB_DEPTH_BUCKETS - 1) {
		lim <<= 1;
		b++;
	}
	return b;
}

void sb_tstats_set_error(struct sb_tstats *st, int e, const char *op, const char *path)
{
	if (st->error)
		return;
	st->error = e;
	memset(&st->err, 0, sizeof(st->err));
	st->err.op = op;
	st->err.file = UINT_MAX;
	snprintf(st->err.path, sizeof(st->err.path), "%s", path ? path : "");
}

char *sb_tstats_error_text(const struct sb_tstats *st, char *buf, size_t len)
{
	const struct sb_errinfo *ei = &st->err;
	const char *why = ei->eof ? "unexpected end of file" : strerror(st->error);
	int n = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	if (!st->error)
		return buf;
	n = snprintf(buf, len, "%s%s%s", ei->op ? ei->op : "I/O", ei->path[0] ? " " : "", ei->path);
	if (n >= 0 && (size_t)n < len && ei->at)
		n += snprintf(buf + n, len - (size_t)n, " at offset %" PRIu64 " (%" PRIu64 " bytes)",
			      ei->offset, ei->len);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ": %s", why);
	if (n >= 0 && (size_t)n < len && ei->detail[0])
		snprintf(buf + n, len - (size_t)n, " (%s)", ei->detail);
	return buf;
}
