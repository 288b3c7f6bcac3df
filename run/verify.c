/* verify.c: verify= for I/O jobs (see verify.h).  The hooks run on the
 * I/O path: io_prep fills a write's intervals (vblock.c) and io_check
 * records a completed write in the tracker or checks a verify read; neither
 * allocates, locks or makes a system call unless a check fails. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/verify.h"
#include "run/vblock.h"
#include "run/vstate.h"
#include "run/vjob.h"
#include "parse/options.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/inputs.h"

static struct sb_vtrack *track_of(struct vjob *vj, const struct sb_file *f)
{
	return f->index < vj->nfiles ? &vj->tr[f->index] : NULL;
}

/* io's write goes in flight: does it overlap another still in flight?
 * (a unit reused is done: a failed write never reached wrote()) */
static void note_inflight(struct vjob *vj, const struct sb_io_u *io)
{
	struct vinflight *me = &vj->infl[io->index];
	*me = (struct vinflight){ io->offset, io->len, io->file->index, true, false };
	for (unsigned j = 0; j < vj->ninfl; j++) {
		struct vinflight *o = &vj->infl[j];
		if (j == io->index || !o->busy || o->file != me->file ||
		    o->offset >= me->offset + me->len || me->offset >= o->offset + o->len)
			continue;
		o->overlap = me->overlap = true;
	}
}

static void io_prep(struct sb_thread *t, struct sb_io_u *io)
{
	struct vjob *vj = t->content;
	uint64_t g = ++vj->gen, L = vj->fmt.len;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts); /* vDSO: no system call */
	uint64_t now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	vj->io_gen[io->index] = g;
	if (vj->infl)
		note_inflight(vj, io);
	for (uint64_t o = 0; o + L <= io->len; o += L) {
		struct sb_vid id = { io->offset + o, g, 0, vj->job, vj->thread, 0, false, false };
		id.seed = sb_vblock_seed(vj->base, g, id.offset);
		sb_vblock_fill(&vj->fmt, (uint8_t *)io->buf + o, &id, now);
	}
}

/* trim_percentage: write g (completed) is picked for a trim or not, by a
 * hash of its generation (repeatable); every trim_backlog writes with some
 * picked, a trim is due: false pauses the loop for sb_verify_run.  The
 * picks wait in a ring, oldest first ([thead - tn, thead)). */
static bool trim_note(struct vjob *vj, const struct sb_io_u *io, uint64_t g)
{
	if (sb_vblock_seed(vj->base ^ 0x5452494dull, g, 0) % 100 < vj->trim_pct) {
		if (vj->tn == vj->tcap) /* full: the oldest pick is not trimmed */
			vj->tn--;
		vj->tring[vj->thead++ % vj->tcap] = (struct ring_ent){ io->file->index, io->offset,
									(uint64_t)io->result };
		vj->tn++;
	}
	if (++vj->tsince < vj->tbacklog || !vj->tn)
		return true;
	vj->tsince = 0;
	vj->trim_due = true;
	return false;
}

/* a completed write: its intervals now hold its generation */
static bool wrote(struct sb_thread *t, struct vjob *vj, const struct sb_io_u *io)
{
	struct sb_vtrack *tr = track_of(vj, io->file);
	uint64_t L = vj->fmt.len, g = vj->io_gen[io->index];
	struct vinflight *me = vj->infl ? &vj->infl[io->index] : NULL;
	uint8_t *amb = me && tr ? vj->amb[io->file->index] : NULL;
	for (uint64_t o = 0; tr && o + L <= (uint64_t)io->result; o += L) {
		uint64_t slot = (io->offset + o - tr->start) / L;
		if (slot >= tr->nslots)
			continue;
		tr->gen[slot] = (uint32_t)g;
		if (amb)
			amb[slot] = me->overlap;
	}
	if (me)
		me->busy = false;
	bool go = vj->tbacklog ? trim_note(vj, io, g) : true;
	if (!vj->backlog)
		return go;
	vj->ring[vj->rhead++ % vj->backlog] = (struct ring_ent){ io->file->index, io->offset,
								  (uint64_t)io->result };
	if (++vj->since < vj->backlog)
		return go;
	vj->since = 0;
	vj->backlog_due = true;
	(void)t;
	return false; /* pause the loop: sb_verify_run checks, then resumes */
}

