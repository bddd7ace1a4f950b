# SPDX-License-Identifier: GPL-2.0
#
# ftsw top-level Makefile.
#
#   make                 libftsw, the ftsw CLI, kmod/ftsw.ko (against KDIR)
#   make check           every test (unit, style, KUnit and selftests in the VM)
#   make demo            the fat-tree demo (natively or in the VM)
#   make deps            install the Debian packages everything needs
#
# The kernel side of the tests always runs in QEMU on the test kernel built by
# tests/vm/build-kernel; see tests/vm/README.md.

SHELL	:= /bin/bash
.SHELLFLAGS := -o pipefail -c

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
B	:= $(TOP)/build
VM	:= $(TOP)/tests/vm

# The test kernel trees (built on demand, cached outside the clone).
VM_DEBUG_TREE = $(shell $(VM)/build-kernel --debug --print)
VM_PLAIN_TREE = $(shell $(VM)/build-kernel --plain --print)
# Extracted linux-source tree: kselftest harness, checkpatch.pl.
KSRC = $(shell $(VM)/build-kernel --src --print)

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(origin KDIR),undefined)
ifneq ($(wildcard $(RUNNING_KDIR)/Makefile),)
KDIR := $(RUNNING_KDIR)
endif
endif

# ---------------------------------------------------------------- userspace

CC	?= cc
AR	?= ar
LD	?= ld
OBJCOPY	?= objcopy
PKGS	:= libnl-genl-3.0 libnl-route-3.0 libmicrohttpd
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libmicrohttpd is compiled against, not linked: lab view's server loads it
# when it starts (user/lib/view/mhd.h), so no other command maps it and the
# TLS stack it brings.
PKG_LIBS = $(shell pkg-config --libs $(filter-out libmicrohttpd,$(PKGS)) 2>/dev/null)

CFLAGS	?= -O2 -g
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-I$(TOP)/include/uapi -I$(TOP)/user/lib -MMD -MP
LDLIBS	:= -lpthread -lm

LIB_SRCS := $(wildcard user/lib/*.c user/lib/*/*.c)
# lab view's page (user/lib/view/page/), compiled into the library as
# arrays of bytes: every asset is served by ftsw itself.
VIEW_PAGE := $(wildcard user/lib/view/page/*)
VIEW_PAGE_C := $(B)/gen/view_page.c
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o) $(B)/gen/view_page.o
CLI_SRCS := $(wildcard user/ftsw/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(B)/%)
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)

# libftsw is built three times from the same objects: libftsw-all.a, every
# object as it is (what the CLI and the unit tests link, internals
# included), and the installed libftsw.a and libftsw.so, in which only the
# API is global (below).
LIBFTSW_ALL := $(B)/libftsw-all.a
LIBFTSW	:= $(B)/libftsw.a
# The shared libftsw: SONAME libftsw.so.$(SOVERSION), every symbol of the
# API versioned FTSW_$(SOVERSION) (user/lib/libftsw.map).
SOVERSION := 0
LIBFTSW_SO := $(B)/libftsw.so.$(SOVERSION)
FTSW	:= $(B)/ftsw
UMAD_SHIM := $(B)/libftsw-umad.so

.PHONY: all user kmod clean deps check check-user check-style check-kunit \
	check-selftests modules-compat demo vm-kernel vm-kernel-plain \
	bench unit-bins FORCE

all: user kmod

user: $(LIBFTSW_ALL) $(LIBFTSW) $(LIBFTSW_SO) $(FTSW) $(UMAD_SHIM)

# libftsw-umad.so: preloaded before libumad2sim.so under OpenSM and the
# diags, it moves whole RMPP messages between a tool and the gateway
# (user/umad/ftsw-umad.c, Documentation/sm.md "Long MADs").
# It exports the four calls it interposes and nothing else
# (user/umad/ftsw-umad.map).
$(UMAD_SHIM): user/umad/ftsw-umad.c user/umad/ftsw-umad.map
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fPIC \
		-shared -Wl,--version-script=user/umad/ftsw-umad.map -o $@ $< \
		-ldl -lpthread

$(B)/user/%.o: user/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

# libftsw's symbols are hidden unless a public header declares them: each
# public header (PUB_HDRS) wraps its declarations in "#pragma GCC
# visibility push(default)" (Documentation/libftsw.md, "Symbols").
# Position-independent: the same objects make libftsw.so. They are built
# again when these flags change ($(B)/lib.flags).
LIB_CC = $(CC) $(CFLAGS) $(USER_CFLAGS) -fPIC -fvisibility=hidden $(PKG_CFLAGS)
$(B)/user/lib/%.o: user/lib/%.c $(B)/lib.flags
	@mkdir -p $(@D)
	$(LIB_CC) -c -o $@ $<

$(B)/lib.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(LIB_CC)' | cmp -s - $@ || echo '$(LIB_CC)' >$@

$(LIBFTSW_ALL): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# The installed archive: the objects linked into one (ld -r), the hidden
# symbols made local, so that a program linking libftsw sees only names of
# its API (ftsw_...) and never collides with its internals.
$(LIBFTSW): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ $(B)/libftsw.o
	$(LD) -r -o $(B)/libftsw.o $^
	$(OBJCOPY) --localize-hidden $(B)/libftsw.o
	$(AR) rcs $@ $(B)/libftsw.o

$(LIBFTSW_SO): $(LIB_OBJS) user/lib/libftsw.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libftsw.so.$(SOVERSION) \
		-Wl,--version-script=user/lib/libftsw.map -Wl,--no-undefined \
		-o $@ $(LIB_OBJS) $(PKG_LIBS) $(LDLIBS)

# The page's files as C arrays: ftsw_view_page_NAME[] and _len, NAME the
# file's extension (html, js, css).
$(VIEW_PAGE_C): $(VIEW_PAGE) Makefile
	@mkdir -p $(@D)
	@{ echo '/* generated from user/lib/view/page/ by the Makefile */'; \
	  for f in $(VIEW_PAGE); do \
		n=$${f##*.}; \
		echo "const unsigned char ftsw_view_page_$$n[] = {"; \
		od -An -v -tx1 $$f | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
		echo '0x00 };'; \
		echo "const unsigned int ftsw_view_page_$${n}_len = $$(wc -c <$$f);"; \
	  done; } >$@.tmp && mv $@.tmp $@

