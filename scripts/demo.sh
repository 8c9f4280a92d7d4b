#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`: the whole path on the examples, with no server needed.
# For each seed example (result roots that tests/tools/eml2lkp rebuilt
# from a real 0-day mail) it prints the comparison block; then it composes
# the report of every example (examples/demo and the seeds), queues them
# in one spool, and delivers them with `robot send` to the local mailbox,
# an mbox that `mutt -f` reads.  It prints where everything went.
#
# Everything goes under build/demo (DEMO_OUT overrides), made afresh.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
out=${DEMO_OUT:-$top/build/demo}
# one clock for the whole demo: a report without a date gets the same
# Date and Message-ID in its --dry-run and in the spool
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}
export SOURCE_DATE_EPOCH
rm -rf "$out/spool" "$out/archive" "$out/mbox"
mkdir -p "$out"
for ex in "$top"/examples/seed-*/; do
	ex=${ex%/}
	name=$(basename "$ex")
	kpi=$(sed -n 's/^kpi: //p' "$ex/request.yaml")
	"$ROBOT" compare --style "$(cat "$ex/date")" --kpi "$kpi" \
		--commits "$ex/commits.yaml" "$ex"/rt[0-9]* >"$out/$name.txt"
	echo "demo: $name: comparison block in $out/$name.txt"
done

# Each example keeps its own configuration (sender, Message-ID form, time
# zone), with the spool, archive and mailbox of the demo.
for ex in "$top"/examples/demo "$top"/examples/seed-*; do
	name=$(basename "$ex")
	cfg=$out/$name.yaml
	{
		grep -v '^\(spool\|archive_dir\|mbox\):' "$ex/robot.yaml"
		printf 'spool: spool\narchive_dir: archive\nmbox: mbox\n'
	} >"$cfg"
	"$ROBOT" compose --dry-run -c "$cfg" "$ex/request.yaml" >"$out/$name.eml"
	queued=$("$ROBOT" compose -c "$cfg" "$ex/request.yaml")
	echo "demo: $name: $queued (the mail: $out/$name.eml)"
done

echo "demo: robot send delivers the spool $out/spool:"
"$ROBOT" send -c "$out/demo.yaml" | sed 's/^/  /'
n=$(grep -c '^From ' "$out/mbox")
echo "demo: $n mails delivered to the local mailbox $out/mbox"
echo "demo: read them with: mutt -f $out/mbox"
echo "demo: robot queue -c $out/demo.yaml lists the spool:"
"$ROBOT" queue -c "$out/demo.yaml" | sed 's/^/  /'
