/* ml/train/formats.h: what the training dataset files hold (dataset_format=) and
 * how a reader reads a sample of them, as DLIO's generators and readers do.
 *
 * A file's payload is samples_per_file samples of d1 x d2 bytes
 * (ml/train/train.h sb_ml_sample_dims), the dataset content stream
 * (ml/content.h, key sb_ml_dataset_key) at payload offsets 0, 1, ...:
 *   raw       the payload alone (storbench's former layout)
 *   npy       np.save(records): a 64-byte-aligned .npy v1.0 header, then the
 *             uint8 array of shape (d1, d2, samples) (C order)
 *   npz       np.savez(x=records, y=labels): a stored (uncompressed) zip of
 *             x.npy (as npy) and y.npy (int64 zeros, shape (samples,)), zlib
 *             crc32 in the headers, no zip64 (a member must stay < 4 GiB)
 *   tfrecord  one record per sample: uint64 length (LE), masked CRC32C of
 *             the length, a tf.train.Example {image: bytes (the sample),
 *             size: int64 (its bytes)}, masked CRC32C of the Example
 *   hdf5      libhdf5 (ml/train/format_h5.c): dataset "records_0" uint8 of shape
 *             (samples, d1, d2), contiguous (DLIO's default: no chunk_dims),
 *             and "labels" (int64 zeros), libver latest
 * Reading (DLIO's readers, read_type on_demand): npz and npy read the whole
 * file for every sample (np.load per sample); hdf5 reads the sample's slice
 * of records_0; tfrecord streams each file from its first needed record on,
 * in bs-sized reads, forward only (TFRecordDataset). */
#ifndef SB_ML_FORMATS_H
#define SB_ML_FORMATS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "ml/train/train.h"
#include "run/thread.h"

struct sb_jobspec;

/* "npz", ...; the file extension of a dataset in format fmt (raw keeps the
 * train_model's extension, base) */
const char *sb_ml_fmt_ext(unsigned fmt, const char *base);

/* Bytes of file i on disk; hdf5: 0 (libhdf5 decides; checked by header). */
uint64_t sb_ml_fmt_file_bytes(const struct sb_ml_dataset *ds, unsigned file);
/* Bytes to reserve for the file (the size, or hdf5's payload + 64 KiB). */
uint64_t sb_ml_fmt_file_need(const struct sb_ml_dataset *ds, unsigned file);

/* Whether the existing file at path (st: its stat) is file i of ds: 0, or
 * -EEXIST with the reason in why ("has N bytes, needs M", "is not a npz
 * file: random contents of an older storbench?"). */
int sb_ml_fmt_check(const struct sb_ml_dataset *ds, unsigned file, const char *path,
		    const struct stat *st, char *why, size_t len);

/* Write file i into fd (created empty, at path) with s's content recipe;
 * buf: a scratch buffer of buflen bytes (>= 64 KiB).  0 or -errno. */
int sb_ml_fmt_write(const struct sb_jobspec *s, const struct sb_ml_dataset *ds, unsigned file,
		    int fd, const char *path, char *buf, size_t buflen);

/* ---- encoders (unit-tested) ---- */
uint32_t sb_ml_crc32c(uint32_t crc, const void *buf, size_t len); /* crc 0 to start */
uint32_t sb_ml_tfr_mask(uint32_t crc);                             /* TFRecord's masking */
/* The .npy v1.0 header for descr ("|u1", "<i8") and shape (n dims) into
 * out (>= 256 bytes), byte for byte numpy 1.24's np.save (the dict, 21 -
 * digits of the first axis spaces of room, padding to a multiple of 64). */
size_t sb_ml_npy_header(char *out, const char *descr, const uint64_t *shape, unsigned n);
/* The Example bytes around a sample of len bytes whose int64 feature
 * "size" holds size: pre (the bytes before the image, <= 64) and post
 * (after it, <= 32); *plen, *qlen their lengths. */
void sb_ml_tfr_example(uint64_t len, uint64_t size, uint8_t *pre, size_t *plen, uint8_t *post,
		       size_t *qlen);
/* Bytes of one TFRecord record of a len-byte sample. */
uint64_t sb_ml_tfr_record_bytes(uint64_t len, uint64_t size);
/* What DLIO's "size" feature holds: its dimension, int(sqrt(record_length))
 * (tf_generator.py:62, config.py:312), 338 for resnet50, whatever the
 * record's own dimensions */
uint64_t sb_ml_tfr_size_field(const struct sb_ml_dataset *ds);

/* ---- reading ---- */
/* One reader's state (a worker): the tfrecord stream position. */
/* TFRecord streams a reader keeps open at once: DLIO interleaves
 * read_threads files, each its own buffered stream (tf_reader.py:91-92) */
#define SB_ML_TFR_STREAMS 16
struct sb_ml_fmtrd {
	struct {
		int file;        /* the file being streamed, -1: none */
		uint64_t pos;    /* bytes of it read so far (from its start offset) */
	} st[SB_ML_TFR_STREAMS];
	unsigned next;       /* the stream a new file replaces (round robin) */
	int h5file;          /* hdf5: the file whose records_0 offset is h5off */
	uint64_t h5off;
};
void sb_ml_fmtrd_reset(struct sb_ml_fmtrd *r);
/* Read sample in_file of file (at path) with worker t as ds's format asks. */
int sb_ml_fmt_read(struct sb_ml_fmtrd *r, struct sb_thread *t, const struct sb_ml_dataset *ds,
		   unsigned file, unsigned in_file, const char *path);

/* ml/train/format_h5.c (libhdf5; without it each returns -ENOTSUP) */
int sb_ml_h5_write(const struct sb_jobspec *s, const struct sb_ml_dataset *ds, unsigned file,
		   const char *path, char *buf, size_t buflen);
/* records_0's shape check and its data offset in the file */
int sb_ml_h5_probe(const struct sb_ml_dataset *ds, unsigned file, const char *path,
		   uint64_t *data_off, char *why, size_t len);
#endif
