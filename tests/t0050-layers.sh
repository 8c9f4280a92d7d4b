# SPDX-License-Identifier: GPL-2.0-only
#
# t0050-layers: the folders of the source tree are layers (doc/decisions.md).
# tests/tools/layers reads every #include line under robot/, config/,
# mail/, git/ and templates/: each project header named by its path from
# the top, no circle between folders, nothing under robot/util/ including
# anything outside it; no function of the tree's C over 80 lines; and
# doc/architecture.md names every module (folder and .c file), and only
# those.
# The tool is run on the tree, then on copies with one bad include or one
# long function each, which it must refuse.
. "$(dirname "$0")/lib.sh"

LAYERS=$TOP/tests/tools/layers

ok "the tree's include graph has no circle and util includes only util" \
	"$PYTHON" "$LAYERS" --root "$TOP"

# bad NAME FILE LINES NEEDLE: a copy of the tree with LINES appended to
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


# a function of 81 lines, and one of 80, which passes
long_fn() {
	printf 'void too_long(void);\nvoid too_long(void)\n{\n'
	i=0
	while [ $i -lt "$1" ]; do
		printf '\t(void)0;\n'
		i=$((i + 1))
	done
	printf '}\n'
}
bad "a function of 81 lines" robot/engine/stats.c "$(long_fn 81)" \
	'too_long() has 81 lines'
rm -rf "$T/tree"
mkdir "$T/tree"
(cd "$TOP" && cp -R robot config mail git templates "$T/tree/")
long_fn 80 >>"$T/tree/robot/engine/stats.c"
ok "a function of 80 lines passes" "$PYTHON" "$LAYERS" --root "$T/tree"

# doc/architecture.md names every module (folder and .c file) of the tree,
# and nothing that is not there
ok "doc/architecture.md names every module, and only those" \
	"$PYTHON" "$LAYERS" --root "$TOP" --doc doc/architecture.md
# doc_refuses NAME NEEDLE: the copy in $T/tree must be refused so
doc_refuses() {
	if "$PYTHON" "$LAYERS" --root "$T/tree" --doc doc/architecture.md \
		>"$T/out" 2>&1; then
		_fail "$1: refused"
	elif grep -qF "$2" "$T/out"; then
		_ok "$1: refused"
	else
		_fail "$1: refused, naming it"
		sed 's/^/# /' "$T/out"
	fi
}
copy_with_doc() {
	rm -rf "$T/tree"
	mkdir "$T/tree"
	(cd "$TOP" && cp -R robot config mail git templates doc "$T/tree/")
}
copy_with_doc
: >"$T/tree/robot/engine/extra.c"
doc_refuses "a module the doc does not name" \
	'does not name robot/engine/extra.c'
copy_with_doc
grep -v 'robot/engine/plot\.c' "$TOP/doc/architecture.md" \
	>"$T/tree/doc/architecture.md"
doc_refuses "a row gone from the doc" 'does not name robot/engine/plot.c'
copy_with_doc
echo '| `robot/engine/ghost.c` | none |' >>"$T/tree/doc/architecture.md"
doc_refuses "a module that is not there" \
	'names robot/engine/ghost.c, which is not in the tree'

echo "1..$test_n"
