/* sbfault.c: an LD_PRELOAD shim for the fault-injection tests
 * (t/integration/test_faults.py): it makes chosen system calls fail with a
 * chosen errno, at chosen offsets, of chosen files, configured from the
 * environment.  Built by the Makefile as $(B)/t/faults/libsbfault.so (never
 * with sanitizers: it only forwards to libc).
 *
 *   SBFAULT="RULE[,RULE...]"  RULE = CALL:ERRNO[:KEY=VALUE...]
 *
 * CALL      pread pwrite preadv pwritev read write fsync fdatasync io_submit
 *           io_uring_submit (liburing's io_uring_submit and
 *           io_uring_submit_and_wait: one count per read or write SQE)
 *           aio (POSIX AIO's aio_read and aio_write: one count per request)
 *           open (open, open64, openat and openat64 alike; openat is a synonym)
 * ERRNO     a name (EIO ENOSPC EDQUOT EFBIG EROFS EACCES EPERM EBADF EINVAL
 *           ENOMEM ENXIO EAGAIN EINTR) or a number; or a signal (SIGINT
 *           SIGTERM SIGHUP SIGKILL): the calling thread sends itself that
 *           signal (raise(3): its handler has run when raise returns) and
 *           the call then runs normally, which puts a Ctrl-C at an exact
 *           point of a run (the Nth write of the layout, the last read of a
 *           stonewall group, ...)
 * offset=N  only an I/O whose byte range [off, off + len) contains N (bytes,
 *           suffixes k m g = KiB MiB GiB).  read/write take the file position
 *           (lseek(fd, 0, SEEK_CUR)); io_submit looks at each iocb.  Not valid
 *           for fsync, fdatasync, open.
 * path=GLOB only files whose path matches GLOB (fnmatch(3), no FNM_PATHNAME:
 *           * matches slashes too); for calls on a descriptor the path is
 *           read from /proc/self/fd.
 * nth=N     only the Nth call that passes the filters above (1-based)
 * skip=N    let the first N such calls through, then fail (default 0)
 * times=N   fail at most N calls (default: every one after skip; nth=N is
 *           skip=N-1 times=1)
 * rw=r|w    open: only opens for reading (r: O_RDONLY) or writing (w);
 *           io_submit, io_uring_submit: only read (r) or write (w) iocbs/SQEs
 *
 * ERRNO may also be SHORT (pread pwrite read write): the call transfers
 * only the first half of its bytes and returns that count, as a device or
 * file system may; or LOST (pwrite write): the call returns the full count
 * and stores nothing (a write the device dropped).  For io_submit and
 * io_uring_submit, SHORT halves the chosen iocb's or SQE's length before the
 * kernel sees it (the kernel completes it short) and LOST points the chosen
 * write at /dev/null (the kernel completes it in full, nothing stored).  A
 * SHORT rule counts reads and writes only, a LOST rule writes only.
 * io_uring_submit takes only SHORT, LOST and signals.  For aio (the
 * posixaio engine) SHORT halves the request's aio_nbytes before glibc takes
 * it (glibc's helper thread then moves half and aio_return says so), LOST
 * points a write at /dev/null, and an errno refuses the request at
 * aio_read/aio_write (-1 with errno, as glibc refuses one it cannot take).
 * ERRNO may also be FLIP (pread and pwrite, with offset=): the call goes
 * through with the byte at offset XORed with 0x01, in the data written
 * (pwrite: what reaches the file; the caller's buffer is left as it was) or
 * in the data read (pread): a corruption no error reports, for the data
 * verification tests (checkpoint_verify, dataset_verify).
 *
 * A failing call does nothing and returns -1 with errno set, except
 * io_submit, which follows the kernel: the iocbs before the first failing one
 * are submitted and their count returned; when the first one fails, io_submit
 * returns -ERRNO (libaio's convention).  Counts are per process, shared by
 * all threads.  Each injected failure is logged to stderr as
 * "sbfault: CALL ... -> ERRNO" when SBFAULT_LOG=1.  A rule that cannot be
 * parsed prints "sbfault: ..." and exits with status 99, so that a typo never
 * turns into a test that injects nothing.
 *
 * Examples:
 *   SBFAULT="pwrite:EIO:offset=1m:path=*data*"   the write covering byte 1 MiB
 *   SBFAULT="fsync:EIO,io_submit:EIO:nth=3"      every fsync; the 3rd io_submit
 *   SBFAULT="open:ENOSPC:path=*ckpt*:rw=w"       creating the checkpoint files
 *
 * io_uring runs each I/O in the kernel: the shim sees its SQEs only as
 * liburing submits them, and can shorten or redirect one but not fail it
 * with an errno; mmap I/O is memory access; use file-system faults for them.
 *
 * SBFAULT_OVERLAP=FILE (the lockfile tests, t/integration/test_lockfile.py)
 * makes every pread and pwrite of a path matching SBFAULT_OVERLAP_PATH (a
 * glob; default any) last SBFAULT_OVERLAP_US longer (default 500 us) and
 * counts the calls that overlap: at exit FILE gets one line
 * "calls=N max=M rw=X ww=Y" where max is the most such calls in flight at
 * once (all threads), rw the calls that began while a call of the other
 * kind (read vs write) was in flight and ww the writes that began while
 * another write was. */
