/* files.c: lay out the files of a run (see files.h).  Everything is checked
 * for the whole run before the first byte is written, and files storbench did
 * not create are never truncated or removed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "os/outfile.h"
#include "run/bdev.h"
#include "run/engtable.h"
#include "run/files.h"
#include "run/rng.h"
#include "run/run.h"
#include "run/thread.h"
#include "run/workload.h"
#include "lib/datagen.h"
#include "lib/log.h"
#include "os/blkdev.h"
#include "os/mounts.h"
#include "os/scratch.h"
#include "parse/options.h"


/* a file a killed run made (its mark names a process that is gone): say
 * so; it is used like any existing file and never removed by this run */
static void note_leftover(const char *path)
{
	struct sb_scratch_mark m;
	struct stat st;
	char who[600], dir[PATH_MAX];
	static char *said[16]; /* a sweep plans every point: say it once */
	if (sb_scratch_read_mark(path, &m) != 1 || m.kept || sb_scratch_owner(&m) != SB_OWNER_DEAD ||
	    lstat(path, &st) != 0 || !sb_scratch_mark_names(&m, &st))
		return; /* a copy that kept the mark is the user's: --cleanup leaves it too */
	unsigned i = 0;
	while (i < 16 && said[i] && strcmp(said[i], path))
		i++;
	if (i < 16 && said[i])
		return;
	if (i < 16)
		said[i] = strdup(path);
	sb_scratch_mark_str(&m, who, sizeof(who));
	sb_files_dir_of(path, dir, sizeof(dir));
	sb_warn(path, "left over from a storbench run that did not finish (%s); this run uses "
		"it but will not remove it: remove such leftovers with storbench --cleanup %s",
		who, dir);
}

/* the layout entry for path, added (with what stat says) when new */
static int layout_find(struct sb_layout *lay, const char *path, const struct sb_jobspec *s,
		       size_t *idx)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT && errno != ENOTDIR) {
		int e = errno;
		sb_err(path, "cannot stat: %s", strerror(e));
		return -e;
	}
	for (size_t i = 0; i < lay->n; i++) {
		struct sb_layout_file *f = &lay->files[i];
		if (!strcmp(f->path, path) ||
		    (exists && f->exists && f->dev == st.st_dev && f->ino == st.st_ino)) {
			*idx = i;
			return 0;
		}
	}
	if (lay->n == lay->cap) {
		size_t cap = lay->cap ? lay->cap * 2 : 16;
		void *p = realloc(lay->files, cap * sizeof(*lay->files));
		if (!p)
			return -ENOMEM;
		lay->files = p;
		lay->cap = cap;
	}
	struct sb_layout_file *f = &lay->files[lay->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	f->allow_mounted = true;
	f->claim_fd = -1;
	f->exists = exists;
	if (exists) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		f->regular = S_ISREG(st.st_mode);
		f->is_bdev = S_ISBLK(st.st_mode);
		f->rdev = st.st_rdev;
		f->have = f->regular ? (uint64_t)st.st_size : 0;
		f->is_dir = S_ISDIR(st.st_mode);
		f->is_pipe = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
		f->user = f->regular && !sb_scratch_made_here(path);
		if (f->regular)
			note_leftover(path);
	} else {
		int e = sb_files_plan_parent(path, s, &f->dev); /* said why */
		if (e < 0) {
			free(f->path);
			return e;
		}
		f->mkparents = e == 1;
		f->regular = true;
	}
	*idx = lay->n++;
	return 0;
}

