/* tools/trace_read.c: the reader and worker threads of tools/trace_read.h. */
#include "tools/trace_read.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "config.h"
#ifdef CONFIG_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "lib/log.h"
#include "os/infile.h"

#define TEXT_CHUNK (1u << 20)
#define LINE_LIMIT (64u << 20)  /* a longer line is not an event */

struct chunk {
	unsigned char *buf;
	size_t len, cap;
	bool gz;                /* one whole gzip member */
	unsigned file;
	uint64_t seq, off;      /* off: a member's byte offset in the file */
	struct chunk *next;
};

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv_work, cv_free;
	struct chunk *head, *tail, *free;
	bool done, meta_only;
	const char *const *files;
	uint32_t *lines;        /* lines per chunk, by seq */
	uint32_t *lfile;        /* the file of each chunk, by seq */
	size_t nlines;
	int err;                /* the first failure (lowest seq) */
	uint64_t err_seq;
	size_t err_line;        /* 1-based inside its chunk; 0: not a line */
	unsigned err_file;
	char err_msg[256];
	struct ta_agg *aggs;
};

struct worker {
	struct pool *p;
	struct ta_agg *agg;
	unsigned char *text;
	size_t cap;
	z_stream z;
	bool z_up;
#ifdef CONFIG_ISAL
	struct inflate_state *is;   /* ISA-L: several times zlib's speed */
#endif
	pthread_t th;
	bool up;
};

static void fail(struct pool *p, const struct chunk *c, size_t line, int err, const char *msg)
{
	pthread_mutex_lock(&p->mu);
	if (!p->err || c->seq < p->err_seq) {
		p->err = err;
		p->err_seq = c->seq;
		p->err_line = line;
		p->err_file = c->file;
		snprintf(p->err_msg, sizeof(p->err_msg), "%s", msg);
	}
	pthread_mutex_unlock(&p->mu);
}

static void set_lines(struct pool *p, uint64_t seq, unsigned file, size_t n)
{
	pthread_mutex_lock(&p->mu);
	if (seq >= p->nlines) {
		size_t cap = p->nlines ? p->nlines : 256;
		while (cap <= seq)
			cap *= 2;
		uint32_t *l = realloc(p->lines, cap * sizeof(*l));
		if (l)
			p->lines = l;
		uint32_t *f = l ? realloc(p->lfile, cap * sizeof(*f)) : NULL;
		if (f) {
			p->lfile = f;
			memset(l + p->nlines, 0, (cap - p->nlines) * sizeof(*l));
			memset(f + p->nlines, 0, (cap - p->nlines) * sizeof(*f));
			p->nlines = cap;
		}
	}
	if (seq < p->nlines) {
		p->lines[seq] = (uint32_t)n;
		p->lfile[seq] = file;
	}
	pthread_mutex_unlock(&p->mu);
}

/* a member's text: ISIZE (its last 4 bytes) says how long */
static int inflate_member(struct worker *w, const struct chunk *c, size_t *len)
{
	if (c->len < 18)
		return -EINVAL;
	const unsigned char *t = c->buf + c->len - 4;
	size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
	if (isize > LINE_LIMIT)
		return -EINVAL;
	if (isize + 1 > w->cap) {
		unsigned char *n = realloc(w->text, isize + 1);
		if (!n)
			return -ENOMEM;
		w->text = n;
		w->cap = isize + 1;
	}
#ifdef CONFIG_ISAL
	/* storbench's members: the 20-byte header of stats/trace.c, then
	 * deflate data and the trailer, which ISA-L checks */
	if (c->buf[3] == 4 && c->buf[10] == 8 && c->buf[11] == 0) {
		if (!w->is && !(w->is = malloc(sizeof(*w->is))))
			return -ENOMEM;
		isal_inflate_init(w->is);
		w->is->crc_flag = ISAL_GZIP_NO_HDR_VER;
		w->is->next_in = c->buf + 20;
		w->is->avail_in = (uint32_t)(c->len - 20);
		w->is->next_out = w->text;
		w->is->avail_out = (uint32_t)(isize + 1);
		int r = isal_inflate(w->is);
		if (r != ISAL_DECOMP_OK || w->is->block_state != ISAL_BLOCK_FINISH ||
		    w->is->total_out != isize)
			return -EINVAL;
		*len = isize;
		return 0;
	}
#endif
	if (!w->z_up) {
		if (inflateInit2(&w->z, 15 + 16) != Z_OK)
			return -ENOMEM;
		w->z_up = true;
	} else if (inflateReset(&w->z) != Z_OK) {
		return -EINVAL;
	}
	w->z.next_in = c->buf;
	w->z.avail_in = (unsigned)c->len;
	w->z.next_out = w->text;
	w->z.avail_out = (unsigned)(isize + 1);
	int r = inflate(&w->z, Z_FINISH);
	if (r != Z_STREAM_END || w->z.total_out != isize)
		return -EINVAL;
	*len = isize;
	return 0;
}

