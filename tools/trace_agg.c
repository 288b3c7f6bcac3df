/* tools/trace_agg.c: adding up a trace's events (tools/trace_agg.h).
 * Events are DFTracer's (docs/trace_format.rst): complete events ("ph":"X",
 * or 1 in newer DFTracer) are counted; metadata ("M", 4) is read for the
 * file-name hashes (FH; HH, SH and the others are counted); other phases
 * are counted as "other".  Field names and value types as DFTracer writes
 * them (its source, v1.0.8 unless said):
 * - bytes: POSIX read/write give the length as args "count" and what was
 *   done as "ret" (src/dftracer/brahma/posix.cpp:48-50), STDIO fread/fwrite
 *   the item "size", the items "count" and the items done "ret"
 *   (stdio.cpp:47-50); storbench and DLIO write "size" (bytes) and "ret";
 * - numbers written as strings: DFTracer up to v1.0.2 wrote id, pid, tid,
 *   ts, dur and size_t/ssize_t args as JSON strings
 *   (src/dftracer/writer/chrome_writer.cpp:164-176, 193-197 at v1.0.2);
 * - hashes: integers (64-bit from v1.0.8, typedef.h:12 HashType; 16-bit in
 *   the format document's example) or hex strings (before commit 4782269,
 *   "fixed hash to be integers"); a hash that two FH records give two
 *   names is a collision: reported, its events kept under the hash. */
#include "tools/trace_agg.h"
#include "tools/trace_num.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const ta_bad_field[TA_NBAD] = { "ts", "dur", "pid", "args.size", "args.count",
					    "args.ret", "args.rank", "args.size or args.count" };

static uint64_t fnv(const char *s, size_t n, int64_t pid)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)pid;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int grow(struct ta_tab *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	struct ta_ent *e = calloc(cap, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->e[i].key)
			continue;
		size_t j = t->e[i].h & (cap - 1);
		while (e[j].key)
			j = (j + 1) & (cap - 1);
		e[j] = t->e[i];
	}
	free(t->e);
	t->e = e;
	t->cap = cap;
	t->gen++;
	return 0;
}

struct ta_ent *ta_get(struct ta_tab *t, const char *key, size_t klen, int64_t pid)
{
	uint64_t h = fnv(key, klen, pid);
	if (t->cap) {
		for (size_t j = h & (t->cap - 1); t->e[j].key; j = (j + 1) & (t->cap - 1)) {
			struct ta_ent *e = &t->e[j];
			if (e->h == h && e->pid == pid && !strncmp(e->key, key, klen) && !e->key[klen])
				return e;
		}
	}
	if ((t->n + 1) * 2 > t->cap && grow(t))
		return NULL;
	size_t j = h & (t->cap - 1);
	while (t->e[j].key)
		j = (j + 1) & (t->cap - 1);
	struct ta_ent *e = &t->e[j];
	if (!(e->key = malloc(klen + 1)))
		return NULL;
	memcpy(e->key, key, klen);
	e->key[klen] = 0;
	e->h = h;
	e->pid = pid;
	e->first_us = 1e300;
	e->last_us = -1e300;
	t->n++;
	return e;
}

const struct ta_ent *ta_find(const struct ta_tab *t, const char *key, int64_t pid)
{
	if (!t->cap)
		return NULL;
	size_t klen = strlen(key);
	uint64_t h = fnv(key, klen, pid);
	for (size_t j = h & (t->cap - 1); t->e[j].key; j = (j + 1) & (t->cap - 1))
		if (t->e[j].h == h && t->e[j].pid == pid && !strcmp(t->e[j].key, key))
			return &t->e[j];
	return NULL;
}

static void tab_free(struct ta_tab *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->e[i].key);
		free(t->e[i].val);
	}
	free(t->e);
	memset(t, 0, sizeof(*t));
}

void ta_init(struct ta_agg *a, const struct ta_filter *f)
{
	memset(a, 0, sizeof(*a));
	a->flt = f;
	a->first_us = 1e300;
	a->last_us = -1e300;
}

