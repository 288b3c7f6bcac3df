/* vblock.c: filling and checking verify= intervals (format in vblock.h).
 * The data is wyrand output (Wang Yi's generator: one 64x64->128 multiply
 * per 8 bytes, incompressible) seeded from the header's seed, so a failed
 * block can be rebuilt exactly without keeping a copy.  Checking is a
 * header/trailer comparison and one digest; only a failure pays for the
 * classification. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run/vblock.h"

#define HDR_FIXED 48u /* bytes of the header before the digest */

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8); /* little-endian hosts only (x86-64, arm64) */
	return v;
}

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline void st64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static inline void st32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static inline uint64_t fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	return k ^ (k >> 33);
}

uint64_t sb_vblock_seed(uint64_t base, uint64_t gen, uint64_t offset)
{
	return fmix64(base ^ fmix64(gen * 0x9e3779b97f4a7c15ull ^ fmix64(offset + 1)));
}

/* hash of the header's fixed fields */
static uint64_t hcheck_of(const uint8_t *h)
{
	uint64_t x = 0x5342563148434b31ull;
	for (unsigned i = 0; i < HDR_FIXED; i += 8)
		x = fmix64(x ^ ld64(h + i));
	return x;
}

static uint32_t tcheck_of(uint64_t offset, uint64_t gen, uint64_t hcheck, uint64_t len)
{
	return (uint32_t)fmix64(offset ^ fmix64(gen ^ fmix64(hcheck ^ len)));
}

/* wyrand bytes from seed: n a multiple of 8 */
static void fill_random(uint8_t *p, uint64_t n, uint64_t seed)
{
	uint64_t s = seed;
	for (uint64_t i = 0; i < n; i += 8) {
		s += 0xa0761d6478bd642full;
		unsigned __int128 m = (unsigned __int128)s * (s ^ 0xe7037ed1a0b428dbull);
		st64(p + i, (uint64_t)(m >> 64) ^ (uint64_t)m);
	}
}

static void fill_pattern(const struct sb_vfmt *f, uint8_t *p, uint64_t n, uint64_t offset)
{
	uint8_t pat[64];
	memcpy(pat, f->pat, f->patlen);
	if (f->patoff >= 0)
		st64(pat + f->patoff, offset);
	for (uint64_t i = 0; i < n; i += f->patlen)
		memcpy(p + i, pat, n - i < f->patlen ? n - i : f->patlen);
}

static void swap_hdr(const struct sb_vfmt *f, uint8_t *buf)
{
	uint8_t tmp[128];
	memcpy(tmp, buf, f->hdr);
	memmove(buf, buf + f->voff, f->hdr);
	memcpy(buf + f->voff, tmp, f->hdr);
}

static void digest(const struct sb_vfmt *f, const uint8_t *buf, uint8_t *out)
{
	sb_csum2(f->cs, buf, HDR_FIXED, buf + f->hdr, f->len - f->hdr, out);
}

