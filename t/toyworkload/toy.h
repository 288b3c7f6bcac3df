/* toy.h: the toy workload (t/test-toyworkload.sh adds it as ml/toy/ to a
 * copy of the tree): writes toy_files files of toy_size bytes, then
 * toy_rounds - 1 times their first toy_ratio, toy_pause apart, through the
 * job's engine; removes them unless toy_keep=1; its result carries
 * toy_label.  Its options live in its own struct, its result in its own. */
#ifndef SB_ML_TOY_H
#define SB_ML_TOY_H
#include <stdbool.h>
#include <stdint.h>

#include "run/workload.h"

struct sb_toy_opts {
	unsigned files;
	uint64_t size;      /* bytes */
	unsigned rounds;
	uint64_t pause_us;
	bool keep;
	char *label;        /* owned by the spec */
	double ratio;       /* of each file written in the rounds after the first */
};

extern const struct sb_option sb_toy_rows[];
extern const unsigned sb_toy_rows_n;
extern const struct sb_wl_conformance sb_toy_conformance;
extern const struct sb_workload_ops sb_workload_toy;
unsigned sb_toy_check(struct sb_jobctx *c);
/* the job's result: the workload's own, behind its figures */
struct sb_wl_result *sb_toy_result_new(void);
void sb_toy_result_count(struct sb_wl_result *r, unsigned files, uint64_t bytes);
void sb_toy_result_label(struct sb_wl_result *r, const char *label);
#endif
