/* cuda.c: see cuda.h.  The library is opened once per process and never
 * closed (the driver keeps threads of its own). */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lib/cuda.h"
#include "lib/dlsyms.h"

static struct sb_cuda_api api;
static int load_rc;
static char load_why[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* the exported names: the _v2 entry points are the 64-bit ones that
 * CUDA's own header maps cuMemAlloc & co. to */
static const struct sb_dlsym syms[] = {
#define S(field, name) { name, offsetof(struct sb_cuda_api, field) }
	S(cuInit, "cuInit"),
	S(cuDeviceGetCount, "cuDeviceGetCount"),
	S(cuDeviceGet, "cuDeviceGet"),
	S(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	S(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	S(cuCtxSetCurrent, "cuCtxSetCurrent"),
	S(cuMemAlloc, "cuMemAlloc_v2"),
	S(cuMemFree, "cuMemFree_v2"),
	S(cuMemHostRegister, "cuMemHostRegister_v2"),
	S(cuMemHostUnregister, "cuMemHostUnregister"),
	S(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
	S(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
	S(cuGetErrorString, "cuGetErrorString"),
#undef S
};

const char *sb_cuda_strerror(sb_CUresult r, char *buf, size_t len)
{
	const char *text = NULL;
	if (api.cuGetErrorString && api.cuGetErrorString(r, &text))
		text = NULL;
	snprintf(buf, len, "%s (CUresult %d)", text ? text : "CUDA error", r);
	return buf;
}

static void load_once(void)
{
	load_rc = sb_dlsyms_load(SB_CUDA_LIB, SB_CUDA_PKG, "the driver is too old (storbench needs "
				 "the CUDA 11 driver API or later)", syms, sizeof(syms) / sizeof(syms[0]),
				 &api, load_why, sizeof(load_why));
	if (load_rc)
		return;
	sb_CUresult r = api.cuInit(0);
	if (r) {
		char b[128];
		snprintf(load_why, sizeof(load_why), "%s: cuInit: %s (is the NVIDIA kernel module "
			 "loaded? nvidia-smi tells)", SB_CUDA_LIB, sb_cuda_strerror(r, b, sizeof(b)));
		load_rc = -EIO;
	}
}

int sb_cuda_load(const struct sb_cuda_api **out, char *why, size_t len)
{
	pthread_once(&once, load_once);
	if (load_rc) {
		snprintf(why, len, "%s", load_why);
		return load_rc;
	}
	*out = &api;
	return 0;
}

int sb_cuda_device_check(int dev, char *why, size_t len)
{
	int n = 0;
	char b[128];
	sb_CUresult r = api.cuDeviceGetCount(&n);
	if (r) {
		snprintf(why, len, "cuDeviceGetCount: %s", sb_cuda_strerror(r, b, sizeof(b)));
		return -ENODEV;
	}
	if (dev < 0 || dev >= n) {
		snprintf(why, len, "no GPU %d: the driver sees %d GPU%s%s", dev, n, n == 1 ? "" : "s",
			 n ? " (numbered from 0)" : "");
		return -ENODEV;
	}
	return 0;
}
