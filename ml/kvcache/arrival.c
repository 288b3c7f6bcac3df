/* arrival.c: the time rule of workload=kvcache's arrival waits, both
 * profiles (kvcache.h): a wait ends at the request's arrival, at the end of
 * runtime= or at a stop, whichever comes first. */
#include <errno.h>
#include <stdint.h>

#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "parse/jobspec.h"
#include "run/rate.h"

uint64_t sb_kv_end_ns(const struct sb_kv_job *k, const struct sb_jobspec *s)
{
	if (!s->runtime_us)
		return UINT64_MAX;
	uint64_t ns = s->runtime_us > UINT64_MAX / 1000 ? UINT64_MAX : s->runtime_us * 1000;
	return sb_kv_add_ns(k->start_ns, ns);
}

int sb_kv_wait_arrival(const struct sb_kv_job *k, const struct sb_jobspec *s, uint64_t arrive_ns)
{
	uint64_t end = sb_kv_end_ns(k, s);
	if (!sb_sleep_until(arrive_ns < end ? arrive_ns : end))
		return -EINTR;
	return arrive_ns < end ? 0 : 1;
}
