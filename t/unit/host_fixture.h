/* host_fixture.h: the host-collector fixture run shared by the collector
 * tests (test_host.c) and the host writer tests (test_output_host.c). */
#ifndef SB_TEST_HOST_FIXTURE_H
#define SB_TEST_HOST_FIXTURE_H
#include "stats/host.h"

/* Points the scratch root link at t/fixtures/<name>; the link's path, or
 * NULL when the fixture is missing. */
const char *sb_test_host_root_at(const char *name);
/* Opens cpu, mem, disk, net, ib, rapl and gpu (not perf; no NVML) on
 * host1 at 1 s and samples host1b, host1c, host1d at 2, 3 and 5 s (the
 * figures are worked out in test_host.c); cap: series_cap (0: default). */
struct sb_host *sb_test_host_fixture_run(unsigned cap);
/* The same run with the sources of which; tid > 0: a thread perf counts. */
struct sb_host *sb_test_host_fixture_run_which(unsigned cap, unsigned which, pid_t tid);
#endif
