/* pack.c: records packed by zero runs, and how a rank waits (pack.h).
 * A job's record is mostly empty histogram bins: packed, a 200 KB record
 * of a job whose latencies fill a few dozen bins is a few KB. */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dist/pack.h"

size_t sb_dist_pack_bound(size_t len)
{
	size_t n = len / 8;
	return (n + n / 2 + 2) * 8 + len % 8;
}

static uint64_t word(const char *p, size_t i)
{
	uint64_t w;
	memcpy(&w, p + i * 8, 8);
	return w;
}

size_t sb_dist_pack(const void *src, size_t len, uint64_t *out)
{
	size_t n = len / 8, o = 0, i = 0;
	const char *p = src;
	while (i < n) {
		uint64_t z = 0, l = 0;
		for (; i < n && z < UINT32_MAX && !word(p, i); i++)
			z++;
		size_t h = o++;
		for (; i < n && l < UINT32_MAX && word(p, i); i++, l++)
			out[o++] = word(p, i);
		out[h] = z << 32 | l;
	}
	memcpy(out + o, p + n * 8, len % 8);
	return o * 8 + len % 8;
}

int sb_dist_unpack(const uint64_t *in, size_t plen, void *dst, size_t len)
{
	size_t n = len / 8, o = 0, i = 0;
	char *p = dst;
	if (plen < len % 8 || (plen - len % 8) % 8)
		return -EPROTO;
	size_t pn = (plen - len % 8) / 8;
	while (o < pn) {
		uint64_t z = in[o] >> 32, l = in[o] & UINT32_MAX;
		o++;
		if (z > n - i || l > n - i - z || l > pn - o)
			return -EPROTO;
		memset(p + i * 8, 0, z * 8);
		memcpy(p + (i + z) * 8, in + o, l * 8);
		i += z + l;
		o += l;
	}
	if (i != n)
		return -EPROTO;
	memcpy(p + n * 8, (const char *)(in + pn), len % 8);
	return 0;
}

#define NAP_NS 50000L

void sb_dist_nap(unsigned k, int ranks_here)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	long per = c > 0 ? (ranks_here + c - 1) / c : ranks_here;
	long cap = NAP_NS * (per > 1 ? per : 1);
	long ns = k < 16 && (NAP_NS << k) < cap ? NAP_NS << k : cap;
	nanosleep(&(struct timespec){ 0, ns }, NULL);
}

/* A SCHED_OTHER thread may ask for a short time slice (sched_setattr's
 * sched_runtime, no privilege needed), which gives it an early deadline:
 * woken, it runs before the threads that already have the CPU.  A rank
 * waiting for a collective or for the common start asks for 100 us, so that
 * on a host with more threads than CPUs (the I/O threads of the ranks that
 * started first) it takes its turn in the tree, and wakes at the start
 * without waiting for their slices to end.  Older kernels ignore the
 * request or refuse it (then nothing changes). */
struct sched_attr_slice {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

bool sb_dist_short_slice(bool on)
{
	static _Thread_local bool held;
	if (held == on)
		return false;
	held = on;
#ifdef SYS_sched_setattr
	struct sched_attr_slice a = { .size = sizeof(a), .policy = 0 /* SCHED_OTHER */,
				      .runtime = on ? 100000 : 0 };
	a.nice = getpriority(PRIO_PROCESS, 0);
	(void)syscall(SYS_sched_setattr, 0, &a, 0);
#endif
	return true;
}
