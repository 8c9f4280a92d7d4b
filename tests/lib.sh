# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib.sh: sourced by every tests/tNNNN-*.sh.  Gives a scratch
# directory, TAP helpers and the robot binary:
#
#   ok "desc" CMD...          passes when CMD exits 0
#   test_cmp EXPECT ACTUAL    diff -u, expected first
#   expect_code N "desc" CMD  passes when CMD exits N and prints exactly one
#                             "robot: error:" line on stderr (N != 0)
#   names NEEDLE...           after expect_code: 0 when its error line
#                             holds every NEEDLE (fixed strings)
#
# Script numbering: the first digit names the module (1 results/compare,
# 2 config, 3 templates/report, 4 mail, 5 spool/send, 6 git, 9 round trip).
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
ROBOT=${ROBOT:-$BUILD/robot}
# the test build: robot with the crash points of $ROBOT_TEST_CRASH
ROBOT_CRASH=${ROBOT_CRASH:-$BUILD/tests/robot-crash}
export TZ=UTC LC_ALL=C
PYTHON=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/robot-test.XXXXXX")
test_n=0
test_failed=0
cleanup() {
	if [ "$test_failed" -eq 0 ]; then
		rm -rf "$T"
	else
		echo "# kept scratch directory: $T"
	fi
}
trap cleanup EXIT

# skip_without_corpus DIR GLOB WHAT: when no file DIR/GLOB exists (the
# corpus of real mails sits beside the checkout, at ../shared/corpus,
# and may be absent), says in one line that WHAT is skipped and ends the
# test, passed
skip_without_corpus() {
	if ! ls "$1"/$2 >/dev/null 2>&1; then
		_ok "$3 # SKIP no corpus at $1"
		echo "1..$test_n"
		exit 0
	fi
}

_ok() {
	test_n=$((test_n + 1))
	echo "ok $test_n - $1"
}
_fail() {
	test_n=$((test_n + 1))
	test_failed=$((test_failed + 1))
	echo "not ok $test_n - $1"
}

ok() {
	desc=$1
	shift
	if "$@" >"$T/.out" 2>&1; then
		_ok "$desc"
	else
		_fail "$desc"
		sed 's/^/# /' "$T/.out"
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

expect_code() {
	want=$1
	desc=$2
	shift 2
	"$@" >"$T/.out" 2>"$T/.err"
	rc=$?
	nerr=$(grep -c '^robot: error: ' "$T/.err")
	nlines=$(wc -l <"$T/.err")
	if [ "$rc" -eq "$want" ] && { [ "$want" -eq 0 ] ||
		{ [ "$nerr" -eq 1 ] && [ "$nlines" -eq 1 ]; }; }; then
		_ok "$desc"
	else
		_fail "$desc (exit $rc, want $want)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
}

names() {
	for n in "$@"; do
		if ! grep -qF -- "$n" "$T/.err"; then
			echo "the error does not name '$n':"
			cat "$T/.err"
			return 1
		fi
	done
}

# functional_cases: the functional golden cases (tests/functional, $SRC)
# copied to $G with the result roots their data/make-rts writes
functional_cases() {
	SRC=$TOP/tests/functional
	G=$T/functional
	mkdir -p "$G" && cp -R "$SRC"/. "$G"/
	ok "make-rts writes the result roots" "$PYTHON" "$SRC/data/make-rts" \
		"$G/data/rt"
}

# base_request COMMIT: a good report request over the result roots rt0 and
# rt1 and the metadata commits.yaml of its folder (tests/data/compare/small
# copied there), testing COMMIT; tests break it in one place.
base_request() {
	cat <<EOF
date: "2023-06-07 14:32:17 +0800"
from: "kernel test robot <oliver.sang@intel.com>"
to: ["Linus Torvalds <torvalds@linux-foundation.org>"]
cc: ["<oe-lkp@lists.linux.dev>"]
tree: "linus:master"
repo_url: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git
branch: master
commit: $1
commits: commits.yaml
kpi: stress-ng.lockofd.ops_per_sec
result_roots: [rt0, rt1]
EOF
}
