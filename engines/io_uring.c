/* io_uring.c: the io_uring engine through liburing.  queue() fills one SQE
 * (READ/WRITE, READV/WRITEV, READ_FIXED/WRITE_FIXED or FSYNC); commit()
 * submits them with one io_uring_enter; getevents() peeks the CQ ring and
 * only enters the kernel to wait when fewer than min completions are there.
 * fixedbufs, registerfiles, sqthread_poll(_cpu), hipri and nonvectored map to
 * registered buffers, registered files, SQPOLL(+SQ_AFF), IOPOLL and the
 * non-vectored opcodes.  When the kernel refuses one of them, init/open_file
 * say in td->errmsg which option to drop.  Nothing is allocated after init. */
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "engines/engine.h"
#include "lib/trim.h"

/* io_uring's job options (fio's names and meanings).  Declared in every build,
 * so that job files using them parse the same whether liburing was found. */
struct uring_opts {
	bool fixedbufs;         /* registered buffers */
	bool registerfiles;     /* registered files */
	bool sqthread_poll;     /* kernel submission-queue polling thread */
	bool hipri;             /* polled completions (IOPOLL) */
	int sqthread_poll_cpu;  /* CPU for that thread; -1 = any */
	int nonvectored;        /* 1 READ/WRITE, 0 READV/WRITEV, -1 READ/WRITE when the kernel has them (fio) */
};

#define UOFF(f) offsetof(struct uring_opts, f)
static const struct sb_option uring_options[] = {
	{ .name = "fixedbufs", .type = SB_OT_BOOL, .off = UOFF(fixedbufs), .def = "0",
	  .category = SB_CAT_ENG, .help = "io_uring: register the I/O buffers" },
	{ .name = "registerfiles", .type = SB_OT_BOOL, .off = UOFF(registerfiles), .def = "0",
	  .category = SB_CAT_ENG, .help = "io_uring: register the files" },
	{ .name = "sqthread_poll", .type = SB_OT_BOOL, .off = UOFF(sqthread_poll), .def = "0",
	  .category = SB_CAT_ENG, .help = "io_uring: kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = SB_OT_INT, .off = UOFF(sqthread_poll_cpu), .def = "-1",
	  .min = -1, .max = 4095, .category = SB_CAT_ENG,
	  .help = "io_uring: CPU for the polling thread (-1: any)" },
	{ .name = "hipri", .type = SB_OT_BOOL, .off = UOFF(hipri), .def = "0",
	  .category = SB_CAT_ENG, .help = "io_uring: polled completions (IOPOLL)" },
	{ .name = "nonvectored", .type = SB_OT_INT, .off = UOFF(nonvectored), .def = "-1",
	  .min = -1, .max = 1, .category = SB_CAT_ENG,
	  .help = "io_uring: 1 READ/WRITE, 0 READV/WRITEV, -1 READ/WRITE when the kernel has them" },
};
const struct sb_engine_options sb_io_uring_optset = {
	uring_options, sizeof(uring_options) / sizeof(uring_options[0]), sizeof(struct uring_opts),
};

#ifdef CONFIG_LIBURING
#include <errno.h>
#include <liburing.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/tsan.h"

/* the options without a job (NULL td->job): their defaults */
static const struct uring_opts ur_defaults = { .sqthread_poll_cpu = -1, .nonvectored = -1 };

static const struct uring_opts *ur_opts(const struct sb_engine_td *td)
{
	return td->job && td->job->opts ? td->job->opts : &ur_defaults;
}

#define UR_MAX_REG_BUFS 16384u  /* the kernel's limit on registered buffers */

struct uring_data {
	struct io_uring ring;
	struct iovec *iovecs;        /* one per io unit: READV/WRITEV and buffer registration */
	struct io_uring_cqe **cqes;  /* peek target */
	struct sb_io_u **done;       /* what event(i) returns */
	int *fds;                    /* registered-file table (registerfiles) */
	unsigned nios;
	unsigned outstanding;        /* queued and not yet reaped */
	bool fixedbufs;
	bool one_buf;                /* fixedbufs as one registered buffer (index 0) */
	bool fixedfiles;
	bool iopoll;
	bool nonvectored;
	bool enabled;              /* false until the I/O thread enables the ring */
};

