/* host.c: the host counters (stats/host.h) as output - the members of the
 * JSON "host" object and the short "host" section of normal output.  Reads
 * only the sampler's summary, status and series, never its state. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/host.h"
#include "output/units.h"
#include "output/jsonw.h"

/* a figure that could not be computed is null, not 0 (0 would be a reading) */
static void num(struct sb_jw *w, const char *key, double v)
{
	if (isfinite(v))
		sb_jw_dbl(w, key, v);
	else
		sb_jw_null(w, key);
}

static void absent(struct sb_jw *w, const struct sb_host_status *st)
{
	sb_jw_bool(w, "absent", true);
	sb_jw_str(w, "reason", st->reason);
}

/* ---- one generic writer for every collector's figures (stats/host.h) ---- */

static const void *at(const void *base, size_t off)
{
	return (const char *)base + off;
}

/* the status SB_HOST_AT(...) names, i elements of stride further; NULL: none */
static const struct sb_host_status *status_at(const void *base, size_t where, unsigned i, size_t stride)
{
	return where ? at(base, where - 1 + i * stride) : NULL;
}

static unsigned list_count(const struct sb_host_list *l, const void *base)
{
	return *(const unsigned *)at(base, l->count_off);
}

static void json_field(struct sb_jw *w, const struct sb_host_field *f, const void *base);

static void json_list(struct sb_jw *w, const struct sb_host_field *f, const void *base)
{
	const struct sb_host_list *l = f->list;
	unsigned n = list_count(l, base);
	sb_jw_arr_begin(w, f->key);
	for (unsigned i = 0; i < n; i++) {
		const void *el = at(base, l->elem_off + i * l->elem_size);
		const struct sb_host_status *st = status_at(base, l->st_at, i, l->st_size);
		sb_jw_obj_begin(w, NULL);
		json_field(w, &l->fields[0], el);   /* the name, always */
		if (st && !st->present)
			absent(w, st);
		else
			for (const struct sb_host_field *g = l->fields + 1; g->kind != SB_HK_END; g++)
				json_field(w, g, el);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

static void json_field(struct sb_jw *w, const struct sb_host_field *f, const void *base)
{
	const struct sb_host_status *gate = status_at(base, f->gate, 0, 0);
	if (gate && !gate->present) {
		if (f->absent_key) {
			char key[128];
			snprintf(key, sizeof(key), "%s_absent", f->key);
			sb_jw_str(w, key, gate->reason);
		}
		return;
	}
	const void *p = at(base, f->off);
	switch (f->kind) {
	case SB_HK_U64:
		sb_jw_u64(w, f->key, *(const uint64_t *)p);
		break;
	case SB_HK_UINT:
		sb_jw_u64(w, f->key, *(const unsigned *)p);
		break;
	case SB_HK_DBL:
		num(w, f->key, *(const double *)p);
		break;
	case SB_HK_STR:
		sb_jw_str(w, f->key, (const char *)p);
		break;
	case SB_HK_FLAG:
		if (*(const bool *)p)
			sb_jw_bool(w, f->key, true);
		break;
	case SB_HK_LIST:
		json_list(w, f, base);
		break;
	case SB_HK_END:
		break;
	}
}

/* One source: "absent" and "reason" when absent; its figures when present,
 * or when absent but one of its lists says to write it anyway (the disks
 * and perf events, each with its own status). */
static void json_source(struct sb_jw *w, const struct sb_host_status *st,
			const struct sb_host_field *fields, const void *part)
{
	bool body = st->present;
	for (const struct sb_host_field *f = fields; f->kind != SB_HK_END; f++)
		if (f->kind == SB_HK_LIST && f->list->when_absent && list_count(f->list, part))
			body = true;
	if (!st->present)
		absent(w, st);
	if (body)
		for (const struct sb_host_field *f = fields; f->kind != SB_HK_END; f++)
			json_field(w, f, part);
}

/* one series sample: the columns of the present sources, then "cpus"
 * (np per-CPU %, when the cpu source has them) */
static void emit_one(struct sb_jw *w, const struct sb_host_sample *x, const bool *on,
		     const float *pc, unsigned np)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_u64(w, "t_ms", x->t_ms);
	sb_jw_u64(w, "dur_ms", x->dur_ms);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		if (!on[src])
			continue;
		for (const struct sb_host_col *c = sb_host_cols(src); c->kind != SB_HK_END; c++) {
			const union sb_host_val *v = sb_host_col_at(x, src, c);
			if (c->kind == SB_HK_DBL)
				num(w, c->key, v->d);
			else
				sb_jw_u64(w, c->key, v->u);
		}
	}
	if (np && pc)
		sb_jw_row2(w, "cpus", pc, np);
	sb_jw_obj_end(w);
}

static void emit_series(struct sb_jw *w, const struct sb_host *h, const struct sb_host_summary *s)
{
	bool on[SB_HOST_NSRC];
	for (unsigned i = 0; i < SB_HOST_NSRC; i++)
		on[i] = sb_host_present(h, i);
	sb_jw_u64(w, "series_intervals_per_sample", s->series_intervals_per_sample);
	sb_jw_arr_begin(w, "series");
	struct sb_host_sample *ser = s->nseries ? calloc(s->nseries, sizeof(*ser)) : NULL;
	unsigned n = ser ? sb_host_series(h, ser, s->nseries) : 0;
	unsigned np = on[SB_HOST_CPU] ? sb_host_series_ncpus(h) : 0;
	float *pc = np && n ? malloc((size_t)n * np * sizeof(*pc)) : NULL;
	if (pc && sb_host_series_cpus(h, pc, n) != n) {
		free(pc);
		pc = NULL;
	}
	for (unsigned i = 0; i < n; i++)
		emit_one(w, &ser[i], on, pc ? pc + (size_t)i * np : NULL, np);
	free(pc);
	free(ser);
	sb_jw_arr_end(w);
}