static void work(struct worker *w, struct chunk *c)
{
	struct pool *p = w->p;
	const unsigned char *s = c->buf;
	size_t len = c->len, line = 0;
	if (c->gz) {
		int e = inflate_member(w, c, &len);
		if (e) {
			char m[96];
			snprintf(m, sizeof(m), "corrupt gzip data in the member at byte %llu",
				 (unsigned long long)c->off);
			fail(p, c, 0, e, m);
			return;
		}
		s = w->text;
	}
	while (len) {
		const unsigned char *nl = memchr(s, '\n', len);
		size_t n = nl ? (size_t)(nl - s) : len;
		line++;
		if (!p->meta_only || memmem(s, n, "\"FH\"", 4)) {
			int e = ta_line(w->agg, (const char *)s, n);
			if (e) {
				char m[224];
				snprintf(m, sizeof(m), "%s", e == -ENOMEM ? "out of memory" : w->agg->doc.err);
				fail(p, c, line, e, m);
				break;
			}
		}
		s += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
	set_lines(p, c->seq, c->file, line);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (!p->head && !p->done)
			pthread_cond_wait(&p->cv_work, &p->mu);
		struct chunk *c = p->head;
		if (c && !(p->head = c->next))
			p->tail = NULL;
		pthread_mutex_unlock(&p->mu);
		if (!c)
			return NULL;
		work(w, c);
		pthread_mutex_lock(&p->mu);
		c->next = p->free;
		p->free = c;
		pthread_cond_signal(&p->cv_free);
		pthread_mutex_unlock(&p->mu);
	}
}

static struct chunk *get_free(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (!p->free)
		pthread_cond_wait(&p->cv_free, &p->mu);
	struct chunk *c = p->free;
	p->free = c->next;
	pthread_mutex_unlock(&p->mu);
	c->len = 0;
	c->gz = false;
	return c;
}

static void submit(struct pool *p, struct chunk *c, unsigned file, uint64_t *seq)
{
	c->file = file;
	c->seq = (*seq)++;
	c->next = NULL;
	pthread_mutex_lock(&p->mu);
	if (p->tail)
		p->tail->next = c;
	else
		p->head = c;
	p->tail = c;
	pthread_cond_signal(&p->cv_work);
	pthread_mutex_unlock(&p->mu);
}

static int reserve(struct chunk *c, size_t n)
{
	if (c->cap >= n)
		return 0;
	if (n > LINE_LIMIT + TEXT_CHUNK)
		return -E2BIG;
	unsigned char *b = realloc(c->buf, n);
	if (!b)
		return -ENOMEM;
	c->buf = b;
	c->cap = n;
	return 0;
}

static bool failed(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	bool f = p->err != 0;
	pthread_mutex_unlock(&p->mu);
	return f;
}

/* text (inflated or plain) into line-aligned chunks: *cur collects it;
 * full, it goes to the workers and its unfinished last line moves on */
