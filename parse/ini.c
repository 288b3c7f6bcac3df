/* ini.c: the job-file pre-pass (see ini.h).  libiniparser 4.1 rejects bare
 * keys, merges repeated sections, lowercases names and forgets line numbers,
 * so this pass reads the text line by line, keeps a side table of sections
 * and (key -> file:line), writes a normalized copy ([s0], [s1], ... with
 * key = value lines) to a memfd and lets iniparser read the values back. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <iniparser.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/outfile.h"
#include "lib/log.h"
#include "parse/ini.h"

#define LINE_MAX_LEN (1u << 20) /* 1 MiB a line (fio 3.33 has no limit; the file holds 16 MiB) */
#define INI_LINE_MAX 900        /* iniparser 4.1 reads lines of up to 1024 bytes (ASCIILINESZ):
				 * a longer value bypasses it (see iniparser_round) */
#define INCLUDE_DEPTH 16
#define NUL_MSG "the file holds a NUL byte on this line: job files are text (is it a binary " \
		"file?); remove the NUL byte"

struct pp {
	struct sb_ini *ini;
	int cur;        /* current section index, -1 before the first header */
	unsigned nerr;
	int depth;
	size_t room;    /* bytes the includes may still read (SB_JOBFILE_MAX in all) */
};

const char *sb_ini_where(char *buf, unsigned len, const char *file, unsigned line)
{
	if (line)
		snprintf(buf, len, "%s:%u", file, line);
	else
		snprintf(buf, len, "%s", file);
	return buf;
}

__attribute__((format(printf, 4, 5)))
static void pp_err(struct pp *pp, const char *file, unsigned line, const char *fmt, ...)
{
	char where[SB_WHERE_MAX];
	va_list ap;
	va_start(ap, fmt);
	sb_verr("", sb_ini_where(where, sizeof(where), file, line), fmt, ap);
	va_end(ap);
	pp->nerr++;
}

const char *sb_ini_intern(struct sb_ini *ini, const char *file)
{
	for (unsigned i = 0; i < ini->nfiles; i++)
		if (!strcmp(ini->files[i], file))
			return ini->files[i];
	if (ini->nfiles == ini->fcap) {
		unsigned cap = ini->fcap ? 2 * ini->fcap : 4;
		char **f = realloc(ini->files, cap * sizeof(*f));
		if (!f)
			return NULL;
		ini->files = f;
		ini->fcap = cap;
	}
	char *dup = strdup(file);
	if (dup)
		ini->files[ini->nfiles++] = dup;
	return dup;
}

struct sb_ini_section *sb_ini_add_section(struct sb_ini *ini, const char *name, const char *file,
					  unsigned line)
{
	if (ini->nsec == ini->cap) {
		unsigned cap = ini->cap ? 2 * ini->cap : 8;
		struct sb_ini_section *s = realloc(ini->sec, cap * sizeof(*s));
		if (!s)
			return NULL;
		ini->sec = s;
		ini->cap = cap;
	}
	struct sb_ini_section *s = &ini->sec[ini->nsec];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->file = sb_ini_intern(ini, file);
	if (!s->name || !s->file) {
		free(s->name);
		return NULL;
	}
	s->line = line;
	s->global = !strcasecmp(name, "global");
	ini->nsec++;
	return s;
}