static bool io_check(struct sb_thread *t, const struct sb_io_u *io)
{
	struct vjob *vj = t->content;
	if (io->ddir == SB_DDIR_WRITE)
		return wrote(t, vj, io);
	if (vj->reader)
		return sb_vcheck_read(t, vj, io);
	if (!vj->checking)
		return true; /* a read of a mix (rw=randrw...): not checked, as fio's
			      * backend.c:1044-1048 (only verify reads, or a job that
			      * does not write) */
	struct sb_vtrack *tr = track_of(vj, io->file);
	uint64_t L = vj->fmt.len;
	for (uint64_t o = 0; tr && o + L <= io->len; o += L) {
		uint64_t off = io->offset + o, slot = (off - tr->start) / L;
		struct sb_vid want = { off, slot < tr->nslots ? GEN_OF(tr->gen[slot]) : 0, 0,
				       vj->job, vj->thread, 0, false, false };
		if (!want.gen)
			continue;
		tr->gen[slot] |= CHECKED;
		want.seed = sb_vblock_seed(vj->base, want.gen, off);
		if (vj->amb && vj->amb[io->file->index][slot])
			want.gen = 0; /* overlapping writes in flight: either's block (any gen) */
		/* a block stamped before the run that wrote it began is a lost
		 * write: this run's start, or with verify_only the writing run's
		 * (from its saved state; 0: unknown) */
		want.min_time = t->spec->verify_only ? vj->prev_t0 : vj->t0;
		/* verify_only with no saved state: whichever job wrote its
		 * workload's blocks (fio's t/verify.py runs it after a writing
		 * job of another name in the same run) */
		want.any_job = t->spec->verify_only && !t->spec->verify_state_load;
		if (!sb_vcheck_one(t, vj, io, o, &want))
			return false;
	}
	return true;
}

/* read back and check [off, off + len) of file f (whole intervals) */
static bool check_span(struct sb_thread *t, struct vjob *vj, struct sb_file *f, uint64_t off,
		       uint64_t len)
{
	struct sb_loopstate ls = { .deadline = UINT64_MAX, .counting = true };
	sb_iogen_init_span(&t->gen, t->spec, f, SB_DDIR_READ, off, len, vj->rbs);
	ls.now = sb_now_ns();
	uint64_t t0 = ls.now;
	sb_ioloop_run(t, &ls);
	vj->check_ns += sb_now_ns() - t0;
	return !ls.stop && !vj->fatal && !sb_stopping() &&
	       (!t->st->error || t->st->error == EILSEQ);
}

/* the verify pass: every written interval, runs of them read in order */
static void verify_all(struct sb_thread *t, struct vjob *vj)
{
	struct sb_iogen saved = t->gen;
	memset(&t->gen, 0, sizeof(t->gen));
	vj->checking = true;
	uint64_t L = vj->fmt.len;
	bool go = true;
	for (unsigned i = 0; go && i < vj->nfiles; i++) {
		struct sb_vtrack *tr = &vj->tr[i];
		for (uint64_t s = 0; go && s < tr->nslots;) {
			if (!tr->gen[s] || (tr->gen[s] & CHECKED)) {
				s++;
				continue;
			}
			uint64_t e = s + 1;
			while (e < tr->nslots && tr->gen[e] && !(tr->gen[e] & CHECKED))
				e++;
			go = check_span(t, vj, &t->files[i], tr->start + s * L, (e - s) * L);
			s = e;
		}
	}
	vj->checking = false;
	t->gen = saved;
}

/* verify_backlog: the last verify_backlog_batch writes */
static void verify_backlog(struct sb_thread *t, struct vjob *vj)
{
	struct sb_iogen saved = t->gen;
	memset(&t->gen, 0, sizeof(t->gen));
	vj->checking = true;
	uint64_t n = vj->batch < vj->backlog ? vj->batch : vj->backlog;
	for (uint64_t k = 0; k < n; k++) {
		const struct ring_ent *e = &vj->ring[(vj->rhead - n + k) % vj->backlog];
		uint64_t len = e->len - e->len % vj->fmt.len;
		if (len && !check_span(t, vj, &t->files[e->file], e->offset, len))
			break;
	}
	vj->checking = false;
	t->gen = saved;
}

/* trim_percentage: trim the oldest trim_backlog_batch picks, whole
 * intervals, through the job's engine; their intervals then hold zeroes
 * (checked when trim_verify_zero=1, else not verified) */
