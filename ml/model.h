/* ml/model.h: LLM checkpoint shapes and the file set one checkpoint writes.
 *
 * Pure model layer of workload=checkpoint: parameter count, per-rank byte
 * sizes of model and optimizer states split over TP x PP x DP for each ZeRO
 * stage, and the exact DLIO file layout (names, sizes, owning rank).  No I/O.
 *
 * Sizes follow DLIO's checkpointing code (dlio_benchmark/checkpointing/
 * base_checkpointing.py), integer divisions included:
 *
 *   layers are numbered 0..L+2: 0 = embedding, 1..L = transformer layers,
 *   L+1 = lm_head, L+2 = final norm.  Per layer and rank, in parameters
 *   (sf = dp for ZeRO-3, 1 otherwise; tensors split over TP, norms are not):
 *     0, L+1 : h*vocab / tp / sf
 *     L+2    : h / sf
 *     1..L   : h/sf + h*(h+2*kv)/tp/sf + h*h/tp/sf + h/sf
 *              + 2*h*ffn/tp/sf + h*ffn/tp/sf        (kv = (h/heads)*kv_heads)
 *   model bytes = parameters * 2 (fp16).
 *   optimizer per rank: n = P / (dp*tp*pp) (ZeRO 1..3) or P / (tp*pp) (ZeRO 0),
 *   bytes = 4 * (3*n + 15*h)  (three fp32 groups of n + 5h, i.e. 12 B/param).
 *
 * Pipeline stages (layer -> PP stage): the L transformer layers are split in
 * contiguous runs of L/pp, the first L%pp stages take one extra layer; stage 0
 * also holds layer 0 (embedding), the last stage layers L+1 and L+2.  E.g.
 * 405B (L=126, pp=32): stages 0..29 hold 4 transformer layers, 30..31 hold 3.
 *
 * Rank r: tp_rank = r % tp, pp_rank = (r / tp) % pp, mp_rank = r % (tp*pp),
 * dp_rank = r / (tp*pp).
 *
 * Files in global_epoch<E>_step<S>/ (DLIO names; mp rank not zero-padded):
 *   ZeRO-3 (and 0): each writing rank: zero_pp_rank_<dp>_mp_rank_<mp>_model_states.pt
 *   ZeRO-1/2: DP rank 0 only: model_<mp>_model_states.pt when pp == 1, else
 *             one layer_<i>-model_<mp>_model_states.pt per layer of its stage
 *   every writing rank: zero_pp_rank_<dp>_mp_rank_<mp>_optim_states.pt
 * ZeRO-0: only ranks < tp*pp write (the first DP replica), optimizer P/(tp*pp).
 * SB_ML_NAMES_DEEPSPEED selects DeepSpeed's own spelling instead:
 *   mp_rank_%02d in zero files, mp_rank_%02d_model_states.pt,
 *   layer_%02d-model_%02d_model_states.pt. */
#ifndef SB_ML_MODEL_H
#define SB_ML_MODEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/mlshape.h"  /* struct sb_ml_shape, its checks, tp*pp*dp */

#define SB_ML_FILE_NAME_MAX 128

enum sb_ml_file_kind { SB_ML_FILE_MODEL = 0, SB_ML_FILE_OPTIM = 1 };

struct sb_ml_file {
	char name[SB_ML_FILE_NAME_MAX]; /* relative: "global_epoch1_step1/..." */
	uint64_t bytes;                 /* after checkpoint_scale */
	unsigned rank;                  /* the rank that writes and reads it */
	enum sb_ml_file_kind kind;
	int layer;                      /* layer index for layer_ files, else -1 */
};

/* Built-in models: llama3-8b, llama3-70b, llama3-405b, llama3-1t.  Fills out
 * and returns 0, or -ENOENT (out untouched). */
int sb_ml_model_find(const char *name, struct sb_ml_shape *out);
/* The built-in names, NULL-terminated, for error lists and "did you mean". */
const char *const *sb_ml_model_names(void);

/* Parameter count (DLIO's formula; 8B -> 8,030,261,248). */
double sb_ml_param_count(const struct sb_ml_shape *s);

/* Transformer-layer range of a PP stage, as layer indices (0 = embedding,
 * L+1 = lm_head, L+2 = final norm): first..last inclusive. */
void sb_ml_stage_layers(const struct sb_ml_shape *s, unsigned pp_rank,
			unsigned *first, unsigned *last);
/* Model-state bytes of one layer as held by one rank of the stage. */
uint64_t sb_ml_layer_bytes(const struct sb_ml_shape *s, unsigned layer);
/* Unscaled bytes rank r writes: model states, optimizer states. */
uint64_t sb_ml_rank_model_bytes(const struct sb_ml_shape *s, unsigned rank);
uint64_t sb_ml_rank_optim_bytes(const struct sb_ml_shape *s, unsigned rank);
/* Unscaled total of one full checkpoint (all tp*pp*dp ranks). */
void sb_ml_ckpt_total(const struct sb_ml_shape *s, uint64_t *model, uint64_t *optim);

/* The files of one checkpoint, rank-major (a rank's model files, then its
 * optimizer file).  scale >= 1 divides every size (floor, at least 1 byte);
 * with subset only ranks 0..ranks-1 of the full layout write (their files are
 * those of the full layout: each writes its fraction).  *files is malloc'ed,
 * free() it.  0, -EINVAL (bad shape, scale or ranks: reported with sb_err
 * under "checkpoint"), or -ENOMEM. */
int sb_ml_ckpt_files(const struct sb_ml_shape *s, unsigned epoch, unsigned step,
		     double scale, unsigned ranks, bool subset,
		     struct sb_ml_file **files, size_t *n);
/* The tensors torch.save would hold for file f of this shape (bytes, in
 * order): one per layer of a model-states file, three fp32 groups (n + 5h
 * each) of an optimizer file; scaled so they sum to f->bytes.  *out is
 * malloc'ed.  0 or -ENOMEM. */
int sb_ml_file_tensors(const struct sb_ml_shape *s, const struct sb_ml_file *f,
		       uint64_t **out, size_t *n);
/* The folder name alone: "global_epoch<E>_step<S>". */
int sb_ml_ckpt_folder(unsigned epoch, unsigned step, char *buf, size_t len);
#endif