int sb_ini_set(struct sb_ini_section *sec, const char *key, const char *value, const char *file,
	       unsigned line)
{
	struct sb_ini_kv *kv = NULL;
	for (unsigned i = 0; i < sec->nkv && !kv; i++)
		if (!strcasecmp(sec->kv[i].key, key))
			kv = &sec->kv[i];
	if (!kv) {
		if (sec->nkv == sec->cap) {
			unsigned cap = sec->cap ? 2 * sec->cap : 16;
			struct sb_ini_kv *n = realloc(sec->kv, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			sec->kv = n;
			sec->cap = cap;
		}
		kv = &sec->kv[sec->nkv];
		memset(kv, 0, sizeof(*kv));
		if (!(kv->key = strdup(key)))
			return -ENOMEM;
		for (char *p = kv->key; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		sec->nkv++;
	}
	char *v = strdup(value ? value : "");
	if (!v)
		return -ENOMEM;
	free(kv->value);
	kv->value = v;
	kv->bare = !value;
	kv->file = file;
	kv->line = line;
	return 0;
}

void sb_ini_free(struct sb_ini *ini)
{
	for (unsigned i = 0; i < ini->nsec; i++) {
		for (unsigned k = 0; k < ini->sec[i].nkv; k++) {
			free(ini->sec[i].kv[k].key);
			free(ini->sec[i].kv[k].value);
		}
		free(ini->sec[i].kv);
		free(ini->sec[i].name);
	}
	for (unsigned i = 0; i < ini->nfiles; i++)
		free(ini->files[i]);
	free(ini->sec);
	free(ini->files);
	memset(ini, 0, sizeof(*ini));
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* cut at the first ';' or '#' outside double quotes (fio: inline comments) */
static void cut_comment(char *s)
{
	bool quoted = false;
	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && (*s == ';' || *s == '#')) {
			*s = '\0';
			return;
		}
	}
}

/* the '}' closing the "${" at in (defaults may nest: ${A:-${B:-x}}) */
static const char *var_end(const char *in)
{
	int depth = 0;
	for (const char *p = in; *p; p++) {
		if (p[0] == '$' && p[1] == '{') {
			depth++;
			p++;
		} else if (*p == '}' && --depth == 0) {
			return p;
		}
	}
	return NULL;
}

/* ${VAR} from the environment, ${VAR:-default} (default itself expanded)
 * when unset or empty; returns -EINVAL after reporting */
static int expand_vars(struct pp *pp, const char *file, unsigned line, const char *in, char *out,
		       size_t len)
{
	size_t o = 0;
	while (*in) {
		const char *val = NULL, *close = NULL;
		char name[256], *dflt = NULL;
		size_t n = 1;
		if (in[0] == '$' && in[1] == '{' && (close = var_end(in))) {
			size_t nl = (size_t)(close - in - 2);
			snprintf(name, sizeof(name), "%.*s", (int)nl, in + 2);
			char *d = strstr(name, ":-"); /* ${VAR:-default}, as in sh */
			if (d)
				*d = '\0';
			val = getenv(name);
			if (d && (!val || !*val)) {
				const char *ds = in + 2 + (d - name) + 2;
				char *raw = strndup(ds, (size_t)(close - ds));
				dflt = malloc(LINE_MAX_LEN + 1);
				int rc = (raw && dflt) ? expand_vars(pp, file, line, raw, dflt, LINE_MAX_LEN + 1)
						       : -ENOMEM;
				free(raw);
				if (rc) {
					if (rc == -ENOMEM)
						pp_err(pp, file, line, "out of memory");
					free(dflt);
					return -EINVAL;
				}
				val = dflt;
			} else if (!val) {
				pp_err(pp, file, line, "environment variable '%s' is not set (used as ${%s}): "
				       "export it, write the value, or give a default as ${%s:-VALUE}",
				       name, name, name);
				return -EINVAL;
			}
			n = strlen(val);
			/* a value from the environment is one value: a newline in it
			 * would start new job-file lines */
			const char *nlc = strpbrk(val, "\n\r");
			if (nlc) {
				pp_err(pp, file, line, "environment variable '%s' (used as ${%s}) holds a %s at "
				       "character %zu: a value from the environment is one value on one line; "
				       "remove the line break from %s", name, name,
				       *nlc == '\n' ? "newline" : "carriage return", (size_t)(nlc - val) + 1,
				       name);
				return -EINVAL;
			}
		} else {
			val = in;
		}
		if (o + n >= len) {
			pp_err(pp, file, line, "line is too long after ${VAR} expansion (max %u characters)",
			       LINE_MAX_LEN);
			free(dflt);
			return -EINVAL;
		}
		memcpy(out + o, val, n);
		free(dflt);
		o += n;
		in = close ? close + 1 : in + 1;
	}
	out[o] = '\0';
	return 0;
}

static int pp_text(struct pp *pp, const char *file, const char *text);

static void do_include(struct pp *pp, const char *file, unsigned line, const char *arg)
{
	char path[4096];
	const char *slash = strrchr(file, '/');
	if (!*arg) {
		pp_err(pp, file, line, "include needs a file name: include FILE");
		return;
	}
	if (arg[0] != '/' && slash)
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - file), file, arg);
	else
		snprintf(path, sizeof(path), "%s", arg);
	if (pp->depth >= INCLUDE_DEPTH) {
		pp_err(pp, file, line, "include %s: includes nested more than %d deep (an include loop?)",
		       arg, INCLUDE_DEPTH);
		return;
	}
	char why[256];
	size_t len;
	char *text = sb_ini_read_whole(path, pp->room, &len, why, sizeof(why));
	if (!text) {
		pp_err(pp, file, line, "include %s: cannot read '%s': %s", arg, path, why);
		return;
	}
	pp->room -= len;
	const char *iname = sb_ini_intern(pp->ini, path);
	unsigned nul = sb_ini_nul_line(text, len);
	if (nul)
		pp_err(pp, iname ? iname : path, nul, NUL_MSG);
	pp->depth++;
	if (iname && !nul)
		pp_text(pp, iname, text);
	pp->depth--;
	free(text);
}

