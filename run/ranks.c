/* ranks.c: one job file on many ranks (see ranks.h).  The merge is fio's
 * group_reporting across processes: each job result travels as one record
 * (its merged thread statistics with every histogram bin) through a tree
 * reduction whose combine step is sb_tstats_merge, the same function that
 * merges a job's threads; time series are summed interval by interval. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "os/outfile.h"
#include "dist/dist.h"
#include "lib/log.h"
#include "run/workload.h"
#include "parse/options.h"
#include "run/collect.h"
#include "run/ranks.h"

int sb_ranks_start(int *argc, char ***argv)
{
	int e = sb_dist_start(argc, argv);
	if (sb_dist_size() > 1) {
		char p[96];
		snprintf(p, sizeof(p), "rank %d (%s): ", sb_dist_rank(), sb_dist_hostname());
		sb_log_set_prefix(p);
	}
	return e;
}

void sb_ranks_finish(void)
{
	sb_dist_finish();
}

int sb_ranks_rank(void)
{
	return sb_dist_rank();
}

/* ---- the job text: rank 0's pre-passed job files, one after another as
 * (length, bytes) */
struct text {
	char *p;
	size_t len, cap, at;
};

static int keep(void *arg, const char *buf, size_t len)
{
	struct text *t = arg;
	size_t need = t->len + sizeof(uint64_t) + len;
	if (need > t->cap) {
		size_t cap = need * 2;
		char *p = realloc(t->p, cap);
		if (!p)
			return -ENOMEM;
		t->p = p;
		t->cap = cap;
	}
	uint64_t n = len;
	memcpy(t->p + t->len, &n, sizeof(n));
	memcpy(t->p + t->len + sizeof(n), buf, len);
	t->len = need;
	return 0;
}

static int take(void *arg, const char **buf, size_t *len)
{
	struct text *t = arg;
	uint64_t n;
	if (t->at + sizeof(n) > t->len)
		return -EINVAL;
	memcpy(&n, t->p + t->at, sizeof(n));
	if (n > t->len - t->at - sizeof(n))
		return -EINVAL;
	*buf = t->p + t->at + sizeof(n);
	*len = (size_t)n;
	t->at += sizeof(n) + (size_t)n;
	return 0;
}

static struct text text;
static struct sb_parse_relay relay_keep = { .keep = keep, .arg = &text };
static struct sb_parse_relay relay_take = { .take = take, .arg = &text };

/* rank 0's result (0 ok) and the text's length, to every rank */
static int send_header(uint64_t hdr[2])
{
	return sb_dist_bcast(hdr, 2 * sizeof(uint64_t), 0);
}

int sb_ranks_text_begin(const struct sb_parse_relay **relay)
{
	uint64_t hdr[2] = { 0, 0 };
	*relay = NULL;
	if (sb_dist_size() == 1)
		return 0;
	if (sb_dist_rank() == 0) {
		*relay = &relay_keep;
		return 0;
	}
	if (send_header(hdr))
		return -EIO;
	if (hdr[0])
		return -ECANCELED;
	text.len = text.cap = (size_t)hdr[1];
	text.at = 0;
	if (!(text.p = malloc(text.len ? text.len : 1)))
		sb_dist_abort(SB_EXIT_JOBFILE);
	if (sb_dist_bcast(text.p, text.len, 0))
		return -EIO;
	*relay = &relay_take;
	sb_log_set_quiet(1); /* rank 0 has said what there was to say */
	return 0;
}

int sb_ranks_text_end(int rc)
{
	if (sb_dist_size() == 1)
		return rc;
	if (sb_dist_rank() == 0) {
		uint64_t hdr[2] = { rc ? 1 : 0, rc ? 0 : text.len };
		if (send_header(hdr) || (!rc && sb_dist_bcast(text.p, text.len, 0)))
			rc = rc ? rc : -EIO;
	}
	sb_log_set_quiet(0);
	free(text.p);
	text = (struct text){ 0 };
	return rc;
}