#include <aio.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "config.h"
#ifdef CONFIG_LIBAIO
#include <libaio.h>
#endif
#ifdef CONFIG_LIBURING
#include <liburing.h>
#endif

enum call { C_PREAD, C_PWRITE, C_PREADV, C_PWRITEV, C_READ, C_WRITE, C_FSYNC, C_FDATASYNC,
	    C_IO_SUBMIT, C_OPEN, C_IO_URING, C_AIO, C_N };

static const char *const call_names[C_N] = { "pread", "pwrite", "preadv", "pwritev", "read",
					     "write", "fsync", "fdatasync", "io_submit", "open",
					     "io_uring_submit", "aio" };

struct rule {
	enum call call;
	int err;                /* errno to fail with, or 0: send sig */
	int sig;
	bool has_off;
	uint64_t off;
	char path[256];         /* "" = any */
	int rw;                 /* 0 any, 'r' reads (open: O_RDONLY), 'w' writes */
	uint64_t skip, times;   /* times 0 = unlimited */
	atomic_uint_fast64_t seen, failed;
};

#define MAX_RULES 32
static struct rule rules[MAX_RULES];
static unsigned nrules;
static bool active[C_N];
static bool logging;

static struct {
	ssize_t (*pread)(int, void *, size_t, off_t);
	ssize_t (*pwrite)(int, const void *, size_t, off_t);
	ssize_t (*preadv)(int, const struct iovec *, int, off_t);
	ssize_t (*pwritev)(int, const struct iovec *, int, off_t);
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*write)(int, const void *, size_t);
	int (*fsync)(int);
	int (*fdatasync)(int);
#ifdef CONFIG_LIBAIO
	int (*io_submit)(io_context_t, long, struct iocb **);
#endif
#ifdef CONFIG_LIBURING
	int (*io_uring_submit)(struct io_uring *);
	int (*io_uring_submit_and_wait)(struct io_uring *, unsigned);
#endif
	int (*aio_read)(struct aiocb *);
	int (*aio_write)(struct aiocb *);
	int (*open)(const char *, int, ...);
	int (*open64)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*openat64)(int, const char *, int, ...);
} real;

static const struct { const char *name; int err; } errnames[] = {
	{ "EIO", EIO },       { "ENOSPC", ENOSPC }, { "EDQUOT", EDQUOT }, { "EFBIG", EFBIG },
	{ "EROFS", EROFS },   { "EACCES", EACCES }, { "EPERM", EPERM },   { "EBADF", EBADF },
	{ "EINVAL", EINVAL }, { "ENOMEM", ENOMEM }, { "ENXIO", ENXIO },   { "EAGAIN", EAGAIN },
	{ "EINTR", EINTR },
};

#define SB_FLIP 100000  /* ERRNO=FLIP: corrupt one byte, fail nothing */
#define SB_SHORT 100001 /* ERRNO=SHORT: transfer the first half, return that count */
#define SB_LOST 100002  /* ERRNO=LOST: a write that says it wrote all and stored nothing */

