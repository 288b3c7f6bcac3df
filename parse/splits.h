/* splits.h: the block-size splits of a job spec (parse/jobspec.h): bssplit's
 * weighted sizes, and cmdprio_bssplit's per-size I/O priorities with the
 * other cmdprio options of libaio and io_uring (parse/check_cmdprio.c). */
#ifndef SB_SPLITS_H
#define SB_SPLITS_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/ddir.h"

struct sb_bssplit {
	uint64_t bs;  /* bytes */
	double pct;   /* share of I/Os, 0..100; entries of one direction sum to 100 */
};

/* one entry of cmdprio's table: pct% of a direction's I/Os of bs bytes (0:
 * of any size) carry ioprio ((class << 13) | level, as ioprio_set) */
#define SB_CMDPRIO_BS_MAX 32
/* distinct priorities a direction's entries may name: the per-priority
 * statistics keep these and the job's own (stats/tstats.h SB_PRIO_MAX) */
#define SB_CMDPRIO_PRIOS_MAX 7
struct sb_cmdprio_bs {
	uint64_t bs;
	unsigned pct;
	unsigned ioprio;
};

/* cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit: [0] reads,
 * [1] writes (trims take none) */
struct sb_cmdprio {
	uint64_t pct[SB_DDIR_N];   /* % of the direction's I/Os given a priority */
	uint64_t cls[SB_DDIR_N];   /* 1-3; 0: 1 (realtime), as fio */
	uint64_t level[SB_DDIR_N]; /* 0-7 */
	char *bssplit;             /* BS/PCT[/CLASS/LEVEL]:...[,...]; NULL: none */
	/* derived (parse/check_cmdprio.c): what the run picks from */
	struct sb_cmdprio_bs bs[2][SB_CMDPRIO_BS_MAX];
	unsigned bs_n[2];
	bool on;                   /* some I/Os of the job get a priority */
};
#endif
