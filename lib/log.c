/* log.c: the error reporter (see log.h). */
#include <stdio.h>
#include <string.h>

#include "lib/log.h"

static char *cap_buf;
static unsigned cap_len;
static unsigned nwarn, nerr, nmachine;
static int machine_warns;
static char prefix[96];
static int quiet;

void sb_log_set_prefix(const char *p)
{
	snprintf(prefix, sizeof(prefix), "%s", p ? p : "");
}

void sb_log_set_quiet(int q)
{
	quiet = q;
}

unsigned sb_log_warnings(void)
{
	return nwarn;
}

void sb_log_capture(char *buf, unsigned len)
{
	cap_buf = buf;
	cap_len = len;
	if (buf && len)
		buf[0] = '\0';
}

void sb_verr(const char *kind, const char *where, const char *fmt, va_list ap)
{
	char msg[2048];
	int n = 0;
	if (quiet)
		return;
	if (where && *where)
		n = snprintf(msg, sizeof(msg), "storbench: %s%s%s: ", prefix, kind, where);
	else
		n = snprintf(msg, sizeof(msg), "storbench: %s%s", prefix, kind);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	if (cap_buf) {
		size_t used = strlen(cap_buf);
		if (used + 1 < cap_len)
			snprintf(cap_buf + used, cap_len - used, "%s\n", msg);
		return;
	}
	fprintf(stderr, "%s\n", msg);
}

unsigned sb_log_errors(void)
{
	return nerr;
}

void sb_log_machine_as_warnings(int on)
{
	machine_warns = on;
}

unsigned sb_log_machine_warnings(void)
{
	return nmachine;
}

void sb_err_machine(const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (machine_warns) {
		nwarn++;
		nmachine++;
		sb_verr("warning: ", where, fmt, ap);
	} else {
		nerr++;
		sb_verr("", where, fmt, ap);
	}
	va_end(ap);
}

void sb_err(const char *where, const char *fmt, ...)
{
	va_list ap;
	nerr++;
	va_start(ap, fmt);
	sb_verr("", where, fmt, ap);
	va_end(ap);
}

void sb_warn(const char *where, const char *fmt, ...)
{
	va_list ap;
	nwarn++;
	va_start(ap, fmt);
	sb_verr("warning: ", where, fmt, ap);
	va_end(ap);
}
