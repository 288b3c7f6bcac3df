/* mounts.c: refuse to write to block devices that hold mounted file systems,
 * partitions, swap or stacked devices (see mounts.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/mounts.h"

/* kernel name of a device path as it appears in mounts/swaps */
static void dev_basename(const char *root, const char *src, char *out, size_t len)
{
	char real[PATH_MAX];
	const char *p = src;
	if (!*root && realpath(src, real))
		p = real; /* /dev/mapper/x -> /dev/dm-0, /dev/disk/by-id/... -> /dev/sda1 */
	const char *s = strrchr(p, '/');
	snprintf(out, len, "%.*s", (int)len - 1, s ? s + 1 : p);
}

/* Is any of names[0..n) listed as the first field of a line of file? */
static int listed_in(const char *root, const char *file, char names[][NAME_MAX + 1],
		     unsigned n, char *hit, size_t hitlen)
{
	char path[PATH_MAX], line[4096], src[PATH_MAX], base[NAME_MAX + 1];
	snprintf(path, sizeof(path), "%s%s", root, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", src) != 1 || src[0] != '/')
			continue;
		dev_basename(root, src, base, sizeof(base));
		for (unsigned i = 0; i < n; i++) {
			if (!strcmp(base, names[i])) {
				snprintf(hit, hitlen, "%s", names[i]);
				found = 1;
				break;
			}
		}
	}
	fclose(f);
	return found;
}

#define MAX_PARTS 64

/* The device and its partitions, as names[]; returns the count or -errno. */
static int dev_and_parts(const char *root, const char *name, char names[][NAME_MAX + 1])
{
	char dir[PATH_MAX], part[PATH_MAX * 2];
	int n = 0;
	snprintf(names[n++], NAME_MAX + 1, "%s", name);
	snprintf(dir, sizeof(dir), "%s/sys/class/block/%s", root, name);
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	struct dirent *e;
	while ((e = readdir(d)) && n < MAX_PARTS) {
		if (strncmp(e->d_name, name, strlen(name)))
			continue;
		snprintf(part, sizeof(part), "%s/%s/partition", dir, e->d_name);
		if (access(part, F_OK) == 0)
			snprintf(names[n++], NAME_MAX + 1, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

static int has_holders(const char *root, const char *name, char *holder, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/sys/class/block/%s/holders", root, name);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(holder, len, "%s", e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

int sb_os_bdev_in_use(const char *root, const char *name, char *why, size_t len)
{
	char names[MAX_PARTS][NAME_MAX + 1];
	char hit[NAME_MAX + 1];
	if (!root)
		root = "";
	int n = dev_and_parts(root, name, names);
	if (n < 0) {
		snprintf(why, len, "cannot inspect /sys/class/block/%s: %s", name, strerror(-n));
		return n;
	}
	int r = listed_in(root, "/proc/self/mounts", names, (unsigned)n, hit, sizeof(hit));
	if (r < 0) {
		snprintf(why, len, "cannot read /proc/self/mounts: %s", strerror(-r));
		return r;
	}
	if (r > 0) {
		snprintf(why, len, "/dev/%s is mounted", hit);
		return 1;
	}
	if (listed_in(root, "/proc/swaps", names, (unsigned)n, hit, sizeof(hit)) > 0) {
		snprintf(why, len, "/dev/%s is in use as swap", hit);
		return 1;
	}
	if (n > 1) {
		snprintf(why, len, "/dev/%s has partitions (%s%s)", name, names[1],
			 n > 2 ? ", ..." : "");
		return 1;
	}
	if (has_holders(root, name, hit, sizeof(hit))) {
		snprintf(why, len, "/dev/%s is held by %s (device mapper, md or LVM)", name, hit);
		return 1;
	}
	return 0;
}
