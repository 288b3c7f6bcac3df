/* gpucopy.h: checkpoint_source=gpu / train_destination=gpu: the copies between GPU memory and the workers' host buffers that the
 * job's I/O made (run/gpu.c times them; ml/run.c sums the workers').  The
 * copy time is inside the phases' durations; these say how much of it. */
#ifndef SB_ML_GPUCOPY_H
#define SB_ML_GPUCOPY_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sb_ml_gpu_copy {
	bool on;                  /* the job's data moved through GPU memory */
	uint64_t d2h_bytes;       /* GPU to host, before writes (bytes) */
	uint64_t h2d_bytes;       /* host to GPU, after reads (bytes) */
	double d2h_s, h2d_s;      /* their copy time, summed over the workers (s) */
};

struct sb_jw;
/* "gpu_copy" {d2h_bytes, d2h_s, h2d_bytes, h2d_s} and its normal-output
 * line; nothing when g is off */
void sb_ml_gpu_json(struct sb_jw *w, const struct sb_ml_gpu_copy *g);
void sb_ml_gpu_normal(FILE *f, const struct sb_ml_gpu_copy *g);
#endif
