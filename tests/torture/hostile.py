# SPDX-License-Identifier: GPL-2.0-only
"""tests/torture/hostile.py: family 5 of tests/torture/run, hostile
follow-ups to `robot inbox`, `robot reply --extract-patch` and `robot
reply` (doc/delivery.md, "What the torture suite checks").

The cases t7310 and t7320 hold (a 400-character Message-ID, FIFOs, one
path of each kind that leaves the tree) are not repeated here; this
family drives them in bulk, through one Maildir, with what robot must do
with each mail, and checks what no single test can: across all of them,
nothing written outside the requests folder, nothing queued, no
connection to a server robot was not told to ask, no raw control byte on
the operator's terminal.
"""
import base64
import email
import email.policy
import email.utils
import os
import random
import re
import shutil
import subprocess

from kit import (LONG, PY, SEED, T, TOP, Family, check, procs, run,
                 wait_file)

# what reply_allow (tests/reply/data/robot.yaml) and its cc let robot write to
ALLOWED = re.compile(r"(@(.+\.)?(example\.org|kernel\.org|"
                     r"linux-foundation\.org)|^oe-lkp@lists\.linux\.dev|"
                     r"^lkp@intel\.com)$", re.I)
CTRL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")
REPORT = b"<202309221737.5eb1e5d1-lkp@intel.com>"


def start(name, *args):
    pf = os.path.join(T, name + ".port")
    log = os.path.join(T, name + ".log")
    open(log, "w").close()
    p = subprocess.Popen([PY, os.path.join(TOP, "tests", "torture",
                                           "lore.py")] + list(args) +
                         ["--port-file", pf, "--log", log],
                         stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(T, name + ".err"), "w"))
    procs.append(p)
    if not wait_file(pf):
        raise SystemExit("lore.py %s did not start" % name)
    return int(open(pf).read()), log


def sethdr(data, name, value):
    """The mail with header `name` (bytes) set to value (added if absent)."""
    head, body = data.split(b"\n\n", 1)
    out, done, skip = [], False, False
    for line in head.split(b"\n"):
        if skip and line[:1] in (b" ", b"\t"):
            continue
        skip = False
        if not done and line.lower().startswith(name.lower() + b":"):
            out.append(name + b": " + value)
            done = skip = True
            continue
        out.append(line)
    if not done:
        out.append(name + b": " + value)
    return b"\n".join(out) + b"\n\n" + body


def delhdr(data, name):
    """The mail without header `name` (bytes), its folded lines too."""
    head, body = data.split(b"\n\n", 1)
    out, skip = [], False
    for line in head.split(b"\n"):
        if skip and line[:1] in (b" ", b"\t"):
            continue
        skip = line.lower().startswith(name.lower() + b":")
        if not skip:
            out.append(line)
    return b"\n".join(out) + b"\n\n" + body


def setbody(data, body):
    return data.split(b"\n\n", 1)[0] + b"\n\n" + body


class Mails:
    """The follow-ups of tests/reply, taken apart to build hostile ones."""

    def __init__(self, w):
        src = os.path.join(w, "reply")
        self.inline = open(os.path.join(src, "0001-inline-patch",
                                        "mail.eml"), "rb").read()
        self.att = open(os.path.join(src, "0002-attached-patch",
                                     "mail.eml"), "rb").read()
        self.nopatch = open(os.path.join(src, "0008-no-patch", "mail.eml"),
                            "rb").read()
        self.body = self.inline.split(b"\n\n", 1)[1]
        m = re.search(rb"base64\n\n(.*?)--=-=-=--", self.att, re.S)
        self.fpatch = base64.b64decode(m.group(1))
        self.diff = self.fpatch[self.fpatch.index(b"diff --git"):]

    def attached(self, disp, data=None, ctype=b"text/x-patch; charset=utf-8",
                 enc=None):
        """The attached-patch mail with its part's disposition `disp`,
        holding `data` (default: the format-patch file) in base64 or as
        `enc` (already encoded: (name, bytes))."""
        head = self.att[:self.att.index(b"Content-Type: text/x-patch")]
        cte, text = enc or (b"base64", base64.encodebytes(
            self.fpatch if data is None else data))
        return (head + b"Content-Type: " + ctype +
                b"\nContent-Disposition: attachment;\n " + disp +
                b"\nContent-Transfer-Encoding: " + cte + b"\n\n" + text +
                b"\n--=-=-=--\n")

    def diff_paths(self, old, new, lines=b""):
        """The inline patch with its file named old and new (as written in
        the diff's header lines), `lines` after the diff --git line."""
        b = self.body.replace(
            b"diff --git a/arch/x86/lib/clear_page_64.S "
            b"b/arch/x86/lib/clear_page_64.S",
            b"diff --git " + old + b" " + new + lines)
        b = b.replace(b"--- a/arch/x86/lib/clear_page_64.S", b"--- " + old)
        b = b.replace(b"+++ b/arch/x86/lib/clear_page_64.S", b"+++ " + new)
        return setbody(self.inline, b)

    def before_diff(self, extra):
        """The inline patch with a file's diff header `extra` before it."""
        return setbody(self.inline, self.body.replace(
            b"diff --git a/arch", extra + b"diff --git a/arch", 1))


