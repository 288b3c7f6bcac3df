/* tools/rcmp.c: the model of `storbench compare` (tools/rcmp.h): reading
 * storbench's and fio's JSON results into named entries with one sample per
 * repetition, matching entries across sides, and the noise rule. */
#include "tools/rcmp.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/log.h"
#include "os/infile.h"

#define MIB 1048576.0

const struct sb_rcmp_rowdef sb_rcmp_rows[SB_RCMP_NROWS] = {
#define DIR_ROWS(d)                                                                    \
	{ d, "iops", "IO/s", "IOPS", 1.0 },                                            \
	{ d, "bw_bytes", "bytes/s", "bw MiB/s", 1.0 / MIB },                           \
	{ d, "clat_p50_ns", "ns", "clat p50 us", 1e-3 },                               \
	{ d, "clat_p99_ns", "ns", "clat p99 us", 1e-3 },                               \
	{ d, "clat_p99_9_ns", "ns", "clat p99.9 us", 1e-3 }
	DIR_ROWS("read"),
	DIR_ROWS("write"),
	DIR_ROWS("trim"),
	DIR_ROWS("mixed"),
#undef DIR_ROWS
	{ "job", "cpu_us_per_io", "us", "CPU/IO us", 1.0 },
	{ "checkpoint", "write_gbps", "GB/s", "write GB/s", 1.0 },
	{ "checkpoint", "read_gbps", "GB/s", "read GB/s", 1.0 },
	{ "train", "au_pct", "%", "AU %", 1.0 },
	{ "train", "mb_per_s", "MiB/s", "MiB/s", 1.0 },
};

static const char *const dirs[4] = { "read", "write", "trim", "mixed" };

static struct sb_rcmp_entry *entry(struct sb_rcmp_side *side, const char *name)
{
	for (size_t i = 0; i < side->ne; i++)
		if (!strcmp(side->e[i].name, name))
			return &side->e[i];
	struct sb_rcmp_entry *e = realloc(side->e, (side->ne + 1) * sizeof(*e));
	if (!e)
		return NULL;
	side->e = e;
	e += side->ne;
	memset(e, 0, sizeof(*e));
	if (!(e->name = strdup(name)))
		return NULL;
	side->ne++;
	return e;
}

