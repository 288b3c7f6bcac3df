/* tiered.c: tiered (burst-buffer) checkpoints, workload=checkpoint with
 * checkpoint_cache_folder=.  Each checkpoint: the emulated
 * compute (time_between_checkpoints), then the ranks write it to the cache
 * tier with the job's engine (ml/checkpoint/checkpoint.c's rank phase on the cache
 * paths), then its redundancy (ml/checkpoint/tierred.c), then the flush to
 * checkpoint_folder: flush_threads threads copy it with flush_bs-sized
 * pread/pwrite requests (an fsync per file with checkpoint_fsync), either
 * before the application goes on (sync), on a flusher thread while the next
 * compute runs (async: checkpoints queue in order, so a flush that finds
 * the previous one still running has fallen behind), or never (none).  A
 * checkpoint leaves the cache once flushed (none: at once) and cache_keep
 * newer ones are there.  The flush is not counted in the job's I/O
 * statistics: it is reported on its own (struct sb_ml_tier_result). */
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/outfile.h"
#include "ml/checkpoint/opts.h"
#include "ml/checkpoint/tier.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "run/rate.h"
#include "parse/options.h"

#define NEW(p, n) ((p) = calloc((size_t)(n) + 1, sizeof(*(p))))

void sb_ml_tier_fail(struct sb_ml_tier *t, int e, const char *what, const char *path)
{
	pthread_mutex_lock(&t->mu);
	if (!t->err) {
		t->err = e;
		snprintf(t->err_what, sizeof(t->err_what), "%s", what);
		snprintf(t->err_path, sizeof(t->err_path), "%s", path);
	}
	pthread_mutex_unlock(&t->mu);
}

/* ---- the flush of one checkpoint ---- */

struct flush_arg {
	struct sb_wl_job *j;
	unsigned k;
	pthread_t tid;
};

static void *flush_main(void *arg)
{
	struct flush_arg *a = arg;
	struct sb_ml_ckpt *c = a->j->priv;
	struct sb_ml_tier *t = c->tier;
	uint64_t bs = sb_ckpt_opts(a->j->spec)->flush_bs, all = t->req_first[c->nfiles];
	unsigned char *buf = malloc(bs);
	size_t f = 0;
	if (!buf)
		sb_ml_tier_fail(t, ENOMEM, "out of memory flushing", t->cache);
	for (uint64_t q; buf && (q = atomic_fetch_add(&t->req_next, 1)) < all && !t->err;) {
		while (t->req_first[f + 1] <= q) /* requests are taken in order */
			f++;
		uint64_t off = (q - t->req_first[f]) * bs, left = c->files[f].bytes - off;
		size_t n = left < bs ? (size_t)left : bs, done = 0;
		while (done < n) {
			ssize_t r = pread(t->src[f], buf + done, n - done, (off_t)(off + done));
			if (r <= 0) {
				sb_ml_tier_fail(t, r < 0 ? errno : EIO, "cannot read the cache tier's", t->cache);
				break;
			}
			done += (size_t)r;
		}
		for (size_t w = 0; done == n && w < n;) {
			ssize_t r = pwrite(t->dst[f], buf + w, n - w, (off_t)(off + w));
			if (r <= 0) {
				sb_ml_tier_fail(t, r < 0 ? errno : EIO, "cannot write the flush to", c->folder);
				break;
			}
			w += (size_t)r;
		}
	}
	free(buf);
	return NULL;
}

