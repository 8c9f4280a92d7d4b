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
/usr/bin/python3 - "$d" <<'PY'
import os, sys
d = sys.argv[1]
archs = ['alpha', 'arc', 'arm', 'arm64', 'csky', 'hexagon', 'i386',
         'loongarch', 'm68k', 'mips', 'nios2', 'parisc', 'powerpc', 'riscv',
         's390', 'sh', 'sparc', 'um', 'x86_64', 'xtensa']
builds = []
for i in range(500):
    b = os.path.join(d, 'b', '%03d' % i)
    os.makedirs(b)
    arch = archs[i % len(archs)]
    clang = i % 3 == 0
    with open(os.path.join(b, 'build.yaml'), 'w') as f:
        f.write('arch: %s\nconfig: randconfig-%03d-20250306\ncompiler: "%s"\n'
                % (arch, i, 'clang version 19.1.7' if clang
                   else 'gcc (GCC) 14.2.0'))
    log = ['make ARCH=%s randconfig-%03d-20250306' % (arch, i),
           '  CC      kernel/fork.o'] * 20
    if i % 10 == 0:
        log.append("drivers/pci/f%d.c:%d:7: error: 'ctrl%d' undeclared "
                   "(first use in this function)" % (i % 7, i, i % 5))
    if i % 5 == 1:
        log.append("drivers/net/n%d.c:%d:3: warning: unused variable 'v%d' "
                   "[-Wunused-variable]" % (i % 9, i, i % 4))
    with open(os.path.join(b, 'build.log'), 'w') as f:
        f.write('\n'.join(log) + '\n')
    builds.append('b/%03d' % i)
with open(os.path.join(d, 'request.yaml'), 'w') as f:
    f.write('kind: build-summary\ndate: "2025-03-06 23:41:45 +0800"\n'
            'message_id: "<202503062341.bench-lkp@intel.com>"\n'
            'from: "kernel test robot <lkp@intel.com>"\n'
            'tree: bench\nbranch: master\nrepo_url: https://example.org/b.git\n'
            'head: 0123456789abcdef0123456789abcdef01234567\n'
            'head_subject: "bench: head"\nelapsed_minutes: 1446\n'
            'builds: [%s]\n' % ', '.join(builds))
PY
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