def nested(depth, kind):
    """A body of `depth` levels: multiparts, or attached messages."""
    out = b""
    for i in range(depth):
        if kind == "multipart":
            out += (b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n"
                    % (i, i))
        else:
            out += b"Content-Type: message/rfc822\n\nSubject: level %d\n" % i
    return out + b"\nx\n"


def mail_cases(m, outside, answer_id):
    """(name, the mail's bytes, want) for robot inbox: want "refuse" (one
    line, not answered or skipped or an error; no request), "answer" (one
    line, a request whose files are clean) or "contained" (one line;
    answered or not, nothing outside).  Their Message-IDs are set after."""
    good = b"Dev <dev@example.org>"
    i, a = m.inline, m.attached
    ew = b"=?utf-8?q?x=0D=0AFrom:_eve@evil.invalid=0A=0Ay.patch?="
    qp_patch = m.fpatch.replace(b"=", b"=3D")
    cases = [
        # loops, and who may ask
        ("a sender outside reply_allow",
         sethdr(i, b"From", b"Eve <eve@evil.invalid>"), "refuse"),
        ("robot's own From", sethdr(i, b"From", b"kernel test robot "
                                    b"<lkp@intel.com>"), "refuse"),
        ("Auto-Submitted: auto-generated",
         sethdr(i, b"Auto-Submitted", b"auto-generated"), "refuse"),
        ("Precedence: bulk", sethdr(i, b"Precedence", b"bulk"), "refuse"),
        ("Precedence: junk", sethdr(i, b"Precedence", b"junk"), "refuse"),
        ("a second From address outside reply_allow",
         sethdr(i, b"From", good + b", Eve <eve@evil.invalid>"), "refuse"),
        ("a Reply-To outside reply_allow",
         sethdr(i, b"Reply-To", b"<eve@evil.invalid>"), "refuse"),
        ("a Mail-Followup-To outside reply_allow",
         sethdr(i, b"Mail-Followup-To", good + b", <eve@evil.invalid>"),
         "refuse"),
        ("X-Loop naming robot", sethdr(i, b"X-Loop", b"lkp@intel.com"),
         "refuse"),
        ("From: MAILER-DAEMON", sethdr(i, b"From",
                                       b"MAILER-DAEMON@example.org"),
         "refuse"),
        ("Return-Path: <>", sethdr(i, b"Return-Path", b"<>"), "refuse"),
        ("Auto-Submitted with terminal escapes and 100 kB",
         sethdr(i, b"Auto-Submitted", b"auto-generated\r\x1b[2J\x1b]0;x\x07"
                + b"z" * 100000), "refuse"),
        # a Message-ID, a name, a path that leave DIR
        ("a Message-ID with ../",
         sethdr(i, b"Message-ID", b"<../../../../%s/mid@example.org>"
                % outside.encode()), "contained"),
        ("an attachment named ../", a(b'filename="../../../../%s/dd.patch"'
                                      % outside.encode()), "answer"),
        ("an attachment named with an absolute path",
         a(b'filename="%s/abs.patch"' % outside.encode()), "answer"),
        ("an attachment name with NUL (RFC 2231)",
         a(b"filename*=utf-8''evil%00.patch", m.diff), "answer"),
        ("an attachment name with NUL (encoded-word)",
         a(b'filename="=?utf-8?q?evil=00x.patch?="', m.diff), "answer"),
        ("an attachment name with CR LF and a From: line",
         a(b"filename=\"" + ew + b"\"", m.diff), "answer"),
        ("an attachment name with CR LF (RFC 2231)",
         a(b"filename*=utf-8''x%0D%0AFrom%3A%20eve%40evil.invalid%0A.patch",
           m.diff), "answer"),
        ("an attachment name with terminal escapes",
         a(b"filename*=utf-8''x%1B%5B2J%1B%5D0%3Bowned%07.patch", m.diff),
         "answer"),
        ("a diff whose new name leaves the tree",
         m.diff_paths(b"a/x", b"b/../../../%s/bside" % outside.encode()),
         "refuse"),
        ("a diff whose names git quoted leave the tree",
         m.diff_paths(b'"a/\\056\\056/\\056\\056/x"',
                      b'"b/\\056\\056/\\056\\056/x"'), "refuse"),
        ("a diff with an absolute path",
         m.diff_paths(b"a/x", b"b/x").replace(
             b"+++ b/x", b"+++ %s/abs" % outside.encode()), "refuse"),
        ("a new empty file outside the tree (no hunk)",
         m.before_diff(b"diff --git a/ok b/../../x\nnew file mode 100644\n"
                       b"index 0000000..e69de29\n"), "refuse"),
        ("a rename from outside the tree",
         m.before_diff(b"diff --git a/x b/y\nsimilarity index 100%\n"
                       b"rename from ../../etc/shadow\nrename to y\n"),
         "refuse"),
        ("a diff into .GIT", m.diff_paths(b"a/.GIT/hooks/pre-commit",
                                          b"b/.GIT/hooks/pre-commit"),
         "refuse"),
        ("a patch making a symbolic link",
         setbody(i, m.body.replace(b"index 1234567..89abcde 100644",
                                   b"old mode 100644\nnew mode 120000")),
         "refuse"),
        ("a patch Subject with terminal escapes and CR",
         setbody(i, m.body.replace(b"Subject: [PATCH]",
                                   b"Subject: [PATCH]\x1b[2J\r\xe2\x80\xae")),
         "answer"),
        ("a format-patch Subject with terminal escapes",
         a(b"filename=x.patch", m.fpatch.replace(
             b"Subject: [PATCH v2]", b"Subject: [PATCH v2]\r\x1b[2J")),
         "answer"),
        # MIME that is not what it says
        ("MIME nested 1,000 deep (multipart)",
         sethdr(sethdr(setbody(i, nested(1000, "multipart")),
                       b"MIME-Version", b"1.0"),
                b"Content-Type", b"multipart/mixed; boundary=top"),
         "refuse"),
        ("MIME nested 1,000 deep (attached messages)",
         sethdr(setbody(i, nested(1000, "message")), b"Content-Type",
                b"message/rfc822"), "refuse"),
        ("300 MIME parts", sethdr(setbody(i, b"".join(
            b"--p\nContent-Type: text/plain\n\npart %d\n" % k
            for k in range(300)) + b"--p--\n"), b"Content-Type",
            b"multipart/mixed; boundary=p"), "refuse"),
        ("base64 with characters base64 does not use",
         a(b"filename=x.patch", enc=(b"base64", base64.encodebytes(
             m.fpatch).replace(b"A", b"*"))), "refuse"),
        ("base64 cut off", a(b"filename=x.patch", enc=(
            b"base64", base64.encodebytes(m.fpatch)[:-7])), "refuse"),
        ("quoted-printable with =ZZ and a bare = at the end",
         a(b"filename=x.patch", enc=(b"quoted-printable",
                                     qp_patch.replace(b"SYM_", b"=ZZSYM_")
                                     + b"=")), "contained"),
        ("quoted-printable with =00 and =0D in the diff",
         a(b"filename=x.patch", enc=(b"quoted-printable", qp_patch.replace(
             b"+++ b/arch", b"+++ b/arch=00=0D/../../../x"))), "contained"),
        ("quoted-printable: one line of 1 MB",
         a(b"filename=x.patch", enc=(b"quoted-printable", qp_patch.replace(
             b"Use stosb", b"=\n".join([b"y" * 70] * 15000) + b"Use stosb"))),
         "contained"),
        ("an encoded-word Subject hiding CR LF Bcc:",
         sethdr(i, b"Subject", b"=?utf-8?q?Re:_x=0D=0ABcc:_eve@evil.invalid?="),
         "answer"),
        # a reply to robot's reply
        ("robot's own answer, back in its inbox", answer_id, "refuse"),
        ("robot's answer relayed by a list under the list's From",
         ("relay", answer_id), "refuse"),
        ("an auto-reply to robot's answer",
         ("autoreply", answer_id), "refuse"),
        ("a robot that answers without Auto-Submitted, quoting all",
         ("quoter", answer_id), "refuse"),
        ("a developer's new patch in answer to robot's answer",
         ("human", answer_id), "answer"),
        ("a developer's new patch in answer to robot's answer, no Date",
         ("human-nodate", answer_id), "answer"),
        # a Date is required by RFC 5322, yet a mail without one arrives
        # (robot's answer has its own date; it quotes "NAME wrote:")
        ("a follow-up without a Date header", delhdr(i, b"Date"), "answer"),
        ("an attached patch without a Date header",
         delhdr(a(b"filename=x.patch"), b"Date"), "answer"),
    ]
    return cases


