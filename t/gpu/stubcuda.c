/* stubcuda.c: a stand-in for the NVIDIA driver's libcuda.so.1, built as
 * build/t/gpu/libcuda.so.1 and loaded by storbench through LD_LIBRARY_PATH
 * in t/integration/test_gpu.py.  "Device memory" is host memory; every call
 * and byte is counted and written as JSON to $SB_STUBCUDA_STATS at exit.
 * Fault switches (environment):
 *   SB_STUBCUDA_NDEV=N        the number of devices (default 1)
 *   SB_STUBCUDA_ALLOC_FAIL=1  cuMemAlloc answers CUDA_ERROR_OUT_OF_MEMORY
 *   SB_STUBCUDA_CORRUPT=h2d|d2h  add 1 to the first byte of every such copy
 *   SB_STUBCUDA_COPY_FAIL=N   copies after the first N answer
 *                             CUDA_ERROR_ILLEGAL_ADDRESS (700) */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUCCESS 0
#define ERR_INVALID_VALUE 1
#define ERR_OOM 2
#define ERR_NOT_INIT 3
#define ERR_INVALID_DEVICE 101
#define ERR_ILLEGAL_ADDRESS 700

enum { C_INIT, C_COUNT, C_GET, C_RETAIN, C_RELEASE, C_SETCUR, C_ALLOC, C_FREE, C_HREG, C_HUNREG,
       C_H2D, C_D2H, C_N };
static const char *const cname[C_N] = { "cuInit", "cuDeviceGetCount", "cuDeviceGet",
	"cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease", "cuCtxSetCurrent", "cuMemAlloc",
	"cuMemFree", "cuMemHostRegister", "cuMemHostUnregister", "cuMemcpyHtoD", "cuMemcpyDtoH" };
static _Atomic unsigned long long calls[C_N], h2d_bytes, d2h_bytes, alloc_bytes, live_allocs,
	registered;
static atomic_int inited;

static int ndev(void)
{
	const char *e = getenv("SB_STUBCUDA_NDEV");
	return e ? atoi(e) : 1;
}

static _Atomic unsigned long long ncopies;

/* SB_STUBCUDA_COPY_FAIL=N: this copy is past the first N */
static int copy_fails(void)
{
	const char *e = getenv("SB_STUBCUDA_COPY_FAIL");
	return e && ++ncopies > strtoull(e, NULL, 10);
}

static int corrupt(const char *dir)
{
	const char *e = getenv("SB_STUBCUDA_CORRUPT");
	return e && !strcmp(e, dir);
}

int cuInit(unsigned flags)
{
	calls[C_INIT]++;
	if (flags)
		return ERR_INVALID_VALUE;
	inited = 1;
	return SUCCESS;
}

int cuDeviceGetCount(int *n)
{
	calls[C_COUNT]++;
	if (!inited)
		return ERR_NOT_INIT;
	*n = ndev();
	return SUCCESS;
}

int cuDeviceGet(int *dev, int ordinal)
{
	calls[C_GET]++;
	if (ordinal < 0 || ordinal >= ndev())
		return ERR_INVALID_DEVICE;
	*dev = ordinal;
	return SUCCESS;
}

int cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
	calls[C_RETAIN]++;
	if (dev < 0 || dev >= ndev())
		return ERR_INVALID_DEVICE;
	*ctx = (void *)(long)(dev + 1);
	return SUCCESS;
}

int cuDevicePrimaryCtxRelease_v2(int dev)
{
	calls[C_RELEASE]++;
	return dev < 0 || dev >= ndev() ? ERR_INVALID_DEVICE : SUCCESS;
}

int cuCtxSetCurrent(void *ctx)
{
	calls[C_SETCUR]++;
	return ctx ? SUCCESS : ERR_INVALID_VALUE;
}

int cuMemAlloc_v2(unsigned long long *p, size_t len)
{
	calls[C_ALLOC]++;
	const char *e = getenv("SB_STUBCUDA_ALLOC_FAIL");
	if ((e && atoi(e)) || !len)
		return ERR_OOM;
	void *m = NULL; /* page-aligned: stub cuFile does O_DIRECT I/O on it */
	if (posix_memalign(&m, 4096, len))
		return ERR_OOM;
	memset(m, 0xd5, len);
	*p = (unsigned long long)(uintptr_t)m;
	alloc_bytes += len;
	live_allocs++;
	return SUCCESS;
}

int cuMemFree_v2(unsigned long long p)
{
	calls[C_FREE]++;
	free((void *)(uintptr_t)p);
	live_allocs--;
	return SUCCESS;
}

int cuMemHostRegister_v2(void *p, size_t len, unsigned flags)
{
	(void)flags;
	calls[C_HREG]++;
	if (!p || !len)
		return ERR_INVALID_VALUE;
	registered++;
	return SUCCESS;
}

int cuMemHostUnregister(void *p)
{
	calls[C_HUNREG]++;
	registered--;
	return p ? SUCCESS : ERR_INVALID_VALUE;
}

int cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t len)
{
	calls[C_H2D]++;
	if (copy_fails())
		return ERR_ILLEGAL_ADDRESS;
	memcpy((void *)(uintptr_t)dst, src, len);
	if (len && corrupt("h2d"))
		((unsigned char *)(uintptr_t)dst)[0] += 1; /* twice is not undone */
	h2d_bytes += len;
	return SUCCESS;
}

int cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t len)
{
	calls[C_D2H]++;
	if (copy_fails())
		return ERR_ILLEGAL_ADDRESS;
	memcpy(dst, (const void *)(uintptr_t)src, len);
	if (len && corrupt("d2h"))
		((unsigned char *)dst)[0] += 1;
	d2h_bytes += len;
	return SUCCESS;
}

int cuGetErrorString(int r, const char **text)
{
	switch (r) {
	case SUCCESS: *text = "no error"; break;
	case ERR_INVALID_VALUE: *text = "invalid argument"; break;
	case ERR_OOM: *text = "out of memory"; break;
	case ERR_NOT_INIT: *text = "initialization error"; break;
	case ERR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
	case ERR_ILLEGAL_ADDRESS: *text = "an illegal memory access was encountered"; break;
	default: return ERR_INVALID_VALUE;
	}
	return SUCCESS;
}

__attribute__((destructor)) static void write_stats(void)
{
	const char *path = getenv("SB_STUBCUDA_STATS");
	FILE *f = path ? fopen(path, "w") : NULL;
	if (!f)
		return;
	fprintf(f, "{\"calls\": {");
	for (int i = 0; i < C_N; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", cname[i], (unsigned long long)calls[i]);
	fprintf(f, "}, \"h2d_bytes\": %llu, \"d2h_bytes\": %llu, \"alloc_bytes\": %llu, "
		"\"live_allocs\": %llu, \"registered\": %llu}\n", (unsigned long long)h2d_bytes,
		(unsigned long long)d2h_bytes, (unsigned long long)alloc_bytes,
		(unsigned long long)live_allocs, (unsigned long long)registered);
	fclose(f);
}
