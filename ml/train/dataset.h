/* ml/train/dataset.h: the training dataset on disk (ml/train/train.h gives its layout
 * and sizes): the check of what is already there, the free-space check and
 * the creation of the missing files.  storbench never deletes a dataset file
 * it finds; a file of the wrong size stops the job before any I/O. */
#ifndef SB_ML_DATASET_H
#define SB_ML_DATASET_H
#include <stdint.h>

#include "lib/datagen.h"
#include "ml/train/train.h"
#include "parse/jobspec.h"

/* the content stream key of dataset file i (the dataset's seed, not the
 * job's: every job with this layout reads the same bytes) */
static inline uint64_t sb_ml_dataset_key(const struct sb_ml_dataset *ds, unsigned i)
{
	return sb_dg_mix(sb_dg_mix(ds->seed, 0x64617461ull /* "data" */), i);
}

/* Counts the missing files of ds under dir (*nmissing, *missing_bytes);
 * -EEXIST with the message under job's name when a file has the wrong size. */
int sb_ml_dataset_check(const char *job, const struct sb_ml_dataset *ds, const char *dir,
			unsigned *nmissing, uint64_t *missing_bytes);
/* -errno with the message when need bytes cannot be created under dir */
int sb_ml_dataset_space(const char *job, const char *dir, uint64_t need);
/* Creates dir, train/, the subfolders and every missing file with its
 * contents (s: the content options); a partial file it created is removed. */
int sb_ml_dataset_create(const struct sb_jobspec *s, const char *job,
			 const struct sb_ml_dataset *ds, const char *dir);

/* The same on an object store (ioengine=s3: SB_ENGINE_OBJECTS): each file
 * is the object at its path (ops->object_size, ops->object_put with the
 * job's engine options opts).  An object of the wrong size stops the job;
 * a missing one is made in memory (a memfd) and PUT whole, marked.
 * hdf5 is refused (its library writes by path). */
struct sb_engine_ops;
int sb_ml_dataset_check_objects(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
				const struct sb_ml_dataset *ds, const char *dir, unsigned *nmissing,
				uint64_t *missing_bytes);
int sb_ml_dataset_create_objects(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
				 const struct sb_ml_dataset *ds, const char *dir);

#endif
