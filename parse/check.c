/* check.c: validation that needs more than one option (bs vs size, O_DIRECT
 * alignment, rwmixread+rwmixwrite, iodepth batches, thinktime) and the
 * cross-job pass (group ids, wait_for).  All of it runs before anything
 * touches a disk; every error names file:line, the option, the value and the
 * way out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/value.h"

/* the value as written, or the default marked as such */
static void written(const struct sb_jobctx *c, const struct sb_option *o, char *buf, size_t len)
{
	const struct sb_optsrc *s = sb_job_src(c, o);
	if (s->file)
		snprintf(buf, len, "%s=%s", o->name, s->raw);
	else
		snprintf(buf, len, "%s=%s (default)", o->name, o->def ? o->def : "0");
}

/* the option that decides direction d's block sizes */
static const struct sb_option *bs_option(const struct sb_jobctx *c, enum sb_ddir d)
{
	if (c->spec.bssplit_n[d])
		return SB_OPT(bssplit);
	return sb_job_isset(c, SB_OPT(bs_min)) ? SB_OPT(bs_min) : SB_OPT(bs);
}

static unsigned check_bs_size(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], w[300], a[32], b[32];
	if (!s->size)
		return 0;
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		if (!sb_spec_does(s, d) || s->bs_max[d] <= s->size)
			continue;
		const struct sb_option *opt = bs_option(c, d);
		written(c, opt, w, sizeof(w));
		sb_size_str(s->bs_max[d], a, sizeof(a));
		sb_size_str(s->size, b, sizeof(b));
		sb_err(sb_job_where(c, sb_job_isset(c, opt) ? opt : SB_OPT(size), where, sizeof(where)),
		       "%s: block size %s is larger than size=%s (%s): use a block size of at most "
		       "the size, or a larger size", w, a, sb_job_src(c, SB_OPT(size))->raw, b);
		return 1;
	}
	return 0;
}

/* direct=1: the one check (parse/dio.c) with the alignment every device
 * needs; run/precheck.c runs it again with the real alignment of each file
 * or device, which no device-less parse can know */
static unsigned check_direct(const struct sb_jobctx *c)
{
	static const struct sb_dio_align every = { .offset = SB_DIO_ALIGN_MIN };
	return sb_spec_check_direct(&c->spec, &every, NULL, 0) ? 1 : 0;
}

static unsigned check_rwmix(const struct sb_jobctx *c)
{
	const struct sb_optsrc *r = sb_job_src(c, SB_OPT(rwmixread)), *w = sb_job_src(c, SB_OPT_INV(rwmixread));
	char where[SB_WHERE_MAX];
	if (!r->file || !w->file)
		return 0;
	long rv = strtol(r->raw, NULL, 0), wv = strtol(w->raw, NULL, 0);
	if (rv + wv == 100)
		return 0;
	const struct sb_optsrc *later = (w->file == r->file && w->line < r->line) ? r : w;
	sb_err(sb_ini_where(where, sizeof(where), later->file, later->line),
	       "rwmixread=%s and rwmixwrite=%s add up to %ld, not 100: give only one of them, "
	       "or two that sum to 100", r->raw, w->raw, rv + wv);
	return 1;
}

static unsigned check_depth(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	unsigned nerr = 0;
	if (s->iodepth_batch_complete_min > s->iodepth) {
		sb_err(sb_job_where(c, SB_OPT(iodepth_batch_complete_min), where, sizeof(where)),
		       "iodepth_batch_complete_min=%u is larger than iodepth=%u: expected 0 to %u",
		       s->iodepth_batch_complete_min, s->iodepth, s->iodepth);
		nerr++;
	}
	if (sb_job_isset(c, SB_OPT(iodepth_batch_complete_max)) &&
	    (s->iodepth_batch_complete_max < s->iodepth_batch_complete_min ||
	     s->iodepth_batch_complete_max > s->iodepth)) {
		sb_err(sb_job_where(c, SB_OPT(iodepth_batch_complete_max), where, sizeof(where)),
		       "iodepth_batch_complete_max=%u: expected from iodepth_batch_complete_min (%u) "
		       "to iodepth (%u)", s->iodepth_batch_complete_max,
		       s->iodepth_batch_complete_min, s->iodepth);
		nerr++;
	}
	return nerr;
}

static unsigned check_time(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (s->thinktime_spin_us > s->thinktime_us) {
		sb_err(sb_job_where(c, SB_OPT(thinktime_spin_us), where, sizeof(where)),
		       "thinktime_spin=%s is longer than thinktime=%s: expected at most thinktime",
		       sb_job_src(c, SB_OPT(thinktime_spin_us))->raw,
		       sb_job_isset(c, SB_OPT(thinktime_us)) ? sb_job_src(c, SB_OPT(thinktime_us))->raw : "0");
		return 1;
	}
	if (s->time_based && !s->runtime_us) {
		sb_warn(sb_job_where(c, SB_OPT(time_based), where, sizeof(where)),
			"time_based has no effect without runtime= (job '%s' stops when its I/O is "
			"done)", s->name);
		s->time_based = false;
	}
	return 0;
}