static int existing_size(struct sb_layout_file *lf, uint64_t *size)
{
	if (lf->regular) {
		*size = lf->have;
		return 0;
	}
	if (!lf->is_bdev) {
		*size = 0;
		return 0;
	}
	int fd = open(lf->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = sb_os_bdev_size(fd, size);
	close(fd);
	lf->have = *size;
	return r;
}

/* name of file i of thread t: from filename=, or jobname.t.i */
static int file_path(const struct sb_jobspec *s, unsigned t, unsigned i, char *out, size_t len)
{
	char name[PATH_MAX], dir[PATH_MAX];
	const char *dirs = s->directory;
	if (s->filename) {
		const char *p = s->filename;
		for (unsigned k = 0; k < i; k++)
			p = strchr(p, ':') + 1;
		const char *e = strchr(p, ':');
		snprintf(name, sizeof(name), "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
	} else {
		sb_files_gen_name(s, t, i, name, sizeof(name));
	}
	if (!dirs || !*dirs || name[0] == '/')
		return (size_t)snprintf(out, len, "%s", name) < len ? 0 : -ENAMETOOLONG;
	unsigned ndirs = 1;
	for (const char *p = dirs; *p; p++)
		ndirs += *p == ':';
	const char *p = dirs;
	for (unsigned k = 0; k < i % ndirs; k++)
		p = strchr(p, ':') + 1;
	const char *e = strchr(p, ':');
	snprintf(dir, sizeof(dir), "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
	return (size_t)snprintf(out, len, "%s/%s", dir, name) < len ? 0 : -ENAMETOOLONG;
}

static unsigned count_names(const char *list)
{
	unsigned n = 1;
	for (; *list; list++)
		n += *list == ':';
	return n;
}

/* region length of one file of a job, before the existing size is known */
static uint64_t planned_len(const struct sb_jobspec *s, unsigned nfiles, struct sb_rng *rng)
{
	if (s->filesize_min) { /* fio: LOW + a random share of the range, down to the smallest bs */
		uint64_t span = s->filesize_max > s->filesize_min ? s->filesize_max - s->filesize_min : 0;
		uint64_t v = s->filesize_min + (span ? sb_rng_below(rng, span) : 0);
		return span && v >= s->bs_lo ? v - v % s->bs_lo : v;
	}
	return s->size / nfiles;
}

/* Start of thread t's I/O region in a file of real bytes (0: the file does
 * not exist yet) that the job sizes to planned bytes, as fio's
 * get_start_offset: offset=N% is of the real size (so 0 for a file still to
 * be created), offset_increment=N% of the real or else the planned size;
 * either percentage aligns the sum up to offset_align or the smallest bs. */
static uint64_t region_start(const struct sb_jobspec *s, unsigned t, uint64_t real,
			     uint64_t planned)
{
	bool align = s->offset_pct > 0 || s->offset_increment_pct > 0;
	uint64_t inc = s->offset_increment;
	if (s->offset_increment_pct > 0)
		inc = (uint64_t)(s->offset_increment_pct * (double)(real ? real : planned) / 100.0);
	uint64_t off = s->offset_pct > 0 ? (uint64_t)((double)real * s->offset_pct / 100.0) : s->offset;
	off += sb_files_thread_number(s, t) * inc;
	uint64_t al = s->offset_align ? s->offset_align : s->bs_lo;
	if (align && al && off % al)
		off += al - off % al;
	return off;
}

/* size=N%: the share of the file's real size from start on, down to the
 * smallest block size (fio) */
static int pct_len(const struct sb_jobspec *s, const struct sb_layout_file *lf, uint64_t have,
		   uint64_t start, uint64_t *len)
{
	char where[SB_WHERE_MAX];
	sb_spec_where(s, SB_OPT(size), where, sizeof(where));
	if (!lf->exists || !have) {
		const char *o = SB_OPT(size)->name;
		sb_err(where, "job %s: %s=%g%% is a share of the size of %s, which does not exist "
		       "yet (or is empty): give %s= in bytes, e.g. %s=1g (fio refuses it too)",
		       s->name, o, s->size_pct, lf->path, o, o);
		return -EINVAL;
	}
	uint64_t v = (uint64_t)((double)have * s->size_pct / 100.0);
	if (v > (have > start ? have - start : 0))
		v = have > start ? have - start : 0;
	*len = v - v % s->bs_lo;
	if (!*len) {
		sb_err(where, "job %s: %s=%g%% of %s (%" PRIu64 " bytes) from byte %" PRIu64
		       " holds no block of %" PRIu64 " bytes: raise the percentage or lower %s=",
		       s->name, SB_OPT(size)->name, s->size_pct, lf->path, have, start, s->bs_lo,
		       SB_OPT(offset)->name);
		return -EINVAL;
	}
	return 0;
}

static int plan_file(struct sb_layout *lay, const struct sb_jobspec *s, struct sb_file *tf,
		     size_t *lfi, uint64_t len, unsigned t)
{
	int r = layout_find(lay, tf->path, s, lfi);
	if (r)
		return r;
	struct sb_layout_file *lf = &lay->files[*lfi];
	r = sb_files_check_kind(lf, s);
	if (r)
		return r;
	uint64_t have = 0, start = s->offset;
	if (!len || s->size_pct > 0 || s->offset_pct > 0 || s->offset_increment_pct > 0) {
		r = existing_size(lf, &have);
		if (r) {
			char where[SB_WHERE_MAX];
			sb_spec_where(s, SB_OPT(filename), where, sizeof(where));
			sb_err(where, "job %s: cannot get the size of %s: %s", s->name, lf->path,
			       strerror(-r));
			return r;
		}
	}
	start = region_start(s, t, lf->exists ? have : 0, len);
	if (s->size_pct > 0) {
		r = pct_len(s, lf, have, start, &len);
		if (r)
			return r;
	} else if (!len && !(len = sb_files_fill_len(s, lf, have, start))) {
		char where[SB_WHERE_MAX];
		sb_spec_where(s, SB_OPT(filename), where, sizeof(where));
		if (have <= start) {
			if (lf->exists)
				sb_err(where, "job %s: size= is not set and %s has no data past "
				       "offset=%" PRIu64 " (it holds %" PRIu64 " bytes): set size= "
				       "or filesize= to the bytes to use", s->name, lf->path, start,
				       have);
			else
				sb_err_machine(where, "job %s: size= is not set and %s does not exist: "
					       "set size= or filesize= to the bytes to use", s->name, lf->path);
			return -EINVAL;
		}
		len = have - start;
	}
	if (s->file_append && lf->exists && !lf->is_bdev) {
		uint64_t fhave;
		if (!existing_size(lf, &fhave))
			start += fhave; /* fio: I/O after the end of the file */
	}
	if (start > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - start) {
		/* parse/check_range.c refuses what the job file alone decides;
		 * this is what the rank or the file's size adds (offset_increment
		 * across MPI ranks, file_append) */
		char where[SB_WHERE_MAX];
		sb_spec_where(s, SB_OPT(offset), where, sizeof(where));
		sb_err(where, "job %s: the region of thread %u in %s, %" PRIu64 " bytes from byte %"
		       PRIu64 ", ends past byte %" PRId64 " (2^63-1), the largest file offset: lower "
		       "offset=, offset_increment= or size=", s->name, t, lf->path, len, start,
		       INT64_MAX);
		return -EINVAL;
	}
	tf->region_start = start;
	tf->region_len = len;
	tf->size = start + len;
	if ((s->rw_seq_add || s->zonemode) && !existing_size(lf, &have) && have > tf->size)
		tf->real_size = have; /* fio wraps rw=read:N's holes, strided zones at the file's end */
	tf->is_bdev = lf->is_bdev;
	if (tf->size > lf->need && !s->fill_device) /* fill_device: not laid out */
		lf->need = tf->size;
	if (!lf->spec)
		lf->spec = s;
	if ((s->rw & SB_RW_READ) || (s->overwrite && (s->rw & SB_RW_WRITE)))
		lf->fill = true;
	if ((s->rw & (SB_RW_WRITE | SB_RW_TRIM)) && !s->verify_only && !s->create_only)
		lf->writes_data = true;
	if (s->verify && (s->verify_only || !(s->rw & SB_RW_WRITE)) && !lf->verifier)
		lf->verifier = s; /* it checks what is there: nothing is laid out for it */
	if (lf->regular && tf->size > lf->have && !s->fill_device && !lf->grower)
		lf->grower = s;
	if (s->rw & (SB_RW_WRITE | SB_RW_TRIM)) {
		lf->written = true;
		lf->allow_mounted &= s->allow_mounted_write;
		if (!lf->writer && !s->allow_mounted_write)
			lf->writer = s;
	}
	lf->unlink |= s->unlink;
	return 0;
}

static int plan_job(struct sb_layout *lay, const struct sb_jobspec *s, struct sb_jobfiles *jf,
		    bool nodiskio)
{
	struct sb_rng rng;
	char path[PATH_MAX];
	sb_rng_seed(&rng, s->randseed);
	jf->nthreads = s->numjobs ? s->numjobs : 1;
	jf->nfiles = s->filename ? count_names(s->filename) : (s->nrfiles ? s->nrfiles : 1);
	struct sb_dirlist dl = { 0 };
	if (s->opendir) { /* fio's opendir: every regular file below, at its size */
		int e = sb_files_opendir(s, &dl);
		if (e)
			return e;
		jf->nfiles = (unsigned)dl.n;
	}
	size_t n = (size_t)jf->nthreads * jf->nfiles;
	jf->tmpl = calloc(n, sizeof(*jf->tmpl));
	jf->lf = calloc(n, sizeof(*jf->lf));
	if (!jf->tmpl || !jf->lf) {
		sb_dirlist_free(&dl);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		struct sb_file *tf = &jf->tmpl[k];
		unsigned t = (unsigned)(k / jf->nfiles), i = (unsigned)(k % jf->nfiles);
		int r = dl.n ? 0 : file_path(s, t, i, path, sizeof(path));
		tf->path = r ? NULL : strdup(dl.n ? dl.paths[i] : path);
		if (!tf->path) {
			sb_dirlist_free(&dl);
			return r ? r : -ENOMEM;
		}
		tf->fd = -1;
		tf->index = i;
		jf->lf[k] = SIZE_MAX;
		uint64_t len = planned_len(s, jf->nfiles, &rng);
		if (nodiskio && !len && (r = sb_engine_no_size(s, tf->path, &len))) {
			sb_dirlist_free(&dl);
			return r;
		}
		if (nodiskio) {
			tf->region_start = region_start(s, t, 0, len);
			tf->region_len = len;
			tf->size = tf->region_start + len;
			continue;
		}
		r = plan_file(lay, s, tf, &jf->lf[k], len, t);
		if (r) {
			sb_dirlist_free(&dl);
			return r;
		}
	}
	sb_dirlist_free(&dl);
	return 0;
}

int sb_files_plan(const struct sb_joblist *jl, const bool *nodiskio,
		  const struct sb_run_env *env, struct sb_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	lay->sysroot = env && env->sysroot ? env->sysroot : "";
	lay->defer_keep = env && env->defer_keep;
	lay->jobs = calloc(jl->njobs ? jl->njobs : 1, sizeof(*lay->jobs));
	if (!lay->jobs)
		return -ENOMEM;
	lay->njobs = jl->njobs;
	int r = 0;
	for (size_t j = 0; j < jl->njobs && !r; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		if (!(sb_workload_of(s)->flags & SB_WL_THREADS))
			continue; /* the other workloads lay out their own files (ml/) */
		r = plan_job(lay, s, &lay->jobs[j], nodiskio[j]);
	}
	if (!r)
		r = sb_files_check_user(lay);
	if (!r)
		r = sb_files_check_outputs(jl, lay, env ? env->output : NULL);
	for (size_t i = 0; i < lay->n && !r; i++)
		if (lay->files[i].is_bdev)
			r = sb_bdev_check(lay, i);
	if (!r)
		r = sb_files_check_space(lay);
	return r;
}

static int preallocate(int fd, const struct sb_layout_file *lf)
{
	off_t from = (off_t)lf->have, len = (off_t)(lf->need - lf->have);
	int r = 0;
	switch (lf->spec->fallocate) {
	case SB_FALLOC_POSIX:
		r = posix_fallocate(fd, from, len);
		if (r == EOPNOTSUPP || r == EINVAL)
			r = 0; /* file system without preallocation: sparse is fine */
		return -r;
	case SB_FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, from, len) != 0 && errno != EOPNOTSUPP)
			return -errno;
		return 0;
	default:
		return 0;
	}
}

/* write pseudo-random data over [have, need) */
static int fill(int fd, const struct sb_layout_file *lf)
{
	enum { CHUNK = 1 << 20 };
	uint64_t *buf = malloc(CHUNK);
	if (!buf)
		return -ENOMEM;
	uint64_t key = sb_dg_mix(lf->ino, lf->need);
	int r = 0;
	for (uint64_t off = lf->have; off < lf->need && !r;) {
		if (sb_stopping()) {
			r = -EINTR;
			break;
		}
		size_t n = lf->need - off < CHUNK ? (size_t)(lf->need - off) : CHUNK;
		sb_dg_random(key, off, buf, n); /* every byte random: nothing to compress or dedupe */
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0)
			r = w < 0 ? -errno : -EIO;
		else
			off += (uint64_t)w;
	}
	free(buf);
	if (!r && lf->spec->create_fsync && fsync(fd) != 0)
		r = -errno;
	if (!r) /* fio's invalidate=1: the run reads the device, not the page cache */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return r;
}

