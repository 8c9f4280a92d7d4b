#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/limits.sh: robot's resource use on hostile inputs (issue 8).
#
#   1. a job.yaml of 200,000 keys (two roots of one run, each with its
#      own) and a commits.yaml of 200,000 commits: robot compare's CPU
#      time (target: under 1 s for each file);
#   2. inputs of about 1 MB on disk, compressed or not, built to be huge
#      once read (tests/tools/matrix-bomb and a few YAML shapes): exit
#      code, peak RSS (target: at most 256 MB), CPU time and the message;
#   3. running out of memory below the limits (ulimit -v): the message;
#   4. every input of every command (doc/limits.md's table) at two sizes,
#      4 times apart: CPU time, peak RSS and the memory each unit of
#      input costs (tests/torture/bounds.py, which make torture runs on
#      inputs 8 times smaller, checking that time is linear and memory
#      within the table's bound).  BOUNDS_SCALE=N (default 8) sizes it.
#      robot queue on 8,000 and 32,000 sent messages, each with its state
#      file, also prints its instructions (callgrind): linear, where a
#      scan of the state files a message made it quadratic;
#   5. each of the largest inputs at its limit and just over it (bounds.py
#      --at-limits): a build report's build.log and base.log with 8 MiB
#      of kept lines each, a summary keeping 8 MiB, a mailed attachment
#      of 64 MiB, robot send on a message of 256 MiB, robot thread on a
#      search answer of lore_max_bytes: exit code and peak RSS against
#      doc/limits.md's figure, then one error just over the limit;
#   6. robot inbox with 0, 100 and 400 new mails against a spool of
#      20,000 messages (INBOX_SPOOL=M), its folders an hour old (bounds.py
#      --inbox-spool): CPU, peak RSS, the CPU each more mail costs, and
#      the spool's messages opened (strace), each once a run, however
#      many mails (it was once a mail: 11.5 s of CPU for 25 mails).
#
# CPU is user + sys (the machine is shared); generating the inputs takes
# a minute, most of it gzip.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
/usr/bin/python3 - "$ROBOT" "$d" "$top" <<'PY'
import os, random, subprocess, sys

robot, d, top = sys.argv[1:4]
bomb = os.path.join(top, "tests", "tools", "matrix-bomb")
SHA = ["1" * 40, "2" * 40]


def src(runs):
    return '"stats_source": [%s]' % ", ".join(
        '"/r/%s/%d/stats.json"' % (SHA[0], r) for r in range(runs))


def run(cmd, limit_kb=None):
    """exit code, CPU seconds, peak RSS in MB, first stderr line"""
    pre = None
    if limit_kb:
        import resource

        def pre():
            resource.setrlimit(resource.RLIMIT_AS,
                               (limit_kb * 1024, limit_kb * 1024))
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=pre)
    err = p.stderr.read().decode("utf-8", "replace")
    _, status, ru = os.wait4(p.pid, 0)
    return (os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime,
            ru.ru_maxrss / 1024, err.split("\n")[0])


def root(name, job, matrix=None, runs=3):
    """A result root of `runs` runs: job.yaml text in each, a small matrix."""
    rt = os.path.join(d, name)
    for r in range(runs):
        os.makedirs(os.path.join(rt, str(r)), exist_ok=True)
        with open(os.path.join(rt, str(r), "job.yaml"), "w") as f:
            f.write(job)
    if matrix is None:
        matrix = "{%s, %s}" % (", ".join(
            '"stress-ng.s%d.ops": [%s]' % (i, ", ".join(
                str(i + r) for r in range(runs)))
            for i in range(10)), src(runs))
    with open(os.path.join(rt, "matrix.json"), "w") as f:
        f.write(matrix)
    return rt


def size(path):
    if os.path.isdir(path):
        for n in ("matrix.json.gz", "matrix.json"):
            if os.path.exists(os.path.join(path, n)):
                return os.path.getsize(os.path.join(path, n))
    return os.path.getsize(path)


print("1. quadratic no more: robot compare, CPU time")
base = "testcase: stress-ng\ncommit: %s\nstress-ng:\n  test: x\n"
keys = "".join("key%06d: %d\n" % (i, i) for i in range(100000))
keys += "stress-ng-opts:\n" + "".join(
    "  opt%06d: %d\n" % (i, i) for i in range(100000))
# one run a root, so that each root loads one job.yaml
for i, sha in enumerate(SHA):
    root("job%d" % i, (base % sha) + keys, runs=1)
rc, cpu, rss, err = run([robot, "compare", "--style", "2023-06-07",
                         "--no-rule", "min-runs",
                         os.path.join(d, "job0"), os.path.join(d, "job1")])
print("   two job.yaml of 200,001 keys (2 roots of 1 run): exit %d, %.2f s "
      "(%.2f s each), %.0f MB %s" % (rc, cpu, cpu / 2, rss, err))