$(B)/gen/view_page.o: $(VIEW_PAGE_C) $(B)/lib.flags
	$(LIB_CC) -c -o $@ $<

# lab top's terminal (ncurses): the CLI only, the logic is libftsw's.
CURSES_CFLAGS = $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS = $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
$(B)/user/ftsw/cmd_lab_top.o: CFLAGS += $(CURSES_CFLAGS)

$(FTSW): $(CLI_OBJS) $(LIBFTSW_ALL)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(LIBFTSW_ALL) $(PKG_LIBS) $(CURSES_LIBS) $(LDLIBS)

# Unit tests use the kernel's kselftest harness in place, from the extracted
# linux-source tree (never copied into the repository). Its macros define
# functions with unused parameters, hence -Wno-unused-parameter here only.
$(B)/tests/unit/%: tests/unit/%.c $(LIBFTSW_ALL)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -std=gnu11 -Wno-unused-parameter $(PKG_CFLAGS) \
		-I$(KSRC)/tools/testing/selftests -o $@ $< $(LIBFTSW_ALL) \
		$(PKG_LIBS) $(LDLIBS)

unit-bins: $(UNIT_BINS)

# Selftest helpers in C (run in the VM): the netlink campaign of selftest
# 95 and make fuzz-netlink, the MAD campaign of 96 and make fuzz-mad, the
# multicast receiver and sender of 154.
SELFTEST_BINS := $(B)/tests/nlfuzz $(B)/tests/madfuzz $(B)/tests/mcpeer
$(B)/tests/%: tests/selftests/%.c tests/selftests/fuzzrng.h include/uapi/linux/ftsw.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I$(TOP)/include/uapi -o $@ $<

# Selftest 162's MPI program, built on the host for both MPI stacks (the
# guest sees the same packages; compiling under TCG cost half a minute each).
SELFTEST_BINS += $(B)/tests/mpiexchange-openmpi $(B)/tests/mpiexchange-mpich
$(B)/tests/mpiexchange-openmpi: tests/mpi/mpiexchange.c
	@mkdir -p $(@D)
	mpicc.openmpi -O2 -Wall -Wextra -Werror -o $@ $<
$(B)/tests/mpiexchange-mpich: tests/mpi/mpiexchange.c
	@mkdir -p $(@D)
	mpicc.mpich -O2 -Wall -Wextra -Werror -o $@ $<

.PHONY: selftest-bins
selftest-bins: $(SELFTEST_BINS)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d)

# ---------------------------------------------------------------- fuzzing
#
# libFuzzer harnesses (tests/fuzz/*.c, one target each) over libftsw built
# with clang, ASan, UBSan (aborting) and leak checking. Seeds: the small
# committed corpus in tests/fuzz/corpus/TARGET plus files ftsw itself
# writes, generated into $(B)/fuzz/seeds/TARGET. `make check` replays every
# corpus and runs each target FUZZ_CHECK_RUNS inputs from a fixed seed (the
# same inputs on every machine, so a finding is reproducible and make check
# never turns red by chance); `make fuzz` runs each for
# FUZZ_SECONDS (default 600), keeping what it finds in $(B)/fuzz/corpus.

