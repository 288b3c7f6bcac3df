/* cpuio.c: fio's cpuio engine, as fio 3.33 defines it (engines/cpu.c):
 * moves no data and touches no storage; each I/O burns CPU for cpuchunks
 * microseconds (cpumode=noop: a spin on the clock) or sorts 256 Ki 32-bit
 * integers four times (cpumode=qsort: by value, reversed, by byte,
 * reversed; the burst's length is what it took), then asks run/ for a
 * pause of burst x (100 - cpuload) / cpuload, so the thread keeps cpuload
 * percent of a CPU busy.  The pause is think time, apart from the I/O's
 * latency, as fio's (it sets thinktime after every I/O).  Its I/Os are
 * counted, not their bytes or time (SB_ENGINE_NOIO: fio's FIO_NOIO). */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "lib/timeutil.h"

enum { CPU_NOOP, CPU_QSORT };
#define QSORT_N (256u << 10) /* fio's qsort_size: 256 Ki int32 */

struct cpu_opts {
	unsigned load;      /* cpuload, percent */
	unsigned chunk_us;  /* cpuchunks */
	unsigned mode;      /* cpumode */
	bool exit_io_done;  /* exit_on_io_done */
};

static const struct sb_opt_enum mode_vals[] = {
	{ .name = "noop", .val = CPU_NOOP, .help = "spin on the clock for cpuchunks us" },
	{ .name = "qsort", .val = CPU_QSORT, .help = "sort 256 Ki integers four times (fio's stress mode)" },
	{ .name = NULL },
};

#define OO(f) offsetof(struct cpu_opts, f)
static const struct sb_option cpu_options[] = {
	{ .name = "cpuload", .type = SB_OT_UINT, .off = OO(load), .def = "0", .max = UINT32_MAX, .unit = "%",
	  .category = SB_CAT_ENG, .help = "cpuio: percent of a CPU each thread keeps busy (needed; over 100 is 100, as fio)" },
	{ .name = "cpuchunks", .type = SB_OT_UINT, .off = OO(chunk_us), .def = "50000", .min = 1, .max = UINT32_MAX, .unit = "us",
	  .category = SB_CAT_ENG, .help = "cpuio: length of each burn in cpumode=noop (us)" },
	{ .name = "cpumode", .type = SB_OT_ENUM, .off = OO(mode), .def = "noop", .enums = mode_vals,
	  .category = SB_CAT_ENG, .help = "cpuio: noop (spin) or qsort (sorting)" },
	{ .name = "exit_on_io_done", .type = SB_OT_BOOL, .off = OO(exit_io_done), .def = "0",
	  .category = SB_CAT_ENG, .help = "cpuio: 1 is refused (storbench's cpuio job ends by its own runtime=)" },
};
const struct sb_engine_options sb_cpuio_optset = {
	cpu_options, sizeof(cpu_options) / sizeof(cpu_options[0]), sizeof(struct cpu_opts),
};

struct cpu_td {
	unsigned load, chunk_us, mode;
	int32_t *data;      /* qsort's numbers, made once (fio's mwc32 fill) */
};

static int cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_byte(const void *a, const void *b)
{
	return *(const int8_t *)a - *(const int8_t *)b;
}

static int cpu_init(struct sb_engine_td *td)
{
	static const struct cpu_opts defaults = { .chunk_us = 50000 };
	const struct cpu_opts *o = td->job && td->job->opts ? td->job->opts : &defaults;
	if (!td->ios || !td->nios)
		return -EINVAL;
	struct cpu_td *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->load = o->load > 100 ? 100 : o->load;
	d->chunk_us = o->chunk_us ? o->chunk_us : 50000;
	d->mode = o->mode;
	if (!d->load) { /* the parser refuses it (cpu_check); a job made in code may not */
		free(d);
		snprintf(td->errmsg, sizeof(td->errmsg), "cpuio needs cpuload= (percent of a CPU, 1 to 100)");
		return -EINVAL;
	}
	if (d->mode == CPU_QSORT) {
		uint32_t w = 521288629u, z = 362436069u; /* fio's mwc32 entropy */
		if (!(d->data = malloc(QSORT_N * sizeof(*d->data)))) {
			free(d);
			return -ENOMEM;
		}
		for (unsigned i = 0; i < QSORT_N; i++) {
			z = 36969u * (z & 65535u) + (z >> 16);
			w = 18000u * (w & 65535u) + (w >> 16);
			d->data[i] = (int32_t)((z << 16) + w);
		}
	}
	td->data = d;
	return 0;
}