static const struct { const char *name; int sig; } signames[] = {
	{ "SIGINT", SIGINT }, { "SIGTERM", SIGTERM }, { "SIGHUP", SIGHUP }, { "SIGKILL", SIGKILL },
};

/* libc's syscall(3), looked up when first wanted (say() may run before the
 * constructor has looked up the rest) */
typedef long (*syscall_fn)(long, ...);
static syscall_fn next_syscall(void)
{
	static _Atomic(syscall_fn) fn;
	syscall_fn f = atomic_load(&fn);
	if (!f) {
		f = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
		atomic_store(&fn, f);
	}
	return f;
}

/* a message straight to fd 2 (no stdio: we may be inside a write) */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	ssize_t w = next_syscall()(SYS_write /* no write wrapper, ours or ASan's */, 2, buf, (size_t)n);
	(void)w;
}

static void __attribute__((noreturn)) bad(const char *rule, const char *why)
{
	say("sbfault: SBFAULT rule '%s': %s\n", rule, why);
	_exit(99);
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return false;
	switch (*end) {
	case 'k': case 'K': x <<= 10; end++; break;
	case 'm': case 'M': x <<= 20; end++; break;
	case 'g': case 'G': x <<= 30; end++; break;
	default: break;
	}
	*v = x;
	return *end == '\0';
}

static void parse_rule(char *text)
{
	char orig[512];
	snprintf(orig, sizeof(orig), "%s", text);
	if (nrules == MAX_RULES)
		bad(orig, "too many rules (32 at most)");
	struct rule *r = &rules[nrules];
	char *save = NULL;
	char *call = strtok_r(text, ":", &save);
	char *err = strtok_r(NULL, ":", &save);
	if (!call || !err)
		bad(orig, "want CALL:ERRNO[:KEY=VALUE...]");
	if (!strcmp(call, "openat"))
		call = "open";
	unsigned c = 0;
	while (c < C_N && strcmp(call_names[c], call))
		c++;
	if (c == C_N)
		bad(orig, "unknown call (pread pwrite preadv pwritev read write fsync fdatasync "
			  "io_submit io_uring_submit aio open)");
	r->call = (enum call)c;
	uint64_t n;
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]) && !r->err; i++)
		if (!strcmp(errnames[i].name, err))
			r->err = errnames[i].err;
	for (size_t i = 0; i < sizeof(signames) / sizeof(signames[0]) && !r->err; i++)
		if (!strcmp(signames[i].name, err))
			r->sig = signames[i].sig;
	if (!strcmp(err, "FLIP")) {
		if (c != C_PREAD && c != C_PWRITE)
			bad(orig, "FLIP is for pread and pwrite");
		r->err = SB_FLIP;
	}
	if (!strcmp(err, "SHORT")) {
		if (c != C_PREAD && c != C_PWRITE && c != C_READ && c != C_WRITE &&
		    c != C_IO_SUBMIT && c != C_IO_URING && c != C_AIO)
			bad(orig, "SHORT is for pread, pwrite, read, write, io_submit, "
				  "io_uring_submit and aio");
		r->err = SB_SHORT;
	}
	if (!strcmp(err, "LOST")) {
		if (c != C_PWRITE && c != C_WRITE && c != C_IO_SUBMIT && c != C_IO_URING &&
		    c != C_AIO)
			bad(orig, "LOST is for pwrite, write, io_submit, io_uring_submit and aio");
		r->err = SB_LOST;
	}
	if (!r->err && !r->sig && (!parse_u64(err, &n) || !n || n > 4095))
		bad(orig, "unknown errno (a name such as EIO, or a number) or signal (SIGINT ...)");
	if (!r->err && !r->sig)
		r->err = (int)n;
	if (c == C_IO_URING && r->err != SB_SHORT && r->err != SB_LOST && !r->sig)
		bad(orig, "io_uring_submit takes SHORT, LOST or a signal (the kernel, not a "
			  "library call, runs each I/O: there is no call to fail)");
	for (char *kv; (kv = strtok_r(NULL, ":", &save));) {
		char *v = strchr(kv, '=');
		if (!v)
			bad(orig, "want KEY=VALUE after CALL:ERRNO");
		*v++ = '\0';
		if (!strcmp(kv, "offset")) {
			if (c == C_FSYNC || c == C_FDATASYNC || c == C_OPEN)
				bad(orig, "offset= is only for calls that do I/O at an offset");
			if (!parse_u64(v, &r->off))
				bad(orig, "offset= wants a byte count");
			r->has_off = true;
		} else if (!strcmp(kv, "path")) {
			if (strlen(v) >= sizeof(r->path))
				bad(orig, "path= is too long");
			strcpy(r->path, v);
		} else if (!strcmp(kv, "nth")) {
			if (!parse_u64(v, &n) || !n)
				bad(orig, "nth= wants a number from 1");
			r->skip = n - 1;
			r->times = 1;
		} else if (!strcmp(kv, "skip")) {
			if (!parse_u64(v, &r->skip))
				bad(orig, "skip= wants a number");
		} else if (!strcmp(kv, "times")) {
			if (!parse_u64(v, &r->times) || !r->times)
				bad(orig, "times= wants a number from 1");
		} else if (!strcmp(kv, "rw")) {
			if ((c != C_OPEN && c != C_IO_SUBMIT && c != C_IO_URING && c != C_AIO) ||
			    (strcmp(v, "r") && strcmp(v, "w")))
				bad(orig, "rw=r or rw=w, for open, io_submit, io_uring_submit and aio");
			r->rw = v[0];
		} else {
			bad(orig, "unknown key (offset path nth skip times rw)");
		}
	}
	if (r->err == SB_FLIP && !r->has_off)
		bad(orig, "FLIP needs offset=");
	active[c] = true;
	nrules++;
}

