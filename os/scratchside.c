/* scratchside.c: the folder's .storbench-owner record, the mark where
 * user extended attributes are missing (see scratchside.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/scratchside.h"

#define HEADER "storbench-owner 1\n"
#define SIDE_MAX (64u << 20) /* a record file larger than this is not read */

enum { KEEP_LINE, DROP_LINE, KEPT_LINE };

static void split(const char *path, char *dir, size_t dlen, char *name, size_t nlen)
{
	const char *sl = strrchr(path, '/');
	if (!sl) {
		snprintf(dir, dlen, ".");
		snprintf(name, nlen, "%s", path);
	} else {
		snprintf(dir, dlen, "%.*s", sl == path ? 1 : (int)(sl - path), path);
		snprintf(name, nlen, "%s", sl + 1);
	}
}

static void esc(const char *name, char *out, size_t len)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)name; *p && o + 4 < len; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f)
			o += (size_t)snprintf(out + o, len - o, "%%%02X", *p);
		else
			out[o++] = (char)*p;
	}
	out[o] = '\0';
}

/* the record file of dir, open and locked; -ENOENT: none (and !create);
 * -EEXIST: a file of that name that is not a record file (left alone) */
static int side_open(const char *dir, bool create, bool rw)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof(p), "%s/%s", dir, SB_SCRATCH_SIDE);
	for (int tries = 0; tries < 16; tries++) {
		int fd = open(p, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
			      (create ? O_CREAT : 0), 0644);
		if (fd < 0)
			return -errno;
		struct stat a, b;
		char head[sizeof(HEADER)];
		if (flock(fd, rw ? LOCK_EX : LOCK_SH) != 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (fstat(fd, &a) != 0 || lstat(p, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
			close(fd); /* removed or replaced while we waited: again */
			continue;
		}
		/* a hard link to another file, or one someone else made for
		 * this process to write records into: not a record file of ours */
		if (!S_ISREG(a.st_mode) || a.st_nlink != 1 || (create && a.st_uid != geteuid())) {
			close(fd);
			return -EEXIST;
		}
		if (a.st_size == 0 && create) {
			if (write(fd, HEADER, strlen(HEADER)) != (ssize_t)strlen(HEADER)) {
				close(fd);
				return -EIO;
			}
			return fd;
		}
		if (pread(fd, head, strlen(HEADER), 0) != (ssize_t)strlen(HEADER) ||
		    memcmp(head, HEADER, strlen(HEADER))) {
			close(fd);
			return a.st_size == 0 ? -ENOENT : -EEXIST;
		}
		return fd;
	}
	return -EAGAIN;
}

/* the whole record file (NUL-terminated) */
static char *load(int fd, size_t *n)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || (unsigned long long)st.st_size > SIDE_MAX)
		return NULL;
	char *buf = malloc((size_t)st.st_size + 1);
	ssize_t r = buf ? pread(fd, buf, (size_t)st.st_size, 0) : -1;
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[r] = '\0';
	*n = (size_t)r;
	return buf;
}

static unsigned long long num(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* the entry dir/name (not followed) is what the record line describes:
 * the inode the mark names, born then, owned by the record file's owner */
static bool line_counts(const char *dir, const char *name, const char *line, const struct stat *side)
{
	char p[PATH_MAX + NAME_MAX + 2];
	struct statx sx;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (statx(AT_FDCWD, p, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &sx) != 0)
		return false;
	struct stat st;
	if (lstat(p, &st) != 0)
		return false;
	const char *bt = strstr(line, " btime=");
	unsigned long long bs = bt ? strtoull(bt + 7, NULL, 10) : 0;
	const char *dot = bt ? strchr(bt + 7, '.') : NULL;
	unsigned long long bn = dot ? strtoull(dot + 1, NULL, 10) : 0;
	bool born = (sx.stx_mask & STATX_BTIME) ? (unsigned long long)sx.stx_btime.tv_sec == bs &&
						   sx.stx_btime.tv_nsec == bn
						 : bs == 0 && bn == 0;
	return born && num(line, " dev=") == (unsigned long long)st.st_dev &&
	       num(line, " ino=") == (unsigned long long)st.st_ino &&
	       (side->st_uid == 0 || side->st_uid == st.st_uid);
}

/* what to do with one record line (name: its escaped name) */
typedef int (*edit_fn)(const char *dir, const char *ename, const char *line, const void *arg);

/* apply fn to every record; rewrite the file if anything changed (remove
 * it when no record is left); the number of lines fn changed, or -errno */
static int edit(const char *dir, edit_fn fn, const void *arg)
{
	int fd = side_open(dir, false, true);
	if (fd < 0)
		return fd;
	size_t n = 0, o = strlen(HEADER), changed = 0, left = 0;
	char *buf = load(fd, &n);
	if (!buf) {
		close(fd);
		return -EIO;
	}
	for (char *l = buf + strlen(HEADER); l < buf + n;) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
		char ename[NAME_MAX * 3 + 1];
		snprintf(ename, sizeof(ename), "%.*s", (int)strcspn(l, " \n"), l);
		char save = l[len - 1];
		l[len - 1] = '\0';
		int what = fn(dir, ename, l, arg);
		l[len - 1] = save;
		char *s = what == KEPT_LINE ? strstr(l, " state=made ") : NULL;
		if (s && s < l + len)
			memcpy(s + 7, "kept", 4);
		if (what != KEEP_LINE)
			changed++;
		if (what != DROP_LINE) {
			memmove(buf + o, l, len);
			o += len;
			left++;
		}
		l += len;
	}
	int r = (int)changed;
	char p[PATH_MAX + 32];
	snprintf(p, sizeof(p), "%s/%s", dir, SB_SCRATCH_SIDE);
	if (changed && !left)
		r = unlink(p) == 0 ? r : -errno;
	else if (changed && (pwrite(fd, buf, o, 0) != (ssize_t)o || ftruncate(fd, (off_t)o) != 0))
		r = -errno;
	free(buf);
	close(fd);
	return r;
}