static void cpu_cleanup(struct sb_engine_td *td)
{
	struct cpu_td *d = td->data;
	if (d)
		free(d->data);
	free(d);
	td->data = NULL;
}

static enum sb_q_status cpu_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct cpu_td *d = td->data;
	uint64_t t0 = sb_now_ns(), burst;
	if (d->mode == CPU_QSORT) {
		qsort(d->data, QSORT_N, sizeof(*d->data), cmp_up);
		qsort(d->data, QSORT_N, sizeof(*d->data), cmp_down);
		qsort(d->data, QSORT_N * 4u, 1, cmp_byte);
		qsort(d->data, QSORT_N, sizeof(*d->data), cmp_down);
		burst = sb_now_ns() - t0;
	} else {
		burst = (uint64_t)d->chunk_us * 1000u;
		while (sb_now_ns() - t0 < burst)
			;
	}
	td->think_ns = burst * (100u - d->load) / d->load;
	io->result = (int64_t)io->len; /* counted, not its bytes (SB_ENGINE_NOIO) */
	return SB_Q_COMPLETED;
}

/* cpuload= is needed (fio: "cpu thread needs rate (cpuload=)"), and
 * exit_on_io_done=1 is refused: storbench's cpuio job runs for its own
 * runtime= */
static int cpu_check(const void *opts, const char *filename, const char *directory, bool io_job,
		     const char **opt, char *why, size_t wlen)
{
	const struct cpu_opts *o = opts;
	(void)filename, (void)directory;
	if (!io_job) {
		snprintf(why, wlen, "ioengine=cpuio moves no data (an I/O is a burst of CPU work), and an ML "
			 "workload writes and reads data: use a data engine (psync, libaio, io_uring)");
		return -EINVAL;
	}
	if (!o || !o->load) {
		*opt = "cpuload";
		snprintf(why, wlen, "ioengine=cpuio needs cpuload= (the percent of a CPU each thread keeps "
			 "busy, 1 to 100), as fio: add cpuload=50");
		return -EINVAL;
	}
	if (o->exit_io_done) {
		*opt = "exit_on_io_done";
		snprintf(why, wlen, "exit_on_io_done=1 (stop when the I/O jobs are done) is not supported: "
			 "give the cpuio job the I/O jobs' runtime= instead, and drop exit_on_io_done");
		return -EINVAL;
	}
	return 0;
}

const struct sb_engine_ops sb_engine_cpuio = {
	.name = "cpuio",
	.description = "fio's cpuio: each I/O burns CPU (cpumode=noop or qsort) to keep cpuload% of a CPU busy",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODISKIO | SB_ENGINE_NOIO,
	.init = cpu_init,
	.cleanup = cpu_cleanup,
	.options = &sb_cpuio_optset,
	.queue = cpu_queue,
	.check = cpu_check,
	.notes = "  each I/O: a burn of cpuchunks us (noop) or four sorts of 256 Ki integers (qsort),\n"
		 "    then think time of burn x (100 - cpuload) / cpuload, apart from its latency\n"
		 "  results: I/Os counted (total_ios, clat = the burn), no bytes, runtime 0 (as fio)\n"
		 "  without size=, the job runs for its runtime= (one of them is needed)\n",
};
