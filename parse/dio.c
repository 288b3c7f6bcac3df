/* dio.c: the one direct-I/O alignment check (sb_spec_check_direct, see
 * parse.h).  It is pure: the alignment comes from the caller, so the parser
 * runs it with SB_DIO_ALIGN_MIN (wrong on every device, no device needed)
 * and run/precheck.c with the real alignment of each file or device the job
 * uses (os/dio.h), before any I/O.  A misaligned O_DIRECT request does not
 * always fail: ext4 on Linux 6.x quietly serves it from the page cache, so a
 * direct=1 benchmark would measure memory. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/log.h"
#include "parse/options.h"
#include "parse/parse.h"

static const char *const ddir_name[SB_DDIR_N] = { "read", "write", "trim" };

static unsigned directions(const struct sb_jobspec *s)
{
	unsigned n = 0;
	for (unsigned d = 0; d < SB_DDIR_N; d++)
		n += sb_spec_does(s, (enum sb_ddir)d);
	return n;
}

/* "the direct-I/O alignment of PATH (SOURCE)" or "which direct=1 (O_DIRECT) needs on every device" */
static void needs(const struct sb_dio_align *a, const char *of, char *buf, size_t len)
{
	if (of)
		snprintf(buf, len, "the direct-I/O alignment of %s (%s)", of,
			 a->source ? a->source : "as the kernel states it");
	else
		snprintf(buf, len, "which direct=1 (O_DIRECT) needs on every device");
}

/* why v, a multiple of 1000, is not a power-of-two size: fio's unit prefixes
 * (as fio 3.33 reads them).  kb_base=1024 (the default, fio's compatibility mode):
 * KiB, MiB, ... count in 1000s and k, m, ... in 1024s, so bs=4KiB is 4000
 * bytes; kb_base=1000 the other way round.  "" when v is no such size. */
static void kb_note(const struct sb_jobspec *s, const char *opt, uint64_t v, char *buf, size_t len)
{
	static const char pre[] = "kmgtp";
	bool iec = s->kb_base != 1000; /* the prefix that counts in 1000s */
	uint64_t n = v, bin = 1;
	int p = 0;
	buf[0] = 0;
	while (p < 5 && n && n % 1000 == 0) {
		n /= 1000;
		bin *= 1024;
		p++;
	}
	if (!p)
		return;
	char dec[8], two[8];
	snprintf(dec, sizeof(dec), iec ? "%ciB" : "%c", iec ? toupper(pre[p - 1]) : pre[p - 1]);
	snprintf(two, sizeof(two), iec ? "%c" : "%ciB", iec ? pre[p - 1] : toupper(pre[p - 1]));
	snprintf(buf, len, "; %" PRIu64 " bytes is %" PRIu64 "%s with kb_base=%u (%s: %s count in "
		 "1000s and %s in 1024s, as in fio 3.33): for %" PRIu64 " bytes write %s%s%" PRIu64
		 "%s, or %s", v, n, dec, iec ? 1024 : 1000, iec ? "the default" : "set in the job",
		 iec ? "KiB, MiB, GiB" : "k, m, g (kB, MB, GB)",
		 iec ? "k, m, g (kB, MB, GB)" : "KiB, MiB, GiB", n * bin, opt ? opt : "",
		 opt ? "=" : "", n, two,
		 iec ? "set kb_base=1000 (k in 1000s, KiB in 1024s)" : "drop kb_base=1000");
}

/* v of option o (direction d, or -1) is not a multiple of a->offset: say so */
static int refuse(const struct sb_jobspec *s, const struct sb_dio_align *a, const char *of,
		  const struct sb_option *o, int d, uint64_t v)
{
	char where[SB_WHERE_MAX], what[160], need[600], fix[160], why[400];
	unsigned al = a->offset;
	uint64_t up = (v / al + 1) * al;
	const char *dir = d >= 0 && directions(s) > 1 ? ddir_name[d] : NULL;
	if (o == SB_OPT(bssplit) || o == SB_OPT(bs_min)) {
		snprintf(what, sizeof(what), "%s%s%s%s size %" PRIu64, o->name, dir ? " (" : "",
			 dir ? dir : "", dir ? ")" : "", v);
		snprintf(fix, sizeof(fix), "use sizes that are multiples of %u", al);
	} else {
		snprintf(what, sizeof(what), "%s=%" PRIu64 "%s%s%s", o->name, v, dir ? " (" : "",
			 dir ? dir : "", dir ? ")" : "");
		snprintf(fix, sizeof(fix), "use %s=%" PRIu64 " or another multiple of %u", o->name, up, al);
	}
	needs(a, of, need, sizeof(need));
	kb_note(s, o == SB_OPT(bssplit) || o == SB_OPT(bs_min) ? NULL : o->name, v, why, sizeof(why));
	sb_err(sb_spec_where(s, o, where, sizeof(where)), "job %s: %s is not a multiple of %u, %s: %s, "
	       "or direct=0%s", s->name, what, al, need, fix, why);
	return -EINVAL;
}

int sb_spec_check_direct(const struct sb_jobspec *s, const struct sb_dio_align *a, const char *of,
			 unsigned buf_align)
{
	char where[SB_WHERE_MAX];
	if (!s->direct)
		return 0;
	if (a->unsupported) {
		sb_err(sb_spec_where(s, SB_OPT(direct), where, sizeof(where)), "job %s: direct=1: %s "
		       "cannot do direct I/O (%s; the kernel would use the page cache): use direct=0, "
		       "or a file on another file system", s->name, of ? of : "the file",
		       a->source ? a->source : "the kernel says so");
		return -EINVAL;
	}
	unsigned al = a->offset ? a->offset : SB_DIO_ALIGN_MIN;
	struct sb_dio_align use = *a;
	use.offset = al;
	if (s->offset % al)
		return refuse(s, &use, of, SB_OPT(offset), -1, s->offset);
	for (int d = 0; d < SB_DDIR_N; d++) {
		uint64_t bs[SB_BSSPLIT_MAX];
		unsigned n = sb_spec_bs_set(s, (enum sb_ddir)d, bs, SB_BSSPLIT_MAX);
		const struct sb_option *o = s->bssplit_n[d] ? SB_OPT(bssplit)
					  : s->bs_min[d] < s->bs_max[d] ? SB_OPT(bs_min) : SB_OPT(bs);
		for (unsigned i = 0; i < n; i++)
			if (bs[i] % al)
				return refuse(s, &use, of, o, d, bs[i]);
		if (n && s->blockalign[d] % al)
			return refuse(s, &use, of, SB_OPT(blockalign), d, s->blockalign[d]);
	}
	if (buf_align && a->mem && buf_align % a->mem) {
		sb_err(sb_spec_where(s, SB_OPT(direct), where, sizeof(where)), "job %s: direct=1: %s "
		       "needs I/O buffers aligned to %u bytes (%s), and storbench aligns them to %u: "
		       "use direct=0", s->name, of ? of : "the device", a->mem,
		       a->source ? a->source : "as the kernel states it", buf_align);
		return -EINVAL;
	}
	return 0;
}
