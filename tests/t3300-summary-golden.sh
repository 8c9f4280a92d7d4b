# SPDX-License-Identifier: GPL-2.0-only
#
# t3300-summary-golden: branch summaries (kind: build-summary,
# doc/build-summary.md), byte for byte.  Each tests/build-summary/NNNN-*/
# case is a hand-written request over the build results of
# tests/build-summary/data (gcc and clang builds, a finding the base build
# had too, a line the robot did not verify, a skipped config, a build of
# an earlier head), composed in the style of its date; expect.eml is the
# exact output of `robot compose --dry-run -c ../data/robot.yaml
# request.yaml`.  Every mail parses without defect under Python's email
# package, and the same request gives the same bytes twice.
#
#   UPDATE=1 tests/run t3300   rewrites every expect.eml that differs
. "$(dirname "$0")/lib.sh"

SRC=$TOP/tests/build-summary
G=$T/build-summary
CHECK=$TOP/tests/golden/data/check-mail

if [ ! -x "$ROBOT" ]; then
	_fail "$ROBOT is built (make all)"
	exit 1
fi
mkdir -p "$G" && cp -R "$SRC"/. "$G"/
. "$TOP/tests/lib-golden.sh"

n=0
for dir in "$SRC"/[0-9][0-9][0-9][0-9]-*/; do
	c=$(basename "$dir")
	n=$((n + 1))
	ok "$c: compose --dry-run gives expect.eml" golden "$c"
	if [ ! -s "$G/$c/actual" ]; then
		_fail "$c: no mail to check further"
		continue
	fi
	ok "$c: no defects under Python's email.policy.default" \
		"$PYTHON" "$CHECK" defects "$G/$c/actual"
	ok "$c: the same request gives the same bytes twice" same_twice "$c"
done
ok "at least four summary cases" test "$n" -ge 4

# --style overrides the request's date: the 2020 layout of case 0003
(cd "$G/0003-2025-regression" && "$ROBOT" compose --dry-run --style 2020-02-13 \
	-c ../data/robot.yaml request.yaml) >"$T/styled" 2>&1
ok "--style 2020-02-13 gives the 2020 body" sh -c \
	"sed -n '/^tree/,\$p' '$T/styled' >'$T/a' && \
	 sed -n '/^tree/,\$p' '$G/0001-2020-regression/actual' >'$T/b' && \
	 diff -u '$T/b' '$T/a'"

# queued (no --dry-run): the spool holds it, a second compose says so
(cd "$G/0004-2024-success" && "$ROBOT" compose -c ../data/robot.yaml \
	request.yaml) >"$T/q1" 2>&1
(cd "$G/0004-2024-success" && "$ROBOT" compose -c ../data/robot.yaml \
	request.yaml) >"$T/q2" 2>&1
ok "compose queues the summary under its Message-ID" \
	grep -qx '<202410172156.d-lkp@intel.com>' "$T/q1"
ok "the same summary again is already queued" \
	grep -q '^already queued: <202410172156.d-lkp@intel.com>' "$T/q2"
