#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t3620-build-real: a real build.  A tiny kernel-style tree (a Makefile,
# two C files, a header) in a git repository: the base commit builds
# with one warning; the next commit adds an error and a second warning.
# Both are built through make with gcc (and clang when installed), the
# test writes the build result from what the builds left (doc/build-
# result.md: build.yaml, build.log, base.log) and robot composes the
# report: the new findings carry ">>", the old warning does not, the
# Subject names the error, and the excerpt shows the commit's own lines
# (read from its blob, not the work tree) with ">" on the lines the new
# findings name.
. "$(dirname "$0")/lib.sh"

S=$T/src
mkdir -p "$S/drivers/demo"
cd "$S" || exit 1
git init -q . && git config user.name Dev && git config user.email dev@example.org
cat >Makefile <<'MK'
CC ?= gcc
obj := drivers/demo/demo.o drivers/demo/core.o
all: $(obj)
%.o: %.c
	$(CC) -Wall -Werror=implicit-function-declaration -c -o $@ $<
MK
cat >drivers/demo/demo.h <<'H'
int demo_core(int x);
H
cat >drivers/demo/core.c <<'C'
#include "demo.h"

int demo_core(int x)
{
	int unused;

	return x + 1;
}
C
cat >drivers/demo/demo.c <<'C'
#include "demo.h"

int demo_probe(int x)
{
	return demo_core(x);
}
C
git add -A && git commit -q -m "demo: the driver"
base=$(git rev-parse HEAD)
cat >drivers/demo/demo.c <<'C'
#include "demo.h"

int demo_probe(int x)
{
	int count;

	return demo_core(x) + demo_missing(x);
}
C
git add -A && git commit -q -m "demo: count the probes"
commit=$(git rev-parse HEAD)
# the work tree moves on: robot must read the commit's blob
echo "/* later */" >>drivers/demo/demo.c
cd "$T" || exit 1

# build_at CC REV LOG: the tree at REV built by make with CC, its output
build_at() {
	rm -rf "$T/w" && git -C "$S" worktree add -q -f "$T/w" "$2" 2>/dev/null ||
		git clone -q "$S" "$T/w"
	git -C "$T/w" checkout -q "$2"
	make -k -s -C "$T/w" CC="$1" >"$3" 2>&1
	git -C "$S" worktree remove -f "$T/w" 2>/dev/null
	rm -rf "$T/w"
}

compilers=gcc
for c in clang clang-14; do
	if command -v "$c" >/dev/null 2>&1; then
		compilers="$compilers $c"
		break
	fi
done

for cc in $compilers; do
	B=$T/build-$cc
	mkdir -p "$B"
	build_at "$cc" "$base" "$B/base.log"
	build_at "$cc" "$commit" "$B/build.log"
	ok "$cc: the commit fails to build where the base built" \
		grep -q "demo_missing" "$B/build.log"
	version=$("$cc" --version | head -n 1)
	cat >"$B/build.yaml" <<Y
arch: x86_64
config: x86_64-defconfig
compiler: "$version"
commit: $commit
base: $base
make: ["make CC=$cc"]
Y
	line=$(grep -n demo_missing "$S/drivers/demo/demo.c" | cut -d: -f1)
	cat >"$T/request-$cc.yaml" <<R
kind: build
date: "Sat, 21 Mar 2026 16:21:51 +0800"
message_id: "<202603211611.test$cc-lkp@intel.com>"
from: "kernel test robot <lkp@intel.com>"
to: ["Dev <dev@example.org>"]
tree: "https://git.example.org/demo.git"
tree_name: demo
branch: master
head: $commit
position: "2/2"
commit_subject: "demo: count the probes"
build: build-$cc
repo: src
excerpts:
  - file: drivers/demo/demo.c
    line: $line
    from: 1
    to: 8
R
	cat >"$T/robot.yaml" <<C
spool: $T/spool
archive_url: "https://download.01.org/0day-ci/archive"
list_archive_url: "https://lore.kernel.org/oe-kbuild-all"
C
	"$ROBOT" compose --dry-run -c "$T/robot.yaml" "$T/request-$cc.yaml" \
		>"$T/mail-$cc" 2>"$T/err-$cc"
	ok "$cc: robot composes the report" test -s "$T/mail-$cc"
	# the error and the new warning are marked, the old warning is not
	err=$(grep -m1 "demo.c:$line:[0-9]*: error: .*demo_missing" "$B/build.log")
	ok "$cc: the error is marked new" grep -qxF ">> $err" "$T/mail-$cc"
	wnew=$(grep -m1 "demo.c:5:[0-9]*: warning: unused variable .count" "$B/build.log")
	ok "$cc: the new warning is marked new" grep -qxF ">> $wnew" "$T/mail-$cc"
	wold=$(grep -m1 "core.c:5:[0-9]*: warning: unused variable .unused" "$B/build.log")
	ok "$cc: the base's warning is not" grep -qxF "   $wold" "$T/mail-$cc"
	ok "$cc: the heading says errors" grep -qx \
		"All error/warnings (new ones prefixed by >>):" "$T/mail-$cc"
	subj=$(sed -n 's/^Subject: //p' "$T/mail-$cc")
	want="[demo:master 2/2] $(echo "$err" | sed 's/ \[-W[^]]*\]$//')"
	ok "$cc: the Subject names the error" test "$subj" = "$want" -o \
		"$(printf '%s' "$subj" | head -c 40)" = "$(printf '%s' "$want" | head -c 40)"
	ok "$cc: the excerpt names its line" grep -qx \
		"vim +$line drivers/demo/demo.c" "$T/mail-$cc"
	ok "$cc: the error's line is marked in the excerpt" grep -qxF \
		"$(printf '> %s\t\treturn demo_core(x) + demo_missing(x);' "$line" |
			awk '{printf "%6s", ""}' >/dev/null; printf '%6s\t\treturn demo_core(x) + demo_missing(x);' "> $line")" \
		"$T/mail-$cc"
	ok "$cc: the new warning's line is marked" grep -qxF \
		"$(printf '%6s\t\tint count;' '> 5')" "$T/mail-$cc"
	ok "$cc: the commit's blob, not the work tree" sh -c \
		"! grep -q later '$T/mail-$cc'"
	ok "$cc: the mail passes Python's parser" "$PYTHON" -c '
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
assert not m.defects and m["Subject"], m.defects' "$T/mail-$cc"
done
echo "1..$test_n"
[ "$test_failed" -eq 0 ]
