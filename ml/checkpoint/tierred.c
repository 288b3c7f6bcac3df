/* tierred.c: the cache tier of tiered checkpoints (layout in ml/checkpoint/tier.h):
 * its paths and folders, the redundancy SCR keeps there (partner: a copy
 * of each rank's files in rank (r+1) % ranks's folder; xor: one parity
 * file per set of set_size ranks) and the removal of a checkpoint from it.
 * Only files and folders storbench made are removed (os/scratch.h). */
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/outfile.h"
#include "ml/checkpoint/opts.h"
#include "ml/checkpoint/tier.h"
#include "lib/log.h"

static const char *base_of(const struct sb_ml_ckpt *c, size_t i)
{
	const char *b = strchr(c->files[i].name, '/');
	return b ? b + 1 : c->files[i].name;
}

static void step_name(unsigned k, char *buf, size_t len)
{
	sb_ml_ckpt_folder(1, k + 1, buf, len);
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct sb_ml_ckpt *c = ctx;
	return strcmp(base_of(c, *(const size_t *)a), base_of(c, *(const size_t *)b));
}

void sb_ml_tier_order(struct sb_ml_ckpt *c)
{
	for (size_t i = 0; i < c->nfiles; i++)
		c->tier->order[i] = i;
	for (unsigned r = 0; r < c->ranks; r++)
		qsort_r(c->tier->order + c->rank_first[r], c->rank_first[r + 1] - c->rank_first[r],
			sizeof(size_t), by_name, c);
}

void sb_ml_tier_step(const struct sb_ml_ckpt *c, unsigned r, unsigned k, char *buf, size_t len)
{
	char name[64];
	step_name(k, name, sizeof(name));
	snprintf(buf, len, "%s/rank%u/%s", c->tier->cache, r, name);
}

void sb_ml_tier_path(const struct sb_ml_ckpt *c, unsigned k, size_t i, char *buf, size_t len)
{
	char dir[PATH_MAX];
	sb_ml_tier_step(c, c->files[i].rank, k, dir, sizeof(dir));
	sb_ml_join(buf, len, dir, base_of(c, i));
}

void sb_ml_tier_pdir(const struct sb_ml_ckpt *c, unsigned r, unsigned k, char *buf, size_t len)
{
	char dir[PATH_MAX], name[32];
	sb_ml_tier_step(c, (r + 1) % c->ranks, k, dir, sizeof(dir));
	snprintf(name, sizeof(name), "partner_rank%u", r);
	sb_ml_join(buf, len, dir, name);
}

void sb_ml_tier_ppath(const struct sb_ml_ckpt *c, unsigned k, size_t i, char *buf, size_t len)
{
	char dir[PATH_MAX];
	sb_ml_tier_pdir(c, c->files[i].rank, k, dir, sizeof(dir));
	sb_ml_join(buf, len, dir, base_of(c, i));
}

void sb_ml_tier_xstep(const struct sb_ml_ckpt *c, unsigned k, char *buf, size_t len)
{
	char name[64];
	step_name(k, name, sizeof(name));
	snprintf(buf, len, "%s/xor/%s", c->tier->cache, name);
}

void sb_ml_tier_xpath(const struct sb_ml_ckpt *c, unsigned k, unsigned s, char *buf, size_t len)
{
	char dir[PATH_MAX], name[32];
	sb_ml_tier_xstep(c, k, dir, sizeof(dir));
	snprintf(name, sizeof(name), "set%u.xor", s);
	sb_ml_join(buf, len, dir, name);
}

int sb_ml_tier_mkdir(struct sb_wl_job *j, const char *path, struct sb_scratch_id *id,
		     bool may_exist)
{
	if (id->ino)
		return 0;
	int e = sb_outfile_mkdir(path, 0755, j->spec->name, id);
	return e == -EEXIST && may_exist ? 0 : e;
}

int sb_ml_tier_dirs(struct sb_wl_job *j, unsigned k)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	char path[PATH_MAX];
	int e = 0;
	for (unsigned r = 0; r < c->ranks && !e; r++) {
		sb_ml_tier_step(c, r, k, path, sizeof(path));
		e = sb_ml_tier_mkdir(j, path, &t->step_id[(size_t)k * c->ranks + r], false);
	}
	if (!e && sb_ckpt_opts(j->spec)->checkpoint_redundancy == SB_CKPT_RED_XOR) {
		sb_ml_tier_xstep(c, k, path, sizeof(path));
		e = sb_ml_tier_mkdir(j, path, &t->xstep_id[k], false);
	}
	return e ? sb_ml_fail(&j->workers[0], -e, "cannot create the cache folder", path) : 0;
}

