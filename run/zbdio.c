/* zbdio.c: zonemode=zbd's per-I/O rules (see zbd.h), as fio 3.33's zbd.c
 * applies them: setup_zbd_zone_mode (zbd.c:1701-1771), zbd_adjust_ddir
 * (1773-1790), zbd_adjust_block (1802-2071), zbd_open_zone (409-468),
 * zbd_convert_to_open_zone (1261-1478), zbd_find_zone (1523-1571),
 * zbd_queue_io/zbd_end_zone_io (1573-1649), and trims (2017-2031,
 * 2092-2113).  One thread of a job per file's zones (sb_job_validate_zone
 * refuses numjobs > 1 that write); jobs side by side share a file's zones
 * under its device's lock (fio locks each zone). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "os/outfile.h"
#include "run/iogen.h"
#include "run/zbd.h"
#include "lib/log.h"

static uint32_t zidx(const struct sb_zbd_dev *d, uint64_t off)
{
	uint64_t i = off / d->zone_size;
	return i < d->nr ? (uint32_t)i : d->nr;
}

static uint64_t cap_end(const struct sb_zbd_zone *z)
{
	return z->start + z->cap;
}

static bool zone_full(const struct sb_zbd_zone *z, uint64_t need)
{
	return z->seq && z->wp + need > cap_end(z);
}

static bool valid(const struct sb_zbd_file *zf, uint64_t off)
{
	return off - zf->off < zf->io_size;
}

static void close_zone(struct sb_zbd *zb, struct sb_zbd_dev *d, struct sb_zbd_zone *z)
{
	if (!z->open)
		return;
	uint32_t i = (uint32_t)(z - d->z), k;
	for (k = 0; k < d->nopen && d->open[k] != i; k++)
		;
	if (k == d->nopen)
		return;
	for (; k + 1 < d->nopen; k++)
		d->open[k] = d->open[k + 1];
	d->nopen--;
	if (zb->job_open)
		zb->job_open--;
	z->open = false;
}

/* fio zbd_reset_zone (zbd.c:249): a device's zone through BLKRESETZONE */
static int reset_zone(struct sb_iogen *g, struct sb_zbd_dev *d, struct sb_zbd_zone *z)
{
	uint64_t data = z->wp - z->start;
	if (!data)
		return 0;
	if (d->model != SB_ZMODEL_NONE) {
		if (d->fd < 0)
			d->fd = sb_outfile_open_data(d->path, O_WRONLY, 0); /* the job's device */
		int r = d->fd < 0 ? d->fd : sb_os_reset_zones(d->fd, z->start, (z + 1)->start - z->start);
		if (r) {
			sb_err(d->path, "resetting the write pointer of the zone at byte %llu failed: %s",
			       (unsigned long long)z->start, strerror(-r));
			return r;
		}
	}
	d->swd -= data;
	d->wp_swd -= data;
	z->wp = z->start;
	g->zbd->resets++;
	return 0;
}

void sb_zbd_reset_range(struct sb_iogen *g, struct sb_zbd_file *zf)
{
	struct sb_zbd_dev *d = zf->d;
	for (uint32_t i = zf->min_zone; i < zf->max_zone; i++) {
		struct sb_zbd_zone *z = &d->z[i];
		if (!z->seq)
			continue;
		close_zone(g->zbd, d, z);
		if (z->wp != z->start)
			reset_zone(g, d, z);
	}
}

static bool open_zone(struct sb_iogen *g, struct sb_zbd_dev *d, struct sb_zbd_zone *z, uint64_t min_bs)
{
	const struct sb_jobspec *s = g->spec;
	if (z->cond == SB_ZCOND_OFFLINE)
		return false;
	if (s->verify && zone_full(z, min_bs))
		return false;
	if (!d->max_open)
		return true;
	if (z->open)
		return z->wp < cap_end(z);
	if (s->job_max_open_zones && g->zbd->job_open >= s->job_max_open_zones)
		return false;
	if (d->nopen >= d->max_open)
		return false;
	d->open[d->nopen++] = (uint32_t)(z - d->z);
	g->zbd->job_open++;
	z->open = true;
	return true;
}

static uint32_t pick_open(const struct sb_zbd_file *zf, uint64_t off)
{
	return (uint32_t)((off - zf->off) * zf->d->nopen / zf->io_size);
}