/* once per process: where the mark cannot be set, a killed run's files
 * cannot be recognised later */
static void warn_unmarked(const char *path, int err)
{
	static bool warned;
	char dir[PATH_MAX];
	if (warned)
		return;
	warned = true;
	sb_files_dir_of(path, dir, sizeof(dir));
	sb_warn(dir, "cannot set the user.storbench extended attribute on the files made here "
		"(%s): if this run is killed, storbench --cleanup will not recognise %s; remove "
		"it yourself then", strerror(err ? err : EIO), path);
}

int sb_files_lay_out(struct sb_layout_file *lf)
{
	if (lf->mkparents) {
		int e = sb_files_make_parents(lf->path, lf->spec ? lf->spec->name : NULL);
		if (e)
			return e;
		lf->mkparents = false;
	}
	int fd = lf->exists ? sb_outfile_open_data(lf->path, O_WRONLY, 0) /* exclusive + marked: */
		 : sb_outfile_create(lf->path, O_WRONLY, 0644, lf->spec ? lf->spec->name : NULL, &lf->own);
	if (fd < 0)
		return fd;
	lf->created = !lf->exists;
	if (lf->created)
		sb_scratch_remember(lf->path, &lf->own);
	if (lf->created && !lf->own.marked)
		warn_unmarked(lf->path, lf->own.mark_err);
	int r = sb_files_chown(fd, lf) ? -errno : preallocate(fd, lf); /* uid=, gid= */
	if (!r && lf->fill)
		r = fill(fd, lf);
	else if (!r && ftruncate(fd, (off_t)lf->need) != 0)
		r = -errno;
	close(fd);
	return r;
}

