/* resid.h: the completion of short transfers, in one place for every engine.
 * The kernel, a file system, a FUSE daemon, cuFile or glibc's AIO may move
 * fewer bytes than asked (0 < result < len) without an error.  As fio
 * re-queues the residual (io_u.c: io_u->resid, issued again from
 * io_u->xfer_buf + bytes done), the I/O loop (run/ioloop.c: the sync loops,
 * the async loop's requeue list; run/offload.c's workers) moves such an io
 * unit past the bytes done and queues the rest through the same engine,
 * until it is whole, fails or stops moving; engines never complete short
 * transfers themselves (engines/engine.h).  The rules (lib/fullio.h's):
 * a read part that returns 0 is the end of the file (the read stays short);
 * a write part that returns 0 made no progress (the write stays short, and
 * the loop reports it as EIO, "short write"); a part that fails makes the
 * whole I/O fail with that error.  Two inline steps: no lock, no allocation,
 * no system call of their own. */
#ifndef SB_RUN_RESID_H
#define SB_RUN_RESID_H
#include <stdbool.h>
#include <stdint.h>

#include "engines/engine.h"

/* io completed: when it is a read or write that moved some but not all of
 * its bytes, move io past them (buf, offset, len; xfer_done counts them)
 * and return true: the rest is to be queued again.  Otherwise false: the
 * completion is final (then sb_resid_end). */
static inline bool sb_resid_next(struct sb_io_u *io)
{
	if (__builtin_expect(io->result > 0 && (uint64_t)io->result < io->len, 0) &&
	    (io->ddir == SB_DDIR_READ || io->ddir == SB_DDIR_WRITE)) {
		uint64_t n = (uint64_t)io->result;
		io->buf = (char *)io->buf + n;
		io->offset += n;
		io->len -= n;
		io->xfer_done += n;
		return true;
	}
	return false;
}

/* after the final part: io whole again (buf, offset, len as queued) and
 * result the bytes of all parts, or the error of the part that failed */
static inline void sb_resid_end(struct sb_io_u *io)
{
	uint64_t n = io->xfer_done;
	if (__builtin_expect(!n, 1))
		return;
	io->buf = (char *)io->buf - n;
	io->offset -= n;
	io->len += n;
	io->xfer_done = 0;
	if (io->result >= 0)
		io->result += (int64_t)n;
}
#endif
