/* test_kvtiers.c: CUnit suite "kvtiers": kv_profile=mlperf's cache
 * (ml/kvcache/tiers.c) against cache.py's MultiTierCache: a new entry goes
 * to the first tier with room; a full non-last tier demotes its least
 * recently used entry (read, write below, delete) down to 80% of its limit;
 * an entry over 95% of a tier skips it; the NVMe tier deletes its LRU
 * entries; a read makes an entry most recently used; a read of an evicted
 * entry is a miss without I/O.  And the .npy header (ml/kvcache/npy.c) as
 * numpy's format 1.0 writes it. */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ml/kvcache/npy.h"
#include "ml/kvcache/tiers.h"

static char logbuf[1024];

static void note(char op, int tier, uint32_t id)
{
	size_t n = strlen(logbuf);
	snprintf(logbuf + n, sizeof(logbuf) - n, "%c%c%u ", op, "GCN"[tier], id);
}

static int f_write(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	(void)ctx, (void)e;
	note('W', tier, id);
	t->total = t->device = t->host = 1000;
	return 0;
}

static int f_read(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t)
{
	(void)ctx, (void)e;
	note('R', tier, id);
	t->total = 2000, t->device = 1500, t->host = 500;
	return 0;
}

static int f_drop(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier)
{
	(void)ctx, (void)e;
	note('D', tier, id);
	return 0;
}

static const struct sb_kvt_io fio_ = { .write = f_write, .read = f_read, .drop = f_drop };

static uint32_t put(struct sb_kvt *c, uint64_t tokens)
{
	uint64_t ns;
	uint32_t id = sb_kvt_new(c, tokens);
	CU_ASSERT_EQUAL(sb_kvt_alloc(c, id, true, &ns), 0);
	return id;
}

static void test_waterfall(void)
{
	struct sb_kvt c;
	logbuf[0] = '\0';
	sb_kvt_init(&c, 100, 1000, 10000, 1, 1, &fio_);
	put(&c, 50); /* GPU: 50 <= 80 */
	put(&c, 50); /* GPU over 80%: entry 0 demoted to CPU */
	CU_ASSERT_STRING_EQUAL(logbuf, "WG0 RG0 WC0 DG0 WG1 ");
	CU_ASSERT_EQUAL(c.e[0].tier, SB_KVT_CPU);
	CU_ASSERT_EQUAL(c.e[1].tier, SB_KVT_GPU);
	CU_ASSERT_EQUAL(c.st.evictions, 1);
	CU_ASSERT_EQUAL(c.st.offloads_cpu, 1);
	logbuf[0] = '\0';
	put(&c, 96); /* over 95% of the GPU tier: straight to the CPU */
	CU_ASSERT_STRING_EQUAL(logbuf, "WC2 ");
	CU_ASSERT_EQUAL(c.used[SB_KVT_GPU], 50);
	CU_ASSERT_EQUAL(c.used[SB_KVT_CPU], 146);
	sb_kvt_free(&c);
}

static void test_nvme_lru(void)
{
	struct sb_kvt c;
	uint64_t ns;
	logbuf[0] = '\0';
	sb_kvt_init(&c, 0, 0, 100, 1, 1, &fio_); /* no GPU, a CPU tier of 0: all to NVMe */
	put(&c, 40);
	put(&c, 40);
	CU_ASSERT_EQUAL(sb_kvt_access(&c, 0, true, SB_KVT_USER, &ns), 1); /* 0 is now MRU */
	CU_ASSERT_EQUAL(ns, 2000);
	put(&c, 40); /* 120 > 100: the LRU entry, 1, is deleted */
	CU_ASSERT_STRING_EQUAL(logbuf, "WN0 WN1 RN0 DN1 WN2 ");
	CU_ASSERT_EQUAL(c.e[1].tier, -1);
	logbuf[0] = '\0';
	CU_ASSERT_EQUAL(sb_kvt_access(&c, 1, true, SB_KVT_MULTI_TURN, &ns), 0);
	CU_ASSERT_STRING_EQUAL(logbuf, ""); /* a miss does no I/O */
	CU_ASSERT_EQUAL(c.st.hits, 1);
	CU_ASSERT_EQUAL(c.st.misses, 1);
	CU_ASSERT_EQUAL(c.st.rd_dev.n, 1);
	CU_ASSERT_EQUAL(c.st.wr_dev.n, 3);
	CU_ASSERT_EQUAL(c.st.rd_bytes[SB_KVT_NVME], 40);
	CU_ASSERT_EQUAL(c.st.wr_bytes[SB_KVT_NVME], 120);
	sb_kvt_free(&c);
}

static void test_tensor_parallel(void)
{
	struct sb_kvt c;
	sb_kvt_init(&c, 0, 0, 1 << 20, 256, 4, &fio_);
	uint32_t id = sb_kvt_new(&c, 64);
	CU_ASSERT_EQUAL(c.e[id].bytes, 256 * 64 / 4);
	sb_kvt_free(&c);
}

static bool has(const char *h, size_t n, const char *s)
{
	return memmem(h, n, s, strlen(s)) != NULL;
}

static void test_npy_header(void)
{
	char h[SB_NPY_HDR_MAX], d[16];
	const uint64_t shape[] = { 2, 2, 64, 2, 16 };
	size_t n = sb_npy_header(h, sizeof(h), sb_npy_descr(2, d, sizeof(d)), shape, 5);
	CU_ASSERT_EQUAL(n % 64, 0);
	CU_ASSERT(memcmp(h, "\x93NUMPY\x01\x00", 8) == 0);
	CU_ASSERT_EQUAL((size_t)(unsigned char)h[8] | (size_t)(unsigned char)h[9] << 8, n - 10);
	CU_ASSERT_EQUAL(h[n - 1], '\n');
	CU_ASSERT(has(h, n, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2, 64, 2, 16), }"));
	const uint64_t flat[] = { 4096 };
	n = sb_npy_header(h, sizeof(h), sb_npy_descr(1, d, sizeof(d)), flat, 1);
	CU_ASSERT(has(h, n, "'descr': '|u1'"));
	CU_ASSERT(has(h, n, "'shape': (4096,), }"));
}

static CU_TestInfo tests[] = {
	{ "waterfall: demote the GPU's LRU to the CPU, skip a tier for a large entry", test_waterfall },
	{ "NVMe: delete the LRU entry, a read makes it MRU, a miss does no I/O", test_nvme_lru },
	{ "tensor parallel: an entry holds 1/tp of the bytes", test_tensor_parallel },
	{ "the .npy header: numpy's format 1.0", test_npy_header },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvtiers, tests)
