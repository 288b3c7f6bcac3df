/* ml/checkpoint/checkpoint.c: workload=checkpoint.  Every emulated rank (a thread; under MPI
 * each process runs its contiguous block of the ranks, ml/mpimerge.c) writes its files of the DLIO layout (sb_ml_ckpt_files) whole and
 * in order with the job's engine, fsyncs each when checkpoint_fsync, for
 * num_checkpoints_write checkpoints; then the page cache is dropped and
 * num_checkpoints_read checkpoints are read back, exactly the bytes
 * written.  As DLIO, time_between_checkpoints is slept before every write
 * and every read.  Requests: bs each (checkpoint_io=bs), or the write()
 * calls torch.save makes (checkpoint_io=torch, ml/checkpoint/torchsave.h: zip framing
 * plus one request per tensor), reads in the same sizes.  A checkpoint's
 * duration is rank 0's own (DLIO's default), or with checkpoint_rank_sync
 * that of the slowest rank (last end - first start).  Every checkpoint
 * starts on all MPI processes together (a barrier that is also a vote, so
 * all leave the loop at the same checkpoint).  Only files and folders storbench
 * created are ever removed, and only at the end (keep_checkpoints=1 keeps
 * them). */
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

#include "ml/checkpoint/ckpt.h"
#include "run/engtable.h"
#include "ml/checkpoint/opts.h"
#include "ml/content.h"
#include "ml/model.h"
#include "ml/checkpoint/rules.h"
#include "ml/run.h"
#include "ml/checkpoint/torchsave.h"
#include "dist/dist.h"
#include "run/rate.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/scratch.h"
#include "parse/options.h"

static void fsync_total(struct sb_wl_job *j)
{
	double s = 0;
	for (unsigned r = 0; r < j->nworkers; r++)
		s += j->workers[r].st->sync_lat.mean * (double)j->workers[r].st->sync_lat.n / 1e9;
	sb_ckpt_res(j)->ckpt.fsync_s = s;
}

/* DLIO sleeps time_between_checkpoints before every write and read; false
 * when the run is being stopped or runtime= has passed (the pause ends there) */
static bool pause_before(const struct sb_wl_job *j, const struct sb_ckpt_opts *o)
{
	uint64_t end = sb_now_ns() + o->time_between_checkpoints_us * 1000;
	if (j->deadline_ns && j->deadline_ns < end)
		end = j->deadline_ns;
	return (!o->time_between_checkpoints_us || sb_sleep_until(end)) && !sb_wl_expired(j);
}

static void read_phase(struct sb_wl_job *j, struct sb_ml_rank_arg *args, uint64_t bytes)
{
	struct sb_ml_ckpt *c = j->priv;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(j->spec);
	struct sb_ml_ckpt_result *cr = &sb_ckpt_res(j)->ckpt;
	bool stop = !args || cr->write.n != o->num_checkpoints_write;
	sb_dist_sync_vote(&stop); /* MPI: every process wrote them all */
	if (!o->num_checkpoints_read || stop)
		return;
	if (sb_wl_nofiles(j)) {
		/* no local file was written, so nothing was dropped: say what was done */
		cr->caches_dropped = false;
		snprintf(cr->caches_reason, sizeof(cr->caches_reason), "%s=%s: %s, no cache dropped",
			 SB_OPT(ioengine)->name, j->spec->ioengine,
			 j->objects ? "objects, no local page cache" : "no storage I/O");
	} else if (j->spec->drop_caches) {
		cr->caches_dropped = sb_ml_drop_caches(j->spec->name, sb_run_drop_path(j->env),
						       ((struct sb_ml_ckpt *)j->priv)->folder,
						       cr->caches_reason, sizeof(cr->caches_reason));
		cr->possibly_cached = !cr->caches_dropped;
	} else {
		cr->possibly_cached = true;
		snprintf(cr->caches_reason, sizeof(cr->caches_reason), "%s=0",
			 SB_OPT(drop_caches)->name);
	}
	for (unsigned k = 0; k < o->num_checkpoints_read; k++) {
		stop = !pause_before(j, o) || stop || sb_stopping();
		if (sb_dist_sync_vote(&stop), stop) /* all start together, or all stop */
			break;
		c->on_cache = sb_ml_tier_read_from(j, k);
		uint64_t slowest, ns = sb_ml_ckpt_phase(j, k, SB_DDIR_READ, args, &slowest);
		if (!(stop = !ns)) {
			sb_ml_ckpt_point(j, &cr->read, k, ns, slowest, bytes);
			sb_ml_tier_read_done(j, &cr->read.v[cr->read.n - 1]);
		}
		c->on_cache = false;
	}
}

