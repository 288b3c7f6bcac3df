/* check_place.c: validation of the placement and priority options
 * (cpus_allowed, cpumask, numa_cpu_nodes, numa_mem_policy, iomem,
 * iomem_align, prio, prioclass) and of the file options that need more than
 * their own row.  It derives the CPU set and the memory policy the run applies
 * (run/place.c).  Runs before anything touches a disk; every error names
 * file:line, the option, the value and the way out.  CPUs and NUMA nodes are
 * checked against this machine when the job is parsed for a run; with
 * --parse-only (sb_parse_machine() false) only against storbench's limits,
 * as fio 3.33 --parse-only accepts them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"

#define SB_CPU_MAX 1024 /* bits of sb_jobspec.cpuset */
#define SB_NODE_MAX 64  /* bits of sb_jobspec.mpol_nodes */

/* "0-3,6" into bits (set bit N for each N; N < max).  0, or -1 with the
 * offending element in bad. */
static int parse_list(const char *text, uint64_t *bits, unsigned max, char *bad, size_t badlen)
{
	const char *p = text;
	if (!*p) {
		snprintf(bad, badlen, "an empty list");
		return -1;
	}
	while (*p) {
		char *end;
		const char *elem = p;
		size_t elen = strcspn(p, ",");
		if (*p < '0' || *p > '9')
			goto fail;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				goto fail;
			hi = strtoul(end + 1, &end, 10);
		}
		if ((*end && *end != ',') || hi < lo)
			goto fail;
		if (hi >= max) {
			snprintf(bad, badlen, sb_parse_machine() ? "%lu, which this machine does not have (the "
				 "highest is %u)" : "%lu, beyond what storbench supports (the highest is "
				 "%u)", hi, max - 1);
			return -1;
		}
		for (unsigned long i = lo; i <= hi; i++)
			bits[i / 64] |= 1ull << (i % 64);
		p = *end ? end + 1 : end;
		continue;
	fail:
		snprintf(bad, badlen, "'%.*s'", (int)elen, elem);
		return -1;
	}
	return 0;
}

static unsigned ncpus(void)
{
	long n = sb_parse_machine() ? sysconf(_SC_NPROCESSORS_CONF) : SB_CPU_MAX;
	return n < 1 ? 1 : n > SB_CPU_MAX ? SB_CPU_MAX : (unsigned)n;
}

/* NUMA nodes this machine has: one past the highest nodeN in sysfs (1 when
 * the kernel has no NUMA support: node 0 is all of memory) */
static unsigned nnodes(void)
{
	unsigned n = sb_parse_machine() ? 1 : SB_NODE_MAX;
	for (unsigned i = 1; sb_parse_machine() && i < SB_NODE_MAX; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", i);
		if (!access(path, F_OK))
			n = i + 1;
	}
	return n;
}

static unsigned check_cpus(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX], bad[96];
	memset(s->cpuset, 0, sizeof(s->cpuset));
	s->cpuset_on = false;
	if (s->cpus_allowed) {
		const struct sb_option *o = SB_OPT(cpus_allowed);
		if (parse_list(s->cpus_allowed, s->cpuset, ncpus(), bad, sizeof(bad))) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=%s: bad CPU %s: expected CPU numbers 0-%u and ranges, ','-separated, "
			       "e.g. %s=0-%u", o->name, s->cpus_allowed, bad, ncpus() - 1, o->name,
			       ncpus() - 1);
			return 1;
		}
		s->cpuset_on = true;
	}
	if (s->cpumask) {
		const struct sb_option *o = SB_OPT(cpumask);
		if (s->cpus_allowed) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=0x%llx and %s=%s both pin the job: keep one of them", o->name,
			       (unsigned long long)s->cpumask, SB_OPT(cpus_allowed)->name,
			       s->cpus_allowed);
			return 1;
		}
		for (unsigned i = 0; i < 64; i++) {
			if (!(s->cpumask >> i & 1))
				continue;
			if (i >= ncpus()) {
				sb_err(sb_job_where(c, o, where, sizeof(where)),
				       "%s=0x%llx: bit %u is CPU %u, which this machine does not have "
				       "(the highest is %u): clear it", o->name,
				       (unsigned long long)s->cpumask, i, i, ncpus() - 1);
				return 1;
			}
		}
		s->cpuset[0] = s->cpumask;
		s->cpuset_on = true;
	}
	if (s->numa_cpu_nodes && strcmp(s->numa_cpu_nodes, "all")) {
		const struct sb_option *o = SB_OPT(numa_cpu_nodes);
		uint64_t nodes = 0;
		if (parse_list(s->numa_cpu_nodes, &nodes, nnodes(), bad, sizeof(bad))) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=%s: bad NUMA node %s: expected node numbers 0-%u and ranges, "
			       "','-separated, or all", o->name, s->numa_cpu_nodes, bad, nnodes() - 1);
			return 1;
		}
	}
	return 0;
}

