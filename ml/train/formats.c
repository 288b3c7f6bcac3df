/* ml/train/formats.c: the dataset file formats of workload=train (ml/train/formats.h):
 * npy, npz (stored zip), TFRecord framing and tf.train.Example encoding,
 * their sizes and header checks, and the per-format read of a sample. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "config.h"
#ifdef CONFIG_ISAL
#include <isa-l/crc.h>
#endif

#include "lib/log.h"
#include "ml/content.h"
#include "ml/train/dataset.h"
#include "ml/train/formats.h"
#include "ml/run.h"
#include "parse/jobspec.h"

#define ZIP_LFH 30u   /* local file header, without the name */
#define ZIP_CDH 46u   /* central directory header, without the name */
#define ZIP_EOCD 22u
#define ZIP_NAME 5u   /* "x.npy", "y.npy" */
#define ZIP_X64 20u   /* a local header's zip64 extra field: numpy 1.24's np.savez
		       * opens each member with force_zip64=True (numpy/lib/npyio.py
		       * _savez; Python's zipfile then writes id 1, 16 bytes: both
		       * sizes as 8 bytes) */

static const char *const fmt_names[] = { "raw", "npz", "npy", "hdf5", "tfrecord" };

const char *sb_ml_fmt_ext(unsigned fmt, const char *base)
{
	return fmt == SB_DSFMT_RAW || fmt >= sizeof(fmt_names) / sizeof(fmt_names[0]) ? base :
	       fmt_names[fmt];
}

/* ---- encoders ---- */

#ifndef CONFIG_ISAL
static uint32_t crc_tab[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) /* CRC-32C (Castagnoli), reflected */
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_tab[i] = c;
	}
}
#endif

