/* kvcache.c: workload=kvcache, LLM inference with its KV cache offloaded
 * to a memory tier and a disk tier (see ml/kvcache/kvmodel.h for the cache model).
 * concurrency worker threads take requests in order under one lock, which
 * also decides each request's plan (which blocks are hit where, what is
 * read and written), then do its I/O outside the lock with the job's
 * engine: the disk-tier blocks it reuses are read (the storage part of its
 * time to first token), prefill_time_per_token is slept for the tokens not
 * found, decode_time_per_token per generated token, then its new blocks and
 * the memory blocks it evicted are written.  With arrival_rate requests
 * arrive as a Poisson stream and wait for a free worker (latency counts
 * from arrival); without it the workers run a closed loop.  The disk tier
 * is one file, <directory>/kvcache/kvtier.<job index>, a block per slot,
 * kv_disk_capacity rounded down to whole blocks (sparse until written);
 * it is created, marked and removed at the end (keep_kvcache=1 keeps it)
 * like every file storbench makes. */
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "os/outfile.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/mlperf.h"
#include "ml/kvcache/models.h"
#include "ml/kvcache/opts.h"
#include "ml/kvcache/tracejob.h"
#include "ml/run.h"
#include "run/rate.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/scratch.h"
#include "parse/options.h"
#include "stats/hist.h"

static void acc_add(struct sb_kv_acc *a, uint64_t ns)
{
	sb_hist_add(&a->h, ns);
	a->min = a->n && a->min < ns ? a->min : ns;
	a->max = a->max > ns ? a->max : ns;
	a->sum += (double)ns;
	a->n++;
}

static bool more(struct sb_wl_job *j, struct sb_kv_job *k)
{
	const struct sb_jobspec *s = j->spec;
	if (sb_stopping() || k->failed)
		return false;
	if ((k->opts->kv_requests && k->m.next_index >= k->opts->kv_requests) || sb_kv_trace_done(&k->m))
		return false;
	return sb_now_ns() < sb_kv_end_ns(k, s);
}

static int blocks_io(struct sb_thread *t, struct sb_file *f, int ddir, const uint64_t *slot,
		     uint64_t n, uint64_t bb)
{
	int e = 0;
	for (uint64_t i = 0; i < n && !e; i++)
		e = sb_ioloop_span(t, f, ddir, slot[i] * bb, bb, false);
	return e;
}

/* one request, planned in r: I/O and emulated compute; 0 when it ran, 1
 * when runtime= ended before it arrived (not served), or -errno */
static int serve(struct sb_wl_job *j, struct sb_kv_job *k, unsigned w, struct sb_file *f,
		 const struct sb_kv_req *r)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_kv_opts *o = k->opts;
	struct sb_thread *t = &j->workers[w];
	struct sb_kv_worker *kw = &k->w[w];
	uint64_t arrive = sb_now_ns();
	if (sb_kv_open_loop(&k->m)) {
		arrive = sb_kv_at_ns(k->start_ns, r->arrival_s);
		int e = sb_kv_wait_arrival(k, s, arrive);
		if (e)
			return e;
	}
	uint64_t t0 = sb_now_ns();
	int e = blocks_io(t, f, SB_DDIR_READ, r->rd, r->nrd, k->block_bytes);
	uint64_t t1 = sb_now_ns();
	if (!e && r->computed_tokens && o->prefill_time_per_token_us &&
	    !sb_sleep_until(t1 + r->computed_tokens * o->prefill_time_per_token_us * 1000))
		return -EINTR;
	uint64_t t2 = sb_now_ns();
	if (!e && o->decode_time_per_token_us &&
	    !sb_sleep_until(t2 + (uint64_t)r->output * o->decode_time_per_token_us * 1000))
		return -EINTR;
	if (!e)
		e = blocks_io(t, f, SB_DDIR_WRITE, r->wr, r->nwr, k->block_bytes);
	if (e)
		return e;
	uint64_t t3 = sb_now_ns();
	acc_add(&kw->storage_ttft, t1 - t0);
	acc_add(&kw->ttft, t2 - arrive);
	acc_add(&kw->latency, t3 - arrive);
	return 0;
}