void ta_free(struct ta_agg *a)
{
	tab_free(&a->ops);
	tab_free(&a->cats);
	tab_free(&a->ranks);
	tab_free(&a->files);
	tab_free(&a->fh);
	sb_json_free(&a->doc);
}

bool ta_is_io(const char *cat)
{
	return !strcasecmp(cat, "POSIX") || !strcasecmp(cat, "STDIO") || !strcasecmp(cat, "MPIIO") ||
	       !strcasecmp(cat, "IO");
}

void ta_class(const char *name, size_t keep, char *buf, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; name[i] && n + 1 < len; i++)
		if (i < keep || name[i] < '0' || name[i] > '9')
			buf[n++] = name[i];
	buf[n] = 0;
}

size_t ta_common_dir(const char *a, const char *b, size_t upto)
{
	size_t i = 0, dir = 0;
	for (; i < upto && a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			dir = i + 1;
	return dir;
}

/* a hash value (integer or string) as text */
static const char *hash_text(const struct sb_jval *v, char *buf, size_t len)
{
	if (!v)
		return NULL;
	if (v->type == SB_JSTR)
		return v->s;
	if (v->type != SB_JNUM)
		return NULL;
	if (!v->is_int || v->i < 0) {
		snprintf(buf, len, "%.17g", v->num);
		return buf;
	}
	char tmp[24];
	int n = 0;
	uint64_t x = (uint64_t)v->i;
	do {
		tmp[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}

static bool in_list(const char *const *l, unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

/* one more name for a file-name hash (e: an fh entry) */
static int fh_add(struct ta_ent *e, const char *file, size_t n)
{
	if (e->val) {
		for (const char *p = e->val; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, file, n) && (p[n] == '\n' || !p[n]))
				return 0;
	}
	size_t have = e->val ? strlen(e->val) + 1 : 0;
	char *v = realloc(e->val, have + n + 1);
	if (!v)
		return -ENOMEM;
	if (have)
		v[have - 1] = '\n';
	memcpy(v + have, file, n);
	v[have + n] = 0;
	e->val = v;
	e->s.n++;
	return 0;
}

static int meta(struct ta_agg *a, const struct sb_jval *root, const char *name)
{
	a->meta++;
	if (strcmp(name, "FH"))
		return 0;
	const struct sb_jval *args = sb_jv_get(root, "args");
	char buf[64];
	const char *k = hash_text(sb_jv_get(args, "value"), buf, sizeof(buf));
	const char *file = sb_jv_str(sb_jv_get(args, "name"), NULL);
	if (!k || !file || strchr(file, '\n'))
		return 0;
	struct ta_ent *e = ta_get(&a->fh, k, strlen(k), 0);
	if (!e)
		return -ENOMEM;
	return fh_add(e, file, strlen(file));
}

static const char *file_name(const struct ta_agg *a, const char *key)
{
	if (key[0] != '#')
		return key;
	const struct ta_ent *e = ta_find(&a->fh, key + 1, 0);
	if (!e && a->names)
		e = ta_find(a->names, key + 1, 0);
	return e && e->s.n == 1 ? e->val : NULL; /* a colliding hash names no one file */
}

static bool prefix_ok(const struct ta_agg *a, const char *fkey)
{
	const struct ta_filter *f = a->flt;
	const char *name = fkey ? file_name(a, fkey) : NULL;
	if (!name)
		return false;
	for (unsigned i = 0; i < f->nprefix; i++)
		if (!strncmp(name, f->prefix[i], strlen(f->prefix[i])))
			return true;
	return false;
}

int64_t ta_who(int64_t pid, int64_t rank)
{
	if (rank < 0 || rank >= INT32_MAX || pid < 0 || pid > (int64_t)UINT32_MAX)
		return pid;
	return (int64_t)(((uint64_t)rank + 1) << 32 | (uint64_t)pid);
}

static void add(struct ta_stat *s, uint64_t bytes, double dur)
{
	s->n++;
	s->bytes += bytes;
	s->dur_us += dur;
}

/* the fields of a complete event, in one walk over its members */
struct evf {
	const char *cat, *name, *fname;
	const struct sb_jval *fhash, *size, *count, *ret, *rank, *ts, *dur, *pid;
};

static void fields(const struct sb_jval *root, struct evf *e)
{
	*e = (struct evf){ .cat = "", .name = "" };
	for (const struct sb_jval *v = root->child; v; v = v->next) {
		const char *k = v->key;
		switch (k[0]) {
		case 'c':
			if (!strcmp(k, "cat") && v->type == SB_JSTR)
				e->cat = v->s;
			break;
		case 'n':
			if (!strcmp(k, "name") && v->type == SB_JSTR)
				e->name = v->s;
			break;
		case 'p':
			if (!strcmp(k, "pid"))
				e->pid = v;
			break;
		case 't':
			if (!strcmp(k, "ts"))
				e->ts = v;
			break;
		case 'd':
			if (!strcmp(k, "dur"))
				e->dur = v;
			break;
		case 'a':
			if (strcmp(k, "args") || v->type != SB_JOBJ)
				break;
			for (const struct sb_jval *x = v->child; x; x = x->next) {
				const char *ak = x->key;
				if (ak[0] == 'f' && !strcmp(ak, "fhash"))
					e->fhash = x;
				else if (ak[0] == 'f' && !strcmp(ak, "fname") && x->type == SB_JSTR)
					e->fname = x->s;
				else if (ak[0] == 's' && !strcmp(ak, "size"))
					e->size = x;
				else if (ak[0] == 'c' && !strcmp(ak, "count"))
					e->count = x;
				else if (ak[0] == 'r' && !strcmp(ak, "ret"))
					e->ret = x;
				else if (ak[0] == 'r' && !strcmp(ak, "rank"))
					e->rank = x;
			}
			break;
		}
	}
}

/* the table entry for key, through a one-entry cache (events repeat keys) */
static struct ta_ent *get_c(struct ta_tab *t, struct ta_cache *c, const char *key, size_t klen,
			    int64_t pid)
{
	struct ta_ent *l = c->e;
	if (l && c->gen == t->gen && l->pid == pid && !strncmp(l->key, key, klen) && !l->key[klen])
		return l;
	c->e = ta_get(t, key, klen, pid);
	c->gen = t->gen;
	return c->e;
}

/* a field's number: 0 and counted as bad[which] when missing (and must)
 * or unusable under r */
static double num_field(struct ta_agg *a, const struct sb_jval *v, unsigned which, bool must,
			const struct ta_numrule *r, int64_t *i)
{
	double d = 0;
	*i = 0;
	if (v ? !ta_num_of(v, r, &d, i) : must) {
		a->bad[which]++;
		*i = 0;
		return 0;
	}
	return d;
}

/* POSIX and STDIO calls that move data: their bytes are expected */
static bool moves_data(const char *name)
{
	static const char *const l[] = { "read", "pread", "pread64", "readv", "preadv", "preadv2",
					 "write", "pwrite", "pwrite64", "writev", "pwritev",
					 "pwritev2", "fread", "fwrite" };
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		if (!strcmp(name, l[i]))
			return true;
	return false;
}

/* bytes: size (storbench, DLIO) or count (DFTracer's POSIX calls), or
 * size x count (STDIO: an item's size, the items); ret, where it is a
 * count that fits, is what was done */
static uint64_t event_bytes(struct ta_agg *a, const struct evf *e, const char *cat,
			    const char *name)
{
	const struct evf ev = *e;
	uint64_t bytes = 0;
	int64_t sz = 0, cn = 0, rt = -1;
	bool has_s = ev.size && (ta_num_of(ev.size, &TA_R_BYTES, &(double){ 0 }, &sz) || (a->bad[TA_BAD_SIZE]++, false));
	bool has_c = ev.count && (ta_num_of(ev.count, &TA_R_BYTES, &(double){ 0 }, &cn) || (a->bad[TA_BAD_COUNT]++, false));
	bool has_r = ev.ret && (ta_num_of(ev.ret, &TA_R_RET, &(double){ 0 }, &rt) || (a->bad[TA_BAD_RET]++, false));
	bool failed = has_r && rt < 0; /* -1: the call failed and moved nothing */
	if (has_s && has_c) {
		int64_t items = failed ? 0 : has_r && rt <= cn ? rt : cn;
		if (__builtin_mul_overflow((uint64_t)sz, (uint64_t)items, &bytes) || bytes > INT64_MAX) {
			a->bad[TA_BAD_SIZE]++; /* size x count past 2^63 bytes */
			bytes = 0;
		}
	} else if (has_s || has_c) {
		int64_t want = has_s ? sz : cn;
		bytes = (uint64_t)(failed ? 0 : has_r && rt <= want ? rt : want);
	} else if (!ev.size && !ev.count && moves_data(name) && ta_is_io(cat)) {
		a->bad[TA_NOBYTES]++;
	}
	return bytes;
}

static int complete(struct ta_agg *a, const struct sb_jval *root)
{
	struct evf ev;
	fields(root, &ev);
	const char *cat = ev.cat, *name = ev.name;
	int64_t pid, rank = -1, ign;
	num_field(a, ev.pid, TA_BAD_PID, true, &TA_R_PID, &pid);
	if (ev.rank && !ta_num_of(ev.rank, &TA_R_RANK, &(double){ 0 }, &rank)) {
		a->bad[TA_BAD_RANK]++;
		rank = -1;
	}
	pid = ta_who(pid, rank);
	double ts = num_field(a, ev.ts, TA_BAD_TS, true, &TA_R_TIME, &ign);
	double dur = num_field(a, ev.dur, TA_BAD_DUR, true, &TA_R_TIME, &ign);
	const struct ta_filter *f = a->flt;
	char fkey[4200], hbuf[64];
	const char *fn = ev.fname;
	const char *fh;
	if (ev.fhash && ev.fhash->type == SB_JNUM && ev.fhash->is_int && ev.fhash->i == a->last_fh &&
	    a->last_fhs[0]) {
		fh = a->last_fhs; /* events of one file come in runs */
	} else {
		fh = hash_text(ev.fhash, hbuf, sizeof(hbuf));
		if (fh == hbuf && ev.fhash->is_int && strlen(hbuf) < sizeof(a->last_fhs)) {
			a->last_fh = ev.fhash->i;
			memcpy(a->last_fhs, hbuf, strlen(hbuf) + 1);
		}
	}
	size_t fkl = 0;
	if (fn || fh) {
		const char *src = fn ? fn : fh;
		size_t n = strlen(src);
		if (!fn)
			fkey[fkl++] = '#';
		if (n > sizeof(fkey) - 2)
			n = sizeof(fkey) - 2;
		memcpy(fkey + fkl, src, n);
		fkl += n;
		fkey[fkl] = 0;
	}
	const char *fk = fn || fh ? fkey : NULL;
	if (f && f->any) {
		if ((f->ncat && !in_list(f->cat, f->ncat, cat)) ||
		    (f->nname && !in_list(f->name, f->nname, name)) ||
		    (f->t1 >= 0 && (ts < f->t0 || ts >= f->t1)) || (f->nprefix && !prefix_ok(a, fk))) {
			a->skipped++;
			return 0;
		}
	}
	uint64_t bytes = event_bytes(a, &ev, cat, name);
	a->events++;
	if (ts < a->first_us)
		a->first_us = ts;
	if (ts + dur > a->last_us)
		a->last_us = ts + dur;
	char key[512];
	size_t cl = strlen(cat), nl = strlen(name);
	cl = cl > 250 ? 250 : cl;
	nl = nl > 250 ? 250 : nl;
	memcpy(key, cat, cl);
	key[cl] = '\x1f';
	memcpy(key + cl + 1, name, nl);
	key[cl + 1 + nl] = 0;
	struct ta_ent *op = get_c(&a->ops, &a->last_op, key, cl + 1 + nl, 0);
	struct ta_ent *c = get_c(&a->cats, &a->last_cat, cat, cl, 0);
	struct ta_ent *r = get_c(&a->ranks, &a->last_rank, "", 0, pid);
	if (!op || !c || !r)
		return -ENOMEM;
	add(&op->s, bytes, dur);
	add(&c->s, bytes, dur);
	bool io = ta_is_io(cat);
	add(io ? &r->s : &r->app, bytes, dur);
	if (ts < r->first_us)
		r->first_us = ts;
	if (ts + dur > r->last_us)
		r->last_us = ts + dur;
	if (fk && io) {
		struct ta_ent *fe = get_c(&a->files, &a->last_file, fk, fkl, pid);
		if (!fe)
			return -ENOMEM;
		add(&fe->s, bytes, dur);
	}
	return 0;
}

int ta_line(struct ta_agg *a, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '[' || *s == ']' || *s == ','))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == ',' ||
		     s[n - 1] == ']'))
		n--;
	if (!n)
		return 0;
	int e = sb_json_parse(&a->doc, s, n);
	if (e)
		return e;
	const struct sb_jval *root = a->doc.root;
	if (root->type != SB_JOBJ) {
		snprintf(a->doc.err, sizeof(a->doc.err), "not an event (a JSON object)");
		return -EINVAL;
	}
	const struct sb_jval *ph = sb_jv_get(root, "ph");
	const char *p = sb_jv_str(ph, NULL);
	int64_t pn = p ? -1 : sb_jv_int(ph, -1);
	if ((p && !strcmp(p, "X")) || pn == 1)
		return complete(a, root);
	if ((p && !strcmp(p, "M")) || pn == 4)
		return meta(a, root, sb_jv_str(sb_jv_get(root, "name"), ""));
	if (!ph) {
		snprintf(a->doc.err, sizeof(a->doc.err), "not an event: no \"ph\"");
		return -EINVAL;
	}
	a->other++;
	return 0;
}

