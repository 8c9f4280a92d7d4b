# SPDX-License-Identifier: GPL-2.0-only
"""lkpfunc: eml2lkp's functional mode (imported by tests/tools/eml2lkp).

A functional 0-day report -- "kernel test robot noticed "<stat>" on:", or
before 2023 "FYI, we noticed the following commit (built with gcc-9):" --
names a function stat (a kernel-log stat, a test's .fail, last_state.*),
shows how many runs of each commit hit it (the result table, or a
fail:runs table the sender pasted into their words), the suggested tags,
and the evidence: an excerpt of the run's kernel log or test output.

This module reads such a mail and writes the inputs an operator had:

  rt<j>/matrix.json, rt<j>/<run>/job.yaml
                  one result root per commit of the result table or of
                  the fail:runs table (base first), each stat with one
                  value per run: 1 in as many runs as the tables count,
                  0 in the others; a stat the table leaves blank for a
                  commit is not in its matrix.
  rt<j>/<run>/dmesg or output
                  the tested commit's first run that hit the headline
                  holds the log the excerpt was cut from: generated boot
                  lines (no text of the mail), then the excerpt's lines,
                  where the log ends.  A test's excerpt is its output file.
  commits.yaml    the commits (base first), the tested one's release from
                  the reproduce steps' "cp config-<release> .config".
  request.yaml    the headers and choices as eml2lkp's perf mode writes
                  them, plus the functional keys (doc/functional.md):
                  evidence (the file, and only the context counts the
                  rules cannot know: lines before or after the kernel's
                  report), notes (the sender's words at their places, and
                  which fail:runs rows they showed), result_table (the
                  rows the result table showed) or no_result_table.
  robot.yaml      spool and archive inside OUTDIR, the Message-ID's user.

The sender's words are free text of the request, as a preface is; tables
and excerpts never are: they come from the result roots and log files.
Lines that read as a kernel log or a test's output are excerpts; others
are words (see log_like).
"""
import json
import os
import re
import shutil

FYI_RE = re.compile(r'^FYI, we noticed the following commit \(built with '
                    r'(\S+)\):$')
DUE_RE = re.compile(r'^FYI, we noticed (.+) due to commit \(built with '
                    r'(\S+)\):$')
NOTICED_RE = re.compile(r'^kernel test robot noticed "(.*)" on:$')
COMMIT_RE = re.compile(r'^commit: ([0-9a-f]{40}) \("(.*)"\)$')
STILL_RE = re.compile(r'^\[test failed on +(\S.*?\S) +([0-9a-f]{40})\]$')
FAIL_HEAD = '       fail:runs  %reproduction    fail:runs'
FAIL_ROW_RE = re.compile(r'^( +\d*:\d+(?: +-?\d+% +\d*:\d+)+) +(\S+)$')
CAUSED = ('caused below changes (please refer to attached dmesg/kmsg for '
          'entire log/backtrace):')
REFER = '(please refer to attached dmesg/kmsg for entire log/backtrace)'
REPRO_RE = re.compile(r'^(To reproduce:|The kernel config and materials to '
                      r'reproduce are available at:)$')
FOOTER_RE = re.compile(r'^(-- |---|Thanks,)$')
LOG_RE = re.compile(
    r'^(\[ *\d+\.\d+\]|kern +:|user +:|daemon +:|<\d>|'
    r' {1,2}[ 0-9a-f][0-9a-f]:|All code$|=+$|Code starting with|'
    r'\t|\s+\.\.\.|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d |\s+(\?|[A-Za-z_]\w*\+0x)|'
    r'[A-Z][A-Z ]+: \S|\S+\[\d+\]: )')

# What eml2lkp's perf mode lends (address_list, ystr, ...), set by run().
E = None


class Fail(Exception):
    pass


def is_functional(text):
    for line in text.split('\n'):
        if FYI_RE.match(line) or DUE_RE.match(line) or NOTICED_RE.match(line):
            return True
    return False


def log_like(line):
    """A line of a kernel log or test output (not the sender's words)."""
    return bool(LOG_RE.match(line))


def prose(line):
    """A line of the sender's words: a sentence in lower case (how the
    0-day senders write), not a log line."""
    return bool(re.match(r'^[a-z(]', line)) and len(line.split()) >= 3 and \
        not log_like(line) and not re.match(r'^\S+:\d+:', line)


def strip_blank_ends(lines):
    a, b = 0, len(lines)
    while a < b and lines[a] == '':
        a += 1
    while b > a and lines[b - 1] == '':
        b -= 1
    return a, b


class FailBlock:
    """A fail:runs table in the mail: ids, rows (fails, runs per commit)."""

    def __init__(self, lines, axes):
        self.lines = lines
        self.axes = axes        # (keys, values) or None
        self.rows = []          # (name, [(fails, runs), ...])
        for l in lines:
            m = FAIL_ROW_RE.match(l)
            if not m:
                continue
            cells = re.findall(r'(\d*):(\d+)', m.group(1))
            self.rows.append((m.group(2), [(int(f or 0), int(r))
                                           for f, r in cells]))
        self.ncommits = len(self.rows[0][1]) if self.rows else 0


def find_blocks(lines):
    """(start, end, kind, obj) of the result tables and fail:runs tables."""
    out = []
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith('+-') and i + 2 < len(lines) and \
                lines[i + 1].startswith('|'):
            j = i + 1
            while j < len(lines) and lines[j][:1] in '+|':
                j += 1
            out.append((i, j, 'table', lines[i:j]))
            i = j
            continue
        if l == FAIL_HEAD.rstrip() or l == FAIL_HEAD:
            # back to the id line, the dashes and the axes header
            s = i
            if s >= 2 and re.match(r'^-{16} -', lines[s - 1]):
                s -= 2
            axes = None
            if s >= 4 and lines[s - 1] == '' and lines[s - 4].startswith('====='):
                axes = (lines[s - 3].rstrip(':'), lines[s - 2].strip())
                s -= 4
            j = i + 2
            while j < len(lines) and FAIL_ROW_RE.match(lines[j]):
                j += 1
            out.append((s, j, 'fail', FailBlock(lines[s:j], axes)))
            i = j
            continue
        i += 1
    return out


