/* trace.c: the trace writers (stats/trace.h): one thread per trace file
 * drains its rings, formats DFTracer's JSON lines and writes them as one
 * gzip stream, a full flush after each block of at most SB_TRACE_BLOCK
 * bytes of text. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "os/outfile.h"
#include "config.h"
#ifdef CONFIG_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "stats/trace.h"
#include "lib/ddir.h"
#include "lib/log.h"
#include "lib/timeutil.h"

/* enum sb_ddir's names (lib/ddir.h), then SB_TRACE_OPEN and _CLOSE */
static const char *op_name(unsigned op)
{
	static const char *const more[] = { "open", "close" };
	if (op <= SB_DDIR_SYNCRANGE)
		return sb_ddir_name[op];
	return op < SB_TRACE_NOPS ? more[op - SB_DDIR_SYNCRANGE - 1] : "unknown";
}

#define NAME_BLK 1024u
#define NAME_BLKS 16384u              /* up to 16 M distinct files per trace */

struct name_blk {
	char *name[NAME_BLK];
	uint64_t fh[NAME_BLK];
};

struct sb_trace {
	char *path;
	struct sb_outfile of;         /* through the writer gate (os/outfile.h) */
	int fd;                       /* of's descriptor */
	int err;                      /* first write error, -errno */
	pthread_t th;
	bool th_up;
	_Atomic int stop;
	pthread_mutex_t mu;           /* rings list and file names */
	struct sb_trace_ring *rings;
	/* file id -> path and hash, in blocks that never move: the writer
	 * reads an event's entry without the lock (registered before the
	 * event was recorded) */
	struct name_blk *blk[NAME_BLKS];
	_Atomic unsigned nnames;
	unsigned emitted;             /* names written as FH lines */
	uint32_t *idx;                /* hash table of ids + 1 (0: empty), under mu */
	size_t idx_cap;
	int64_t wall_off_ns;          /* Unix time - sb_now_ns() */
	uint64_t id;                  /* the next record's "id" */
	uint64_t hh;
	char hh_text[24];             /* hh in decimal, written into every event */
	unsigned pid;
	char host[256];
	char *text;                   /* SB_TRACE_BLOCK + one line */
	size_t len;
	unsigned char *gz;
	size_t gzcap;
	bool zopen;                   /* a gzip stream is open: its header is written */
#ifdef CONFIG_ISAL
	struct isal_zstream is;       /* gzip, level 1: several times faster than zlib */
	unsigned char *lvl;           /* ISA-L's level-1 work area */
#else
	z_stream z;                   /* gzip, level 1 */
#endif
	struct sb_trace *next;
};

static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sb_trace *all;

/* FNV-1a, 53 bits: exact in a JavaScript number (Perfetto) */
static uint64_t hash53(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h >> 11;
}

/* decimal, two digits per division */
static char *put_u(char *p, uint64_t v)
{
	static const char d2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				 "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				 "8081828384858687888990919293949596979899";
	char tmp[24];
	int n = 24;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		tmp[--n] = d2[2 * r + 1];
		tmp[--n] = d2[2 * r];
	}
	if (v >= 10) {
		tmp[--n] = d2[2 * v + 1];
		tmp[--n] = d2[2 * v];
	} else {
		tmp[--n] = (char)('0' + v);
	}
	memcpy(p, tmp + n, (size_t)(24 - n));
	return p + 24 - n;
}

static char *put_i(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u(p, (uint64_t)v);
}

static char *put_s(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* a JSON string (quotes included); at most 6 bytes per input byte */
static char *put_js(char *p, const char *s)
{
	*p++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c < 0x20) {
			p += sprintf(p, "\\u%04x", c);
		} else {
			*p++ = (char)c;
		}
	}
	*p++ = '"';
	return p;
}

static void write_all(struct sb_trace *tr, const void *buf, size_t n)
{
	const char *p = buf;
	while (n && !tr->err) {
		ssize_t w = write(tr->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			tr->err = w < 0 ? -errno : -EIO;
			break;
		}
		p += w;
		n -= (size_t)w;
	}
}