static void run_ckpt(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	const struct sb_jobspec *s = j->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	struct sb_ml_ckpt_result *cr = &sb_ckpt_res(j)->ckpt;
	struct sb_ml_rank_arg *args = calloc(c->nloc ? c->nloc : 1, sizeof(*args));
	uint64_t bytes = cr->bytes_model + cr->bytes_optimizer, wsum = 0;
	bool mpi = sb_dist_size() > 1; /* the step folder may be another process's */
	j->start_ns = sb_now_ns();
	if (args && c->tier) { /* one process (refused under MPI in prepare) */
		wsum = sb_ml_tier_write(j, args, bytes);
	} else {
		bool stop = !args || !sb_ml_ckpt_mkdir(j, c->folder, &c->folder_id, true);
		for (unsigned k = 0; k < o->num_checkpoints_write; k++) {
			char dir[PATH_MAX];
			stop = !pause_before(j, o) || stop || sb_stopping();
			if (sb_dist_sync_vote(&stop), stop) /* all start together, or all stop */
				break;
			sb_ml_ckpt_step_dir(c, k, dir, sizeof(dir));
			uint64_t slowest = 0;
			uint64_t ns = sb_ml_ckpt_mkdir(j, dir, &c->dir_id[k], mpi)
					      ? sb_ml_ckpt_phase(j, k, SB_DDIR_WRITE, args, &slowest) : 0;
			if ((stop = !ns))
				continue;
			sb_ml_ckpt_point(j, &cr->write, k, ns, slowest, bytes);
			wsum += ns;
		}
	}
	read_phase(j, args, bytes);
	free(args);
	j->end_ns = sb_now_ns();
	uint64_t rsum = 0;
	for (unsigned k = 0; k < cr->read.n; k++)
		rsum += (uint64_t)(cr->read.v[k].duration_s * 1e9);
	for (unsigned r = 0; r < j->nworkers; r++) {
		struct sb_tstats *st = j->workers[r].st;
		st->runtime_ns[SB_DDIR_WRITE] = wsum;
		st->runtime_ns[SB_DDIR_READ] = rsum;
		st->job_runtime_ns = j->end_ns - j->start_ns;
	}
	fsync_total(j);
	sb_ml_note_io(j);
	if (s->rules == SB_RULES_MLPERF)
		sb_ml_ckpt_rules(s, sb_ckpt_res(j));
}

static void dir_name(const char *path, char *buf, size_t len)
{
	const char *sl = strrchr(path, '/');
	if (!sl)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", sl == path ? 1 : (int)(sl - path), path);
}

/* a read-only run (num_checkpoints_write=0): the checkpoints it reads must
 * be there, each file at least as large as this job's layout makes it */
static int check_readonly(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	const struct sb_jobspec *s = j->spec;
	char path[PATH_MAX];
	struct stat st;
	for (unsigned k = 0; k < sb_ckpt_opts(s)->num_checkpoints_read; k++) {
		for (size_t i = 0; i < c->nfiles; i++) {
			sb_ml_ckpt_path(c, k, i, path, sizeof(path));
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
			    (uint64_t)st.st_size >= c->files[i].bytes)
				continue;
			char where[SB_WHERE_MAX];
			if (s->line && s->file)
				snprintf(where, sizeof(where), "%s:%u: job %s", s->file, s->line, s->name);
			else
				snprintf(where, sizeof(where), "<cmdline>: job %s", s->name);
			sb_err(where, "num_checkpoints_write=0 reads checkpoints an earlier run left, but "
			       "%s %s (this job's layout needs %" PRIu64 " bytes): write them first with "
			       "the same model, ranks and checkpoint_scale and keep_checkpoints=1",
			       path, stat(path, &st) ? "does not exist" : "is too small", c->files[i].bytes);
			return -ENOENT;
		}
	}
	return 0;
}

