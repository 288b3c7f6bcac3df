/* libcufile.c: the libcufile engine (fio's name and options): storage to and
 * from GPU memory with NVIDIA cuFile (GPUDirect Storage).  Each thread's
 * buffers get a twin in GPU memory (cuMemAlloc on gpu_dev_id / gpu_dev_ids)
 * and the I/O targets the twin: cuda_io=cufile reads and writes it with
 * cuFileRead/cuFileWrite (registered with cuFileBufRegister, files with
 * cuFileHandleRegister); cuda_io=posix does pread/pwrite on the host buffer
 * and copies (read: host to GPU after; write: GPU to host before), as fio.
 * libcuda.so.1 and libcufile.so.0 are loaded at run time (lib/cuda.h,
 * lib/cufile.h).  Whether cuFile runs GPUDirect (nvidia-fs, "p2p") or its
 * compatibility mode ("compat") goes to the results (td->gds_mode).
 * cuFileRead/cuFileWrite (and pread/pwrite) may move fewer bytes than asked:
 * the result says so and run/ queues the rest at buf + done, which is device
 * offset + done in the twin (run/resid.h), as for every engine. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/cuda.h"
#include "lib/cufile.h"

enum { CF_IO_CUFILE = 0, CF_IO_POSIX = 1 };
struct cf_opts {
	unsigned cuda_io;       /* CF_IO_*: fio's cuda_io */
};

static const struct sb_opt_enum cuda_io_vals[] = {
	{ .name = "cufile", .val = CF_IO_CUFILE, .help = "cuFileRead/cuFileWrite straight to GPU memory (GPUDirect, or cuFile's compatibility mode without nvidia-fs)" },
	{ .name = "posix", .val = CF_IO_POSIX, .help = "pread/pwrite on host buffers, copied to (after a read) and from (before a write) GPU memory" },
	{ .name = NULL },
};

static const struct sb_option cf_options[] = {
	{ .name = "cuda_io", .type = SB_OT_ENUM, .off = offsetof(struct cf_opts, cuda_io),
	  .def = "cufile", .enums = cuda_io_vals, .category = SB_CAT_ENG,
	  .help = "libcufile: how the I/O reaches GPU memory: cufile or posix" },
};
const struct sb_engine_options sb_libcufile_optset = {
	cf_options, sizeof(cf_options) / sizeof(cf_options[0]), sizeof(struct cf_opts),
};

struct cf {
	const struct sb_cuda_api *cu;
	const struct sb_cufile_api *cf;
	int dev;
	sb_CUcontext ctx;
	sb_CUdeviceptr dbuf;    /* the twin of td->buf_base, same layout */
	bool bufreg, bound, posix;
};

static int cf_fail(struct sb_engine_td *td, const char *what, int code, int e)
{
	snprintf(td->errmsg, sizeof(td->errmsg), "GPU %d: %s failed (error %d)",
		 td->job ? td->job->gpu_dev : 0, what, code);
	return e;
}

static int cf_setup(struct sb_engine_td *td, struct cf *c)
{
	sb_CUresult r;
	if ((r = c->cu->cuDevicePrimaryCtxRetain(&c->ctx, c->dev)))
		return cf_fail(td, "cuDevicePrimaryCtxRetain", r, -ENODEV);
	if ((r = c->cu->cuCtxSetCurrent(c->ctx)))
		return cf_fail(td, "cuCtxSetCurrent", r, -ENODEV);
	if ((r = c->cu->cuMemAlloc(&c->dbuf, td->buf_len))) {
		c->dbuf = 0;
		return cf_fail(td, "cuMemAlloc", r, -ENOMEM);
	}
	if ((r = c->cu->cuMemcpyHtoD(c->dbuf, td->buf_base, td->buf_len))) /* first contents */
		return cf_fail(td, "cuMemcpyHtoD", r, -EIO);
	if (c->posix)
		return 0;
	sb_CUfileError_t e = c->cf->cuFileBufRegister((void *)(uintptr_t)c->dbuf, td->buf_len, 0);
	if (e.err)
		return cf_fail(td, "cuFileBufRegister", e.err, -EIO);
	c->bufreg = true;
	return 0;
}

static void cf_cleanup(struct sb_engine_td *td)
{
	struct cf *c = td->data;
	if (!c)
		return;
	if (c->ctx)
		(void)c->cu->cuCtxSetCurrent(c->ctx);
	if (c->bufreg)
		(void)c->cf->cuFileBufDeregister((void *)(uintptr_t)c->dbuf);
	if (c->dbuf)
		(void)c->cu->cuMemFree(c->dbuf);
	if (c->ctx)
		(void)c->cu->cuDevicePrimaryCtxRelease(c->dev);
	free(c);
	td->data = NULL;
}