int sb_scratch_side_put(const char *path, const char *mark)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], ename[NAME_MAX * 3 + 1], line[1024 + NAME_MAX * 3];
	struct statx sx;
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &sx) != 0)
		return -errno;
	split(path, dir, sizeof(dir), name, sizeof(name));
	esc(name, ename, sizeof(ename));
	bool bt = sx.stx_mask & STATX_BTIME;
	int len = snprintf(line, sizeof(line), "%s btime=%lld.%u %s\n", ename,
			   bt ? (long long)sx.stx_btime.tv_sec : 0LL, bt ? sx.stx_btime.tv_nsec : 0u, mark);
	if (len < 0 || len >= (int)sizeof(line) || strchr(line, '\n') != line + len - 1)
		return -EINVAL;
	int fd = side_open(dir, true, true);
	if (fd < 0)
		return fd;
	int r = 0;
	if (lseek(fd, 0, SEEK_END) < 0 || write(fd, line, (size_t)len) != len)
		r = errno ? -errno : -EIO;
	close(fd);
	return r;
}

int sb_scratch_side_get(const char *path, char *mark, size_t len)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], ename[NAME_MAX * 3 + 1];
	struct stat side;
	split(path, dir, sizeof(dir), name, sizeof(name));
	esc(name, ename, sizeof(ename));
	int fd = side_open(dir, false, false);
	if (fd < 0)
		return fd == -ENOENT || fd == -EEXIST || fd == -ENOTDIR ? 0 : fd;
	size_t n = 0, el = strlen(ename);
	char *buf = fstat(fd, &side) == 0 ? load(fd, &n) : NULL;
	close(fd);
	if (!buf)
		return -EIO;
	int found = 0;
	for (char *l = strtok(buf + strlen(HEADER), "\n"); l; l = strtok(NULL, "\n")) {
		if (strncmp(l, ename, el) || l[el] != ' ' || !line_counts(dir, name, l, &side))
			continue;
		const char *m = strstr(l, " storbench ");
		if (m) {
			snprintf(mark, len, "%s", m + 1);
			found = 1; /* the last record that counts wins */
		}
	}
	free(buf);
	return found;
}

struct match {
	const char *ename;
	unsigned long long dev, ino;
	int what;
};

static int by_name(const char *dir, const char *ename, const char *line, const void *arg)
{
	const struct match *m = arg;
	(void)dir;
	if (strcmp(ename, m->ename))
		return KEEP_LINE;
	if (num(line, " dev=") != m->dev || num(line, " ino=") != m->ino)
		return KEEP_LINE; /* a record of another inode of that name */
	return m->what;
}

int sb_scratch_side_keep(const char *path)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], ename[NAME_MAX * 3 + 1];
	split(path, dir, sizeof(dir), name, sizeof(name));
	esc(name, ename, sizeof(ename));
	struct stat st;
	if (lstat(path, &st) != 0)
		return -errno;
	struct match m = { .ename = ename, .dev = (unsigned long long)st.st_dev,
			   .ino = (unsigned long long)st.st_ino, .what = KEPT_LINE };
	int r = edit(dir, by_name, &m);
	return r < 0 ? r : r ? 0 : -ENOENT;
}

int sb_scratch_side_drop(const char *path, unsigned long long dev, unsigned long long ino)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], ename[NAME_MAX * 3 + 1];
	split(path, dir, sizeof(dir), name, sizeof(name));
	esc(name, ename, sizeof(ename));
	struct match m = { .ename = ename, .dev = dev, .ino = ino, .what = DROP_LINE };
	int r = edit(dir, by_name, &m);
	return r < 0 ? r : r ? 0 : -ENOENT;
}

/* %XX back to bytes */
static void unesc(const char *e, char *out, size_t len)
{
	size_t o = 0;
	for (; *e && o + 1 < len; e++) {
		unsigned v;
		if (*e == '%' && sscanf(e + 1, "%2x", &v) == 1) {
			out[o++] = (char)v;
			e += 2;
		} else {
			out[o++] = *e;
		}
	}
	out[o] = '\0';
}

static int stale(const char *dir, const char *ename, const char *line, const void *arg)
{
	const struct stat *side = arg;
	char name[NAME_MAX + 1];
	unesc(ename, name, sizeof(name));
	return line_counts(dir, name, line, side) ? KEEP_LINE : DROP_LINE;
}

bool sb_scratch_side_prune(const char *dir)
{
	char p[PATH_MAX + 32];
	struct stat side;
	snprintf(p, sizeof(p), "%s/%s", dir, SB_SCRATCH_SIDE);
	if (lstat(p, &side) != 0)
		return false;
	(void)edit(dir, stale, &side);
	return lstat(p, &side) == 0;
}

bool sb_scratch_side_is(const char *dir)
{
	int fd = side_open(dir, false, false);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}