def answer_mails(m, spool, answer_id):
    """The mails that answer robot's own answer (what mail_cases names
    by a tuple): built from the answer queued in the spool."""
    raw = None
    for f in sorted(os.listdir(os.path.join(spool, "new"))):
        data = open(os.path.join(spool, "new", f), "rb").read()
        if re.search(rb"^Message-ID: " + re.escape(answer_id), data, re.M):
            raw = data
    head = raw.split(b"\n\n", 1)[0]
    quoted = b"".join(b"> " + l + b"\n" for l in raw.split(b"\n"))
    reply = (b"Date: Wed, 27 Sep 2023 10:00:00 +0200\n"
             b"From: Dev <dev@example.org>\nTo: kernel test robot "
             b"<lkp@intel.com>\nSubject: Re: Re: x\nIn-Reply-To: " +
             answer_id + b"\nReferences: " + REPORT + b" " + answer_id +
             b"\nMessage-ID: <%s@example.org>\n")
    return {
        None: raw,
        "relay": sethdr(raw, b"From", b"kernel test robot via oe-lkp "
                        b"<oe-lkp@lists.linux.dev>"),
        "autoreply": reply % b"ooo" + b"Auto-Submitted: auto-replied\n\n"
        b"I am out of the office.\n",
        "quoter": reply % b"quoter" + b"\n" + quoted,
        "human": (reply % b"human").replace(b"Subject: Re: Re: x",
                                            b"Subject: Re: x") +
        b"\n" + m.body,
        "human-nodate": delhdr((reply % b"human-nodate").replace(
            b"Subject: Re: Re: x", b"Subject: Re: x") + b"\n" + m.body,
            b"Date"),
    }, head


