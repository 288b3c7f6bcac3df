/* zbd.c: zonemode=zbd's zones (see zbd.h): the registry that shares a
 * file's zones between the jobs of a run (fio zbd_init_zone_info,
 * zbd.c:964), emulated zones of a regular file or a non-zoned device (fio
 * init_zone_info, zbd.c:656-729), a zoned device's own zones (parse_zone_info,
 * zbd.c:731-842, through os/blkzoned.h), the open-zone limit
 * (zbd_set_max_open_zones, zbd.c:844-897) and the region's alignment to
 * zones (zbd_zone_align_file_sizes, zbd.c:514-583). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "run/iogen.h"
#include "run/zbd.h"
#include "lib/log.h"
#include "os/blkdev.h"
#include "parse/options.h"
#include "parse/parse.h"
#include <stdarg.h>
#include <stdio.h>

#define ZBD_MAX_OPEN 4096 /* fio ZBD_MAX_OPEN_ZONES */
#define REG_MAX 64

/* an error of job s on file path: the job's file:line (that of option o) */
static void __attribute__((format(printf, 4, 5))) zerr_at(const struct sb_jobspec *s,
							  const struct sb_option *o, const char *path,
							  const char *fmt, ...)
{
	char where[512], m[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	sb_spec_where(s, o, where, sizeof(where));
	sb_err(where, "job %s: %s: %s", s->name, path, m);
}

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sb_zbd_dev *reg[REG_MAX];

static void dev_free(struct sb_zbd_dev *d)
{
	pthread_mutex_destroy(&d->lock);
	if (d->fd >= 0)
		close(d->fd);
	free(d->z);
	free(d->open);
	free(d->path);
	free(d);
}

void sb_zbd_run_start(void)
{
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++)
		if (reg[i] && !reg[i]->refs) {
			dev_free(reg[i]);
			reg[i] = NULL;
		}
	pthread_mutex_unlock(&reg_lock);
}

/* emulated zones: all empty, zonecapacity writable (fio init_zone_info) */
static int emulate(struct sb_zbd_dev *d, const struct sb_jobspec *s, uint64_t real)
{
	d->zone_size = s->zonesize;
	d->nr = (uint32_t)((real + s->zonesize - 1) / s->zonesize);
	d->z = calloc(d->nr + 1, sizeof(*d->z));
	if (!d->z)
		return -ENOMEM;
	for (uint32_t i = 0; i <= d->nr; i++) {
		d->z[i].start = (uint64_t)i * s->zonesize;
		d->z[i].wp = d->z[i].start;
		d->z[i].cap = i < d->nr ? (s->zonecapacity ? s->zonecapacity : s->zonesize) : 0;
		d->z[i].seq = i < d->nr;
		d->z[i].cond = SB_ZCOND_EMPTY;
	}
	return 0;
}

/* a zoned device's zones (fio parse_zone_info); its zone size must be
 * zonesize when that is given */
static int report(struct sb_zbd_dev *d, const struct sb_jobspec *s, uint64_t real, int fd)
{
	size_t max = 1u << 20;
	struct sb_zinfo *zi = calloc(max, sizeof(*zi));
	if (!zi)
		return -ENOMEM;
	int n = sb_os_report_zones(fd, 0, zi, max);
	if (n < 0) {
		zerr_at(s, SB_OPT(zonesize), d->path, "reporting its zones (BLKREPORTZONE) failed: %s", strerror(-n));
		free(zi);
		return n;
	}
	d->zone_size = zi[0].len;
	if (s->zonesize && s->zonesize != d->zone_size) { /* fio zbd.c:530 */
		zerr_at(s, SB_OPT(zonesize), d->path, "zonesize=%llu does not match the device's zone size %llu: set "
		       "zonesize=%llu or leave it out", (unsigned long long)s->zonesize,
		       (unsigned long long)d->zone_size, (unsigned long long)d->zone_size);
		free(zi);
		return -EINVAL;
	}
	d->nr = (uint32_t)n;
	d->z = calloc(d->nr + 1, sizeof(*d->z));
	if (!d->z) {
		free(zi);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < d->nr; i++)
		d->z[i] = (struct sb_zbd_zone){ .start = zi[i].start, .cap = zi[i].cap,
			.wp = zi[i].cond == SB_ZCOND_FULL ? zi[i].start + zi[i].cap : zi[i].wp,
			.seq = zi[i].seq, .cond = zi[i].cond };
	d->z[d->nr].start = zi[d->nr - 1].start + zi[d->nr - 1].len;
	(void)real;
	free(zi);
	return 0;
}

/* the zoned model of the device open on fd, and its open-zone limit */
static enum sb_zmodel model_of(int fd, unsigned *max_open)
{
	struct stat st;
	char name[64];
	*max_open = 0;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || sb_os_dev_name("", st.st_rdev, false, name, sizeof(name)))
		return SB_ZMODEL_NONE;
	*max_open = sb_os_max_open_zones("", name);
	return sb_os_zoned_model("", name);
}