/* The file is one gzip stream (RFC 1952, from trace_open to close), as
 * DFTracer's own traces are (v1.0.8 chrome_writer.cpp:118-126 gzips the
 * finished file with gzip(1): one member): zindex and DFTracer's analyzer
 * look lines up in time that grows with the number of members before them.
 * Each block of text (at most SB_TRACE_BLOCK bytes, ending on a line) is
 * deflated with a full flush and written at once, so what is on disk always
 * ends on a byte-aligned deflate block boundary: a killed run leaves a
 * prefix that gzip readers decompress up to its last whole block (they then
 * report the missing end), losing at most one block of lines.  fin: the
 * stream's last block and its trailer. */
static void flush_block(struct sb_trace *tr, bool fin)
{
	if (!tr->len && !fin)
		return;
	if (!tr->len && fin && !tr->zopen)
		return;
	tr->zopen = !fin;
#ifdef CONFIG_ISAL
	struct isal_zstream *s = &tr->is;
	s->next_in = (uint8_t *)tr->text;
	s->avail_in = (uint32_t)tr->len;
	s->flush = FULL_FLUSH;
	s->end_of_stream = fin;
	do {
		s->next_out = tr->gz;
		s->avail_out = (uint32_t)tr->gzcap;
		if (isal_deflate(s) != COMP_OK) {
			tr->err = -EIO;
			return;
		}
		write_all(tr, tr->gz, tr->gzcap - s->avail_out);
	} while (!tr->err && (s->avail_in || !s->avail_out ||
			      (fin && s->internal_state.state != ZSTATE_END)));
	if (fin) { /* ready for the next stream (a sweep's next point) */
		isal_deflate_reset(s);
		s->gzip_flag = IGZIP_GZIP;
	}
#else
	tr->z.next_in = (unsigned char *)tr->text;
	tr->z.avail_in = (unsigned)tr->len;
	int r;
	do {
		tr->z.next_out = tr->gz;
		tr->z.avail_out = (unsigned)tr->gzcap;
		r = deflate(&tr->z, fin ? Z_FINISH : Z_FULL_FLUSH);
		if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) {
			tr->err = -EIO;
			return;
		}
		write_all(tr, tr->gz, tr->gzcap - tr->z.avail_out);
	} while (!tr->err && (fin ? r != Z_STREAM_END : !tr->z.avail_out));
	if (fin)
		deflateReset(&tr->z);
#endif
	tr->len = 0;
}

#define LINE_MAX_BYTES (8 * 4096 + 512)

static char *line_begin(struct sb_trace *tr, const char *name, const char *cat, uint32_t tid,
			const char *ph)
{
	if (tr->len > SB_TRACE_BLOCK - LINE_MAX_BYTES)
		flush_block(tr, false);
	char *p = tr->text + tr->len;
	p = put_s(p, "{\"id\":");
	p = put_u(p, tr->id++);
	p = put_s(p, ",\"name\":\"");
	p = put_s(p, name);
	p = put_s(p, "\",\"cat\":\"");
	p = put_s(p, cat);
	p = put_s(p, "\",\"pid\":");
	p = put_u(p, tr->pid);
	p = put_s(p, ",\"tid\":");
	p = put_u(p, tid);
	p = put_s(p, ",\"ph\":\"");
	p = put_s(p, ph);
	return put_s(p, "\"");
}

static void line_end(struct sb_trace *tr, char *p)
{
	p = put_s(p, "}\n");
	tr->len = (size_t)(p - tr->text);
}

/* hash metadata: HH (host), FH (file) */
static void meta_line(struct sb_trace *tr, const char *kind, const char *name, uint64_t value)
{
	char *p = line_begin(tr, kind, "dftracer", tr->pid, "M");
	p = put_s(p, ",\"args\":{\"name\":");
	size_t n = strlen(name);
	if (n > 4096) /* a path is shorter than PATH_MAX */
		n = 4096;
	char buf[4097];
	memcpy(buf, name, n);
	buf[n] = 0;
	p = put_js(p, buf);
	p = put_s(p, ",\"value\":");
	p = put_u(p, value);
	line_end(tr, put_s(p, "}"));
}

