#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/plot.sh: 1,000 ASCII bisect plots (tests/tools/plot-cases, seed
# 7), three ways:
#
#   library   robot's plot module in one process (bench/plot-bench.c,
#             linked with build/librobot.a): parsing and drawing all;
#   spawn     gnuplot started once per plot with its lkp-tests script, as
#             lkp-tests' lib/plot.rb does;
#   one       one gnuplot process reading all 1,000 scripts.
#
# Targets: the library at least 100x faster than spawning gnuplot and at
# least 4x faster than one gnuplot process.  Every plot must be the same
# bytes all three ways.  Prints one line per way (the best of RUNS=3 runs;
# spawning runs once) and the two ratios.  Needs gnuplot (gnuplot-nox).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
PYTHON=/usr/bin/python3
N=${N:-1000}
RUNS=${RUNS:-3}
GNUPLOT=$(command -v gnuplot) || {
	echo "bench/plot.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2
	exit 1
}
d=$(mktemp -d)
trap '[ -n "${KEEP-}" ] || rm -rf "$d"' EXIT

make -s -C "$top" BUILD="$BUILD" "$BUILD/librobot.a" >/dev/null
cc -O2 -std=c11 -D_GNU_SOURCE -I"$top" -I"$top/robot" \
	-o "$d/plot-bench" "$top/bench/plot-bench.c" "$BUILD/librobot.a" -lm

# the cases: the lkp-tests scripts (one per plot and all in one) and the
# case file of plot-bench
$PYTHON "$top/tests/tools/plot-cases" --seed 7 --count "$N" --small \
	"$d/c" >/dev/null
$PYTHON - "$d" "$N" <<'PY'
import glob, os, sys
d, n = sys.argv[1], int(sys.argv[2])
script = open(os.path.join(d, 'c', 'all.gp')).read().split('set output ')[1:]
script = ['set output ' + s for s in script if s.startswith('"')][-n:]
with open(os.path.join(d, 'one.gp'), 'w') as one, \
        open(os.path.join(d, 'cases'), 'w') as cases:
    for k, s in enumerate(script):
        base = s.split('"')[1][:-len('.gnuplot')]
        s = s.replace(base + '.gnuplot', os.path.join(d, 'one-%04d' % k))
        one.write(s)
        with open(os.path.join(d, 'spawn-%04d.gp' % k), 'w') as f:
            f.write(s.replace(os.path.join(d, 'one-%04d' % k),
                              os.path.join(d, 'spawn-%04d.out' % k)))
        cases.write(open(base + '.title').read() + '\n')
        for side in ('good', 'bad'):
            cases.write(' '.join(x.strip() for x in open(base + '.' + side))
                        + '\n')
PY

best() {
	# best() NAME RUNS CMD...: the best wall time of RUNS runs, in seconds
	name=$1
	runs=$2
	shift 2
	$PYTHON - "$runs" "$@" <<'PY'
import subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t
    best = dt if best is None else min(best, dt)
print('%.6f' % best)
PY
}
lib=$(best library "$RUNS" sh -c '"$1" 5.4 "$2" >"$3" 2>"$3.time"' - \
	"$d/plot-bench" "$d/cases" "$d/library.out")
one=$(best one "$RUNS" "$GNUPLOT" "$d/one.gp")
spawn=$(best spawn 1 sh -c 'for f in "$1"/spawn-*.gp; do "$2" "$f"; done' \
	- "$d" "$GNUPLOT")

# the same bytes three ways
cat "$d"/one-* >"$d/one.out"
cat "$d"/spawn-*.out >"$d/spawn.all"
cmp -s "$d/library.out" "$d/one.out" && cmp -s "$d/library.out" \
	"$d/spawn.all" || {
	echo "bench/plot.sh: the three ways drew different plots" >&2
	exit 1
}
$PYTHON - "$N" "$lib" "$spawn" "$one" "$d/library.out.time" <<'PY'
import sys
n, lib, spawn, one = int(sys.argv[1]), *map(float, sys.argv[2:5])
drawing = float(open(sys.argv[5]).read().split()[4])
print('library: %d plots in %.4f s (%.1f us a plot; drawing alone %.4f s),'
      ' one process' % (n, lib, lib / n * 1e6, drawing))
print('spawn:   %d plots in %.3f s, one gnuplot per plot' % (n, spawn))
print('one:     %d plots in %.3f s, one gnuplot for all' % (n, one))
print('library is %.0fx faster than spawning gnuplot (target 100x), '
      '%.1fx faster than one gnuplot process (target 4x)'
      % (spawn / lib, one / lib))
ok = spawn / lib >= 100 and one / lib >= 4
sys.exit(0 if ok else 1)
PY
