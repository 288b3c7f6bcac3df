/* outpaths.c: the files a run writes besides its data (write_iolog=,
 * write_trace=, --output, the bw/iops/lat/hist logs) are never one of its data files.  A log named
 * after the job's input would be truncated before the job reads it (issue
 * 28: 1 MiB of user data became an 86-byte iolog, even under --readonly);
 * fio 3.33 appends its iolog to a file of its own.  Checked by the plan,
 * before anything is created. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/inputs.h"
#include "os/outfile.h"
#include "lib/log.h"
#include "parse/options.h"
#include "stats/iolog.h"
#include "run/files.h"

/* path's folder made absolute and canonical, then its last name: the same
 * text for two spellings of a file that does not exist yet */
static void canon(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(out, len, "%s/%s", real, base);
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea || eb)
		return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char ca[PATH_MAX + NAME_MAX + 2], cb[PATH_MAX + NAME_MAX + 2];
	canon(a, ca, sizeof(ca));
	canon(b, cb, sizeof(cb));
	return strcmp(ca, cb) == 0;
}

/* the data file of the layout that path names, or NULL */
static const struct sb_layout_file *data_file(const struct sb_layout *lay, const char *path)
{
	for (size_t i = 0; i < lay->n; i++)
		if (same_file(path, lay->files[i].path))
			return &lay->files[i];
	return NULL;
}

static int refuse(const char *where, const char *what, const char *path,
		  const struct sb_layout_file *lf)
{
	const struct sb_jobspec *u = lf->writer ? lf->writer : lf->spec;
	sb_err(where, "%s=%s is %s, a data file of job %s: storbench would write over it %s; "
	       "give %s a file of its own", what, path, lf->path, u ? u->name : "?",
	       lf->written ? "while the job does I/O to it" : "before the job reads it", what);
	return -EINVAL;
}

/* path is one of the logs named base (write_bw_log=, write_iops_log=,
 * write_lat_log=, write_hist_log=): BASE_KIND.log or BASE_KIND.N.log, N any
 * thread number (stats/iolog.c, stats/histlog.c) */
static bool is_log_of(const char *path, const char *base)
{
	static const char *const kinds[] = { "bw", "iops", "clat", "slat", "lat", "clat_hist" };
	char cp[PATH_MAX + NAME_MAX + 2], cb[PATH_MAX + NAME_MAX + 2];
	canon(path, cp, sizeof(cp));
	canon(base, cb, sizeof(cb));
	size_t n = strlen(cb);
	if (strncmp(cp, cb, n) || cp[n] != '_')
		return false;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t kl = strlen(kinds[k]);
		const char *r = cp + n + 1;
		if (strncmp(r, kinds[k], kl))
			continue;
		r += kl;
		if (*r == '.' && r[1] >= '0' && r[1] <= '9') {
			r++;
			while (*r >= '0' && *r <= '9')
				r++;
		}
		if (!strcmp(r, ".log") || !strcmp(r, ".log.fz")) /* .fz: log_store_compressed */
			return true;
	}
	return false;
}

/* the data file of the layout that is one of base's logs, or NULL */
static const struct sb_layout_file *data_log(const struct sb_layout *lay, const char *base)
{
	if (!base || !*base)
		return NULL;
	for (size_t i = 0; i < lay->n; i++)
		if (is_log_of(lay->files[i].path, base))
			return &lay->files[i];
	return NULL;
}

/* the names base's logs will have (stats/iolog.c, stats/histlog.c), through
 * the writer gate's rules: no device, FIFO, folder or input of the run */
static int gate_logs(const struct sb_jobspec *s, const struct sb_option *o, const char *base)
{
	static const char *const kinds[] = { "bw", "iops", "clat", "slat", "lat", "clat_hist" };
	char where[SB_WHERE_MAX], path[PATH_MAX + 64];
	if (!base || !*base)
		return 0;
	struct sb_outname n = { o->name, sb_spec_where(s, o, where, sizeof(where)), "the log" };
	bool gz = sb_iolog_fz(s->log_compression, s->log_store_compressed);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (unsigned no = 0; no <= s->numjobs && no <= 4096; no++) {
			const char *fz = gz && strcmp(kinds[k], "clat_hist") ? ".fz" : "";
			if (no)
				snprintf(path, sizeof(path), "%s_%s.%u.log%s", base, kinds[k], no, fz);
			else
				snprintf(path, sizeof(path), "%s_%s.log%s", base, kinds[k], fz);
			if (sb_outfile_check(path, &n, 0))
				return -EINVAL;
		}
	return 0;
}

/* a data file a job writes that is an input of the run (its job file, a
 * trace, an iolog): the gate would refuse it at open; say so now */
static int written_inputs(const struct sb_layout *lay)
{
	char where[SB_WHERE_MAX], ipath[PATH_MAX], role[64];
	struct stat st;
	for (size_t i = 0; i < lay->n; i++) {
		const struct sb_layout_file *lf = &lay->files[i];
		if (!lf->written || stat(lf->path, &st) ||
		    !sb_inputs_find(st.st_dev, st.st_ino, ipath, sizeof(ipath), role, sizeof(role)))
			continue;
		const struct sb_jobspec *u = lf->writer ? lf->writer : lf->spec;
		sb_err(u ? sb_spec_where(u, SB_OPT(filename), where, sizeof(where)) : lf->path,
		       "job %s writes %s, which is %s, the %s this run reads: writing it would replace "
		       "that input; give the job another file", u ? u->name : "?", lf->path, ipath,
		       role);
		return -EINVAL;
	}
	return 0;
}

int sb_files_check_outputs(const struct sb_joblist *jl, const struct sb_layout *lay,
			   const char *output)
{
	char where[SB_WHERE_MAX];
	const struct sb_layout_file *lf;
	if (written_inputs(lay))
		return -EINVAL;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		if (s->write_iolog && *s->write_iolog && (lf = data_file(lay, s->write_iolog)))
			return refuse(sb_spec_where(s, SB_OPT(write_iolog), where, sizeof(where)),
				      SB_OPT(write_iolog)->name, s->write_iolog, lf);
		if (s->write_trace && *s->write_trace && (lf = data_file(lay, s->write_trace)))
			return refuse(sb_spec_where(s, SB_OPT(write_trace), where, sizeof(where)),
				      SB_OPT(write_trace)->name, s->write_trace, lf);
		const struct { const struct sb_option *o; const char *v; } logs[] = {
			{ SB_OPT(write_bw_log), s->write_bw_log },
			{ SB_OPT(write_iops_log), s->write_iops_log },
			{ SB_OPT(write_lat_log), s->write_lat_log },
			{ SB_OPT(write_hist_log), s->write_hist_log },
		};
		for (size_t k = 0; k < sizeof(logs) / sizeof(logs[0]); k++) {
			if ((lf = data_log(lay, logs[k].v)))
				return refuse(sb_spec_where(s, logs[k].o, where, sizeof(where)),
					      logs[k].o->name, logs[k].v, lf);
			if (gate_logs(s, logs[k].o, logs[k].v))
				return -EINVAL;
		}
	}
	if (output && (lf = data_file(lay, output)))
		return refuse("--output", "--output", output, lf);
	return 0;
}
