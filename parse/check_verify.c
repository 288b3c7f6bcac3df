/* check_verify.c: validation of verify= and its options (fio's names) for
 * I/O jobs: the type must be built (its library found by configure), the
 * interval must fit the block sizes checked (the writes', or a read job's
 * reads') and the header, verify_backlog needs writes, and
 * verify_pattern is parsed here into bytes (derived fields verify_pat*).
 * Every error names file:line, the option, the value and the fix, before
 * anything touches a disk. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/csum.h"
#include "lib/log.h"
#include "lib/pattern.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/workloads.h"

/* "name=value" as written, or the default marked as such */
static const char *written(const struct sb_jobctx *c, const struct sb_option *o, char *buf,
			   size_t len)
{
	const struct sb_optsrc *s = sb_job_src(c, o);
	if (s->file)
		snprintf(buf, len, "%s=%s", o->name, s->raw);
	else
		snprintf(buf, len, "%s=%s (default)", o->name, o->def ? o->def : "0");
	return buf;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* fio's verify_pattern syntax: a sequence of 0xHEX (bytes in the order
 * written), decimal numbers (1 to 4 bytes, little-endian, as wide as the
 * value needs), "text" or 'text', and %o (the block's offset, 8 bytes
 * little-endian); blanks and '|' between pieces.  0, or a reason. */
static const char *parse_pattern(const char *p, struct sb_jobspec *s)
{
	unsigned n = 0;
	size_t flen;
	unsigned short fofs;
	char ferr[160];
	s->verify_pat_off = -1;
	/* fio 3.33's grammar first (lib/pattern.h: "abcd"-120xdeadface, issue
	 * 35); what it refuses goes on below ('|', 'text', the messages) */
	if (!sb_pattern_parse(p, s->verify_pat, sizeof(s->verify_pat), &flen, &fofs, 1, &n, ferr,
			      sizeof(ferr))) {
		s->verify_pat_off = n ? (int)fofs : -1;
		s->verify_pat_len = (unsigned)flen;
		return NULL;
	}
	n = 0;
	while (*p) {
		if (isspace((unsigned char)*p) || *p == '|') {
			p++;
		} else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			const char *h = p + 2;
			size_t nd = 0;
			while (hexval(h[nd]) >= 0)
				nd++;
			if (!nd)
				return "0x needs hex digits after it";
			if (n + (nd + 1) / 2 > sizeof(s->verify_pat))
				return "the pattern is longer than 64 bytes";
			size_t i = 0;
			if (nd % 2) /* odd: the first digit is a byte of its own */
				s->verify_pat[n++] = (uint8_t)hexval(h[i++]);
			for (; i < nd; i += 2)
				s->verify_pat[n++] = (uint8_t)(hexval(h[i]) << 4 | hexval(h[i + 1]));
			p = h + nd;
		} else if (isdigit((unsigned char)*p)) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);
			if (v > UINT32_MAX)
				return "a decimal number must fit 32 bits (use 0x... for more)";
			unsigned w = v > 0xffffff ? 4 : v > 0xffff ? 3 : v > 0xff ? 2 : 1;
			if (n + w > sizeof(s->verify_pat))
				return "the pattern is longer than 64 bytes";
			for (unsigned i = 0; i < w; i++)
				s->verify_pat[n++] = (uint8_t)(v >> (8 * i));
			p = end;
		} else if (*p == '"' || *p == '\'') {
			const char *e = strchr(p + 1, *p);
			if (!e)
				return "a quoted string is not closed";
			if (n + (size_t)(e - p - 1) > sizeof(s->verify_pat))
				return "the pattern is longer than 64 bytes";
			memcpy(s->verify_pat + n, p + 1, (size_t)(e - p - 1));
			n += (unsigned)(e - p - 1);
			p = e + 1;
		} else if (p[0] == '%' && p[1] == 'o') {
			if (s->verify_pat_off >= 0)
				return "%o may appear only once";
			if (n + 8 > sizeof(s->verify_pat))
				return "the pattern is longer than 64 bytes";
			s->verify_pat_off = (int)n;
			memset(s->verify_pat + n, 0, 8);
			n += 8;
			p += 2;
		} else {
			return "expected 0xHEX, a decimal number, \"text\" or %o";
		}
	}
	if (!n)
		return "the pattern is empty";
	s->verify_pat_len = n;
	return NULL;
}

