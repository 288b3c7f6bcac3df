/* derive.c: the fix-up pass after a job's options are set
 * (sb_spec_derive, see parse.h): it resolves, once, what later stages would
 * otherwise work out again each on its own: the block sizes a job can issue,
 * fio's default of iodepth_batch_complete_max, and the queue depth it runs
 * at (1 with a synchronous engine).  The fields it fills are
 * marked "derived" in jobspec.h. */
#include <stdlib.h>
#include <string.h>

#include "parse/options.h"
#include "parse/parse.h"

/* a bare write_*_log (SB_LOG_JOBNAME): the logs take the job's name, as fio */
static void derive_log_names(struct sb_jobspec *s)
{
	char **f[] = { &s->write_bw_log, &s->write_iops_log, &s->write_lat_log, &s->write_hist_log };
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!*f[i] || strcmp(*f[i], SB_LOG_JOBNAME))
			continue;
		char *n = strdup(s->name);
		if (n) { /* out of memory: the name stays as written */
			free(*f[i]);
			*f[i] = n;
		}
	}
}

void sb_spec_derive(struct sb_jobspec *s)
{
	derive_log_names(s);
	uint64_t lo = 0, hi = 0;
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		/* a direction's bounds: bssplit's sizes, else bsrange (bs_min is
		 * 0 when it was not given: ranges start at 1 byte), else bs */
		if (s->bssplit_n[d]) {
			s->bs_min[d] = s->bs_max[d] = s->bssplit[d][0].bs;
			for (unsigned i = 1; i < s->bssplit_n[d]; i++) {
				if (s->bssplit[d][i].bs < s->bs_min[d])
					s->bs_min[d] = s->bssplit[d][i].bs;
				if (s->bssplit[d][i].bs > s->bs_max[d])
					s->bs_max[d] = s->bssplit[d][i].bs;
			}
		} else if (!s->bs_min[d]) {
			s->bs_min[d] = s->bs_max[d] = s->bs[d];
		}
		if (!sb_spec_does(s, (enum sb_ddir)d))
			continue;
		/* the I/O buffer must also hold bs: an equal-bounds bsrange
		 * issues bs (run/iogen.c) */
		uint64_t top = s->bs_max[d] > s->bs[d] ? s->bs_max[d] : s->bs[d];
		if (s->bs_min[d] && (!lo || s->bs_min[d] < lo))
			lo = s->bs_min[d];
		if (top > hi)
			hi = top;
	}
	s->bs_lo = lo ? lo : 4096;
	s->bs_hi = hi ? hi : 4096;
	/* fio: the most completions reaped at once defaults to the fewest
	 * waited for, so a full queue is topped up one I/O at a time */
	if (!s->iodepth_batch_complete_max)
		s->iodepth_batch_complete_max = s->iodepth_batch_complete_min ? s->iodepth_batch_complete_min : 1;
	/* a synchronous engine (a fact run/engtable.c hands the parser) has one
	 * I/O in flight whatever iodepth says */
	const struct sb_parse_engine *e = sb_parse_engine_find(s->ioengine);
	s->engine_sync = e && e->sync;
	s->iodepth_eff = s->engine_sync || !s->iodepth ? 1 : s->iodepth;
}

unsigned sb_spec_bs_set(const struct sb_jobspec *s, enum sb_ddir d, uint64_t *bs, unsigned max)
{
	unsigned n = 0;
	if (!sb_spec_does(s, d))
		return 0;
	if (s->bssplit_n[d]) {
		for (unsigned i = 0; i < s->bssplit_n[d] && n < max; i++)
			bs[n++] = s->bssplit[d][i].bs;
		return n;
	}
	/* a range issues multiples of its lower bound up to its upper one
	 * (run/iogen.c); equal bounds issue bs */
	if (max)
		bs[n++] = s->bs_min[d] && s->bs_min[d] < s->bs_max[d] ? s->bs_min[d] : s->bs[d];
	return n;
}
