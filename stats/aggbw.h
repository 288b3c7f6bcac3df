/* aggbw.h: --bandwidth-log, fio's aggregate bandwidth logs (fio 3.33
 * init.c:111 "bandwidth-log", backend.c:2588 setup_log of agg-read_bw.log,
 * agg-write_bw.log, agg-trim_bw.log in the working directory; eta.c:508
 * one sample per direction every bw_avg_time, 500 ms): the bandwidth of
 * all jobs together, one line "MSEC, KIB_PER_SEC, DDIR, 0, 0" per
 * direction each 500 ms of the run (msec since the run started).  The
 * files are written through the writer gate (os/outfile.h), whole at the
 * end, and made even when no sample comes (as fio's). */
#ifndef SB_STATS_AGGBW_H
#define SB_STATS_AGGBW_H
#include <stdint.h>

#include "os/outfile.h"
#include "stats/monitor.h"

#define SB_AGGBW_MS 500u
#define SB_AGGBW_NDIR 3 /* read, write, trim (fio's DDIR_RWDIR_CNT) */

struct sb_aggbw {
	struct sb_outfile af[SB_AGGBW_NDIR];
	uint64_t bytes[SB_AGGBW_NDIR];   /* totals at the last sample */
	uint64_t last_ns, next_ns;
};

/* open the three logs (m->opts.bw_log); 0 or -errno, reported */
int sb_aggbw_open(struct sb_monitor *m);
/* a sample when 500 ms have passed since the last (stats thread) */
void sb_aggbw_tick(struct sb_monitor *m, uint64_t now);
/* write the files into place (ok) or drop them; 0 or -EIO (reported) */
int sb_aggbw_close(struct sb_monitor *m, bool ok);
#endif
