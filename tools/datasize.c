/* tools/datasize.c: `storbench datasize model=M accelerators=N
 * client_memory=SIZE hosts=H [accelerator=h100|a100]`: the training dataset
 * a CLOSED MLPerf Storage run needs, as mlpstorage's datasize computes it
 * (rules.py calculate_training_data_size: files = max(floor(5 x hosts x
 * memory / (samples_per_file x record_length)), floor(500 x accelerators x
 * batch / samples_per_file)), memory per host in GiB as mlpstorage's
 * --client-host-memory-in-gb, i.e. x 2^30), and the job-file lines that run
 * it.  The formula is ml/rules.c's (sb_ml_min_files_by_mem/_by_steps).
 * The file count is mlpstorage's, from the .yaml's record_length_bytes (the
 * checker recomputes it so); the bytes those files hold on disk are what
 * DLIO writes, which is not files x record_length: a record is d1 x d2
 * bytes around int(sqrt(record_length)) (utils/config.py:312,
 * data_generator.py:54-58: resnet50's 114660.07 -> 338^2 = 114244), plus the
 * format's framing (npz's zip and npy headers, TFRecord's per-record
 * framing and Example), summed file by file as storbench's datagen writes
 * them (ml/train/formats.c sb_ml_fmt_file_bytes). */
#include "tools/tools.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"
#include "ml/train/formats.h"
#include "ml/train/opts.h"
#include "ml/train/train.h"
#include "parse/catalog.h"
#include "parse/options.h"
#include "parse/value.h"

#define GIB 1073741824.0

struct ds_args {
	const struct sb_train_preset *p;
	uint64_t accelerators, hosts, mem;
	const char *accel;
};

/* datasize's KEY=VALUE words: --help lists them, the bash completion offers them */
const struct sb_cli_flag sb_datasize_flags[] = {
	{ "model", "unet3d|resnet50|cosmoflow", "the MLPerf Storage training model" },
	{ "accelerators", "N", "simulated accelerators in all" },
	{ "client_memory", "SIZE", "memory of each client host (a number is GiB; 512g, 1t: powers "
	  "of 1024)" },
	{ "hosts", "N", "client hosts" },
	{ "accelerator", "h100|a100", "the accelerator type (default h100)" },
	{ "--help", NULL, "this text (also -h)" },
	{ NULL, NULL, NULL },
};

static int usage(FILE *f, int rc)
{
	fprintf(f, "usage: storbench datasize model=unet3d|resnet50|cosmoflow accelerators=N "
		   "client_memory=SIZE hosts=N [accelerator=h100|a100]\n");
	SB_TOOL_FLAGS_USAGE(f, sb_datasize_flags);
	return rc;
}

static int bad(const char *arg, const char *why)
{
	sb_err("<cmdline>", "datasize %s: %s", arg, why);
	return usage(stderr, 2);
}

static int parse_args(int argc, char **argv, struct ds_args *a)
{
	char err[SB_VERR_LEN];
	bool have_mem = false;
	memset(a, 0, sizeof(*a));
	a->hosts = 1;
	a->accel = "h100";
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (!eq)
			return bad(argv[i], "expected KEY=VALUE (model=, accelerators=, client_memory=, hosts=)");
		size_t kl = (size_t)(eq - argv[i]);
		const char *v = eq + 1;
		int64_t n;
		if (kl == 5 && !strncmp(argv[i], "model", kl)) {
			if (!(a->p = sb_train_preset_find(v)))
				return bad(argv[i], "unknown model: expected unet3d, resnet50 or cosmoflow");
		} else if ((kl == 12 && !strncmp(argv[i], "accelerators", kl)) ||
			   (kl == 5 && !strncmp(argv[i], "hosts", kl))) {
			if (sb_parse_int(v, 1, 1 << 24, &n, err))
				return bad(argv[i], err);
			*(kl == 5 ? &a->hosts : &a->accelerators) = (uint64_t)n;
		} else if (kl == 13 && !strncmp(argv[i], "client_memory", kl)) {
			char *end;
			double g = strtod(v, &end);
			if (end != v && !*end && g > 0) { /* a plain number: GiB, as mlpstorage */
				a->mem = (uint64_t)(g * GIB);
			} else if (sb_parse_size(v, 1024, &a->mem, err) || !a->mem) {
				return bad(argv[i], a->mem ? err : "expected a memory size > 0 such as 256 (GiB) or 512g");
			}
			have_mem = true;
		} else if (kl == 11 && !strncmp(argv[i], "accelerator", kl)) {
			if (strcmp(v, "h100") && strcmp(v, "a100"))
				return bad(argv[i], "expected h100 or a100");
			a->accel = v;
		} else {
			return bad(argv[i], "unknown key: expected model=, accelerators=, client_memory=, hosts= or accelerator=");
		}
	}
	if (!a->p || !a->accelerators || !have_mem)
		return bad(!a->p ? "model=" : !a->accelerators ? "accelerators=" : "client_memory=",
			   "missing: all of model=, accelerators= and client_memory= are needed");
	return 0;
}

/* Files summed one by one up to this many (about 0.1 s); beyond it a
 * stratified sample of as many files gives the sum (datasize answers in
 * well under a second for any size: mlpstorage's own answer is closed form). */
#define DS_EXACT_FILES 131072u

struct ds_disk {
	double bytes;   /* the sum, or its estimate */
	unsigned __int128 whole; /* the exact sum when every file is alike (else 0) */
	double bound;   /* 0 when exact; else 3 standard errors of the estimate */
	uint64_t drawn; /* files whose bytes were computed */
};

