/* compare.c: the comparison sets of a run and the numbers of their rows
 * (see compare.h), derived once here for the normal and JSON writers. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/compare.h"
#include "output/derive.h"

static int fill_clat(struct sb_cmp_row *row, const struct sb_tstats *st)
{
	const struct sb_shist *h = &st->clat_h[SB_DDIR_READ];
	struct sb_shist merged = { 0 };
	int dirs = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (st->clat_h[d].n) {
			h = &st->clat_h[d];
			dirs++;
		}
	}
	if (dirs > 1) {
		for (int d = 0; d < SB_DDIR_N; d++) {
			if (sb_shist_merge(&merged, &st->clat_h[d])) {
				sb_shist_free(&merged);
				return -ENOMEM;
			}
		}
		h = &merged;
	}
	row->clat_p50_ns = sb_shist_percentile(h, 50.0);
	row->clat_p99_ns = sb_shist_percentile(h, 99.0);
	row->clat_p99_9_ns = sb_shist_percentile(h, 99.9);
	sb_shist_free(&merged);
	return 0;
}

static int fill_row(struct sb_cmp_row *row, const struct sb_job_result *j, const char *opt)
{
	uint64_t ios = 0;
	row->job = j;
	sb_cmp_value(j->spec, opt, row->value, sizeof(row->value));
	for (int d = 0; d < SB_DDIR_N; d++) {
		row->iops += sb_out_iops(j, d);
		row->bw_bytes += sb_out_bw_bytes(j, d);
		ios += j->st.total_ios[d];
	}
	row->usr_cpu = j->usr_cpu;
	row->sys_cpu = j->sys_cpu;
	/* usr_us/sys_us are summed over the job's threads (rusage) */
	row->cpu_us_per_io = ios ? (double)(j->st.usr_us + j->st.sys_us) / (double)ios : 0.0;
	return fill_clat(row, &j->st);
}

static int add_set(struct sb_cmp *c, const struct sb_results *r, const size_t *members,
		   size_t n, const char *opt)
{
	struct sb_cmp_set *sets = realloc(c->sets, (c->nsets + 1) * sizeof(*sets));
	if (!sets)
		return -ENOMEM;
	c->sets = sets;
	struct sb_cmp_set *s = &sets[c->nsets];
	s->option = opt;
	s->nrows = n;
	s->rows = calloc(n, sizeof(*s->rows));
	if (!s->rows)
		return -ENOMEM;
	c->nsets++;
	const struct sb_jobspec *base = r->jobs[members[0]].spec;
	int by_iops = (base->rw & SB_RW_RANDOM) != 0;
	s->metric = by_iops ? "iops" : "bw";
	for (size_t i = 0; i < n; i++) {
		int rc = fill_row(&s->rows[i], &r->jobs[members[i]], opt);
		if (rc)
			return rc;
	}
	double b = by_iops ? s->rows[0].iops : (double)s->rows[0].bw_bytes;
	for (size_t i = 0; i < n; i++) {
		double v = by_iops ? s->rows[i].iops : (double)s->rows[i].bw_bytes;
		s->rows[i].ratio = b > 0 ? v / b : 0.0;
	}
	return 0;
}

/* ---- grouping, in time linear in the number of jobs
 *
 * The rule (compare.h) is a greedy pass in file order, which compared every
 * pair of jobs: quadratic, minutes of formatting for numjobs=4096.  The same
 * sets come out of this instead:
 *
 * - every job's options are formatted and hashed once (h[], 0 for the
 *   queue-depth options of a synchronous engine, which never count);
 * - jobs with equal hashes form a class (numjobs clones are one class): no
 *   two jobs of a class differ, so a set takes at most one job of a class,
 *   its first free one after the set's first job ("head");
 * - two classes that differ in option o alone agree in every other option:
 *   a bucket per (o, hash of all other options) holds the classes that may
 *   differ in o alone (for ioengine, the queue-depth options are left out of
 *   that hash: a synchronous engine ignores them).  Two classes in one bucket
 *   of an option other than ioengine have different values of it (or they
 *   would be one class), so they differ in it alone, and any of them may join
 *   a set with another; ioengine members are checked against each other
 *   (async engines must agree on the depth), a handful at most.
 *
 * For job i, the set's option is that of the first free job after i that
 * differs from i in one option: the earliest head in i's buckets.  Classes
 * with no free job left after i drop out of the buckets for good (i only
 * grows), so the work is O(jobs x options) for clones and for jobs that
 * differ in one option, and sorting.  Every pair put in a set is checked
 * with sb_cmp_diff, so a hash collision cannot make a wrong row. */

#define NONE SIZE_MAX

