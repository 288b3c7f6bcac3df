/* host.c: the host-counter sampler - opens the collectors of its table
 * (stats/host/<name>.c), calls them every interval, keeps the bounded series (halving resolution
 * past the cap) and assembles the end-of-run summary. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/timeutil.h"
#include "stats/host/priv.h"

/* The collectors, one row each of SB_HOST_COLLECTORS (stats/host.h): adding
 * one is its file stats/host/<name>.c and its row there. */
const struct sb_host_collector *const sb_host_collectors[SB_HOST_NSRC] = {
#define SB_HOST_ROW_(u, l) [SB_HOST_##u] = &sb_host_##l##_collector,
	SB_HOST_COLLECTORS(SB_HOST_ROW_)
#undef SB_HOST_ROW_
};

const struct sb_host_field *sb_host_fields(enum sb_host_src s)
{
	static const struct sb_host_field none[] = { { .kind = SB_HK_END } };
	return (unsigned)s < SB_HOST_NSRC && sb_host_collectors[s]->fields ?
		sb_host_collectors[s]->fields : none;
}

const struct sb_host_col *sb_host_cols(enum sb_host_src s)
{
	static const struct sb_host_col none[] = { { .kind = SB_HK_END } };
	return (unsigned)s < SB_HOST_NSRC && sb_host_collectors[s]->cols ?
		sb_host_collectors[s]->cols : none;
}

unsigned sb_host_slot0(enum sb_host_src s)
{
	unsigned n = 0;
	for (unsigned i = 0; i < (unsigned)s && i < SB_HOST_NSRC; i++)
		for (const struct sb_host_col *c = sb_host_cols(i); c->kind != SB_HK_END; c++)
			n += c->slot;
	return n;
}

const struct sb_host_line *sb_host_lines(enum sb_host_src s)
{
	static const struct sb_host_line none[] = { { 0 } };
	return (unsigned)s < SB_HOST_NSRC && sb_host_collectors[s]->lines ?
		sb_host_collectors[s]->lines : none;
}

const char *sb_host_src_name(enum sb_host_src s)
{
	return (unsigned)s < SB_HOST_NSRC ? sb_host_collectors[s]->name : "?";
}

int sb_host_parse_mask(const char *s, unsigned *mask)
{
	unsigned m = 0;
	const char *p = s;
	while (p && *p) {
		size_t len = strcspn(p, ",");
		unsigned i;
		if (len == 3 && !strncmp(p, "all", 3))
			m |= SB_HOST_ALL;
		else if (len == 4 && !strncmp(p, "none", 4))
			m |= 0;
		else if (len) {
			for (i = 0; i < SB_HOST_NSRC; i++)
				if (strlen(sb_host_collectors[i]->name) == len &&
				    !strncmp(p, sb_host_collectors[i]->name, len))
					break;
			if (i == SB_HOST_NSRC) {
				char names[SB_HOST_NSRC * 16] = "";
				for (unsigned k = 0; k < SB_HOST_NSRC; k++)
					snprintf(names + strlen(names), sizeof(names) - strlen(names),
						 "%s, ", sb_host_collectors[k]->name);
				sb_err("host_counters", "unknown counter source '%.*s' "
				       "(use %sall or none)", (int)len, p, names);
				return -EINVAL;
			}
			m |= 1u << i;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	*mask = m;
	return 0;
}

int sb_host_path(const struct sb_host *h, const char *rel, char *buf, size_t len)
{
	const char *sep = h->root[strlen(h->root) - 1] == '/' ? "" : "/";
	while (*rel == '/')
		rel++;
	if ((size_t)snprintf(buf, len, "%s%s%s", h->root, sep, rel) >= len)
		return -ENAMETOOLONG;
	return 0;
}

ssize_t sb_host_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		ssize_t r = read(fd, buf + got, len - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = 0;
	return (ssize_t)got;
}

int sb_host_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	ssize_t r = sb_host_read_file(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (end == buf || errno)
		return -EINVAL;
	*v = x;
	return 0;
}

void sb_host_set_absent(struct sb_host_status *st, const char *fmt, ...)
{
	va_list ap;
	st->present = false;
	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
}

void sb_host_set_errno(struct sb_host_status *st, const char *what, int err)
{
	sb_host_set_absent(st, "%s: %s", what, strerror(err < 0 ? -err : err));
}

struct sb_host *sb_host_open(const struct sb_host_config *cfg)
{
	struct sb_host *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	snprintf(h->root, sizeof(h->root), "%s", cfg->root && *cfg->root ? cfg->root : "/");
	h->which = cfg->which & SB_HOST_ALL;
	h->start_ns = h->last_ns = cfg->start_ns ? cfg->start_ns : sb_now_ns();
	h->cap = cfg->series_cap >= 2 ? cfg->series_cap & ~1u : SB_HOST_SERIES_CAP;
	h->stride = 1;
	h->ser = calloc(h->cap, sizeof(*h->ser));
	if (!h->ser) {
		free(h);
		return NULL;
	}
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		const struct sb_host_collector *c = sb_host_collectors[i];
		sb_host_set_absent(&h->st[i], "not requested (host_counters)");
		h->sum[i] = calloc(1, c->sum_size ? c->sum_size : 1);
		h->state[i] = c->state_size ? calloc(1, c->state_size) : NULL;
		if (!h->sum[i] || (c->state_size && !h->state[i])) {
			sb_host_close(h);
			return NULL;
		}
	}
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		if (!(h->which & (1u << i)))
			continue;
		if (sb_host_collectors[i]->open(h, cfg) < 0) {
			sb_host_close(h);
			return NULL;
		}
	}
	if (h->st[SB_HOST_CPU].present && h->cpu.cur) {
		/* the per-CPU series: cap samples of nidx floats (2048 x 64 CPUs: 512 KiB) */
		h->npcpu = h->cpu.nidx;
		h->pcpu = calloc((size_t)h->cap * h->npcpu, sizeof(float));
		h->pend_pcpu = calloc(h->npcpu, sizeof(float));
		if (!h->pcpu || !h->pend_pcpu) {
			sb_host_close(h);
			return NULL;
		}
	}
	return h;
}