def split_items(lines, where):
    """The items of a place: ('text', str), ('table', lines),
    ('fail', FailBlock), each separated from the next by one empty line;
    words keep their other empty lines."""
    items = []
    blocks = find_blocks(lines)
    pos = 0
    for s, e, kind, obj in blocks + [(len(lines), len(lines), None, None)]:
        chunk = lines[pos:s]
        # the one empty line robot puts between a table and the words
        # around it; words written right against a table are read all
        # the same (the round trip then shows the missing line)
        if pos > 0 and chunk and chunk[0] == '':
            chunk = chunk[1:]              # the separator after a block
        if kind is not None and chunk and chunk[-1] == '':
            chunk = chunk[:-1]             # the separator before it
        if chunk:
            items.append(('text', '\n'.join(chunk) + '\n'))
        if kind is not None:
            items.append((kind, obj))
        pos = e
    return items


class Functional:
    """The data of one functional report mail."""

    def __init__(self, path, text, headers, date):
        self.path = path
        self.date = date
        self.h = headers
        self.notes = []             # (place, item)
        self.evidence = []          # ('log', lines) / ('text', str) / ('fail', FailBlock)
        self.table = None
        self.L = text.split('\n')
        self._parse()

    # -- parsing -----------------------------------------------------------
    def _find(self, pred, start=0, what='a line'):
        for i in range(start, len(self.L)):
            if pred(self.L[i]):
                return i
        raise Fail('%s: no %s' % (self.path, what))

    def _parse(self):
        L = self.L
        hi = self._find(lambda l: FYI_RE.match(l) or DUE_RE.match(l) or
                        NOTICED_RE.match(l), what='headline')
        m = FYI_RE.match(L[hi]) or DUE_RE.match(L[hi]) or NOTICED_RE.match(L[hi])
        self.form = 'fyi' if FYI_RE.match(L[hi]) else \
            'due' if DUE_RE.match(L[hi]) else 'noticed'
        self.headline = None if self.form == 'fyi' else m.group(1)
        self.compiler = m.group(1) if self.form == 'fyi' else \
            m.group(2) if self.form == 'due' else None
        # the greeting, and the words before and after it
        gi = None
        for i in range(hi - 1, -1, -1):
            if L[i] in ('Greeting,', 'Hello,'):
                gi = i
                break
        self.greeting = L[gi] if gi is not None else None
        top = L[:gi if gi is not None else hi]
        self.lead = 0
        while self.lead < len(top) and top[self.lead] == '':
            self.lead += 1
        self.preface_lines = top
        if gi is not None:
            intro = L[gi + 1:hi]
            if intro and intro[0] == '':
                intro = intro[1:]
            if intro:
                # robot's two empty lines after the words; fewer are read
                # all the same (the round trip then shows the difference)
                k = len(intro)
                while k > 0 and len(intro) - k < 2 and intro[k - 1] == '':
                    k -= 1
                for it in split_items(intro[:k], 'intro'):
                    self.notes.append(('intro', it))
        # commit and source
        ci = hi + 1
        while L[ci] == '':
            ci += 1
        m = COMMIT_RE.match(L[ci])
        if not m:
            raise Fail('%s: no "commit:" line after the headline' % self.path)
        self.commit, self.commit_subject = m.groups()
        i = ci + 1
        self.patch = {}
        self.repo_url = self.branch = None
        while i < len(L):
            l = L[i]
            if l.startswith('url: '):
                self.patch['url'] = l[5:]
            elif l.startswith('base: '):
                self.patch['base'] = l[6:]
            elif l.startswith('patch link: '):
                self.patch['link'] = l[12:]
            elif l.startswith('patch subject: '):
                self.patch['subject'] = l[15:]
            elif re.match(r'^(https?|git)://\S+ \S', l) and not self.patch \
                    and self.repo_url is None:
                self.repo_url, self.branch = l.split(' ', 1)
            elif l == '' or STILL_RE.match(l):
                pass
            else:
                break
            i += 1
        self.still = [STILL_RE.match(l).groups() for l in L[ci:i]
                      if STILL_RE.match(l)]
        # no still line, and the block's empty line after the repository
        # line: the heads were tested and none failed (request key
        # still_checked; the style's fstill-none keeps that line)
        self.still_checked = not self.still and not self.patch and \
            self.repo_url is not None and L[i - 2:i] == ['', ''] and \
            L[i - 3] == '%s %s' % (self.repo_url, self.branch)
        # the test
        if not re.match(r'^(in )?testcase: ', L[i]):
            raise Fail('%s: no "in testcase:" line' % self.path)
        self.testcase = L[i].split(': ', 1)[1]
        i += 1
        h = self.headline or self.subject_headline()
        self.output = not (h.startswith('dmesg.') or h.startswith('kmsg.') or
                           h.startswith('last_state.')) and \
            (h.startswith(self.testcase + '.') or
             bool(re.search(r'\.(fail|pass)$', h)))
        # a test's stat named after a kernel-log line it found (lkp-tests'
        # leaking-addresses parse: "dmesg.<line>"): its output, quoted in
        # the kernel log's layout
        self.log_named = self.output and \
            bool(re.match(r'^[^.]+\.(dmesg|kmsg)\.', h))
        if self.log_named:
            self.output = False
        self.version = None
        self.params = []
        self.test_description = self.test_url = None
        while i < len(L):
            l = L[i]
            if l.startswith('version:'):
                self.version = l[len('version:'):].strip()
            elif l == 'with following parameters:':
                pass
            elif l.startswith('\t') and ': ' in l:
                k, v = l[1:].split(': ', 1)
                self.params.append((k, v))
            elif l.startswith('\t') and l.endswith(':'):
                self.params.append((l[1:-1], ''))
            elif l.startswith('test-description: '):
                self.test_description = l[len('test-description: '):]
            elif l.startswith('test-url: '):
                self.test_url = l[len('test-url: '):]
            elif l == '':
                pass
            else:
                break
            i += 1
        # words after the parameters (before config:/compiler:/machine)
        j = self._find(lambda l: re.match(r'^(config|compiler): |^(on )?test '
                                          r'machine: ', l), i, 'test machine')
        if j > i:
            words = L[i:j]
            a, b = strip_blank_ends(words)
            if a < b:
                self.notes.append(('params', ('text', '\n'.join(words[a:b]) +
                                              '\n')))
        i = j
        self.kconfig = None
        while not re.match(r'^(on )?test machine: ', L[i]):
            if L[i].startswith('config: '):
                self.kconfig = L[i][8:]
            elif L[i].startswith('compiler: '):
                self.compiler = L[i][10:]
            i += 1
        self.machine = L[i].split('machine: ', 1)[1]
        i += 1
        ri = self._find(lambda l: l in (CAUSED, REFER), i, '"please refer" line')
        # the remark: the result table, the sender's words and tables
        ti = self._find(lambda l: l.startswith('If you fix the issue'), ri,
                        'tags')
        self.evidence_before_tags = []
        # a test's stat read from the kernel log (kunit): the log's layout
        self.test_stat = self.output or self.log_named
        k = ti + 1
        while k < len(L) and (L[k] == '' or L[k].startswith('the same patch') or
                              re.match(r'^\|? ?(Reported-by|Link|Closes): ', L[k])):
            k += 1
        if self.output and k < len(L) and \
                re.match(r'^(\[ *\d+\.\d+\]|kern +:|<\d>)', L[k]):
            self.output = False
        remark = L[ri + 1:ti]
        a, b = strip_blank_ends(remark)
        # robot writes two empty lines on either side; a report with
        # fewer is read all the same (robot's two are then a difference
        # the round trip shows, not a reason to call it no report)
        after = min(2, len(remark) - b)
        # an excerpt before the tags (an operator's layout, the style's
        # fevidence_at): the remark's last items, from its first log line
        self.evidence_lines = None
        inner = remark[min(2, a):len(remark) - after] if a < b else []
        blocks = find_blocks(inner)
        tail = blocks[-1][1] if blocks else 0
        first = next((k for k in range(tail, len(inner))
                      if log_like(inner[k])), None)
        if first is not None:
            s_ = first
            while s_ > tail and inner[s_ - 1] != '':
                s_ -= 1
            if s_ == tail or inner[s_ - 1] == '':
                self.evidence_lines = inner[s_:]
                inner = inner[:max(tail, s_ - 1)]
        for it in split_items(inner, 'remark'):
            if it[0] == 'table' and self.table is None and \
                    not self.notes_at('remark'):
                self.table = it[1]
            else:
                self.notes.append(('remark', it))
        # the tags
        i = ti + 1
        self.reported_by = None
        while i < len(L) and (L[i].startswith('the same patch') or
                              re.match(r'^\|? ?(Reported-by|Link|Closes): ', L[i])):
            m = re.match(r'^\|? ?Reported-by: (.*)$', L[i])
            if m:
                self.reported_by = m.group(1)
            i += 1
        # the evidence, up to the reproduce steps; a report sent without
        # them (its materials attached: the request's no_repro) up to the
        # signature, where the block's empty lines stay
        self.no_repro = not any(REPRO_RE.match(l) for l in L[i:])
        pi = self._find(lambda l: (FOOTER_RE if self.no_repro
                                   else REPRO_RE).match(l), i,
                        'reproduce steps')
        ev = L[i:pi]
        a, b = strip_blank_ends(ev)
        gap = (1, 2) if self.output else (2, 2)
        if self.no_repro:
            gap = (gap[0], gap[1] + 1)
        # fewer than robot's: read all the same (see the remark's)
        gap = (min(gap[0], a), min(gap[1], len(ev) - b))
        if a < b and self.evidence_lines is not None:
            raise Fail('%s: an excerpt before the tags and one after them'
                       % self.path)
        if a < b:
            self._evidence(ev[gap[0]:len(ev) - gap[1]])
        elif self.evidence_lines is not None:
            self._evidence(self.evidence_lines)
        else:
            self.evidence = []
        # the empty lines before the tags when nothing is between them
        # and "(please refer ...)" are robot's of the evidence's kind and
        # the date (templates/SET/fpretags-*); a report with another
        # count is read all the same, the count is then a difference the
        # round trip shows (tests/fidelity.md, tables A and C)
        # the reproduce steps: the release, the arch, modules
        fi = self._find(lambda l: FOOTER_RE.match(l), pi, 'signature')
        steps = L[pi:fi]
        self.release = self.arch = None
        self.modules = any('-m modules.cgz' in l for l in steps)
        self.qemu = any('bin/lkp qemu' in l for l in steps)
        for l in steps:
            m = re.match(r'^\tcp config-(\S+) \.config$', l)
            if m:
                self.release = m.group(1)
            m = re.search(r' ARCH=(\S+)', l)
            if m:
                self.arch = m.group(1)
        self.archive = None
        for l in steps:
            if l.startswith('https://download.01.org/'):
                self.archive = l
        # an excerpt (and the sender's words) after the download link: the
        # request's evidence_at "end"; never one after the tags too
        self.evidence_at = None
        if steps and steps[0].startswith('The kernel config'):
            tail = steps[2:]
            a, b = strip_blank_ends(tail)
            if a < b:
                if self.evidence:
                    raise Fail('%s: an excerpt after the tags and one after '
                               'the download link' % self.path)
                self._evidence(tail[min(2, a):len(tail) - 1])
                self.evidence_at = 'end'
        self.sender_name = None
        for k in range(fi, len(L)):
            if L[k] == 'Thanks,' and k + 1 < len(L):
                self.sender_name = L[k + 1]

    def subject_headline(self):
        subj = re.sub(r'\r?\n(?=[ \t])', '', self.h.get('subject', '')).strip()
        return headline_of(subj, self.path)

    def notes_at(self, place):
        return [n for n in self.notes if n[0] == place]

    def _evidence(self, lines):
        """Excerpts (runs of log lines, with the empty lines inside them),
        the sender's words between them and the fail:runs tables they
        pasted; one empty line separates two items, the words keep the
        others."""
        items = []
        for it in split_items(lines, 'evidence'):
            if it[0] == 'text':
                items += self._runs(it[1][:-1].split('\n'))
            else:
                items.append(it)
        self.evidence = items

    def _runs(self, seg):
        """The paragraphs of seg, as words or excerpt lines: a paragraph
        whose every line reads as a sentence of the sender (prose) is
        words; the rest, with the empty lines between, is an excerpt."""
        paras = []                 # [kind, lines, empty lines before]
        blanks = 0
        cur = []
        for l in seg + ['']:
            if l != '':
                cur.append(l)
                continue
            if cur:
                kind = 'text' if all(prose(x) for x in cur) else 'log'
                paras.append([kind, cur, blanks])
                cur = []
                blanks = 0
            blanks += 1
        trailing = blanks - 1
        runs = []                  # [kind, lines]
        for kind, lines, before in paras:
            if runs and runs[-1][0] == kind:
                runs[-1][1] += [''] * before + lines
            elif runs:
                # one empty line separates the items; the words keep the rest
                if kind == 'text':
                    runs.append([kind, [''] * (before - 1) + lines])
                else:
                    if runs[-1][0] == 'text':
                        runs[-1][1] += [''] * (before - 1)
                    runs.append([kind, lines])
            else:
                runs.append([kind, [''] * before + lines])
        if trailing and runs:
            runs[-1][1] += [''] * trailing
        return [('text', '\n'.join(v) + '\n') if k == 'text' else ('log', v)
                for k, v in runs]


