/* stop.c: the one stop flag of the process and SIGUSR1's status request
 * (stop.h). */
#include "lib/stop.h"

atomic_int sb_stop_flag;

void sb_stop_request(void)
{
	atomic_store_explicit(&sb_stop_flag, 1, memory_order_relaxed);
}

void sb_stop_clear(void)
{
	atomic_store_explicit(&sb_stop_flag, 0, memory_order_relaxed);
}

atomic_int sb_status_flag;

void sb_status_request(void)
{
	atomic_store_explicit(&sb_status_flag, 1, memory_order_relaxed);
}

bool sb_status_take(void)
{
	return atomic_exchange_explicit(&sb_status_flag, 0, memory_order_relaxed) != 0;
}
