#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/compare.sh: times `robot compare` on two generated result roots of
# 20,000 stats x 10 runs (targets: < 0.3 s wall, < 64 MB peak RSS on a
# 2-core machine).  Prints the best wall time of 5 runs and the peak RSS.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
/usr/bin/python3 "$top/bench/gen-rt.py" "$d" 20000 10
/usr/bin/python3 - "$ROBOT" "$d" <<'PY'
import resource, subprocess, sys, time
robot, d = sys.argv[1], sys.argv[2]
cmd = [robot, "compare", "--style", "2023-06-07", d + "/rt0", d + "/rt1"]
best = None
for _ in range(5):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode:
        sys.exit("robot compare failed: %d" % r.returncode)
    best = dt if best is None else min(best, dt)
rows = r.stdout.count(b"\n")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print("compare: 20000 stats x 10 runs: %.3f s wall (best of 5), "
      "%.1f MB peak RSS, %d lines" % (best, rss, rows))
PY
