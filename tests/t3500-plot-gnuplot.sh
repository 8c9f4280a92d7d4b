#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The differential test of the plot module: Debian's gnuplot (gnuplot-nox,
# 5.4) runs the lkp-tests plot script on every case of tests/tools/plot-
# cases (the mandatory edge set, then PLOT_COUNT generated series from
# PLOT_SEED; default 300 from seed 1, `PLOT_SEED=random` picks one), all in
# one gnuplot process; `robot plot --gnuplot 5` draws the same series with
# no gnuplot on its PATH; every output must be the same bytes.  A failure
# names the seed and the case and shows both plots.
. "$(dirname "$0")/lib.sh"

GNUPLOT=$(command -v gnuplot)
if [ -z "$GNUPLOT" ]; then
	_fail "gnuplot is installed (scripts/deps.sh installs gnuplot-nox)"
	exit 0
fi
case "$("$GNUPLOT" --version)" in
"gnuplot 5.4 "*) _ok "the oracle is gnuplot 5.4" ;;
*) _fail "the oracle is gnuplot 5.4, not $("$GNUPLOT" --version)" ;;
esac

C=$T/cases
seed=$($PYTHON "$TOP/tests/tools/plot-cases" --seed "${PLOT_SEED:-1}" \
	--count "${PLOT_COUNT:-300}" "$C")
echo "# $seed"
ok "gnuplot draws every case in one process" \
	"$GNUPLOT" "$C/all.gp"

mkdir "$T/nobin"
n=0
bad=0
alone=0
for title in "$C"/*.title; do
	k=${title%.title}
	n=$((n + 1))
	# a case without K.bad (K.good): that side lacks the stat
	set -- "$k.good" "$k.bad"
	[ -e "$k.bad" ] || set -- --no-bad "$k.good"
	[ -e "$k.good" ] || set -- --no-good "$k.bad"
	[ "$1" = "$k.good" ] || alone=$((alone + 1))
	if ! PATH=$T/nobin "$ROBOT" plot --gnuplot 5 --title "$(cat "$title")" \
		"$@" >"$k.robot" 2>"$k.err" ||
		! cmp -s "$k.gnuplot" "$k.robot"; then
		bad=$((bad + 1))
		[ "$bad" -le 3 ] || continue
		echo "# $seed; case $(basename "$k"): $(cat "$k.good" 2>/dev/null |
			wc -l) good, $(cat "$k.bad" 2>/dev/null | wc -l) bad" \
			"samples, title '$(cat "$title")'"
		sed 's/^/# robot: /' "$k.err"
		diff "$k.gnuplot" "$k.robot" | sed 's/^/# /'
	fi
done
if [ "$bad" -eq 0 ] && [ "$n" -gt 300 ] && [ "$alone" -ge 4 ]; then
	_ok "robot plot draws all $n cases as gnuplot does ($alone of one series)"
else
	_fail "robot plot draws all $n cases as gnuplot does ($bad differ)"
fi

# robot starts no program to draw (nor for anything but the operator's
# sendmail_cmd): no popen, system or posix_spawn in the binary, and
# exec* only in mail/sendmail.o, the sendmail transport
nm -u "$ROBOT" >"$T/undef" 2>&1 || _fail "nm reads $ROBOT"
execs=
for o in $(find "$BUILD/obj" -name '*.o' ! -path '*/tests/*'); do
	nm -u "$o" 2>/dev/null | grep -Eq ' U (exec[lv]p?e?|execvpe|fexecve)$' &&
		execs="$execs ${o#"$BUILD"/obj/}"
done
if grep -Eq '^ *U (popen|system|posix_spawnp?)(@|$)' "$T/undef"; then
	_fail "robot calls no popen, system or posix_spawn"
	grep -E ' (popen|system|posix_spawn)' "$T/undef" | sed 's/^/# /'
elif [ "$execs" != " mail/sendmail.o" ]; then
	_fail "exec* only in the sendmail transport (found in:$execs)"
elif grep -q ' U ' "$T/undef" && grep -q ' U fwrite' "$T/undef"; then
	_ok "robot calls no popen, system, posix_spawn; exec* only in mail/sendmail.o"
else
	_fail "nm lists robot's undefined symbols"
fi
