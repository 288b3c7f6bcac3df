/* test_kvmodel.c: CUnit suite "kvmodel": the cache model of workload=kvcache
 * (ml/kvcache/kvmodel.c) and its KV arithmetic: bytes per token from the catalog's
 * Llama 3 shapes; a memory tier holding everything plans no disk I/O; with
 * no memory tier every reused block is read from disk; LRU eviction writes
 * a memory block to disk once (a promoted block keeps its disk copy); the
 * plan depends on the seed alone; the hit ratio follows the reuse
 * probability. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "harness.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvmodel.h"
#include "parse/catalog.h"

static struct sb_kv_cfg cfg(uint64_t mem, uint64_t disk, double reuse)
{
	return (struct sb_kv_cfg){ .block_tokens = 16, .mem_blocks = mem, .disk_blocks = disk,
				   .reuse = reuse, .prompt_mean = 64, .prompt_sd = 8, .prompt_min = 1,
				   .prompt_max = 1000, .output_mean = 16, .output_min = 1,
				   .output_max = 1000, .seed = 42 };
}

/* run n requests; the summed counts */
static void run(const struct sb_kv_cfg *c, unsigned n, struct sb_kv_totals *t)
{
	struct sb_kv_model m;
	struct sb_kv_req r;
	memset(&r, 0, sizeof(r));
	memset(t, 0, sizeof(*t));
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, c), 0);
	for (unsigned i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
		sb_kv_count(t, &r);
		for (uint64_t k = 0; k < r.nrd; k++) /* every read slot is in the file */
			CU_ASSERT(r.rd[k] < m.next_slot);
	}
	CU_ASSERT(m.nmem <= c->mem_blocks);
	CU_ASSERT(m.ndisk <= c->disk_blocks);
	CU_ASSERT(m.next_slot <= c->disk_blocks);
	sb_kv_req_free(&r);
	sb_kv_model_free(&m);
}

static void test_bytes_per_token(void)
{
	/* the Llama 3 configs: 8b 32/8/128, 70b 80/8/128, 405b 126/8/128 */
	static const struct { const char *name; unsigned l, h, d; } want[] = {
		{ "llama3-8b", 32, 8, 128 }, { "llama3-70b", 80, 8, 128 }, { "llama3-405b", 126, 8, 128 },
	};
	for (unsigned i = 0; i < 3; i++) {
		const struct sb_model_preset *p = sb_model_preset_find(want[i].name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(p->layers, want[i].l);
		CU_ASSERT_EQUAL(p->kv_heads, want[i].h);
		CU_ASSERT_EQUAL(p->head_dim, want[i].d);
		CU_ASSERT_EQUAL(sb_kv_bytes_per_token(p->layers, p->kv_heads, p->head_dim, 2),
				2ull * want[i].l * want[i].h * want[i].d * 2);
	}
	CU_ASSERT_EQUAL(sb_kv_bytes_per_token(32, 8, 128, 2), 131072); /* 128 KiB */
}

static void test_memory_holds_all(void)
{
	struct sb_kv_cfg c = cfg(1u << 20, 1u << 20, 0.5);
	struct sb_kv_totals t;
	run(&c, 2000, &t);
	CU_ASSERT(t.looked_up > 0);
	CU_ASSERT_EQUAL(t.mem_hits, t.looked_up);
	CU_ASSERT_EQUAL(t.disk_reads + t.disk_writes + t.disk_hits + t.misses, 0);
	/* every continued conversation is found whole (the first request, if
	 * drawn to continue one, has none to continue) */
	CU_ASSERT(t.prefix_hits <= t.reuse_requests && t.reuse_requests - t.prefix_hits <= 1);
}

static void test_no_memory(void)
{
	struct sb_kv_cfg c = cfg(0, 1u << 20, 0.5);
	struct sb_kv_totals t;
	run(&c, 2000, &t);
	CU_ASSERT(t.looked_up > 0);
	CU_ASSERT_EQUAL(t.mem_hits, 0);
	CU_ASSERT_EQUAL(t.disk_hits, t.looked_up);
	CU_ASSERT_EQUAL(t.disk_reads, t.looked_up);
	CU_ASSERT_EQUAL(t.disk_writes, t.blocks_new); /* every new block straight to disk */
	CU_ASSERT_EQUAL(t.misses, 0);
}

/* two blocks of memory, LRU: the third new block evicts the first, written once */
static void test_lru(void)
{
	struct sb_kv_cfg c = cfg(2, 100, 0);
	c.prompt_sd = 0;
	c.prompt_mean = 15; /* 15 + 1 output: one full block per request */
	c.output_mean = c.output_min = c.output_max = 1;
	struct sb_kv_model m;
	struct sb_kv_req r;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, &c), 0);
	CU_ASSERT_EQUAL(sb_kv_next(&m, &r), 0);
	CU_ASSERT_EQUAL(r.blocks_new, 1);
	CU_ASSERT_EQUAL(r.nwr, 0);
	CU_ASSERT_EQUAL(sb_kv_next(&m, &r), 0);
	CU_ASSERT_EQUAL(r.nwr, 0);
	CU_ASSERT_EQUAL(sb_kv_next(&m, &r), 0); /* evicts request 0's block to slot 0 */
	CU_ASSERT_EQUAL(r.nwr, 1);
	CU_ASSERT_EQUAL(r.wr[0], 0);
	CU_ASSERT_EQUAL(r.evict_writes, 1);
	CU_ASSERT(!m.b[0].inmem && m.b[0].slot == 0);
	CU_ASSERT(m.b[1].inmem && m.b[2].inmem);
	sb_kv_req_free(&r);
	sb_kv_model_free(&m);
}

static void test_seed_and_ratio(void)
{
	for (double p = 0.1; p < 1.0; p += 0.2) {
		struct sb_kv_cfg c = cfg(64, 1u << 22, p);
		struct sb_kv_totals a, b;
		run(&c, 20000, &a);
		run(&c, 20000, &b);
		CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof(a)), 0);
		CU_ASSERT(fabs((double)a.prefix_hits / (double)a.requests - p) <= 0.02);
		CU_ASSERT(a.disk_hits > 0 && a.mem_hits > 0);
	}
}

static CU_TestInfo tests[] = {
	{ "bytes per token of the Llama 3 presets", test_bytes_per_token },
	{ "memory holding everything: no disk I/O", test_memory_holds_all },
	{ "no memory tier: every reused block from disk", test_no_memory },
	{ "LRU eviction writes a block once", test_lru },
	{ "same seed, same plan; hit ratio = prefix_reuse", test_seed_and_ratio },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvmodel, tests)
