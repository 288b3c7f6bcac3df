/* optext.c: an option's value in job-file syntax, from the option table
 * (sb_option_text, see options.h): "4k", "1s", "randread", "4k-64k".  Equal
 * settings give equal text however they were written, so comparisons
 * (output/cmpopt.c) tell jobs apart by this text alone. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "parse/options.h"
#include "parse/value.h"

#define FIELD(s, off, type) ((const type *)((const char *)(s) + (off)))

/* 4096 -> "4k", 1536 -> "1536": the largest power-of-1024 unit that divides */
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

static void fmt_range(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	char a[24], b[24];
	fmt_size(lo, a, sizeof(a));
	fmt_size(hi, b, sizeof(b));
	if (lo == hi)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
}

/* "a,b,c" per direction, or one value when all three are equal */
static void fmt_dirs(const char v[SB_DDIR_N][64], char *buf, size_t len)
{
	if (!strcmp(v[0], v[1]) && !strcmp(v[1], v[2]))
		snprintf(buf, len, "%s", v[0]);
	else
		snprintf(buf, len, "%s,%s,%s", v[0], v[1], v[2]);
}

static void fmt_bssplit(const struct sb_jobspec *s, unsigned d, char *buf, size_t len)
{
	char a[24];
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < s->bssplit_n[d] && n < len; i++) {
		fmt_size(s->bssplit[d][i].bs, a, sizeof(a));
		n += (size_t)snprintf(buf + n, len - n, "%s%s/%g", i ? ":" : "", a, s->bssplit[d][i].pct);
	}
}

/* one direction of a split option; bs: the direction's block-size set */
static void fmt_part(const struct sb_option *o, const struct sb_jobspec *s, unsigned d, char *buf,
		     size_t len)
{
	uint64_t v = FIELD(s, o->off, uint64_t)[d];
	bool bs = o->off == offsetof(struct sb_jobspec, bs);
	if (o->type == SB_OT_BSSPLIT || (bs && s->bssplit_n[d]))
		fmt_bssplit(s, d, buf, len);
	else if (bs && s->bs_min[d] != s->bs_max[d])
		fmt_range(s->bs_min[d], s->bs_max[d], buf, len);
	else if (o->type == SB_OT_RANGE_SPLIT)
		fmt_range(v, FIELD(s, o->off2, uint64_t)[d], buf, len);
	else if (o->type == SB_OT_INT_SPLIT)
		snprintf(buf, len, "%" PRIu64, v);
	else
		fmt_size(v, buf, len);
}

const char *sb_option_enum_name(const struct sb_option *o, unsigned v)
{
	for (const struct sb_opt_enum *e = o->enums; e && e->name; e++)
		if (e->val == v && !e->alias)
			return e->name;
	return NULL;
}

/* rw=PATTERN:N, N as written to the spec (a count or bytes) */
static void fmt_rw_mod(const struct sb_jobspec *s, char *buf, size_t len)
{
	size_t n = strlen(buf);
	char v[32];
	if ((s->rw & SB_RW_RANDOM) && s->rw_seq_nr > 1) {
		snprintf(buf + n, len - n, ":%u", s->rw_seq_nr);
	} else if (!(s->rw & SB_RW_RANDOM) && s->rw_seq_add) {
		uint64_t a = s->rw_seq_add < 0 ? (uint64_t)-s->rw_seq_add : (uint64_t)s->rw_seq_add;
		fmt_size(a, v, sizeof(v));
		snprintf(buf + n, len - n, ":%s%s", s->rw_seq_add < 0 ? "-" : "", v);
	}
}

/* zoned:A/S:A/S[,...] (zoned_abs: sizes in bytes) */
static void fmt_zones(const struct sb_jobspec *s, enum sb_dist dist, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s:", sb_dist_name(dist));
	for (unsigned d = 0; d < SB_DDIR_N && n < len; d++) {
		if (!s->zone_n[d] || (d && s->zone_n[d] == s->zone_n[d - 1] &&
				      !memcmp(s->zones[d], s->zones[d - 1], s->zone_n[d] * sizeof(s->zones[d][0]))))
			continue;
		if (d)
			n += (size_t)snprintf(buf + n, len - n, ",");
		for (unsigned i = 0; i < s->zone_n[d] && n < len; i++) {
			char v[32];
			if (dist == SB_DIST_ZONED_ABS)
				fmt_size(s->zones[d][i].size, v, sizeof(v));
			else
				snprintf(v, sizeof(v), "%g", s->zones[d][i].size_pct);
			n += (size_t)snprintf(buf + n, len - n, "%s%g/%s", i ? ":" : "",
					      s->zones[d][i].access_pct, v);
		}
	}
}

