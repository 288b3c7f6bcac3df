/* trace_ring.c: the rings' setters and waits (stats/trace.h), and the
 * trace files this process has written: a path written before - by an
 * earlier run of the same process, such as the previous point of a sweep -
 * is appended to, not truncated, and its event ids go on from where they
 * stopped, so one trace holds every run. */
#include <pthread.h>
#include <sched.h>
#include <sys/types.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "stats/trace.h"

void sb_trace_thread(struct sb_trace_ring *r)
{
	r->tid = (uint32_t)gettid();
}

void sb_trace_rank(struct sb_trace_ring *r, int rank)
{
	if (r->rank != rank)   /* set once per ring: the writer reads it after commits */
		r->rank = rank;
}

void sb_trace_wait_room(struct sb_trace_ring *r, uint64_t h)
{
	atomic_fetch_add_explicit(&r->waits, 1, memory_order_relaxed);
	while (h - atomic_load_explicit(&r->tail, memory_order_acquire) >= SB_TRACE_RING)
		sched_yield();
}

struct reg {
	char *path;
	uint64_t next_id;
	struct reg *next;
};

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct reg *regs;

bool sb_trace_reg_get(const char *path, uint64_t *next_id)
{
	bool seen = false;
	pthread_mutex_lock(&reg_mu);
	for (struct reg *r = regs; r && !seen; r = r->next)
		if (!strcmp(r->path, path)) {
			*next_id = r->next_id;
			seen = true;
		}
	pthread_mutex_unlock(&reg_mu);
	return seen;
}

void sb_trace_reg_put(const char *path, uint64_t next_id)
{
	pthread_mutex_lock(&reg_mu);
	struct reg *r = regs;
	while (r && strcmp(r->path, path))
		r = r->next;
	if (!r && (r = calloc(1, sizeof(*r)))) {
		if ((r->path = strdup(path))) {
			r->next = regs;
			regs = r;
		} else {
			free(r);
			r = NULL;   /* out of memory: a later run truncates the file */
		}
	}
	if (r)
		r->next_id = next_id;
	pthread_mutex_unlock(&reg_mu);
}
