/* mixed.c: the merged "mixed" direction of unified_rw_reporting (fio's
 * meaning; see mixed.h), computed from a result's per-direction figures. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/mixed.h"

static int mix_dir(struct sb_tstats *m, const struct sb_tstats *st, int d)
{
	const int o = SB_DDIR_READ;
	int r = 0;

	m->io_bytes[o] += st->io_bytes[d];
	m->total_ios[o] += st->total_ios[d];
	m->short_ios[o] += st->short_ios[d];
	m->drop_ios[o] += st->drop_ios[d];
	sb_stat_merge(&m->slat[o], &st->slat[d]);
	sb_stat_merge(&m->clat[o], &st->clat[d]);
	sb_stat_merge(&m->lat[o], &st->lat[d]);
	r |= sb_shist_merge(&m->slat_h[o], &st->slat_h[d]);
	r |= sb_shist_merge(&m->clat_h[o], &st->clat_h[d]);
	r |= sb_shist_merge(&m->lat_h[o], &st->lat_h[d]);
	if (d < SB_PRIO_DIRS)
		r |= sb_tstats_merge_prios(m, o, st, d);
	sb_stat_sum(&m->bw_samples[o], &st->bw_samples[d]);
	sb_stat_sum(&m->iops_samples[o], &st->iops_samples[d]);
	if (st->runtime_ns[d] > m->runtime_ns[o])
		m->runtime_ns[o] = st->runtime_ns[d];
	return r;
}

static void clear_dir(struct sb_tstats *m, int d)
{
	atomic_store_explicit(&m->live_bytes[d], 0, memory_order_relaxed);
	atomic_store_explicit(&m->live_ios[d], 0, memory_order_relaxed);
	m->io_bytes[d] = m->total_ios[d] = m->short_ios[d] = m->drop_ios[d] = 0;
	sb_stat_init(&m->slat[d]);
	sb_stat_init(&m->clat[d]);
	sb_stat_init(&m->lat[d]);
	sb_shist_free(&m->slat_h[d]);
	sb_shist_free(&m->clat_h[d]);
	sb_shist_free(&m->lat_h[d]);
	sb_stat_init(&m->bw_samples[d]);
	sb_stat_init(&m->iops_samples[d]);
	m->runtime_ns[d] = 0;
	if (d < SB_PRIO_DIRS) {
		for (unsigned i = 0; i < m->nprio[d]; i++)
			sb_shist_free(&m->prio[d][i].h);
		m->nprio[d] = 0;
		m->prio_over[d] = false;
	}
}

int sb_tstats_mix(struct sb_tstats *m, const struct sb_tstats *st)
{
	int r = sb_tstats_copy(m, st);
	if (r)
		return r;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (d != SB_DDIR_READ) {
			r |= mix_dir(m, st, d);
			clear_dir(m, d);
		}
	}
	if (r) {
		sb_tstats_release(m);
		return -ENOMEM;
	}
	uint64_t live_b = 0, live_n = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		live_b += atomic_load_explicit(&st->live_bytes[d], memory_order_relaxed);
		live_n += atomic_load_explicit(&st->live_ios[d], memory_order_relaxed);
	}
	atomic_store_explicit(&m->live_bytes[SB_DDIR_READ], live_b, memory_order_relaxed);
	atomic_store_explicit(&m->live_ios[SB_DDIR_READ], live_n, memory_order_relaxed);
	return 0;
}

struct sb_job_result *sb_job_mixed(const struct sb_job_result *j)
{
	struct sb_job_result *m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	memcpy(m, j, sizeof(*m));
	if (sb_tstats_mix(&m->st, &j->st)) {
		free(m);
		return NULL;
	}
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (j->runtime_ms[d] > m->runtime_ms[SB_DDIR_READ])
			m->runtime_ms[SB_DDIR_READ] = j->runtime_ms[d];
		if (d != SB_DDIR_READ)
			m->runtime_ms[d] = 0;
	}
	m->wl = NULL;
	m->ts = NULL;
	m->nts = 0;
	m->verify = NULL;
	m->ss = NULL;
	return m;
}

void sb_job_mixed_free(struct sb_job_result *m)
{
	if (m)
		sb_tstats_release(&m->st);
	free(m);
}

/* one stream (a job's merged figures, or a group's direction) into gd */
static void group_add(struct sb_group_dir *gd, uint64_t bytes, uint64_t bw, uint64_t run_ms)
{
	gd->io_bytes += bytes;
	if (!run_ms)
		return;
	gd->min_bw = bw < gd->min_bw ? bw : gd->min_bw;
	gd->max_bw = bw > gd->max_bw ? bw : gd->max_bw;
	gd->min_run_ms = run_ms < gd->min_run_ms ? run_ms : gd->min_run_ms;
	gd->max_run_ms = run_ms > gd->max_run_ms ? run_ms : gd->max_run_ms;
}

int sb_group_mixed(const struct sb_results *r, unsigned groupid, unsigned unified,
		   struct sb_group_result *gm)
{
	const struct sb_group_result *g = NULL;
	for (size_t i = 0; i < r->ngroups && !g; i++)
		if (r->groups[i].groupid == groupid)
			g = &r->groups[i];
	if (!g)
		return -ENOENT;
	*gm = *g;
	memset(gm->dir, 0, sizeof(gm->dir));
	struct sb_group_dir *gd = &gm->dir[SB_DDIR_READ];
	gd->min_bw = gd->min_run_ms = UINT64_MAX;
	if (unified == SB_UNIFIED_BOTH) {
		for (int d = 0; d < SB_DDIR_N; d++) {
			const struct sb_group_dir *s = &g->dir[d];
			gd->io_bytes += s->io_bytes;
			if (!s->max_run_ms)
				continue;
			group_add(gd, 0, s->min_bw, s->min_run_ms);
			group_add(gd, 0, s->max_bw, s->max_run_ms);
		}
	} else {
		for (size_t i = 0; i < r->njobs; i++) {
			const struct sb_job_result *j = &r->jobs[i];
			uint64_t bytes = 0, run = 0;
			if (j->groupid != groupid)
				continue;
			for (int d = 0; d < SB_DDIR_N; d++) {
				bytes += j->st.io_bytes[d];
				run = j->runtime_ms[d] > run ? j->runtime_ms[d] : run;
			}
			group_add(gd, bytes, run ? bytes * 1000 / run : 0, run);
		}
	}
	sb_group_dir_finish(gd);
	return 0;
}

void sb_ts_mix(struct sb_ts_sample *m, const struct sb_ts_sample *s)
{
	struct sb_ts_dir *x = &m->d[SB_DDIR_READ];

	*m = *s;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (d == SB_DDIR_READ)
			continue;
		sb_ts_dir_merge(x, &s->d[d]);
		memset(&m->d[d], 0, sizeof(m->d[d]));
	}
}