FUZZ_CC		?= clang
FUZZ_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		   -fno-omit-frame-pointer
FUZZ_CFLAGS	:= -O1 -g $(FUZZ_SAN) -std=c11 -D_GNU_SOURCE -Wall -Wextra \
		   -Werror -I$(TOP)/include/uapi -I$(TOP)/user/lib -MMD -MP
# Everything that does no I/O with the kernel; of lab/ the cycle finder and
# the hosts' multicast groups (mcast.c), of nl/ the names of the UAPI's
# enums, of view/ all but the sampler, the server and its pid file.
FUZZ_LIB_SRCS	:= $(filter-out user/lib/lab/% user/lib/nl/% user/lib/fm/% \
			user/lib/view/sample.c user/lib/view/server.c user/lib/view/mhd.c \
			user/lib/view/running.c,$(LIB_SRCS)) user/lib/lab/lab_cycles.c \
			user/lib/lab/mcast.c user/lib/nl/names.c
FUZZ_LIB_OBJS	:= $(FUZZ_LIB_SRCS:%.c=$(B)/fuzz/obj/%.o) $(B)/fuzz/obj/view_page.o
FUZZ_TARGETS	:= $(basename $(notdir $(FUZZ_SRCS)))
FUZZ_BINS	:= $(FUZZ_TARGETS:%=$(B)/fuzz/%)
FUZZ_SECONDS	?= 600
FUZZ_CHECK_RUNS ?= 4000
FUZZ_OPTS	:= -rss_limit_mb=2048 -timeout=20 -max_len=65536

$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

# a header changed: the objects that include it are rebuilt
-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:=.d)

$(B)/fuzz/obj/view_page.o: $(VIEW_PAGE_C)
	@mkdir -p $(@D)
	$(FUZZ_CC) -c -o $@ $<

$(B)/fuzz/libftsw-fuzz.a: $(FUZZ_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(B)/fuzz/libftsw-fuzz.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(B)/fuzz/libftsw-fuzz.a -lpthread -lm

# Seeds ftsw writes: net files of generated fabrics, LFT dumps of the
# lfts target's fabric at LMC 0..2, order files in every format.
FUZZ_LFTS_TOPO	:= pgft:2;4,4;1,2;1,1
$(B)/fuzz/seeds.stamp: $(FTSW)
	@rm -rf $(B)/fuzz/seeds; mkdir -p $(B)/fuzz/seeds/{net,lfts,order}
	@for s in 'kary:2,2' 'ftmn:4,2' 'pgft:2;4,4;1,2;1,1' 'xgft:2;2,3;1,2' \
		  'pgft:3;2,2,3;1,2,2;1,2,1'; do \
		$(FTSW) topo gen "$$s" -o $(B)/fuzz/seeds/net/$$(echo "$$s" | tr ':;,' '___').net || exit 1; \
	done
	@$(FTSW) topo degrade $(B)/fuzz/seeds/net/pgft_2_4_4_1_2_1_1.net --links 3 \
		--seed 2 -o $(B)/fuzz/seeds/net/degraded.net
	@for a in 'dmodk 0' 'minhop 1' 'updn 2' 'sssp 0'; do set -- $$a; \
		$(FTSW) route -a $$1 --lmc $$2 -t '$(FUZZ_LFTS_TOPO)' \
			-o $(B)/fuzz/seeds/lfts/$$1-$$2.dump >/dev/null || exit 1; \
	done
	@for f in rankfile hostfile mpich plain; do \
		$(FTSW) order -t kary:4,2 --ranks 8 --order random:3 -f $$f \
			-o $(B)/fuzz/seeds/order/$$f >/dev/null || exit 1; \
	done
	@touch $@

.PHONY: fuzz-bins fuzz tap-fuzz check-fuzz
fuzz-bins: $(FUZZ_BINS) $(B)/fuzz/seeds.stamp

# shell: the corpus directories of target $$t (committed, generated)
FUZZ_DIRS = dirs=; for d in $(TOP)/tests/fuzz/corpus/$$t $(B)/fuzz/seeds/$$t; do \
		[ -d $$d ] && dirs="$$dirs $$d"; done

fuzz: fuzz-bins
	@$(MAKE) --no-print-directory fuzz-lib
	@$(MAKE) --no-print-directory fuzz-mad

.PHONY: fuzz-lib
fuzz-lib: fuzz-bins
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(B)/fuzz/corpus/$$t $(B)/fuzz/crashes/$$t; \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s)"; $(FUZZ_DIRS); \
		$(B)/fuzz/$$t $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 -artifact_prefix=$(B)/fuzz/crashes/$$t/ \
			$(B)/fuzz/corpus/$$t $$dirs \
			>$(B)/fuzz/$$t.log 2>&1; rc=$$?; \
		grep -E '^#[0-9]+.*(DONE|cov:)' $(B)/fuzz/$$t.log | tail -n 1; \
		grep -E 'stat::number_of_executed_units' $(B)/fuzz/$$t.log; \
		[ $$rc = 0 ] || { echo "  FUZZ    $$t FAILED (see $(B)/fuzz/$$t.log)"; exit 1; }; \
	done

