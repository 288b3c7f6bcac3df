/* fileopts.c: what fio's file options do to an open file before the job's
 * first I/O: fadvise_hint, write_hint, pre_read, and marking fsync_on_close.
 * Runs at open time, never on the per-I/O path. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist/dist.h"
#include "lib/log.h"
#include "parse/options.h"
#include "run/files.h"
#include "run/thread.h"

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036 /* F_LINUX_SPECIFIC_BASE + 12 */
#endif

/* pre_read: read the I/O region once, so the job starts from the page cache */
static int pre_read(const struct sb_file *f)
{
	enum { CHUNK = 1 << 20 };
	void *buf;
	if (posix_memalign(&buf, 4096, CHUNK))
		return -ENOMEM;
	int r = 0;
	for (uint64_t o = f->region_start; o < f->region_start + f->region_len;) {
		uint64_t left = f->region_start + f->region_len - o;
		ssize_t n = pread(f->fd, buf, left < CHUNK ? (size_t)left : CHUNK, (off_t)o);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		o += (uint64_t)n;
	}
	free(buf);
	return r;
}

int sb_files_hints(struct sb_file *f, const struct sb_jobspec *s)
{
	int adv = -1;
	if (s->fadvise_hint == SB_FADV_AUTO)
		adv = (s->rw & SB_RW_RANDOM) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	else if (s->fadvise_hint == SB_FADV_RANDOM)
		adv = POSIX_FADV_RANDOM;
	else if (s->fadvise_hint == SB_FADV_SEQUENTIAL)
		adv = POSIX_FADV_SEQUENTIAL;
	if (adv >= 0 && !f->is_bdev)
		(void)posix_fadvise(f->fd, 0, 0, adv); /* advice: a refusal changes nothing */
	if (s->write_hint != SB_WHINT_UNSET) {
		/* RWH_WRITE_LIFE_NONE is 1 ... EXTREME 5: our enum's order */
		uint64_t hint = s->write_hint;
		if (fcntl(f->fd, F_SET_RW_HINT, &hint) < 0)
			return -errno;
	}
	f->fsync_on_close = s->fsync_on_close && (s->rw & SB_RW_WRITE);
	if (s->pre_read && !s->direct)
		return pre_read(f);
	return 0;
}

void sb_files_format_name(const char *fmt, const char *job, unsigned jobnum, unsigned filenum,
			  char *out, size_t len)
{
	/* $rank, $hostname: the MPI rank and its host (0 and this host alone) */
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid", "$rank",
					    "$hostname" };
	const unsigned nkeys = sizeof(keys) / sizeof(keys[0]);
	size_t o = 0;
	out[0] = '\0';
	while (*fmt && o + 1 < len) {
		unsigned k = 0;
		while (k < nkeys && strncmp(fmt, keys[k], strlen(keys[k])))
			k++;
		int n = 0;
		if (k == 0)
			n = snprintf(out + o, len - o, "%s", job);
		else if (k == 1)
			n = snprintf(out + o, len - o, "%u", jobnum);
		else if (k == 2)
			n = snprintf(out + o, len - o, "%u", filenum);
		else if (k == 3)
			n = 0; /* the client's id in fio's client/server mode: empty locally, as fio */
		else if (k == 4)
			n = snprintf(out + o, len - o, "%d", sb_dist_rank());
		else if (k == 5)
			n = snprintf(out + o, len - o, "%s", sb_dist_hostname());
		if (k < nkeys) {
			fmt += strlen(keys[k]);
		} else { /* anything else, $foo included, is copied as written (fio) */
			out[o] = *fmt++;
			n = 1;
		}
		o = o + (size_t)n < len ? o + (size_t)n : len - 1;
		out[o] = '\0';
	}
}

void sb_files_gen_name(const struct sb_jobspec *s, unsigned t, unsigned i, char *out, size_t len)
{
	const char *fmt = s->filename_format;
	if (!fmt)
		fmt = sb_dist_size() > 1 && !s->no_unique_filename ? "$jobname.$jobnum.$filenum.rank$rank"
								   : "$jobname.$jobnum.$filenum";
	sb_files_format_name(fmt, s->name, t, i, out, len);
}

uint64_t sb_files_thread_number(const struct sb_jobspec *s, unsigned t)
{
	return (uint64_t)sb_dist_rank() * (s->numjobs ? s->numjobs : 1) + t;
}

static struct sb_dirlist *walk_list; /* nftw has no user pointer; parsing is single-threaded */

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	struct sb_dirlist *dl = walk_list;
	if (dl->n == dl->cap) {
		size_t cap = dl->cap ? dl->cap * 2 : 16;
		char **np = realloc(dl->paths, cap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		dl->paths = np;
		dl->cap = cap;
	}
	if (!(dl->paths[dl->n] = strdup(path)))
		return -ENOMEM;
	dl->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sb_files_opendir(const struct sb_jobspec *s, struct sb_dirlist *dl)
{
	char where[SB_WHERE_MAX];
	const struct sb_option *o = SB_OPT(opendir);
	walk_list = dl;
	int r = nftw(s->opendir, walk_one, 32, FTW_PHYS);
	walk_list = NULL;
	if (r == -ENOMEM) {
		sb_dirlist_free(dl);
		return -ENOMEM;
	}
	if (r) {
		int e = errno;
		sb_err(sb_spec_where(s, o, where, sizeof(where)), "%s=%s: cannot read the folder: %s",
		       o->name, s->opendir, strerror(e));
		sb_dirlist_free(dl);
		return -EINVAL;
	}
	if (!dl->n) {
		sb_err(sb_spec_where(s, o, where, sizeof(where)),
		       "%s=%s: the folder holds no regular file: put the files there or use filename=",
		       o->name, s->opendir);
		return -EINVAL;
	}
	qsort(dl->paths, dl->n, sizeof(*dl->paths), by_name);
	return 0;
}

void sb_dirlist_free(struct sb_dirlist *dl)
{
	for (size_t i = 0; i < dl->n; i++)
		free(dl->paths[i]);
	free(dl->paths);
	*dl = (struct sb_dirlist){ 0 };
}

int sb_files_open_flags(const struct sb_jobspec *s)
{
	return (s->sync_mode == SB_SYNC_SYNC ? O_SYNC : s->sync_mode == SB_SYNC_DSYNC ? O_DSYNC : 0) |
	       (s->create_on_open ? O_CREAT : 0);
}

bool sb_files_on_open(const struct sb_layout_file *lf)
{
	return lf->spec && lf->spec->create_on_open && !lf->spec->no_file_create;
}

int sb_files_chown(int fd, const struct sb_layout_file *lf)
{
	const struct sb_jobspec *s = lf->spec;
	if (!lf->created || !s || (!s->uid_on && !s->gid_on))
		return 0;
	return fchown(fd, s->uid_on ? (uid_t)s->uid : (uid_t)-1, s->gid_on ? (gid_t)s->gid : (gid_t)-1);
}
