#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes two deterministic LKP result roots for the compare benchmark.

gen-rt.py OUTDIR NSTATS NRUNS: OUTDIR/rt0 and OUTDIR/rt1, each with a
matrix.json of NSTATS stats x NRUNS runs and NRUNS run directories with a
job.yaml.  The stats mix monitors the way a real stress-ng job does
(perf-stat, perf-profile, meminfo, proc-vmstat, the test's own), and about
one in ten changes between the two commits, so selection and ordering do
real work.
"""
import json
import os
import random
import sys

MONITORS = ["perf-stat.i", "perf-stat.ps", "perf-profile.calltrace.cycles-pp",
            "perf-profile.children.cycles-pp", "perf-profile.self.cycles-pp",
            "meminfo", "proc-vmstat", "vmstat.system", "mpstat.cpu.all",
            "stress-ng.bench", "sched_debug.cpu", "numa-meminfo.node0"]
SHAS = ["1111111111111111111111111111111111111111",
        "2222222222222222222222222222222222222222"]


def main():
    out, nstats, nruns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(20261129)
    names = ["%s.stat%05d" % (MONITORS[i % len(MONITORS)], i)
             for i in range(nstats)]
    base = [rnd.uniform(1, 1e6) for _ in names]
    for j, sha in enumerate(SHAS):
        rt = os.path.join(out, "rt%d" % j)
        matrix = {}
        for i, name in enumerate(names):
            mean = base[i] * (1.3 if j and i % 10 == 0 else 1.0)
            matrix[name] = [round(mean * rnd.uniform(0.98, 1.02), 2)
                            for _ in range(nruns)]
        matrix["stats_source"] = [
            "/result/stress-ng/bench/lkp-bench/debian.cgz/x86_64-rhel/"
            "gcc-12/%s/%d/stats.json" % (sha, r) for r in range(nruns)]
        os.makedirs(rt, exist_ok=True)
        with open(os.path.join(rt, "matrix.json"), "w") as f:
            json.dump(matrix, f)
        for r in range(nruns):
            os.makedirs(os.path.join(rt, str(r)), exist_ok=True)
            with open(os.path.join(rt, str(r), "job.yaml"), "w") as f:
                f.write("suite: stress-ng\ntestcase: stress-ng\n"
                        "nr_threads: 10%%\ntesttime: 60s\n"
                        "stress-ng:\n  class: cpu\n  test: bench\n"
                        "cpufreq_governor: performance\n"
                        "tbox_group: lkp-bench\nrootfs: debian.cgz\n"
                        "kconfig: x86_64-rhel\ncompiler: gcc-12\n"
                        "commit: %s\n" % sha)


main()
