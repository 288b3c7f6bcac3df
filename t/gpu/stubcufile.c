/* stubcufile.c: a stand-in for NVIDIA's libcufile.so.0 (GPUDirect Storage),
 * built as build/t/gpu/libcufile.so.0 beside the stub driver, whose "device
 * pointers" are host pointers: cuFileRead/cuFileWrite are pread/pwrite into
 * and out of them.  Calls and bytes go as JSON to $SB_STUBCUFILE_STATS at
 * exit.  Switches (environment):
 *   SB_STUBCUFILE_NVFS=1       report nvidia-fs loaded (p2p; default: compat)
 *   SB_STUBCUFILE_FAIL=WHAT    open|handle|buf|read|write fail (read and
 *                              write after the first 2 of them)
 *   SB_STUBCUFILE_SHORT=N      every Nth cuFileRead and every Nth cuFileWrite
 *                              (each counted on its own, from 1) moves only the
 *                              first half of its bytes and returns that count,
 *                              as cuFile may (a short transfer, not an error);
 *                              counted as short_reads, short_writes */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef struct { int err; int cu_err; } CUfileError_t;
typedef struct { int type; union { int fd; void *handle; } handle; const void *fs_ops; } CUfileDescr_t;

#define CU_FILE_DRIVER_NOT_INITIALIZED 5001
#define CU_FILE_INVALID_VALUE 5002
#define CU_FILE_IO_ERROR 5011

enum { C_OPEN, C_PROPS, C_HREG, C_HDEREG, C_BREG, C_BDEREG, C_READ, C_WRITE, C_N };
static const char *const cname[C_N] = { "cuFileDriverOpen", "cuFileDriverGetProperties",
	"cuFileHandleRegister", "cuFileHandleDeregister", "cuFileBufRegister", "cuFileBufDeregister",
	"cuFileRead", "cuFileWrite" };
static _Atomic unsigned long long calls[C_N], read_bytes, write_bytes, live_handles, live_bufs;
static _Atomic unsigned long long short_reads, short_writes;
static atomic_int opened;

static int fails(const char *what)
{
	const char *e = getenv("SB_STUBCUFILE_FAIL");
	return e && !strcmp(e, what);
}

static CUfileError_t ret(int err)
{
	CUfileError_t r = { err, 0 };
	return r;
}

/* SB_STUBCUFILE_SHORT=N: the bytes the nth call of its kind moves */
static size_t short_len(unsigned long long nth, size_t len, _Atomic unsigned long long *count)
{
	const char *e = getenv("SB_STUBCUFILE_SHORT");
	unsigned long long n = e ? strtoull(e, NULL, 10) : 0;
	if (!n || nth % n || len < 2)
		return len;
	(*count)++;
	return len / 2;
}

CUfileError_t cuFileDriverOpen(void)
{
	calls[C_OPEN]++;
	if (fails("open"))
		return ret(CU_FILE_DRIVER_NOT_INITIALIZED);
	opened = 1;
	return ret(0);
}

CUfileError_t cuFileDriverGetProperties(void *props)
{
	calls[C_PROPS]++;
	const char *e = getenv("SB_STUBCUFILE_NVFS");
	memset(props, 0, 32);
	((unsigned *)props)[0] = e && atoi(e) ? 2 : 0; /* nvfs.major_version */
	return ret(0);
}

CUfileError_t cuFileHandleRegister(void **fh, CUfileDescr_t *d)
{
	calls[C_HREG]++;
	if (!opened || d->type != 1 || d->handle.fd < 0)
		return ret(CU_FILE_INVALID_VALUE);
	if (fails("handle"))
		return ret(CU_FILE_IO_ERROR);
	*fh = (void *)(intptr_t)(d->handle.fd + 1);
	live_handles++;
	return ret(0);
}

void cuFileHandleDeregister(void *fh)
{
	calls[C_HDEREG]++;
	if (fh)
		live_handles--;
}

CUfileError_t cuFileBufRegister(const void *dev, size_t len, int flags)
{
	calls[C_BREG]++;
	if (!dev || !len || flags)
		return ret(CU_FILE_INVALID_VALUE);
	if (fails("buf"))
		return ret(CU_FILE_IO_ERROR);
	live_bufs++;
	return ret(0);
}

CUfileError_t cuFileBufDeregister(const void *dev)
{
	calls[C_BDEREG]++;
	if (dev)
		live_bufs--;
	return ret(0);
}

ssize_t cuFileRead(void *fh, void *dev, size_t len, off_t off, off_t devoff)
{
	unsigned long long nth = ++calls[C_READ];
	if (nth > 2 && fails("read"))
		return -CU_FILE_IO_ERROR;
	len = short_len(nth, len, &short_reads);
	ssize_t r = pread((int)(intptr_t)fh - 1, (char *)dev + devoff, len, off);
	if (r > 0)
		read_bytes += (unsigned long long)r;
	return r;
}

ssize_t cuFileWrite(void *fh, const void *dev, size_t len, off_t off, off_t devoff)
{
	unsigned long long nth = ++calls[C_WRITE];
	if (nth > 2 && fails("write"))
		return -CU_FILE_IO_ERROR;
	len = short_len(nth, len, &short_writes);
	ssize_t r = pwrite((int)(intptr_t)fh - 1, (const char *)dev + devoff, len, off);
	if (r > 0)
		write_bytes += (unsigned long long)r;
	return r;
}

__attribute__((destructor)) static void write_stats(void)
{
	const char *path = getenv("SB_STUBCUFILE_STATS");
	FILE *f = path ? fopen(path, "w") : NULL;
	if (!f)
		return;
	fprintf(f, "{\"calls\": {");
	for (int i = 0; i < C_N; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", cname[i], (unsigned long long)calls[i]);
	fprintf(f, "}, \"read_bytes\": %llu, \"write_bytes\": %llu, \"live_handles\": %llu, "
		"\"live_bufs\": %llu, \"short_reads\": %llu, \"short_writes\": %llu}\n",
		(unsigned long long)read_bytes, (unsigned long long)write_bytes,
		(unsigned long long)live_handles, (unsigned long long)live_bufs,
		(unsigned long long)short_reads, (unsigned long long)short_writes);
	fclose(f);
}
