/* vcheck.c: checking what verify= reads back (see vjob.h): one interval
 * against what should be there (vblock.c), the failure record and stderr
 * line, verify_dump's files, a read job's reads against the writers' saved
 * states (vstate.c), and the rule that a verify that checked nothing fails.
 * On the I/O path only sb_vcheck_one and sb_vcheck_read run; they allocate,
 * lock and make system calls only when a check fails. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/outfile.h"
#include "run/vjob.h"
#include "lib/log.h"
#include "lib/stop.h"

static void __attribute__((cold)) dump(struct sb_thread *t, struct vjob *vj, const char *path,
				       uint64_t off, const uint8_t *got, const struct sb_vid *want)
{
	char name[4200];
	const struct { const char *ext; const uint8_t *data; } out[2] = {
		{ "received", got }, { "expected", vj->expect } };
	uint64_t when;
	memcpy(&when, got + 40, 8); /* the write's time, when its header survived */
	sb_vblock_fill(&vj->fmt, vj->expect, want, vj->fmt.hdr ? when : 0);
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%s.%" PRIu64 ".%s", path, off, out[i].ext);
		struct sb_outfile of;
		if (sb_outfile_open(&of, name, &(struct sb_outname){ "verify_dump", t->spec->name,
				    "the dumped block" }, 0))
			continue; /* the gate said why */
		(void)fwrite(out[i].data, 1, vj->fmt.len, of.f);
		int e = sb_outfile_commit(&of);
		if (e)
			sb_warn(t->spec->name, "verify_dump: cannot write %s: %s", name, strerror(-e));
	}
}

static void __attribute__((cold)) failed(struct sb_thread *t, struct vjob *vj,
					 const struct sb_file *f, uint64_t off,
					 enum sb_verify_kind kind, const char *exp, const char *found)
{
	(void)sb_verify_record(t->verify, kind, f->path, off, vj->fmt.len, t->sub, exp, found);
	if (vj->printed < PRINT_MAX)
		sb_err(t->spec->name, "verify: %s in %s at offset %" PRIu64 " (%" PRIu64 " bytes): "
		       "expected %s; found %s", sb_verify_kind_name(kind), f->path, off,
		       vj->fmt.len, exp, found);
	else if (vj->printed == PRINT_MAX)
		sb_err(t->spec->name, "verify: more failures: the job's verify results list them "
		       "by kind");
	vj->printed++;
	if (t->spec->continue_on_error & SB_COE_VERIFY) { /* fio: counted, and the run goes on to exit 0 */
		t->st->total_err++;
		if (!t->st->first_error)
			t->st->first_error = EILSEQ;
	}
	if (!t->st->error) { /* fio's err=84 */
		struct sb_errinfo *ei = &t->st->err;
		t->st->error = EILSEQ;
		ei->op = "verify";
		ei->at = true;
		ei->eof = false;
		ei->file = f->index;
		ei->offset = off;
		ei->len = vj->fmt.len;
		snprintf(ei->path, sizeof(ei->path), "%s", f->path);
	}
	if (t->spec->verify_fatal)
		vj->fatal = true;
}

/* trim_verify_zero: a trimmed interval reads back as zeroes */
static void trimmed_zero(struct sb_thread *t, struct vjob *vj, const struct sb_file *f,
			 uint64_t off, const uint8_t *b)
{
	uint64_t i = 0;
	while (i < vj->fmt.len && !b[i])
		i++;
	if (i < vj->fmt.len) {
		char found[SB_VERIFY_TEXT_MAX];
		snprintf(found, sizeof(found), "a non-zero byte at +%" PRIu64 " (0x%02x)", i, b[i]);
		failed(t, vj, f, off, SB_VFY_STALE, "zeroes (trimmed: trim_verify_zero=1)", found);
	}
	t->verify->blocks++;
	t->verify->bytes += vj->fmt.len;
}

/* check the interval at io->buf + o against want (want->gen TRIMMED:
 * zeroes); false when verify_fatal stops the job */
bool sb_vcheck_one(struct sb_thread *t, struct vjob *vj, const struct sb_io_u *io, uint64_t o,
		      const struct sb_vid *want)
{
	uint64_t L = vj->fmt.len, off = io->offset + o;
	if (want->gen == TRIMMED) {
		trimmed_zero(t, vj, io->file, off, (const uint8_t *)io->buf + o);
		return true;
	}
	char exp[SB_VERIFY_TEXT_MAX], found[SB_VERIFY_TEXT_MAX];
	enum sb_verify_kind kind;
	uint8_t *b = (uint8_t *)io->buf + o;
	if (o + L > (uint64_t)io->result) {
		if (want->any_writer)
			snprintf(exp, sizeof(exp), "a block of %" PRIu64 " bytes", L);
		else
			snprintf(exp, sizeof(exp), "gen %" PRIu64 " (%" PRIu64 " bytes)", want->gen, L);
		snprintf(found, sizeof(found), "the file ends first (short read of %" PRId64
			 " bytes)", io->result > (int64_t)o ? io->result - (int64_t)o : 0);
		failed(t, vj, io->file, off, SB_VFY_NEVER_WRITTEN, exp, found);
	} else if (!sb_vblock_check(&vj->fmt, b, want, &kind, exp, found, sizeof(exp))) {
		failed(t, vj, io->file, off, kind, exp, found);
		if (t->spec->verify_dump)
			dump(t, vj, io->file->path, off, b, want);
	}
	t->verify->blocks++;
	t->verify->bytes += L;
	return !vj->fatal;
}

