/* cmpopt.c: which options two job specs differ in, for the comparison table
 * (see compare.h).  Every option of struct sb_jobspec that changes what a job
 * does has a row below, formatted back into job-file syntax so that equal
 * settings compare equal however they were written ("4k" and "4096", an
 * explicit default and none).  Fields that only name or order a job (name,
 * description, file, line, stonewall, new_group, wait_for, groupid) and the
 * options echo have no row.  A field added to sb_jobspec needs a row here. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "output/compare.h"
#include "parse/options.h"

/* K_ENG: an engine's own option (engine_opts area), formatted by its table row */
enum kind { K_UINT, K_INT, K_U64, K_BOOL, K_SIZE, K_TIME, K_STR, K_CHARS, K_SIZE3, K_U64X3, K_FN, K_ENG };

typedef void (*fmt_fn)(const struct sb_jobspec *s, char *buf, size_t len);

struct cmp_opt {
	const char *name;
	enum kind kind;
	size_t off;
	fmt_fn fn;
	int qdepth;    /* a queue-depth option: no effect on synchronous engines */
};

static void fmt_size(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "kmgtp";
	int u = -1;
	while (v && v % 1024 == 0 && u + 1 < (int)sizeof(sfx) - 1) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, sfx[u]);
}

static void fmt_time(uint64_t us, char *buf, size_t len)
{
	if (us && us % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 "s", us / 1000000);
	else if (us && us % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "ms", us / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "us", us);
}

/* "a,b,c" per direction, or one value when all three are equal */
static void fmt_dirs(const char v[SB_DDIR_N][64], char *buf, size_t len)
{
	if (!strcmp(v[0], v[1]) && !strcmp(v[1], v[2]))
		snprintf(buf, len, "%s", v[0]);
	else
		snprintf(buf, len, "%s,%s,%s", v[0], v[1], v[2]);
}

static void fmt_rw(const struct sb_jobspec *s, char *buf, size_t len)
{
	unsigned m = s->rw & (SB_RW_READ | SB_RW_WRITE | SB_RW_TRIM);
	const char *base = m == SB_RW_READ ? "read" : m == SB_RW_WRITE ? "write"
			 : m == SB_RW_TRIM ? "trim" : m == (SB_RW_READ | SB_RW_WRITE) ? "rw"
			 : m == (SB_RW_WRITE | SB_RW_TRIM) ? "trimwrite" : NULL;
	if (base)
		snprintf(buf, len, "%s%s", s->rw & SB_RW_RANDOM ? "rand" : "", base);
	else
		snprintf(buf, len, "0x%x", s->rw);
}

/* bs, bsrange and bssplit as one option: what sizes the job's I/Os have */
static void fmt_bs(const struct sb_jobspec *s, char *buf, size_t len)
{
	char v[SB_DDIR_N][64], a[24], b[24];
	for (int d = 0; d < SB_DDIR_N; d++) {
		size_t n = 0;
		v[d][0] = 0;
		for (unsigned i = 0; i < s->bssplit_n[d] && n < sizeof(v[d]); i++) {
			fmt_size(s->bssplit[d][i].bs, a, sizeof(a));
			n += (size_t)snprintf(v[d] + n, sizeof(v[d]) - n, "%s%s/%g", i ? ":" : "", a,
					      s->bssplit[d][i].pct);
		}
		if (s->bssplit_n[d])
			continue;
		fmt_size(s->bs_min[d], a, sizeof(a));
		fmt_size(s->bs_max[d], b, sizeof(b));
		if (s->bs_min[d] != s->bs_max[d])
			snprintf(v[d], sizeof(v[d]), "%s-%s", a, b);
		else
			fmt_size(s->bs[d], v[d], sizeof(v[d]));
	}
	fmt_dirs((const char (*)[64])v, buf, len);
}

static void fmt_filesize(const struct sb_jobspec *s, char *buf, size_t len)
{
	char a[24], b[24];
	fmt_size(s->filesize_min, a, sizeof(a));
	fmt_size(s->filesize_max, b, sizeof(b));
	if (s->filesize_min == s->filesize_max)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
}

/* defaults to iodepth: written "iodepth" then, so that changing iodepth
 * alone is one option, not two */
static void fmt_complete_max(const struct sb_jobspec *s, char *buf, size_t len)
{
	if (s->iodepth_batch_complete_max == s->iodepth)
		snprintf(buf, len, "iodepth");
	else
		snprintf(buf, len, "%u", s->iodepth_batch_complete_max);
}

