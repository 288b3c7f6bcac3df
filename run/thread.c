/* thread.c: life of one job thread: setup (files, buffers, engine), the wait
 * for its turn (wait_for, startdelay), the I/O loop, and what it leaves for
 * the results (runtime, CPU, errors). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dist/dist.h"
#include "run/contents.h"
#include "run/eachloop.h"
#include "run/engtable.h"
#include "run/exec.h"
#include "run/jobenv.h"
#include "run/openfiles.h"
#include "run/ioloop.h"
#include "run/replay.h"
#include "run/place.h"
#include "run/gpu.h"
#include "run/thread.h"
#include "run/verify.h"
#include "parse/options.h"
#include "lib/debug.h"
#include "lib/log.h"
#include "lib/timeutil.h"


/* one aligned allocation for all io buffers, filled with non-zero data */
#define SB_HUGE_PAGE (2u << 20)

/* --debug=random: the thread's seed, in the lines fio prints (fio
 * init.c:1266 "FIO_RAND_NR_OFFS=%d", "rand_seeds[%d]=%llu": the last
 * number of each line, which t/random_seed.py reads).  storbench has one
 * seed per thread (run/iogen.h sb_iogen_seed): offsets, block sizes and the
 * read/write mix draw from it, buffer contents and verify headers derive
 * from it. */
static void dbg_seeds(const struct sb_thread *t, uint64_t seed)
{
	const struct sb_jobspec *s = t->spec;
	if (!s->randrepeat && !s->allrandrepeat)
		sb_dbg(SB_DBG_RANDOM, "job %s thread %u: using the clock for random seeds "
		       "(randrepeat=0, no randseed)", s->name, t->sub);
	else
		sb_dbg(SB_DBG_RANDOM, "job %s thread %u: seeds from randseed %llu", s->name,
		       t->sub, (unsigned long long)s->randseed);
	sb_dbg(SB_DBG_RANDOM, "FIO_RAND_NR_OFFS=1");
	sb_dbg(SB_DBG_RANDOM, "rand_seeds[0]=%llu", (unsigned long long)seed);
}

static int setup_buffers(struct sb_thread *t)
{
	struct sb_engine_td *e = &t->etd;
	e->buf_per_io = (t->spec->bs_hi + SB_IOBUF_ALIGN - 1) & ~(uint64_t)(SB_IOBUF_ALIGN - 1); /* bs_hi: derived by the parser */
	e->buf_len = e->buf_per_io * e->iodepth;
	/* 2 MiB and up: ask for transparent huge pages.  Physically contiguous
	 * buffers make a large direct I/O a few segments instead of one per 4 KiB
	 * page (virtio-blk takes 254: a 1 MiB I/O in 256 scattered pages is split
	 * in two), and make pinning them cheaper.  A refusal changes nothing. */
	size_t align = e->buf_len >= SB_HUGE_PAGE ? SB_HUGE_PAGE : SB_IOBUF_ALIGN;
	int r = sb_place_buffers(t, e->buf_len, align); /* iomem=, numa_mem_policy= */
	if (r)
		return r;
	if (sb_contents_setup(t)) /* contents and their io_prep hook: run/contents.h */
		return -ENOMEM;
	e->ios = calloc(e->iodepth, sizeof(*e->ios));
	t->freel = calloc(e->iodepth, sizeof(*t->freel));
	t->uncommitted = calloc(e->iodepth, sizeof(*t->uncommitted));
	t->requeue = calloc(e->iodepth, sizeof(*t->requeue));
	t->lvl_bucket = calloc(e->iodepth + 2, 1);
	if (!e->ios || !t->freel || !t->uncommitted || !t->requeue || !t->lvl_bucket)
		return -ENOMEM;
	e->nios = e->iodepth;
	for (unsigned i = 0; i < e->iodepth; i++) {
		e->ios[i].index = i;
		e->ios[i].buf = (char *)e->buf_base + (uint64_t)i * e->buf_per_io;
		t->freel[i] = &e->ios[i];
	}
	for (unsigned d = 0; d <= e->iodepth + 1; d++)
		t->lvl_bucket[d] = (unsigned char)sb_depth_level_bucket(d ? d : 1);
	t->batch1_bucket = (unsigned char)sb_depth_batch_bucket(1);
	return 0;
}

