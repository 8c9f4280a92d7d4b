# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip of real branch summaries (tests/tools/eml2lkp's summary
# half, tests/tools/eml2lkp_summary.py): eml2lkp writes the build results
# and the request behind the mail, and robot compose must print the mail
# again (tests/tools/fidelity):
#   726 2020-02 "Regressions in current branch", one tree, "did you mean"
#   743 2020-12 a warning, its reports, gcc's tree, two tables
#   778 2022-09 a gcc tree cut after 50 lines, untracked lines
#   824 2025-03 the reports among the indented lines, compiler versions
#   849 2026-02 a success whose configs built twice count twice
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
K=$CORPUS/kbuild
skip_without_corpus "$K" '*_build-*.eml' "real branch summaries"
mails() {
	for nnn in "$@"; do
		ls "$K/$nnn"_*.eml
	done
}
$PYTHON "$TOP/tests/tools/fidelity" --robot "$ROBOT" \
	$(mails 726 743 778 824 849) >"$T/fidelity" 2>&1
while read -r verdict name rest; do
	case "$verdict" in
	ok) _ok "$name $rest" ;;
	FAIL)
		_fail "$name"
		echo "# $rest"
		;;
	esac
done <"$T/fidelity"
ok "five summaries came out exact" grep -q ': 5/5 exact' "$T/fidelity"