def setup(fam):
    w = os.path.join(T, "fu")
    os.makedirs(w)
    shutil.copytree(os.path.join(TOP, "tests", "golden"),
                    os.path.join(w, "golden"))
    shutil.copytree(os.path.join(TOP, "tests", "reply"),
                    os.path.join(w, "reply"))
    subprocess.run([PY, os.path.join(w, "golden", "data", "make-rts"),
                    os.path.join(w, "golden", "data", "rt")], check=True,
                   stdout=subprocess.DEVNULL)
    return w


ENV = {"SOURCE_DATE_EPOCH": "1695695400"}


def request_with_root(w, tr, out):
    """test-request.yaml with make-rts' patched root after the report's."""
    lines, n = [], 0
    for line in open(tr):
        lines.append(line)
        if line.startswith("result_roots:"):
            n = 2
        elif n and line.startswith("- "):
            n -= 1
            if not n:
                lines.append('- "%s"\n' % os.path.join(
                    w, "golden", "data", "rt", "stress-ng@clear"))
    open(out, "w").write("".join(lines))


def answers(fam, w, cfg, m, req):
    """robot reply composing the answer to mails whose headers carry
    injections: either refused (65, one error line) or a mail whose
    every header is one robot means, to addresses robot may write to."""
    i = m.inline
    ew = b"=?utf-8?q?R=0D=0ABcc:_eve@evil.invalid?="
    cases = [
        ("Subject with a lone CR", sethdr(i, b"Subject",
                                          b"Re: x\rBcc: eve@evil.invalid")),
        ("Subject: an encoded-word with CR LF",
         sethdr(i, b"Subject", b"=?utf-8?q?Re:_x=0D=0ABcc:_eve@evil."
                b"invalid?=")),
        ("Subject: a base64 encoded-word with CR LF",
         sethdr(i, b"Subject", b"=?utf-8?b?" + base64.b64encode(
             b"Re: x\r\nBcc: eve@evil.invalid") + b"?=")),
        ("Subject: an encoded-word that decodes to one",
         sethdr(i, b"Subject", b"=?utf-8?q?=3D=3Futf-8=3Fq=3FBcc=3A_x"
                b"=3F=3D?=")),
        ("Subject with terminal escapes", sethdr(i, b"Subject",
                                                 b"Re: x\x1b[2J\x07 y")),
        ("Subject of 20 kB", sethdr(i, b"Subject", b"Re: " + b"x" * 20000)),
        ("From: a display name with CR LF",
         sethdr(i, b"From", ew + b" <rene.levesque@example.org>")),
        ("From: a quoted name with a lone CR",
         sethdr(i, b"From", b'"R\rBcc: eve@evil.invalid" '
                b"<rene.levesque@example.org>")),
        ("From: an address with a lone CR",
         sethdr(i, b"From", b"<rene.levesque@example.org\rBcc:eve@evil."
                b"invalid>")),
        ("Reply-To: a name with CR LF", sethdr(i, b"Reply-To", ew +
                                               b" <rene@example.org>")),
        ("Mail-Followup-To: a name with CR LF",
         sethdr(i, b"Mail-Followup-To", ew + b" <rene@example.org>")),
        ("Cc: a name with CR LF", sethdr(i, b"Cc", ew +
                                         b" <torvalds@linux-foundation.org>"
                                         b", eve@evil.invalid")),
        ("To: a name with a lone CR",
         sethdr(i, b"To", b'"robot\rBcc: eve@evil.invalid" <lkp@intel.com>')),
        ("References: an id with a lone CR",
         sethdr(i, b"References", REPORT + b" <a@b\rBcc: eve@evil.invalid>")),
        ("References: an encoded-word id",
         sethdr(i, b"References", REPORT + b" <=?utf-8?q?a=0D=0ABcc:x?=@b>")),
        ("References: 5,000 ids", sethdr(i, b"References", b" ".join(
            b"<r%d@example.org>" % k for k in range(5000)) + b" " + REPORT)),
        ("References: ids with blanks, two @ and escapes",
         sethdr(i, b"References", REPORT + b" <a b@c> <x@y@z> <\x1b[2J@e>")),
        ("Date with a lone CR", sethdr(i, b"Date", b"Mon, 25 Sep 2023 "
                                       b"09:12:44 +0200\rBcc: x@y")),
        ("their text with bare CRs and a lone dot",
         setbody(i, m.body.replace(b"Thanks for the report.",
                                   b"Thanks\r.\rMAIL FROM:<x@y>\r\n.\r\n"))),
    ]
    fam.tried += len(cases)
    spool_new = os.path.join(w, "spool", "new")
    for k, (name, data) in enumerate(cases):
        f = os.path.join(w, "ans%d.eml" % k)
        open(f, "wb").write(data)
        before = len(os.listdir(spool_new))
        rc, out, err, _ = run(["reply", "-c", cfg, "--dry-run", "--to", f,
                               req], env=ENV, timeout=60)
        queued = len(os.listdir(spool_new)) - before
        raw = out.encode("latin-1")
        if rc == 0 and not out:
            check(fam, "answer, %s: not answered, one line, nothing queued"
                  % name, err.count("\n") == 1 and
                  ": not answered: " in err and not queued and
                  not CTRL.search(err.encode("latin-1")), err)
            continue
        if rc == 65:
            check(fam, "answer, %s: refused, one error line, nothing queued"
                  % name, err.count("\n") == 1 and
                  err.startswith("robot: error: ") and not out and
                  not queued and not CTRL.search(err.encode("latin-1")),
                  err)
            continue
        bad = []
        if rc != 0 or queued:
            bad.append("exit %s, %d queued" % (rc, queued))
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        head = raw.split(b"\n\n", 1)[0] + b"\n"
        names = [h.split(b":", 1)[0] for h in re.findall(
            rb"^[^ \t\n][^\n]*", head, re.M)]
        for h in (b"To", b"Subject", b"In-Reply-To", b"Message-ID", b"From",
                  b"Date", b"Auto-Submitted"):
            if names.count(h) != 1:
                bad.append("%d %s headers" % (names.count(h), h.decode()))
        known = {b"Date", b"From", b"To", b"Cc", b"Subject", b"Message-ID",
                 b"References", b"In-Reply-To", b"Auto-Submitted",
                 b"MIME-Version", b"Content-Type", b"Content-Disposition",
                 b"Content-Transfer-Encoding"}
        bad += ["header %r" % n for n in names if n not in known]
        if b"\r" in raw:
            bad.append("a CR in the mail")
        for h in ("To", "Cc"):
            for _n, addr in email.utils.getaddresses(msg.get_all(h) or []):
                if not ALLOWED.search(addr):
                    bad.append("%s: %s" % (h, addr))
        if msg.get("In-Reply-To") != "<87zg1a2b3c.fsf@rene.example.org>":
            bad.append("In-Reply-To %r" % msg.get("In-Reply-To"))
        check(fam, "answer, %s: refused, or every header one robot means, to "
              "addresses it may write to" % name, not bad,
              "; ".join(bad) + "\n" + err + out[:1500])