static const struct { const char *name; unsigned mode; bool nodes; } mpols[] = {
	{ "default", SB_MPOL_DEFAULT, false }, { "prefer", SB_MPOL_PREFER, true },
	{ "bind", SB_MPOL_BIND, true },        { "interleave", SB_MPOL_INTERLEAVE, true },
	{ "local", SB_MPOL_LOCAL, false },
};

static unsigned check_mpol(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	const struct sb_option *o = SB_OPT(numa_mem_policy);
	char where[SB_WHERE_MAX], bad[96];
	s->mpol_mode = SB_MPOL_UNSET;
	s->mpol_nodes = 0;
	if (!s->numa_mem_policy)
		return 0;
	const char *v = s->numa_mem_policy, *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	for (size_t i = 0; i < sizeof(mpols) / sizeof(mpols[0]); i++) {
		if (strlen(mpols[i].name) != n || strncmp(v, mpols[i].name, n))
			continue;
		if (mpols[i].nodes != (colon != NULL)) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       mpols[i].nodes ? "%s=%s: '%s' needs nodes: write %s=%s:0 (a node list)"
					      : "%s=%s: '%s' takes no nodes: write %s=%s", o->name, v,
			       mpols[i].name, o->name, mpols[i].name);
			return 1;
		}
		if (colon && parse_list(colon + 1, &s->mpol_nodes, nnodes(), bad, sizeof(bad))) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=%s: bad NUMA node %s: expected node numbers 0-%u and ranges, "
			       "','-separated", o->name, v, bad, nnodes() - 1);
			return 1;
		}
		if (mpols[i].mode == SB_MPOL_PREFER && (s->mpol_nodes & (s->mpol_nodes - 1))) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=%s: prefer takes one node, e.g. %s=prefer:0", o->name, v, o->name);
			return 1;
		}
		s->mpol_mode = mpols[i].mode;
		return 0;
	}
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "%s=%s: unknown policy: expected default, prefer:NODE, bind:NODES, "
	       "interleave:NODES or local", o->name, v);
	return 1;
}

static unsigned check_mem(struct sb_jobctx *c)
{
	const struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (sb_job_validate_gpu(c)) /* iomem=cudamalloc: parse/check_gpu.c */
		return 1;
	if (s->iomem_file[0]) { /* run/place.c creates it (FILE.N per thread with numjobs) */
		const struct sb_option *o = SB_OPT(iomem);
		struct stat st;
		char path[sizeof(s->iomem_file) + 16];
		for (unsigned k = 0; k < (s->numjobs > 1 ? s->numjobs : 1); k++) {
			sb_iomem_file_path(s, k, path, sizeof(path));
			int r = lstat(path, &st) ? errno : EEXIST;
			if (r == ENOENT)
				continue;
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=%s:%s: %s: %s; storbench maps only a buffer file it creates and removes "
			       "(fio 3.33 truncates it and leaves I/O data in it): name a path that does "
			       "not exist", o->name, sb_option_enum_name(o, s->iomem), s->iomem_file, path,
			       r == EEXIST ? "the file exists" : strerror(r));
			return 1;
		}
	}
	if (s->iomem_align & (s->iomem_align - 1)) {
		const struct sb_option *o = SB_OPT(iomem_align);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%llu: the alignment must be a power of 2, e.g. %s=4k", o->name,
		       (unsigned long long)s->iomem_align, o->name);
		return 1;
	}
	return 0;
}

