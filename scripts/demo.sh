#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`: runs robot on examples/.  For each seed example (result
# roots that tests/tools/eml2lkp rebuilt from a real 0-day mail) it prints
# the comparison block to build/demo/seed-NNN.txt; then it composes the
# report of examples/demo/request.yaml, shows it (--dry-run) and queues it
# in the demo spool.  Delivery to the local mailbox comes with `robot
# send`, which this version does not have yet.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
out=$top/build/demo
mkdir -p "$out"
for ex in "$top"/examples/seed-*/; do
	ex=${ex%/}
	name=$(basename "$ex")
	kpi=$(sed -n 's/^kpi: //p' "$ex/request.yaml")
	"$ROBOT" compare --style "$(cat "$ex/date")" --kpi "$kpi" \
		--commits "$ex/commits.yaml" "$ex"/rt[0-9]* >"$out/$name.txt"
	echo "demo: $name: comparison block in $out/$name.txt"
done
demo=$top/examples/demo
"$ROBOT" compose --dry-run -c "$demo/robot.yaml" "$demo/request.yaml" \
	>"$out/report.eml"
echo "demo: the report, as it would be sent: $out/report.eml"
id=$("$ROBOT" compose -c "$demo/robot.yaml" "$demo/request.yaml")
echo "demo: spool $out/spool: $id"