def tree(top):
    out = set()
    for root, _d, fs in os.walk(top):
        for f in fs:
            out.add(os.path.join(root, f))
    return out


def git_paths(mbox):
    """The files `git apply` would touch for mbox (its --numstat -z), or
    None when git cannot read it."""
    p = subprocess.run(["git", "apply", "--numstat", "-z", mbox],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode:
        return None
    return [f.split(b"\t")[-1] for f in p.stdout.split(b"\0") if f]


def random_mails(m, n, r):
    """n mails of random MIME shapes, names and encodings (seeded)."""
    names = [b"../x.patch", b"/etc/x.patch", b"a\x00b.patch", b"x\r\ny.diff",
             b"=?utf-8?q?=0A=1B?=.patch", b"\xe2\x80\xaeevil.patch",
             b'"q".patch', b"x" * 300 + b".patch", b".patch", b""]
    out = []
    for k in range(n):
        parts, depth = [], r.randint(0, 24)
        for j in range(r.randint(1, 6)):
            data = r.choice([m.fpatch, m.diff, b"hello\n", bytes(
                r.getrandbits(8) for _ in range(r.randint(0, 400)))])
            enc = r.choice(["base64", "base64-bad", "base64-cut", "qp",
                            "qp-bad", "8bit"])
            if enc.startswith("base64"):
                text = base64.encodebytes(data)
                if enc == "base64-bad":
                    text = text.replace(b"A", b"!")
                elif enc == "base64-cut":
                    text = text[:max(0, len(text) - r.randint(1, 9))]
                cte = b"base64"
            elif enc.startswith("qp"):
                text = data.replace(b"=", b"=3D")
                if enc == "qp-bad":
                    text = text.replace(b"e", b"=Ze", 3) + b"="
                cte = b"quoted-printable"
            else:
                text, cte = data, b"8bit"
            name = r.choice(names)
            parts.append(b"Content-Type: " + r.choice(
                [b"text/x-patch", b"text/plain", b"application/x-patch",
                 b"application/octet-stream", b"text/plain; charset=utf-16",
                 b"multipart/mixed"]) + b"\nContent-Disposition: attachment;"
                b" filename=\"" + name + b"\"\nContent-Transfer-Encoding: "
                + cte + b"\n\n" + text)
        body = b"".join(b"--r%d\n" % k + p + b"\n" for p in parts)
        body += b"--r%d--\n" % k
        for d in range(depth):
            body = (b"--n%d\nContent-Type: multipart/mixed; boundary=r%d\n\n"
                    % (d, k) + body + b"--n%d--\n" % d) if d == 0 else (
                b"--n%d\nContent-Type: multipart/mixed; boundary=n%d\n\n"
                % (d, d - 1) + body + b"--n%d--\n" % d)
        top = b"n%d" % (depth - 1) if depth else b"r%d" % k
        mail = sethdr(sethdr(setbody(m.inline, body), b"MIME-Version",
                             b"1.0"), b"Content-Type",
                      b"multipart/mixed; boundary=" + top)
        out.append(("random mail %d (depth %d, %d parts)" % (k, depth,
                                                             len(parts)),
                    mail))
    return out


def family_followups():
    fam = Family("hostile follow-ups")
    w = setup(fam)
    outside = os.path.join(T, "outside")
    os.makedirs(outside)
    cfgfile = os.path.join(w, "reply", "data", "torture.yaml")
    evil_port, evil_log = start("evil", "listen")
    lore_dir = os.path.join(T, "archive")
    os.makedirs(lore_dir)
    lore_port, lore_log = start("lore", "archive", "--dir", lore_dir,
                                "--away", "http://127.0.0.1:%d" % evil_port)
    with open(cfgfile, "w") as f:
        f.write(open(os.path.join(w, "reply", "data", "robot.yaml")).read())
        f.write("lore_url: http://127.0.0.1:%d/all/\nlore_cache: ../../"
                "lore-cache\nlore_rate: 0\nlore_timeout: 5\n" % lore_port)
    cfg = "fu/reply/data/torture.yaml"
    run(["compose", "-c", cfg, "fu/reply/data/report.yaml"], env=ENV)
    m = Mails(w)
    # robot's own answer, queued: what a reply to a reply answers
    rc, out, err, _ = run(["reply", "-c", cfg, "--extract-patch", "fu/x0",
                           "--to", "fu/reply/0001-inline-patch/mail.eml"],
                          env=ENV)
    req = os.path.join(w, "x0", "request.yaml")
    request_with_root(w, os.path.join(w, "x0", "test-request.yaml"), req)
    rc, out, err, _ = run(["reply", "-c", cfg, "--to",
                           "fu/reply/0001-inline-patch/mail.eml", req],
                          env=ENV)
    answer_id = out.strip().encode()
    check(fam, "robot's answer to the inline patch is queued (%s)" %
          out.strip(), rc == 0 and answer_id.startswith(b"<"), err)
    answers(fam, w, cfg, m, req)

    built, head = answer_mails(m, os.path.join(w, "spool"), answer_id)
    cases = []
    for n, (name, data, want) in enumerate(mail_cases(m, outside,
                                                      answer_id)):
        if isinstance(data, tuple):
            data = built[data[0]]
        elif data is answer_id:
            data = built[None]
        elif not name.startswith("a Message-ID"):
            data = sethdr(data, b"Message-ID", b"<h%d@example.org>" % n)
        cases.append((name, data, want))
    # lore links: to another server, a redirect there, one on lore's own
    fixed = setbody(m.inline, m.body.replace(b"Subject: [PATCH]",
                                             b"Subject: [PATCH linked]"))
    open(os.path.join(lore_dir, "fix-7@example.org"), "wb").write(
        b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" +
        sethdr(fixed, b"Message-ID", b"<fix-7@example.org>"))
    links = [
        ("a link to another server (must not be asked)",
         b"http://127.0.0.1:%d/all/fix-7@example.org/" % evil_port,
         "refuse"),
        ("a lore link the archive redirects to another server",
         b"https://lore.kernel.org/r/away-1@example.org", "refuse"),
        ("a link under lore_url the archive redirects on its own server",
         b"http://127.0.0.1:%d/all/hopfix-7@example.org/" % lore_port,
         "answer"),
    ]
    # a mail of 40 links to messages without a patch: 8 asked at most
    many = b""
    for k in range(40):
        lid = b"many%d@example.org" % k
        open(os.path.join(lore_dir, lid.decode()), "wb").write(
            b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + sethdr(
                setbody(m.nopatch, b"no patch here\n"), b"Message-ID",
                b"<" + lid + b">"))
        many += b"  https://lore.kernel.org/r/" + lid + b"\n"
    links.append(("40 links to messages without a patch (8 asked at most)",
                  many, "refuse"))
    for n, (name, url, want) in enumerate(links):
        cases.append((name, sethdr(setbody(
            m.nopatch, b"Could you test the fix I posted?\n\n  " + url +
            b"\n"), b"Message-ID", b"<link%d@example.org>" % n), want))
    cases += [(n, sethdr(d, b"Message-ID", b"<rnd%d@example.org>" % k),
               "contained") for k, (n, d) in enumerate(
        random_mails(m, 200 if LONG else 40, random.Random(SEED)))]
    inbox(fam, w, cfg, cases, outside, evil_log)
    asked = [l for l in open(os.path.join(T, "lore.log"))
             if "/many" in l]
    check(fam, "... of the 40 links of one mail, %d asked (at most 8)" %
          len(asked), 0 < len(asked) <= 8, "".join(asked))
    big(fam, w, cfg, m)
    return fam


def inbox(fam, w, cfg, cases, outside, evil_log):
    md = os.path.join(w, "Maildir")
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(md, sub))
    boxes = []
    for k, (_n, data, _w) in enumerate(cases):
        box = "%d.%d.box" % (1695700000 + k, k)
        boxes.append(box)
        open(os.path.join(md, "new", box), "wb").write(data)
    # a file name robot prints, with a line break and escapes in it
    open(os.path.join(md, "new", "9999.ctl\x1b[2J\nname.box"), "wb").write(
        b"not a mail\n")
    fam.tried += len(cases) + 1
    before = tree(T)
    spool_new = os.path.join(w, "spool", "new")
    queued = len(os.listdir(spool_new))
    rc, out, err, took = run(["inbox", "-c", cfg, "fu/Maildir"], env=ENV,
                             timeout=300)
    after = tree(T)
    text = (out + err).encode("latin-1")
    check(fam, "robot inbox on %d hostile mails: exit 65 or 1 (mails set "
          "aside) in %.1f s" % (len(cases) + 1, took), rc in (65, 1) and
          took < 60, err[-3000:])
    check(fam, "... no raw control byte on stdout or stderr",
          not CTRL.search(text), repr(CTRL.findall(text)[:10]))
    check(fam, "... the file name with a line break: one line, escaped",
          len([l for l in text.split(b"\n") if b"ctl\\x1b" in l]) == 1 and
          b"\\x0aname.box" in text, out[-500:])
    written = sorted(f for f in after - before if not f.startswith(
        (os.path.join(w, "requests") + "/", os.path.join(w, "inbox.seen"),
         os.path.join(w, "lore-cache") + "/", os.path.join(T, "lore.log"),
         os.path.join(T, "evil.log"))))
    check(fam, "... nothing written outside the requests folder", not
          written and not os.listdir(outside), "\n".join(written[:20]))
    check(fam, "... nothing queued", len(os.listdir(spool_new)) == queued)
    check(fam, "... no connection to a server robot was not told to ask",
          not open(evil_log).read(), open(evil_log).read())
    reqs = os.path.join(w, "requests")
    dirs = os.listdir(reqs) if os.path.isdir(reqs) else []
    lines = text.split(b"\n")
    for k, (name, data, want) in enumerate(cases):
        mid = re.search(rb"^Message-ID: <([^>]*)>", data, re.M)
        mid = mid.group(1) if mid else b"\0"
        mine = [l for l in lines if (b"<" + mid + b">") in l or
                (boxes[k] + ":").encode() in l]
        made = [d for d in dirs if d.encode() == mid or
                d.encode().startswith(mid[:60].replace(b"/", b"_") + b"~")]
        one = len(mine) == 1
        if want == "refuse":
            check(fam, "%s: one line, not answered or skipped, no request"
                  % name, one and not made and re.search(
                      rb": (not answered|skipped): |^robot: error: ",
                      mine[0]), b"\n".join(mine) + b" " + repr(made).encode())
        elif want == "answer":
            bad = answered(w, made) + replied(w, cfg, made, boxes[k])
            check(fam, "%s: answered, its request clean" % name, one and
                  made and not bad, b"\n".join(mine) + b" " +
                  "; ".join(bad).encode())
        else:
            bad = answered(w, made) if made else []
            check(fam, "%s: one line; answered clean or refused" % name, one
                  and not bad, b"\n".join(mine) + b" " +
                  "; ".join(bad).encode())
            fam.tried += 0


