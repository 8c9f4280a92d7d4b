#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every selection rule, shown to work: eml2lkp adds to each seed's result
# roots one stat per rule that the rule must drop (examples/seed-NNN/
# distractors).  Each must be absent from robot's table, and appear once
# that one rule is switched off with --no-rule.  The run-count rule is
# whole-matrix, so it is tested on copies of seed 001 cut to two runs.
. "$(dirname "$0")/lib.sh"

for ex in "$TOP"/examples/seed-*; do
	nnn=${ex##*-}
	date=$(cat "$ex/date")
	kpi=$(sed -n 's/^kpi: //p' "$ex/request.yaml")
	"$ROBOT" compare --style "$date" --kpi "$kpi" "$ex"/rt0 "$ex"/rt1 \
		>"$T/all-on"
	while read -r rule stat; do
		ok "seed $nnn: $rule drops $stat" \
			sh -c '! grep -q "  $1\$" "$2"' - "$stat" "$T/all-on"
		"$ROBOT" compare --style "$date" --kpi "$kpi" --no-rule "$rule" \
			"$ex"/rt0 "$ex"/rt1 >"$T/off"
		ok "seed $nnn: without $rule, $stat is shown" \
			grep -q "  $stat\$" "$T/off"
	done <"$ex/distractors"
done

# min-runs: lkp-tests skips perf stats when both sides have < 3 runs.
ex=$TOP/examples/seed-001
for j in 0 1; do
	$PYTHON - "$ex/rt$j" "$T/short$j" <<'PY'
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(src, 'matrix.json')))
m = {k: v[:2] for k, v in m.items()}
os.makedirs(dst)
json.dump(m, open(os.path.join(dst, 'matrix.json'), 'w'))
for r in ('0', '1'):
    shutil.copytree(os.path.join(src, r), os.path.join(dst, r))
PY
done
"$ROBOT" compare --style 2023-06-07 "$T/short0" "$T/short1" >"$T/short"
ok "min-runs: two runs a side show no perf table" \
	sh -c '! grep -q "%stddev" "$1"' - "$T/short"
"$ROBOT" compare --style 2023-06-07 --no-rule min-runs "$T/short0" \
	"$T/short1" >"$T/short-off"
ok "min-runs: without the rule the perf rows are back" \
	grep -q "perf-stat.i.ipc" "$T/short-off"
