/* aggbw.c: --bandwidth-log's aggregate bandwidth logs (see aggbw.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "os/outfile.h"
#include "stats/aggbw.h"
#include "stats/ilat.h"

/* fio's names, by direction (read, write, trim) */
static const char *const names[SB_AGGBW_NDIR] = {
	"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log",
};

int sb_aggbw_open(struct sb_monitor *m)
{
	struct sb_aggbw *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	m->aggbw = a;
	for (int d = 0; d < SB_AGGBW_NDIR; d++) {
		int e = sb_outfile_open(&a->af[d], names[d], &(struct sb_outname){ "--bandwidth-log",
					NULL, "the aggregate bandwidth log" }, 0);
		if (e)
			return e; /* the gate said why */
	}
	return 0;
}

void sb_aggbw_tick(struct sb_monitor *m, uint64_t now)
{
	struct sb_aggbw *a = m->aggbw;
	if (!a->next_ns) {
		a->next_ns = m->t0_ns + SB_AGGBW_MS * 1000000ull;
		a->last_ns = m->t0_ns;
	}
	if (now < a->next_ns)
		return;
	uint64_t bytes[SB_AGGBW_NDIR] = { 0 };
	for (unsigned i = 0; i < m->nth; i++)
		for (int d = 0; d < SB_AGGBW_NDIR && d < SB_DDIR_N; d++) {
			uint64_t ios, b;
			sb_ilat_totals(m->th[i].ilat, d, &ios, &b);
			bytes[d] += b;
		}
	uint64_t dt_ms = (now - a->last_ns) / 1000000ull;
	for (int d = 0; d < SB_AGGBW_NDIR && dt_ms; d++) {
		uint64_t kib_s = (bytes[d] - a->bytes[d]) * 1000 / 1024 / dt_ms; /* KiB/s */
		fprintf(a->af[d].f, "%llu, %llu, %d, 0, 0\n",
			(unsigned long long)((now - m->t0_ns) / 1000000ull),
			(unsigned long long)kib_s, d);
	}
	if (dt_ms) {
		memcpy(a->bytes, bytes, sizeof(bytes));
		a->last_ns = now;
	}
	while (a->next_ns <= now)
		a->next_ns += SB_AGGBW_MS * 1000000ull;
}

int sb_aggbw_close(struct sb_monitor *m, bool ok)
{
	struct sb_aggbw *a = m->aggbw;
	int rc = 0;
	if (!a)
		return 0;
	for (int d = 0; d < SB_AGGBW_NDIR; d++) {
		if (!a->af[d].f)
			continue;
		if (!ok) {
			sb_outfile_abort(&a->af[d]);
			continue;
		}
		int e = sb_outfile_commit(&a->af[d]);
		if (e) {
			sb_err("--bandwidth-log", "%s: writing the aggregate bandwidth log failed: %s: "
			       "free space in the working directory, or run from another one", names[d],
			       strerror(-e));
			rc = -EIO;
		}
	}
	free(a);
	m->aggbw = NULL;
	return rc;
}
