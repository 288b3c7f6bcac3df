/* mpi.c: dist.h over MPI (Open MPI, MPICH): the only file that includes
 * mpi.h.  MPI is initialized only when a launcher started this process
 * (mpirun, mpiexec, srun with PMI/PMIx): a plain run stays one rank and pays
 * nothing. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "dist/dist.h"
#include "dist/pack.h"
#include "lib/log.h"

#define TAG_STOP 7301
#define TAG_DONE 7302 /* a job finished on the sending rank (wait_for) */

static struct {
	bool on;                 /* MPI initialized by us */
	int rank, size, local_rank, local_size, nhosts;
	char host[SB_DIST_HOST_MAX];
	char lib[64];
	MPI_Comm local;
} d = { .size = 1, .local_size = 1, .nhosts = 1, .lib = "none" };

/* the launcher's marks: Open MPI, PMI-1/2 (MPICH hydra, srun --mpi=pmi2),
 * PMIx (srun --mpi=pmix, Open MPI 5) */
static bool launched(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
					    "PMI_RANK", "MPI_LOCALNRANKS" };
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]))
			return true;
	return false;
}

int sb_dist_start(int *argc, char ***argv)
{
	int prov = 0, len = 0;
	if (gethostname(d.host, sizeof(d.host)) != 0)
		snprintf(d.host, sizeof(d.host), "localhost");
	d.host[sizeof(d.host) - 1] = '\0';
	if (!launched())
		return 0;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &prov) != MPI_SUCCESS)
		return -EIO;
	d.on = true;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &d.size);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, d.rank, MPI_INFO_NULL, &d.local);
	MPI_Comm_rank(d.local, &d.local_rank);
	MPI_Comm_size(d.local, &d.local_size);
	int first = d.local_rank == 0;
	MPI_Allreduce(&first, &d.nhosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	MPI_Get_library_version(v, &len);
	v[strcspn(v, ",\n")] = '\0';
	snprintf(d.lib, sizeof(d.lib), "%.63s", v);
	return 0;
}

void sb_dist_finish(void)
{
	if (!d.on)
		return;
	MPI_Comm_free(&d.local);
	MPI_Finalize();
	d.on = false;
}

const char *sb_dist_library(void) { return d.lib; }
int sb_dist_rank(void) { return d.rank; }
int sb_dist_size(void) { return d.size; }
const char *sb_dist_hostname(void) { return d.host; }
int sb_dist_local_rank(void) { return d.local_rank; }
int sb_dist_local_size(void) { return d.local_size; }
int sb_dist_nhosts(void) { return d.nhosts; }

static int ret(int mpi_rc)
{
	return mpi_rc == MPI_SUCCESS ? 0 : -EIO;
}

/* the stop listener's lock (below): MPI_THREAD_SERIALIZED */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

#define WAIT_SPINS 64 /* sched_yield turns before the naps */
/* the i-th turn of a wait: yield first, then nap ever longer with a short
 * scheduler slice (slice: whether it was asked for, to give back after) */
static void pace(unsigned i, bool *slice)
{
	if (i < WAIT_SPINS) {
		sched_yield();
		return;
	}
	if (i == WAIT_SPINS)
		*slice = sb_dist_short_slice(true);
	sb_dist_nap(i - WAIT_SPINS, d.local_size);
}

/* A started non-blocking operation, waited for by a few tests with
 * sched_yield, then by tests between naps (sb_dist_nap).  MPI's own
 * blocking calls poll without sleeping (Open MPI: busy polling), so on a
 * host with more ranks than cores the ranks that wait take the CPU from the
 * ones that would make progress; a napping rank leaves it free and still
 * moves its part of a tree on within a nap.  Under mu, so the listener's
 * tests may run between ours. */
static int wait_req(MPI_Request *req)
{
	int flag = 0, rc = MPI_SUCCESS;
	bool slice = false;
	for (unsigned i = 0;; i++) {
		pthread_mutex_lock(&mu);
		rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
		pthread_mutex_unlock(&mu);
		if (flag || rc != MPI_SUCCESS)
			break;
		pace(i, &slice);
	}
	if (slice)
		sb_dist_short_slice(false);
	return ret(rc);
}

