/* csvdir.c: the folder of --export=csv:DIR - checking it before the run,
 * creating it, and the rule that keeps storbench from overwriting what it
 * did not write.
 *
 * The rule: storbench records every CSV file it writes in DIR/
 * storbench-export.txt (name, size, mtime).  A *.csv file in DIR that is
 * not listed there, or whose size or mtime changed since, is not
 * storbench's: the export refuses (before the run, exit 2), naming the
 * file.  Listed, unchanged files are replaced; new files are created with
 * O_EXCL, so a file that appears meanwhile is not overwritten either.
 * Files storbench wrote earlier and does not write now stay (and stay
 * listed).  Nothing else in DIR is touched. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/outfile.h"
#include "lib/log.h"
#include "output/csv.h"
#include "output/output.h"

#define MANIFEST "storbench-export.txt"
#define MANIFEST_HEAD "# storbench --export=csv: the files storbench wrote here (name size mtime_ns); " \
	"storbench replaces only these, and only while unchanged\n"

static void path_in(const char *dir, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static int stat_entry(const char *dir, const char *name, struct sb_csv_entry *e)
{
	char p[PATH_MAX];
	struct stat st;
	path_in(dir, name, p, sizeof(p));
	if (stat(p, &st) < 0)
		return -errno;
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->size = (uint64_t)st.st_size;
	e->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
	return 0;
}

static int add(struct sb_csv_dir *d, const struct sb_csv_entry *e)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 32;
		struct sb_csv_entry *v = realloc(d->e, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->e = v;
		d->cap = cap;
	}
	d->e[d->n++] = *e;
	return 0;
}

static const struct sb_csv_entry *listed(const struct sb_csv_dir *d, const char *name)
{
	for (size_t i = 0; i < d->nold; i++)
		if (!strcmp(d->old[i].name, name))
			return &d->old[i];
	return NULL;
}

/* listed and unchanged since storbench wrote it */
static bool ours(const struct sb_csv_dir *d, const char *name)
{
	const struct sb_csv_entry *o = listed(d, name);
	struct sb_csv_entry now;
	return o && stat_entry(d->dir, name, &now) == 0 && now.size == o->size &&
	       now.mtime_ns == o->mtime_ns;
}

static void read_manifest(struct sb_csv_dir *d)
{
	char p[PATH_MAX], line[PATH_MAX + 64];
	path_in(d->dir, MANIFEST, p, sizeof(p));
	FILE *f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f)) {
		struct sb_csv_entry e;
		unsigned long long sz, mt;
		char name[sizeof(e.name)];
		if (line[0] == '#' || sscanf(line, "%255s %llu %llu", name, &sz, &mt) != 3)
			continue;
		if (d->nold % 32 == 0) {
			struct sb_csv_entry *v = realloc(d->old, (d->nold + 32) * sizeof(*v));
			if (!v)
				break;
			d->old = v;
		}
		snprintf(e.name, sizeof(e.name), "%s", name);
		e.size = sz;
		e.mtime_ns = mt;
		d->old[d->nold++] = e;
	}
	if (f)
		fclose(f);
}

/* a file named like the manifest that storbench did not write */
static bool manifest_foreign(const char *dir)
{
	char p[PATH_MAX], head[64] = "";
	path_in(dir, MANIFEST, p, sizeof(p));
	FILE *f = fopen(p, "re");
	if (!f)
		return errno != ENOENT;
	bool foreign = !fgets(head, sizeof(head), f) || strncmp(head, MANIFEST_HEAD, 24);
	fclose(f);
	return foreign;
}

static bool is_csv(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && !strcmp(name + n - 4, ".csv");
}

int sb_csv_check(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;
	if (!dir || !*dir) {
		sb_err("<cmdline>", "--export=csv: needs a folder: --export=csv:DIR");
		return -EINVAL;
	}
	snprintf(p, sizeof(p), "%s", dir);
	bool missing = false;
	/* a folder to be made: its nearest existing parent must take it */
	while (stat(p, &st) < 0) {
		if (errno != ENOENT) {
			sb_err("<cmdline>", "--export=csv:%s: %s: %s: give a folder storbench can create "
			       "or write", dir, p, strerror(errno));
			return -errno;
		}
		missing = true;
		char *slash = strrchr(p, '/');
		while (slash && slash > p && slash[1] == 0) {   /* trailing slashes */
			*slash = 0;
			slash = strrchr(p, '/');
		}
		if (!slash)
			snprintf(p, sizeof(p), ".");
		else if (slash == p)
			p[1] = 0;
		else
			*slash = 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		sb_err("<cmdline>", "--export=csv:%s: %s is not a folder: give a folder (it is created "
		       "when missing)", dir, p);
		return -ENOTDIR;
	}
	if (access(p, W_OK | X_OK) < 0) {
		sb_err("<cmdline>", "--export=csv:%s: cannot %s %s: %s: give a folder you can write",
		       dir, missing ? "create a folder in" : "write in", p, strerror(errno));
		return -EACCES;
	}
	if (missing)
		return 0;
	if (manifest_foreign(dir)) {
		sb_err("<cmdline>", "--export=csv:%s: %s/" MANIFEST " exists and storbench did not "
		       "write it: export to a new or empty folder, or move the file away", dir, dir);
		return -EEXIST;
	}
	struct sb_csv_dir d = { .dir = dir };
	read_manifest(&d);
	DIR *dd = opendir(dir);
	struct dirent *e;
	int rc = 0;
	while (!rc && dd && (e = readdir(dd))) {
		if (!is_csv(e->d_name) || ours(&d, e->d_name))
			continue;
		sb_err("<cmdline>", "--export=csv:%s: %s/%s exists and storbench did not write it (it is "
		       "not in %s/" MANIFEST ", or changed since): export to a new or empty folder, or "
		       "move the file away", dir, dir, e->d_name, dir);
		rc = -EEXIST;
	}
	if (dd)
		closedir(dd);
	free(d.old);
	return rc;
}

