/* kvtrace.c: the ShareGPT-style and BurstGPT-style trace readers of
 * workload=kvcache (see kvtrace.h).  What they take and how, from the
 * official benchmark (mlcommons/storage kv_cache_benchmark/kv_cache/):
 * workload.py ShareGPTDatasetLoader._load_dataset (pairs, len // 4, caps),
 * benchmark.py _burst_trace_iterator (CSV columns) and
 * _generate_requests_from_trace (sleep delta / speedup when delta > 0).
 * Unlike the official reader, which skips a BurstGPT row it cannot parse
 * (except (ValueError, KeyError): continue), a malformed row is an error
 * here: a replay that silently drops requests is not the trace. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "os/infile.h"
#include "ml/kvcache/kvtrace.h"

enum sb_kv_trace_fmt sb_kv_trace_detect(const char *text, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3; /* a UTF-8 byte order mark */
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return i < len && (text[i] == '[' || text[i] == '{') ? SB_KVT_SHAREGPT : SB_KVT_BURSTGPT;
}

const char *sb_kv_trace_fmt_name(enum sb_kv_trace_fmt f)
{
	return f == SB_KVT_SHAREGPT ? "sharegpt" : f == SB_KVT_BURSTGPT ? "burstgpt" : "auto";
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int add(struct sb_kv_trace *t, const struct sb_kv_trace_req *r)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		void *p = realloc(t->req, cap * sizeof(*t->req));
		if (!p)
			return -ENOMEM;
		t->req = p;
		t->cap = cap;
	}
	t->req[t->n++] = *r;
	return 0;
}

/* ---- burstgpt: CSV ---- */

#define CSV_MAXF 32

/* split one line (no newline) into fields, in place; double quotes group
 * and "" is a quote; returns the field count or -1 on an open quote */
