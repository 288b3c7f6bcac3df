/* iogen.c: offsets, sizes and directions of the I/O stream (see iogen.h),
 * one I/O at a time; the setup is in iogen_setup.c. */
#include <math.h>

#include "run/iogen.h"
#include "run/zbd.h"
#include "lib/timeutil.h"
#include "run/replay.h"

/* always inlined: the fast path must stay one function, as before the
 * general path existed (which calls these too) */
#define HOT static inline __attribute__((always_inline))

static int span_next(struct sb_iogen *g, struct sb_io_u *io)
{
	if (g->rp)
		return sb_replay_next(g, io);
	uint64_t left = g->span_end - g->span_pos;
	if (!left)
		return 0;
	io->ddir = g->span_ddir;
	io->file = g->files;
	io->offset = g->span_pos;
	io->len = left < g->span_bs ? left : g->span_bs;
	g->span_pos += io->len;
	return 1;
}

HOT int pick_ddir(struct sb_iogen *g)
{
	if (!g->mixed)
		return g->only_ddir;
	return (sb_rng_next(&g->rng) >> 32) < g->rwmix_thresh ? SB_DDIR_READ : SB_DDIR_WRITE;
}

HOT uint64_t pick_len(struct sb_iogen *g, int d)
{
	const struct sb_jobspec *s = g->spec;
	if (s->bssplit_n[d]) {
		uint64_t u = sb_rng_next(&g->rng) >> 32;
		unsigned i = 0;
		while (i + 1 < s->bssplit_n[d] && u >= g->bss_cum[d][i])
			i++;
		return s->bssplit[d][i].bs;
	}
	uint64_t mn = s->bs_min[d], mx = s->bs_max[d];
	if (!mn || !mx || mn >= mx)
		return s->bs[d];
	if (s->bs_unaligned) /* any byte count in the range (next_off_ext) */
		return mn + sb_rng_below(&g->rng, mx - mn + 1);
	return (sb_rng_below(&g->rng, mx / mn) + 1) * mn;
}

static void finish_file(struct sb_iogen *g, struct sb_genfile *f)
{
	if (!f->done) {
		f->done = true;
		g->files_done++;
	}
}

static inline bool map_test(const uint64_t *m, uint64_t b)
{
	return m[b >> 6] & (1ull << (b & 63));
}

/* the first untouched unit at or after b, wrapping; the file has one */
HOT uint64_t map_find_free(const struct sb_genfile *f, uint64_t b)
{
	uint64_t nw = (f->nblocks + 63) / 64;
	uint64_t w = b >> 6;
	uint64_t bits = ~f->map[w] & (~0ull << (b & 63));
	for (uint64_t k = 0; k <= nw; k++) {
		if (bits) {
			uint64_t r = (w << 6) + (uint64_t)__builtin_ctzll(bits);
			if (r < f->nblocks)
				return r;
		}
		w = w + 1 == nw ? 0 : w + 1;
		bits = ~f->map[w];
	}
	return 0; /* not reached while nfree > 0 */
}

HOT uint64_t next_random_mapped(struct sb_iogen *g, struct sb_genfile *f, uint64_t *len)
{
	uint64_t want = *len / g->unit, b = sb_rng_below(&g->rng, f->nblocks), run = 0;
	if (map_test(f->map, b))
		b = map_find_free(f, b);
	while (run < want && b + run < f->nblocks && !map_test(f->map, b + run)) {
		f->map[(b + run) >> 6] |= 1ull << ((b + run) & 63);
		run++;
	}
	f->nfree -= run;
	if (!f->nfree)
		finish_file(g, f);
	*len = run * g->unit;
	return b * g->unit;
}

static uint64_t dist_rank(struct sb_iogen *g, const struct sb_genfile *f)
{
	uint64_t n = f->nblocks;
	double u = sb_rng_unit(&g->rng), x = 0;
	switch (g->spec->random_distribution) {
	case SB_DIST_ZIPF:
		if (u * f->zipf_zetan < 1.0)
			return 0;
		if (u * f->zipf_zetan < g->zipf_zeta2)
			return 1 % n;
		x = (double)n * pow(f->zipf_eta * u - f->zipf_eta + 1.0, g->zipf_alpha);
		break;
	case SB_DIST_PARETO:
		x = (double)(n - 1) * pow(u, g->pareto_pow);
		break;
	default: { /* normal: centred, sigma in percent of the region */
		double sd = g->spec->dist_param / 100.0 * (double)n;
		for (int tries = 0; tries < 16; tries++) {
			double u2 = sb_rng_unit(&g->rng);
			x = (double)n / 2.0 + sd * sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * u2);
			if (x >= 0 && x < (double)n)
				break;
			u = sb_rng_unit(&g->rng);
		}
		break;
	}
	}
	if (!(x >= 0))
		x = 0;
	uint64_t r = x >= (double)n ? n - 1 : (uint64_t)x;
	return (uint64_t)(((unsigned __int128)r * f->perm_mul + f->perm_add) % n);
}

