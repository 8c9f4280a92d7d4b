# SPDX-License-Identifier: GPL-2.0-only
#
# robot: one non-recursive Makefile.  Sources are listed once per module;
# every module but the CLI goes into librobot.a, which robot and the unit
# tests link.  `make V=1` shows the commands.
#
#   make            build build/robot
#   make check      install missing packages, build, run the whole suite
#   make asan       the same under ASan+UBSan+LeakSanitizer (build-asan/)
#   make demo       compose the examples and deliver them to a local mbox
#   make torture    faults on purpose: bad SMTP servers, kills, a full disk,
#                   TLS (tests/torture/run; TORTURE_TIME=1 for the long run)
#   make fidelity   the round trip of every real mail of the corpus (CORPUS=DIR)
#   make check-lkp LKP_SRC=DIR   the differential test against lkp-tests
#   make mutate-rules  which test notices each row of the dated tables
#   make bench      every benchmark, one table, bench/results.tsv
#   make bench-compare BASE=COMMIT   the change of every figure since COMMIT
#   make format-check / make format
#   make install / make uninstall   PREFIX=/usr/local DESTDIR=
#   make package    the Debian package, into $(BUILD)/package (doc/operating.md)

PREFIX  ?= /usr/local
BUILD   ?= build
PKGS    := libcurl libgit2 yaml-0.1 libetpan yajl zlib nettle liblzma libpcre2-8
CC      ?= cc
# Data files (templates, tables): the source tree for a build; install
# rebuilds with DATADIR=$(PREFIX)/share/robot.
DATADIR ?= $(CURDIR)

CFLAGS  ?= -O2 -g
# the caller's CFLAGS, before the additions below: what a sub-make with
# another DATADIR gets (a CFLAGS from the environment, dpkg-buildflags',
# would be exported with the additions)
USER_CFLAGS := $(CFLAGS)
WARN    := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	   -Wpointer-arith -Wwrite-strings -Wvla -Wformat=2 -Wcast-qual \
	   -fno-common
WERROR  ?= -Werror
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) $(WERROR) -MMD -MP \
	   -I. \
	   -DROBOT_DATA_DIR='"$(DATADIR)"'
ifneq ($(SANITIZE),)
override CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer -O1 -g
override LDFLAGS += -fsanitize=address,undefined
endif

# libFuzzer (make fuzz): the library instrumented for coverage, the
# targets linked with the fuzzer's main.  What would differ from run to
# run goes: the macro fixes robot/engine/matrix.c's hash seed, and no stack depth
# is measured (it moves with the stack's random start, as ASan aligns the
# frames).
ifneq ($(FUZZ),)
override CFLAGS += -fsanitize=fuzzer-no-link,address,undefined \
	   -fno-sanitize-coverage=stack-depth \
	   -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g \
	   -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