static int csv_split(char *s, char **f)
{
	int n = 0;
	for (;;) {
		char *out = s, *start = s;
		bool q = false;
		while (*s && (q || *s != ',')) {
			if (*s == '"' && q && s[1] == '"') { *out++ = '"'; s += 2; continue; }
			if (*s == '"') { q = !q; s++; continue; }
			*out++ = *s++;
		}
		if (q)
			return -1;
		bool end = !*s;
		*out = 0;
		if (n < CSV_MAXF)
			f[n++] = start;
		if (end)
			return n;
		s++;
	}
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* a whole number as python's int() takes it (white space around) */
static bool whole(const char *s, uint32_t *v)
{
	char *e;
	s = trim((char *)s);
	if (*s < '0' || *s > '9')
		return *s == '+' && s[1] >= '0' && s[1] <= '9' ? whole(s + 1, v) : false;
	unsigned long long x = strtoull(s, &e, 10);
	if (*e || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

struct csv_cols { int ts, req, resp; };

static int csv_header(char *line, struct csv_cols *c, char *err, size_t errlen)
{
	char *f[CSV_MAXF];
	int n = csv_split(line, f);
	*c = (struct csv_cols){ -1, -1, -1 };
	for (int i = 0; i < n; i++) {
		const char *x = trim(f[i]);
		if (!strcmp(x, "Timestamp")) c->ts = i;
		else if (!strcmp(x, "Request tokens")) c->req = i;
		else if (!strcmp(x, "Response tokens")) c->resp = i;
	}
	if (c->req < 0 || c->resp < 0)
		return fail(err, errlen, "line 1: the BurstGPT header has no '%s' column; the first "
			    "line must name the columns (Timestamp,Model,Request tokens,Response tokens,"
			    "Total tokens,Log Type)", c->req < 0 ? "Request tokens" : "Response tokens");
	return 0;
}

/* one data row into r (arrival_s holds the raw timestamp) */
static int csv_row(char *line, const struct csv_cols *c, unsigned ln, struct sb_kv_trace_req *r,
		   char *err, size_t errlen)
{
	char *f[CSV_MAXF], *e;
	int n = csv_split(line, f);
	int need = c->req > c->resp ? c->req : c->resp;
	need = need > c->ts ? need : c->ts;
	if (n <= need)
		return fail(err, errlen, "line %u: %d fields where the header has at least %d%s; fix "
			    "or remove the line", ln, n < 0 ? 0 : n, need + 1,
			    n < 0 ? " (an open double quote)" : "");
	if (!whole(f[c->req], &r->prompt) || !whole(f[c->resp], &r->output))
		return fail(err, errlen, "line %u: '%s' is not a whole number of tokens (column '%s');"
			    " fix or remove the line", ln, trim(whole(f[c->req], &r->prompt) ?
			    f[c->resp] : f[c->req]), whole(f[c->req], &r->prompt) ? "Response tokens"
			    : "Request tokens");
	r->arrival_s = 0;
	if (c->ts >= 0) {
		char *s = trim(f[c->ts]);
		r->arrival_s = strtod(s, &e);
		if (e == s || *e || !isfinite(r->arrival_s))
			return fail(err, errlen, "line %u: Timestamp '%s' is not a number of seconds; "
				    "fix or remove the line", ln, s);
	}
	r->line = ln;
	r->turn = 1;
	return 0;
}

static int parse_burst(struct sb_kv_trace *t, char *text, double speedup, char *err, size_t errlen)
{
	struct csv_cols c = { -1, -1, -1 };
	double prev_ts = 0, clock = 0;
	unsigned ln = 0;
	bool head = false;
	for (char *s = text, *nl; s && *s; s = nl) {
		nl = strchr(s, '\n');
		if (nl)
			*nl++ = 0;
		ln++;
		if (!*trim(s))
			continue;
		int e = !head ? csv_header(s, &c, err, errlen) : 0;
		struct sb_kv_trace_req r;
		if (e || !head) {
			head = true;
			if (e)
				return e;
			continue;
		}
		if ((e = csv_row(s, &c, ln, &r, err, errlen)))
			return e;
		double ts = r.arrival_s, d = ts - prev_ts;
		/* benchmark.py: sleep (ts - prev) / speedup when the step is > 0 */
		if (t->n && speedup > 0 && d > 0)
			clock += d / speedup;
		prev_ts = ts;
		r.arrival_s = clock;
		r.conv = t->nconv++;
		if ((e = add(t, &r)))
			return e;
	}
	if (!head)
		return fail(err, errlen, "line 1: empty; a BurstGPT trace needs a header row and one "
			    "row per request");
	return 0;
}

/* ---- sharegpt: JSON ---- */

/* python's len(): code points, i.e. the bytes that do not continue one */
static uint32_t tokens(const struct sb_jval *v, uint32_t cap)
{
	uint64_t chars = 0;
	for (uint32_t i = 0; i < v->n; i++)
		chars += ((unsigned char)v->s[i] & 0xc0) != 0x80;
	uint64_t tk = chars / 4 ? chars / 4 : 1; /* max(1, len(text) // 4) */
	return tk > cap ? cap : (uint32_t)tk;
}

static const char *from(const struct sb_jval *turn)
{
	return sb_jv_str(sb_jv_get(turn, "from"), "");
}

/* one conversation object: its human/gpt pairs as turns */
static int conversation(struct sb_kv_trace *t, const struct sb_jval *c, size_t idx, unsigned ln,
			double rate, char *err, size_t errlen)
{
	const struct sb_jval *turns = sb_jv_get(c, "conversations");
	if (!turns || turns->type != SB_JARR)
		return 0; /* workload.py: 'conversations' not in conversation: continue */
	uint32_t n = 0;
	for (size_t i = 0; i + 1 < sb_jv_len(turns); i += 2) {
		const struct sb_jval *h = sb_jv_at(turns, i), *g = sb_jv_at(turns, i + 1);
		if (strcmp(from(h), "human") || strcmp(from(g), "gpt"))
			continue; /* workload.py: not human then gpt: the pair is skipped */
		const struct sb_jval *hv = sb_jv_get(h, "value"), *gv = sb_jv_get(g, "value");
		if ((hv && hv->type != SB_JSTR) || (gv && gv->type != SB_JSTR)) {
			if (ln)
				return fail(err, errlen, "line %u: turn %zu's \"value\" is not a string; "
					    "give the text as a JSON string", ln, i + (hv && hv->type
					    != SB_JSTR ? 1 : 2));
			return fail(err, errlen, "conversation %zu (counting from 1), turn %zu: \"value\" is "
				    "not a string; give the text as a JSON string", idx + 1,
				    i + (hv && hv->type != SB_JSTR ? 1 : 2));
		}
		static const struct sb_jval empty = { .type = SB_JSTR, .s = "" };
		struct sb_kv_trace_req r = {
			.arrival_s = rate > 0 ? (double)t->n / rate : 0,
			.prompt = tokens(hv ? hv : &empty, SB_KVT_SHAREGPT_PROMPT_MAX),
			.output = tokens(gv ? gv : &empty, SB_KVT_SHAREGPT_OUTPUT_MAX),
			.conv = t->nconv, .turn = (uint32_t)(i / 2 + 1), .line = ln,
		};
		int e = add(t, &r);
		if (e)
			return e;
		n++;
	}
	t->nconv += n > 0;
	return 0;
}

static int parse_share(struct sb_kv_trace *t, char *text, size_t len, double rate, char *err,
		       size_t errlen)
{
	struct sb_json doc = { 0 };
	int e = 0;
	size_t i = 0;
	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i < len && text[i] == '[') { /* the official file: one array */
		if ((e = sb_json_parse(&doc, text, len)) == -EINVAL)
			e = fail(err, errlen, "%s (not valid JSON); fix the file", doc.err);
		for (size_t k = 0; !e && k < sb_jv_len(doc.root); k++)
			e = conversation(t, sb_jv_at(doc.root, k), k, 0, rate, err, errlen);
		sb_json_free(&doc);
		return e;
	}
	unsigned ln = 0; /* JSONL: one conversation object per line */
	size_t k = 0;
	for (char *s = text, *nl; !e && s && *s; s = nl) {
		nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		nl = nl ? nl + 1 : NULL;
		ln++;
		size_t b = 0;
		while (b < n && strchr(" \t\r", s[b]))
			b++;
		if (b == n)
			continue;
		if ((e = sb_json_parse(&doc, s, n)) == -EINVAL) {
			char *col = strstr(doc.err, "column");
			e = fail(err, errlen, "line %u: not a JSON conversation object (%s); fix the line "
				 "or remove it", ln, col ? col : doc.err);
		} else if (!e && doc.root->type != SB_JOBJ) {
			e = fail(err, errlen, "line %u: a JSON value that is not an object; each line "
				 "must be one {\"conversations\": [...]} object", ln);
		} else if (!e) {
			e = conversation(t, doc.root, k++, ln, rate, err, errlen);
		}
	}
	sb_json_free(&doc);
	return e;
}

int sb_kv_trace_parse(struct sb_kv_trace *t, enum sb_kv_trace_fmt fmt, const char *text,
		      size_t len, double speedup, double rate, char *err, size_t errlen)
{
	t->n = 0;
	t->nconv = 0;
	t->fmt = fmt == SB_KVT_AUTO ? sb_kv_trace_detect(text, len) : fmt;
	char *copy = malloc(len + 1); /* the CSV splitter writes into it */
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = 0;
	char *body = len >= 3 && !memcmp(copy, "\xef\xbb\xbf", 3) ? copy + 3 : copy;
	int e = t->fmt == SB_KVT_SHAREGPT ? parse_share(t, body, strlen(body), rate, err, errlen)
					  : parse_burst(t, body, speedup, err, errlen);
	free(copy);
	if (!e && !t->n)
		e = fail(err, errlen, "no requests in it (%s: %s); give a trace with at least one",
			 sb_kv_trace_fmt_name(t->fmt), t->fmt == SB_KVT_SHAREGPT ?
			 "no human/gpt turn pair" : "a header and no rows");
	return e;
}

int sb_kv_trace_load(struct sb_kv_trace *t, const char *path, enum sb_kv_trace_fmt fmt,
		     double speedup, double rate, char *err, size_t errlen)
{
	/* through the one reader: a regular file of at most 1 GiB, recorded as
	 * an input of the run (os/infile.h) */
	char why[200];
	size_t len;
	int e;
	char *buf = sb_in_read(path, &sb_in_kvtrace, 0, UINT64_MAX, &len, &e, why, sizeof(why));
	if (!buf)
		return fail(err, errlen, e == -ENOTSUP || e == -EFBIG ? "%s" : "cannot open it: %s",
			    why), e;
	if (!e)
		e = sb_kv_trace_parse(t, fmt, buf, len, speedup, rate, err, errlen);
	if (e == -ENOMEM)
		fail(err, errlen, "out of memory reading it");
	free(buf);
	return e;
}

void sb_kv_trace_free(struct sb_kv_trace *t)
{
	free(t->req);
	memset(t, 0, sizeof(*t));
}

const struct sb_kv_trace_req *sb_kv_trace_next(const struct sb_kv_trace *t, size_t *pos)
{
	return t && *pos < t->n ? &t->req[(*pos)++] : NULL;
}
