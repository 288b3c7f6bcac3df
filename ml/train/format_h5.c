/* ml/train/format_h5.c: dataset_format=hdf5 through libhdf5 (ml/train/formats.h), as
 * DLIO's HDF5 generator writes it with h5py: dataset "records_0" (uint8,
 * shape (samples, d1, d2), contiguous: DLIO's default has no chunk_dims)
 * and "labels" (int64 zeros), libver latest.  Writing HDF5 by hand (the
 * superblock, object headers, B-trees, heaps) is not realistic; libhdf5 is
 * the format's reference implementation.  Debian's libhdf5 is the serial,
 * non-threadsafe build, so every call is under one mutex.  Without libhdf5
 * (./configure --disable-hdf5) the parser refuses dataset_format=hdf5 and
 * these return -ENOTSUP. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ml/content.h"
#include "ml/train/dataset.h"
#include "ml/train/formats.h"
#include "ml/run.h"

#ifdef CONFIG_HDF5
#include <hdf5.h>

static pthread_mutex_t h5mu = PTHREAD_MUTEX_INITIALIZER;

int sb_ml_h5_write(const struct sb_jobspec *s, const struct sb_ml_dataset *ds, unsigned file,
		   const char *path, char *buf, size_t buflen)
{
	uint64_t d1, d2, n = ds->samples_per_file;
	struct sb_dg g;
	int e = 0;
	sb_ml_sample_dims(ds, file, &d1, &d2);
	sb_ml_content_recipe(s, sb_ml_dataset_key(ds, file), SB_ML_DATASET_UNIT,
			     sb_ml_file_bytes(ds, file), &g);
	hsize_t dims[3] = { n, d1, d2 }, ldim = n;
	uint64_t rows = buflen / d2 ? buflen / d2 : 1;
	if (d2 > buflen)
		return -EFBIG; /* a row beyond the buffer: not a DLIO shape */
	pthread_mutex_lock(&h5mu);
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
	H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
	hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
	hid_t sp = H5Screate_simple(3, dims, NULL);
	hid_t d = f < 0 || sp < 0 ? -1 : H5Dcreate2(f, "records_0", H5T_NATIVE_UINT8, sp, H5P_DEFAULT,
						      H5P_DEFAULT, H5P_DEFAULT);
	if (d < 0)
		e = -EIO;
	for (uint64_t k = 0; !e && k < n; k++) {
		for (uint64_t r0 = 0; !e && r0 < d1; r0 += rows) {
			hsize_t cnt[3] = { 1, r0 + rows > d1 ? d1 - r0 : rows, d2 }, st[3] = { k, r0, 0 };
			sb_dg_fill(&g, k * d1 * d2 + r0 * d2, buf, (size_t)(cnt[1] * d2));
			hid_t ms = H5Screate_simple(3, cnt, NULL);
			if (H5Sselect_hyperslab(sp, H5S_SELECT_SET, st, NULL, cnt, NULL) < 0 ||
			    H5Dwrite(d, H5T_NATIVE_UINT8, ms, sp, H5P_DEFAULT, buf) < 0)
				e = -EIO;
			H5Sclose(ms);
			if (!e && sb_stopping())
				e = -EINTR;
		}
	}
	if (!e) { /* labels: int64 zeros, as DLIO's [0] * num_samples */
		hid_t ls = H5Screate_simple(1, &ldim, NULL);
		hid_t l = H5Dcreate2(f, "labels", H5T_NATIVE_INT64, ls, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		memset(buf, 0, buflen);
		for (uint64_t k = 0; !e && k < n; k += buflen / 8) {
			hsize_t st = k, cnt = n - k < buflen / 8 ? n - k : buflen / 8;
			hid_t ms = H5Screate_simple(1, &cnt, NULL);
			if (l < 0 || H5Sselect_hyperslab(ls, H5S_SELECT_SET, &st, NULL, &cnt, NULL) < 0 ||
			    H5Dwrite(l, H5T_NATIVE_INT64, ms, ls, H5P_DEFAULT, buf) < 0)
				e = -EIO;
			H5Sclose(ms);
		}
		if (l >= 0)
			H5Dclose(l);
		H5Sclose(ls);
	}
	if (d >= 0)
		H5Dclose(d);
	if (sp >= 0)
		H5Sclose(sp);
	if (f >= 0 && H5Fclose(f) < 0 && !e)
		e = -EIO;
	H5Pclose(fapl);
	pthread_mutex_unlock(&h5mu);
	return e;
}

int sb_ml_h5_probe(const struct sb_ml_dataset *ds, unsigned file, const char *path,
		   uint64_t *data_off, char *why, size_t len)
{
	uint64_t d1, d2;
	hsize_t dims[3] = { 0, 0, 0 };
	int e = 0;
	sb_ml_sample_dims(ds, file, &d1, &d2);
	pthread_mutex_lock(&h5mu);
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	hid_t d = f < 0 ? -1 : H5Dopen2(f, "records_0", H5P_DEFAULT);
	hid_t sp = d < 0 ? -1 : H5Dget_space(d);
	hid_t ty = d < 0 ? -1 : H5Dget_type(d);
	if (f < 0) {
		snprintf(why, len, "is not an HDF5 file (random contents of an older storbench?)");
		e = -EEXIST;
	} else if (sp < 0 || ty < 0 || H5Sget_simple_extent_ndims(sp) != 3 ||
		   H5Sget_simple_extent_dims(sp, dims, NULL) != 3 || H5Tget_size(ty) != 1) {
		snprintf(why, len, "has no uint8 dataset records_0 of 3 dimensions");
		e = -EEXIST;
	} else if (dims[0] != ds->samples_per_file || dims[1] != d1 || dims[2] != d2) {
		snprintf(why, len, "holds records_0 of shape (%llu, %llu, %llu), this dataset needs "
			 "(%u, %llu, %llu)", (unsigned long long)dims[0], (unsigned long long)dims[1],
			 (unsigned long long)dims[2], ds->samples_per_file, (unsigned long long)d1,
			 (unsigned long long)d2);
		e = -EEXIST;
	} else {
		haddr_t a = H5Dget_offset(d);
		if (a == HADDR_UNDEF) {
			snprintf(why, len, "has records_0 unallocated or not contiguous");
			e = -EEXIST;
		}
		*data_off = (uint64_t)a;
	}
	if (ty >= 0)
		H5Tclose(ty);
	if (sp >= 0)
		H5Sclose(sp);
	if (d >= 0)
		H5Dclose(d);
	if (f >= 0)
		H5Fclose(f);
	pthread_mutex_unlock(&h5mu);
	return e;
}
#else
int sb_ml_h5_write(const struct sb_jobspec *s, const struct sb_ml_dataset *ds, unsigned file,
		   const char *path, char *buf, size_t buflen)
{
	(void)s, (void)ds, (void)file, (void)path, (void)buf, (void)buflen;
	return -ENOTSUP;
}

int sb_ml_h5_probe(const struct sb_ml_dataset *ds, unsigned file, const char *path,
		   uint64_t *data_off, char *why, size_t len)
{
	(void)ds, (void)file, (void)path, (void)data_off;
	snprintf(why, len, "is an HDF5 dataset and this storbench was built without libhdf5");
	return -ENOTSUP;
}
#endif
