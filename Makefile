# storbench Makefile: make, make check, make fuzz, make bench, make install, make clean.
# Objects go to $(B) (default build/), so sanitizer and clang builds sit beside
# the normal one: make B=build/san SANITIZE=1.

ifeq ($(wildcard config.mak),)
$(info config.mak missing: running ./configure)
$(shell ./configure >/dev/null)
endif
include config.mak
ifeq ($(findstring -lblkid,$(LIBS)),)
$(error config.mak was written before libblkid became required: run ./configure again)
endif

B ?= build
DESTDIR ?=
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
CFLAGS ?= -O2 -g
SB_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -DSB_VERSION=\"$(VERSION)\" -I. $(INI_CFLAGS) -MMD -MP $(HDF5_CFLAGS)
ifeq ($(SANITIZE),1)
SB_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
SB_LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(TSAN),1)
SB_CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
SB_LDFLAGS += -fsanitize=thread
endif
# FUZZ=1 (clang): coverage for libFuzzer plus ASan+UBSan, for make fuzz (build/fuzz/)
ifeq ($(FUZZ),1)
SB_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
SB_LDFLAGS += -fsanitize=address,undefined
endif

SRCS := $(wildcard lib/*.c parse/*.c run/*.c ml/*.c ml/*/*.c sweep/*.c stats/*.c stats/host/*.c output/*.c os/*.c engines/*.c tools/*.c)
# dist/: MPI (dist/mpi.c, the only file built with mpi.h) or one rank (dist/none.c)
SRCS += $(if $(filter yes,$(CONFIG_MPI)),dist/mpi.c,dist/none.c) dist/pack.c
# engines/libaio.c and io_uring.c build without their library too: their
# option rows then stay known (config.h guards the engine itself)
OBJS := $(SRCS:%.c=$(B)/%.o)
LIB := $(B)/libstorbench.a
BIN := $(B)/storbench

UNIT_SRCS := $(wildcard t/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(B)/%.o)
UNIT_BIN := $(B)/t/unit/unit-tests
# the fault-injection shim of t/integration/test_faults.py (t/faults/sbfault.c);
# never instrumented: under ASan it is preloaded after the ASan runtime
FAULT_SO := $(B)/t/faults/libsbfault.so
# the stub CUDA driver and cuFile of t/integration/test_gpu.py (t/gpu/stub*.c):
# loaded through LD_LIBRARY_PATH in place of libcuda.so.1 and libcufile.so.0
GPU_STUBS := $(B)/t/gpu/libcuda.so.1 $(B)/t/gpu/libcufile.so.0
# and a stand-in NVML (t/gpu/stubnvml.c) for the GPU host collector's tests
GPU_STUBS += $(B)/t/gpu/libnvidia-ml.so.1

# t/fuzz: libFuzzer harnesses (fuzz-NAME, clang FUZZ=1 builds) and, for any
# compiler, replay-NAME: the same harness fed the files named on its command line
FUZZ_NAMES := jobfile cmdline
FUZZ_REPLAY := $(FUZZ_NAMES:%=$(B)/t/fuzz/replay-%)
FUZZ_BINS := $(FUZZ_NAMES:%=$(B)/t/fuzz/fuzz-%)
FUZZ_SECONDS ?= 60
FUZZ_CHECK_RUNS ?= 3000

all: $(BIN) storbench $(FAULT_SO) $(GPU_STUBS)

# the binary users run from the source tree
storbench: $(BIN)
	@if [ "$(B)" = build ]; then ln -sf $(BIN) storbench; fi

$(BIN): $(B)/storbench.o $(LIB)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(LIB): $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/%.o: %.c config.h
	@mkdir -p $(dir $@)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/dist/mpi.o: SB_CFLAGS += $(MPI_CFLAGS)

$(UNIT_BIN): $(UNIT_OBJS) $(LIB)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) -lcunit

$(FAULT_SO): t/faults/sbfault.c t/faults/sbfault_overlap.h config.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -D_GNU_SOURCE -I. $(CFLAGS) -fPIC -shared -o $@ $< -ldl

$(B)/t/gpu/libnvidia-ml.so.1: t/gpu/stubnvml.c config.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -D_GNU_SOURCE $(CFLAGS) -fPIC -shared -Wl,-soname,libnvidia-ml.so.1 -o $@ $<

$(B)/t/gpu/libcuda.so.1: t/gpu/stubcuda.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -I. $(CFLAGS) -fPIC -shared -Wno-missing-prototypes -Wl,-soname,libcuda.so.1 -o $@ $<

$(B)/t/gpu/libcufile.so.0: t/gpu/stubcufile.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -I. $(CFLAGS) -fPIC -shared -Wno-missing-prototypes -Wl,-soname,libcufile.so.0 -o $@ $<

$(B)/t/fuzz/replay-%: $(B)/t/fuzz/%.o $(B)/t/fuzz/replay.o $(LIB)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/t/fuzz/fuzz-%: $(B)/t/fuzz/%.o $(LIB)
	$(CC) $(SB_LDFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/t/fuzz/gendict: $(B)/t/fuzz/gendict.o $(LIB)
	$(CC) $(SB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

.SECONDARY: $(FUZZ_NAMES:%=$(B)/t/fuzz/%.o) $(B)/t/fuzz/replay.o

config.h:
	./configure

# make check: unit + integration tests on the normal build, then again under
# AddressSanitizer + UndefinedBehaviorSanitizer, then a clang -Werror build.
check: config.h
	@sh t/run-check.sh

# check-build: what check-one runs, built (make check builds build/san/ in
# the background while build/'s tests run)
check-build: $(BIN) $(FAULT_SO) $(GPU_STUBS) $(if $(filter yes,$(CONFIG_CUNIT)),$(UNIT_BIN)) $(FUZZ_REPLAY)

check-one: check-build
	@sh t/run-suite.sh $(B)

# ThreadSanitizer (clang, build/tsan/) over the engine conformance suite and
# the ML workloads; not part of make check (about 1.5 minutes); see HOWTO.md
check-tsan:
	@sh t/run-tsan.sh

# make fuzz: each libFuzzer harness for FUZZ_SECONDS seconds (clang);
# fuzz-check: each for FUZZ_CHECK_RUNS inputs (what make check runs)
fuzz-bins: $(FUZZ_BINS) $(B)/t/fuzz/gendict

fuzz:
	@$(MAKE) -s B=build/fuzz CC=clang FUZZ=1 fuzz-bins
	@sh t/fuzz/run.sh build/fuzz -max_total_time=$(FUZZ_SECONDS)

fuzz-check:
	@$(MAKE) -s B=build/fuzz CC=clang FUZZ=1 fuzz-bins
	@FUZZ_FRESH=1 sh t/fuzz/run.sh build/fuzz -runs=$(FUZZ_CHECK_RUNS)

unit: $(UNIT_BIN)
	$(UNIT_BIN)

# regenerate the option tables in HOWTO.md from the option table
howto: $(BIN)
	@sh t/howto-options.sh $(BIN) HOWTO.md

bench: all
	@sh bench/run.sh

# the manual page and the bash completion, generated from the flag and option
# tables (storbench --man-page, --bash-completion); committed, and
# t/integration/test_man.py fails when they drift: run make man
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
man: $(BIN)
	$(BIN) --man-page >doc/storbench.1.tmp && mv doc/storbench.1.tmp doc/storbench.1
	$(BIN) --bash-completion >doc/storbench.bash.tmp && mv doc/storbench.bash.tmp doc/storbench.bash

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/storbench/jobs $(DESTDIR)$(PREFIX)/share/doc/storbench
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/storbench
	install -m 644 jobs/*.ini jobs/*.csv jobs/*.json $(DESTDIR)$(PREFIX)/share/storbench/jobs/
	install -m 644 README.md HOWTO.md $(DESTDIR)$(PREFIX)/share/doc/storbench/
	install -m 644 doc/storbench.1 $(DESTDIR)$(MANDIR)/man1/storbench.1
	install -m 644 doc/storbench.bash $(DESTDIR)$(BASHCOMPDIR)/storbench

# removes what install put there (the files by name, then the folders that
# became empty); nothing else
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/storbench $(DESTDIR)$(MANDIR)/man1/storbench.1 $(DESTDIR)$(BASHCOMPDIR)/storbench
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/storbench/jobs/,$(notdir $(wildcard jobs/*.ini jobs/*.csv jobs/*.json)))
	rm -f $(DESTDIR)$(PREFIX)/share/doc/storbench/README.md $(DESTDIR)$(PREFIX)/share/doc/storbench/HOWTO.md
	-rmdir $(DESTDIR)$(PREFIX)/share/storbench/jobs $(DESTDIR)$(PREFIX)/share/storbench $(DESTDIR)$(PREFIX)/share/doc/storbench 2>/dev/null

clean:
	rm -rf build storbench

distclean: clean
	rm -f config.h config.mak

.PHONY: all check check-build check-one check-tsan unit howto man bench install uninstall clean distclean storbench fuzz fuzz-bins fuzz-check
-include $(OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(B)/storbench.d $(wildcard $(B)/t/fuzz/*.d)