# ---------------------------------------------------------------------------
# The report boundaries robot applies to a kernel log (robot/kinds/functional/evidence.c,
# doc/functional.md "Evidence"), to know which context counts to ask for.
# ---------------------------------------------------------------------------

DECODE_FLAG = 'Code starting with the faulting instruction'


def report_start(l):
    return any(x in l for x in ('---[ cut here ', ' BUG: ', ' WARNING: ',
                                ' INFO: ', ' UBSAN: ', ' kernel BUG at '))


def disassembly(l):
    return bool(re.match(r'^(===|  ( [0-9a-f]|[0-9a-f]{2}):| +\.\.\.)', l))


def report_steps(lines):
    """For each line: (in a report?, the report's index)."""
    decoded = any(DECODE_FLAG in l for l in lines)
    out = []
    in_rep = ended = in_list = list_done = False
    count, index = 0, -1
    for l in lines:
        if report_start(l):
            in_rep = True
            if ended or index < 0:
                index += 1
                ended = False
            in_list = list_done = False
            count = 1
            out.append((True, index))
        elif in_rep and '---[ end trace ' in l:
            in_rep, ended = False, True
            out.append((True, index))
        elif in_rep:
            count += 1
            if count > 100:
                in_rep, ended = False, True
            out.append((True, index))
        elif ended and decoded and not list_done:
            if not in_list:
                count += 1
                if DECODE_FLAG in l:
                    in_list = True
                if count > 150:
                    list_done = True
                out.append((True, index))
            elif not disassembly(l):
                in_list, list_done = False, True
                out.append((False, index))
            else:
                out.append((True, index))
        else:
            out.append((False, index))
    return out


