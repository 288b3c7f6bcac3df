/* mlio.c: the tiers' I/O under kv_profile=mlperf, as the official
 * benchmark's backends do it (kv_cache_benchmark/kv_cache/backends.py):
 * NVMe: an entry is <dir>/kv_<id>.npy, written like np.save to a file
 * opened for writing (the data made first, untimed, as cache.py generates
 * it before the backend's write; the header in one write, then the data
 * as ndarray.tofile writes it through stdio: its whole 4 KiB blocks in
 * one write, the rest in one more), then fsync'ed and closed (host time:
 * until the data is written; device time: the fsync); read like
 * NVMeBackend.read: open, posix_fadvise(POSIX_FADV_DONTNEED) on the whole
 * file, close (host time), then open and the reads np.load makes (Python's
 * buffered open, then ndarray.fromfile through glibc's stdio: see
 * npy_read), close (device time), then np.array's copy of the array (host
 * time again); deleted with unlink.  Buffered I/O, like numpy's.  An
 * entry's data is its own (cache.py KVCacheGenerator.generate and
 * _apply_xor_stamp): a slice of the noise buffer at an offset drawn from
 * the entry's seed, XORed with a 4 KiB stamp drawn from that seed, and
 * each whole 4 KiB block's first 8 bytes XORed with its index, so no two
 * 4 KiB blocks of an entry, nor (but by chance) of two entries, are the
 * same.  Each write and read holds the whole entry in memory, as numpy
 * makes a new array for each (np.load's, np.array's copy, generate's):
 * an entry over 32 MiB in fresh pages each time (glibc maps such arrays;
 * the page faults and zeroing are part of the cost, as there), a smaller
 * one in a reused buffer (glibc's heap).  GPU and CPU tiers hold no data here: a write or read costs a
 * memcpy of the entry's bytes (np.copy's work), timed as total = device =
 * host like theirs.  A file is created with O_EXCL: storbench never opens, truncates or
 * unlinks a name it did not create in this run.  The callbacks run
 * without the job's lock (tiers.c pins or marks busy the entry): each
 * worker reads into its own buffer and counts into its own statistics
 * (sb_kv_ml_io_thread), and the bitmap of the files made is changed under
 * ml->lock. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "os/outfile.h"
#include "lib/timeutil.h"
#include "lib/fullio.h"
#include "lib/log.h"
#include "os/scratch.h"
#include "ml/kvcache/mlperf.h"
#include "ml/kvcache/npy.h"
#include "stats/tstats.h"
#include "engines/engine.h"
#include "run/engtable.h"

/* the calling worker's statistics and read buffer (for the memory
 * tiers), and its whole-entry buffers for the files */
static _Thread_local struct sb_tstats *tl_st;
static _Thread_local const struct sb_engine_sink *tl_sink; /* ioengine=s3: the worker's counters */
static _Thread_local unsigned char *tl_rbuf;
struct ebuf { unsigned char *p; size_t cap; };
static _Thread_local struct ebuf tl_wr, tl_rd;

static void ebuf_free(struct ebuf *b)
{
	if (b->p)
		munmap(b->p, b->cap);
	b->p = NULL;
	b->cap = 0;
}

/* n bytes for a new array, as numpy's malloc gets them from glibc: up to
 * its largest mmap threshold (32 MiB on 64-bit, raised to each freed
 * array's size) from the heap, reused; above it fresh pages from mmap,
 * faulted in and zeroed by the kernel as they are first touched, the
 * previous array unmapped */
#define HEAP_MAX (32u << 20)
static unsigned char *ebuf_get(struct ebuf *b, uint64_t n)
{
	if (n <= HEAP_MAX && b->p && b->cap >= n)
		return b->p;
	ebuf_free(b);
	size_t len = (size_t)(n > HEAP_MAX ? n : HEAP_MAX);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	b->p = p;
	b->cap = len;
	return b->p;
}

void sb_kv_ml_io_thread(struct sb_thread *t, unsigned char *rbuf)
{
	tl_st = t ? t->st : NULL;
	tl_sink = t ? &t->etd.sink : NULL;
	tl_rbuf = rbuf;
	if (!t) {
		ebuf_free(&tl_wr);
		ebuf_free(&tl_rd);
	}
}

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* entry id's data, as cache.py generate + _apply_xor_stamp make it: the
 * noise from an offset of its own, XOR a 4 KiB stamp of its own, each
 * whole 4 KiB block's first 8 bytes XOR the block's index */
