/* rapl.c: CPU package and DRAM energy from the RAPL zones under
 * /sys/class/powercap/intel-rapl:*.  energy_uj counts microjoules and wraps
 * to 0 after max_energy_range_uj; a read lower than the previous one is one
 * wrap (the sampling interval must be shorter than a wrap: minutes at full
 * power).  Since Linux 5.10 energy_uj is readable by root only: then the
 * domain is absent with "Permission denied". */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/host/priv.h"

static int is_zone(const struct dirent *e)
{
	return !strncmp(e->d_name, "intel-rapl:", 11);
}

static int zone_u64(const struct sb_host *h, const char *zone, const char *leaf, uint64_t *v)
{
	char rel[160], path[PATH_MAX];
	snprintf(rel, sizeof(rel), "sys/class/powercap/%s/%s", zone, leaf);
	int err = sb_host_path(h, rel, path, sizeof(path));
	return err ? err : sb_host_read_u64(path, v);
}

static int zone_name(const struct sb_host *h, const char *zone, char *out, size_t len)
{
	char rel[160], path[PATH_MAX];
	snprintf(rel, sizeof(rel), "sys/class/powercap/%s/name", zone);
	int err = sb_host_path(h, rel, path, sizeof(path));
	ssize_t r = err ? err : sb_host_read_file(path, out, len);
	if (r < 0)
		return (int)r;
	out[strcspn(out, "\n")] = 0;
	return 0;
}

/* "intel-rapl:0:1" named "dram" -> "package-0:dram" (the parent's name) */
static void domain_name(const struct sb_host *h, const char *zone, const char *name,
			char *out, size_t len)
{
	char parent[64], pname[SB_HOST_NAME_MAX];
	const char *second = strchr(zone + 11, ':');
	if (second) {
		snprintf(parent, sizeof(parent), "%.*s", (int)(second - zone), zone);
		if (zone_name(h, parent, pname, sizeof(pname)) == 0) {
			snprintf(out, len, "%.30s:%.30s", pname, name);
			return;
		}
	}
	snprintf(out, len, "%s", name);
}

/* one zone into slot r->n: 0, or -errno with the reason in st */
static int add_zone(struct sb_host *h, const char *zone, struct sb_host_status *st)
{
	struct host_rapl *r = &h->rapl;
	unsigned i = r->n;
	char name[SB_HOST_NAME_MAX];
	int err = zone_name(h, zone, name, sizeof(name));
	if (!err)
		err = zone_u64(h, zone, "max_energy_range_uj", &r->max_range[i]);
	if (!err)
		err = zone_u64(h, zone, "energy_uj", &r->prev[i]);
	if (err) {
		char what[128];
		snprintf(what, sizeof(what), "sys/class/powercap/%.100s", zone);
		sb_host_set_errno(st, what, err);
		return err;
	}
	snprintf(r->dir[i], sizeof(r->dir[i]), "%.63s", zone);
	domain_name(h, zone, name, r->name[i], sizeof(r->name[i]));
	/* packages (top-level zones) and dram (outside the package's
	 * energy even as a sub-zone) add up to the node's RAPL power;
	 * core and uncore are inside the package */
	r->in_total[i] = !strchr(zone + 11, ':') || !strcmp(name, "dram");
	r->uj[i] = 0;
	r->n++;
	return 0;
}

static void rapl_open(struct sb_host *h)
{
	char path[PATH_MAX];
	struct dirent **z;
	struct sb_host_status *st = &h->st[SB_HOST_RAPL];
	int nz = -1;
	if (sb_host_path(h, "sys/class/powercap", path, sizeof(path)) == 0)
		nz = scandir(path, &z, is_zone, alphasort);
	if (nz < 0) {
		sb_host_set_errno(st, "sys/class/powercap", errno);
		return;
	}
	sb_host_set_absent(st, "sys/class/powercap: no intel-rapl zones");
	for (int i = 0; i < nz; i++) {
		if (h->rapl.n < SB_HOST_MAX_RAPL)
			add_zone(h, z[i]->d_name, st);
		free(z[i]);
	}
	free(z);
	if (h->rapl.n) {
		st->present = true;
		st->reason[0] = 0;
	}
}

