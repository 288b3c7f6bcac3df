/* filecheck.c: the checks of a run's file plan that refuse it before
 * anything is created (files.h): what a path is (a directory, a FIFO, a
 * missing file under no_file_create), the user's files (never extended
 * unless a job writes them; verify_only or a read job's verify= on a
 * missing file), and free
 * space. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "lib/log.h"
#include "parse/options.h"
#include "run/files.h"

void sb_files_dir_of(const char *path, char *dir, size_t len)
{
	const char *s = strrchr(path, '/');
	if (!s)
		snprintf(dir, len, ".");
	else if (s == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(s - path), path);
}

/* a path that is no file storbench can do I/O to, or one that must exist
 * and does not: refused at the plan, naming the option (exit 1) */
int sb_files_check_kind(const struct sb_layout_file *lf, const struct sb_jobspec *s)
{
	if (lf->is_dir) { /* fio 3.33: "Is a directory" at its first I/O (exit 1) */
		char where[SB_WHERE_MAX];
		if (s->filename)
			sb_err(sb_spec_where(s, SB_OPT(filename), where, sizeof(where)),
			       "job %s: filename=%s: %s is a directory, not a file: name a file in it "
			       "(filename=%s/NAME) or use directory=%s and let storbench name the files",
			       s->name, s->filename, lf->path, lf->path, lf->path);
		else
			sb_err(sb_spec_where(s, s->directory ? SB_OPT(directory) : NULL, where,
					     sizeof(where)),
			       "job %s: %s, the file storbench names for it, is a directory: remove "
			       "it, or give filename= or another directory=", s->name, lf->path);
		return -EINVAL;
	}
	if (lf->is_pipe) {
		/* fio 3.33: "failed to get file size of F" and the job ends; the
		 * open of a FIFO would wait for a writer for ever */
		char where[SB_WHERE_MAX];
		const struct sb_option *o = s->filename ? SB_OPT(filename) : SB_OPT(directory);
		sb_err(sb_spec_where(s, o, where, sizeof(where)),
		       "job %s: %s=%s: %s is a FIFO or a socket, which has no size and whose open "
		       "waits for a peer: storbench does I/O to regular files and block devices; "
		       "name one of those", s->name, o->name, s->filename ? s->filename : s->directory,
		       lf->path);
		return -EINVAL;
	}
	if (!lf->exists && !lf->is_bdev && s->no_file_create) {
		char where[SB_WHERE_MAX];
		const struct sb_option *o = SB_OPT_INV(no_file_create);
		sb_err(sb_spec_where(s, o, where, sizeof(where)),
		       "job %s: %s=0 and %s does not exist: create it first or drop %s=0", s->name,
		       o->name, lf->path, o->name);
		return -EINVAL;
	}
	return 0;
}

/* The one rule for files storbench did not make (lf->user): no job that
 * does not write a file's data extends it (fio 3.33 filesetup.c:127 refuses
 * with --readonly: "refusing extend of file due to read-only"; without it,
 * filesetup.c:136-141 unlinks the user's file and lays it out anew).  And a
 * verify_only job checks data that must already be there: a missing file no
 * job writes is refused instead of created. */
