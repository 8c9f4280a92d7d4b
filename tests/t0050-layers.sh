# SPDX-License-Identifier: GPL-2.0-only
#
# t0050-layers: the folders of the source tree are layers (doc/decisions.md).
# tests/tools/layers reads every #include line under robot/, config/,
# mail/, git/ and templates/: each project header named by its path from
# the top, no circle between folders, nothing under robot/util/ including
# anything outside it.  The tool is run on the tree, then on copies with
# one bad include each, which it must refuse.
. "$(dirname "$0")/lib.sh"

LAYERS=$TOP/tests/tools/layers

ok "the tree's include graph has no circle and util includes only util" \
	"$PYTHON" "$LAYERS" --root "$TOP"

# bad NAME FILE LINE NEEDLE: a copy of the tree with LINE appended to
# FILE must be refused, with NEEDLE in the report
bad() {
	rm -rf "$T/tree"
	mkdir "$T/tree"
	(cd "$TOP" && cp -R robot config mail git templates "$T/tree/")
	printf '%s\n' "$3" >>"$T/tree/$2"
	if "$PYTHON" "$LAYERS" --root "$T/tree" >"$T/out" 2>&1; then
		_fail "$1: refused"
		sed 's/^/# /' "$T/out"
	elif grep -qF "$4" "$T/out"; then
		_ok "$1: refused"
	else
		_fail "$1: refused, naming it"
		sed 's/^/# /' "$T/out"
	fi
}

bad "util including config" robot/util/strbuf.c '#include "config/lkp.h"' \
	'robot/util/strbuf.c:'
bad "a circle config -> engine -> config" config/lkp.c \
	'#include "robot/engine/bisect.h"' 'a circle between the folders'
bad "an include not from the top" robot/engine/stats.c '#include "table.h"' \
	'"table.h" is not a path from the top'

echo "1..$test_n"
