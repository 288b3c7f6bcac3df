/* sysinv.c: the system inventory (stats/sysinv.h) - CPU, NUMA, memory,
 * kernel and host name, then the file systems and disks behind the jobs'
 * paths, all read below the root as the host collectors read theirs; the
 * GPUs come from gpu.c's NVML loader.  Runs once, before the I/O starts. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "stats/host/priv.h"
#include "stats/sysinv.h"

#define MAX_CPUS 8192

static void rpath(const char *root, const char *rel, char *buf, size_t len)
{
	const char *sep = root[0] && root[strlen(root) - 1] == '/' ? "" : "/";
	while (*rel == '/')
		rel++;
	snprintf(buf, len, "%s%s%s", root, sep, rel);
}

/* first line of root/rel, trimmed, into out; "" when unreadable */
static void read_line(const char *root, const char *rel, char *out, size_t len)
{
	char p[PATH_MAX], buf[512];
	out[0] = 0;
	rpath(root, rel, p, sizeof(p));
	if (sb_host_read_file(p, buf, sizeof(buf)) < 0)
		return;
	size_t n = strcspn(buf, "\n");
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	char *s = buf;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	snprintf(out, len, "%.*s", (int)n, s);
}

static int64_t read_num(const char *root, const char *rel)
{
	char v[64], *end;
	read_line(root, rel, v, sizeof(v));
	errno = 0;
	long long x = strtoll(v, &end, 10);
	return v[0] && !*end && !errno && x >= 0 ? x : -1;
}

static void cpu_model(struct sb_sysinv *inv, const char *root)
{
	char p[PATH_MAX];
	rpath(root, "proc/cpuinfo", p, sizeof(p));
	FILE *f = fopen(p, "re");
	char line[512];
	/* x86: "model name"; arm64: none, so "CPU implementer/part" are not
	 * names - then the Hardware/Processor line if there is one */
	static const char *const keys[] = { "model name", "Hardware", "Processor", "cpu model" };
	int best = (int)(sizeof(keys) / sizeof(keys[0]));
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		for (int k = 0; k < best; k++) {
			size_t kl = strlen(keys[k]);
			if (strncmp(line, keys[k], kl) || (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':'))
				continue;
			char *v = colon + 1;
			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = 0;
			if (*v) {
				snprintf(inv->cpu_model, sizeof(inv->cpu_model), "%.255s", v);
				best = k;
			}
			break;
		}
	}
	if (f)
		fclose(f);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static unsigned distinct(uint64_t *v, unsigned n)
{
	unsigned d = 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (unsigned i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

/* sockets, cores, threads from the online CPUs' topology directories */
static void cpu_topology(struct sb_sysinv *inv, const char *root)
{
	char p[PATH_MAX];
	rpath(root, "sys/devices/system/cpu", p, sizeof(p));
	DIR *d = opendir(p);
	uint64_t *pkg = calloc(MAX_CPUS, sizeof(*pkg)), *core = calloc(MAX_CPUS, sizeof(*core));
	unsigned n = 0;
	struct dirent *e;
	while (d && pkg && core && n < MAX_CPUS && (e = readdir(d))) {
		char rel[320];
		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]) ||
		    e->d_name[3 + strspn(e->d_name + 3, "0123456789")])
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/%s/topology/physical_package_id", e->d_name);
		int64_t pk = read_num(root, rel);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/%s/topology/core_id", e->d_name);
		int64_t co = read_num(root, rel);
		if (pk < 0 || co < 0)
			continue;   /* offline: no topology */
		pkg[n] = (uint64_t)pk;
		core[n] = (uint64_t)pk << 32 | (uint64_t)co;
		n++;
	}
	if (d)
		closedir(d);
	if (n) {
		inv->threads = (int)n;
		inv->sockets = (int)distinct(pkg, n);
		inv->cores = (int)distinct(core, n);
	}
	free(pkg);
	free(core);
}