/* the bytes of files files of p's dataset as DLIO (and storbench's
 * datagen) writes them: every file the same size when the .yaml has no
 * stdev (files x one file), summed file by file up to DS_EXACT_FILES, else
 * estimated from every (files / DS_EXACT_FILES)-th file (each file's size is
 * an independent draw seeded by its index) with 3 standard errors */
static struct ds_disk dlio_bytes(const struct sb_train_preset *p, uint64_t files)
{
	struct sb_ml_workload w;
	struct ds_disk d = { 0, 0, 0, 0 };
	if (sb_ml_workload_find(p->name, &w))
		return d;
	w.ds.files = files > UINT32_MAX ? UINT32_MAX : (unsigned)files;
	w.ds.fmt = !strcmp(p->format, "tfrecord") ? SB_DSFMT_TFRECORD : SB_DSFMT_NPZ;
	if (!(w.ds.record_stdev > 0) && files) {
		d.whole = (unsigned __int128)files * sb_ml_fmt_file_bytes(&w.ds, 0);
		d.bytes = (double)d.whole;
		d.drawn = 1;
		return d;
	}
	if (files <= DS_EXACT_FILES) {
		for (unsigned i = 0; i < files; i++)
			d.bytes += (double)sb_ml_fmt_file_bytes(&w.ds, i);
		d.drawn = files;
		return d;
	}
	double sum = 0, sq = 0, m = DS_EXACT_FILES, step = (double)w.ds.files / m;
	for (unsigned k = 0; k < DS_EXACT_FILES; k++) {
		double b = (double)sb_ml_fmt_file_bytes(&w.ds, (unsigned)((double)k * step));
		sum += b;
		sq += b * b;
	}
	double mean = sum / m, var = sq / m - mean * mean;
	d.bytes = (double)files * mean;
	d.bound = 3 * (double)files * sqrt((var > 0 ? var : 0) / m);
	d.drawn = DS_EXACT_FILES;
	return d;
}

/* v in decimal (out: 40 bytes or more) */
static void u128_str(unsigned __int128 v, char *out)
{
	char tmp[48];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = 0;
}

int sb_tool_datasize(int argc, char **argv)
{
	struct ds_args a;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return usage(stdout, 0);
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	const struct sb_train_preset *p = a.p;
	uint64_t by_mem = sb_ml_min_files_by_mem((unsigned)a.hosts, a.mem, p->samples_per_file, p->record_length);
	uint64_t by_steps = sb_ml_min_files_by_steps(p->batch_size, (unsigned)a.accelerators, p->samples_per_file);
	uint64_t files = by_mem > by_steps ? by_mem : by_steps;
	double file_bytes = (double)p->samples_per_file * p->record_length;
	double total = (double)files * file_bytes;
	char exact[48]; /* rules.py:716 total_disk_bytes: an exact int for a whole record_length */
	if (p->record_length == floor(p->record_length) && file_bytes < 18446744073709551616.0)
		u128_str((unsigned __int128)files * (uint64_t)file_bytes, exact);
	else
		snprintf(exact, sizeof(exact), "%.0f", floor(total)); /* int(): truncated */
	printf("datasize for %s on %" PRIu64 " %s accelerators, %" PRIu64 " client host%s of %.2f GiB:\n",
	       p->name, a.accelerators, a.accel, a.hosts, a.hosts == 1 ? "" : "s", (double)a.mem / GIB);
	printf("  by memory : %" PRIu64 " files (5 x %" PRIu64 " x %.2f GiB / (%u samples x %.2f bytes))\n",
	       by_mem, a.hosts, (double)a.mem / GIB, p->samples_per_file, p->record_length);
	printf("  by steps  : %" PRIu64 " files (500 steps x %" PRIu64 " accelerators x batch %u / %u samples per file)\n",
	       by_steps, a.accelerators, p->batch_size, p->samples_per_file);
	printf("  required  : %" PRIu64 " files, %s bytes (%.2f GiB, %.2f GB) by mlpstorage's estimate "
	       "(files x %u x %.2f bytes); dictated by %s\n", files, exact, total / GIB, total / 1e9,
	       p->samples_per_file, p->record_length, by_mem > by_steps ? "memory" : "the 500-step minimum");
	struct ds_disk disk = dlio_bytes(p, files);
	char how[160], sum[48];
	if (disk.whole) {
		u128_str(disk.whole, sum);
		snprintf(how, sizeof(how), "%s bytes", sum);
	} else if (disk.bound > 0)
		snprintf(how, sizeof(how), "about %.0f bytes (+-%.0f: 3 standard errors of a sample of %"
			 PRIu64 " of the files)", disk.bytes, disk.bound, disk.drawn);
	else
		snprintf(how, sizeof(how), "%.0f bytes", disk.bytes);
	printf("  on disk   : %s (%.2f GiB, %.2f GB) as DLIO writes them: %s records of about "
	       "%" PRIu64 "^2 bytes (int(sqrt(record_length))%s) with the %s framing\n", how,
	       disk.bytes / GIB, disk.bytes / 1e9, p->name, sb_ml_dlio_dim(p->record_length),
	       p->record_stdev > 0 ? ", each dimension drawn around it" : "", p->format);
	printf("\nJob-file lines for a CLOSED run (each client host's memory must not exceed %.2f GiB):\n",
	       (double)a.mem / GIB);
	printf("[%s]\n%s=train\n%s=%s\n%s=%s\n%s=%" PRIu64 "\n%s=%" PRIu64 "\n%s=mlperf\n", p->name,
	       SB_OPT(workload)->name, SB_TRAIN_OPT(train_model)->name, p->name, SB_TRAIN_OPT(accelerator)->name, a.accel,
	       SB_TRAIN_OPT(accelerators)->name, a.accelerators, SB_TRAIN_OPT(dataset_files)->name, files,
	       SB_OPT(rules)->name);
	return 0;
}