void sb_kv_ml_entry_data(const struct sb_kv_ml *ml, uint32_t id, unsigned char *dst, uint64_t n)
{
	enum { BLK = 4096 };
	uint64_t seed = mix64(ml->seed ^ mix64(id)), stamp[BLK / 8], x = seed | 1;
	for (unsigned i = 0; i < BLK / 8; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		stamp[i] = x;
	}
	uint64_t src = (seed >> 17) % SB_KV_ML_BUF & ~(uint64_t)7;
	for (uint64_t o = 0, b = 0; o < n; o += BLK, b++) {
		uint64_t len = n - o < BLK ? n - o : BLK, at = (src + o) % SB_KV_ML_BUF;
		uint64_t first = SB_KV_ML_BUF - at < len ? SB_KV_ML_BUF - at : len;
		memcpy(dst + o, ml->buf + at, first);
		memcpy(dst + o + first, ml->buf, len - first);
		uint64_t w;
		for (uint64_t i = 0; i + 8 <= len; i += 8) {
			memcpy(&w, dst + o + i, 8);
			w ^= stamp[i / 8] ^ (i == 0 && len == BLK ? b : 0);
			memcpy(dst + o + i, &w, 8);
		}
		for (uint64_t i = len & ~(uint64_t)7; i < len; i++)
			dst[o + i] ^= ((const unsigned char *)stamp)[i];
	}
}

static void path_of(const struct sb_kv_ml *ml, uint32_t id, char *buf, size_t len)
{
	snprintf(buf, len, "%s/kv_%08u.npy", ml->dir, id);
}

static bool made(const struct sb_kv_ml *ml, uint32_t id)
{
	return id < ml->made_cap && (ml->made[id / 64] >> (id % 64) & 1);
}

static int mark_locked(struct sb_kv_ml *ml, uint32_t id, bool on)
{
	if (id >= ml->made_cap) {
		uint32_t cap = (id + 1 + 4095) / 4096 * 4096 * 2;
		uint64_t *m = realloc(ml->made, cap / 8);
		if (!m)
			return -ENOMEM;
		memset(m + ml->made_cap / 64, 0, (cap - ml->made_cap) / 8);
		ml->made = m;
		ml->made_cap = cap;
	}
	if (on)
		ml->made[id / 64] |= UINT64_C(1) << (id % 64);
	else
		ml->made[id / 64] &= ~(UINT64_C(1) << (id % 64));
	return 0;
}

/* mark id's file made (on) or gone; 1 when it was made before */
static int mark(struct sb_kv_ml *ml, uint32_t id, bool on)
{
	if (ml->lock)
		pthread_mutex_lock(ml->lock);
	int was = made(ml, id), e = mark_locked(ml, id, on);
	if (ml->lock)
		pthread_mutex_unlock(ml->lock);
	return e ? e : was;
}

static void mem_copy(struct sb_kv_ml *ml, uint64_t bytes, struct sb_kvt_time *t)
{
	uint64_t t0 = sb_now_ns();
	for (uint64_t o = 0; o < bytes; o += SB_KV_ML_BUF) {
		uint64_t n = bytes - o < SB_KV_ML_BUF ? bytes - o : SB_KV_ML_BUF;
		memcpy(tl_rbuf ? tl_rbuf : ml->rbuf, ml->buf, n);
	}
	t->total = t->device = t->host = sb_now_ns() - t0;
}

static int write_all(int fd, const void *p, size_t n)
{
	return sb_io_full(fd, true, (void *)p, n) < 0 ? -errno : 0;
}

/* the .npy header of entry e into hdr: its length (0: too long) */
static size_t npy_hdr(const struct sb_kv_ml *ml, const struct sb_kvt_entry *e, char *hdr, size_t len)
{
	uint64_t shape[5] = { ml->layers, 2, e->tokens, ml->kv_heads, ml->head_dim };
	unsigned nd = 5;
	if (ml->c.tp > 1) { /* cache.py: the flat first 1/tp of the elements */
		shape[0] = e->bytes / ml->elem_bytes;
		nd = 1;
	}
	return sb_npy_header(hdr, len, ml->hdr_descr, shape, nd);
}

/* the header and the data, as np.save writes them: write(header), then
 * ndarray.tofile's writes of the data */
static int npy_body(struct sb_kv_ml *ml, int fd, const unsigned char *data, const struct sb_kvt_entry *e)
{
	char hdr[SB_NPY_HDR_MAX];
	size_t h = npy_hdr(ml, e, hdr, sizeof(hdr));
	/* tofile is fwrite through glibc stdio (4096-byte buffer): the whole
	 * blocks in one write, the rest when the file is closed */
	uint64_t direct = e->bytes - e->bytes % 4096;
	int err = h ? write_all(fd, hdr, h) : -EINVAL;
	if (!err && direct)
		err = write_all(fd, data, direct);
	if (!err && e->bytes > direct)
		err = write_all(fd, data + direct, e->bytes - direct);
	if (!err && tl_st) {
		tl_st->io_bytes[SB_DDIR_WRITE] += h + e->bytes;
		tl_st->total_ios[SB_DDIR_WRITE]++;
	}
	return err;
}

