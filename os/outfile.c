/* outfile.c: the one gate for every file storbench writes (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/log.h"
#include "os/inputs.h"
#include "os/outfile.h"
#include "os/scratch.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

struct sb_outfile_io {
	int fd;
	int err; /* the first write error (errno), 0: none */
	/* sb_outfile_compress: the bytes written gathered into chunks of
	 * zcap, each written as its own zlib stream (zbuf NULL: plain) */
	unsigned char *zbuf;
	size_t zlen, zcap;
};

/* /dev/null by its device number: any node of it is the sink */
static bool is_null_dev(const struct stat *st)
{
	struct stat nl;
	return S_ISCHR(st->st_mode) && stat("/dev/null", &nl) == 0 && S_ISCHR(nl.st_mode) &&
	       nl.st_rdev == st->st_rdev;
}

static void say(const char *path, const struct sb_outname *n, const char *problem,
		const char *fix)
{
	const char *opt = n && n->opt ? n->opt : "output";
	const char *what = n && n->what ? n->what : "the output";
	if (n && n->where)
		sb_err(n->where, "%s=%s: cannot write %s there: %s: %s", opt, path, what, problem, fix);
	else
		sb_err(opt, "cannot write %s to %s: %s: %s", what, path, problem, fix);
}

/* the refusal for what st describes, or NULL: it may be written */
static int judge(const char *path, const struct stat *st, const struct sb_outname *n,
		 unsigned flags)
{
	char fix[512], problem[4096 + 256], ipath[4096], irole[128];
	const char *opt = n && n->opt ? n->opt : "the option";
	const char *p = NULL;
	int e = -EPERM;
	if (S_ISDIR(st->st_mode)) {
		p = "it is a folder (Is a directory)";
		e = -EISDIR;
		snprintf(fix, sizeof(fix), "give %s a file name, not a folder", opt);
	} else if (S_ISBLK(st->st_mode)) {
		p = "it is a block device, and storbench never writes results or logs over a device";
		snprintf(fix, sizeof(fix), "give %s a regular file", opt);
	} else if (S_ISCHR(st->st_mode) && !is_null_dev(st)) {
		p = "it is a character device, and storbench writes results and logs only to "
		    "regular files (or /dev/null, to discard them)";
		snprintf(fix, sizeof(fix), "give %s a regular file", opt);
	} else if (S_ISFIFO(st->st_mode) && !(flags & SB_OUT_FIFO)) {
		p = "it is a FIFO, and this output has no FIFO mode (what it writes would be lost "
		    "without a reader)";
		snprintf(fix, sizeof(fix), "give %s a regular file", opt);
	} else if (S_ISSOCK(st->st_mode)) {
		p = "it is a socket";
		snprintf(fix, sizeof(fix), "give %s a regular file", opt);
	} else if (sb_inputs_find(st->st_dev, st->st_ino, ipath, sizeof(ipath), irole,
				  sizeof(irole))) {
		snprintf(problem, sizeof(problem), "it is %s, the %s this run reads, and writing it "
			 "would replace that input", ipath, irole);
		p = problem;
		snprintf(fix, sizeof(fix), "give %s a file of its own", opt);
	}
	if (!p)
		return 0;
	say(path, n, p, fix);
	return e;
}

int sb_outfile_check(const char *path, const struct sb_outname *n, unsigned flags)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0; /* nothing there yet (or unreadable: the open says why) */
	return judge(path, &st, n, flags);
}

