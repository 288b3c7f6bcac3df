/* precheck.c: checks of a run that need the system but no I/O (see
 * precheck.h): the fio log files can be created, every direct=1 job's
 * sizes and offset suit its files' direct-I/O alignment, every job's I/O
 * region holds a block, every job's engine starts with its options.  sb_run runs
 * them before it lays out a file; sb_run_check (run.c) runs them for each
 * point of a sweep before the first point starts. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "run/cgroup.h"
#include "run/iosched.h"
#include "run/precheck.h"
#include "run/ranks.h"
#include "run/run.h"
#include "run/thread.h"
#include "run/workload.h"
#include "lib/log.h"
#include "os/dio.h"
#include "os/place.h"
#include "parse/options.h"
#include "parse/parse.h"

static const char *job_where(const struct sb_jobspec *s, char *buf, size_t len)
{
	if (s->file && s->line)
		snprintf(buf, len, "%s:%u: job %s", s->file, s->line, s->name);
	else
		snprintf(buf, len, "<cmdline>: job %s", s->name);
	return buf;
}

/* the directory a log prefix writes in must exist and be writable: 0 or
 * an errno (nothing is created) */
static int log_dir_error(const char *prefix, char *dir, size_t len)
{
	const char *slash = strrchr(prefix, '/');
	struct stat st;
	struct statvfs vfs;
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == prefix)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - prefix), prefix);
	if (stat(dir, &st) != 0)
		return errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	if (statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return EROFS;
	return access(dir, W_OK) != 0 ? errno : 0;
}

int sb_precheck_logs(const struct sb_joblist *jl)
{
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		const char *opt[3] = { SB_OPT(write_bw_log)->name, SB_OPT(write_iops_log)->name,
				       SB_OPT(write_lat_log)->name };
		const char *val[3] = { s->write_bw_log, s->write_iops_log, s->write_lat_log };
		for (int k = 0; k < 3; k++) {
			char dir[PATH_MAX], where[PATH_MAX + 64];
			int e = val[k] && *val[k] ? log_dir_error(val[k], dir, sizeof(dir)) : 0;
			if (!e)
				continue;
			sb_err(job_where(s, where, sizeof(where)), "%s=%s: cannot create its log files in %s: "
			       "%s: set %s= to a prefix in an existing, writable directory",
			       opt[k], val[k], dir, strerror(e), opt[k]);
			return -e;
		}
	}
	return 0;
}

/* the I/O generator over thread 0's files: the region holds a block */
static int check_region(const struct sb_jobspec *s, const struct sb_jobfiles *jf)
{
	struct sb_iogen gen;
	char where[SB_WHERE_MAX];
	if (!jf->tmpl || !jf->nfiles)
		return 0;
	memset(&gen, 0, sizeof(gen));
	int r = sb_iogen_init(&gen, s, jf->tmpl, jf->nfiles, sb_iogen_seed(s, 0));
	sb_iogen_free(&gen);
	if (r == -EINVAL)
		sb_err(job_where(s, where, sizeof(where)),
		       "the I/O region (size=, offset=) is smaller than one block (bs=): raise size= "
		       "or lower bs= or offset=");
	return r;
}

/* the engine starts with the job's options (a thread with no file) */
static int check_engine(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
			const struct sb_jobfiles *jf)
{
	struct sb_thread *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->spec = s;
	t->ops = ops;
	t->wait_job = -1;
	/* an object store's engine (s3) meets thread 0's objects as in the run */
	bool objs = (ops->flags & SB_ENGINE_OBJECTS) && jf && jf->tmpl;
	int r = sb_thread_setup_check(t, objs ? jf->nfiles : 0, objs ? jf->tmpl : NULL); /* reports what failed */
	sb_thread_teardown(t);
	free(t);
	return r;
}

/* direct=1: the one alignment check (parse/dio.c) against the real
 * direct-I/O alignment of each of thread 0's files (the other threads' are
 * in the same directories), existing or not; nothing is opened for I/O */
static int check_direct(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
			const struct sb_jobfiles *jf)
{
	if (!s->direct || !jf || !jf->tmpl || (ops->flags & SB_ENGINE_NODISKIO))
		return 0;
	for (unsigned k = 0; k < jf->nfiles; k++) {
		struct sb_dio_align a;
		sb_os_dio_align(jf->tmpl[k].path, &a);
		int r = sb_spec_check_direct(s, &a, jf->tmpl[k].path, SB_IOBUF_ALIGN);
		if (r)
			return r;
	}
	return 0;
}

/* rw=trim/randtrim: every file of thread 0 can be trimmed (up front, so a
 * job that cannot trim fails before anything is laid out) */
