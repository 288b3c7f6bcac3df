/* csv.h: --export=csv:DIR (output/csv.c writes the files, output/csvdir.c
 * owns the folder and its manifest).  Private to output/ except for the
 * two calls in output.h. */
#ifndef SB_OUTPUT_CSV_H
#define SB_OUTPUT_CSV_H
#include <stdint.h>
#include <stdio.h>

struct sb_csv_entry {
	char name[256];
	uint64_t size, mtime_ns;
};

struct sb_outfile;

struct sb_csv_dir {
	const char *dir;
	struct sb_csv_entry *e;       /* written by this export */
	size_t n, cap;
	struct sb_csv_entry *old;     /* the manifest found in dir */
	size_t nold;
	struct sb_outfile *cur;       /* the CSV file being written (os/outfile.h) */
};

/* creates dir (and its parents), reads its manifest; 0 or -errno (reported) */
int sb_csv_dir_open(struct sb_csv_dir *d, const char *dir);
/* a CSV file of the export: replaces only a file the manifest lists
 * unchanged, else creates it (O_EXCL); NULL with the reason reported */
FILE *sb_csv_create(struct sb_csv_dir *d, const char *name);
/* closes it and records it for the manifest; 0 or -EIO (reported) */
int sb_csv_close(struct sb_csv_dir *d, const char *name, FILE *f);
/* writes the manifest and frees d; 0 or -errno (reported) */
int sb_csv_dir_close(struct sb_csv_dir *d);
/* a host series column's CSV name (its JSON key with its unit) in buf */
const char *sb_csv_host_col(const char *key, char *buf, size_t len);
#endif
