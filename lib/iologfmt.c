/* iologfmt.c: fio's iolog v2/v3 line format (see iologfmt.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/iologfmt.h"

static const char *const act_names[] = {
	[SB_IOLA_READ] = "read", [SB_IOLA_WRITE] = "write", [SB_IOLA_TRIM] = "trim",
	[SB_IOLA_SYNC] = "sync", [SB_IOLA_DATASYNC] = "datasync", [SB_IOLA_WAIT] = "wait",
	[SB_IOLA_ADD] = "add", [SB_IOLA_OPEN] = "open", [SB_IOLA_CLOSE] = "close",
};

const char *sb_iologfmt_act_name(enum sb_iola a)
{
	return act_names[a];
}

int sb_iologfmt_version(const unsigned char *head, size_t n)
{
	size_t l2 = strlen(SB_IOLOG_V2);
	if (n >= l2 && !memcmp(head, SB_IOLOG_V2, l2))
		return 2;
	if (n >= l2 && !memcmp(head, SB_IOLOG_V3, l2))
		return 3;
	if (n >= 4) { /* struct blk_io_trace starts with its magic 0x65617400 | version */
		uint32_t le = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 |
			      (uint32_t)head[3] << 24;
		uint32_t be = (uint32_t)head[3] | (uint32_t)head[2] << 8 | (uint32_t)head[1] << 16 |
			      (uint32_t)head[0] << 24;
		if ((le & 0xffffff00u) == 0x65617400u || (be & 0xffffff00u) == 0x65617400u)
			return -1;
	}
	return 0;
}

/* the next white-space separated word: start and length; 0 when none */
static size_t word(const char **p, const char **w)
{
	const char *s = *p;
	while (*s && isspace((unsigned char)*s))
		s++;
	*w = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	*p = s;
	return (size_t)(s - *w);
}

static bool number(const char *w, size_t n, uint64_t *v)
{
	char buf[32], *end;
	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)w[0]))
		return false;
	memcpy(buf, w, n);
	buf[n] = 0;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (*end || errno)
		return false;
	*v = x;
	return true;
}

int sb_iologfmt_parse(const char *line, int version, struct sb_iolog_rec *r, const char **why)
{
	const char *p = line, *w[6];
	size_t n[6];
	unsigned k = 0;
	while (k < 6 && (n[k] = word(&p, &w[k])))
		k++;
	if (!k)
		return 0;
	if (k == 6) {
		*why = "too many fields";
		return -1;
	}
	unsigned b = 0;
	memset(r, 0, sizeof(*r));
	if (version == 3) {
		if (!number(w[0], n[0], &r->t_us)) {
			*why = "the first field of a version 3 line is its time in microseconds";
			return -1;
		}
		b = 1;
	}
	if (k - b != 2 && k - b != 4) {
		*why = version == 3 ? "expected TIME FILE ACTION [OFFSET LENGTH]" :
				      "expected FILE ACTION [OFFSET LENGTH]";
		return -1;
	}
	r->name = w[b];
	r->name_len = n[b];
	const char *a = w[b + 1];
	size_t an = n[b + 1];
	unsigned lo = k - b == 2 ? SB_IOLA_ADD : SB_IOLA_READ;
	unsigned hi = k - b == 2 ? SB_IOLA_CLOSE : SB_IOLA_WAIT;
	for (unsigned i = lo; i <= hi; i++) {
		if (strlen(act_names[i]) == an && !memcmp(a, act_names[i], an)) {
			r->act = (enum sb_iola)i;
			if (k - b == 2)
				return 1;
			if (r->act == SB_IOLA_WAIT && version == 3) {
				*why = "'wait' is not allowed in version 3 (the times say when)";
				return -1;
			}
			if (!number(w[b + 2], n[b + 2], &r->offset) || !number(w[b + 3], n[b + 3], &r->len)) {
				*why = "OFFSET and LENGTH must be byte counts";
				return -1;
			}
			return 1;
		}
	}
	*why = k - b == 2 ? "unknown file action (add, open or close)" :
			    "unknown I/O action (read, write, trim, sync, datasync or wait)";
	return -1;
}