static void ov_init(void);

static void *next_sym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	if (!p)
		say("sbfault: cannot find %s: %s\n", name, dlerror());
	return p;
}

static void __attribute__((constructor)) sbfault_init(void)
{
	real.pread = (ssize_t (*)(int, void *, size_t, off_t))next_sym("pread");
	real.pwrite = (ssize_t (*)(int, const void *, size_t, off_t))next_sym("pwrite");
	real.preadv = (ssize_t (*)(int, const struct iovec *, int, off_t))next_sym("preadv");
	real.pwritev = (ssize_t (*)(int, const struct iovec *, int, off_t))next_sym("pwritev");
	real.read = (ssize_t (*)(int, void *, size_t))next_sym("read");
	real.write = (ssize_t (*)(int, const void *, size_t))next_sym("write");
	real.fsync = (int (*)(int))next_sym("fsync");
	real.fdatasync = (int (*)(int))next_sym("fdatasync");
	real.open = (int (*)(const char *, int, ...))next_sym("open");
	real.open64 = (int (*)(const char *, int, ...))next_sym("open64");
	real.openat = (int (*)(int, const char *, int, ...))next_sym("openat");
	real.openat64 = (int (*)(int, const char *, int, ...))next_sym("openat64");
	/* libaio is not loaded into every process (python, sh): look it up lazily */
	const char *spec = getenv("SBFAULT");
	logging = getenv("SBFAULT_LOG") && !strcmp(getenv("SBFAULT_LOG"), "1");
	ov_init();
	if (!spec || !*spec)
		return;
	/* no malloc here: under ASan this may run before the ASan runtime is
	 * initialized, and a block allocated then cannot be freed after */
	static char copy[8192];
	if (strlen(spec) >= sizeof(copy))
		bad("...", "SBFAULT is too long (8 KiB at most)");
	strcpy(copy, spec);
	char *save = NULL;
	for (char *rule = strtok_r(copy, ",", &save); rule; rule = strtok_r(NULL, ",", &save))
		parse_rule(rule);
}

static bool fd_path_matches(int fd, const char *glob, char *path, size_t len)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, len - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return !glob[0] || fnmatch(glob, path, 0) == 0;
}

/* the errno to fail with, or 0: the counting part of a rule that matched
 * (a signal rule sends its signal and lets the call through) */
