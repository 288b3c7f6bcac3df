/* toy.c: the toy workload's row and run hooks (see toy.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stop.h"
#include "lib/timeutil.h"
#include "ml/run.h"
#include "ml/toy/toy.h"
#include "os/scratch.h"
#include "parse/workloads.h"
#include "run/collect.h"
#include "run/rate.h"

struct toy {
	const struct sb_toy_opts *o;
	struct sb_scratch_id *made; /* one per file: what it created */
};

static void toy_path(const struct sb_wl_job *j, unsigned i, char *buf, size_t len)
{
	char leaf[64];
	snprintf(leaf, sizeof(leaf), "toy.%zu.%u", j->job, i);
	sb_ml_default_dir(j->spec, leaf, buf, len);
}

static int prepare_toy(struct sb_wl_job *j)
{
	struct toy *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	j->priv = t;
	t->o = sb_spec_wl_opts(j->spec);
	t->made = calloc(t->o->files, sizeof(*t->made));
	if (!t->made || !(j->res = sb_toy_result_new()))
		return -ENOMEM;
	sb_toy_result_label(j->res, t->o->label);
	return sb_ml_workers_setup(j, 1);
}

/* bytes of each file a round writes: all of it the first time, then its
 * first toy_ratio (in 4 KiB steps) */
static uint64_t round_len(const struct toy *t, bool first)
{
	return first ? t->o->size : (uint64_t)((double)t->o->size * t->o->ratio) / 4096 * 4096;
}

/* one round: every file written (created the first time) */
static int round_toy(struct sb_wl_job *j, struct toy *t, bool first)
{
	struct sb_thread *w = &j->workers[0];
	char path[PATH_MAX];
	uint64_t len = round_len(t, first);
	int e = 0;
	if (!len)
		return 0;
	for (unsigned i = 0; !e && i < t->o->files && !sb_stopping(); i++) {
		struct sb_file *f;
		toy_path(j, i, path, sizeof(path));
		e = sb_ml_open(w, path, t->o->size, first ? SB_ML_CREATE : SB_ML_RDWR, &f);
		if (!e && f->created && f->fd >= 0)
			sb_scratch_made_fd(f->fd, j->spec->name, &t->made[i]);
		if (!e)
			e = sb_ml_write_file(w, f, len, false);
		sb_ml_close(w, f);
	}
	return e;
}

static void run_toy(struct sb_wl_job *j)
{
	struct toy *t = j->priv;
	struct sb_thread *w = &j->workers[0];
	j->start_ns = sb_now_ns();
	if (sb_ml_engine_start(w) == 0) {
		for (unsigned r = 0; r < t->o->rounds; r++) {
			if (r && t->o->pause_us && !sb_sleep_until(sb_now_ns() + t->o->pause_us * 1000))
				break;
			if (sb_stopping() || sb_wl_expired(j) || round_toy(j, t, r == 0))
				break;
			sb_toy_result_count(j->res, t->o->files, (uint64_t)t->o->files * round_len(t, r == 0));
		}
		sb_thread_engine_stop(w);
	}
	j->end_ns = sb_now_ns();
}

static void results_toy(struct sb_wl_job *j, struct sb_job_result *jr)
{
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

static void release_toy(struct sb_wl_job *j)
{
	struct toy *t = j->priv;
	char path[PATH_MAX];
	if (!t)
		return;
	for (unsigned i = 0; t->made && i < t->o->files; i++) {
		if (!t->made[i].ino)
			continue;
		toy_path(j, i, path, sizeof(path));
		if (t->o->keep)
			sb_scratch_keep(path, &t->made[i]);
		else
			sb_scratch_unlink(path, &t->made[i]);
	}
	free(t->made);
	free(t);
	j->priv = NULL;
}

const struct sb_workload_ops sb_workload_toy = {
	.name = "toy",
	.help = "a toy: writes a few files a few times",
	.rows = sb_toy_rows,
	.nrows = &sb_toy_rows_n,
	.opts_size = sizeof(struct sb_toy_opts),
	.check = sb_toy_check,
	.prepare = prepare_toy,
	.run = run_toy,
	.results = results_toy,
	.release = release_toy,
	.conformance = &sb_toy_conformance,
};
