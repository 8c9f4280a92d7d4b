#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/compare.sh: `robot compare` on pairs of generated result roots
# (bench/gen-rt.py) of 2,000, 20,000 and 200,000 stats x 10 runs and of
# 20,000 stats x 100 runs.  For each it prints the CPU time (user + sys,
# the median of RUNS runs: the machine is shared, so not wall time) and
# the peak RSS.  With LKP_SRC set to an lkp-tests tree (kept outside this
# one), lkp-tests' own comparison runs on the same roots beside it
# (tests/lkp/ncompare.rb, the differential test's driver of it; LKP_RUNS
# runs, Debian's ruby), with the CPU ratio and
# whether the two tables are the same text.
#
#   bench/compare.sh                 RUNS=5
#   LKP_SRC=/tmp/lkp-src bench/compare.sh
#   SIZES="20000x10" bench/compare.sh
#
# robot compares with the rules of STYLE (a date, default 2023-06-07);
# with LKP_SRC set, the date of LKP_SRC's checked-out commit, so that both
# sides apply the same lkp-tests version (the tables differ otherwise,
# e.g. at 200,000 x 10 between 2023's rules and lkp-tests of 2026).
#
# Targets (issue 12): 20,000 x 10 at most 50 ms and 24 MB; 200,000 x 10
# at most 0.6 s and 160 MB; 20,000 x 100 at most 0.3 s.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
RUNS=${RUNS:-5}
LKP_RUNS=${LKP_RUNS:-1}
SIZES=${SIZES:-"2000x10 20000x10 200000x10 20000x100"}
if [ -n "${LKP_SRC:-}" ]; then
	STYLE=${STYLE:-$(git -C "$LKP_SRC" log -1 --format=%cs)}
fi
STYLE=${STYLE:-2023-06-07}
export STYLE
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
for s in $SIZES; do
	mkdir -p "$d/$s"
	/usr/bin/python3 "$top/bench/gen-rt.py" "$d/$s" "${s%x*}" "${s#*x}"
done
/usr/bin/python3 - "$ROBOT" "$d" "$RUNS" "$LKP_RUNS" "$top" $SIZES <<'PY'
import os, statistics, subprocess, sys

robot, d, runs, lkp_runs, top = sys.argv[1:6]
sizes = sys.argv[6:]
runs, lkp_runs = int(runs), int(lkp_runs)
lkp = os.environ.get("LKP_SRC")


def measure(cmd, n):
    """Median CPU seconds and the largest peak RSS (MB) of n runs."""
    cpu, rss, out = [], 0, b""
    for _ in range(n):
        r, w = os.pipe()
        p = subprocess.Popen(cmd, stdout=w, stderr=subprocess.DEVNULL)
        os.close(w)
        chunks = []
        while True:
            b = os.read(r, 1 << 16)
            if not b:
                break
            chunks.append(b)
        os.close(r)
        _, status, ru = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status):
            sys.exit("%s failed: %d" % (cmd[0], status))
        out = b"".join(chunks)
        cpu.append(ru.ru_utime + ru.ru_stime)
        rss = max(rss, ru.ru_maxrss / 1024)
    return statistics.median(cpu), rss, out


def fmt_cpu(s):
    return "%.3f s" % s if s < 10 else "%.1f s" % s


head = "%-16s %12s %10s" % ("stats x runs", "robot CPU", "peak RSS")
if lkp:
    head += " %14s %10s %7s %6s" % ("ncompare CPU", "peak RSS", "ratio",
                                    "same")
print(head)
for s in sizes:
    rt = [os.path.join(d, s, "rt0"), os.path.join(d, s, "rt1")]
    cpu, rss, out = measure([robot, "compare", "--style", os.environ["STYLE"]]
                            + rt, runs)
    nstats, nruns = s.split("x")
    line = "%-16s %12s %7.1f MB" % ("{:,} x {}".format(int(nstats), nruns),
                                    fmt_cpu(cpu), rss)
    if lkp:
        lcpu, lrss, _ = measure(
            ["ruby", os.path.join(top, "tests", "lkp", "ncompare.rb"), d,
             os.path.join(d, s)], lkp_runs)
        with open(os.path.join(d, s + ".lkp"), "rb") as f:
            lout = f.read()
        line += " %14s %7.1f MB %6.0fx %6s" % (
            fmt_cpu(lcpu), lrss, lcpu / cpu, "yes" if lout == out else "NO")
    print(line, flush=True)
print("(median of %d runs%s; CPU = user + sys; style %s)" %
      (runs, ", ncompare %d" % lkp_runs if lkp else "", os.environ["STYLE"]))
PY
