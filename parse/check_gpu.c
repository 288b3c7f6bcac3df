/* check_gpu.c: the checks of iomem=cudamalloc, gpu_dev_id and gpu_dev_ids
 * and ioengine=libcufile.  The CUDA driver is loaded here (lib/cuda.c), before any file
 * is made or written, when the job is parsed for a run: without a driver, or
 * without the GPU asked for, the job stops with exit 1 naming file:line, the
 * library and the package that provides it.  --parse-only checks the
 * syntax only, as it does for CPUs and NUMA nodes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cuda.h"
#include "lib/cufile.h"
#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"

/* ioengine=libcufile's cuda_io (its option row, in its options struct):
 * true for cufile (the default), false for posix */
static bool cuda_io_cufile(const struct sb_jobspec *s)
{
	const struct sb_parse_engine *e = sb_parse_engine_find(s->ioengine);
	const unsigned char *o = sb_spec_engine_opts(s);
	for (unsigned i = 0; e && o && i < e->noptions; i++)
		if (!strcmp(e->options[i].name, "cuda_io"))
			return !*(const unsigned *)(const void *)(o + e->options[i].off);
	return true;
}

/* ioengine=libcufile: direct=1 with cuda_io=cufile (fio's
 * examples/libcufile-cufile.fio; cuFile does O_DIRECT I/O), and its own GPU
 * buffers (fio HOWTO: iomem must not be cudamalloc) */
static unsigned check_cufile(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	const struct sb_option *o = SB_OPT(ioengine);
	if (!s->direct && cuda_io_cufile(s)) {
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=libcufile with cuda_io=cufile needs direct=1 (cuFile reads and writes with "
		       "O_DIRECT, as fio requires): add direct=1, or use cuda_io=posix", o->name);
		return 1;
	}
	if (s->iomem == SB_IOMEM_CUDA && sb_parse_gpu_skipping()) {
		/* sweep.iomem x sweep.ioengine: this point is the iomem=malloc one */
		snprintf(s->gpu_skip, sizeof(s->gpu_skip), "ioengine=libcufile moves data through "
			 "its own GPU buffers: the same as this point with iomem=malloc");
		return 0;
	}
	if (s->iomem == SB_IOMEM_CUDA) {
		sb_err(sb_job_where(c, SB_OPT(iomem), where, sizeof(where)),
		       "iomem=cudamalloc with %s=libcufile: the engine keeps its own GPU buffers (fio: "
		       "iomem must not be cudamalloc): remove iomem=cudamalloc", o->name);
		return 1;
	}
	return 0;
}

/* gpu_dev_ids: ordinals 0..1023 separated by ':' */
static bool ids_ok(const char *ids)
{
	const char *p = ids;
	do {
		char *end;
		if (*p < '0' || *p > '9')
			return false;
		long v = strtol(p, &end, 10);
		if (v > 1023 || (*end && *end != ':'))
			return false;
		p = *end ? end + 1 : end;
	} while (*p || p[-1] == ':');
	return true;
}

/* in a sweep, a library that is absent skips the point (jobspec gpu_skip):
 * the machine has no GPU, the job file is fine.  True when it did. */
static bool skip_point(struct sb_jobspec *s, int r, const struct sb_option *o, const char *val,
		       const char *why)
{
	if (r != -ENOENT || !sb_parse_gpu_skipping())
		return false;
	snprintf(s->gpu_skip, sizeof(s->gpu_skip), "%s=%s: %.360s", o->name, val, why);
	return true;
}

/* the driver (and cuFile) load and the GPUs asked for exist: exit 1 if not,
 * or in a sweep a point skipped for a library this machine lacks */