static int feed_text(struct pool *p, struct chunk **cur, const unsigned char *s, size_t n,
		     unsigned file, uint64_t *seq, bool last)
{
	struct chunk *c = *cur;
	if (reserve(c, c->len + n))
		return -E2BIG;
	memcpy(c->buf + c->len, s, n);
	c->len += n;
	if (c->len < TEXT_CHUNK && !last)
		return 0;
	if (last) {
		submit(p, c, file, seq);
		*cur = NULL;
		return 0;
	}
	size_t cut = c->len;
	while (cut && c->buf[cut - 1] != '\n')
		cut--;
	if (!cut)
		return 0; /* one long line: keep collecting */
	struct chunk *nx = get_free(p);
	if (reserve(nx, c->len - cut + 1))
		return -ENOMEM;
	memcpy(nx->buf, c->buf + cut, c->len - cut);
	nx->len = c->len - cut;
	c->len = cut;
	submit(p, c, file, seq);
	*cur = nx;
	return 0;
}

/* the length in a member header's "SB" field; 0: none */
static size_t sb_member_len(const unsigned char *h, size_t n)
{
	if (n < 20 || h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 || !(h[3] & 4))
		return 0;
	if (h[12] != 'S' || h[13] != 'B' || h[14] != 4 || h[15] != 0)
		return 0;
	return (size_t)h[16] | (size_t)h[17] << 8 | (size_t)h[18] << 16 | (size_t)h[19] << 24;
}

/* the rest of the file from off, inflated here (gzip) or as it is */
static int read_serial(struct pool *p, int fd, unsigned file, uint64_t off, bool gz, uint64_t *seq)
{
	static unsigned char in[1 << 18], out[1 << 18];
	z_stream z = { 0 };
	if (gz && inflateInit2(&z, 15 + 16) != Z_OK)
		return -ENOMEM;
	struct chunk *cur = get_free(p);
	int e = 0;
	bool end_member = false;
	uint64_t member_at = off;
	for (;;) {
		ssize_t n = pread(fd, in, sizeof(in), (off_t)off);
		if (n < 0) {
			e = -errno;
			break;
		}
		if (!n)
			break;
		if (!gz) {
			off += (uint64_t)n;
			if ((e = feed_text(p, &cur, in, (size_t)n, file, seq, false)))
				break;
			continue;
		}
		z.next_in = in;
		z.avail_in = (unsigned)n;
		while (z.avail_in && !e) {
			if (end_member) { /* the next member */
				inflateReset(&z);
				member_at = off + (uint64_t)(z.next_in - in);
				end_member = false;
			}
			z.next_out = out;
			z.avail_out = sizeof(out);
			int r = inflate(&z, Z_NO_FLUSH);
			if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) {
				e = -EILSEQ;
				break;
			}
			end_member = r == Z_STREAM_END;
			e = feed_text(p, &cur, out, sizeof(out) - z.avail_out, file, seq, false);
		}
		off += (uint64_t)n;
		if (e || failed(p))
			break;
	}
	if (!e && gz && !end_member)
		e = -EILSEQ; /* cut short */
	if (e == -EILSEQ)
		sb_err("analyze", "%s: corrupt gzip data in the member at byte %llu", p->files[file],
		       (unsigned long long)member_at);
	else if (e)
		sb_err("analyze", "%s: %s", p->files[file], strerror(-e));
	if (!e) {
		e = feed_text(p, &cur, (const unsigned char *)"", 0, file, seq, true);
	} else {
		cur->len = 0;
		submit(p, cur, file, seq); /* empty: back to the pool */
	}
	if (gz)
		inflateEnd(&z);
	return e == -EILSEQ ? -EINVAL : e;
}