/* verify= given, or set by verify_pattern: the type can run here */
static unsigned check_type(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], w[300];
	const struct sb_csum_info *ci = sb_csum_info(s->verify);
	if (!sb_csum_built(s->verify)) {
		sb_err(sb_job_where(c, SB_OPT(verify), where, sizeof(where)),
		       "%s: this storbench was built without %s, which computes %s checksums: "
		       "install %s and rebuild (./configure && make), or use another verify type "
		       "such as meta", written(c, SB_OPT(verify), w, sizeof(w)), ci->library, ci->name,
		       ci->package);
		return 1;
	}
	if (!sb_spec_is_io(s)) {
		sb_err(sb_job_where(c, SB_OPT(verify), where, sizeof(where)),
		       "%s: verify= checks the blocks of I/O jobs (workload=io); this job is a %s "
		       "workload: drop verify=", written(c, SB_OPT(verify), w, sizeof(w)),
		       sb_option_enum_name(SB_OPT(workload), s->workload));
		return 1;
	}
	if (s->verify == SB_VT_PATTERN && !s->verify_pattern) {
		sb_err(sb_job_where(c, SB_OPT(verify), where, sizeof(where)),
		       "%s needs the pattern to write and check: add verify_pattern= (e.g. "
		       "verify_pattern=0xdeadbeef), or use verify=crc32c",
		       written(c, SB_OPT(verify), w, sizeof(w)));
		return 1;
	}
	/* a job that does not write checks what it reads (fio verify.c:920-923,
	 * t/jobs/t0002-*-post.fio, examples/surface-scan.fio) */
	return 0;
}

/* the header and each write block size fit verify_interval */
static unsigned check_interval(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], w[300];
	unsigned hdr = sb_vhdr_len(s->verify);
	enum sb_ddir d = (s->rw & SB_RW_WRITE) ? SB_DDIR_WRITE : SB_DDIR_READ;
	const char *dn = d == SB_DDIR_WRITE ? "write" : "read";
	uint64_t wmin = s->bs_min[d], iv = s->verify_interval;
	const struct sb_option *o = SB_OPT(verify_interval);
	if (!iv)
		iv = wmin;
	/* larger than the block: fio caps it at each block's length (verify.c:82-96,
	 * get_hdr_inc; t/jobs/t0004-8a99fdf6.fio: bs=512, verify_interval=1M):
	 * one header per block.  With one block size that is the block size. */
	if (s->verify_interval && s->verify_interval > s->bs_max[d]) {
		if (s->bs_min[d] == s->bs_max[d] && !s->bssplit_n[d]) {
			s->verify_interval = s->bs_max[d];
			iv = s->verify_interval;
		} else {
			sb_err(sb_job_where(c, o, where, sizeof(where)), "%s is larger than every %s "
			       "block size (%llu to %llu bytes): fio then makes each block its own "
			       "interval, which storbench does for one block size only: set one bs=, "
			       "or a verify_interval that divides every block size, such as %llu",
			       written(c, o, w, sizeof(w)), dn, (unsigned long long)s->bs_min[d],
			       (unsigned long long)s->bs_max[d], (unsigned long long)s->bs_min[d]);
			return 1;
		}
	}
	if (hdr && (iv % hdr || iv < hdr + SB_VTRAILER_LEN)) {
		sb_err(sb_job_where(c, sb_job_isset(c, o) ? o : SB_OPT(bs), where, sizeof(where)),
		       "%s: each verify interval (%llu bytes) must be a multiple of the %u-byte "
		       "verify=%s header and hold it and the %u-byte trailer: use a multiple of %u "
		       "such as %u", written(c, sb_job_isset(c, o) ? o : SB_OPT(bs), w, sizeof(w)),
		       (unsigned long long)iv, hdr, sb_csum_info(s->verify)->name, SB_VTRAILER_LEN,
		       hdr, hdr * 8);
		return 1;
	}
	/* verify=pattern has no header: fio 3.33 fills each block with the
	 * pattern from its start and checks it interval by interval
	 * (verify.c:367-410, the phase carried on), so an interval that does
	 * not divide the block checks what checking the whole block checks:
	 * with one block size the block is the interval (fio's t/verify.py
	 * runs verify_interval=2222 and 3791 with bs=4096) */
	if (s->verify == SB_VT_PATTERN && s->bs_min[d] == s->bs_max[d] && !s->bssplit_n[d] &&
	    s->bs_min[d] % iv) {
		s->verify_interval = s->bs_min[d];
		iv = s->verify_interval;
	}
	for (unsigned i = 0; i < s->bssplit_n[d] + 2; i++) {
		uint64_t bs = i == 0 ? s->bs_min[d] : i == 1 ? s->bs_max[d] : s->bssplit[d][i - 2].bs;
		if (bs % iv == 0)
			continue;
		sb_err(sb_job_where(c, sb_job_isset(c, o) ? o : SB_OPT(bs), where, sizeof(where)),
		       "%s block size %llu is not a multiple of the verify interval (%llu bytes): "
		       "every block must hold whole intervals; use block sizes that are multiples of "
		       "verify_interval, or a smaller verify_interval", dn, (unsigned long long)bs,
		       (unsigned long long)iv);
		return 1;
	}
	if (hdr && s->verify_offset && (s->verify_offset % 8 ||
					s->verify_offset + hdr + SB_VTRAILER_LEN > iv)) {
		o = SB_OPT(verify_offset);
		sb_err(sb_job_where(c, o, where, sizeof(where)), "%s: the %u-byte header must fit between "
		       "it and the %u-byte trailer of each %llu-byte interval, at a multiple of 8: "
		       "use a multiple of 8 of at most %llu", written(c, o, w, sizeof(w)), hdr,
		       SB_VTRAILER_LEN, (unsigned long long)iv,
		       (unsigned long long)(iv - hdr - SB_VTRAILER_LEN));
		return 1;
	}
	return 0;
}

