/* options.h: the option table, storbench's single source of truth for job
 * options.  One row per option: name, aliases, type, where it lives in struct
 * sb_jobspec, default, bounds, unit, category and help.  Parsing, defaults,
 * validation messages, --cmdhelp, --parse-only and the HOWTO.md option list
 * all derive from it. */
#ifndef SB_OPTIONS_H
#define SB_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "parse/jobspec.h"

/* SB_OPT_MAX (jobspec.h): upper bound on rows (per-job bookkeeping arrays) */

enum sb_opt_type {
	SB_OT_STR,         /* char *, owned by the spec */
	SB_OT_NAME,        /* char[SB_NAME_MAX] */
	SB_OT_ENGINE,      /* char[SB_ENGINE_NAME_MAX], checked against engines/registry.c */
	SB_OT_SIZE,        /* uint64_t bytes */
	SB_OT_SIZE_RANGE,  /* uint64_t low at off, high at off2 */
	SB_OT_SIZE_SPLIT,  /* uint64_t[SB_DDIR_N] bytes: read[,write[,trim]] */
	SB_OT_INT_SPLIT,   /* uint64_t[SB_DDIR_N] counts: read[,write[,trim]] */
	SB_OT_RANGE_SPLIT, /* uint64_t[SB_DDIR_N] low at off, high at off2 */
	SB_OT_BSSPLIT,     /* struct sb_bssplit[SB_DDIR_N][..] at off, unsigned[SB_DDIR_N] at off2 */
	SB_OT_TIME,        /* uint64_t microseconds; a bare number is in unit_us */
	SB_OT_UINT,        /* unsigned */
	SB_OT_INT,         /* int */
	SB_OT_U64,         /* uint64_t */
	SB_OT_BOOL,        /* bool */
	SB_OT_ENUM,        /* unsigned-sized field, values from enums[] */
	SB_OT_PCTL_LIST,   /* double[SB_PCTL_MAX] at off, unsigned count at off2 */
	SB_OT_DIST,        /* enum sb_dist at off, double parameter at off2 */
	SB_OT_FLOAT,       /* double; min is a lower bound, max (when not 0) an upper bound */
};

/* Flags of a row (struct sb_option.flags). */
/* bool stored inverted (buffered -> direct); unsigned stored as max - value
 * (rwmixwrite -> rwmixread) */
#define SB_OF_INVERSE 0x1u
/* names, orders or records the job (name, stonewall, logs...), not what its
 * I/O does: comparisons (output/cmpopt.c) ignore it */
#define SB_OF_IDENTITY 0x2u
/* a queue-depth option: no effect on a synchronous engine */
#define SB_OF_QDEPTH 0x4u
/* an ML workload option (workload=checkpoint/train): I/O comparisons ignore it */
#define SB_OF_ML 0x8u
/* one part of the block-size set (bsrange, bssplit): shown and compared
 * through the bs row, whose text is the whole set */
#define SB_OF_INBS 0x10u

/* The headings the options are grouped under, in --cmdhelp and HOWTO order */
enum sb_opt_cat {
	SB_CAT_DESC, SB_CAT_FILE, SB_CAT_IO, SB_CAT_BS, SB_CAT_ENG, SB_CAT_TIME, SB_CAT_GRP,
	SB_CAT_RAND, SB_CAT_RATE, SB_CAT_SAFE, SB_CAT_STAT, SB_CAT_ML, SB_CAT_CKPT, SB_CAT_TRAIN,
	SB_CAT_LOG, SB_CAT_SWEEP, SB_CAT_N
};
const char *sb_opt_cat_name(enum sb_opt_cat c);

struct sb_opt_enum {
	const char *name;
	unsigned val;
	const char *help;
	bool alias;   /* another name of an earlier value: never written back */
};

