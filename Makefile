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
#   make fidelity   the round trip of every real mail of the corpus (CORPUS=DIR)
#   make check-lkp LKP_SRC=DIR   the differential test against lkp-tests
#   make mutate-rules  which test notices each row of the dated tables
#   make format-check / make format
#   make install PREFIX=/usr/local

PREFIX  ?= /usr/local
BUILD   ?= build
VERSION := 0.1.0
PKGS    := libcurl libgit2 yaml-0.1 libetpan yajl zlib nettle liblzma libpcre2-8
CC      ?= cc
# Data files (templates, tables): the source tree for a build; install
# rebuilds with DATADIR=$(PREFIX)/share/robot.
DATADIR ?= $(CURDIR)

CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	   -Wpointer-arith -Wwrite-strings -Wvla -Wformat=2 -Wcast-qual \
	   -fno-common
WERROR  ?= -Werror
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) $(WERROR) -MMD -MP \
	   -I. -DROBOT_VERSION='"$(VERSION)"' \
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
# libetpan.pc adds -specs=.../no-pie-link.specs, which links a non-PIE binary.
PKG_LIBS = $(filter-out -specs=%,$(shell pkg-config --libs $(PKGS) 2>/dev/null))
override CFLAGS += $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -lm

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
	$(QUIET_CC)$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/librobot.a: $(LIB_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/robot: $(CLI_OBJS) $(BUILD)/librobot.a
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BUILD=$(BUILD) tests/run

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

asan: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan SANITIZE=1 check

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
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh

# The round trip of the real mails of the shared corpus, one part per
# kind of mail (tests/fidelity/PART prints a line per mail and a summary
# line); each kind adds its part here.  CORPUS=DIR elsewhere.
FIDELITY_PARTS := mails functional plots kbuild
fidelity: all
	$(Q)BUILD=$(BUILD) tests/fidelity/run $(FIDELITY_PARTS)

# Which test notices each row of the dated tables (config/data/styles,
# config/data/lkp/rules): each row mutated in a scratch copy, the checks
# of its dates run; writes tests/mutate-rules.md.  Slow (tens of minutes),
# so not part of check.  MUTATE_FLAGS='--table lkp' adds the lkp tables.
mutate-rules: all
	$(Q)/usr/bin/python3 tests/tools/mutate-rules -j2 $(MUTATE_FLAGS)

# An installed robot reads its templates and tables from
# $(PREFIX)/share/robot, so it is built again with that DATADIR (data.o,
# the one object that holds it, is always rebuilt).
install:
	$(Q)rm -f build-install/obj/config/data.o build-install/librobot.a \
		build-install/robot
	$(Q)$(MAKE) --no-print-directory BUILD=build-install \
		DATADIR=$(PREFIX)/share/robot build-install/robot
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/robot \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 build-install/robot $(DESTDIR)$(PREFIX)/bin/robot
	cp -R templates $(DESTDIR)$(PREFIX)/share/robot/
	install -d $(DESTDIR)$(PREFIX)/share/robot/config
	cp -R config/data $(DESTDIR)$(PREFIX)/share/robot/config/
	install -m 644 doc/robot.1 $(DESTDIR)$(PREFIX)/share/man/man1/robot.1

FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRCS)
format-check:
	clang-format --dry-run --Werror $(FORMAT_SRCS)

clean:
	rm -rf build build-asan build-install build-fuzz

.PHONY: all deps check asan fuzz fuzz-build demo install format \
	format-check clean \
	golden-update fidelity check-lkp mutate-rules
.SECONDARY:

-include $(wildcard $(OBJ)/*/*.d $(OBJ)/*/*/*.d $(OBJ)/*/*/*/*.d) $(HELPER_BINS:=.d)