int sb_files_create(struct sb_layout *lay)
{
	for (size_t i = 0; i < lay->n; i++) {
		struct sb_layout_file *lf = &lay->files[i];
		if (!lf->regular || (lf->need <= lf->have && !sb_files_fill_new(lf)) ||
		    (lf->verifier && !lf->writes_data && lf->exists) ||
		    (!lf->exists && sb_files_on_open(lf)))
			continue;
		int r = sb_files_lay_out(lf);
		if (r) {
			lay->failed = i; /* the caller reports it as that file's job's error */
			for (size_t k = 0; k <= i; k++)
				if (lay->files[k].created &&
				    sb_scratch_unlink(lay->files[k].path, &lay->files[k].own) == 0)
					lay->files[k].created = false;
			return r;
		}
	}
	for (size_t j = 0; j < lay->njobs; j++) /* engines that destroy data ask f->created */
		for (size_t k = 0; lay->jobs[j].tmpl && k < (size_t)lay->jobs[j].nthreads * lay->jobs[j].nfiles; k++)
			if (lay->jobs[j].lf[k] != SIZE_MAX)
				lay->jobs[j].tmpl[k].created = lay->files[lay->jobs[j].lf[k]].created;
	return 0;
}

void sb_files_cleanup(struct sb_layout *lay, bool remove_all_created)
{
	for (size_t i = 0; i < lay->n; i++) {
		struct sb_layout_file *lf = &lay->files[i];
		if (lf->created && (lf->unlink || remove_all_created))
			sb_scratch_unlink(lf->path, &lf->own); /* only the inode it made */
		else if (lf->created && !lay->defer_keep)
			sb_scratch_keep(lf->path, &lf->own); /* kept on purpose (unlink=0) */
		if (lf->claim_fd >= 0)
			sb_bdev_unclaim(lf->claim_fd);
		free(lf->path);
	}
	for (size_t j = 0; j < lay->njobs; j++) {
		struct sb_jobfiles *jf = &lay->jobs[j];
		for (size_t k = 0; jf->tmpl && k < (size_t)jf->nthreads * jf->nfiles; k++)
			free(jf->tmpl[k].path);
		free(jf->tmpl);
		free(jf->lf);
	}
	free(lay->files);
	free(lay->jobs);
	memset(lay, 0, sizeof(*lay));
}

