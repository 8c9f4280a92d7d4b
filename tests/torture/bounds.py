#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""tests/torture/bounds.py: the resource bounds of every input of every
command (doc/limits.md): family 6 of tests/torture/run, and section 4 of
bench/limits.sh.

Each case makes one input of a command N units large (bytes, addresses,
messages, mails, ids...) at two sizes, N and RATIO times N, runs the
command on each and measures its CPU time (user + sys, the machine is
shared) and its peak RSS (wait4).  A case holds when

  - the exit codes are the ones the case expects;
  - time is linear: the larger run's CPU above robot's start-up is at
    most SLACK * RATIO times the smaller's (a quadratic step makes it
    RATIO * RATIO), with LIN_FLOOR seconds of noise allowed;
  - memory grows at most `per_unit` bytes per unit of input (0: it does
    not grow: one item at a time), with MEM_NOISE of noise allowed:
    doc/limits.md gives each input its limit, so its memory at the limit
    is bounded by that slope;
  - for a case marked instr, robot's instructions (callgrind, the same
    whatever the load) above its start-up grow at most INSTR_SLACK times
    as fast as the input: a step quadratic in it that costs little time
    at these sizes still shows.

    bounds.py [--scale K] [--ratio R] [CASE...]    prints the table
    bounds.py --at-limits [CASE...]    each input at its limit, and over
    bounds.py --inbox-spool M [N...]   robot inbox, N new mails, M queued