static int fire(struct rule *r, enum call c)
{
	uint_fast64_t k = atomic_fetch_add(&r->seen, 1);
	if (k < r->skip)
		return 0;
	if (r->times && atomic_fetch_add(&r->failed, 1) >= r->times)
		return 0;
	if (r->sig) {
		if (logging)
			say("sbfault: %s call %llu -> signal %d\n", call_names[c],
			    (unsigned long long)k + 1, r->sig);
		raise(r->sig);
	}
	return r->err;
}

/* the errno to inject for CALL on fd over [off, off + len), or 0; dir is
 * 'r' for a read, 'w' for a write, 0 for neither (fsync, an iocb or SQE of
 * another kind): SHORT rules see reads and writes only, LOST rules writes
 * only, rw= rules that direction only */
static int check_io(enum call c, int fd, bool has_off, uint64_t off, uint64_t len, int dir)
{
	char path[4096] = "";
	for (unsigned i = 0; i < nrules; i++) {
		struct rule *r = &rules[i];
		if (r->call != c)
			continue;
		if ((r->rw && r->rw != dir) || (r->err == SB_SHORT && !dir) ||
		    (r->err == SB_LOST && dir != 'w'))
			continue;
		if (r->has_off && (!has_off || r->off < off || r->off - off >= (len ? len : 1)))
			continue;
		if (r->path[0] && !fd_path_matches(fd, r->path, path, sizeof(path)))
			continue;
		int e = fire(r, c);
		if (e) {
			if (logging) {
				if (!path[0])
					fd_path_matches(fd, "", path, sizeof(path));
				say("sbfault: %s fd %d (%s) offset %llu len %llu -> errno %d\n",
				    call_names[c], fd, path, (unsigned long long)off,
				    (unsigned long long)len, e);
			}
			return e;
		}
	}
	return 0;
}

static uint64_t iov_len(const struct iovec *iov, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		s += iov[i].iov_len;
	return s;
}

/* the offset= of the FLIP rule of call c (the one check_io just fired) */
static uint64_t flip_at(enum call c)
{
	for (unsigned i = 0; i < nrules; i++)
		if (rules[i].call == c && rules[i].err == SB_FLIP)
			return rules[i].off;
	return 0;
}

#include "t/faults/sbfault_overlap.h" /* SBFAULT_OVERLAP */

/* SHORT: the first half of len (all of a 1-byte transfer) */
static size_t half(size_t len)
{
	return len > 1 ? len / 2 : len;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	int e = active[C_PREAD] ? check_io(C_PREAD, fd, true, (uint64_t)off, len, 'r') : 0;
	if (e == SB_SHORT)
		return real.pread(fd, buf, half(len), off);
	if (e == SB_FLIP) {
		ssize_t n = real.pread(fd, buf, len, off);
		uint64_t at = flip_at(C_PREAD) - (uint64_t)off;
		if (n > 0 && at < (uint64_t)n)
			((unsigned char *)buf)[at] ^= 1;
		return n;
	}
	if (e) {
		errno = e;
		return -1;
	}
	bool ov = ov_enter(fd, 0);
	ssize_t n = real.pread(fd, buf, len, off);
	ov_leave(ov, 0);
	return n;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	int e = active[C_PWRITE] ? check_io(C_PWRITE, fd, true, (uint64_t)off, len, 'w') : 0;
	if (e == SB_SHORT)
		return real.pwrite(fd, buf, half(len), off);
	if (e == SB_LOST)
		return (ssize_t)len;
	if (e == SB_FLIP) { /* the caller's buffer, changed for the call only */
		unsigned char *b = (unsigned char *)(uintptr_t)buf;
		uint64_t at = flip_at(C_PWRITE) - (uint64_t)off;
		b[at] ^= 1;
		ssize_t n = real.pwrite(fd, buf, len, off);
		b[at] ^= 1;
		return n;
	}
	if (e) {
		errno = e;
		return -1;
	}
	bool ov = ov_enter(fd, 1);
	ssize_t n = real.pwrite(fd, buf, len, off);
	ov_leave(ov, 1);
	return n;
}

/* storbench's engines make these calls through syscall(3) (lib/sysio.h:
 * no cancellation-point wrapper): routed to the wrappers here; any other
 * system call goes on to libc's syscall(3) with its six arguments */
