/* stop.c: the one stop flag of the process, SIGUSR1's status request and
 * the process's signal handlers (stop.h). */
#include <pthread.h>
#include <signal.h>

#include "lib/stop.h"

atomic_int sb_stop_flag;
atomic_int sb_status_flag;
static atomic_uint stop_count;
static volatile sig_atomic_t got_signal; /* MPI: an interrupt, not another rank's error */
static pthread_t main_thread;

void sb_stop_request(void)
{
	atomic_fetch_add_explicit(&stop_count, 1, memory_order_relaxed);
	atomic_store_explicit(&sb_stop_flag, 1, memory_order_relaxed);
}

unsigned sb_stop_count(void)
{
	return atomic_load_explicit(&stop_count, memory_order_relaxed);
}

void sb_stop_clear(void)
{
	atomic_store_explicit(&sb_stop_flag, 0, memory_order_relaxed);
}

void sb_status_request(void)
{
	atomic_store_explicit(&sb_status_flag, 1, memory_order_relaxed);
}

bool sb_status_take(void)
{
	return atomic_exchange_explicit(&sb_status_flag, 0, memory_order_relaxed) != 0;
}

/* SIGINT, SIGTERM, SIGHUP, SIGUSR2: stop */
static void on_stop(int sig)
{
	got_signal = 1;
	sb_stop_request();
	/* the kernel gives a process's signal to any of its threads (the stats
	 * thread, an I/O thread, MPI's): main's blocked open of a read_iolog=
	 * or --output FIFO ends only if main gets it too */
	if (!pthread_equal(pthread_self(), main_thread))
		pthread_kill(main_thread, sig);
}

/* SIGUSR1: the status, the run goes on */
static void on_status(int sig)
{
	(void)sig;
	sb_status_request();
}

void sb_stop_install(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR2 };
	struct sigaction sa = { .sa_handler = on_stop };
	struct sigaction st = { .sa_handler = on_status, .sa_flags = SA_RESTART };
	main_thread = pthread_self();
	sigemptyset(&sa.sa_mask);
	sigemptyset(&st.sa_mask);
	for (unsigned i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction old;
		/* nohup: SIGHUP stays ignored, the run outlives its session */
		if (stops[i] == SIGHUP && !sigaction(SIGHUP, NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(stops[i], &sa, NULL);
	}
	sigaction(SIGUSR1, &st, NULL);
}

bool sb_stop_signalled(void)
{
	return got_signal != 0;
}
