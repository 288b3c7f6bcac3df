/* readonly.c: --readonly (fio's safety switch): every job is checked before
 * anything runs, and one that would write, trim or create data is refused at
 * the option that makes it do so (file:line, the value, the way out). */
#include <errno.h>
#include <stdio.h>

#include "lib/log.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"

static unsigned refuse(const struct sb_jobspec *s, const struct sb_option *o, const char *why,
		       const char *fix)
{
	char where[SB_WHERE_MAX], val[128];
	sb_spec_where(s, o, where, sizeof(where));
	sb_option_text(o, s, val, sizeof(val));
	sb_err(where, "%s=%s: job '%s' %s, and --readonly refuses any write: %s, or drop --readonly",
	       o->name, val, s->name, why, fix);
	return 1;
}

int sb_joblist_check_readonly(const struct sb_joblist *jl)
{
	unsigned nerr = 0;
	if (jl->datagen_only) {
		sb_err("<cmdline>", "--datagen writes the training datasets, and --readonly refuses any "
		       "write: give one of the two");
		nerr++;
	}
	for (size_t i = 0; i < jl->njobs; i++) {
		const struct sb_jobspec *s = &jl->jobs[i];
		const struct sb_parse_workload *w = sb_spec_workload(s);
		const struct sb_option *o;
		const char *why, *fix;
		if (w && w->writes && (o = w->writes(s, &why, &fix)))
			nerr += refuse(s, o, why, fix);
		else if (sb_spec_wl_flag(s, SB_PWL_MAKES_DATA))
			nerr += refuse(s, SB_OPT(workload), "creates its dataset when it is missing",
				       "run it without --readonly once the dataset exists");
		else if (sb_spec_is_io(s) && (s->rw & (SB_RW_WRITE | SB_RW_TRIM)))
			nerr += refuse(s, SB_OPT(rw), s->rw & SB_RW_TRIM ? "trims" : "writes",
				       "make it read (rw=read or rw=randread)");
	}
	return nerr ? -EINVAL : 0;
}

int sb_joblist_check_max_jobs(const struct sb_joblist *jl, unsigned max)
{
	uint64_t n = 0;
	for (size_t i = 0; i < jl->njobs; i++)
		n += jl->jobs[i].numjobs ? jl->jobs[i].numjobs : 1;
	if (!max || n <= max)
		return 0;
	sb_err("<cmdline>", "--max-jobs=%u: the jobs start %llu threads (numjobs counted): raise "
	       "--max-jobs or lower numjobs", max, (unsigned long long)n);
	return -EINVAL;
}
