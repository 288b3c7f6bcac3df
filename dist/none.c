/* none.c: dist.h for a build without MPI (configure --disable-mpi, or no MPI
 * found): always one rank; collectives are no-ops or copies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist/dist.h"

static char host[SB_DIST_HOST_MAX];

int sb_dist_start(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	return 0;
}

void sb_dist_finish(void) {}
const char *sb_dist_library(void) { return "none"; }
int sb_dist_rank(void) { return 0; }
int sb_dist_size(void) { return 1; }
const char *sb_dist_hostname(void) { return host; }
int sb_dist_local_rank(void) { return 0; }
int sb_dist_local_size(void) { return 1; }
int sb_dist_nhosts(void) { return 1; }
int sb_dist_barrier(void) { return 0; }

int sb_dist_bcast(void *buf, size_t len, int root)
{
	(void)buf;
	(void)len;
	return root ? -EINVAL : 0;
}

int sb_dist_reduce_u64(uint64_t *v, size_t n, enum sb_dist_op op, bool all)
{
	(void)v, (void)n, (void)op, (void)all;
	return 0;
}

int sb_dist_reduce_double(double *v, size_t n, enum sb_dist_op op, bool all)
{
	(void)v, (void)n, (void)op, (void)all;
	return 0;
}

int sb_dist_reduce_rec(void *buf, size_t len, sb_dist_combine_fn combine)
{
	(void)buf, (void)len, (void)combine;
	return 0;
}

int sb_dist_gather(const void *mine, size_t len, void *all)
{
	memcpy(all, mine, len);
	return 0;
}

void sb_dist_abort(int code)
{
	fflush(stdout);
	fflush(stderr);
	exit(code);
}

int sb_dist_watch_begin(void (*on_stop)(void), bool (*stopping)(void *), void *arg)
{
	(void)on_stop, (void)stopping, (void)arg;
	return 0;
}

int sb_dist_watch_end(unsigned *nstopped)
{
	*nstopped = 0;
	return 0;
}

uint64_t sb_dist_sync(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sb_dist_sync_vote(bool *stop)
{
	(void)stop;
	return sb_dist_sync();
}

uint64_t sb_dist_sync_start(bool *stop)
{
	return sb_dist_sync_vote(stop);
}

int sb_dist_watch_jobs(unsigned njobs, void (*on_done)(void *), void *arg)
{
	(void)njobs, (void)on_done, (void)arg;
	return 0;
}

int sb_dist_done(unsigned job)
{
	(void)job;
	return 0;
}

unsigned sb_dist_done_count(unsigned job)
{
	(void)job;
	return 0;
}