def replied(w, cfg, made, box):
    """What robot reply says of the request it wrote, the patched root
    added: the answer composes (exit 0), or why not."""
    bad = []
    for d in made:
        full = os.path.join(w, "requests", d)
        req = os.path.join(full, "request.yaml")
        request_with_root(w, os.path.join(full, "test-request.yaml"), req)
        rc, out, err, _ = run(["reply", "-c", cfg, "--dry-run", "--to",
                               os.path.join(w, "Maildir", "new", box), req],
                              env=ENV, timeout=60)
        os.unlink(req)
        if rc != 0 or not out.startswith("Date: "):
            bad.append("robot reply on its request: exit %s %s" %
                       (rc, err.strip()[:300]))
    return bad


def answered(w, made):
    """What is wrong with the request folders `made`: files other than
    patch.mbox and test-request.yaml, control bytes or injected lines in
    them, paths git apply would write outside the tree."""
    bad = []
    for d in made:
        full = os.path.join(w, "requests", d)
        files = sorted(os.listdir(full))
        if files not in (["patch.mbox", "test-request.yaml"],
                         ["test-request.yaml"]):
            bad.append("%s holds %s" % (d, files))
        req = open(os.path.join(full, "test-request.yaml"), "rb").read()
        if CTRL.search(req) or re.search(rb"\\u00[01]", req):
            bad.append("a control character in test-request.yaml")
        mbox = os.path.join(full, "patch.mbox")
        if not os.path.exists(mbox):
            continue
        data = open(mbox, "rb").read()
        head = data.split(b"\n\n", 1)[0]
        # the header robot writes (an attached format-patch file is kept
        # as it came, its own header too)
        if data.startswith(b"From " + b"0" * 40) and CTRL.search(head):
            bad.append("a control character in patch.mbox's header")
        if re.search(rb"\nFrom: eve", data):
            bad.append("an injected From: line in patch.mbox")
        paths = git_paths(mbox)
        if paths is None:
            continue
        for p in paths:
            if p.startswith(b"/") or b".." in p.split(b"/") or \
                    b".git" in p.lower().split(b"/"):
                bad.append("git apply would write %r" % p)
    return bad


