/* optset.c: storing option values into a struct sb_jobspec, driven by the
 * option table: one setter per value type, defaults, copying and freeing the
 * strings a spec owns. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/expr.h"
#include "parse/ini.h"
#include "parse/options.h"
#include "parse/optsize.h"
#include "parse/parse.h"
#include "parse/value.h"

_Static_assert(SB_VERR_LEN >= SB_EXPR_ERR_LEN, "lib/expr.h writes SB_EXPR_ERR_LEN bytes of err");

_Static_assert(sizeof(enum sb_fallocate) == sizeof(unsigned), "enum fields are stored as unsigned");
_Static_assert(sizeof(enum sb_dist) == sizeof(unsigned), "enum fields are stored as unsigned");

#define FIELD(s, off, type) ((type *)((char *)(s) + (off)))

static int set_engine(struct sb_jobspec *s, size_t off, const char *val, char *err)
{
	char names[160];
	sb_parse_engine_names(names, sizeof(names));
	const struct sb_parse_engine *e = sb_parse_engine_find(val);
	if (e && !e->package) {
		snprintf(FIELD(s, off, char), SB_ENGINE_NAME_MAX, "%s", val);
		return 0;
	}
	const char *pkg = e ? e->package : NULL;
	if (pkg)
		snprintf(err, SB_VERR_LEN, "engine '%s' is not built into this storbench: install %s "
			 "and re-run ./configure (built engines: %s)", val, pkg, names);
	else
		snprintf(err, SB_VERR_LEN, "unknown engine '%s': expected one of %s", val, names);
	return -EINVAL;
}

static int set_text(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	if (o->type == SB_OT_ENGINE)
		return set_engine(s, o->off, val, err);
	if (o->type == SB_OT_NAME) {
		if (!*val || strlen(val) >= SB_NAME_MAX) {
			snprintf(err, SB_VERR_LEN, "expected a name of 1 to %d characters", SB_NAME_MAX - 1);
			return -EINVAL;
		}
		snprintf(FIELD(s, o->off, char), SB_NAME_MAX, "%s", val);
		return 0;
	}
	char *dup = NULL;
	if (*val && !(dup = strdup(val))) {
		snprintf(err, SB_VERR_LEN, "out of memory");
		return -ENOMEM;
	}
	char **field = FIELD(s, o->off, char *);
	free(*field);
	*field = dup;
	return 0;
}

/* rw=PATTERN:N: N is a byte count (sequential: skipped after each I/O,
 * negative: backwards) or a count (random: I/Os per random offset), as fio */
static int set_rw(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	char pat[64];
	const char *colon = strchr(val, ':');
	size_t n = strlen(val) - strlen(colon);
	snprintf(pat, sizeof(pat), "%.*s", (int)(n < sizeof(pat) ? n : sizeof(pat) - 1), val);
	for (const struct sb_opt_enum *e = o->enums; e->name; e++) {
		if (strcasecmp(e->name, pat))
			continue;
		const char *m = colon + 1;
		while (*m == ' ' || *m == '\t')
			m++;
		int64_t nr = 0;
		uint64_t add = 0;
		char verr[SB_VERR_LEN];
		if (e->val & SB_RW_RANDOM) {
			if (sb_parse_int(m, 0, UINT32_MAX, &nr, verr)) {
				snprintf(err, SB_VERR_LEN, "invalid offset modifier '%s' in '%s': a random "
					 "pattern takes the I/Os per random offset, e.g. %s:8", m, val, pat);
				return -EINVAL;
			}
		} else if (sb_parse_size(*m == '-' ? m + 1 : m, s->kb_base ? s->kb_base : 1024, &add,
					 verr) || add > INT64_MAX) {
			snprintf(err, SB_VERR_LEN, "invalid offset modifier '%s' in '%s': a sequential "
				 "pattern takes the bytes to skip after each I/O, e.g. %s:4k", m, val, pat);
			return -EINVAL;
		}
		s->rw = e->val;
		s->rw_seq_nr = (e->val & SB_RW_RANDOM) ? (unsigned)nr : 1;
		s->rw_seq_add = *m == '-' ? -(int64_t)add : (int64_t)add;
		return 0;
	}
	char acc[SB_VERR_LEN - 64];
	sb_option_accepts(o, acc, sizeof(acc));
	snprintf(err, SB_VERR_LEN, "invalid value '%s': expected %.150s, optionally with :N", val, acc);
	return -EINVAL;
}