static unsigned check_prio(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	s->ioprio_on = sb_job_isset(c, SB_OPT(prio)) || sb_job_isset(c, SB_OPT(prioclass));
	if (s->ioprio_on && !sb_job_isset(c, SB_OPT(prioclass)))
		s->prioclass = 2; /* a level alone: best-effort, as fio */
	if (s->ioprio_on && !sb_job_isset(c, SB_OPT(prio)))
		s->prio = 4;      /* a class alone: the kernel's default level */
	if (sb_job_isset(c, SB_OPT(prioclass)) && s->prioclass == 0 && sb_job_isset(c, SB_OPT(prio)) &&
	    s->prio) {
		const struct sb_option *o = SB_OPT(prio);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%u with %s=0 (no class): a level needs class 1 (realtime) or 2 "
		       "(best-effort): set %s=2", o->name, s->prio, SB_OPT(prioclass)->name,
		       SB_OPT(prioclass)->name);
		return 1;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned type;
	double def;     /* the parameter's default (0: N, the I/Os per switch) */
} fsvcs[] = {
	{ "roundrobin", SB_FSVC_RR, 0 }, { "random", SB_FSVC_RANDOM, 0 },
	{ "sequential", SB_FSVC_SEQ, 0 }, { "zipf", SB_FSVC_ZIPF, 1.1 },
	{ "pareto", SB_FSVC_PARETO, 0.2 }, { "normal", SB_FSVC_NORMAL, 10 },
	{ "gauss", SB_FSVC_NORMAL, 10 },
};

static unsigned check_fsvc(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	const struct sb_option *o = SB_OPT(file_service_type);
	char where[SB_WHERE_MAX];
	s->fsvc = SB_FSVC_RR;
	s->fsvc_n = 1;
	s->fsvc_param = 0;
	if (!s->file_service_type)
		return 0;
	const char *v = s->file_service_type, *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	for (size_t i = 0; i < sizeof(fsvcs) / sizeof(fsvcs[0]); i++) {
		if (strlen(fsvcs[i].name) != n || strncasecmp(v, fsvcs[i].name, n))
			continue;
		s->fsvc = fsvcs[i].type;
		s->fsvc_param = fsvcs[i].def;
		if (!colon)
			return 0;
		char *end;
		double x = strtod(colon + 1, &end);
		bool count = fsvcs[i].def == 0;
		bool bad = end == colon + 1 || *end || x <= 0 || (count && (x != (unsigned)x)) ||
			   (s->fsvc == SB_FSVC_SEQ) || (s->fsvc == SB_FSVC_ZIPF && x == 1.0) ||
			   (s->fsvc == SB_FSVC_PARETO && x >= 1.0) ||
			   (s->fsvc == SB_FSVC_NORMAL && x > 100.0);
		if (bad) {
			sb_err(sb_job_where(c, o, where, sizeof(where)),
			       "%s=%s: bad value after ':': %s", o->name, v,
			       s->fsvc == SB_FSVC_SEQ ? "sequential takes none: write sequential" :
			       count ? "expected a whole number of I/Os before switching files, e.g. "
				       "roundrobin:4" :
			       s->fsvc == SB_FSVC_ZIPF ? "expected theta > 0 and not 1, e.g. zipf:1.2" :
			       s->fsvc == SB_FSVC_PARETO ? "expected 0 < h < 1, e.g. pareto:0.2" :
							   "expected sigma in percent (0-100], e.g. normal:10");
			return 1;
		}
		if (count)
			s->fsvc_n = (unsigned)x;
		else
			s->fsvc_param = x;
		return 0;
	}
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "%s=%s: unknown type: expected roundrobin[:N], random[:N], sequential, zipf[:theta], "
	       "pareto[:h], normal[:sigma] or gauss[:sigma]", o->name, v);
	return 1;
}