def headline_of(subj, path):
    """The headline of the unfolded Subject SUBJ: the stat name after the
    sha.  A Mailman 2 list writes ", " for a comma of a long Subject
    (tests/tools/unlist, commas); a stat name has no blank, so in a
    headline with no other blank the blanks after a comma are the
    list's."""
    m = re.search(r'[0-9a-f]{10}: +(\S.*)$', subj)
    if not m:
        raise Fail('%s: no headline in the Subject' % path)
    mine = re.sub(r',[ \t]+', ',', m.group(1))
    return m.group(1) if re.search(r'\s', mine) else mine


def names_headline(line, headline):
    """Whether a log line reads as the headline: its words in order (the
    mail's names keep the words of the line; numbers, blanks and the
    punctuation around them change)."""
    want = re.findall(r'[A-Za-z]+', headline)
    have = re.findall(r'[A-Za-z]+', re.sub(r'^(\S+ +:\S+ +: )?\[[^]]*\]'
                                           r'(\[[^]]*\])? ?', '', line))
    if not want or not have or have[0] != want[0]:
        return False
    i = 0
    for w in have:
        if i < len(want) and w == want[i]:
            i += 1
    return i == len(want)


def noise(n, t0=0.0):
    """Kernel-log lines of no report, made up here."""
    return ['[%12.6f] eml2lkp: boot log line %d' % (t0 + k * 0.25, k + 1)
            for k in range(n)]


# ---------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------

def full_id(prefix, salt):
    """A 40-digit id that starts with what the mail shows of it."""
    import hashlib
    if re.fullmatch(r'[0-9a-f]{40}', prefix):
        return prefix
    pad = hashlib.sha1(('%s %s' % (prefix, salt)).encode()).hexdigest()
    if re.fullmatch(r'[0-9a-f]+', prefix):
        return (prefix + pad)[:40]
    return pad


