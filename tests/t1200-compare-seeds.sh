#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The seeds' comparison blocks, regenerated: eml2lkp turns each seed mail
# into result roots (which must equal the committed examples/seed-NNN),
# and `robot compare` on them must print the seed's block again: byte for
# byte for seed 001 (the one whose archive kept its layout), token for
# token for the others (their archives collapsed blanks).
. "$(dirname "$0")/lib.sh"

SEEDS=${SEEDS_DIR:-$TOP/tests/data/seeds}
EML2LKP=$TOP/tests/tools/eml2lkp
MATCH=$TOP/tests/tools/block-match

for seed in "$SEEDS"/0*.txt; do
	[ -f "$seed" ] || continue
	nnn=$(basename "$seed" | cut -c1-3)
	ex=$TOP/examples/seed-$nnn
	out=$T/seed-$nnn
	date=$(cat "$ex/date")
	ok "seed $nnn: eml2lkp writes the inputs" \
		$PYTHON "$EML2LKP" --date "$date" "$seed" "$out"
	ok "seed $nnn: the inputs equal examples/seed-$nnn" \
		diff -r "$ex" "$out"
	ok "seed $nnn: no line of the mail's report is in the inputs" \
		$PYTHON "$TOP/tests/tools/check-no-copied-lines" "$seed" "$out"
	mode=tokens
	[ "$nnn" = 001 ] && mode=exact
	kpi=$(sed -n 's/^kpi: //p' "$ex/request.yaml")
	set -- "$ex"/rt[0-9]*
	"$ROBOT" compare --style "$date" --commits "$ex/commits.yaml" \
		--kpi "$kpi" "$@" >"$T/block-$nnn" 2>"$T/err-$nnn"
	ok "seed $nnn: robot compare succeeds" test ! -s "$T/err-$nnn"
	ok "seed $nnn: the block equals the mail's ($mode)" \
		$PYTHON "$MATCH" "$mode" "$seed" "$T/block-$nnn"
done