struct grp {
	const struct sb_results *r;
	unsigned nopt, eng;        /* options; index of ioengine */
	size_t n;                  /* jobs with a spec */
	uint64_t *h;               /* [job * nopt + option] */
	bool *sync;                /* [job] */
	size_t *cls;               /* [job]: class, NONE without a spec */
	size_t *order;             /* jobs with a spec by class, ascending within one */
	size_t *cfirst, *chead, *cend; /* [class]: range of order[], next free */
	size_t *cb;                /* [class * nopt + option]: bucket, NONE: alone */
	size_t *bcls, *bstart, *blen; /* buckets' classes: bcls[bstart[b] ..+ blen[b]) */
	char *used;                /* [job] */
};

static const uint64_t *hv(const struct grp *g, size_t j)
{
	return &g->h[j * g->nopt];
}

/* sb_cmp_diff on the hashes: the one option a and b differ in, or -1 */
static int diff1(const struct grp *g, size_t a, size_t b)
{
	const uint64_t *ha = hv(g, a), *hb = hv(g, b);
	bool noq = g->sync[a] || g->sync[b];
	int one = -1;
	for (unsigned k = 0; k < g->nopt; k++) {
		if (ha[k] == hb[k] || (noq && sb_cmp_opt_qdepth(k)))
			continue;
		if (one >= 0)
			return -1;
		one = (int)k;
	}
	return one;
}