--scale multiplies every N (bench/limits.sh runs 8; make torture 1).
--at-limits (bench/limits.sh section 5) makes each input just under its
limit (it must pass, its peak RSS within the figure doc/limits.md gives)
and just over it (one robot: error: line).  --inbox-spool (section 6)
runs robot inbox with 0, 100 and 400 new mails (or the N given) against a
spool of M messages: its CPU a mail must not grow with M, and each message
of the spool is opened once a run (strace), not once a mail.
"""
import argparse
import gzip
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
PY = "/usr/bin/python3"
RATIO = 4
SLACK = 2.0
LIN_FLOOR = 0.06   # seconds
MEM_NOISE = 6 << 20
SHA = ["1" * 40, "2" * 40]
EPOCH = {"SOURCE_DATE_EPOCH": "1695695400"}


MEASURE = None


def measurer(scratch):
    """bench/measure.c, built once: a child's ru_maxrss counts the pages
    it inherited before exec, so robot is started by that small program,
    not by this Python of tens of MB."""
    global MEASURE
    if not MEASURE:
        MEASURE = os.path.join(scratch, "measure")
        subprocess.run(["cc", "-O2", "-o", MEASURE,
                        os.path.join(TOP, "bench", "measure.c")], check=True)
    return MEASURE


def measure(argv, cwd, env=None, timeout=600):
    """exit code, CPU seconds, peak RSS in bytes, stderr (a bit)"""
    e = dict(os.environ, TZ="UTC", LC_ALL="C")
    e.pop("ROBOT_TEST_CRASH", None)
    e.update(env or {})
    err = os.path.join(cwd, "measure.err")
    p = subprocess.run([MEASURE, "/dev/null", err] + argv, cwd=cwd, env=e,
                       stdout=subprocess.PIPE, timeout=timeout)
    cpu, _wall, rss, code = p.stdout.split()
    return (int(code), float(cpu), int(rss) * 1024,
            open(err, "rb").read(4000).decode("latin-1"))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return os.path.getsize(path)


def wait_port(pf, secs=20):
    end = time.time() + secs
    while time.time() < end:
        if os.path.exists(pf) and os.path.getsize(pf):
            return int(open(pf).read())
        time.sleep(0.05)
    raise SystemExit("a server of bounds.py did not start")


class World:
    """The fixtures every case starts from, in a scratch directory: the
    reply cases' golden roots and spool, a functional and a build
    report's inputs, an SMTP sink and a lore archive."""

    def __init__(self, top, robot, procs):
        self.d, self.robot, self.procs = top, robot, procs
        os.makedirs(top, exist_ok=True)
        shutil.copytree(os.path.join(TOP, "tests", "golden"),
                        os.path.join(top, "golden"))
        shutil.copytree(os.path.join(TOP, "tests", "reply"),
                        os.path.join(top, "reply"))
        subprocess.run([PY, os.path.join(top, "golden", "data", "make-rts"),
                        os.path.join(top, "golden", "data", "rt")],
                       check=True, stdout=subprocess.DEVNULL)
        self.cfg = os.path.join(top, "reply", "data", "robot.yaml")
        self.run(["compose", "-c", self.cfg,
                  os.path.join(top, "reply", "data", "report.yaml")])
        self.mail = open(os.path.join(top, "reply", "0001-inline-patch",
                                      "mail.eml"), "rb").read()
        x0 = os.path.join(top, "x0")
        self.run(["reply", "-c", self.cfg, "--extract-patch", x0, "--to",
                  os.path.join(top, "reply", "0001-inline-patch",
                               "mail.eml")])
        req = open(os.path.join(x0, "test-request.yaml")).read()
        root = os.path.join(top, "golden", "data", "rt", "stress-ng@clear")
        self.request = os.path.join(x0, "request.yaml")
        write(self.request, re.sub(r'(result_roots:\n- [^\n]*\n- [^\n]*\n)',
                                   r'\1- "%s"\n' % root, req))
        # a functional report's inputs
        shutil.copytree(os.path.join(TOP, "tests", "functional"),
                        os.path.join(top, "fn"))
        subprocess.run([PY, os.path.join(top, "fn", "data", "make-rts"),
                        os.path.join(top, "fn", "data", "rt")], check=True,
                       stdout=subprocess.DEVNULL)
        # a build report's inputs, its source in a git repository
        bd = os.path.join(top, "bd")
        shutil.copytree(os.path.join(TOP, "tests", "build",
                                     "0001-commit-2026"), bd)
        g = ["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.org"]
        src = os.path.join(bd, "src")
        for cmd in (["init", "-q", "."], ["add", "-A"],
                    ["commit", "-q", "-m", "tree"], ["tag", "built"]):
            subprocess.run(g + cmd, cwd=src, check=True,
                           stdout=subprocess.DEVNULL)
        os.rename(src, os.path.join(bd, "src.git"))
        write(os.path.join(bd, "robot.yaml"), "spool: %s/bd-spool\n" % top)
        os.makedirs(os.path.join(top, "sink"))
        self.sink = self.start("sink", [PY, os.path.join(
            TOP, "tests", "helpers", "smtpd.py"), "--dir",
            os.path.join(top, "sink")])
        os.makedirs(os.path.join(top, "archive"))
        self.lore = self.start("lore", [PY, os.path.join(
            TOP, "tests", "torture", "lore.py"), "archive", "--log",
            os.path.join(top, "lore.log"), "--dir",
            os.path.join(top, "archive"), "--away", "http://127.0.0.1:9"])

    def start(self, name, argv):
        pf = os.path.join(self.d, name + ".port")
        self.procs.append(subprocess.Popen(
            argv + ["--port-file", pf], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL))
        return wait_port(pf)

    def run(self, args, env=None):
        e = dict(os.environ, TZ="UTC", LC_ALL="C", **EPOCH)
        e.update(env or {})
        return subprocess.run([self.robot] + args, env=e, cwd=self.d,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)

    def scratch(self, name):
        d = os.path.join(self.d, "case", name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        return d


# ---- the inputs ------------------------------------------------------------------
#
# Each maker gets the world, a scratch directory and N, writes the input
# and returns (argv after robot, units of input, env); units are what the
# case's per_unit is of.

def root(d, name, job, matrix):
    rt = os.path.join(d, name)
    write(os.path.join(rt, "0", "job.yaml"), job)
    write(os.path.join(rt, "matrix.json"), matrix)
    return rt


def job(sha, extra=""):
    return ("testcase: stress-ng\ncommit: %s\nstress-ng:\n  test: x\n%s"
            % (sha, extra))


def matrix(stats):
    return "{%s, \"stats_source\": [\"/r/%s/0/stats.json\"]}" % (", ".join(
        '"stress-ng.s%d.ops": [%d]' % (i, i) for i in range(stats)), SHA[0])


def mk_matrix(w, d, n):
    rts = [root(d, "r%d" % i, job(SHA[i]), matrix(n)) for i in range(2)]
    return (["compare", "--all", "--style", "2023"] + rts,
            os.path.getsize(os.path.join(rts[0], "matrix.json")) * 2, None)


def mk_job(w, d, n):
    keys = "".join("key%07d: %d\n" % (i, i) for i in range(n))
    rts = [root(d, "r%d" % i, job(SHA[i], keys), matrix(10))
           for i in range(2)]
    return (["compare", "--style", "2023-06-07", "--no-rule", "min-runs"] +
            rts, 2 * os.path.getsize(os.path.join(rts[0], "0", "job.yaml")),
            None)


def mk_commits(w, d, n):
    rts = [root(d, "r%d" % i, job(SHA[i]), matrix(10)) for i in range(2)]
    meta = os.path.join(d, "commits.yaml")
    size = write(meta, "commits:\n" + "".join(
        '- id: %040x\n  subject: "commit %d"\n' % (i + 7, i)
        for i in range(n)) + "".join('- id: %s\n  subject: "tested"\n' % s
                                     for s in SHA))
    return (["compare", "--style", "2023-06-07", "--no-rule", "min-runs",
             "--commits", meta] + rts, size, None)


def mk_request_cc(w, d, n):
    req = open(os.path.join(w.d, "reply", "data", "report.yaml")).read()
    cc = "cc:\n" + "".join('- "<p%d@example.org>"\n' % i for i in range(n))
    path = os.path.join(w.d, "reply", "data", "cc-%d.yaml" % n)
    req = re.sub(r"(?m)^cc:.*\n(^[ -].*\n)*", "", req)
    write(path, req + cc)
    return (["compose", "--dry-run", "-c", w.cfg, path],
            os.path.getsize(path), EPOCH)


def mk_dmesg(w, d, n):
    fn = os.path.join(w.d, "fn")
    xz = os.path.join(fn, "data", "rt", "kasan", "rt1", "1", "dmesg.xz")
    if not os.path.exists(xz + ".orig"):
        shutil.copy(xz, xz + ".orig")
    text = lzma.decompress(open(xz + ".orig", "rb").read())
    pad = b"".join(b"[   %d.%06d] frob: a line of a noisy driver, %d\n"
                   % (i // 1000, i % 1000, i) for i in range(n))
    write(xz, lzma.compress(pad + text, preset=0))
    return (["compose", "--dry-run", "-c",
             os.path.join(fn, "data", "robot.yaml"),
             os.path.join(fn, "0101-2026-kasan", "request.yaml")],
            len(pad) + len(text), None)


def mk_buildlog(w, d, n):
    log = os.path.join(w.d, "bd", "build", "build.log")
    if not os.path.exists(log + ".orig"):
        shutil.copy(log, log + ".orig")
    text = open(log + ".orig", "rb").read()
    pad = b"".join(b"  CC      drivers/demo/file%d.o\n" % i for i in range(n))
    size = write(log, pad + text)
    return (["compose", "--dry-run", "-c", os.path.join(w.d, "bd",
                                                        "robot.yaml"),
             os.path.join(w.d, "bd", "request.yaml")], size, None)


def mk_findings(w, d, n):
    """A build log of n kept lines: warnings, each with gcc's source and
    caret lines (all of them in the mail)."""
    log = os.path.join(w.d, "bd", "build", "build.log")
    if not os.path.exists(log + ".orig"):
        shutil.copy(log, log + ".orig")
    text = open(log + ".orig", "rb").read()
    pad = b"".join(b"drivers/demo/file%d.c:%d:5: warning: unused variable "
                   b"'x%d' [-Wunused-variable]\n   %d |  int x%d;\n"
                   b"      |      ^~\n" % (i // 3, i, i, i, i)
                   for i in range(n // 3))
    size = write(log, pad + text)
    return (["compose", "--dry-run", "-c", os.path.join(w.d, "bd",
                                                        "robot.yaml"),
             os.path.join(w.d, "bd", "request.yaml")], size, None)


def mk_summary(w, d, n):
    """A branch summary of n configs: each with the same 20 findings and
    two of its own, a base.log and an unverified.log."""
    common = b"".join(b"drivers/demo/common%d.c:%d:5: warning: unused "
                      b"variable 'c%d' [-Wunused-variable]\n   %d |  int c;"
                      b"\n" % (i, i, i, i) for i in range(20))
    builds = []
    for i in range(n):
        b = os.path.join(d, "b", "cfg%d" % i)
        tag = "".join(chr(97 + int(c)) for c in str(i))
        write(os.path.join(b, "build.yaml"), "arch: x86_64\nconfig: "
              "randconfig-%d\ncompiler: gcc (GCC) 14.2.0\n" % i)
        write(os.path.join(b, "build.log"), b"make ARCH=x86_64\n" + common +
              b"drivers/%s/own.c:1:1: error: '%s' undeclared\n"
              b"drivers/%s/own.c:2:1: warning: no prototype for '%s'\n"
              % ((tag.encode(), tag.encode()) * 2))
        write(os.path.join(b, "base.log"), common[:200])
        write(os.path.join(b, "unverified.log"), b"drivers/%s/u.c:3:1: "
              b"warning: maybe '%s'\n" % (tag.encode(), tag.encode()))
        builds.append('"%s"' % b)
    req = os.path.join(d, "request.yaml")
    write(req, 'kind: build-summary\ndate: "2025-03-06 23:41:45 +0800"\n'
          'message_id: "<s@example.org>"\ntree: t\nbranch: b\n'
          'repo_url: https://git.example.org/t.git\nhead: %s\n'
          'head_subject: "x"\nelapsed_minutes: 5\nbuilds: [%s]\n'
          % (SHA[0], ", ".join(builds)))
    cfg = os.path.join(d, "robot.yaml")
    write(cfg, "spool: spool\nfrom: \"r <r@example.org>\"\n"
          "message_id_user: r\nmessage_id_domain: example.org\n")
    return ["compose", "--dry-run", "-c", cfg, req], n, None


def mk_attachment(w, d, n):
    """A report (2023-06, attachments mailed) whose kernel config is n
    bytes of binary: base64 in the mail."""
    src = os.path.join(w.d, "golden", "0012-2023-attachments")
    for f in ("job-script", "job.yaml.txt", "reproduce"):
        shutil.copy(os.path.join(src, f), d)
    import random
    r = random.Random(n)
    size = write(os.path.join(d, "kernel-config"), r.randbytes(n))
    req = open(os.path.join(src, "request.yaml")).read().replace(
        "../data/", os.path.join(w.d, "golden", "data") + "/")
    write(os.path.join(d, "request.yaml"), req)
    return (["compose", "--dry-run", "-c", os.path.join(
        w.d, "golden", "data", "robot.yaml"),
        os.path.join(d, "request.yaml")], size, EPOCH)


def mk_config(w, d, n):
    cfg = os.path.join(d, "robot.yaml")
    os.makedirs(os.path.join(d, "spool"))
    size = write(cfg, "spool: spool\nreply_allow:\n" + "".join(
        '- "@d%d.example.org"\n' % i for i in range(n)))
    return ["queue", "-c", cfg, "--json"], size, None


def big_sink(w):
    """A minimal SMTP server in a thread of this process, started once:
    accepts every message, keeps nothing (aiosmtpd stops at 32 MiB).  Its
    port."""
    import socketserver
    import threading

    class H(socketserver.StreamRequestHandler):
        def handle(self):
            say = self.wfile.write
            say(b"220 sink\r\n")
            for line in self.rfile:
                verb = line[:4].upper()
                if verb == b"DATA":
                    say(b"354 go on\r\n")
                    for data in self.rfile:
                        if data == b".\r\n":
                            break
                    say(b"250 2.0.0 kept nowhere\r\n")
                elif verb == b"QUIT":
                    say(b"221 bye\r\n")
                    return
                elif verb == b"EHLO":
                    say(b"250-sink\r\n250 8BITMIME\r\n")
                else:
                    say(b"250 ok\r\n")

    if not getattr(w, "big_sink_port", None):
        srv = socketserver.ThreadingTCPServer(("127.0.0.1", 0), H)
        srv.daemon_threads = True
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        w.big_sink_port = srv.server_address[1]
    return w.big_sink_port


def sink_cfg(w, d, port=None):
    cfg = os.path.join(d, "robot.yaml")
    os.makedirs(os.path.join(d, "spool"))
    write(cfg, "spool: spool\nsmtp_url: smtp://127.0.0.1:%d/bounds\n"
          "smtp_starttls: opportunistic\nsmtp_timeout: 120\n" %
          (port or w.sink))
    return cfg


def eml(i, body=b"body\n"):
    return (b"From: r <r@example.org>\nTo: d@example.org\nSubject: s %d\n"
            b"Message-ID: <b%d.%d@example.org>\n\n" % (i, i, time.time_ns())
            + body)


def queue_n(w, d, n):
    """A spool of n queued messages: made once for each n (queue add
    flushes each message to disk, the slow part), copied for each case."""
    tpl = os.path.join(w.d, "spool-%d" % n)
    if not os.path.isdir(tpl):
        os.makedirs(tpl)
        cfg = sink_cfg(w, tpl)
        files = []
        for i in range(n):
            files.append(os.path.join(tpl, "m%d.eml" % i))
            write(files[-1], eml(i))
        for k in range(0, n, 500):
            w.run(["queue", "-c", cfg, "add"] + files[k:k + 500])
    shutil.rmtree(d)
    shutil.copytree(tpl, d)
    return os.path.join(d, "robot.yaml")


def mk_send_n(w, d, n):
    return ["send", "-c", queue_n(w, d, n)], n, None


def mk_queue_n(w, d, n):
    return ["queue", "-c", queue_n(w, d, n), "--json"], n, None


SENT_STATE = ("attempts: 1\nlast-attempt: 2026-01-01T00:00:00Z\n"
              "done: 2026-01-01T00:00:00Z\nvia: mbox:m.mbox\n"
              "reply: appended\nsent-to: d@example.org\n")


def mk_queue_sent(w, d, n):
    """A spool of n messages robot sent, each with its state file (a month
    of reports), written straight into sent/ under names in no order, and
    a state file whose message is gone: robot queue reads each message's
    state."""
    sp = os.path.join(d, "spool")
    for st in ("new", "sent", "failed", "hold"):
        os.makedirs(os.path.join(sp, st))
    for i in range(n + 1):
        p = os.path.join(sp, "sent", "%032x" % (0x5e47 << 64 |
                                                 i * 2654435761 % (1 << 40)))
        if i < n:
            write(p + ".eml", eml(i))
        write(p + ".state", SENT_STATE)
    cfg = os.path.join(d, "robot.yaml")
    write(cfg, "spool: spool\nmbox: m.mbox\n")
    return ["queue", "-c", cfg, "--json"], n, None


def mk_send_big(w, d, n):
    """A message of n lines sent to a server that takes any size."""
    cfg = sink_cfg(w, d, big_sink(w))
    f = os.path.join(d, "big.eml")
    size = write(f, eml(0, b"".join(b"%075d\n" % i for i in range(n))))
    w.run(["queue", "-c", cfg, "add", f])
    return ["send", "-c", cfg], size, None


def mk_queue_add(w, d, n):
    cfg = os.path.join(d, "robot.yaml")
    os.makedirs(os.path.join(d, "spool"))
    write(cfg, "spool: spool\n")
    f = os.path.join(d, "big.eml")
    size = write(f, eml(0, b"".join(b"%075d\n" % i for i in range(n))))
    return ["queue", "-c", cfg, "add", f], size, None


def followup(w, i, body=None):
    m = re.sub(rb"(?m)^Message-ID: .*$", b"Message-ID: <f%d.%d@example.org>"
               % (i, time.time_ns()), w.mail, count=1)
    return m if body is None else m.split(b"\n\n", 1)[0] + b"\n\n" + body


def inbox_cfg(w, d):
    cfg = os.path.join(d, "robot.yaml")
    write(cfg, open(w.cfg).read().replace("../../", "%s/" % w.d).replace(
        "inbox.seen", "case/%s/seen" % os.path.basename(d)).replace(
        "requests", "case/%s/requests" % os.path.basename(d)))
    return cfg


def padded(w, i):
    """A follow-up of about 200 kB: what robot holds of a mailbox shows."""
    return followup(w, i).replace(b"Thanks for the report.",
                                  b"Thanks for the report.\n" +
                                  b"> an old line of the thread\n" * 7000)


def mk_mbox(w, d, n):
    box = os.path.join(d, "mbox")
    with open(box, "wb") as f:
        for i in range(n):
            f.write(b"From dev@example.org Mon Sep 25 09:12:44 2023\n" +
                    padded(w, i) + b"\n")
    return ["inbox", "-c", inbox_cfg(w, d), box], n, EPOCH


def mk_maildir(w, d, n):
    md = os.path.join(d, "Maildir")
    for sub in ("cur", "tmp"):
        os.makedirs(os.path.join(md, sub))
    for i in range(n):
        write(os.path.join(md, "new", "%d.box" % i), padded(w, i))
    return ["inbox", "-c", inbox_cfg(w, d), md], n, EPOCH


def mk_seen(w, d, n):
    md = os.path.join(d, "Maildir")
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(md, sub))
    write(os.path.join(d, "seen"), "".join("<s%d@example.org>\n" % i
                                           for i in range(n)))
    return ["inbox", "-c", inbox_cfg(w, d), md], n, EPOCH


SPOOL_PER_MAIL = 8


def spool_of(w, d, m):
    """d/spool: the world's (the report the follow-ups answer, in new/)
    and m messages robot sent, written straight into sent/ (a day of
    reports is what a busy robot's spool holds)."""
    sp = os.path.join(d, "spool")
    shutil.copytree(os.path.join(w.d, "spool"), sp)
    for i in range(m):
        write(os.path.join(sp, "sent", "%032x.eml" % (0x5e47 << 64 | i)),
              eml(i))
    return sp


def inbox_against(w, d, n, m, aged=False):
    """n new follow-ups in a Maildir, against a spool of m + 1 messages:
    robot inbox looks each mail's Message-ID and References up in the
    spool (is it robot's own mail, which report does it answer).  aged:
    the spool's folders last changed an hour ago, as cron finds them
    (one changed less than a second ago is read again at each look-up,
    robot/delivery/msgindex.h)."""
    sp = spool_of(w, d, m)
    if aged:
        for st in ("new", "sent", "failed", "hold"):
            os.utime(os.path.join(sp, st), (time.time() - 3600,) * 2)
    md = os.path.join(d, "Maildir")
    for sub in ("cur", "tmp"):
        os.makedirs(os.path.join(md, sub))
    for i in range(n):
        write(os.path.join(md, "new", "%d.box" % i), followup(w, i))
    cfg = inbox_cfg(w, d)
    write(cfg, open(cfg).read().replace("spool: %s/spool" % w.d,
                                        "spool: %s" % sp))
    return ["inbox", "-c", cfg, md], n, EPOCH


def mk_inbox_spool(w, d, n):
    return inbox_against(w, d, n, SPOOL_PER_MAIL * n)


def to_mail(d, data):
    path = os.path.join(d, "mail.eml")
    return path, write(path, data)


def mk_diff(w, d, n):
    body = w.mail.split(b"\n\n", 1)[1]
    lines = b"".join(b"+\tnop /* %d */\n" % i for i in range(n))
    body = body.replace(b"@@ -10,7 +10,7 @@", b"@@ -10,7 +10,%d @@" % (7 + n))
    body = body.replace(b"+\trep stosb\n", b"+\trep stosb\n" + lines)
    path, size = to_mail(d, followup(w, 0, body))
    return (["reply", "-c", w.cfg, "--extract-patch",
             os.path.join(d, "out"), "--to", path], size, None)


def mk_lines(w, d, n):
    """A retest: no patch, N short lines, one link at the end (the text
    robot searches for links)."""
    path, size = to_mail(d, followup(w, 0, b"x\n" * n +
                                     b"see https://example.org/\n"))
    return (["reply", "-c", w.cfg, "--extract-patch", os.path.join(d, "out"),
             "--to", path], size, None)


def set_header(mail, name, value):
    head, body = mail.split(b"\n\n", 1)
    head = re.sub(rb"(?ms)^" + name + rb":.*?\n(?=\S)", b"", head + b"\n")
    return head + name + b": " + value + b"\n\n" + body


def mk_cc(w, d, n):
    path, size = to_mail(d, set_header(w.mail, b"Cc", b", ".join(
        b"<p%d@example.org>" % i for i in range(n))))
    return (["reply", "-c", w.cfg, "--dry-run", "--to", path, w.request],
            size, EPOCH)


def mk_refs(w, d, n):
    path, size = to_mail(d, set_header(w.mail, b"References", b" ".join(
        b"<r%d@example.org>" % i for i in range(n)) +
        b" <202309221737.5eb1e5d1-lkp@intel.com>"))
    return (["reply", "-c", w.cfg, "--dry-run", "--to", path, w.request],
            size, EPOCH)


def mk_folded(w, d, n):
    """References folded over N lines (each id on a line of its own, as
    mailers write a long one)."""
    path, size = to_mail(d, set_header(w.mail, b"References", b"\n ".join(
        b"<f%d@example.org>" % i for i in range(n)) +
        b"\n <202309221737.5eb1e5d1-lkp@intel.com>"))
    return (["reply", "-c", w.cfg, "--dry-run", "--to", path, w.request],
            size, EPOCH)


def mk_refs_first(w, d, n):
    """The report robot answers first, N other ids after it: each looked
    up in the spool."""
    path, size = to_mail(d, set_header(
        set_header(w.mail, b"In-Reply-To", b"<x@example.org>"),
        b"References", b"<202309221737.5eb1e5d1-lkp@intel.com> " +
        b" ".join(b"<r%d@example.org>" % i for i in range(n))))
    return (["reply", "-c", w.cfg, "--extract-patch", os.path.join(d, "out"),
             "--to", path], size, None)


def mk_lore(w, d, n):
    """A link whose archive answer is an mbox of n messages, gzipped."""
    lid = "lore%d.%d@example.org" % (n, time.time_ns())
    msgs = [followup(w, 0).replace(b"Subject: [PATCH]",
                                   b"Subject: [PATCH lore]")]
    msgs += [b"From: x <x@example.org>\nSubject: s %d\nMessage-ID: "
             b"<l%d@example.org>\n\nwords %d\n" % (i, i, i)
             for i in range(n)]
    raw = b"".join(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + m + b"\n"
                   for m in msgs)
    write(os.path.join(w.d, "archive", lid), gzip.compress(raw, 1))
    cfg = os.path.join(d, "robot.yaml")
    write(cfg, open(w.cfg).read().replace("../../", "%s/" % w.d) +
          "lore_url: http://127.0.0.1:%d/all/\nlore_cache: %s/cache\n"
          "lore_rate: 0\n" % (w.lore, d))
    path, _ = to_mail(d, followup(w, 1, b"Could you test my fix?\n\n"
                                  b"  https://lore.kernel.org/r/" +
                                  lid.encode() + b"\n"))
    return (["reply", "-c", cfg, "--extract-patch", os.path.join(d, "out"),
             "--to", path], len(raw), None)


PATCH = (b"From: Alice Developer <alice@example.org>\n"
         b"Subject: [PATCH v2 1/2] mm/foo: add a fast path %s\n"
         b"Date: Mon, 10 Jun 2024 10:00:01 +0000\n"
         b"Message-ID: <patch.%s@example.org>\nReferences: %s\n\n"
         b"A fast path.\n\n---\n"
         b"diff --git a/mm/foo.c b/mm/foo.c\n--- a/mm/foo.c\n"
         b"+++ b/mm/foo.c\n@@ -1,2 +1,2 @@\n int a;\n-int b;\n+int c;\n")


def thread_case(w, d, answer):
    """robot thread on a commit of --commits whose search (subject and
    author) the archive answers with `answer`."""
    tok = "t%d" % time.time_ns()
    write(os.path.join(w.d, "archive", "q=" + tok), answer(tok.encode()))
    meta = os.path.join(d, "commits.yaml")
    write(meta, 'commits:\n- id: %s\n  subject: "mm/foo: add a fast path '
          '%s"\n  author: "Alice Developer <alice@example.org>"\n'
          '  author_date: "2024-06-10 10:00:01 +0000"\n' % (SHA[0], tok))
    cfg = os.path.join(d, "robot.yaml")
    write(cfg, "spool: %s/spool\nlore_url: http://127.0.0.1:%d/all/\n"
          "lore_cache: %s/cache\nlore_rate: 0\nlore_cache_ttl: 0\n"
          % (d, w.lore, d))
    return ["thread", "-c", cfg, "--commits", meta, SHA[0]]


def mk_thread(w, d, n):
    """A search answered by an mbox of n replies to the patch and the
    patch itself, last, its References naming them all (where robot
    looks for its cover letter): every message a candidate robot looks
    at once."""
    size = [0]

    def answer(tok):
        raw = b"".join(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
                       b"From: Bob <bob%d@example.org>\nSubject: Re: [PATCH "
                       b"v2] mm/foo: add a fast path %s\nMessage-ID: "
                       b"<re%d.%s@example.org>\nIn-Reply-To: <patch.%s@"
                       b"example.org>\n\nLooks good.\n\n"
                       % (i, tok, i, tok, tok) for i in range(n))
        refs = b"\n ".join(b"<re%d.%s@example.org>" % (i, tok)
                           for i in range(n))
        raw += b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + PATCH % (
            tok, tok, refs)
        size[0] = len(raw)
        return gzip.compress(raw, 1)
    argv = thread_case(w, d, answer)
    return argv, size[0], None


def mk_thread_atom(w, d, n):
    """A search answered by an Atom feed of n entries, not the mbox robot
    asked for: refused (exit 1) in one pass."""
    size = [0]

    def answer(tok):
        raw = (b'<?xml version="1.0" encoding="us-ascii"?>\n<feed xmlns='
               b'"http://www.w3.org/2005/Atom">\n' + b"".join(
                   b"<entry><author><name>Bob</name><email>bob@example.org"
                   b"</email></author><title>Re: mm/foo %d %s</title>"
                   b"<id>urn:uuid:%d</id><content>x</content></entry>\n"
                   % (i, tok, i) for i in range(n)) + b"</feed>\n")
        size[0] = len(raw)
        return raw
    argv = thread_case(w, d, answer)
    return argv, size[0], None


def git_import(d, stream):
    """A repository at d/repo made by git fast-import from `stream`."""
    repo = os.path.join(d, "repo")
    subprocess.run(["git", "init", "-q", repo], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], input=stream,
                   cwd=repo, check=True)
    return repo


def thread_repo(w, d, repo):
    cfg = os.path.join(d, "robot.yaml")
    write(cfg, "spool: %s/spool\nlore_url: http://127.0.0.1:%d/all/\n"
          "lore_cache: %s/cache\nlore_rate: 0\nlore_cache_ttl: 0\n"
          % (d, w.lore, d))
    return ["thread", "-c", cfg, "--repo", repo, "main"]


def commit(mark, msg, files, parents=()):
    out = b"commit refs/heads/main\nmark :%d\nauthor A <a@example.org> " \
          b"1718013601 +0000\ncommitter A <a@example.org> 1718013601 " \
          b"+0000\ndata %d\n%s\n" % (mark, len(msg), msg)
    for k, p in enumerate(parents):
        out += b"%s :%d\n" % (b"from" if k == 0 else b"merge", p)
    for path, data in files:
        out += b"M 100644 inline %s\ndata %d\n%s\n" % (path, len(data),
                                                         data)
    return out


def mk_git_message(w, d, n):
    """robot thread --repo on a commit whose message is n lines of words
    and n trailers (none a link robot would follow)."""
    msg = (b"mm/foo: add a fast path\n\n" + b"".join(
        b"Words of line %d of a long commit message.\n" % i
        for i in range(n)) + b"\n" + b"".join(
        b"Reviewed-by: Person %d <p%d@example.org>\n" % (i, i)
        for i in range(n)))
    repo = git_import(d, commit(1, b"base\n", [(b"mm/foo.c", b"int a;\n")])
                      + commit(2, msg, [(b"mm/foo.c", b"int b;\n")], (1,)))
    return thread_repo(w, d, repo), len(msg), None


def git_object(repo, kind, data):
    """Writes a loose object into repo; its id."""
    import hashlib
    import zlib
    raw = b"%s %d\0" % (kind, len(data)) + data
    oid = hashlib.sha1(raw).hexdigest()
    path = os.path.join(repo, ".git", "objects", oid[:2], oid[2:])
    if not os.path.exists(path):
        write(path, zlib.compress(raw, 1))
    return oid


def mk_git_parents(w, d, n):
    """robot thread --repo on a merge of n parents (an octopus), each a
    root commit of the empty tree (written as loose objects: git would
    take milliseconds a commit)."""
    repo = os.path.join(d, "repo")
    subprocess.run(["git", "init", "-q", repo], check=True)
    tree = git_object(repo, b"tree", b"")
    who = b"A <a@example.org> 1718013601 +0000"
    roots = [git_object(repo, b"commit", b"tree %s\nauthor %s\ncommitter "
                        b"%s\n\nroot %d\n" % (tree.encode(), who, who, i))
             for i in range(n)]
    merge = git_object(repo, b"commit", b"tree %s\n%sauthor %s\ncommitter "
                       b"%s\n\nmm: merge them all\n" % (
                           tree.encode(), b"".join(b"parent %s\n" % r.encode()
                                                   for r in roots), who, who))
    write(os.path.join(repo, ".git", "refs", "heads", "main"), merge + "\n")
    return thread_repo(w, d, repo), n, None


def mk_plot(w, d, n):
    good, bad = os.path.join(d, "good"), os.path.join(d, "bad")
    size = write(good, "".join("%d.5\n" % (i % 977) for i in range(n)))
    size += write(bad, "".join("%d.25\n" % (i % 991 + 3) for i in range(n)))
    return ["plot", "--title", "x", good, bad], size, None


class Case:
    def __init__(self, name, make, n, per_unit, ok=(0,), unit="byte",
                 opens=None, instr=False):
        self.name, self.make, self.n = name, make, n
        self.per_unit, self.ok, self.unit = per_unit, ok, unit
        # the most spool messages robot may open a unit (strace counts)
        self.opens = opens
        # also count robot's instructions (callgrind): linear exactly
        self.instr = instr


# per_unit: the most memory a unit of input may cost, in bytes; generous
# against what bench/limits.sh measures (doc/limits.md has both)
CASES = [
    Case("compare: matrix.json, N stats", mk_matrix, 12000, 40),
    Case("compare: job.yaml, N keys", mk_job, 20000, 150),
    Case("compare: commits.yaml, N commits", mk_commits, 12000, 40),
    Case("compose: the request, a cc of N addresses", mk_request_cc, 3000,
         80),
    Case("compose: a dmesg of N lines (functional)", mk_dmesg, 40000, 16),
    Case("compose: a build log of N lines (build)", mk_buildlog, 40000, 16),
    Case("compose: a build log of N kept lines (build)", mk_findings,
         6000, 16),
    Case("compose: a build summary of N configs", mk_summary, 150, 16384,
         unit="config"),
    Case("compose: a mailed attachment of N bytes (base64)", mk_attachment,
         100000, 16),
    Case("config: N reply_allow entries (queue)", mk_config, 20000, 150),
    Case("send: N queued messages", mk_send_n, 60, 0, unit="message"),
    Case("send: a message of N lines", mk_send_big, 40000, 2),
    Case("queue --json: N messages", mk_queue_n, 60, 2048,
         unit="message"),
    Case("queue add: a message of N lines", mk_queue_add, 12000, 6),
    Case("queue --json: N sent messages, each with its state file",
         mk_queue_sent, 1000, 2048, unit="message", instr=True),
    Case("inbox: an mbox of N follow-ups", mk_mbox, 25, 0, unit="mail"),
    Case("inbox: a Maildir of N follow-ups", mk_maildir, 25, 0,
         unit="mail"),
    Case("inbox: a seen file of N ids", mk_seen, 20000, 200, unit="id"),
    Case("inbox: N new mails against a spool of 8N messages",
         mk_inbox_spool, 25, 4096, unit="mail", opens=SPOOL_PER_MAIL + 1),
    Case("reply --extract-patch: a diff of N lines", mk_diff, 20000, 16),
    Case("reply --extract-patch: N lines and no patch", mk_lines, 100000,
         16),
    Case("reply: a mail with N Cc addresses", mk_cc, 16000, 24),
    Case("reply: a mail with N References", mk_refs, 16000, 24),
    Case("reply: a mail with References folded over N lines", mk_folded,
         16000, 24),
    Case("reply --extract-patch: the report, then N References",
         mk_refs_first, 4000, 24),
    Case("reply --extract-patch: a lore answer of N messages", mk_lore, 800,
         16),
    Case("thread: a search answered by N messages", mk_thread, 700, 24),
    Case("thread: a search answered by an Atom feed of N entries",
         mk_thread_atom, 1200, 8, ok=(1,)),
    Case("thread --repo: a commit message of N lines and N trailers",
         mk_git_message, 4000, 24),
    Case("thread --repo: a merge of N parents", mk_git_parents, 300, 1024,
         unit="parent"),
    Case("plot: N values", mk_plot, 20000, 64),
]


def baseline(w):
    """CPU and RSS of robot doing nothing (its start-up)."""
    best = None
    for _ in range(3):
        rc, cpu, rss, _err = measure([w.robot, "--version"], w.d)
        best = cpu if best is None else min(best, cpu)
    return best


def one(w, case, scale, ratio, base):
    """(rows, problems): the two runs of `case`, and what broke."""
    rows, probs = [], []
    for k, n in enumerate((case.n * scale, case.n * scale * ratio)):
        d = w.scratch(re.sub(r"\W+", "-", case.name)[:40] + str(k))
        argv, units, env = case.make(w, d, n)
        rc, cpu, rss, err = measure([w.robot] + argv, w.d, env)
        rows.append((n, units, rc, cpu, rss))
        if rc not in case.ok:
            probs.append("N=%d: exit %d: %s" % (n, rc, err.strip()[:300]))
    (n1, u1, _r1, c1, m1), (n2, u2, _r2, c2, m2) = rows
    r = u2 / float(u1)
    t1, t2 = max(c1 - base, 0.0), max(c2 - base, 0.0)
    if t2 > SLACK * r * t1 + LIN_FLOOR:
        probs.append("time not linear: %.3f s for %d units, %.3f s for %d "
                     "(x%.1f for x%.1f)" % (c1, u1, c2, u2,
                                            t2 / max(t1, 1e-3), r))
    slope = (m2 - m1) / float(u2 - u1)
    if m2 - m1 > case.per_unit * (u2 - u1) + MEM_NOISE:
        probs.append("memory: %.1f MB -> %.1f MB, %.0f bytes a %s (bound "
                     "%d)" % (m1 / 1e6, m2 / 1e6, slope, case.unit,
                              case.per_unit))
    return rows, slope, probs


SPOOL_EML = re.compile(r'openat\(.*/spool/(new|sent|failed|hold)/[^/"]*'
                       r'\.eml", [^)]*\) = \d')


def can_strace():
    try:
        return subprocess.run(["strace", "-o", "/dev/null", "true"],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def spool_opens(w, make, n):
    """(exit code, units, how many times robot opened a message file of
    the spool) for make's input of size n, under strace."""
    d = w.scratch("spool-opens")
    argv, units, env = make(w, d, n)
    log = os.path.join(d, "strace.log")
    e = dict(os.environ, TZ="UTC", LC_ALL="C", **(env or {}))
    e.pop("ROBOT_TEST_CRASH", None)
    # LeakSanitizer cannot run under ptrace (an ASan build's robot)
    e["ASAN_OPTIONS"] = ":".join(filter(None, (
        os.environ.get("ASAN_OPTIONS"), "detect_leaks=0")))
    rc = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o",
                         log, w.robot] + argv, cwd=w.d, env=e,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode
    with open(log, errors="replace") as f:
        opens = sum(1 for line in f if SPOOL_EML.search(line))
    shutil.rmtree(d, ignore_errors=True)
    return rc, units, opens


def opens_check(w, case, sizes):
    """(rows, problems): the spool messages opened at each size against
    the case's bound (a look-up that lists the spool once a mail opens
    each message once a mail: quadratic)."""
    rows, probs = [], []
    for n in sizes:
        rc, units, opens = spool_opens(w, case.make, n)
        bound = case.opens * units + 1
        rows.append((units, opens, bound))
        if rc not in case.ok:
            probs.append("N=%d under strace: exit %d" % (n, rc))
        if opens > bound:
            probs.append("%d spool messages opened for %d %ss (at most "
                         "%d)" % (opens, units, case.unit, bound))
    return rows, probs


INSTR_SLACK = 1.25


def instructions(w, argv, cwd, env=None):
    """(exit code, instructions robot ran): callgrind's count, the same
    from run to run whatever the machine's load; None when valgrind
    cannot run robot (not installed, an ASan build)."""
    if not shutil.which("valgrind"):
        return None
    out = os.path.join(cwd, "callgrind.out")
    e = dict(os.environ, TZ="UTC", LC_ALL="C", **(env or {}))
    e.pop("ROBOT_TEST_CRASH", None)
    rc = subprocess.run(["valgrind", "--tool=callgrind", "-q",
                         "--callgrind-out-file=" + out, w.robot] + argv,
                        cwd=cwd, env=e, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode
    try:
        with open(out) as f:
            got = re.search(r"(?m)^(?:summary|totals): (\d+)", f.read())
    except OSError:
        return None
    return (rc, int(got.group(1))) if got else None


def instr_check(w, case, sizes):
    """(rows, problems), or None when callgrind cannot count: robot's
    instructions above its start-up at two sizes, the larger at most
    INSTR_SLACK times the units' ratio the smaller's (a step quadratic
    in the input makes the ratio grow with N)."""
    base = instructions(w, ["--version"], w.d)
    if not base or base[0]:
        return None
    rows, probs = [], []
    for n in sizes:
        d = w.scratch("instr")
        argv, units, env = case.make(w, d, n)
        got = instructions(w, argv, w.d, env)
        shutil.rmtree(d, ignore_errors=True)
        if not got:
            return None
        if got[0] not in case.ok:
            probs.append("N=%d under callgrind: exit %d" % (n, got[0]))
        rows.append((units, got[1] - base[1]))
    (u1, i1), (u2, i2) = rows
    if i2 > INSTR_SLACK * i1 * u2 / u1:
        probs.append("instructions not linear: %d for %d %ss, %d for %d "
                     "(x%.2f for x%.1f, at most x%.2f)" % (
                         i1, u1, case.unit, i2, u2, i2 / float(i1),
                         u2 / float(u1), INSTR_SLACK * u2 / u1))
    return rows, probs


def family_bounds():
    """Family 6 of tests/torture/run: one check a case."""
    from kit import T, Family, check, skip, procs, ROBOT
    fam = Family("resource bounds")
    t0 = time.time()
    measurer(T)
    w = World(os.path.join(T, "bounds"), ROBOT, procs)
    base = baseline(w)
    print("# inputs made in %.1f s; robot's start-up: %.3f s CPU" %
          (time.time() - t0, base))
    for case in CASES:
        fam.tried += 1
        rows, slope, probs = one(w, case, 1, RATIO, base)
        (n1, u1, _, c1, m1), (n2, u2, _, c2, m2) = rows
        check(fam, "%s: %d and %d %ss, %.2f s and %.2f s CPU, %.0f bytes "
              "of memory a %s (at most %d)" % (
                  case.name, u1, u2, case.unit, c1, c2, slope, case.unit,
                  case.per_unit), not probs, "\n".join(probs))
        if case.instr:
            fam.tried += 1
            desc = "%s: instructions" % case.name
            got = instr_check(w, case, (case.n, case.n * RATIO))
            if not got:
                skip(fam, desc, "valgrind cannot run robot here")
            else:
                check(fam, "%s: %s" % (desc, ", ".join(
                    "%d for %d %ss" % (i, u, case.unit)
                    for u, i in got[0])), not got[1], "\n".join(got[1]))
        if not case.opens:
            continue
        fam.tried += 1
        desc = "%s: spool messages opened" % case.name
        if not can_strace():
            skip(fam, desc, "strace cannot trace here")
            continue
        rows, probs = opens_check(w, case, (case.n, case.n * RATIO))
        check(fam, "%s: %s" % (desc, ", ".join(
            "%d for %d %ss (at most %d)" % (o, u, case.unit, b)
            for u, o, b in rows)), not probs, "\n".join(probs))
    return fam


# ---- at the limits themselves (bench/limits.sh section 5) ----------------------
#
# Each input at its limit (just under: composed, its peak RSS against the
# figure doc/limits.md gives) and just over it (one robot: error: line
# with the words the case names).  Too large for make torture.

def warnings(n, tag=b"x"):
    pad = b"y" * 3960
    return b"".join(b"drivers/%s.c:%d:1: warning: %s\n" % (tag, i, pad)
                    for i in range(n))


KEPT = 8 << 20


def lim_build(w, d, over):
    """build.log and base.log each just under 8 MiB of kept lines, or
    build.log one line over."""
    bd = os.path.join(w.d, "bd", "build")
    for f in ("build.log", "base.log"):
        if not os.path.exists(os.path.join(bd, f + ".orig")):
            shutil.copy(os.path.join(bd, f), os.path.join(bd, f + ".orig"))
    n = KEPT // 4000 - 3
    write(os.path.join(bd, "build.log"), warnings(n + 10 * over) + open(
        os.path.join(bd, "build.log.orig"), "rb").read())
    write(os.path.join(bd, "base.log"), warnings(n, b"base"))
    return (["compose", "--dry-run", "-c", os.path.join(w.d, "bd",
                                                        "robot.yaml"),
             os.path.join(w.d, "bd", "request.yaml")],
            2 * os.path.getsize(os.path.join(bd, "base.log")), None)


def lim_summary(w, d, over):
    """Three configs of findings of their own: 8 MiB in all, less a few
    lines, or a few more."""
    argv, _n, _e = mk_summary(w, d, 3)
    n = KEPT // 3 // 4000 - 2 + 10 * over
    for i in range(3):
        with open(os.path.join(d, "b", "cfg%d" % i, "build.log"), "ab") as f:
            f.write(warnings(n, b"c%d" % i))
    return argv, 3 * n * 4000, None


def lim_attachment(w, d, over):
    argv, size, env = mk_attachment(w, d, (64 << 20) + over)
    return argv, size, env


def lim_send(w, d, over):
    """A message of 256 MiB less 4 kB, queued, sent to a sink."""
    cfg = os.path.join(d, "robot.yaml")
    os.makedirs(os.path.join(d, "spool"))
    write(cfg, "spool: spool\nsmtp_url: smtp://127.0.0.1:%d/bounds\n"
          "smtp_starttls: opportunistic\nsmtp_timeout: 120\n" % big_sink(w))
    f = os.path.join(d, "big.eml")
    head = eml(0, b"")
    line = b"%075d\n" % 0
    n = ((256 << 20) - len(head) - 4096) // len(line) + over * 100
    with open(f, "wb") as fh:
        fh.write(head)
        for _ in range(n // 1024):
            fh.write(line * 1024)
        fh.write(line * (n % 1024))
    if over:
        return ["queue", "-c", cfg, "add", f], os.path.getsize(f), None
    w.run(["queue", "-c", cfg, "add", f])
    return ["send", "-c", cfg], os.path.getsize(f), None


def lim_lore(w, d, over):
    """A search answered by lore_max_bytes (8 MiB) of messages, unpacked."""
    size = [0]

    def answer(tok):
        one = (b"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Bob <bob@"
               b"example.org>\nSubject: Re: [PATCH v2] mm/foo: add a fast "
               b"path %s\nMessage-ID: <re%%d.%s@example.org>\n\nok\n\n"
               % (tok, tok))
        raw, i = [], 0
        total = 0
        while total < (8 << 20) - 2048 + over * 4096:
            m = one % i
            raw.append(m)
            total += len(m)
            i += 1
        raw = b"".join(raw) + b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" \
            + PATCH % (tok, tok, b"<re0.%s@example.org>" % tok)
        raw = raw[:(8 << 20) + over * 4096] if over else raw
        size[0] = len(raw)
        return gzip.compress(raw, 1)
    argv = thread_case(w, d, answer)
    return argv, size[0], None


# name, maker, (exit just under, MB at most), (exit just over, words)
LIMITS = [
    ("build: build.log and base.log, 8 MiB kept each", lim_build, (0, 110),
     (65, "more than 8 MiB of compiler output kept")),
    ("build-summary: 8 MiB kept in all, 3 configs", lim_summary, (0, 110),
     (65, "more than 8 MiB of findings and ids")),
    ("compose: a mailed attachment of 64 MiB", lim_attachment, (0, 450),
     (65, "64 MiB")),
    ("send: a message of 256 MiB", lim_send, (0, 300), (65, "256 MiB")),
    ("thread: a search answer of lore_max_bytes", lim_lore, (0, 100),
     (1, "lore_max_bytes")),
]


def at_limits(w, names):
    """Section 5 of bench/limits.sh: one line a case; 1 when one fails."""
    bad = 0
    print("   %-48s %9s %5s %7s %8s %6s  %s" % (
        "input", "bytes", "exit", "CPU", "RSS MB", "bound", "verdict"))
    for name, make, (rc0, mb), (rc1, words) in LIMITS:
        if names and not any(c in name for c in names):
            continue
        for over in (0, 1):
            d = w.scratch(re.sub(r"\W+", "-", name)[:40] + str(over))
            argv, size, env = make(w, d, over)
            rc, cpu, rss, err = measure([w.robot] + argv, w.d, env)
            errs = [l for l in err.splitlines() if l.startswith("robot: ")]
            if over:
                ok = rc == rc1 and len(errs) == 1 and words in errs[0]
                verdict = "ok" if ok else "exit %d, want %d with '%s': %s" % (
                    rc, rc1, words, err.strip()[:200])
            else:
                ok = rc == rc0 and rss <= mb * 1e6
                verdict = "ok" if ok else "exit %d (want %d), %.0f MB: %s" % (
                    rc, rc0, rss / 1e6, err.strip()[:200])
            bad += not ok
            print("   %-48s %9d %5d %6.2fs %8.1f %6s  %s" % (
                name + (" (+ over)" if over else ""), size, rc, cpu,
                rss / 1e6, "-" if over else mb, verdict))
            sys.stdout.flush()
            shutil.rmtree(d, ignore_errors=True)
    return 1 if bad else 0


# ---- robot inbox against a large spool (bench/limits.sh section 6) ------------

def inbox_spool(w, m, sizes):
    """Section 6 of bench/limits.sh: robot inbox with each number of new
    mails of `sizes` against a spool of m + 1 messages (its folders an
    hour old): CPU, peak RSS, the CPU each mail more costs, and (strace)
    the spool's messages opened, each at most once; 1 when a run fails
    or opens more."""
    bad = 0
    traced = can_strace()
    print("   a spool of %d messages: new mails %12s %7s %8s %12s %8s  %s" % (
        m + 1, "exit", "CPU", "RSS MB", "CPU a mail", "opened", "verdict"))
    prev = None

    def make(w_, d_, n_):
        return inbox_against(w_, d_, n_, m, aged=True)
    for n in sizes:
        d = w.scratch("inbox-spool-%d" % n)
        argv, _u, env = make(w, d, n)
        rc, cpu, rss, err = measure([w.robot] + argv, w.d, env)
        shutil.rmtree(d, ignore_errors=True)
        opens = "-"
        ok = rc == 0
        if traced:
            rc2, _u, k = spool_opens(w, make, n)
            opens = "%d" % k
            ok = ok and rc2 == 0 and k <= m + 1
        bad += not ok
        # what each mail more costs, against the row before
        per = "%.4fs" % ((cpu - prev[1]) / (n - prev[0])) if prev else "-"
        prev = (n, cpu)
        print("   %-45d %5d %6.2fs %8.1f %12s %8s  %s" % (
            n, rc, cpu, rss / 1e6, per, opens,
            "ok" if ok else "exit %d, %s opened: %s" % (rc, opens,
                                                        err.strip()[:200])))
        sys.stdout.flush()
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--ratio", type=int, default=RATIO)
    ap.add_argument("--robot", default=os.path.join(TOP, "build", "robot"))
    ap.add_argument("--at-limits", action="store_true",
                    help="each input at its limit and just over it")
    ap.add_argument("--inbox-spool", type=int, metavar="M",
                    help="robot inbox against a spool of M messages")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    procs = []
    d = tempfile.mkdtemp(prefix="robot-bounds.")
    bad = 0
    try:
        t0 = time.time()
        measurer(d)
        w = World(d, a.robot, procs)
        if a.at_limits:
            return at_limits(w, a.cases)
        if a.inbox_spool:
            return inbox_spool(w, a.inbox_spool,
                               [int(c) for c in a.cases] or [0, 100, 400])
        base = baseline(w)
        print("   (the inputs' world: %.1f s)" % (time.time() - t0))
        print("   %-52s %9s %9s %7s %7s %8s %8s %9s  %s" % (
            "input", "N", "units", "CPU", "CPU", "RSS MB", "RSS MB",
            "B/unit", "verdict"))
        for case in CASES:
            if a.cases and not any(c in case.name for c in a.cases):
                continue
            t0 = time.time()
            rows, slope, probs = one(w, case, a.scale, a.ratio, base)
            if case.opens and can_strace():
                orows, oprobs = opens_check(w, case, (
                    case.n * a.scale, case.n * a.scale * a.ratio))
                probs += oprobs
                print("   %-52s spool messages opened: %s" % ("", ", ".join(
                    "%d for %d %ss" % (o, u, case.unit)
                    for u, o, _b in orows)))
            if case.instr:
                got = instr_check(w, case, (case.n * a.scale,
                                            case.n * a.scale * a.ratio))
                probs += got[1] if got else []
                print("   %-52s instructions: %s" % ("", ", ".join(
                    "%d for %d %ss" % (i, u, case.unit) for u, i in got[0])
                    if got else "(valgrind cannot run robot)"))
            took = time.time() - t0
            bad += bool(probs)
            (n1, u1, _, c1, m1), (n2, u2, _, c2, m2) = rows
            print("   %-52s %9d %9d %6.2fs %6.2fs %8.1f %8.1f %9.1f  %s "
                  "(%.0f s)" % (case.name, n2, u2, c1, c2, m1 / 1e6,
                                m2 / 1e6, slope, "ok" if not probs else
                                "; ".join(probs), took))
            sys.stdout.flush()
    finally:
        for p in procs:
            p.terminate()
            p.wait()
        shutil.rmtree(d, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
