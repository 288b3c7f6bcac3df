/* test_mlformats.c: the dataset format encoders of ml/train/formats.h: CRC32C and
 * TFRecord's mask, the .npy header, the tf.train.Example bytes around a
 * sample, and a whole npz (stored zip) checked field by field. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"
#include "ml/train/formats.h"
#include "parse/jobspec.h"

static void crc32c_vectors(void)
{
	/* RFC 3720 B.4 / the usual check value */
	CU_ASSERT_EQUAL(sb_ml_crc32c(0, "123456789", 9), 0xe3069283u);
	uint8_t z[32] = { 0 };
	CU_ASSERT_EQUAL(sb_ml_crc32c(0, z, 32), 0x8a9136aau);
	/* incremental equals one pass */
	CU_ASSERT_EQUAL(sb_ml_crc32c(sb_ml_crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
	/* TFRecord: ((c >> 15) | (c << 17)) + 0xa282ead8 */
	CU_ASSERT_EQUAL(sb_ml_tfr_mask(0), 0xa282ead8u);
	CU_ASSERT_EQUAL(sb_ml_tfr_mask(0xe3069283u), ((0xe3069283u >> 15) | (0xe3069283u << 17)) + 0xa282ead8u);
	CU_ASSERT_EQUAL(sb_ml_tfr_mask(1), 0x20000u + 0xa282ead8u);
}

static void npy_header(void)
{
	char h[128];
	uint64_t shape[3] = { 32, 29, 4 }, n = 4;
	size_t len = sb_ml_npy_header(h, "|u1", shape, 3);
	CU_ASSERT_EQUAL(len, 128); /* numpy 1.24 writes 128 bytes for both */
	CU_ASSERT_EQUAL(memcmp(h, "\x93NUMPY\x01\x00", 8), 0);
	CU_ASSERT_EQUAL((size_t)(unsigned char)h[8] + 256u * (unsigned char)h[9], len - 10);
	CU_ASSERT_EQUAL(strncmp(h + 10, "{'descr': '|u1', 'fortran_order': False, 'shape': (32, 29, 4), }", 64), 0);
	CU_ASSERT_EQUAL(h[len - 1], '\n');
	CU_ASSERT_EQUAL(h[len - 2], ' ');
	len = sb_ml_npy_header(h, "<i8", &n, 1);
	CU_ASSERT_EQUAL(len, 128);
	CU_ASSERT_EQUAL(h[10 + 56 + 20], ' '); /* 21 - 1 digit of room */
	CU_ASSERT_EQUAL(strncmp(h + 10, "{'descr': '<i8', 'fortran_order': False, 'shape': (4,), }", 56), 0);
}

static void tfr_example(void)
{
	/* Example{features{feature{"image": bytes_list[3 bytes]}, {"size": int64_list[3]}}},
	 * by hand from the protobuf wire format */
	static const uint8_t want_pre[] = { 0x0a, 0x21, 0x0a, 0x10, 0x0a, 0x05, 'i', 'm', 'a', 'g', 'e',
					    0x12, 0x07, 0x0a, 0x05, 0x0a, 0x03 };
	static const uint8_t want_post[] = { 0x0a, 0x0d, 0x0a, 0x04, 's', 'i', 'z', 'e', 0x12, 0x05,
					     0x1a, 0x03, 0x0a, 0x01, 0x03 };
	uint8_t pre[64], post[32];
	size_t p, q;
	sb_ml_tfr_example(3, 3, pre, &p, post, &q);
	CU_ASSERT_EQUAL(p, sizeof(want_pre));
	CU_ASSERT_EQUAL(q, sizeof(want_post));
	CU_ASSERT_EQUAL(memcmp(pre, want_pre, sizeof(want_pre)), 0);
	CU_ASSERT_EQUAL(memcmp(post, want_post, sizeof(want_post)), 0);
	CU_ASSERT_EQUAL(sb_ml_tfr_record_bytes(3, 3), 8 + 4 + 17 + 3 + 15 + 4);
	/* resnet50 as DLIO writes it (tf_generator.py:58-62, config.py:312): a
	 * record of 338^2 = 114244 bytes (varint c4 fc 06), "size" = 338, the
	 * dimension (varint d2 02) */
	struct sb_ml_dataset ds = { .record_length = 114660.07, .fmt = SB_DSFMT_TFRECORD,
				    .samples_per_file = 1251, .files = 1 };
	CU_ASSERT_EQUAL(sb_ml_sample_bytes(&ds, 0), 114244);
	CU_ASSERT_EQUAL(sb_ml_tfr_size_field(&ds), 338);
	sb_ml_tfr_example(114244, 338, pre, &p, post, &q);
	CU_ASSERT_EQUAL(memcmp(pre + p - 4, "\x0a\xc4\xfc\x06", 4), 0);
	CU_ASSERT_EQUAL(memcmp(post + q - 4, "\x0a\x02\xd2\x02", 4), 0);
}

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static unsigned rd16(const uint8_t *p) { return p[0] | p[1] << 8; }

static void npz_zip(void)
{
	struct sb_jobspec s;
	struct sb_ml_dataset ds = { .format = "npz", .prefix = "img", .files = 1, .samples_per_file = 3,
				    .record_length = 100, .fmt = SB_DSFMT_NPZ, .seed = 10 };
	char path[512], buf[65536];
	memset(&s, 0, sizeof(s));
	snprintf(path, sizeof(path), "%s/x.npz", sb_test_tmpdir());
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(sb_ml_fmt_write(&s, &ds, 0, fd, path, buf, sizeof(buf)), 0);
	uint64_t size = sb_ml_fmt_file_bytes(&ds, 0);
	uint8_t *f = malloc(size + 1);
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(pread(fd, f, size + 1, 0), (ssize_t)size);
	close(fd);
	/* 10 x 10 samples: x.npy = 128 + 300, y.npy = 128 + 24; 2 x 55 + 2 x 51 + 22 of
	 * zip (numpy 1.24's np.savez: a 20-byte zip64 extra field per local header) */
	CU_ASSERT_EQUAL(size, 428 + 152 + 110 + 102 + 22);
	const uint8_t *eocd = f + size - 22;
	CU_ASSERT_EQUAL(rd32(eocd), 0x06054b50u);
	CU_ASSERT_EQUAL(rd16(eocd + 10), 2);
	uint32_t cdoff = rd32(eocd + 16);
	CU_ASSERT_EQUAL(rd32(eocd + 12), 102);
	const uint8_t *cd = f + cdoff;
	uint32_t off = 0;
	for (int m = 0; m < 2; m++, cd += 51) {
		CU_ASSERT_EQUAL(rd32(cd), 0x02014b50u);
		CU_ASSERT_EQUAL(rd16(cd + 10), 0);                  /* stored */
		CU_ASSERT_EQUAL(memcmp(cd + 46, m ? "y.npy" : "x.npy", 5), 0);
		uint32_t lfh = rd32(cd + 42), crc = rd32(cd + 16), n = rd32(cd + 20);
		CU_ASSERT_EQUAL(lfh, off);
		CU_ASSERT_EQUAL(rd32(f + lfh), 0x04034b50u);
		CU_ASSERT_EQUAL(rd32(f + lfh + 14), crc);           /* local header agrees */
		CU_ASSERT_EQUAL(rd32(f + lfh + 18), n);
		CU_ASSERT_EQUAL(rd32(cd + 24), n);
		CU_ASSERT_EQUAL(rd16(f + lfh + 28), 20);            /* zip64 extra: id 1, 16 bytes */
		CU_ASSERT(rd16(f + lfh + 35) == 1 && rd16(f + lfh + 37) == 16 && rd32(f + lfh + 39) == n);
		const uint8_t *data = f + lfh + 55;
		CU_ASSERT_EQUAL(crc32(crc32(0, NULL, 0), data, n), crc);
		CU_ASSERT_EQUAL(memcmp(data, "\x93NUMPY", 6), 0);
		CU_ASSERT_EQUAL(n, m ? 152u : 428u);
		off = lfh + 55 + n;
	}
	CU_ASSERT_EQUAL(off, cdoff);
	free(f);
}

static CU_TestInfo tests[] = {
	{ "crc32c and the TFRecord mask", crc32c_vectors },
	{ "npy v1.0 header", npy_header },
	{ "tf.train.Example bytes", tfr_example },
	{ "npz: a stored zip numpy reads", npz_zip },
	CU_TEST_INFO_NULL,
};
SB_SUITE(mlformats, tests)