static void add_stat(struct ta_stat *d, const struct ta_stat *s)
{
	d->n += s->n;
	d->bytes += s->bytes;
	d->dur_us += s->dur_us;
}

static int merge_tab(struct ta_tab *d, const struct ta_tab *s, bool names)
{
	for (size_t i = 0; i < s->cap; i++) {
		const struct ta_ent *x = &s->e[i];
		if (!x->key)
			continue;
		struct ta_ent *y = ta_get(d, x->key, strlen(x->key), x->pid);
		if (!y)
			return -ENOMEM;
		if (names) { /* the names of a file-name hash */
			for (const char *p = x->val; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t n = nl ? (size_t)(nl - p) : strlen(p);
				if (fh_add(y, p, n))
					return -ENOMEM;
				p = nl ? nl + 1 : NULL;
			}
			continue;
		}
		add_stat(&y->s, &x->s);
		add_stat(&y->app, &x->app);
		if (x->first_us < y->first_us)
			y->first_us = x->first_us;
		if (x->last_us > y->last_us)
			y->last_us = x->last_us;
		if (x->val && !y->val && !(y->val = strdup(x->val)))
			return -ENOMEM;
	}
	return 0;
}

int ta_merge(struct ta_agg *d, const struct ta_agg *s)
{
	d->events += s->events;
	d->meta += s->meta;
	d->other += s->other;
	d->skipped += s->skipped;
	if (s->first_us < d->first_us)
		d->first_us = s->first_us;
	if (s->last_us > d->last_us)
		d->last_us = s->last_us;
	for (unsigned i = 0; i < TA_NBAD; i++)
		d->bad[i] += s->bad[i];
	if (merge_tab(&d->ops, &s->ops, false) || merge_tab(&d->cats, &s->cats, false) ||
	    merge_tab(&d->ranks, &s->ranks, false) || merge_tab(&d->files, &s->files, false) ||
	    merge_tab(&d->fh, &s->fh, true))
		return -ENOMEM;
	return 0;
}