/* starts a collective (under mu) and returns from the calling function
 * with wait_req's result */
#define NB(call)                                                        \
	do {                                                            \
		MPI_Request nb_req;                                     \
		pthread_mutex_lock(&mu);                                \
		int nb_rc = (call);                                     \
		pthread_mutex_unlock(&mu);                              \
		if (nb_rc != MPI_SUCCESS)                               \
			return -EIO;                                    \
		return wait_req(&nb_req);                               \
	} while (0)

int sb_dist_barrier(void)
{
	if (!d.on)
		return 0;
	NB(MPI_Ibarrier(MPI_COMM_WORLD, &nb_req));
}

int sb_dist_bcast(void *buf, size_t len, int root)
{
	if (!d.on || !len)
		return 0;
	if (len > (size_t)INT32_MAX)
		return -E2BIG;
	NB(MPI_Ibcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD, &nb_req));
}

static MPI_Op op_of(enum sb_dist_op op)
{
	return op == SB_DIST_SUM ? MPI_SUM : op == SB_DIST_MIN ? MPI_MIN : MPI_MAX;
}

static int reduce(void *v, size_t n, MPI_Datatype t, enum sb_dist_op op, bool all)
{
	if (!d.on || !n)
		return 0;
	if (n > (size_t)INT32_MAX)
		return -E2BIG;
	if (all)
		NB(MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, t, op_of(op), MPI_COMM_WORLD, &nb_req));
	NB(MPI_Ireduce(d.rank ? v : MPI_IN_PLACE, d.rank ? NULL : v, (int)n, t, op_of(op), 0,
		       MPI_COMM_WORLD, &nb_req));
}

int sb_dist_reduce_u64(uint64_t *v, size_t n, enum sb_dist_op op, bool all)
{
	return reduce(v, n, MPI_UINT64_T, op, all);
}

int sb_dist_reduce_double(double *v, size_t n, enum sb_dist_op op, bool all)
{
	return reduce(v, n, MPI_DOUBLE, op, all);
}

/* ---- the record reduction: a binomial tree of point-to-point messages
 * (rank r receives from r + 1, r + 2, r + 4, ... below its lowest set bit,
 * then sends to r minus that bit), each record packed by zero runs: a
 * record is mostly empty histogram bins, so a 200 KB record of a job whose
 * latencies fill a few dozen bins travels as a few KB.  Waiting is
 * wait_req's (naps), so on an oversubscribed host the ranks that wait
 * leave the CPU to the ones that combine. */
#define TAG_REC 7303

static int send_rec(const void *buf, size_t len, int to)
{
	uint64_t *out = malloc(sb_dist_pack_bound(len));
	if (!out) /* the parent would wait for this record forever */
		sb_dist_abort(SB_EXIT_IOERR);
	size_t plen = sb_dist_pack(buf, len, out);
	if (plen > (size_t)INT32_MAX) { /* the parent would wait for it forever */
		sb_err("mpi", "a rank's packed results are %zu bytes, over MPI's 2 GiB message: "
		       "fewer jobs or a shorter time series (log_avg_msec)", plen);
		sb_dist_abort(SB_EXIT_IOERR);
	}
	MPI_Request req;
	int rc = ret(MPI_Isend(out, (int)plen, MPI_BYTE, to, TAG_REC, MPI_COMM_WORLD, &req));
	if (!rc)
		rc = wait_req(&req);
	free(out);
	return rc;
}