/* fio zbd_set_max_open_zones */
static int set_max_open(struct sb_zbd_dev *d, const struct sb_jobspec *s, unsigned dev_max)
{
	d->max_open = s->max_open_zones;
	if (d->model == SB_ZMODEL_HOST_MANAGED && !s->ignore_zone_limits && dev_max) {
		if (!s->max_open_zones)
			d->max_open = dev_max;
		else if (s->max_open_zones > dev_max) {
			zerr_at(s, SB_OPT(max_open_zones), d->path, "max_open_zones=%u is larger than the device's limit %u: lower "
			       "it, or set ignore_zone_limits=1", s->max_open_zones, dev_max);
			return -EINVAL;
		}
	}
	if (d->max_open > ZBD_MAX_OPEN)
		d->max_open = ZBD_MAX_OPEN;
	d->open = calloc(ZBD_MAX_OPEN, sizeof(*d->open));
	return d->open ? 0 : -ENOMEM;
}

/* writes to a zoned device: fio's rule (zbd.c:470-488, host-managed needs
 * direct=1), and storbench's: a reset is issued while the job's other writes
 * could still be in flight (fio waits for them, io_u_quiesce), so a job
 * that writes a zoned device runs one I/O at a time */
static int device_rules(const struct sb_zbd_dev *d, const struct sb_jobspec *s, const char *path)
{
	if (d->model != SB_ZMODEL_NONE && (s->rw & SB_RW_TRIM)) {
		zerr_at(s, SB_OPT(rw), path, "trims of a zoned device: fio turns a trim of a sequential zone into "
		     "a zone reset (zbd.c:2092), which storbench does on emulated zones only (a regular "
		     "file with zonesize=): run trims of a zoned device with fio");
		return -EDOM;
	}
	if (d->model == SB_ZMODEL_NONE || !(s->rw & SB_RW_WRITE))
		return 0;
	if (d->model == SB_ZMODEL_HOST_MANAGED && !s->direct) {
		zerr_at(s, SB_OPT(direct), path, "writing a host-managed zoned device needs direct=1 (as fio: buffered "
		     "writes reach the device out of order): set direct=1");
		return -EDOM;
	}
	if (s->iodepth_eff > 1) {
		zerr_at(s, SB_OPT(iodepth), path, "writing a zoned device with iodepth=%u: storbench resets zones without "
		     "waiting for writes in flight: use iodepth=1 (or a synchronous engine)",
		     s->iodepth_eff);
		return -EDOM;
	}
	return 0;
}

static int dev_make(struct sb_zbd_dev *d, const struct sb_jobspec *s, const struct sb_file *sf,
		    uint64_t real)
{
	unsigned dev_max = 0;
	int r;
	if (sf->is_bdev) {
		int fd = open(sf->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		d->model = model_of(fd, &dev_max);
		r = d->model != SB_ZMODEL_NONE ? report(d, s, real, fd) : 0;
		close(fd);
		if (r || (r = device_rules(d, s, sf->path)))
			return r;
	}
	if (d->model == SB_ZMODEL_NONE) {
		if (!s->zonesize) { /* fio zbd.c:666 */
			zerr_at(s, SB_OPT(zonesize), sf->path, "zonemode=zbd on a file that is not a zoned device needs "
			       "zonesize= (the size of the emulated zones), e.g. zonesize=256m");
			return -EDOM;
		}
		if (real < s->zonesize) { /* fio zbd.c:698 */
			zerr_at(s, SB_OPT(zonesize), sf->path, "zonemode=zbd: the file is %llu bytes, smaller than zonesize=%llu: "
			       "lower zonesize or raise size", (unsigned long long)real,
			       (unsigned long long)s->zonesize);
			return -EDOM;
		}
		if ((r = emulate(d, s, real)))
			return r;
	}
	return set_max_open(d, s, dev_max);
}

/* the zones of the file, shared with the other jobs of the run (by path) */
static int dev_get(const struct sb_jobspec *s, const struct sb_file *sf, uint64_t real,
		   struct sb_zbd_dev **out)
{
	int r = 0, freei = -1;
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++) {
		if (!reg[i]) {
			freei = freei < 0 ? i : freei;
			continue;
		}
		if (strcmp(reg[i]->path, sf->path))
			continue;
		if (reg[i]->model == SB_ZMODEL_NONE && reg[i]->zone_size == s->zonesize &&
		    reg[i]->z[reg[i]->nr].start >= real) {
			reg[i]->refs++;
			*out = reg[i];
			goto out;
		}
		if (reg[i]->model != SB_ZMODEL_NONE) {
			reg[i]->refs++;
			*out = reg[i];
			goto out;
		}
		if (!reg[i]->refs) { /* other zones: start afresh */
			dev_free(reg[i]);
			reg[i] = NULL;
			freei = freei < 0 ? i : freei;
		}
	}
	struct sb_zbd_dev *d = calloc(1, sizeof(*d));
	if (freei < 0 || !d || !(d->path = strdup(sf->path))) {
		free(d);
		r = freei < 0 ? -EMFILE : -ENOMEM;
		goto out;
	}
	d->fd = -1;
	pthread_mutex_init(&d->lock, NULL);
	if ((r = dev_make(d, s, sf, real))) {
		dev_free(d);
		goto out;
	}
	d->refs = 1;
	reg[freei] = d;
	*out = d;
out:
	pthread_mutex_unlock(&reg_lock);
	return r;
}

