/* replay.c: loading and replaying a read_iolog (see replay.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/iologfmt.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/infile.h"
#include "run/rate.h"
#include "run/replay.h"

struct names {
	char **v;
	size_t n;
};

static long name_index(struct names *nm, const struct sb_iolog_rec *r)
{
	for (size_t i = 0; i < nm->n; i++)
		if (strlen(nm->v[i]) == r->name_len && !memcmp(nm->v[i], r->name, r->name_len))
			return (long)i;
	char **nv = realloc(nm->v, (nm->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	nm->v = nv;
	if (!(nm->v[nm->n] = strndup(r->name, r->name_len)))
		return -ENOMEM;
	return (long)nm->n++;
}

static int push(struct sb_iogen *g, size_t *cap, const struct sb_replay_ent *e)
{
	if (g->rp_n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct sb_replay_ent *ne = realloc(g->rp_ent, nc * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		g->rp_ent = ne;
		*cap = nc;
	}
	g->rp_ent[g->rp_n++] = *e;
	return 0;
}

/* one record -> an entry (0: none to add); *pend_ns gathers the delays of
 * records that are not replayed */
static int entry(const struct sb_jobspec *s, const struct sb_iolog_rec *r, long fi, uint64_t delay,
		 uint64_t *pend, struct sb_replay_ent *e)
{
	*pend += delay;
	if (r->act == SB_IOLA_ADD || r->act == SB_IOLA_OPEN || r->act == SB_IOLA_CLOSE)
		return 0;
	if (r->act != SB_IOLA_WAIT && (s->replay_skip_mask & (1u << r->act)))
		return 0;
	if (r->act == SB_IOLA_WAIT && s->replay_no_stall)
		return 0;
	memset(e, 0, sizeof(*e));
	e->file = (uint16_t)(s->replay_redirect ? 0 : fi);
	if (r->act == SB_IOLA_WAIT) {
		e->wait = 1;
		e->delay_ns = r->offset * 1000000ull;
		return 1;
	}
	e->ddir = (uint8_t)r->act;
	e->delay_ns = *pend;
	*pend = 0;
	if (r->act < SB_IOLA_SYNC) {
		uint64_t off = r->offset / (s->replay_scale ? s->replay_scale : 1);
		if (s->replay_align)
			off &= ~(s->replay_align - 1);
		e->offset = off;
		e->len = (uint32_t)r->len;
	}
	return 1;
}

int sb_iogen_init_replay(struct sb_iogen *g, const struct sb_jobspec *s, unsigned nfiles)
{
	/* through the one reader: a regular file or a FIFO (documented), lines
	 * of at most 8 KiB (os/infile.h) */
	struct sb_inlines in;
	char ewhy[320];
	int oe = sb_in_lines_open(&in, s->read_iolog, &sb_in_iolog, 0, ewhy, sizeof(ewhy));
	if (oe) {
		sb_err(s->name, "read_iolog=%s: cannot read the log: %s", s->read_iolog, ewhy);
		return oe;
	}
	struct names nm = { 0 };
	char *line = NULL;
	size_t ecap = 0, llen;
	int rc = 0, ver = (int)s->replay_version;
	uint64_t last = 0, pend = 0, bytes = 0;
	bool first = true;
	while (!rc && (rc = sb_in_getline(&in, &line, &llen, ewhy, sizeof(ewhy))) == 1) {
		rc = 0;
		struct sb_iolog_rec r;
		struct sb_replay_ent e;
		const char *why;
		if (first) { /* the header, checked by the parser */
			first = false;
			continue;
		}
		int k = sb_iologfmt_parse(line, ver, &r, &why);
		if (k <= 0) {
			rc = k < 0 ? -EINVAL : 0;
			continue;
		}
		long fi = 0;
		if (r.act != SB_IOLA_WAIT && r.act != SB_IOLA_OPEN && r.act != SB_IOLA_CLOSE &&
		    (fi = name_index(&nm, &r)) < 0) {
			rc = (int)fi;
			break;
		}
		uint64_t delay = 0;
		if (ver == 3) { /* fio: no delay before the first timed entry, none backwards */
			if (last && !s->replay_no_stall && r.t_us >= last)
				delay = (r.t_us - last) * 1000ull * 100ull / s->replay_time_scale;
			last = r.t_us;
		}
		if ((unsigned long)fi >= nfiles && !s->replay_redirect)
			rc = -EINVAL;
		else if (entry(s, &r, fi, delay, &pend, &e) && !(rc = push(g, &ecap, &e)))
			bytes += e.len;
	}
	if (rc == -EOVERFLOW || rc == -EFBIG)
		sb_err(s->name, "read_iolog=%s: %s", s->read_iolog, ewhy);
	else if (rc == -EINVAL)
		sb_err(s->name, "read_iolog=%s changed since the job file was checked: run again",
		       s->read_iolog);
	else if (rc)
		sb_err(s->name, "read_iolog=%s: %s", s->read_iolog, strerror(-rc));
	for (size_t i = 0; i < nm.n; i++)
		free(nm.v[i]);
	free(nm.v);
	sb_in_lines_close(&in);
	g->rp_i = 0;
	g->rp_start_ns = g->rp_last_ns = 0;
	g->loop_budget = bytes;
	g->span = true; /* sb_iogen_next's rare path: span_next hands over to replay */
	g->rp = true;
	return rc;
}

int sb_replay_next(struct sb_iogen *g, struct sb_io_u *io)
{
	for (;;) {
		if (g->rp_i == g->rp_n) { /* loops=N: the log N times */
			if (++g->loops_done >= (g->spec->loops ? g->spec->loops : 1) || !g->rp_n)
				return 0;
			g->rp_i = 0;
			g->rp_start_ns = 0;
		}
		const struct sb_replay_ent *e = &g->rp_ent[g->rp_i++];
		if (__builtin_expect(e->delay_ns != 0, 0) || !g->rp_start_ns) {
			uint64_t now = sb_now_ns();
			if (!g->rp_start_ns)
				g->rp_start_ns = g->rp_last_ns = now;
			uint64_t due = e->wait ? g->rp_start_ns + e->delay_ns : g->rp_last_ns + e->delay_ns;
			if (due > now && !sb_sleep_until(due))
				return 0;
		}
		if (e->wait)
			continue;
		if (g->rp_ent[g->rp_i < g->rp_n ? g->rp_i : g->rp_i - 1].delay_ns)
			g->rp_last_ns = sb_now_ns(); /* the next entry's delay counts from here */
		io->ddir = e->ddir;
		io->file = &g->files[e->file];
		io->offset = e->offset;
		io->len = e->len;
		return 1;
	}
}
