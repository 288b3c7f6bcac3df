/* place.h: Linux calls that place the calling thread and its memory: CPU
 * affinity, the CPUs of a NUMA node, nice, I/O priority, a memory range's
 * NUMA policy, and the page cache of a file range.  Each returns 0 or a
 * negative errno. */
#ifndef SB_OS_PLACE_H
#define SB_OS_PLACE_H
#include <stddef.h>
#include <stdint.h>

#define SB_OS_CPU_WORDS 16 /* uint64_t words of a CPU set (1024 CPUs) */

/* ORs the CPUs of NUMA node `node` (sysfs cpulist) into bits; -ENOENT when
 * the node does not exist (root: the sysfs root, "" for the real one) */
int sb_os_node_cpus(const char *root, unsigned node, uint64_t bits[SB_OS_CPU_WORDS]);
/* pins the calling thread to the CPUs in bits */
int sb_os_pin_thread(const uint64_t bits[SB_OS_CPU_WORDS]);
/* the calling thread's nice value (setpriority on its tid) */
int sb_os_set_nice(int nice);
/* the calling thread's I/O priority: class 0-3, level 0-7 (ioprio_set) */
int sb_os_set_ioprio(unsigned cls, unsigned level);
/* the kernel's memory policies (linux/mempolicy.h MPOL_*) */
#define SB_OS_MPOL_DEFAULT 0
#define SB_OS_MPOL_PREFERRED 1
#define SB_OS_MPOL_BIND 2
#define SB_OS_MPOL_INTERLEAVE 3
#define SB_OS_MPOL_LOCAL 4
/* mbind(2) [addr, addr+len) with mode (SB_OS_MPOL_*) over the nodes in the
 * mask (bit N: node N), moving pages already there */
int sb_os_mbind(void *addr, size_t len, int mode, uint64_t nodes);
/* how many of the pages of fd's [off, off+len) are in the page cache (mincore
 * of a mapping); -errno when it cannot be mapped */
int64_t sb_os_cached_pages(int fd, uint64_t off, uint64_t len);
/* Whether path can be trimmed: a block device whose queue takes discards
 * (sysfs discard_max_bytes), or an existing file whose file system punches
 * holes (probed past its end, which changes nothing).  0: yes (or a file
 * not there yet: the I/O will tell), -EOPNOTSUPP: no, -errno: cannot tell. */
int sb_os_can_trim(const char *path);
#endif