def big(fam, w, cfg, m):
    """100 MB: in a Maildir (refused before it is read), between two
    follow-ups in an mbox (those two still answered)."""
    md = os.path.join(w, "BigMaildir")
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(md, sub))
    path = os.path.join(md, "new", "1.big")
    with open(path, "wb") as f:
        f.write(sethdr(m.inline, b"Message-ID", b"<big1@example.org>"))
        f.truncate(100 << 20)
    fam.tried += 3
    rc, out, err, took = run(["inbox", "-c", cfg, "fu/BigMaildir"], env=ENV)
    check(fam, "a 100 MB mail in a Maildir: one line, more than "
          "mail_max_bytes, exit 0, in %.2f s" % took, rc == 0 and
          out.count("\n") == 1 and "more than mail_max_bytes" in out and
          not err and took < 5, out + err)
    rc, out, err, took = run(["reply", "-c", cfg, "--extract-patch",
                              "fu/xbig", "--to", path], env=ENV)
    check(fam, "... --extract-patch: exit 65, one line, before reading it "
          "(%.2f s)" % took, rc == 65 and err.count("\n") == 1 and
          "mail_max_bytes" in err and took < 2 and
          not os.path.exists(os.path.join(w, "xbig")), err)
    os.unlink(path)
    mbox = os.path.join(w, "big.mbox")
    sep = b"From dev@example.org Mon Sep 25 09:12:44 2023\n"
    with open(mbox, "wb") as f:
        f.write(sep + sethdr(m.inline, b"Message-ID", b"<big2@example.org>")
                + b"\n")
        f.write(sep + sethdr(m.inline, b"Message-ID", b"<big3@example.org>")
                .replace(b"Thanks for the report.", b"Thanks.\n" +
                         (b"y" * 99 + b"\n") * (1 << 20)) + b"\n")
        f.write(sep + sethdr(m.inline, b"Message-ID", b"<big4@example.org>")
                + b"\n")
    rc, out, err, took = run(["inbox", "-c", cfg, "fu/big.mbox"], env=ENV)
    os.unlink(mbox)
    check(fam, "a 100 MB mail between two in an mbox: three lines, the big "
          "one more than mail_max_bytes, the others answered (%.1f s)" % took,
          rc == 0 and out.count("\n") == 3 and
          re.search(r"big\.mbox:2: skipped: \d+ bytes, more than "
                    r"mail_max_bytes", out) and
          "<big2@example.org>: " in out and "<big4@example.org>: " in out,
          out + err)
