/* check_replay.c: validation of the job hooks (exec_prerun, exec_postrun:
 * refused unless the command line says --allow-exec) and of fio's I/O logs
 * (read_iolog and its replay_* options, write_iolog).  A read_iolog is read
 * here, before anything touches a disk: a bad line is an error naming the
 * log's line, and the files it names become the job's files (filename=),
 * so a replay goes through the same file planning and data-safety checks
 * as any job (run/files.c, run/bdev.c).  The run reads the entries again
 * (run/replay.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/inputs.h"
#include "os/outfile.h"
#include "lib/iologfmt.h"
#include "lib/log.h"
#include "os/infile.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static bool allow_exec;

void sb_parse_allow_exec(bool on)
{
	allow_exec = on;
}

static unsigned check_exec(const struct sb_jobctx *c)
{
	const struct sb_option *os[2] = { SB_OPT(exec_prerun), SB_OPT(exec_postrun) };
	const char *v[2] = { c->spec.exec_prerun, c->spec.exec_postrun };
	char where[SB_WHERE_MAX];
	unsigned n = 0;
	for (unsigned i = 0; i < 2; i++) {
		if (!v[i] || allow_exec)
			continue;
		sb_err(sb_job_where(c, os[i], where, sizeof(where)),
		       "%s=%s: the job file asks to run a shell command, which storbench does only when "
		       "the command line says so: run with --allow-exec if you trust this job file, or "
		       "remove %s", os[i]->name, v[i], os[i]->name);
		n++;
	}
	if (!allow_exec && !strcmp(c->spec.ioengine, "exec")) { /* it runs program= */
		sb_err(sb_job_where(c, SB_OPT(ioengine), where, sizeof(where)),
		       "ioengine=exec: the job file asks to run a program, which storbench does only "
		       "when the command line says so: run with --allow-exec if you trust this job "
		       "file, or remove the job");
		n++;
	}
	return n;
}

static unsigned check_skip(struct sb_jobctx *c)
{
	static const struct { const char *n; unsigned m; } k[] = {
		{ "read", 1u << SB_DDIR_READ }, { "write", 1u << SB_DDIR_WRITE },
		{ "trim", 1u << SB_DDIR_TRIM },
		{ "sync", 1u << SB_DDIR_SYNC | 1u << SB_DDIR_DATASYNC },
	};
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], buf[256];
	s->replay_skip_mask = 0;
	if (!s->replay_skip)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s->replay_skip);
	for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		unsigned i;
		for (i = 0; i < 4 && strcmp(w, k[i].n); i++)
			;
		if (i == 4) {
			sb_err(sb_job_where(c, SB_OPT(replay_skip), where, sizeof(where)),
			       "%s=%s: '%s' is not an I/O type: expected a comma list of read, write, "
			       "trim, sync, e.g. %s=write,trim", SB_OPT(replay_skip)->name,
			       s->replay_skip, w, SB_OPT(replay_skip)->name);
			return 1;
		}
		s->replay_skip_mask |= k[i].m;
	}
	return 0;
}

/* what a log holds, and what it sets in the spec */
struct scan {
	char **names;
	size_t nnames;
	uint64_t *extent;                /* per name: end of its last I/O */
	uint64_t maxlen[SB_DDIR_N];
	unsigned long nio[SB_DDIR_N], nsync;
};

static long name_index(struct scan *sc, const struct sb_iolog_rec *r, bool add)
{
	for (size_t i = 0; i < sc->nnames; i++)
		if (strlen(sc->names[i]) == r->name_len && !memcmp(sc->names[i], r->name, r->name_len))
			return (long)i;
	if (!add)
		return -1;
	char **nn = realloc(sc->names, (sc->nnames + 1) * sizeof(*nn));
	uint64_t *ne = nn ? realloc(sc->extent, (sc->nnames + 1) * sizeof(*ne)) : NULL;
	if (nn)
		sc->names = nn;
	if (ne)
		sc->extent = ne;
	if (!nn || !ne || !(sc->names[sc->nnames] = strndup(r->name, r->name_len)))
		return -ENOMEM;
	sc->extent[sc->nnames] = 0;
	return (long)sc->nnames++;
}

static void scan_free(struct scan *sc)
{
	for (size_t i = 0; i < sc->nnames; i++)
		free(sc->names[i]);
	free(sc->names);
	free(sc->extent);
}