static int open_files(struct sb_thread *t)
{
	const struct sb_jobspec *s = t->spec;
	unsigned n = sb_openfiles_initial(s, t->etd.nfiles); /* openfiles= (run/openfiles.h) */
	for (unsigned i = 0; i < n; i++) {
		struct sb_file *f = &t->files[i];
		int r = sb_files_open(f, s);
		if (r) {
			sb_err(s->name, "cannot open %s: %s%s", f->path, strerror(-r),
			       r == -EINVAL && s->direct ? " (the file system may not support "
							   "direct=1: try direct=0)" : "");
			return r;
		}
	}
	t->files_open = true;
	for (unsigned i = 0; i < n && t->ops->open_file; i++) {
		int r = t->ops->open_file(&t->etd, &t->files[i]);
		if (r) {
			sb_err(s->name, "ioengine=%s cannot use %s: %s%s%s", t->ops->name, t->files[i].path,
			       strerror(-r), t->etd.errmsg[0] ? ": " : "", t->etd.errmsg);
			return r;
		}
	}
	return 0;
}

/* an engine's time to first byte (s3), counted as the latencies are:
 * after ramp_time (an ML worker has no phases) */
static void thread_ttfb(void *ctx, int d, uint64_t ns)
{
	struct sb_thread *t = ctx;
	if (atomic_load_explicit(&t->phase, memory_order_relaxed) == SB_PH_RAMP)
		return;
	sb_stat_add(&t->st->ttfb[d], ns);
	sb_hist_add(&t->st->live_h->ttfb_h[d], ns);
}

/* where the engine counts: its counters and time to first byte into the
 * thread's results */
static void engine_sink(struct sb_thread *t)
{
	if (t->ops->ncounters && t->ops->ncounters <= SB_ENG_CTR_MAX) {
		t->st->eng_names = t->ops->counters;
		t->st->eng_n = t->ops->ncounters;
		t->etd.sink.counters = t->st->eng_ctr;
	}
	t->etd.sink.ttfb = thread_ttfb;
	t->etd.sink.ctx = t;
}

static int setup_engine(struct sb_thread *t)
{
	int r = t->ops->init ? t->ops->init(&t->etd) : 0;
	if (r) {
		(t->etd.machine_lacks ? sb_err_machine : sb_err)(t->spec->name, "ioengine=%s: %s%s%s",
			t->ops->name, strerror(-r), t->etd.errmsg[0] ? ": " : "", t->etd.errmsg);
		return r;
	}
	t->engine_up = true;
	t->etd.errmsg[0] = '\0'; /* from here only an I/O's failure: the first error's detail */
	if (t->etd.gds_mode) /* libcufile: in the results, never silently */
		snprintf(t->st->gds_mode, sizeof(t->st->gds_mode), "%s", t->etd.gds_mode);
	if (t->ops->flags & SB_ENGINE_NODISKIO)
		return 0;
	r = open_files(t);
	if (!r)
		t->etd.errmsg[0] = '\0';
	return r;
}

/* per-priority latency (fio's clat_prio): the thread's own priority, and
 * with cmdprio_* an entry for it and each priority its I/Os can carry
 * (fio engines/cmdprio.c: index 0 the thread's own); parse/check_cmdprio.c
 * keeps them within SB_PRIO_MAX */