static int check_trim(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
		      const struct sb_jobfiles *jf)
{
	char where[SB_WHERE_MAX];
	bool vtrim = s->verify && s->trim_percentage && s->trim_backlog; /* verify-trim */
	if (!((s->rw & SB_RW_TRIM) || vtrim) || !jf || !jf->tmpl || (ops->flags & SB_ENGINE_NODISKIO))
		return 0;
	for (unsigned k = 0; k < jf->nfiles; k++) {
		int r = sb_os_can_trim(jf->tmpl[k].path);
		if (r == -EOPNOTSUPP) {
			const struct sb_option *o = (s->rw & SB_RW_TRIM) ? SB_OPT(rw) : SB_OPT(trim_percentage);
			char val[32];
			snprintf(val, sizeof(val), "%u", s->trim_percentage);
			sb_err(sb_spec_where(s, o, where, sizeof(where)),
			       "%s=%s: %s cannot be trimmed (%s): trim a block device that takes "
			       "discards, or a file on a file system that punches holes (ext4, xfs, "
			       "btrfs, tmpfs)", o->name, o == SB_OPT(rw) ? sb_option_enum_name(o, s->rw) : val,
			       jf->tmpl[k].path, jf->tmpl[k].is_bdev ? "its queue takes no discards"
			       : "its file system cannot punch holes");
			return -EINVAL;
		}
	}
	return 0;
}

/* an engine that moves no data (cpuio) has nothing to verify */
static int check_noio(const struct sb_jobspec *s, const struct sb_engine_ops *ops)
{
	char where[SB_WHERE_MAX];
	if (!(ops->flags & SB_ENGINE_NOIO) || !s->verify)
		return 0;
	sb_err(sb_spec_where(s, SB_OPT(verify), where, sizeof(where)), "job %s: %s=%s moves no data, so "
	       "there is nothing for %s= to check: drop %s=", s->name, SB_OPT(ioengine)->name, s->ioengine,
	       SB_OPT(verify)->name, SB_OPT(verify)->name);
	return -EINVAL;
}

/* workload=io: its alignment, its region and its engine (jf: the job's
 * planned files) */
static int validate_io(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
		       const struct sb_jobfiles *jf)
{
	int r = check_noio(s, ops);
	if (!r)
		r = check_direct(s, ops, jf);
	if (!r)
		r = check_trim(s, ops, jf);
	if (!r && !(ops->flags & SB_ENGINE_NODISKIO))
		r = sb_iosched_check(s, jf);
	if (!r)
		r = sb_cgroup_check(s);
	if (!r && jf)
		r = check_region(s, jf);
	return r ? r : check_engine(s, ops, jf);
}

static unsigned folders_io(const struct sb_jobspec *s, const char **dirs, unsigned max)
{
	if (!max)
		return 0;
	dirs[0] = s->directory;
	return 1;
}

/* what the workload conformance suite runs of io (run/workload.h) */
static const struct sb_wl_conformance io_conformance = {
	.quick = "rw=write\nsize=256k\nbs=4k",
	.endless = "time_based=1\nruntime=10m",
	.keep = "unlink=0",
	.tidy = "unlink=1",
	.sweep_opt = "bs",
	.sweep_a = "4k",
	.sweep_b = "8k",
	.json_key = "write",
	.normal = "  write: IOPS=",
};

const struct sb_workload_ops sb_workload_io = {
	.name = "io",
	.flags = SB_WL_THREADS,
	.folders = folders_io,
	.validate = validate_io,
	.conformance = &io_conformance,
};

int sb_precheck_jobs(const struct sb_joblist *jl, const struct sb_engine_ops *const *ops,
		     const struct sb_layout *lay)
{
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		const struct sb_workload_ops *w = sb_workload_of(s);
		if (!w->validate)
			continue; /* e.g. ML jobs: their prepare sets up their engines */
		int r = w->validate(s, ops[j], j < lay->njobs ? &lay->jobs[j] : NULL);
		if (r)
			return r;
	}
	return 0;
}

/* fio 3.33 backend.c:1798-1801 prints it for an engine flagged FIO_SYNCIO;
 * its null engine is that only at iodepth=1 (engines/null.c:113-118: it
 * queues and commits at a higher depth), so a null job gets no note: fio's
 * t0015/t0016 run null at iodepth=16 and fail on any stderr */
void sb_run_depth_notes(const struct sb_joblist *jl)
{
	for (size_t i = 0; sb_ranks_rank() == 0 && !jl->sweep && i < jl->njobs; i++)
		if (jl->jobs[i].iodepth > jl->jobs[i].iodepth_eff &&
		    strcmp(jl->jobs[i].ioengine, "null"))
			fprintf(stderr, "note: both iodepth >= 1 and synchronous I/O engine are selected, "
				"queue depth will be capped at 1 (job %s: ioengine=%s, iodepth=%u)\n",
				jl->jobs[i].name, jl->jobs[i].ioengine, jl->jobs[i].iodepth);
}
