/* catalog.h: the built-in ML presets as plain data: the LLM shapes of
 * model= (MLPerf Storage v2 checkpointing) and the DLIO training workloads
 * of train_model= (dataset facts, batch, readers, compute time, AU target).
 * parse/ resolves a preset into the spec's fields once; ml/ reads the same
 * rows (rule checks, file names).  No logic beyond lookup by name. */
#ifndef SB_PARSE_CATALOG_H
#define SB_PARSE_CATALOG_H
#include <stdint.h>

#define SB_MODEL_DEFAULT_VOCAB 128256u /* vocab= of an explicit shape (Llama 3) */

struct sb_model_preset {
	const char *name;
	unsigned hidden, ffn, layers, heads, kv_heads, vocab;
	unsigned tp, pp, dp, zero_stage;
	unsigned closed_ranks;  /* ranks of an MLPerf CLOSED run */
	unsigned head_dim;      /* dimensions per attention head (Llama 3 configs: 128; the
				 * KV cache's shape with layers and kv_heads) */
};

struct sb_train_preset {
	const char *name;
	const char *format, *prefix;    /* file extension and name prefix: npz/tfrecord, img */
	unsigned files, samples_per_file;
	double record_length, record_stdev; /* bytes per sample (may be fractional) */
	unsigned batch_size, read_threads, epochs;
	double compute_a100_s, compute_h100_s; /* computation_time per step */
	double au_required_pct;
	/* DLIO's reader.file_shuffle / sample_shuffle (seed: on) as
	 * SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE flags, and the in-training model
	 * checkpoint (checkpoint.checkpoint_after_epoch, epochs_between_checkpoints;
	 * 0: none) */
	unsigned shuffle, ckpt_after_epoch, epochs_between_ckpt;
	uint64_t model_size; /* model.model_size: the checkpoint's model file, bytes */
};

/* The rows, terminated by a row with a NULL name, and their names (NULL-terminated). */
extern const struct sb_model_preset sb_model_presets[];
extern const char *const sb_model_preset_names[];
extern const struct sb_train_preset sb_train_presets[];
extern const char *const sb_train_preset_names[];

/* By exact name; NULL when unknown (or name is NULL). */
const struct sb_model_preset *sb_model_preset_find(const char *name);
const struct sb_train_preset *sb_train_preset_find(const char *name);
#endif