int sb_files_open(struct sb_file *f, const struct sb_jobspec *s)
{
	int flags = O_CLOEXEC | (s->direct ? O_DIRECT : 0) | sb_files_open_flags(s);
	const struct sb_engine_ops *e = sb_engine_find(s->ioengine); /* falloc: a read allocates */
	bool rw = (s->rw & (SB_RW_WRITE | SB_RW_TRIM)) || (e && (e->flags & SB_ENGINE_NODATA));
	flags |= rw ? O_RDWR : O_RDONLY;
	f->fd = sb_outfile_open_data(f->path, flags, 0644); /* O_CREAT: create_on_open=1 */
	if (f->fd < 0)
		return f->fd;
	if (!f->is_bdev && !s->direct && !s->no_invalidate && !s->pre_read) /* fio: pre_read wins */
		posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	return sb_files_hints(f, s);
}

void sb_files_close(struct sb_file *f)
{
	if (f->fd >= 0 && f->fsync_on_close)
		(void)fsync(f->fd);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

size_t sb_files_disks(const struct sb_layout *lay, char (*names)[64], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < lay->n && n < max; i++) {
		const struct sb_layout_file *lf = &lay->files[i];
		struct stat st;
		dev_t dev = lf->is_bdev ? lf->rdev : lf->dev;
		if (!lf->exists && !lf->created)
			continue;
		if (!lf->exists && stat(lf->path, &st) == 0)
			dev = st.st_dev;
		char name[64];
		if (sb_os_dev_name("", dev, true, name, sizeof(name)))
			continue;
		bool dup = false;
		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp(names[k], name);
		if (!dup)
			snprintf(names[n++], 64, "%s", name);
	}
	return n;
}
