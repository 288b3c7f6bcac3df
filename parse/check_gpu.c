/* check_gpu.c: the checks of iomem=cudamalloc, gpu_dev_id and gpu_dev_ids
 * (issue 27).  The CUDA driver is loaded here (lib/cuda.c), before any file
 * is made or written, when the job is parsed for a run: without a driver, or
 * without the GPU asked for, the job stops with exit 1 naming file:line, the
 * library and the package that provides it.  --parse-only checks the
 * syntax only, as it does for CPUs and NUMA nodes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cuda.h"
#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

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

unsigned sb_job_validate_gpu(const struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], why[600];
	if (s->gpu_dev_ids && *s->gpu_dev_ids && !ids_ok(s->gpu_dev_ids)) {
		const struct sb_option *o = SB_OPT(gpu_dev_ids);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%s: not a list of GPU numbers: give device ordinals 0..1023 separated by ':' "
		       "(e.g. 0:1:2:3)", o->name, s->gpu_dev_ids);
		return 1;
	}
	if (s->iomem != SB_IOMEM_CUDA || !sb_parse_machine())
		return 0;
	const struct sb_option *o = SB_OPT(iomem);
	const struct sb_cuda_api *api;
	if (sb_cuda_load(&api, why, sizeof(why))) {
		sb_err(sb_job_where(c, o, where, sizeof(where)), "%s=cudamalloc: %s; or use %s=malloc",
		       o->name, why, o->name);
		return 1;
	}
	unsigned n = s->numjobs > 1 ? s->numjobs : 1;
	for (unsigned k = 0; k < n; k++) {
		int dev = sb_spec_gpu(s, k);
		if (sb_cuda_device_check(dev, why, sizeof(why))) {
			const struct sb_option *g = s->gpu_dev_ids && *s->gpu_dev_ids ? SB_OPT(gpu_dev_ids) :
							SB_OPT(gpu_dev_id);
			sb_err(sb_job_where(c, g, where, sizeof(where)),
			       "%s=cudamalloc with %s: thread %u: %s: name a GPU that exists "
			       "(nvidia-smi -L lists them)", o->name, g->name, k, why);
			return 1;
		}
	}
	return 0;
}