/* an entry in the GPU or CPU tier (or any tier with ioengine=null): a copy
 * in memory, timed; true when handled */
static bool in_memory(struct sb_kv_ml *ml, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	if (tier == SB_KVT_NVME && !ml->nodiskio)
		return false;
	mem_copy(ml, tier != SB_KVT_NVME ? e->bytes : 0, t);
	return true;
}

/* ioengine=s3: the entry, header and data, is one PUT of one object
 * (marked; never over a user's object); its time is all device time */
static int obj_write(struct sb_kv_ml *ml, uint32_t id, const struct sb_kvt_entry *e, const char *path,
		     struct sb_kvt_time *t)
{
	char hdr[SB_NPY_HDR_MAX], err[300] = "";
	size_t h = npy_hdr(ml, e, hdr, sizeof(hdr));
	unsigned char *buf = h ? ebuf_get(&tl_wr, h + e->bytes) : NULL;
	if (!buf)
		return h ? -ENOMEM : -EINVAL;
	memcpy(buf, hdr, h);
	sb_kv_ml_entry_data(ml, id, buf + h, e->bytes); /* untimed, as for files */
	uint64_t t0 = sb_now_ns();
	int r = ml->objects->object_put(ml->eopts, &sb_run_engine_fs, tl_sink, ml->job, path, -1, buf,
					h + e->bytes, err, sizeof(err));
	t->total = t->device = sb_now_ns() - t0;
	t->host = 0;
	if (r) {
		if (err[0])
			sb_warn(ml->job, "%s", err);
		return r;
	}
	int was = mark(ml, id, true);
	if (tl_st) {
		tl_st->io_bytes[SB_DDIR_WRITE] += h + e->bytes;
		tl_st->total_ios[SB_DDIR_WRITE]++;
	}
	return was < 0 ? was : 0;
}

/* ioengine=s3: one GET of the whole object, then np.array's copy (host) */
static int obj_read(struct sb_kv_ml *ml, const struct sb_kvt_entry *e, const char *path, struct sb_kvt_time *t)
{
	char hdr[SB_NPY_HDR_MAX], err[300] = "";
	size_t h = npy_hdr(ml, e, hdr, sizeof(hdr));
	unsigned char *buf = h ? ebuf_get(&tl_rd, h + e->bytes) : NULL;
	uint64_t got = 0;
	if (!buf)
		return h ? -ENOMEM : -EINVAL;
	uint64_t t0 = sb_now_ns();
	int r = ml->objects->object_get(ml->eopts, &sb_run_engine_fs, tl_sink, path, buf, h + e->bytes, &got,
					err, sizeof(err));
	uint64_t t1 = sb_now_ns();
	if (!r && got != h + e->bytes)
		r = -EIO;
	unsigned char *copy = r ? NULL : ebuf_get(&tl_wr, e->bytes);
	if (copy)
		memcpy(copy, buf + h, e->bytes);
	else if (!r)
		r = -ENOMEM;
	uint64_t t2 = sb_now_ns();
	if (r && err[0])
		sb_warn(ml->job, "%s", err);
	if (!r && tl_st) {
		tl_st->io_bytes[SB_DDIR_READ] += got;
		tl_st->total_ios[SB_DDIR_READ]++;
	}
	t->device = t1 - t0;
	t->host = t2 - t1;
	t->total = t2 - t0;
	return r;
}

static int ml_write(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	struct sb_kv_ml *ml = ctx;
	char path[PATH_MAX];
	if (in_memory(ml, e, tier, t))
		return 0;
	path_of(ml, id, path, sizeof(path));
	if (ml->objects)
		return obj_write(ml, id, e, path, t);
	/* the data first, untimed: cache.py generates it before the backend's write */
	unsigned char *data = ebuf_get(&tl_wr, e->bytes);
	if (!data)
		return -ENOMEM;
	sb_kv_ml_entry_data(ml, id, data, e->bytes);
	uint64_t t0 = sb_now_ns();
	/* exclusive, and marked before it has its name (entries are made all
	 * run long: a kill must never leave one unmarked); the mark: a few us
	 * of a multi-MiB write + fsync, inside its time */
	int fd = sb_outfile_create_unkillable(path, O_WRONLY, 0644, ml->job, NULL);
	if (fd < 0)
		return fd;
	int err = mark(ml, id, true);
	err = err < 0 ? err : 0;
	if (!err)
		err = npy_body(ml, fd, data, e);
	uint64_t t1 = sb_now_ns();
	if (!err && fsync(fd))
		err = -errno;
	uint64_t t2 = sb_now_ns();
	if (close(fd) && !err)
		err = -errno;
	t->host = t1 - t0;
	t->device = t2 - t1;
	t->total = t2 - t0;
	return err;
}

