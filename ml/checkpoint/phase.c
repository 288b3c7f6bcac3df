/* phase.c: the rank phases of workload=checkpoint (ckpt.h), shared by its
 * plain mode (checkpoint.c) and its tiered mode (tiered.c): each rank's
 * files of a checkpoint written or read on its own thread, the phase's
 * points, the checkpoint folders and paths. */
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
#include "ml/checkpoint/ckpt.h"
#include "ml/checkpoint/opts.h"
#include "ml/checkpoint/tier.h"
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

/* the stream key of file i of checkpoint k (rank: its writer);
 * checkpoint_content=dlio: the same in every checkpoint, as DLIO saves the
 * tensors it made once at start */
static uint64_t file_key(const struct sb_jobspec *s, unsigned rank, unsigned k, size_t i)
{
	uint64_t x = sb_dg_mix(s->randseed ^ 0x636b7074ull /* "ckpt" */, rank);
	if (sb_ckpt_opts(s)->checkpoint_content == SB_CKPT_CONTENT_DLIO)
		k = 0;
	return sb_dg_mix(sb_dg_mix(x, k), i);
}

/* checkpoint_content=dlio: torch.rand's values in DLIO's datatypes (its
 * model_datatype fp16 for model states, optimizer_datatype fp32) */
static enum sb_dg_values file_values(const struct sb_jobspec *s, const struct sb_ml_file *f)
{
	if (sb_ckpt_opts(s)->checkpoint_content != SB_CKPT_CONTENT_DLIO)
		return SB_DG_BYTES;
	return f->kind == SB_ML_FILE_MODEL ? SB_DG_F16_U01 : SB_DG_F32_U01;
}

/* alternatives of a failing block: this file in older checkpoints (stale),
 * then the other files of this checkpoint (misplaced) */
bool sb_ml_ckpt_alt(void *ctx, unsigned n, struct sb_ml_alt *out)
{
	struct ckpt_at *at = ctx;
	struct sb_ml_ckpt *c = at->j->priv;
	unsigned older = sb_ckpt_opts(at->j->spec)->checkpoint_content == SB_CKPT_CONTENT_DLIO ? 0 : at->k;
	if (n < older) { /* dlio: older checkpoints hold the same bytes */
		unsigned k = at->k - 1 - n;
		*out = (struct sb_ml_alt){ .key = file_key(at->j->spec, at->rank, k, at->i),
					   .size = c->files[at->i].bytes, .stale = true };
		snprintf(out->what, sizeof(out->what), "checkpoint %u of this file", k + 1);
		return true;
	}
	size_t m = n - older;
	if (m >= at->i)
		m++; /* skip the file itself */
	if (m >= c->nfiles)
		return false;
	*out = (struct sb_ml_alt){ .key = file_key(at->j->spec, c->files[m].rank, at->k, m),
				   .size = c->files[m].bytes };
	snprintf(out->what, sizeof(out->what), "rank %u's file #%zu", c->files[m].rank, m);
	return true;
}

void sb_ml_ckpt_step_dir(const struct sb_ml_ckpt *c, unsigned k, char *buf, size_t len)
{
	char name[64];
	sb_ml_ckpt_folder(1, k + 1, name, sizeof(name));
	sb_ml_join(buf, len, c->folder, name);
}

/* file i of checkpoint k: <folder>/global_epoch1_step<k+1>/<base name> */
void sb_ml_ckpt_path(const struct sb_ml_ckpt *c, unsigned k, size_t i, char *buf, size_t len)
{
	char dir[PATH_MAX];
	const char *base = strchr(c->files[i].name, '/');
	sb_ml_ckpt_step_dir(c, k, dir, sizeof(dir));
	sb_ml_join(buf, len, dir, base ? base + 1 : c->files[i].name);
}