/* iomem=KIND:FILE: a file-backed mapping, for the mmap kinds only (fio's
 * mmap, mmaphuge and mmapshared take a file; the others do not) */
static int set_iomem_file(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	const char *colon = strchr(val, ':'), *file = colon + 1;
	size_t n = (size_t)(colon - val);
	for (const struct sb_opt_enum *e = o->enums; e->name; e++) {
		if (strlen(e->name) != n || strncasecmp(e->name, val, n))
			continue;
		if (e->val != SB_IOMEM_MMAP && e->val != SB_IOMEM_MMAPHUGE && e->val != SB_IOMEM_MMAPSHARED)
			break;
		if (!*file || strlen(file) >= sizeof(s->iomem_file)) {
			snprintf(err, SB_VERR_LEN, "invalid value '%.100s': the file after ':' must be 1 to "
				 "%zu characters, e.g. mmaphuge:/dev/hugepages/sbbuf", val,
				 sizeof(s->iomem_file) - 1);
			return -EINVAL;
		}
		s->iomem = e->val;
		snprintf(s->iomem_file, sizeof(s->iomem_file), "%s", file);
		return 0;
	}
	snprintf(err, SB_VERR_LEN, "invalid value '%.100s': only mmap, mmaphuge and mmapshared take a "
		 "file (KIND:FILE, e.g. mmaphuge:/dev/hugepages/sbbuf)", val);
	return -EINVAL;
}

static int set_enum(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	if (o->off == offsetof(struct sb_jobspec, iomem)) {
		s->iomem_file[0] = 0;
		if (strchr(val, ':'))
			return set_iomem_file(o, s, val, err);
	}
	if (o->off == offsetof(struct sb_jobspec, rw)) {
		s->rw_seq_nr = 1;
		s->rw_seq_add = 0;
		if (strchr(val, ':'))
			return set_rw(o, s, val, err);
	}
	for (const struct sb_opt_enum *e = o->enums; e->name; e++) {
		if (!strcasecmp(e->name, val)) {
			memcpy(FIELD(s, o->off, unsigned), &e->val, sizeof(unsigned));
			return 0;
		}
	}
	char acc[SB_VERR_LEN - 64];
	sb_option_accepts(o, acc, sizeof(acc));
	snprintf(err, SB_VERR_LEN, "invalid value '%s': expected %s", val, acc);
	return -EINVAL;
}