static void rapl_sample(struct sb_host *h, double dt_s, struct sb_host_sample *s)
{
	struct host_rapl *r = &h->rapl;
	for (unsigned i = 0; i < r->n; i++) {
		uint64_t v, d;
		if (zone_u64(h, r->dir[i], "energy_uj", &v))
			continue;
		if (v >= r->prev[i])
			d = v - r->prev[i];
		else if (r->prev[i] <= r->max_range[i])
			d = r->max_range[i] - r->prev[i] + v;   /* wrapped once */
		else
			d = v;   /* range misreported: count from 0 */
		r->uj[i] += d;
		r->prev[i] = v;
		if (r->in_total[i])
			s->rapl_watts += (double)d / 1e6 / dt_s;
	}
}

static void rapl_summary(const struct sb_host *h, double run_s, struct sb_host_rapl_sum *o)
{
	o->ndomains = h->rapl.n;
	for (unsigned i = 0; i < h->rapl.n; i++) {
		struct sb_host_rapl_domain *d = &o->dom[i];
		snprintf(d->name, sizeof(d->name), "%s", h->rapl.name[i]);
		d->joules = (double)h->rapl.uj[i] / 1e6;
		d->mean_watts = run_s > 0 ? d->joules / run_s : 0;
	}
}

/* ---- the collector (stats/host/collector.h) ---- */

static int rapl_open_op(struct sb_host *h, const struct sb_host_config *cfg)
{
	(void)cfg;
	rapl_open(h);
	return 0;
}

static void rapl_summary_op(const struct sb_host *h, double run_s, void *sum)
{
	struct sb_host_rapl_sum *o = sum;
	o->st = h->st[SB_HOST_RAPL];
	if (o->st.present)
		rapl_summary(h, run_s, o);
}

/* ---- its figures, as output/host.c writes them (stats/host.h) ---- */

#define E(key, kind) { #key, kind, offsetof(struct sb_host_rapl_domain, key), 0, false, NULL, NULL }
static const struct sb_host_field rapl_dom_fields[] = {
	E(name, SB_HK_STR),
	E(joules, SB_HK_DBL),
	E(mean_watts, SB_HK_DBL),
	{ .kind = SB_HK_END },
};
#undef E
static const struct sb_host_list rapl_domains = {
	.count_off = offsetof(struct sb_host_rapl_sum, ndomains),
	.elem_off = offsetof(struct sb_host_rapl_sum, dom),
	.elem_size = sizeof(struct sb_host_rapl_domain),
	.fields = rapl_dom_fields,
};
static const struct sb_host_field rapl_fields[] = {
	{ .key = "domains", .kind = SB_HK_LIST, .list = &rapl_domains },
	{ .kind = SB_HK_END },
};

static const struct sb_host_line rapl_lines[] = {
	{ .text = "rapl:", .list = "domains", .inline_ = true,
	  .each = " {name}={joules:.1}J ({mean_watts:.1}W)" },
	{ 0 },
};

/* its series columns */
static const struct sb_host_col rapl_cols[] = {
	SB_HOST_COL(rapl_watts, SB_HK_DBL, SB_HM_WMEAN),
	{ .kind = SB_HK_END },
};

const struct sb_host_collector sb_host_rapl_collector = {
	.name = "rapl",
	.src = SB_HOST_RAPL,
	.open = rapl_open_op,
	.sample = rapl_sample,
	.summary = rapl_summary_op,
	.sum_size = sizeof(struct sb_host_rapl_sum),
	.fields = rapl_fields,
	.lines = rapl_lines,
	.cols = rapl_cols,
};
