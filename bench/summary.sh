#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/summary.sh: times `robot compose --dry-run` on a branch summary
# (kind: build-summary, doc/build-summary.md) of 500 configs: 500 build
# results, 50 of which fail and 100 warn with compiler lines of their
# own (a BUILD REGRESSION of 150 configs in its tree), the 2025 style.
# Target: < 20 ms wall on a 2-core machine.  Prints the best wall time and
# the best CPU time (user + sys: the machine is shared) of RUNS runs
# (default 20; process start included) and the peak RSS.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
RUNS=${RUNS:-20}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
/usr/bin/python3 "$top/bench/genkinds.py" build-summary "$d" >/dev/null
/usr/bin/python3 - "$ROBOT" "$d" "$RUNS" <<'PY'
import os, resource, subprocess, sys, time
robot, d, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = cpu = None
for _ in range(runs):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([robot, 'compose', '--dry-run', 'request.yaml'],
                       cwd=d, capture_output=True)
    el = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    c = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
    cpu = c if cpu is None or c < cpu else cpu
    if p.returncode:
        sys.exit('compose failed: %s' % p.stderr.decode())
    best = el if best is None or el < best else best
out = p.stdout.decode()
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print('summary of 500 configs: %.1f ms wall, %.1f ms CPU (best of %d), '
      '%.1f MB peak RSS, %d bytes, %s' % (best * 1000, cpu * 1000, runs, rss,
                                         len(out),
                        'BUILD REGRESSION' in out and 'configs tested: 500'
                        in out and 'ok' or 'WRONG'))
PY
