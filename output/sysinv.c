/* sysinv.c: the system inventory (stats/sysinv.h) as output - the JSON
 * "system" object and the "system" block at the end of normal output.  An
 * unknown figure is null in JSON and "?" in text, never 0. */
#include <stddef.h>
#include <stdio.h>

#include "output/jsonw.h"
#include "output/sysinv.h"
#include "stats/sysinv.h"

static void str(struct sb_jw *w, const char *key, const char *v)
{
	if (v[0])
		sb_jw_str(w, key, v);
	else
		sb_jw_null(w, key);
}

static void num(struct sb_jw *w, const char *key, int64_t v)
{
	if (v >= 0)
		sb_jw_i64(w, key, v);
	else
		sb_jw_null(w, key);
}

/* An element's figures in JSON order, keys named after the struct members
 * (stats/sysinv.h documents them): a string ("" unknown), a count or size
 * (-1 unknown) or a tri-state flag (-1 unknown). */
enum kind { K_STR, K_NUM, K_FLAG };
struct field {
	const char *key;
	enum kind kind;
	size_t off;
};
#define F(type, member, kind) { #member, kind, offsetof(type, member) }
static const struct field dev_fields[] = {
	F(struct sb_sysinv_dev, name, K_STR),
	F(struct sb_sysinv_dev, model, K_STR),
	F(struct sb_sysinv_dev, firmware, K_STR),
	F(struct sb_sysinv_dev, size_bytes, K_NUM),
	F(struct sb_sysinv_dev, logical_block_size, K_NUM),
	F(struct sb_sysinv_dev, physical_block_size, K_NUM),
	F(struct sb_sysinv_dev, rotational, K_FLAG),
	F(struct sb_sysinv_dev, scheduler, K_STR),
	F(struct sb_sysinv_dev, nr_requests, K_NUM),
	F(struct sb_sysinv_dev, max_sectors_kb, K_NUM),
	{ NULL, K_STR, 0 },
};
static const struct field gpu_fields[] = {
	F(struct sb_sysinv_gpu, name, K_STR),
	F(struct sb_sysinv_gpu, uuid, K_STR),
	F(struct sb_sysinv_gpu, pci_bus_id, K_STR),
	F(struct sb_sysinv_gpu, mem_total_bytes, K_NUM),
	{ NULL, K_STR, 0 },
};
#undef F

static void json_fields(struct sb_jw *w, const struct field *f, const void *base)
{
	sb_jw_obj_begin(w, NULL);
	for (; f->key; f++) {
		const char *p = (const char *)base + f->off;
		if (f->kind == K_STR)
			str(w, f->key, p);
		else if (f->kind == K_NUM)
			num(w, f->key, *(const int64_t *)p);
		else if (*(const int *)p >= 0)
			sb_jw_bool(w, f->key, *(const int *)p != 0);
		else
			sb_jw_null(w, f->key);
	}
	sb_jw_obj_end(w);
}

static void json_fs(struct sb_jw *w, const struct sb_sysinv_fs *fs)
{
	sb_jw_obj_begin(w, NULL);
	sb_jw_str(w, "path", fs->path);
	str(w, "device", fs->device);
	str(w, "mount_point", fs->mount_point);
	str(w, "fstype", fs->fstype);
	str(w, "source", fs->source);
	str(w, "mount_options", fs->mount_options);
	str(w, "fs_options", fs->fs_options);
	sb_jw_arr_begin(w, "disks");
	for (unsigned i = 0; i < fs->ndisks; i++)
		sb_jw_str(w, NULL, fs->disks[i]);
	sb_jw_arr_end(w);
	sb_jw_obj_end(w);
}

