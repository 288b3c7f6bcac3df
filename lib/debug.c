/* debug.c: --debug's categories, their mask and the message writer (see
 * debug.h).  The names and their order are fio 3.33's (debug.h enum
 * debug_flags; init.c debug_levels[]). */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "lib/debug.h"
#include "lib/log.h"

unsigned sb_debug_mask;
static FILE *dbg_out;

static const char *const names[SB_DBG_NR] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil",
	"job", "mutex", "profile", "time", "net", "rate", "compress", "steadystate",
	"helperthread", "zbd",
};

void sb_debug_names(char *buf, unsigned len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < SB_DBG_NR && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s,", names[i]);
	if (n < len)
		snprintf(buf + n, len - n, "all");
}

static int one(const char *w, size_t n, FILE *out)
{
	if (n == 3 && !strncmp(w, "all", 3)) {
		sb_debug_mask = (1u << SB_DBG_NR) - 1;
		fprintf(out, "storbench: set all debug options\n");
		return 0;
	}
	for (unsigned i = 0; i < SB_DBG_NR; i++)
		if (strlen(names[i]) == n && !strncmp(w, names[i], n)) {
			sb_debug_mask |= 1u << i;
			fprintf(out, "storbench: set debug option %s\n", names[i]);
			return 0;
		}
	char list[256];
	sb_debug_names(list, sizeof(list));
	sb_err("--debug", "'%.*s' is not a debug category: use one or more of %s (a comma "
	       "list), or --debug=? to list them", (int)n, w, list);
	return -EINVAL;
}

int sb_debug_parse(const char *val, FILE *out)
{
	char list[256];
	if (!val || !*val) {
		sb_debug_names(list, sizeof(list));
		sb_err("--debug", "needs a category: --debug=CATEGORY[,CATEGORY...], one of %s", list);
		return -EINVAL;
	}
	if (!strcmp(val, "?") || !strcmp(val, "help")) {
		sb_debug_names(list, sizeof(list));
		fprintf(out, "storbench: dumping debug options:%s\n", list);
		return 1;
	}
	for (const char *w = val; *w;) {
		size_t n = strcspn(w, ",");
		if (n && one(w, n, out))
			return -EINVAL;
		w += n + (w[n] == ',');
	}
	return 0;
}

void sb_debug_stream(FILE *f)
{
	dbg_out = f;
}

void sb_dbg(enum sb_dbg_cat c, const char *fmt, ...)
{
	char line[1024];
	FILE *f = dbg_out ? dbg_out : stdout;
	int n = snprintf(line, sizeof(line), "%-8s %-5ld ", names[c], (long)syscall(SYS_gettid));
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	size_t l = strlen(line);
	fprintf(f, "%s%s", line, l && line[l - 1] == '\n' ? "" : "\n");
}