/* the open zone (of this job's range) that the offset picks, as fio */
static bool pick_candidate(const struct sb_zbd_file *zf, uint64_t off, uint32_t *zi)
{
	const struct sb_zbd_dev *d = zf->d;
	uint32_t t = pick_open(zf, off);
	for (uint32_t i = 0; i < d->nopen; i++, t++) {
		if (t >= d->nopen)
			t = 0;
		if (zf->min_zone <= d->open[t] && d->open[t] < zf->max_zone) {
			*zi = d->open[t];
			return true;
		}
	}
	return false;
}

/* fio zbd_convert_to_open_zone: the zone a write that cannot open its own
 * goes to; NULL when none (no I/O is in flight on this thread's path, so
 * fio's waits and its one retry change nothing) */
static struct sb_zbd_zone *convert(struct sb_iogen *g, struct sb_zbd_file *zf, uint64_t off,
				   uint64_t min_bs)
{
	struct sb_zbd_dev *d = zf->d;
	bool limits = d->max_open || g->spec->job_max_open_zones;
	uint32_t zi = limits ? d->open[pick_open(zf, off) < d->nopen ? pick_open(zf, off) : 0]
			     : zidx(d, off);
	if (zi < zf->min_zone)
		zi = zf->min_zone;
	else if (zi >= zf->max_zone)
		zi = zf->max_zone - 1;
	struct sb_zbd_zone *z = &d->z[zi];
	bool examine = true;
	if (z->seq && !limits && z->cond != SB_ZCOND_OFFLINE)
		examine = true;
	else if (z->seq && !d->nopen)
		examine = false; /* no zone open: open another */
	else if (pick_candidate(zf, off, &zi))
		z = &d->z[zi];
	else
		return NULL;
	if (examine && z->wp + min_bs <= cap_end(z))
		return z;
	for (uint64_t i = zf->io_size / d->zone_size; i > 0; i--) {
		z++;
		if (!valid(zf, z->start))
			z = &d->z[zf->min_zone];
		if (!z->seq || z->open)
			continue;
		if (open_zone(g, d, z, min_bs))
			return z;
	}
	for (uint32_t i = 0; i < d->nopen; i++) {
		uint32_t k = d->open[i];
		if (k >= zf->min_zone && k < zf->max_zone && d->z[k].wp + min_bs <= cap_end(&d->z[k]))
			return &d->z[k];
	}
	return NULL;
}

/* fio zbd_find_zone: the next zone (random: the nearest either side) with
 * need bytes below its write pointer */
static struct sb_zbd_zone *find_zone(const struct sb_iogen *g, const struct sb_zbd_file *zf,
				     struct sb_zbd_zone *zb, uint64_t need)
{
	struct sb_zbd_zone *zl = &zf->d->z[zf->max_zone], *zfirst = &zf->d->z[zf->min_zone];
	struct sb_zbd_zone *z1 = zb + 1, *z2 = zb - 1;
	for (; z1 < zl || z2 >= zfirst; z1++, z2--) {
		if (z1 < zl && z1->cond != SB_ZCOND_OFFLINE) {
			if (z1->start + need <= z1->wp)
				return z1;
		} else if (!g->random) {
			break;
		}
		if (g->random && z2 >= zfirst && z2->cond != SB_ZCOND_OFFLINE && z2->start + need <= z2->wp)
			return z2;
	}
	return NULL;
}

/* fio setup_zbd_zone_mode: a sequential write at a zone's capacity moves to
 * the zone's end; zoneskip moves a sequential job on */
static void zone_mode(struct sb_iogen *g, struct sb_zbd_file *zf, int d)
{
	const struct sb_jobspec *s = g->spec;
	struct sb_zbd_dev *dv = zf->d;
	struct sb_zbd_zone *z = &dv->z[zidx(dv, zf->last_pos[d])];
	if (z->cap < dv->zone_size && !g->random && d == SB_DDIR_WRITE &&
	    zf->last_pos[d] >= cap_end(z) && z < &dv->z[dv->nr]) {
		zf->last_pos[d] = (z + 1)->start;
	}
	if (g->random || !s->zoneskip)
		return;
	if (g->zbd->zone_bytes >= s->zonesize || z == &dv->z[dv->nr] ||
	    zf->last_pos[d] >= (z + 1)->start ||
	    (d == SB_DDIR_READ && !s->read_beyond_wp && zf->last_pos[d] >= z->wp)) {
		g->zbd->zone_bytes = 0;
		zf->off += s->zonesize + s->zoneskip;
		if (zf->off >= zf->real)
			zf->off = zf->start0;
		zf->last_pos[d] = zf->off;
	}
}

