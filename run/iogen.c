/* iogen.c: offsets, sizes and directions of the I/O stream (see iogen.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/iogen.h"
#include "lib/timeutil.h"
#include "run/replay.h"

/* always inlined: the fast path must stay one function, as before the
 * general path existed (which calls these too) */
#define HOT static inline __attribute__((always_inline))

uint64_t sb_iogen_seed(const struct sb_jobspec *spec, unsigned thread_index)
{
	uint64_t base = spec->randseed;
	if (!spec->randrepeat && !spec->allrandrepeat) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		base = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		base ^= (uint64_t)getpid() << 32;
	}
	uint64_t x = base + thread_index;
	return sb_splitmix64(&x);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* zeta(n, theta) = sum i^-theta, i = 1..n: the first terms exactly, the tail
 * by its integral (Euler-Maclaurin midpoint), so setup is O(1) for any n. */
static double zeta(uint64_t n, double theta)
{
	uint64_t k = n < 4096 ? n : 4096;
	double s = 0.0;
	for (uint64_t i = 1; i <= k; i++)
		s += pow((double)i, -theta);
	if (n > k) {
		double a = (double)k + 0.5, b = (double)n + 0.5;
		s += (pow(b, 1.0 - theta) - pow(a, 1.0 - theta)) / (1.0 - theta);
	}
	return s;
}

/* Skewed distributions: rank 0 is the hottest block.  Ranks are scattered
 * over the region by a bijection (i * mul + add) mod n, so hot blocks are
 * spread like fio's hashed ones but every block stays reachable. */
static void dist_setup(struct sb_iogen *g, struct sb_genfile *f)
{
	uint64_t n = f->nblocks;
	const struct sb_jobspec *s = g->spec;
	f->perm_add = sb_rng_below(&g->rng, n);
	f->perm_mul = n / 3 + sb_rng_below(&g->rng, n / 3 + 1) + 1;
	while (gcd64(f->perm_mul, n) != 1)
		f->perm_mul++;
	if (s->random_distribution == SB_DIST_ZIPF) {
		double th = g->zipf_alpha == 0 ? 0 : 1.0 - 1.0 / g->zipf_alpha;
		f->zipf_zetan = zeta(n, th);
		f->zipf_eta = (1.0 - pow(2.0 / (double)n, 1.0 - th)) /
			      (1.0 - g->zipf_zeta2 / f->zipf_zetan);
	}
}

static void new_pass(struct sb_iogen *g);

static int setup_files(struct sb_iogen *g)
{
	g->gf = calloc(g->nfiles, sizeof(*g->gf));
	if (!g->gf)
		return -ENOMEM;
	uint64_t total = 0;
	for (unsigned i = 0; i < g->nfiles; i++) {
		struct sb_genfile *f = &g->gf[i];
		f->start = g->files[i].region_start;
		f->nblocks = g->files[i].region_len / g->unit;
		f->len = f->nblocks * g->unit;
		uint64_t real = g->files[i].real_size > g->files[i].size ? g->files[i].real_size
									: g->files[i].size;
		f->real_end = real > f->start ? real - f->start : f->len;
		total += f->len;
		if (!f->nblocks)
			continue;
		if (g->usemap) {
			f->map = calloc((f->nblocks + 63) / 64, sizeof(uint64_t));
			if (!f->map)
				return -ENOMEM;
		}
		if (g->random && g->spec->random_distribution != SB_DIST_RANDOM)
			dist_setup(g, f);
		if (g->lfsr)
			sb_lfsr_init(&f->lfsr, f->nblocks, sb_rng_next(&g->rng));
	}
	if (!total)
		return -EINVAL;
	const struct sb_jobspec *s = g->spec;
	g->loop_budget = total;
	if (s->io_size)
		g->loop_budget = s->io_size;
	else if (s->io_size_pct) /* fio: a percentage of the I/O region */
		g->loop_budget = (uint64_t)((double)total * s->io_size_pct / 100.0);
	return 0;
}

/* zoned(_abs) zones of each direction, as cumulative shares of 2^32 */
static int setup_zones(struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	bool abs = s->random_distribution == SB_DIST_ZONED_ABS;
	for (int d = 0; d < SB_DDIR_N; d++) {
		unsigned n = s->zone_n[d] ? s->zone_n[d] : s->zone_n[0];
		const struct sb_zone *z = s->zone_n[d] ? s->zones[d] : s->zones[0];
		if (!n || !sb_spec_does(s, (enum sb_ddir)d))
			continue;
		g->zt[d] = calloc(n, sizeof(*g->zt[d]));
		if (!g->zt[d])
			return -ENOMEM;
		g->zn[d] = n;
		double acc = 0, at = 0;
		uint64_t at_b = 0;
		for (unsigned i = 0; i < n; i++) {
			acc += z[i].access_pct;
			g->zt[d][i].cum = (uint64_t)(acc / 100.0 * 4294967296.0 + 0.5);
			g->zt[d][i].start = at / 100.0;
			g->zt[d][i].len = z[i].size_pct / 100.0;
			g->zt[d][i].start_b = at_b;
			g->zt[d][i].len_b = z[i].size;
			at += abs ? 0 : z[i].size_pct;
			at_b += abs ? z[i].size : 0;
		}
		g->zt[d][n - 1].cum = 1ull << 32;
	}
	return 0;
}

