/* infile.c: the one reader (infile.h): every file a user hands storbench
 * to read is opened here, checked (regular file, size cap, line bound, no
 * symlink inside a tree) and recorded as an input of the run. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/jsonr.h"
#include "os/infile.h"
#include "os/inputs.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

const struct sb_inkind sb_in_jobfile = { "job file", 16 * MIB, 0, 0 };
const struct sb_inkind sb_in_json = { "results JSON file", 1 * GIB, 0, 0 };
const struct sb_inkind sb_in_kvtrace = { "kv_trace= trace", 1 * GIB, 0, 0 };
const struct sb_inkind sb_in_trace = { "trace file", 1024 * GIB, 0, 0 };
const struct sb_inkind sb_in_iolog = { "read_iolog= log", 16 * GIB, 8192, SB_IN_FIFO_OK };
const struct sb_inkind sb_in_vstate = { "verify state file", 1 * GIB, 0, 0 };
const struct sb_inkind sb_in_awscred = { "AWS shared credentials file", 1024 * 1024, 0, 0 };
const struct sb_inkind sb_in_runlog = { "log this run wrote", 1024 * GIB, 0, 0 };
const struct sb_inkind sb_in_tree = { "file of a results tree", 64 * MIB, 65536, 0 };

static void say(char *why, size_t wlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t wlen, const char *fmt, ...)
{
	va_list ap;
	if (!why || !wlen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, wlen, fmt, ap);
	va_end(ap);
}

const char *sb_in_kind_name(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO (named pipe)";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

/* "16 MiB" or "1 GiB" beside the byte count of a cap */
static void cap_text(uint64_t cap, char *buf, size_t len)
{
	if (cap >= GIB && !(cap % GIB))
		snprintf(buf, len, "%llu bytes (%llu GiB)", (unsigned long long)cap,
			 (unsigned long long)(cap / GIB));
	else if (cap >= MIB && !(cap % MIB))
		snprintf(buf, len, "%llu bytes (%llu MiB)", (unsigned long long)cap,
			 (unsigned long long)(cap / MIB));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)cap);
}

static int too_big(const struct sb_inkind *k, uint64_t cap, char *why, size_t wlen)
{
	char c[64];
	cap_text(cap, c, sizeof(c));
	if (k == &sb_in_jobfile)
		say(why, wlen, "too big: a job file and everything it includes may hold at most %llu "
		    "MiB together (%llu bytes; is this the right file?)",
		    (unsigned long long)(k->max / MIB), (unsigned long long)k->max);
	else
		say(why, wlen, "too big: a %s may hold at most %s (is this the right file? split it "
		    "or give a smaller one)", k->what, c);
	return -EFBIG;
}

static int not_regular(const struct sb_inkind *k, mode_t m, char *why, size_t wlen)
{
	say(why, wlen, "it is %s, not a regular file: a %s must be a regular file%s", sb_in_kind_name(m),
	    k->what, k->flags & SB_IN_FIFO_OK ? " or a FIFO" : "");
	return S_ISLNK(m) ? -ELOOP : -ENOTSUP;
}

int sb_in_open(const char *path, const struct sb_inkind *k, unsigned flags, char *why, size_t wlen)
{
	struct stat st, ost;
	bool nofollow = flags & SB_IN_NOFOLLOW;
	/* stat first: a device or FIFO is refused without opening it */
	if (nofollow ? lstat(path, &st) : stat(path, &st)) {
		int e = errno;
		say(why, wlen, "%s", strerror(e));
		return -e;
	}
	bool fifo = S_ISFIFO(st.st_mode) && (k->flags & SB_IN_FIFO_OK);
	if (!S_ISREG(st.st_mode) && !fifo) {
		if (S_ISLNK(st.st_mode))
			say(why, wlen, "a symbolic link inside a results tree: not followed (copy the "
			    "file it names there)");
		return S_ISLNK(st.st_mode) ? -ELOOP : not_regular(k, st.st_mode, why, wlen);
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > k->max)
		return too_big(k, k->max, why, wlen);
	/* a FIFO the option documents is opened as fio opens it: the open
	 * waits for the writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (fifo ? 0 : O_NONBLOCK) |
		      (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0) {
		int e = errno;
		say(why, wlen, "%s", strerror(e));
		return -e;
	}
	/* what was opened must be what was checked (no swap in between) */
	if (fstat(fd, &ost) || ost.st_dev != st.st_dev || ost.st_ino != st.st_ino) {
		close(fd);
		say(why, wlen, "it was replaced while being opened: a %s must stay in place while "
		    "storbench reads it; run again", k->what);
		return -ESTALE;
	}
	if (!fifo)
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (!(flags & SB_IN_NORECORD))
		(void)sb_inputs_add_fd(fd, path, k->what);
	return fd;
}

