/* place.c: see place.h.  Raw system calls (ioprio_set, mbind) rather than
 * libnuma: the kernel interfaces are stable and small, and storbench then
 * needs no extra package for numa_mem_policy. */
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "os/place.h"
#include "os/outfile.h"

int sb_os_node_cpus(const char *root, unsigned node, uint64_t bits[SB_OS_CPU_WORDS])
{
	char path[512], line[4096];
	snprintf(path, sizeof(path), "%s/sys/devices/system/node/node%u/cpulist", root, node);
	FILE *f = fopen(path, "r");
	if (!f)
		return node == 0 && errno == ENOENT && !*root ? -ENOTSUP : -ENOENT;
	char *ok = fgets(line, sizeof(line), f);
	fclose(f);
	if (!ok)
		return -EIO;
	for (char *p = line; *p && *p != '\n';) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p)
			return -EIO;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (unsigned long c = lo; c <= hi && c < SB_OS_CPU_WORDS * 64; c++)
			bits[c / 64] |= 1ull << (c % 64);
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

int sb_os_pin_thread(const uint64_t bits[SB_OS_CPU_WORDS])
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (unsigned c = 0; c < SB_OS_CPU_WORDS * 64 && c < CPU_SETSIZE; c++)
		if (bits[c / 64] >> (c % 64) & 1)
			CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int sb_os_set_nice(int nice)
{
	return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) ? -errno : 0;
}

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13

int sb_os_set_ioprio(unsigned cls, unsigned level)
{
	long r = syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
			 (int)(cls << IOPRIO_CLASS_SHIFT | level));
	return r ? -errno : 0;
}

#define K_MPOL_MF_MOVE (1 << 1)

int sb_os_mbind(void *addr, size_t len, int mode, uint64_t nodes)
{
	int k = mode;
	unsigned long mask = (unsigned long)nodes;
	bool with_nodes = k == SB_OS_MPOL_PREFERRED || k == SB_OS_MPOL_BIND ||
			  k == SB_OS_MPOL_INTERLEAVE;
	long r = syscall(SYS_mbind, addr, len, k, with_nodes ? &mask : NULL,
			 with_nodes ? 65ul : 0ul, K_MPOL_MF_MOVE);
	return r ? -errno : 0;
}

int64_t sb_os_cached_pages(int fd, uint64_t off, uint64_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t start = off & ~(uint64_t)(pg - 1);
	size_t n = (size_t)((off + len - start + (uint64_t)pg - 1) / (uint64_t)pg);
	if (!len)
		return 0;
	void *m = mmap(NULL, n * (size_t)pg, PROT_READ, MAP_SHARED, fd, (off_t)start);
	if (m == MAP_FAILED)
		return -errno;
	unsigned char *v = malloc(n);
	int64_t cached = -ENOMEM;
	if (v && !mincore(m, n * (size_t)pg, v)) {
		cached = 0;
		for (size_t i = 0; i < n; i++)
			cached += v[i] & 1;
	} else if (v) {
		cached = -errno;
	}
	free(v);
	munmap(m, n * (size_t)pg);
	return cached;
}

int sb_os_can_trim(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISBLK(st.st_mode)) {
		char p[128];
		unsigned long long max = 0;
		/* a partition's queue is its disk's: try the device, then its parent */
		for (unsigned i = 0; i < 2; i++) {
			snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/%squeue/discard_max_bytes",
				 major(st.st_rdev), minor(st.st_rdev), i ? "../" : "");
			FILE *f = fopen(p, "r");
			if (!f)
				continue;
			int n = fscanf(f, "%llu", &max);
			fclose(f);
			if (n == 1)
				return max ? 0 : -EOPNOTSUPP;
		}
		return -ENOENT;
	}
	if (!S_ISREG(st.st_mode))
		return -EOPNOTSUPP;
	int fd = sb_outfile_open_data(path, O_WRONLY, 0);
	if (fd < 0)
		return fd;
	off_t end = (st.st_size + 65535) & ~(off_t)65535;
	int r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, end + 65536, 4096);
	int e = r ? errno : 0;
	close(fd);
	return e == EOPNOTSUPP || e == ENOSYS ? -EOPNOTSUPP : 0;
}
