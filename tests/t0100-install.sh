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
ok "it installs the bash completion" \
	test -s "$T/inst/share/bash-completion/completions/robot"
ok "it installs the examples" \
	test -s "$T/inst/share/doc/robot/examples/0day.yaml"

# DESTDIR and PREFIX: the files go under DESTDIR, the binary looks in
# PREFIX; make uninstall with the same two leaves nothing of robot's.
S=$T/stage
ok "make install DESTDIR=\$T/stage PREFIX=/opt/robot" \
	make -C "$TOP" --no-print-directory install DESTDIR="$S" \
	PREFIX=/opt/robot
for f in bin/robot share/robot/config/data/styles share/robot/templates/2023 \
	share/man/man1/robot.1 share/bash-completion/completions/robot \
	share/doc/robot/examples/0day.yaml \
	share/doc/robot/examples/demo/request.yaml; do
	ok "it installs \$DESTDIR/opt/robot/$f" test -e "$S/opt/robot/$f"
done
ok "nothing lands outside DESTDIR/PREFIX" \
	sh -c 'test "$(ls -A "$1")" = opt && test "$(ls -A "$1/opt")" = robot' - "$S"
ok "the binary reads /opt/robot/share/robot, not DESTDIR" \
	sh -c 'strings "$1" | grep -q "/opt/robot/share/robot\$" &&
		! strings "$1" | grep -q "$2"' - "$S/opt/robot/bin/robot" "$S"
"$S/opt/robot/bin/robot" compare --style 2023 --commits "$D/commits.yaml" \
	--data-dir "$S/opt/robot/share/robot" "$D/rt0" "$D/rt1" >"$T/out2" 2>&1
ok "it compares with that data (--data-dir)" test_cmp "$D/expect-2023" "$T/out2"
"$S/opt/robot/bin/robot" --version >"$T/v.out" 2>&1
"$ROBOT" --version >"$T/v.expect"
ok "its --version is build/robot's" test_cmp "$T/v.expect" "$T/v.out"
ok "make uninstall DESTDIR=\$T/stage PREFIX=/opt/robot" \
	make -C "$TOP" --no-print-directory uninstall DESTDIR="$S" \
	PREFIX=/opt/robot
find "$S" ! -type d >"$T/left"
find "$S" -name '*robot*' ! -path "$S/opt/robot" >>"$T/left"
ok "uninstall leaves no file and no directory of robot's" \
	test_cmp /dev/null "$T/left"
ok "make uninstall PREFIX=\$T/inst" \
	make -C "$TOP" --no-print-directory uninstall PREFIX="$T/inst"
ok "that leaves no file either" sh -c '! find "$1" ! -type d | grep .' - "$T/inst"
