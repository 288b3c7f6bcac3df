/* gpu.c: see gpu.h.  The per-I/O work is one synchronous copy (cuMemcpyHtoD
 * or cuMemcpyDtoH, pinned host memory) between two clock reads, counted
 * into the thread's own statistics: no lock, no allocation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cuda.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "parse/options.h"
#include "run/gpu.h"

struct sb_gpu {
	const struct sb_cuda_api *api;
	sb_CUdevice dev;
	sb_CUcontext ctx;
	sb_CUdeviceptr dbuf;          /* the twin of t->etd.buf_base, same layout */
	bool registered;              /* the host buffers are pinned */
	bool failed;                  /* a copy failed: the next check stops the loop */
	bool verify;                  /* verify=: the data makes the round trip (below) */
	const char *what;             /* the option that asked: "iomem=cudamalloc", ... */
	/* the hooks wrapped (contents, verify), and whether the loop gave the
	 * wrapped check completed writes */
	void (*prep)(struct sb_thread *t, struct sb_io_u *io);
	bool (*check)(struct sb_thread *t, const struct sb_io_u *io);
	bool check_writes;
};

/* a copy failed: the thread's first error names it (off the fast path) */
static void __attribute__((noinline, cold)) copy_failed(struct sb_thread *t, const char *what,
							sb_CUresult r)
{
	char b[128];
	t->gpu->failed = true;
	if (!t->st->error)
		sb_err(t->spec->name, "%s: %s: %s", t->gpu->what, what, sb_cuda_strerror(r, b, sizeof(b)));
	sb_tstats_set_error(t->st, EIO, what, NULL);
}

/* others: I/Os of this thread in flight during the copy (the async loop's
 * count, without the copied one; 0 for the sync engines) */
static inline void count_copy(struct sb_thread *t, int d, uint64_t bytes, uint64_t ns,
			      unsigned others)
{
	struct sb_tstats *st = t->st;
	if (atomic_load_explicit(&t->phase, memory_order_relaxed) == SB_PH_RAMP)
		return; /* ramp_time: copied, not counted (an ML worker has no phases) */
	st->gpu_bytes[d] += bytes;
	if (others)
		st->gpu_overlap_ns[d] += ns;
	sb_stat_add(&st->gpu_copy[d], ns);
	sb_hist_add(&st->live_h->gpu_copy_h[d], ns);
}

/* a write: its data comes from GPU memory.  With verify= the data verify
 * made is put there first (not counted: the application's own data), so a
 * fault in the timed copy out reaches the file and the check */
static void gpu_prep(struct sb_thread *t, struct sb_io_u *io)
{
	struct sb_gpu *g = t->gpu;
	uint64_t off = (uint64_t)((char *)io->buf - (char *)t->etd.buf_base);
	sb_CUresult r = 0;
	if (g->verify) {
		g->prep(t, io);
		r = g->api->cuMemcpyHtoD(g->dbuf + off, io->buf, io->len);
		if (__builtin_expect(r != 0, 0)) {
			copy_failed(t, "cuMemcpyHtoD (verify's data to the GPU, before a write)", r);
			return;
		}
	}
	uint64_t t0 = sb_now_ns();
	r = g->api->cuMemcpyDtoH(io->buf, g->dbuf + off, io->len);
	if (__builtin_expect(r != 0, 0))
		copy_failed(t, "cuMemcpyDtoH (GPU to host, before a write)", r);
	else
		count_copy(t, SB_DDIR_WRITE, io->len, sb_now_ns() - t0,
			   t->inflight ? *t->inflight : 0); /* before it is counted in flight */
	if (g->prep && !g->verify)
		g->prep(t, io);
}

/* a completed read lands in GPU memory (with verify=, the check reads it
 * back from there); a completed write only passes on */
static bool gpu_check(struct sb_thread *t, const struct sb_io_u *io)
{
	struct sb_gpu *g = t->gpu;
	if (io->ddir == SB_DDIR_READ && io->result > 0) {
		uint64_t off = (uint64_t)((char *)io->buf - (char *)t->etd.buf_base);
		uint64_t t0 = sb_now_ns();
		sb_CUresult r = g->api->cuMemcpyHtoD(g->dbuf + off, io->buf, (size_t)io->result);
		if (__builtin_expect(r != 0, 0))
			copy_failed(t, "cuMemcpyHtoD (host to GPU, after a read)", r);
		else
			count_copy(t, SB_DDIR_READ, (uint64_t)io->result, sb_now_ns() - t0,
				   t->inflight && *t->inflight ? *t->inflight - 1 : 0); /* still counted */
		if (g->verify && !g->failed &&
		    (r = g->api->cuMemcpyDtoH(io->buf, g->dbuf + off, (size_t)io->result)))
			copy_failed(t, "cuMemcpyDtoH (the read back from the GPU, for verify)", r);
	}
	if (__builtin_expect(g->failed, 0))
		return false;
	if (g->check && (io->ddir == SB_DDIR_READ || g->check_writes))
		return g->check(t, io);
	return true;
}