/* reads: below the write pointer (fio zbd_adjust_block, DDIR_READ) */
static bool adjust_read(struct sb_iogen *g, struct sb_zbd_file *zf, uint64_t *len, uint64_t *off)
{
	uint64_t min_bs = g->spec->bs_min[SB_DDIR_READ];
	struct sb_zbd_zone *orig = &zf->d->z[zidx(zf->d, *off)], *zb = orig;
	if (zb->cond != SB_ZCOND_OFFLINE && g->spec->read_beyond_wp)
		return true;
	uint64_t range = zb->cond != SB_ZCOND_OFFLINE ? zb->wp - zb->start : 0;
	if (range < min_bs || (!g->random && *off + min_bs > zb->wp)) {
		zb = find_zone(g, zf, zb, min_bs);
		if (!zb)
			return false;
		range = zb->wp - zb->start;
		if (!g->random)
			*off = zb->start;
	}
	if (range <= *len)
		*off = zb->start;
	else if (g->random)
		*off = zb->start + ((*off - orig->start) % (range - *len)) / min_bs * min_bs;
	if (!zb->seq)
		return true;
	uint64_t n = zb->wp - *off < *len ? zb->wp - *off : *len;
	*len = n / min_bs * min_bs;
	return *len > 0;
}

/* writes: at the write pointer of an open zone (fio zbd_adjust_block,
 * DDIR_WRITE, and zbd_queue_io/zbd_end_zone_io as a sync engine sees them) */
static bool adjust_write(struct sb_iogen *g, struct sb_zbd_file *zf, uint64_t *len, uint64_t *off)
{
	const struct sb_jobspec *s = g->spec;
	struct sb_zbd_dev *d = zf->d;
	uint64_t min_bs = s->bs_min[SB_DDIR_WRITE];
	struct sb_zbd_zone *zb = &d->z[zidx(d, *off)];
	if (!zb->seq)
		return true; /* conventional zones: as they come (fio trims at the next zone) */
	if (!open_zone(g, d, zb, min_bs) && !(zb = convert(g, zf, *off, min_bs)))
		return false;
	if (s->zone_reset_frequency > 0 && d->wp_swd >= zf->io_size * s->zone_reset_threshold) {
		if (d->write_cnt)
			d->write_cnt--;
		if (!d->write_cnt) {
			double c = 1.0 / s->zone_reset_frequency;
			d->write_cnt = c < 4294967295.0 ? (uint32_t)c : UINT32_MAX;
			zb->reset = true;
		}
	}
	if (zb->reset || zone_full(zb, min_bs)) {
		zb->reset = false;
		if (reset_zone(g, d, zb) || zb->cap < min_bs)
			return false;
	}
	*off = zb->wp;
	if (!valid(zf, *off))
		return false;
	uint64_t n = cap_end(zb) - *off < *len ? cap_end(zb) - *off : *len;
	n = n / min_bs * min_bs;
	if (n < min_bs)
		return false;
	*len = n;
	uint64_t end = *off + n < cap_end(zb) ? *off + n : cap_end(zb);
	d->swd += end - zb->wp;
	d->wp_swd += end - zb->wp;
	zb->wp = end;
	if (*off + n >= cap_end(zb))
		close_zone(g->zbd, d, zb);
	return true;
}

/* trims (fio zbd_adjust_block DDIR_TRIM, zbd.c:2017-2031, and
 * zbd_do_io_u_trim, zbd.c:2092-2113): a random trim goes to a zone with
 * data; a sequential zone's trim resets it (its offset must be the zone's
 * start), the engine's trim then empties it; a conventional zone's is the
 * engine's trim alone */
static bool adjust_trim(struct sb_iogen *g, struct sb_zbd_file *zf, uint64_t *off)
{
	struct sb_zbd_dev *d = zf->d;
	struct sb_zbd_zone *zb = &d->z[zidx(d, *off)];
	if (zb == &d->z[d->nr])
		return false;
	if (g->random && zb->wp <= zb->start) {
		if (!(zb = find_zone(g, zf, zb, 1)))
			return false;
		*off = zb->start;
	}
	if (!zb->seq)
		return true;
	if (*off != zb->start) {
		sb_err(d->path, "zonemode=zbd: a trim at byte %llu, not at its zone's start (%llu)",
		       (unsigned long long)*off, (unsigned long long)zb->start);
		return false;
	}
	close_zone(g->zbd, d, zb);
	return reset_zone(g, d, zb) == 0;
}

int sb_zbd_ddir(struct sb_iogen *g, unsigned file, int d)
{
	if (d != SB_DDIR_READ || !g->mixed)
		return d;
	struct sb_zbd_dev *dv = g->zbd->f[file].d;
	pthread_mutex_lock(&dv->lock);
	bool data = dv->swd != 0;
	pthread_mutex_unlock(&dv->lock);
	return data || g->spec->read_beyond_wp ? d : SB_DDIR_WRITE;
}