static void fmt_enum(const struct sb_option *o, unsigned v, char *buf, size_t len)
{
	const char *name = sb_option_enum_name(o, v);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%x", v);
}

void sb_option_text(const struct sb_option *o, const struct sb_jobspec *s, char *buf, size_t len)
{
	char v[SB_DDIR_N][64];
	size_t n = 0;
	if (!len)
		return;
	buf[0] = '\0';
	switch (o->type) {
	case SB_OT_STR: {
		const char *str = *FIELD(s, o->off, char *);
		snprintf(buf, len, "%s", str ? str : "");
		break;
	}
	case SB_OT_NAME: snprintf(buf, len, "%.*s", SB_NAME_MAX, FIELD(s, o->off, char)); break;
	case SB_OT_ENGINE: snprintf(buf, len, "%.*s", SB_ENGINE_NAME_MAX, FIELD(s, o->off, char)); break;
	case SB_OT_SIZE:
		if ((o->flags & SB_OF_PCT) && *FIELD(s, o->off2, double) > 0)
			snprintf(buf, len, "%g%%", *FIELD(s, o->off2, double));
		else
			fmt_size(*FIELD(s, o->off, uint64_t), buf, len);
		break;
	case SB_OT_SIZE_RANGE:
		fmt_range(*FIELD(s, o->off, uint64_t), *FIELD(s, o->off2, uint64_t), buf, len);
		break;
	case SB_OT_SIZE_SPLIT: case SB_OT_INT_SPLIT: case SB_OT_RANGE_SPLIT: case SB_OT_BSSPLIT:
		for (unsigned d = 0; d < SB_DDIR_N; d++)
			fmt_part(o, s, d, v[d], sizeof(v[d]));
		fmt_dirs((const char(*)[64])v, buf, len);
		break;
	case SB_OT_TIME: fmt_time(*FIELD(s, o->off, uint64_t), buf, len); break;
	case SB_OT_UINT: {
		unsigned u = *FIELD(s, o->off, unsigned);
		snprintf(buf, len, "%u", (o->flags & SB_OF_INVERSE) ? (unsigned)o->max - u : u);
		break;
	}
	case SB_OT_INT: snprintf(buf, len, "%d", *FIELD(s, o->off, int)); break;
	case SB_OT_U64: snprintf(buf, len, "%" PRIu64, *FIELD(s, o->off, uint64_t)); break;
	case SB_OT_BOOL: {
		bool b = *FIELD(s, o->off, bool);
		snprintf(buf, len, "%d", ((o->flags & SB_OF_INVERSE) ? !b : b) ? 1 : 0);
		break;
	}
	case SB_OT_ENUM:
		fmt_enum(o, *FIELD(s, o->off, unsigned), buf, len);
		if (o->off == offsetof(struct sb_jobspec, rw))
			fmt_rw_mod(s, buf, len);
		break;
	case SB_OT_PCTL_LIST:
		for (unsigned i = 0; i < *FIELD(s, o->off2, unsigned) && i < SB_PCTL_MAX && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%g", i ? ":" : "",
					      FIELD(s, o->off, double)[i]);
		break;
	case SB_OT_DIST: {
		enum sb_dist d = *FIELD(s, o->off, enum sb_dist);
		const char *name = sb_dist_name(d);
		if (d == SB_DIST_RANDOM)
			snprintf(buf, len, "%s", name);
		else if (d == SB_DIST_ZONED || d == SB_DIST_ZONED_ABS)
			fmt_zones(s, d, buf, len);
		else if (name)
			snprintf(buf, len, "%s:%g", name, *FIELD(s, o->off2, double));
		else
			snprintf(buf, len, "%u:%g", (unsigned)d, *FIELD(s, o->off2, double));
		break;
	}
	case SB_OT_FLOAT: snprintf(buf, len, "%g", *FIELD(s, o->off, double)); break;
	}
}
