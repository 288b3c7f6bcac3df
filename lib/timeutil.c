/* timeutil.c: choosing and calibrating the I/O path's clock (see timeutil.h). */
#include <stdio.h>
#include <string.h>

#include "lib/timeutil.h"

struct sb_tsc_scale sb_tsc;

static bool file_has(const char *root, const char *rel, const char *const *words, unsigned n,
		     bool whole)
{
	char path[4096], buf[8192];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	for (unsigned i = 0; i < n; i++) {
		if (whole) {
			size_t w = strlen(words[i]);
			if (strncmp(buf, words[i], w) || (buf[w] && buf[w] != '\n'))
				return false;
			continue;
		}
		char pat[64];
		snprintf(pat, sizeof(pat), " %s", words[i]);
		const char *p = strstr(buf, pat);
		size_t w = strlen(pat);
		if (!p || (p[w] && p[w] != ' ' && p[w] != '\n'))
			return false;
	}
	return true;
}

static bool tsc_trusted(const char *root)
{
	static const char *const cs[] = { "tsc" };
	static const char *const flags[] = { "constant_tsc", "nonstop_tsc" };
	return file_has(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", cs,
			1, true) &&
	       file_has(root, "/proc/cpuinfo", flags, 2, false);
}

#if defined(__x86_64__)
/* one (tsc, ns) pair: the TSC read on both sides of the clock read, the
 * midpoint kept; the narrowest of a few tries (a preemption widens one) */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 5; i++) {
		uint64_t a = __rdtsc(), n = sb_mono_ns(), b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}
#endif

bool sb_clock_init(bool allow_tsc, const char *root)
{
#if defined(__x86_64__)
	if (!allow_tsc || !tsc_trusted(root ? root : "/")) {
		sb_tsc.on = false;
		return false;
	}
	if (sb_tsc.mult) {
		sb_tsc.on = true;
		return true;
	}
	uint64_t t0, n0, t1, n1;
	pair(&t0, &n0);
	do
		pair(&t1, &n1);
	while (n1 - n0 < 2000000 && t1 > t0);
	if (t1 <= t0 || n1 <= n0)
		return false;
	sb_tsc.mult = (uint64_t)((((unsigned __int128)(n1 - n0)) << 32) / (t1 - t0));
	sb_tsc.base_tsc = t1;
	sb_tsc.base_ns = n1;
	sb_tsc.on = sb_tsc.mult != 0;
	return sb_tsc.on;
#else
	(void)allow_tsc;
	(void)root;
	return false;
#endif
}

void sb_clock_gtod(bool on)
{
	sb_tsc.gtod = on;
	if (!on)
		return;
	struct timeval tv;
	uint64_t m = sb_mono_ns();
	gettimeofday(&tv, NULL);
	sb_tsc.gtod_off_ns = (int64_t)m - ((int64_t)tv.tv_sec * 1000000000ll + (int64_t)tv.tv_usec * 1000);
}
