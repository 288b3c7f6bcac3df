/* ini.h: the job-file pre-pass.  Reads fio-style job-file text (comments,
 * bare keys, include FILE, ${VAR}, several [global] sections), keeps every
 * option's file:line and order, normalizes the text for libiniparser and takes
 * the values back from it.  The result is a list of sections in file order. */
#ifndef SB_INI_H
#define SB_INI_H
#include <stdbool.h>
#include <stddef.h>

/* A job file and everything it includes may hold at most this many bytes
 * together; job files must be regular files (not FIFOs, devices or
 * directories).  Documented in HOWTO.md. */
#define SB_JOBFILE_MAX (16u << 20)

struct sb_ini_kv {
	char *key;        /* lowercased, as iniparser stores it */
	char *value;      /* after ${VAR} expansion; "" for a bare key */
	bool bare;        /* written without '=' ("time_based") */
	const char *file; /* owned by struct sb_ini */
	unsigned line;    /* 0: not from a file (command line) */
};

struct sb_ini_section {
	char *name;       /* as written (iniparser would lowercase it) */
	bool global;      /* [global] */
	const char *file;
	unsigned line;
	struct sb_ini_kv *kv; /* in the order first written; a repeated key: later value wins */
	unsigned nkv, cap;
};

struct sb_ini {
	struct sb_ini_section *sec;
	unsigned nsec, cap;
	char **files;     /* names every file/line pointer refers to */
	unsigned nfiles, fcap;
};

/* Pre-pass a job file (and its includes) and append its sections to ini.
 * Reports every error with sb_err("file:line", ...); returns -EINVAL if there
 * was any (the sections parsed so far stay in ini for freeing). */
int sb_ini_parse_file(struct sb_ini *ini, const char *path);
/* Same for text in memory; name is used in messages and for includes. */
int sb_ini_parse_text(struct sb_ini *ini, const char *name, const char *text);
/* Build sections directly (command-line jobs): file is copied. */
struct sb_ini_section *sb_ini_add_section(struct sb_ini *ini, const char *name, const char *file,
					  unsigned line);
/* Add or replace key in sec; value NULL: a bare key. */
int sb_ini_set(struct sb_ini_section *sec, const char *key, const char *value, const char *file,
	       unsigned line);
/* Copy a file name into ini (the pointer stays valid until sb_ini_free). */
const char *sb_ini_intern(struct sb_ini *ini, const char *file);
void sb_ini_free(struct sb_ini *ini);
/* parse/inipack.c: sections [from, nsec) of ini as one buffer (*out, *len;
 * malloc'd), and such a buffer appended to ini's sections */
int sb_ini_pack(const struct sb_ini *ini, unsigned from, char **out, size_t *len);
int sb_ini_unpack(struct sb_ini *ini, const char *p, size_t len);
/* parse/inifile.c: a job file into memory: regular files only (a FIFO or a
 * device could be endless), at most room bytes.  NULL with the reason in why
 * on failure; *len is the byte count (the text may hold NUL bytes). */
char *sb_ini_read_whole(const char *path, size_t room, size_t *len, char *why, size_t wlen);
/* the line (1-based) of the first NUL byte in text[0..len), or 0 for none */
unsigned sb_ini_nul_line(const char *text, size_t len);
/* The first invisible character of line (a zero-width space, a byte-order
 * mark past the file's start, a no-break space, a bidi control: UTF-8):
 * its name ("U+200B ZERO WIDTH SPACE"), its byte offset in *at; NULL for
 * none.  The pre-pass refuses such a line (ini.c). */
const char *sb_ini_invisible(const char *line, size_t *at);
/* "file:line" (or "file" when line is 0) into buf */
const char *sb_ini_where(char *buf, unsigned len, const char *file, unsigned line);
#endif