static unsigned check_machine(struct sb_jobctx *c, bool cufile, const struct sb_option *o,
			      const char *val)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], why[600];
	/* --parse-only looks at the libraries only to say which sweep points
	 * this machine would skip */
	bool machine = sb_parse_machine();
	if ((!machine && !sb_parse_gpu_skipping()) || s->gpu_skip[0])
		return 0;
	const struct sb_cuda_api *api;
	int r = sb_cuda_load(&api, why, sizeof(why));
	if (r && skip_point(s, r, o, val, why))
		return 0;
	if (r && !machine)
		return 0;
	if (r) {
		bool ml = !strcmp(val, "gpu"); /* checkpoint_source=, train_destination= */
		sb_err(sb_job_where(c, o, where, sizeof(where)), "%s=%s: %s; or use %s%s", o->name, val,
		       why, cufile ? "another ioengine" : ml ? o->name : "iomem=malloc",
		       ml ? "=host" : "");
		return 1;
	}
	int p2p;
	r = cufile && cuda_io_cufile(s) ? sb_cufile_load(&(const struct sb_cufile_api *){ NULL },
							  &p2p, why, sizeof(why)) : 0;
	if (r && skip_point(s, r, o, val, why))
		return 0;
	if (!machine)
		return 0;
	if (r) {
		sb_err(sb_job_where(c, o, where, sizeof(where)), "%s=libcufile: %s; or use "
		       "cuda_io=posix (no cuFile needed)", o->name, why);
		return 1;
	}
	unsigned n = s->numjobs > 1 ? s->numjobs : 1;
	for (unsigned k = 0; k < n; k++) {
		int dev = sb_spec_gpu(s, k);
		if (sb_cuda_device_check(dev, why, sizeof(why))) {
			const struct sb_option *g = s->gpu_dev_ids && *s->gpu_dev_ids ? SB_OPT(gpu_dev_ids) :
							SB_OPT(gpu_dev_id);
			sb_err(sb_job_where(c, g, where, sizeof(where)),
			       "%s=%s with %s: thread %u: %s: name a GPU that exists "
			       "(nvidia-smi -L lists them)", o->name, val, g->name, k, why);
			return 1;
		}
	}
	return 0;
}

unsigned sb_job_validate_gpu(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (s->gpu_dev_ids && *s->gpu_dev_ids && !ids_ok(s->gpu_dev_ids)) {
		const struct sb_option *o = SB_OPT(gpu_dev_ids);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%s: not a list of GPU numbers: give device ordinals 0..1023 separated by ':' "
		       "(e.g. 0:1:2:3)", o->name, s->gpu_dev_ids);
		return 1;
	}
	bool cufile = !strcmp(s->ioengine, "libcufile");
	if (cufile && check_cufile(c))
		return 1;
	if ((cufile || s->iomem == SB_IOMEM_CUDA) && !sb_spec_is_io(s)) {
		/* the ML workloads set up their buffers apart (ml/run.c): refused, never ignored */
		const struct sb_parse_workload *w = sb_parse_workload_find(s->workload);
		const struct sb_option *o = cufile ? SB_OPT(ioengine) : SB_OPT(iomem);
		sb_err(sb_job_where(c, o, where, sizeof(where)), "%s=%s: workload=%s does not take "
		       "it (GDS and GPU buffers are for I/O jobs): remove %s=; for data in GPU "
		       "memory use checkpoint_source=gpu (checkpoint, train) or "
		       "train_destination=gpu (train)", o->name,
		       cufile ? "libcufile" : "cudamalloc", w ? w->name : "?", o->name);
		return 1;
	}
	const struct sb_parse_workload *w = sb_spec_workload(s);
	const struct sb_option *wl_gpu = w && w->gpu_mem ? w->gpu_mem(s) : NULL;
	if (wl_gpu)
		return check_machine(c, false, wl_gpu, "gpu");
	if (s->iomem != SB_IOMEM_CUDA && !cufile)
		return 0;
	return check_machine(c, cufile, cufile ? SB_OPT(ioengine) : SB_OPT(iomem),
			     cufile ? "libcufile" : "cudamalloc");
}