/* a read job's read: every whole interval is checked, against what the
 * newest saved state of a writer says was written there, else as any
 * writer's block at its offset (fio verify.c:920-923 takes the seed from
 * the header when the job does not both read and write) */
bool sb_vcheck_read(struct sb_thread *t, struct vjob *vj, const struct sb_io_u *io)
{
	const struct sb_vknown *k = vj->known ? &vj->known[io->file->index] : NULL;
	uint64_t L = vj->fmt.len;
	for (uint64_t o = 0; o + L <= io->len; o += L) {
		uint64_t off = io->offset + o, rel = off - io->file->region_start;
		struct sb_vid want = { .offset = off, .any_writer = true };
		if (k && k->gen && off >= io->file->region_start && rel % L == 0 &&
		    rel / L < k->nslots && k->gen[rel / L]) {
			const struct sb_vwriter *w = &k->w[k->who[rel / L]];
			uint64_t g = k->gen[rel / L];
			want = (struct sb_vid){ off, g, sb_vblock_seed(w->seed, g, off), w->index,
						w->thread, w->start, false, false };
		}
		if (!sb_vcheck_one(t, vj, io, o, &want))
			return false;
	}
	return true;
}

/* a reader: what the writers' saved states say of each file, read when
 * the job starts (after the jobs before it wrote and saved theirs) */
void sb_vcheck_load_known(struct sb_thread *t, struct vjob *vj)
{
	vj->known = calloc(vj->nfiles ? vj->nfiles : 1, sizeof(*vj->known));
	for (unsigned i = 0; vj->known && i < vj->nfiles; i++) {
		vj->known[i].start = t->files[i].region_start;
		vj->known[i].nslots = t->files[i].region_len / vj->fmt.len;
		if (sb_vstate_known(t->files[i].path, sb_csum_info(vj->fmt.type)->name, vj->fmt.len,
				    &vj->known[i]))
			sb_warn(t->spec->name, "verify: no memory for the saved states of %s: its "
				"blocks are checked as any writer's", t->files[i].path);
	}
}

/* A verify run meant to check (a reader, verify_only, or a job that wrote
 * and reads back) that checked no block has verified nothing: an error
 * (exit 3), never a pass, with the reason */
void sb_vcheck_nothing(struct sb_thread *t, struct vjob *vj)
{
	const struct sb_jobspec *s = t->spec;
	uint64_t got = t->st->io_bytes[SB_DDIR_READ], L = vj->fmt.len;
	if (t->verify->blocks || sb_stopping() || t->st->error ||
	    !(vj->reader || s->verify_only || (s->do_verify && vj->gen)))
		return; /* (a job that wrote nothing, or does not read back, checks nothing) */
	char why[512];
	if (vj->reader && s->bs_max[SB_DDIR_READ] < L)
		snprintf(why, sizeof(why), "every read (bs=%llu) is smaller than the %llu-byte verify "
			 "interval, and only whole intervals can be checked: use a read block size "
			 "that is a multiple of the interval the writer used, or set verify_interval=",
			 (unsigned long long)s->bs_max[SB_DDIR_READ], (unsigned long long)L);
	else if (!got && s->verify_only && !vj->reader)
		snprintf(why, sizeof(why), "%s no written block, so the job read nothing: run the "
			 "writing job (verify_state_save=1) to the end first, or check the file with "
			 "a read job (rw=read, verify=%s)", s->verify_state_load ?
			 "the saved verify state lists" : "replaying the job's writes finds",
			 sb_csum_info(vj->fmt.type)->name);
	else if (!got)
		snprintf(why, sizeof(why), "the job read nothing (an empty region): give it a size= "
			 "or a file that holds the written data");
	else
		snprintf(why, sizeof(why), "its %llu bytes read held no whole %llu-byte verify "
			 "interval: align offset= and the read block size to the interval",
			 (unsigned long long)got, (unsigned long long)L);
	sb_err(s->name, "verify=%s: 0 blocks checked: %s", sb_csum_info(vj->fmt.type)->name, why);
	sb_tstats_set_error(t->st, ENODATA, "verify", NULL);
}