/* open every file of checkpoint k in both tiers (the shared one created) */
static int flush_open(struct sb_wl_job *j, unsigned k)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	char path[PATH_MAX];
	sb_ml_ckpt_step_dir(c, k, path, sizeof(path));
	int e = sb_ml_tier_mkdir(j, path, &c->dir_id[k], false);
	if (e)
		return sb_ml_tier_fail(t, -e, "cannot create the folder", path), e;
	for (size_t i = 0; i < c->nfiles; i++) {
		sb_ml_tier_path(c, k, i, path, sizeof(path));
		if ((t->src[i] = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return e = -errno, sb_ml_tier_fail(t, -e, "cannot open", path), e;
		sb_ml_ckpt_path(c, k, i, path, sizeof(path));
		t->dst[i] = sb_outfile_create(path, O_WRONLY, 0644, j->spec->name,
					      &c->created[(size_t)k * c->nfiles + i]);
		if (t->dst[i] < 0)
			return e = t->dst[i], t->dst[i] = -1, sb_ml_tier_fail(t, -e, "cannot create", path), e;
	}
	return 0;
}

static void flush_ckpt(struct sb_wl_job *j, unsigned k)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	unsigned n = sb_ckpt_opts(j->spec)->flush_threads;
	struct flush_arg *a = calloc(n, sizeof(*a));
	t->f0[k] = sb_now_ns();
	for (size_t i = 0; i < c->nfiles; i++)
		t->src[i] = t->dst[i] = -1;
	atomic_store(&t->req_next, 0);
	if (!a)
		sb_ml_tier_fail(t, ENOMEM, "out of memory flushing", t->cache);
	else if (!flush_open(j, k)) {
		for (unsigned i = 0; i < n; i++) {
			a[i] = (struct flush_arg){ .j = j, .k = k };
			if (pthread_create(&a[i].tid, NULL, flush_main, &a[i])) {
				a[i].tid = 0;
				sb_ml_tier_fail(t, EAGAIN, "cannot start a flush thread for", t->cache);
			}
		}
		for (unsigned i = 0; i < n; i++)
			if (a[i].tid)
				pthread_join(a[i].tid, NULL);
	}
	for (size_t i = 0; i < c->nfiles; i++) {
		if (t->dst[i] >= 0 && j->spec->checkpoint_fsync && !t->err && fsync(t->dst[i]))
			sb_ml_tier_fail(t, errno, "cannot fsync the flush to", c->folder);
		if (t->src[i] >= 0)
			close(t->src[i]);
		if (t->dst[i] >= 0)
			close(t->dst[i]);
	}
	free(a);
	t->f1[k] = sb_now_ns();
}

/* remove from the cache what is flushed (none: written) and older than
 * the last cache_keep checkpoints: chosen under t->mu (not held by the
 * caller), removed outside it so the application's hand-over never waits
 * for the unlinks */
static void evict_old(struct sb_wl_job *j)
{
	struct sb_ml_tier *t = ((struct sb_ml_ckpt *)j->priv)->tier;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(j->spec);
	bool none = o->checkpoint_flush == SB_CKPT_FLUSH_NONE;
	for (;;) {
		unsigned k, found = 0;
		pthread_mutex_lock(&t->mu);
		for (k = 0; k + o->cache_keep < t->written; k++) {
			if (t->in_cache[k] && (none || t->flushed[k])) {
				t->in_cache[k] = false; /* taken: nobody else removes it */
				found = 1;
				break;
			}
		}
		pthread_mutex_unlock(&t->mu);
		if (!found)
			return;
		sb_ml_tier_evict(j, k, false);
	}
}