/* a log line, the most read_line reads: an iolog line is an action, a path
 * and two numbers, far shorter; what has no line break by then is no iolog
 * (read_iolog=/dev/zero once read until memory ran out) */
#define LINE_MAX_LOG 8192

/* One line of f into buf (LINE_MAX_LOG bytes, NUL-terminated, NUL bytes in
 * it kept): its length, -1 at the end of f, -2 when no line break came
 * within LINE_MAX_LOG - 1 bytes (buf then holds those bytes). */
static ssize_t read_line(FILE *f, char *buf)
{
	size_t n = 0;
	int c = 0;
	while (n + 1 < LINE_MAX_LOG && (c = getc_unlocked(f)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	if (!n)
		return -1;
	return c != '\n' && n + 1 == LINE_MAX_LOG ? -2 : (ssize_t)n;
}

/* reads the log: 0, or reports (at where) and returns 1 */
/* the log's version from its first line (2 or 3); reported, 0 or -1
 * (blktrace) when it is not a fio iolog */
static int log_version(FILE *f, char *line, const char *where, const char *opt, const char *path)
{
	ssize_t n = read_line(f, line);
	if (n == -2)  /* the head of a binary file (blktrace) or of no log at all */
		n = LINE_MAX_LOG - 1;
	int ver = n > 0 ? sb_iologfmt_version((const unsigned char *)line, (size_t)n) : 0;
	if (ver < 0)
		sb_err(where, "%s=%s: a blktrace binary trace: storbench replays fio iologs only (no "
		       "blktrace replay); turn it into an iolog with fio: fio --name=conv "
		       "--ioengine=null --read_iolog=%s --replay_no_stall=1 --write_iolog=trace.log, "
		       "then %s=trace.log", opt, path, path, opt);
	else if (!ver)
		sb_err(where, "%s=%s: not a fio iolog: its first line must be '%s' or '%s' (fio's "
		       "version 1 logs are not supported, as in fio)", opt, path, SB_IOLOG_V2,
		       SB_IOLOG_V3);
	return ver;
}

/* the log through the one reader: a regular file or a FIFO (documented:
 * read as fio reads it), at most 16 GiB, recorded as an input
 * (os/infile.h); NULL after reporting */
static FILE *open_log(const char *where, const char *opt, const char *path)
{
	char why[320];
	FILE *f = sb_in_fopen(path, &sb_in_iolog, 0, why, sizeof(why));
	if (!f)
		sb_err(where, "%s=%s: cannot read the log: %s: give the path of a fio iolog (written "
		       "by fio's or storbench's write_iolog=)", opt, path, why);
	return f;
}

/* a read that failed midway (EFBIG: the file grew past the reader's cap) */
static unsigned read_error(const char *where, const char *opt, const char *path)
{
	if (errno == EFBIG)
		sb_err(where, "%s=%s: too big: a read_iolog= log may hold at most %llu bytes (is "
		       "this the right file? split it)", opt, path, (unsigned long long)sb_in_iolog.max);
	else
		sb_err(where, "%s=%s: %s", opt, path, strerror(errno));
	return 1;
}

static unsigned scan_log(struct sb_jobspec *s, const char *where, struct scan *sc)
{
	const char *opt = SB_OPT(read_iolog)->name, *path = s->read_iolog;
	FILE *f = open_log(where, opt, path);
	if (!f)
		return 1;
	char *line = malloc(LINE_MAX_LOG);
	if (!line) {
		fclose(f);
		sb_err(where, "%s=%s: out of memory", opt, path);
		return 1;
	}
	ssize_t n;
	int ver = log_version(f, line, where, opt, path);
	unsigned bad = ver <= 0, lineno = 1;
	while (!bad && (n = read_line(f, line)) != -1) {
		struct sb_iolog_rec r;
		const char *why = NULL;
		lineno++;
		if (n == -2) {
			sb_err(where, "%s=%s: line %u is longer than %d bytes: not a fio iolog line "
			       "(an action, a file name and two numbers); give the path of a fio "
			       "iolog", opt, path, lineno, LINE_MAX_LOG - 1);
			bad = 1;
			break;
		}
		int k = sb_iologfmt_parse(line, ver, &r, &why);
		if (k < 0) {
			line[strcspn(line, "\r\n")] = 0;
			sb_err(where, "%s=%s: line %u '%.80s': %s; the log must be fio's iolog "
			       "version %d format", opt, path, lineno, line, why, ver);
			bad = 1;
			break;
		}
		if (!k || r.act == SB_IOLA_WAIT || r.act == SB_IOLA_OPEN || r.act == SB_IOLA_CLOSE)
			continue;
		if (memchr(r.name, ':', r.name_len) && !s->replay_redirect) {
			sb_err(where, "%s=%s: line %u: the file name '%.*s' holds a ':'; replay it with "
			       "%s=FILE", opt, path, lineno, (int)r.name_len, r.name,
			       SB_OPT(replay_redirect)->name);
			bad = 1;
			break;
		}
		long fi = name_index(sc, &r, true);
		if (fi < 0) {
			sb_err(where, "%s=%s: out of memory", opt, path);
			bad = 1;
			break;
		}
		if (r.act == SB_IOLA_ADD || (s->replay_skip_mask & (1u << r.act)))
			continue;
		if (r.act >= SB_IOLA_SYNC) {
			sc->nsync++;
			continue;
		}
		uint64_t off = r.offset / (s->replay_scale ? s->replay_scale : 1);
		if (s->replay_align)
			off &= ~(s->replay_align - 1);
		if (off + r.len > sc->extent[fi])
			sc->extent[fi] = off + r.len;
		if (r.len > sc->maxlen[r.act])
			sc->maxlen[r.act] = r.len;
		sc->nio[r.act]++;
		if (!r.len) {
			sb_err(where, "%s=%s: line %u: an I/O of 0 bytes; every read, write or trim moves "
			       "at least one byte", opt, path, lineno);
			bad = 1;
		}
	}
	if (!bad && ferror(f))
		bad = read_error(where, opt, path);
	free(line);
	fclose(f);
	s->replay_version = (unsigned)(ver > 0 ? ver : 0);
	return bad;
}

/* the log's files and I/O types -> filename=, rw=, bs=, size= */
static unsigned apply_scan(struct sb_jobctx *c, const char *where, const struct scan *sc)
{
	struct sb_jobspec *s = &c->spec;
	const char *opt = SB_OPT(read_iolog)->name;
	if (!sc->nio[SB_DDIR_READ] && !sc->nio[SB_DDIR_WRITE] && !sc->nio[SB_DDIR_TRIM]) {
		sb_err(where, "%s=%s: the log holds no read or write to replay%s: give a log with I/O",
		       opt, s->read_iolog, s->replay_skip ? " (after replay_skip)" : "");
		return 1;
	}
	if (sc->nio[SB_DDIR_TRIM]) {
		sb_err(where, "%s=%s: the log holds %lu trims, and trim is not supported yet: add %s=trim "
		       "to replay the rest", opt, s->read_iolog, sc->nio[SB_DDIR_TRIM],
		       SB_OPT(replay_skip)->name);
		return 1;
	}
	size_t len = 1;
	uint64_t ext = 0;
	for (size_t i = 0; i < sc->nnames; i++) {
		len += strlen(sc->names[i]) + 1;
		ext = sc->extent[i] > ext ? sc->extent[i] : ext;
	}
	char *fn = malloc(s->replay_redirect ? strlen(s->replay_redirect) + 1 : len);
	if (!fn)
		return 1;
	if (s->replay_redirect) {
		strcpy(fn, s->replay_redirect);
	} else {
		fn[0] = 0;
		for (size_t i = 0; i < sc->nnames; i++) {
			if (i)
				strcat(fn, ":");
			strcat(fn, sc->names[i]);
		}
	}
	free(s->filename);
	s->filename = fn;
	s->nrfiles = s->replay_redirect ? 1 : (unsigned)sc->nnames;
	s->rw = (sc->nio[SB_DDIR_READ] ? SB_RW_READ : 0) | (sc->nio[SB_DDIR_WRITE] ? SB_RW_WRITE : 0);
	for (int d = 0; d < SB_DDIR_N; d++)
		if (sc->maxlen[d])
			s->bs[d] = sc->maxlen[d];
	if (!sb_job_src(c, SB_OPT(size))->file && !sb_job_src(c, SB_OPT(filesize_min))->file) {
		s->filesize_min = s->filesize_max = ext;
		s->size = ext * s->nrfiles;
	}
	return 0;
}

/* filename= beside read_iolog= (no replay_redirect): fio 3.33 replays to the
 * files the log names and leaves filename= unused (iolog.c:
 * read_iolog2's "add" actions make the job's files; fio's t/jobs/t0031);
 * said when it names a file the log does not */
static void unused_filename(const struct sb_jobctx *c, const char *where, const struct scan *sc)
{
	const struct sb_jobspec *s = &c->spec;
	for (size_t i = 0; i < sc->nnames; i++)
		if (!strcmp(sc->names[i], s->filename))
			return;
	sb_warn(where, "%s=%s with filename=%s: filename= is not used, the replay goes to the "
		"files its log names (as fio does); to send it to %s, write %s=%s instead",
		SB_OPT(read_iolog)->name, s->read_iolog, s->filename, s->filename,
		SB_OPT(replay_redirect)->name, s->filename);
}

static unsigned check_read_iolog(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	const char *opt = SB_OPT(read_iolog)->name;
	sb_job_where(c, SB_OPT(read_iolog), where, sizeof(where));
	if (s->replay_align && (s->replay_align & (s->replay_align - 1))) {
		char w2[512];
		sb_err(sb_job_where(c, SB_OPT(replay_align), w2, sizeof(w2)), "%s=%llu: not a power of 2: "
		       "write e.g. %s=4k", SB_OPT(replay_align)->name,
		       (unsigned long long)s->replay_align, SB_OPT(replay_align)->name);
		return 1;
	}
	if (!s->read_iolog)
		return 0;
	if (!strcmp(s->read_iolog, "-") || strchr(s->read_iolog, ':')) {
		sb_err(where, "%s=%s: storbench replays one log file per job (no standard input, no "
		       "':' list for numjobs clones): give one file, and a job section per log", opt,
		       s->read_iolog);
		return 1;
	}
	struct scan sc = { 0 };
	unsigned bad = scan_log(s, where, &sc);
	if (!bad && sb_job_src(c, SB_OPT(filename))->file && !s->replay_redirect)
		unused_filename(c, where, &sc);
	if (!bad)
		bad = apply_scan(c, where, &sc);
	scan_free(&sc);
	return bad;
}

static unsigned check_write_iolog(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const char *opt = SB_OPT(write_iolog)->name;
	char where[SB_WHERE_MAX];
	if (!s->write_iolog)
		return 0;
	sb_job_where(c, SB_OPT(write_iolog), where, sizeof(where));
	if (!*s->write_iolog) {
		sb_err(where, "%s is empty: give the log's file name, e.g. %s=job.iolog", opt, opt);
		return 1;
	}
	if (s->numjobs > 1) {
		sb_err(where, "%s=%s with numjobs=%u: the threads would write one log over each other "
		       "(fio mixes their lines): give each job its own section and log, or numjobs=1",
		       opt, s->write_iolog, s->numjobs);
		return 1;
	}
	if (s->read_iolog && !strcmp(s->read_iolog, s->write_iolog)) {
		sb_err(where, "%s=%s is also the read_iolog being replayed: writing it would destroy it; "
		       "give another name", opt, s->write_iolog);
		return 1;
	}
	/* the writer gate's rules: a device, a FIFO, a folder, an input of the
	 * run (a job file, a trace) */
	return sb_outfile_check(s->write_iolog, &(struct sb_outname){ opt, where, "the I/O log" }, 0)
	       ? 1 : 0;
}

/* write_trace= (stats/trace.h): a file name whose folder exists */
static unsigned check_write_trace(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	const char *opt = SB_OPT(write_trace)->name;
	char where[SB_WHERE_MAX], dir[4096];
	struct stat st;
	if (!s->write_trace)
		return 0;
	sb_job_where(c, SB_OPT(write_trace), where, sizeof(where));
	if (sb_outfile_check(s->write_trace, &(struct sb_outname){ opt, where, "the trace" }, 0))
		return 1; /* the writer gate's rules: a device, a FIFO, a folder, an input */
	snprintf(dir, sizeof(dir), "%s", s->write_trace);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			sb_err(where, "%s=%s: the folder %s does not exist: create it or name another",
			       opt, s->write_trace, dir);
			return 1;
		}
	}
	return 0;
}

unsigned sb_job_validate_replay(struct sb_jobctx *c)
{
	if (c->spec.read_iolog && strcmp(c->spec.read_iolog, "-")) /* no output replaces it */
		(void)sb_inputs_add_path(c->spec.read_iolog, SB_OPT(read_iolog)->name);
	unsigned n = check_exec(c) + check_skip(c) + check_write_iolog(c) + check_write_trace(c);
	return n ? n : check_read_iolog(c);
}
