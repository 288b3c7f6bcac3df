/* place.c: see place.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "os/outfile.h"
#include "lib/log.h"
#include "os/place.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "run/place.h"
#include "run/thread.h"

static int mpol_kernel(unsigned mode)
{
	switch (mode) {
	case SB_MPOL_PREFER: return SB_OS_MPOL_PREFERRED;
	case SB_MPOL_BIND: return SB_OS_MPOL_BIND;
	case SB_MPOL_INTERLEAVE: return SB_OS_MPOL_INTERLEAVE;
	case SB_MPOL_LOCAL: return SB_OS_MPOL_LOCAL;
	default: return SB_OS_MPOL_DEFAULT;
	}
}

#define HUGE_2M (2ul << 20)
/* hugepage-size (a power of two, parse/check_io.c) */
#define HUGE_UP(s, len) (((len) + (s)->hugepage_size - 1) & ~(size_t)((s)->hugepage_size - 1))

/* iomem=mmap*:FILE: create the thread's file (never an existing one: the
 * check refused those, and O_EXCL refuses one that appeared since), size
 * it and map it shared (on hugetlbfs the mapping is of huge pages); NULL
 * with errno on failure, having removed what it made */
static void *map_file(struct sb_thread *t, size_t maplen)
{
	char path[sizeof(t->spec->iomem_file) + 16];
	sb_iomem_file_path(t->spec, t->sub, path, sizeof(path));
	int fd = sb_outfile_create(path, O_RDWR, 0600, t->spec->name, &t->buf_file_id);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	void *p = MAP_FAILED;
	int e = 0;
	if (ftruncate(fd, (off_t)maplen))
		e = -errno;
	if (!e) {
		p = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			e = -errno;
	}
	if (e) {
		close(fd);
		(void)sb_scratch_unlink(path, &t->buf_file_id); /* the gate took its identity */
		memset(&t->buf_file_id, 0, sizeof(t->buf_file_id));
		errno = -e;
		return NULL;
	}
	t->buf_file_fd = fd;
	return p;
}

