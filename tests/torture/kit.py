# SPDX-License-Identifier: GPL-2.0-only
"""tests/torture/kit.py: what every family of tests/torture/run shares:
the paths, the scratch directory, the TAP counters (check, skip), robot
run with a timeout, and the servers started and stopped by PID."""
import os
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))
ROBOT = os.environ.get("ROBOT", os.path.join(BUILD, "robot"))
ROBOT_CRASH = os.environ.get("ROBOT_CRASH",
                             os.path.join(BUILD, "tests", "robot-crash"))
PY = "/usr/bin/python3"
HERE = os.path.join(TOP, "tests", "torture")
LONG = bool(os.environ.get("TORTURE_TIME"))
SEED = int(os.environ.get("TORTURE_SEED", "2900"))
TIMEOUT = 2  # smtp_timeout of every case

T = tempfile.mkdtemp(prefix="robot-torture.")
passed = failed = todo = skipped = 0
procs = []
mounts = []


class Family:
    def __init__(self, name):
        self.name = name
        self.tried = self.lost = self.doubled = self.outside = self.unsafe = 0
        self.todo = 0
        self.skips = []

    def line(self):
        window = ("all in the crash window" if not self.outside else
                  "%d OUTSIDE the crash window" % self.outside)
        pending = ("; %d known defect(s) pending (TODO)" % self.todo
                   if self.todo else "")
        skips = ("; SKIPPED: %s" % "; ".join(self.skips)
                 if self.skips else "")
        return ("%s: tried %d, lost %d, doubled %d (%s), unsafe %d%s%s" %
                (self.name, self.tried, self.lost, self.doubled, window,
                 self.unsafe, pending, skips))


def skip(fam, desc, why):
    """A case that cannot run here: a TAP SKIP line, named in the family
    line, counted neither as passed nor as failed."""
    global skipped
    skipped += 1
    fam.skips.append("%s (%s)" % (desc, why))
    print("ok %d - %s # SKIP %s" % (passed + failed + todo + skipped, desc,
                                    why))
    sys.stdout.flush()


def check(fam, desc, cond, detail="", xfail=None):
    """One TAP line; a failure counts as unsafe in its family."""
    global passed, failed, todo
    n = passed + failed + todo + skipped + 1
    if xfail:
        todo += 1
        fam.todo += 0 if cond else 1
        if cond:
            print("ok %d - %s # TODO passes now (%s): drop the mark" %
                  (n, desc, xfail))
        else:
            print("not ok %d - %s # TODO %s" % (n, desc, xfail))
            for line in str(detail).splitlines()[:20]:
                print("#   " + line[:300])
        return cond
    if cond:
        passed += 1
        print("ok %d - %s" % (n, desc))
    else:
        failed += 1
        fam.unsafe += 1
        print("not ok %d - %s" % (n, desc))
        for line in str(detail).splitlines()[:20]:
            print("#   " + line[:300])
    sys.stdout.flush()
    return cond


def run(args, env=None, timeout=120, binary=None):
    e = dict(os.environ, TZ="UTC", LC_ALL="C")
    e.pop("ROBOT_TEST_CRASH", None)
    e.update(env or {})
    t0 = time.time()
    try:
        p = subprocess.run([binary or ROBOT] + args, env=e, cwd=T,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as x:
        rc, out, err = "timeout", x.stdout or b"", x.stderr or b""
    return rc, out.decode("latin-1"), err.decode("latin-1"), time.time() - t0


def wait_file(path, secs=20):
    end = time.time() + secs
    while time.time() < end:
        if os.path.exists(path) and os.path.getsize(path):
            return True
        time.sleep(0.05)
    return False


def stop(p):
    if p.poll() is None:
        p.terminate()
    p.wait()


def error_lines(err):
    return [l for l in err.splitlines() if l.startswith("robot: error:")]
