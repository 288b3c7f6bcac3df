/* engine_driver.c: the test stand-in for run/ that drives one engine (see
 * engine_driver.h).  Deliberately small: it does what engine.h promises the
 * run/ does, and checks the engine keeps its side of the contract. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_driver.h"
#include "harness.h"
#include "lib/timeutil.h"
#include "parse/options.h"
#include "parse/value.h"
#include "run/engtable.h"

void drv_prepare(struct drv *d, const struct sb_engine_ops *ops, unsigned depth)
{
	memset(d, 0, sizeof(*d));
	d->ops = ops;
	snprintf(d->spec.name, sizeof(d->spec.name), "conformance-%s", ops->name);
	snprintf(d->spec.ioengine, sizeof(d->spec.ioengine), "%s", ops->name);
	d->spec.iodepth = depth;
	d->spec.iodepth_batch_submit = 1;
	d->spec.iodepth_batch_complete_min = 1;
	d->spec.iodepth_batch_complete_max = depth;
	spec_eopt_set(&d->spec, "sqthread_poll_cpu", -1);  /* the others zero (not their defaults) */
	d->spec.rw = SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM;
	for (unsigned i = 0; i < DRV_MAX_FILES; i++)
		d->files[i].fd = -1;
}

int spec_eopt_set(struct sb_jobspec *s, const char *name, long long v)
{
	char val[32], err[SB_VERR_LEN];
	const struct sb_option *o = sb_option_find(name);
	if (!o)
		return -EINVAL;
	snprintf(val, sizeof(val), "%lld", v);
	return sb_option_set(o, s, val, false, err);
}

long long spec_eopt_get(const struct sb_jobspec *s, const char *name)
{
	char val[64];
	const struct sb_option *o = sb_option_find(name);
	if (!o)
		return -9999;
	sb_option_format(o, s, val, sizeof(val));
	return strtoll(val, NULL, 10);
}

int drv_init(struct drv *d, uint64_t bs, unsigned nfiles)
{
	unsigned depth = d->spec.iodepth;
	uint64_t per = (bs + 4095) & ~(uint64_t)4095;
	if (depth == 0 || depth > DRV_MAX_DEPTH || nfiles > DRV_MAX_FILES)
		return -EINVAL;
	sb_engine_job_fill(&d->job, &d->spec);
	d->td.job = &d->job;
	d->td.iodepth = depth;
	d->td.nios = depth;
	d->td.ios = calloc(depth, sizeof(*d->td.ios));
	d->td.buf_base = aligned_alloc(4096, per * depth);
	if (!d->td.ios || !d->td.buf_base)
		return -ENOMEM;
	memset(d->td.buf_base, 0, per * depth);
	d->td.buf_len = per * depth;
	d->td.buf_per_io = per;
	for (unsigned i = 0; i < depth; i++) {
		d->td.ios[i].buf = (char *)d->td.buf_base + per * i;
		d->td.ios[i].index = i;
		d->free_ios[d->nfree++] = depth - 1 - i;
	}
	d->td.files = d->files;
	d->td.nfiles = nfiles;
	for (unsigned i = 0; i < nfiles; i++) {
		d->files[i].index = i;
		d->files[i].fd = -1;
	}
	int r = d->ops->init(&d->td);
	d->inited = r == 0;
	return r;
}

int drv_open(struct drv *d, unsigned i, const char *path, int oflags, uint64_t region_len)
{
	struct sb_file *f = &d->files[i];
	struct stat st;
	snprintf(d->paths[i], sizeof(d->paths[i]), "%s", path);
	f->path = d->paths[i];
	f->fd = open(path, oflags | (d->spec.direct ? O_DIRECT : 0), 0644);
	if (f->fd < 0)
		return -errno;
	if (fstat(f->fd, &st))
		return -errno;
	f->region_start = 0;
	f->region_len = region_len;
	f->size = region_len;
	f->index = i;
	f->created = !d->user[i];
	if (d->ops->open_file) {
		int r = d->ops->open_file(&d->td, f);
		if (r) {
			close(f->fd);
			f->fd = -1;
			return r;
		}
	}
	d->opened[i] = true;
	return 0;
}

static void drv_done(struct drv *d, struct sb_io_u *io)
{
	struct drv_req *q = d->slot[io->index];
	q->result = io->result;
	if (q->ddir == SB_DDIR_READ && io->result > 0)
		memcpy(q->data, io->buf, (uint64_t)io->result < q->len ? (size_t)io->result : q->len);
	d->slot[io->index] = NULL;
	d->free_ios[d->nfree++] = io->index;
}

