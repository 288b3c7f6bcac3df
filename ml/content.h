/* content.h: the bytes of ML files (checkpoints, datasets) and their
 * verification (checkpoint_verify, dataset_verify).  A file's contents are
 * a pure function of its stream key, derived by the workload from (seed,
 * rank, checkpoint, file) or (dataset seed, file), and the byte offset:
 * random and incompressible by default, or floats in [0, 1) as torch.rand
 * makes them (sb_ml_content_values: checkpoint_content=dlio), or the
 * compression / dedupe share the job's buffer options ask for
 * (run/contents.h: sb_contents_recipe).  Each 4 KiB block carries its
 * stamped stream position, so a block found in the wrong place is
 * recognised.  Writes fill through the io_prep hook, verified reads compare
 * through io_check, against bytes regenerated on the spot (no copy kept).
 *
 * A mismatch is classified per 4 KiB block, recorded as type "contents" in
 * the worker's verify result (stats/verify.h):
 *   never_written   the block is all zeroes
 *   misplaced       it is the block of another offset or another file
 *   stale           it is this offset's block of an older checkpoint
 *   bit_corruption  anything else (first differing byte reported)
 * The alternatives (other files, older generations) come from the
 * workload's alt callback; only the first SB_ML_CLASSIFY_MAX failing blocks
 * of a worker are looked up there, later ones are never_written or
 * bit_corruption. */
#ifndef SB_ML_CONTENT_H
#define SB_ML_CONTENT_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/datagen.h"
#include "run/thread.h"

#define SB_ML_CLASSIFY_MAX 256

/* one alternative a failing block is compared with */
struct sb_ml_alt {
	uint64_t key;          /* its stream key */
	uint64_t size;         /* its file's bytes */
	bool stale;            /* an older generation of the same file */
	char what[48];         /* "file F", "checkpoint 2 of this file" */
};

/* alt(ctx, i, out): the i-th alternative (i = 0, 1, ...); false when none is left */
typedef bool (*sb_ml_alt_fn)(void *ctx, unsigned i, struct sb_ml_alt *out);

struct sb_ml_content {
	const struct sb_jobspec *spec;
	struct sb_dg g;               /* the current file's recipe */
	uint64_t size;                /* its bytes */
	const char *path;             /* its path (the caller's buffer) */
	unsigned rank;
	uint64_t unit;                /* bytes per buffer of the recipe */
	enum sb_dg_values values;     /* what the next files' random bytes hold */
	sb_ml_alt_fn alt;
	void *alt_ctx;
	unsigned classified;
	unsigned char *scratch;       /* expected bytes of one I/O */
	unsigned char *other;         /* one block of an alternative */
};

/* Worker t writes (write: io_prep fills) and/or verifies (verify: io_check
 * compares, t->verify of type "contents"); unit: the recipe's bytes per
 * buffer (compression and dedupe are decided per unit; 0: the job's largest
 * bs).  0 or -ENOMEM. */
int sb_ml_content_setup(struct sb_thread *t, unsigned rank, uint64_t unit, bool write, bool verify,
			sb_ml_alt_fn alt, void *alt_ctx);
/* the values the random bytes of the next files hold (default: bytes) */
void sb_ml_content_values(struct sb_thread *t, enum sb_dg_values values);
/* the file the worker's next I/O goes to: its stream key, bytes and path */
void sb_ml_content_file(struct sb_thread *t, uint64_t key, uint64_t size, const char *path);
void sb_ml_content_release(struct sb_thread *t);
/* the recipe of a file of spec s (for writers outside the I/O loop) */
void sb_ml_content_recipe(const struct sb_jobspec *s, uint64_t key, uint64_t unit, uint64_t size,
			  struct sb_dg *g);
/* datasets and checkpoints: a fixed 4 KiB unit, so that jobs with any bs
 * read the same bytes, and dedupe_percentage holds for files of a few
 * units as well as for large ones (each file's first unit is unique) */
#define SB_ML_DATASET_UNIT SB_DG_BLOCK
#define SB_ML_CKPT_UNIT SB_DG_BLOCK
#endif