static void ev_line(struct sb_trace *tr, const struct sb_trace_ev *e, int32_t rank)
{
	bool app = e->name != NULL;
	char *p = line_begin(tr, app ? e->name : op_name(e->op),
			     app ? "storbench" : "POSIX", e->tid, "X");
	p = put_s(p, ",\"ts\":");
	p = put_u(p, (uint64_t)((int64_t)e->ts_ns + tr->wall_off_ns) / 1000);
	p = put_s(p, ",\"dur\":");
	p = put_u(p, (e->dur_ns + 500) / 1000);
	p = put_s(p, ",\"args\":{\"hhash\":");
	p = put_s(p, tr->hh_text);
	if (rank >= 0)
		p = put_u(put_s(p, ",\"rank\":"), (uint64_t)rank);
	if (app) {
		if (e->argname) {
			p = put_s(p, ",\"");
			p = put_s(p, e->argname);
			p = put_s(p, "\":");
			p = put_u(p, e->offset);
		}
		if (e->size) {
			p = put_s(p, ",\"size\":");
			p = put_u(p, e->size);
		}
	} else {
		if (e->fid != UINT32_MAX) {
			p = put_s(p, ",\"fhash\":");
			p = put_u(p, tr->blk[e->fid / NAME_BLK]->fh[e->fid % NAME_BLK]);
		}
		p = put_s(p, ",\"offset\":");
		p = put_u(p, e->offset);
		p = put_s(p, ",\"size\":");
		p = put_u(p, e->size);
		p = put_s(p, ",\"ret\":");
		p = put_i(p, e->ret);
	}
	line_end(tr, put_s(p, "}"));
}

/* names registered since the last look, as FH lines (before the events
 * that use them: they were registered before those were recorded) */
static void emit_names(struct sb_trace *tr)
{
	unsigned n = atomic_load_explicit(&tr->nnames, memory_order_acquire);
	if (tr->emitted == n)
		return;
	pthread_mutex_lock(&tr->mu);
	for (; tr->emitted < n; tr->emitted++) {
		const struct name_blk *b = tr->blk[tr->emitted / NAME_BLK];
		meta_line(tr, "FH", b->name[tr->emitted % NAME_BLK], b->fh[tr->emitted % NAME_BLK]);
	}
	pthread_mutex_unlock(&tr->mu);
}

static unsigned drain(struct sb_trace *tr)
{
	unsigned got = 0;
	pthread_mutex_lock(&tr->mu);
	struct sb_trace_ring *rings = tr->rings;
	pthread_mutex_unlock(&tr->mu);
	for (struct sb_trace_ring *r = rings; r; r = r->next) {
		uint64_t h = atomic_load_explicit(&r->head, memory_order_acquire);
		uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
		if (h == t)
			continue;
		emit_names(tr);
		for (; t != h; t++, got++) {
			ev_line(tr, &r->ev[t & (SB_TRACE_RING - 1)], r->rank);
			if (!(got & 1023))
				atomic_store_explicit(&r->tail, t + 1, memory_order_release);
		}
		atomic_store_explicit(&r->tail, t, memory_order_release);
	}
	return got;
}

static void *writer_main(void *arg)
{
	struct sb_trace *tr = arg;
	while (!atomic_load_explicit(&tr->stop, memory_order_acquire)) {
		if (!drain(tr)) {
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
		}
	}
	while (drain(tr))
		;
	emit_names(tr);
	flush_block(tr, true);
	return NULL;
}

static void trace_free(struct sb_trace *tr)
{
	for (struct sb_trace_ring *r = tr->rings, *n; r; r = n) {
		n = r->next;
		free(r->ev);
		free(r->fid);
		free(r);
	}
	unsigned n = atomic_load_explicit(&tr->nnames, memory_order_relaxed);
	for (unsigned i = 0; i < n; i++)
		free(tr->blk[i / NAME_BLK]->name[i % NAME_BLK]);
	for (unsigned i = 0; i < NAME_BLKS && tr->blk[i]; i++)
		free(tr->blk[i]);
	free(tr->idx);
	free(tr->text);
	free(tr->gz);
#ifdef CONFIG_ISAL
	free(tr->lvl);
#else
	deflateEnd(&tr->z);
#endif
	pthread_mutex_destroy(&tr->mu);
	free(tr->path);
	free(tr);
}