static int alloc_kind(struct sb_thread *t, size_t len, size_t align)
{
	const struct sb_jobspec *s = t->spec;
	void *p = NULL;
	size_t maplen;
	switch (s->iomem) {
	case SB_IOMEM_SHM:
	case SB_IOMEM_SHMHUGE: {
		bool huge = s->iomem == SB_IOMEM_SHMHUGE;
		maplen = huge ? HUGE_UP(s, len) : len;
		int id = shmget(IPC_PRIVATE, maplen, IPC_CREAT | 0600 | (huge ? SHM_HUGETLB : 0));
		if (id < 0)
			return -errno;
		p = shmat(id, NULL, 0);
		int e = errno;
		shmctl(id, IPC_RMID, NULL); /* gone once detached */
		if (p == (void *)-1)
			return -e;
		break;
	}
	case SB_IOMEM_MMAP:
	case SB_IOMEM_MMAPHUGE:
	case SB_IOMEM_MMAPSHARED: {
		bool huge = s->iomem == SB_IOMEM_MMAPHUGE;
		maplen = huge ? HUGE_UP(s, len) : len;
		if (s->iomem_file[0]) { /* a file-backed, shared mapping */
			p = map_file(t, maplen);
			if (!p)
				return -errno;
			break;
		}
		int fl = MAP_ANONYMOUS | (s->iomem == SB_IOMEM_MMAPSHARED ? MAP_SHARED : MAP_PRIVATE) |
			 (huge ? MAP_HUGETLB : 0);
		p = mmap(NULL, maplen, PROT_READ | PROT_WRITE, fl, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		break;
	}
	default:
		if (posix_memalign(&p, align, len))
			return -ENOMEM;
		if (align >= HUGE_2M)
			(void)madvise(p, len, MADV_HUGEPAGE);
		maplen = len;
		break;
	}
	t->etd.buf_base = p;
	t->buf_maplen = maplen;
	return 0;
}

int sb_place_buffers(struct sb_thread *t, size_t len, size_t align)
{
	const struct sb_jobspec *s = t->spec;
	/* iomem_align: the first buffer starts at that alignment; mmap and shm
	 * give page (or huge page) alignment, which covers up to that */
	if (s->iomem_align > align)
		align = (size_t)s->iomem_align;
	int r = alloc_kind(t, len, align);
	if (r) {
		const struct sb_option *o = SB_OPT(iomem);
		sb_err(s->name, "%s=%s: cannot allocate %zu bytes of I/O buffers: %s%s", o->name,
		       sb_option_enum_name(o, s->iomem), len, strerror(-r),
		       s->iomem == SB_IOMEM_SHMHUGE || s->iomem == SB_IOMEM_MMAPHUGE ?
		       " (reserve huge pages: echo N > /proc/sys/vm/nr_hugepages)" : "");
		return r;
	}
	/* --parse-only's check pass binds nothing: the nodes are the run's to
	 * check (parse/parse.h sb_parse_machine_checks) */
	if (s->mpol_mode && sb_parse_machine()) {
		r = sb_os_mbind(t->etd.buf_base, t->buf_maplen, mpol_kernel(s->mpol_mode),
				s->mpol_nodes);
		if (r) {
			sb_err(s->name, "%s=%s: mbind: %s", SB_OPT(numa_mem_policy)->name,
			       s->numa_mem_policy, strerror(-r));
			return r;
		}
	}
	return 0;
}

void sb_place_buffers_free(struct sb_thread *t)
{
	void *p = t->etd.buf_base;
	if (!p)
		return;
	switch (t->spec->iomem) {
	case SB_IOMEM_SHM:
	case SB_IOMEM_SHMHUGE:
		shmdt(p);
		break;
	case SB_IOMEM_MMAP:
	case SB_IOMEM_MMAPHUGE:
	case SB_IOMEM_MMAPSHARED:
		munmap(p, t->buf_maplen);
		if (t->buf_file_id.ino) { /* iomem=mmap*:FILE: ours, removed */
			char path[sizeof(t->spec->iomem_file) + 16];
			sb_iomem_file_path(t->spec, t->sub, path, sizeof(path));
			close(t->buf_file_fd);
			(void)sb_scratch_unlink(path, &t->buf_file_id);
			memset(&t->buf_file_id, 0, sizeof(t->buf_file_id));
		}
		break;
	default:
		free(p);
	}
	t->etd.buf_base = NULL;
}

/* the Nth CPU of set (wrapping around): cpus_allowed_policy=split */
static void pick_nth(uint64_t set[SB_OS_CPU_WORDS], unsigned n)
{
	unsigned count = 0;
	for (unsigned c = 0; c < SB_OS_CPU_WORDS * 64; c++)
		count += set[c / 64] >> (c % 64) & 1;
	if (!count)
		return;
	n %= count;
	for (unsigned c = 0; c < SB_OS_CPU_WORDS * 64; c++) {
		if (!(set[c / 64] >> (c % 64) & 1))
			continue;
		if (n-- == 0) {
			memset(set, 0, SB_OS_CPU_WORDS * sizeof(set[0]));
			set[c / 64] = 1ull << (c % 64);
			return;
		}
	}
}

static int cpu_set_of(const struct sb_jobspec *s, uint64_t set[SB_OS_CPU_WORDS], bool *on)
{
	_Static_assert(sizeof(s->cpuset) == SB_OS_CPU_WORDS * sizeof(uint64_t), "CPU set size");
	*on = false;
	memset(set, 0, SB_OS_CPU_WORDS * sizeof(set[0]));
	if (s->cpuset_on) {
		memcpy(set, s->cpuset, sizeof(s->cpuset));
		*on = true;
	}
	if (s->numa_cpu_nodes && strcmp(s->numa_cpu_nodes, "all")) {
		uint64_t nodes = 0, ncpu[SB_OS_CPU_WORDS] = { 0 };
		char *dup = strdup(s->numa_cpu_nodes), *save = NULL;
		if (!dup)
			return -ENOMEM;
		for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			unsigned long lo = strtoul(tok, &tok, 10), hi = lo;
			if (*tok == '-')
				hi = strtoul(tok + 1, NULL, 10);
			for (unsigned long n = lo; n <= hi && n < 64; n++)
				nodes |= 1ull << n;
		}
		free(dup);
		for (unsigned n = 0; n < 64; n++) {
			if (!(nodes >> n & 1))
				continue;
			int r = sb_os_node_cpus("", n, ncpu);
			if (r)
				return r;
		}
		if (*on) { /* both: the CPUs in both */
			for (unsigned w = 0; w < SB_OS_CPU_WORDS; w++)
				set[w] &= ncpu[w];
		} else {
			memcpy(set, ncpu, sizeof(ncpu));
		}
		*on = true;
	}
	return 0;
}

int sb_place_thread(struct sb_thread *t, const char **what)
{
	const struct sb_jobspec *s = t->spec;
	uint64_t set[SB_OS_CPU_WORDS];
	bool on;
	*what = NULL;
	int r = cpu_set_of(s, set, &on);
	if (!r && on) {
		if (s->cpus_allowed_policy == SB_CPUPOL_SPLIT)
			pick_nth(set, t->sub);
		r = sb_os_pin_thread(set);
	}
	if (r) {
		*what = s->numa_cpu_nodes && !s->cpuset_on ? SB_OPT(numa_cpu_nodes)->name :
			s->cpus_allowed ? SB_OPT(cpus_allowed)->name : SB_OPT(cpumask)->name;
		return r;
	}
	if (s->nice && (r = sb_os_set_nice(s->nice))) {
		*what = SB_OPT(nice)->name;
		return r;
	}
	if (s->ioprio_on && (r = sb_os_set_ioprio(s->prioclass, s->prio))) {
		*what = SB_OPT(prioclass)->name;
		return r;
	}
	return 0;
}