class Commit:
    def __init__(self, sha, tag=None, subject=None):
        self.sha, self.tag, self.subject = sha, tag, subject
        self.runs = None
        self.stats = {}     # name -> count of runs that hit it, None: zeros


class Roots:
    """The commits of the tables, base first, with what each run hit."""

    def __init__(self, F):
        self.F = F
        self.commits = []
        self.kpi = None
        self._from_tables()

    def _label_commit(self, label, last):
        F = self.F
        if last:
            return Commit(F.commit, subject=F.commit_subject)
        if re.fullmatch(r'[0-9a-f]{10,40}', label):
            return Commit(full_id(label, F.path))
        return Commit(full_id('', label + F.path), tag=label)

    def _from_tables(self):
        F = self.F
        fails = [it for _, it in F.notes if it[0] == 'fail'] + \
            [it for it in F.evidence if it[0] == 'fail']
        if F.table:
            cuts = [k for k, ch in enumerate(F.table[0]) if ch == '+']

            def cells(line):
                return [line[cuts[k] + 1:cuts[k + 1]].strip()
                        for k in range(len(cuts) - 1)]
            head = cells(F.table[1])
            labels = head[1:]
            self.commits = [self._label_commit(l, k == len(labels) - 1)
                            for k, l in enumerate(labels)]
            rows = []
            for line in F.table[3:]:
                if not line.startswith('|'):
                    continue
                c_ = cells(line)
                rows.append((c_[0], c_[1:]))
            self.table_rows = [r[0] for r in rows]
            counts = {r[0]: r[1] for r in rows}
            for k, c in enumerate(self.commits):
                if 'boot_successes' in counts and 'boot_failures' in counts:
                    c.runs = int(counts['boot_successes'][k] or 0) + \
                        int(counts['boot_failures'][k] or 0)
                for name, vals in rows:
                    if name == 'boot_successes':
                        continue
                    stat = 'dmesg.' + name
                    v = vals[k]
                    if v == '':
                        continue
                    if int(v) == 0 and k == 0:
                        continue
                    c.stats[stat] = int(v)
            # a first column wider than every row it shows: the table was
            # sized with stats it then did not show (robot/kinds/functional/functional.c
            # computed_width); the run hit one the mail does not name
            width = cuts[1] - cuts[0] - 3
            if width > max(len(r[0]) for r in rows):
                name = 'eml2lkp:unshown'
                name = (name + '_' * width)[:width]
                self.commits[-1].stats['dmesg.' + name] = 1
        for _, blk in fails:
            if not self.commits:
                ids = blk.lines[0].split() if blk.axes is None else \
                    blk.lines[4].split()
                self.commits = [Commit(F.commit, subject=F.commit_subject)
                                if k == len(ids) - 1 else
                                Commit(full_id(i, F.path))
                                for k, i in enumerate(ids)]
            if blk.ncommits != len(self.commits):
                raise Fail('%s: a fail:runs table of %d commits beside %d'
                           % (F.path, blk.ncommits, len(self.commits)))
            for name, cells in blk.rows:
                for k, (f, r) in enumerate(cells):
                    c = self.commits[k]
                    if c.runs is None:
                        c.runs = r
                    elif c.runs != r:
                        raise Fail('%s: %s: %d runs, elsewhere %d'
                                   % (F.path, name, r, c.runs))
                    if f:
                        c.stats[name] = f
        if not self.commits:
            self.commits = [Commit(full_id('base', F.path)),
                            Commit(F.commit, subject=F.commit_subject)]
        # the headline's stat
        h = F.headline
        names = set()
        for c in self.commits:
            names |= set(c.stats)
        if ('dmesg.' + h) in names:
            self.kpi = 'dmesg.' + h
        elif h in names:
            self.kpi = h
        elif h.startswith(F.testcase + '.') or re.search(r'\.(fail|pass)$', h):
            self.kpi = h
        else:
            self.kpi = 'dmesg.' + h
        tested = self.commits[-1]
        for c in self.commits:
            if c.runs is None:
                c.runs = max([1] + [v for v in c.stats.values() if v])
        if not tested.stats.get(self.kpi):
            tested.stats[self.kpi] = tested.runs


def job_yaml(F, c, testcase, params_lines, host):
    tbox = F.tbox
    job = ['suite: ' + E.yaml_scalar(testcase),
           'testcase: ' + E.yaml_scalar(testcase)]
    job += params_lines
    job += ['%s: %s' % (k, E.yaml_scalar(v))
            for k, v in getattr(F, 'unlisted', [])]
    job += ['tbox_group: ' + E.yaml_scalar(tbox),
            'testbox: ' + E.yaml_scalar(tbox)]
    job += E.host_lines(host)
    job += ['rootfs: ' + E.yaml_scalar(F.rootfs),
            'kconfig: ' + E.yaml_scalar(F.kconfig_job),
            'compiler: ' + E.yaml_scalar(F.compiler or 'gcc'),
            'commit: ' + c.sha]
    if F.version:
        job.append('bm_initrd: ' + E.ystr(
            '/osimage/deps/%s/lkp_20200101.cgz,/osimage/pkg/%s/%s.cgz'
            % (F.rootfs, F.rootfs, F.version)))
    if F.modules:
        job.append('modules_initrd: ' + E.ystr(
            '/pkg/linux/%s/%s/%s/modules.cgz' % (F.kconfig_job, F.compiler,
                                                 c.sha)))
    return '\n'.join(job) + '\n'