static int drv_reap(struct drv *d)
{
	struct timespec ts = { 1, 0 };
	unsigned min = d->spec.iodepth_batch_complete_min;
	if (!d->ops->getevents || !d->ops->event)
		return -ENOSYS;  /* QUEUED from an engine that cannot complete */
	int r = d->ops->getevents(&d->td, min < d->inflight ? min : d->inflight, d->inflight, &ts);
	if (r < 0)
		return r;
	if ((unsigned)r > d->inflight)
		return -EPROTO;
	for (int i = 0; i < r; i++) {
		struct sb_io_u *io = d->ops->event(&d->td, (unsigned)i);
		if (!io || io->index >= d->td.nios || io != &d->td.ios[io->index] || !d->slot[io->index])
			return -EPROTO;  /* not an io unit that was in flight */
		drv_done(d, io);
		d->inflight--;
	}
	return r;
}

static int drv_commit(struct drv *d, unsigned *uncommitted)
{
	*uncommitted = 0;
	return d->ops->commit ? d->ops->commit(&d->td) : 0;
}

/* Queue q into a free io unit: 1 when it was taken, 0 when BUSY, -errno. */
static int drv_queue_one(struct drv *d, struct drv_req *q, unsigned *uncommitted)
{
	unsigned i = d->free_ios[--d->nfree];
	struct sb_io_u *io = &d->td.ios[i];
	io->ddir = q->ddir;
	io->file = &d->files[q->file];
	io->len = q->len;
	io->offset = q->off;
	io->result = 0;
	if (q->ddir == SB_DDIR_WRITE)
		memcpy(io->buf, q->data, q->len);
	d->slot[i] = q;
	switch (d->ops->queue(&d->td, io)) {
	case SB_Q_COMPLETED:
		drv_done(d, io);
		return 1;
	case SB_Q_QUEUED:
		d->inflight++;
		(*uncommitted)++;
		if (d->inflight > d->max_inflight)
			d->max_inflight = d->inflight;
		return 1;
	default:
		d->slot[i] = NULL;
		d->free_ios[d->nfree++] = i;
		d->busy++;
		return d->inflight ? 0 : -EDEADLK;  /* BUSY with nothing to wait for */
	}
}

int drv_run(struct drv *d, struct drv_req *q, unsigned n)
{
	unsigned next = 0, uncommitted = 0;
	unsigned batch = d->spec.iodepth_batch_submit ? d->spec.iodepth_batch_submit : 1;
	uint64_t deadline = sb_now_ns() + 20000000000ull;
	int r;

	while (next < n || d->inflight) {
		if (sb_now_ns() > deadline)
			return -ETIMEDOUT;
		if (next < n && d->nfree) {
			r = drv_queue_one(d, &q[next], &uncommitted);
			if (r < 0)
				return r;
			if (r > 0) {
				next++;
				if (uncommitted && (uncommitted >= batch || next == n || !d->nfree) &&
				    (r = drv_commit(d, &uncommitted)) < 0)
					return r;
				continue;
			}
		}
		if (uncommitted && (r = drv_commit(d, &uncommitted)) < 0)
			return r;
		if (d->inflight && (r = drv_reap(d)) < 0)
			return r;
	}
	return 0;
}

void drv_finish(struct drv *d)
{
	for (unsigned i = 0; i < DRV_MAX_FILES; i++) {
		if (d->opened[i] && d->ops->close_file)
			d->ops->close_file(&d->td, &d->files[i]);
		if (d->files[i].fd >= 0)
			close(d->files[i].fd);
		d->files[i].fd = -1;
		d->opened[i] = false;
	}
	if (d->inited && d->ops->cleanup)
		d->ops->cleanup(&d->td);
	d->inited = false;
	free(d->td.ios);
	free(d->td.buf_base);
	d->td.ios = NULL;
	d->td.buf_base = NULL;
}

void drv_pattern(unsigned char *p, size_t len, unsigned seed, unsigned blk)
{
	uint32_t x = (2654435761u * (seed + 1)) ^ (blk * 40503u + 1);
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

int drv_make_file(const char *path, uint64_t size)
{
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	int r = ftruncate(fd, (off_t)size) ? -errno : 0;
	close(fd);
	return r;
}

bool drv_direct_ok(const char *dir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/odirect-probe", dir);
	int fd = open(p, O_CREAT | O_RDWR | O_DIRECT, 0644);
	if (fd >= 0)
		close(fd);
	unlink(p);
	return fd >= 0;
}

static char shm_path[64];

const char *drv_shm_dir(void)
{
	if (!shm_path[0]) {
		snprintf(shm_path, sizeof(shm_path), "/dev/shm/sbeng.XXXXXX");
		if (!mkdtemp(shm_path))
			snprintf(shm_path, sizeof(shm_path), "%s", sb_test_tmpdir());
	}
	return shm_path;
}

void drv_shm_dir_remove(void)
{
	if (strncmp(shm_path, "/dev/shm/", 9) == 0 && rmdir(shm_path) == 0)
		shm_path[0] = '\0';
}