_Static_assert(SB_CMDPRIO_PRIOS_MAX + 1 <= SB_PRIO_MAX, "cmdprio's priorities and the job's");
static int prio_setup(struct sb_tstats *st, const struct sb_jobspec *s)
{
	st->ioprio = s->ioprio_on ? (uint16_t)(s->prioclass << 13 | s->prio) : 0;
	st->prio_lat = s->lat_percentiles;
	if (!s->cmdprio.on)
		return 0;
	st->prio_live = true;
	for (int d = 0; d < SB_PRIO_DIRS; d++) {
		int r = sb_tstats_prio_slot(st, d, st->ioprio);
		for (unsigned i = 0; i < s->cmdprio.bs_n[d] && r >= 0; i++) {
			unsigned p = s->cmdprio.bs[d][i].ioprio;
			r = sb_tstats_prio_slot(st, d, p ? (uint16_t)p : st->ioprio);
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

int sb_thread_setup(struct sb_thread *t, const struct sb_jobfiles *jf)
{
	const struct sb_jobspec *s = t->spec;
	t->st = malloc(sizeof(*t->st));
	t->files = calloc(jf->nfiles, sizeof(*t->files));
	t->ilat = malloc(sizeof(*t->ilat));
	if (!t->st || !t->files || !t->ilat)
		return -ENOMEM;
	if (sb_tstats_init_live(t->st))
		return -ENOMEM;
	sb_ilat_init(t->ilat);
	if (prio_setup(t->st, s))
		return -EINVAL;
	t->stats_lite = s->gtod_reduce || s->disable_lat || s->disable_clat || s->disable_slat;
	if (sb_ctl_setup(t))
		return -ENOMEM;
	bool iolog = s->write_iolog && *s->write_iolog;
	if (iolog || (!s->log_avg_msec && ((s->write_bw_log && *s->write_bw_log) ||
					   (s->write_iops_log && *s->write_iops_log) ||
					   (s->write_lat_log && *s->write_lat_log))) ||
	    (s->log_max_value && s->log_avg_msec && s->write_lat_log && *s->write_lat_log)) {
		t->logring = malloc(sizeof(*t->logring));
		if (!t->logring || sb_iolog_ring_init(t->logring))
			return -ENOMEM;
	}
	if (iolog && !(t->paths = calloc(jf->nfiles, sizeof(*t->paths))))
		return -ENOMEM;
	int te = s->write_trace ? sb_trace_attach(&t->trace, s->write_trace, s->trace_sample, jf->nfiles) : 0;
	if (te)
		return te;
	for (unsigned i = 0; i < jf->nfiles; i++) {
		t->files[i] = jf->tmpl[(size_t)t->sub * jf->nfiles + i];
		t->files[i].fd = -1;
		if (t->paths)
			t->paths[i] = t->files[i].path;
		if (t->trace)
			sb_trace_set_file(t->trace, i, t->files[i].path);
	}
	sb_engine_job_fill(&t->ejob, s);
	t->ejob.gpu_dev = sb_spec_gpu(s, t->sub); /* gpu_dev_id(s): libcufile's GPU */
	t->ejob.gpu_verify = s->verify != 0;
	t->max_lat_ns = s->max_latency_us ? s->max_latency_us * 1000 : UINT64_MAX;
	t->etd.job = &t->ejob;
	engine_sink(t);
	t->etd.files = t->files;
	t->etd.nfiles = jf->nfiles;
	t->etd.iodepth = s->iodepth_eff; /* derived by the parser */
	uint64_t seed = sb_iogen_seed(s, t->sub);
	if (sb_dbg_on(SB_DBG_RANDOM))
		dbg_seeds(t, seed);
	int r = sb_iogen_init(&t->gen, s, t->files, jf->nfiles, seed);
	if (r) {
		if (r == -EINVAL)
			sb_err(s->name, "the I/O region (size=, offset=) is smaller than one block (bs=)");
		return r;
	}
	if (s->read_iolog && (r = sb_iogen_init_replay(&t->gen, s, jf->nfiles)))
		return r;
	r = setup_buffers(t);
	if (r)
		return r;
	if (s->verify && (r = sb_verify_setup(t)) != 0)
		return r;
	if ((r = sb_gpu_setup(t)) != 0) /* iomem=cudamalloc: wraps the hooks above */
		return r;
	return setup_engine(t);
}

int sb_thread_setup_bare(struct sb_thread *t, unsigned nslots)
{
	return sb_thread_setup_check(t, nslots, NULL);
}

int sb_thread_setup_check(struct sb_thread *t, unsigned nslots, const struct sb_file *tmpl)
{
	t->st = malloc(sizeof(*t->st));
	t->files = calloc(nslots ? nslots : 1, sizeof(*t->files));
	t->ilat = malloc(sizeof(*t->ilat)); /* the io loop feeds it on every completion */
	if (!t->st || !t->files || !t->ilat)
		return -ENOMEM;
	if (sb_tstats_init_live(t->st))
		return -ENOMEM;
	sb_ilat_init(t->ilat);
	for (unsigned i = 0; i < nslots; i++) {
		if (tmpl) /* the planned files, as the engine will meet them (path, size, region) */
			t->files[i] = tmpl[i];
		t->files[i].fd = -1;
		t->files[i].index = i;
		t->files[i].engine_data = NULL;
	}
	if (t->spec->write_trace) {
		int te = sb_trace_attach(&t->trace, t->spec->write_trace, t->spec->trace_sample, nslots);
		if (te)
			return te;
	}
	sb_engine_job_fill(&t->ejob, t->spec);
	t->max_lat_ns = t->spec->max_latency_us ? t->spec->max_latency_us * 1000 : UINT64_MAX;
	t->etd.job = &t->ejob;
	engine_sink(t);
	t->etd.files = t->files;
	t->etd.nfiles = nslots;
	t->etd.iodepth = t->spec->iodepth_eff; /* derived by the parser */
	int r = setup_buffers(t);
	if (r)
		return r;
	r = sb_thread_engine_start(t);
	if (r) { /* machine_lacks (a library, a GPU): --parse-only warns */
		(t->etd.machine_lacks ? sb_err_machine : sb_err)(t->spec->name, "ioengine=%s: %s%s%s",
			t->ops->name, strerror(-r), t->etd.errmsg[0] ? ": " : "", t->etd.errmsg);
		return r;
	}
	sb_thread_engine_stop(t);
	t->files_open = true; /* teardown closes what the caller left open */
	return 0;
}

int sb_thread_engine_start(struct sb_thread *t)
{
	if (t->engine_up)
		return 0;
	t->etd.errmsg[0] = '\0';
	int r = t->ops->init ? t->ops->init(&t->etd) : 0;
	if (r)
		return r;
	t->engine_up = true;
	t->etd.errmsg[0] = '\0'; /* from here only an I/O's failure: the first error's detail */
	return 0;
}

void sb_thread_engine_stop(struct sb_thread *t)
{
	if (t->engine_up && t->ops->cleanup)
		t->ops->cleanup(&t->etd);
	t->engine_up = false;
	t->etd.data = NULL;
}

void sb_thread_teardown(struct sb_thread *t)
{
	for (unsigned i = 0; t->files && i < t->etd.nfiles; i++) {
		if (t->files_open && t->engine_up && t->ops->close_file && t->files[i].fd >= 0)
			t->ops->close_file(&t->etd, &t->files[i]);
		sb_files_close(&t->files[i]);
	}
	t->files_open = false;
	if (t->engine_up && t->ops->cleanup)
		t->ops->cleanup(&t->etd);
	t->engine_up = false;
	sb_gpu_teardown(t); /* first: hands back the hooks it wrapped */
	sb_verify_teardown(t);
	sb_iogen_free(&t->gen);
	if (t->content_free)
		t->content_free(t);
	sb_contents_release(t);
	sb_place_buffers_free(t);
	free(t->etd.ios);
	free(t->freel);
	free(t->uncommitted);
	free(t->requeue);
	free(t->lvl_bucket);
	free(t->files);
	if (t->st)
		sb_tstats_release(t->st);
	free(t->st);
	sb_ctl_free(&t->ctl);
	sb_verify_result_free(t->verify);
	t->verify = NULL;
	free(t->ilat);
	if (t->logring)
		sb_iolog_ring_free(t->logring);
	free(t->logring);
	free(t->paths);
	t->paths = NULL;
	t->ilat = NULL;
	t->logring = NULL;
	t->trace = NULL; /* the trace writer owns it */
	t->etd.buf_base = NULL;
	t->etd.ios = NULL;
	t->freel = t->uncommitted = t->requeue = NULL;
	t->lvl_bucket = NULL;
	t->files = NULL;
	t->st = NULL;
}

static bool wait_turn(struct sb_thread *t)
{
	if (t->wait_job >= 0) {
		struct sb_runsync *sy = t->sync;
		pthread_mutex_lock(&sy->mu);
		/* MPI: and on every other rank (run/run.c wakes us when they say so) */
		while ((sy->left[t->wait_job] ||
			sb_dist_done_count((unsigned)t->wait_job) + 1 < (unsigned)sb_dist_size()) &&
		       !sb_stopping()) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&sy->cv, &sy->mu, &ts);
		}
		pthread_mutex_unlock(&sy->mu);
	}
	if (t->spec->startdelay_us && !sb_sleep_until(sb_now_ns() + t->spec->startdelay_us * 1000))
		return false;
	return !sb_stopping();
}

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000ull + (uint64_t)tv.tv_usec;
}