uint32_t sb_ml_crc32c(uint32_t crc, const void *buf, size_t len)
{
#ifdef CONFIG_ISAL /* hardware CRC32C, as verify=crc32c (lib/csum.c) */
	while (len) {
		int n = len > (1u << 30) ? 1 << 30 : (int)len;
		crc = ~crc32_iscsi((unsigned char *)buf, n, ~crc);
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	return crc;
#else
	pthread_once(&crc_once, crc_init);
	const uint8_t *p = buf;
	crc = ~crc;
	while (len--)
		crc = crc_tab[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
#endif
}

uint32_t sb_ml_tfr_mask(uint32_t crc)
{
	return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

size_t sb_ml_npy_header(char *out, const char *descr, const uint64_t *shape, unsigned n)
{
	char dict[192], dims[72] = "";
	size_t dl = 0;
	for (unsigned i = 0; i < n; i++)
		dl += (size_t)snprintf(dims + dl, sizeof(dims) - dl, "%s%" PRIu64, i ? ", " : "", shape[i]);
	if (n == 1)
		snprintf(dims + dl, sizeof(dims) - dl, ",");
	char first[24];
	int fl = snprintf(first, sizeof(first), "%" PRIu64, n ? shape[0] : 0);
	/* numpy >= 1.23 leaves room to grow the first axis: 21 - its digits spaces */
	int m = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }%*s",
			 descr, dims, n ? 21 - fl : 0, "");
	size_t total = (10 + (size_t)m + 1 + 63) / 64 * 64, hl = total - 10;
	memcpy(out, "\x93NUMPY\x01\x00", 8);
	out[8] = (char)(hl & 0xff);
	out[9] = (char)(hl >> 8);
	memcpy(out + 10, dict, (size_t)m);
	memset(out + 10 + m, ' ', hl - (size_t)m - 1);
	out[total - 1] = '\n';
	return total;
}

static size_t varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static size_t vlen(uint64_t v)
{
	uint8_t tmp[10];
	return varint(tmp, v);
}

/* Example{features: Features{feature: {image: Feature{bytes_list: {value: [len bytes]}},
 *                                       size: Feature{int64_list: {value: [len]}}}}}
 * (the feature names as bytes: DLIO's int64 feature's name is no option's) */
static const char feat_size[4] = { 's', 'i', 'z', 'e' };

void sb_ml_tfr_example(uint64_t len, uint64_t size, uint8_t *pre, size_t *plen, uint8_t *post,
		       size_t *qlen)
{
	uint64_t bl = 1 + vlen(len) + len;                 /* BytesList */
	uint64_t fi = 1 + vlen(bl) + bl;                   /* Feature (bytes_list = 1) */
	uint64_t ei = 1 + 1 + 5 + 1 + vlen(fi) + fi;       /* map entry "image" */
	uint64_t il = 1 + 1 + vlen(size);                  /* Int64List, packed */
	uint64_t fs = 1 + vlen(il) + il;                   /* Feature (int64_list = 3) */
	uint64_t es = 1 + 1 + 4 + 1 + vlen(fs) + fs;       /* map entry "size" */
	uint64_t fe = 1 + vlen(ei) + ei + 1 + vlen(es) + es; /* Features */
	size_t n = 0;
	pre[n++] = 0x0a; n += varint(pre + n, fe);          /* Example.features */
	pre[n++] = 0x0a; n += varint(pre + n, ei);          /* Features.feature entry */
	pre[n++] = 0x0a; pre[n++] = 5; memcpy(pre + n, "image", 5); n += 5;
	pre[n++] = 0x12; n += varint(pre + n, fi);
	pre[n++] = 0x0a; n += varint(pre + n, bl);          /* Feature.bytes_list */
	pre[n++] = 0x0a; n += varint(pre + n, len);         /* BytesList.value */
	*plen = n;
	n = 0;
	post[n++] = 0x0a; n += varint(post + n, es);
	post[n++] = 0x0a; post[n++] = 4; memcpy(post + n, feat_size, 4); n += 4;
	post[n++] = 0x12; n += varint(post + n, fs);
	post[n++] = 0x1a; n += varint(post + n, il);        /* Feature.int64_list */
	post[n++] = 0x0a; n += varint(post + n, vlen(size)); /* Int64List.value, packed */
	n += varint(post + n, size);
	*qlen = n;
}

uint64_t sb_ml_tfr_size_field(const struct sb_ml_dataset *ds)
{
	return sb_ml_dlio_dim(ds->record_length);
}

uint64_t sb_ml_tfr_record_bytes(uint64_t len, uint64_t size)
{
	uint8_t pre[64], post[32];
	size_t p, q;
	sb_ml_tfr_example(len, size, pre, &p, post, &q);
	return 8 + 4 + p + len + q + 4;
}

/* ---- sizes ---- */

static uint64_t npy_x_header(const struct sb_ml_dataset *ds, unsigned file, char *hdr)
{
	char tmp[256];
	uint64_t shape[3];
	sb_ml_sample_dims(ds, file, &shape[0], &shape[1]);
	shape[2] = ds->samples_per_file;
	return sb_ml_npy_header(hdr ? hdr : tmp, "|u1", shape, 3);
}

static uint64_t npy_y_header(const struct sb_ml_dataset *ds, char *hdr)
{
	char tmp[256];
	uint64_t n = ds->samples_per_file;
	return sb_ml_npy_header(hdr ? hdr : tmp, "<i8", &n, 1);
}

uint64_t sb_ml_fmt_file_bytes(const struct sb_ml_dataset *ds, unsigned file)
{
	uint64_t payload = sb_ml_file_bytes(ds, file);
	switch (ds->fmt) {
	case SB_DSFMT_NPY:
		return npy_x_header(ds, file, NULL) + payload;
	case SB_DSFMT_NPZ:
		return 2 * (ZIP_LFH + ZIP_NAME + ZIP_X64) + npy_x_header(ds, file, NULL) + payload +
		       npy_y_header(ds, NULL) + 8ull * ds->samples_per_file +
		       2 * (ZIP_CDH + ZIP_NAME) + ZIP_EOCD;
	case SB_DSFMT_TFRECORD:
		return sb_ml_tfr_record_bytes(sb_ml_sample_bytes(ds, file), sb_ml_tfr_size_field(ds)) *
		       ds->samples_per_file;
	case SB_DSFMT_HDF5:
		return 0;
	default:
		return payload;
	}
}

uint64_t sb_ml_fmt_file_need(const struct sb_ml_dataset *ds, unsigned file)
{
	return ds->fmt == SB_DSFMT_HDF5 ? sb_ml_file_bytes(ds, file) + 65536 :
	       sb_ml_fmt_file_bytes(ds, file);
}

/* ---- checks ---- */

static int read_at(const char *path, void *buf, size_t len, uint64_t off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t r = pread(fd, buf, len, (off_t)off);
	int e = r < 0 ? -errno : (size_t)r != len ? -EIO : 0;
	close(fd);
	return e;
}

/* the first bytes the format must start with, and their length */
static size_t expected_head(const struct sb_ml_dataset *ds, unsigned file, uint8_t *out)
{
	switch (ds->fmt) {
	case SB_DSFMT_NPY:
		return npy_x_header(ds, file, (char *)out);
	case SB_DSFMT_NPZ:
		memcpy(out, "PK\x03\x04", 4);
		return 4;
	case SB_DSFMT_TFRECORD: {
		uint64_t len = sb_ml_tfr_record_bytes(sb_ml_sample_bytes(ds, file), sb_ml_tfr_size_field(ds)) - 16;
		for (int i = 0; i < 8; i++)
			out[i] = (uint8_t)(len >> (8 * i));
		uint32_t c = sb_ml_tfr_mask(sb_ml_crc32c(0, out, 8));
		for (int i = 0; i < 4; i++)
			out[8 + i] = (uint8_t)(c >> (8 * i));
		return 12;
	}
	default:
		return 0;
	}
}

int sb_ml_fmt_check(const struct sb_ml_dataset *ds, unsigned file, const char *path,
		    const struct stat *st, char *why, size_t len)
{
	uint8_t want[256], got[256];
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, len, "%s is not a regular file", path);
		return -EEXIST;
	}
	if (ds->fmt == SB_DSFMT_HDF5) {
		uint64_t off;
		char w[256];
		int e = sb_ml_h5_probe(ds, file, path, &off, w, sizeof(w));
		if (e)
			snprintf(why, len, "%s %s", path, w);
		return e ? -EEXIST : 0;
	}
	uint64_t size = sb_ml_fmt_file_bytes(ds, file);
	if ((uint64_t)st->st_size != size) {
		snprintf(why, len, "%s has %lld bytes, this dataset (%s) needs %" PRIu64, path,
			 (long long)st->st_size, sb_ml_fmt_ext(ds->fmt, ds->format), size);
		return -EEXIST;
	}
	size_t n = expected_head(ds, file, want);
	if (n && (read_at(path, got, n, 0) || memcmp(want, got, n))) {
		snprintf(why, len, "%s is not a %s file of this dataset (random contents of an older "
			 "storbench, or another shape)", path, fmt_names[ds->fmt]);
		return -EEXIST;
	}
	return 0;
}