static void ur_free(struct uring_data *ud)
{
	free(ud->iovecs);
	free(ud->cqes);
	free(ud->done);
	free(ud->fds);
	free(ud);
}

static int ur_try(struct uring_data *ud, unsigned entries, unsigned flags, int cpu)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	p.flags = flags;
	if (flags & IORING_SETUP_SQ_AFF)
		p.sq_thread_cpu = (unsigned)cpu;
	return io_uring_queue_init_params(entries, &ud->ring, &p);
}

static int ur_disabled_sysctl(void)
{
	int v = -1;
	FILE *fp = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	if (fp) {
		if (fscanf(fp, "%d", &v) != 1)
			v = -1;
		fclose(fp);
	}
	return v;
}

/* Setup failed with r for the flags the options asked for: find out which
 * option the kernel refuses, by trying again without it. */
static int ur_explain(struct sb_engine_td *td, struct uring_data *ud, int r, unsigned want)
{
	const struct uring_opts *s = ur_opts(td);
	char *m = td->errmsg;
	size_t ml = sizeof(td->errmsg);
	int dis = ur_disabled_sysctl();

	if ((r == -EPERM || r == -ENOSYS) && dis > 0) {
		snprintf(m, ml, "io_uring is disabled on this host (sysctl kernel.io_uring_disabled=%d): "
			 "use ioengine=libaio or psync", dis);
		return r;
	}
	if (r == -ENOSYS) {
		snprintf(m, ml, "this kernel has no io_uring (io_uring_setup: ENOSYS; needs Linux 5.1+): "
			 "use ioengine=libaio or psync");
		return r;
	}
	unsigned sq = IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF;
	if ((want & sq) && ur_try(ud, td->nios, want & ~sq, -1) == 0) {
		io_uring_queue_exit(&ud->ring);
		if ((want & IORING_SETUP_SQ_AFF) && r == -EINVAL)
			snprintf(m, ml, "sqthread_poll_cpu=%d is not a CPU this job may use: "
				 "pick another or drop sqthread_poll=1", s->sqthread_poll_cpu);
		else
			snprintf(m, ml, "the kernel refuses an SQ polling thread (%s; before Linux 5.11 it "
				 "needs CAP_SYS_ADMIN): drop sqthread_poll=1", strerror(-r));
		return r;
	}
	if ((want & IORING_SETUP_IOPOLL) && ur_try(ud, td->nios, 0, -1) == 0) {
		io_uring_queue_exit(&ud->ring);
		snprintf(m, ml, "the kernel refuses polled I/O (IOPOLL: %s): drop hipri=1", strerror(-r));
		return r;
	}
	if (r == -ENOMEM)
		snprintf(m, ml, "io_uring_setup(%u entries): out of locked memory (ulimit -l): "
			 "lower iodepth or raise the limit", td->nios);
	else if (r == -EPERM)
		snprintf(m, ml, "io_uring_setup: not permitted (EPERM; is io_uring restricted by "
			 "kernel.io_uring_disabled or a seccomp policy?): use ioengine=libaio or psync");
	else
		snprintf(m, ml, "io_uring_setup(%u entries): %s", td->nios, strerror(-r));
	return r;
}

/* nonvectored=-1 (fio's default): plain READ/WRITE when the kernel has them
 * (5.6+); they skip the iovec import on every I/O */
static bool ur_has_read_op(struct io_uring *ring)
{
	struct io_uring_probe *p = io_uring_get_probe_ring(ring);
	if (!p)
		return false;
	bool ok = io_uring_opcode_supported(p, IORING_OP_READ) &&
		  io_uring_opcode_supported(p, IORING_OP_WRITE);
	io_uring_free_probe(p);
	return ok;
}

/* Without sqthread_poll the ring runs its completion work only when this
 * thread enters the kernel to reap (DEFER_TASKRUN, 6.1+): no wake-ups or
 * IPIs per completion, the largest gain on fast devices.  It needs a single
 * submitter, so the ring starts disabled and the I/O thread enables it at its
 * first commit (init runs on the main thread).  Older kernels refuse the
 * flags with EINVAL: then COOP_TASKRUN (5.19+), then none.  With
 * sqthread_poll the kernel thread submits, so neither applies. */
