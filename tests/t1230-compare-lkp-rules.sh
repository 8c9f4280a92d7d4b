#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The rules the differential test against lkp-tests found (tests/lkp), on
# small roots, against lkp-tests' own output (tests/data/compare-lkp).
. "$(dirname "$0")/lib.sh"

DATA=$TOP/tests/data/compare-lkp
ok "make-roots writes the cases" $PYTHON "$DATA/make-roots" "$T/roots"
for expect in "$DATA"/*.expect; do
	x=$(basename "$expect" .expect)
	case=${x%@*} date=${x#*@}
	"$ROBOT" compare --style "$date" "$T/roots/$case"/rt[0-9] \
		>"$T/$x.out" 2>"$T/$x.err"
	ok "$case at $date: as lkp-tests printed it" \
		test_cmp "$expect" "$T/$x.out"
done