# make check: replay every corpus, then a short run per target; one TAP
# line each into $(TAP)/fuzz.tap.
tap-fuzz:
	@mkdir -p $(TAP)
	@if ! $(MAKE) --no-print-directory fuzz-bins >$(TAP)/fuzz-build.log 2>&1; then \
		tail -n 20 $(TAP)/fuzz-build.log; \
		printf '1..1\nnot ok 1 - fuzz targets build (see build/tap/fuzz-build.log)\n' \
			>$(TAP)/fuzz.tap; exit 1; fi
	@n=0; out=; for t in $(FUZZ_TARGETS); do \
		echo "  FUZZ    $$t"; $(FUZZ_DIRS); \
		d=$$(mktemp -d); mkdir -p $(B)/fuzz/crashes/$$t; \
		n=$$((n + 1)); \
		if [ -n "$$dirs" ] && $(B)/fuzz/$$t $(FUZZ_OPTS) -runs=0 $$dirs \
			>$(TAP)/fuzz-$$t-replay.log 2>&1; then \
			out="$$out"$$'\n'"ok $$n - fuzz $$t: corpus replays clean"; \
		else out="$$out"$$'\n'"not ok $$n - fuzz $$t: corpus replay (see build/tap/fuzz-$$t-replay.log)"; fi; \
		n=$$((n + 1)); \
		if $(B)/fuzz/$$t $(FUZZ_OPTS) -seed=$$n -runs=$(FUZZ_CHECK_RUNS) \
			-artifact_prefix=$(B)/fuzz/crashes/$$t/ $$d $$dirs \
			>$(TAP)/fuzz-$$t.log 2>&1; then \
			out="$$out"$$'\n'"ok $$n - fuzz $$t: $(FUZZ_CHECK_RUNS) runs clean, $$(grep -Eo 'cov: [0-9]+' $(TAP)/fuzz-$$t.log | tail -n 1)"; \
		else out="$$out"$$'\n'"not ok $$n - fuzz $$t: finding (see build/tap/fuzz-$$t.log)"; fi; \
		rm -rf $$d; \
	done; printf '1..%s%s\n' "$$n" "$$out" >$(TAP)/fuzz.tap

check-fuzz:
	@rm -f $(TAP)/fuzz*.tap; mkdir -p $(TAP)
	-@$(MAKE) --no-print-directory tap-fuzz
	@$(TOP)/tests/tap-summary $(TAP)/fuzz.tap

# ---------------------------------------------------------------- kernel