static int set_float(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	char *end;
	errno = 0;
	double v = strtod(val, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if ((end == val || *end) && o->unit && !strcmp(o->unit, "bytes")) {
		uint64_t sz; /* a byte count may also be written as a size: 140m */
		char serr[SB_VERR_LEN];
		if (!sb_parse_size(val, s->kb_base ? s->kb_base : 1024, &sz, serr)) {
			v = (double)sz;
			end = (char *)"";
		}
	}
	if (end == val || *end || errno || v != v || v < (double)o->min ||
	    (o->max && v > (double)o->max)) {
		char acc[96];
		sb_option_accepts(o, acc, sizeof(acc));
		if (o->max)
			snprintf(err, SB_VERR_LEN, "invalid number '%s': expected a number from %lld to %lld",
				 val, (long long)o->min, (long long)o->max);
		else
			snprintf(err, SB_VERR_LEN, "invalid number '%s': expected %s", val, acc);
		return -EINVAL;
	}
	*FIELD(s, o->off, double) = v;
	return 0;
}

static int set_number(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	unsigned kb = s->kb_base ? s->kb_base : 1024;
	int64_t i;
	bool b;
	if (o->type == SB_OT_ENUM)
		return set_enum(o, s, val, err);
	if (o->type == SB_OT_SIZE && sb_optsize_zones(o, s, val))
		return 0;
	char xv[64]; /* arithmetic (lib/expr.h) */
	enum sb_expr_kind xk = o->type == SB_OT_SIZE ? SB_EXPR_SIZE : o->type == SB_OT_TIME ?
		SB_EXPR_TIME : o->type == SB_OT_FLOAT ? SB_EXPR_FLOAT : SB_EXPR_INT;
	int xr = o->type == SB_OT_BOOL ? 0 :
		sb_expr_eval(val, xk, kb, o->unit_us, xv, sizeof(xv), err);
	if (xr < 0)
		return xr;
	val = xr ? xv : val;
	switch (o->type) {
	case SB_OT_SIZE: {
		uint64_t v;
		if ((o->flags & SB_OF_PCT) && strchr(val, '%'))
			return sb_optsize_pct(o, s, val, err);
		if (sb_parse_size(val, kb, &v, err))
			return -EINVAL;
		if (v < (uint64_t)o->min) {
			snprintf(err, SB_VERR_LEN, "'%s' is too small: expected at least %lld byte, as a "
				 "size such as 4k or 1g", val, (long long)o->min);
			return -EINVAL;
		}
		*FIELD(s, o->off, uint64_t) = v;
		if (o->flags & SB_OF_PCT)
			*FIELD(s, o->off2, double) = 0;
		if (o->flags & SB_OF_ZONES)
			*FIELD(s, sb_optsize_zone_off(o), uint64_t) = 0;
		return 0;
	}
	case SB_OT_TIME:
		return sb_parse_time(val, o->unit_us, FIELD(s, o->off, uint64_t), err);
	case SB_OT_UINT:
		if (sb_parse_int(val, o->min, o->max, &i, err))
			return -EINVAL;
		*FIELD(s, o->off, unsigned) = (unsigned)((o->flags & SB_OF_INVERSE) ? o->max - i : i);
		return 0;
	case SB_OT_INT:
		if (sb_parse_int(val, o->min, o->max, &i, err))
			return -EINVAL;
		*FIELD(s, o->off, int) = (int)i;
		return 0;
	case SB_OT_U64:
		if (sb_parse_int(val, o->min, o->max, &i, err))
			return -EINVAL;
		*FIELD(s, o->off, uint64_t) = (uint64_t)i;
		return 0;
	case SB_OT_BOOL:
		if (sb_parse_bool(val, &b, err))
			return -EINVAL;
		*FIELD(s, o->off, bool) = (o->flags & SB_OF_INVERSE) ? !b : b;
		return 0;
	case SB_OT_FLOAT:
		return set_float(o, s, val, err);
	default:
		return set_enum(o, s, val, err);
	}
}

/* one side of a fio-read range: a size, then nothing or a '/' or ':' tail */
static int fio_range_side(const char *s, size_t n, unsigned kb_base, uint64_t *out)
{
	char buf[64], err[SB_VERR_LEN];
	size_t k = 0;
	while (k < n && s[k] != '/' && s[k] != ':')
		k++;
	if (!k || k >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, k);
	buf[k] = '\0';
	return sb_parse_size(buf, kb_base, out, err);
}

/* A block-size range as fio reads bsrange: LOW-HIGH or LOW:HIGH, split at the
 * first '-' (else the first ':'), and on each side the size up to a '/' or
 * ':' (fio reads a number and its unit and ignores the rest): the bssplit-
 * like "512/25:1k:25:2k:25:4k/25" of fio's t0023 is 512-1k, "1k-2k/8k-16k" is
 * 1k-2k, as fio 3.33 runs them (parse.c, FIO_OPT_RANGE). */
static int range_fio(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi, char *err)
{
	if (!sb_parse_size_range(s, kb_base, lo, hi, err))
		return 0;
	const char *p = s + strspn(s, " \t");
	const char *sep = strchr(p, '-');
	if (!sep)
		sep = strchr(p, ':');
	if (!sep || !strpbrk(p, "/:") ||
	    fio_range_side(p, (size_t)(sep - p), kb_base, lo) ||
	    fio_range_side(sep + 1, strlen(sep + 1), kb_base, hi))
		return -EINVAL; /* err: sb_parse_size_range's */
	if (*lo > *hi) {
		uint64_t t = *lo;
		*lo = *hi;
		*hi = t;
	}
	return 0;
}

/* one direction's part of a split option */
static int set_part(const struct sb_option *o, struct sb_jobspec *s, enum sb_ddir d,
		    const char *part, char *err)
{
	unsigned kb = s->kb_base ? s->kb_base : 1024;
	uint64_t lo, hi;
	int64_t i;
	char xv[64]; /* arithmetic (lib/expr.h) */
	int xr = o->type == SB_OT_SIZE_SPLIT || o->type == SB_OT_INT_SPLIT ?
		sb_expr_eval(part, o->type == SB_OT_SIZE_SPLIT ? SB_EXPR_SIZE : SB_EXPR_INT, kb, 1,
			     xv, sizeof(xv), err) : 0;
	if (xr < 0)
		return xr;
	part = xr ? xv : part;
	switch (o->type) {
	case SB_OT_SIZE_SPLIT:
		if (sb_parse_size(part, kb, &lo, err))
			return -EINVAL;
		if (lo < (uint64_t)o->min) {
			snprintf(err, SB_VERR_LEN, "'%s' is too small: expected at least %lld byte, "
				 "e.g. 4k", part, (long long)o->min);
			return -EINVAL;
		}
		FIELD(s, o->off, uint64_t)[d] = lo;
		return 0;
	case SB_OT_INT_SPLIT:
		if (sb_parse_int(part, 0, o->max ? o->max : INT64_MAX, &i, err))
			return -EINVAL;
		FIELD(s, o->off, uint64_t)[d] = (uint64_t)i;
		return 0;
	case SB_OT_RANGE_SPLIT:
		if (range_fio(part, kb, &lo, &hi, err))
			return -EINVAL;
		if (!lo) {
			snprintf(err, SB_VERR_LEN, "range '%s' starts at 0: block sizes are at least 1 "
				 "byte, e.g. 4k-64k", part);
			return -EINVAL;
		}
		FIELD(s, o->off, uint64_t)[d] = lo;
		FIELD(s, o->off2, uint64_t)[d] = hi;
		return 0;
	default: {
		struct sb_bssplit tmp[SB_BSSPLIT_MAX];
		unsigned n;
		if (sb_parse_bssplit_one(part, kb, tmp, &n, err))
			return -EINVAL;
		memcpy(s->bssplit[d], tmp, n * sizeof(tmp[0]));
		s->bssplit_n[d] = n;
		return 0;
	}
	}
}

/* random_distribution=zoned(_abs):...: the zones parsed into a scratch
 * table, then kept out of line, zone_n[d] entries per direction */
static int set_zones(struct sb_jobspec *s, const char *val, unsigned kb, enum sb_dist *dist,
		     char *err)
{
	struct sb_zone (*tmp)[SB_ZONES_MAX] = calloc(SB_DDIR_N, sizeof(*tmp));
	struct sb_zone *kept[SB_DDIR_N] = { NULL };
	unsigned n[SB_DDIR_N] = { 0 };
	enum sb_dist dd = *dist;
	int rc = tmp ? sb_parse_zones(val, kb, &dd, tmp, n, err) : -ENOMEM;
	for (unsigned d = 0; !rc && d < SB_DDIR_N; d++)
		if (n[d] && !(kept[d] = malloc(n[d] * sizeof(**kept))))
			rc = -ENOMEM;
		else if (n[d])
			memcpy(kept[d], tmp[d], n[d] * sizeof(**kept));
	free(tmp);
	if (rc == -ENOMEM)
		snprintf(err, SB_VERR_LEN, "out of memory");
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		if (rc) {
			free(kept[d]);
			continue;
		}
		free(s->zones[d]);
		s->zones[d] = kept[d];
		s->zone_n[d] = n[d];
	}
	if (!rc)
		*dist = dd;
	return rc;
}