static void do_trims(struct sb_thread *t, struct vjob *vj)
{
	struct sb_iogen saved = t->gen;
	uint64_t L = vj->fmt.len, n = vj->tbatch < vj->tn ? vj->tbatch : vj->tn;
	uint32_t mark = t->spec->trim_verify_zero ? TRIMMED : 0;
	memset(&t->gen, 0, sizeof(t->gen));
	for (uint64_t k = 0; k < n && !sb_stopping(); k++) {
		const struct ring_ent e = vj->tring[(vj->thead - vj->tn) % vj->tcap];
		struct sb_vtrack *tr = &vj->tr[e.file];
		struct sb_loopstate ls = { .deadline = UINT64_MAX, .counting = true };
		uint64_t len = e.len - e.len % L;
		vj->tn--;
		if (!len)
			continue;
		/* a device claimed for the run discards only clean cached pages
		 * (else EBUSY): the buffered writes reach it first */
		if (t->files[e.file].is_bdev && !t->spec->direct)
			(void)fdatasync(t->files[e.file].fd);
		sb_iogen_init_span(&t->gen, t->spec, &t->files[e.file], SB_DDIR_TRIM, e.offset, len, len);
		ls.now = sb_now_ns();
		sb_ioloop_run(t, &ls);
		if (ls.stop || t->st->error)
			break;
		for (uint64_t o = 0; o < len; o += L) {
			uint64_t slot = (e.offset + o - tr->start) / L;
			if (slot < tr->nslots) {
				tr->gen[slot] = mark;
				if (vj->amb)
					vj->amb[e.file][slot] = 0;
			}
		}
	}
	t->gen = saved;
}

/* verify_only: the job's workload run dry, as fio 3.33 does (backend.c
 * do_dry_run): nothing is sent, each I/O the generator makes is counted in
 * its direction (total_ios, io_bytes; no latency, no runtime: fio's dry
 * run reports its writes so, which fio's t/verify_state_save.py checks);
 * without a saved state (mark) its writes tell what the writing run wrote
 * (the same seed gives the same offsets) */
static void replay(struct sb_thread *t, struct vjob *vj, bool mark)
{
	struct sb_io_u io = { 0 };
	uint64_t L = vj->fmt.len;
	while (!sb_stopping() && sb_iogen_next(&t->gen, &io)) {
		if (io.ddir < SB_DDIR_N) {
			t->st->total_ios[io.ddir]++;
			t->st->io_bytes[io.ddir] += io.len;
		}
		if (io.ddir != SB_DDIR_WRITE || !mark)
			continue;
		uint64_t g = ++vj->gen;
		struct sb_vtrack *tr = track_of(vj, io.file);
		for (uint64_t o = 0; tr && o + L <= io.len; o += L) {
			uint64_t slot = (io.offset + o - tr->start) / L;
			if (slot < tr->nslots)
				tr->gen[slot] = (uint32_t)g;
		}
	}
}

static void state_id(const struct sb_thread *t, const struct vjob *vj, struct sb_vstate_id *id)
{
	*id = (struct sb_vstate_id){ t->spec->name, t->sub, sb_csum_info(vj->fmt.type)->name,
				     vj->fmt.len, vj->base, vj->gen, vj->job, vj->t0 };
}

static void save_state(struct sb_thread *t, struct vjob *vj)
{
	char path[4200];
	struct sb_vstate_id id;
	char **paths = malloc(vj->nfiles * sizeof(*paths));
	if (!paths)
		return;
	for (unsigned i = 0; i < vj->nfiles; i++)
		paths[i] = t->files[i].path;
	state_id(t, vj, &id);
	sb_vstate_path(path, sizeof(path), t->files[0].path, t->spec->name, t->sub);
	int r = sb_vstate_save(path, &id, vj->tr, paths, vj->nfiles);
	if (r)
		sb_warn(t->spec->name, "verify_state_save: cannot write %s: %s", path, strerror(-r));
	free(paths);
}