/* the offset fio's generator hands zbd_adjust_block: sequential from
 * last_pos, random from the random map (the caller's, in *off) */
static uint64_t base_offset(struct sb_iogen *g, struct sb_zbd_file *zf, int d, uint64_t rnd)
{
	if (g->random)
		return rnd;
	/* io_u.c:357 and 506-518: past the region's end a time_based job wraps,
	 * any other ends (UINT64_MAX: no offset) */
	if (zf->last_pos[d] - zf->off >= zf->io_size) {
		if (!g->spec->time_based || zf->last_pos[d] < zf->off)
			return UINT64_MAX;
		zf->last_pos[d] = zf->off;
	}
	return zf->last_pos[d];
}

static bool next_one(struct sb_iogen *g, unsigned file, int d, uint64_t *len, uint64_t *off)
{
	struct sb_zbd_file *zf = &g->zbd->f[file];
	if (d != SB_DDIR_READ && d != SB_DDIR_WRITE && d != SB_DDIR_TRIM)
		return true;
	zone_mode(g, zf, d);
	*off = base_offset(g, zf, d, *off);
	if (*off >= zf->real || !valid(zf, *off))
		return false;
	bool ok = d == SB_DDIR_READ ? adjust_read(g, zf, len, off) :
		  d == SB_DDIR_WRITE ? adjust_write(g, zf, len, off) : adjust_trim(g, zf, off);
	if (!ok || *off + *len > zf->real)
		return false;
	zf->last_pos[d] = *off + *len;
	g->zbd->zone_bytes += *len;
	return true;
}

/* one file's part of sb_zbd_loop, under its device's lock */
static void loop_file(struct sb_iogen *g, struct sb_zbd_file *zf, struct sb_zbd_dev *d)
{
	for (int k = 0; k < 3; k++) /* fio_file_reset: from the start */
		zf->last_pos[k] = zf->off;
	d->swd = d->wp_swd = 0; /* fio zbd_file_reset (zbd.c:1207) */
	for (uint32_t k = 0; k < d->nr; k++) {
		d->swd += d->z[k].wp - d->z[k].start;
		if (d->z[k].seq)
			d->wp_swd += d->z[k].wp - d->z[k].start;
	}
	if (!(g->spec->rw & SB_RW_WRITE))
		return;
	if (g->spec->verify)
		sb_zbd_reset_range(g, zf);
	double c = g->spec->zone_reset_frequency > 0 ? 1.0 / g->spec->zone_reset_frequency : 4294967295.0;
	d->write_cnt = c < 4294967295.0 ? (uint32_t)c : UINT32_MAX;
}

/* a new loop or pass: fio fio_file_reset and zbd_file_reset (zbd.c:1207) */
void sb_zbd_loop(struct sb_iogen *g)
{
	if (!g->zbd)
		return;
	for (unsigned i = 0; i < g->zbd->nfiles; i++) {
		struct sb_zbd_file *zf = &g->zbd->f[i];
		struct sb_zbd_dev *d = zf->d;
		if (!d)
			continue;
		pthread_mutex_lock(&d->lock);
		loop_file(g, zf, d);
		pthread_mutex_unlock(&d->lock);
	}
}

/* An I/O fio cannot place ends the pass: with io_size= asking for more
 * bytes the next pass starts over (fio_file_reset, zbd_file_reset) if this
 * one did I/O; otherwise the loop is over */
static bool next_locked(struct sb_iogen *g, unsigned file, int d, uint64_t *len, uint64_t *off)
{
	pthread_mutex_t *mu = &g->zbd->f[file].d->lock;
	pthread_mutex_lock(mu);
	bool ok = next_one(g, file, d, len, off);
	pthread_mutex_unlock(mu);
	return ok;
}

bool sb_zbd_next(struct sb_iogen *g, unsigned file, int d, uint64_t *len, uint64_t *off)
{
	uint64_t want = *len, rnd = *off;
	if (next_locked(g, file, d, len, off)) {
		g->zbd->pass_ios++;
		return true;
	}
	if (!g->zbd->pass_ios || (!g->spec->io_size && !g->spec->io_size_pct))
		return false;
	g->zbd->pass_ios = 0;
	sb_zbd_loop(g);
	*len = want;
	*off = rnd;
	if (!next_locked(g, file, d, len, off))
		return false;
	g->zbd->pass_ios++;
	return true;
}