static void *worker_main(void *arg)
{
	struct sb_kv_worker *kw = arg;
	struct sb_wl_job *j = kw->j;
	struct sb_kv_job *k = j->priv;
	struct sb_thread *t = &j->workers[kw->index];
	struct sb_file *f = NULL;
	struct rusage ru;
	sb_ml_cpu_begin(&ru);
	int e = sb_ml_engine_start(t);
	/* no disk tier (kv_disk_capacity under one block): no file at all; the
	 * model then plans no disk reads or writes, so f is never used */
	if (!e && k->path[0])
		e = sb_ml_open(t, k->path, k->tier_bytes, SB_ML_RDWR, &f);
	while (!e) {
		pthread_mutex_lock(&k->lock);
		bool go = more(j, k);
		if (go) {
			kw->x0 = *sb_kv_extra_stats(&k->m);
			e = sb_kv_next(&k->m, &kw->req);
			kw->x1 = *sb_kv_extra_stats(&k->m);
		}
		pthread_mutex_unlock(&k->lock);
		if (!go || e)
			break;
		e = serve(j, k, kw->index, f, &kw->req);
		/* a request counts once it ran; 1: runtime= ended before it
		 * arrived, -EINTR: stopped; either way it did not run */
		pthread_mutex_lock(&k->lock);
		if (!e)
			sb_kv_count(&k->tot, &kw->req);
		else if (e == 1 || e == -EINTR)
			sb_kv_extra_undo(&k->m, &kw->x0, &kw->x1);
		pthread_mutex_unlock(&k->lock);
		if (e)
			break;
	}
	if (e == 1)
		e = 0;
	if (e && e != -EINTR) {
		if (!t->st->error)
			sb_ml_fail(t, -e, "KV cache request failed on", k->path);
		k->failed = true;
	}
	if (f && f->path)
		sb_ml_close(t, f);
	sb_thread_engine_stop(t);
	sb_ml_cpu_end(t, &ru);
	return NULL;
}

/* the folder and the tier file, made here and marked */
static int make_tier(struct sb_wl_job *j, struct sb_kv_job *k)
{
	if (!k->path[0] || j->nodiskio)
		return 0;
	int fd = sb_outfile_mkdir(k->folder, 0755, j->spec->name, &k->folder_id);
	if (fd && fd != -EEXIST)
		return sb_ml_fail(&j->workers[0], -fd, "cannot create the folder", k->folder);
	fd = sb_outfile_create(k->path, O_RDWR, 0644, j->spec->name, &k->file_id);
	if (fd < 0)
		return sb_ml_fail(&j->workers[0], -fd, "cannot create", k->path);
	/* sparse at its full size: with concurrency > 1 a request may read a
	 * slot whose write another worker has not done yet (stale, not EOF) */
	int e = ftruncate(fd, (off_t)k->tier_bytes) ? errno : 0;
	close(fd);
	return e ? sb_ml_fail(&j->workers[0], e, "cannot size", k->path) : 0;
}

/* kv_profile=mlperf: the folder of the .npy files, made here and marked */
static int make_folder(struct sb_wl_job *j, struct sb_kv_job *k)
{
	if (sb_wl_nofiles(j)) /* null, or objects (s3): no folder */
		return 0;
	int e = sb_outfile_mkdir(k->folder, 0755, j->spec->name, &k->folder_id);
	if (e && e != -EEXIST)
		return sb_ml_fail(&j->workers[0], -e, "cannot create the folder", k->folder);
	return 0;
}

static int start_kv(struct sb_wl_job *j, struct sb_kv_job *k)
{
	int e;
	if (!k->ml)
		e = make_tier(j, k);
	else if (!(e = make_folder(j, k)) && (e = sb_kv_ml_begin(j, k)) != 0)
		sb_ml_fail(&j->workers[0], -e, "cannot pre-populate the KV cache in", k->folder);
	k->start_ns = j->start_ns = sb_now_ns();
	return e;
}

static void run_kv(struct sb_wl_job *j)
{
	struct sb_kv_job *k = j->priv;
	void *(*fn)(void *) = k->ml ? sb_kv_ml_worker : worker_main;
	if (!start_kv(j, k)) {
		for (unsigned w = 0; w < j->nworkers; w++) {
			k->w[w].j = j;
			k->w[w].index = w;
			if (pthread_create(&k->w[w].tid, NULL, fn, &k->w[w])) {
				sb_ml_fail(&j->workers[w], EAGAIN, "cannot start the worker thread for", j->spec->name);
				k->w[w].started = false;
				k->failed = true;
				break;
			}
			k->w[w].started = true;
		}
		for (unsigned w = 0; w < j->nworkers; w++)
			if (k->w[w].started)
				pthread_join(k->w[w].tid, NULL);
	}
	j->end_ns = sb_now_ns();
	for (unsigned w = 0; w < j->nworkers; w++) {
		struct sb_tstats *st = j->workers[w].st;
		st->runtime_ns[SB_DDIR_READ] = st->runtime_ns[SB_DDIR_WRITE] = j->end_ns - j->start_ns;
		st->job_runtime_ns = j->end_ns - j->start_ns;
	}
	sb_kv_results(j);
}

