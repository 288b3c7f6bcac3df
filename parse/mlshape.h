/* mlshape.h: an LLM checkpoint shape (struct sb_ml_shape) and the pure
 * arithmetic the parser validates ML jobs with: the shape's sanity and
 * 64-bit overflow checks, tp*pp*dp, the ranks= rule, the largest training
 * sample and DLIO's steps per epoch.  ml/ (model.h, train.h) computes the
 * checkpoint layout and the datasets from the same definitions.  These live
 * in parse/ so that a bad shape is refused at parse time with file:line
 * (also by --parse-only and for every sweep point before the first runs). */
#ifndef SB_PARSE_MLSHAPE_H
#define SB_PARSE_MLSHAPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_ML_MODEL_DTYPE_BYTES 2u /* fp16 */
#define SB_ML_OPTIM_DTYPE_BYTES 4u /* fp32 */

#define SB_ML_NAME_MAX 32

enum sb_ml_naming {
	SB_ML_NAMES_DLIO = 0,      /* what DLIO / MLPerf Storage writes (default) */
	SB_ML_NAMES_DEEPSPEED = 1, /* DeepSpeed's zero-padded names */
};

struct sb_ml_shape {
	char name[SB_ML_NAME_MAX]; /* built-in model name, "" when explicit */
	unsigned hidden, ffn, layers, heads, kv_heads, vocab;
	unsigned tp, pp, dp, zero_stage;
	unsigned closed_ranks;     /* ranks for MLPerf CLOSED; tp*pp*dp if explicit */
	enum sb_ml_naming naming;
};

struct sb_model_preset; /* parse/catalog.h */
/* The shape of a built-in model (name, closed_ranks, DLIO file names). */
void sb_ml_shape_from_preset(const struct sb_model_preset *p, struct sb_ml_shape *out);

/* Checks an explicit (or built-in) shape: all sizes >= 1, kv_heads <= heads,
 * heads <= hidden, zero_stage <= 3 (else -EINVAL), and every size the
 * layout computes from it (parameter count, a full checkpoint's bytes,
 * tp*pp*dp) fits in 64 bits (else -EOVERFLOW); the reason in err.  The
 * functions below assume a shape that passed. */
int sb_ml_shape_check(const struct sb_ml_shape *s, char *err, size_t errlen);

/* tp*pp*dp: the rank count of the full layout. */
unsigned sb_ml_world(const struct sb_ml_shape *s);

/* ranks must equal tp*pp*dp, or with subset lie in 1..tp*pp*dp.  0, or
 * -EINVAL with a message naming the numbers and the fix in err. */
int sb_ml_check_ranks(const struct sb_ml_shape *s, unsigned ranks, bool subset,
		      char *err, size_t errlen);

/* The largest sample a dataset of these record sizes can draw (its normal
 * draws are bounded: |z| <= 8.58), in bytes, as a double: the validation
 * checks sizes against 2^63 with it before anything is summed. */
double sb_ml_record_bytes_max(double record_length, double record_stdev);
/* DLIO's steps per epoch: floor(files * spf / batch / ranks). */
size_t sb_ml_steps_per_epoch(unsigned files, unsigned spf, unsigned batch, unsigned ranks);
#endif
