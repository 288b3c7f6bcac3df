/* histlog.c: write_hist_log - fio's completion-latency histogram log, read
 * by fio's tools/hist/fiologparser_hist.py.  One line per direction the job
 * does every log_hist_msec, stamped on that grid (ms since the thread's
 * counting start, or Unix ms with log_unix_epoch):
 *     time, ddir, bs, bin0, bin1, ..., bin1855
 * The bins are fio 3.33's latency bins (ns; 64 per power of two, exact
 * below 128 ns: the same geometry as stats/hist.h), counting the I/Os that
 * completed in that period; log_hist_coarseness=N sums 2^N neighbours into
 * one column (1856 >> N columns).  The counts come from the per-interval
 * accumulators (stats/ilat.h, 16 buckets per power of two): each of their
 * buckets goes to the fio bin holding its midpoint, so a value is placed
 * within 1/32 of itself (exact with log_hist_coarseness >= 2 and below
 * 32 ns).  Runs on the stats thread; the I/O threads pay nothing for it. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/log.h"
#include "stats/monitor.h"

#define FIO_BINS 1856   /* fio 3.33: FIO_IO_U_PLAT_NR (29 groups of 64) */

int sb_histlog_open(struct sb_mon_thread *mt, unsigned thread_no)
{
	const struct sb_jobspec *s = mt->t->spec;
	char path[4096];
	int n = s->per_job_logs ? snprintf(path, sizeof(path), "%s_clat_hist.%u.log",
					   s->write_hist_log, thread_no)
				: snprintf(path, sizeof(path), "%s_clat_hist.log", s->write_hist_log);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		sb_err(s->write_hist_log, "log file name too long");
		return -ENAMETOOLONG;
	}
	mt->hprev = calloc(1, sizeof(*mt->hprev));
	mt->hbins = calloc(FIO_BINS, sizeof(*mt->hbins));
	if (!mt->hprev || !mt->hbins)
		return -ENOMEM;
	/* per_job_logs=0: the job's threads append to one file, a line at a
	 * time (the first one empties it) */
	bool shared = !s->per_job_logs;
	struct sb_outname name = { "write_hist_log", NULL, "the histogram log" };
	if (!(mt->hpath = strdup(path)))
		return -ENOMEM;
	if (!shared) { /* a file of its own: a temporary renamed into place at the end */
		int e = sb_outfile_open(&mt->haf, path, &name, 0);
		if (e)
			return e; /* the gate said why */
		mt->hist = mt->haf.f;
	} else { /* in place through the gate: the first thread empties it, the rest append */
		int e = sb_outfile_open(&mt->haf, path, &name,
					thread_no > 1 ? SB_OUT_APPEND : SB_OUT_TRUNC);
		if (e)
			return e;
		mt->hist = mt->haf.f;
	}
	setvbuf(mt->hist, NULL, shared ? _IOLBF : _IOFBF, 1 << 16);
	mt->hlf.unix_epoch = s->log_unix_epoch || s->log_alternate_epoch;
	mt->hlf.epoch_clock = (int)s->log_alternate_epoch_clock_id;
	return 0;
}

/* 0, or -errno with the file and the reason reported (a log of its own
 * that failed is removed: no truncated log is left) */
int sb_histlog_close(struct sb_mon_thread *mt)
{
	int e = 0;
	if (mt->haf.f) {
		e = -sb_outfile_commit(&mt->haf);
	} else if (mt->hist) {
		if (fflush(mt->hist) != 0)
			e = errno ? errno : EIO;
		else if (ferror(mt->hist))
			e = EIO;
		if (fclose(mt->hist) != 0 && !e)
			e = errno;
	}
	if (e)
		sb_err(mt->hpath ? mt->hpath : "write_hist_log", "writing the histogram log failed: "
		       "%s: free space on that file system, or log to another folder", strerror(e));
	mt->hist = NULL;
	free(mt->hpath);
	mt->hpath = NULL;
	free(mt->hprev);
	free(mt->hbins);
	mt->hprev = NULL;
	mt->hbins = NULL;
	return -e;
}

static unsigned fio_bin(unsigned ilat_bucket)
{
	unsigned b = sb_hist_index(sb_ilat_bucket_value(ilat_bucket));
	return b < FIO_BINS ? b : FIO_BINS - 1;
}

/* the histogram of [hprev, cur) into one line per direction, stamped label_ns */
static void hist_window(struct sb_monitor *m, struct sb_mon_thread *mt, uint64_t label_ns)
{
	const struct sb_tview *t = mt->t;
	const struct sb_jobspec *s = t->spec;
	uint64_t t0 = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
	unsigned stride = 1u << s->log_hist_coarseness;
	sb_ilat_snapshot(t->ilat, m->cur, false);
	sb_iolog_set_epoch(&mt->hlf, t0);
	uint64_t t_ms = (label_ns > t0 ? (label_ns - t0 + 500000) / 1000000 : 0) + mt->hlf.epoch_ms;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (!sb_spec_does(s, (enum sb_ddir)d))
			continue;
		memset(mt->hbins, 0, FIO_BINS * sizeof(*mt->hbins));
		for (unsigned i = 0; i < SB_ILAT_NB; i++) {
			uint64_t c = m->cur->d[d].hist[i] - mt->hprev->d[d].hist[i];
			if (c)
				mt->hbins[fio_bin(i)] += c;
		}
		fprintf(mt->hist, "%" PRIu64 ", %d, %" PRIu64, t_ms, d, s->bs[d]);
		for (unsigned b = 0; b < FIO_BINS; b += stride) {
			uint64_t sum = 0;
			for (unsigned k = b; k < b + stride && k < FIO_BINS; k++)
				sum += mt->hbins[k];
			fprintf(mt->hist, ", %" PRIu64, sum);
		}
		fputc('\n', mt->hist);
	}
	memcpy(mt->hprev, m->cur, sizeof(*mt->hprev));
}

void sb_histlog_tick(struct sb_monitor *m, struct sb_mon_thread *mt, uint64_t now, bool final)
{
	const struct sb_tview *t = mt->t;
	uint64_t per = (uint64_t)t->spec->log_hist_msec * 1000000ull;
	int ph = atomic_load_explicit(t->phase, memory_order_acquire);
	uint64_t cs = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
	if (!per || mt->hist_final || ph < SB_PH_RUN || !cs)
		return;
	if (!mt->hist_started) {
		mt->hist_started = true;
		mt->hist_next_ns = cs + per;
		sb_ilat_snapshot(t->ilat, mt->hprev, false); /* I/Os before counting began */
	}
	bool done = ph == SB_PH_DONE || final;
	uint64_t until = done ? *t->end_ns : now;
	if (until >= mt->hist_next_ns) {
		/* like fio, a grid point is written when passed; windows a late
		 * tick missed fold into the latest one */
		uint64_t label = mt->hist_next_ns;
		while (label + per <= until)
			label += per;
		hist_window(m, mt, label);
		mt->hist_next_ns = label + per;
	}
	if (done)
		mt->hist_final = true; /* fio writes no last partial period */
}
