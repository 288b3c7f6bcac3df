/* flock.c: lockfile=exclusive|readwrite and the shared per-file state of
 * unlink_each_loop (see flock.h). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/flock.h"
#include "run/thread.h"
#include "lib/log.h"

static struct sb_thread *thread_of(struct sb_engine_td *td)
{
	return (struct sb_thread *)(void *)((char *)td - offsetof(struct sb_thread, etd));
}

/* fio's lock_file: readwrite takes a read lock for reads, a write lock for
 * the rest (writes, trims, syncs); exclusive a write lock for everything */
static enum sb_q_status locked_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct sb_flock_thread *k = thread_of(td)->flk;
	struct sb_flock *fl = io->file && io->file->index < k->nfiles ? k->fl[io->file->index] : NULL;
	if (!fl)
		return k->real->queue(td, io);
	if (k->mode == SB_LOCK_READWRITE && io->ddir == SB_DDIR_READ)
		pthread_rwlock_rdlock(&fl->rw);
	else
		pthread_rwlock_wrlock(&fl->rw);
	enum sb_q_status q = k->real->queue(td, io);
	pthread_rwlock_unlock(&fl->rw);
	return q;
}

static int init_one(struct sb_flock *fl, struct sb_layout_file *lf)
{
	pthread_rwlockattr_t a;
	if (pthread_rwlockattr_init(&a))
		return -ENOMEM;
	/* a steady stream of reads must not starve a readwrite job's writes */
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	int e = pthread_rwlock_init(&fl->rw, &a);
	pthread_rwlockattr_destroy(&a);
	if (e)
		return -e;
	if ((e = pthread_mutex_init(&fl->renew, NULL)) != 0) {
		pthread_rwlock_destroy(&fl->rw);
		return -e;
	}
	fl->lf = lf;
	return 0;
}

static int setup_thread(struct sb_thread *t, struct sb_layout *lay, struct sb_flock *all,
			bool *up)
{
	const struct sb_jobfiles *jf = &lay->jobs[t->job];
	struct sb_flock_thread *k = calloc(1, sizeof(*k));
	if (!k || !(k->fl = calloc(jf->nfiles ? jf->nfiles : 1, sizeof(*k->fl)))) {
		free(k);
		return -ENOMEM;
	}
	k->nfiles = jf->nfiles;
	k->mode = t->spec->lockfile;
	k->real = t->ops;
	t->flk = k;
	for (unsigned i = 0; i < jf->nfiles; i++) {
		size_t x = jf->lf[(size_t)t->sub * jf->nfiles + i];
		if (x == SIZE_MAX || x >= lay->n)
			continue;
		if (!up[x]) {
			int e = init_one(&all[x], &lay->files[x]);
			if (e)
				return e;
			up[x] = true;
		}
		k->fl[i] = &all[x];
	}
	if (k->mode != SB_LOCK_NONE) {
		k->ops = *t->ops;
		k->ops.queue = locked_queue;
		t->ops = &k->ops;
	}
	return 0;
}

int sb_flock_setup(struct sb_thread *threads, unsigned nthreads, struct sb_layout *lay)
{
	bool any = false;
	for (unsigned i = 0; i < nthreads && !any; i++)
		any = threads[i].spec->lockfile || threads[i].spec->unlink_each_loop;
	if (!any || !lay->n)
		return 0;
	bool *up = calloc(lay->n, sizeof(*up));
	lay->flocks = calloc(lay->n, sizeof(*lay->flocks));
	lay->flocks_up = up;
	if (!up || !lay->flocks) {
		sb_err("run", "out of memory setting up the shared files' locks");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nthreads; i++) {
		struct sb_thread *t = &threads[i];
		if (!t->spec->lockfile && !t->spec->unlink_each_loop)
			continue;
		int e = setup_thread(t, lay, lay->flocks, up);
		if (e) {
			sb_err(t->spec->name, "cannot set up the locks of its files: %s", strerror(-e));
			return e;
		}
	}
	return 0;
}

void sb_flock_free(struct sb_thread *threads, unsigned nthreads, struct sb_layout *lay)
{
	for (unsigned i = 0; threads && i < nthreads; i++) {
		struct sb_thread *t = &threads[i];
		if (!t->flk)
			continue;
		t->ops = t->flk->real;
		free(t->flk->fl);
		free(t->flk);
		t->flk = NULL;
	}
	for (size_t x = 0; lay->flocks && lay->flocks_up && x < lay->n; x++) {
		if (!lay->flocks_up[x])
			continue;
		pthread_rwlock_destroy(&lay->flocks[x].rw);
		pthread_mutex_destroy(&lay->flocks[x].renew);
	}
	free(lay->flocks);
	free(lay->flocks_up);
	lay->flocks = NULL;
	lay->flocks_up = NULL;
}