static int ur_setup(struct sb_engine_td *td, struct uring_data *ud)
{
	const struct uring_opts *s = ur_opts(td);
	unsigned want = 0;
	static const unsigned tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
			IORING_SETUP_R_DISABLED | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		0,
	};

	if (s->sqthread_poll) {
		want |= IORING_SETUP_SQPOLL;
		if (s->sqthread_poll_cpu >= 0)
			want |= IORING_SETUP_SQ_AFF;
	}
	if (s->hipri)
		want |= IORING_SETUP_IOPOLL;
	int r = -EINVAL;
	/* hipri probes the file with one polled read at open_file, on the main
	 * thread: its ring cannot start disabled */
	for (unsigned i = s->sqthread_poll ? 2 : s->hipri ? 1 : 0; i < 3 && r == -EINVAL; i++) {
		r = ur_try(ud, td->nios, want | tries[i], s->sqthread_poll_cpu);
		ud->enabled = !(tries[i] & IORING_SETUP_R_DISABLED);
	}
	if (r < 0)
		return ur_explain(td, ud, r, want);
	ud->iopoll = want & IORING_SETUP_IOPOLL;
	return 0;
}

static int ur_register_bufs(struct sb_engine_td *td, struct uring_data *ud)
{
	int r;
	if (td->nios <= UR_MAX_REG_BUFS) {
		for (unsigned i = 0; i < td->nios; i++) {
			ud->iovecs[i].iov_base = td->ios[i].buf;
			ud->iovecs[i].iov_len = td->buf_per_io;
		}
		r = io_uring_register_buffers(&ud->ring, ud->iovecs, td->nios);
	} else {
		struct iovec one = { td->buf_base, td->buf_len };
		ud->one_buf = true;
		r = io_uring_register_buffers(&ud->ring, &one, 1);
	}
	if (r == 0)
		return 0;
	struct rlimit rl = { 0, 0 };
	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (r == -ENOMEM)
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "fixedbufs=1: cannot pin %llu bytes of I/O buffers (locked-memory limit, ulimit -l, "
			 "is %llu bytes): raise it, lower iodepth/bs, or drop fixedbufs=1",
			 (unsigned long long)td->buf_len, (unsigned long long)rl.rlim_cur);
	else
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "fixedbufs=1: registering the I/O buffers failed (%s): drop fixedbufs=1", strerror(-r));
	return r;
}

static int ur_register_files(struct sb_engine_td *td, struct uring_data *ud)
{
	ud->fds = malloc(td->nfiles * sizeof(*ud->fds));
	if (!ud->fds)
		return -ENOMEM;
	for (unsigned i = 0; i < td->nfiles; i++)
		ud->fds[i] = -1;  /* sparse: filled in by open_file */
	int r = io_uring_register_files(&ud->ring, ud->fds, td->nfiles);
	if (r < 0)
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "registerfiles=1: registering %u files failed (%s): drop registerfiles=1",
			 td->nfiles, strerror(-r));
	return r;
}

static int ur_init(struct sb_engine_td *td)
{
	struct uring_data *ud = calloc(1, sizeof(*ud));
	unsigned n = td->nios;
	if (!ud || !n) {
		free(ud);
		return n ? -ENOMEM : -EINVAL;
	}
	ud->nios = n;
	ud->iovecs = calloc(n, sizeof(*ud->iovecs));
	ud->cqes = calloc(n, sizeof(*ud->cqes));
	ud->done = calloc(n, sizeof(*ud->done));
	if (!ud->iovecs || !ud->cqes || !ud->done) {
		ur_free(ud);
		return -ENOMEM;
	}
	int r = ur_setup(td, ud);
	if (r < 0) {
		ur_free(ud);
		return r;
	}
	sb_tsan_ring_new();
	const struct uring_opts *o = ur_opts(td);
	ud->nonvectored = o->nonvectored > 0 || (o->nonvectored < 0 && ur_has_read_op(&ud->ring));
	ud->fixedbufs = o->fixedbufs;
	ud->fixedfiles = o->registerfiles && td->nfiles;
	if ((ud->fixedbufs && (r = ur_register_bufs(td, ud)) < 0) ||
	    (ud->fixedfiles && (r = ur_register_files(td, ud)) < 0)) {
		io_uring_queue_exit(&ud->ring);
		ur_free(ud);
		return r;
	}
	td->data = ud;
	return 0;
}

static void ur_cleanup(struct sb_engine_td *td)
{
	struct uring_data *ud = td->data;
	if (!ud)
		return;
	sb_tsan_ring_released();
	io_uring_queue_exit(&ud->ring);
	ur_free(ud);
	td->data = NULL;
}

