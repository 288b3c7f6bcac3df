/* expr.c: fio's built-in values and arithmetic in option values (see
 * expr.h): keyword replacement and a small recursive-descent evaluator with
 * integer and floating point values and the option's units. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/expr.h"

#define EXPR_FORMS "e.g. (1+1)*1g or $mb_memory/4 (+ - * / % ^, parentheses)"

uint64_t sb_expr_keyword(const char *name)
{
	long pg = sysconf(_SC_PAGESIZE);
	if (pg <= 0)
		pg = 4096;
	if (!strcmp(name, "pagesize"))
		return (uint64_t)pg;
	if (!strcmp(name, "ncpus")) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		return n > 0 ? (uint64_t)n : 1;
	}
	long pages = sysconf(_SC_PHYS_PAGES);
	return pages > 0 ? (uint64_t)pages * (uint64_t)pg / (1024 * 1024) : 0;
}

int sb_expr_keywords(const char *in, char **out, char *err)
{
	static const char *const kw[] = { "pagesize", "mb_memory", "ncpus" };
	char buf[1024];
	size_t o = 0;
	int any = 0;
	if (!strchr(in, '$'))
		return 0; /* nothing to replace: a long value (a filename= list) passes as it is */
	while (*in) {
		unsigned k = 0;
		if (*in == '$')
			for (k = 0; k < 3; k++)
				if (!strncmp(in + 1, kw[k], strlen(kw[k])))
					break;
		if (*in == '$' && k < 3) {
			int n = snprintf(buf + o, sizeof(buf) - o, "%llu",
					 (unsigned long long)sb_expr_keyword(kw[k]));
			if (n < 0 || (size_t)n >= sizeof(buf) - o)
				goto big;
			o += (size_t)n;
			in += 1 + strlen(kw[k]);
			any = 1;
			continue;
		}
		if (o + 1 >= sizeof(buf))
			goto big;
		buf[o++] = *in++;
	}
	buf[o] = 0;
	if (!any)
		return 0;
	if (!(*out = strdup(buf))) {
		snprintf(err, SB_EXPR_ERR_LEN, "out of memory");
		return -ENOMEM;
	}
	return 1;
big:
	snprintf(err, SB_EXPR_ERR_LEN, "value is too long after replacing $ncpus/$pagesize/$mb_memory "
		 "(at most %zu characters)", sizeof(buf) - 1);
	return -E2BIG;
}

struct num {
	bool isint;
	int64_t i;
	double d;
};

struct ev {
	const char *s, *p;    /* the whole text, the cursor */
	const char *num;      /* where the number being read starts */
	enum sb_expr_kind kind;
	unsigned kb_base;
	bool unit_seen;
	int depth;
	char *err;
};

static double num_d(struct num n)
{
	return n.isint ? (double)n.i : n.d;
}