def write_matrix(rt, c, root):
    # every run has stats besides the tables' (boot-time is there in every
    # LKP run); the same in every commit, it is no change
    m = {'boot-time.boot': [30.5] * c.runs}
    for name, count in sorted(c.stats.items()):
        count = count or 0
        m[name] = [1] * count + [0] * (c.runs - count)
    m['stats_source'] = ['%s/%d/stats.json' % (root, i) for i in range(c.runs)]
    with open(os.path.join(rt, 'matrix.json'), 'w') as f:
        json.dump(m, f, indent=1, sort_keys=True)
        f.write('\n')


def evidence_files(F, R, rundir):
    """Writes the log or output the excerpts come from; returns the
    request's evidence items (None: the rules alone find the one excerpt)."""
    output = F.test_stat     # quoted whole, or by line numbers
    logs = [v for k, v in F.evidence if k == 'log']
    items = []
    if not logs:
        return [{'text': v} if k == 'text' else fail_item(v)
                for k, v in F.evidence]
    name = 'output' if F.output or F.log_named else 'dmesg'
    lines = [] if output else noise(3)
    spans = []
    for k, v in enumerate(logs):
        if k and not output:
            lines += noise(2, 1000.0 + k)
        if k and output:
            lines += ['']
        spans.append((len(lines), len(lines) + len(v)))
        lines += v
    with open(os.path.join(rundir, name), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    li = 0
    for kind, v in F.evidence:
        if kind == 'text':
            items.append({'text': v})
            continue
        if kind == 'fail':
            items.append(fail_item(v))
            continue
        s, e = spans[li]
        item = {}
        if output:
            if len(logs) > 1 or s:
                item = {'from': s + 1, 'lines': e - s}
        elif li == 0 and R.kpi.startswith('last_state.'):
            item = {'lines': e - s}
        elif li == 0 and sender_headline(F, R):
            # no table counts the headline: the sender named it and cut
            # the excerpt (robot's rules need not name any line so)
            item = {'from': s + 1, 'lines': e - s}
        elif li == 0:
            item = dmesg_knobs(F, R, lines, s, e)
        else:
            item = {'from': s + 1, 'lines': e - s}
        if output:
            item['file'] = name
        items.append(item)
        li += 1
    if len(items) == 1 and items[0] in ({}, {'file': 'output'}):
        return None
    return items


def sender_headline(F, R):
    """Whether the headline is the sender's own words, not the name
    lkp-tests gives a kernel-log line: a report with neither a result
    table nor a fail:runs table (no stat names it) whose headline keeps
    a blank (lkp-tests' common_error_id makes every blank '_') or a
    device's number (its LINUX_DEVICE_NAMES_RE makes "raid56" "raid#").
    The sender cut the excerpt too: robot takes it by its lines."""
    fails = [it for _, it in F.notes if it[0] == 'fail'] + \
        [it for it in F.evidence if it[0] == 'fail']
    if F.table is not None or fails or not R.kpi.startswith('dmesg.'):
        return False
    name = R.kpi[len('dmesg.'):]
    return ' ' in name or bool(device_number_re().search(name))


_DEVICE_RE = []


def device_number_re():
    """lkp-tests' \\b(name|...)\\d+ over its etc/linux-device-names (the
    tree's copy, config/data/dmesg/device-names: every version lists the
    same names that end a word before digits)."""
    if not _DEVICE_RE:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            '..', '..', 'config', 'data', 'dmesg',
                            'device-names')
        names = set()
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith(('#', '@since')):
                    names.add(line)
        _DEVICE_RE.append(re.compile(r'\b(%s)[0-9]+' % '|'.join(
            sorted((re.escape(n) for n in names), key=len, reverse=True))))
    return _DEVICE_RE[0]


def fail_item(blk):
    item = {'fail_runs': True, 'stats': [n for n, _ in blk.rows]}
    if blk.axes:
        item['axes'] = True
    return item


def dmesg_knobs(F, R, lines, s, e):
    """The context counts that make robot's report rule give lines[s:e]."""
    h = R.kpi.split('.', 1)[1]
    at = None
    for i in range(s, e):
        if names_headline(lines[i], h):
            at = i
            break
    if at is None:
        return {'from': s + 1, 'lines': e - s}
    steps = report_steps(lines)
    inside, idx = steps[at]
    if not inside:
        item = {}
        if at > s:
            item['before'] = at - s
        return item
    start = at
    while start > 0 and steps[start - 1][0] and steps[start - 1][1] == idx and \
            not (report_start(lines[start]) and
                 (start == 0 or steps[start - 1][1] != idx)):
        start -= 1
    # the report's first line: the one that opened report idx
    for i in range(at, -1, -1):
        if steps[i][1] != idx:
            break
        if report_start(lines[i]) and (i == 0 or steps[i - 1][1] != idx or
                                       not steps[i - 1][0]):
            start = i
    end = at
    while end + 1 < len(lines) and steps[end + 1] == (True, idx):
        end += 1
    if start < s:
        return {'from': s + 1, 'lines': e - s}
    item = {}
    if start > s:
        item['before'] = start - s
    if end + 1 > e:
        item['lines'] = e - s
    elif e > end + 1:
        item['after'] = e - end - 1
    return item


