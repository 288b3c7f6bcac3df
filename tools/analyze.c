/* tools/analyze.c: `storbench analyze TRACE...`: totals of DFTracer-format
 * traces (storbench's write_trace=, DFTracer's, DLIO's profiler's) read in
 * parallel with bounded memory (tools/trace_read.h): time and bytes per
 * operation and category, bandwidth, per-rank (pid) maxima, time in I/O
 * against time in application phases, and the per-file-class table (file
 * names with their digits removed below the directory they share, by
 * rank; see ta_class).  Text or JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "tools/tools.h"
#include "tools/trace_agg.h"
#include "tools/trace_read.h"

struct rows {
	const struct ta_ent **v;
	size_t n;
};

static int collect(const struct ta_tab *t, struct rows *r)
{
	r->v = calloc(t->n ? t->n : 1, sizeof(*r->v));
	r->n = 0;
	if (!r->v)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->e[i].key)
			r->v[r->n++] = &t->e[i];
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct ta_ent *x = *(const struct ta_ent *const *)a, *y = *(const struct ta_ent *const *)b;
	if (x->s.dur_us != y->s.dur_us)
		return x->s.dur_us < y->s.dur_us ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_key_pid(const void *a, const void *b)
{
	const struct ta_ent *x = *(const struct ta_ent *const *)a, *y = *(const struct ta_ent *const *)b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

/* "pid P" or, for a rank that is a thread, "pid P rank R" (trace_agg.h) */
static const char *who_text(int64_t w, char *buf, size_t len)
{
	if (TA_RANK(w) >= 0)
		snprintf(buf, len, "pid %lld rank %lld", (long long)TA_PID(w), (long long)TA_RANK(w));
	else
		snprintf(buf, len, "pid %lld", (long long)w);
	return buf;
}

/* "KEY":P and, for a rank that is a thread, ",RANKKEY":R */
static void who_json(FILE *f, const char *key, const char *rkey, int64_t w)
{
	fprintf(f, "\"%s\":%lld", key, (long long)TA_PID(w));
	if (TA_RANK(w) >= 0)
		fprintf(f, ",\"%s\":%lld", rkey, (long long)TA_RANK(w));
}

static double bw(const struct ta_stat *s)
{
	return s->dur_us > 0 ? (double)s->bytes / (s->dur_us / 1e6) : 0;
}

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* file e's name: its FH record's for a hash ("#H"), else as recorded */
static const char *file_name(const struct ta_agg *a, const struct ta_ent *e)
{
	const char *name = e->key;
	if (name[0] == '#') {
		const struct ta_ent *h = ta_find(&a->fh, name + 1, 0);
		if (!h && a->names)
			h = ta_find(a->names, name + 1, 0);
		if (h && h->val && h->s.n == 1) /* a colliding hash: kept as the hash */
			name = h->val;
	}
	return name;
}

/* the per-file-class table: files' (name, pid) rows folded by class, the
 * class the name without digits below the directory all files share
 * (whose digits are names, such as lustre3: ta_class) */
static int classes(const struct ta_agg *a, struct ta_tab *cls)
{
	const char *first = NULL;
	size_t keep = (size_t)-1;
	for (size_t i = 0; i < a->files.cap; i++) {
		const char *name = a->files.e[i].key ? file_name(a, &a->files.e[i]) : "#";
		if (name[0] == '#')
			continue;
		if (!first)
			first = name;
		keep = ta_common_dir(first, name, keep);
	}
	for (size_t i = 0; i < a->files.cap; i++) {
		const struct ta_ent *e = &a->files.e[i];
		if (!e->key)
			continue;
		const char *name = file_name(a, e);
		char buf[4200];
		if (name[0] == '#')
			snprintf(buf, sizeof(buf), "fhash:%s", name + 1); /* no FH record for it */
		else
			ta_class(name, keep, buf, sizeof(buf));
		struct ta_ent *c = ta_get(cls, buf, strlen(buf), e->pid);
		if (!c)
			return -ENOMEM;
		c->s.n += e->s.n;
		c->s.bytes += e->s.bytes;
		c->s.dur_us += e->s.dur_us;
		c->app.n++; /* distinct files */
	}
	return 0;
}

struct rankmax {
	double io_s, app_s;
	uint64_t bytes;
	int64_t io_pid, app_pid, bytes_pid;
	double io_total, app_total;
};