static int read_file(struct pool *p, unsigned file, uint64_t *seq)
{
	const char *path = p->files[file];
	char why[256];
	/* through the one reader: a regular file (a FIFO or /dev/zero would be
	 * read for ever), recorded as an input (os/infile.h) */
	int fd = sb_in_open(path, &sb_in_trace, 0, why, sizeof(why));
	if (fd < 0) {
		sb_err("analyze", "%s: %s", path, why);
		return fd;
	}
	unsigned char h[32];
	uint64_t off = 0;
	int e = 0;
	for (;;) {
		ssize_t n = pread(fd, h, sizeof(h), (off_t)off);
		if (n < 0) {
			e = -errno;
			sb_err("analyze", "%s: %s", path, strerror(-e));
			break;
		}
		size_t ml = sb_member_len(h, (size_t)n);
		if (!n || !ml) { /* the end, or data without our field */
			if (n)
				e = read_serial(p, fd, file, off, h[0] == 0x1f && n > 1 && h[1] == 0x8b, seq);
			break;
		}
		struct chunk *c = get_free(p);
		if ((e = reserve(c, ml)))
			break;
		ssize_t got = pread(fd, c->buf, ml, (off_t)off);
		if (got != (ssize_t)ml) {
			c->len = 0;
			submit(p, c, file, seq);
			sb_err("analyze", "%s: corrupt gzip data in the member at byte %llu (cut short)",
			       path, (unsigned long long)off);
			e = -EINVAL;
			break;
		}
		c->len = ml;
		c->gz = true;
		c->off = off;
		submit(p, c, file, seq);
		off += ml;
		if (failed(p))
			break;
	}
	close(fd);
	return e;
}

int tr_read(const char *const *files, unsigned nfiles, unsigned nthreads, bool meta_only,
	    struct ta_agg *out)
{
	struct pool p = { .files = files, .meta_only = meta_only };
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv_work, NULL);
	pthread_cond_init(&p.cv_free, NULL);
	nthreads = nthreads ? nthreads : 1;
	unsigned nchunks = 2 * nthreads + 2;
	struct chunk *chunks = calloc(nchunks, sizeof(*chunks));
	struct worker *w = calloc(nthreads, sizeof(*w));
	struct ta_agg *aggs = calloc(nthreads, sizeof(*aggs));
	int e = chunks && w && aggs ? 0 : -ENOMEM;
	for (unsigned i = 0; !e && i < nchunks; i++) {
		chunks[i].next = p.free;
		p.free = &chunks[i];
	}
	for (unsigned i = 0; !e && i < nthreads; i++) {
		ta_init(&aggs[i], out->flt);
		aggs[i].names = out->names;
		w[i] = (struct worker){ .p = &p, .agg = &aggs[i] };
		w[i].up = !pthread_create(&w[i].th, NULL, worker_main, &w[i]);
	}
	uint64_t seq = 0;
	int re = 0;
	for (unsigned f = 0; !e && !re && f < nfiles && !failed(&p); f++)
		re = read_file(&p, f, &seq);
	pthread_mutex_lock(&p.mu);
	p.done = true;
	pthread_cond_broadcast(&p.cv_work);
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; w && i < nthreads; i++)
		if (w[i].up)
			pthread_join(w[i].th, NULL);
	if (!e && !re && p.err) {
		uint64_t line = p.err_line; /* + the lines of the file's earlier chunks */
		for (uint64_t s = 0; s < p.err_seq && s < p.nlines; s++)
			line += p.lfile[s] == p.err_file ? p.lines[s] : 0;
		if (p.err_line)
			sb_err("analyze", "%s:%llu: %s", files[p.err_file], (unsigned long long)line, p.err_msg);
		else
			sb_err("analyze", "%s: %s", files[p.err_file], p.err_msg);
		e = p.err;
	}
	for (unsigned i = 0; aggs && i < nthreads; i++) {
		if (!e && !re && ta_merge(out, &aggs[i]))
			e = -ENOMEM;
		ta_free(&aggs[i]);
	}
	for (unsigned i = 0; chunks && i < nchunks; i++)
		free(chunks[i].buf);
	for (unsigned i = 0; w && i < nthreads; i++) {
		free(w[i].text);
#ifdef CONFIG_ISAL
		free(w[i].is);
#endif
		if (w[i].z_up)
			inflateEnd(&w[i].z);
	}
	free(chunks);
	free(w);
	free(aggs);
	free(p.lines);
	free(p.lfile);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv_work);
	pthread_cond_destroy(&p.cv_free);
	return re ? re : e;
}
