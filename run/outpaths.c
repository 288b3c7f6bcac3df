/* outpaths.c: the files a run writes besides its data (write_iolog=,
 * write_trace=, --output) are never one of its data files.  A log named
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

#include "lib/log.h"
#include "parse/options.h"
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

int sb_files_check_outputs(const struct sb_joblist *jl, const struct sb_layout *lay,
			   const char *output)
{
	char where[512];
	const struct sb_layout_file *lf;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		if (s->write_iolog && *s->write_iolog && (lf = data_file(lay, s->write_iolog)))
			return refuse(sb_spec_where(s, SB_OPT(write_iolog), where, sizeof(where)),
				      SB_OPT(write_iolog)->name, s->write_iolog, lf);
		if (s->write_trace && *s->write_trace && (lf = data_file(lay, s->write_trace)))
			return refuse(sb_spec_where(s, SB_OPT(write_trace), where, sizeof(where)),
				      SB_OPT(write_trace)->name, s->write_trace, lf);
	}
	if (output && (lf = data_file(lay, output)))
		return refuse("--output", "--output", output, lf);
	return 0;
}
