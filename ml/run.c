/* ml/run.c: what the ML workloads' jobs share (see ml/run.h): the results
 * hook, the workers' setup, file open/close for the engine, errors, CPU
 * time, cache dropping and trace events.  run/wljob.c drives the jobs. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "os/outfile.h"
#include "run/collect.h"
#include "run/gpu.h"
#include "ml/gpucopy.h"
#include "ml/run.h"
#include "os/dio.h"
#include "os/cachedrop.h"
#include "run/rate.h"
#include "lib/fullio.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "parse/parse.h"

bool sb_ml_join(char *buf, size_t len, const char *a, const char *b)
{
	int n = a ? snprintf(buf, len, "%s/%s", a, b) : snprintf(buf, len, "%s", b);
	return n >= 0 && (size_t)n < len;
}

void sb_ml_default_dir(const struct sb_jobspec *s, const char *leaf, char *buf, size_t len)
{
	const char *d = s->directory;
	if (!d || !*d) {
		snprintf(buf, len, "%s", leaf);
		return;
	}
	const char *e = strchr(d, ':');
	snprintf(buf, len, "%.*s/%s", (int)(e ? (size_t)(e - d) : strlen(d)), d, leaf);
}

/* the workers' spec: both directions (buffers for either bs), no fio
 * life-cycle options, the job's rate shared out between n workers */
static void worker_spec(struct sb_wl_job *j, unsigned n)
{
	struct sb_jobspec *w = &j->wspec;
	*w = *j->spec;
	w->rw = SB_RW_READ | SB_RW_WRITE;
	w->end_fsync = false;
	w->fsync = w->fdatasync = 0;
	w->runtime_us = w->ramp_time_us = w->startdelay_us = 0;
	w->time_based = false;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (w->rate[d])
			w->rate[d] = w->rate[d] / n ? w->rate[d] / n : 1;
		if (w->rate_iops[d])
			w->rate_iops[d] = w->rate_iops[d] / n ? w->rate_iops[d] / n : 1;
	}
	for (int d = 0; j->worker_bs && d < SB_DDIR_N; d++) {
		w->bs[d] = j->worker_bs;
		w->bssplit_n[d] = 0;
		w->bs_min[d] = w->bs_max[d] = 0; /* derived again from bs */
	}
	sb_spec_derive(w); /* the derived fields of the workers' directions (rw above) */
}

int sb_ml_workers_setup(struct sb_wl_job *j, unsigned n)
{
	worker_spec(j, n ? n : 1);
	j->workers = calloc(n ? n : 1, sizeof(*j->workers));
	if (!j->workers)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct sb_thread *t = &j->workers[i];
		t->spec = &j->wspec;
		t->ops = j->ops;
		t->job = j->job;
		t->sub = i;
		t->wait_job = -1;
		j->nworkers++;
		int e = sb_thread_setup_bare(t, 1);
		if (e) {
			if (e == -ENOMEM)
				sb_err(j->spec->name, "out of memory setting up the workers");
			return e;
		}
		sb_rate_init(&t->rate, t->spec, sb_now_ns());
	}
	return 0;
}

int sb_ml_fail(struct sb_thread *t, int e, const char *what, const char *path)
{
	sb_tstats_set_error(t->st, e, what, path);
	return -e;
}

int sb_ml_engine_start(struct sb_thread *t)
{
	if (t->trace) /* write_trace: this thread records t's I/Os from now on */
		sb_trace_thread(t->trace);
	sb_gpu_bind(t); /* checkpoint_source=gpu, train_destination=gpu: this thread copies */
	int r = sb_thread_engine_start(t);
	if (r && !t->st->error) {
		/* "start ioengine=io_uring (why): Invalid argument" */
		char what[SB_ERRPATH_MAX];
		snprintf(what, sizeof(what), "ioengine=%s%s%s%s", t->ops->name,
			 t->etd.errmsg[0] ? " (" : "", t->etd.errmsg, t->etd.errmsg[0] ? ")" : "");
		sb_tstats_set_error(t->st, -r, "start", what);
	}
	return r;
}

