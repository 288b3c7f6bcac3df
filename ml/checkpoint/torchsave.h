/* ml/checkpoint/torchsave.h: the write() calls torch.save(state, f) makes for one
 * checkpoint file, f being a Python file opened "wb" (DLIO's
 * PyTorchCheckpointing.save_state), so workload=checkpoint with
 * checkpoint_io=torch issues the same requests.  Pure arithmetic, no I/O.
 *
 * torch.save writes a zip archive (torch's PyTorchStreamWriter, stored, no
 * compression) through f.write: record "archive/data.pkl" (the pickle),
 * then one record per tensor storage "archive/data/<key>" in the string
 * order of the keys ("0", "1", "10", "11", ..., "2", ...), then
 * "archive/version" ("3\n"), the central directory and the end records.
 * Every record's data starts at a multiple of 64 bytes: its local header is
 * 30 bytes + the name + a padding extra field ("FB" + length + zeros; zip64
 * extra fields when the data or the offset pass 4 GiB), and a 16-byte data
 * descriptor follows the data (24 with 8-byte sizes).  The central
 * directory has 46 bytes + the name per record; the zip64 end record (56),
 * its locator (20) and the end record (22) close every file.  Measured with
 * Debian's torch 1.13.1 (t/integration/test_ckpt_torch.py compares the
 * syscalls); data.pkl's size is estimated (within about 100 bytes).
 * Python's BufferedWriter (buffer = the file's st_blksize) then turns the
 * record writes into syscalls: a piece that fits the free buffer is copied;
 * a larger one flushes the buffer (one write) and, when longer than the
 * buffer, goes straight to the file (one write, split at Linux's
 * 0x7ffff000-byte maximum per call); the last flush writes the rest.  So a
 * file is: framing (data.pkl and the first header), tensor, header, tensor,
 * ..., tail: one request per tensor storage larger than the buffer.
 * sb_torch_plan is pure arithmetic; sb_torch_bufsize stats a folder. */
#ifndef SB_ML_TORCHSAVE_H
#define SB_ML_TORCHSAVE_H
#include <stddef.h>
#include <stdint.h>

#define SB_TORCH_ALIGN 64u
#define SB_TORCH_MAX_WRITE 0x7ffff000ull /* Linux: most bytes one write() moves */

struct sb_torch_plan {
	uint64_t *req;     /* the write() sizes, in order (malloc'ed) */
	size_t n;
	uint64_t bytes;    /* the file's size: sum of req */
	uint64_t framing;  /* bytes - the tensors' bytes */
	uint64_t max_req;  /* the largest request */
};

/* The pickle (data.pkl) of a dict of ntensors 1-D tensors, estimated: its
 * size varies by a few bytes per tensor with the key names and shapes. */
uint64_t sb_torch_pickle_bytes(size_t ntensors);

/* Plan the writes of a file holding ntensors tensors of tensor[i] bytes
 * (in the dict's order) and a pickle of the given size, written through a
 * buffer of bufsize bytes.  0 or -ENOMEM; free with sb_torch_plan_free. */
int sb_torch_plan(const uint64_t *tensor, size_t ntensors, uint64_t pickle, uint64_t bufsize,
		  struct sb_torch_plan *p);
void sb_torch_plan_free(struct sb_torch_plan *p);

/* The buffer Python's open(name, "wb") gets for a file in folder (or, when
 * it does not exist yet, its parent): st_blksize, else 8192. */
uint64_t sb_torch_bufsize(const char *folder);
/* Plan files[0..n) of shape s (sb_ml_file_tensors); each file's bytes grow
 * by its framing; *max_req: the largest request.  *plans (n, calloc'ed) is
 * set even on failure: free each with sb_torch_plan_free, then free().
 * 0 or -ENOMEM. */
struct sb_ml_shape;
struct sb_ml_file;
int sb_torch_plan_files(const struct sb_ml_shape *s, struct sb_ml_file *files, size_t n,
			uint64_t bufsize, struct sb_torch_plan **plans, uint64_t *max_req);
#endif