void sb_ranks_own_results(const struct sb_joblist *jl, const struct sb_results *res, const char *output,
			  int (*write)(FILE *f, const struct sb_results *res, unsigned formats), unsigned formats)
{
	char path[4096];
	bool on = false;
	for (size_t i = 0; i < jl->njobs && !on; i++)
		on = jl->jobs[i].mpi_rank_results;
	if (!on || sb_dist_size() < 2)
		return;
	snprintf(path, sizeof(path), "%s.rank%d", output ? output : "storbench.out", sb_dist_rank());
	struct sb_outfile of;
	const struct sb_outname n = { SB_OPT(mpi_rank_results)->name, NULL, "this rank's results" };
	if (sb_outfile_open(&of, path, &n, 0))
		return; /* the gate said why */
	int e = write(of.f, res, formats);
	if (e) {
		if (sb_outfile_error(&of))
			e = -sb_outfile_error(&of);
		sb_outfile_abort(&of);
	} else {
		e = sb_outfile_commit(&of);
	}
	if (e)
		sb_err(SB_OPT(mpi_rank_results)->name, "cannot write %s: %s (a file that was there is "
		       "left as it was)", path, strerror(-e));
}

/* ---- the merge */
struct rec {
	struct sb_tstats st;         /* st.err.op travels as op[] (a pointer is per process) */
	struct sb_thist h;           /* st's histograms, dense while they travel (st's own are empty) */
	uint64_t runtime_ms[SB_DDIR_N];
	uint64_t job_runtime_ms, elapsed_s, nthreads;
	uint64_t nts;                /* time series intervals: the most of any rank */
	int error, err_rank;
	char op[32];
};

static void hists_merge(struct sb_thist *a, const struct sb_thist *b)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		sb_hist_merge(&a->slat_h[d], &b->slat_h[d]);
		sb_hist_merge(&a->clat_h[d], &b->clat_h[d]);
		sb_hist_merge(&a->lat_h[d], &b->lat_h[d]);
		sb_hist_merge(&a->gpu_copy_h[d], &b->gpu_copy_h[d]);
		sb_hist_merge(&a->ttfb_h[d], &b->ttfb_h[d]);
	}
	sb_hist_merge(&a->sync_h, &b->sync_h);
}

/* b's per-priority histograms into a's, by priority: the merge of the
 * counters (sb_tstats_merge) has given a an entry for each of b's */
static void prio_hists_merge(struct rec *a, const struct rec *b)
{
	for (int d = 0; d < SB_PRIO_DIRS; d++)
		for (unsigned i = 0; i < b->st.nprio[d]; i++)
			for (unsigned j = 0; j < a->st.nprio[d]; j++)
				if (a->st.prio[d][j].ioprio == b->st.prio[d][i].ioprio) {
					sb_hist_merge(&a->h.prio_h[d][j], &b->h.prio_h[d][i]);
					break;
				}
}

/* the kept histograms of st into the dense h (and out of st: pointers are
 * per process) */
static void hists_out(struct sb_tstats *st, struct sb_thist *h)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		sb_shist_to_dense(&h->slat_h[d], &st->slat_h[d]);
		sb_shist_to_dense(&h->clat_h[d], &st->clat_h[d]);
		sb_shist_to_dense(&h->lat_h[d], &st->lat_h[d]);
		sb_shist_to_dense(&h->gpu_copy_h[d], &st->gpu_copy_h[d]);
		sb_shist_to_dense(&h->ttfb_h[d], &st->ttfb_h[d]);
		st->slat_h[d] = st->clat_h[d] = st->lat_h[d] = (struct sb_shist){ 0 };
		st->gpu_copy_h[d] = st->ttfb_h[d] = (struct sb_shist){ 0 };
	}
	for (int d = 0; d < SB_PRIO_DIRS; d++)
		for (unsigned i = 0; i < st->nprio[d]; i++) {
			sb_shist_to_dense(&h->prio_h[d][i], &st->prio[d][i].h);
			st->prio[d][i].h = (struct sb_shist){ 0 };
		}
	sb_shist_to_dense(&h->sync_h, &st->sync_h);
	st->sync_h = (struct sb_shist){ 0 };
	st->live_h = NULL;
}