struct sb_option {
	const char *name;
	const char *alias[3];          /* NULL-terminated (at most 2) */
	enum sb_opt_type type;
	size_t off, off2;
	const char *def;               /* default, as text parsed like user input; NULL: 0 / unset */
	int64_t min, max;              /* bounds (ints; min for sizes); max 0: none */
	uint64_t unit_us;              /* SB_OT_TIME: microseconds per bare number */
	const char *unit;              /* for help: "bytes", "s", "%", ... (NULL: none) */
	const struct sb_opt_enum *enums;
	unsigned flags;                /* SB_OF_* */
	enum sb_opt_cat category;
	const char *help;              /* one line */
};

/* The row of the option stored at field f of struct sb_jobspec: resolved
 * from offsetof, so a misspelt field is a compile error, not a lookup that
 * fails at run time.  The field is the row's off (bsrange: bs_min, filesize:
 * filesize_min); SB_OPT_INV names the inverse row sharing it (rwmixwrite:
 * SB_OPT_INV(rwmixread), buffered: SB_OPT_INV(direct)). */
#define SB_OPT(f) sb_option_of(offsetof(struct sb_jobspec, f), 0)
#define SB_OPT_INV(f) sb_option_of(offsetof(struct sb_jobspec, f), SB_OF_INVERSE)
/* the row at offset off (inverse: SB_OF_INVERSE or 0); a field without a
 * row is a bug in storbench: it says so and aborts */
const struct sb_option *sb_option_of(size_t off, unsigned inverse);

/* Iterate: for (i = 0; i < sb_options_count(); i++) sb_option_at(i) */
unsigned sb_options_count(void);
const struct sb_option *sb_option_at(unsigned i);
unsigned sb_option_index(const struct sb_option *o);
/* by name or alias, case-insensitive; NULL if unknown */
const struct sb_option *sb_option_find(const char *name);
/* the closest option name or alias by edit distance, or NULL if none is close */
const char *sb_option_suggest(const char *name);
/* true for fio options that storbench does not implement */
bool sb_option_fio_only(const char *name);
const char *sb_opt_type_name(enum sb_opt_type t);
/* Case-insensitive edit distance of two names (for "did you mean" lists). */
unsigned sb_option_distance(const char *a, const char *b);

/* Parse val (bare: written without '=') into s.  0 or -EINVAL with a message
 * in err (SB_VERR_LEN bytes) naming the bad value and what is accepted. */
int sb_option_set(const struct sb_option *o, struct sb_jobspec *s, const char *val, bool bare,
		  char *err);
/* Fill every field of s with its default (s is zeroed first). */
int sb_spec_defaults(struct sb_jobspec *s);
/* Deep copy of the option fields (owned strings duplicated); opts not copied. */
int sb_spec_copy(struct sb_jobspec *dst, const struct sb_jobspec *src);
/* Free what a spec owns (strings and opts). */
void sb_spec_release(struct sb_jobspec *s);
/* Resolved value of option o in s, for --parse-only ("4096 (4 KiB)"). */
void sb_option_format(const struct sb_option *o, const struct sb_jobspec *s, char *buf, size_t len);
/* The value of option o in s in job-file syntax, such that equal settings
 * give equal text however they were written ("4k" and "4096", an explicit
 * default and none): "4k", "1s", "randread", "4k/50:64k/50".  bs gives the
 * job's block-size set (bs, bsrange or bssplit).  Used by comparisons. */
void sb_option_text(const struct sb_option *o, const struct sb_jobspec *s, char *buf, size_t len);
/* The name of value v of enum row o (the first that is not an alias), or NULL */
const char *sb_option_enum_name(const struct sb_option *o, unsigned v);
/* The accepted form of a value, e.g. "size (4k, 1m)" or "read|write|..." */
void sb_option_accepts(const struct sb_option *o, char *buf, size_t len);

/* The option list in Markdown, grouped by category (HOWTO.md's source). */
void sb_options_markdown(FILE *f);

/* fio option names storbench does not implement (fio_names.c) */
extern const char *const sb_fio_only_names[];
#endif
