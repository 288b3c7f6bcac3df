/* tools/rcmp.h: the model behind `storbench compare` (tools/compare.c):
 * results read back from storbench's or fio's JSON into sides (one side per
 * command-line argument or --runs group), each a list of named entries (jobs,
 * sweep points) whose rows (direction x metric) hold one sample per
 * repetition; the matching of entries across sides and the noise rule. */
#ifndef SB_TOOLS_RCMP_H
#define SB_TOOLS_RCMP_H

#include <stddef.h>

/* the rows a table can have, in the order they are printed */
enum sb_rcmp_rowid {
	SB_RCMP_R_IOPS, SB_RCMP_R_BW, SB_RCMP_R_P50, SB_RCMP_R_P99, SB_RCMP_R_P999,
	SB_RCMP_W_IOPS, SB_RCMP_W_BW, SB_RCMP_W_P50, SB_RCMP_W_P99, SB_RCMP_W_P999,
	SB_RCMP_T_IOPS, SB_RCMP_T_BW, SB_RCMP_T_P50, SB_RCMP_T_P99, SB_RCMP_T_P999,
	/* unified_rw_reporting=mixed|both: the merged direction */
	SB_RCMP_M_IOPS, SB_RCMP_M_BW, SB_RCMP_M_P50, SB_RCMP_M_P99, SB_RCMP_M_P999,
	SB_RCMP_CPU_PER_IO,
	SB_RCMP_CKPT_WRITE, SB_RCMP_CKPT_READ,
	SB_RCMP_TRAIN_AU, SB_RCMP_TRAIN_MBPS,
	SB_RCMP_NROWS
};

struct sb_rcmp_rowdef {
	const char *group;   /* "read", "write", "trim", "job", "checkpoint", "train" */
	const char *metric;  /* JSON name: "iops", "bw_bytes", "clat_p50_ns", ... */
	const char *unit;    /* unit of the JSON figure */
	const char *label;   /* text table: metric and its unit there */
	double text_scale;   /* text figure = JSON figure * text_scale */
};
extern const struct sb_rcmp_rowdef sb_rcmp_rows[SB_RCMP_NROWS];

/* the samples of one row: one per repetition (run, sweep repetition,
 * checkpoint, epoch) */
struct sb_rcmp_stat {
	double *v;
	size_t n, cap;
};

struct sb_rcmp_entry {
	char *name;
	struct sb_rcmp_stat row[SB_RCMP_NROWS];
};

struct sb_rcmp_side {
	char label[4];          /* "A", "B", ... */
	const char **files;     /* the result files of this side (argv strings) */
	size_t nfiles;
	struct sb_rcmp_entry *e;
	size_t ne;
};

/* Reads one result file (storbench or fio JSON) into SIDE, adding its
 * samples to the entries of the same name.  0, or -1 after printing an
 * error naming the file (cannot be read, not JSON, not a result); -2 when
 * the one reader refuses it as not a regular file (a FIFO, a device). */
int sb_rcmp_load(struct sb_rcmp_side *side, const char *path);
/* appends a sample to an entry's row (creates the entry); -ENOMEM */
int sb_rcmp_add(struct sb_rcmp_side *side, const char *name, enum sb_rcmp_rowid row, double v);
void sb_rcmp_side_free(struct sb_rcmp_side *side);

/* how entry i of the reference side A found its partner in side B */
enum sb_rcmp_how { SB_RCMP_NONE, SB_RCMP_BY_NAME, SB_RCMP_BY_POSITION };
struct sb_rcmp_match {
	long b;                 /* index into B's entries, -1 if none */
	enum sb_rcmp_how how;
};
/* Matches A's entries with B's: by name first; then, when as many
 * entries are left over on both sides, the left-over ones pair in order
 * (by position).  m[] has a->ne elements; *b_used (b->ne flags, may be NULL)
 * tells which of B's entries found a partner.  Returns the number of pairs. */
size_t sb_rcmp_match(const struct sb_rcmp_side *a, const struct sb_rcmp_side *b,
		     struct sb_rcmp_match *m, unsigned char *b_used);

struct sb_rcmp_sum {
	double mean, min, max;
	size_t n;
};
struct sb_rcmp_sum sb_rcmp_summary(const double *v, size_t n);

enum sb_rcmp_verdict { SB_RCMP_UNJUDGED, SB_RCMP_NOISE, SB_RCMP_DIFF };
/* The noise rule: B versus A is noise when the mean of one side lies within
 * the band of the other, a side's band being the min..max of its samples
 * widened by tol (a fraction: 0.01 = 1%) on both ends; only a side with two
 * samples or more has a band.  Without any band it cannot be judged. */
enum sb_rcmp_verdict sb_rcmp_verdict(const double *a, size_t na, const double *b, size_t nb,
				     double tol);
const char *sb_rcmp_verdict_name(enum sb_rcmp_verdict v);

#endif
