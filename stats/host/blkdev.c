/* blkdev.c: which block devices hold a path - st_dev to
 * /sys/dev/block/MAJ:MIN (below the root, so fixture trees can stand in for
 * /sys), a partition to its disk, a dm or md device to the disks of its
 * slaves.  The disk collector then watches those names in /proc/diskstats. */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "stats/host/priv.h"

#define MAX_DEPTH 8   /* dm on md on partitions is 3; loops stop here */

static void add_name(const char *name, char names[][SB_HOST_NAME_MAX], unsigned max, unsigned *n)
{
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return;
	if (*n < max)
		snprintf(names[(*n)++], SB_HOST_NAME_MAX, "%.*s", SB_HOST_NAME_MAX - 1, name);
}

static bool exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];
	struct stat st;
	if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, leaf) >= sizeof(p))
		return false;
	return stat(p, &st) == 0;
}

/* dir: the resolved sysfs directory of a block device */
static int resolve(const char *dir, unsigned depth,
		   char names[][SB_HOST_NAME_MAX], unsigned max, unsigned *n)
{
	char cur[PATH_MAX], slaves[PATH_MAX];
	if (depth > MAX_DEPTH)
		return -ELOOP;
	snprintf(cur, sizeof(cur), "%s", dir);
	if (exists(cur, "partition")) {
		char *slash = strrchr(cur, '/');
		if (slash && slash != cur)
			*slash = 0;    /* the disk is the parent directory */
	}
	if ((size_t)snprintf(slaves, sizeof(slaves), "%s/slaves", cur) >= sizeof(slaves))
		return -ENAMETOOLONG;
	struct dirent **ents;
	int ne = scandir(slaves, &ents, NULL, alphasort);   /* sorted: stable order */
	unsigned before = *n;
	int err = 0;
	for (int i = 0; i < ne; i++) {
		char link[PATH_MAX], real[PATH_MAX];
		if (!err && ents[i]->d_name[0] != '.' &&
		    (size_t)snprintf(link, sizeof(link), "%s/%s", slaves, ents[i]->d_name) < sizeof(link) &&
		    realpath(link, real))
			err = resolve(real, depth + 1, names, max, n);
		free(ents[i]);
	}
	if (ne >= 0)
		free(ents);
	if (err)
		return err;
	if (*n == before) {   /* no slaves: cur is a disk */
		char *base = strrchr(cur, '/');
		add_name(base ? base + 1 : cur, names, max, n);
	}
	return 0;
}

int sb_host_dev_disks(const char *root, unsigned major, unsigned minor,
		      char names[][SB_HOST_NAME_MAX], unsigned max, unsigned *n)
{
	char link[PATH_MAX], real[PATH_MAX];
	const char *sep = root[0] && root[strlen(root) - 1] == '/' ? "" : "/";
	if (major == 0)
		return -ENODEV;   /* anonymous device: tmpfs, overlay, btrfs subvolume */
	if ((size_t)snprintf(link, sizeof(link), "%s%ssys/dev/block/%u:%u", root, sep,
			     major, minor) >= sizeof(link))
		return -ENAMETOOLONG;
	if (!realpath(link, real))
		return errno == ENOENT ? -ENODEV : -errno;
	return resolve(real, 0, names, max, n);
}

int sb_host_path_disks(const char *root, const char *path,
		       char names[][SB_HOST_NAME_MAX], unsigned max, unsigned *n)
{
	char p[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof(p), "%s", path);
	/* a file the job has not created yet lives on its directory's device */
	while (stat(p, &st) < 0) {
		if (errno != ENOENT || !strcmp(p, ".") || !strcmp(p, "/"))
			return -errno;
		char *slash = strrchr(p, '/');
		if (!slash)
			snprintf(p, sizeof(p), ".");
		else if (slash == p)
			p[1] = 0;
		else
			*slash = 0;
	}
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	return sb_host_dev_disks(root && *root ? root : "/", major(dev), minor(dev), names, max, n);
}
