/* cmdline.c: libFuzzer harness for the command line.  The input is split at
 * '\n' into argv words that go through main's own parse_cmdline() and
 * load_jobs() (storbench.c is included here with main renamed, so the
 * harness parses exactly as main does), then the --parse-only printing.  No
 * job runs and no file is touched: an argv that names a job file stops after
 * parse_cmdline (job files are jobfile.c's part), one with a flag that acts
 * on files (file_actions[] below: --cleanup) is skipped, and --help and the
 * like print to /dev/null. */
#include <stdbool.h>
#include <stdint.h>

#include "t/fuzz/fuzz.h"

#define main sb_fuzz_storbench_main
int sb_fuzz_storbench_main(int argc, char **argv);
#include "storbench.c"
#undef main

static char logbuf[1 << 16];

/* command-line flags that act on files (parse_cmdline may run them): inputs
 * holding one are skipped.  Add any such flag here. */
static const char *const file_actions[] = { "--cleanup", NULL };

static bool acts_on_files(char *const *argv, int argc)
{
	for (int i = 1; i < argc; i++)
		for (unsigned k = 0; file_actions[k]; k++)
			if (!strncmp(argv[i], file_actions[k], strlen(file_actions[k])))
				return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	if (!init) {
		if (!freopen("/dev/null", "w", stdout) || sb_workloads_hand_down() || sb_run_engines_to_parser())
			return 0;
		init = true;
	}
	char *buf = malloc(size + 1);
	size_t nw = 1;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (size_t i = 0; i < size; i++)
		nw += buf[i] == '\n';
	char **argv = calloc(nw + 2, sizeof(*argv));
	if (!argv) {
		free(buf);
		return 0;
	}
	int argc = 0;
	argv[argc++] = (char *)"storbench";
	for (char *w = buf;;) {
		char *nl = strchr(w, '\n');
		argv[argc++] = w;
		if (!nl)
			break;
		*nl = '\0';
		w = nl + 1;
	}
	struct cmdline cl = { 0 };
	struct sb_joblist jl = { 0 };
	sb_log_capture(logbuf, sizeof(logbuf));
	if (!acts_on_files(argv, argc) && parse_cmdline(argc, argv, &cl) < 0 && !cl.njobfiles &&
	    !load_jobs(&cl, &jl, NULL) && cl.parse_only) {
		sb_joblist_print(stdout, &jl);
		if (jl.sweep)
			sb_sweep_print(stdout, jl.sweep);
	}
	fflush(stdout);
	sb_log_capture(NULL, 0);
	sb_joblist_free(&jl);
	free(cl.jobfiles);
	free(cl.jobargs);
	free(cl.sections);
	free(argv);
	free(buf);
	return 0;
}
