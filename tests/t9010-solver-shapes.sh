#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# eml2lkp's row solver takes shortcuts for speed (doc/roundtrip.md): of
# the three-level sample shapes only those its fronts can keep, each
# shape's order statistics from its levels, the two-level shapes drawn
# as read, sums without NaN checks when there are none.  On random
# columns each must give exactly what the plain computation gives
# (tests/tools/solver-shapes-check: candidates, order, samples, fronts,
# sums to the bit).
. "$(dirname "$0")/lib.sh"

ok "the solver's fast shapes are the plain ones (200 random columns)" \
	$PYTHON "$TOP/tests/tools/solver-shapes-check" 9010 200
ok "and on 100 more, of another seed" \
	$PYTHON "$TOP/tests/tools/solver-shapes-check" 42 100