static int fail(struct sb_thread *t, const char *what, sb_CUresult r, int e)
{
	char b[128];
	sb_err(t->spec->name, "%s: GPU %d: %s: %s", t->gpu->what, t->gpu->dev, what,
	       sb_cuda_strerror(r, b, sizeof(b)));
	return e;
}

static int setup_dev(struct sb_thread *t, struct sb_gpu *g)
{
	size_t len = (size_t)t->etd.buf_len;
	sb_CUresult r = g->api->cuDeviceGet(&g->dev, g->dev);
	if (r)
		return fail(t, "cuDeviceGet", r, -ENODEV);
	if ((r = g->api->cuDevicePrimaryCtxRetain(&g->ctx, g->dev)))
		return fail(t, "cuDevicePrimaryCtxRetain", r, -ENODEV);
	if ((r = g->api->cuCtxSetCurrent(g->ctx)))
		return fail(t, "cuCtxSetCurrent", r, -ENODEV);
	if ((r = g->api->cuMemAlloc(&g->dbuf, len))) {
		char what[96];
		snprintf(what, sizeof(what), "cuMemAlloc of %zu bytes (iodepth x bs)", len);
		g->dbuf = 0;
		return fail(t, what, r, -ENOMEM);
	}
	if ((r = g->api->cuMemHostRegister(t->etd.buf_base, len, 0)))
		return fail(t, "cuMemHostRegister (pinning the host buffers)", r, -ENOMEM);
	g->registered = true;
	/* the GPU holds the buffers' contents from the start: writes copy them out */
	if ((r = g->api->cuMemcpyHtoD(g->dbuf, t->etd.buf_base, len)))
		return fail(t, "cuMemcpyHtoD (the buffers' first contents)", r, -EIO);
	return 0;
}

int sb_gpu_setup(struct sb_thread *t)
{
	if (t->spec->iomem != SB_IOMEM_CUDA)
		return 0;
	return sb_gpu_attach(t, "iomem=cudamalloc");
}

int sb_gpu_attach(struct sb_thread *t, const char *what)
{
	char why[600];
	struct sb_gpu *g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	t->gpu = g;
	g->what = what;
	g->dev = sb_spec_gpu(t->spec, t->sub);
	if (sb_cuda_load(&g->api, why, sizeof(why))) { /* checked at parse time: a race */
		sb_err(t->spec->name, "%s: %s", what, why);
		return -ENOENT;
	}
	int r = setup_dev(t, g);
	if (r)
		return r;
	g->verify = t->spec->verify && t->io_prep; /* verify's hooks are the ones wrapped */
	g->prep = t->io_prep;
	g->check = t->io_check;
	g->check_writes = t->check_writes;
	t->io_prep = gpu_prep;
	t->io_check = gpu_check;
	t->check_writes = true; /* a failed D2H copy stops the loop at its write's completion */
	return 0;
}

void sb_gpu_bind(struct sb_thread *t)
{
	if (t->gpu && t->gpu->ctx)
		(void)t->gpu->api->cuCtxSetCurrent(t->gpu->ctx);
}

void sb_gpu_teardown(struct sb_thread *t)
{
	struct sb_gpu *g = t->gpu;
	if (!g)
		return;
	if (t->io_prep == gpu_prep) { /* hand the hooks back to their owners' teardown */
		t->io_prep = g->prep;
		t->io_check = g->check;
		t->check_writes = g->check_writes;
	}
	if (g->api) {
		if (g->ctx)
			(void)g->api->cuCtxSetCurrent(g->ctx);
		if (g->registered)
			(void)g->api->cuMemHostUnregister(t->etd.buf_base);
		if (g->dbuf)
			(void)g->api->cuMemFree(g->dbuf);
		if (g->ctx)
			(void)g->api->cuDevicePrimaryCtxRelease(g->dev);
	}
	free(g);
	t->gpu = NULL;
}