HOT uint64_t next_random(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len)
{
	if (f->map)
		return next_random_mapped(g, f, len);
	if (g->spec->random_distribution != SB_DIST_RANDOM) {
		uint64_t off = dist_rank(g, f) * g->unit;
		if (*len > f->len - off)
			*len = f->len - off;
		return off;
	}
	if (*len > f->len)
		*len = f->len;
	uint64_t al = g->align[d];
	return sb_rng_below(&g->rng, (f->len - *len) / al + 1) * al;
}

HOT uint64_t next_seq(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len)
{
	uint64_t left = f->len - f->pos[d], off = f->pos[d];
	if (*len > left)
		*len = left - left % g->unit;
	f->pos[d] += *len;
	if (f->len - f->pos[d] < g->unit) {
		if (g->mixed)
			f->pos[d] = 0; /* fio: each direction wraps on its own */
		else
			finish_file(g, f);
	}
	return off;
}

/* Start the next pass or loop; false when the workload is complete. */
static bool advance(struct sb_iogen *g)
{
	if (g->finished)
		return false;
	if (g->loop_bytes >= g->loop_budget) {
		if (g->each_loop && !g->loop_resume && g->loops_done + 1 < (g->spec->loops ? g->spec->loops : 1))
			return !(g->loop_paused = true); /* unlink_each_loop: the caller renews the files */
		g->loop_resume = g->loop_paused = false;
		g->loops_done++;
		g->loop_bytes = 0;
		if (g->zbd) /* zonemode=zbd: the next loop (fio fio_file_reset) */
			sb_zbd_loop(g);
		if (!g->spec->time_based && g->loops_done >= (g->spec->loops ? g->spec->loops : 1))
			return !(g->finished = true);
	}
	sb_iogen_new_pass(g);
	return g->files_done < g->nfiles;
}

/* the file after i that is not done, wrapping (one is not done) */
static unsigned undone_from(const struct sb_iogen *g, unsigned i)
{
	while (g->gf[i].done)
		i = i + 1 == g->nfiles ? 0 : i + 1;
	return i;
}

/* file_service_type other than roundrobin:1: off the default path */
static __attribute__((noinline)) struct sb_genfile *next_file_svc(struct sb_iogen *g,
								   unsigned *idx)
{
	const struct sb_jobspec *s = g->spec;
	unsigned i = g->fsvc_cur;
	if (g->fsvc_left && !g->gf[i].done) {
		g->fsvc_left--;
	} else {
		switch (s->fsvc) {
		case SB_FSVC_SEQ:
			break; /* stay until the file is done */
		case SB_FSVC_RANDOM:
			i = (unsigned)sb_rng_below(&g->rng, g->nfiles);
			break;
		case SB_FSVC_PARETO:
			i = (unsigned)((g->nfiles - 1) * pow(sb_rng_unit(&g->rng), g->fsvc_pow));
			break;
		case SB_FSVC_ZIPF:
		case SB_FSVC_NORMAL: {
			double u = sb_rng_unit(&g->rng);
			unsigned lo = 0, hi = g->nfiles - 1;
			while (lo < hi) {
				unsigned m = (lo + hi) / 2;
				if (g->fsvc_cum[m] < u)
					lo = m + 1;
				else
					hi = m;
			}
			i = lo;
			break;
		}
		default: /* roundrobin:N */
			i = i + 1;
			break;
		}
		if (i >= g->nfiles)
			i = 0;
		g->fsvc_left = s->fsvc == SB_FSVC_RR || s->fsvc == SB_FSVC_RANDOM ? s->fsvc_n - 1 : 0;
	}
	i = undone_from(g, i);
	g->fsvc_cur = i;
	*idx = i;
	return &g->gf[i];
}

