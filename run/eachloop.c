/* eachloop.c: unlink_each_loop (see eachloop.h).  The generator pauses at
 * each loop's end (sb_iogen.each_loop); the loop in flight drains; each file
 * storbench created is closed, removed if it is still the inode storbench
 * made (os/scratch.h), created again (O_EXCL) and laid out as at the start,
 * and opened again; then the generator resumes.  Threads sharing a file
 * renew it one at a time (struct sb_flock.renew); as with fio, each thread
 * renews it at its own loop's end. */
#include <errno.h>
#include <string.h>

#include "run/eachloop.h"
#include "run/offload.h"
#include "run/files.h"
#include "run/flock.h"
#include "os/scratch.h"
#include "parse/options.h"

/* remove and re-create lf, the thread's file f being closed; 0 or -errno */
static int recreate(struct sb_layout_file *lf)
{
	int r = sb_scratch_unlink(lf->path, &lf->own);
	if (r == -ESTALE)
		return -EEXIST; /* someone else's file is there now: left alone */
	if (r && r != -ENOENT)
		return r;
	lf->exists = false;
	lf->created = false;
	lf->have = 0;
	memset(&lf->own, 0, sizeof(lf->own));
	return sb_files_lay_out(lf); /* O_EXCL: never opens a file that is not ours */
}

static int renew(struct sb_thread *t, unsigned i)
{
	struct sb_flock *fl = t->flk->fl[i];
	struct sb_file *f = &t->files[i];
	if (!fl)
		return 0;
	pthread_mutex_lock(&fl->renew); /* lf->created too: another thread may be renewing it */
	if (!fl->lf->created || !fl->lf->regular) {
		pthread_mutex_unlock(&fl->renew);
		return 0; /* not storbench's: never removed */
	}
	if (t->ops->close_file && f->fd >= 0)
		t->ops->close_file(&t->etd, f);
	sb_files_close(f);
	int r = recreate(fl->lf);
	/* opened before another thread may remove it again (ENOENT) */
	if (!r)
		r = sb_files_open(f, t->spec);
	if (!r && t->ops->open_file)
		r = t->ops->open_file(&t->etd, f);
	pthread_mutex_unlock(&fl->renew);
	return r;
}

void sb_eachloop_run(struct sb_thread *t, struct sb_loopstate *ls)
{
	const struct sb_jobspec *s = t->spec;
	struct sb_iogen *g = &t->gen;
	g->each_loop = s->unlink_each_loop && t->flk && !s->time_based && s->loops > 1 && !g->rp &&
		       !(t->ops->flags & SB_ENGINE_NODISKIO);
	for (;;) {
		if (__builtin_expect(s->io_submit_mode, 0)) /* offload: run/offload.h */
			sb_offload_run(t, ls);
		else
			sb_ioloop_run(t, ls);
		if (!g->loop_paused || ls->stop || t->st->error || sb_stopping())
			return;
		for (unsigned i = 0; i < t->etd.nfiles; i++) {
			int r = renew(t, i);
			if (r == -EINTR && sb_stopping()) {
				ls->stop = true; /* a signal during the re-layout: not the job's error */
				return;
			}
			if (r) {
				sb_tstats_set_error(t->st, -r, SB_OPT(unlink_each_loop)->name,
						    t->files[i].path);
				ls->stop = true;
				return;
			}
		}
		g->loop_resume = true;
	}
}
