#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip on real kbuild finding reports, a subset of `make
# fidelity`'s kbuild part: each mail below is a 0-day kbuild report kept
# from a public list archive, in ../shared/corpus/kbuild.  For each,
# tests/tools/fidelity --kbuild runs eml2lkp (tests/tools/eml2lkp_build.py),
# checks that no line of the body but the build's own output is in the
# inputs, runs `robot compose --dry-run` and compares the text, Subject,
# addresses and ids.  Without the corpus the test says so and passes.
#
#   702 2019-06 gcc errors, the plain excerpt with "> " marks
#   713 2019-10 sparse, lines that only moved are not new, no config line
#   715 2019-10 new notes: "All error/warnings", blame and the introducing commit
#   736 2020-09 the fetch steps before the excerpt
#   745 2021-01 blame columns with the file's old path, "Thank you"
#   747 2021-01 smatch's new and old warnings
#   815 2024-10 Kconfig warnings
#   826 2025-03 two findings of one key, the base had one
#   805 2024-02 grep's "--" separators
#   851 2026-03 equal base lines first (two errors of one message)
#   854 2026-03 an author with a ")" in the blame columns
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/kbuild
skip_without_corpus "$MAILS" '*.eml' "real kbuild mails"

set --
for nnn in 702 713 715 736 745 747 805 815 826 851 854; do
	set -- "$@" "$(ls "$MAILS/$nnn"_*.eml)"
done
$PYTHON "$TOP/tests/tools/fidelity" --kbuild --robot "$ROBOT" "$@" \
	>"$T/fidelity" 2>&1
while read -r verdict name rest; do
	case "$verdict" in
	ok) _ok "$name: robot's mail is the real one" ;;
	FAIL)
		_fail "${name%:}: robot's mail is the real one"
		echo "# $rest"
		;;
	esac
done <"$T/fidelity"
echo "1..$test_n"
[ "$test_failed" -eq 0 ]