static int trace_open(const char *path, struct sb_trace **out)
{
	struct sb_trace *tr = calloc(1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	pthread_mutex_init(&tr->mu, NULL);
	tr->fd = -1;
	tr->path = strdup(path);
	tr->text = malloc(SB_TRACE_BLOCK + LINE_MAX_BYTES);
	size_t most = SB_TRACE_BLOCK + LINE_MAX_BYTES;
	tr->gzcap = most + most / 8 + 65536; /* stored blocks at worst, header, trailer */
	tr->gz = malloc(tr->gzcap);
#ifdef CONFIG_ISAL
	tr->lvl = malloc(ISAL_DEF_LVL1_DEFAULT);
	if (!tr->lvl) {
		trace_free(tr);
		return -ENOMEM;
	}
	isal_deflate_init(&tr->is);
	tr->is.level = 1;
	tr->is.level_buf = tr->lvl;
	tr->is.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
	tr->is.gzip_flag = IGZIP_GZIP;
#else
	if (deflateInit2(&tr->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(tr->gz);
		free(tr->text);
		free(tr->path);
		free(tr);
		return -ENOMEM;
	}
#endif
	if (!tr->path || !tr->text || !tr->gz) {
		trace_free(tr);
		return -ENOMEM;
	}
	bool again = sb_trace_reg_get(path, &tr->id); /* a sweep's later point: append */
	/* a temporary renamed over path at the end; a later point appends */
	int oe = sb_outfile_open(&tr->of, path, &(struct sb_outname){ "write_trace", NULL,
				 "the trace" }, again ? SB_OUT_APPEND : 0);
	if (oe) {
		trace_free(tr); /* the gate said why */
		return oe;
	}
	tr->fd = sb_outfile_fd(&tr->of);
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	uint64_t mono = sb_now_ns();
	tr->wall_off_ns = (int64_t)((uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec) -
			  (int64_t)mono;
	tr->pid = (unsigned)getpid();
	if (gethostname(tr->host, sizeof(tr->host) - 1))
		strcpy(tr->host, "localhost");
	tr->hh = hash53(tr->host);
	*put_u(tr->hh_text, tr->hh) = 0;
	memcpy(tr->text, "[\n", 2);
	tr->len = again ? 0 : 2;
	meta_line(tr, "HH", tr->host, tr->hh);
	int e = pthread_create(&tr->th, NULL, writer_main, tr);
	if (e) {
		sb_err("trace", "cannot start the trace writer: %s", strerror(e));
		sb_outfile_abort(&tr->of); /* the old file, if any, as it was */
		trace_free(tr);
		return -e;
	}
	tr->th_up = true;
	*out = tr;
	return 0;
}

int sb_trace_attach(struct sb_trace_ring **out, const char *path, unsigned every, unsigned nslots)
{
	struct sb_trace_ring *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ev = malloc(SB_TRACE_RING * sizeof(*r->ev));
	r->fid = malloc((nslots ? nslots : 1) * sizeof(*r->fid));
	if (!r->ev || !r->fid) {
		free(r->ev);
		free(r->fid);
		free(r);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nslots; i++)
		r->fid[i] = UINT32_MAX;
	r->nslots = nslots;
	r->every = r->left = every ? every : 1;
	r->rank = -1;
	pthread_mutex_lock(&all_mu);
	struct sb_trace *tr = all;
	while (tr && strcmp(tr->path, path))
		tr = tr->next;
	int e = 0;
	if (!tr && !(e = trace_open(path, &tr))) {
		tr->next = all;
		all = tr;
	}
	pthread_mutex_unlock(&all_mu);
	if (e) {
		free(r->ev);
		free(r->fid);
		free(r);
		return e;
	}
	r->tr = tr;
	pthread_mutex_lock(&tr->mu);
	r->next = tr->rings;
	tr->rings = r;
	pthread_mutex_unlock(&tr->mu);
	*out = r;
	return 0;
}

/* the id of path (hash h) in tr, or a new one; UINT32_MAX when out of
 * memory or ids.  Under tr->mu. */
static uint32_t name_id(struct sb_trace *tr, const char *path, uint64_t h)
{
	unsigned n = atomic_load_explicit(&tr->nnames, memory_order_relaxed);
	if ((size_t)(n + 1) * 2 > tr->idx_cap) { /* grow and rehash */
		size_t cap = tr->idx_cap ? 2 * tr->idx_cap : 1024;
		uint32_t *t = calloc(cap, sizeof(*t));
		if (!t)
			return UINT32_MAX;
		for (unsigned i = 0; i < n; i++) {
			size_t k = tr->blk[i / NAME_BLK]->fh[i % NAME_BLK] & (cap - 1);
			while (t[k])
				k = (k + 1) & (cap - 1);
			t[k] = i + 1;
		}
		free(tr->idx);
		tr->idx = t;
		tr->idx_cap = cap;
	}
	size_t k = h & (tr->idx_cap - 1);
	for (; tr->idx[k]; k = (k + 1) & (tr->idx_cap - 1)) {
		uint32_t id = tr->idx[k] - 1;
		const struct name_blk *b = tr->blk[id / NAME_BLK];
		if (b->fh[id % NAME_BLK] == h && !strcmp(b->name[id % NAME_BLK], path))
			return id;
	}
	if (n >= NAME_BLK * NAME_BLKS)
		return UINT32_MAX;
	struct name_blk *b = tr->blk[n / NAME_BLK];
	if (!b && !(b = tr->blk[n / NAME_BLK] = calloc(1, sizeof(*b))))
		return UINT32_MAX;
	if (!(b->name[n % NAME_BLK] = strdup(path)))
		return UINT32_MAX;
	b->fh[n % NAME_BLK] = h;
	tr->idx[k] = n + 1;
	atomic_store_explicit(&tr->nnames, n + 1, memory_order_release);
	return n;
}

void sb_trace_set_file(struct sb_trace_ring *r, unsigned slot, const char *path)
{
	struct sb_trace *tr = r->tr;
	if (slot >= r->nslots || !path)
		return;
	pthread_mutex_lock(&tr->mu);
	uint32_t id = name_id(tr, path, hash53(path));
	pthread_mutex_unlock(&tr->mu);
	r->fid[slot] = id;
}

void sb_trace_app(struct sb_trace_ring *r, const char *name, const char *argname, uint64_t arg,
		  uint64_t start_ns, uint64_t end_ns)
{
	struct sb_trace_ev *e = sb_trace_slot(r);
	*e = (struct sb_trace_ev){ .ts_ns = start_ns, .dur_ns = end_ns - start_ns, .offset = arg,
				   .name = name, .argname = argname, .fid = UINT32_MAX,
				   .tid = r->tid };
	sb_trace_commit(r);
}

int sb_trace_close_all(void)
{
	int first = 0;
	pthread_mutex_lock(&all_mu);
	struct sb_trace *list = all;
	all = NULL;
	pthread_mutex_unlock(&all_mu);
	for (struct sb_trace *tr = list, *n; tr; tr = n) {
		n = tr->next;
		atomic_store_explicit(&tr->stop, 1, memory_order_release);
		if (tr->th_up)
			pthread_join(tr->th, NULL);
		uint64_t waits = 0;
		for (struct sb_trace_ring *r = tr->rings; r; r = r->next)
			waits += atomic_load_explicit(&r->waits, memory_order_relaxed);
		if (waits)
			sb_warn("trace", "%s: the I/O threads waited %llu times for the trace writer "
				"(trace_sample=N records one I/O in N)", tr->path,
				(unsigned long long)waits);
		if (tr->err)
			sb_outfile_abort(&tr->of); /* the old file, if any, as it was */
		else
			tr->err = sb_outfile_commit(&tr->of);
		sb_trace_reg_put(tr->path, tr->id);
		if (tr->err) {
			sb_err("trace", "%s: %s", tr->path, strerror(-tr->err));
			if (!first)
				first = tr->err;
		}
		trace_free(tr);
	}
	return first;
}