static int set_split(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err)
{
	char buf[1024], v[1024];
	const char *part[SB_DDIR_N];
	snprintf(v, sizeof(v), "%s", val);
	if (sb_split_ddir(v, buf, sizeof(buf), part, err))
		return -EINVAL;
	for (unsigned d = 0; d < SB_DDIR_N; d++)
		if (part[d] && (d == 0 || part[d] != part[d - 1]) && set_part(o, s, d, part[d], err))
			return -EINVAL;
	/* a value repeated for later directions was parsed once: copy it */
	for (unsigned d = 1; d < SB_DDIR_N; d++) {
		if (!part[d] || part[d] != part[d - 1])
			continue;
		if (o->type == SB_OT_BSSPLIT) {
			memcpy(s->bssplit[d], s->bssplit[d - 1], sizeof(s->bssplit[d]));
			s->bssplit_n[d] = s->bssplit_n[d - 1];
		} else {
			FIELD(s, o->off, uint64_t)[d] = FIELD(s, o->off, uint64_t)[d - 1];
			if (o->off2)
				FIELD(s, o->off2, uint64_t)[d] = FIELD(s, o->off2, uint64_t)[d - 1];
		}
	}
	return 0;
}

/* fio: a bare write_bw_log, write_iops_log, write_lat_log or write_hist_log
 * names its logs after the job (fio init.c, make_log_name): the value is
 * SB_LOG_JOBNAME, which sb_spec_derive replaces with the job's name (a
 * [global] one names each job's logs after that job) */
