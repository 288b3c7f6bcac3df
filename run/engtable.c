/* engtable.c: the engine registry handed to the parser, and the engine-facing
 * view of a job filled from its spec (see engtable.h). */
#include <string.h>

#include "parse/options.h"
#include "run/engtable.h"

#define ENGINES_MAX 16

int sb_run_engines_to_parser(void)
{
	struct sb_parse_engine list[ENGINES_MAX];
	unsigned n = 0;
	for (unsigned i = 0; sb_engines[i] && n < ENGINES_MAX; i++, n++) {
		const struct sb_engine_options *o = sb_engines[i]->options;
		list[n] = (struct sb_parse_engine){ sb_engines[i]->name, NULL, o ? o->rows : NULL,
						    o ? o->n : 0, o ? o->size : 0,
						    (sb_engines[i]->flags & SB_ENGINE_SYNC) != 0 };
	}
	for (unsigned i = 0; sb_engines_missing[i].name && n < ENGINES_MAX; i++, n++) {
		const struct sb_engine_options *o = sb_engines_missing[i].options;
		list[n] = (struct sb_parse_engine){ sb_engines_missing[i].name, sb_engines_missing[i].package,
						    o ? o->rows : NULL, o ? o->n : 0, o ? o->size : 0, false };
	}
	return sb_parse_set_engines(list, n);
}

void sb_engine_job_fill(struct sb_engine_job *j, const struct sb_jobspec *s)
{
	memset(j, 0, sizeof(*j));
	j->direct = s->direct;
	j->random = s->rw & SB_RW_RANDOM;
	j->opts = sb_spec_engine_opts(s);
	j->sfr_flags = s->sfr_flags;
}
