/* tools/trace_agg.h: what `storbench analyze` adds up from a trace's events
 * (tools/analyze.c): per operation, per category, per rank (pid, or pid
 * and args "rank") and per
 * file and rank, and the file-name hashes (FH metadata) seen.  One
 * aggregate per worker thread, merged at the end; its size grows with the
 * distinct operations, ranks and files, never with the number of events. */
#ifndef SB_TOOLS_TRACE_AGG_H
#define SB_TOOLS_TRACE_AGG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jsonr.h"

struct ta_stat {
	uint64_t n, bytes;
	double dur_us;
};

/* A rank: the event's pid, or, when its args carry "rank" (ranks that are
 * threads of one pid, as storbench's checkpoint ranks), pid and rank in
 * one number: (rank + 1) << 32 | pid.  ta_who makes it; TA_PID and
 * TA_RANK (-1: none) take it apart. */
int64_t ta_who(int64_t pid, int64_t rank);
#define TA_PID(w) ((w) >> 32 > 0 ? (int64_t)((uint64_t)(w) & 0xffffffffu) : (w))
#define TA_RANK(w) ((w) >> 32 > 0 ? ((w) >> 32) - 1 : -1)

struct ta_ent {
	char *key;                 /* owned */
	char *val;                 /* fh map: the file name (owned) */
	int64_t pid;               /* ranks and files: ta_who's rank */
	uint64_t h;
	struct ta_stat s, app;     /* ranks: s = I/O, app = application events */
	double first_us, last_us;  /* ranks: first start, last end */
};

struct ta_tab {
	struct ta_ent *e;
	size_t cap, n;
	unsigned gen;              /* grows when the entries move */
};

struct ta_cache {
	struct ta_ent *e;
	unsigned gen;
};

struct ta_filter {
	const char *cat[16], *name[16], *prefix[16];
	unsigned ncat, nname, nprefix;
	double t0, t1;             /* ts window in us; t1 < 0: none */
	bool any;
};

/* fields of complete events that could not be used (counted, and said on
 * stderr, instead of adding up zeros): TA_NOBYTES counts read/write events
 * with neither args.size nor args.count */
enum { TA_BAD_TS, TA_BAD_DUR, TA_BAD_PID, TA_BAD_SIZE, TA_BAD_COUNT, TA_BAD_RET, TA_BAD_RANK,
       TA_NOBYTES, TA_NBAD };
extern const char *const ta_bad_field[TA_NBAD];

struct ta_agg {
	/* fh: file-name hash -> its name(s) in val, '\n'-separated; s.n: how
	 * many distinct names (more than 1: the hash collides) */
	struct ta_tab ops, cats, ranks, files, fh;
	uint64_t events, meta, other, skipped;
	uint64_t bad[TA_NBAD];
	double first_us, last_us;  /* over counted events */
	struct sb_json doc;
	const struct ta_filter *flt;
	const struct ta_tab *names; /* file names known before (filter by prefix), or NULL */
	/* the entries the last event used (valid while their table's gen holds) */
	struct ta_cache last_op, last_cat, last_rank, last_file;
	int64_t last_fh;           /* the last integer fhash, and its text in last_fhs */
	char last_fhs[24];
};

void ta_init(struct ta_agg *a, const struct ta_filter *f);
void ta_free(struct ta_agg *a);
/* One line of a trace (without its newline).  Returns 0, or -EINVAL with
 * a->doc.err set (bad JSON, or not an event object), -ENOMEM. */
int ta_line(struct ta_agg *a, const char *s, size_t n);
/* Adds src into dst. -ENOMEM */
int ta_merge(struct ta_agg *dst, const struct ta_agg *src);
/* An entry's lookup (creating it); NULL on -ENOMEM. */
struct ta_ent *ta_get(struct ta_tab *t, const char *key, size_t klen, int64_t pid);
const struct ta_ent *ta_find(const struct ta_tab *t, const char *key, int64_t pid);
/* I/O (POSIX, STDIO and the like) rather than an application phase */
bool ta_is_io(const char *cat);
/* a file class of path name, into buf: its first keep bytes as they are
 * (the directory every file of the trace is under: ta_common_dir), then
 * without digits: "/lustre3/ckpt/global_epoch1_step2/f12.pt" with keep 9
 * -> "/lustre3/ckpt/global_epoch_step/f.pt" */
void ta_class(const char *name, size_t keep, char *buf, size_t len);
/* the length of the directory a and b are both under, "/" included, at
 * most upto: ("/l3/a/x", "/l3/b/y", -1) -> 4 ("/l3/") */
size_t ta_common_dir(const char *a, const char *b, size_t upto);
#endif
