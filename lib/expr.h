/* expr.h: fio's built-in values ($ncpus, $pagesize, $mb_memory) and
 * arithmetic in numeric option values: "size=$mb_memory/4", "bs=4k*2",
 * "runtime=(1m+30s)", "size=(1+1)*1g".
 *
 * Meaning (fio 3.33): the keywords are replaced by the system's values in
 * every option value: $ncpus = CPUs configured (sysconf _SC_NPROCESSORS_CONF),
 * $pagesize = the page size in bytes, $mb_memory = physical memory in MiB
 * (rounded down).  A numeric value is evaluated as an expression when it
 * starts with '(' (fio's arithmetic evaluator) or holds one of + - * / ^
 * after its first character (fio evaluates keyword math with bc; without a
 * keyword fio 3.33 silently ignores everything after the number, "4k*2" is
 * 4k there and 8k here).  Operators: + - * / % ^ and parentheses, with the
 * usual precedence, ^ binding tightest and right to left; '%' is the modulus
 * only inside parentheses (outside, "50%" is a percentage).  Numbers take the
 * option's units (4k, 1m, 1g with kb_base; 10s, 500ms for times); integers
 * stay integers (7/2 = 3, as in bc), a fraction makes the arithmetic
 * floating point; the result is truncated toward zero for integer options.
 * In a time option, bare numbers are in the option's unit when no number of
 * the expression has a unit, else microseconds (as fio).  Pure functions
 * apart from sysconf; nothing here prints. */
#ifndef SB_EXPR_H
#define SB_EXPR_H
#include <stddef.h>
#include <stdint.h>

/* bytes of the err buffers below */
#define SB_EXPR_ERR_LEN 256

enum sb_expr_kind { SB_EXPR_SIZE, SB_EXPR_INT, SB_EXPR_TIME, SB_EXPR_FLOAT };

/* The value of keyword $name ("ncpus", "pagesize", "mb_memory"). */
uint64_t sb_expr_keyword(const char *name);

/* If in holds a keyword, sets *out to a copy (malloc) with the keywords
 * replaced and returns 1; returns 0 if none (*out untouched), -ENOMEM or
 * -E2BIG (err set, SB_EXPR_ERR_LEN bytes) on failure. */
int sb_expr_keywords(const char *in, char **out, char *err);

/* If in is an expression (see above), evaluates it and writes the result
 * to out as text the option's plain parser reads (bytes, an integer, "Nus"
 * or a float) and returns 1; returns 0 if in is not an expression, -EINVAL
 * with err (SB_EXPR_ERR_LEN bytes) for a bad one (division by zero, unbalanced
 * parentheses, a stray character, a negative size, an overflow).  unit_us:
 * microseconds per bare unit of a time option; kb_base 1000 or 1024. */
int sb_expr_eval(const char *in, enum sb_expr_kind kind, unsigned kb_base, uint64_t unit_us,
		 char *out, size_t len, char *err);
#endif