static int cf_init(struct sb_engine_td *td)
{
	const struct cf_opts *o = td->job ? td->job->opts : NULL;
	struct cf *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	td->data = c;
	c->posix = o && o->cuda_io == CF_IO_POSIX;
	c->dev = td->job ? td->job->gpu_dev : 0;
	int p2p = 0, r = sb_cuda_load(&c->cu, td->errmsg, sizeof(td->errmsg));
	if (!r && !c->posix)
		r = sb_cufile_load(&c->cf, &p2p, td->errmsg, sizeof(td->errmsg));
	td->machine_lacks = r != 0; /* no driver, no cuFile */
	if (!r && (r = cf_setup(td, c)) == -ENODEV)
		td->machine_lacks = true; /* no such GPU */
	if (r) {
		cf_cleanup(td);
		return r;
	}
	td->gds_mode = c->posix ? "posix" : p2p ? "p2p" : "compat";
	return 0;
}

static int cf_open(struct sb_engine_td *td, struct sb_file *f)
{
	struct cf *c = td->data;
	if (c->posix)
		return 0;
	sb_CUfileDescr_t d = { .type = 1, .handle.fd = f->fd };
	sb_CUfileHandle_t h;
	sb_CUfileError_t e = c->cf->cuFileHandleRegister(&h, &d);
	if (e.err) {
		snprintf(td->errmsg, sizeof(td->errmsg), "cuFileHandleRegister of %s failed (error %d): "
			 "is the file system one GDS supports? (gdscheck -p); cuda_io=posix avoids cuFile",
			 f->path ? f->path : "the file", e.err);
		return -EIO;
	}
	f->engine_data = h;
	return 0;
}

static int cf_close(struct sb_engine_td *td, struct sb_file *f)
{
	struct cf *c = td->data;
	if (c && f->engine_data)
		c->cf->cuFileHandleDeregister(f->engine_data);
	f->engine_data = NULL;
	return 0;
}

/* a cuFile answer: bytes, -1 with errno, or -CUfileOpError (5000 and up) */
static int64_t cf_result(ssize_t r)
{
	if (r >= 0)
		return r;
	return r == -1 ? -errno : -EIO;
}

/* cuda_io=cufile: straight between the file and GPU memory; with verify=
 * the host buffer follows (fio: H2D before a write, D2H after a read) */
static int64_t cf_direct(struct cf *c, struct sb_io_u *io, bool wr, off_t devoff, bool verify)
{
	void *dev = (void *)(uintptr_t)c->dbuf;
	sb_CUdeviceptr at = c->dbuf + (uint64_t)devoff;
	if (wr) {
		if (verify && c->cu->cuMemcpyHtoD(at, io->buf, io->len))
			return -EIO;
		return cf_result(c->cf->cuFileWrite(io->file->engine_data, dev, io->len,
						    (off_t)io->offset, devoff));
	}
	int64_t r = cf_result(c->cf->cuFileRead(io->file->engine_data, dev, io->len,
						(off_t)io->offset, devoff));
	if (verify && r > 0 && c->cu->cuMemcpyDtoH(io->buf, at, (size_t)r))
		return -EIO;
	return r;
}

static int64_t cf_rw(struct cf *c, struct sb_io_u *io, bool wr, off_t devoff, bool verify)
{
	if (!c->posix)
		return cf_direct(c, io, wr, devoff, verify);
	sb_CUdeviceptr at = c->dbuf + (uint64_t)devoff;
	if (wr && verify && c->cu->cuMemcpyHtoD(at, io->buf, io->len)) /* keep verify's data */
		return -EIO;
	if (wr && c->cu->cuMemcpyDtoH(io->buf, at, io->len))
		return -EIO;
	ssize_t r = wr ? pwrite(io->file->fd, io->buf, io->len, (off_t)io->offset)
		       : pread(io->file->fd, io->buf, io->len, (off_t)io->offset);
	if (r < 0)
		return -errno;
	if (!wr && r > 0 && c->cu->cuMemcpyHtoD(at, io->buf, (size_t)r))
		return -EIO;
	if (!wr && r > 0 && verify && c->cu->cuMemcpyDtoH(io->buf, at, (size_t)r)) /* checked back */
		return -EIO;
	return r;
}

static enum sb_q_status cf_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct cf *c = td->data;
	if (__builtin_expect(!c->bound, 0)) { /* the I/O thread's first I/O */
		(void)c->cu->cuCtxSetCurrent(c->ctx);
		c->bound = true;
	}
	off_t devoff = (off_t)((char *)io->buf - (char *)td->buf_base);
	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE:
		io->result = cf_rw(c, io, io->ddir == SB_DDIR_WRITE, devoff,
				   td->job && td->job->gpu_verify);
		break;
	case SB_DDIR_SYNC:
		io->result = fsync(io->file->fd) ? -errno : 0;
		break;
	case SB_DDIR_DATASYNC:
		io->result = fdatasync(io->file->fd) ? -errno : 0;
		break;
	default:
		io->result = -EOPNOTSUPP;
	}
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_libcufile = {
	.name = "libcufile",
	.description = "NVIDIA cuFile (GPUDirect Storage) to and from GPU memory, one I/O at a time; "
		       "cuda_io=cufile|posix, direct=1 (libcuda.so.1 and libcufile.so.0 loaded at run time)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_ALIGNED,
	.init = cf_init,
	.cleanup = cf_cleanup,
	.options = &sb_libcufile_optset,
	.open_file = cf_open,
	.close_file = cf_close,
	.queue = cf_queue,
};