/* hipri: polled completions need O_DIRECT and a file system or device that can
 * poll.  One read finds out now, instead of every I/O failing later. */
static int ur_probe_poll(struct sb_engine_td *td, struct uring_data *ud, struct sb_file *f)
{
	if (!td->job || !td->job->direct) {
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "hipri=1 (polled completions) needs direct=1, and %s is opened buffered: "
			 "set direct=1 or drop hipri=1", f->path);
		return -EINVAL;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ud->ring);
	struct io_uring_cqe *cqe;
	struct iovec iov = { td->ios[0].buf, td->buf_per_io < 4096 ? td->buf_per_io : 4096 };
	if (!sqe)
		return -EBUSY;
	io_uring_prep_readv(sqe, f->fd, &iov, 1, f->region_start & ~(uint64_t)4095);
	io_uring_sqe_set_data(sqe, NULL);
	int r = io_uring_submit_and_wait(&ud->ring, 1);
	if (r >= 0)
		r = io_uring_wait_cqe(&ud->ring, &cqe);
	if (r >= 0) {
		r = cqe->res;
		io_uring_cqe_seen(&ud->ring, cqe);
	}
	if (r == -EOPNOTSUPP || r == -EINVAL) {
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "hipri=1: %s cannot do polled I/O (its file system or device has no poll "
			 "support): drop hipri=1", f->path);
		return -EOPNOTSUPP;
	}
	return 0;  /* other errors (EOF, EIO) are not about polling */
}

static int ur_open_file(struct sb_engine_td *td, struct sb_file *f)
{
	struct uring_data *ud = td->data;
	int r;
	if (ud->iopoll) {
		r = ur_probe_poll(td, ud, f);
		if (r < 0)
			return r;
	}
	if (ud->fixedfiles) {
		if (f->index >= td->nfiles)
			return -EINVAL;
		r = io_uring_register_files_update(&ud->ring, f->index, &f->fd, 1);
		if (r < 0) {
			snprintf(td->errmsg, sizeof(td->errmsg),
				 "registerfiles=1: registering %s failed (%s): drop registerfiles=1",
				 f->path, strerror(-r));
			return r;
		}
	}
	return 0;
}

static int ur_close_file(struct sb_engine_td *td, struct sb_file *f)
{
	struct uring_data *ud = td->data;
	if (!ud->fixedfiles || f->index >= td->nfiles)
		return 0;
	int none = -1;
	int r = io_uring_register_files_update(&ud->ring, f->index, &none, 1);
	return r < 0 ? r : 0;
}

static void ur_prep_rw(struct uring_data *ud, struct io_uring_sqe *sqe, struct sb_io_u *io, int fd)
{
	bool rd = io->ddir == SB_DDIR_READ;
	unsigned len = (unsigned)io->len;

	if (ud->fixedbufs) {
		int bi = ud->one_buf ? 0 : (int)io->index;
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, io->buf, len, io->offset, bi);
		else
			io_uring_prep_write_fixed(sqe, fd, io->buf, len, io->offset, bi);
	} else if (ud->nonvectored) {
		if (rd)
			io_uring_prep_read(sqe, fd, io->buf, len, io->offset);
		else
			io_uring_prep_write(sqe, fd, io->buf, len, io->offset);
	} else {
		struct iovec *iov = &ud->iovecs[io->index];
		iov->iov_base = io->buf;
		iov->iov_len = io->len;
		if (rd)
			io_uring_prep_readv(sqe, fd, iov, 1, io->offset);
		else
			io_uring_prep_writev(sqe, fd, iov, 1, io->offset);
	}
	sqe->ioprio = (__u16)io->ioprio; /* cmdprio_*: 0, none, unless the run set one */
}