/* a step folder is there already: whose it is (a killed run's leftover
 * names storbench --cleanup) and the fix */
static int exists(const char *name, const char *dir, const char *folder)
{
	char said[1200];
	enum sb_scratch_whose w = sb_scratch_whose(dir, folder, said, sizeof(said));
	if (w == SB_WHOSE_NONE)
		snprintf(said, sizeof(said), "already exists and storbench did not create it");
	sb_err(name, "%s %s; refusing to overwrite it%s", dir, said,
	       w == SB_WHOSE_NONE || w == SB_WHOSE_KEPT ? ": set checkpoint_folder= to a new "
	       "directory, or remove it yourself" : "");
	return -EEXIST;
}

/* nothing storbench would write may exist already; enough free space */
static int check_folder(struct sb_wl_job *j, uint64_t bytes)
{
	struct sb_ml_ckpt *c = j->priv;
	const char *name = j->spec->name;
	unsigned nwrite = sb_ckpt_opts(j->spec)->num_checkpoints_write;
	char dir[PATH_MAX], parent[PATH_MAX];
	struct stat st;
	struct statvfs vfs;
	if (stat(c->folder, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			sb_err(name, "checkpoint_folder=%s is not a directory: set checkpoint_folder= to a "
			       "directory", c->folder);
			return -ENOTDIR;
		}
		for (unsigned k = 0; k < nwrite; k++) {
			sb_ml_ckpt_step_dir(c, k, dir, sizeof(dir));
			if (stat(dir, &st) == 0)
				return exists(name, dir, c->folder);
		}
		snprintf(parent, sizeof(parent), "%s", c->folder);
	} else {
		dir_name(c->folder, parent, sizeof(parent));
		if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
			sb_err(name, "checkpoint_folder=%s: its parent %s does not exist: create it, or "
			       "set checkpoint_folder= (or directory=) elsewhere", c->folder, parent);
			return -ENOENT;
		}
	}
	bool have_vfs = statvfs(parent, &vfs) == 0;
	bool ro = have_vfs && (vfs.f_flag & ST_RDONLY);
	if (ro || access(parent, W_OK) != 0) {
		char where[SB_WHERE_MAX];
		int e = ro ? EROFS : errno;
		if (j->spec->line && j->spec->file)
			snprintf(where, sizeof(where), "%s:%u: job %s", j->spec->file, j->spec->line, name);
		else
			snprintf(where, sizeof(where), "<cmdline>: job %s", name);
		sb_err(where, "checkpoint_folder=%s: cannot write in %s: %s: set checkpoint_folder= "
		       "(or directory=) to a writable directory", c->folder, parent, strerror(e));
		return -e;
	}
	uint64_t need;
	if (__builtin_mul_overflow(bytes, nwrite, &need))
		need = UINT64_MAX; /* more than any file system holds */
	if (have_vfs && need > (uint64_t)vfs.f_bavail * vfs.f_frsize) {
		sb_err(name, "not enough free space in %s for %u checkpoints of %" PRIu64 " bytes "
		       "(%" PRIu64 " available): lower checkpoint_scale= or num_checkpoints_write=",
		       parent, nwrite, bytes,
		       (uint64_t)vfs.f_bavail * vfs.f_frsize);
		return -ENOSPC;
	}
	return 0;
}

/* checkpoint_io=torch: each file's requests (ml/checkpoint/torchsave.h); the workers'
 * buffers hold the largest request */
static int torch_plans(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	return sb_torch_plan_files(&c->shape, c->files, c->nfiles, sb_torch_bufsize(c->folder),
				   &c->plan, &j->worker_bs);
}

