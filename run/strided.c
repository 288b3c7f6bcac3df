/* strided.c: zonemode=strided, the I/O of one file in zones as
 * fio 3.33 moves it (io_u.c:892-933 setup_strided_zone_mode, io_u.c:58-80
 * the random range, io_u.c:486-512 and 544 the checks that end the job):
 * the job moves zonesize bytes in the zone of zonerange bytes that starts at
 * zs_start (sequential I/O starts over at the zone's start when it reaches
 * the range's end; random I/O picks blocks of the range, each once per
 * range's worth of bytes), then the zone moves on by zonerange + zoneskip
 * bytes, back to the region's start past the file's end.  The job's byte
 * count (io_size, default size) is unchanged.  On the general path only. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/iogen.h"

int sb_strided_setup(struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	struct sb_genfile *f = &g->gf[0];
	g->strided = g->ext = true;
	g->zs_start = f->start;
	g->zs_end = f->start + f->real_end;
	for (int d = 0; d < SB_DDIR_N; d++)
		g->zs_last[d] = f->start;
	if (!g->random)
		return 0;
	/* fio io_u.c:74-80: random blocks of the zone range, less a larger
	 * block's tail */
	uint64_t range = s->zonerange;
	if (s->bs_max[g->only_ddir] > g->unit && range > s->bs_max[g->only_ddir] - g->unit)
		range -= s->bs_max[g->only_ddir] - g->unit;
	g->zs_nb = range / g->unit ? range / g->unit : 1;
	g->zs_map = calloc((g->zs_nb + 63) / 64, sizeof(uint64_t));
	if (!g->zs_map)
		return -ENOMEM;
	g->zs_nfree = g->zs_nb;
	return 0;
}

static void map_reset(struct sb_iogen *g)
{
	if (g->zs_map) {
		memset(g->zs_map, 0, (g->zs_nb + 63) / 64 * sizeof(uint64_t));
		g->zs_nfree = g->zs_nb;
	}
}

/* a random untouched unit of the zone range (fio's random map); a map
 * without one starts over */
static uint64_t pick_block(struct sb_iogen *g)
{
	if (!g->zs_nfree)
		map_reset(g);
	uint64_t b = sb_rng_below(&g->rng, g->zs_nb);
	if (g->spec->norandommap)
		return b;
	while (g->zs_map[b >> 6] & (1ull << (b & 63)))
		b = b + 1 == g->zs_nb ? 0 : b + 1;
	g->zs_map[b >> 6] |= 1ull << (b & 63);
	g->zs_nfree--;
	return b;
}

/* back to the region's start: a new pass (fio, when a pass ends early) */
static void restart(struct sb_iogen *g, const struct sb_genfile *f)
{
	g->zs_start = f->start;
	g->zs_bytes = 0;
	for (int i = 0; i < SB_DDIR_N; i++)
		g->zs_last[i] = f->start;
	map_reset(g);
}

static bool next_in_zone(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len, uint64_t *off);

/* An I/O that does not fit ends the pass, as in fio: with io_size= asking for
 * more bytes the pass starts over at the region's start; otherwise the loop
 * is over (the next loop, if any, starts over too). */
bool sb_strided_next(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len, uint64_t *off)
{
	if (next_in_zone(g, f, d, len, off))
		return true;
	restart(g, f);
	if ((g->spec->io_size || g->spec->io_size_pct) && next_in_zone(g, f, d, len, off))
		return true;
	return false;
}

static bool next_in_zone(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len, uint64_t *off)
{
	const struct sb_jobspec *s = g->spec;
	uint64_t range = s->zonerange;
	if (g->zs_bytes >= s->zonesize) { /* the next zone (io_u.c:903) */
		g->zs_bytes = 0;
		g->zs_start += range + s->zoneskip;
		if (g->zs_start >= g->zs_end)
			g->zs_start = f->start;
		g->zs_last[d] = g->zs_start;
	}
	if (g->zs_last[d] >= g->zs_start + range) /* zonesize > zonerange: again */
		g->zs_last[d] = g->zs_start;
	if (g->zs_bytes % range == 0) { /* fio_file_reset (filesetup.c:2091) */
		for (int i = 0; i < SB_DDIR_N; i++)
			g->zs_last[i] = g->zs_start;
		map_reset(g);
	}
	uint64_t o = g->random ? g->zs_start + pick_block(g) * g->unit : g->zs_last[d];
	/* io_u.c:486-499 and fill_io_u (io_u.c:985): an I/O past the file's
	 * end ends the job; zones may leave the region (size=), as in fio */
	if (o - g->zs_start >= f->len || o + *len > g->zs_end)
		return false;
	g->zs_last[d] = o + *len;
	g->zs_bytes += *len;
	*off = o;
	return true;
}
