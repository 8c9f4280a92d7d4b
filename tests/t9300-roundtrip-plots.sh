#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip of real mails with bisect plots (tests/tools/eml2lkp's
# PLOTS half, tests/tools/eml2lkp_plots.py): eml2lkp reads the plots back
# into bisect result roots and the request's `bisect` key, and robot
# compose must print the whole mail again (tests/tools/fidelity), plots
# included:
#   104 2020-11 six plots, a second section after the legend
#   106 2020-12 26 plots; incomplete runs the change rules leave out
#       (the good line's dips to 0 on fio.time.*)
#   108 2021-02 five plots, series of different lengths; its plot of
#       fxmark...MWCL_2...works/sec, a stat under lkp-tests' 10% ratio rule
#       of the day, is a further bisected stat (`bisect: stats`)
#   109 2021-04 one plot
# and, plot by plot, mails whose tables eml2lkp cannot rebuild yet
# (tests/tools/plot-fidelity draws their plots from the samples read back):
#   206 2020-12 seven plots beside a fail:runs table of perf-profile sums
#   201 2019-11 gnuplot 5.0: points over the border, "+-+" tics
#   210 2021-01 32 plots; constant series; titles too long to show
# Every output directory carries data only (fidelity checks no line of the
# report's table part is among the inputs).
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/mails
skip_without_corpus "$MAILS" '*.eml' "real mails with plots"
mails() {
	for nnn in "$@"; do
		ls "$MAILS/$nnn"-*.eml
	done
}
$PYTHON "$TOP/tests/tools/fidelity" --robot "$ROBOT" $(mails 104 106 108 109) \
	>"$T/fidelity" 2>&1
$PYTHON "$TOP/tests/tools/plot-fidelity" --robot "$ROBOT" \
	$(mails 201 206 210) >"$T/plots" 2>&1
for f in fidelity plots; do
	while read -r verdict name rest; do
		case "$verdict" in
		ok) _ok "$f: $name $rest" ;;
		FAIL)
			_fail "$f: $name"
			echo "# $rest"
			;;
		esac
	done <"$T/$f"
done
grep -q '^plots: ' "$T/plots" || _fail "plot-fidelity prints its summary"
