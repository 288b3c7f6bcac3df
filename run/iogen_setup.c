/* iogen_setup.c: the I/O stream's setup (see iogen.h): seeds, files and
 * their block maps, distributions and zones, file service weights, span
 * mode, and each pass's reset; the per-I/O generator is in iogen.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/iogen.h"
#include "run/zbd.h"
#include "lib/timeutil.h"

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
		 (g->random && s->rw_seq_nr > 1) || s->bs_unaligned || g->trimwrite || s->cmdprio.on;
	g->cmdprio = s->cmdprio.on;
	/* fio init.c:663: strided zones only with one file open */
	if (s->zonemode == SB_ZONE_STRIDED && g->nfiles == 1) {
		int r = sb_strided_setup(g);
		if (r)
			return r;
	}
	if (s->zonemode == SB_ZONE_ZBD) {
		int r = sb_zbd_setup(g);
		if (r)
			return r;
	}
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
	/* trimwrite: iogen picks the trims; the write of each follows it */
	g->trimwrite = !(spec->rw & SB_RW_READ) && (spec->rw & SB_RW_WRITE) && (spec->rw & SB_RW_TRIM);
	g->only_ddir = (spec->rw & SB_RW_READ) ? SB_DDIR_READ
		       : g->trimwrite ? SB_DDIR_TRIM
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
	sb_iogen_new_pass(g);
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
	free(g->zs_map);
	g->zs_map = NULL;
	sb_zbd_free(g);
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

/* every file back to its start: positions, block maps, the lfsr */
void sb_iogen_new_pass(struct sb_iogen *g)
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
