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

#include "lib/option.h"
#include "parse/jobspec.h"

/* SB_OPT_MAX (jobspec.h): upper bound on rows (per-job bookkeeping arrays) */

/* The row type (struct sb_option, enum sb_opt_type, SB_OF_* flags) is in
 * lib/option.h, so that engines can declare their own rows. */

const char *sb_opt_cat_name(enum sb_opt_cat c);

/* The engines the parser knows, handed in by the layer above (storbench.c,
 * tests and fuzz harnesses: sb_run_engines_to_parser in run/engtable.h), so
 * that parse/ calls no engine code.  Each engine's option rows have offsets
 * into its own options struct (opts_size bytes), which lives in the spec's
 * engine_opts area; the rows join the table after the last row of their
 * category. */
struct sb_parse_engine {
	const char *name;
	const char *package;             /* not built: the package that would enable it; NULL: built */
	const struct sb_option *options; /* its rows (offsets into its options struct), may be NULL */
	unsigned noptions;
	size_t opts_size;                /* bytes of its options struct */
	bool sync;                       /* its queue() always completes (SB_ENGINE_SYNC):
					  * it runs at depth 1 (sb_spec_derive) */
	/* its checks of a job (struct sb_engine_ops.check), NULL: none */
	int (*check)(const void *opts, const char *filename, const char *directory, bool io_job,
		     const char **opt, char *why, size_t wlen);
};
/* Copies the list (not the rows, which must outlive parsing).  -EINVAL when
 * the rows do not fit (SB_OPT_MAX, SB_ENGINE_OPTS_MAX) or use a type other
 * than bool, int, unsigned, u64, size, time or enum. */
int sb_parse_set_engines(const struct sb_parse_engine *e, unsigned n);
/* The engines as handed in, for --enghelp=ENGINE; NULL when i >= count. */
const struct sb_parse_engine *sb_parse_engine_at(unsigned i);
const struct sb_parse_engine *sb_parse_engine_find(const char *name);
/* Built engines as "a, b, c" into buf. */
void sb_parse_engine_names(char *buf, size_t len);
/* The options struct of the spec's ioengine (NULL when it has none). */
const void *sb_spec_engine_opts(const struct sb_jobspec *s);
/* Whether o is one of the options of the spec's ioengine. */
bool sb_spec_engine_owns(const struct sb_jobspec *s, const struct sb_option *o);
/* The engines' rows as they join the table (for options.c): n rows, listed
 * from table position at on. */
const struct sb_option *sb_parse_engine_rows(unsigned *n, unsigned *at);
/* The table row of engine option i of engine e (offset into the spec). */
const struct sb_option *sb_engine_option_row(const struct sb_parse_engine *e, unsigned i);

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
/* why storbench refuses fio option `name` on purpose, with the storbench way
 * where there is one (fio_refused.c); NULL when it is not refused so */
const char *sb_option_refusal(const char *name);
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
