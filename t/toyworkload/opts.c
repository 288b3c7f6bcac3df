/* opts.c: the toy workload's option rows, into struct sb_toy_opts, and its
 * parse-time check. */
#include <stddef.h>

#include "lib/log.h"
#include "ml/toy/toy.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/workloads.h"

#define OFF(f) offsetof(struct sb_toy_opts, f)

const struct sb_option sb_toy_rows[] = {
	{ .name = "toy_files", .type = SB_OT_UINT, .off = OFF(files), .def = "2", .min = 1, .max = 64,
	  .unit = "files", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "toy: files written each round" },
	{ .name = "toy_size", .type = SB_OT_SIZE, .off = OFF(size), .def = "64k", .min = 4096,
	  .unit = "bytes", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "toy: bytes of each file" },
	{ .name = "toy_rounds", .type = SB_OT_UINT, .off = OFF(rounds), .def = "1", .min = 1,
	  .max = 1000000, .unit = "rounds", .flags = SB_OF_ML, .category = SB_CAT_ML,
	  .help = "toy: times the files are written" },
	{ .name = "toy_pause", .type = SB_OT_TIME, .off = OFF(pause_us), .def = "0", .unit_us = 1000000,
	  .unit = "s", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "toy: pause before each round" },
	{ .name = "toy_keep", .type = SB_OT_BOOL, .off = OFF(keep), .def = "0", .flags = SB_OF_ML,
	  .category = SB_CAT_ML, .help = "toy: keep the files at the end" },
	{ .name = "toy_label", .type = SB_OT_STR, .off = OFF(label), .def = "toy", .flags = SB_OF_ML,
	  .category = SB_CAT_ML, .help = "toy: a label its result carries" },
	{ .name = "toy_ratio", .type = SB_OT_FLOAT, .off = OFF(ratio), .def = "1", .min = 0, .max = 1,
	  .unit = "fraction", .flags = SB_OF_ML, .category = SB_CAT_ML,
	  .help = "toy: part of each file rewritten after the first round" },
};
const unsigned sb_toy_rows_n = sizeof(sb_toy_rows) / sizeof(sb_toy_rows[0]);

unsigned sb_toy_check(struct sb_jobctx *c)
{
	const struct sb_toy_opts *o = sb_spec_wl_opts(&c->spec);
	if (!o || o->size % 4096 == 0)
		return 0;
	char where[SB_WHERE_MAX];
	sb_err(sb_job_where(c, sb_option_find("toy_size"), where, sizeof(where)),
	       "toy_size=%llu: not a multiple of 4096; use 4k steps", (unsigned long long)o->size);
	return 1;
}