static void fmt_dist(const struct sb_jobspec *s, char *buf, size_t len)
{
	static const char *const names[] = { "random", "zipf", "pareto", "normal" };
	unsigned k = (unsigned)s->random_distribution;
	if (k == SB_DIST_RANDOM)
		snprintf(buf, len, "random");
	else if (k < sizeof(names) / sizeof(names[0]))
		snprintf(buf, len, "%s:%g", names[k], s->dist_param);
	else
		snprintf(buf, len, "%u:%g", k, s->dist_param);
}

static void fmt_fallocate(const struct sb_jobspec *s, char *buf, size_t len)
{
	static const char *const names[] = { "none", "posix", "keep", "truncate" };
	unsigned k = (unsigned)s->fallocate;
	snprintf(buf, len, "%s", k < sizeof(names) / sizeof(names[0]) ? names[k] : "?");
}

static void fmt_pctl(const struct sb_jobspec *s, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < s->percentile_n && i < SB_PCTL_MAX && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%g", i ? ":" : "", s->percentile_list[i]);
}

#define OPT(n, k, field) { n, k, offsetof(struct sb_jobspec, field), NULL, 0 }
#define QOPT(n, k, field) { n, k, offsetof(struct sb_jobspec, field), NULL, 1 }
#define FN(n, f, q) { n, K_FN, 0, f, q }
#define ENG(n) { n, K_ENG, 0, NULL, 0 }

static const struct cmp_opt opts[] = {
	OPT("filename", K_STR, filename),
	OPT("directory", K_STR, directory),
	OPT("nrfiles", K_UINT, nrfiles),
	FN("filesize", fmt_filesize, 0),
	OPT("size", K_SIZE, size),
	OPT("io_size", K_SIZE, io_size),
	OPT("offset", K_SIZE, offset),
	FN("rw", fmt_rw, 0),
	OPT("rwmixread", K_UINT, rwmixread),
	FN("bs", fmt_bs, 0),
	OPT("blockalign", K_SIZE3, blockalign),
	OPT("numjobs", K_UINT, numjobs),
	OPT("thread", K_BOOL, thread),
	OPT("ioengine", K_CHARS, ioengine),
	QOPT("iodepth", K_UINT, iodepth),
	QOPT("iodepth_batch_submit", K_UINT, iodepth_batch_submit),
	QOPT("iodepth_batch_complete_min", K_UINT, iodepth_batch_complete_min),
	FN("iodepth_batch_complete_max", fmt_complete_max, 1),
	OPT("direct", K_BOOL, direct),
	OPT("fsync", K_UINT, fsync),
	OPT("fdatasync", K_UINT, fdatasync),
	OPT("end_fsync", K_BOOL, end_fsync),
	ENG("userspace_reap"),
	ENG("fixedbufs"),
	ENG("registerfiles"),
	ENG("sqthread_poll"),
	ENG("sqthread_poll_cpu"),
	ENG("hipri"),
	ENG("nonvectored"),
	OPT("runtime", K_TIME, runtime_us),
	OPT("time_based", K_BOOL, time_based),
	OPT("ramp_time", K_TIME, ramp_time_us),
	OPT("startdelay", K_TIME, startdelay_us),
	OPT("loops", K_UINT, loops),
	OPT("group_reporting", K_BOOL, group_reporting),
	OPT("randrepeat", K_BOOL, randrepeat),
	OPT("randseed", K_U64, randseed),
	OPT("norandommap", K_BOOL, norandommap),
	FN("random_distribution", fmt_dist, 0),
	OPT("rate", K_SIZE3, rate),
	OPT("rate_iops", K_U64X3, rate_iops),
	OPT("thinktime", K_TIME, thinktime_us),
	OPT("thinktime_spin", K_TIME, thinktime_spin_us),
	OPT("thinktime_blocks", K_UINT, thinktime_blocks),
	OPT("unlink", K_BOOL, unlink),
	FN("fallocate", fmt_fallocate, 0),
	OPT("allow_mounted_write", K_BOOL, allow_mounted_write),
	FN("percentile_list", fmt_pctl, 0),
	OPT("clat_percentiles", K_BOOL, clat_percentiles),
	OPT("lat_percentiles", K_BOOL, lat_percentiles),
	OPT("kb_base", K_UINT, kb_base),
	OPT("unit_base", K_UINT, unit_base),
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static void fmt_array(const struct cmp_opt *o, const uint64_t *a, char *buf, size_t len)
{
	char v[SB_DDIR_N][64];
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (o->kind == K_SIZE3)
			fmt_size(a[d], v[d], sizeof(v[d]));
		else
			snprintf(v[d], sizeof(v[d]), "%" PRIu64, a[d]);
	}
	fmt_dirs((const char (*)[64])v, buf, len);
}

