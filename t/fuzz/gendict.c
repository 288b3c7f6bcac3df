/* gendict.c: prints the libFuzzer dictionary for the harnesses in t/fuzz,
 * generated from the option table (parse/options.c): every option name and
 * alias as "name=" and "--name=", every enum value, the job-file syntax
 * (sections, include, ${VAR}, sweep lists, comments), size and time suffixes,
 * storbench's own command-line flags (parse/cliflags.c) and adversarial
 * values (numbers that wrap, devices, folders, odd file names).  make fuzz writes it to
 * build/fuzz/fuzz.dict. */
#include <stdio.h>
#include <string.h>

#include "parse/options.h"
#include "parse/parse.h"
#include "parse/sweep.h"
#include "ml/registry.h"
#include "run/engtable.h"

/* one dictionary entry: printable ASCII, '"' and '\' escaped */
static void entry(const char *prefix, const char *s, const char *suffix)
{
	char all[512];
	snprintf(all, sizeof(all), "%s%s%s", prefix, s, suffix);
	putchar('"');
	for (const char *p = all; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p > 0x7e)
			printf("\\x%02x", (unsigned char)*p);
		else
			putchar(*p);
	}
	puts("\"");
}

int main(void)
{
	static const char *const syntax[] = {
		"[global]", "[job]", "[", "]", "\n", "\r", "\r\n", "=", " = ", ";", "#", "\"",
		"include ", "${", "}", "${HOME}", "${SB_UNSET:-", ":-", "|", " | ", "@", ",", ":",
		"-", "/", "%", "0x", "k", "m", "g", "t", "p", "ki", "KiB", "MiB", "b", "us",
		"ms", "s", "h", "d", "4k", "1m", "1g", "512", "0", "1", "-1", "18446744073709551615",
		"9223372036854775807", "4294967295", "1e308", "nan", "inf", "0.5", "100",
		/* adversarial inputs: wrapping and overflowing numbers,
		 * paths that are not regular files (devices, folders, FIFOs, the
		 * job's own data file), odd names for results and logs */
		"9223372036854775808", "18446744073709551616", "-9223372036854775808",
		"0xffffffffffffffff", "16e", "8e", "1099511627776t", "99999999999999999999",
		"/dev/null", "/dev/zero", "/dev/full", "/dev/stdin", "/dev/stdout", "/dev/sda",
		"/dev/nvme0n1", "/proc/self/fd/0", "/proc/self/mem", "/sys/", "/tmp/", ".", "..",
		"./", "../", "/", "//", "...", "*", "?", "~", "-", "--", " ", "\t", "a:b:c", "\\:",
		"%s", "%n", "$jobname", "$jobnum", "$filenum", "${SB_UNSET}", "in.dat", "./in.dat",
		"res.json", ".json", ".log", "_bw.1.log", "_lat.log", "trace.log",
		NULL,
	};
	static const char *const flags[] = {
		"--parse-only", "--output-format=", "json", "json+", "terse", "normal",
		"--output=", "--minimal", "--datagen", "--status-interval=", "--cmdhelp",
		"--cmdhelp=", "--cmdhelp-markdown", "--enghelp", "--version", "--help", "--name=",
		NULL,
	};
	if (sb_workloads_hand_down() || sb_run_engines_to_parser())
		return 1;
	for (unsigned i = 0; syntax[i]; i++)
		entry("", syntax[i], "");
	for (unsigned i = 0; flags[i]; i++)
		entry("", flags[i], "");
	for (unsigned i = 0; i < sb_cli_nflags; i++) { /* every flag of main's table */
		entry("", sb_cli_flags[i].name, "");
		entry("", sb_cli_flags[i].name, "=");
	}
	for (unsigned i = 0; i < sb_options_count(); i++) {
		const struct sb_option *o = sb_option_at(i);
		entry("", o->name, "=");
		entry("--", o->name, "=");
		entry(SB_SWEEP_PREFIX, o->name, "=");
		for (unsigned a = 0; o->alias[a]; a++)
			entry("", o->alias[a], "=");
		for (const struct sb_opt_enum *e = o->enums; e && e->name; e++)
			entry("", e->name, "");
		if (o->def)
			entry("", o->def, "");
	}
	return 0;
}
