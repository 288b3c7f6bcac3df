/* option.h: the row type of the option table (parse/options.c) and of the
 * engines' own option tables (engines/<name>.c): name, aliases, type, offset into
 * the struct that holds the value, default, bounds, unit, category and help.
 * Plain data; parse/ interprets it. */
#ifndef SB_LIB_OPTION_H
#define SB_LIB_OPTION_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sb_opt_type {
	SB_OT_STR,         /* char *, owned by the spec */
	SB_OT_NAME,        /* char[SB_NAME_MAX] */
	SB_OT_ENGINE,      /* char[SB_ENGINE_NAME_MAX], checked against the engines handed to the parser */
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
/* SB_OT_SIZE that also takes a percentage N% (of the file's size), stored
 * as a double at off2 (0: the bytes at off apply) */
#define SB_OF_PCT 0x20u
/* SB_OT_SIZE that also takes fio's zone count Nz (N zones of zonesize),
 * stored as a uint64_t at off2, or at off3 when off2 holds the percentage
 * (SB_OF_PCT too) (0: the bytes at off apply) */
#define SB_OF_ZONES 0x40u
/* a row of a workload with its own options struct (parse/workloads.h) whose
 * field is in struct sb_jobspec, not in that struct: an option other
 * workloads read too (model=, checkpoint_folder=...); its offset is the
 * spec's and stays as it is */
#define SB_OF_SPEC 0x80u

/* The headings the options are grouped under, in --cmdhelp and HOWTO order
 * (names: sb_opt_cat_name in parse/options.h) */
enum sb_opt_cat {
	SB_CAT_DESC, SB_CAT_FILE, SB_CAT_IO, SB_CAT_BS, SB_CAT_ENG, SB_CAT_TIME, SB_CAT_GRP,
	SB_CAT_RAND, SB_CAT_RATE, SB_CAT_SAFE, SB_CAT_STAT, SB_CAT_ML, SB_CAT_CKPT, SB_CAT_TRAIN,
	SB_CAT_LOG, SB_CAT_SWEEP, SB_CAT_VERIFY, SB_CAT_KV, SB_CAT_N
};

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
	size_t off3;                   /* SB_OF_ZONES with SB_OF_PCT: the zone count's field */
	const char *def;               /* default, as text parsed like user input; NULL: 0 / unset */
	int64_t min, max;              /* bounds (ints; min for sizes); max 0: none */
	uint64_t unit_us;              /* SB_OT_TIME: microseconds per bare number */
	const char *unit;              /* for help: "bytes", "s", "%", ... (NULL: none) */
	const struct sb_opt_enum *enums;
	unsigned flags;                /* SB_OF_* */
	enum sb_opt_cat category;
	const char *help;              /* one line */
};

/* Whether a row of a workload's own options struct (parse/workloads.h) may
 * have type t: every type but the two that name the spec itself (engine=,
 * whose value is checked against the engine list, and bssplit=, stored in
 * the spec's block-size set) */
static inline bool sb_opt_wl_type_ok(enum sb_opt_type t)
{
	return t != SB_OT_ENGINE && t != SB_OT_BSSPLIT;
}

/* Whether row o stores a second value at off2 (which a module's offsets
 * must then cover too) */
static inline bool sb_opt_uses_off2(const struct sb_option *o)
{
	switch (o->type) {
	case SB_OT_SIZE_RANGE: case SB_OT_RANGE_SPLIT: case SB_OT_BSSPLIT:
	case SB_OT_PCTL_LIST: case SB_OT_DIST:
		return true;
	case SB_OT_SIZE:
		return (o->flags & (SB_OF_PCT | SB_OF_ZONES)) != 0;
	case SB_OT_SIZE_SPLIT: case SB_OT_INT_SPLIT:
		return o->off2 != 0;
	default:
		return false;
	}
}

/* Whether a row of an engine's own options struct (parse/options.h) may
 * have type t: plain values the spec copies as bytes (bool, int, unsigned,
 * u64, size, time, enum) and text (char *, owned, copied and freed by the
 * spec as its own text options) */
static inline bool sb_opt_module_type_ok(enum sb_opt_type t)
{
	return t == SB_OT_BOOL || t == SB_OT_INT || t == SB_OT_UINT || t == SB_OT_U64 ||
	       t == SB_OT_SIZE || t == SB_OT_TIME || t == SB_OT_ENUM || t == SB_OT_STR;
}

/* Bytes a row of type t holds at its offset (off; off2 not counted), for
 * the checks that a row lies inside its struct; 0 for the types whose
 * value is not one plain field */
static inline size_t sb_opt_value_size(enum sb_opt_type t)
{
	switch (t) {
	case SB_OT_BOOL: return sizeof(bool);
	case SB_OT_INT: case SB_OT_UINT: case SB_OT_ENUM: return sizeof(unsigned);
	case SB_OT_U64: case SB_OT_SIZE: case SB_OT_TIME: return sizeof(uint64_t);
	case SB_OT_FLOAT: return sizeof(double);
	case SB_OT_STR: return sizeof(char *);
	default: return 0;
	}
}
#endif
