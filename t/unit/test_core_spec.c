/* test_core_spec.c: sb_test_default_spec(), a job spec filled the way the
 * parser's defaults would fill it, for the core and iogen suites. */
#include <string.h>

#include "engine_driver.h"
#include "parse/jobspec.h"

struct sb_jobspec sb_test_default_spec(void);

struct sb_jobspec sb_test_default_spec(void)
{
	static const double pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	struct sb_jobspec s;
	memset(&s, 0, sizeof(s));
	strcpy(s.name, "job");
	s.file = "<test>";
	s.nrfiles = 1;
	s.rw = SB_RW_READ;
	s.rwmixread = 50;
	for (int d = 0; d < SB_DDIR_N; d++)
		s.bs[d] = s.bs_min[d] = s.bs_max[d] = 4096;
	s.numjobs = 1;
	strcpy(s.ioengine, "psync");
	s.iodepth = 1;
	s.iodepth_batch_submit = 1;
	s.iodepth_batch_complete_min = 1;
	s.iodepth_batch_complete_max = 1;
	spec_eopt_set(&s, "sqthread_poll_cpu", -1);
	s.loops = 1;
	s.randrepeat = true;
	s.randseed = 0x89;
	s.fallocate = SB_FALLOC_POSIX;
	s.thinktime_blocks = 1;
	memcpy(s.percentile_list, pct, sizeof(pct));
	s.percentile_n = sizeof(pct) / sizeof(pct[0]);
	s.clat_percentiles = true;
	s.kb_base = 1024;
	s.rw_seq_nr = 1;
	for (int d = 0; d < SB_DDIR_N; d++)
		s.percentage_random[d] = 100;
	return s;
}