static void numa_nodes(struct sb_sysinv *inv, const char *root)
{
	char p[PATH_MAX];
	rpath(root, "sys/devices/system/node", p, sizeof(p));
	DIR *d = opendir(p);
	struct dirent *e;
	if (!d)
		return;   /* no NUMA support in the kernel: unknown */
	inv->numa_nodes = 0;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "node", 4) && isdigit((unsigned char)e->d_name[4]))
			inv->numa_nodes++;
	closedir(d);
}

static void mem_total(struct sb_sysinv *inv, const char *root)
{
	char p[PATH_MAX], buf[8192];
	rpath(root, "proc/meminfo", p, sizeof(p));
	if (sb_host_read_file(p, buf, sizeof(buf)) < 0)
		return;
	const char *m = strstr(buf, "MemTotal:");
	unsigned long long kb;
	if (m && sscanf(m, "MemTotal: %llu kB", &kb) == 1)
		inv->mem_total_bytes = (int64_t)(kb * 1024);
}

void sb_sysinv_host(struct sb_sysinv *inv, const char *root, const char *nvml_lib)
{
	root = root && *root ? root : "/";
	memset(inv, 0, sizeof(*inv));
	inv->sockets = inv->cores = inv->threads = inv->numa_nodes = -1;
	inv->mem_total_bytes = -1;
	cpu_model(inv, root);
	cpu_topology(inv, root);
	numa_nodes(inv, root);
	mem_total(inv, root);
	read_line(root, "proc/sys/kernel/osrelease", inv->kernel, sizeof(inv->kernel));
	read_line(root, "proc/sys/kernel/hostname", inv->hostname, sizeof(inv->hostname));
	if (nvml_lib && !*nvml_lib)
		snprintf(inv->gpu_reason, sizeof(inv->gpu_reason), "not asked");
	else
		sb_host_gpu_inventory(nvml_lib, inv);
}

/* ---- devices ---- */

static void add_disk(struct sb_sysinv *inv, const char *root, const char *name)
{
	char rel[160], v[SB_SYSINV_TEXT];
	for (unsigned i = 0; i < inv->ndevs; i++)
		if (!strcmp(inv->dev[i].name, name))
			return;
	if (inv->ndevs == SB_SYSINV_MAX_DEVS)
		return;
	struct sb_sysinv_dev *d = &inv->dev[inv->ndevs++];
	snprintf(d->name, sizeof(d->name), "%s", name);
#define SYS(leaf) (snprintf(rel, sizeof(rel), "sys/class/block/%s%s", name, leaf), rel)
	read_line(root, SYS("/device/model"), d->model, sizeof(d->model));
	read_line(root, SYS("/device/firmware_rev"), d->firmware, sizeof(d->firmware));
	if (!d->firmware[0])
		read_line(root, SYS("/device/rev"), d->firmware, sizeof(d->firmware));
	int64_t sectors = read_num(root, SYS("/size"));
	d->size_bytes = sectors >= 0 ? sectors * 512 : -1;
	d->logical_block_size = read_num(root, SYS("/queue/logical_block_size"));
	d->physical_block_size = read_num(root, SYS("/queue/physical_block_size"));
	int64_t rot = read_num(root, SYS("/queue/rotational"));
	d->rotational = rot < 0 ? -1 : rot != 0;
	read_line(root, SYS("/queue/scheduler"), v, sizeof(v));
	const char *open = strchr(v, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(d->scheduler, sizeof(d->scheduler), "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(d->scheduler, sizeof(d->scheduler), "%.31s", v);   /* "none" alone */
	d->nr_requests = read_num(root, SYS("/queue/nr_requests"));
	d->max_sectors_kb = read_num(root, SYS("/queue/max_sectors_kb"));
#undef SYS
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

static bool under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);
	if (!strcmp(mnt, "/"))
		return path[0] == '/';
	return !strncmp(path, mnt, n) && (path[n] == '/' || !path[n]);
}

/* the mount whose mount point is the longest one containing path (the
 * later line when two are equal: the one stacked on top) */
static void find_mount(struct sb_sysinv_fs *fs, const char *root, const char *path)
{
	char p[PATH_MAX], line[4096];
	size_t best = 0;
	rpath(root, "proc/self/mountinfo", p, sizeof(p));
	FILE *f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
		char mnt[SB_SYSINV_TEXT], opts[SB_SYSINV_TEXT];
		char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %255s %255s", mnt, opts) != 2)
			continue;
		unescape(mnt);
		if (!under(path, mnt) || strlen(mnt) < best)
			continue;
		char type[32], src[SB_SYSINV_TEXT], super[SB_SYSINV_TEXT] = "";
		if (sscanf(dash + 3, "%31s %255s %255s", type, src, super) < 2)
			continue;
		unescape(src);
		best = strlen(mnt);
		snprintf(fs->mount_point, sizeof(fs->mount_point), "%s", mnt);
		snprintf(fs->mount_options, sizeof(fs->mount_options), "%s", opts);
		snprintf(fs->fstype, sizeof(fs->fstype), "%s", type);
		snprintf(fs->source, sizeof(fs->source), "%s", src);
		snprintf(fs->fs_options, sizeof(fs->fs_options), "%s", super);
	}
	if (f)
		fclose(f);
}