static bool bare_names_log(const struct sb_option *o)
{
	return o->type == SB_OT_STR &&
	       (o->off == offsetof(struct sb_jobspec, write_bw_log) ||
		o->off == offsetof(struct sb_jobspec, write_iops_log) ||
		o->off == offsetof(struct sb_jobspec, write_lat_log) ||
		o->off == offsetof(struct sb_jobspec, write_hist_log));
}

int sb_option_set(const struct sb_option *o, struct sb_jobspec *s, const char *val, bool bare,
		  char *err)
{
	unsigned kb = s->kb_base ? s->kb_base : 1024;
	if (bare && bare_names_log(o))
		return set_text(o, s, SB_LOG_JOBNAME, err);
	if (bare) {
		if (o->type != SB_OT_BOOL) {
			char acc[SB_VERR_LEN - 64];
			sb_option_accepts(o, acc, sizeof(acc));
			snprintf(err, SB_VERR_LEN, "needs a value: write %s=<%s>", o->name, acc);
			return -EINVAL;
		}
		val = "1";
	}
	char *kwv = NULL; /* $ncpus, $pagesize, $mb_memory (lib/expr.h) */
	int kr = sb_expr_keywords(val, &kwv, err);
	if (kr) {
		kr = kr < 0 ? kr : sb_option_set(o, s, kwv, false, err);
		free(kwv);
		return kr;
	}
	switch (o->type) {
	case SB_OT_STR:
	case SB_OT_NAME:
	case SB_OT_ENGINE:
		return set_text(o, s, val, err);
	case SB_OT_SIZE_RANGE: {
		uint64_t lo, hi;
		if (sb_parse_size_range(val, kb, &lo, &hi, err))
			return -EINVAL;
		if (!lo) {
			snprintf(err, SB_VERR_LEN, "'%s' is too small: file sizes are at least 1 byte, "
				 "e.g. 1g or 1g-4g", val);
			return -EINVAL;
		}
		*FIELD(s, o->off, uint64_t) = lo;
		*FIELD(s, o->off2, uint64_t) = hi;
		return 0;
	}
	case SB_OT_SIZE_SPLIT:
	case SB_OT_INT_SPLIT:
	case SB_OT_RANGE_SPLIT:
	case SB_OT_BSSPLIT:
		return set_split(o, s, val, err);
	case SB_OT_PCTL_LIST: {
		double tmp[SB_PCTL_MAX];
		unsigned n;
		if (sb_parse_pctl_list(val, tmp, SB_PCTL_MAX, &n, err))
			return -EINVAL;
		memcpy(FIELD(s, o->off, double), tmp, n * sizeof(double));
		*FIELD(s, o->off2, unsigned) = n;
		return 0;
	}
	case SB_OT_DIST:
		if (!strncasecmp(val + strspn(val, " \t"), "zoned", 5) && strchr(val, ':'))
			return set_zones(s, val, kb, FIELD(s, o->off, enum sb_dist), err);
		return sb_parse_distribution(val, FIELD(s, o->off, enum sb_dist),
					     FIELD(s, o->off2, double), err);
	default:
		return set_number(o, s, val, err);
	}
}