static int plan_files(struct sb_wl_job *j)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	struct sb_ml_ckpt *c = j->priv;
	c->shape = s->shape; /* as the parser resolved it; CLOSED's ranks: the job's world */
	c->shape.closed_ranks = sb_ml_world(&c->shape);
	c->ranks = o->ranks;
	int e = sb_ml_ckpt_files(&c->shape, 1, 1, 1.0 / o->checkpoint_scale, o->ranks, o->subset,
				 &c->files, &c->nfiles);
	if (e)
		return e;
	c->rank_first = calloc(c->ranks + 1, sizeof(*c->rank_first));
	c->dir_id = calloc(o->num_checkpoints_write ? o->num_checkpoints_write : 1, sizeof(*c->dir_id));
	c->created = calloc((size_t)(o->num_checkpoints_write ? o->num_checkpoints_write : 1) *
			    (c->nfiles ? c->nfiles : 1),
			    sizeof(*c->created));
	sb_ml_ckpt_local(c->ranks, &c->r0, &c->nloc); /* MPI: this process's block */
	c->t_start = calloc(c->nloc + 1, sizeof(uint64_t));
	c->t_end = calloc(c->nloc + 1, sizeof(uint64_t));
	c->at = calloc(c->nloc + 1, sizeof(*c->at));
	if (!c->at || !c->rank_first || !c->dir_id || !c->created || !c->t_start || !c->t_end)
		return -ENOMEM;
	struct sb_ml_ckpt_result *cr = &sb_ckpt_res(j)->ckpt;
	size_t i = 0;
	for (unsigned r = 0; r <= c->ranks; r++) {
		while (i < c->nfiles && c->files[i].rank < r)
			i++;
		c->rank_first[r] = i;
	}
	for (i = 0; i < c->nfiles; i++) {
		if (c->files[i].kind == SB_ML_FILE_MODEL)
			cr->bytes_model += c->files[i].bytes;
		else
			cr->bytes_optimizer += c->files[i].bytes;
	}
	if (o->checkpoint_io == SB_CKPT_IO_TORCH && (e = torch_plans(j)))
		return e;
	cr->files = (unsigned)c->nfiles;
	cr->ranks = c->ranks;
	cr->rank_sync = o->checkpoint_rank_sync;
	cr->torch_io = c->plan != NULL;
	for (i = 0; c->plan && i < c->nfiles; i++)
		cr->bytes_framing += c->plan[i].framing;
	cr->write.v = calloc(o->num_checkpoints_write ? o->num_checkpoints_write : 1, sizeof(*cr->write.v));
	cr->read.v = calloc(o->num_checkpoints_read ? o->num_checkpoints_read : 1, sizeof(*cr->read.v));
	cr->write.ranks = calloc((o->num_checkpoints_write + 1) * (size_t)c->nloc, sizeof(*cr->write.ranks));
	cr->read.ranks = calloc((o->num_checkpoints_read + 1) * (size_t)c->nloc, sizeof(*cr->read.ranks));
	return cr->write.v && cr->read.v && cr->write.ranks && cr->read.ranks ? 0 : -ENOMEM;
}

static int prepare_ckpt(struct sb_wl_job *j)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	if (sb_ml_res_make(j, &sb_ckpt_figures))
		return -ENOMEM;
	struct sb_ml_ckpt *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	j->priv = c;
	if (s->checkpoint_folder)
		snprintf(c->folder, sizeof(c->folder), "%s", s->checkpoint_folder);
	else
		sb_ml_default_dir(s, "checkpoints", c->folder, sizeof(c->folder));
	sb_ml_join(sb_ckpt_res(j)->ckpt.folder, sizeof(sb_ckpt_res(j)->ckpt.folder), NULL, c->folder);
	int e = plan_files(j);
	if (e == -ENOMEM)
		sb_err(s->name, "out of memory planning the checkpoint files");
	if (!e && !j->objects && !strncmp(c->folder, "s3://", 5)) {
		sb_err(s->name, "checkpoint_folder=%s is on S3: set ioengine=s3 (HOWTO 4, \"Object storage\")",
		       c->folder);
		e = -EINVAL;
	}
	if (!e && !sb_wl_nofiles(j))
		e = o->num_checkpoints_write ? check_folder(j, sb_ckpt_res(j)->ckpt.bytes_model + sb_ckpt_res(j)->ckpt.bytes_optimizer)
					     : check_readonly(j);
	if (!e)
		e = sb_ml_ckpt_enough(s, c->ranks);
	if (!e && o->checkpoint_cache_folder)
		e = sb_ml_tier_prepare(j);
	if (!e)
		e = sb_ml_workers_setup(j, c->nloc);
	for (unsigned l = 0; !e && l < c->nloc; l++) {
		unsigned r = c->r0 + l;
		c->at[l] = (struct ckpt_at){ .j = j, .rank = r };
		e = sb_ml_content_setup(&j->workers[l], r, SB_ML_CKPT_UNIT, true, o->checkpoint_verify, sb_ml_ckpt_alt, &c->at[l]);
		if (e)
			sb_err(s->name, "out of memory setting up the checkpoint contents");
	}
	if (!e && o->checkpoint_source == SB_ML_MEM_GPU)
		e = sb_ml_gpu_attach(j, 0, c->nloc, "checkpoint_source=gpu");
	return e;
}