static void fmt_opt(const struct cmp_opt *o, const struct sb_jobspec *s, char *buf, size_t len)
{
	const char *p = (const char *)s + o->off;
	const char *str;
	uint64_t u;
	unsigned ui;
	int i;
	bool b;

	switch (o->kind) {
	case K_UINT: memcpy(&ui, p, sizeof(ui)); snprintf(buf, len, "%u", ui); break;
	case K_INT: memcpy(&i, p, sizeof(i)); snprintf(buf, len, "%d", i); break;
	case K_BOOL: memcpy(&b, p, sizeof(b)); snprintf(buf, len, "%d", b ? 1 : 0); break;
	case K_U64: memcpy(&u, p, sizeof(u)); snprintf(buf, len, "%" PRIu64, u); break;
	case K_SIZE: memcpy(&u, p, sizeof(u)); fmt_size(u, buf, len); break;
	case K_TIME: memcpy(&u, p, sizeof(u)); fmt_time(u, buf, len); break;
	case K_STR:
		memcpy(&str, p, sizeof(str));
		snprintf(buf, len, "%s", str ? str : "");
		break;
	case K_CHARS: snprintf(buf, len, "%.*s", SB_ENGINE_NAME_MAX, p); break;
	case K_SIZE3:
	case K_U64X3: {
		uint64_t a[SB_DDIR_N];
		memcpy(a, p, sizeof(a));
		fmt_array(o, a, buf, len);
		break;
	}
	case K_FN: o->fn(s, buf, len); break;
	case K_ENG: {
		const struct sb_option *r = sb_option_find(o->name);
		if (r)
			sb_option_format(r, s, buf, len);
		else
			snprintf(buf, len, "%s", "");
		break;
	}
	}
}

/* engines whose queue() always completes: the queue depth does nothing */
int sb_cmp_sync_engine(const struct sb_jobspec *s)
{
	static const char *const names[] = { "sync", "psync", "mmap", "null" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s->ioengine, names[i]))
			return 1;
	return 0;
}

unsigned sb_cmp_diff(const struct sb_jobspec *a, const struct sb_jobspec *b, const char **first)
{
	char va[SB_CMP_VALUE_MAX], vb[SB_CMP_VALUE_MAX];
	int no_qdepth = sb_cmp_sync_engine(a) || sb_cmp_sync_engine(b);
	unsigned n = 0;
	if (first)
		*first = NULL;
	for (size_t k = 0; k < NOPTS; k++) {
		if (opts[k].qdepth && no_qdepth)
			continue;
		fmt_opt(&opts[k], a, va, sizeof(va));
		fmt_opt(&opts[k], b, vb, sizeof(vb));
		if (strcmp(va, vb)) {
			if (!n && first)
				*first = opts[k].name;
			n++;
		}
	}
	return n;
}

char *sb_cmp_value(const struct sb_jobspec *s, const char *name, char *buf, size_t len)
{
	if (len)
		buf[0] = 0;
	for (size_t k = 0; k < NOPTS && len; k++)
		if (!strcmp(opts[k].name, name))
			fmt_opt(&opts[k], s, buf, len);
	return buf;
}

unsigned sb_cmp_nopts(void)
{
	return (unsigned)NOPTS;
}

const char *sb_cmp_opt_name(unsigned k)
{
	return k < NOPTS ? opts[k].name : NULL;
}

bool sb_cmp_opt_qdepth(unsigned k)
{
	return k < NOPTS && opts[k].qdepth;
}

/* FNV-1a over the text, then splitmix64's finalizer to spread the bits */
static uint64_t hash_str(const char *v)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *v; v++)
		h = (h ^ (unsigned char)*v) * 0x100000001b3ull;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

void sb_cmp_hashes(const struct sb_jobspec *s, uint64_t *h)
{
	char v[SB_CMP_VALUE_MAX];
	int sync = sb_cmp_sync_engine(s);
	for (size_t k = 0; k < NOPTS; k++) {
		if (opts[k].qdepth && sync) {
			h[k] = 0;
			continue;
		}
		fmt_opt(&opts[k], s, v, sizeof(v));
		h[k] = hash_str(v);
	}
}
