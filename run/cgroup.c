/* cgroup.c: fio's cgroup options for storbench's job threads (see
 * cgroup.h).  Runs before and after the run, and once in each job thread
 * before its first I/O; never on the per-I/O path. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/cgroup.h"
#include "os/outfile.h"
#include "parse/options.h"
#include "lib/log.h"

#define CG_PATH 512

static struct {
	char (*dir)[CG_PATH];  /* per job: its cgroup's folder ("" none) */
	bool *made, *keep;     /* per job: made by storbench; cgroup_nodelete */
	size_t n;
	bool v2;
} cg;

static bool uses(const struct sb_jobspec *s)
{
	return (s->cgroup && *s->cgroup) || s->cgroup_weight;
}

/* the v2 mount, else the v1 blkio one, with storbench's own cgroup below
 * it added to the path: 0 or -ENOENT */
static int base_dir(char *out, size_t len, bool *v2)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], mnt[256], type[64], opts[512], v1mnt[256] = "";
	if (!f)
		return -errno;
	*v2 = false;
	while (fscanf(f, "%255s %255s %63s %511s %*d %*d", dev, mnt, type, opts) == 4) {
		if (!strcmp(type, "cgroup2")) {
			*v2 = true;
			break;
		}
		bool v1 = !strncmp(type, "cgroup2", 6) && !type[6]; /* type "cgroup" */
		if (v1 && strstr(opts, "blkio") && !*v1mnt)
			snprintf(v1mnt, sizeof(v1mnt), "%s", mnt);
	}
	fclose(f);
	if (!*v2 && !*v1mnt)
		return -ENOENT;
	if (!*v2)
		snprintf(mnt, sizeof(mnt), "%s", v1mnt);
	char line[512], own[400] = "";
	if ((f = fopen("/proc/self/cgroup", "r"))) {
		while (fgets(line, sizeof(line), f)) {
			char *p = strchr(line, ':'), *q = p ? strchr(p + 1, ':') : NULL;
			if (!q)
				continue;
			*q = 0;
			if (*v2 ? !strcmp(line, "0") && p[1] == 0 : strstr(p + 1, "blkio") != NULL) {
				snprintf(own, sizeof(own), "%s", q + 1);
				own[strcspn(own, "\n")] = 0;
				break;
			}
		}
		fclose(f);
	}
	snprintf(out, len, "%s%s", mnt, strcmp(own, "/") ? own : "");
	return 0;
}

int sb_cgroup_check(const struct sb_jobspec *s)
{
	const struct sb_option *o = s->cgroup && *s->cgroup ? SB_OPT(cgroup) : SB_OPT(cgroup_weight);
	char where[SB_WHERE_MAX], base[CG_PATH];
	bool v2;
	if (!uses(s))
		return 0;
	if (base_dir(base, sizeof(base), &v2)) {
		sb_err(sb_spec_where(s, o, where, sizeof(where)),
		       "%s: this machine has no cgroup v2 mount and no v1 blkio mount "
		       "(/proc/self/mounts): mount one (mount -t cgroup2 none /sys/fs/cgroup) or drop %s",
		       o->name, o->name);
		return -EINVAL;
	}
	if (access(base, W_OK)) {
		sb_err(sb_spec_where(s, o, where, sizeof(where)),
		       "%s: storbench may not make cgroups in %s (%s): run it as root, or drop %s",
		       o->name, base, strerror(errno), o->name);
		return -EINVAL;
	}
	return 0;
}

static int put(const char *dir, const char *file, const char *val)
{
	char p[CG_PATH + 64];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = sb_outfile_kernel(p); /* only a cgroupfs file */
	if (fd < 0)
		return fd;
	int r = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return r;
}

static int weigh(size_t j, unsigned w)
{
	char v[32];
	snprintf(v, sizeof(v), "%u", w);
	if (cg.v2) { /* whichever of the two the cgroup has (a threaded one: cpu only) */
		int rc = put(cg.dir[j], "cpu.weight", v);
		snprintf(v, sizeof(v), "default %u", w);
		int ri = put(cg.dir[j], "io.weight", v);
		return rc == -ENOENT ? ri : rc ? rc : ri == -ENOENT ? 0 : ri;
	}
	int r = put(cg.dir[j], "blkio.weight", v);
	return r == -ENOENT ? put(cg.dir[j], "blkio.bfq.weight", v) : r;
}

static int make(const struct sb_jobspec *s, size_t j, const char *base)
{
	snprintf(cg.dir[j], CG_PATH, "%s/%s", base, s->cgroup && *s->cgroup ? s->cgroup : s->name);
	for (size_t k = 0; k < j; k++)
		if (!strcmp(cg.dir[k], cg.dir[j])) { /* another job's: made already */
			cg.keep[k] |= s->cgroup_nodelete;
			return 0;
		}
	int e = sb_outfile_kernel_mkdir(cg.dir[j], 0755);
	if (e == 0)
		cg.made[j] = true;
	else if (e != -EEXIST)
		return e;
	cg.keep[j] = s->cgroup_nodelete;
	/* jobs are threads: v2 moves threads only into a threaded cgroup */
	return cg.v2 ? put(cg.dir[j], "cgroup.type", "threaded") : 0;
}

int sb_cgroup_apply(const struct sb_joblist *jl)
{
	char base[CG_PATH - 128];
	bool any = false;
	for (size_t j = 0; j < jl->njobs; j++)
		any |= uses(&jl->jobs[j]);
	if (!any)
		return 0;
	if (base_dir(base, sizeof(base), &cg.v2))
		return -ENOENT; /* sb_cgroup_check reported it */
	cg.dir = calloc(jl->njobs, sizeof(*cg.dir));
	cg.made = calloc(jl->njobs, sizeof(*cg.made));
	cg.keep = calloc(jl->njobs, sizeof(*cg.keep));
	if (!cg.dir || !cg.made || !cg.keep)
		return -ENOMEM;
	cg.n = jl->njobs;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		const struct sb_option *o = SB_OPT(cgroup);
		if (!uses(s))
			continue;
		int r = make(s, j, base);
		if (!r && s->cgroup_weight)
			r = weigh(j, s->cgroup_weight), o = SB_OPT(cgroup_weight);
		if (r) {
			sb_err(s->name, "%s: cannot set up cgroup %s: %s%s", o->name, cg.dir[j], strerror(-r),
			       o == SB_OPT(cgroup_weight) && cg.v2 && r == -ENOENT ?
			       " (it has neither cpu.weight nor io.weight: enable the cpu controller "
			       "below its parent, echo +cpu > PARENT/cgroup.subtree_control; a "
			       "threaded cgroup has no io controller)" : "");
			return r;
		}
	}
	return 0;
}

int sb_cgroup_join(size_t j)
{
	char tid[32];
	if (j >= cg.n || !cg.dir[j][0])
		return 0;
	snprintf(tid, sizeof(tid), "%ld", (long)syscall(SYS_gettid));
	return put(cg.dir[j], cg.v2 ? "cgroup.threads" : "tasks", tid);
}

void sb_cgroup_restore(void)
{
	for (size_t j = 0; j < cg.n; j++)
		if (cg.made[j] && !cg.keep[j])
			(void)sb_outfile_kernel_rmdir(cg.dir[j]); /* empty: its threads have ended */
	free(cg.dir);
	free(cg.made);
	free(cg.keep);
	memset(&cg, 0, sizeof(cg));
}