static void release_ckpt(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	char path[PATH_MAX];
	if (!c)
		return;
	bool keep = j->spec->keep_checkpoints;
	unsigned nwrite = sb_ckpt_opts(j->spec)->num_checkpoints_write;
	/* objects (s3): this run's checkpoint objects removed, unless kept */
	for (size_t x = 0; j->objects && !keep && j->ops->object_delete && x < (size_t)nwrite * c->nfiles; x++) {
		char err[256];
		sb_ml_ckpt_path(c, (unsigned)(x / c->nfiles), x % c->nfiles, path, sizeof(path));
		(void)j->ops->object_delete(sb_spec_engine_opts(j->spec), &sb_run_engine_fs, NULL, path, err,
					    sizeof(err));
	}
	/* keep_checkpoints=1: what stays is marked kept on purpose, not a leftover */
	for (size_t x = 0; c->created && x < (size_t)nwrite * c->nfiles; x++) {
		if (!c->created[x].ino)
			continue;
		sb_ml_ckpt_path(c, (unsigned)(x / c->nfiles), x % c->nfiles, path, sizeof(path));
		if (keep)
			sb_scratch_keep(path, &c->created[x]);
		else
			sb_scratch_unlink(path, &c->created[x]);
	}
	if (j->ran && sb_dist_size() > 1) /* MPI: a folder goes when every process's files have */
		(void)sb_dist_barrier();
	for (unsigned k = 0; c->created && k < nwrite; k++) {
		if (c->dir_id && c->dir_id[k].ino) {
			sb_ml_ckpt_step_dir(c, k, path, sizeof(path));
			if (keep)
				sb_scratch_keep(path, &c->dir_id[k]);
			else /* fails, as it should, if someone put a file there */
				sb_scratch_rmdir(path, &c->dir_id[k]);
		}
	}
	if (c->folder_id.ino) {
		if (keep)
			sb_scratch_keep(c->folder, &c->folder_id);
		else
			sb_scratch_rmdir(c->folder, &c->folder_id);
	}
	sb_ml_tier_release(j);
	for (size_t i = 0; c->plan && i < c->nfiles; i++)
		sb_torch_plan_free(&c->plan[i]);
	free(c->plan);
	free(c->files);
	free(c->rank_first);
	free(c->dir_id);
	free(c->created);
	free(c->t_start);
	free(c->t_end);
	free(c->at);
	free(c);
	j->priv = NULL;
}

/* the folders the system inventory describes (run/workload.h) */
static unsigned folders_ckpt(const struct sb_jobspec *s, const char **dirs, unsigned max)
{
	const char *const f[] = { s->directory, s->checkpoint_folder,
				  sb_ckpt_opts(s)->checkpoint_cache_folder };
	return sb_ml_folders(dirs, max, f, sizeof(f) / sizeof(f[0]));
}

const struct sb_workload_ops sb_workload_checkpoint = {
	.name = "checkpoint",
	.help = "LLM checkpoint save and restore (DLIO / MLPerf Storage)",
	.category = SB_CAT_CKPT,
	.also = (const char *const[]){ "rules", NULL },
	.rows = sb_ckpt_rows,
	.nrows = &sb_ckpt_rows_n,
	.opts_size = sizeof(struct sb_ckpt_opts),
	.check = sb_ml_check_ckpt,
	.folders = folders_ckpt,
	.writes = sb_ml_ckpt_writes,
	.gpu_mem = sb_ml_ckpt_gpu_mem,
	.prepare = prepare_ckpt,
	.run = run_ckpt,
	.results = sb_ml_job_results,
	.release = release_ckpt,
	.ranks_merge = sb_ckpt_ranks_merge,
	.conformance = &sb_ckpt_conformance,
};