rnd = random.Random(8)
meta = os.path.join(d, "commits.yaml")
with open(meta, "w") as f:
    f.write("commits:\n")
    for i in range(200000):
        f.write('- id: %040x\n  subject: "commit %d"\n'
                % (rnd.getrandbits(160), i))
    for sha in SHA:
        f.write('- id: %s\n  subject: "tested"\n' % sha)
for i, sha in enumerate(SHA):
    root("c%d" % i, base % sha)
rc, cpu, rss, err = run([robot, "compare", "--style", "2023-06-07",
                         "--commits", meta, os.path.join(d, "c0"),
                         os.path.join(d, "c1")])
print("   commits.yaml of 200,002 commits (%.1f MB): exit %d, %.2f s, %.0f MB "
      "%s" % (size(meta) / 1e6, rc, cpu, rss, err))

print("\n2. about 1 MB on disk: robot compare --all on two copies")
cases = [
    ("gz: 515 million zeros in one stat", ["samples", "515000000"]),
    ("gz: 450,000 stats", ["stats", "450000"]),
    ("gz: a stat name of 1 GB", ["token", "1030000000"]),
    ("gz: 1 GB of nested arrays", ["depth", "1030000000"]),
    ("gz: 45 million runs for 1,000 stats", ["padding", "45000000"]),
    ("gz: 1 GB of blanks", ["spaces", "1030000000"]),
    ("plain: 500,000 zeros", ["samples", "500000", "--plain"]),
    ("plain: 90,000 stats", ["stats", "90000", "--plain"]),
]
worst = 0
print("   %-40s %8s %5s %9s %7s  %s" % ("input", "on disk", "exit",
                                        "peak RSS", "CPU", "message"))
for i, (what, args) in enumerate(cases):
    rt = os.path.join(d, "b%d" % i)
    subprocess.run([bomb, args[0], args[1], rt] + args[2:], check=True)
    rc, cpu, rss, err = run([robot, "compare", "--all", "--style", "2023",
                             rt, rt])
    worst = max(worst, rss)
    print("   %-40s %6.2f MB %5d %6.1f MB %6.2fs  %s" % (
        what, size(rt) / 1e6, rc, rss, cpu, err.replace(d, "")[:90]))

# YAML: the shapes that cost the most memory per byte
shapes = [
    ("job.yaml: a list of 490,000 scalars",
     "x: [" + ",".join(["a"] * 490000) + "]\n"),
    ("job.yaml: a list of 330,000 empty lists",
     "x: [" + ",".join(["[]"] * 330000) + "]\n"),
    ("job.yaml: 100,000 keys", "".join("k%x: v\n" % i
                                       for i in range(100000))),
]
for i, (what, text) in enumerate(shapes):
    for k, sha in enumerate(SHA):
        root("y%d.%d" % (i, k), (base % sha) + text)
    rc, cpu, rss, err = run([robot, "compare", "--all", "--style", "2023",
                             os.path.join(d, "y%d.0" % i),
                             os.path.join(d, "y%d.1" % i)])
    worst = max(worst, rss)
    print("   %-40s %6.2f MB %5d %6.1f MB %6.2fs  %s" % (
        what, size(os.path.join(d, "y%d.0" % i, "0", "job.yaml")) / 1e6,
        rc, rss, cpu, err.replace(d, "")[:90]))
meta1 = os.path.join(d, "commits1.yaml")
with open(meta1, "w") as f:
    f.write("commits:\n")
    i = 0
    while f.tell() < 1000000:
        f.write('- id: %040x\n  subject: "c"\n' % (rnd.getrandbits(160)))
    for sha in SHA:
        f.write('- id: %s\n  subject: "tested"\n' % sha)
rc, cpu, rss, err = run([robot, "compare", "--style", "2023-06-07",
                         "--commits", meta1, os.path.join(d, "c0"),
                         os.path.join(d, "c1")])
worst = max(worst, rss)
print("   %-40s %6.2f MB %5d %6.1f MB %6.2fs  %s" % (
    "commits.yaml of 1 MB", size(meta1) / 1e6, rc, rss, cpu, err[:90]))
print("   largest peak RSS: %.1f MB (limit 256 MB)" % worst)

print("\n3. out of memory below the limits (address space of 60 MB)")
grid = os.path.join(d, "grid")
subprocess.run([bomb, "grid", "8000000", grid], check=True)
rc, cpu, rss, err = run([robot, "compare", "--all", "--style", "2023",
                         grid, grid], limit_kb=60000)
print("   exit %d: %s" % (rc, err))
PY

echo
echo "4. every input of every command: two sizes 4 times apart (bounds.py)"
/usr/bin/python3 "$top/tests/torture/bounds.py" --robot "$ROBOT" \
	--scale "${BOUNDS_SCALE:-8}"

echo
echo "5. at the limits: just under (peak RSS) and just over (one error)"
/usr/bin/python3 "$top/tests/torture/bounds.py" --robot "$ROBOT" --at-limits

echo
echo "6. robot inbox against a large spool: each message read once a run"
/usr/bin/python3 "$top/tests/torture/bounds.py" --robot "$ROBOT" \
	--inbox-spool "${INBOX_SPOOL:-20000}"