def request_lines(F, R, date, evidence):
    req = ['# The report request behind %s, rebuilt by eml2lkp (functional).'
           % os.path.basename(F.path)]
    h = F.h
    if F.hdr_date:
        req.append('date: ' + E.ystr(F.hdr_date))
    else:
        req.append('style: ' + date)
    if F.message_id:
        req.append('message_id: ' + E.ystr(F.message_id))
    if F.in_reply_to:
        req.append('in_reply_to: ' + E.ystr(F.in_reply_to))
    if F.from_:
        req.append('from: ' + E.ystr(F.from_))
    for key in ('to', 'cc'):
        v = getattr(F, key)
        if v:
            req.append('%s:' % key)
            req += ['  - ' + E.ystr(x) for x in v]
    if F.tree:
        req.append('tree: ' + E.ystr(F.tree))
    if F.patch:
        req.append('patch:')
        req += ['  %s: %s' % (k, E.ystr(F.patch[k]))
                for k in ('url', 'base', 'link', 'subject') if k in F.patch]
    else:
        req.append('repo_url: ' + E.ystr(F.repo_url or ''))
        req.append('branch: ' + E.ystr(F.branch or ''))
    req.append('commit: ' + F.commit)
    req.append('commits: commits.yaml')
    req.append('kpi: ' + E.ystr(R.kpi))
    req.append('result_roots: [%s]' % ', '.join(
        'rt%d' % j for j in range(len(R.commits))))
    if F.host is None:
        req.append('machine: ' + E.ystr(F.machine))
    if F.test_description:
        req.append('test_description: ' + E.ystr(F.test_description))
    if F.test_url:
        req.append('test_url: ' + E.ystr(F.test_url))
    if F.still:
        req.append('still:')
        for tree, sha in F.still:
            req += ['  - tree: ' + E.ystr(tree), '    commit: ' + sha,
                    '    failed: true']
    if F.still_checked:
        req.append('still_checked: true')
    if F.confidence is not None:
        req.append('confidence: ' + E.ystr(F.confidence))
    pre = F.preface_text()
    if pre:
        req += E.ytext('preface', pre)
    if F.table is not None:
        req.append('result_table:')
        req += ['  - ' + E.ystr(r if r == 'boot_successes' else 'dmesg.' + r)
                for r in R.table_rows]
    else:
        req.append('no_result_table: true')
    if F.notes:
        req.append('notes:')
        for place, (kind, v) in F.notes:
            req.append('  - at: ' + place)
            if kind == 'text':
                req += ['    ' + x for x in E.ytext('text', v)]
            elif kind == 'fail':
                req.append('    fail_runs: true')
                if v.axes:
                    req.append('    axes: true')
                req.append('    stats:')
                req += ['      - ' + E.ystr(n) for n, _ in v.rows]
            else:
                raise Fail('%s: a second result table' % F.path)
    if evidence is not None:
        if not evidence:
            req.append('no_evidence: true')
        else:
            req.append('evidence:')
            for it in evidence:
                first = True
                if not it:
                    req.append('  - {}')
                    continue
                for k in ('file', 'run', 'before', 'after', 'from', 'lines',
                          'text', 'fail_runs', 'axes', 'stats'):
                    if k not in it:
                        continue
                    pre_ = '  - ' if first else '    '
                    if k in ('fail_runs', 'axes'):
                        req.append('%s%s: true' % (pre_, k))
                    elif k == 'stats':
                        req.append('%sstats:' % pre_)
                        req += ['      - ' + E.ystr(n) for n in it[k]]
                    elif k == 'text':
                        req += [(pre_ if i == 0 else '    ') + x for i, x in
                                enumerate(E.ytext('text', it[k]))]
                    else:
                        req.append('%s%s: %s' % (pre_, k, E.ystr(it[k])))
                    first = False
    if F.evidence_at:
        req.append('evidence_at: ' + F.evidence_at)
    if F.no_repro:
        req.append('no_repro: true')
    if F.reported_by:
        req.append('reported_by: ' + E.ystr(F.reported_by))
    else:
        req.append('no_tags: true')
    if F.sender_name:
        req.append('sender_name: ' + E.ystr(F.sender_name))
    return req