__attribute__((format(printf, 2, 3)))
static int ev_fail(struct ev *e, const char *fmt, ...)
{
	char what[96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(e->err, SB_EXPR_ERR_LEN, "invalid expression '%.48s': %s; write %s", e->s, what,
		 EXPR_FORMS);
	return -EINVAL;
}

static void ws(struct ev *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static int expr(struct ev *e, struct num *r);

/* the unit after a number: its multiplier (1 when there is none) */
static int unit(struct ev *e, double *mult)
{
	static const struct { const char *n; double us; } tu[] = {
		{ "usec", 1 }, { "us", 1 }, { "msec", 1e3 }, { "ms", 1e3 }, { "sec", 1e6 },
		{ "s", 1e6 }, { "min", 60e6 }, { "m", 60e6 }, { "h", 3600e6 }, { "d", 86400e6 },
	};
	*mult = 1;
	if (!isalpha((unsigned char)*e->p))
		return 0;
	if (e->kind == SB_EXPR_TIME) {
		for (size_t i = 0; i < sizeof(tu) / sizeof(tu[0]); i++) {
			size_t n = strlen(tu[i].n);
			if (!strncasecmp(e->p, tu[i].n, n) && !isalpha((unsigned char)e->p[n])) {
				*mult = tu[i].us;
				e->p += n;
				e->unit_seen = true;
				return 0;
			}
		}
		return ev_fail(e, "unknown time unit at '%.*s' (us, ms, s, m, h, d)",
			       (int)strcspn(e->num, "+-*/%^() \t"), e->num);
	}
	static const char pre[] = "kmgtp";
	const char *q = strchr(pre, tolower((unsigned char)*e->p));
	double base = e->kb_base == 1000 ? 1000 : 1024;
	if (q) {
		e->p++;
		if (tolower((unsigned char)*e->p) == 'i') {
			base = base == 1000 ? 1024 : 1000;
			e->p++;
		}
		for (long k = q - pre; k >= 0; k--)
			*mult *= base;
	}
	if (tolower((unsigned char)*e->p) == 'b')
		e->p++;
	if (isalpha((unsigned char)*e->p))
		return ev_fail(e, "unknown unit at '%.*s' (k, m, g, t, p with an optional i and b)",
			       (int)strcspn(e->num, "+-*/%^() \t"), e->num);
	e->unit_seen = true;
	return 0;
}

static int primary(struct ev *e, struct num *r)
{
	ws(e);
	if (*e->p == '(') {
		if (++e->depth > 64)
			return ev_fail(e, "parentheses nested too deep");
		e->p++;
		int rc = expr(e, r);
		if (rc)
			return rc;
		ws(e);
		if (*e->p != ')')
			return ev_fail(e, "unbalanced parentheses: a '(' is not closed");
		e->p++;
		e->depth--;
		return 0;
	}
	const char *st = e->p;
	char *end;
	e->num = st;
	errno = 0;
	if (st[0] == '0' && (st[1] == 'x' || st[1] == 'X')) {
		unsigned long long v = strtoull(st + 2, &end, 16);
		if (end == st + 2 || errno || v > INT64_MAX)
			return ev_fail(e, "bad hexadecimal number at '%.10s'", st);
		*r = (struct num){ .isint = true, .i = (int64_t)v };
	} else if (isdigit((unsigned char)*st) || (*st == '.' && isdigit((unsigned char)st[1]))) {
		size_t n = strspn(st, "0123456789");
		if (st[n] == '.') {
			*r = (struct num){ .isint = false, .d = strtod(st, &end) };
		} else {
			unsigned long long v = strtoull(st, &end, 10);
			if (errno || v > INT64_MAX)
				return ev_fail(e, "number too large at '%.20s'", st);
			*r = (struct num){ .isint = true, .i = (int64_t)v };
		}
	} else if (!*st) {
		return ev_fail(e, "a number is missing at the end");
	} else if (*st == ')') {
		return ev_fail(e, "a number is missing before ')'");
	} else {
		return ev_fail(e, "expected a number at '%.10s'", st);
	}
	e->p = end;
	double m;
	int rc = unit(e, &m);
	if (rc || m == 1)
		return rc;
	if (r->isint && (double)r->i * m < 9.2e18)
		r->i *= (int64_t)m;
	else
		*r = (struct num){ .isint = false, .d = num_d(*r) * m };
	return 0;
}

static int unary(struct ev *e, struct num *r);

static int power(struct ev *e, struct num *r)
{
	int rc = primary(e, r);
	if (rc)
		return rc;
	ws(e);
	if (*e->p != '^')
		return 0;
	e->p++;
	struct num x;
	if ((rc = unary(e, &x)))
		return rc;
	if (r->isint && x.isint && x.i >= 0) {
		int64_t v = 1;
		for (int64_t k = 0; k < x.i; k++)
			if (__builtin_mul_overflow(v, r->i, &v))
				return ev_fail(e, "the result is too large");
		r->i = v;
		return 0;
	}
	*r = (struct num){ .isint = false, .d = pow(num_d(*r), num_d(x)) };
	return 0;
}

static int unary(struct ev *e, struct num *r)
{
	ws(e);
	if (*e->p == '-' || *e->p == '+') {
		bool neg = *e->p++ == '-';
		int rc = unary(e, r);
		if (!rc && neg) {
			if (r->isint)
				r->i = -r->i;
			else
				r->d = -r->d;
		}
		return rc;
	}
	return power(e, r);
}

static int binop(struct ev *e, struct num *a, char op, struct num b)
{
	if ((op == '/' || op == '%') && num_d(b) == 0)
		return ev_fail(e, "division by zero");
	if (a->isint && b.isint) {
		int64_t v = 0;
		bool ovf = false;
		switch (op) {
		case '+': ovf = __builtin_add_overflow(a->i, b.i, &v); break;
		case '-': ovf = __builtin_sub_overflow(a->i, b.i, &v); break;
		case '*': ovf = __builtin_mul_overflow(a->i, b.i, &v); break;
		case '/': v = a->i / b.i; break;
		default: v = a->i % b.i; break;
		}
		if (ovf)
			return ev_fail(e, "the result is too large");
		a->i = v;
		return 0;
	}
	double x = num_d(*a), y = num_d(b), v;
	switch (op) {
	case '+': v = x + y; break;
	case '-': v = x - y; break;
	case '*': v = x * y; break;
	case '/': v = x / y; break;
	default: v = fmod(x, y); break;
	}
	*a = (struct num){ .isint = false, .d = v };
	return 0;
}

static int term(struct ev *e, struct num *r)
{
	int rc = unary(e, r);
	for (;;) {
		if (rc)
			return rc;
		ws(e);
		char op = *e->p;
		if (op != '*' && op != '/' && !(op == '%' && e->depth > 0))
			return 0;
		e->p++;
		struct num b;
		if (!(rc = unary(e, &b)))
			rc = binop(e, r, op, b);
	}
}

static int expr(struct ev *e, struct num *r)
{
	int rc = term(e, r);
	for (;;) {
		if (rc)
			return rc;
		ws(e);
		char op = *e->p;
		if (op != '+' && op != '-')
			return 0;
		e->p++;
		struct num b;
		if (!(rc = term(e, &b)))
			rc = binop(e, r, op, b);
	}
}

/* does in ask for evaluation? */
static bool is_expr(const char *in)
{
	while (isspace((unsigned char)*in))
		in++;
	if (*in == '(')
		return true;
	return *in && strpbrk(in + 1, "+-*/^()") != NULL;
}

int sb_expr_eval(const char *in, enum sb_expr_kind kind, unsigned kb_base, uint64_t unit_us,
		 char *out, size_t len, char *err)
{
	if (!is_expr(in))
		return 0;
	if (kind == SB_EXPR_FLOAT) { /* 1e-3, 2.5E+2: a plain float, not an expression */
		char *end;
		(void)strtod(in, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end != in && !*end)
			return 0;
	}
	struct ev e = { .s = in, .p = in, .kind = kind, .kb_base = kb_base, .err = err };
	struct num r;
	int rc = expr(&e, &r);
	if (rc)
		return rc;
	ws(&e);
	if (*e.p == ')')
		return ev_fail(&e, "unbalanced parentheses: a ')' without its '('");
	if (*e.p == '%')
		return ev_fail(&e, "'%%' is the modulus only inside parentheses: write (a %% b)");
	if (*e.p)
		return ev_fail(&e, "unexpected '%.10s'", e.p);
	if (kind == SB_EXPR_TIME && !e.unit_seen && unit_us != 1) {
		if (r.isint && __builtin_mul_overflow(r.i, (int64_t)unit_us, &r.i))
			return ev_fail(&e, "the result is too large");
		if (!r.isint)
			r.d *= (double)unit_us;
	}
	double d = num_d(r);
	if (!isfinite(d))
		return ev_fail(&e, "the result is not a finite number");
	if (kind == SB_EXPR_FLOAT) {
		snprintf(out, len, "%.17g", d);
		return 1;
	}
	if (d < 0 && kind != SB_EXPR_INT)
		return ev_fail(&e, "the result %.0f is negative", d);
	if (fabs(d) >= 9.2e18)
		return ev_fail(&e, "the result is too large");
	long long v = r.isint ? (long long)r.i : (long long)d;
	snprintf(out, len, kind == SB_EXPR_TIME ? "%lldus" : "%lld", v);
	return 1;
}