static void do_header(struct pp *pp, const char *file, unsigned line, char *s)
{
	size_t n = strlen(s);
	if (s[n - 1] != ']') {
		pp_err(pp, file, line, "section header '%s' has no closing ']': expected [name]", s);
		return;
	}
	s[n - 1] = '\0';
	char *name = trim(s + 1);
	if (!*name || strpbrk(name, "[]")) {
		pp_err(pp, file, line, "invalid section name '[%s]': expected [global] or [jobname]", name);
		return;
	}
	if (!sb_ini_add_section(pp->ini, name, file, line))
		pp_err(pp, file, line, "out of memory");
	else
		pp->cur = (int)pp->ini->nsec - 1;
}

static void do_option(struct pp *pp, const char *file, unsigned line, char *s)
{
	char *eq = strchr(s, '=');
	char *key = s, *val = NULL;
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
	}
	key = trim(key);
	if (!*key) {
		pp_err(pp, file, line, "'=%s' has no option name: expected key=value", val ? val : "");
		return;
	}
	if (pp->cur < 0) {
		pp_err(pp, file, line, "option '%s' is outside a section: put it under a [global] "
		       "or [jobname] header", key);
		return;
	}
	if (sb_ini_set(&pp->ini->sec[pp->cur], key, val, file, line))
		pp_err(pp, file, line, "out of memory");
}

static void pp_line(struct pp *pp, const char *file, unsigned line, char *raw)
{
	char *buf = malloc(LINE_MAX_LEN + 1);
	if (!buf) {
		pp_err(pp, file, line, "out of memory");
		return;
	}
	cut_comment(raw); /* before expansion: an expanded value is never cut */
	size_t at;
	const char *inv = sb_ini_invisible(raw, &at);
	if (inv) /* what the line shows is not what it says */
		pp_err(pp, file, line, "the line holds an invisible character, %s, at byte %zu%s%.*s%s: "
		       "remove it (it often comes with text pasted from a web page or a word "
		       "processor)", inv, at + 1, at ? " (after '" : " (the line's start)",
		       (int)(at > 40 ? 40 : at), raw + (at > 40 ? at - 40 : 0), at ? "')" : "");
	while (sb_ini_invisible(raw, &at)) { /* read on without them: no errors that follow */
		size_t n = (unsigned char)raw[at] == 0xc2 ? 2 : 3; /* U+00xx: 2 bytes, else 3 */
		memmove(raw + at, raw + at + n, strlen(raw + at + n) + 1);
	}
	if (expand_vars(pp, file, line, raw, buf, LINE_MAX_LEN + 1)) {
		free(buf);
		return;
	}
	char *s = trim(buf);
	if (!*s)
		; /* a blank line */
	else if (*s == '[')
		do_header(pp, file, line, s);
	else if (!strncmp(s, "include", 7) && (!s[7] || isspace((unsigned char)s[7])) &&
		 !strchr(s, '='))
		do_include(pp, file, line, trim(s + 7));
	else
		do_option(pp, file, line, s);
	free(buf);
}

/* "\n", "\r\n" and a lone "\r" each end a line */
static int pp_text(struct pp *pp, const char *file, const char *text)
{
	unsigned lineno = 0;
	const char *p = text;
	if (!strncmp(p, "\xef\xbb\xbf", 3)) /* a UTF-8 byte-order mark: invisible, skipped */
		p += 3;
	while (*p) {
		size_t n = strcspn(p, "\r\n");
		lineno++;
		if (n > LINE_MAX_LEN) {
			pp_err(pp, file, lineno, "line is too long (%zu characters, max %u = 1 MiB a "
			       "line); split the value (e.g. a filename= list over several jobs or "
			       "an opendir=)", n, LINE_MAX_LEN);
		} else {
			char *raw = strndup(p, n);
			if (!raw)
				pp_err(pp, file, lineno, "out of memory");
			else
				pp_line(pp, file, lineno, raw);
			free(raw);
		}
		p += n;
		if (p[0] == '\r' && p[1] == '\n')
			p += 2;
		else if (*p)
			p++;
	}
	return pp->nerr ? -EINVAL : 0;
}

/* write one value so that iniparser reads it back as meant: a value already
 * in quotes goes as it is (iniparser drops the quotes); one holding a comment
 * character or a trailing backslash (iniparser's line continuation) gets
 * quoted */