/* ---- writing ---- */

struct wr {
	int fd;
	uint64_t off;
	uLong crc;       /* zlib crc32 of what was put since the last reset */
	bool zcrc;
	int e;
};

static void put(struct wr *w, const void *p, size_t n)
{
	const char *c = p;
	while (!w->e && n) {
		ssize_t r = pwrite(w->fd, c, n, (off_t)w->off);
		if (r <= 0) {
			w->e = r < 0 ? -errno : -EIO;
			return;
		}
		if (w->zcrc)
			w->crc = crc32(w->crc, (const Bytef *)c, (uInt)r);
		w->off += (uint64_t)r;
		c += r;
		n -= (size_t)r;
	}
	if (!w->e && sb_stopping())
		w->e = -EINTR;
}

/* payload bytes [pos, pos + len) of the file's content stream */
static void put_payload(struct wr *w, const struct sb_dg *g, uint64_t pos, uint64_t len,
			char *buf, size_t buflen, uint32_t *c32c)
{
	while (!w->e && len) {
		size_t n = len < buflen ? (size_t)len : buflen;
		sb_dg_fill(g, pos, buf, n);
		if (c32c)
			*c32c = sb_ml_crc32c(*c32c, buf, n);
		put(w, buf, n);
		pos += n;
		len -= n;
	}
}

static void le16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void le32(uint8_t *p, uint32_t v) { le16(p, v & 0xffff); le16(p + 2, v >> 16); }

/* a zip local (cd: central) header of a stored member, as Python's
 * zipfile writes it for np.savez (numpy 1.24): made by Unix 2.0, mode
 * 0600, a zip64 extra field in the local header only */