void sb_sysinv_add_dev(struct sb_sysinv *inv, const char *root, const char *path,
		       unsigned major, unsigned minor, bool is_bdev)
{
	struct sb_sysinv_fs fs;
	char link[PATH_MAX], real[PATH_MAX], rel[64];
	root = root && *root ? root : "/";
	for (unsigned i = 0; i < inv->nfs; i++)
		if (!strcmp(inv->fs[i].path, path) ||
		    (major && inv->fs[i].major == major && inv->fs[i].minor == minor))
			return;
	memset(&fs, 0, sizeof(fs));
	snprintf(fs.path, sizeof(fs.path), "%s", path);
	fs.major = major;
	fs.minor = minor;
	if (major) {
		snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major, minor);
		rpath(root, rel, link, sizeof(link));
		if (realpath(link, real)) {
			const char *base = strrchr(real, '/');
			snprintf(fs.device, sizeof(fs.device), "%.63s", base ? base + 1 : real);
		}
	}
	if (!is_bdev)
		find_mount(&fs, root, path);
	for (unsigned i = 0; !is_bdev && i < inv->nfs; i++)
		if (inv->fs[i].mount_point[0] && !strcmp(inv->fs[i].mount_point, fs.mount_point) &&
		    !strcmp(inv->fs[i].device, fs.device))
			return;   /* the same file system as an earlier path */
	if (inv->nfs == SB_SYSINV_MAX_FS)
		return;
	if (major && sb_host_dev_disks(root, major, minor, fs.disks, SB_SYSINV_MAX_DEVS, &fs.ndisks))
		fs.ndisks = 0;
	for (unsigned i = 0; i < fs.ndisks; i++)
		add_disk(inv, root, fs.disks[i]);
	inv->fs[inv->nfs++] = fs;
}

void sb_sysinv_add_path(struct sb_sysinv *inv, const char *root, const char *path)
{
	char p[PATH_MAX], real[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof(p), "%s", path && *path ? path : ".");
	/* a file the job has not created yet lives on its directory's device */
	while (stat(p, &st) < 0) {
		if (errno != ENOENT || !strcmp(p, ".") || !strcmp(p, "/"))
			return;
		char *slash = strrchr(p, '/');
		if (!slash)
			snprintf(p, sizeof(p), ".");
		else if (slash == p)
			p[1] = 0;
		else
			*slash = 0;
	}
	if (!realpath(p, real))
		snprintf(real, sizeof(real), "%s", p);
	bool bdev = S_ISBLK(st.st_mode);
	dev_t dev = bdev ? st.st_rdev : st.st_dev;
	sb_sysinv_add_dev(inv, root, real, major(dev), minor(dev), bdev);
}