void sb_json_sysinv(struct sb_jw *w, const struct sb_sysinv *s)
{
	if (!s)
		return;
	sb_jw_obj_begin(w, "system");
	str(w, "hostname", s->hostname);
	str(w, "kernel", s->kernel);
	str(w, "cpu_model", s->cpu_model);
	num(w, "sockets", s->sockets);
	num(w, "cores", s->cores);
	num(w, "threads", s->threads);
	num(w, "numa_nodes", s->numa_nodes);
	num(w, "mem_total_bytes", s->mem_total_bytes);
	sb_jw_arr_begin(w, "filesystems");
	for (unsigned i = 0; i < s->nfs; i++)
		json_fs(w, &s->fs[i]);
	sb_jw_arr_end(w);
	sb_jw_arr_begin(w, "devices");
	for (unsigned i = 0; i < s->ndevs; i++)
		json_fields(w, dev_fields, &s->dev[i]);
	sb_jw_arr_end(w);
	sb_jw_obj_begin(w, "gpu");
	if (s->gpu_present) {
		str(w, "driver_version", s->gpu_driver);
		sb_jw_arr_begin(w, "devices");
		for (unsigned i = 0; i < s->ngpus; i++)
			json_fields(w, gpu_fields, &s->gpu[i]);
		sb_jw_arr_end(w);
	} else {
		sb_jw_bool(w, "absent", true);
		sb_jw_str(w, "reason", s->gpu_reason);
	}
	sb_jw_obj_end(w);
	sb_jw_obj_end(w);
}

/* ---- normal output ---- */

static const char *txt(const char *v)
{
	return v[0] ? v : "?";
}

static void nr(char *buf, size_t len, int64_t v)
{
	if (v >= 0)
		snprintf(buf, len, "%lld", (long long)v);
	else
		snprintf(buf, len, "?");
}

/* bytes as GiB (or MiB below 1 GiB), "?" unknown */
static void size_text(char *buf, size_t len, int64_t b)
{
	if (b < 0)
		snprintf(buf, len, "?");
	else if (b >= 1024ll * 1024 * 1024)
		snprintf(buf, len, "%.1fGiB", (double)b / (1024.0 * 1024 * 1024));
	else
		snprintf(buf, len, "%.1fMiB", (double)b / (1024.0 * 1024));
}

void sb_normal_sysinv(FILE *f, const struct sb_sysinv *s)
{
	char a[32], b[32], c[32], d[32], e[32];
	if (!s)
		return;
	fprintf(f, "\nSystem: %s, kernel %s\n", txt(s->hostname), txt(s->kernel));
	nr(a, sizeof(a), s->sockets);
	nr(b, sizeof(b), s->cores);
	nr(c, sizeof(c), s->threads);
	nr(d, sizeof(d), s->numa_nodes);
	size_text(e, sizeof(e), s->mem_total_bytes);
	fprintf(f, "  cpu: %s; sockets=%s, cores=%s, threads=%s, numa nodes=%s; memory=%s\n",
		txt(s->cpu_model), a, b, c, d, e);
	for (unsigned i = 0; i < s->nfs; i++) {
		const struct sb_sysinv_fs *fs = &s->fs[i];
		if (fs->fstype[0])
			fprintf(f, "  fs: %s on %s (%s %s, %s)", fs->path, txt(fs->mount_point),
				fs->fstype, txt(fs->source), txt(fs->mount_options));
		else
			fprintf(f, "  fs: %s (block device)", fs->path);
		for (unsigned k = 0; k < fs->ndisks; k++)
			fprintf(f, "%s%s", k ? "," : " disks=", fs->disks[k]);
		fputc('\n', f);
	}
	for (unsigned i = 0; i < s->ndevs; i++) {
		const struct sb_sysinv_dev *v = &s->dev[i];
		size_text(a, sizeof(a), v->size_bytes);
		nr(b, sizeof(b), v->logical_block_size);
		nr(c, sizeof(c), v->physical_block_size);
		nr(d, sizeof(d), v->nr_requests);
		nr(e, sizeof(e), v->max_sectors_kb);
		fprintf(f, "  disk %s: %s fw %s, %s, blocks %s/%s, %s, sched=%s, nr_requests=%s, "
			"max_sectors_kb=%s\n", v->name, txt(v->model), txt(v->firmware), a, b, c,
			v->rotational < 0 ? "rotational ?" : v->rotational ? "rotational" : "non-rotational",
			txt(v->scheduler), d, e);
	}
	if (s->gpu_present) {
		for (unsigned i = 0; i < s->ngpus; i++) {
			size_text(a, sizeof(a), s->gpu[i].mem_total_bytes);
			fprintf(f, "  gpu%u: %s, %s, pci %s, driver %s\n", i, s->gpu[i].name, a,
				txt(s->gpu[i].pci_bus_id), txt(s->gpu_driver));
		}
	} else {
		fprintf(f, "  gpu: absent (%s)\n", s->gpu_reason);
	}
}