override LDFLAGS += -fsanitize=address,undefined
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libcurl, libgit2 and libetpan (and the 40 libraries they bring), and
# yajl, nettle, liblzma and PCRE2 (each used by one module, and by few
# commands) are not linked: the module that owns each loads it with
# dlopen() when a command first calls it (robot/util/dl.h), by the SONAME
# of the library that its headers belong to, read here.  build/dl-libs is
# linked with them, for dpkg-shlibdeps (debian/rules) and nothing else.
DL_PKGS := libcurl libgit2 libetpan yajl nettle liblzma libpcre2-8
soname = $(shell readelf -d "$$($(CC) -print-file-name=lib$(1).so)" \
	2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
DL_SONAMES := -DROBOT_CURL_SONAME='"$(call soname,curl)"' \
	-DROBOT_GIT2_SONAME='"$(call soname,git2)"' \
	-DROBOT_ETPAN_SONAME='"$(call soname,etpan)"' \
	-DROBOT_YAJL_SONAME='"$(call soname,yajl)"' \
	-DROBOT_NETTLE_SONAME='"$(call soname,nettle)"' \
	-DROBOT_LZMA_SONAME='"$(call soname,lzma)"' \
	-DROBOT_PCRE2_SONAME='"$(call soname,pcre2-8)"'
# libetpan.pc adds -specs=.../no-pie-link.specs, which links a non-PIE binary.
PKG_LIBS = $(filter-out -specs=%,$(shell pkg-config --libs \
	$(filter-out $(DL_PKGS),$(PKGS)) 2>/dev/null))
override CFLAGS += $(PKG_CFLAGS) $(DL_SONAMES)
LDLIBS += $(PKG_LIBS) -lm
# git/repo.c's mbedtls_x509_crt_parse_file() and libssh2_init(), which
# libgit2's init finds before mbedTLS's and libssh2's (git/repo.c says why)
override LDFLAGS += -Wl,--export-dynamic-symbol=mbedtls_x509_crt_parse_file \
	-Wl,--export-dynamic-symbol=libssh2_init

ifeq ($(V),)
Q = @
QUIET_CC = @echo '   CC' $@;
QUIET_AR = @echo '   AR' $@;
QUIET_LINK = @echo ' LINK' $@;
QUIET_GEN = @echo '  GEN' $@;
endif

# Sources by folder (doc/architecture.md): every .c of a folder is built,
# so a new module needs no edit here.  Everything but the CLI goes into
# librobot.a, which robot, the unit tests and the helpers link.
UTIL_SRCS := $(sort $(wildcard robot/util/*.c))
ENGINE_SRCS := $(sort $(wildcard robot/engine/*.c))
REPORT_SRCS := $(sort $(wildcard robot/report/*.c))
KIND_SRCS := $(sort $(wildcard robot/kinds/*.c robot/kinds/*/*.c))
DELIVERY_SRCS := $(sort $(wildcard robot/delivery/*.c))
INCOMING_SRCS := $(sort $(wildcard robot/incoming/*.c))
CONFIG_SRCS := $(sort $(wildcard config/*.c))
GIT_SRCS := $(sort $(wildcard git/*.c))
MAIL_SRCS := $(sort $(wildcard mail/*.c))
TEMPLATE_SRCS := $(sort $(wildcard templates/*.c))
LIB_SRCS := $(UTIL_SRCS) $(ENGINE_SRCS) $(REPORT_SRCS) $(KIND_SRCS) \
	$(DELIVERY_SRCS) $(INCOMING_SRCS) $(CONFIG_SRCS) $(GIT_SRCS) \
	$(MAIL_SRCS) $(TEMPLATE_SRCS)

# The CLI: main.c and one file per command (robot/ itself); the only code
# that exits.
CLI_SRCS := $(sort $(wildcard robot/*.c))

UNIT_SRCS := $(sort $(wildcard tests/unit/t-*.c))
# libFuzzer targets, one per loader and one for compose (tests/fuzz/).
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_TIME ?= 60
FUZZ_CC ?= clang-14

# Objects go under $(BUILD)/obj, so that $(BUILD)/robot can be the binary.
OBJ := $(BUILD)/obj
LIB_OBJS := $(LIB_SRCS:%.c=$(OBJ)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(OBJ)/%.o)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
FUZZ_BINS := $(FUZZ_SRCS:%.c=$(BUILD)/%)
# Small programs the shell tests drive (tests/helpers/*.c).
HELPER_BINS := $(BUILD)/tests/helpers/rt-load $(BUILD)/tests/helpers/commit-info $(BUILD)/tests/helpers/msg-render \
	$(BUILD)/tests/helpers/patch-id

all: $(BUILD)/robot $(UNIT_BINS) $(HELPER_BINS)

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/librobot.a: $(LIB_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/robot: $(CLI_OBJS) $(BUILD)/librobot.a
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# What robot loads with dlopen(), linked and using a function of each, for
# dpkg-shlibdeps (debian/rules); never run.
$(BUILD)/dl-libs: scripts/dl-libs.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $< -lcurl -lgit2 -letpan -lyajl \
		-lnettle -llzma -lpcre2-8

$(BUILD)/tests/unit/%: $(OBJ)/tests/unit/%.o $(BUILD)/librobot.a
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/helpers/%: $(OBJ)/tests/helpers/%.o $(BUILD)/librobot.a
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/fuzz/%: $(OBJ)/tests/fuzz/%.o $(OBJ)/tests/fuzz/fuzz.o \
		$(BUILD)/librobot.a
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

deps:
	$(Q)scripts/deps.sh --if-missing

check: deps
	$(Q)$(MAKE) $(JOBS) --no-print-directory all
	$(Q)BUILD=$(BUILD) tests/run

# Faults on purpose (tests/torture/run): misbehaving SMTP servers, SIGKILL
# at random points, two senders, a full and a read-only spool, TLS and
# secrets.  A few minutes; TORTURE_TIME=N (any value) for 500 kill rounds.
torture: deps
	$(Q)$(MAKE) $(JOBS) --no-print-directory all
	$(Q)BUILD=$(abspath $(BUILD)) TORTURE_TIME="$(TORTURE_TIME)" \
		tests/torture/run

# Rewrites tests/golden/*/expect.eml from the current robot: review the
# diff before committing it (tests/golden/README).
golden-update: all
	$(Q)UPDATE=1 BUILD=$(BUILD) tests/run t3000

# The differential test against lkp-tests (tests/lkp/README): not part of
# make check.  LKP_SRC is an lkp-tests git repository with its history.
check-lkp:
	$(Q)if [ -z "$(LKP_SRC)" ]; then \
		echo "make check-lkp: set LKP_SRC to an lkp-tests git repository" >&2; \
		exit 2; fi
	$(Q)scripts/deps.sh --lkp --if-missing
	$(Q)$(MAKE) --no-print-directory all
	$(Q)LKP_SRC="$(LKP_SRC)" LKP_SEED="$(LKP_SEED)" LKP_PAIRS="$(LKP_PAIRS)" \
		LKP_TRIPLES="$(LKP_TRIPLES)" \
		LKP_DATES="$(LKP_DATES)" LKP_WORK="$(LKP_WORK)" \
		ROBOT="$(abspath $(BUILD))/robot" tests/lkp/check-lkp

# The benchmarks (bench/run --help): one table of every workload beside
# its anchor and its floor, and bench/results.tsv; not part of check.
# BENCH_QUICK=1 for a short run, BENCH="compare send" for some workloads,
# LKP_SRC=DIR for lkp-tests' ncompare beside robot compare.
# bench-compare builds BASE in a temporary tree, runs the same benchmarks
# with both robots and fails when a figure is more than 10% worse.
bench: deps
	$(Q)scripts/deps.sh --bench --if-missing
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) bench/run $(BENCH)

bench-compare: deps
	$(Q)if [ -z "$(BASE)" ]; then \
		echo "make bench-compare: set BASE to a commit" >&2; exit 2; fi
	$(Q)scripts/deps.sh --bench --if-missing
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) bench/run --base "$(BASE)" $(BENCH)

asan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan SANITIZE=1 \
		EML2LKP_LAYOUT_CPU=80 check

# Each libFuzzer target for FUZZ_TIME seconds on its committed corpus
# (tests/fuzz/run).  FUZZ_RUNS=N (or ci: tests/fuzz/ci-runs' count for
# each target) runs a fixed number of inputs with the seed FUZZ_SEED
# instead, the same on every run: CI's mode.
fuzz: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-fuzz FUZZ=1 \
		CC=$(FUZZ_CC) fuzz-build
	$(Q)FUZZ_SEED="$(FUZZ_SEED)" tests/fuzz/run build-fuzz \
		$(if $(FUZZ_RUNS),runs=$(FUZZ_RUNS),$(FUZZ_TIME))

fuzz-build: $(FUZZ_BINS)

demo: deps
	$(Q)$(MAKE) $(JOBS) --no-print-directory all
	$(Q)scripts/demo.sh

# The round trip of the real mails of the shared corpus, one part per
# kind of mail (tests/fidelity/PART prints a line per mail and a summary
# line); each kind adds its part here.  CORPUS=DIR elsewhere.
# VALIDATION=DIR scores the gathered mails of DIR instead (both halves
# when it holds them; tests/fidelity.md, "The validation protocol").
# LAYOUT=1 adds, beside the contract figure, the one with the operator's
# layout choices (eml2lkp --layout; doc/roundtrip.md, "The layout mode").
FIDELITY_PARTS := mails functional plots kbuild replies
fidelity: all
	$(Q)BUILD=$(BUILD) $(if $(VALIDATION),VALIDATION=$(abspath $(VALIDATION))) \
		$(if $(LAYOUT),FIDELITY_LAYOUT=1) \
		tests/fidelity/run $(if $(VALIDATION),validation,$(FIDELITY_PARTS))

# Which test notices each row of the dated tables (config/data/styles,
# config/data/lkp/rules; the build kinds' build-styles and summary-styles,
# whose every kbuild mail of the corpus runs: they are cheap): each row
# mutated in a scratch copy, the checks of its dates run; writes
# tests/mutate-rules.md, tests/mutate-rules-build.md and
# tests/mutate-rules-summary.md.  Slow (an hour or more), so not part of
# check.  MUTATE_FLAGS='--table lkp' adds the lkp tables to the first;
# MUTATE_BUILD_FLAGS go to the other two.
mutate-rules: all
	$(Q)/usr/bin/python3 tests/tools/mutate-rules -j2 $(MUTATE_FLAGS)
	$(Q)/usr/bin/python3 tests/tools/mutate-rules -j2 --table build \
		--max-mails 0 --witnesses -o tests/mutate-rules-build.md \
		$(MUTATE_BUILD_FLAGS)
	$(Q)/usr/bin/python3 tests/tools/mutate-rules -j2 --table summary \
		--max-mails 0 --witnesses -o tests/mutate-rules-summary.md \
		$(MUTATE_BUILD_FLAGS)

# ---- Packaging: version, test build, completion, install, package ----
# (doc/operating.md).  The version: `git describe` of the newest v* tag,
# else VERSION (a tarball's), else debian/changelog (scripts/version.sh).
# Only the objects whose source names ROBOT_VERSION get it (main.c,
# lore.c's User-Agent), rebuilt when $(BUILD)/version changes.
VERSION := $(shell scripts/version.sh)
VERSION_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(shell grep -l ROBOT_VERSION \
	$(LIB_SRCS) $(CLI_SRCS) 2>/dev/null))
