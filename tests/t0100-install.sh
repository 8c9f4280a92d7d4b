#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make install: the installed robot finds its templates and tables under
# PREFIX/share/robot, from any working directory, without the source tree.
. "$(dirname "$0")/lib.sh"

ok "make install PREFIX=\$T/inst" \
	make -C "$TOP" --no-print-directory install PREFIX="$T/inst"
ok "the man page is installed" test -s "$T/inst/share/man/man1/robot.1"
ok "the style table is installed" \
	test -s "$T/inst/share/robot/config/data/styles"
ok "the templates are installed" test -d "$T/inst/share/robot/templates/2023"
D=$TOP/tests/data/compare/small
cd "$T" || exit 1
"$T/inst/bin/robot" compare --style 2023 --commits "$D/commits.yaml" \
	"$D/rt0" "$D/rt1" >"$T/out" 2>"$T/err"
ok "the installed robot compares from elsewhere" \
	test_cmp "$D/expect-2023" "$T/out"
ok "it reads its own data directory" \
	sh -c 'strings "$1" | grep -q "$2/share/robot"' - "$T/inst/bin/robot" "$T/inst"