static void rank_max(const struct rows *rk, struct rankmax *m)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < rk->n; i++) {
		const struct ta_ent *r = rk->v[i];
		m->io_total += r->s.dur_us / 1e6;
		m->app_total += r->app.dur_us / 1e6;
		if (!i || r->s.dur_us / 1e6 > m->io_s) {
			m->io_s = r->s.dur_us / 1e6;
			m->io_pid = r->pid;
		}
		if (!i || r->app.dur_us / 1e6 > m->app_s) {
			m->app_s = r->app.dur_us / 1e6;
			m->app_pid = r->pid;
		}
		if (!i || r->s.bytes > m->bytes) {
			m->bytes = r->s.bytes;
			m->bytes_pid = r->pid;
		}
	}
}

static void stat_json(FILE *f, const struct ta_stat *s)
{
	fprintf(f, "\"count\":%llu,\"bytes\":%llu,\"time_s\":%.6f,\"bandwidth_bytes_per_s\":%.1f",
		(unsigned long long)s->n, (unsigned long long)s->bytes, s->dur_us / 1e6, bw(s));
}

/* what the trace holds that could not be used, on stderr: fields that are
 * missing, negative, out of range or not numbers (tools/trace_num.h; taken
 * as 0), file-name hashes with two names */
static void warn_unusable(const struct ta_agg *a)
{
	static const char *const what[TA_NBAD] = {
		"time taken as 0", "duration taken as 0", "pid taken as 0", "bytes taken as 0",
		"bytes taken as 0", "taken as the whole size", "rank ignored",
		"bytes counted as 0",
	};
	for (unsigned i = 0; i < TA_NBAD; i++) {
		if (!a->bad[i])
			continue;
		if (i == TA_NOBYTES)
			sb_warn("analyze", "%llu read/write events carry neither args.size nor "
				"args.count: %s", (unsigned long long)a->bad[i], what[i]);
		else
			sb_warn("analyze", "%llu events have no usable \"%s\" (missing, negative, "
				"out of range or not a number): %s", (unsigned long long)a->bad[i], ta_bad_field[i], what[i]);
	}
	for (size_t i = 0; i < a->fh.cap; i++) {
		const struct ta_ent *e = &a->fh.e[i];
		if (!e->key || e->s.n < 2)
			continue;
		char names[512];
		size_t n = 0;
		for (const char *p = e->val; *p && n + 4 < sizeof(names); p++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s", *p == '\n' ? ", " : (char[2]){ *p, 0 });
		sb_warn("analyze", "file hash %s names %llu files (%s): the hashes collide "
			"(older DFTracer wrote 16-bit hashes); its events are listed as fhash:%s",
			e->key, (unsigned long long)e->s.n, names, e->key);
	}
}

/* what the trace could not be read for: unusable fields, hash collisions */
static void out_json_quality(FILE *f, const struct ta_agg *a)
{
	fprintf(f, "\"unusable_fields\":{");
	for (unsigned i = 0, n = 0; i < TA_NBAD; i++)
		if (a->bad[i])
			fprintf(f, "%s\"%s\":%llu", n++ ? "," : "", ta_bad_field[i],
				(unsigned long long)a->bad[i]);
	fprintf(f, "},\n\"hash_collisions\":[");
	for (size_t i = 0, n = 0; i < a->fh.cap; i++) {
		const struct ta_ent *e = &a->fh.e[i];
		if (!e->key || e->s.n < 2)
			continue;
		fprintf(f, "%s{\"fhash\":", n++ ? "," : "");
		jstr(f, e->key);
		fprintf(f, ",\"names\":[");
		for (const char *p = e->val; p;) {
			const char *nl = strchr(p, '\n');
			char buf[4200];
			snprintf(buf, sizeof(buf), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
			jstr(f, buf);
			fprintf(f, nl ? "," : "");
			p = nl ? nl + 1 : NULL;
		}
		fprintf(f, "]}");
	}
	fprintf(f, "],\n");
}

static void out_json(FILE *f, const struct ta_agg *a, struct rows *ops, struct rows *cats,
		     struct rows *rk, struct rows *cl, char **files, int nfiles)
{
	struct rankmax m;
	rank_max(rk, &m);
	double span = a->events ? (a->last_us - a->first_us) / 1e6 : 0;
	fprintf(f, "{\n\"traces\":[");
	for (int i = 0; i < nfiles; i++) {
		fprintf(f, i ? "," : "");
		jstr(f, files[i]);
	}
	fprintf(f, "],\n\"events\":%llu,\"metadata_events\":%llu,\"other_events\":%llu,"
		"\"filtered_out\":%llu,\n",
		(unsigned long long)a->events, (unsigned long long)a->meta,
		(unsigned long long)a->other, (unsigned long long)a->skipped);
	fprintf(f, "\"first_ts_us\":%.0f,\"last_end_us\":%.0f,\"span_s\":%.6f,\n",
		a->events ? a->first_us : 0, a->events ? a->last_us : 0, span);
	fprintf(f, "\"io_time_s\":%.6f,\"app_time_s\":%.6f,\n", m.io_total, m.app_total);
	out_json_quality(f, a);
	const char *sec[2] = { "operations", "categories" };
	struct rows *rs[2] = { ops, cats };
	for (int k = 0; k < 2; k++) {
		fprintf(f, "\"%s\":[", sec[k]);
		for (size_t i = 0; i < rs[k]->n; i++) {
			const struct ta_ent *e = rs[k]->v[i];
			char key[512];
			snprintf(key, sizeof(key), "%s", e->key);
			char *sep = strchr(key, '\x1f');
			fprintf(f, "%s\n {\"cat\":", i ? "," : "");
			if (sep)
				*sep = 0;
			jstr(f, key);
			if (sep) {
				fprintf(f, ",\"name\":");
				jstr(f, sep + 1);
			}
			fprintf(f, ",");
			stat_json(f, &e->s);
			fprintf(f, "}");
		}
		fprintf(f, "],\n");
	}
	fprintf(f, "\"ranks\":{\"count\":%zu,\"max\":{\"io_time_s\":%.6f,", rk->n, m.io_s);
	who_json(f, "io_time_pid", "io_time_rank", m.io_pid);
	fprintf(f, ",\"app_time_s\":%.6f,", m.app_s);
	who_json(f, "app_time_pid", "app_time_rank", m.app_pid);
	fprintf(f, ",\"io_bytes\":%llu,", (unsigned long long)m.bytes);
	who_json(f, "io_bytes_pid", "io_bytes_rank", m.bytes_pid);
	fprintf(f, "},\"per_rank\":[");
	for (size_t i = 0; i < rk->n; i++) {
		const struct ta_ent *r = rk->v[i];
		fprintf(f, "%s\n {", i ? "," : "");
		who_json(f, "pid", "rank", r->pid);
		fprintf(f, ",\"io_count\":%llu,\"io_bytes\":%llu,\"io_time_s\":%.6f,"
			"\"app_count\":%llu,\"app_time_s\":%.6f,\"span_s\":%.6f}",
			(unsigned long long)r->s.n, (unsigned long long)r->s.bytes,
			r->s.dur_us / 1e6, (unsigned long long)r->app.n, r->app.dur_us / 1e6,
			(r->last_us - r->first_us) / 1e6);
	}
	fprintf(f, "]},\n\"file_classes\":[");
	for (size_t i = 0; i < cl->n; i++) {
		const struct ta_ent *c = cl->v[i];
		fprintf(f, "%s\n {\"class\":", i ? "," : "");
		jstr(f, c->key);
		fputc(',', f);
		who_json(f, "pid", "rank", c->pid);
		fprintf(f, ",\"files\":%llu,", (unsigned long long)c->app.n);
		stat_json(f, &c->s);
		fprintf(f, "}");
	}
	fprintf(f, "]\n}\n");
}

/* The widest of min and the rows' keys (part 0: the whole key; 1 and 2: the
 * category and the operation either side of the 0x1f of an operation key), so
 * that a long file name widens its column instead of shifting the figures. */
static int key_width(const struct rows *r, int part, int min)
{
	int w = min;
	for (size_t i = 0; i < r->n; i++) {
		const char *k = r->v[i]->key, *sep = strchr(k, '\x1f');
		size_t n = part == 0 || !sep ? strlen(k) : part == 1 ? (size_t)(sep - k) : strlen(sep + 1);
		if (part == 2 && !sep)
			n = 0;
		if (n > (size_t)w && n < 4096)
			w = (int)n;
	}
	return w;
}

static void who_col(char *wb, size_t len, int64_t pid)
{
	if (TA_RANK(pid) >= 0)
		snprintf(wb, len, "%lld/%lld", (long long)TA_PID(pid), (long long)TA_RANK(pid));
	else
		snprintf(wb, len, "%lld", (long long)pid);
}

static void text_ops(FILE *f, const struct rows *ops, const struct rows *cats)
{
	int wc = key_width(ops, 1, 12), wo = key_width(ops, 2, 20);
	fprintf(f, "%-*s %-*s %12s %16s %14s %12s\n", wc, "category", wo, "operation", "count",
		"bytes", "time (s)", "MiB/s");
	for (size_t i = 0; i < ops->n; i++) {
		const struct ta_ent *e = ops->v[i];
		const char *sep = strchr(e->key, '\x1f');
		fprintf(f, "%-*.*s %-*s %12llu %16llu %14.6f %12.1f\n", wc,
			(int)(sep ? sep - e->key : (long)strlen(e->key)), e->key, wo, sep ? sep + 1 : "",
			(unsigned long long)e->s.n, (unsigned long long)e->s.bytes, e->s.dur_us / 1e6,
			bw(&e->s) / 1048576.0);
	}
	int wk = key_width(cats, 0, 33);
	fprintf(f, "\n%-*s %12s %16s %14s %12s\n", wk, "category", "count", "bytes", "time (s)",
		"MiB/s");
	for (size_t i = 0; i < cats->n; i++) {
		const struct ta_ent *e = cats->v[i];
		fprintf(f, "%-*s %12llu %16llu %14.6f %12.1f\n", wk, e->key, (unsigned long long)e->s.n,
			(unsigned long long)e->s.bytes, e->s.dur_us / 1e6, bw(&e->s) / 1048576.0);
	}
}

static void text_classes(FILE *f, const struct rows *cl)
{
	int wk = key_width(cl, 0, 40), ww = 10;
	char wb[64];
	for (size_t i = 0; i < cl->n; i++) {
		who_col(wb, sizeof(wb), cl->v[i]->pid);
		ww = (int)strlen(wb) > ww ? (int)strlen(wb) : ww;
	}
	fprintf(f, "\n%-*s %*s %8s %12s %16s %14s %12s\n", wk, "file class", ww, "pid[/rank]", "files",
		"count", "bytes", "time (s)", "MiB/s");
	for (size_t i = 0; i < cl->n; i++) {
		const struct ta_ent *c = cl->v[i];
		who_col(wb, sizeof(wb), c->pid);
		fprintf(f, "%-*s %*s %8llu %12llu %16llu %14.6f %12.1f\n", wk, c->key, ww,
			wb, (unsigned long long)c->app.n, (unsigned long long)c->s.n,
			(unsigned long long)c->s.bytes, c->s.dur_us / 1e6, bw(&c->s) / 1048576.0);
	}
}

static void out_text(FILE *f, const struct ta_agg *a, struct rows *ops, struct rows *cats,
		     struct rows *rk, struct rows *cl)
{
	struct rankmax m;
	rank_max(rk, &m);
	double span = a->events ? (a->last_us - a->first_us) / 1e6 : 0;
	fprintf(f, "events: %llu complete, %llu metadata, %llu other, %llu filtered out; span %.6f s\n",
		(unsigned long long)a->events, (unsigned long long)a->meta,
		(unsigned long long)a->other, (unsigned long long)a->skipped, span);
	fprintf(f, "time in events (all ranks): I/O %.6f s, application %.6f s\n\n", m.io_total,
		m.app_total);
	text_ops(f, ops, cats);
	char w1[64], w2[64], w3[64];
	fprintf(f, "\nranks (pid, or pid and rank): %zu; max I/O time %.6f s (%s), max application "
		"time %.6f s (%s), max I/O bytes %llu (%s)\n", rk->n, m.io_s,
		who_text(m.io_pid, w1, sizeof(w1)), m.app_s, who_text(m.app_pid, w2, sizeof(w2)),
		(unsigned long long)m.bytes, who_text(m.bytes_pid, w3, sizeof(w3)));
	if (cl->n)
		text_classes(f, cl);
}

/* analyze's flags: --help lists them, the bash completion offers them */
const struct sb_cli_flag sb_analyze_flags[] = {
	{ "--output-format", "normal|json", "the totals as text tables (default) or one JSON "
	  "document" },
	{ "--filter", "KEY:VALUE", "cat:C | name:N | file:PREFIX | time:FROM-TO (ts in us, either "
	  "may be empty); the same key again widens it (or), different keys narrow it (and)" },
	{ "--threads", "N", "worker threads (default: one per online CPU)" },
	{ "--help", NULL, "this text (also -h)" },
	{ NULL, NULL, NULL },
};

static int usage(FILE *f, int code)
{
	fprintf(f, "usage: storbench analyze [--output-format=normal|json] [--filter=KEY:VALUE]... "
		"[--threads=N] TRACE...\n"
		"  TRACE: .pfw.gz or .pfw (storbench write_trace=, DFTracer, DLIO's profiler)\n");
	SB_TOOL_FLAGS_USAGE(f, sb_analyze_flags);
	return code;
}

static int add_filter(struct ta_filter *f, const char *v)
{
	const char *c = strchr(v, ':');
	if (!c)
		return -EINVAL;
	c++;
	f->any = true;
	if (!strncmp(v, "cat:", 4) && f->ncat < 16) {
		f->cat[f->ncat++] = c;
	} else if (!strncmp(v, "name:", 5) && f->nname < 16) {
		f->name[f->nname++] = c;
	} else if (!strncmp(v, "file:", 5) && f->nprefix < 16) {
		f->prefix[f->nprefix++] = c;
	} else if (!strncmp(v, "time:", 5)) {
		const char *dash = strchr(c, '-');
		char *end;
		if (!dash)
			return -EINVAL;
		f->t0 = c != dash ? strtod(c, &end) : 0;
		if (c != dash && end != dash)
			return -EINVAL;
		f->t1 = dash[1] ? strtod(dash + 1, &end) : 1e300;
		if (dash[1] && *end)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* the rows sorted (by time, then by key and pid), written as text or JSON */
static void report(bool json, const struct ta_agg *a, struct rows *ops, struct rows *cats,
		   struct rows *rk, struct rows *cl, char **files, int nfiles)
{
	qsort(ops->v, ops->n, sizeof(*ops->v), by_time);
	qsort(cats->v, cats->n, sizeof(*cats->v), by_time);
	qsort(rk->v, rk->n, sizeof(*rk->v), by_key_pid);
	qsort(cl->v, cl->n, sizeof(*cl->v), by_key_pid);
	if (json)
		out_json(stdout, a, ops, cats, rk, cl, files, nfiles);
	else
		out_text(stdout, a, ops, cats, rk, cl);
}

int sb_analyze_main(int argc, char **argv)
{
	struct ta_filter flt = { .t1 = -1 };
	bool json = false;
	long threads = sysconf(_SC_NPROCESSORS_ONLN);
	char **files = calloc((size_t)argc, sizeof(*files));
	int nfiles = 0;
	if (!files)
		return 3;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			free(files);
			return usage(stdout, 0);
		} else if (!strncmp(a, "--output-format=", 16)) {
			json = !strcmp(a + 16, "json");
			if (!json && strcmp(a + 16, "normal") && strcmp(a + 16, "text")) {
				sb_err("<cmdline>", "analyze --output-format=%s: "
					"give normal or json", a + 16);
				free(files);
				return 2;
			}
		} else if (!strncmp(a, "--filter=", 9)) {
			if (add_filter(&flt, a + 9)) { /* keeps pointers into argv */
				sb_err("<cmdline>", "analyze --filter=%s: give cat:C, name:N, "
					"file:PREFIX or time:FROM-TO (us), at most 16 of each", a + 9);
				free(files);
				return 2;
			}
		} else if (!strncmp(a, "--threads=", 10)) {
			char *end;
			threads = strtol(a + 10, &end, 10);
			if (*end || threads < 1 || threads > 1024) {
				sb_err("<cmdline>", "analyze --threads=%s: give 1 to 1024",
					a + 10);
				free(files);
				return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			sb_err("<cmdline>", "analyze: unknown option %s", a);
			free(files);
			return usage(stderr, 2);
		} else {
			files[nfiles++] = a;
		}
	}
	if (!nfiles) {
		sb_err("<cmdline>", "analyze: no trace named: give one or more "
			"TRACE.pfw.gz files");
		free(files);
		return usage(stderr, 2);
	}
	struct ta_agg pre, a;
	ta_init(&pre, NULL);
	ta_init(&a, &flt);
	int e = 0;
	if (flt.nprefix) { /* file names first: events may come before their FH record */
		e = tr_read((const char *const *)files, (unsigned)nfiles, (unsigned)threads, true, &pre);
		a.names = &pre.fh;
	}
	if (!e)
		e = tr_read((const char *const *)files, (unsigned)nfiles, (unsigned)threads, false, &a);
	if (!e)
		warn_unusable(&a);
	struct ta_tab cls = { 0 };
	struct rows ops = { 0 }, cats = { 0 }, rk = { 0 }, cl = { 0 };
	if (!e && (classes(&a, &cls) || collect(&a.ops, &ops) || collect(&a.cats, &cats) ||
		   collect(&a.ranks, &rk) || collect(&cls, &cl)))
		e = -ENOMEM;
	if (!e)
		report(json, &a, &ops, &cats, &rk, &cl, files, nfiles);
	free(ops.v);
	free(cats.v);
	free(rk.v);
	free(cl.v);
	for (size_t i = 0; i < cls.cap; i++)
		free(cls.e[i].key);
	free(cls.e);
	ta_free(&a);
	ta_free(&pre);
	free(files);
	if (fflush(stdout))
		return 3;
	return e == -ENOMEM ? 3 : e == -ENOTSUP ? 2 : e ? 1 : 0; /* -ENOTSUP: not a regular file */
}