$(BUILD)/version: FORCE
	@mkdir -p $(dir $@)
	$(Q)echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
$(VERSION_OBJS) $(VERSION_OBJS:$(OBJ)/%=$(OBJ)/hooks/%): $(BUILD)/version
$(VERSION_OBJS) $(VERSION_OBJS:$(OBJ)/%=$(OBJ)/hooks/%): \
	override CFLAGS += -DROBOT_VERSION='"$(VERSION)"'

# The build is parallel: one job per CPU unless make is given -j (the
# command line wins) or runs under another make (which has its own);
# check, demo and install pass the same to their sub-make.
NPROC := $(shell nproc 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(NPROC)
endif
# (MAKEFLAGS shows -j only in recipes, hence = and not :=).
JOBS = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(NPROC))

# The test build: the crash points of the delivery tests
# (ROBOT_TEST_CRASH, doc/delivery.md) exist only in
# $(BUILD)/tests/robot-crash, whose files that hold one are compiled
# again with -DROBOT_TEST_HOOKS; build/robot has none.  Its objects come
# before librobot.a, so the archive's copies of them are not linked.
HOOK_SRCS := $(shell grep -l 'test_crash_' $(LIB_SRCS) 2>/dev/null)
HOOK_OBJS := $(HOOK_SRCS:%.c=$(OBJ)/hooks/%.o)
TEST_BINS := $(BUILD)/tests/robot-crash
$(OBJ)/hooks/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -DROBOT_TEST_HOOKS -c -o $@ $<
$(BUILD)/tests/robot-crash: $(CLI_OBJS) $(HOOK_OBJS) $(BUILD)/librobot.a
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
-include $(HOOK_OBJS:.o=.d)