/* one read(2), retried on EINTR; the bytes it got, -errno */
static int64_t read1(int fd, void *p, size_t n)
{
	ssize_t r;
	while ((r = read(fd, p, n)) < 0 && errno == EINTR)
		;
	return r < 0 ? -errno : (int64_t)r;
}

/* the reads np.load makes of an .npy with an h-byte header and d bytes of
 * data (numpy 1.24 on glibc, strace'd): Python's buffered open reads the
 * first 4096 bytes (the magic and the header come from there); fromfile
 * hands the file to stdio, whose fseek to h reads h bytes from 0, then
 * whose fread of d bytes refills its 4096-byte buffer from 0, reads the
 * whole 4096-byte blocks of what is left straight into the array, and the
 * rest through one more 4096-byte refill */
static int npy_read(struct sb_kv_ml *ml, int fd, const struct sb_kvt_entry *e, uint64_t *got)
{
	enum { BLK = 4096 };
	char hdr[SB_NPY_HDR_MAX];
	uint64_t h = npy_hdr(ml, e, hdr, sizeof(hdr)), d = e->bytes;
	unsigned char *dst = ebuf_get(&tl_rd, d + BLK), *blk = dst ? dst + d : NULL;
	if (!dst || !h)
		return dst ? -EINVAL : -ENOMEM;
	int64_t r = read1(fd, blk, BLK);                 /* Python's buffer */
	if (r >= 0)
		r = lseek(fd, 0, SEEK_SET) ? -errno : read1(fd, blk, h);   /* stdio's fseek(h) */
	if (r >= 0)
		r = lseek(fd, 0, SEEK_SET) ? -errno : read1(fd, blk, BLK); /* fread: the refill */
	if (r < 0)
		return (int)r;
	uint64_t have = (uint64_t)r > h ? (uint64_t)r - h : 0;
	have = have < d ? have : d;
	memcpy(dst, blk + h, have);
	uint64_t at = have, direct = (d - have) - (d - have) % BLK;
	while (at < have + direct) {             /* straight into the array */
		if ((r = read1(fd, dst + at, have + direct - at)) <= 0)
			return r < 0 ? (int)r : -EIO;
		at += (uint64_t)r;
	}
	while (at < d) {                         /* the rest: stdio's refills */
		if ((r = read1(fd, blk, BLK)) <= 0)
			return r < 0 ? (int)r : -EIO;
		uint64_t n = (uint64_t)r < d - at ? (uint64_t)r : d - at;
		memcpy(dst + at, blk, n);
		at += n;
	}
	*got = h + d;
	return 0;
}

static int ml_read(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	struct sb_kv_ml *ml = ctx;
	char path[PATH_MAX];
	if (in_memory(ml, e, tier, t))
		return 0;
	path_of(ml, id, path, sizeof(path));
	if (ml->objects)
		return obj_read(ml, e, path, t);
	uint64_t t0 = sb_now_ns();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	uint64_t t1 = sb_now_ns();
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	uint64_t got = 0;
	int err = npy_read(ml, fd, e, &got);
	close(fd);
	uint64_t t2 = sb_now_ns();
	/* np.array(data): the loaded array copied, in the host time */
	unsigned char *copy = err ? NULL : ebuf_get(&tl_wr, e->bytes);
	if (copy)
		memcpy(copy, tl_rd.p, e->bytes);
	else if (!err)
		err = -ENOMEM;
	uint64_t t3 = sb_now_ns();
	if (!err && tl_st) {
		tl_st->io_bytes[SB_DDIR_READ] += got;
		tl_st->total_ios[SB_DDIR_READ]++;
	}
	t->host = (t1 - t0) + (t3 - t2);
	t->device = t2 - t1;
	t->total = t3 - t0;
	return err;
}