static int recv_rec(void *buf, void *tmp, size_t len, int from, sb_dist_combine_fn combine)
{
	MPI_Message msg;
	MPI_Status st;
	MPI_Request req;
	int flag = 0, n = 0;
	bool slice = false;
	for (unsigned i = 0; !flag; i++) { /* the size first: wait_req's naps */
		pthread_mutex_lock(&mu);
		int rc = MPI_Improbe(from, TAG_REC, MPI_COMM_WORLD, &flag, &msg, &st);
		pthread_mutex_unlock(&mu);
		if (rc != MPI_SUCCESS)
			return -EIO;
		if (flag)
			break;
		pace(i, &slice);
	}
	if (slice)
		sb_dist_short_slice(false);
	MPI_Get_count(&st, MPI_BYTE, &n);
	uint64_t *in = malloc(n > 0 ? (size_t)n : 1);
	if (!in) /* the sender would wait forever */
		sb_dist_abort(SB_EXIT_IOERR);
	int rc = 0;
	if (!rc)
		rc = ret(MPI_Imrecv(in, n, MPI_BYTE, &msg, &req));
	if (!rc)
		rc = wait_req(&req);
	if (!rc)
		rc = sb_dist_unpack(in, (size_t)n, tmp, len);
	if (!rc)
		combine(buf, tmp, len);
	free(in);
	return rc;
}

int sb_dist_reduce_rec(void *buf, size_t len, sb_dist_combine_fn combine)
{
	if (!d.on || d.size == 1)
		return 0;
	void *tmp = malloc(len ? len : 1);
	if (!tmp) /* a child would wait for its record to be taken forever */
		sb_dist_abort(SB_EXIT_IOERR);
	int rc = 0;
	/* every rank goes through its part of the tree, also after a failure
	 * (then it sends what it has), so that no rank waits forever */
	for (int mask = 1; mask < d.size; mask <<= 1) {
		if (d.rank & mask) {
			int e = send_rec(buf, len, d.rank - mask);
			rc = rc ? rc : e;
			break;
		}
		if (d.rank + mask < d.size) {
			int e = recv_rec(buf, tmp, len, d.rank + mask, combine);
			rc = rc ? rc : e;
		}
	}
	free(tmp);
	return rc;
}

int sb_dist_gather(const void *mine, size_t len, void *all)
{
	if (!d.on) {
		memcpy(all, mine, len);
		return 0;
	}
	if (len > (size_t)INT32_MAX)
		return -E2BIG;
	NB(MPI_Igather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &nb_req));
}

void sb_dist_abort(int code)
{
	fflush(stdout);
	fflush(stderr);
	if (d.on)
		MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}

/* ---- the stop listener.  MPI_THREAD_SERIALIZED: while it runs, its
 * thread and the collectives take turns through mu. */
static struct {
	pthread_t th;
	bool running;
	void (*on_stop)(void);
	bool (*stopping)(void *);
	void *arg;
	atomic_bool done;
	int sent, got;
	/* wait_for across ranks: per job, how many other ranks finished it */
	atomic_uint *ndone;
	int *jbuf;                  /* the send buffers: jbuf[i] == i */
	unsigned njobs;
	void (*on_done)(void *);
	void *done_arg;
	MPI_Request *dreq;          /* the done messages sent (under mu) */
	int ndreq, capdreq, dsent, dgot;
	int dtok;
} w;

/* under mu: a done message arrived (tok: the job) */
static void took_done(void)
{
	if (w.dtok >= 0 && (unsigned)w.dtok < w.njobs)
		atomic_fetch_add(&w.ndone[w.dtok], 1);
	w.dgot++;
}

static void send_stop(MPI_Request *sreq, int *out)
{
	static int one = 1;
	for (int r = 0; r < d.size; r++)
		if (r != d.rank)
			MPI_Isend(&one, 1, MPI_INT, r, TAG_STOP, MPI_COMM_WORLD, &sreq[(*out)++]);
	w.sent = 1;
}