static unsigned check_misc(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	char where[SB_WHERE_MAX];
	if (s->unlink_each_loop && (s->verify || s->read_iolog)) { /* run/eachloop.c */
		const struct sb_option *o = SB_OPT(unlink_each_loop);
		const struct sb_option *w = s->verify ? SB_OPT(verify) : SB_OPT(read_iolog);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=1 with %s: the files are removed between loops, which %s does not "
		       "allow for: drop %s, or drop %s", o->name, w->name, w->name, o->name, w->name);
		return 1;
	}
	if (s->atomic)
		s->direct = true; /* fio: atomic implies O_DIRECT */
	if (s->opendir && s->filename) {
		const struct sb_option *o = SB_OPT(opendir);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%s and %s=%s both name the job's files: keep one", o->name, s->opendir,
		       SB_OPT(filename)->name, s->filename);
		return 1;
	}
	unsigned nf = s->filename ? 1 : s->nrfiles;
	for (const char *p = s->filename; p && *p; p++)
		nf += *p == ':';
	/* fewer open at once than files: run/openfiles.h, not with
	 * offload's submit threads, which open every file themselves */
	if (s->openfiles && !s->opendir && s->openfiles < nf && s->io_submit_mode) {
		const struct sb_option *o = SB_OPT(openfiles);
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%u: the job has %u files and io_submit_mode=offload keeps all of them "
		       "open: set %s=%u, drop it, or use io_submit_mode=inline", o->name,
		       s->openfiles, nf, o->name, nf);
		return 1;
	}
	return 0;
}

static unsigned check_sfr(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	const struct sb_option *o = SB_OPT(sync_file_range);
	char where[SB_WHERE_MAX];
	s->sfr_n = s->sfr_flags = 0;
	if (!s->sync_file_range)
		return 0;
	const char *v = s->sync_file_range, *colon = strrchr(v, ':');
	const char *p = v;
	while (p < (colon ? colon : v + strlen(v))) {
		size_t n = strcspn(p, ",:");
		if (n == 11 && !strncmp(p, "wait_before", n))
			s->sfr_flags |= 1;
		else if (n == 5 && !strncmp(p, "write", n))
			s->sfr_flags |= 2;
		else if (n == 10 && !strncmp(p, "wait_after", n))
			s->sfr_flags |= 4;
		else
			goto bad;
		p += n + (p[n] == ',');
	}
	char *end;
	unsigned long k = colon ? strtoul(colon + 1, &end, 10) : 0;
	if (!colon || !s->sfr_flags || end == colon + 1 || *end || !k || k > UINT32_MAX)
		goto bad;
	s->sfr_n = (unsigned)k;
	if (!strcmp(s->ioengine, "mmap")) {
		sb_err(sb_job_where(c, o, where, sizeof(where)),
		       "%s=%s: ioengine=mmap writes through a mapping, which sync_file_range does not "
		       "cover: use msync (fsync=N) or another engine", o->name, v);
		return 1;
	}
	return 0;
bad:
	sb_err(sb_job_where(c, o, where, sizeof(where)),
	       "%s=%s: expected FLAGS:N, FLAGS one or more of wait_before, write, wait_after "
	       "(','-separated) and N the writes between calls, e.g. %s=wait_before,write:8",
	       o->name, v, o->name);
	return 1;
}

unsigned sb_job_validate_place(struct sb_jobctx *c)
{
	if (check_sfr(c))
		return 1;
	if (check_misc(c))
		return 1;
	return check_cpus(c) + check_mpol(c) + check_mem(c) + check_prio(c) + check_fsvc(c);
}
