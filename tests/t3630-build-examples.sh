#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t3630-build-examples: the build kinds' examples an operator starts from,
# and which bench/run's compose rows time (it picks each examples/*/ whose
# request.yaml says `kind: build` or `kind: build-summary` and composes it
# there with `-c robot.yaml request.yaml`): examples/build, a report of
# link errors with the new ones marked, and examples/build-summary, a
# BUILD REGRESSION of 21 configs.  Each composes as bench/run composes it,
# with no error, and the mail says what its request's comment promises.
. "$(dirname "$0")/lib.sh"

EX=$TOP/examples
compose() { # compose NAME: as bench/run does, in the example's folder
	(cd "$EX/$1" && "$ROBOT" compose --dry-run -c robot.yaml request.yaml)
}
kind_is() { # kind_is NAME KIND: bench/run's test of the request's kind
	grep -Eq "^kind:[[:space:]]*\"?$2\"?[[:space:]]*$" "$EX/$1/request.yaml"
}

ok "examples/build is a request of kind build" kind_is build build
expect_code 0 "examples/build composes" compose build
cp "$T/.out" "$T/report"
M=$T/report
ok "... its Subject is the first new link error" grep -q \
	"^Subject: \[demo:for-next 2/3\] frame.c:(.text+0x1a4): undefined" "$M"
ok "... frame.c's lines are new" sh -c \
	"test \$(grep -c '^>> frame.c:(.text+0x[0-9a-f]*): undefined reference' '$M') = 2"
ok "... stats.c's line, in base.log too, is not" grep -q \
	"^   stats.c:(.text+0x88): undefined reference" "$M"
ok "... with the 2026 tags and signature" sh -c \
	"grep -q '^| Closes: https://lore.kernel.org/oe-kbuild-all/202603210912.ExAmPlE1-lkp@example.org/$' '$M' &&
	 grep -q '^https://github.com/intel/lkp-tests/wiki$' '$M'"

ok "examples/build-summary is a request of kind build-summary" \
	kind_is build-summary build-summary
expect_code 0 "examples/build-summary composes" compose build-summary
cp "$T/.out" "$T/summary"
S=$T/summary
ok "... a BUILD REGRESSION of its head" grep -q \
	"^Subject: \[demo:for-next\] BUILD REGRESSION" "$S"
ok "... of 20 configs tested and one skipped" sh -c \
	"grep -q '^configs tested: 20$' '$S' && grep -q '^configs skipped: 1$' '$S'"
ok "... every config in the table" sh -c \
	"test \$(sed -n '/^tested configs:/,/^\$/p' '$S' | grep -c '^[a-z]') = 21"
ok "... core.c's old warning not listed, but an id of m68k's" sh -c \
	"! grep -q '^    drivers/demo/core.c' '$S' &&
	 grep -q 'drivers-demo-core.c:warning:no-previous-prototype-for-core_reset' '$S'"
echo "1..$test_n"
[ "$test_failed" -eq 0 ]
