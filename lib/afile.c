/* afile.c: write a results or log file whole or not at all (afile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/afile.h"

struct sb_afile_io {
	int fd;
	int err; /* the first write error (errno), 0: none */
};

/* the stream's writes: all of it, or the first errno kept for the message */
static ssize_t cookie_write(void *c, const char *buf, size_t len)
{
	struct sb_afile_io *a = c;
	size_t done = 0;
	while (done < len && !a->err) {
		ssize_t w = write(a->fd, buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			a->err = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	if (a->err) {
		errno = a->err;
		return -1;
	}
	return (ssize_t)len;
}

static int cookie_close(void *c)
{
	struct sb_afile_io *a = c;
	int r = close(a->fd);
	a->fd = -1;
	return r;
}

static int attach(struct sb_afile *a, int fd)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	if (!(a->io = malloc(sizeof(*a->io))))
		return -ENOMEM;
	*a->io = (struct sb_afile_io){ .fd = fd };
	a->f = fopencookie(a->io, "w", io);
	return a->f ? 0 : -errno;
}

static void clear(struct sb_afile *a)
{
	free(a->path);
	free(a->tmp);
	free(a->io);
	*a = (struct sb_afile){ 0 };
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

int sb_afile_open(struct sb_afile *a, const char *path, const char **why)
{
	struct stat st;
	mode_t mode = 0666;
	*a = (struct sb_afile){ 0 };
	*why = "";
	bool exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return -EISDIR; /* strerror's "Is a directory" says it */
	if (exists && S_ISBLK(st.st_mode)) {
		*why = "it is a block device, and storbench never writes results or logs over a device";
		return -EPERM;
	}
	if (!(a->path = strdup(path)))
		return -ENOMEM;
	if (exists && !S_ISREG(st.st_mode)) { /* /dev/null, /dev/full, a FIFO, a tty */
		int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		int e = fd < 0 ? -errno : attach(a, fd);
		if (e) {
			if (fd >= 0)
				close(fd);
			clear(a);
		}
		return e;
	}
	if (exists) {
		if (access(path, W_OK) != 0) { /* a file the user made read-only */
			int e = errno;
			clear(a);
			return -e;
		}
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);
		umask(um);
		mode &= ~um;
	}
	a->tmp = tmp_template(path);
	int fd = a->tmp ? mkostemp(a->tmp, O_CLOEXEC) : -1;
	if (fd < 0) {
		int e = a->tmp ? errno : ENOMEM;
		clear(a);
		return -e;
	}
	if (fchmod(fd, mode) != 0 || attach(a, fd) != 0) {
		int e = errno;
		close(fd);
		unlink(a->tmp);
		clear(a);
		return -e;
	}
	return 0;
}

int sb_afile_commit(struct sb_afile *a)
{
	int e = 0;
	if (!a->f)
		return -EBADF;
	if (fflush(a->f) != 0 || ferror(a->f) || a->io->err)
		e = a->io->err ? a->io->err : EIO;
	if (!e && a->tmp && fsync(a->io->fd) != 0)
		e = errno;
	if (fclose(a->f) != 0 && !e)
		e = a->io->err ? a->io->err : errno;
	a->f = NULL;
	if (!e && a->tmp && rename(a->tmp, a->path) != 0)
		e = errno;
	if (e && a->tmp)
		unlink(a->tmp);
	clear(a);
	return -e;
}

void sb_afile_abort(struct sb_afile *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	clear(a);
}

int sb_afile_error(const struct sb_afile *a)
{
	return a->io ? a->io->err : 0;
}
