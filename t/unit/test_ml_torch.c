/* test_ml_torch.c: the write() sizes of torch.save (ml/checkpoint/torchsave.c) against
 * a strace of Debian's torch 1.13.1 (python3-torch) saving
 * {"t0": int8[100000], "t1": int8[5000], "t2": int8[300000], "t3": int8[70],
 *  "t4": int8[200000], "t5".."t16": int8[1..12]} to open(path, "wb") on a
 * file system with st_blksize 4096: data.pkl was 1125 bytes and the file
 * got exactly these writes: */
#include <stdlib.h>

#include "ml/model.h"
#include "ml/checkpoint/torchsave.h"
#include "harness.h"

static const uint64_t strace_writes[] = { 1280, 100000, 96, 5000, 1016, 300000, 288, 200000, 1970 };

static void test_strace_torch_1_13(void)
{
	uint64_t t[17] = { 100000, 5000, 300000, 70, 200000 };
	for (unsigned i = 5; i < 17; i++)
		t[i] = i - 4;
	struct sb_torch_plan p;
	CU_ASSERT_EQUAL_FATAL(sb_torch_plan(t, 17, 1125, 4096, &p), 0);
	CU_ASSERT_EQUAL_FATAL(p.n, sizeof(strace_writes) / sizeof(strace_writes[0]));
	for (size_t i = 0; i < p.n; i++)
		CU_ASSERT_EQUAL(p.req[i], strace_writes[i]);
	CU_ASSERT_EQUAL(p.bytes, 609650); /* the file's size */
	CU_ASSERT_EQUAL(p.max_req, 300000);
	sb_torch_plan_free(&p);
}

/* a tensor past Linux's 0x7ffff000-byte write limit takes two writes */
static void test_big_tensor(void)
{
	uint64_t t[1] = { 3ull << 30 };
	struct sb_torch_plan p;
	CU_ASSERT_EQUAL_FATAL(sb_torch_plan(t, 1, sb_torch_pickle_bytes(1), 4096, &p), 0);
	CU_ASSERT_EQUAL_FATAL(p.n, 4);
	CU_ASSERT_EQUAL(p.req[1], SB_TORCH_MAX_WRITE);
	CU_ASSERT_EQUAL(p.req[2], (3ull << 30) - SB_TORCH_MAX_WRITE);
	CU_ASSERT(p.framing < 1024);
	sb_torch_plan_free(&p);
}

/* a model file's tensors sum to its bytes: llama3-8b rank 0 (ZeRO-3: 35
 * layers of its stage), the optimizer file three groups */
static void test_file_tensors(void)
{
	struct sb_ml_shape s;
	struct sb_ml_file *files;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(sb_ml_model_find("llama3-8b", &s), 0);
	CU_ASSERT_EQUAL_FATAL(sb_ml_ckpt_files(&s, 1, 1, 1000.0, 8, false, &files, &n), 0);
	for (size_t i = 0; i < 2; i++) {
		uint64_t *v, sum = 0;
		size_t k;
		CU_ASSERT_EQUAL_FATAL(sb_ml_file_tensors(&s, &files[i], &v, &k), 0);
		CU_ASSERT_EQUAL(k, files[i].kind == SB_ML_FILE_OPTIM ? 3u : s.layers + 3u);
		for (size_t j = 0; j < k; j++)
			sum += v[j];
		CU_ASSERT_EQUAL(sum, files[i].bytes);
		free(v);
	}
	free(files);
}

static CU_TestInfo tests[] = {
	{ "strace of torch 1.13 torch.save", test_strace_torch_1_13 },
	{ "tensor over 2 GiB", test_big_tensor },
	{ "file tensors", test_file_tensors },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_torch, tests)
