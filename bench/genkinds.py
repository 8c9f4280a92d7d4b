#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench/genkinds.py: the inputs of the build kinds' benchmarks.

genkinds.py build DIR [fifty|noisy|flood]
    a report of kind build (doc/build-result.md) in DIR: the git
    repository DIR/src, the build result DIR/NAME (build.yaml, base.log,
    build.log) and its request DIR/NAME.yaml, DIR/robot.yaml: fifty (the
    default) is 50 new findings (20 old ones in base.log) with a 60-line
    excerpt, noisy a 200 MB build.log of kbuild chatter around them,
    flood a 200 MB build.log of diagnostics;
genkinds.py build-summary DIR
    a branch summary (kind: build-summary, doc/build-summary.md) of 500
    configs in DIR: 500 build results, 50 of which fail and 100 warn with
    compiler lines of their own, DIR/request.yaml and DIR/robot.yaml.

Prints the request's path.  Used by bench/build.sh, bench/summary.sh and
bench/run (the compose rows of the build kinds); not part of robot.
"""
import os
import subprocess
import sys


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


def fifty(f):
    f.write("\n".join(findings(50) + findings(20, True)) + "\n")


def noisy(f):
    chunk = "".join("  CC      drivers/net/ethernet/vendor/file%06d.o\n" % i
                    for i in range(20000))
    written = 0
    while written < 200 * 1024 * 1024:
        f.write(chunk)
        written += len(chunk)
    f.write("\n".join(findings(50)) + "\n")


def flood(f):
    chunk = "\n".join(findings(1000)) + "\n"
    written = 0
    while written < 200 * 1024 * 1024:
        f.write(chunk)
        written += len(chunk)


def build_src(d):
    src = os.path.join(d, "src")
    if os.path.exists(src):
        return
    os.makedirs(os.path.join(src, "drivers"))
    with open(os.path.join(src, "drivers", "big.c"), "w") as f:
        for i in range(1, 501):
            f.write("\tint v%d = f(%d);\n" % (i, i))
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@x",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    for cmd in (["git", "init", "-q", "."], ["git", "add", "-A"],
                ["git", "commit", "-q", "-m", "x"], ["git", "tag", "built"]):
        subprocess.run(cmd, cwd=src, env=env, check=True)


def build(d, name="fifty"):
    build_src(d)
    b = os.path.join(d, name)
    os.makedirs(b)
    with open(os.path.join(b, "build.yaml"), "w") as f:
        f.write('arch: x86_64\nconfig: x86_64-allyesconfig\ncompiler: '
                '"gcc-14 (Debian 14.2.0-19) 14.2.0"\ncommit: "%s"\n'
                'source_rev: built\n' % ("3" * 40))
    with open(os.path.join(b, "base.log"), "w") as f:
        f.write("\n".join(findings(20, True)) + "\n")
    with open(os.path.join(b, "build.log"), "w") as f:
        {"fifty": fifty, "noisy": noisy, "flood": flood}[name](f)
    with open(os.path.join(d, "robot.yaml"), "w") as f:
        f.write('spool: %s/spool\narchive_url: "https://download.01.org/'
                '0day-ci/archive"\nlist_archive_url: "https://lore.kernel.'
                'org/oe-kbuild-all"\n' % d)
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


ARCHS = ['alpha', 'arc', 'arm', 'arm64', 'csky', 'hexagon', 'i386',
         'loongarch', 'm68k', 'mips', 'nios2', 'parisc', 'powerpc', 'riscv',
         's390', 'sh', 'sparc', 'um', 'x86_64', 'xtensa']


def summary(d):
    builds = []
    for i in range(500):
        b = os.path.join(d, 'b', '%03d' % i)
        os.makedirs(b)
        arch = ARCHS[i % len(ARCHS)]
        clang = i % 3 == 0
        with open(os.path.join(b, 'build.yaml'), 'w') as f:
            f.write('arch: %s\nconfig: randconfig-%03d-20250306\n'
                    'compiler: "%s"\n'
                    % (arch, i, 'clang version 19.1.7' if clang
                       else 'gcc (GCC) 14.2.0'))
        log = ['make ARCH=%s randconfig-%03d-20250306' % (arch, i),
               '  CC      kernel/fork.o'] * 20
        if i % 10 == 0:
            log.append("drivers/pci/f%d.c:%d:7: error: 'ctrl%d' undeclared "
                       "(first use in this function)" % (i % 7, i, i % 5))
        if i % 5 == 1:
            log.append("drivers/net/n%d.c:%d:3: warning: unused variable "
                       "'v%d' [-Wunused-variable]" % (i % 9, i, i % 4))
        with open(os.path.join(b, 'build.log'), 'w') as f:
            f.write('\n'.join(log) + '\n')
        builds.append('b/%03d' % i)
    with open(os.path.join(d, 'robot.yaml'), 'w') as f:
        f.write('spool: spool\n')
    req = os.path.join(d, 'request.yaml')
    with open(req, 'w') as f:
        f.write('kind: build-summary\ndate: "2025-03-06 23:41:45 +0800"\n'
                'message_id: "<202503062341.bench-lkp@intel.com>"\n'
                'from: "kernel test robot <lkp@intel.com>"\n'
                'tree: bench\nbranch: master\n'
                'repo_url: https://example.org/b.git\n'
                'head: 0123456789abcdef0123456789abcdef01234567\n'
                'head_subject: "bench: head"\nelapsed_minutes: 1446\n'
                'builds: [%s]\n' % ', '.join(builds))
    return req


def main(argv):
    if len(argv) < 2 or argv[0] not in ("build", "build-summary"):
        sys.exit(__doc__)
    os.makedirs(argv[1], exist_ok=True)
    if argv[0] == "build":
        print(build(argv[1], argv[2] if len(argv) > 2 else "fifty"))
    else:
        print(summary(argv[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
