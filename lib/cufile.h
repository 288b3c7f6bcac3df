/* cufile.h: NVIDIA cuFile (GPUDirect Storage), loaded at run time (dlopen of
 * libcufile.so.0, from the GDS package: nvidia-gds / libcufile-NN), as
 * lib/cuda.h loads the driver: no build dependency.  The types and entry
 * points are declared from NVIDIA's public cuFile API reference:
 * CUfileError_t (err: a CUfileOpError, 0 = CU_FILE_SUCCESS; cu_err: a
 * CUresult), CUfileDescr_t (type 1 = CU_FILE_HANDLE_TYPE_OPAQUE_FD),
 * CUfileHandle_t; cuFileDriverOpen, cuFileDriverGetProperties,
 * cuFileHandleRegister/Deregister, cuFileBufRegister/Deregister,
 * cuFileRead, cuFileWrite (bytes, or -1 with errno, or -CUfileOpError). */
#ifndef SB_CUFILE_H
#define SB_CUFILE_H
#include <stddef.h>
#include <sys/types.h>

typedef struct { int err; int cu_err; } sb_CUfileError_t;
typedef void *sb_CUfileHandle_t;
typedef struct {
	int type;                        /* 1: CU_FILE_HANDLE_TYPE_OPAQUE_FD */
	union { int fd; void *handle; } handle;
	const void *fs_ops;              /* NULL */
} sb_CUfileDescr_t;
/* the head of CUfileDrvProps_t: nvfs.major_version is 0 without the
 * nvidia-fs kernel module (cuFile then runs in compatibility mode, through
 * POSIX I/O); the rest is room for the fields storbench does not read */
typedef struct {
	unsigned nvfs_major, nvfs_minor;
	size_t poll_thresh_size, max_direct_io_size;
	unsigned dstatusflags, dcontrolflags;
	unsigned char rest[256];
} sb_CUfileDrvProps_t;

#define SB_CUFILE_LIB "libcufile.so.0"
#define SB_CUFILE_PKG "NVIDIA GPUDirect Storage (libcufile.so.0 comes with the GDS package, e.g. nvidia-gds or libcufile-12-N)"

struct sb_cufile_api {
	sb_CUfileError_t (*cuFileDriverOpen)(void);
	sb_CUfileError_t (*cuFileDriverGetProperties)(sb_CUfileDrvProps_t *props);
	sb_CUfileError_t (*cuFileHandleRegister)(sb_CUfileHandle_t *fh, sb_CUfileDescr_t *d);
	void (*cuFileHandleDeregister)(sb_CUfileHandle_t fh);
	sb_CUfileError_t (*cuFileBufRegister)(const void *dev, size_t len, int flags);
	sb_CUfileError_t (*cuFileBufDeregister)(const void *dev);
	ssize_t (*cuFileRead)(sb_CUfileHandle_t fh, void *dev, size_t len, off_t off, off_t devoff);
	ssize_t (*cuFileWrite)(sb_CUfileHandle_t fh, const void *dev, size_t len, off_t off,
			       off_t devoff);
};

/* cuFile, loaded and cuFileDriverOpen'd once (thread-safe): 0 with *api
 * and *p2p (true: nvidia-fs is there, GPUDirect; false: compatibility
 * mode), or -ENOENT (absent: why names it and its package) or -EIO. */
int sb_cufile_load(const struct sb_cufile_api **api, int *p2p, char *why, size_t len);
#endif
