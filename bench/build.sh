#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/build.sh: the build report kind (issue 25).
#
#   1. a report of 50 findings (50 new errors, each with gcc's source
#      echo and carets, 20 old ones in base.log) with a 60-line excerpt
#      read from a git repository: robot compose --dry-run's CPU time
#      (user + sys: the machine is shared), the median of 20 runs
#      (target: under 20 ms);
#   2. a build.log of 200 MB (kbuild's "  CC" lines around the same
#      findings): exit code, peak RSS (target: at most 64 MB: the log is
#      read as a stream, its chatter never kept) and CPU time;
#   3. a build.log of 200 MB of diagnostics (more lines than robot
#      keeps): the one error line, its peak RSS.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
/usr/bin/python3 - "$ROBOT" "$d" "$top/bench" <<'PY'
import os, resource, statistics, subprocess, sys, time

robot, d = sys.argv[1:3]
sys.path.insert(0, sys.argv[3])
sys.dont_write_bytecode = True
import genkinds  # the inputs (bench/genkinds.py)

cfg = os.path.join(d, "robot.yaml")


def run(req):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([robot, "compose", "--dry-run", "-c", cfg, req],
                       capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    err = p.stderr.decode().strip().splitlines()
    return p.returncode, wall, cpu, after.ru_maxrss // 1024, (err or [""])[0], p.stdout


req = genkinds.build(d, "fifty")
times = []
for _ in range(20):
    rc, wall, cpu, rss, err, out = run(req)
    assert rc == 0, err
    times.append(cpu)
new = out.count(b"\n>> ")
print("1. 50 findings (%d marked), 60-line excerpt: CPU median %.1f ms, "
      "max %.1f ms (target < 20 ms)" % (new, statistics.median(times) * 1000,
                                    max(times) * 1000))


req = genkinds.build(d, "noisy")
rc, wall, cpu, rss, err, out = run(req)
print("2. 200 MB build.log of kbuild chatter and 50 findings: exit %d, "
      "peak RSS %d MB (target <= 64), CPU %.2f s" % (rc, rss, cpu))


req = genkinds.build(d, "flood")
rc, wall, cpu, rss, err, out = run(req)
print("3. 200 MB build.log of diagnostics: exit %d, peak RSS %d MB, CPU "
      "%.2f s: %s" % (rc, rss, cpu, err))
PY