/* async: flush the checkpoints handed over, in order */
static void *flusher_main(void *arg)
{
	struct sb_wl_job *j = arg;
	struct sb_ml_tier *t = ((struct sb_ml_ckpt *)j->priv)->tier;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (t->next >= t->queued && !t->quit)
			pthread_cond_wait(&t->cv, &t->mu);
		if (t->next >= t->queued)
			break;
		unsigned k = t->next;
		pthread_mutex_unlock(&t->mu);
		if (!t->err)
			flush_ckpt(j, k);
		pthread_mutex_lock(&t->mu);
		t->flushed[k] = !t->err;
		t->next++;
		pthread_mutex_unlock(&t->mu);
		evict_old(j); /* after the flush: a flush starts when its checkpoint is ready */
		pthread_mutex_lock(&t->mu);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* ---- the write loop ---- */

/* the length of [a0, a1] inside the compute intervals */
static uint64_t overlap(const struct sb_ml_tier *t, unsigned n, uint64_t a0, uint64_t a1)
{
	uint64_t sum = 0;
	for (unsigned k = 0; k < n; k++) {
		uint64_t lo = a0 > t->c0[k] ? a0 : t->c0[k], hi = a1 < t->c1[k] ? a1 : t->c1[k];
		sum += hi > lo ? hi - lo : 0;
	}
	return sum;
}

static double rel_s(const struct sb_wl_job *j, uint64_t ns)
{
	return ns > j->start_ns ? (double)(ns - j->start_ns) / 1e9 : 0;
}

/* the flush figures of the points, once every flush has ended */
static void finish_points(struct sb_wl_job *j, unsigned ncompute, uint64_t bytes)
{
	struct sb_ml_tier *t = ((struct sb_ml_ckpt *)j->priv)->tier;
	struct sb_ml_tier_result *tr = &sb_ckpt_res(j)->ckpt.tier;
	for (unsigned k = 0; k < tr->n; k++) {
		struct sb_ml_tier_point *p = &tr->v[k];
		if (!t->f1[k] || !t->flushed[k])
			continue;
		p->flush_start_at_s = rel_s(j, t->f0[k]);
		p->flush_end_at_s = rel_s(j, t->f1[k]);
		p->flush_s = (double)(t->f1[k] - t->f0[k]) / 1e9;
		p->flush_gbps = p->flush_s > 0 ? (double)bytes / p->flush_s / 1e9 : 0;
		p->flush_gibps = p->flush_s > 0 ? (double)bytes / p->flush_s / 1073741824.0 : 0;
		p->overlap_s = (double)overlap(t, ncompute, t->f0[k], t->f1[k]) / 1e9;
		p->overlap_pct = p->flush_s > 0 ? 100.0 * p->overlap_s / p->flush_s : 0;
		if (k && t->f1[k - 1] > t->ready[k]) {
			p->behind = true;
			p->behind_s = (double)(t->f1[k - 1] - t->ready[k]) / 1e9;
			tr->behind_count++;
			tr->max_behind_s = p->behind_s > tr->max_behind_s ? p->behind_s : tr->max_behind_s;
		}
		tr->shared_bytes += bytes;
		tr->mean_flush_s += (p->flush_s - tr->mean_flush_s) / (k + 1);
		tr->mean_flush_gbps += (p->flush_gbps - tr->mean_flush_gbps) / (k + 1);
		tr->mean_flush_gibps += (p->flush_gibps - tr->mean_flush_gibps) / (k + 1);
	}
}

/* hand checkpoint k, now in the cache, to the flush */
static void hand_over(struct sb_wl_job *j, unsigned k)
{
	struct sb_ml_tier *t = ((struct sb_ml_ckpt *)j->priv)->tier;
	unsigned mode = sb_ckpt_opts(j->spec)->checkpoint_flush;
	pthread_mutex_lock(&t->mu);
	t->written = k + 1;
	t->in_cache[k] = true;
	if (mode == SB_CKPT_FLUSH_ASYNC) {
		t->queued = k + 1;
		pthread_cond_signal(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	if (mode == SB_CKPT_FLUSH_SYNC) {
		flush_ckpt(j, k);
		pthread_mutex_lock(&t->mu);
		t->flushed[k] = !t->err;
		pthread_mutex_unlock(&t->mu);
	}
	if (mode != SB_CKPT_FLUSH_ASYNC)
		evict_old(j);
}

/* one checkpoint: cache folders, the ranks' write, redundancy, hand-over */
static bool one_ckpt(struct sb_wl_job *j, struct sb_ml_rank_arg *args, unsigned k, uint64_t bytes,
		     uint64_t *wsum)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	struct sb_ml_tier_result *tr = &sb_ckpt_res(j)->ckpt.tier;
	uint64_t t0 = sb_now_ns(), w1 = t0, slowest = 0, ns = 0;
	if (!sb_ml_tier_dirs(j, k)) { /* the write: its folders, the ranks' threads to join */
		c->on_cache = true;
		ns = sb_ml_ckpt_phase(j, k, SB_DDIR_WRITE, args, &slowest);
		w1 = sb_now_ns();
		c->on_cache = false;
	}
	if (!ns)
		return false;
	sb_ml_ckpt_point(j, &sb_ckpt_res(j)->ckpt.write, k, ns, slowest, bytes);
	*wsum += ns;
	uint64_t r0 = sb_now_ns();
	if (sb_ml_tier_redundancy(j, k))
		return false;
	t->ready[k] = sb_now_ns();
	hand_over(j, k);
	uint64_t t1 = sb_now_ns();
	struct sb_ml_tier_point *p = &tr->v[tr->n++];
	*p = (struct sb_ml_tier_point){
		.index = k, .blocking_s = (double)(t1 - t0) / 1e9, .cache_write_s = (double)(w1 - t0) / 1e9,
		.redundancy_s = (double)(t->ready[k] - r0) / 1e9, .start_at_s = rel_s(j, t0),
		.ready_at_s = rel_s(j, t->ready[k]),
	};
	tr->cache_bytes += bytes + t->redundancy_bytes;
	tr->redundancy_bytes += t->redundancy_bytes;
	tr->mean_blocking_s += (p->blocking_s - tr->mean_blocking_s) / tr->n;
	return true;
}

/* the cache folder, its rank folders (and xor/) */
static bool top_dirs(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	char path[PATH_MAX];
	int e = sb_ml_tier_mkdir(j, t->cache, &t->cache_id, true);
	snprintf(path, sizeof(path), "%s", t->cache);
	for (unsigned r = 0; !e && r < c->ranks; r++) {
		snprintf(path, sizeof(path), "%s/rank%u", t->cache, r);
		e = sb_ml_tier_mkdir(j, path, &t->rank_id[r], true);
	}
	if (!e && sb_ckpt_opts(j->spec)->checkpoint_redundancy == SB_CKPT_RED_XOR) {
		snprintf(path, sizeof(path), "%s/xor", t->cache);
		e = sb_ml_tier_mkdir(j, path, &t->xor_id, true);
	}
	return !e || sb_ml_fail(&j->workers[0], -e, "cannot create the cache folder", path) == 0;
}

uint64_t sb_ml_tier_write(struct sb_wl_job *j, struct sb_ml_rank_arg *args, uint64_t bytes)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	const struct sb_jobspec *s = j->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	struct sb_ml_tier_result *tr = &sb_ckpt_res(j)->ckpt.tier;
	uint64_t wsum = 0;
	unsigned k = 0;
	if (!top_dirs(j) || (o->checkpoint_flush != SB_CKPT_FLUSH_NONE &&
			     !sb_ml_ckpt_mkdir(j, c->folder, &c->folder_id, true)))
		return 0;
	if (o->checkpoint_flush == SB_CKPT_FLUSH_ASYNC) {
		t->flusher_on = pthread_create(&t->flusher, NULL, flusher_main, j) == 0;
		if (!t->flusher_on) {
			sb_ml_fail(&j->workers[0], EAGAIN, "cannot start the flush thread for", t->cache);
			return 0;
		}
	}
	for (; k < o->num_checkpoints_write && !sb_stopping() && !sb_wl_expired(j); k++) {
		t->c0[k] = sb_now_ns(); /* the emulated compute */
		bool go = !o->time_between_checkpoints_us ||
			  sb_sleep_until(t->c0[k] + o->time_between_checkpoints_us * 1000);
		t->c1[k] = sb_now_ns();
		if (!go || !one_ckpt(j, args, k, bytes, &wsum))
			break;
	}
	uint64_t d0 = sb_now_ns();
	pthread_mutex_lock(&t->mu);
	t->quit = true;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	if (t->flusher_on)
		pthread_join(t->flusher, NULL);
	t->flusher_on = false;
	evict_old(j);
	tr->drain_s = (double)(sb_now_ns() - d0) / 1e9;
	finish_points(j, k < o->num_checkpoints_write ? k + 1 : k, bytes);
	if (t->err) {
		sb_ml_fail(&j->workers[0], t->err, t->err_what, t->err_path);
		sb_ckpt_res(j)->ckpt.write.n = 0; /* no read phase */
	}
	return wsum;
}

/* ---- restart reads, setup and release ---- */

bool sb_ml_tier_read_from(struct sb_wl_job *j, unsigned k)
{
	struct sb_ml_ckpt *c = j->priv;
	return c->tier && c->tier->in_cache[k];
}

void sb_ml_tier_read_done(struct sb_wl_job *j, struct sb_ml_ckpt_point *p)
{
	struct sb_ml_ckpt *c = j->priv;
	if (!c->tier)
		return;
	p->from_cache = c->on_cache;
	if (c->on_cache)
		sb_ckpt_res(j)->ckpt.tier.reads_cache++;
	else
		sb_ckpt_res(j)->ckpt.tier.reads_shared++;
	c->on_cache = false;
}

static void where(const struct sb_jobspec *s, char *buf, size_t len)
{
	if (s->line && s->file)
		snprintf(buf, len, "%s:%u: job %s", s->file, s->line, s->name);
	else
		snprintf(buf, len, "<cmdline>: job %s", s->name);
}

/* a step folder of ours is in the cache folder already: whose it is (a
 * killed run's leftover names storbench --cleanup) and the fix */
static int cache_exists(const char *w, const char *opt, const char *cache, const char *path)
{
	char said[1200];
	enum sb_scratch_whose o = sb_scratch_whose(path, cache, said, sizeof(said));
	if (o == SB_WHOSE_NONE)
		snprintf(said, sizeof(said), "already exists and storbench did not create it");
	sb_err(w, "%s=%s: %s %s; refusing to overwrite it%s%s%s", opt, cache, path, said,
	       o == SB_WHOSE_NONE || o == SB_WHOSE_KEPT ? ": set " : "",
	       o == SB_WHOSE_NONE || o == SB_WHOSE_KEPT ? opt : "",
	       o == SB_WHOSE_NONE || o == SB_WHOSE_KEPT ? "= to a new folder, or remove it yourself" : "");
	return -EEXIST;
}

/* the cache folder: not the shared one, writable, no step folder of ours
 * there yet (nothing is written before this passes) */
static int check_cache(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	const struct sb_jobspec *s = j->spec;
	const char *opt = SB_CKPT_OPT(checkpoint_cache_folder)->name;
	char w[PATH_MAX], path[PATH_MAX];
	struct stat a, b;
	where(s, w, sizeof(w));
	if (stat(t->cache, &a) == 0) {
		if (!S_ISDIR(a.st_mode))
			return sb_err(w, "%s=%s is not a directory: set %s= to a directory", opt, t->cache, opt), -ENOTDIR;
		if (stat(c->folder, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return sb_err(w, "%s=%s is the same folder as checkpoint_folder (%s): set %s= to a "
				      "node-local folder other than the shared tier", opt, t->cache, c->folder, opt),
			       -EINVAL;
		for (unsigned k = 0; k < sb_ckpt_opts(s)->num_checkpoints_write; k++) {
			for (unsigned r = 0; r <= c->ranks; r++) {
				if (r < c->ranks)
					sb_ml_tier_step(c, r, k, path, sizeof(path));
				else
					sb_ml_tier_xstep(c, k, path, sizeof(path));
				if (stat(path, &b) == 0)
					return cache_exists(w, opt, t->cache, path);
			}
		}
		snprintf(path, sizeof(path), "%s", t->cache);
	} else {
		const char *sl = strrchr(t->cache, '/');
		snprintf(path, sizeof(path), "%.*s", !sl ? 1 : sl == t->cache ? 1 : (int)(sl - t->cache),
			 !sl ? "." : t->cache);
		if (stat(path, &b) != 0 || !S_ISDIR(b.st_mode))
			return sb_err(w, "%s=%s: its parent %s does not exist: create it, or set %s= elsewhere",
				      opt, t->cache, path, opt), -ENOENT;
	}
	if (access(path, W_OK) != 0) {
		int e = errno;
		return sb_err(w, "%s=%s: cannot write in %s: %s: set %s= to a writable folder", opt,
			      t->cache, path, strerror(e), opt), -e;
	}
	return 0;
}

int sb_ml_tier_prepare(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	const struct sb_jobspec *s = j->spec;
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	struct sb_ml_tier_result *tr = &sb_ckpt_res(j)->ckpt.tier;
	struct sb_ml_tier *t = calloc(1, sizeof(*t));
	unsigned n = o->num_checkpoints_write, r = c->ranks;
	size_t nf = c->nfiles;
	if (!t)
		return sb_err(s->name, "out of memory setting up the cache tier"), -ENOMEM;
	c->tier = t;
	snprintf(t->cache, sizeof(t->cache), "%s", o->checkpoint_cache_folder);
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	t->locks = true;
	t->nsets = o->checkpoint_redundancy == SB_CKPT_RED_XOR ? (r + o->set_size - 1) / o->set_size : 0;
	NEW(t->rank_bytes, r), NEW(t->rank_id, r), NEW(t->step_id, (size_t)n * r);
	NEW(t->pdir_id, (size_t)n * r), NEW(t->xstep_id, n), NEW(t->file_id, (size_t)n * nf);
	NEW(t->part_id, (size_t)n * nf), NEW(t->par_id, (size_t)n * t->nsets), NEW(t->in_cache, n);
	NEW(t->flushed, n), NEW(t->c0, n), NEW(t->c1, n), NEW(t->ready, n), NEW(t->f0, n);
	NEW(t->f1, n), NEW(t->src, nf), NEW(t->dst, nf), NEW(t->req_first, nf + 1), NEW(tr->v, n);
	NEW(t->order, nf);
	if (!t->rank_bytes || !t->rank_id || !t->step_id || !t->pdir_id || !t->xstep_id ||
	    !t->file_id || !t->part_id || !t->par_id || !t->in_cache || !t->flushed || !t->c0 ||
	    !t->c1 || !t->ready || !t->f0 || !t->f1 || !t->src || !t->dst || !t->req_first || !tr->v || !t->order)
		return sb_err(s->name, "out of memory setting up the cache tier"), -ENOMEM;
	for (size_t i = 0; i < nf; i++) {
		t->rank_bytes[c->files[i].rank] += c->files[i].bytes;
		t->req_first[i + 1] = t->req_first[i] + (c->files[i].bytes + o->flush_bs - 1) / o->flush_bs;
	}
	sb_ml_tier_order(c);
	tr->on = true;
	sb_ml_join(tr->cache_folder, sizeof(tr->cache_folder), NULL, t->cache);
	tr->flush = sb_option_enum_name(SB_CKPT_OPT(checkpoint_flush), o->checkpoint_flush);
	tr->redundancy = sb_option_enum_name(SB_CKPT_OPT(checkpoint_redundancy), o->checkpoint_redundancy);
	tr->flush_threads = o->flush_threads;
	tr->cache_keep = o->cache_keep;
	tr->set_size = o->set_size;
	tr->flush_bs = o->flush_bs;
	if (sb_wl_nofiles(j)) {
		char w[PATH_MAX];
		where(s, w, sizeof(w));
		sb_err(w, "ioengine=%s writes no local files, so a tiered checkpoint has nothing to flush "
		       "(a tier on object storage is not done): use a file engine (psync, libaio, io_uring), "
		       "or remove %s=", s->ioengine, SB_CKPT_OPT(checkpoint_cache_folder)->name);
		return -EINVAL;
	}
	return check_cache(j);
}

void sb_ml_tier_release(struct sb_wl_job *j)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	char path[PATH_MAX];
	if (!t)
		return;
	bool keep = j->spec->keep_checkpoints;
	unsigned nwrite = sb_ckpt_opts(j->spec)->num_checkpoints_write;
	for (unsigned k = 0; t->in_cache && k < nwrite; k++)
		if (t->step_id && t->file_id && t->part_id && t->pdir_id && t->par_id && t->xstep_id)
			sb_ml_tier_evict(j, k, keep);
	for (unsigned r = 0; t->rank_id && r < c->ranks; r++) {
		snprintf(path, sizeof(path), "%s/rank%u", t->cache, r);
		if (t->rank_id[r].ino)
			keep ? sb_scratch_keep(path, &t->rank_id[r]) : sb_scratch_rmdir(path, &t->rank_id[r]);
	}
	snprintf(path, sizeof(path), "%s/xor", t->cache);
	if (t->xor_id.ino)
		keep ? sb_scratch_keep(path, &t->xor_id) : sb_scratch_rmdir(path, &t->xor_id);
	if (t->cache_id.ino)
		keep ? sb_scratch_keep(t->cache, &t->cache_id) : sb_scratch_rmdir(t->cache, &t->cache_id);
	if (t->locks) {
		pthread_mutex_destroy(&t->mu);
		pthread_cond_destroy(&t->cv);
	}
	free(t->rank_bytes), free(t->rank_id), free(t->step_id), free(t->pdir_id), free(t->xstep_id);
	free(t->file_id), free(t->part_id), free(t->par_id), free(t->in_cache), free(t->flushed);
	free(t->c0), free(t->c1), free(t->ready), free(t->f0), free(t->f1), free(t->src);
	free(t->dst), free(t->req_first), free(t->order);
	free(t);
	c->tier = NULL;
}