def write(F, outdir, date):
    R = Roots(F)
    os.makedirs(outdir, exist_ok=True)
    for name in sorted(os.listdir(outdir)):
        if re.fullmatch(r'([ab]\d+-)?rt\d+|attachments', name):
            shutil.rmtree(os.path.join(outdir, name))
    params_lines = E.job_param_lines(F.params, F.testcase, date)
    for j, c in enumerate(R.commits):
        rt = os.path.join(outdir, 'rt%d' % j)
        os.makedirs(rt)
        root = '/result/%s/%s/%s/%s/%s/%s' % (F.testcase, F.tbox, F.rootfs,
                                              F.kconfig_job, F.compiler, c.sha)
        write_matrix(rt, c, root)
        for i in range(c.runs):
            d = os.path.join(rt, str(i))
            os.makedirs(d)
            with open(os.path.join(d, 'job.yaml'), 'w') as f:
                f.write(job_yaml(F, c, F.testcase, params_lines, F.host))
    tested = len(R.commits) - 1
    evidence = evidence_files(F, R, os.path.join(outdir, 'rt%d' % tested, '0'))
    out = ['commits:']
    for c in R.commits:
        out.append('- id: ' + c.sha)
        if c.subject is not None:
            out.append('  subject: ' + json.dumps(c.subject, ensure_ascii=False))
        if c.tag:
            out.append('  tag: ' + E.yaml_scalar(c.tag))
        if c.sha == F.commit and F.release:
            out.append('  release: ' + E.ystr(F.release))
    with open(os.path.join(outdir, 'commits.yaml'), 'w') as f:
        f.write('\n'.join(out) + '\n')
    with open(os.path.join(outdir, 'date'), 'w') as f:
        f.write(date + '\n')
    with open(os.path.join(outdir, 'request.yaml'), 'w') as f:
        f.write('\n'.join(request_lines(F, R, date, evidence)) + '\n')
    cfg = ['# robot\'s configuration for this round trip (eml2lkp).',
           'spool: spool', 'archive_dir: archive', 'mbox: mbox']
    m = re.fullmatch(r'<\d{12}\.[0-9a-f]+-([^@<>]+)@([^@<>]+)>',
                     F.message_id or '')
    if m:
        cfg.append('message_id_user: ' + E.ystr(m.group(1)))
        cfg.append('message_id_domain: ' + E.ystr(m.group(2)))
        cfg += E.zero_day_identity(('message_id_user', 'message_id_domain'))
    else:
        cfg += E.zero_day_identity()
    if F.hdr_date:
        cfg.append('timezone: "%s"' % F.hdr_date[-5:])
    with open(os.path.join(outdir, 'robot.yaml'), 'w') as f:
        f.write('\n'.join(cfg) + '\n')


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def headers_of(F, mail):
    h = mail.headers
    F.message_id = F.in_reply_to = F.hdr_date = F.from_ = F.tree = None
    F.to, F.cc = [], []
    mid = h.get('message-id', '').strip()
    if re.fullmatch(r'<[^<>\s]+@[^<>\s]+>', mid):
        F.message_id = mid
    irt = h.get('in-reply-to', '').strip()
    if re.fullmatch(r'<[^<>\s]+@[^<>\s]+>', irt):
        F.in_reply_to = irt
    if h.get('date'):
        import email.utils
        t = email.utils.parsedate_tz(h['date'])
        if t and t[9] is not None:
            z = t[9] // 60
            F.hdr_date = '%04d-%02d-%02d %02d:%02d:%02d %s%02d%02d' % (
                t[0], t[1], t[2], t[3], t[4], t[5],
                '-' if z < 0 else '+', abs(z) // 60, abs(z) % 60)
    for key, attr in (('from', 'from_'), ('to', 'to'), ('cc', 'cc')):
        if key not in h:
            continue
        addrs = E.address_list(h[key])
        setattr(F, attr, (addrs[0] if addrs else None) if attr == 'from_'
                else addrs)
    # the sending operator: the local part of the From address (the key
    # of the operators' own rows of config/data/styles)
    F.operator = None
    m = re.search(r'<([^<>@\s]+)@[^<>]*>\s*$', F.from_ or '') or \
        re.fullmatch(r'\s*([^<>@\s]+)@\S+\s*', F.from_ or '')
    if m:
        F.operator = m.group(1)
    subj = re.sub(r'\r?\n(?=[ \t])', '', h.get('subject', '')).strip()
    F.subject = subj
    F.tree = E.subject_tree(subj)
    # a hand-sent report's "[confidence: ]" before the sha (2022)
    m = re.search(r'\] +\[confidence: ([^\]]*)\] [0-9a-f]{10}:', subj)
    F.confidence = m.group(1) if m else None
    if F.headline is None:
        F.headline = headline_of(subj, F.path)


def finish(F, date):
    """What the mail says only between the lines: host, box, kconfig.
    The machine text goes to the request as it is (the functional reports'
    host lines follow their own senders; robot's host templates are the
    performance reports' business)."""
    F.host = None
    if 'qemu-system' in F.machine:
        F.tbox = 'vm-snb'
    else:
        F.tbox = 'lkp-' + re.sub(r'[^a-z0-9]+', '-', F.machine.lower())[:12].strip('-')
    F.rootfs = 'debian-x86_64.cgz'
    arch = F.arch or ('i386' if 'i386' in F.machine else 'x86_64')
    F.kconfig_job = F.kconfig or '%s-kconfig' % arch
    if F.arch and not F.kconfig_job.startswith(F.arch + '-'):
        F.kconfig_job = '%s-kconfig' % F.arch
    # a fail:runs table's axes name the box, rootfs, kconfig and compiler
    for _, it in F.notes + [(None, x) for x in F.evidence]:
        if it[0] == 'fail' and it[1].axes:
            keys = it[1].axes[0].split('/')
            vals = it[1].axes[1].split('/')
            if len(keys) >= 5 and keys[:5] == ['tbox_group', 'testcase',
                                               'rootfs', 'kconfig', 'compiler']:
                F.tbox, _, F.rootfs, F.kconfig_job, F.compiler = vals[:5]
                # an axis the parameters do not list: a test program's own
                # value (boot's "sleep: 1", 470), which robot does not list
                shown = set(k for k, _ in F.params)
                F.unlisted = [(k, v) for k, v in zip(keys[5:], vals[5:])
                              if k not in shown]
    # a boot test's job runs lkp-tests' program "sleep: 1" (jobs/boot.yaml)
    # and nothing else, which no report lists
    if F.testcase == 'boot' and not F.params and \
            not getattr(F, 'unlisted', None):
        F.unlisted = [('sleep', '1')]


def preface_text(F, date):
    """The words before the greeting: what is left before robot's empty
    lines of the day (flead)."""
    top = F.preface_lines
    lead = int(E.style_value('flead', date, F.operator) or 0)
    if F.form == 'fyi' and F.greeting is None:
        lead = 0
    if not any(top):
        if len(top) != lead:
            F.lead_note = 'the greeting has %d empty lines before it, robot %d' \
                % (len(top), lead)
        return None
    # the words end in fewer empty lines than robot writes: read all the
    # same, robot's count is then a difference the round trip shows
    k = len(top)
    while k > 0 and len(top) - k < lead and not top[k - 1]:
        k -= 1
    words = top[:k]
    if find_blocks(words):
        # the sender's words with a table: notes before the greeting
        F.notes[0:0] = [('preface', it) for it in split_items(words, 'preface')]
        return None
    return '\n'.join(words) + '\n'


def run(mail, args, helpers, date):
    """eml2lkp's functional mode: 0, or an exception eml2lkp reports."""
    global E
    E = helpers
    try:
        F = Functional(mail.path, mail.text, mail.headers, date)
        headers_of(F, mail)
        finish(F, date)
    except Fail as e:
        raise helpers.InputError(str(e))
    pre = preface_text(F, date)
    F.preface_text = lambda: pre
    try:
        write(F, args.outdir, date)
    except Fail as e:
        raise helpers.InputError(str(e))
    return 0