static bool load_state(struct sb_thread *t, struct vjob *vj)
{
	char path[4200], why[1024];
	struct sb_vstate_id id;
	state_id(t, vj, &id);
	sb_vstate_path(path, sizeof(path), t->files[0].path, t->spec->name, t->sub);
	int r = sb_vstate_load(path, &id, vj->tr, vj->nfiles, &vj->gen, &vj->base, why, sizeof(why));
	if (r) {
		sb_err(t->spec->name, "%s: %s", SB_OPT(verify_state_load)->name, why);
		sb_tstats_set_error(t->st, -r, SB_OPT(verify_state_load)->name, path);
	}
	return !r;
}

bool sb_verify_run(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct vjob *vj = t->content;
	const struct sb_jobspec *s = t->spec;
	if (vj->reader) { /* its own reads are checked (verify_only alike) */
		sb_vcheck_load_known(t, vj);
		return false;
	}
	if (s->verify_only) {
		struct sb_vstate_id id;
		char path[4200];
		state_id(t, vj, &id);
		sb_vstate_path(path, sizeof(path), t->files[0].path, s->name, t->sub);
		if (s->verify_state_load ? load_state(t, vj) : true) {
			replay(t, vj, !s->verify_state_load);
			vj->prev_t0 = sb_vstate_start(path, &id);
			verify_all(t, vj);
		}
		return true;
	}
	for (;;) {
		sb_ioloop_run(t, ls);
		if (!(vj->backlog_due || vj->trim_due) || vj->fatal || sb_stopping() ||
		    (t->st->error && t->st->error != EILSEQ))
			break;
		ls->stop = false;
		if (vj->trim_due)
			do_trims(t, vj);
		vj->trim_due = false;
		if (!vj->backlog_due)
			continue;
		vj->backlog_due = false;
		verify_backlog(t, vj);
		if (vj->fatal)
			break;
	}
	sb_ioloop_end_fsync(t, ls);
	if (s->verify_state_save)
		save_state(t, vj);
	if (s->do_verify && !vj->fatal && !sb_stopping() &&
	    (!t->st->error || t->st->error == EILSEQ))
		verify_all(t, vj);
	return true;
}

void sb_verify_end(struct sb_thread *t)
{
	sb_vcheck_nothing(t, t->content);
}

void sb_verify_runtimes(struct sb_thread *t)
{
	struct vjob *vj = t->content;
	struct sb_tstats *st = t->st;
	if (vj && t->spec->verify_only) /* the dry run's writes took no time (fio: runtime 0) */
		st->runtime_ns[SB_DDIR_WRITE] = st->runtime_ns[SB_DDIR_TRIM] = 0;
	if (!vj || (t->spec->rw & SB_RW_READ))
		return;
	uint64_t v = vj->check_ns < st->job_runtime_ns ? vj->check_ns : st->job_runtime_ns;
	st->runtime_ns[SB_DDIR_READ] = v;
	if (st->runtime_ns[SB_DDIR_WRITE])
		st->runtime_ns[SB_DDIR_WRITE] -= v;
}

/* per file, the generation of each interval (and, iodepth > 1, whether
 * its last write overlapped another in flight): 0 or -ENOMEM */
static int setup_trackers(struct sb_thread *t, struct vjob *vj)
{
	uint64_t L = vj->fmt.len;
	if (t->etd.nios > 1 && !t->spec->verify_only) {
		vj->ninfl = t->etd.nios;
		vj->infl = calloc(vj->ninfl, sizeof(*vj->infl));
		vj->amb = calloc(vj->nfiles ? vj->nfiles : 1, sizeof(*vj->amb));
		if (!vj->infl || !vj->amb)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < vj->nfiles; i++) {
		vj->tr[i].start = t->files[i].region_start;
		vj->tr[i].nslots = t->files[i].region_len / L;
		vj->tr[i].gen = calloc(vj->tr[i].nslots ? vj->tr[i].nslots : 1, sizeof(uint32_t));
		if (!vj->tr[i].gen)
			return -ENOMEM;
		if (vj->amb && !(vj->amb[i] = calloc(vj->tr[i].nslots ? vj->tr[i].nslots : 1, 1)))
			return -ENOMEM;
	}
	return 0;
}