static void finish(struct sb_thread *t, const struct sb_loopstate *ls)
{
	struct sb_tstats *st = t->st;
	t->end_ns = sb_now_ns();
	if (ls->counting) {
		struct rusage ru;
		uint64_t from = atomic_load_explicit(&t->count_start_ns, memory_order_relaxed);
		getrusage(RUSAGE_THREAD, &ru);
		st->usr_us = tv_us(ru.ru_utime) - tv_us(t->ru0.ru_utime);
		st->sys_us = tv_us(ru.ru_stime) - tv_us(t->ru0.ru_stime);
		st->ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw - t->ru0.ru_nvcsw - t->ru0.ru_nivcsw);
		st->majf = (uint64_t)(ru.ru_majflt - t->ru0.ru_majflt);
		st->minf = (uint64_t)(ru.ru_minflt - t->ru0.ru_minflt);
		st->job_runtime_ns = t->end_ns > from ? t->end_ns - from : 0;
		bool noio = t->ops->flags & SB_ENGINE_NOIO; /* cpuio: I/Os counted, not bytes or time (fio) */
		for (int d = 0; d < SB_DDIR_N; d++) {
			if (sb_spec_does(t->spec, (enum sb_ddir)d))
				st->runtime_ns[d] = noio ? 0 : st->job_runtime_ns;
			if (noio)
				st->io_bytes[d] = 0;
		}
		if (t->spec->verify) /* the verify phase is the read runtime */
			sb_verify_runtimes(t);
	}
	if ((t->ops->flags & SB_ENGINE_SYNC) && !t->spec->disable_lat &&
	    !t->spec->disable_clat) { /* no submission step: lat is clat */
		for (int d = 0; d < SB_DDIR_N; d++) {
			st->lat[d] = st->clat[d];
			if (st->live_h->clat_h[d].n) /* a copy writes 20 KB */
				st->live_h->lat_h[d] = st->live_h->clat_h[d];
		}
	}
}