long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	switch (nr) {
	case SYS_pread64:
		return pread((int)a[0], (void *)a[1], (size_t)a[2], (off_t)a[3]);
	case SYS_pwrite64:
		return pwrite((int)a[0], (const void *)a[1], (size_t)a[2], (off_t)a[3]);
	case SYS_read:
		return read((int)a[0], (void *)a[1], (size_t)a[2]);
	case SYS_write:
		return write((int)a[0], (const void *)a[1], (size_t)a[2]);
	default:
		return next_syscall()(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
}

/* fio (built with _FILE_OFFSET_BITS=64) calls these: the same calls on a
 * 64-bit system, so that fio runs under the shim too (side-by-side tests) */
ssize_t pread64(int fd, void *buf, size_t len, off_t off);
ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off);
ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
	int e = active[C_PREADV] ? check_io(C_PREADV, fd, true, (uint64_t)off, iov_len(iov, n), 'r') : 0;
	if (e) {
		errno = e;
		return -1;
	}
	return real.preadv(fd, iov, n, off);
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
	int e = active[C_PWRITEV] ? check_io(C_PWRITEV, fd, true, (uint64_t)off, iov_len(iov, n), 'w') : 0;
	if (e) {
		errno = e;
		return -1;
	}
	return real.pwritev(fd, iov, n, off);
}

/* read/write: the offset is the file position, when the file has one */
static int check_pos(enum call c, int fd, size_t len)
{
	off_t pos = lseek(fd, 0, SEEK_CUR);
	return check_io(c, fd, pos >= 0, pos >= 0 ? (uint64_t)pos : 0, len, c == C_READ ? 'r' : 'w');
}

ssize_t read(int fd, void *buf, size_t len)
{
	int e = active[C_READ] ? check_pos(C_READ, fd, len) : 0;
	if (e == SB_SHORT)
		return real.read(fd, buf, half(len));
	if (e) {
		errno = e;
		return -1;
	}
	return real.read(fd, buf, len);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	int e = active[C_WRITE] ? check_pos(C_WRITE, fd, len) : 0;
	if (e == SB_SHORT)
		return real.write(fd, buf, half(len));
	if (e == SB_LOST) { /* the file position moves as if it had been written */
		lseek(fd, (off_t)len, SEEK_CUR);
		return (ssize_t)len;
	}
	if (e) {
		errno = e;
		return -1;
	}
	return real.write(fd, buf, len);
}

int fsync(int fd)
{
	int e = active[C_FSYNC] ? check_io(C_FSYNC, fd, false, 0, 0, 0) : 0;
	if (e) {
		errno = e;
		return -1;
	}
	return real.fsync(fd);
}

int fdatasync(int fd)
{
	int e = active[C_FDATASYNC] ? check_io(C_FDATASYNC, fd, false, 0, 0, 0) : 0;
	if (e) {
		errno = e;
		return -1;
	}
	return real.fdatasync(fd);
}

/* LOST for the async engines: a descriptor of /dev/null, where the kernel
 * takes the write, says it wrote every byte and stores nothing */
static int devnull(void)
{
	static atomic_int fd = -1;
	int f = atomic_load(&fd);
	if (f >= 0)
		return f;
	f = real.open("/dev/null", O_WRONLY | O_CLOEXEC);
	int want = -1;
	if (f >= 0 && !atomic_compare_exchange_strong(&fd, &want, f)) {
		close(f);
		f = want;
	}
	return f;
}

#ifdef CONFIG_LIBAIO
/* libaio's io_submit (storbench calls the library function, which makes the
 * system call): the iocbs before the first failing one go to the kernel.
 * SHORT halves the chosen iocb's byte count before the kernel sees it (the
 * kernel then moves half and completes the iocb with that count: a genuine
 * short completion); LOST points a write iocb at /dev/null (it completes
 * with its full count and stores nothing). */