# Bash completion, generated from `robot help --options`.
COMPLETION := $(BUILD)/completion/robot
all: $(TEST_BINS) $(COMPLETION)
$(BUILD)/completion/robot: $(BUILD)/robot scripts/gen-completion.sh
	@mkdir -p $(dir $@)
	$(QUIET_GEN)scripts/gen-completion.sh $(BUILD)/robot >$@+ && mv $@+ $@

# make install: an installed robot reads its templates and tables from
# $(ROBOT_DATA) (PREFIX/share/robot), so it is built again with that
# DATADIR in build-install (data.o, the one object that holds it, is
# always rebuilt).  DESTDIR is only prepended at install time.
BINDIR      ?= $(PREFIX)/bin
ROBOT_DATA  ?= $(PREFIX)/share/robot
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/robot
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL_BUILD ?= build-install
install-build:
	$(Q)rm -f $(INSTALL_BUILD)/obj/config/data.o \
		$(INSTALL_BUILD)/librobot.a $(INSTALL_BUILD)/robot
	$(Q)$(MAKE) $(JOBS) --no-print-directory BUILD=$(INSTALL_BUILD) \
		CFLAGS='$(USER_CFLAGS)' \
		DATADIR=$(ROBOT_DATA) $(INSTALL_BUILD)/robot \
		$(INSTALL_BUILD)/completion/robot $(INSTALL_BUILD)/dl-libs
