/* mounts.c: refuse to write to block devices that hold mounted file systems,
 * partitions, swap, stacked devices or any signature (see mounts.h).  The
 * device is identified by its major:minor everywhere: a mount made through
 * another device node (mknod ./mydisk b 7 1) names the same numbers. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/mounts.h"

#define MAX_PARTS 64

/* the device and its partitions: kernel names and major:minor */
struct devset {
	char name[MAX_PARTS][NAME_MAX + 1];
	unsigned maj[MAX_PARTS], min[MAX_PARTS];
	int n;
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* index in ds of the device named by a path in mountinfo or swaps: by its
 * st_rdev when it is a block device (on the real system, or in the fixture
 * root), else by kernel name (/dev/mapper/x resolved to dm-0); -1: none */
static int which_dev(const char *root, const char *src, const struct devset *ds)
{
	char p[PATH_MAX * 2], real[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof(p), "%s%s", root, src);
	if (stat(p, &st) == 0 && S_ISBLK(st.st_mode)) {
		for (int i = 0; i < ds->n; i++)
			if (major(st.st_rdev) == ds->maj[i] && minor(st.st_rdev) == ds->min[i])
				return i;
		return -1;
	}
	const char *b = base_name(!*root && realpath(src, real) ? real : src);
	for (int i = 0; i < ds->n; i++)
		if (!strcmp(b, ds->name[i]))
			return i;
	return -1;
}

/* mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE SOURCE SUPER";
 * the number is that of the mounted device (btrfs shows an anonymous 0:N,
 * so the source is looked at as well).  Returns 1 with the hit, 0, -errno. */
static int mounted(const char *root, const struct devset *ds, char *why, size_t len)
{
	char path[PATH_MAX], line[8192];
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char mnt[4096], src[4096] = "";
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, mnt) != 3)
			continue;
		const char *dash = strstr(line, " - ");
		if (dash)
			sscanf(dash, " - %*s %4095s", src);
		int hit = -1;
		for (int i = 0; i < ds->n && hit < 0; i++)
			if (ma == ds->maj[i] && mi == ds->min[i])
				hit = i;
		if (hit < 0 && src[0] == '/')
			hit = which_dev(root, src, ds);
		if (hit >= 0) {
			snprintf(why, len, "it is mounted: device %u:%u (%s) on %s, through %s",
				 ds->maj[hit], ds->min[hit], ds->name[hit], mnt, src[0] ? src : "?");
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int swapped(const char *root, const struct devset *ds, char *why, size_t len)
{
	char path[PATH_MAX], line[4096], src[4096];
	snprintf(path, sizeof(path), "%s/proc/swaps", root);
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", src) != 1 || src[0] != '/')
			continue;
		int hit = which_dev(root, src, ds);
		if (hit >= 0) {
			snprintf(why, len, "it is in use as swap: device %u:%u (%s), listed in /proc/swaps as %s",
				 ds->maj[hit], ds->min[hit], ds->name[hit], src);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int read_majmin(const char *root, const char *rel, unsigned *ma, unsigned *mi)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s/sys/class/block/%s/dev", root, rel);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	int r = fscanf(f, "%u:%u", ma, mi) == 2 ? 0 : -EINVAL;
	fclose(f);
	return r;
}

/* The device and its partitions; -errno when sysfs does not know it. */
static int dev_and_parts(const char *root, const char *name, struct devset *ds)
{
	char dir[PATH_MAX], part[PATH_MAX * 2], rel[PATH_MAX];
	ds->n = 0;
	snprintf(dir, sizeof(dir), "%s/sys/class/block/%s", root, name);
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	snprintf(ds->name[0], NAME_MAX + 1, "%s", name);
	if (read_majmin(root, name, &ds->maj[0], &ds->min[0]))
		ds->maj[0] = ds->min[0] = 0;
	ds->n = 1;
	struct dirent *e;
	while ((e = readdir(d)) && ds->n < MAX_PARTS) {
		if (strncmp(e->d_name, name, strlen(name)))
			continue;
		snprintf(part, sizeof(part), "%s/%s/partition", dir, e->d_name);
		if (access(part, F_OK) != 0)
			continue;
		int k = ds->n++;
		snprintf(ds->name[k], NAME_MAX + 1, "%s", e->d_name);
		snprintf(rel, sizeof(rel), "%s/%s", name, e->d_name);
		if (read_majmin(root, rel, &ds->maj[k], &ds->min[k]))
			ds->maj[k] = ds->min[k] = 0;
	}
	closedir(d);
	return 0;
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
	static struct devset ds; /* 17 KiB: not on a thread stack; planning is single-threaded */
	char hit[NAME_MAX + 1];
	if (!root)
		root = "";
	int r = dev_and_parts(root, name, &ds);
	if (r < 0) {
		snprintf(why, len, "cannot inspect /sys/class/block/%s: %s", name, strerror(-r));
		return r;
	}
	r = mounted(root, &ds, why, len);
	if (r < 0) {
		snprintf(why, len, "cannot read /proc/self/mountinfo: %s", strerror(-r));
		return r;
	}
	if (r > 0 || swapped(root, &ds, why, len) > 0)
		return 1;
	if (ds.n > 1) {
		snprintf(why, len, "it has partitions (%s%s)", ds.name[1], ds.n > 2 ? ", ..." : "");
		return 1;
	}
	if (has_holders(root, name, hit, sizeof(hit))) {
		snprintf(why, len, "it is held by %s (device mapper, md or LVM)", hit);
		return 1;
	}
	return 0;
}

int sb_os_bdev_claim(const char *path, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	int e = errno;
	if (e == EBUSY)
		snprintf(why, len, "it is in use: the kernel refused an exclusive open (EBUSY), so it "
			 "is mounted (perhaps in another mount namespace), used as swap, part of a "
			 "device-mapper, md or LVM device, or held open exclusively by another program");
	else
		snprintf(why, len, "cannot open it to check whether it is in use: %s", strerror(e));
	return -e;
}

static const char *an(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) ? "an" : "a";
}

/* "an ext4 file system (UUID u, label l)", "a GPT partition table (UUID u)" */
static void describe(blkid_probe pr, char *what, size_t len)
{
	const char *type = NULL, *usage = NULL, *uuid = NULL, *label = NULL, *pt = NULL;
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
	blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
	if (!type && !blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL)) {
		blkid_probe_lookup_value(pr, "PTUUID", &uuid, NULL);
		const char *nice = !strcmp(pt, "gpt") ? "GPT" : !strcmp(pt, "dos") ? "DOS (MBR)" : pt;
		snprintf(what, len, "%s %s partition table%s%s%s", an(nice), nice,
			 uuid ? " (UUID " : "", uuid ? uuid : "", uuid ? ")" : "");
		return;
	}
	if (!type)
		type = "unknown";
	const char *kind = !strcmp(type, "swap") ? "swap area"
			 : usage && !strcmp(usage, "filesystem") ? "file system"
			 : usage && !strcmp(usage, "raid") ? "RAID or LVM member"
			 : usage && !strcmp(usage, "crypto") ? "encrypted volume"
			 : "signature";
	int n = snprintf(what, len, "%s %s %s", an(type), type, kind);
	if (n < 0 || (size_t)n >= len || !(uuid || label))
		return;
	snprintf(what + n, len - (size_t)n, " (%s%s%s%s%s)", uuid ? "UUID " : "", uuid ? uuid : "",
		 uuid && label ? ", " : "", label ? "label " : "", label ? label : "");
}

int sb_os_signature(int fd, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	int r = -EIO;
	if (blkid_probe_set_device(pr, fd, 0, 0) == 0) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						  BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL);
		blkid_probe_enable_partitions(pr, 1);
		blkid_probe_set_partitions_flags(pr, 0);
		int p = blkid_do_safeprobe(pr);
		if (p == 0) {
			describe(pr, what, len);
			r = 1;
		} else if (p == 1) {
			r = 0;
		} else if (p == -2) {
			snprintf(what, len, "more than one signature (file systems or partition tables; "
				 "see wipefs -n)");
			r = 1;
		}
	}
	blkid_free_probe(pr);
	return r;
}