/* exec_prerun (run/exec.h): a failure is the job's error, and it does no I/O */
static bool prerun(struct sb_thread *t)
{
	int e = t->spec->exec_prerun ? sb_exec_hook(t->spec, t->spec->exec_prerun, "prerun") : 0;
	if (!e)
		return true;
	if (e != -EINTR) /* -EINTR: stopped, not the job's error */
		sb_tstats_set_error(t->st, ECANCELED, SB_OPT(exec_prerun)->name, NULL);
	return false;
}

void *sb_thread_main(void *arg)
{
	struct sb_thread *t = arg;
	struct sb_loopstate ls = { .deadline = UINT64_MAX };
	atomic_store_explicit(&t->os_tid, (int)syscall(SYS_gettid), memory_order_relaxed);
	if (t->trace)
		sb_trace_thread(t->trace);
	if (t->on_start)
		t->on_start(t->on_start_arg, atomic_load_explicit(&t->os_tid, memory_order_relaxed));
	sb_gpu_bind(t);
	const char *pwhat;
	void *lockmem;
	size_t lockmem_len;
	int pe = sb_place_thread(t, &pwhat); /* cpus_allowed, nice, prio: run/place.c */
	if (!pe) /* lockmem, uid, gid: run/jobenv.c */
		pe = sb_jobenv_enter(t, &lockmem, &lockmem_len, &pwhat);
	else
		lockmem = NULL, lockmem_len = 0;
	if (pe)
		sb_tstats_set_error(t->st, -pe, pwhat, NULL);
	if (!pe && !t->spec->create_only && wait_turn(t) && prerun(t)) {
		const struct sb_jobspec *s = t->spec;
		uint64_t now = sb_now_ns();
		t->start_ns = now;
		ls.now = now;
		ls.ramp_end = now + s->ramp_time_us * 1000;
		if (s->runtime_us)
			ls.deadline = ls.ramp_end + s->runtime_us * 1000;
		sb_rate_init(&t->rate, s, now);
		if (t->rate.on && t->gen.mixed && s->rwmixread > 0 && s->rwmixread < 100)
			t->gen.rate = &t->rate;
		t->rate.on |= t->ctl.flow != NULL; /* flow waits where rates do */
		ls.wake = ls.deadline;
		sb_lat_init(&t->lt, s, t->etd.iodepth, now); /* before arm: its window wakes */
		if (t->lt.on && t->lt.target_ns < t->max_lat_ns)
			t->max_lat_ns = t->lt.target_ns; /* account()'s one compare sees both */
		sb_ctl_arm(t, &ls);
		atomic_store_explicit(&t->phase, SB_PH_RAMP, memory_order_release);
		if (!s->ramp_time_us)
			sb_ioloop_begin_counting(t, &ls, now);
		if (!s->verify || !sb_verify_run(t, &ls)) { /* a verifying reader: false */
			sb_eachloop_run(t, &ls); /* sb_ioloop_run; unlink_each_loop */
			sb_ioloop_end_fsync(t, &ls);
		}
		if (s->verify)
			sb_verify_end(t);
	} else {
		t->start_ns = sb_now_ns();
	}
	finish(t, &ls);
	sb_jobenv_release(lockmem, lockmem_len);
	if (t->spec->exec_postrun) /* as fio: whatever the job did */
		(void)sb_exec_hook(t->spec, t->spec->exec_postrun, "postrun");
	sb_ioloop_error_path(t);
	sb_ctl_thread_done(t);
	for (unsigned i = 0; i < t->etd.nfiles; i++) {
		if (t->files_open && t->ops->close_file && t->files[i].fd >= 0)
			t->ops->close_file(&t->etd, &t->files[i]);
		sb_files_close(&t->files[i]);
	}
	t->files_open = false;
	atomic_store_explicit(&t->phase, SB_PH_DONE, memory_order_release);
	pthread_mutex_lock(&t->sync->mu);
	if (!--t->sync->left[t->job])
		(void)sb_dist_done(t->job); /* MPI: for the other ranks' wait_for */
	pthread_cond_broadcast(&t->sync->cv);
	pthread_mutex_unlock(&t->sync->mu);
	/* release the engine here, not in sb_thread_teardown: slow releases
	 * (io_uring and AIO contexts) then overlap across threads */
	if (t->engine_up && t->ops->cleanup)
		t->ops->cleanup(&t->etd);
	t->engine_up = false;
	return NULL;
}

void sb_thread_view(struct sb_thread *t, struct sb_tview *v)
{
	*v = (struct sb_tview){
		.spec = t->spec,
		.job = t->job,
		.st = t->st,
		.ilat = t->ilat,
		.logring = t->logring,
		.phase = &t->phase,
		.count_start_ns = &t->count_start_ns,
		.start_ns = &t->start_ns,
		.end_ns = &t->end_ns,
		.expect_bytes = t->gen.loop_budget * (t->spec->loops ? t->spec->loops : 1),
		.sync_engine = t->ops && (t->ops->flags & SB_ENGINE_SYNC),
		.paths = t->paths,
		.npaths = t->paths ? t->etd.nfiles : 0,
	};
}