/* a file in torch.save's requests: one span per request */
static int torch_io(struct sb_thread *t, struct sb_file *f, int ddir, const struct sb_torch_plan *p,
		    bool fsync_after)
{
	uint64_t off = 0;
	int e = 0;
	for (size_t r = 0; r < p->n && !e; r++) {
		e = sb_ioloop_span_bs(t, f, ddir, off, p->req[r], p->req[r], fsync_after && r + 1 == p->n);
		off += p->req[r];
	}
	return e;
}

/* One rank's share of one checkpoint: write (create, fill, fsync) or read
 * back each of its files, whole. */
static int ckpt_rank_io(struct sb_wl_job *j, unsigned rank, unsigned k, int ddir)
{
	struct sb_ml_ckpt *c = j->priv;
	unsigned l = rank - c->r0; /* its worker */
	struct sb_thread *t = &j->workers[l];
	char path[PATH_MAX];
	int e = 0;
	c->t_start[l] = sb_now_ns();
	sb_rate_init(&t->rate, t->spec, c->t_start[l]);
	for (size_t i = c->rank_first[rank]; i < c->rank_first[rank + 1] && !e; i++) {
		struct sb_file *f;
		bool wr = ddir == SB_DDIR_WRITE;
		if (c->on_cache)
			sb_ml_tier_path(c, k, i, path, sizeof(path));
		else
			sb_ml_ckpt_path(c, k, i, path, sizeof(path));
		uint64_t bytes = c->files[i].bytes;
		e = sb_ml_open(t, path, bytes, wr ? SB_ML_CREATE : SB_ML_READ, &f);
		if (e)
			break;
		if (wr && f->created && f->fd >= 0) {
			sb_scratch_made_fd(f->fd, j->spec->name, c->on_cache ? sb_ml_tier_made(c, k, i)
							: &c->created[(size_t)k * c->nfiles + i]);
		}
		c->at[l] = (struct ckpt_at){ .j = j, .rank = rank, .k = k, .i = i };
		sb_ml_content_values(t, file_values(j->spec, &c->files[i]));
		sb_ml_content_file(t, file_key(j->spec, rank, k, i), c->files[i].bytes, path);
		if (c->plan)
			e = torch_io(t, f, ddir, &c->plan[i], wr && j->spec->checkpoint_fsync);
		else if (wr)
			e = sb_ml_write_file(t, f, bytes, j->spec->checkpoint_fsync);
		else
			e = sb_ml_read_span(t, f, bytes, 0, bytes);
		sb_ml_close(t, f);
	}
	c->t_end[l] = sb_now_ns();
	if (t->trace) /* this rank's share of checkpoint k (stats/trace.h) */
		sb_trace_app(t->trace, ddir == SB_DDIR_WRITE ? "checkpoint_write" : "checkpoint_read",
			     "checkpoint", k, c->t_start[l], c->t_end[l]);
	return e;
}

static void *rank_main(void *arg)
{
	struct sb_ml_rank_arg *a = arg;
	struct sb_ml_ckpt *c = a->j->priv;
	struct sb_thread *t = &a->j->workers[a->rank - c->r0];
	struct rusage ru;
	if (t->trace) /* the ranks are threads of one pid: their events say which */
		sb_trace_rank(t->trace, (int)a->rank);
	sb_ml_cpu_begin(&ru);
	if (!sb_ml_engine_start(t))
		ckpt_rank_io(a->j, a->rank, a->ckpt, a->ddir);
	else
		c->t_start[a->rank - c->r0] = c->t_end[a->rank - c->r0] = sb_now_ns();
	sb_thread_engine_stop(t);
	sb_ml_cpu_end(t, &ru);
	return NULL;
}

/* this process's ranks on checkpoint k; returns the duration in ns (0 on
 * failure), *slowest the first start to last end over its ranks, c->wall
 * those two on the wall clock (for the merge across MPI processes) */