static struct sb_genfile *next_file(struct sb_iogen *g, unsigned *idx)
{
	if (__builtin_expect(g->fsvc, 0))
		return next_file_svc(g, idx);
	unsigned i = g->next_file;
	while (g->gf[i].done)
		i = i + 1 == g->nfiles ? 0 : i + 1;
	g->next_file = i + 1 == g->nfiles ? 0 : i + 1;
	*idx = i;
	return &g->gf[i];
}

/* sync_file_range=FLAGS:N: the range written since the last one (of any
 * file, as fio tracks it per job), every N writes */
static __attribute__((noinline)) void count_sfr(struct sb_iogen *g, uint64_t off, uint64_t len)
{
	if (off < g->sfr_lo)
		g->sfr_lo = off;
	if (off + len > g->sfr_hi)
		g->sfr_hi = off + len;
	if (g->writes % g->spec->sfr_n == 0 && !g->pending_sync)
		g->pending_sync = SB_DDIR_SYNCRANGE;
}

/* the sync a loop that ends now owes again at the next loop's start (fio),
 * or 0: the last write completed a fsync=/fdatasync= period */
static int sync_owed(const struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	if (!g->writes)
		return 0;
	if (s->fsync && g->writes % s->fsync == 0)
		return SB_DDIR_SYNC;
	if (s->fdatasync && g->writes % s->fdatasync == 0)
		return SB_DDIR_DATASYNC;
	return 0;
}

static void count_write(struct sb_iogen *g, struct sb_file *file, uint64_t off, uint64_t len)
{
	const struct sb_jobspec *s = g->spec;
	g->writes++;
	if (s->fsync && g->writes % s->fsync == 0)
		g->pending_sync = SB_DDIR_SYNC;
	else if (s->fdatasync && g->writes % s->fdatasync == 0)
		g->pending_sync = SB_DDIR_DATASYNC;
	else if (s->sfr_n)
		count_sfr(g, off, len);
	g->sync_file = file;
}

/* ---- the general path: only jobs that use one of its features come here */

/* rw=read:N: N bytes (negative: backwards) after each I/O, as fio: an I/O
 * that reaches the file's end ends the pass; a hole that reaches it wraps to
 * the region's start; one that leaves the region but not the file ends the
 * pass.  A pass that ends so ends the loop unless io_size= asks for more. */
static void seq_add_over(struct sb_iogen *g, struct sb_genfile *f, int d)
{
	if (!g->spec->io_size && !g->spec->io_size_pct)
		g->loop_cut = true;
	if (g->mixed)
		f->pos[d] = 0;
	else
		finish_file(g, f);
}

static uint64_t next_seq_add(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len)
{
	int64_t add = g->spec->rw_seq_add;
	uint64_t off = f->pos[d], left = f->len - off;
	if (*len > left)
		*len = left - left % g->unit;
	if (add < 0) {
		uint64_t back = (uint64_t)-add;
		uint64_t end = off + *len;
		if (end >= back && end - back + g->unit <= f->len)
			f->pos[d] = end - back;
		else /* before the start: wrap to the end, as fio */
			f->pos[d] = f->len > back ? f->len - back : 0;
		return off;
	}
	uint64_t end = off + *len, next = end + (uint64_t)add;
	if (next >= f->real_end)
		next = 0;
	f->pos[d] = next;
	if (end >= f->real_end || next + g->unit > f->len)
		seq_add_over(g, f, d);
	return off;
}

/* mark [off, off + len) in the random map (a continuation of rw=randread:N
 * or percentage_random may touch blocks already done: fio issues them too) */
static void map_mark(struct sb_iogen *g, struct sb_genfile *f, uint64_t off, uint64_t len)
{
	for (uint64_t b = off / g->unit; b < (off + len) / g->unit && b < f->nblocks; b++) {
		if (map_test(f->map, b))
			continue;
		f->map[b >> 6] |= 1ull << (b & 63);
		if (!--f->nfree)
			finish_file(g, f);
	}
}