/* all of buf to the descriptor, or the first errno kept in a->err */
static void put_all(struct sb_outfile_io *a, const void *buf, size_t len)
{
	size_t done = 0;
	while (done < len && !a->err) {
		ssize_t w = write(a->fd, (const char *)buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			a->err = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
}

/* the gathered chunk as one zlib stream (fio's log_store_compressed
 * chunks: iolog.c, each chunk deflated on its own, read back by
 * iolog_file_inflate stream after stream) */
static void zchunk(struct sb_outfile_io *a)
{
	if (!a->zlen || a->err)
		return;
	uLongf n = compressBound((uLong)a->zlen);
	unsigned char *out = malloc(n);
	if (!out || compress2(out, &n, a->zbuf, (uLong)a->zlen, Z_DEFAULT_COMPRESSION) != Z_OK)
		a->err = ENOMEM;
	else
		put_all(a, out, n);
	free(out);
	a->zlen = 0;
}

/* the stream's writes: all of it, or the first errno kept for the message */
static ssize_t cookie_write(void *c, const char *buf, size_t len)
{
	struct sb_outfile_io *a = c;
	for (size_t done = 0; a->zbuf && done < len && !a->err;) {
		size_t n = a->zcap - a->zlen < len - done ? a->zcap - a->zlen : len - done;
		memcpy(a->zbuf + a->zlen, buf + done, n);
		a->zlen += n;
		done += n;
		if (a->zlen == a->zcap)
			zchunk(a);
	}
	if (!a->zbuf)
		put_all(a, buf, len);
	if (a->err) {
		errno = a->err;
		return -1;
	}
	return (ssize_t)len;
}

int sb_outfile_compress(struct sb_outfile *o, size_t chunk)
{
	if (!o->f || !chunk || !(o->io->zbuf = malloc(chunk)))
		return -ENOMEM;
	o->io->zcap = chunk;
	return 0;
}

static int cookie_close(void *c)
{
	struct sb_outfile_io *a = c;
	int r = close(a->fd);
	a->fd = -1;
	return r;
}

static int attach(struct sb_outfile *a, int fd)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	if (!(a->io = malloc(sizeof(*a->io))))
		return -ENOMEM;
	*a->io = (struct sb_outfile_io){ .fd = fd };
	a->f = fopencookie(a->io, "w", io);
	return a->f ? 0 : -errno;
}

static void clear(struct sb_outfile *a)
{
	free(a->path);
	free(a->tmp);
	if (a->io)
		free(a->io->zbuf);
	free(a->io);
	*a = (struct sb_outfile){ 0 };
}

/* ".NAME.XXXXXX" in NAME's folder */
static char *tmp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dlen;
	size_t n = dlen + 1 + strlen(base) + 8;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%.*s.%s.XXXXXX", (int)dlen, path, base);
	return t;
}

static int open_fail(struct sb_outfile *a, const char *path, const struct sb_outname *n, int e)
{
	char fix[512];
	snprintf(fix, sizeof(fix), "give %s a file in an existing, writable folder",
		 n && n->opt ? n->opt : "it");
	if (e != -EINTR) /* a stop signal ended the wait for a FIFO's peer: the caller says it */
		say(path, n, strerror(-e), fix);
	clear(a);
	return e;
}

/* /dev/null, an allowed FIFO, a shared log: written in place; what was
 * opened is judged again (the name may have changed since the stat) */
static int open_in_place(struct sb_outfile *a, const char *path, const struct sb_outname *n,
			 unsigned flags, bool exists)
{
	struct stat st;
	int of = O_WRONLY | O_CLOEXEC | O_NOCTTY;
	if (flags & (SB_OUT_APPEND | SB_OUT_TRUNC)) /* a regular file, made if missing */
		of |= O_CREAT | O_NONBLOCK | (flags & SB_OUT_APPEND ? O_APPEND : 0);
	int fd = open(path, of, 0666);
	if (fd < 0)
		return open_fail(a, path, n, -errno);
	int e = fstat(fd, &st) ? -errno : judge(path, &st, n, flags);
	if (!e && (flags & SB_OUT_TRUNC) && S_ISREG(st.st_mode) && exists && ftruncate(fd, 0))
		e = open_fail(a, path, n, -errno);
	if (!e && (e = attach(a, fd)))
		e = open_fail(a, path, n, e);
	if (e) {
		close(fd);
		clear(a);
	}
	return e;
}

