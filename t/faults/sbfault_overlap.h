/* sbfault_overlap.h: SBFAULT_OVERLAP of the LD_PRELOAD shim (see the top of
 * sbfault.c): count the pread/pwrite calls on a file that overlap in time,
 * for the lockfile tests (t/integration/test_lockunl.py).  Included once, by
 * sbfault.c, after fd_path_matches. */
#ifndef SBFAULT_OVERLAP_H
#define SBFAULT_OVERLAP_H
static const char *ov_file, *ov_glob;
static unsigned ov_us = 500;
static atomic_uint ov_in[2], ov_max;
static atomic_uint_fast64_t ov_calls, ov_rw, ov_ww;

static bool ov_enter(int fd, int w)
{
	char path[4096];
	if (!ov_file || !fd_path_matches(fd, ov_glob, path, sizeof(path)))
		return false;
	unsigned other = atomic_load(&ov_in[!w]), same = atomic_fetch_add(&ov_in[w], 1);
	unsigned now = other + same + 1, m = atomic_load(&ov_max);
	while (now > m && !atomic_compare_exchange_weak(&ov_max, &m, now))
		;
	atomic_fetch_add(&ov_calls, 1);
	if (other)
		atomic_fetch_add(&ov_rw, 1);
	if (w && same)
		atomic_fetch_add(&ov_ww, 1);
	usleep(ov_us);
	return true;
}

static void ov_leave(bool on, int w)
{
	if (on)
		atomic_fetch_sub(&ov_in[w], 1);
}

static void __attribute__((destructor)) ov_report(void)
{
	if (!ov_file)
		return;
	FILE *f = fopen(ov_file, "w");
	if (!f)
		return;
	fprintf(f, "calls=%llu max=%u rw=%llu ww=%llu\n", (unsigned long long)atomic_load(&ov_calls),
		atomic_load(&ov_max), (unsigned long long)atomic_load(&ov_rw),
		(unsigned long long)atomic_load(&ov_ww));
	fclose(f);
}

static void ov_init(void)
{
	ov_file = getenv("SBFAULT_OVERLAP");
	if (ov_file && !*ov_file)
		ov_file = NULL;
	ov_glob = getenv("SBFAULT_OVERLAP_PATH") ? getenv("SBFAULT_OVERLAP_PATH") : "";
	if (getenv("SBFAULT_OVERLAP_US"))
		ov_us = (unsigned)strtoul(getenv("SBFAULT_OVERLAP_US"), NULL, 10);
}

#endif
