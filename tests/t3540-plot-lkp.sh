#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# robot plot against lkp-tests' own plot code: lib/plot.rb's mmplot, run
# by Debian's ruby and ruby-gnuplot gem with Debian's gnuplot 5.4, as of
# each date of PLOT_LKP_DATES (default 2016-08-01 and 2021-06-15, the
# first and last of the years with plots), draws the cases of
# tests/tools/plot-cases (PLOT_SEED, PLOT_COUNT as in t3500) through
# tests/tools/lkp-plot.rb; `robot plot --gnuplot 5` must draw every one
# the same bytes.  t3500 checks the same against the script lkp-tests
# sends; this shows that script is lkp-tests'.  Needs LKP_SRC (an
# lkp-tests git repository, as for make check-lkp); skipped without it.
. "$(dirname "$0")/lib.sh"

if [ -z "${LKP_SRC:-}" ]; then
	echo "ok 1 # skip lkp-tests' lib/plot.rb: LKP_SRC is not set"
	exit 0
fi
if ! command -v ruby >/dev/null || ! ruby -e 'require "gnuplot"' 2>/dev/null ||
	! command -v gnuplot >/dev/null; then
	echo "ok 1 # skip lkp-tests' lib/plot.rb: needs ruby, ruby-gnuplot and" \
		"gnuplot (scripts/deps.sh --lkp)"
	exit 0
fi

C=$T/cases
seed=$($PYTHON "$TOP/tests/tools/plot-cases" --seed "${PLOT_SEED:-1}" \
	--count "${PLOT_COUNT:-300}" "$C")
echo "# $seed"
mkdir "$T/nobin"
for date in ${PLOT_LKP_DATES:-2016-08-01 2021-06-15}; do
	lkp=$T/lkp-$date
	out=$T/out-$date
	mkdir "$out"
	commit=$("$TOP/tests/lkp/lkp-checkout" "$LKP_SRC" "$date" "$lkp") ||
		{
			_fail "lkp-tests as of $date"
			continue
		}
	if ! LKP_SRC=$lkp ruby "$TOP/tests/tools/lkp-plot.rb" "$C" "$out" \
		>"$out/cases" 2>"$out/err"; then
		_fail "lkp-tests $commit: lib/plot.rb draws the cases"
		grep -v '^Warning: empty' "$out/err" | sed 's/^/# /'
		continue
	fi
	n=0
	bad=0
	while read -r k; do
		n=$((n + 1))
		# a case without K.bad (K.good): the matrix lacks the stat
		set -- "$C/$k.good" "$C/$k.bad"
		[ -e "$C/$k.bad" ] || set -- --no-bad "$C/$k.good"
		[ -e "$C/$k.good" ] || set -- --no-good "$C/$k.bad"
		if ! PATH=$T/nobin "$ROBOT" plot --gnuplot 5 \
			--title "$(cat "$C/$k.title")" "$@" \
			>"$out/$k.robot" 2>"$out/$k.err" ||
			! cmp -s "$out/$k.lkp" "$out/$k.robot"; then
			bad=$((bad + 1))
			[ "$bad" -le 3 ] || continue
			echo "# $seed; lkp-tests $date; case $k"
			sed 's/^/# robot: /' "$out/$k.err"
			diff "$out/$k.lkp" "$out/$k.robot" | sed 's/^/# /'
		fi
	done <"$out/cases"
	if [ "$bad" -eq 0 ] && [ "$n" -ge "${PLOT_COUNT:-300}" ]; then
		_ok "lkp-tests $date ($commit): robot plot draws all $n cases as lib/plot.rb does"
	else
		_fail "lkp-tests $date ($commit): robot plot draws all $n cases as lib/plot.rb does ($bad differ)"
	fi
done