/* the folder's parent exists and is writable, the tier file does not exist
 * yet, and the disk tier fits in the free space */
static int check_tier(struct sb_wl_job *j, struct sb_kv_job *k)
{
	const struct sb_jobspec *s = j->spec;
	char where[SB_WHERE_MAX], parent[PATH_MAX];
	struct stat st;
	struct statvfs vfs;
	if (s->line && s->file)
		snprintf(where, sizeof(where), "%s:%u: job %s", s->file, s->line, s->name);
	else
		snprintf(where, sizeof(where), "<cmdline>: job %s", s->name);
	if (k->ml && sb_kv_ml_files_check(k->folder, where))
		return -EEXIST;
	if (stat(k->path, &st) == 0) {
		char said[1200]; /* a killed run's leftover names storbench --cleanup */
		enum sb_scratch_whose w = sb_scratch_whose(k->path, k->folder, said, sizeof(said));
		sb_err(where, "%s %s; refusing to overwrite it%s", k->path, w == SB_WHOSE_NONE ?
		       "already exists and storbench did not create it for this run" : said,
		       w == SB_WHOSE_NONE || w == SB_WHOSE_KEPT ? ": remove it yourself, or set "
		       "directory= elsewhere" : "");
		return -EEXIST;
	}
	snprintf(parent, sizeof(parent), "%s", k->folder);
	if (stat(parent, &st) != 0) {
		char *sl = strrchr(parent, '/');
		if (sl)
			*(sl == parent ? sl + 1 : sl) = '\0';
		else
			snprintf(parent, sizeof(parent), ".");
	}
	if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode) || access(parent, W_OK) != 0) {
		sb_err(where, "the KV disk tier goes in %s, but %s is not a writable directory: set "
		       "directory= to one%s%s%s", k->folder, parent, k->ml ? "" : ", or ",
		       k->ml ? "" : SB_KV_OPT(kv_disk_capacity)->name, k->ml ? "" : "=0 for no disk tier");
		return -ENOENT;
	}
	if (statvfs(parent, &vfs) == 0 && k->tier_bytes > (uint64_t)vfs.f_bavail * vfs.f_frsize) {
		sb_err(where, "%s=%" PRIu64 " does not fit in the %" PRIu64 " bytes free in %s: lower %s=",
		       SB_KV_OPT(kv_disk_capacity)->name, k->opts->kv_disk_capacity,
		       (uint64_t)vfs.f_bavail * vfs.f_frsize, parent, SB_KV_OPT(kv_disk_capacity)->name);
		return -ENOSPC;
	}
	return 0;
}

/* the free bytes where the folder goes (its parent when it does not exist) */
static uint64_t free_space(const char *folder)
{
	char parent[PATH_MAX];
	struct statvfs vfs;
	snprintf(parent, sizeof(parent), "%s", folder);
	if (statvfs(parent, &vfs) != 0) {
		char *sl = strrchr(parent, '/');
		if (sl)
			*(sl == parent ? sl + 1 : sl) = '\0';
		else
			snprintf(parent, sizeof(parent), ".");
		if (statvfs(parent, &vfs) != 0)
			return 0;
	}
	return (uint64_t)vfs.f_bavail * vfs.f_frsize;
}

