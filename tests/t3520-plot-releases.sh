#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# robot plot against the gnuplot releases the 0-day robot ran before Debian
# 12's 5.4: the outputs of the real 4.6.6, 5.0.5 and 5.2.6 programs for
# the cases of tests/tools/plot-cases (tests/data/plot/README says how
# they were made) must come out byte for byte.
. "$(dirname "$0")/lib.sh"

for spec in 4.6.6:4.6:46 5.0.5:5.0:50 5.2.6:5.2:52; do
	release=${spec%%:*}
	v=${spec#*:}
	seed=${v#*:}
	v=${v%%:*}
	C=$T/$release
	$PYTHON "$TOP/tests/tools/plot-cases" --seed "$seed" --count 40 \
		--small --stdout "$C" >/dev/null
	$PYTHON - "$TOP/tests/data/plot/gnuplot-$release.out" "$C" <<'PY'
import sys
plots = open(sys.argv[1], 'rb').read().split(b'\f')[1:]
for k, p in enumerate(plots):
    open('%s/%03d.expect' % (sys.argv[2], k), 'wb').write(b'\f' + p)
PY
	n=0
	bad=0
	for good in "$C"/*.good; do
		k=${good%.good}
		n=$((n + 1))
		"$ROBOT" plot --gnuplot "$v" --title "$(cat "$k.title")" \
			"$good" "$k.bad" >"$k.robot" 2>&1
		if ! cmp -s "$k.expect" "$k.robot"; then
			bad=$((bad + 1))
			[ "$bad" -le 2 ] && diff "$k.expect" "$k.robot" |
				sed "s|^|# $(basename "$k"): |"
		fi
	done
	if [ "$bad" -eq 0 ] && [ "$n" -eq 58 ]; then
		_ok "gnuplot $release: all $n plots"
	else
		_fail "gnuplot $release: all $n plots ($bad differ)"
	fi
done