static int ml_drop(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier)
{
	struct sb_kv_ml *ml = ctx;
	char path[PATH_MAX];
	(void)e;
	if (tier != SB_KVT_NVME || mark(ml, id, false) != 1)
		return 0; /* not a file of ours */
	path_of(ml, id, path, sizeof(path));
	char err[300];
	if (ml->objects) { /* only an object whose mark names this run */
		int d = ml->objects->object_delete(ml->eopts, &sb_run_engine_fs, tl_sink, path, err, sizeof(err));
		return d == -EPERM ? 0 : d;
	}
	/* only while the name still holds the file this run made and marked
	 * (a file put in its place is left alone); its .storbench-owner
	 * record, where xattrs are missing, goes with it */
	int r = sb_scratch_unlink_mine(path);
	return r == -ENOENT || r == -ESTALE ? 0 : r;
}

const struct sb_kvt_io sb_kv_ml_io = { .write = ml_write, .read = ml_read, .drop = ml_drop };

int sb_kv_ml_files_init(struct sb_kv_ml *ml, const char *dir, unsigned elem_bytes)
{
	char d[16];
	snprintf(ml->dir, sizeof(ml->dir), "%s", dir);
	snprintf(ml->hdr_descr, sizeof(ml->hdr_descr), "%s", sb_npy_descr(elem_bytes, d, sizeof(d)));
	ml->elem_bytes = elem_bytes;
	ml->buf = malloc(SB_KV_ML_BUF);
	ml->rbuf = malloc(SB_KV_ML_BUF);
	if (!ml->buf || !ml->rbuf)
		return -ENOMEM;
	struct sb_rng r = ml->rng; /* a copy: the request draws stay as they were */
	ml->seed = sb_rng_next(&r);
	/* noise like KVCacheGenerator's: no page repeats within the buffer */
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i + 8 <= SB_KV_ML_BUF; i += 8) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(ml->buf + i, &x, 8);
	}
	return 0;
}

void sb_kv_ml_files_remove(struct sb_kv_ml *ml, bool keep)
{
	char path[PATH_MAX];
	for (uint32_t id = 0; id < ml->made_cap; id++)
		if (made(ml, id)) {
			path_of(ml, id, path, sizeof(path));
			char err[300];
			if (ml->objects && !keep) /* objects: only those whose mark names this run */
				(void)ml->objects->object_delete(ml->eopts, &sb_run_engine_fs, NULL, path, err,
								 sizeof(err));
			if (ml->objects)
				continue;
			if (keep)
				sb_scratch_keep_mine(path); /* kv_keep: kept on purpose, not a leftover */
			else
				sb_scratch_unlink_mine(path); /* only the file it made, if still there */
		}
	if (ml->objects && keep && ml->objects->object_end) /* kept: not a killed run's leftovers */
		(void)ml->objects->object_end(ml->eopts, &sb_run_engine_fs, ml->dir);
	free(ml->made);
	ml->made = NULL;
	ml->made_cap = 0;
}

static bool npy_name(const char *n)
{
	size_t l = strlen(n);
	return !strncmp(n, "kv_", 3) && l > 7 && !strcmp(n + l - 4, ".npy");
}

/* which kind of existing file a refusal names first: a killed run's
 * leftover, a running storbench's, one nobody here can judge, a kept one,
 * the user's */
static int rank(enum sb_scratch_whose w)
{
	return w == SB_WHOSE_DEAD ? 4 : w == SB_WHOSE_LIVE ? 3 : w == SB_WHOSE_UNKNOWN ? 2 :
	       w == SB_WHOSE_KEPT ? 1 : 0;
}

int sb_kv_ml_files_check(const char *dir, const char *where)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX], said[1200], best[PATH_MAX] = "", best_said[1200] = "";
	unsigned n = 0;
	enum sb_scratch_whose bw = SB_WHOSE_NONE;
	if (!d)
		return 0; /* no folder yet: nothing there */
	while ((e = readdir(d))) {
		if (!npy_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		enum sb_scratch_whose w = rank(bw) == 4 ? SB_WHOSE_NONE : sb_scratch_whose(path, dir, said, sizeof(said));
		if (n++ == 0 || rank(w) > rank(bw)) {
			bw = w;
			snprintf(best, sizeof(best), "%s", path);
			snprintf(best_said, sizeof(best_said), "%s", said);
		}
	}
	closedir(d);
	if (!n)
		return 0;
	if (bw == SB_WHOSE_NONE)
		snprintf(best_said, sizeof(best_said), "already exists and storbench did not create it "
			 "for this run; refusing to overwrite it: remove it yourself, or set directory= "
			 "elsewhere");
	else if (bw == SB_WHOSE_KEPT)
		snprintf(best_said + strlen(best_said), sizeof(best_said) - strlen(best_said),
			 ": remove it yourself, or set directory= elsewhere");
	sb_err(where, "%s %s (kv_profile=mlperf writes its entries as kv_*.npy there; %u such "
	       "files found)", best, best_said, n);
	return -EEXIST;
}