static int mkdirs(const char *dir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		int e = sb_outfile_mkdir(p, 0777, NULL, NULL); /* kept: the user's export */
		if (e && e != -EEXIST)
			return e;
		*s = '/';
	}
	int e = sb_outfile_mkdir(p, 0777, NULL, NULL);
	return e == -EEXIST ? 0 : e;
}

int sb_csv_dir_open(struct sb_csv_dir *d, const char *dir)
{
	memset(d, 0, sizeof(*d));
	d->dir = dir;
	int e = mkdirs(dir);
	if (e) {
		sb_err("--export", "cannot create the folder %s: %s", dir, strerror(-e));
		return e;
	}
	if (manifest_foreign(dir)) {
		sb_err("--export", "%s/" MANIFEST " exists and storbench did not write it: move it "
		       "away", dir);
		return -EEXIST;
	}
	read_manifest(d);
	return 0;
}

FILE *sb_csv_create(struct sb_csv_dir *d, const char *name)
{
	char p[PATH_MAX];
	path_in(d->dir, name, p, sizeof(p));
	struct stat st;
	if (!ours(d, name) && lstat(p, &st) == 0) {
		sb_err("--export", "%s: %s: storbench did not write it; move it away or export to "
		       "another folder", p, strerror(EEXIST));
		return NULL;
	}
	if (!d->cur && !(d->cur = calloc(1, sizeof(*d->cur))))
		return NULL;
	/* a temporary renamed over it once whole (sb_csv_close) */
	if (sb_outfile_open(d->cur, p, &(struct sb_outname){ "--export", NULL, "the CSV file" }, 0))
		return NULL; /* the gate said why */
	return d->cur->f;
}

int sb_csv_close(struct sb_csv_dir *d, const char *name, FILE *f)
{
	struct sb_csv_entry e;
	int r = d->cur && d->cur->f == f ? sb_outfile_commit(d->cur) : -EBADF;
	if (r) {
		sb_err("--export", "%s/%s: write failed: %s (a file that was there is left as it "
		       "was)", d->dir, name, strerror(-r));
		return r;
	}
	if (stat_entry(d->dir, name, &e) == 0)
		return add(d, &e);
	return 0;
}

/* the manifest: what was written now, then the earlier files still there
 * and unchanged; replaced through a temporary file */
int sb_csv_dir_close(struct sb_csv_dir *d)
{
	char p[PATH_MAX];
	struct sb_outfile of;
	int rc = 0;
	path_in(d->dir, MANIFEST, p, sizeof(p));
	free(d->cur);
	d->cur = NULL;
	if (sb_outfile_open(&of, p, &(struct sb_outname){ "--export", NULL, "the manifest" }, 0)) {
		rc = -EIO; /* the gate said why */
	} else {
		FILE *f = of.f;
		fputs(MANIFEST_HEAD, f);
		for (size_t i = 0; i < d->n; i++)
			fprintf(f, "%s %llu %llu\n", d->e[i].name, (unsigned long long)d->e[i].size,
				(unsigned long long)d->e[i].mtime_ns);
		for (size_t i = 0; i < d->nold; i++) {
			bool now = false;
			for (size_t k = 0; k < d->n && !now; k++)
				now = !strcmp(d->e[k].name, d->old[i].name);
			if (!now && ours(d, d->old[i].name))
				fprintf(f, "%s %llu %llu\n", d->old[i].name,
					(unsigned long long)d->old[i].size,
					(unsigned long long)d->old[i].mtime_ns);
		}
		rc = sb_outfile_commit(&of);
	}
	if (rc)
		sb_err("--export", "%s: %s", p, strerror(-rc));
	free(d->e);
	free(d->old);
	d->e = d->old = NULL;
	return rc;
}