install: install-build
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(ROBOT_DATA)/config \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(DOCDIR)
	install -m 755 $(INSTALL_BUILD)/robot $(DESTDIR)$(BINDIR)/robot
	cp -R templates $(DESTDIR)$(ROBOT_DATA)/
	find $(DESTDIR)$(ROBOT_DATA)/templates -name '*.[ch]' -delete
	cp -R config/data $(DESTDIR)$(ROBOT_DATA)/config/
	# the tables' generators (developer tools, run on lkp-tests) stay out
	find $(DESTDIR)$(ROBOT_DATA)/config/data -name generate -delete
	install -m 644 doc/robot.1 $(DESTDIR)$(MANDIR)/man1/robot.1
	install -m 644 $(INSTALL_BUILD)/completion/robot \
		$(DESTDIR)$(BASHCOMPDIR)/robot
	cp -R examples $(DESTDIR)$(DOCDIR)/

# Removes what install put there, and the directories that are robot's
# own; the shared ones (bin, man1, ...) stay.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/robot $(DESTDIR)$(MANDIR)/man1/robot.1 \
		$(DESTDIR)$(BASHCOMPDIR)/robot
	rm -rf $(DESTDIR)$(ROBOT_DATA) $(DESTDIR)$(DOCDIR)/examples
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

# The Debian package (debian/), built from a copy of this tree in
# $(BUILD)/package, where the .deb lands; lintian checks it.
package:
	$(Q)scripts/package.sh $(BUILD)/package

.PHONY: install install-build uninstall package FORCE
# ---- end of packaging ----

FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRCS)
format-check:
	clang-format --dry-run --Werror $(FORMAT_SRCS)

clean:
	rm -rf build build-asan build-install build-fuzz
	rm -rf debian/robot debian/.debhelper debian/debhelper-build-stamp \
		debian/files debian/*.substvars debian/*.debhelper.log

.PHONY: all deps check torture asan fuzz fuzz-build demo install format \
	format-check clean \
	golden-update fidelity check-lkp mutate-rules bench bench-compare
.SECONDARY:

-include $(wildcard $(OBJ)/*/*.d $(OBJ)/*/*/*.d $(OBJ)/*/*/*/*.d) $(HELPER_BINS:=.d)
