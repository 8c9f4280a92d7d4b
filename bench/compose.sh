#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/compose.sh: times `robot compose --dry-run` on a seed-001-sized
# report (examples/seed-001's result roots and commit metadata, the
# 2023-06-07 style) with a generated 158,337-byte kernel config attached as
# a MIME part (targets: < 20 ms wall, < 16 MB peak RSS on a 2-core
# machine).  Prints the best wall time of 20 runs and the peak RSS.  The
# time includes starting the process (fork and exec from Python).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
ex=$top/examples/seed-001
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# A deterministic kernel-config-like file of exactly 158,337 bytes, the
# size of a real x86_64-rhel-8.3 config of 2023.
/usr/bin/python3 - "$d/config-6.4.0-rc5-00001-g20f3337d350c" 158337 <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2])
head = ("#\n# Automatically generated file; DO NOT EDIT.\n"
        "# Linux/x86_64 6.4.0-rc5 Kernel Configuration\n#\n")
out, n = [head], len(head)
i = 0
while True:
    if i % 7 == 3:
        line = "# CONFIG_OPTION_%05d is not set\n" % i
    elif i % 11 == 5:
        line = "CONFIG_VALUE_%05d=%d\n" % (i, i * 37 % 4096)
    elif i % 13 == 8:
        line = "CONFIG_MODULE_%05d=m\n" % i
    else:
        line = "CONFIG_FEATURE_%05d=y\n" % i
    if n + len(line) > size - 40:
        break
    out.append(line)
    n += len(line)
    i += 1
pad = size - n
last = "# end of configuration"
last += "." * (pad - len(last) - 1) + "\n"
out.append(last)
data = "".join(out).encode()
assert len(data) == size, len(data)
with open(path, "wb") as f:
    f.write(data)
PY

cat >"$d/request.yaml" <<EOF
date: "2023-06-07 14:32:17 +0800"
message_id: "<202306071432.887afdea-oliver.sang@intel.com>"
from: "kernel test robot <oliver.sang@intel.com>"
to: ["Linus Torvalds <torvalds@linux-foundation.org>"]
cc: ["<oe-lkp@lists.linux.dev>", "<lkp@intel.com>", "<ying.huang@intel.com>"]
tree: "linus:master"
repo_url: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git
branch: master
commit: 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
commits: $ex/commits.yaml
kpi: stress-ng.lockofd.ops_per_sec
result_roots: [$ex/rt0, $ex/rt1]
machine: "128 threads 2 sockets Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz (Ice Lake) with 256G memory"
attachments: [{path: config-6.4.0-rc5-00001-g20f3337d350c}]
EOF
{
	printf 'spool: %s/spool\n' "$d"
	grep -E '^(archive_url|list_archive_url):' "$top/examples/0day.yaml"
} >"$d/robot.yaml"

# -S -I and os.fork: a bare interpreter.  A child's ru_maxrss counts the
# pages it inherited up to exec, so a parent that imported subprocess
# (13.6 MB here) would be measured instead of a robot that stays below
# it; /bin/true, measured the same way, shows that floor.
/usr/bin/python3 -S -I - "$ROBOT" "$d" <<'PY'
import os, sys, time
robot, d = sys.argv[1], sys.argv[2]
cmd = [robot, "compose", "--dry-run", "-c", d + "/robot.yaml",
       d + "/request.yaml"]

def run(argv, out):
    """Runs argv with stdout to `out`; returns (seconds, status, KB)."""
    t = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    return time.perf_counter() - t, os.waitstatus_to_exitcode(status), \
        ru.ru_maxrss

_, rc, _ = run(cmd, d + "/mail.eml")
if rc:
    sys.exit("robot compose failed: %d" % rc)
with open(d + "/mail.eml", "rb") as f:
    mail = f.read()
if b'filename="config-6.4.0-rc5-00001-g20f3337d350c"' not in mail:
    sys.exit("robot compose did not attach the config")
best, rss = None, 0
for _ in range(20):
    dt, rc, kb = run(cmd, "/dev/null")
    if rc:
        sys.exit("robot compose failed: %d" % rc)
    best = dt if best is None else min(best, dt)
    rss = max(rss, kb)
floor = run(["/bin/true"], "/dev/null")[2]
print("compose: seed-001 with a 158,337-byte config: %.1f ms wall "
      "(best of 20), %.1f MB peak RSS (floor %.1f MB), %d bytes of mail"
      % (best * 1000, rss / 1024, floor / 1024, len(mail)))
PY
