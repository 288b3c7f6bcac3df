/* fullio.h: a read or write done whole.  The kernel (or a file system, a
 * FUSE daemon, a network file system) may move fewer bytes than asked
 * (0 < r < len) without an error; fio then re-queues the rest (io_u.c: the
 * residual, io_u->resid, is issued again from io_u->xfer_buf + bytes done).
 * These do the same, in the calling thread, so that a short transfer is
 * never taken for a complete one (a torn block would pass verify, a short
 * checkpoint would count as written whole), for the I/O
 * storbench does outside an engine (ML files, generators); the engines'
 * I/O is completed by the I/O loop by the same rules (run/resid.h).  A read that
 * reaches the end of the file (0) returns what it got; a write that moves
 * nothing (0) is an error (EIO: no progress); an error after some bytes is
 * that error.  Returns the bytes moved, or -1 with errno set. */
#ifndef SB_LIB_FULLIO_H
#define SB_LIB_FULLIO_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* pread/pwrite at off */
ssize_t sb_pio_full(int fd, bool write, void *buf, size_t len, off_t off);
/* read/write at the file position */
ssize_t sb_io_full(int fd, bool write, void *buf, size_t len);
#endif