static size_t zip_hdr(uint8_t *p, bool cd, const char *name, uint32_t crc, uint32_t size, uint32_t lfh_off)
{
	size_t n = cd ? ZIP_CDH : ZIP_LFH;
	memset(p, 0, n);
	le32(p, cd ? 0x02014b50u : 0x04034b50u);
	uint8_t *q = cd ? p + 6 : p + 4;   /* version needed onwards is common */
	if (cd) {
		le16(p + 4, 0x0314);        /* version made by: 2.0, Unix */
		le32(p + 38, 0600u << 16);  /* external attributes: -rw------- */
	}
	le16(q, 20);                        /* version needed */
	le16(q + 6, 0);                     /* time 00:00 */
	le16(q + 8, 0x21);                  /* date 1980-01-01 */
	le32(q + 10, crc);
	le32(q + 14, size);
	le32(q + 18, size);
	le16(q + 22, ZIP_NAME);
	if (cd)
		le32(p + 42, lfh_off);
	memcpy(p + n, name, ZIP_NAME);
	if (cd)
		return n + ZIP_NAME;
	le16(p + 28, ZIP_X64);
	uint8_t *x = p + n + ZIP_NAME;
	memset(x, 0, ZIP_X64);
	le16(x, 1);
	le16(x + 2, 16);
	le32(x + 4, size);
	le32(x + 12, size);
	return n + ZIP_NAME + ZIP_X64;
}

static void write_npz(struct wr *w, const struct sb_ml_dataset *ds, unsigned file,
		      const struct sb_dg *g, char *buf, size_t buflen)
{
	char hx[256], hy[256];
	uint8_t h[64], cd[2 * (ZIP_CDH + ZIP_NAME) + ZIP_EOCD];
	uint64_t payload = sb_ml_file_bytes(ds, file);
	size_t lx = npy_x_header(ds, file, hx), ly = npy_y_header(ds, hy);
	uint64_t xsize = lx + payload, ysize = ly + 8ull * ds->samples_per_file;
	if (xsize >= 0xffffffffull) {
		w->e = -EFBIG;
		return;
	}
	w->off = ZIP_LFH + ZIP_NAME + ZIP_X64; /* x.npy's header goes in last, with its crc */
	w->zcrc = true;
	w->crc = crc32(0, NULL, 0);
	put(w, hx, lx);
	put_payload(w, g, 0, payload, buf, buflen, NULL);
	uint32_t cx = (uint32_t)w->crc;
	uint64_t yoff = w->off;
	w->crc = crc32(0, NULL, 0);
	w->zcrc = false;
	w->off += ZIP_LFH + ZIP_NAME + ZIP_X64;
	w->zcrc = true;
	put(w, hy, ly);
	memset(buf, 0, 8ull * ds->samples_per_file < buflen ? 8ull * ds->samples_per_file : buflen);
	for (uint64_t left = 8ull * ds->samples_per_file; left && !w->e;) {
		size_t n = left < buflen ? (size_t)left : buflen;
		put(w, buf, n);
		left -= n;
	}
	uint32_t cy = (uint32_t)w->crc;
	w->zcrc = false;
	uint64_t cdoff = w->off, end = w->off;
	size_t n = zip_hdr(cd, true, "x.npy", cx, (uint32_t)xsize, 0);
	n += zip_hdr(cd + n, true, "y.npy", cy, (uint32_t)ysize, (uint32_t)yoff);
	uint8_t *e = cd + n;
	memset(e, 0, ZIP_EOCD);
	le32(e, 0x06054b50u);
	le16(e + 8, 2);
	le16(e + 10, 2);
	le32(e + 12, (uint32_t)n);
	le32(e + 16, (uint32_t)cdoff);
	w->off = end;
	put(w, cd, n + ZIP_EOCD);
	w->off = yoff;
	put(w, h, zip_hdr(h, false, "y.npy", cy, (uint32_t)ysize, 0));
	w->off = 0;
	put(w, h, zip_hdr(h, false, "x.npy", cx, (uint32_t)xsize, 0));
}

static void write_tfrecord(struct wr *w, const struct sb_ml_dataset *ds, unsigned file,
			   const struct sb_dg *g, char *buf, size_t buflen)
{
	uint64_t len = sb_ml_sample_bytes(ds, file);
	uint8_t pre[64], post[32], hdr[12], tail[4];
	size_t p, q;
	sb_ml_tfr_example(len, sb_ml_tfr_size_field(ds), pre, &p, post, &q);
	uint64_t dlen = p + len + q;
	for (int i = 0; i < 8; i++)
		hdr[i] = (uint8_t)(dlen >> (8 * i));
	le32(hdr + 8, sb_ml_tfr_mask(sb_ml_crc32c(0, hdr, 8)));
	for (unsigned k = 0; k < ds->samples_per_file && !w->e; k++) {
		uint32_t c = sb_ml_crc32c(0, pre, p);
		put(w, hdr, sizeof(hdr));
		put(w, pre, p);
		put_payload(w, g, (uint64_t)k * len, len, buf, buflen, &c);
		c = sb_ml_crc32c(c, post, q);
		put(w, post, q);
		le32(tail, sb_ml_tfr_mask(c));
		put(w, tail, 4);
	}
}

