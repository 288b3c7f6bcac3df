/* ml/train/trainckpt.c: the model checkpoint written during training, as DLIO's
 * checkpointing does for a non-transformer model (model.model_size > 0):
 * rank 0 saves {"a": tensor of model_size bytes} to
 * <checkpoint_folder>/global_epoch<E>_step<S>/model_states-0.pt, fsync'ed
 * when checkpoint_fsync.  By epochs (steps_between_checkpoints=0) after
 * epoch checkpoint_after_epoch and every epochs_between_checkpoints after
 * it, with S = the epoch's steps + 1 (DLIO's overall_step after its loop);
 * by steps during every epoch from checkpoint_after_epoch on, at each
 * multiple of steps_between_checkpoints.  The file is written whole with
 * the job's engine and bs by a worker of its own; its duration (create to
 * close) and bytes go to the train results.  Only files and folders this
 * job created are removed at the end, and not with keep_checkpoints=1. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/outfile.h"
#include "ml/content.h"
#include "ml/model.h"
#include "ml/train/trainst.h"
#include "run/rate.h"
#include "lib/datagen.h"
#include "lib/log.h"
#include "lib/timeutil.h"

static struct sb_ml_made *remember(struct sb_ml_trainst *tr, const char *path, bool dir)
{
	struct sb_ml_made *m = realloc(tr->made, (tr->nmade + 1) * sizeof(*m));
	if (!m)
		return NULL;
	tr->made = m;
	m = &m[tr->nmade++];
	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->dir = dir;
	return m;
}

/* mkdir path unless it exists; what storbench made is remembered */
static int make_dir(struct sb_wl_job *j, const char *path)
{
	struct sb_ml_trainst *tr = j->priv;
	struct sb_scratch_id id;
	int e = sb_outfile_mkdir(path, 0755, j->spec->name, &id);
	if (e == 0) {
		struct sb_ml_made *m = remember(tr, path, true);
		if (m)
			m->id = id;
		return 0;
	}
	return e == -EEXIST ? 0 : e;
}

static int add_result(struct sb_wl_job *j, const struct sb_ml_train_ckpt *c)
{
	struct sb_ml_train_result *t = &sb_train_res(j)->train;
	struct sb_ml_train_ckpt *v = realloc(t->ckpts, (t->nckpts + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->ckpts = v;
	v[t->nckpts++] = *c;
	return 0;
}

int sb_ml_train_ckpt(struct sb_wl_job *j, unsigned epoch, uint64_t step)
{
	struct sb_ml_trainst *tr = j->priv;
	struct sb_thread *t = &j->workers[tr->ckpt_worker];
	uint64_t bytes = sb_train_opts(j->spec)->model_size;
	char name[64], dir[SB_ML_TRAIN_PATH], path[SB_ML_TRAIN_PATH];
	struct sb_ml_train_ckpt res = { .epoch = epoch, .step = step, .bytes = bytes };
	struct sb_file *f;
	struct rusage ru;
	if (!bytes || j->nodiskio || tr->ckpt_worker >= j->nworkers)
		return 0;
	sb_ml_ckpt_folder(epoch, (unsigned)step, name, sizeof(name));
	sb_ml_join(dir, sizeof(dir), tr->ckpt_dir, name);
	sb_ml_join(path, sizeof(path), dir, "model_states-0.pt");
	sb_ml_join(res.path, sizeof(res.path), NULL, path);
	int e = make_dir(j, tr->ckpt_dir);
	if (!e)
		e = make_dir(j, dir);
	if (e)
		return sb_ml_fail(t, -e, "cannot create the checkpoint folder", dir);
	sb_ml_cpu_begin(&ru);
	if ((e = sb_ml_engine_start(t)))
		return e;
	uint64_t t0 = sb_now_ns();
	sb_rate_init(&t->rate, t->spec, t0);
	e = sb_ml_open(t, path, bytes, SB_ML_CREATE, &f);
	if (!e) {
		struct sb_ml_made *m = f->created ? remember(tr, path, false) : NULL;
		if (m && f->fd >= 0)
			sb_scratch_made_fd(f->fd, j->spec->name, &m->id);
		sb_ml_content_file(t, sb_dg_mix(j->spec->randseed ^ 0x74636b70ull, (epoch << 20) ^ step),
				   bytes, path);
		e = sb_ml_write_file(t, f, bytes, j->spec->checkpoint_fsync);
		sb_ml_close(t, f);
	}
	res.duration_s = (double)(sb_now_ns() - t0) / 1e9;
	sb_thread_engine_stop(t);
	sb_ml_cpu_end(t, &ru);
	if (!e)
		e = add_result(j, &res);
	return e;
}

void sb_ml_train_ckpt_cleanup(struct sb_wl_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	for (unsigned i = tr->nmade; i-- > 0;) {
		const struct sb_ml_made *m = &tr->made[i];
		if (j->spec->keep_checkpoints)
			sb_scratch_keep(m->path, &m->id);
		else if (m->dir)
			sb_scratch_rmdir(m->path, &m->id);
		else
			sb_scratch_unlink(m->path, &m->id);
	}
	free(tr->made);
	tr->made = NULL;
	tr->nmade = 0;
}