static enum sb_q_status ur_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct uring_data *ud = td->data;
	bool sync = io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC;

	if (io->ddir == SB_DDIR_TRIM) { /* no discard opcode before Linux 6.x: here, as fio */
		io->result = sb_trim(io->file->fd, io->file->is_bdev, io->offset, io->len);
		return SB_Q_COMPLETED;
	}
	if (io->ddir == SB_DDIR_SYNCRANGE) { /* here, in order with the submitter */
		io->result = sb_sync_range(io->file->fd, io->offset, io->len,
					   td->job ? td->job->sfr_flags : 0);
		return SB_Q_COMPLETED;
	}
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE && !sync) {
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	if (sync && ud->iopoll) {
		/* an IOPOLL ring takes only pollable requests: sync here, in order */
		if (ud->outstanding)
			return SB_Q_BUSY;
		int r = io->ddir == SB_DDIR_SYNC ? fsync(io->file->fd) : fdatasync(io->file->fd);
		io->result = r ? -errno : 0;
		return SB_Q_COMPLETED;
	}
	if (ud->outstanding >= ud->nios)
		return SB_Q_BUSY;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ud->ring);
	if (!sqe)
		return SB_Q_BUSY;
	int fd = ud->fixedfiles ? (int)io->file->index : io->file->fd;
	if (sync) {
		io_uring_prep_fsync(sqe, fd, io->ddir == SB_DDIR_DATASYNC ? IORING_FSYNC_DATASYNC : 0);
		sqe->flags |= IOSQE_IO_DRAIN;  /* after the writes queued before it */
	} else {
		ur_prep_rw(ud, sqe, io, fd);
	}
	if (ud->fixedfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	ud->outstanding++;
	return SB_Q_QUEUED;
}

static int ur_commit(struct sb_engine_td *td)
{
	struct uring_data *ud = td->data;
	if (__builtin_expect(!ud->enabled, 0)) {  /* the first commit, on the I/O thread */
		if (syscall(__NR_io_uring_register, ud->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0)
			return -errno;
		ud->enabled = true;
	}
	int r = io_uring_submit(&ud->ring);
	/* busy/again/intr: the SQEs stay in the ring; getevents submits them again */
	if (r >= 0 || r == -EAGAIN || r == -EBUSY || r == -EINTR)
		return 0;
	return r;
}

static int ur_getevents(struct sb_engine_td *td, unsigned min, unsigned max,
			const struct timespec *timeout)
{
	struct uring_data *ud = td->data;
	struct io_uring *ring = &ud->ring;

	if (io_uring_sq_ready(ring)) {
		int r = ur_commit(td);
		if (r < 0)
			return r;
	}
	if (max > ud->nios)
		max = ud->nios;
	if (min > ud->outstanding)
		min = ud->outstanding;  /* never wait for what was not queued */
	if (min > max)
		min = max;
	unsigned got = io_uring_peek_batch_cqe(ring, ud->cqes, max);
	if (got < min) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts, *tp = NULL;
		if (timeout) {
			ts.tv_sec = timeout->tv_sec;
			ts.tv_nsec = timeout->tv_nsec;
			tp = &ts;
		}
		int r = io_uring_wait_cqes(ring, &cqe, min, tp, NULL);
		if (r < 0 && r != -ETIME && r != -EINTR && r != -EAGAIN)
			return r;
		got = io_uring_peek_batch_cqe(ring, ud->cqes, max);
	} else if (!got && ud->outstanding) {
		struct io_uring_cqe *cqe;  /* IOPOLL or deferred task work: enter once */
		if (io_uring_peek_cqe(ring, &cqe) == 0)
			got = io_uring_peek_batch_cqe(ring, ud->cqes, max);
	}
	for (unsigned i = 0; i < got; i++) {
		struct sb_io_u *io = io_uring_cqe_get_data(ud->cqes[i]);
		io->result = ud->cqes[i]->res;
		ud->done[i] = io;
	}
	io_uring_cq_advance(ring, got);
	ud->outstanding -= got;
	return (int)got;
}

static struct sb_io_u *ur_event(struct sb_engine_td *td, unsigned i)
{
	struct uring_data *ud = td->data;
	return ud->done[i];
}

const struct sb_engine_ops sb_engine_io_uring = {
	.name = "io_uring",
	.description = "Linux io_uring (liburing): fixedbufs, registerfiles, sqthread_poll, hipri, nonvectored",
	.flags = SB_ENGINE_ALIGNED,
	.options = &sb_io_uring_optset,
	.init = ur_init,
	.cleanup = ur_cleanup,
	.open_file = ur_open_file,
	.close_file = ur_close_file,
	.queue = ur_queue,
	.commit = ur_commit,
	.getevents = ur_getevents,
	.event = ur_event,
};
#endif /* CONFIG_LIBURING */