int sb_ml_fmt_write(const struct sb_jobspec *s, const struct sb_ml_dataset *ds, unsigned file,
		    int fd, const char *path, char *buf, size_t buflen)
{
	struct sb_dg g;
	struct wr w = { .fd = fd };
	if (ds->fmt == SB_DSFMT_HDF5)
		return sb_ml_h5_write(s, ds, file, path, buf, buflen);
	sb_ml_content_recipe(s, sb_ml_dataset_key(ds, file), SB_ML_DATASET_UNIT,
			     sb_ml_file_bytes(ds, file), &g);
	switch (ds->fmt) {
	case SB_DSFMT_NPY: {
		char h[256];
		put(&w, h, npy_x_header(ds, file, h));
		put_payload(&w, &g, 0, sb_ml_file_bytes(ds, file), buf, buflen, NULL);
		break;
	}
	case SB_DSFMT_NPZ:
		write_npz(&w, ds, file, &g, buf, buflen);
		break;
	case SB_DSFMT_TFRECORD:
		write_tfrecord(&w, ds, file, &g, buf, buflen);
		break;
	default:
		put_payload(&w, &g, 0, sb_ml_file_bytes(ds, file), buf, buflen, NULL);
	}
	return w.e;
}

/* ---- reading ---- */

void sb_ml_fmtrd_reset(struct sb_ml_fmtrd *r)
{
	for (unsigned i = 0; i < SB_ML_TFR_STREAMS; i++)
		r->st[i].file = -1, r->st[i].pos = 0;
	r->next = 0;
	r->h5file = -1;
}

static int span(struct sb_thread *t, const char *path, uint64_t size, uint64_t off, uint64_t len)
{
	struct sb_file *f;
	int e = sb_ml_open(t, path, size, SB_ML_READ, &f);
	if (!e)
		e = sb_ml_read_span(t, f, size, off, len);
	sb_ml_close(t, f);
	return e;
}

int sb_ml_fmt_read(struct sb_ml_fmtrd *r, struct sb_thread *t, const struct sb_ml_dataset *ds,
		   unsigned file, unsigned in_file, const char *path)
{
	uint64_t sb = sb_ml_sample_bytes(ds, file);
	switch (ds->fmt) {
	case SB_DSFMT_NPZ:
	case SB_DSFMT_NPY: { /* np.load per sample: the whole file */
		uint64_t size = sb_ml_fmt_file_bytes(ds, file);
		return span(t, path, size, 0, size);
	}
	case SB_DSFMT_HDF5: { /* the sample's slice of records_0 */
		if (r->h5file != (int)file) {
			char why[256];
			int e = sb_ml_h5_probe(ds, file, path, &r->h5off, why, sizeof(why));
			if (e)
				return sb_ml_fail(t, -e, why, path);
			r->h5file = (int)file;
		}
		uint64_t off = r->h5off + (uint64_t)in_file * sb;
		return span(t, path, off + sb, off, sb);
	}
	case SB_DSFMT_TFRECORD: { /* forward streaming in bs reads */
		uint64_t rec = sb_ml_tfr_record_bytes(sb, sb_ml_tfr_size_field(ds)), size = rec * ds->samples_per_file;
		uint64_t start = (uint64_t)in_file * rec, end = start + rec, bs = t->spec->bs[SB_DDIR_READ];
		unsigned k = 0;
		while (k < SB_ML_TFR_STREAMS && r->st[k].file != (int)file)
			k++;
		if (k == SB_ML_TFR_STREAMS) { /* a file not streamed yet takes a slot */
			k = r->next;
			r->next = (r->next + 1) % SB_ML_TFR_STREAMS;
			r->st[k].file = (int)file;
			r->st[k].pos = start;
		}
		uint64_t *pos = &r->st[k].pos;
		if (start < *pos) {
			if (end <= *pos)
				return 0; /* already in the stream's buffer */
		} else { /* a later record: the stream goes on from it */
			*pos = start;
		}
		uint64_t len = bs ? (end - *pos + bs - 1) / bs * bs : end - *pos;
		if (*pos + len > size)
			len = size - *pos;
		int e = span(t, path, size, *pos, len);
		*pos += len;
		return e;
	}
	default:
		return span(t, path, sb * ds->samples_per_file, (uint64_t)in_file * sb, sb);
	}
}
