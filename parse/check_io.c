/* check_io.c: validation of fio's I/O and file options not checked
 * elsewhere: uid/gid (who may change them), hugepage-size, lockmem against the
 * machine's memory (those two not with --parse-only: sb_parse_machine),
 * bs_unaligned against direct=1.  Derives uid_on/gid_on.
 * Runs before anything touches a disk; every error names file:line, the
 * option, the value and the way out. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static unsigned check_ids(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	unsigned nerr = 0;
	s->uid_on = sb_job_isset(c, SB_OPT(uid));
	s->gid_on = sb_job_isset(c, SB_OPT(gid));
	if (geteuid() == 0 || !sb_parse_machine()) /* --parse-only: who runs it is the run's */
		return 0;
	const struct sb_option *o[2] = { SB_OPT(uid), SB_OPT(gid) };
	bool on[2] = { s->uid_on && s->uid != geteuid(), s->gid_on && s->gid != getegid() };
	for (int i = 0; i < 2; i++) {
		if (!on[i])
			continue;
		sb_err(sb_job_where(c, o[i], where, sizeof(where)),
		       "%s=%s: only root can run a job as another %s (storbench runs as uid %u, "
		       "gid %u): run storbench as root, or drop %s", o[i]->name, sb_job_src(c, o[i])->raw,
		       i ? "group" : "user", (unsigned)geteuid(), (unsigned)getegid(), o[i]->name);
		nerr++;
	}
	return nerr;
}

static unsigned check_hugepage(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (!(s->hugepage_size & (s->hugepage_size - 1)))
		return 0;
	sb_err(sb_job_where(c, SB_OPT(hugepage_size), where, sizeof(where)),
	       "%s=%s: a huge page size is a power of two: expected e.g. 2m or 1g",
	       SB_OPT(hugepage_size)->name, sb_job_src(c, SB_OPT(hugepage_size))->raw);
	return 1;
}

static unsigned check_lockmem(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	if (!s->lockmem || pages <= 0 || psz <= 0 || s->lockmem < (uint64_t)pages * (uint64_t)psz ||
	    !sb_parse_machine())
		return 0;
	sb_err(sb_job_where(c, SB_OPT(lockmem), where, sizeof(where)),
	       "%s=%s: that is all of this machine's memory (%llu MiB) or more: expected less "
	       "than that", SB_OPT(lockmem)->name, sb_job_src(c, SB_OPT(lockmem))->raw,
	       (unsigned long long)((uint64_t)pages * (uint64_t)psz >> 20));
	return 1;
}

/* O_DIRECT needs lengths in whole logical blocks */
static unsigned check_unaligned(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (!s->bs_unaligned || !s->direct)
		return 0;
	sb_err(sb_job_where(c, SB_OPT(bs_unaligned), where, sizeof(where)),
	       "%s=%s with direct=1: O_DIRECT lengths must be whole logical blocks: drop %s or "
	       "set direct=0", SB_OPT(bs_unaligned)->name, sb_job_src(c, SB_OPT(bs_unaligned))->raw,
	       SB_OPT(bs_unaligned)->name);
	return 1;
}

/* verify-trim goes through the job's engine, which must be able to trim */
static unsigned check_vtrim(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (!s->trim_percentage || !s->trim_backlog || !s->verify || strcmp(s->ioengine, "mmap"))
		return 0;
	sb_err(sb_job_where(c, SB_OPT(trim_percentage), where, sizeof(where)),
	       "%s=%s: ioengine=mmap cannot trim (a mapping has no discard): use ioengine=psync, "
	       "sync, libaio or io_uring, or drop %s", SB_OPT(trim_percentage)->name,
	       sb_job_src(c, SB_OPT(trim_percentage))->raw, SB_OPT(trim_percentage)->name);
	return 1;
}

/* the engine's own checks (struct sb_parse_engine.check: s3's bucket and
 * part size), at the line of the option it names */
static unsigned check_engine(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const struct sb_parse_engine *e = sb_parse_engine_find(s->ioengine);
	const char *opt = NULL;
	char where[SB_WHERE_MAX], why[400];
	int r = e && e->check ? e->check(sb_spec_engine_opts(s), s->filename, s->directory,
					  s->workload == 0, &opt, why, sizeof(why)) : 0;
	if (!r)
		return 0;
	const struct sb_option *o = opt ? sb_option_find(opt) : NULL;
	if (!o || !sb_job_isset(c, o)) /* an option the job lacks: at its ioengine= */
		o = SB_OPT(ioengine);
	if (r == -ENOENT && !sb_parse_machine())
		return 0; /* what this machine lacks: --parse-only=job's engine start warns */
	sb_err(sb_job_where(c, o, where, sizeof(where)), "%s", why);
	return 1;
}

unsigned sb_job_validate_io(struct sb_jobctx *c)
{
	return check_ids(c) + check_hugepage(c) + check_lockmem(c) + check_unaligned(c) +
	       check_vtrim(c) + check_engine(c);
}