uint64_t sb_ml_ckpt_phase(struct sb_wl_job *j, unsigned k, int ddir, struct sb_ml_rank_arg *args,
			  uint64_t *slowest)
{
	struct sb_ml_ckpt *c = j->priv;
	uint64_t first = UINT64_MAX, last = 0;
	bool failed = false;
	for (unsigned l = 0; l < c->nloc; l++) {
		args[l] = (struct sb_ml_rank_arg){ .j = j, .rank = c->r0 + l, .ckpt = k, .ddir = ddir };
		if (pthread_create(&args[l].tid, NULL, rank_main, &args[l])) {
			sb_ml_fail(&j->workers[l], EAGAIN, "cannot start the rank thread for", c->folder);
			args[l].tid = 0;
			failed = true;
		}
	}
	for (unsigned l = 0; l < c->nloc; l++) {
		if (!args[l].tid)
			continue;
		pthread_join(args[l].tid, NULL);
		first = c->t_start[l] < first ? c->t_start[l] : first;
		last = c->t_end[l] > last ? c->t_end[l] : last;
		failed |= j->workers[l].st->error != 0;
	}
	*slowest = last > first ? last - first : 0;
	sb_ml_ckpt_wall(first, last, c->wall);
	if (!sb_ckpt_opts(j->spec)->checkpoint_rank_sync) { /* DLIO: rank 0's own start to end */
		first = c->t_start[0];
		last = c->t_end[0];
	}
	return failed || last <= first ? 0 : last - first;
}

void sb_ml_ckpt_point(struct sb_wl_job *j, struct sb_ml_ckpt_phase *ph, unsigned k, uint64_t ns,
		      uint64_t slowest, uint64_t bytes)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_ckpt_point *p = &ph->v[ph->n++];
	p->index = k;
	struct sb_ml_ckpt_rank *pr = ph->ranks + (size_t)(ph->n - 1) * c->nloc;
	uint64_t first = UINT64_MAX;
	for (unsigned l = 0; l < c->nloc; l++)
		first = c->t_start[l] < first ? c->t_start[l] : first;
	for (unsigned l = 0; l < c->nloc; l++) { /* this process's ranks, their global numbers */
		unsigned r = c->r0 + l;
		pr[l] = (struct sb_ml_ckpt_rank){ r, (double)(c->t_start[l] - first) / 1e9,
			(double)(c->t_end[l] - first) / 1e9, (double)(c->t_end[l] - c->t_start[l]) / 1e9, 0 };
		for (size_t i = c->rank_first[r]; i < c->rank_first[r + 1]; i++)
			pr[l].bytes += c->files[i].bytes;
	}
	p->per_rank = pr;
	p->nranks = c->nloc;
	p->first_wall_ns = c->wall[0];
	p->last_wall_ns = c->wall[1];
	p->rank0_s = c->r0 ? 0 : (double)(c->t_end[0] - c->t_start[0]) / 1e9; /* MPI: merged */
	p->slowest_s = (double)slowest / 1e9;
	p->duration_s = (double)ns / 1e9;
	p->gbps = (double)bytes / p->duration_s / 1e9;
	p->gibps = (double)bytes / p->duration_s / 1073741824.0;
	ph->mean_duration_s += (p->duration_s - ph->mean_duration_s) / ph->n;
	ph->mean_gbps += (p->gbps - ph->mean_gbps) / ph->n;
	ph->mean_gibps += (p->gibps - ph->mean_gibps) / ph->n;
}

/* may_exist: the checkpoint folder itself (checked in prepare); a step
 * folder that appeared since is someone else's: refuse it */
bool sb_ml_ckpt_mkdir(struct sb_wl_job *j, const char *dir, struct sb_scratch_id *made,
		      bool may_exist)
{
	if (sb_wl_nofiles(j) || made->ino)
		return true;
	int e = sb_outfile_mkdir(dir, 0755, j->spec->name, made);
	if (e == 0 || (e == -EEXIST && may_exist))
		return true;
	return sb_ml_fail(&j->workers[0], -e, "cannot create the folder", dir) == 0;
}

struct sb_scratch_id *sb_ml_tier_made(struct sb_ml_ckpt *c, unsigned k, size_t i)
{
	return &c->tier->file_id[(size_t)k * c->nfiles + i];
}
