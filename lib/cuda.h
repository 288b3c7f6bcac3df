/* cuda.h: the CUDA driver API, loaded at run time (dlopen of libcuda.so.1,
 * which every NVIDIA driver installs): nothing in the build needs CUDA
 * headers or libraries.  The few types and entry points storbench calls are
 * declared here from NVIDIA's public driver API reference (CUresult,
 * CUdevice, CUcontext, CUdeviceptr; cuInit, cuDeviceGetCount, cuDeviceGet,
 * cuDevicePrimaryCtxRetain, cuCtxSetCurrent, cuMemAlloc, cuMemFree,
 * cuMemHostRegister, cuMemHostUnregister, cuMemcpyHtoD, cuMemcpyDtoH,
 * cuGetErrorString).  Tests load t/gpu's stub through LD_LIBRARY_PATH. */
#ifndef SB_CUDA_H
#define SB_CUDA_H
#include <stddef.h>

typedef int sb_CUresult;                 /* CUresult: 0 is CUDA_SUCCESS */
typedef int sb_CUdevice;                 /* CUdevice */
typedef void *sb_CUcontext;              /* CUcontext (opaque) */
typedef unsigned long long sb_CUdeviceptr; /* CUdeviceptr (the _v2 API) */

#define SB_CUDA_LIB "libcuda.so.1"
#define SB_CUDA_PKG "the NVIDIA driver (libcuda.so.1 comes with it, e.g. libnvidia-compute-NNN or nvidia-driver-NNN)"

struct sb_cuda_api {
	sb_CUresult (*cuInit)(unsigned flags);
	sb_CUresult (*cuDeviceGetCount)(int *count);
	sb_CUresult (*cuDeviceGet)(sb_CUdevice *dev, int ordinal);
	sb_CUresult (*cuDevicePrimaryCtxRetain)(sb_CUcontext *ctx, sb_CUdevice dev);
	sb_CUresult (*cuDevicePrimaryCtxRelease)(sb_CUdevice dev);
	sb_CUresult (*cuCtxSetCurrent)(sb_CUcontext ctx);
	sb_CUresult (*cuMemAlloc)(sb_CUdeviceptr *p, size_t len);
	sb_CUresult (*cuMemFree)(sb_CUdeviceptr p);
	sb_CUresult (*cuMemHostRegister)(void *p, size_t len, unsigned flags);
	sb_CUresult (*cuMemHostUnregister)(void *p);
	sb_CUresult (*cuMemcpyHtoD)(sb_CUdeviceptr dst, const void *src, size_t len);
	sb_CUresult (*cuMemcpyDtoH)(void *dst, sb_CUdeviceptr src, size_t len);
	sb_CUresult (*cuGetErrorString)(sb_CUresult r, const char **text);
};

/* The driver API, loaded and cuInit'd once (thread-safe): 0 with *api set,
 * or -ENOENT (the library is absent: why names it and its package) or
 * -EIO (a symbol is missing or cuInit failed: why says which). */
int sb_cuda_load(const struct sb_cuda_api **api, char *why, size_t len);
/* Check that device ordinal dev exists: 0, or -ENODEV with why saying how
 * many devices there are; the driver must be loaded. */
int sb_cuda_device_check(int dev, char *why, size_t len);
/* "CUDA_ERROR_OUT_OF_MEMORY (2)"-like text for r, into buf */
const char *sb_cuda_strerror(sb_CUresult r, char *buf, size_t len);
#endif
