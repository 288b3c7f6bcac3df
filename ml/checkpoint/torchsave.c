/* ml/checkpoint/torchsave.c: the write() sizes of torch.save through a Python file
 * (see ml/checkpoint/torchsave.h for the format and the buffering). */
#include "ml/checkpoint/torchsave.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml/model.h"

#define ZIP_LOCAL_HDR 30u
#define ZIP_CENTRAL_HDR 46u
#define ZIP_EOCD 22u
#define ZIP64_EOCD 56u
#define ZIP64_LOCATOR 20u
#define U32_MAX_ 0xffffffffull
#define ZIP_DESCRIPTOR 16u    /* after each record's data; 24 with 8-byte sizes */
#define PICKLE_FIXED 100u     /* measured, torch 1.13: 1 tensor 164 bytes, 17: 1125, */
#define PICKLE_PER_TENSOR 66u /* 40: 2775 (keys "t<i>") */

uint64_t sb_torch_pickle_bytes(size_t ntensors)
{
	return PICKLE_FIXED + (uint64_t)PICKLE_PER_TENSOR * ntensors;
}

/* Python's BufferedWriter in front of the file */
struct bufw {
	struct sb_torch_plan *p;
	uint64_t cap, size, pos;
	int err;
};

static void emit(struct bufw *b, uint64_t n)
{
	if (!n || b->err)
		return;
	if (b->p->n == b->cap) {
		uint64_t cap = b->cap ? 2 * b->cap : 16;
		uint64_t *v = realloc(b->p->req, cap * sizeof(*v));
		if (!v) {
			b->err = -ENOMEM;
			return;
		}
		b->p->req = v;
		b->cap = cap;
	}
	b->p->req[b->p->n++] = n;
	b->p->bytes += n;
	if (n > b->p->max_req)
		b->p->max_req = n;
}

static void bw_write(struct bufw *b, uint64_t len)
{
	if (len <= b->size - b->pos) {
		b->pos += len;
		return;
	}
	emit(b, b->pos);
	b->pos = 0;
	while (len > b->size) {
		uint64_t w = len < SB_TORCH_MAX_WRITE ? len : SB_TORCH_MAX_WRITE;
		emit(b, w);
		len -= w;
	}
	b->pos = len;
}

/* local header + name + padding so the data starts 64-aligned (torch's
 * getPadding, zip64 extras included) */
static uint64_t local_header(uint64_t cursor, size_t name_len, uint64_t size)
{
	uint64_t start = cursor + ZIP_LOCAL_HDR + name_len + 4;
	if (size >= U32_MAX_ || cursor >= U32_MAX_) {
		start += 4;
		if (size >= U32_MAX_)
			start += 16;
		if (cursor >= U32_MAX_)
			start += 8;
	}
	uint64_t next = (start + SB_TORCH_ALIGN - 1) / SB_TORCH_ALIGN * SB_TORCH_ALIGN;
	return next - cursor;
}

static uint64_t central_entry(uint64_t offset, size_t name_len, uint64_t size)
{
	uint64_t e = ZIP_CENTRAL_HDR + name_len;
	if (size >= U32_MAX_ || offset >= U32_MAX_)
		e += 4 + (size >= U32_MAX_ ? 16 : 0) + (offset >= U32_MAX_ ? 8 : 0);
	return e;
}

/* the record keys "0".."n-1" in string order, as torch writes them */
static int key_cmp(const void *a, const void *b)
{
	char x[24], y[24];
	snprintf(x, sizeof(x), "%zu", *(const size_t *)a);
	snprintf(y, sizeof(y), "%zu", *(const size_t *)b);
	return strcmp(x, y);
}

int sb_torch_plan(const uint64_t *tensor, size_t ntensors, uint64_t pickle, uint64_t bufsize,
		  struct sb_torch_plan *p)
{
	memset(p, 0, sizeof(*p));
	size_t *order = malloc((ntensors ? ntensors : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < ntensors; i++)
		order[i] = i;
	qsort(order, ntensors, sizeof(*order), key_cmp);
	struct bufw b = { .p = p, .size = bufsize ? bufsize : 1 };
	uint64_t cursor = 0, central = 0, tensors = 0;
	size_t nrec = ntensors + 2;
	char name[48];
	/* data.pkl, the storages, version */
	for (size_t r = 0; r < nrec; r++) {
		uint64_t size;
		if (r == 0) {
			snprintf(name, sizeof(name), "archive/data.pkl");
			size = pickle;
		} else if (r <= ntensors) {
			snprintf(name, sizeof(name), "archive/data/%zu", order[r - 1]);
			size = tensor[order[r - 1]];
			tensors += size;
		} else {
			snprintf(name, sizeof(name), "archive/version");
			size = 2;
		}
		size_t nl = strlen(name);
		uint64_t h = local_header(cursor, nl, size);
		central += central_entry(cursor, nl, size);
		uint64_t dd = ZIP_DESCRIPTOR + (size >= U32_MAX_ ? 8 : 0);
		bw_write(&b, h);
		bw_write(&b, size);
		cursor += h + size;
		bw_write(&b, dd);
		cursor += dd;
	}
	/* torch always ends with the zip64 end record and its locator */
	bw_write(&b, central + ZIP64_EOCD + ZIP64_LOCATOR + ZIP_EOCD);
	emit(&b, b.pos); /* the buffer's flush on close */
	free(order);
	if (b.err) {
		sb_torch_plan_free(p);
		return b.err;
	}
	p->framing = p->bytes - tensors;
	return 0;
}

void sb_torch_plan_free(struct sb_torch_plan *p)
{
	free(p->req);
	memset(p, 0, sizeof(*p));
}

uint64_t sb_torch_bufsize(const char *folder)
{
	char parent[1024];
	struct stat st;
	if (stat(folder, &st) == 0 && st.st_blksize > 1)
		return (uint64_t)st.st_blksize;
	const char *sl = strrchr(folder, '/');
	snprintf(parent, sizeof(parent), "%.*s", sl ? (sl == folder ? 1 : (int)(sl - folder)) : 1,
		 sl ? folder : ".");
	if (stat(parent, &st) == 0 && st.st_blksize > 1)
		return (uint64_t)st.st_blksize;
	return 8192; /* Python's io.DEFAULT_BUFFER_SIZE */
}

int sb_torch_plan_files(const struct sb_ml_shape *s, struct sb_ml_file *files, size_t n,
			uint64_t bufsize, struct sb_torch_plan **plans, uint64_t *max_req)
{
	struct sb_torch_plan *p = calloc(n ? n : 1, sizeof(*p));
	*plans = p;
	*max_req = 0;
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint64_t *v;
		size_t k;
		int e = sb_ml_file_tensors(s, &files[i], &v, &k);
		if (!e)
			e = sb_torch_plan(v, k, sb_torch_pickle_bytes(k), bufsize, &p[i]);
		free(v);
		if (e)
			return e; /* the caller frees what was planned */
		files[i].bytes = p[i].bytes;
		*max_req = p[i].max_req > *max_req ? p[i].max_req : *max_req;
	}
	return 0;
}
