/* verify.c: writes a verify result (stats/verify.h).
 *
 * JSON, inside the job object:
 *   "verify": { "type": "crc32c", "blocks_checked": N, "bytes_checked": N,
 *               "failures": N, "bit_corruption": n, "misplaced": n,
 *               "stale": n, "torn": n, "never_written": n,
 *               "first_failures": [ { "kind", "file", "offset", "length",
 *                                     "thread", "expected", "found" } ] }
 * Normal output, after the job's block:
 *   "  verify       : crc32c, 2048 blocks (256.0MiB) checked, 0 failures"
 * then, with failures, their count by kind and one line per kept failure. */
#include <inttypes.h>

#include "output/verify.h"

void sb_json_verify(struct sb_jw *w, const struct sb_verify_result *v)
{
	sb_jw_obj_begin(w, "verify");
	sb_jw_str(w, "type", v->type);
	sb_jw_u64(w, "blocks_checked", v->blocks);
	sb_jw_u64(w, "bytes_checked", v->bytes);
	sb_jw_u64(w, "failures", sb_verify_nfail(v));
	for (int k = 0; k < SB_VFY_KIND_N; k++)
		sb_jw_u64(w, sb_verify_kind_name((enum sb_verify_kind)k), v->failures[k]);
	sb_jw_arr_begin(w, "first_failures");
	for (unsigned i = 0; i < v->nfirst; i++) {
		const struct sb_verify_failure *f = &v->first[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "kind", sb_verify_kind_name(f->kind));
		sb_jw_str(w, "file", f->file);
		sb_jw_u64(w, "offset", f->offset);
		sb_jw_u64(w, "length", f->length);
		sb_jw_u64(w, "thread", f->thread);
		sb_jw_str(w, "expected", f->expected);
		sb_jw_str(w, "found", f->found);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_obj_end(w);
}

void sb_normal_verify(FILE *f, const struct sb_verify_result *v)
{
	uint64_t n = sb_verify_nfail(v);
	fprintf(f, "  verify       : %s, %" PRIu64 " blocks (%.1fMiB) checked, %" PRIu64 " failure%s\n",
		v->type, v->blocks, (double)v->bytes / 1048576.0, n, n == 1 ? "" : "s");
	if (!n)
		return;
	fputs("     failures  :", f);
	for (int k = 0; k < SB_VFY_KIND_N; k++)
		fprintf(f, "%s %s=%" PRIu64, k ? "," : "", sb_verify_kind_name((enum sb_verify_kind)k),
			v->failures[k]);
	fputc('\n', f);
	for (unsigned i = 0; i < v->nfirst; i++) {
		const struct sb_verify_failure *x = &v->first[i];
		fprintf(f, "     %-14s %s at offset %" PRIu64 " (%" PRIu64 " bytes, thread %u): expected %s, found %s\n",
			sb_verify_kind_name(x->kind), x->file, x->offset, x->length, x->thread,
			x->expected[0] ? x->expected : "-", x->found[0] ? x->found : "-");
	}
	if (n > v->nfirst)
		fprintf(f, "     ... and %" PRIu64 " more\n", n - v->nfirst);
}
