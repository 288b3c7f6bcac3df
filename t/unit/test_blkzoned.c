/* test_blkzoned.c: os/blkzoned's parse of a BLKREPORTZONE report (no zoned
 * device needed): sectors become bytes, capacity is taken only when the
 * report says it is valid, conventional zones have no write pointer, a
 * report larger than its buffer is refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/blkzoned.h>

#include "os/blkzoned.h"
#include "harness.h"

static size_t build(unsigned char *buf, unsigned flags)
{
	struct blk_zone_report hdr = { .sector = 0, .nr_zones = 3, .flags = flags };
	struct blk_zone z[3];
	memset(z, 0, sizeof(z));
	z[0] = (struct blk_zone){ .start = 0, .len = 2048, .wp = 0, .type = BLK_ZONE_TYPE_CONVENTIONAL,
				  .cond = BLK_ZONE_COND_NOT_WP, .capacity = 2048 };
	z[1] = (struct blk_zone){ .start = 2048, .len = 2048, .wp = 2048 + 16,
				  .type = BLK_ZONE_TYPE_SEQWRITE_REQ, .cond = BLK_ZONE_COND_IMP_OPEN,
				  .capacity = 1536 };
	z[2] = (struct blk_zone){ .start = 4096, .len = 2048, .wp = 4096 + 1536,
				  .type = BLK_ZONE_TYPE_SEQWRITE_REQ, .cond = BLK_ZONE_COND_FULL,
				  .capacity = 1536 };
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), z, sizeof(z));
	return sizeof(hdr) + sizeof(z);
}

static void test_parse(void)
{
	unsigned char buf[sizeof(struct blk_zone_report) + 3 * sizeof(struct blk_zone)];
	struct sb_zinfo zi[4];
	size_t len = build(buf, BLK_ZONE_REP_CAPACITY);
	CU_ASSERT_EQUAL(sb_os_zone_report_parse(buf, len, zi, 4), 3);
	CU_ASSERT_FALSE(zi[0].seq);
	CU_ASSERT_EQUAL(zi[0].wp, 1 << 20); /* conventional: no write pointer, taken as full */
	CU_ASSERT_TRUE(zi[1].seq);
	CU_ASSERT_EQUAL(zi[1].start, 1 << 20);
	CU_ASSERT_EQUAL(zi[1].len, 1 << 20);
	CU_ASSERT_EQUAL(zi[1].wp, (1 << 20) + 16 * 512);
	CU_ASSERT_EQUAL(zi[1].cap, 1536 * 512);
	CU_ASSERT_EQUAL(zi[1].cond, SB_ZCOND_IMP_OPEN);
	CU_ASSERT_EQUAL(zi[2].cond, SB_ZCOND_FULL);
	/* at most max zones */
	CU_ASSERT_EQUAL(sb_os_zone_report_parse(buf, len, zi, 2), 2);
}

static void test_no_capacity_flag(void)
{
	unsigned char buf[sizeof(struct blk_zone_report) + 3 * sizeof(struct blk_zone)];
	struct sb_zinfo zi[3];
	size_t len = build(buf, 0);
	CU_ASSERT_EQUAL(sb_os_zone_report_parse(buf, len, zi, 3), 3);
	CU_ASSERT_EQUAL(zi[1].cap, zi[1].len); /* older kernels: the whole zone */
}

static void test_short_buffer(void)
{
	unsigned char buf[sizeof(struct blk_zone_report) + 3 * sizeof(struct blk_zone)];
	struct sb_zinfo zi[3];
	size_t len = build(buf, BLK_ZONE_REP_CAPACITY);
	CU_ASSERT_EQUAL(sb_os_zone_report_parse(buf, len - 1, zi, 3), -EINVAL);
	CU_ASSERT_EQUAL(sb_os_zone_report_parse(buf, 4, zi, 3), -EINVAL);
}

static void test_model_fixture(void)
{
	const char *root = sb_test_tmpdir();
	CU_ASSERT_EQUAL(sb_os_zoned_model(root, "zz0"), SB_ZMODEL_NONE);
	sb_test_put(root, "sys/block/zz0/queue/zoned", "host-managed\n");
	sb_test_put(root, "sys/block/zz0/queue/max_open_zones", "14\n");
	CU_ASSERT_EQUAL(sb_os_zoned_model(sb_test_tmpdir(), "zz0"), SB_ZMODEL_HOST_MANAGED);
	CU_ASSERT_EQUAL(sb_os_max_open_zones(sb_test_tmpdir(), "zz0"), 14);
	sb_test_put(root, "sys/block/zz0/queue/zoned", "none\n");
	CU_ASSERT_EQUAL(sb_os_zoned_model(sb_test_tmpdir(), "zz0"), SB_ZMODEL_NONE);
}

static CU_TestInfo tests[] = {
	{ "report parsed in bytes", test_parse },
	{ "no capacity flag: capacity is the zone", test_no_capacity_flag },
	{ "a report larger than its buffer", test_short_buffer },
	{ "model and open limit from sysfs", test_model_fixture },
	CU_TEST_INFO_NULL,
};
SB_SUITE(blkzoned, tests)