int sb_spec_defaults(struct sb_jobspec *s)
{
	char err[SB_VERR_LEN];
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		if (o->def && sb_option_set(o, s, o->def, false, err)) {
			fprintf(stderr, "storbench: bug: default of %s: %s\n", o->name, err);
			return -EINVAL;
		}
	}
	return 0;
}

void sb_spec_release(struct sb_jobspec *s)
{
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		if (o->type == SB_OT_STR) {
			free(*FIELD(s, o->off, char *));
			*FIELD(s, o->off, char *) = NULL;
		}
	}
	for (unsigned i = 0; i < s->nopts; i++) {
		free(s->opts[i].key);
		free(s->opts[i].value);
	}
	free(s->opts);
	s->opts = NULL;
	s->nopts = 0;
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		free(s->zones[d]);
		s->zones[d] = NULL;
		s->zone_n[d] = 0;
	}
}

int sb_spec_copy(struct sb_jobspec *dst, const struct sb_jobspec *src)
{
	*dst = *src;
	dst->opts = NULL;
	dst->nopts = 0;
	int rc = 0;
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		if (o->type != SB_OT_STR)
			continue;
		char **f = FIELD(dst, o->off, char *);
		if (*f && !(*f = strdup(*f)))
			rc = -ENOMEM;
	}
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		size_t len = src->zone_n[d] * sizeof(*src->zones[d]);
		dst->zones[d] = NULL;
		if (src->zones[d] && len && !(dst->zones[d] = malloc(len)))
			rc = -ENOMEM;
		else if (dst->zones[d])
			memcpy(dst->zones[d], src->zones[d], len);
	}
	if (rc)
		sb_spec_release(dst); /* frees the copies made; NULLs are fine */
	return rc;
}

void sb_spec_set_loc(struct sb_jobspec *s, unsigned i, const char *file, unsigned line)
{
	unsigned short f = 0;
	for (unsigned k = 0; file && k < SB_LOC_FILES && !f; k++) {
		if (!s->loc_files[k])
			s->loc_files[k] = file;
		if (s->loc_files[k] == file)
			f = (unsigned short)(k + 1);
	}
	/* a 17th file: the option's place is given as the job's own */
	s->loc[i] = (struct sb_optloc){ .line = f ? line : 0, .file = f };
}

const char *sb_spec_where(const struct sb_jobspec *s, const struct sb_option *o, char *buf,
			  unsigned len)
{
	const struct sb_optloc *l = o ? &s->loc[sb_option_index(o)] : NULL;
	if (l && l->file)
		return sb_ini_where(buf, len, s->loc_files[l->file - 1], l->line);
	return sb_ini_where(buf, len, s->file ? s->file : "<cmdline>", s->line);
}