static int prepare_kv(struct sb_wl_job *j)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_kv_opts *o = sb_kv_opts(s);
	if (sb_ml_res_make(j, &sb_kv_figures))
		return -ENOMEM;
	struct sb_kv_job *k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	j->priv = k;
	k->opts = o;
	pthread_mutex_init(&k->lock, NULL);
	k->lock_init = true;
	k->bytes_per_token = sb_kv_spec_bytes_per_token(s); /* MLA: ml/kvcache/models.h */
	k->block_bytes = k->bytes_per_token * o->kv_block_tokens;
	struct sb_kv_cfg cfg = {
		.block_tokens = o->kv_block_tokens, .mem_blocks = o->kv_memory_capacity / k->block_bytes,
		.disk_blocks = o->kv_disk_capacity / k->block_bytes, .reuse = o->prefix_reuse,
		.arrival_rate = o->arrival_rate, .prompt_mean = o->prompt_tokens,
		.prompt_sd = o->prompt_tokens_stdev, .prompt_min = o->prompt_tokens_min,
		.prompt_max = o->prompt_tokens_max, .output_mean = o->output_tokens,
		.output_sd = o->output_tokens_stdev, .output_min = o->output_tokens_min,
		.output_max = o->output_tokens_max, .seed = s->randseed,
	};
	k->tier_bytes = cfg.disk_blocks * k->block_bytes;
	sb_ml_default_dir(s, "kvcache", k->folder, sizeof(k->folder));
	if (cfg.disk_blocks) {
		char leaf[64];
		snprintf(leaf, sizeof(leaf), "kvtier.%zu", j->job);
		sb_ml_join(k->path, sizeof(k->path), k->folder, leaf);
	}
	k->nw = o->kv_concurrency ? o->kv_concurrency : 1;
	if (o->kv_profile == SB_KV_PROFILE_MLPERF) {
		k->path[0] = '\0';
		k->tier_bytes = o->kv_disk_capacity ? o->kv_disk_capacity : free_space(k->folder) / 20 * 19;
		k->nw = sb_kv_users(s) < 500 ? sb_kv_users(s) : 500; /* threads for the users */
	}
	int e = sb_kv_trace_setup(s, &cfg); /* kv_trace=, kv_request_log= */
	if (e)
		return e;
	e = sb_kv_model_init(&k->m, &cfg);
	k->w = calloc(k->nw, sizeof(*k->w));
	if (e || !k->w || (o->kv_profile == SB_KV_PROFILE_MLPERF && sb_kv_ml_prepare(j, k))) {
		sb_err(s->name, "out of memory setting up the KV cache");
		return -ENOMEM;
	}
	if (k->path[0] && !k->ml && j->objects) {
		sb_err(s->name, "workload=kvcache on ioengine=%s: its disk tier is one file read and written in "
		       "place, which objects cannot be: use kv_profile=mlperf (an object per entry), or a file "
		       "engine (psync, libaio, io_uring)", s->ioengine);
		return -EINVAL;
	}
	if (j->objects && (!j->ops->object_put || !j->ops->object_get || !j->ops->object_delete)) {
		sb_err(s->name, "workload=kvcache on ioengine=%s: this engine names its objects per block "
		       "(fio's http engine): use ioengine=s3", s->ioengine);
		return -EINVAL;
	}
	if ((k->path[0] || k->ml) && !sb_wl_nofiles(j) && (e = check_tier(j, k)))
		return e;
	/* the workers' requests are blocks, at most bs each */
	return sb_ml_workers_setup(j, k->nw);
}

static void release_kv(struct sb_wl_job *j)
{
	struct sb_kv_job *k = j->priv;
	if (!k)
		return;
	bool keep = k->opts->keep_kvcache;
	sb_kv_ml_release(k);
	if (k->file_id.ino) {
		if (keep)
			sb_scratch_keep(k->path, &k->file_id);
		else
			sb_scratch_unlink(k->path, &k->file_id);
	}
	if (k->folder_id.ino) {
		if (keep)
			sb_scratch_keep(k->folder, &k->folder_id);
		else /* fails, as it should, if someone put a file there */
			sb_scratch_rmdir(k->folder, &k->folder_id);
	}
	for (unsigned w = 0; k->w && w < k->nw; w++)
		sb_kv_req_free(&k->w[w].req);
	free(k->w);
	sb_kv_model_free(&k->m);
	if (k->lock_init)
		pthread_mutex_destroy(&k->lock);
	free(k);
	j->priv = NULL;
}

/* the folders the system inventory describes (run/workload.h) */
static unsigned folders_kv(const struct sb_jobspec *s, const char **dirs, unsigned max)
{
	const char *const f[] = { s->directory };
	return sb_ml_folders(dirs, max, f, sizeof(f) / sizeof(f[0]));
}

const struct sb_workload_ops sb_workload_kvcache = {
	.name = "kvcache",
	.help = "LLM inference with its KV cache offloaded to memory and disk tiers",
	.category = SB_CAT_KV,
	.also = (const char *const[]){ "rules", "model", "layers", "kv_heads", NULL },
	.rows = sb_kv_rows,
	.nrows = &sb_kv_rows_n,
	.opts_size = sizeof(struct sb_kv_opts),
	.check = sb_ml_check_kv,
	.folders = folders_kv,
	.prepare = prepare_kv,
	.run = run_kv,
	.results = sb_ml_job_results,
	.release = release_kv,
	.conformance = &sb_kv_conformance,
};