static int hists_in(struct sb_tstats *st, const struct sb_thist *h)
{
	int r = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		r |= sb_shist_add_dense(&st->slat_h[d], &h->slat_h[d]);
		r |= sb_shist_add_dense(&st->clat_h[d], &h->clat_h[d]);
		r |= sb_shist_add_dense(&st->lat_h[d], &h->lat_h[d]);
		r |= sb_shist_add_dense(&st->gpu_copy_h[d], &h->gpu_copy_h[d]);
		r |= sb_shist_add_dense(&st->ttfb_h[d], &h->ttfb_h[d]);
	}
	for (int d = 0; d < SB_PRIO_DIRS; d++)
		for (unsigned i = 0; i < st->nprio[d]; i++)
			r |= sb_shist_add_dense(&st->prio[d][i].h, &h->prio_h[d][i]);
	return r | sb_shist_add_dense(&st->sync_h, &h->sync_h);
}

static void rec_combine(void *inout, const void *in, size_t len)
{
	struct rec *a = inout;
	const struct rec *b = in;
	(void)len;
	/* the first error is the lowest rank's, whatever the order of the
	 * tree (the operation is commutative: MPI may reduce in any order) */
	bool theirs = b->st.error && (!a->st.error || b->err_rank < a->err_rank);
	struct sb_errinfo keep = theirs ? b->st.err : a->st.err;
	int keep_error = theirs ? b->st.error : a->st.error;
	if (theirs) {
		memcpy(a->op, b->op, sizeof(a->op));
		a->err_rank = b->err_rank;
	}
	(void)sb_tstats_merge(&a->st, &b->st); /* counters: the histograms travel in h */
	hists_merge(&a->h, &b->h);
	prio_hists_merge(a, b);
	a->st.err = keep;
	a->st.error = keep_error;
	for (int d = 0; d < SB_DDIR_N; d++)
		if (b->runtime_ms[d] > a->runtime_ms[d])
			a->runtime_ms[d] = b->runtime_ms[d];
	a->job_runtime_ms += b->job_runtime_ms;
	a->elapsed_s = b->elapsed_s > a->elapsed_s ? b->elapsed_s : a->elapsed_s;
	a->nthreads += b->nthreads;
	a->nts = b->nts > a->nts ? b->nts : a->nts;
	a->error = a->st.error ? a->st.error : (a->error ? a->error : b->error);
}

/* the static op text on rank 0 for a name that came over the wire */
static const char *op_intern(const char *op)
{
	static char ops[16][32];
	static unsigned n;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(ops[i], op))
			return ops[i];
	if (n == 16)
		return "I/O";
	snprintf(ops[n], sizeof(ops[n]), "%s", op);
	return ops[n++];
}

/* this rank's job result as a record */
static void rec_fill(const struct sb_job_result *jr, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(&r->st, &jr->st, sizeof(r->st));
	hists_out(&r->st, &r->h);
	if (r->st.err.op)
		snprintf(r->op, sizeof(r->op), "%s", r->st.err.op);
	r->st.err.op = NULL;
	memcpy(r->runtime_ms, jr->runtime_ms, sizeof(r->runtime_ms));
	r->job_runtime_ms = jr->job_runtime_ms;
	r->elapsed_s = jr->elapsed_s;
	r->nthreads = jr->nthreads;
	r->nts = jr->nts;
	r->error = jr->error;
	r->err_rank = sb_dist_rank();
}

/* rank 0: the merged record back into the job result */
static void rec_take(struct sb_job_result *jr, const struct rec *r)
{
	sb_tstats_release(&jr->st);
	memcpy(&jr->st, &r->st, sizeof(jr->st));
	(void)hists_in(&jr->st, &r->h); /* out of memory: those histograms are left out */
	jr->st.err.op = r->op[0] ? op_intern(r->op) : NULL;
	memcpy(jr->runtime_ms, r->runtime_ms, sizeof(jr->runtime_ms));
	jr->job_runtime_ms = r->job_runtime_ms;
	jr->elapsed_s = r->elapsed_s;
	jr->nthreads = (unsigned)r->nthreads;
	jr->error = r->error;
	if (jr->st.job_runtime_ns && !(jr->spec && jr->spec->no_stats)) {
		jr->usr_cpu = 100.0 * (double)jr->st.usr_us * 1000.0 / (double)jr->st.job_runtime_ns;
		jr->sys_cpu = 100.0 * (double)jr->st.sys_us * 1000.0 / (double)jr->st.job_runtime_ns;
	}
}