int sb_ml_open(struct sb_thread *t, const char *path, uint64_t size, enum sb_ml_open_mode mode,
	       struct sb_file **out)
{
	struct sb_file *f = &t->files[0];
	f->path = (char *)path;
	f->size = f->region_len = size;
	f->region_start = 0;
	f->created = false;
	f->fd = -1;
	*out = f;
	if (t->trace)
		sb_trace_set_file(t->trace, f->index, path);
	bool create = mode == SB_ML_CREATE;
	if (t->ops->flags & SB_ENGINE_NODISKIO) { /* objects (s3): the engine checks what is written */
		f->created = mode != SB_ML_READ;
		int r = t->ops->open_file ? t->ops->open_file(&t->etd, f) : 0;
		f->created = false;
		if (!r)
			return 0;
		sb_ml_fail(t, -r, "the engine cannot use", path);
		snprintf(t->st->err.detail, sizeof(t->st->err.detail), "%.255s", t->etd.errmsg);
		return r;
	}
	int fl = O_CLOEXEC | (t->spec->direct ? O_DIRECT : 0);
	if (create) /* exclusive and marked at once (the caller keeps its identity) */
		f->fd = sb_outfile_create(path, fl | O_RDWR, 0644, t->spec->name, NULL);
	else if (mode == SB_ML_RDWR)
		f->fd = sb_outfile_open_data(path, fl | O_RDWR, 0);
	else
		f->fd = open(path, fl | O_RDONLY);
	if (f->fd < 0 && mode != SB_ML_READ)
		errno = -f->fd;
	if (f->fd < 0)
		return sb_ml_fail(t, errno, create ? "cannot create" : "cannot open", path);
	f->created = create;
	int r = t->ops->open_file ? t->ops->open_file(&t->etd, f) : 0;
	if (r) {
		sb_ml_fail(t, -r, "the engine cannot use", path);
		close(f->fd);
		f->fd = -1;
		return r;
	}
	return 0;
}

/* direct=1's alignment for path: 0 without O_DIRECT (or with an engine
 * that does no disk I/O) */
static uint64_t dio_align(const struct sb_thread *t, const char *path)
{
	if (!t->spec->direct || (t->ops->flags & SB_ENGINE_NODISKIO))
		return 0;
	struct sb_dio_align a;
	sb_os_dio_align(path, &a);
	return a.offset ? a.offset : 4096;
}

/* [off, off + len) of f through a descriptor without O_DIRECT, read and
 * dropped */
static int plain_read(struct sb_thread *t, struct sb_file *f, uint64_t off, uint64_t len)
{
	char *buf = malloc(len ? len : 1);
	int fd = buf ? open(f->path, O_RDONLY | O_CLOEXEC) : -1, e = 0;
	if (fd < 0) {
		e = buf ? errno : ENOMEM;
	} else {
		ssize_t r = sb_pio_full(fd, false, buf, len, (off_t)off);
		e = r < 0 ? errno : (size_t)r != len ? EIO : 0; /* EIO: the file ends before */
		close(fd);
	}
	free(buf);
	return e ? sb_ml_fail(t, e, "cannot read the last partial block of", f->path) : 0;
}

int sb_ml_write_file(struct sb_thread *t, struct sb_file *f, uint64_t bytes, bool fsync_after)
{
	uint64_t al = dio_align(t, f->path), whole = al ? (bytes + al - 1) / al * al : bytes;
	if (whole == bytes)
		return sb_ioloop_span(t, f, SB_DDIR_WRITE, 0, bytes, fsync_after);
	f->size = f->region_len = whole;
	int e = sb_ioloop_span(t, f, SB_DDIR_WRITE, 0, whole, false);
	f->size = f->region_len = bytes;
	if (e)
		return e;
	if (ftruncate(f->fd, (off_t)bytes) || (fsync_after && fsync(f->fd)))
		return sb_ml_fail(t, errno, "cannot cut to its size", f->path);
	return 0;
}

int sb_ml_read_span(struct sb_thread *t, struct sb_file *f, uint64_t size, uint64_t off, uint64_t len)
{
	uint64_t al = dio_align(t, f->path);
	if (!al || ((off | len) % al == 0 && off + len <= size / al * al))
		return sb_ioloop_span(t, f, SB_DDIR_READ, off, len, false);
	uint64_t a0 = off / al * al, a1 = (off + len + al - 1) / al * al, full = size / al * al;
	if (a1 > full)
		a1 = full > a0 ? full : a0;
	int e = a1 > a0 ? sb_ioloop_span(t, f, SB_DDIR_READ, a0, a1 - a0, false) : 0;
	if (!e && off + len > a1)
		e = plain_read(t, f, a1, off + len - a1);
	return e;
}

void sb_ml_close(struct sb_thread *t, struct sb_file *f)
{
	if (f->fd >= 0 && t->ops->close_file)
		t->ops->close_file(&t->etd, f);
	sb_files_close(f);
	f->path = NULL;
}

void sb_ml_cpu_begin(struct rusage *ru)
{
	getrusage(RUSAGE_THREAD, ru);
}

static uint64_t tv_us(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000ull + (uint64_t)tv.tv_usec;
}