/* fio's trim is not implemented yet (a later issue): refuse it here, with
 * file:line, rather than when the run starts */
static unsigned check_trim(const struct sb_jobctx *c)
{
	char where[SB_WHERE_MAX], w[300];
	if (!(c->spec.rw & SB_RW_TRIM) || strcmp(c->spec.ioengine, "mmap"))
		return 0;
	written(c, SB_OPT(rw), w, sizeof(w));
	sb_err(sb_job_where(c, SB_OPT(rw), where, sizeof(where)),
	       "%s: ioengine=mmap cannot trim (a mapping has no discard): use ioengine=psync, "
	       "sync, libaio or io_uring", w);
	return 1;
}

/* io_uring's polled completions need O_DIRECT whatever the file: known
 * here, not only when the engine opens the file (for the job's engine when
 * it has a hipri option) */
static unsigned check_hipri(const struct sb_jobctx *c)
{
	char where[SB_WHERE_MAX], w[300];
	const struct sb_option *o = sb_option_find("hipri");
	if (!o || !sb_spec_engine_owns(&c->spec, o) || c->spec.direct ||
	    !*(const bool *)((const char *)&c->spec + o->off))
		return 0;
	written(c, SB_OPT(direct), w, sizeof(w));
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "hipri=1 (polled completions) needs direct=1, and the job has %s: set direct=1 or "
	       "drop hipri=1", w);
	return 1;
}

/* fio 3.33 init.c:926 fixup_options: a randseed that is set overrides
 * randrepeat: the seeds come from it (init.c:1241 setup_random_seeds),
 * whatever randrepeat says */
static unsigned check_seed(struct sb_jobctx *c)
{
	if (sb_job_isset(c, SB_OPT(randseed)))
		c->spec.randrepeat = true;
	return 0;
}

unsigned sb_job_validate(struct sb_jobctx *c)
{
	unsigned n = sb_job_validate_replay(c); /* may set files, rw and bs: before derive */
	n += sb_job_zone_units(c);
	sb_spec_derive(&c->spec);
	return n + check_seed(c) + check_trim(c) + check_hipri(c) + check_bs_size(c) + check_direct(c) + check_rwmix(c) + check_depth(c) + check_time(c) +
	       sb_job_validate_wl(c) + sb_job_validate_buf(c) + sb_job_validate_verify(c) +
	       sb_job_validate_flow(c) + sb_job_validate_place(c) + sb_job_validate_cmdprio(c) +
	       sb_job_validate_stats(c) + sb_job_validate_io(c) + sb_job_validate_fill(c) +
	       sb_job_validate_range(c) + sb_job_validate_zone(c);
}

unsigned sb_job_check_wait_for(const struct sb_joblist *jl, size_t j, const char *where)
{
	const struct sb_jobspec *s = &jl->jobs[j];
	size_t k;
	for (k = 0; k < j; k++)
		if (!strcmp(jl->jobs[k].name, s->wait_for))
			return 0;
	for (k = j; k < jl->njobs; k++)
		if (!strcmp(jl->jobs[k].name, s->wait_for))
			break;
	if (k == j)
		sb_err(where, "job '%s': wait_for=%s: a job cannot wait for itself", s->name,
		       s->wait_for);
	else if (k < jl->njobs)
		sb_err(where, "job '%s': wait_for=%s: job '%s' comes later; wait_for must name a job "
		       "defined before this one", s->name, s->wait_for, s->wait_for);
	else
		sb_err(where, "job '%s': wait_for=%s: no job is named '%s'; expected the name of an "
		       "earlier job%s%s%s", s->name, s->wait_for, s->wait_for, j ? " such as '" : "",
		       j ? jl->jobs[j - 1].name : "", j ? "'" : "");
	return 1;
}

int sb_joblist_finish(struct sb_joblist *jl)
{
	unsigned nerr = 0, gid = 0, in_group = 0, nfiles = 0;
	for (size_t j = 0; j < jl->njobs; j++) {
		struct sb_jobspec *s = &jl->jobs[j];
		/* fio 3.33: the first job of each job file after the first starts
		 * a new group, as if it said stonewall */
		bool next_file = s->file_first && nfiles++;
		if ((s->stonewall || s->new_group || next_file) && in_group) {
			gid++;
			in_group = 0;
		}
		s->groupid = gid;
		in_group++;
		if (s->wait_for) {
			char where[SB_WHERE_MAX];
			sb_ini_where(where, sizeof(where), s->file, s->line);
			nerr += sb_job_check_wait_for(jl, j, where);
		}
	}
	return nerr ? -EINVAL : 0;
}