int sb_verify_setup(struct sb_thread *t)
{
	const struct sb_jobspec *s = t->spec;
	struct vjob *vj = calloc(1, sizeof(*vj));
	if (!vj)
		return -ENOMEM;
	t->content = vj;
	t->verify = sb_verify_result_new(sb_csum_info(s->verify)->name);
	int r = sb_csum_init(&vj->cs, s->verify);
	if (r || !t->verify) {
		sb_err(s->name, "verify=%s: %s", sb_csum_info(s->verify)->name,
		       r == -ENOTSUP ? "not built (the parser should have refused it)" : strerror(ENOMEM));
		return r ? r : -ENOMEM;
	}
	/* a job that writes checks its write blocks' intervals; a reader, its
	 * reads' (fio: verify_interval defaults to the smallest block size) */
	vj->reader = !(s->rw & SB_RW_WRITE);
	enum sb_ddir bd = vj->reader ? SB_DDIR_READ : SB_DDIR_WRITE;
	uint64_t L = s->verify_interval ? s->verify_interval : s->bs_min[bd];
	vj->fmt = (struct sb_vfmt){
		.type = s->verify, .hdr = sb_vhdr_len(s->verify), .len = L, .voff = s->verify_offset,
		.pat = s->verify_pat_len ? s->verify_pat : NULL, .patlen = s->verify_pat_len,
		.patoff = s->verify_pat_off, .check_seed = s->verify_header_seed, .cs = &vj->cs,
	};
	vj->base = sb_iogen_seed(s, t->sub) ^ 0x5645524946590001ull;
	struct timespec ts0;
	clock_gettime(CLOCK_REALTIME, &ts0);
	vj->t0 = (uint64_t)ts0.tv_sec * 1000000000ull + (uint64_t)ts0.tv_nsec;
	vj->job = (unsigned)t->job;
	vj->thread = t->sub;
	vj->nfiles = t->etd.nfiles;
	vj->rbs = t->etd.buf_per_io / L * L; /* whole intervals per read */
	if (vj->rbs > s->bs_max[bd] && s->bs_max[bd] >= L)
		vj->rbs = s->bs_max[bd] / L * L;
	vj->io_gen = calloc(t->etd.nios, sizeof(*vj->io_gen));
	vj->tr = calloc(vj->nfiles ? vj->nfiles : 1, sizeof(*vj->tr));
	vj->expect = malloc(L);
	if (!vj->io_gen || !vj->tr || !vj->expect || setup_trackers(t, vj))
		return -ENOMEM;
	if (s->verify_backlog && !s->verify_only) {
		vj->backlog = s->verify_backlog;
		vj->batch = s->verify_backlog_batch ? s->verify_backlog_batch : s->verify_backlog;
		vj->ring = calloc(vj->backlog, sizeof(*vj->ring));
		if (!vj->ring)
			return -ENOMEM;
	}
	if (s->trim_percentage && s->trim_backlog && !s->verify_only) {
		vj->trim_pct = s->trim_percentage;
		vj->tbacklog = s->trim_backlog;
		vj->tbatch = s->trim_backlog_batch ? s->trim_backlog_batch : s->trim_backlog;
		vj->tcap = vj->tbacklog + vj->tbatch;
		vj->tring = calloc(vj->tcap, sizeof(*vj->tring));
		if (!vj->tring)
			return -ENOMEM;
	}
	t->io_prep = io_prep;
	t->io_check = io_check;
	t->check_writes = true;
	t->check_eof = vj->reader || s->verify_only; /* a file cut short: its lost blocks */
	if (s->verify_only && s->verify_state_load) { /* an input from the start: no output over it */
		char path[4200];
		sb_vstate_path(path, sizeof(path), t->files[0].path, s->name, t->sub);
		(void)sb_inputs_add_path(path, SB_OPT(verify_state_load)->name);
	}
	return 0;
}

void sb_verify_teardown(struct sb_thread *t)
{
	struct vjob *vj = t->content;
	if (!vj || t->io_check != io_check)
		return;
	for (unsigned i = 0; vj->tr && i < vj->nfiles; i++)
		free(vj->tr[i].gen);
	for (unsigned i = 0; vj->amb && i < vj->nfiles; i++)
		free(vj->amb[i]);
	free(vj->amb);
	free(vj->infl);
	sb_csum_free(&vj->cs);
	free(vj->tr);
	free(vj->io_gen);
	free(vj->ring);
	free(vj->tring);
	free(vj->expect);
	for (unsigned i = 0; vj->known && i < vj->nfiles; i++)
		sb_vstate_known_free(&vj->known[i]);
	free(vj->known);
	free(vj);
	t->content = NULL;
	t->io_prep = NULL;
	t->io_check = NULL;
}