char *sb_in_read(const char *path, const struct sb_inkind *k, unsigned flags, uint64_t room,
		 size_t *len, int *err, char *why, size_t wlen)
{
	uint64_t cap = room < k->max ? room : k->max;
	size_t have = 0, n = 0;
	char *buf = NULL;
	int e = 0, fd = sb_in_open(path, k, flags, why, wlen);
	*len = 0;
	if (fd < 0) {
		e = fd;
		goto out;
	}
	for (;;) {
		if (n > cap) {
			e = too_big(k, cap, why, wlen);
			break;
		}
		if (have - n < 4096) {
			size_t nc = have ? 2 * have : 8192;
			char *nb = realloc(buf, nc);
			if (!nb) {
				e = -ENOMEM;
				say(why, wlen, "%s", strerror(ENOMEM));
				break;
			}
			buf = nb;
			have = nc;
		}
		ssize_t r = read(fd, buf + n, have - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = -errno;
			say(why, wlen, "%s", strerror(-e));
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
out:
	if (err)
		*err = e;
	if (e) {
		free(buf);
		return NULL;
	}
	if (!buf && !(buf = malloc(1))) {
		say(why, wlen, "%s", strerror(ENOMEM));
		if (err)
			*err = -ENOMEM;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* a stream that fails with EFBIG past the cap */
struct capped {
	int fd;
	uint64_t left;
};

static ssize_t capped_read(void *c, char *buf, size_t size)
{
	struct capped *cp = c;
	if (size > cp->left + 1)
		size = (size_t)cp->left + 1;
	ssize_t r;
	do
		r = read(cp->fd, buf, size);
	while (r < 0 && errno == EINTR);
	if (r > 0 && (uint64_t)r > cp->left) {
		errno = EFBIG;
		return -1;
	}
	if (r > 0)
		cp->left -= (uint64_t)r;
	return r;
}

static int capped_close(void *c)
{
	struct capped *cp = c;
	int r = close(cp->fd);
	free(cp);
	return r;
}

FILE *sb_in_fopen(const char *path, const struct sb_inkind *k, unsigned flags, char *why, size_t wlen)
{
	int fd = sb_in_open(path, k, flags, why, wlen);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	struct capped *cp = malloc(sizeof(*cp));
	cookie_io_functions_t io = { .read = capped_read, .close = capped_close };
	FILE *f = cp ? fopencookie(cp, "r", io) : NULL;
	if (!f) {
		free(cp);
		close(fd);
		say(why, wlen, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	cp->fd = fd;
	cp->left = k->max;
	return f;
}

int sb_in_lines_open(struct sb_inlines *l, const char *path, const struct sb_inkind *k,
		     unsigned flags, char *why, size_t wlen)
{
	memset(l, 0, sizeof(*l));
	l->path = path;
	l->k = k;
	if (!(l->buf = malloc((k->line_max ? k->line_max : 65536) + 3))) {
		say(why, wlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (!(l->f = sb_in_fopen(path, k, flags, why, wlen))) {
		int e = errno;
		free(l->buf);
		l->buf = NULL;
		return -e;
	}
	return 0;
}

int sb_in_getline(struct sb_inlines *l, char **line, size_t *len, char *why, size_t wlen)
{
	size_t max = l->k->line_max ? l->k->line_max : 65536, n = 0;
	int c = 0;
	/* the bound counts the line's text; its '\n' (or "\r\n") may follow */
	while (n < max + 2 && (c = getc_unlocked(l->f)) != EOF) {
		l->buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	l->buf[n] = '\0';
	if (c == EOF && ferror(l->f)) {
		int e = errno ? errno : EIO;
		if (e == EFBIG)
			return too_big(l->k, l->k->max, why, wlen);
		say(why, wlen, "%s", strerror(e));
		return -e;
	}
	if (!n)
		return 0;
	l->line++;
	size_t text = n;
	if (l->buf[text - 1] == '\n')
		text--;
	if (text && l->buf[text - 1] == '\r')
		text--;
	if (text > max) {
		say(why, wlen, "%s:%lu: the line is longer than %zu bytes, the most a line of a %s may "
		    "hold: is this the right file?", l->path, l->line, max, l->k->what);
		return -EOVERFLOW;
	}
	*line = l->buf;
	*len = n;
	return 1;
}

void sb_in_lines_close(struct sb_inlines *l)
{
	if (l->f)
		fclose(l->f);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

DIR *sb_in_opendir(const char *path, int follow, char *why, size_t wlen)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		int e = errno;
		struct stat st;
		/* O_DIRECTORY | O_NOFOLLOW on a symlink says ENOTDIR or ELOOP */
		if (!follow && (e == ENOTDIR || e == ELOOP) && !lstat(path, &st) && S_ISLNK(st.st_mode))
			e = ELOOP;
		if (e == ELOOP && !follow)
			say(why, wlen, "a symbolic link inside a results tree: not followed");
		else
			say(why, wlen, "%s", strerror(e));
		errno = e;
		return NULL;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		say(why, wlen, "%s", strerror(e));
		errno = e;
	}
	return d;
}

int sb_in_entry(DIR *d, const char *name, struct stat *st)
{
	return fstatat(dirfd(d), name, st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

int sb_in_json_load(struct sb_json *doc, const char *path, const struct sb_inkind *k, unsigned flags)
{
	size_t len;
	int e;
	char *buf = sb_in_read(path, k, flags, UINT64_MAX, &len, &e, doc->err, sizeof(doc->err));
	if (!buf) {
		if (e != -ENOTSUP && e != -EFBIG && e != -ELOOP) /* not the reader's own refusal */
			snprintf(doc->err, sizeof(doc->err), "cannot open: %s", strerror(-e));
		return e;
	}
	e = sb_json_parse_doc(doc, buf, len);
	free(buf);
	return e;
}