void sb_vblock_fill(const struct sb_vfmt *f, uint8_t *buf, const struct sb_vid *id,
		    uint64_t time_ns)
{
	uint64_t L = f->len, H = f->hdr;
	if (f->type == SB_VT_PATTERN) {
		fill_pattern(f, buf, L, id->offset);
		return;
	}
	if (f->pat)
		fill_pattern(f, buf + H, L - H - SB_VTRAILER_LEN, id->offset);
	else
		fill_random(buf + H, L - H - SB_VTRAILER_LEN, id->seed);
	memset(buf, 0, H);
	st32(buf, SB_VMAGIC);
	buf[4] = (uint8_t)f->type;
	buf[6] = (uint8_t)H;
	buf[7] = (uint8_t)(H >> 8);
	st32(buf + 8, (uint32_t)L);
	buf[12] = (uint8_t)id->job;
	buf[13] = (uint8_t)(id->job >> 8);
	buf[14] = (uint8_t)id->thread;
	buf[15] = (uint8_t)(id->thread >> 8);
	st64(buf + 16, id->offset);
	st64(buf + 24, id->gen);
	st64(buf + 32, id->seed);
	st64(buf + 40, time_ns);
	uint64_t hc = hcheck_of(buf);
	st64(buf + H - 8, hc);
	uint8_t *t = buf + L - SB_VTRAILER_LEN;
	st32(t, SB_VTMAGIC);
	st32(t + 4, tcheck_of(id->offset, id->gen, hc, L));
	st64(t + 8, id->offset);
	st64(t + 16, id->gen);
	st64(t + 24, hc);
	if (sb_csum_info(f->type)->len)
		digest(f, buf, buf + HDR_FIXED);
	if (f->voff)
		swap_hdr(f, buf);
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static unsigned popdiff(const uint8_t *a, const uint8_t *b, unsigned n)
{
	unsigned d = 0;
	for (unsigned i = 0; i < n; i++)
		d += (unsigned)__builtin_popcount((unsigned)(a[i] ^ b[i]));
	return d;
}

static bool hdr_fields_valid(const struct sb_vfmt *f, const uint8_t *h)
{
	return ld32(h) == SB_VMAGIC && h[4] == f->type && (unsigned)(h[6] | h[7] << 8) == f->hdr &&
	       ld32(h + 8) == (uint32_t)f->len && ld64(h + f->hdr - 8) == hcheck_of(h);
}

/* the header's bytes between the digest and hcheck are zero: neither the
 * digest nor hcheck covers them, so they are checked as zeroes (4 bytes
 * written over them would otherwise go unseen: fio's t/verify.py mangles) */
static bool pad_zero(const struct sb_vfmt *f, const uint8_t *h)
{
	for (unsigned i = HDR_FIXED + sb_csum_info(f->type)->len; i + 8 < f->hdr; i++)
		if (h[i])
			return false;
	return true;
}

static bool hdr_valid(const struct sb_vfmt *f, const uint8_t *h)
{
	return hdr_fields_valid(f, h) && pad_zero(f, h);
}

static bool trl_valid(const struct sb_vfmt *f, const uint8_t *t)
{
	return ld32(t) == SB_VTMAGIC &&
	       ld32(t + 4) == tcheck_of(ld64(t + 8), ld64(t + 16), ld64(t + 24), f->len);
}

/* the header is damaged: does one flipped bit explain it? */
static bool hdr_one_bit(const struct sb_vfmt *f, const uint8_t *h)
{
	uint8_t c[128];
	memcpy(c, h, f->hdr);
	for (unsigned i = 0; i < f->hdr; i++) {
		if (i >= HDR_FIXED && i < HDR_FIXED + sb_csum_info(f->type)->len)
			continue; /* the digest: checked by the digest, not hcheck */
		for (unsigned b = 0; b < 8; b++) {
			c[i] ^= (uint8_t)(1u << b);
			bool ok = hdr_valid(f, c);
			c[i] ^= (uint8_t)(1u << b);
			if (ok)
				return true;
		}
	}
	return false;
}

static void say_id(char *s, size_t n, const char *what, uint64_t off, uint64_t gen,
		   unsigned job, unsigned thread)
{
	snprintf(s, n, "%s offset %" PRIu64 ", gen %" PRIu64 ", job %u thread %u", what, off, gen,
		 job, thread);
}

/* what was expected at want: one writer's block, or any writer's */
static void say_want(char *s, size_t n, const char *what, const struct sb_vid *want)
{
	if (want->any_writer)
		snprintf(s, n, "%s offset %" PRIu64 " (any writer's)", what, want->offset);
	else if (want->any_job)
		snprintf(s, n, "%s offset %" PRIu64 ", gen %" PRIu64 ", any job, thread %u", what,
			 want->offset, want->gen, want->thread);
	else
		say_id(s, n, what, want->offset, want->gen, want->job, want->thread);
}

static bool fail(enum sb_verify_kind *kind, enum sb_verify_kind k)
{
	*kind = k;
	return false;
}

static bool check_pattern(const struct sb_vfmt *f, const uint8_t *buf, const struct sb_vid *want,
			  enum sb_verify_kind *kind, char *expected, char *found, size_t n)
{
	uint8_t pat[64];
	memcpy(pat, f->pat, f->patlen);
	if (f->patoff >= 0)
		st64(pat + f->patoff, want->offset);
	for (uint64_t i = 0; i < f->len; i++) {
		if (buf[i] == pat[i % f->patlen])
			continue;
		snprintf(expected, n, "pattern byte 0x%02x at +%" PRIu64, pat[i % f->patlen], i);
		snprintf(found, n, "0x%02x", buf[i]);
		return fail(kind, all_zero(buf, f->len) ? SB_VFY_NEVER_WRITTEN : SB_VFY_CORRUPT);
	}
	return true;
}

/* a valid interval's header names want's offset, job, thread, generation,
 * write time and seed; else *kind and the texts */
static bool identity_ok(const struct sb_vfmt *f, const uint8_t *h, const struct sb_vid *want,
			enum sb_verify_kind *kind, char *expected, char *found, size_t n)
{
	uint64_t hoff = ld64(h + 16), hgen = ld64(h + 24);
	unsigned hjob = h[12] | h[13] << 8, hthr = h[14] | h[15] << 8;
	if (hoff != want->offset || (!want->any_writer && ((!want->any_job && hjob != want->job) ||
							       hthr != want->thread))) {
		say_want(expected, n, "block of", want);
		say_id(found, n, "valid block of", hoff, hgen, hjob, hthr);
		return fail(kind, SB_VFY_MISPLACED);
	}
	if (want->gen && hgen != want->gen) {
		say_id(expected, n, "generation at", want->offset, want->gen, want->job,
		       want->thread);
		say_id(found, n, hgen < want->gen ? "older block at" : "newer block at", hoff,
		       hgen, hjob, hthr);
		return fail(kind, hgen < want->gen ? SB_VFY_STALE : SB_VFY_MISPLACED);
	}
	if (want->gen && want->min_time && ld64(h + 40) < want->min_time) {
		say_id(expected, n, "block written by the last writing run at", want->offset,
		       want->gen, want->job, want->thread);
		snprintf(found, n, "an earlier run's block, stamped %.3f s before that run "
			 "began (a lost write)",
			 (double)(want->min_time - ld64(h + 40)) / 1e9);
		return fail(kind, SB_VFY_STALE);
	}
	if (f->check_seed && want->gen && ld64(h + 32) != want->seed) {
		snprintf(expected, n, "seed 0x%016" PRIx64 " (this job's, gen %" PRIu64 ")",
			 want->seed, want->gen);
		snprintf(found, n, "seed 0x%016" PRIx64 ": written by another run or job",
			 ld64(h + 32));
		return fail(kind, SB_VFY_MISPLACED);
	}
	return true;
}

bool sb_vblock_check(const struct sb_vfmt *f, uint8_t *buf, const struct sb_vid *want,
		     enum sb_verify_kind *kind, char *expected, char *found, size_t n)
{
	if (f->type == SB_VT_NULL)
		return true;
	if (f->type == SB_VT_PATTERN)
		return check_pattern(f, buf, want, kind, expected, found, n);
	if (f->voff)
		swap_hdr(f, buf);
	uint64_t L = f->len;
	const uint8_t *h = buf, *t = buf + L - SB_VTRAILER_LEN;
	bool hv = hdr_valid(f, h), tv = trl_valid(f, t);
	uint64_t hoff = ld64(h + 16), hgen = ld64(h + 24), hhc = ld64(h + f->hdr - 8);
	uint64_t toff = ld64(t + 8), tgen = ld64(t + 16), thc = ld64(t + 24);
	unsigned hjob = h[12] | h[13] << 8, hthr = h[14] | h[15] << 8;
	if (__builtin_expect(hv && tv && hoff == toff && hgen == tgen && hhc == thc, 1)) {
		unsigned dl = sb_csum_info(f->type)->len;
		if (dl) {
			uint8_t d[SB_CSUM_MAX];
			digest(f, buf, d);
			if (memcmp(d, h + HDR_FIXED, dl)) {
				char a[2 * SB_CSUM_MAX + 1] = "", b[2 * SB_CSUM_MAX + 1] = "";
				unsigned show = dl > 16 ? 16 : dl; /* the first bytes tell them apart */
				for (unsigned i = 0; i < show; i++) {
					sprintf(a + 2 * i, "%02x", h[HDR_FIXED + i]);
					sprintf(b + 2 * i, "%02x", d[i]);
				}
				snprintf(expected, n, "%s %s%s (gen %" PRIu64 ")",
					 sb_csum_info(f->type)->name, a, dl > show ? ".." : "", hgen);
				snprintf(found, n, "%s %s%s over the data read",
					 sb_csum_info(f->type)->name, b, dl > show ? ".." : "");
				return fail(kind, SB_VFY_CORRUPT);
			}
		}
		return identity_ok(f, h, want, kind, expected, found, n);
	}
	/* something is wrong: classify */
	if (all_zero(buf, L)) {
		say_want(expected, n, "block of", want);
		snprintf(found, n, "zeroes (%" PRIu64 " bytes)", L);
		return fail(kind, SB_VFY_NEVER_WRITTEN);
	}
	if (hv && tv) { /* both ends valid, from different writes */
		say_id(expected, n, "first part:", hoff, hgen, hjob, hthr);
		snprintf(found, n, "second part: offset %" PRIu64 ", gen %" PRIu64, toff, tgen);
		return fail(kind, SB_VFY_TORN);
	}
	if (hv) { /* the trailer is damaged: a few bits, or another write's bytes */
		uint8_t et[SB_VTRAILER_LEN];
		st32(et, SB_VTMAGIC);
		st32(et + 4, tcheck_of(hoff, hgen, hhc, L));
		st64(et + 8, hoff);
		st64(et + 16, hgen);
		st64(et + 24, hhc);
		unsigned d = popdiff(et, t, SB_VTRAILER_LEN);
		say_id(expected, n, "trailer of", hoff, hgen, hjob, hthr);
		snprintf(found, n, "%u bits differ in the trailer%s", d,
			 d <= 2 ? "" : all_zero(t, SB_VTRAILER_LEN) ? " (zeroes)" : " (other data)");
		return fail(kind, d <= 2 ? SB_VFY_CORRUPT : SB_VFY_TORN);
	}
	if (tv && hdr_fields_valid(f, h)) { /* only the unused bytes differ */
		say_id(expected, n, "header of", toff, tgen, want->job, want->thread);
		snprintf(found, n, "bytes written over the header's unused part (zeroes there)");
		return fail(kind, SB_VFY_CORRUPT);
	}
	if (tv) {
		bool flip = hdr_one_bit(f, h);
		say_id(expected, n, "header of", toff, tgen, want->job, want->thread);
		snprintf(found, n, "%s", flip ? "a header with one bit flipped" :
			 all_zero(h, f->hdr) ? "no header (zeroes)" : "no valid header (other data)");
		return fail(kind, flip ? SB_VFY_CORRUPT : SB_VFY_TORN);
	}
	say_want(expected, n, "block of", want);
	if (ld32(h) == SB_VMAGIC && ld32(h + 8) != (uint32_t)f->len) {
		snprintf(found, n, "a header of a %" PRIu32 "-byte interval: set verify_interval=%"
			 PRIu32 " as the writer had", ld32(h + 8), ld32(h + 8));
		return fail(kind, SB_VFY_NEVER_WRITTEN);
	}
	snprintf(found, n, "no storbench header or trailer (magic 0x%08x)", ld32(h));
	return fail(kind, SB_VFY_NEVER_WRITTEN);
}