/* the general path's settings; g->ext when any of them is on */
static int setup_ext(struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	g->number_ios = s->number_ios;
	g->ext = s->number_ios || (!g->random && s->rw_seq_add) || g->lfsr ||
		 (g->random && s->rw_seq_nr > 1);
	for (int d = 0; d < SB_DDIR_N; d++) {
		uint64_t p = s->percentage_random[d] > 100 ? 100 : s->percentage_random[d];
		g->pct_rand[d] = g->random ? p * (1ull << 32) / 100 : 1ull << 32;
		g->ext |= sb_spec_does(s, (enum sb_ddir)d) && g->pct_rand[d] < (1ull << 32);
	}
	if (g->random && (s->random_distribution == SB_DIST_ZONED ||
			  s->random_distribution == SB_DIST_ZONED_ABS)) {
		g->ext = true;
		return setup_zones(g);
	}
	return 0;
}

static void setup_sizes(struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	g->unit = s->bs_lo; /* derived by the parser, as bs_min[] */
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (!sb_spec_does(s, (enum sb_ddir)d))
			continue;
		uint64_t mn = s->bs_min[d];
		uint64_t cum = 0;
		double acc = 0;
		for (unsigned i = 0; i < s->bssplit_n[d]; i++) {
			acc += s->bssplit[d][i].pct;
			cum = (uint64_t)(acc / 100.0 * 4294967296.0 + 0.5);
			g->bss_cum[d][i] = cum;
		}
		if (s->bssplit_n[d])
			g->bss_cum[d][s->bssplit_n[d] - 1] = 1ull << 32;
		g->align[d] = s->blockalign[d] ? s->blockalign[d] : mn;
	}
	for (int d = 0; d < SB_DDIR_N; d++)
		if (!g->align[d])
			g->align[d] = g->unit;
}

/* file_service_type: weights of the skewed choices (file 0 is the hottest
 * for zipf and pareto; normal centres on the middle file) */
static int fsvc_setup(struct sb_iogen *g)
{
	const struct sb_jobspec *s = g->spec;
	g->fsvc = s->fsvc != SB_FSVC_RR || s->fsvc_n > 1;
	g->fsvc_cur = s->fsvc == SB_FSVC_RR ? g->nfiles - 1 : 0; /* the first pick: file 0 */
	g->fsvc_left = 0;
	if (s->fsvc == SB_FSVC_PARETO)
		g->fsvc_pow = log(s->fsvc_param) / log(1.0 - s->fsvc_param);
	if (s->fsvc != SB_FSVC_ZIPF && s->fsvc != SB_FSVC_NORMAL)
		return 0;
	g->fsvc_cum = malloc(g->nfiles * sizeof(double));
	if (!g->fsvc_cum)
		return -ENOMEM;
	double sum = 0, mid = (g->nfiles - 1) / 2.0;
	double sd = s->fsvc_param / 100.0 * g->nfiles;
	for (unsigned i = 0; i < g->nfiles; i++) {
		double w = s->fsvc == SB_FSVC_ZIPF ? pow(i + 1.0, -s->fsvc_param)
			   : exp(-0.5 * ((i - mid) / (sd > 0 ? sd : 1)) * ((i - mid) / (sd > 0 ? sd : 1)));
		sum += w;
		g->fsvc_cum[i] = sum;
	}
	for (unsigned i = 0; i < g->nfiles; i++)
		g->fsvc_cum[i] /= sum;
	g->fsvc_cum[g->nfiles - 1] = 1.0;
	return 0;
}

int sb_iogen_init(struct sb_iogen *g, const struct sb_jobspec *spec, struct sb_file *files,
		  unsigned nfiles, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->spec = spec;
	g->files = files;
	g->nfiles = nfiles;
	sb_rng_seed(&g->rng, seed);
	/* rw=randread:0 never takes a random offset: sequential, as in fio */
	g->random = (spec->rw & SB_RW_RANDOM) && spec->rw_seq_nr;
	g->lfsr = g->random && spec->random_generator == SB_RANDGEN_LFSR &&
		  spec->random_distribution == SB_DIST_RANDOM;
	/* a skewed distribution with a map would flatten the skew: fio too
	 * drops the map for non-uniform distributions; the LFSR needs none */
	g->usemap = g->random && !spec->norandommap && spec->random_distribution == SB_DIST_RANDOM &&
		    !g->lfsr;
	g->mixed = (spec->rw & SB_RW_READ) && (spec->rw & SB_RW_WRITE);
	g->only_ddir = (spec->rw & SB_RW_READ) ? SB_DDIR_READ
		       : (spec->rw & SB_RW_WRITE) ? SB_DDIR_WRITE : SB_DDIR_TRIM;
	g->rwmix_thresh = (uint64_t)(spec->rwmixread > 100 ? 100 : spec->rwmixread) * (1ull << 32) / 100;
	if (spec->random_distribution == SB_DIST_ZIPF) {
		double th = spec->dist_param;
		if (fabs(th - 1.0) < 1e-9)
			th = 1.0 + 1e-6; /* the closed form needs theta != 1 */
		g->zipf_alpha = 1.0 / (1.0 - th);
		g->zipf_zeta2 = 1.0 + pow(2.0, -th);
	} else if (spec->random_distribution == SB_DIST_PARETO) {
		double h = spec->dist_param > 0 && spec->dist_param < 1 ? spec->dist_param : 0.2;
		g->pareto_pow = log(h) / log(1.0 - h);
	}
	setup_sizes(g);
	g->sfr_lo = UINT64_MAX;
	int r = setup_files(g);
	if (!r)
		r = fsvc_setup(g);
	if (!r)
		r = setup_ext(g);
	if (r) {
		sb_iogen_free(g);
		return r;
	}
	new_pass(g);
	return 0;
}