static uint64_t next_zoned(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len)
{
	const struct sb_zonepick *z = g->zt[d];
	uint64_t u = sb_rng_next(&g->rng) >> 32, zs, ze;
	unsigned i = 0;
	while (i + 1 < g->zn[d] && u >= z[i].cum)
		i++;
	if (g->spec->random_distribution == SB_DIST_ZONED_ABS) {
		zs = z[i].start_b / g->unit;
		ze = (z[i].start_b + z[i].len_b) / g->unit;
	} else {
		zs = (uint64_t)(z[i].start * (double)f->nblocks);
		ze = (uint64_t)((z[i].start + z[i].len) * (double)f->nblocks + 0.5);
	}
	if (ze > f->nblocks)
		ze = f->nblocks;
	if (ze <= zs) { /* a zone past the region's end: the whole region */
		zs = 0;
		ze = f->nblocks;
	}
	uint64_t off = (zs + sb_rng_below(&g->rng, ze - zs)) * g->unit;
	if (*len > f->len - off)
		*len = f->len - off;
	return off;
}

static uint64_t next_lfsr(struct sb_iogen *g, struct sb_genfile *f, uint64_t *len)
{
	uint64_t off = sb_lfsr_next(&f->lfsr) * g->unit;
	if (!--f->lfsr_left)
		finish_file(g, f);
	if (*len > f->len - off)
		*len = f->len - off;
	return off;
}

static uint64_t next_random_ext(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len)
{
	const struct sb_jobspec *s = g->spec;
	bool cont = false, ident = false;
	if (f->seq_left[d]) {
		f->seq_left[d]--;
		cont = true;
		ident = s->rw_sequencer == SB_RWSEQ_IDENTICAL;
	} else if (g->pct_rand[d] < (1ull << 32)) {
		cont = (sb_rng_next(&g->rng) >> 32) >= g->pct_rand[d];
	}
	uint64_t off = ident ? f->last_off[d] : f->last_end[d];
	if (cont && off + g->unit <= f->len) {
		if (*len > f->len - off)
			*len = (f->len - off) - (f->len - off) % g->unit;
		if (f->map)
			map_mark(g, f, off, *len);
	} else {
		if (s->random_distribution == SB_DIST_ZONED || s->random_distribution == SB_DIST_ZONED_ABS)
			off = next_zoned(g, f, d, len);
		else if (g->lfsr)
			off = next_lfsr(g, f, len);
		else
			off = next_random(g, f, d, len);
		f->seq_left[d] = s->rw_seq_nr - 1;
	}
	f->last_off[d] = off;
	f->last_end[d] = off + *len;
	return off;
}

static uint64_t next_off_ext(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len)
{
	if (g->random && g->spec->bs_unaligned) { /* the map counts whole units: */
		uint64_t want = *len, up = (want + g->unit - 1) / g->unit * g->unit;
		*len = up; /* take the units the I/O touches, then do its own length */
		uint64_t off = next_random_ext(g, f, d, len);
		if (*len == up)
			*len = want;
		return off;
	}
	if (g->random)
		return next_random_ext(g, f, d, len);
	return g->spec->rw_seq_add ? next_seq_add(g, f, d, len) : next_seq(g, f, d, len);
}

/* The next I/O; ext (a constant at each call site) selects the general path */
/* fio issues the sync that fsync=/fdatasync=/sync_file_range= owe when
 * the job asks for its next I/O, so the one owed after the job's last write
 * is never issued (fsync=4 over 1024 writes: 255 fsyncs); and a loop that
 * ended on one owes it again when the next loop starts (loops=2, 8 writes,
 * fsync=4: w4 S w4 S | S w4 S w4).  Off the per-I/O path: only with a sync
 * owed. */
static __attribute__((noinline)) bool job_over(const struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	if (g->number_ios && g->ios >= g->number_ios)
		return true;
	if (s->time_based || g->span || g->loop_bytes < g->loop_budget)
		return false;
	return g->loops_done + 1 >= (s->loops ? s->loops : 1);
}

