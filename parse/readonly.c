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
		if (sb_spec_wl_flag(s, SB_PWL_CKPT_WRITES) && s->num_checkpoints_write)
			nerr += refuse(s, SB_OPT(num_checkpoints_write), "writes checkpoints",
				       "set num_checkpoints_write=0 to read existing ones");
		else if (sb_spec_wl_flag(s, SB_PWL_MAKES_DATA))
			nerr += refuse(s, SB_OPT(workload), "creates its dataset when it is missing",
				       "run it without --readonly once the dataset exists");
		else if (sb_spec_is_io(s) && (s->rw & (SB_RW_WRITE | SB_RW_TRIM)))
			nerr += refuse(s, SB_OPT(rw), s->rw & SB_RW_TRIM ? "trims" : "writes",
				       "make it read (rw=read or rw=randread)");
	}
	return nerr ? -EINVAL : 0;
}