void sb_iogen_free(struct sb_iogen *g)
{
	if (g->gf)
		for (unsigned i = 0; i < g->nfiles; i++)
			free(g->gf[i].map);
	free(g->gf);
	g->gf = NULL;
	free(g->rp_ent);
	g->rp_ent = NULL;
	g->rp = false;
	free(g->fsvc_cum);
	g->fsvc_cum = NULL;
	for (int d = 0; d < SB_DDIR_N; d++) {
		free(g->zt[d]);
		g->zt[d] = NULL;
	}
}

void sb_iogen_init_span(struct sb_iogen *g, const struct sb_jobspec *spec, struct sb_file *f,
			int ddir, uint64_t offset, uint64_t len, uint64_t bs)
{
	sb_iogen_free(g);
	memset(g, 0, sizeof(*g));
	g->spec = spec;
	g->files = f;
	g->nfiles = 1;
	g->span = true;
	g->span_ddir = ddir;
	g->span_pos = offset;
	g->span_end = offset + len;
	g->span_bs = bs ? bs : 4096;
}

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

static void new_pass(struct sb_iogen *g)
{
	g->files_done = 0;
	for (unsigned i = 0; i < g->nfiles; i++) {
		struct sb_genfile *f = &g->gf[i];
		memset(f->pos, 0, sizeof(f->pos));
		memset(f->last_off, 0, sizeof(f->last_off));
		memset(f->last_end, 0, sizeof(f->last_end));
		memset(f->seq_left, 0, sizeof(f->seq_left));
		f->lfsr.state = f->lfsr.start;
		f->lfsr_left = f->nblocks;
		f->nfree = f->nblocks;
		f->done = f->nblocks == 0;
		g->files_done += f->done;
		if (f->map)
			memset(f->map, 0, (f->nblocks + 63) / 64 * sizeof(uint64_t));
	}
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
	if (g->loop_bytes >= g->loop_budget) {
		g->loops_done++;
		g->loop_bytes = 0;
		if (!g->spec->time_based && g->loops_done >= (g->spec->loops ? g->spec->loops : 1))
			return false;
	}
	new_pass(g);
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
	if (g->random)
		return next_random_ext(g, f, d, len);
	return g->spec->rw_seq_add ? next_seq_add(g, f, d, len) : next_seq(g, f, d, len);
}

/* The next I/O; ext (a constant at each call site) selects the general path */
HOT int next_io(struct sb_iogen *g, struct sb_io_u *io, const bool ext)
{
	if (g->pending_sync) {
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
	uint64_t left = g->loop_budget - g->loop_bytes;
	if (g->files_done == g->nfiles || left < g->unit) {
		if (!advance(g))
			return 0;
		left = g->loop_budget - g->loop_bytes;
	}
	unsigned idx;
	struct sb_genfile *f = next_file(g, &idx);
	int d = pick_ddir(g);
	if (g->rate)
		d = sb_rate_pick(g->rate, d, sb_now_ns());
	uint64_t len = pick_len(g, d);
	if (len > left)
		len = left - left % g->unit;
	uint64_t off = ext ? next_off_ext(g, f, d, &len)
		       : g->random ? next_random(g, f, d, &len) : next_seq(g, f, d, &len);
	g->loop_bytes += len;
	io->ddir = d;
	io->file = &g->files[idx];
	io->offset = f->start + off;
	io->len = len;
	if (d == SB_DDIR_WRITE)
		count_write(g, io->file, io->offset, io->len);
	return 1;
}

/* the general path, out of line so that the fast path stays small */
static __attribute__((noinline)) int next_io_ext(struct sb_iogen *g, struct sb_io_u *io)
{
	return g->span ? span_next(g, io) : next_io(g, io, true);
}

int sb_iogen_next(struct sb_iogen *g, struct sb_io_u *io)
{
	if (__builtin_expect(g->span | g->ext, 0))
		return next_io_ext(g, io);
	return next_io(g, io, false);
}