static int write_value(FILE *f, const char *key, const char *v)
{
	size_t n = strlen(v);
	bool wrapped = n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0] &&
		       !memchr(v + 1, v[0], n - 2);
	bool quote = !wrapped && (strpbrk(v, ";#\\") || (n && (v[0] == '"' || v[0] == '\'')));
	if (quote && strchr(v, '"') && !strchr(v, '\''))  /* "ab"%o (buffer_pattern) */
		return fprintf(f, "%s = '%s'\n", key, v) < 0 ? -EIO : 0;
	if (quote && strchr(v, '"'))
		return -EINVAL;
	return fprintf(f, quote ? "%s = \"%s\"\n" : "%s = %s\n", key, v) < 0 ? -EIO : 0;
}

static int normalized_fd(const struct sb_ini *ini, unsigned first, unsigned *nerr)
{
	int fd;
	FILE *f = sb_outfile_memory("storbench-jobfile", &fd); /* in memory, no file */
	if (!f)
		return -errno;
	for (unsigned i = first; i < ini->nsec; i++) {
		const struct sb_ini_section *s = &ini->sec[i];
		fprintf(f, "[s%u]\n", i);
		for (unsigned k = 0; k < s->nkv; k++) {
			const struct sb_ini_kv *kv = &s->kv[k];
			const char *v = kv->bare ? "1" : kv->value;
			if (strlen(kv->key) + strlen(v) > INI_LINE_MAX)
				v = "1"; /* too long for iniparser: iniparser_round keeps it */
			if (write_value(f, kv->key, v)) {
				char where[SB_WHERE_MAX];
				sb_err(sb_ini_where(where, sizeof(where), kv->file, kv->line),
				       "%s=%s: a value cannot hold both '\"' and ';', '#' or '\\'",
				       kv->key, kv->value);
				(*nerr)++;
			}
		}
	}
	if (fclose(f)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

/* Round trip through iniparser: the values come back from the library. */
static int iniparser_round(struct sb_ini *ini, unsigned first, unsigned *nerr)
{
	char path[64], key[INI_LINE_MAX + 32];
	int fd = normalized_fd(ini, first, nerr);
	if (fd < 0)
		return fd;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	dictionary *d = iniparser_load(path);
	close(fd);
	if (!d)
		return -ENOMEM;
	for (unsigned i = first; i < ini->nsec; i++) {
		struct sb_ini_section *s = &ini->sec[i];
		for (unsigned k = 0; k < s->nkv; k++) {
			struct sb_ini_kv *kv = &s->kv[k];
			if (!kv->bare && strlen(kv->key) + strlen(kv->value) > INI_LINE_MAX) {
				/* past iniparser's line: drop wrapping quotes as it would */
				size_t n = strlen(kv->value);
				char *v = kv->value;
				if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
					memmove(v, v + 1, n - 2);
					v[n - 2] = '\0';
				}
				continue;
			}
			snprintf(key, sizeof(key), "s%u:%s", i, kv->key);
			const char *v = iniparser_getstring(d, key, NULL);
			char *nv = (v && !kv->bare) ? strdup(v) : NULL;
			if (nv) {
				free(kv->value);
				kv->value = nv;
			}
		}
	}
	iniparser_freedict(d);
	return 0;
}

static int parse_text(struct sb_ini *ini, const char *name, const char *text, size_t room)
{
	struct pp pp = { .ini = ini, .cur = -1, .room = room };
	unsigned first = ini->nsec;
	const char *file = sb_ini_intern(ini, name);
	if (!file)
		return -ENOMEM;
	pp_text(&pp, file, text);
	int rc = iniparser_round(ini, first, &pp.nerr);
	if (rc < 0) {
		sb_err(file, "cannot normalize the job file for iniparser: %s", strerror(-rc));
		return rc;
	}
	return pp.nerr ? -EINVAL : 0;
}

int sb_ini_parse_text(struct sb_ini *ini, const char *name, const char *text)
{
	size_t len = strlen(text);
	if (len > SB_JOBFILE_MAX) {
		sb_err(name, "job text too big: a job file and everything it includes may hold at "
		       "most %u MiB together", SB_JOBFILE_MAX >> 20);
		return -EINVAL;
	}
	return parse_text(ini, name, text, SB_JOBFILE_MAX - len);
}

int sb_ini_parse_file(struct sb_ini *ini, const char *path)
{
	char why[256];
	size_t len;
	char *text = sb_ini_read_whole(path, SB_JOBFILE_MAX, &len, why, sizeof(why));
	if (!text) {
		sb_err(path, "cannot read job file: %s", why);
		return -EINVAL;
	}
	unsigned nul = sb_ini_nul_line(text, len);
	if (nul) {
		char where[SB_WHERE_MAX];
		sb_err(sb_ini_where(where, sizeof(where), path, nul), NUL_MSG);
		free(text);
		return -EINVAL;
	}
	int rc = parse_text(ini, path, text, SB_JOBFILE_MAX - len);
	free(text);
	return rc;
}