KMOD_SRCS = Kbuild $(wildcard kmod/*.c kmod/*.h kmod/Kbuild) include/uapi/linux/ftsw.h

# kmod: build in place against KDIR (default: the running kernel's build
# directory, else the debug test kernel).
kmod:
	$(MAKE) -C $(or $(KDIR),$(shell $(VM)/build-kernel --debug)) M=$(TOP) W=1 modules

# Out-of-place module builds: the sources are copied into $(B)/kmod-NAME so
# that one tree's objects never mix with another's.
# $(call kbuild,NAME,KDIR[,MORE MAKE ARGUMENTS])
define kbuild
	@mkdir -p $(B)/kmod-$(1)/kmod $(B)/kmod-$(1)/include/uapi/linux
	@cp -u Kbuild $(B)/kmod-$(1)/
	@cp -u $(wildcard kmod/*.c kmod/*.h) kmod/Kbuild $(B)/kmod-$(1)/kmod/
	@cp -u include/uapi/linux/ftsw.h $(B)/kmod-$(1)/include/uapi/linux/
	@for f in $(B)/kmod-$(1)/kmod/*.[ch]; do \
		[ -e kmod/$$(basename $$f) ] || rm -f $$f; done
	+$(MAKE) -C $(2) M=$(B)/kmod-$(1) W=1 $(3) modules 2>&1 | tee $(B)/kmod-$(1).log
	@! grep -E 'warning:|error:' $(B)/kmod-$(1).log
endef

# The module the VM loads: built against the exact tree it boots.
$(B)/kmod-debug/kmod/ftsw.ko: $(KMOD_SRCS) FORCE
	$(call kbuild,debug,$(shell $(VM)/build-kernel --debug))

$(B)/kmod-plain/kmod/ftsw.ko: $(KMOD_SRCS) FORCE
	$(call kbuild,plain,$(shell $(VM)/build-kernel --plain))

# Debian's own kernel (make demo's VM, tests/vm/run --stock): against its
# headers, as DKMS builds it (no KUnit module).
$(B)/kmod-stock/kmod/ftsw.ko: $(KMOD_SRCS) FORCE
	$(call kbuild,stock,$(shell $(VM)/build-kernel --stock --kdir),FTSW_NO_KUNIT=1)

.PHONY: kmod-debug kmod-plain kmod-stock
kmod-debug: $(B)/kmod-debug/kmod/ftsw.ko
kmod-plain: $(B)/kmod-plain/kmod/ftsw.ko
kmod-stock: $(B)/kmod-stock/kmod/ftsw.ko

HDR_61	= $(lastword $(sort $(wildcard /usr/src/linux-headers-6.1.*-amd64)))
HDR_612	= $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12.*-amd64)))

modules-compat:
	@[ -n "$(HDR_61)" ] || { echo "no linux-headers-6.1.*-amd64 (make deps)"; exit 1; }
	@[ -n "$(HDR_612)" ] || { echo "no linux-headers-6.12.*-amd64 (make deps)"; exit 1; }
	$(call kbuild,6.1,$(HDR_61))
	$(call kbuild,6.12,$(HDR_612))
	@echo "modules-compat: clean with W=1 on $(notdir $(HDR_61)) and $(notdir $(HDR_612))"

vm-kernel:
	$(VM)/build-kernel --debug

vm-kernel-plain:
	$(VM)/build-kernel --plain

# ---------------------------------------------------------------- tests

TAP	:= $(B)/tap

deps:
	$(TOP)/scripts/deps

# Every check writes TAP files into $(TAP); tests/tap-summary aggregates
# them with prove and prints the closing "N passed, N failed" line.
check: deps
	@rm -rf $(TAP); mkdir -p $(TAP)
	-@for p in user fuzz style vm; do \
		s=$$(date +%s); \
		$(MAKE) -k --no-print-directory tap-$$p; \
		echo "$$p $$(( $$(date +%s) - s ))" >>$(TAP)/part-seconds.txt; \
	done
	@$(TOP)/tests/tap-summary $(TAP)

check-user:
	@rm -rf $(TAP)/unit-*; mkdir -p $(TAP)
	-@$(MAKE) --no-print-directory tap-user
	@$(TOP)/tests/tap-summary $(TAP)/unit-*.tap

check-style:
	@rm -rf $(TAP)/style-*; mkdir -p $(TAP)
	-@$(MAKE) --no-print-directory tap-style
	@$(TOP)/tests/tap-summary $(TAP)/style-*.tap

check-kunit:
	@rm -rf $(TAP)/kunit-* $(TAP)/vm-*; mkdir -p $(TAP)
	-@$(MAKE) --no-print-directory tap-vm VM_WHAT=kunit
	@$(TOP)/tests/tap-summary $(TAP)/kunit-*.tap $(TAP)/vm-*.tap

check-selftests:
	@rm -rf $(TAP)/selftest-* $(TAP)/vm-*; mkdir -p $(TAP)
	-@$(MAKE) --no-print-directory tap-vm VM_WHAT=selftests
	@$(TOP)/tests/tap-summary $(TAP)/selftest-*.tap $(TAP)/vm-*.tap

.PHONY: tap-user tap-style tap-vm
tap-user:
	@mkdir -p $(TAP)
	@$(MAKE) --no-print-directory user >$(TAP)/build-user.log 2>&1 \
		|| { tail -n 30 $(TAP)/build-user.log; \
		     printf '1..1\nnot ok 1 - libftsw and ftsw build (see build/tap/build-user.log)\n' \
		     >$(TAP)/unit-build.tap; exit 1; }
	@printf '1..1\nok 1 - libftsw and ftsw build\n' >$(TAP)/unit-build.tap
	@for t in $(UNIT_BINS); do \
		n=$$(basename $$t); \
		echo "  UNIT    $$n"; \
		if ! $(MAKE) --no-print-directory $$t >$(TAP)/unit-$$n.err 2>&1; then \
			tail -n 20 $(TAP)/unit-$$n.err; \
			printf '1..1\nnot ok 1 - build of tests/unit/%s.c\n' $$n >$(TAP)/unit-$$n.tap; \
			continue; \
		fi; \
		(cd $(TOP) && timeout 600 $$t) >$(TAP)/unit-$$n.tap 2>$(TAP)/unit-$$n.err; \
	done
	@echo "  UNIT    lib-example"
	@$(TOP)/tests/lib-example >$(TAP)/unit-lib-example.tap 2>$(TAP)/unit-lib-example.err || true
	@echo "  UNIT    lib-symbols"
	@$(TOP)/tests/lib-symbols >$(TAP)/unit-lib-symbols.tap 2>$(TAP)/unit-lib-symbols.err || true
	@echo "  UNIT    tutorial (Documentation/tutorial, the commands without the module)"
	@$(TOP)/tests/tutorial offline >$(TAP)/unit-tutorial.tap 2>$(TAP)/unit-tutorial.err || true

tap-style:
	@mkdir -p $(TAP)
	@echo "  STYLE   shape"
	@$(TOP)/tests/style-shape $(TAP)
	@$(TOP)/tests/style $(TAP)

VM_WHAT ?= all
# tests/vm/check deals the selftests and three tests of the VM as a user
# meets it, each booting its own VM from the host (selected as vm-harness,
# vm-tour and vm-tutorial by FTSW_SELFTESTS: the harness and make demo,
# tests/vm/harness-test; the README's tour as written, tests/tour typed into
# tests/vm/run --shell; the tutorial's lab, tests/tutorial lab), to two
# lanes by their recorded seconds.
tap-vm: $(B)/kmod-debug/kmod/ftsw.ko user $(SELFTEST_BINS)
	@FTSW_YNL_SRC=$$($(TOP)/scripts/ynl-src) $(TOP)/tests/vm/check $(VM_WHAT) $(TAP)

# scripts/demo says how the tour runs and how long it takes, then builds
# ftsw and the module (natively, or against Debian's kernel for the VM:
# kmod-stock) and runs it.
demo: deps
	$(TOP)/scripts/demo

# The screenshots of Documentation/lab.md "Watching the fabric", taken by
# the tests into Documentation/images: selftest 185's in the debug VM (the
# ring's deadlock, the congestion tree, lab top; tests/vm/view-test),
# tests/bench/view's (FT(16,3)). Chromium runs on the host.
.PHONY: view-shots
view-shots: $(B)/kmod-debug/kmod/ftsw.ko user $(SELFTEST_BINS)
	@mkdir -p $(TOP)/Documentation/images
	FTSW_VIEW_SHOTS=$(TOP)/Documentation/images $(VM)/view-test
	FTSW_VIEW_SHOTS=$(TOP)/Documentation/images $(TOP)/tests/bench/view

# Benchmarks (never part of make check): all, or one with make bench-NAME.
bench: user
	$(TOP)/tests/bench/run

bench-%: user
	$(TOP)/tests/bench/run $*

# The hostile generic netlink campaign, long (the short one is selftest 95
# in make check): FTSW_NLFUZZ_COUNT units as root (default 100000, each one
# request or a dump with changes) plus a quarter of that in each
# unprivileged run, seed FTSW_NLFUZZ_SEED, in FTSW_NLFUZZ_CHUNKS runs with
# the second fabric pinged after each; one debug VM; fails on a failed
# check or any kernel report on the console (build/fuzz-netlink-console.log).
# Speed and how to replay a unit: Documentation/testing.md.
FTSW_NLFUZZ_COUNT ?= 100000
FTSW_NLFUZZ_SEED ?= 1
FTSW_NLFUZZ_CHUNKS ?= 10
.PHONY: fuzz-netlink
fuzz-netlink: $(B)/kmod-debug/kmod/ftsw.ko user $(SELFTEST_BINS)
	FTSW_NLFUZZ_COUNT=$(FTSW_NLFUZZ_COUNT) FTSW_NLFUZZ_SEED=$(FTSW_NLFUZZ_SEED) \
		FTSW_NLFUZZ_CHUNKS=$(FTSW_NLFUZZ_CHUNKS) \
		$(VM)/run --debug --timeout $${FTSW_NLFUZZ_TIMEOUT:-21600} \
		--env FTSW_NLFUZZ_COUNT --env FTSW_NLFUZZ_SEED --env FTSW_NLFUZZ_CHUNKS \
		--console $(B)/fuzz-netlink-console.log \
		-- $(TOP)/tests/selftests/95-nl-fuzz.sh | tee $(B)/fuzz-netlink.tap; \
	rc=$$?; ! grep -q '^not ok' $(B)/fuzz-netlink.tap && exit $$rc

# make fuzz-mad: selftest 96's MAD campaign (build/tests/madfuzz from a lab
# host, seed FTSW_MADFUZZ_SEED) for FUZZ_SECONDS (default 600) in one debug
# VM; fails on any failed check or kernel report (build/fuzz-mad.tap,
# build/fuzz-mad-console.log). make fuzz runs it after the libFuzzer
# targets. Documentation/testing.md.
FTSW_MADFUZZ_SEED ?= 1
.PHONY: fuzz-mad
fuzz-mad: $(B)/kmod-debug/kmod/ftsw.ko user $(SELFTEST_BINS)
	@echo "  FUZZ    mad ($(FUZZ_SECONDS) s, debug VM)"
	FTSW_MADFUZZ_SECONDS=$(FUZZ_SECONDS) FTSW_MADFUZZ_SEED=$(FTSW_MADFUZZ_SEED) \
		FTSW_MADFUZZ_CHUNK=$${FTSW_MADFUZZ_CHUNK:-20000} \
		$(VM)/run --debug --timeout $$(($(FUZZ_SECONDS) + 900)) \
		--env FTSW_MADFUZZ_SECONDS --env FTSW_MADFUZZ_SEED --env FTSW_MADFUZZ_CHUNK \
		--console $(B)/fuzz-mad-console.log \
		-- $(TOP)/tests/selftests/96-mad-fuzz.sh | tee $(B)/fuzz-mad.tap; \
	rc=$$?; ! grep -q '^not ok' $(B)/fuzz-mad.tap && exit $$rc
# ---------------------------------------------------------------- install

# make install / uninstall [PREFIX=/usr/local] [DESTDIR=]: the CLI, libftsw
# (static and shared) with its public headers and a pkg-config file,
# libftsw-umad.so (private to ftsw), the UAPI header,
# the man page, bash completion and the Wireshark dissector. install-dkms
# puts the module's sources and dkms.conf under /usr/src/ftsw-VERSION for
# `dkms add/build/install` (Documentation/install.md).
VERSION	:= $(shell sed -n 's/^\#define FTSW_VERSION "\(.*\)"/\1/p' $(TOP)/user/lib/libftsw.h)
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
LIBDIR	?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR	?= $(PREFIX)/share
MANDIR	?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# libftsw-umad.so, private to ftsw: where ftsw_lab_umad_shim() looks, next
# to the ftsw it runs (<bindir>/../lib/ftsw).
PKGLIBDIR ?= $(PREFIX)/lib/ftsw
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# Wireshark's global Lua plugin folder (`tshark -G folders`) for /usr;
# elsewhere a folder given with -X lua_script: or copied to ~/.local.
WIRESHARK_PLUGINDIR ?= $(LIBDIR)/wireshark/plugins
DKMSDIR	?= /usr/src/ftsw-$(VERSION)
INSTALL	?= install

# Public headers (folder/header.h, as inside the tree); the rest is private.
PUB_HDRS := libftsw.h util/util.h util/output.h util/parse.h util/rundir.h \
	topo/topology.h route/routing.h analyze/analyze.h analyze/picture.h \
	sim/sim.h nl/nl.h nl/ns.h lab/lab.h lab/lab_tools.h fm/fm.h cc/cc.h \
	view/view.h

$(B)/ftsw.pc: contrib/ftsw.pc.in Makefile
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
	    -e 's|@PKGS@|$(filter-out libmicrohttpd,$(PKGS))|' $< >$@

# The completion script comes from the CLI itself (ftsw completion bash).
$(B)/ftsw.bash-completion: $(FTSW)
	$(FTSW) completion bash >$@.tmp
	mv $@.tmp $@

.PHONY: install uninstall install-dkms uninstall-dkms package package-check
install: user $(B)/ftsw.pc $(B)/ftsw.bash-completion
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR)/linux \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(WIRESHARK_PLUGINDIR)
	$(INSTALL) -m 755 $(FTSW) $(DESTDIR)$(BINDIR)/ftsw
	$(INSTALL) -m 644 $(LIBFTSW) $(DESTDIR)$(LIBDIR)/libftsw.a
	$(INSTALL) -m 644 $(LIBFTSW_SO) $(DESTDIR)$(LIBDIR)/libftsw.so.$(SOVERSION)
	ln -sf libftsw.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libftsw.so
	$(INSTALL) -D -m 644 $(UMAD_SHIM) $(DESTDIR)$(PKGLIBDIR)/libftsw-umad.so
	$(INSTALL) -m 644 $(B)/ftsw.pc $(DESTDIR)$(PKGCONFIGDIR)/ftsw.pc
	for h in $(PUB_HDRS); do \
		$(INSTALL) -D -m 644 user/lib/$$h $(DESTDIR)$(INCLUDEDIR)/ftsw/$$h || exit 1; \
	done
	$(INSTALL) -m 644 include/uapi/linux/ftsw.h $(DESTDIR)$(INCLUDEDIR)/linux/ftsw.h
	$(INSTALL) -m 644 Documentation/ftsw.8 $(DESTDIR)$(MANDIR)/man8/ftsw.8
	$(INSTALL) -m 644 $(B)/ftsw.bash-completion $(DESTDIR)$(BASHCOMPDIR)/ftsw
	$(INSTALL) -m 644 contrib/wireshark/ftsw.lua $(DESTDIR)$(WIRESHARK_PLUGINDIR)/ftsw.lua

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ftsw $(DESTDIR)$(LIBDIR)/libftsw.a \
		$(DESTDIR)$(LIBDIR)/libftsw.so.$(SOVERSION) \
		$(DESTDIR)$(LIBDIR)/libftsw.so \
		$(DESTDIR)$(PKGLIBDIR)/libftsw-umad.so \
		$(DESTDIR)$(PKGCONFIGDIR)/ftsw.pc \
		$(DESTDIR)$(INCLUDEDIR)/linux/ftsw.h \
		$(DESTDIR)$(MANDIR)/man8/ftsw.8 $(DESTDIR)$(BASHCOMPDIR)/ftsw \
		$(DESTDIR)$(WIRESHARK_PLUGINDIR)/ftsw.lua
	rm -rf $(DESTDIR)$(INCLUDEDIR)/ftsw

# The module's sources as DKMS wants them: dkms.conf at the top, Kbuild,
# kmod/ and the UAPI header. The KUnit sources come along (kmod/Kbuild names
# them), but dkms.conf builds with FTSW_NO_KUNIT=1: ftsw.ko only.
install-dkms:
	$(INSTALL) -d $(DESTDIR)$(DKMSDIR)/kmod $(DESTDIR)$(DKMSDIR)/include/uapi/linux
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf >$(DESTDIR)$(DKMSDIR)/dkms.conf
	$(INSTALL) -m 644 Kbuild $(DESTDIR)$(DKMSDIR)/Kbuild
	$(INSTALL) -m 644 kmod/Kbuild $(wildcard kmod/*.c kmod/*.h) \
		$(DESTDIR)$(DKMSDIR)/kmod/
	$(INSTALL) -m 644 include/uapi/linux/ftsw.h $(DESTDIR)$(DKMSDIR)/include/uapi/linux/

uninstall-dkms:
	rm -rf $(DESTDIR)$(DKMSDIR)

# Debian packages (ftsw, libftsw-dev, ftsw-dkms) into $(B)/deb, and their
# checks: lintian, install, ftsw version, a DKMS build against Debian's 6.1
# and 6.12 headers, purge (tests/package-check, TAP; Documentation/install.md).
# Run as root; the packages are installed on this machine and purged again.
package:
	@mkdir -p $(TAP)
	$(TOP)/tests/package-check --build-only | tee $(TAP)/package-build.tap

package-check:
	@mkdir -p $(TAP)
	$(TOP)/tests/package-check | tee $(TAP)/package-check.tap

# DKMS in the VM: build against the test kernel's tree, install, modprobe,
# a lab forwards (tests/package/vm-dkms.sh; slow under TCG, so not in check).
# The plain test kernel by default (two guest CPUs, no KASAN: the in-guest
# compile is what takes the time); FTSW_PKGVM_KERNEL=debug for the other.
FTSW_PKGVM_KERNEL ?= plain
.PHONY: package-check-vm
package-check-vm: $(B)/kmod-$(FTSW_PKGVM_KERNEL)/kmod/ftsw.ko user
	@mkdir -p $(TAP)
	FTSW_KMOD=$(B)/kmod-$(FTSW_PKGVM_KERNEL)/kmod \
		$(VM)/run --$(FTSW_PKGVM_KERNEL) --smp 2 --timeout 3600 \
		-- $(TOP)/tests/package/vm-dkms.sh \
		| tee $(TAP)/package-vm-dkms.tap; \
	! grep -q '^not ok' $(TAP)/package-vm-dkms.tap

clean:
	rm -rf $(B)
	-[ -z "$(KDIR)" ] || $(MAKE) -C $(KDIR) M=$(TOP) clean