int io_submit(io_context_t ctx, long nr, struct iocb **ios)
{
	if (!real.io_submit) {
		real.io_submit = (int (*)(io_context_t, long, struct iocb **))next_sym("io_submit");
		if (!real.io_submit)
			return -ENOSYS;
	}
	if (active[C_IO_SUBMIT]) {
		for (long i = 0; i < nr; i++) {
			struct iocb *cb = ios[i];
			bool rw = cb->aio_lio_opcode == IO_CMD_PREAD || cb->aio_lio_opcode == IO_CMD_PWRITE;
			int dir = !rw ? 0 : cb->aio_lio_opcode == IO_CMD_PREAD ? 'r' : 'w';
			int e = check_io(C_IO_SUBMIT, cb->aio_fildes, rw, rw ? (uint64_t)cb->u.c.offset : 0,
					 rw ? cb->u.c.nbytes : 0, dir);
			if (e == SB_SHORT)
				cb->u.c.nbytes = half(cb->u.c.nbytes);
			if (e == SB_LOST && devnull() >= 0)
				cb->aio_fildes = (unsigned)devnull();
			if (!e || e == SB_SHORT || e == SB_LOST)
				continue;
			if (i == 0)
				return -e;
			return real.io_submit(ctx, i, ios);
		}
	}
	return real.io_submit(ctx, nr, ios);
}
#endif

#ifdef CONFIG_LIBURING
/* 'r', 'w' or 0: what an SQE's opcode moves */
static int sqe_dir(const struct io_uring_sqe *sqe, bool *vec)
{
	*vec = sqe->opcode == IORING_OP_READV || sqe->opcode == IORING_OP_WRITEV;
	switch (sqe->opcode) {
	case IORING_OP_READ: case IORING_OP_READV: case IORING_OP_READ_FIXED: return 'r';
	case IORING_OP_WRITE: case IORING_OP_WRITEV: case IORING_OP_WRITE_FIXED: return 'w';
	default: return 0;
	}
}

/* SHORT for a vectored SQE: the iovecs cut to the first half of their bytes */
static void iov_halve(struct iovec *iov, unsigned n)
{
	uint64_t left = half(iov_len(iov, (int)n));
	for (unsigned i = 0; i < n; i++) {
		if (iov[i].iov_len > left)
			iov[i].iov_len = left;
		left -= iov[i].iov_len;
	}
}

/* The SQEs queued since the last submit (liburing's sqe_head..sqe_tail,
 * about to be flushed to the kernel) pass the io_uring_submit rules, one
 * per read or write SQE: SHORT halves its length (or its iovecs), LOST
 * points a write at /dev/null (registered file or not).  The kernel then
 * completes them short, or with the full count and nothing stored.  A
 * registered file (IOSQE_FIXED_FILE) has no descriptor to read a path
 * from: path= never matches it. */
static void uring_rules(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned shift = (ring->flags & IORING_SETUP_SQE128) ? 1 : 0;
	for (unsigned h = sq->sqe_head; h != sq->sqe_tail; h++) {
		struct io_uring_sqe *sqe = &sq->sqes[(h & *sq->kring_mask) << shift];
		bool vec;
		int dir = sqe_dir(sqe, &vec);
		struct iovec *iov = (struct iovec *)(uintptr_t)sqe->addr;
		uint64_t len = !dir ? 0 : vec ? iov_len(iov, (int)sqe->len) : sqe->len;
		int fd = (sqe->flags & IOSQE_FIXED_FILE) ? -1 : sqe->fd;
		int e = check_io(C_IO_URING, fd, dir != 0, dir ? sqe->off : 0, len, dir);
		if (e == SB_SHORT && vec)
			iov_halve(iov, sqe->len);
		else if (e == SB_SHORT)
			sqe->len = (unsigned)half(sqe->len);
		if (e == SB_LOST && devnull() >= 0) {
			sqe->fd = devnull();
			sqe->flags &= (__u8)~IOSQE_FIXED_FILE;
		}
	}
}

/* liburing's submit calls (storbench's io_uring engine calls these library
 * functions; the SQEs themselves are filled by inline code) */
int io_uring_submit(struct io_uring *ring)
{
	if (!real.io_uring_submit &&
	    !(real.io_uring_submit = (int (*)(struct io_uring *))next_sym("io_uring_submit")))
		return -ENOSYS;
	if (active[C_IO_URING])
		uring_rules(ring);
	return real.io_uring_submit(ring);
}

