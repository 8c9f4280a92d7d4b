#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# robot compare on a small hand-made pair of result roots: goldens for
# two styles and --all, usage and the errors of bad input.
. "$(dirname "$0")/lib.sh"

D=$TOP/tests/data/compare/small
cd "$D" || exit 1

"$ROBOT" compare --style 2023 --commits commits.yaml rt0 rt1 >"$T/2023"
ok "2023 style: selected rows, commit lines from metadata" \
	test_cmp expect-2023 "$T/2023"
"$ROBOT" compare --style 2016 --commits commits.yaml rt0 rt1 >"$T/2016"
ok "2016 style: stddev always, relative changes, 26-wide column" \
	test_cmp expect-2016 "$T/2016"
"$ROBOT" compare --all --style 2023 rt0 rt1 >"$T/all"
ok "--all: every shared stat, full ids" test_cmp expect-all "$T/all"
"$ROBOT" compare --style 2023 --kpi stress-ng.lockofd.ops_per_sec \
	--no-rule ratio-perf rt0 rt1 >"$T/kpi"
ok "--kpi and --no-rule are accepted" test -s "$T/kpi"

expect_code 0 "robot compare -h exits 0" "$ROBOT" compare -h
expect_code 0 "robot help compare exits 0" "$ROBOT" help compare
expect_code 2 "one result root is a usage error" "$ROBOT" compare rt0
expect_code 2 "an unknown style is a usage error" \
	"$ROBOT" compare --style 2023-13-01 rt0 rt1
expect_code 2 "an unknown rule is a usage error" \
	"$ROBOT" compare --no-rule nonsense rt0 rt1
expect_code 65 "a SOURCE_DATE_EPOCH that is no time is bad input" \
	env SOURCE_DATE_EPOCH=1e9 "$ROBOT" compare rt0 rt1
ok "... one line naming it" grep -qx \
	"robot: error: SOURCE_DATE_EPOCH: '1e9' is not a number of seconds from 1970 to 9999" \
	"$T/.err"
expect_code 65 "a missing result root is bad input" \
	"$ROBOT" compare rt0 "$T/nowhere"
printf 'commits:\n- id: 0000000000000000000000000000000000000000\n' \
	>"$T/other.yaml"
expect_code 65 "a commit missing from the metadata is bad input" \
	"$ROBOT" compare --commits "$T/other.yaml" rt0 rt1
printf 'commits:\n- id: 68674f94ffc9dddc1234567890abcdef12345678\n  x: 1\n' \
	>"$T/badkey.yaml"
expect_code 65 "an unknown key in the metadata is bad input" \
	"$ROBOT" compare --commits "$T/badkey.yaml" rt0 rt1
cp -r rt1 "$T/rt1-other"
sed -i 's/^testcase: stress-ng/testcase: will-it-scale/' "$T"/rt1-other/0/job.yaml
expect_code 65 "result roots of different tests are refused" \
	"$ROBOT" compare rt0 "$T/rt1-other"
expect_code 2 "an unknown command is a usage error" "$ROBOT" frobnicate
"$ROBOT" --version >"$T/version"
ok "robot --version prints the version" grep -q '^robot [0-9]' "$T/version"

# Trimmed ranges: with 32 or more runs lkp-tests drops size >> 5 samples
# at each end before the separation test, so one outlier in 40 runs does
# not hide a clear change; with 31 runs nothing is trimmed and it does.
for n in 40 31; do
	$PYTHON - "$T/trim$n" "$n" <<'PY'
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
for j, sha in enumerate(["a" * 40, "b" * 40]):
    rt = os.path.join(out, "rt%d" % j)
    base = 100.0 if j == 0 else 110.0
    vals = [base + (i % 5) * 0.1 for i in range(n)]
    if j == 0:
        vals[7] = 200.0          # one outlier in the base
    m = {"stress-ng.x.ops_per_sec": vals,
         "stats_source": ["/r/%s/%d/stats.json" % (sha, i) for i in range(n)]}
    os.makedirs(rt)
    json.dump(m, open(os.path.join(rt, "matrix.json"), "w"))
    for i in range(n):
        os.makedirs(os.path.join(rt, str(i)))
        open(os.path.join(rt, str(i), "job.yaml"), "w").write(
            "testcase: stress-ng\ncommit: %s\n" % sha)
PY
	"$ROBOT" compare --style 2023 "$T/trim$n/rt0" "$T/trim$n/rt1" \
		>"$T/trim$n.out"
done
ok "40 runs: the outlier is trimmed, the change is shown" \
	grep -q "stress-ng.x.ops_per_sec" "$T/trim40.out"
ok "31 runs: nothing is trimmed, the outlier hides the change" \
	sh -c '! grep -q "stress-ng.x.ops_per_sec" "$1"' - "$T/trim31.out"
