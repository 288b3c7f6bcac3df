/* npy.h: numpy's .npy file header (format 1.0), as np.save writes it: the
 * magic "\x93NUMPY", version 1.0, a little-endian 16-bit header length and
 * the dict {'descr': ..., 'fortran_order': False, 'shape': (...), } padded
 * with spaces to a multiple of 64 bytes and ended by '\n'.  Pure: no I/O. */
#ifndef SB_ML_KV_NPY_H
#define SB_ML_KV_NPY_H
#include <stddef.h>
#include <stdint.h>

#define SB_NPY_HDR_MAX 256
#define SB_NPY_DIMS_MAX 8

/* numpy's descr for elements of elem_bytes bytes: "<f2" (float16, what the
 * official benchmark stores), "<f4", "<f8", "|u1" (fp8 as bytes), else
 * "|V<n>" */
const char *sb_npy_descr(unsigned elem_bytes, char *buf, size_t len);
/* Writes the header into buf (at least SB_NPY_HDR_MAX bytes); returns its
 * length (a multiple of 64) or 0 when it does not fit. */
size_t sb_npy_header(char *buf, size_t cap, const char *descr, const uint64_t *shape, unsigned nd);
#endif