static void *watch_main(void *arg)
{
	MPI_Request req, dreq, *sreq = arg;
	int tok = 0, flag = 0, cancelled = 0, out = 0;
	pthread_mutex_lock(&mu);
	MPI_Irecv(&tok, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &req);
	MPI_Irecv(&w.dtok, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &dreq);
	pthread_mutex_unlock(&mu);
	for (;;) {
		bool done = atomic_load(&w.done), news = false;
		pthread_mutex_lock(&mu);
		for (int f = 1; f;) { /* every done message that has come */
			MPI_Test(&dreq, &f, MPI_STATUS_IGNORE);
			if (f) {
				took_done();
				news = true;
				MPI_Irecv(&w.dtok, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &dreq);
			}
		}
		if (!w.got) {
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
			if (flag) {
				w.got = 1;
				w.on_stop();
			}
		}
		/* this rank stops of its own accord: the others stop too */
		if (!w.sent && !w.got && w.stopping(w.arg)) {
			send_stop(sreq, &out);
			w.on_stop();
		}
		pthread_mutex_unlock(&mu);
		if (news && w.on_done)
			w.on_done(w.done_arg);
		if (done)
			break;
		nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
	}
	{
		MPI_Status st;
		int dc = 0;
		MPI_Cancel(&dreq);
		MPI_Wait(&dreq, &st);
		MPI_Test_cancelled(&st, &dc);
		if (!dc)
			took_done();
	}
	if (!w.got) {
		MPI_Status st;
		MPI_Cancel(&req);
		MPI_Wait(&req, &st);
		MPI_Test_cancelled(&st, &cancelled);
		w.got = !cancelled;
	}
	MPI_Waitall(out, sreq, MPI_STATUSES_IGNORE);
	return NULL;
}

static MPI_Request *watch_sreq;

int sb_dist_watch_begin(void (*on_stop)(void), bool (*stopping)(void *), void *arg)
{
	if (!d.on || d.size == 1)
		return 0;
	free(watch_sreq);
	if (!(watch_sreq = calloc((size_t)d.size, sizeof(*watch_sreq))))
		sb_dist_abort(SB_EXIT_IOERR); /* no stop or job-end news: the others could wait forever */
	w.on_stop = on_stop;
	w.stopping = stopping;
	w.arg = arg;
	w.sent = w.got = 0;
	w.dsent = w.dgot = w.ndreq = 0;
	atomic_store(&w.done, false);
	if (pthread_create(&w.th, NULL, watch_main, watch_sreq)) {
		sb_err("mpi", "cannot start the stop listener thread");
		sb_dist_abort(SB_EXIT_IOERR);
	}
	w.running = true;
	return 0;
}