int sb_rcmp_add(struct sb_rcmp_side *side, const char *name, enum sb_rcmp_rowid row, double v)
{
	struct sb_rcmp_entry *e = entry(side, name);
	if (!e)
		return -ENOMEM;
	struct sb_rcmp_stat *s = &e->row[row];
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4;
		double *nv = realloc(s->v, cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

void sb_rcmp_side_free(struct sb_rcmp_side *side)
{
	for (size_t i = 0; i < side->ne; i++) {
		for (int r = 0; r < SB_RCMP_NROWS; r++)
			free(side->e[i].row[r].v);
		free(side->e[i].name);
	}
	free(side->e);
	side->e = NULL;
	side->ne = 0;
}

/* a figure present in the JSON as a number */
static int num(const struct sb_jval *v, double *out)
{
	if (!v || v->type != SB_JNUM || !isfinite(v->num))
		return 0;
	*out = v->num;
	return 1;
}

static int add_num(struct sb_rcmp_side *side, const char *name, int row, const struct sb_jval *v)
{
	double x;
	return num(v, &x) ? sb_rcmp_add(side, name, row, x) : 0;
}

/* one fio-style job object: per direction that moved data, IOPS, bandwidth
 * and clat percentiles; CPU per I/O; checkpoint and train figures */
static int load_job(struct sb_rcmp_side *side, const char *name, const struct sb_jval *job)
{
	static const char *const pct[3] = { "50.000000", "99.000000", "99.900000" };
	double ios = 0;
	int rc = 0;
	for (int d = 0; d < 4 && !rc; d++) {
		const struct sb_jval *dj = sb_jv_get(job, dirs[d]);
		double n = sb_jv_num(sb_jv_get(dj, "total_ios"), 0);
		if (n <= 0)
			continue;
		if (d < 3 || ios <= 0) /* "mixed" repeats read+write+trim under =both */
			ios += n;
		int base = SB_RCMP_R_IOPS + 5 * d;
		const struct sb_jval *pj = sb_jv_path(dj, "clat_ns/percentile");
		rc = add_num(side, name, base, sb_jv_get(dj, "iops"));
		if (!rc)
			rc = add_num(side, name, base + 1, sb_jv_get(dj, "bw_bytes"));
		for (int p = 0; p < 3 && !rc; p++)
			rc = add_num(side, name, base + 2 + p, sb_jv_get(pj, pct[p]));
	}
	double usr, sys, rt;
	if (!rc && ios > 0 && num(sb_jv_get(job, "usr_cpu"), &usr) && num(sb_jv_get(job, "sys_cpu"), &sys) &&
	    num(sb_jv_get(job, "job_runtime"), &rt))
		rc = sb_rcmp_add(side, name, SB_RCMP_CPU_PER_IO, (usr + sys) / 100.0 * rt * 1e3 / ios);
	const struct sb_jval *ck = sb_jv_get(job, "checkpoint");
	for (int k = 0; k < 2 && ck && !rc; k++) {
		const struct sb_jval *list = sb_jv_get(ck, k ? "read" : "write");
		for (const struct sb_jval *c = list && list->type == SB_JARR ? list->child : NULL; c && !rc;
		     c = c->next)
			rc = add_num(side, name, k ? SB_RCMP_CKPT_READ : SB_RCMP_CKPT_WRITE, sb_jv_get(c, "gbps"));
	}
	const struct sb_jval *tr = sb_jv_get(job, "train");
	const struct sb_jval *ep = sb_jv_get(tr, "epochs");
	if (tr && !rc && sb_jv_len(ep) == 0) {
		rc = add_num(side, name, SB_RCMP_TRAIN_AU, sb_jv_get(tr, "au_pct"));
		if (!rc)
			rc = add_num(side, name, SB_RCMP_TRAIN_MBPS, sb_jv_get(tr, "mb_per_s"));
	}
	for (const struct sb_jval *c = ep && ep->type == SB_JARR ? ep->child : NULL; c && !rc; c = c->next) {
		rc = add_num(side, name, SB_RCMP_TRAIN_AU, sb_jv_get(c, "au_pct"));
		if (!rc)
			rc = add_num(side, name, SB_RCMP_TRAIN_MBPS, sb_jv_get(c, "mb_per_s"));
	}
	return rc;
}

/* "jobs"[]: entries named after the jobs; a name seen again in the same
 * file (numjobs without group_reporting) becomes "NAME (2)", "NAME (3)" */
static int load_jobs(struct sb_rcmp_side *side, const struct sb_jval *jobs)
{
	for (const struct sb_jval *j = jobs->child; j; j = j->next) {
		if (sb_jv_get(j, "sweep_point"))
			continue;   /* a sweep point's job: the point is the entry (load_point) */
		const char *base = sb_jv_str(sb_jv_get(j, "jobname"), "");
		unsigned seen = 0;
		for (const struct sb_jval *p = jobs->child; p != j; p = p->next)
			seen += !strcmp(sb_jv_str(sb_jv_get(p, "jobname"), ""), base);
		char name[512];
		if (seen)
			snprintf(name, sizeof(name), "%s (%u)", base, seen + 1);
		else
			snprintf(name, sizeof(name), "%s", base);
		int rc = load_job(side, name, j);
		if (rc)
			return rc;
	}
	return 0;
}

/* a sweep point is named after its values ("rw=randread bs=4k"); each
 * repetition ("runs"[]) is a sample; CPU per I/O comes from the point's
 * jobs, merged over its repetitions */
static int load_point(struct sb_rcmp_side *side, const struct sb_jval *pt)
{
	char name[512] = "";
	size_t len = 0;
	const struct sb_jval *vals = sb_jv_get(pt, "values");
	for (const struct sb_jval *v = vals && vals->type == SB_JOBJ ? vals->child : NULL; v; v = v->next) {
		int n = snprintf(name + len, sizeof(name) - len, "%s%s=%s", len ? " " : "", v->key,
				 sb_jv_str(v, ""));
		if (n < 0 || (size_t)n >= sizeof(name) - len)
			break;
		len += (size_t)n;
	}
	if (!len)
		snprintf(name, sizeof(name), "point %lld", (long long)sb_jv_int(sb_jv_get(pt, "point"), 0));
	static const char *const keys[5] = { "iops", "bw_bytes", "clat_ns_p50", "clat_ns_p99", "clat_ns_p99_9" };
	int rc = 0;
	const struct sb_jval *runs = sb_jv_get(pt, "runs");
	for (const struct sb_jval *r = runs && runs->type == SB_JARR ? runs->child : NULL; r && !rc; r = r->next)
		for (int d = 0; d < 3 && !rc; d++) {
			const struct sb_jval *dj = sb_jv_get(r, dirs[d]);
			for (int m = 0; m < 5 && dj && !rc; m++)
				rc = add_num(side, name, SB_RCMP_R_IOPS + 5 * d + m, sb_jv_get(dj, keys[m]));
		}
	double cpu_us = 0, ios = 0;
	const struct sb_jval *jobs = sb_jv_get(pt, "jobs");
	for (const struct sb_jval *j = jobs && jobs->type == SB_JARR ? jobs->child : NULL; j; j = j->next) {
		cpu_us += (sb_jv_num(sb_jv_get(j, "usr_cpu"), 0) + sb_jv_num(sb_jv_get(j, "sys_cpu"), 0)) / 100.0 *
			  sb_jv_num(sb_jv_get(j, "job_runtime"), 0) * 1e3;
		for (int d = 0; d < 3; d++)
			ios += sb_jv_num(sb_jv_get(sb_jv_get(j, dirs[d]), "total_ios"), 0);
	}
	if (!rc && ios > 0)
		rc = sb_rcmp_add(side, name, SB_RCMP_CPU_PER_IO, cpu_us / ios);
	return rc;
}

int sb_rcmp_load(struct sb_rcmp_side *side, const char *path)
{
	struct sb_json doc = { 0 };
	int rc = sb_in_json_load(&doc, path, &sb_in_json, 0);
	if (rc) {
		sb_err(path, "%s%s", rc == -EINVAL ? "not JSON: " : "", doc.err);
		sb_json_free(&doc);
		return rc == -ENOTSUP ? -2 : -1;
	}
	const struct sb_jval *jobs = sb_jv_get(doc.root, "jobs");
	const struct sb_jval *sweep = sb_jv_get(doc.root, "sweep");
	if (!jobs || jobs->type != SB_JARR) {
		sb_err(path, "not a storbench or fio result: no \"jobs\" array (write one with "
			     "--output-format=json)");
		sb_json_free(&doc);
		return -1;
	}
	rc = load_jobs(side, jobs);
	const struct sb_jval *pts = sb_jv_get(sweep, "points");
	for (const struct sb_jval *p = pts && pts->type == SB_JARR ? pts->child : NULL; p && !rc; p = p->next)
		rc = load_point(side, p);
	sb_json_free(&doc);
	if (rc) {
		sb_err(path, "out of memory");
		return -1;
	}
	return 0;
}

size_t sb_rcmp_match(const struct sb_rcmp_side *a, const struct sb_rcmp_side *b,
		     struct sb_rcmp_match *m, unsigned char *b_used)
{
	unsigned char *used = calloc(b->ne + 1, 1);
	size_t pairs = 0, left_a = 0, left_b = 0;
	for (size_t i = 0; i < a->ne; i++) {
		m[i].b = -1;
		m[i].how = SB_RCMP_NONE;
		for (size_t k = 0; used && k < b->ne; k++)
			if (!used[k] && !strcmp(a->e[i].name, b->e[k].name)) {
				m[i].b = (long)k;
				m[i].how = SB_RCMP_BY_NAME;
				used[k] = 1;
				pairs++;
				break;
			}
		left_a += m[i].b < 0;
	}
	for (size_t k = 0; used && k < b->ne; k++)
		left_b += !used[k];
	if (used && left_a && left_a == left_b) {
		size_t k = 0;
		for (size_t i = 0; i < a->ne; i++) {
			if (m[i].b >= 0)
				continue;
			while (used[k])
				k++;
			m[i].b = (long)k;
			m[i].how = SB_RCMP_BY_POSITION;
			used[k] = 1;
			pairs++;
		}
	}
	if (b_used && used)
		memcpy(b_used, used, b->ne);
	free(used);
	return pairs;
}

struct sb_rcmp_sum sb_rcmp_summary(const double *v, size_t n)
{
	struct sb_rcmp_sum s = { NAN, NAN, NAN, n };
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (!i || v[i] < s.min)
			s.min = v[i];
		if (!i || v[i] > s.max)
			s.max = v[i];
	}
	if (n)
		s.mean = sum / (double)n;
	return s;
}

static int in_band(double x, const struct sb_rcmp_sum *s, double tol)
{
	/* figures are non-negative; widen by |value| so a negative one would too */
	return s->n >= 2 && x >= s->min - fabs(s->min) * tol && x <= s->max + fabs(s->max) * tol;
}

enum sb_rcmp_verdict sb_rcmp_verdict(const double *a, size_t na, const double *b, size_t nb, double tol)
{
	if (!na || !nb || (na < 2 && nb < 2))
		return SB_RCMP_UNJUDGED;
	struct sb_rcmp_sum sa = sb_rcmp_summary(a, na), sb = sb_rcmp_summary(b, nb);
	return in_band(sb.mean, &sa, tol) || in_band(sa.mean, &sb, tol) ? SB_RCMP_NOISE : SB_RCMP_DIFF;
}

const char *sb_rcmp_verdict_name(enum sb_rcmp_verdict v)
{
	return v == SB_RCMP_NOISE ? "noise" : v == SB_RCMP_DIFF ? "difference" : "unjudged";
}