HOT int next_io(struct sb_iogen *g, struct sb_io_u *io, const bool ext)
{
	if (g->pending_sync) {
		if (job_over(g)) {
			g->pending_sync = 0;
			return 0;
		}
		io->ddir = g->pending_sync;
		io->file = g->sync_file;
		io->offset = 0;
		io->len = 0;
		if (g->pending_sync == SB_DDIR_SYNCRANGE) {
			io->offset = g->sfr_lo;
			io->len = g->sfr_hi - g->sfr_lo;
			g->sfr_lo = UINT64_MAX;
			g->sfr_hi = 0;
		}
		g->pending_sync = 0;
		return 1;
	}
	if (ext) {
		if (g->number_ios && g->ios >= g->number_ios)
			return 0;
		g->ios++;
		if (g->loop_cut) { /* rw=read:N went past the end: the loop is over */
			g->loop_cut = false;
			g->loop_bytes = g->loop_budget;
		}
	}
	uint64_t left;
again:
	left = g->loop_budget - g->loop_bytes;
	if (g->files_done == g->nfiles || left < g->unit) {
		int owed = g->loop_bytes >= g->loop_budget ? sync_owed(g) : 0;
		if (!advance(g))
			return 0;
		left = g->loop_budget - g->loop_bytes;
		if (owed && g->loop_bytes == 0) { /* a new loop after one that ended on a sync */
			g->pending_sync = owed;
			g->ios -= ext; /* this call issues the sync, not an I/O */
			return next_io(g, io, false);
		}
	}
	unsigned idx;
	struct sb_genfile *f = next_file(g, &idx);
	int d = pick_ddir(g);
	if (g->rate)
		d = sb_rate_pick(g->rate, d, sb_now_ns());
	if (ext && g->zbd)
		d = sb_zbd_ddir(g, idx, d);
	uint64_t len = pick_len(g, d);
	if (len > left)
		len = left - left % g->unit;
	uint64_t off;
	if (ext && g->strided) { /* zonemode=strided: an absolute offset */
		if (!sb_strided_next(g, f, d, &len, &off)) { /* the loop is over */
			g->loop_bytes = g->loop_budget;
			goto again;
		}
	} else if (ext && g->zbd) { /* zonemode=zbd: at and below the write pointers */
		off = g->random ? f->start + next_off_ext(g, f, d, &len) : 0;
		if (!sb_zbd_next(g, idx, d, &len, &off)) { /* fio's io_u_eof: the loop is over */
			g->loop_bytes = g->loop_budget;
			goto again;
		}
	} else {
		off = f->start + (ext ? next_off_ext(g, f, d, &len)
				  : g->random ? next_random(g, f, d, &len) : next_seq(g, f, d, &len));
	}
	g->loop_bytes += len;
	io->ddir = d;
	io->file = &g->files[idx];
	io->offset = off;
	io->len = len;
	if (d == SB_DDIR_WRITE)
		count_write(g, io->file, io->offset, io->len);
	return 1;
}

/* the general path, out of line so that the fast path stays small */
/* cmdprio: the priority of a read or write, as fio's fio_cmdprio_set_ioprio:
 * one draw of 0-99 against the cumulative shares of the entries for the
 * I/O's length (bs 0: any length) */
static unsigned cmdprio_pick(struct sb_iogen *g, const struct sb_io_u *io)
{
	const struct sb_jobspec *s = g->spec;
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE)
		return 0;
	unsigned n = s->cmdprio.bs_n[io->ddir], cum = 0;
	if (!n)
		return 0;
	unsigned r = (unsigned)sb_rng_below(&g->rng, 100);
	for (unsigned i = 0; i < n; i++) {
		const struct sb_cmdprio_bs *e = &s->cmdprio.bs[io->ddir][i];
		if (e->bs && e->bs != io->len)
			continue;
		cum += e->pct;
		if (r < cum)
			return e->ioprio;
	}
	return 0;
}

static __attribute__((noinline)) int next_io_ext(struct sb_iogen *g, struct sb_io_u *io)
{
	int r = 1;
	if (g->tw_file) { /* trimwrite: the write of the trim just issued */
		io->ddir = SB_DDIR_WRITE;
		io->file = g->tw_file;
		io->offset = g->tw_off;
		io->len = g->tw_len;
		g->tw_file = NULL;
		count_write(g, io->file, io->offset, io->len);
	} else {
		r = g->span ? span_next(g, io) : next_io(g, io, true);
		if (r && g->trimwrite && io->ddir == SB_DDIR_TRIM) {
			g->tw_file = io->file;
			g->tw_off = io->offset;
			g->tw_len = io->len;
		}
	}
	if (r && g->cmdprio)
		io->ioprio = cmdprio_pick(g, io);
	return r;
}

int sb_iogen_next(struct sb_iogen *g, struct sb_io_u *io)
{
	if (__builtin_expect(g->span | g->ext, 0))
		return next_io_ext(g, io);
	return next_io(g, io, false);
}