/* time series: interval i of every rank is the same span after the common
 * start (the first group's barrier), so they add sample by sample */
static void ts_combine(void *inout, const void *in, size_t len)
{
	struct sb_ts_sample *a = inout;
	const struct sb_ts_sample *b = in;
	for (size_t i = 0; i < len / sizeof(*a); i++) {
		if (b[i].t_ms > a[i].t_ms)
			a[i].t_ms = b[i].t_ms;
		if (b[i].dur_ns > a[i].dur_ns)
			a[i].dur_ns = b[i].dur_ns;
		for (int d = 0; d < SB_DDIR_N; d++)
			sb_ts_dir_merge(&a[i].d[d], &b[i].d[d]);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One reduction carries everything: the run's figures (head), then every
 * job's record, then every job's time series padded to the longest
 * (nts_max intervals each; padding is zeros, which add nothing).  njobs and
 * nts_max are the same on every rank (agreed before), so the combine step
 * reads the layout from the buffer itself.  Jobs go in batches of at most
 * BATCH_BYTES, so a job file of thousands of jobs stays within MPI's int
 * counts; the head of the first batch is the one used. */
struct head {
	uint64_t njobs, nts_max;
	uint64_t start_lo, start_hi, end_lo, end_hi; /* wall clock: min and max */
	uint64_t per_host, total_ios;                /* max, sum */
};
#define BATCH_BYTES (64u << 20)

static void all_combine(void *inout, const void *in, size_t len)
{
	struct head *a = inout;
	const struct head *b = in;
	(void)len;
	a->start_lo = b->start_lo < a->start_lo ? b->start_lo : a->start_lo;
	a->end_lo = b->end_lo < a->end_lo ? b->end_lo : a->end_lo;
	a->start_hi = b->start_hi > a->start_hi ? b->start_hi : a->start_hi;
	a->end_hi = b->end_hi > a->end_hi ? b->end_hi : a->end_hi;
	a->per_host = b->per_host > a->per_host ? b->per_host : a->per_host;
	a->total_ios += b->total_ios;
	struct rec *ra = (struct rec *)(a + 1);
	const struct rec *rb = (const struct rec *)(b + 1);
	for (uint64_t j = 0; j < a->njobs; j++)
		rec_combine(&ra[j], &rb[j], sizeof(*ra));
	if (a->nts_max)
		ts_combine(ra + a->njobs, rb + a->njobs, a->njobs * a->nts_max * sizeof(struct sb_ts_sample));
}

static int merge_batch(struct sb_results *res, size_t j0, size_t nj, uint64_t nts_max)
{
	size_t tsz = (size_t)nts_max * sizeof(struct sb_ts_sample);
	size_t len = sizeof(struct head) + nj * (sizeof(struct rec) + tsz);
	char *buf = calloc(1, len);
	if (!buf)
		sb_dist_abort(SB_EXIT_IOERR); /* the others wait in the reduction */
	struct head *h = (struct head *)buf;
	struct rec *r = (struct rec *)(h + 1);
	char *ts = (char *)(r + nj);
	*h = (struct head){ .njobs = nj, .nts_max = nts_max,
			    .start_lo = res->start_wall_ns, .start_hi = res->start_wall_ns,
			    .end_lo = res->end_wall_ns, .end_hi = res->end_wall_ns,
			    .per_host = (uint64_t)sb_dist_local_size(), .total_ios = res->total_ios };
	for (size_t j = 0; j < nj; j++) {
		const struct sb_job_result *jr = &res->jobs[j0 + j];
		rec_fill(jr, &r[j]);
		if (jr->ts && jr->nts)
			memcpy(ts + j * tsz, jr->ts, jr->nts * sizeof(*jr->ts));
	}
	int e = sb_dist_reduce_rec(buf, len, all_combine);
	if (!e && sb_dist_rank() == 0) {
		for (size_t j = 0; j < nj; j++) {
			struct sb_job_result *jr = &res->jobs[j0 + j];
			rec_take(jr, &r[j]);
			if (!r[j].nts)
				continue;
			struct sb_ts_sample *s = malloc((size_t)r[j].nts * sizeof(*s));
			if (!s)
				sb_dist_abort(SB_EXIT_IOERR); /* the others wait in the gather */
			memcpy(s, ts + j * tsz, (size_t)r[j].nts * sizeof(*s));
			free(jr->ts);
			jr->ts = s;
			jr->nts = (unsigned)r[j].nts;
		}
		if (!j0) {
			res->mpi.ranks = (unsigned)sb_dist_size();
			res->mpi.hosts = (unsigned)sb_dist_nhosts();
			res->mpi.ranks_per_host = (unsigned)h->per_host;
			res->mpi.start_skew_ns = h->start_hi - h->start_lo;
			res->mpi.end_skew_ns = h->end_hi - h->end_lo;
			snprintf(res->mpi.library, sizeof(res->mpi.library), "%s", sb_dist_library());
			res->total_ios = h->total_ios;
		}
	}
	free(buf);
	return e;
}

/* Collectives at the merge (not counting ML jobs' own): a barrier, one
 * 4-number all-reduction (the job count's min and max, an interrupt on any
 * rank, the longest time series), one record reduction per batch of jobs
 * (one for up to ~300 jobs), the hosts' gather. */
int sb_ranks_merge(struct sb_results *res, bool signalled)
{
	if (sb_dist_size() == 1)
		return 0;
	/* merge_ns is the merge itself, not the wait for the last rank's end */
	if (sb_dist_barrier())
		return -EIO;
	uint64_t t0 = now_ns();
	uint64_t agree[4] = { res->njobs, UINT64_MAX - res->njobs, signalled, 0 };
	for (size_t i = 0; i < res->njobs; i++)
		agree[3] = res->jobs[i].nts > agree[3] ? res->jobs[i].nts : agree[3];
	if (sb_dist_reduce_u64(agree, 4, SB_DIST_MAX, true))
		return -EIO;
	/* the same job list everywhere, so the same results: a mismatch is a bug */
	if (agree[0] != UINT64_MAX - agree[1]) {
		sb_err("mpi", "ranks have different job results (%llu to %llu): not merged",
		       (unsigned long long)(UINT64_MAX - agree[1]), (unsigned long long)agree[0]);
		return -EPROTO;
	}
	/* an interrupt on any rank is the run's; a stop for an error is not */
	res->interrupted = agree[2] != 0;
	size_t per = sizeof(struct rec) + (size_t)agree[3] * sizeof(struct sb_ts_sample);
	size_t batch = per < BATCH_BYTES ? BATCH_BYTES / per : 1;
	int e = 0;
	for (size_t j0 = 0; j0 < res->njobs || (!j0 && !e); j0 += batch) {
		size_t nj = res->njobs - j0 < batch ? res->njobs - j0 : batch;
		e = merge_batch(res, j0, nj, agree[3]);
		if (e || !res->njobs)
			break;
	}
	/* the workloads' own figures (checkpoint, train: their rows' ranks_merge) */
	for (size_t i = 0; i < res->njobs && !e; i++) {
		const struct sb_jobspec *s = res->jobs[i].spec;
		const struct sb_workload_ops *w = s ? sb_workload_of(s) : NULL;
		if (w && w->ranks_merge)
			e = w->ranks_merge(&res->jobs[i]);
	}
	if (!e)
		e = sb_ranks_hosts(res);
	if (!e && sb_dist_rank() == 0)
		e = sb_collect_groups(res);
	res->mpi.merge_ns = now_ns() - t0;
	return e;
}

int sb_ranks_status(int status)
{
	uint64_t s = (uint64_t)status;
	if (sb_dist_size() == 1 || sb_dist_reduce_u64(&s, 1, SB_DIST_MAX, true))
		return status;
	return (int)s;
}