bool sb_host_present(const struct sb_host *h, enum sb_host_src s)
{
	return (unsigned)s < SB_HOST_NSRC && h->st[s].present;
}

const struct sb_host_status *sb_host_status(const struct sb_host *h, enum sb_host_src s)
{
	static const struct sb_host_status unknown = { false, "no such source" };
	return (unsigned)s < SB_HOST_NSRC ? &h->st[s] : &unknown;
}

/* the per-CPU % of a += b's (n CPUs), weighted by the intervals' lengths
 * wa and wb; a CPU without a reading on one side keeps the other's */
static void merge_pcpu(float *a, const float *b, unsigned n, double wa, double wb)
{
	double w = wa + wb;
	for (unsigned i = 0; i < n; i++) {
		if (isnan(b[i]))
			continue;
		if (isnan(a[i]))
			a[i] = b[i];
		else
			a[i] = (float)(w > 0 ? (a[i] * wa + b[i] * wb) / w : (a[i] + b[i]) / 2);
	}
}

/* a += b, b covering the interval right after a: every column as its
 * collector says (the per-CPU % through merge_pcpu) */
static void merge_sample(struct sb_host_sample *a, const struct sb_host_sample *b)
{
	double wa = (double)a->dur_ms, wb = (double)b->dur_ms, w = wa + wb;
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		for (const struct sb_host_col *c = sb_host_cols(src); c->kind != SB_HK_END; c++) {
			union sb_host_val *x = sb_host_col_at(a, src, c);
			const union sb_host_val *y = sb_host_col_at(b, src, c);
			if (c->kind == SB_HK_DBL) {
				if (c->merge == SB_HM_WMEAN)
					x->d = w > 0 ? (x->d * wa + y->d * wb) / w : (x->d + y->d) / 2;
				else if (c->merge == SB_HM_MAX)
					x->d = x->d > y->d ? x->d : y->d;
				else
					x->d += y->d;
			} else {
				if (c->merge == SB_HM_MAX)
					x->u = x->u > y->u ? x->u : y->u;
				else
					x->u += y->u;   /* counts add (no mean of counts) */
			}
		}
	}
	a->t_ms = b->t_ms;
	a->dur_ms += b->dur_ms;
}

/* Adds one interval's sample (and pc, its per-CPU %, h->npcpu values);
 * when the store is full, merges neighbours pairwise and doubles the
 * number of intervals per stored sample. */