/* a new file of the cache tier, its identity taken */
static int create(struct sb_wl_job *j, const char *path, struct sb_scratch_id *id)
{
	int fd = sb_outfile_create(path, O_WRONLY, 0644, j->spec->name, id);
	if (fd < 0)
		errno = -fd; /* the callers read errno */
	return fd < 0 ? -1 : fd;
}

static int write_all(int fd, const unsigned char *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		buf += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* read n bytes at off, zeroes past the end of the file */
static int read_all(int fd, unsigned char *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t r = pread(fd, buf, n, (off_t)off);
		if (r < 0)
			return -errno;
		if (r == 0) {
			memset(buf, 0, n);
			return 0;
		}
		buf += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* partner: every file of rank r copied into rank (r+1)'s step folder */
static int partner(struct sb_wl_job *j, unsigned k, unsigned char *buf, size_t bs)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	char src[PATH_MAX], dst[PATH_MAX];
	int e = 0;
	for (unsigned r = 0; r < c->ranks && !e; r++) {
		sb_ml_tier_pdir(c, r, k, dst, sizeof(dst));
		if ((e = sb_ml_tier_mkdir(j, dst, &t->pdir_id[(size_t)k * c->ranks + r], false)))
			break;
	}
	for (size_t i = 0; i < c->nfiles && !e; i++) {
		sb_ml_tier_path(c, k, i, src, sizeof(src));
		sb_ml_tier_ppath(c, k, i, dst, sizeof(dst));
		int in = open(src, O_RDONLY | O_CLOEXEC);
		int out = in < 0 ? -1 : create(j, dst, &t->part_id[(size_t)k * c->nfiles + i]);
		e = in < 0 || out < 0 ? -errno : 0;
		for (uint64_t off = 0; !e && off < c->files[i].bytes; off += bs) {
			size_t n = c->files[i].bytes - off < bs ? (size_t)(c->files[i].bytes - off) : bs;
			e = read_all(in, buf, n, off);
			e = e ? e : write_all(out, buf, n, off);
		}
		if (!e && j->spec->checkpoint_fsync && fsync(out))
			e = -errno;
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
	}
	return e ? sb_ml_fail(&j->workers[0], -e, "cannot write the partner copy", dst) : 0;
}

/* n bytes at off of rank r's stream (its files of checkpoint k in order),
 * zeroes past its end; fds: the rank's files, open */
static int stream_read(const struct sb_ml_ckpt *c, unsigned r, const int *fds, uint64_t off,
		       unsigned char *buf, size_t n)
{
	uint64_t base = 0;
	for (size_t o = c->rank_first[r]; o < c->rank_first[r + 1] && n; o++) {
		size_t i = c->tier->order[o];
		uint64_t sz = c->files[i].bytes;
		if (off < base + sz) {
			size_t m = base + sz - off < n ? (size_t)(base + sz - off) : n;
			int e = read_all(fds[i], buf, m, off - base);
			if (e)
				return e;
			buf += m;
			n -= m;
			off += m;
		}
		base += sz;
	}
	memset(buf, 0, n);
	return 0;
}

/* xor: set s's parity, in bs-sized pieces */
static int xor_set(struct sb_wl_job *j, unsigned k, unsigned s, int *fds, unsigned char *buf,
		   size_t bs, char *path, size_t plen)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	unsigned set = sb_ckpt_opts(j->spec)->set_size, r0 = s * set, r1 = r0 + set;
	r1 = r1 > c->ranks ? c->ranks : r1;
	uint64_t len = 0;
	int e = 0, out = -1;
	for (unsigned r = r0; r < r1; r++)
		len = t->rank_bytes[r] > len ? t->rank_bytes[r] : len;
	for (size_t i = c->rank_first[r0]; i < c->rank_first[r1] && !e; i++) {
		sb_ml_tier_path(c, k, i, path, plen);
		if ((fds[i] = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			e = -errno;
	}
	if (!e) {
		sb_ml_tier_xpath(c, k, s, path, plen);
		out = create(j, path, &t->par_id[(size_t)k * t->nsets + s]);
		e = out < 0 ? -errno : 0;
	}
	unsigned char *acc = buf + bs;
	for (uint64_t off = 0; !e && off < len; off += bs) {
		size_t n = len - off < bs ? (size_t)(len - off) : bs;
		memset(acc, 0, n);
		for (unsigned r = r0; r < r1 && !e; r++) {
			e = stream_read(c, r, fds, off, buf, n);
			for (size_t b = 0; !e && b < n; b++)
				acc[b] ^= buf[b];
		}
		e = e ? e : write_all(out, acc, n, off);
	}
	if (!e && j->spec->checkpoint_fsync && fsync(out))
		e = -errno;
	if (out >= 0)
		close(out);
	t->redundancy_bytes += len;
	for (size_t i = c->rank_first[r0]; i < c->rank_first[r1]; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return e;
}

int sb_ml_tier_redundancy(struct sb_wl_job *j, unsigned k)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	unsigned red = sb_ckpt_opts(j->spec)->checkpoint_redundancy;
	size_t bs = sb_ckpt_opts(j->spec)->flush_bs;
	char path[PATH_MAX] = "";
	int e = 0;
	if (red == SB_CKPT_RED_SINGLE)
		return 0;
	unsigned char *buf = malloc(2 * bs);
	int *fds = malloc(c->nfiles * sizeof(*fds) + 1);
	if (!buf || !fds) {
		free(buf);
		free(fds);
		return sb_ml_fail(&j->workers[0], ENOMEM, "out of memory for the redundancy of", t->cache);
	}
	t->redundancy_bytes = 0;
	if (red == SB_CKPT_RED_PARTNER) {
		e = partner(j, k, buf, bs);
		for (size_t i = 0; i < c->nfiles; i++)
			t->redundancy_bytes += c->files[i].bytes;
	}
	for (unsigned s = 0; red == SB_CKPT_RED_XOR && s < t->nsets && !e; s++) {
		for (size_t i = 0; i < c->nfiles; i++)
			fds[i] = -1;
		if ((e = xor_set(j, k, s, fds, buf, bs, path, sizeof(path))))
			sb_ml_fail(&j->workers[0], -e, "cannot write the xor parity", path);
	}
	free(buf);
	free(fds);
	return e;
}

/* unlink or keep a file / rmdir or keep a folder storbench made */
static void drop(const char *path, struct sb_scratch_id *id, bool dir, bool keep)
{
	if (!id->ino)
		return;
	if (keep)
		sb_scratch_keep(path, id);
	else if (dir)
		sb_scratch_rmdir(path, id); /* fails, as it should, if someone put a file there */
	else
		sb_scratch_unlink(path, id);
	id->ino = 0;
}

void sb_ml_tier_evict(struct sb_wl_job *j, unsigned k, bool keep)
{
	struct sb_ml_ckpt *c = j->priv;
	struct sb_ml_tier *t = c->tier;
	char path[PATH_MAX];
	for (size_t i = 0; i < c->nfiles; i++) {
		sb_ml_tier_path(c, k, i, path, sizeof(path));
		drop(path, &t->file_id[(size_t)k * c->nfiles + i], false, keep);
		sb_ml_tier_ppath(c, k, i, path, sizeof(path));
		drop(path, &t->part_id[(size_t)k * c->nfiles + i], false, keep);
	}
	for (unsigned r = 0; r < c->ranks; r++) {
		sb_ml_tier_pdir(c, r, k, path, sizeof(path));
		drop(path, &t->pdir_id[(size_t)k * c->ranks + r], true, keep);
	}
	for (unsigned r = 0; r < c->ranks; r++) {
		sb_ml_tier_step(c, r, k, path, sizeof(path));
		drop(path, &t->step_id[(size_t)k * c->ranks + r], true, keep);
	}
	for (unsigned s = 0; s < t->nsets; s++) {
		sb_ml_tier_xpath(c, k, s, path, sizeof(path));
		drop(path, &t->par_id[(size_t)k * t->nsets + s], false, keep);
	}
	sb_ml_tier_xstep(c, k, path, sizeof(path));
	drop(path, &t->xstep_id[k], true, keep);
	if (!keep)
		t->in_cache[k] = false;
}
