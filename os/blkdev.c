/* blkdev.c: block-device facts from sysfs and ioctls (see blkdev.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/blkdev.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int sb_os_dev_name(const char *root, dev_t dev, bool whole_disk, char *name, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX], part[PATH_MAX + 16];
	if (!root)
		root = "";
	if (major(dev) == 0)
		return -ENOENT; /* anonymous device: tmpfs, overlay, btrfs subvolume */
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, major(dev), minor(dev));
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENOENT;
	target[n] = '\0';
	snprintf(part, sizeof(part), "%s/partition", link);
	if (whole_disk && access(part, F_OK) == 0) {
		char *slash = strrchr(target, '/');
		if (slash)
			*slash = '\0'; /* .../block/vda/vda1 -> .../block/vda */
	}
	if ((size_t)snprintf(name, len, "%s", base_name(target)) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static unsigned sysfs_lbs(dev_t dev)
{
	char name[64], path[PATH_MAX];
	unsigned v = 0;
	if (sb_os_dev_name("", dev, true, name, sizeof(name)))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/logical_block_size", name);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

unsigned sb_os_logical_block_size(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISBLK(st.st_mode)) {
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			int lbs = 0;
			if (fd >= 0) {
				if (ioctl(fd, BLKSSZGET, &lbs) != 0)
					lbs = 0;
				close(fd);
			}
			return lbs > 0 ? (unsigned)lbs : sysfs_lbs(st.st_rdev);
		}
		return sysfs_lbs(st.st_dev);
	}
	/* not there yet: the directory it will be created in */
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) == 0)
		return sysfs_lbs(st.st_dev);
	return 0;
}

int sb_os_bdev_size(int fd, uint64_t *bytes)
{
	if (ioctl(fd, BLKGETSIZE64, bytes) != 0)
		return -errno;
	return 0;
}