static unsigned check_modes(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], w[300];
	/* a read job checks against the writers' saved states anyway
	 * (run/vcheck.c sb_vcheck_load_known): fio's t/jobs/t0036, t0037 */
	if (s->verify_state_load && !s->verify_only && (s->rw & SB_RW_WRITE)) {
		const struct sb_option *o = SB_OPT(verify_state_load);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s: a saved verify state says what an earlier run wrote, which only a "
		       "verify_only=1 run or a read job checks: add verify_only=1, or drop "
		       "verify_state_load",
		       written(c, o, w, sizeof(w)));
		return 1;
	}
	if (s->verify_only && s->time_based && !s->verify_state_load) {
		const struct sb_option *o = SB_OPT(verify_only);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s with time_based: what a time-based run wrote depends on how fast it ran, "
		       "so it cannot be replayed: add verify_state_load=1 (the writing run saves its "
		       "state by default), or drop time_based", written(c, o, w, sizeof(w)));
		return 1;
	}
	return 0;
}

/* options of the verify family given without verify= */
static unsigned check_orphans(struct sb_jobctx *c)
{
	const struct sb_option *opts[] = { SB_OPT(verify_only), SB_OPT(verify_backlog),
					   SB_OPT(verify_state_load) };
	char where[SB_WHERE_MAX], w[300];
	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const struct sb_option *o = opts[i];
		const struct sb_optsrc *src = sb_job_src(c, o);
		if (!src->file || !strcmp(src->raw, "0"))
			continue;
		sb_err(sb_job_where(c, o, where, sizeof(where)), "%s has no effect without verify=: add "
		       "verify=crc32c (or another type), or drop it", written(c, o, w, sizeof(w)));
		return 1;
	}
	return 0;
}

unsigned sb_job_validate_verify(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], w[300];
	s->verify_pat_len = 0;
	s->verify_pat_off = -1;
	if (s->verify_pattern) {
		const char *why = parse_pattern(s->verify_pattern, s);
		if (why) {
			sb_err(sb_job_where(c, SB_OPT(verify_pattern), where, sizeof(where)), "%s: %s",
			       written(c, SB_OPT(verify_pattern), w, sizeof(w)), why);
			return 1;
		}
		if (!sb_job_isset(c, SB_OPT(verify))) /* fio: a pattern alone means verify=pattern */
			s->verify = SB_VT_PATTERN;
	}
	if (s->verify == SB_VT_NONE)
		return check_orphans(c);
	return check_type(c) || check_modes(c) || check_interval(c);
}
