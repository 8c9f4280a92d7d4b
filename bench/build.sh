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
/usr/bin/python3 - "$ROBOT" "$d" <<'PY'
import os, resource, statistics, subprocess, sys, time

robot, d = sys.argv[1:3]
src = os.path.join(d, "src")
os.makedirs(os.path.join(src, "drivers"))
with open(os.path.join(src, "drivers", "big.c"), "w") as f:
    for i in range(1, 501):
        f.write("\tint v%d = f(%d);\n" % (i, i))
env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x",
           GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@x")
for cmd in (["git", "init", "-q", "."], ["git", "add", "-A"],
            ["git", "commit", "-q", "-m", "x"], ["git", "tag", "built"]):
    subprocess.run(cmd, cwd=src, env=env, check=True)


def findings(n, base=False):
    out = []
    for i in range(1, n + 1):
        line = 100 + i if not base else 300 + i
        out.append("drivers/big.c:%d:14: error: implicit declaration of "
                   "function 'g%d' [-Werror=implicit-function-declaration]"
                   % (line, i))
        out.append("  %d | \tint v%d = f(%d);" % (line, line, line))
        out.append("      |              ^")
    return out


def result(name, log_writer):
    b = os.path.join(d, name)
    os.makedirs(b)
    with open(os.path.join(b, "build.yaml"), "w") as f:
        f.write('arch: x86_64\nconfig: x86_64-allyesconfig\ncompiler: '
                '"gcc-14 (Debian 14.2.0-19) 14.2.0"\ncommit: "%s"\n'
                'source_rev: built\n' % ("3" * 40))
    with open(os.path.join(b, "base.log"), "w") as f:
        f.write("\n".join(findings(20, True)) + "\n")
    with open(os.path.join(b, "build.log"), "w") as f:
        log_writer(f)
    req = os.path.join(d, name + ".yaml")
    with open(req, "w") as f:
        f.write('kind: build\ndate: "Sat, 21 Mar 2026 16:21:51 +0800"\n'
                'message_id: "<202603211611.bench-lkp@intel.com>"\n'
                'from: "kernel test robot <lkp@intel.com>"\n'
                'to: ["Dev <dev@example.org>"]\n'
                'tree: "https://git.kernel.org/pub/scm/x.git"\n'
                'tree_name: x\nbranch: master\nhead: "%s"\n'
                'position: "1/1"\ncommit_subject: "x"\nbuild: %s\n'
                'repo: src\nexcerpts:\n  - {file: drivers/big.c, line: 101,'
                ' from: 90, to: 150}\n' % ("4" * 40, name))
    return req


cfg = os.path.join(d, "robot.yaml")
with open(cfg, "w") as f:
    f.write('spool: %s/spool\narchive_url: "https://download.01.org/'
            '0day-ci/archive"\nlist_archive_url: "https://lore.kernel.org/'
            'oe-kbuild-all"\n' % d)


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


req = result("fifty", lambda f: f.write(
    "\n".join(findings(50) + findings(20, True)) + "\n"))
times = []
for _ in range(20):
    rc, wall, cpu, rss, err, out = run(req)
    assert rc == 0, err
    times.append(cpu)
new = out.count(b"\n>> ")
print("1. 50 findings (%d marked), 60-line excerpt: CPU median %.1f ms, "
      "max %.1f ms (target < 20 ms)" % (new, statistics.median(times) * 1000,
                                    max(times) * 1000))


def noise(f):
    chunk = "".join("  CC      drivers/net/ethernet/vendor/file%06d.o\n" % i
                    for i in range(20000))
    written = 0
    while written < 200 * 1024 * 1024:
        f.write(chunk)
        written += len(chunk)
    f.write("\n".join(findings(50)) + "\n")


req = result("noisy", noise)
rc, wall, cpu, rss, err, out = run(req)
print("2. 200 MB build.log of kbuild chatter and 50 findings: exit %d, "
      "peak RSS %d MB (target <= 64), CPU %.2f s" % (rc, rss, cpu))


def diags(f):
    chunk = "\n".join(findings(1000)) + "\n"
    written = 0
    while written < 200 * 1024 * 1024:
        f.write(chunk)
        written += len(chunk)


req = result("flood", diags)
rc, wall, cpu, rss, err, out = run(req)
print("3. 200 MB build.log of diagnostics: exit %d, peak RSS %d MB, CPU "
      "%.2f s: %s" % (rc, rss, cpu, err))
PY