/* fio zbd_zone_align_file_sizes: a job that is not rw=read works on whole
 * zones: its offset rounds up to a zone's start, its end down to one */
static int align(const struct sb_jobspec *s, struct sb_zbd_file *zf, const char *path)
{
	struct sb_zbd_dev *d = zf->d;
	if (s->zoneskip % d->zone_size) { /* fio zbd.c:539 */
		zerr_at(s, SB_OPT(zoneskip), path, "zoneskip=%llu is not a multiple of the zone size %llu: use a multiple, "
		       "or zoneskip=Nz", (unsigned long long)s->zoneskip, (unsigned long long)d->zone_size);
		return -EDOM;
	}
	if ((s->rw & SB_RW_TRIM) && s->bs_min[SB_DDIR_TRIM] != d->zone_size) { /* fio zbd.c:621-626 */
		zerr_at(s, SB_OPT(bs), path, "zonemode=zbd: the trim block size %llu is not the zone size %llu "
		       "(a trim resets one whole zone): set the trim bs to the zone size",
		       (unsigned long long)s->bs_min[SB_DDIR_TRIM], (unsigned long long)d->zone_size);
		return -EDOM;
	}
	if (s->rw == SB_RW_READ || zf->off >= zf->real)
		return 0;
	uint64_t zs = zf->off / d->zone_size * d->zone_size, end = zf->off + zf->io_size;
	uint64_t noff = zs == zf->off ? zf->off : zs + d->zone_size;
	uint64_t nend = end / d->zone_size * d->zone_size;
	if (noff >= end || nend <= noff) {
		zerr_at(s, SB_OPT(zonesize), path, "zonemode=zbd: the I/O region [%llu, %llu) holds no whole zone of %llu "
		       "bytes (a writing job works on whole zones): raise size or align offset",
		       (unsigned long long)zf->off, (unsigned long long)end,
		       (unsigned long long)d->zone_size);
		return -EDOM;
	}
	zf->off = noff;
	zf->io_size = nend - noff;
	return 0;
}

static int file_setup(struct sb_iogen *g, unsigned i)
{
	const struct sb_jobspec *s = g->spec;
	struct sb_genfile *gf = &g->gf[i];
	struct sb_zbd_file *zf = &g->zbd->f[i];
	const struct sb_file *sf = &g->files[i];
	uint64_t real = sf->real_size > sf->size ? sf->real_size : sf->size;
	int r = dev_get(s, sf, real, &zf->d);
	if (r)
		return r;
	zf->real = real;
	zf->off = zf->start0 = gf->start;
	zf->io_size = gf->len;
	if ((r = align(s, zf, sf->path)))
		return r;
	gf->start = zf->off;
	gf->nblocks = zf->io_size / g->unit;
	gf->len = gf->nblocks * g->unit;
	zf->min_zone = (uint32_t)(zf->off / zf->d->zone_size);
	uint64_t mz = (zf->off + zf->io_size) / zf->d->zone_size;
	zf->max_zone = mz < zf->d->nr ? (uint32_t)mz : zf->d->nr;
	if (zf->max_zone <= zf->min_zone)
		zf->max_zone = zf->min_zone + 1 <= zf->d->nr ? zf->min_zone + 1 : zf->d->nr;
	for (int d = 0; d < 3; d++)
		zf->last_pos[d] = zf->off;
	return 0;
}

int sb_zbd_setup(struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	if (!sb_parse_machine()) /* --parse-only: the job, not its files */
		return 0;
	g->zbd = calloc(1, sizeof(*g->zbd));
	if (!g->zbd || !(g->zbd->f = calloc(g->nfiles, sizeof(*g->zbd->f))))
		return -ENOMEM;
	g->zbd->nfiles = g->nfiles;
	g->ext = true;
	uint64_t total = 0;
	for (unsigned i = 0; i < g->nfiles; i++) {
		int r = file_setup(g, i);
		if (r)
			return r;
		total += g->gf[i].len;
	}
	(void)total; /* the byte count stays size= (fio's io_size is not the aligned one) */
	(void)s;
	sb_zbd_loop(g);
	return 0;
}

void sb_zbd_free(struct sb_iogen *g)
{
	if (!g->zbd)
		return;
	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < g->zbd->nfiles; i++)
		if (g->zbd->f[i].d && g->zbd->f[i].d->refs)
			g->zbd->f[i].d->refs--;
	pthread_mutex_unlock(&reg_lock);
	free(g->zbd->f);
	free(g->zbd);
	g->zbd = NULL;
}