int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
	if (!real.io_uring_submit_and_wait &&
	    !(real.io_uring_submit_and_wait =
		      (int (*)(struct io_uring *, unsigned))next_sym("io_uring_submit_and_wait")))
		return -ENOSYS;
	if (active[C_IO_URING])
		uring_rules(ring);
	return real.io_uring_submit_and_wait(ring, wait_nr);
}
#endif

/* POSIX AIO (glibc: its helper threads do the I/O with internal calls the
 * shim never sees): the request passes the aio rules as it is handed over.
 * SHORT halves aio_nbytes, LOST points a write at /dev/null, an errno
 * refuses the request. */
static int aio_rw(struct aiocb *cb, int dir)
{
	int (**fn)(struct aiocb *) = dir == 'r' ? &real.aio_read : &real.aio_write;
	if (!*fn && !(*fn = (int (*)(struct aiocb *))next_sym(dir == 'r' ? "aio_read" : "aio_write"))) {
		errno = ENOSYS;
		return -1;
	}
	int e = active[C_AIO] ? check_io(C_AIO, cb->aio_fildes, true, (uint64_t)cb->aio_offset,
					 cb->aio_nbytes, dir) : 0;
	if (e == SB_SHORT) {
		cb->aio_nbytes = half(cb->aio_nbytes);
	} else if (e == SB_LOST) {
		if ((cb->aio_fildes = devnull()) < 0)
			return -1;
	} else if (e) {
		errno = e;
		return -1;
	}
	return (*fn)(cb);
}

int aio_read(struct aiocb *cb)
{
	return aio_rw(cb, 'r');
}

int aio_write(struct aiocb *cb)
{
	return aio_rw(cb, 'w');
}

/* fio (built with _FILE_OFFSET_BITS=64) calls these: the same requests on
 * a 64-bit system */
int aio_read64(struct aiocb64 *cb)
{
	return aio_rw((struct aiocb *)cb, 'r');
}

int aio_write64(struct aiocb64 *cb)
{
	return aio_rw((struct aiocb *)cb, 'w');
}

/* the errno to inject for opening path with flags, or 0 */
static int check_open(int dirfd, const char *path, int flags)
{
	char full[8200];
	if (path[0] != '/') { /* match against the absolute path, like the fd calls */
		char dir[4096];
		bool ok = dirfd == AT_FDCWD ? getcwd(dir, sizeof(dir)) != NULL
					    : fd_path_matches(dirfd, "", dir, sizeof(dir));
		snprintf(full, sizeof(full), "%s/%s", ok ? dir : ".", path);
	} else {
		snprintf(full, sizeof(full), "%s", path);
	}
	bool wr = (flags & O_ACCMODE) != O_RDONLY;
	for (unsigned i = 0; i < nrules; i++) {
		struct rule *r = &rules[i];
		if (r->call != C_OPEN || (r->rw == 'r' && wr) || (r->rw == 'w' && !wr))
			continue;
		if (r->path[0] && fnmatch(r->path, full, 0) != 0)
			continue;
		int e = fire(r, C_OPEN);
		if (e) {
			if (logging)
				say("sbfault: open %s flags 0x%x -> errno %d\n", full, (unsigned)flags, e);
			return e;
		}
	}
	return 0;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define OPEN_BODY(dirfd, fn, ...)                                \
	va_list ap;                                              \
	va_start(ap, flags);                                     \
	mode_t mode = mode_arg(flags, ap);                       \
	va_end(ap);                                              \
	int e = active[C_OPEN] ? check_open(dirfd, path, flags) : 0; \
	if (e) {                                                 \
		errno = e;                                       \
		return -1;                                       \
	}                                                        \
	return real.fn(__VA_ARGS__, mode)

int open(const char *path, int flags, ...)
{
	OPEN_BODY(AT_FDCWD, open, path, flags);
}

int open64(const char *path, int flags, ...)
{
	OPEN_BODY(AT_FDCWD, open64, path, flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	OPEN_BODY(dirfd, openat, dirfd, path, flags);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	OPEN_BODY(dirfd, openat64, dirfd, path, flags);
}