static uint64_t mix(unsigned k, uint64_t h)
{
	uint64_t z = h + (k + 1) * 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int by_hashes(const void *pa, const void *pb, void *arg)
{
	const struct grp *g = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = memcmp(hv(g, a), hv(g, b), g->nopt * sizeof(uint64_t));
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

struct bentry {
	uint64_t key;
	unsigned opt;
	size_t cls;
};

static int by_bucket(const void *pa, const void *pb)
{
	const struct bentry *a = pa, *b = pb;
	if (a->opt != b->opt)
		return a->opt < b->opt ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* classes of identical jobs */
static size_t make_classes(struct grp *g)
{
	size_t nc = 0;
	qsort_r(g->order, g->n, sizeof(*g->order), by_hashes, g);
	for (size_t x = 0; x < g->n; x++) {
		size_t j = g->order[x];
		if (!x || memcmp(hv(g, j), hv(g, g->order[x - 1]), g->nopt * sizeof(uint64_t))) {
			g->cfirst[nc] = g->chead[nc] = x;
			nc++;
		}
		g->cend[nc - 1] = x + 1;
		g->cls[j] = nc - 1;
	}
	return nc;
}

/* the (option, all other options) buckets of the classes */
static int make_buckets(struct grp *g, size_t nc)
{
	struct bentry *e = malloc((nc * g->nopt + 1) * sizeof(*e));
	size_t ne = 0, nb = 0;
	if (!e)
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++) {
		size_t j = g->order[g->cfirst[c]];
		const uint64_t *h = hv(g, j);
		uint64_t all = 0, noq = 0;
		for (unsigned k = 0; k < g->nopt; k++) {
			all += mix(k, h[k]);
			noq += sb_cmp_opt_qdepth(k) ? 0 : mix(k, h[k]);
		}
		for (unsigned k = 0; k < g->nopt; k++) {
			g->cb[c * g->nopt + k] = NONE;
			if (sb_cmp_opt_qdepth(k) && g->sync[j])
				continue; /* means nothing to this engine */
			uint64_t key = k == g->eng ? noq - mix(k, h[k]) : all - mix(k, h[k]);
			e[ne++] = (struct bentry){ .key = key, .opt = k, .cls = c };
		}
	}
	qsort(e, ne, sizeof(*e), by_bucket);
	for (size_t x = 0; x < ne;) {
		size_t y = x + 1;
		while (y < ne && e[y].opt == e[x].opt && e[y].key == e[x].key)
			y++;
		if (y - x > 1) { /* a class alone in its bucket has no partner */
			g->bstart[nb] = x;
			g->blen[nb] = y - x;
			for (size_t z = x; z < y; z++) {
				g->bcls[z] = e[z].cls;
				g->cb[e[z].cls * g->nopt + e[z].opt] = nb;
			}
			nb++;
		}
		x = y;
	}
	free(e);
	return 0;
}

/* the class's first free job after job i; NONE when it has none left */
static size_t head(struct grp *g, size_t c, size_t i)
{
	while (g->chead[c] < g->cend[c]) {
		size_t j = g->order[g->chead[c]];
		if (j > i && !g->used[j])
			return j;
		g->chead[c]++;
	}
	return NONE;
}

/* Heads of bucket b's classes that differ from job i in option o alone,
 * appended to cand; classes with nothing left after i leave the bucket.
 * *first: the earliest such head so far. */
static size_t scan(struct grp *g, size_t b, unsigned o, size_t i, size_t *cand, size_t ncand,
		   size_t *first)
{
	size_t *bc = &g->bcls[g->bstart[b]];
	for (size_t x = 0; x < g->blen[b];) {
		size_t c = bc[x], k;
		if (c == g->cls[i]) {
			x++;
			continue;
		}
		k = head(g, c, i);
		if (k == NONE) {
			bc[x] = bc[--g->blen[b]];
			continue;
		}
		x++;
		if (diff1(g, i, k) != (int)o)
			continue;
		if (cand)
			cand[ncand++] = k;
		if (k < *first)
			*first = k;
	}
	return ncand;
}

static int by_index(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return a < b ? -1 : a > b;
}

/* the set of job i, if it has one: members[0] = i, then the rest */
static size_t set_of(struct grp *g, size_t i, size_t *members, unsigned *opt)
{
	size_t c = g->cls[i], first = NONE, n = 1, nc;
	unsigned o, best = 0;
	for (o = 0; o < g->nopt; o++) {
		size_t b = g->cb[c * g->nopt + o], f = NONE;
		if (b == NONE)
			continue;
		scan(g, b, o, i, NULL, 0, &f);
		if (f < first) {
			first = f;
			best = o;
		}
	}
	if (first == NONE)
		return 0;
	*opt = best;
	nc = scan(g, g->cb[c * g->nopt + best], best, i, members + 1, 0, &first);
	qsort(members + 1, nc, sizeof(*members), by_index); /* file order */
	members[0] = i;
	for (size_t x = 1; x <= nc; x++) {
		size_t k = members[x];
		const char *name;
		bool ok = sb_cmp_diff(g->r->jobs[i].spec, g->r->jobs[k].spec, &name) == 1 &&
			  !strcmp(name, sb_cmp_opt_name(best));
		/* ioengine: an async member must agree with the others on the depth */
		for (size_t m = 1; ok && best == g->eng && m < n; m++)
			ok = diff1(g, members[m], k) == (int)best;
		if (ok)
			members[n++] = k;
	}
	return n;
}

static void grp_free(struct grp *g)
{
	free(g->h);
	free(g->sync);
	free(g->cls);
	free(g->order);
	free(g->cfirst);
	free(g->chead);
	free(g->cend);
	free(g->cb);
	free(g->bcls);
	free(g->bstart);
	free(g->blen);
	free(g->used);
}

static int grp_init(struct grp *g, const struct sb_results *r)
{
	size_t nj = r->njobs, no;
	memset(g, 0, sizeof(*g));
	g->r = r;
	g->nopt = sb_cmp_nopts();
	no = g->nopt;
	g->eng = sb_cmp_opt_engine();
	g->h = calloc(nj * no, sizeof(*g->h));
	g->sync = calloc(nj, sizeof(*g->sync));
	g->cls = calloc(nj, sizeof(*g->cls));
	g->order = calloc(nj, sizeof(*g->order));
	g->cfirst = calloc(nj, sizeof(size_t));
	g->chead = calloc(nj, sizeof(size_t));
	g->cend = calloc(nj, sizeof(size_t));
	g->cb = calloc(nj * no, sizeof(size_t));
	g->bcls = calloc(nj * no, sizeof(size_t));
	g->bstart = calloc(nj * no, sizeof(size_t));
	g->blen = calloc(nj * no, sizeof(size_t));
	g->used = calloc(nj, 1);
	if (!g->h || !g->sync || !g->cls || !g->order || !g->cfirst || !g->chead || !g->cend ||
	    !g->cb || !g->bcls || !g->bstart || !g->blen || !g->used)
		return -ENOMEM;
	for (size_t j = 0; j < nj; j++) {
		g->cls[j] = NONE;
		if (!r->jobs[j].spec)
			continue;
		g->sync[j] = r->jobs[j].spec->engine_sync;
		sb_cmp_hashes(r->jobs[j].spec, &g->h[j * no]);
		g->order[g->n++] = j;
	}
	return make_buckets(g, make_classes(g));
}

int sb_cmp_build(const struct sb_results *r, struct sb_cmp *out)
{
	struct grp g;
	size_t *members = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (r->njobs < 2)
		return 0;
	rc = grp_init(&g, r);
	members = calloc(r->njobs, sizeof(*members));
	if (!rc && !members)
		rc = -ENOMEM;
	for (size_t i = 0; i < r->njobs && !rc; i++) {
		unsigned opt;
		size_t n;
		if (g.used[i] || g.cls[i] == NONE)
			continue;
		n = set_of(&g, i, members, &opt);
		if (n < 2)
			continue;
		for (size_t m = 0; m < n; m++)
			g.used[members[m]] = 1;
		rc = add_set(out, r, members, n, sb_cmp_opt_name(opt));
	}
	grp_free(&g);
	free(members);
	if (rc)
		sb_cmp_free(out);
	return rc;
}

void sb_cmp_free(struct sb_cmp *c)
{
	for (size_t i = 0; i < c->nsets; i++)
		free(c->sets[i].rows);
	free(c->sets);
	c->sets = NULL;
	c->nsets = 0;
}