void sb_ml_cpu_end(struct sb_thread *t, const struct rusage *ru0)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	t->st->usr_us += tv_us(ru.ru_utime) - tv_us(ru0->ru_utime);
	t->st->sys_us += tv_us(ru.ru_stime) - tv_us(ru0->ru_stime);
	t->st->ctx += (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw - ru0->ru_nvcsw - ru0->ru_nivcsw);
	t->st->minf += (uint64_t)(ru.ru_minflt - ru0->ru_minflt);
	t->st->majf += (uint64_t)(ru.ru_majflt - ru0->ru_majflt);
}

bool sb_ml_drop_caches(const char *job, const char *path, const char *data, char *why, size_t len)
{
	static bool warned;
	bool ok = sb_os_drop_caches(path, data, why, len);
	if (!ok && !warned) {
		warned = true;
		sb_warn(job, "the page cache was not dropped (%s): reads may be served from memory "
			"and are marked \"possibly_cached\"", why);
	}
	return ok;
}

int sb_ml_res_make(struct sb_wl_job *j, const struct sb_ml_figures *own)
{
	struct sb_ml_result *m = sb_ml_result_new(own);
	j->res = m ? &m->head : NULL;
	return m ? 0 : -ENOMEM;
}

int sb_ml_gpu_attach(struct sb_wl_job *j, unsigned k0, unsigned k1, const char *what)
{
	for (unsigned k = k0; k < k1 && k < j->nworkers; k++) {
		int e = sb_gpu_attach(&j->workers[k], what);
		if (e)
			return e;
	}
	return 0;
}

/* the workers' copies to and from GPU memory (run/gpu.c's counts) */
static void gpu_sums(const struct sb_wl_job *j, struct sb_ml_gpu_copy *g)
{
	for (unsigned k = 0; k < j->nworkers; k++) {
		const struct sb_tstats *st = j->workers[k].st;
		if (!j->workers[k].gpu || !st)
			continue;
		g->on = true;
		g->d2h_bytes += st->gpu_bytes[SB_DDIR_WRITE];
		g->h2d_bytes += st->gpu_bytes[SB_DDIR_READ];
		g->d2h_s += st->gpu_copy[SB_DDIR_WRITE].mean * (double)st->gpu_copy[SB_DDIR_WRITE].n / 1e9;
		g->h2d_s += st->gpu_copy[SB_DDIR_READ].mean * (double)st->gpu_copy[SB_DDIR_READ].n / 1e9;
	}
}

void sb_ml_job_results(struct sb_wl_job *j, struct sb_job_result *jr)
{
	if (j->ran && j->res) {
		struct sb_ml_result *m = sb_ml_res(j);
		if (m->own->gpu_off)
			gpu_sums(j, (struct sb_ml_gpu_copy *)(void *)((char *)m + m->own->gpu_off));
	}
	for (unsigned k = 0; k < j->nworkers; k++) {
		j->workers[k].start_ns = j->start_ns;
		j->workers[k].end_ns = j->end_ns;
	}
	memset(jr, 0, sizeof(*jr));
	sb_collect_job(jr, j->spec, j->job, j->workers, 0, j->nworkers);
	jr->nthreads = 1;
	if (j->ran) {
		jr->wl = j->res;
		j->res = NULL;
	}
}

/* ---- write_trace: application events ---- */

static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;

void sb_ml_trace_app(struct sb_wl_job *j, unsigned k, const char *name, const char *argname,
		     uint64_t arg, uint64_t t0, uint64_t t1)
{
	if (!j->spec->write_trace || k >= SB_WLJOB_RINGS)
		return;
	pthread_mutex_lock(&trace_mu);
	if (!j->trace[k] && sb_trace_attach(&j->trace[k], j->spec->write_trace,
					    j->spec->trace_sample, 0))
		j->trace[k] = NULL; /* reported; the run goes on without these events */
	pthread_mutex_unlock(&trace_mu);
	if (!j->trace[k])
		return;
	sb_trace_thread(j->trace[k]);
	sb_trace_app(j->trace[k], name, argname, arg, t0, t1);
}

void sb_ml_note_io(struct sb_wl_job *j)
{
	struct sb_ml_result *m = sb_ml_res(j);
	uint64_t b = 0;
	for (unsigned r = 0; r < j->nworkers; r++) {
		const struct sb_tstats *st = j->workers[r].st;
		if (!st)
			continue;
		for (int d = 0; d < SB_DDIR_N; d++) {
			uint64_t live = atomic_load_explicit(&st->live_bytes[d], memory_order_relaxed);
			b += st->io_bytes[d] > live ? st->io_bytes[d] : live;
		}
	}
	m->nodiskio = j->nodiskio;
	m->io_bytes = b;
}

unsigned sb_ml_folders(const char **dirs, unsigned max, const char *const *f, unsigned n)
{
	unsigned k = 0;
	for (; k < n && k < max; k++)
		dirs[k] = f[k];
	return k;
}
