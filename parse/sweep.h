/* sweep.h: parameter sweeps in job files.  A section (or [global]) declares
 * value lists with keys prefixed "sweep.":
 *
 *     sweep.bs      = 128k | 256k | 1m
 *     sweep.iodepth = 4 | 16 | 32
 *     sweep.iodepth_batch_complete_min = 1 | @iodepth
 *
 * '|' separates values (fio never uses it in values; commas keep fio's
 * read,write meaning inside one value).  "@OPT" is OPT's value in the same
 * point.  The cartesian product of the lists gives the points, the
 * first-listed option varying slowest.  Each point's jobs are parsed and
 * validated exactly like a job file with those values written in, so a bad
 * value is a file:line error before anything runs. */
#ifndef SB_SWEEP_PARSE_H
#define SB_SWEEP_PARSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "parse/jobspec.h"
#include "parse/options.h"

#define SB_SWEEP_PREFIX "sweep."
#define SB_SWEEP_MAX_POINTS 10000

struct sb_sweep_dim {
	char *name;                 /* the option as written after "sweep." (lowercase) */
	const struct sb_option *opt;
	char **values;              /* as written, trimmed; "@opt" references kept */
	unsigned nvalues;
	const char *file;           /* the sweep.* line */
	unsigned line;
	unsigned section;           /* pre-pass section index (parser use) */
	bool global;                /* declared in [global]: applies to the jobs after it */
};

struct sb_sweep_point {
	char **values;              /* one per dimension, "@opt" resolved */
	struct sb_joblist jl;       /* this point's jobs, validated like any job file */
};

struct sb_sweep {
	struct sb_sweep_dim *dims;
	unsigned ndims;
	struct sb_sweep_point *points; /* npoints = product of the list lengths */
	size_t npoints;
};

void sb_sweep_free(struct sb_sweep *sw);
/* --parse-only: the number of points and each point's values */
void sb_sweep_print(FILE *f, const struct sb_sweep *sw);
/* point p's values as "bs=128k<sep>iodepth=4"; returns buf */
char *sb_sweep_point_str(const struct sb_sweep *sw, size_t p, const char *sep, char *buf,
			 size_t len);

/* Parser hooks (parse/job.c).  begin: takes the sweep.* keys out of the
 * pre-passed sections, checks every listed value against the option table
 * and writes the first point's values in (so the ordinary conversion of ini
 * yields point 1).  Reports each error at its file:line; returns the error
 * count; *out is NULL when the file has no sweep. */
struct sb_ini;
unsigned sb_sweep_begin(const struct sb_joblist *jl, struct sb_ini *ini, struct sb_sweep **out,
			const char *what);
/* expand: after jl was converted from ini, converts every point into its own
 * job list and hands sw to jl (or frees it when failed or on an error).
 * Returns the error count. */
unsigned sb_sweep_expand(struct sb_joblist *jl, struct sb_ini *ini, struct sb_sweep *sw,
			 bool failed, const char *what);
#endif
