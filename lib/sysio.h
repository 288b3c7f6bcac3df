/* sysio.h: pread(2)/pwrite(2)/read(2)/write(2) of the engines' per-I/O path
 * without glibc's cancellation-point wrappers.  glibc makes these calls
 * cancellation points: with more than one thread, each call switches
 * asynchronous cancellation on and off around the system call
 * (__pthread_enable/disable_asynccancel): through syscall(3), a 4 KiB
 * psync read from tmpfs took 0.085 us of user CPU instead of 0.148 (the
 * kernel's part, about 1.1 us, the same).  storbench never cancels a
 * thread (no pthread_cancel anywhere), so the engines call the kernel
 * through syscall(3), which is not a cancellation point.  Same arguments,
 * return value and errno as the libc calls.  On a 32-bit ABI, where an
 * offset takes two registers, the libc calls are used. */
#ifndef SB_LIB_SYSIO_H
#define SB_LIB_SYSIO_H

#include <sys/types.h>
#include <unistd.h>
#if defined(__linux__) && defined(__LP64__)
#include <sys/syscall.h>

static inline ssize_t sb_pread(int fd, void *buf, size_t n, off_t off)
{
	return syscall(SYS_pread64, fd, buf, n, off);
}

static inline ssize_t sb_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return syscall(SYS_pwrite64, fd, buf, n, off);
}

static inline ssize_t sb_read(int fd, void *buf, size_t n)
{
	return syscall(SYS_read, fd, buf, n);
}

static inline ssize_t sb_write(int fd, const void *buf, size_t n)
{
	return syscall(SYS_write, fd, buf, n);
}
#else
#define sb_pread pread
#define sb_pwrite pwrite
#define sb_read read
#define sb_write write
#endif

#endif