int sb_outfile_open(struct sb_outfile *a, const char *path, const struct sb_outname *n,
		    unsigned flags)
{
	struct stat st;
	mode_t mode = 0666;
	*a = (struct sb_outfile){ 0 };
	bool exists = stat(path, &st) == 0;
	int e = exists ? judge(path, &st, n, flags) : 0;
	if (e)
		return e;
	if (exists && (flags & SB_OUT_NEW)) {
		say(path, n, "it exists, and storbench writes only new files there",
		    "move it away, or write to a new folder");
		return -EEXIST;
	}
	a->flags = flags;
	if (!(a->path = strdup(path)))
		return -ENOMEM;
	if ((exists && !S_ISREG(st.st_mode)) || (flags & (SB_OUT_APPEND | SB_OUT_TRUNC)))
		return open_in_place(a, path, n, flags, exists);
	if (exists) {
		if (access(path, W_OK) != 0) /* a file the user made read-only */
			return open_fail(a, path, n, -errno);
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);
		umask(um);
		mode &= ~um;
	}
	a->tmp = tmp_template(path);
	int fd = a->tmp ? mkostemp(a->tmp, O_CLOEXEC) : -1;
	if (fd < 0)
		return open_fail(a, path, n, a->tmp ? -errno : -ENOMEM);
	if (fchmod(fd, mode) != 0 || (e = attach(a, fd)) != 0) {
		e = e ? e : -errno;
		close(fd);
		unlink(a->tmp); /* the temporary made just now */
		return open_fail(a, path, n, e);
	}
	return 0;
}

/* fd's identity as os/scratch.h keeps it, unmarked on purpose */
static int ident(int fd, const char *path, struct sb_scratch_id *id)
{
	int e = sb_scratch_identify(fd, path, id);
	if (!e)
		id->mark_err = ENODATA;
	return e;
}

int sb_outfile_commit(struct sb_outfile *a)
{
	return sb_outfile_commit_id(a, NULL);
}

int sb_outfile_commit_id(struct sb_outfile *a, struct sb_scratch_id *id)
{
	int e = 0;
	if (!a->f)
		return -EBADF;
	if (fflush(a->f) == 0)
		zchunk(a->io); /* the last, partial chunk */
	if (ferror(a->f) || a->io->err)
		e = a->io->err ? a->io->err : EIO;
	if (!e && a->tmp && fsync(a->io->fd) != 0)
		e = errno;
	if (!e && id && (e = -ident(a->io->fd, NULL, id)))
		memset(id, 0, sizeof(*id));
	if (fclose(a->f) != 0 && !e)
		e = a->io->err ? a->io->err : errno;
	a->f = NULL;
	if (!e && a->tmp && ((a->flags & SB_OUT_NEW) ?
			     renameat2(AT_FDCWD, a->tmp, AT_FDCWD, a->path, RENAME_NOREPLACE) :
			     rename(a->tmp, a->path)) != 0)
		e = errno;
	if (e && a->tmp)
		unlink(a->tmp);
	clear(a);
	return -e;
}

void sb_outfile_abort(struct sb_outfile *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	clear(a);
}

int sb_outfile_error(const struct sb_outfile *a)
{
	return a->io ? a->io->err : 0;
}

int sb_outfile_fd(const struct sb_outfile *a)
{
	return a->io ? a->io->fd : -1;
}

/* The file made and marked before it has a name: an unnamed inode in
 * path's folder (O_TMPFILE), marked, then linked under path (linkat fails
 * with EEXIST if the name is taken: as exclusive as O_EXCL).  -EOPNOTSUPP
 * where it cannot be done this way (no O_TMPFILE there; no user xattrs,
 * whose fallback record needs the name; no /proc): the caller makes it the
 * plain way. */