int sb_files_check_user(const struct sb_layout *lay)
{
	for (size_t i = 0; i < lay->n; i++) {
		const struct sb_layout_file *lf = &lay->files[i];
		char where[SB_WHERE_MAX], val[128];
		if (lf->writes_data)
			continue;
		if (!lf->exists && lf->verifier) {
			const struct sb_jobspec *s = lf->verifier;
			const struct sb_option *o = SB_OPT(verify_only);
			if (!s->verify_only) { /* a read job with verify= */
				o = SB_OPT(verify);
				sb_err(sb_spec_where(s, o, where, sizeof(where)),
				       "job %s: verify= on a job that does not write checks the data "
				       "an earlier job or run wrote to %s, which does not exist "
				       "(storbench creates nothing for it): write the data first "
				       "(a writing job with verify=), or name the file that holds it",
				       s->name, lf->path);
				return -ENOENT;
			}
			sb_err(sb_spec_where(s, o, where, sizeof(where)),
			       "job %s: %s=1 checks the data an earlier run wrote to %s, which does not "
			       "exist (storbench creates nothing for a job that writes nothing): run the "
			       "job without %s=1 first to write the data, or name the file that holds it",
			       s->name, o->name, lf->path, o->name);
			return -ENOENT;
		}
		if (!lf->user || lf->need <= lf->have || !lf->grower || lf->verifier)
			continue; /* a verifier reports a file cut short as its lost blocks */
		const struct sb_jobspec *s = lf->grower;
		const struct sb_option *o = s->filesize_min ? SB_OPT(filesize_min) : SB_OPT(size);
		char from[200] = "", off[128];
		bool offs = s->offset || s->offset_pct > 0 || s->offset_increment ||
			    s->offset_increment_pct > 0;
		sb_option_text(o, s, val, sizeof(val));
		if (offs) {
			sb_option_text(SB_OPT(offset), s, off, sizeof(off));
			snprintf(from, sizeof(from), " from offset=%s", off);
		}
		sb_err(sb_spec_where(s, o, where, sizeof(where)),
		       "job %s: %s=%s%s needs %s to hold %" PRIu64 " bytes, but it holds %" PRIu64
		       " and this run did not make it: storbench never extends, truncates or fills a "
		       "file it did not create unless a job writes it (fio --readonly: \"refusing "
		       "extend of file\"): lower %s=%s to fit the %" PRIu64 " bytes there, drop %s= "
		       "to use the whole file, or name a file that does not exist yet", s->name,
		       o->name, val, from, lf->path, lf->need, lf->have, o->name,
		       offs ? " or offset=" : "", lf->have, o->name);
		return -EINVAL;
	}
	return 0;
}

/* bytes each file system must still provide, checked against statvfs */
/* n bytes for people: "1.50 GiB (1610612736 bytes)" */
static const char *human(uint64_t n, char *buf, size_t len)
{
	static const char *unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)n;
	unsigned u = 0;
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u)
		snprintf(buf, len, "%.2f %s (%" PRIu64 " bytes)", v, unit[u], n);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", n);
	return buf;
}

int sb_files_check_space(const struct sb_layout *lay)
{
	for (size_t i = 0; i < lay->n; i++) {
		const struct sb_layout_file *a = &lay->files[i];
		const struct sb_jobspec *who = NULL; /* the first job that needs room there */
		bool first = true;
		uint64_t need = 0;
		for (size_t j = 0; j < lay->n && first; j++) {
			const struct sb_layout_file *b = &lay->files[j];
			if (b->dev != a->dev || !b->regular)
				continue;
			if (j < i)
				first = false; /* this file system was counted already */
			if (b->need > b->have) {
				need += b->need - b->have;
				if (!who)
					who = b->grower ? b->grower : b->spec;
			}
		}
		if (!first || !need)
			continue;
		char dir[PATH_MAX];
		struct statvfs vfs;
		sb_files_dir_of(a->path, dir, sizeof(dir));
		if (statvfs(dir, &vfs) != 0)
			continue; /* cannot tell: the writes themselves will say */
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		if (need > avail) {
			char where[SB_WHERE_MAX], hn[64], ha[64];
			const char *at = dir;
			if (who)
				at = sb_spec_where(who, who->filesize_min ? SB_OPT(filesize_min) : SB_OPT(size),
						   where, sizeof(where));
			sb_err_machine(at, "%s%s%snot enough free space in %s for the job files: %s more "
				       "needed, %s available: lower size= (or nrfiles=, numjobs=), or put "
				       "the files on another file system (directory=)", who ? "job " : "",
				       who ? who->name : "", who ? ": " : "", dir,
				       human(need, hn, sizeof(hn)), human(avail, ha, sizeof(ha)));
			return -ENOSPC;
		}
	}
	return 0;
}

