/* check_zone.c: fio's zone options: zonemode=, zonesize=,
 * zonerange=, zoneskip=, zonecapacity= and the zbd limits, checked as fio
 * 3.33 checks them (init.c:638-671, options.c:3519-3655).  zonemode=strided
 * runs in run/iogen.c; zonemode=zbd parses (so fio's zbd examples pass
 * --parse-only) and a run refuses it (run/iogen_setup.c).  Every error names
 * file:line, the option, the value and the way out. */
#include <stdio.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

static unsigned zerr(struct sb_jobctx *c, const struct sb_option *o, const char *what)
{
	char where[512];
	sb_err(sb_job_where(c, o, where, sizeof(where)), "%s", what);
	return 1;
}

/* size=, io_size=, offset=, offset_increment= given in zones (Nz, fio
 * parse.c:614-631): made bytes, N * zonesize, as fio does once it knows the
 * zone size (zbd.c:1017-1025 zbd_recalc_options_with_zone_granularity).
 * Here that is zonesize=: fio would take a zoned device's own zone size,
 * which storbench learns only when the job runs, so zonesize= is needed */
unsigned sb_job_zone_units(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	const struct sb_option *rows[4] = { SB_OPT(size), SB_OPT(io_size), SB_OPT(offset),
					    SB_OPT(offset_increment) };
	uint64_t *nz[4] = { &s->size_nz, &s->io_size_nz, &s->offset_nz, &s->offset_increment_nz };
	uint64_t *v[4] = { &s->size, &s->io_size, &s->offset, &s->offset_increment };
	unsigned n = 0;
	char m[400];
	for (int i = 0; i < 4; i++) {
		if (!*nz[i])
			continue;
		if (!s->zonesize) {
			snprintf(m, sizeof(m), "%s=%lluz counts zones, and the job has no zonesize=: add "
				 "zonesize= (the zone size in bytes; for a zoned device, its own), or give "
				 "%s in bytes", rows[i]->name, (unsigned long long)*nz[i], rows[i]->name);
			n += zerr(c, rows[i], m);
			continue;
		}
		*v[i] = *nz[i] * s->zonesize;
	}
	return n;
}

/* zonemode=zbd: what fio 3.33 refuses when the job starts (zbd.c), found
 * here from the job alone; the checks that need the file are run/zbd.c's */
static unsigned zbd_check_bs(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char m[400];
	uint64_t bs = s->bs_max[SB_DDIR_WRITE];
	if ((s->rw & SB_RW_WRITE) && s->zonesize && bs > s->zonesize) { /* zbd.c:1934 */
		snprintf(m, sizeof(m), "zonemode=zbd: a write of bs=%llu is larger than zonesize=%llu "
			 "(a write stays in one zone): lower bs to at most the zone size",
			 (unsigned long long)bs, (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(zonesize), m);
	}
	for (int d = 0; d < SB_DDIR_N; d++) { /* zbd.c:621-630 */
		if (!s->verify || !s->zonesize || !sb_spec_does(s, (enum sb_ddir)d) ||
		    s->zonesize % s->bs_max[d] == 0)
			continue;
		snprintf(m, sizeof(m), "zonemode=zbd with verify: block size %llu does not divide "
			 "zonesize=%llu: use a zone size that is a multiple of bs",
			 (unsigned long long)s->bs_max[d], (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(zonesize), m);
	}
	return 0;
}

static unsigned sb_job_validate_zbd(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	if (s->zonesize && s->zonesize < 512) /* zbd.c:672 */
		return zerr(c, SB_OPT(zonesize), "zonemode=zbd: zonesize must be at least 512 bytes "
			    "(a sector): raise zonesize");
	if (s->job_max_open_zones && !s->max_open_zones) /* zbd.c:1073 */
		return zerr(c, SB_OPT(job_max_open_zones), "job_max_open_zones needs max_open_zones "
			    "(open zones are counted only under a device-wide limit, as fio): "
			    "set max_open_zones too");
	/* trims reset whole zones (zbd.c:608-626): one trim block size, the
	 * zone size when zonesize= says it (a device's: run/zbd.c) */
	if ((s->rw & SB_RW_TRIM) && (s->bs_min[SB_DDIR_TRIM] != s->bs_max[SB_DDIR_TRIM] ||
				     s->bssplit_n[SB_DDIR_TRIM]))
		return zerr(c, SB_OPT(bs), "zonemode=zbd: bsrange and bssplit are not allowed for trims "
			    "(a trim resets one whole zone, as fio): give trims one block size, the zone size");
	if ((s->rw & SB_RW_TRIM) && s->zonesize && s->bs_min[SB_DDIR_TRIM] != s->zonesize) {
		char m[300];
		snprintf(m, sizeof(m), "zonemode=zbd: the trim block size %llu is not zonesize=%llu (a "
			 "trim resets one whole zone, as fio): set the trim bs to the zone size",
			 (unsigned long long)s->bs_min[SB_DDIR_TRIM], (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(bs), m);
	}
	if ((s->rw & SB_RW_TRIM) && (s->rw & (SB_RW_READ | SB_RW_WRITE)))
		return zerr(c, SB_OPT(rw), "zonemode=zbd: trims mixed with reads or writes in one job "
			    "(trimwrite, randtrimwrite) are not run in zoned mode by storbench: give the "
			    "trims a job of their own, as fio's examples/zbd-rand-write-trim-gc.fio does");
	/* a run's limit, not the job's: --parse-only passes (fio's examples/zbd-rand-write.fio) */
	if ((s->rw & SB_RW_WRITE) && s->numjobs > 1 && sb_parse_machine())
		return zerr(c, SB_OPT(zonemode), "zonemode=zbd: numjobs > 1 writing the same zones at "
			    "once is not supported (storbench keeps write pointers without locks): "
			    "use numjobs=1, or one job per file range with stonewall");
	return zbd_check_bs(c);
}

unsigned sb_job_validate_zone(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char m[400];
	/* fio 3.33 init.c:638: the default zonemode is none ("def" of
	 * options.c:3525), and none with a zonesize is an error */
	if (s->zonemode == SB_ZONE_NONE && s->zonesize) {
		snprintf(m, sizeof(m), "zonesize=%llu with zonemode=none (the default): add "
			 "zonemode=strided (zones of a file) or zonemode=zbd, or drop zonesize (as fio)",
			 (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(zonesize), m);
	}
	/* init.c:648 */
	if (s->zonemode == SB_ZONE_STRIDED && !s->zonesize)
		return zerr(c, SB_OPT(zonemode),
			    "zonemode=strided needs zonesize= (bytes moved in each zone), e.g. zonesize=256m");
	if (s->zonecapacity && s->zonesize && s->zonecapacity > s->zonesize) {
		snprintf(m, sizeof(m), "zonecapacity=%llu is larger than zonesize=%llu: a zone holds at "
			 "most its size: set zonecapacity <= zonesize (0: zonesize)",
			 (unsigned long long)s->zonecapacity, (unsigned long long)s->zonesize);
		return zerr(c, SB_OPT(zonecapacity), m);
	}
	if (s->zonemode == SB_ZONE_ZBD && sb_job_validate_zbd(c))
		return 1;
	/* zoneskip=Nz: N zones of zonesize (fio zbd.c:1026, for every zonemode) */
	if (s->zoneskip_nz)
		s->zoneskip = s->zoneskip_nz * s->zonesize;
	/* init.c:670: zonerange defaults to zonesize */
	if (s->zonemode == SB_ZONE_STRIDED && !s->zonerange)
		s->zonerange = s->zonesize;
	return 0;
}
