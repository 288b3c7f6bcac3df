/* cachedrop.c: sync + drop_caches, and whether the drop can evict a given
 * file's pages (see cachedrop.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "os/cachedrop.h"
#include "os/outfile.h"

#define SB_TMPFS_MAGIC 0x01021994L
#define SB_RAMFS_MAGIC 0x858458f6L

const char *sb_os_memfs(const char *path)
{
	struct statfs fs;
	if (!path || statfs(path, &fs) != 0)
		return NULL;
	if ((long)fs.f_type == SB_TMPFS_MAGIC)
		return "tmpfs";
	if ((long)(unsigned)fs.f_type == SB_RAMFS_MAGIC)
		return "ramfs";
	return NULL;
}

bool sb_os_drop_caches(const char *proc_path, const char *data_path, char *why, size_t len)
{
	const char *memfs = sb_os_memfs(data_path);
	sync();
	int fd = sb_outfile_kernel(proc_path); /* only a /proc or /sys file */
	if (fd < 0)
		errno = -fd;
	bool ok = fd >= 0 && write(fd, "1", 1) == 1;
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (len)
		why[0] = '\0';
	if (memfs) {
		snprintf(why, len, "%s is on %s: its files live in memory, which no cache drop evicts",
			 data_path, memfs);
		return false;
	}
	if (!ok) {
		snprintf(why, len, "%s %s: %s%s", fd < 0 ? "cannot open" : "cannot write", proc_path,
			 strerror(e), e == EACCES || e == EPERM || geteuid() ? " (needs root)" : "");
		return false;
	}
	return true;
}
