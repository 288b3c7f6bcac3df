/* infile.h: the one reader for every file a user hands storbench to read
 * (job files and their includes, kv_trace=, read_iolog=, verify state,
 * results JSON, results trees, report/compare/analyze/validate inputs).
 * Rules, the same for all: a regular file only (a FIFO, a device, a socket
 * or a directory is refused before a byte is read, unless the kind says a
 * FIFO is documented, as read_iolog= is), at most the kind's size cap,
 * lines at most the kind's line bound, and inside a results tree no
 * symlink followed (O_NOFOLLOW, fstatat(AT_SYMLINK_NOFOLLOW)).  Every file
 * opened is recorded as an input of the run (os/inputs.h) so the writer
 * gate refuses to write over it.  Refusals come back as -errno with a
 * message in why that names the file, what is wrong and what is accepted:
 *   -ENOTSUP   not a regular file (kind refused)
 *   -EFBIG     over the kind's size cap
 *   -EOVERFLOW a line longer than the kind's bound (names FILE:LINE)
 *   -ELOOP     a symlink where none is followed (SB_IN_NOFOLLOW) */
#ifndef SB_OS_INFILE_H
#define SB_OS_INFILE_H
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* what a file is read as: its name in messages, caps and what it accepts */
struct sb_inkind {
	const char *what;  /* "job file", "results JSON", ... */
	uint64_t max;      /* size cap, bytes */
	size_t line_max;   /* longest line, bytes (line-oriented kinds), else 0 */
	unsigned flags;    /* SB_IN_FIFO_OK */
};
#define SB_IN_FIFO_OK 1u   /* a FIFO is read (documented for the option) */

extern const struct sb_inkind sb_in_jobfile;  /* job files + includes: 16 MiB in all */
extern const struct sb_inkind sb_in_json;     /* results JSON: 1 GiB */
extern const struct sb_inkind sb_in_kvtrace;  /* kv_trace=: 1 GiB (read whole) */
extern const struct sb_inkind sb_in_trace;    /* analyze inputs (streamed): 1 TiB */
extern const struct sb_inkind sb_in_iolog;    /* read_iolog=: 16 GiB, lines 8 KiB, FIFO ok */
extern const struct sb_inkind sb_in_vstate;   /* verify state: 1 GiB */
extern const struct sb_inkind sb_in_awscred;  /* ~/.aws/credentials (ioengine=s3): 1 MiB */
extern const struct sb_inkind sb_in_tree;     /* small text in a results tree: 64 MiB, lines 64 KiB */
extern const struct sb_inkind sb_in_runlog;   /* a log this run wrote, read back: 1 TiB */

/* open flags */
#define SB_IN_NOFOLLOW 1u  /* the last component must not be a symlink (trees) */
#define SB_IN_NORECORD 2u  /* storbench's own bookkeeping it may rewrite later in the
			    * run (a verify state looked at, not loaded): not an input */

/* Open path for reading as kind k: checks, records the input; an fd or
 * -errno (why says it).  A documented FIFO is opened as fio opens it (the
 * open waits for a writer). */
int sb_in_open(const char *path, const struct sb_inkind *k, unsigned flags, char *why, size_t wlen);
/* The whole file, NUL-terminated (it may hold NUL bytes: *len counts
 * them), at most min(k->max, room) bytes; NULL with the reason in why and
 * -errno in *err (err may be NULL). */
char *sb_in_read(const char *path, const struct sb_inkind *k, unsigned flags, uint64_t room,
		 size_t *len, int *err, char *why, size_t wlen);
/* A stdio stream on the checked file that fails with EFBIG past the cap
 * (for readers written with stdio).  NULL with errno set and why filled. */
FILE *sb_in_fopen(const char *path, const struct sb_inkind *k, unsigned flags, char *why, size_t wlen);

/* a line-oriented input: lines at most k->line_max bytes */
struct sb_inlines {
	FILE *f;
	const char *path;
	const struct sb_inkind *k;
	unsigned long line;  /* number of the line last returned (1-based) */
	char *buf;           /* k->line_max + 2 bytes */
};
int sb_in_lines_open(struct sb_inlines *l, const char *path, const struct sb_inkind *k,
		     unsigned flags, char *why, size_t wlen);
/* The next line (with its '\n', NUL-terminated) in *line, its length in
 * *len: 1, 0 at the end, -errno (-EOVERFLOW: a line longer than the bound,
 * why names FILE:LINE and the bound). */
int sb_in_getline(struct sb_inlines *l, char **line, size_t *len, char *why, size_t wlen);
void sb_in_lines_close(struct sb_inlines *l);

/* A folder of a results tree: opened without following a symlink at its
 * last component (follow = 1 for the folder the user named).  NULL with
 * errno set and why filled. */
DIR *sb_in_opendir(const char *path, int follow, char *why, size_t wlen);
/* What name in the folder d is, not following a symlink: 0 or -errno. */
int sb_in_entry(DIR *d, const char *name, struct stat *st);
/* A JSON document read as kind k (sb_in_json for results) and parsed
 * (sb_json_parse_doc, lib/jsonr.h): 0, or -errno with doc->err set
 * (the reader's refusal, a read error or "line L, column C: ..."). */
struct sb_json;
int sb_in_json_load(struct sb_json *doc, const char *path, const struct sb_inkind *k, unsigned flags);
/* what a file that is not a regular file is, for messages ("a FIFO") */
const char *sb_in_kind_name(mode_t m);
#endif