static int create_unnamed(const char *path, int oflags, mode_t mode, const char *job,
			  struct sb_scratch_id *id)
{
	char dir[PATH_MAX], self[64];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	int fd = open(dir, (oflags & ~(O_TRUNC | O_CREAT | O_EXCL)) | O_TMPFILE | O_CLOEXEC, mode);
	if (fd < 0)
		return -EOPNOTSUPP;
	if (sb_scratch_made_fd(fd, job, id) || !id->marked || id->side) {
		close(fd); /* an unnamed inode: gone with its descriptor */
		return -EOPNOTSUPP;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0) {
		int e = errno;
		close(fd);
		return e == ENOENT ? -EOPNOTSUPP : -e; /* ENOENT: no /proc (dir exists) */
	}
	return fd;
}

int sb_outfile_create_unkillable(const char *path, int oflags, mode_t mode, const char *job,
				 struct sb_scratch_id *id)
{
	struct sb_scratch_id own;
	int fd = create_unnamed(path, oflags, mode, job, id ? id : &own);
	return fd == -EOPNOTSUPP ? sb_outfile_create(path, oflags, mode, job, id) : fd;
}

int sb_outfile_create(const char *path, int oflags, mode_t mode, const char *job,
		      struct sb_scratch_id *id)
{
	struct sb_scratch_id own;
	int fd = open(path, (oflags & ~O_TRUNC) | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	int e = sb_scratch_made_fd(fd, job, id ? id : &own);
	if (e) { /* cannot tell it is ours later: never leave it unknown */
		close(fd);
		(void)unlink(path); /* made by O_EXCL a moment ago */
		return e;
	}
	return fd;
}

int sb_outfile_mkdir(const char *path, mode_t mode, const char *job, struct sb_scratch_id *id)
{
	if (mkdir(path, mode) != 0)
		return -errno;
	if (!id)
		return 0;
	int e = job ? sb_scratch_made_path(path, job, id) : ident(-1, path, id);
	if (e)
		(void)rmdir(path); /* made a moment ago, and empty */
	return e;
}

int sb_outfile_open_data(const char *path, int oflags, mode_t mode)
{
	struct stat st;
	int fd = open(path, oflags | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && sb_inputs_find(st.st_dev, st.st_ino, NULL, 0, NULL, 0)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

static bool kernel_fs(const struct statfs *sf, bool cgroup_only)
{
	if (sf->f_type == CGROUP_SUPER_MAGIC || sf->f_type == CGROUP2_SUPER_MAGIC)
		return true;
	return !cgroup_only && (sf->f_type == PROC_SUPER_MAGIC || sf->f_type == SYSFS_MAGIC);
}

int sb_outfile_kernel(const char *path)
{
	struct statfs sf;
	struct stat st;
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sf) != 0 || fstat(fd, &st) != 0 || (!kernel_fs(&sf, false) &&
	    (!S_ISREG(st.st_mode) || sb_inputs_find(st.st_dev, st.st_ino, NULL, 0, NULL, 0)))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* path's folder on cgroupfs */
static int cgroup_parent(const char *path)
{
	struct statfs sf;
	char dir[4096];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (statfs(dir, &sf) != 0)
		return -errno;
	return kernel_fs(&sf, true) ? 0 : -EPERM;
}

int sb_outfile_kernel_mkdir(const char *path, mode_t mode)
{
	int e = cgroup_parent(path);
	return e ? e : mkdir(path, mode) == 0 ? 0 : -errno;
}

int sb_outfile_kernel_rmdir(const char *path)
{
	int e = cgroup_parent(path);
	return e ? e : rmdir(path) == 0 ? 0 : -errno;
}

FILE *sb_outfile_memory(const char *name, int *fd)
{
	*fd = memfd_create(name, MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	int w = dup(*fd);
	FILE *f = w < 0 ? NULL : fdopen(w, "w");
	if (!f) {
		int e = errno;
		if (w >= 0)
			close(w);
		close(*fd);
		*fd = -1;
		errno = e;
	}
	return f;
}