static void series_add(struct sb_host *h, const struct sb_host_sample *s, const float *pc)
{
	unsigned np = h->npcpu;
	if (h->npend) {
		if (np)
			merge_pcpu(h->pend_pcpu, pc, np, (double)h->pend.dur_ms, (double)s->dur_ms);
		merge_sample(&h->pend, s);
	} else {
		h->pend = *s;
		if (np)
			memcpy(h->pend_pcpu, pc, np * sizeof(*pc));
	}
	if (++h->npend < h->stride)
		return;
	if (h->nser == h->cap) {
		for (unsigned i = 0; i < h->cap / 2; i++) {
			if (np) {
				memmove(h->pcpu + (size_t)i * np, h->pcpu + (size_t)2 * i * np, np * sizeof(float));
				merge_pcpu(h->pcpu + (size_t)i * np, h->pcpu + (size_t)(2 * i + 1) * np, np,
					   (double)h->ser[2 * i].dur_ms, (double)h->ser[2 * i + 1].dur_ms);
			}
			h->ser[i] = h->ser[2 * i];
			merge_sample(&h->ser[i], &h->ser[2 * i + 1]);
		}
		h->nser = h->cap / 2;
		h->stride *= 2;
		if (h->npend < h->stride)
			return;        /* pend now waits for a second interval */
	}
	if (np)
		memcpy(h->pcpu + (size_t)h->nser * np, h->pend_pcpu, np * sizeof(float));
	h->ser[h->nser++] = h->pend;
	h->npend = 0;
}

int sb_host_sample(struct sb_host *h, uint64_t now_ns)
{
	struct sb_host_sample s;
	if (now_ns <= h->last_ns)
		return 0;   /* no time elapsed: nothing to measure */
	double dt = (double)(now_ns - h->last_ns) / 1e9;
	memset(&s, 0, sizeof(s));
	s.t_ms = (now_ns - h->start_ns) / 1000000;
	s.dur_ms = (now_ns - h->last_ns) / 1000000;
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		if (h->st[i].present && sb_host_collectors[i]->sample)
			sb_host_collectors[i]->sample(h, dt, &s);
	h->last_ns = now_ns;
	h->nsamples++;
	series_add(h, &s, h->npcpu ? h->cpu.cur : NULL);
	return 0;
}

unsigned sb_host_series_ncpus(const struct sb_host *h)
{
	return h->npcpu;
}

unsigned sb_host_series_cpus(const struct sb_host *h, float *out, unsigned max)
{
	unsigned n = 0, np = h->npcpu;
	if (!np)
		return 0;
	for (; n < h->nser && n < max; n++)
		memcpy(out + (size_t)n * np, h->pcpu + (size_t)n * np, np * sizeof(float));
	if (h->npend && n < max)
		memcpy(out + (size_t)n++ * np, h->pend_pcpu, np * sizeof(float));
	return n;
}

unsigned sb_host_series(const struct sb_host *h, struct sb_host_sample *out, unsigned max)
{
	unsigned n = 0;
	for (; n < h->nser && n < max; n++)
		out[n] = h->ser[n];
	if (h->npend && n < max)
		out[n++] = h->pend;
	return n;
}

void sb_host_summary(const struct sb_host *h, struct sb_host_summary *o)
{
	double run_s = (double)(h->last_ns - h->start_ns) / 1e9;
	memset(o, 0, sizeof(*o));
	o->run_s = run_s;
	o->nsamples = h->nsamples;
	o->which = h->which;
	o->series_intervals_per_sample = h->stride;
	o->nseries = h->nser + (h->npend ? 1 : 0);
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		memset(h->sum[i], 0, sb_host_collectors[i]->sum_size);
		sb_host_collectors[i]->summary(h, run_s, h->sum[i]);
		o->part[i] = h->sum[i];
	}
}

void sb_host_close(struct sb_host *h)
{
	if (!h)
		return;
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		if (sb_host_collectors[i]->close && h->sum[i] &&
		    (!sb_host_collectors[i]->state_size || h->state[i]))
			sb_host_collectors[i]->close(h);   /* not when open stopped before it */
	for (unsigned i = 0; i < SB_HOST_NSRC; i++) {
		free(h->state[i]);
		free(h->sum[i]);
	}
	free(h->ser);
	free(h->pcpu);
	free(h->pend_pcpu);
	free(h);
}