void sb_out_host_json(struct sb_jw *w, const struct sb_host *h)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(h, s);
	num(w, "run_s", s->run_s);
	sb_jw_u64(w, "samples", s->nsamples);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		sb_jw_obj_begin(w, sb_host_src_name(src));
		json_source(w, sb_host_status(h, src), sb_host_fields(src), s->part[src]);
		sb_jw_obj_end(w);
	}
	emit_series(w, h, s);
	free(s);
}

/* ---- normal output ---- */

static void bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	unsigned u = 0;
	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	snprintf(buf, len, u ? "%.1f%s" : "%.0f%s", v, unit[u]);
}

static const struct sb_host_field *field_named(const struct sb_host_field *fields,
					       const char *key, size_t len)
{
	for (const struct sb_host_field *f = fields; f && f->kind != SB_HK_END; f++)
		if (strlen(f->key) == len && !strncmp(f->key, key, len))
			return f;
	return NULL;
}

/* One template (stats/host.h, struct sb_host_line) with the figures at base;
 * idx and st: the element's index and status in a list. */
static void render(FILE *f, const char *t, const struct sb_host_field *fields, const void *base,
		   unsigned idx, const struct sb_host_status *st)
{
	while (*t) {
		const char *open = strchr(t, '{'), *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			fputs(t, f);
			return;
		}
		fwrite(t, 1, (size_t)(open - t), f);
		t = close + 1;
		const char *name = open + 1, *colon = memchr(name, ':', (size_t)(close - name));
		size_t len = (size_t)((colon ? colon : close) - name);
		const char *spec = colon ? colon + 1 : "";
		if (len == 1 && *name == '#') {
			fprintf(f, "%u", idx);
			continue;
		}
		if (len == 6 && !strncmp(name, "reason", 6)) {
			fputs(st ? st->reason : "", f);
			continue;
		}
		const struct sb_host_field *fd = field_named(fields, name, len);
		if (!fd) {
			fprintf(f, "{?%.*s}", (int)len, name);   /* a test catches these */
			continue;
		}
		const void *p = at(base, fd->off);
		char buf[32];
		switch (fd->kind) {
		case SB_HK_U64:
			if (*spec == 'B') {
				bytes(buf, sizeof(buf), *(const uint64_t *)p);
				fputs(buf, f);
			} else {
				fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p);
			}
			break;
		case SB_HK_UINT:
			fprintf(f, "%u", *(const unsigned *)p);
			break;
		case SB_HK_DBL:
			if (*spec == 'M') { /* MB (10^6 B) as the run status shows sizes: MiB (MB) */
				double mb = *(const double *)p;
				fprintf(f, "%.2fMiB (%.2fMB)", mb * 1e6 / 1048576.0, mb);
				break;
			}
			fputs(sb_out_fmt_fixed(buf, sizeof(buf), *spec == '.' ? atoi(spec + 1) : 6,
					       *(const double *)p), f);
			break;
		case SB_HK_STR:
			fputs((const char *)p, f);
			break;
		case SB_HK_FLAG:
			if (*(const bool *)p && fd->text)
				fputs(fd->text, f);
			break;
		case SB_HK_LIST:
			fprintf(f, "%u", list_count(fd->list, base));
			break;
		case SB_HK_END:
			break;
		}
	}
}

/* a present source's lines of normal output */
static void print_source(FILE *f, const struct sb_host_line *lines,
			 const struct sb_host_field *fields, const void *part)
{
	for (const struct sb_host_line *ln = lines; ln->text || ln->list; ln++) {
		const struct sb_host_status *gate = status_at(part, ln->gate, 0, 0);
		if (gate && !gate->present)
			continue;
		const struct sb_host_field *lf = ln->list ? field_named(fields, ln->list, strlen(ln->list)) : NULL;
		if (!lf || lf->kind != SB_HK_LIST) {
			fputs("    ", f);
			render(f, ln->text ? ln->text : "", fields, part, 0, NULL);
			fputc('\n', f);
			continue;
		}
		const struct sb_host_list *l = lf->list;
		unsigned n = list_count(l, part);
		if (ln->inline_) {
			fputs("    ", f);
			render(f, ln->text ? ln->text : "", fields, part, 0, NULL);
		}
		for (unsigned i = 0; i < n; i++) {
			const void *el = at(part, l->elem_off + i * l->elem_size);
			const struct sb_host_status *st = status_at(part, l->st_at, i, l->st_size);
			const char *t = st && !st->present && ln->absent ? ln->absent : ln->each;
			if (!ln->inline_)
				fputs("    ", f);
			render(f, t ? t : "", l->fields, el, i, st);
			if (!ln->inline_)
				fputc('\n', f);
		}
		if (ln->inline_)
			fputc('\n', f);
	}
}

void sb_out_host_normal(FILE *f, const struct sb_host *h)
{
	struct sb_host_summary *s = malloc(sizeof(*s));
	if (!s)
		return;
	sb_host_summary(h, s);
	fprintf(f, "  host (%u samples over %.1fs):\n", s->nsamples, s->run_s);
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		const struct sb_host_status *st = sb_host_status(h, src);
		if (!(s->which & (1u << src)))
			continue;   /* not requested: nothing to say */
		if (st->present)
			print_source(f, sb_host_lines(src), sb_host_fields(src), s->part[src]);
		else
			fprintf(f, "    %s: absent (%s)\n", sb_host_src_name(src), st->reason);
	}
	free(s);
}