int sb_dist_watch_end(unsigned *nstopped)
{
	int n = 0;
	*nstopped = 0;
	if (!w.running)
		return 0;
	atomic_store(&w.done, true);
	pthread_join(w.th, NULL);
	w.running = false;
	free(watch_sreq);
	watch_sreq = NULL;
	/* every stopping rank sent one message to each other rank: take the
	 * ones not yet received, so that none is left over */
	int sent[2] = { w.sent, w.dsent };
	MPI_Request req;
	int rc = ret(MPI_Iallreduce(MPI_IN_PLACE, sent, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
	if (!rc)
		rc = wait_req(&req);
	n = sent[0];
	for (int left = n - w.sent - w.got; !rc && left > 0; left--) {
		int tok;
		rc = ret(MPI_Recv(&tok, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE));
	}
	/* the same for the done messages: each sb_dist_done sent one to every
	 * other rank */
	int dn = sent[1];
	for (int left = dn - w.dsent - w.dgot; !rc && left > 0; left--)
		rc = ret(MPI_Recv(&w.dtok, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD,
				  MPI_STATUS_IGNORE));
	if (w.ndreq)
		MPI_Waitall(w.ndreq, w.dreq, MPI_STATUSES_IGNORE);
	free(w.dreq);
	free(w.ndone);
	free(w.jbuf);
	w.dreq = NULL;
	w.ndone = NULL;
	w.jbuf = NULL;
	w.ndreq = w.capdreq = w.dsent = w.dgot = 0;
	w.njobs = 0;
	*nstopped = (unsigned)n;
	return rc;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sb_dist_sync(void)
{
	if (d.on && d.size > 1) {
		MPI_Request req;
		pthread_mutex_lock(&mu);
		MPI_Ibarrier(MPI_COMM_WORLD, &req);
		pthread_mutex_unlock(&mu);
		wait_req(&req);
	}
	return wall_ns();
}

uint64_t sb_dist_sync_vote(bool *stop)
{
	if (d.on && d.size > 1) {
		MPI_Request req;
		int mine = *stop, any = 0;
		pthread_mutex_lock(&mu);
		MPI_Iallreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
		pthread_mutex_unlock(&mu);
		wait_req(&req);
		*stop = any != 0;
	}
	return wall_ns();
}

/* How far ahead of the last rank's arrival the common start lies: enough
 * for every rank to learn the vote's result first (a few naps, and on a
 * host with more ranks than CPUs their turns on them): 2 ms plus 2 ms per
 * rank per CPU of the busiest host. */
static uint64_t start_margin_ns(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t n = (uint64_t)d.local_size, c = ncpu > 0 ? (uint64_t)ncpu : 1;
	return 2000000ull + 2000000ull * ((n + c - 1) / c);
}

uint64_t sb_dist_sync_start(bool *stop)
{
	if (d.on && d.size > 1) {
		/* every rank proposes now + margin; the latest proposal wins */
		uint64_t m = start_margin_ns(), v[3] = { wall_ns() + m, *stop, m };
		MPI_Request req;
		bool slice = sb_dist_short_slice(true);
		pthread_mutex_lock(&mu);
		MPI_Iallreduce(MPI_IN_PLACE, v, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &req);
		pthread_mutex_unlock(&mu);
		wait_req(&req);
		*stop = v[1] != 0;
		/* with the hosts' clocks in step the start is at most the largest
		 * margin (v[2]) away; a host whose clock runs ahead would make
		 * every rank wait for its lead (minutes, deaf to Ctrl-C): no
		 * more than v[2].  The wait runs on CLOCK_MONOTONIC, so a step
		 * of the wall clock meanwhile does not stretch it either. */
		struct timespec mono;
		uint64_t now = wall_ns();
		clock_gettime(CLOCK_MONOTONIC, &mono);
		uint64_t wait = v[0] > now ? v[0] - now : 0;
		wait = wait < v[2] ? wait : v[2];
		uint64_t at_ns = (uint64_t)mono.tv_sec * 1000000000ull + (uint64_t)mono.tv_nsec + wait;
		struct timespec at = { (time_t)(at_ns / 1000000000ull), (long)(at_ns % 1000000000ull) };
		while (!*stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
			;
		uint64_t woke = wall_ns();
		if (slice)
			sb_dist_short_slice(false);
		return woke;
	}
	return wall_ns();
}

int sb_dist_watch_jobs(unsigned njobs, void (*on_done)(void *), void *arg)
{
	if (!d.on || d.size == 1)
		return 0;
	free(w.ndone);
	free(w.jbuf);
	w.ndone = calloc(njobs ? njobs : 1, sizeof(*w.ndone));
	w.jbuf = calloc(njobs ? njobs : 1, sizeof(*w.jbuf));
	if (!w.ndone || !w.jbuf) /* the other ranks' wait_for would never hear of this one's jobs */
		sb_dist_abort(SB_EXIT_IOERR);
	for (unsigned i = 0; i < njobs; i++)
		w.jbuf[i] = (int)i;
	w.njobs = njobs;
	w.on_done = on_done;
	w.done_arg = arg;
	return 0;
}

int sb_dist_done(unsigned job)
{
	if (!d.on || d.size == 1 || !w.running || job >= w.njobs)
		return 0;
	int rc = 0;
	pthread_mutex_lock(&mu);
	if (w.ndreq + d.size > w.capdreq) {
		int cap = (w.capdreq + d.size) * 2;
		MPI_Request *p = realloc(w.dreq, (size_t)cap * sizeof(*p));
		if (!p) /* the others would wait for this job's end forever */
			sb_dist_abort(SB_EXIT_IOERR);
		w.dreq = p;
		w.capdreq = cap;
	}
	int *buf = &w.jbuf[job];
	for (int r = 0; r < d.size && !rc; r++)
		if (r != d.rank)
			rc = ret(MPI_Isend(buf, 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD, &w.dreq[w.ndreq++]));
	w.dsent++;
	pthread_mutex_unlock(&mu);
	return rc;
}

unsigned sb_dist_done_count(unsigned job)
{
	if (!w.ndone || job >= w.njobs)
		return 0;
	return atomic_load(&w.ndone[job]);
}
