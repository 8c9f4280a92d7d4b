# SPDX-License-Identifier: GPL-2.0-only
"""lkpreply: eml2lkp's reply mode (imported by tests/tools/eml2lkp).

A follow-up in a report's thread -- an LKP operator's or the robot's
answer to a developer who asked for a retest: it quotes the developer's
mail ("> "), says a few words, and shows new comparison blocks of two or
more commits (the base, the reported commit, a fix or the tail of a
series), often several blocks for several tests.  robot writes such a
mail with `robot reply --to PARENT.eml REQUEST.yaml` (doc/reply.md).

This module reads such a mail and writes the inputs behind it:

  rt<j>, b<k>-rt<j>  the result roots of block 0 and of block k, solved
                     by eml2lkp's table half; the rows of one sort group
                     are ordered by their changes taken as a tuple, as
                     lkp-tests sorts N columns (see assign_targets).  A
                     block that shows stats no selection keeps (every
                     change 0.0 and no stddev, e.g. page_size) is an
                     `lkp ncompare --all` table: solved without the
                     selection rules, and `all_stats: true` in the request.
  commits.yaml       the compared commits: tags, subjects as the commit
                     lines show them (none when they show bare ids).
  parent.eml         the mail answered, as far as the quote shows it: the
                     attribution line gives its sender's name and its Date,
                     In-Reply-To its Message-ID, the References before it
                     its own References; the recipients are the reply's,
                     the quoted lines its text.
  request.yaml       the reply request: date, message_id, from and
                     sender_name of the reply, the parent's Message-ID
                     (in_reply_to), the KPI the Subject names, the result
                     roots (block 0) and `sections` (the further blocks).
  robot.yaml         spool and mailbox inside OUTDIR; the reply's sender
                     is the robot (from).

The robot account's own follow-ups (2020-2021) show a bare fail:runs
table instead: the commits' id line, the dashes, the fail:runs rows, no
"=====" head and no performance rows (corpus replies/601).  Its columns
are result roots as the functional mode writes them (lkpfunc: each stat
1 in as many runs as the row counts), and the request says `view:
fail_runs`.

Those of 2020 may show lkp-tests' older view of one stat instead
(sbin/compare -f FIELD): "commit:" over the commit lines, a column per
commit, a row per test ("testcase/testparams/testbox") and the GEO-MEAN
row.  Each test's roots get samples whose average and deviation print
as its cells (two runs a commit), their stats_source the LKP path that
names the test, and the request says `kpi: FIELD` and `view: compare`.

The words between the greeting and the first table are the request's
`statement` (the operator's in place of robot's own, as written).

Then `robot reply --dry-run -c OUTDIR/robot.yaml --to OUTDIR/parent.eml
OUTDIR/request.yaml` prints a reply whose tables are the mail's, byte for
byte (tests/t7200-reply-tables.sh).
"""
import email.utils
import json
import os
import re
import shutil
import time

# What eml2lkp lends (the module itself), set by run().
E = None

# mutt's attribution, "On %d, %n wrote:" with its date_format
ATTRIBUTION_RE = re.compile(r'^On (\w{3}, \w{3} \d\d, \d{4} at '
                            r'\d\d:\d\d:\d\d[AP]M [-+]\d{4}), (.+) wrote:$')
KPI_RE = re.compile(r'\s(\S+\.\S+) [-+]?\d+(?:\.\d+)?% '
                    r'(?:regression|improvement)\s*$')


def unquoted(lines):
    return [x for x in lines if not x.startswith('>')]


def is_reply(mail, headline_re):
    """A follow-up with a new comparison block: it quotes (lines with
    ">"), answers a mail (In-Reply-To), and outside the quote has a
    comparison block but no report headline."""
    if 'in-reply-to' not in mail.headers:
        return False
    if not any(x.startswith('>') for x in mail.lines):
        return False
    own = unquoted(mail.lines)
    flat = ' '.join(' '.join(own).split())
    if headline_re.search(flat):
        return False
    for i, line in enumerate(own):
        if re.fullmatch('={60,}', line.strip()) and i + 3 < len(own):
            return True
    # (a functional report may quote a log line with ">" and show a
    # fail:runs table: it is a report)
    import lkpfunc
    return bare_table(own) and not lkpfunc.is_functional('\n'.join(own))


def bare_table(own):
    """A comparison block without its "=====" head and parameter line,
    as the robot account's own follow-ups show it (2020-2021): a line of
    commit ids, then the dashes under each."""
    for a, b in zip(own, own[1:]):
        ids = a.split()
        if len(ids) >= 2 and all(re.fullmatch('[0-9a-f]{10,40}', x)
                                 for x in ids[:2]) and \
                re.match(r'^-{16} +-{16}', b.strip()):
            return True
    return False


class OwnText:
    """The reply's own text: the mail with the quoted lines left out."""

    def __init__(self, mail):
        self.__dict__.update(mail.__dict__)
        self.mail = mail
        self.lines = unquoted(mail.lines)
        self.text = '\n'.join(self.lines)
        self.tokens = self.text.split()

    def __getattr__(self, name):
        return getattr(self.mail, name)

    def full_shas(self):
        return sorted(set(re.findall(r'\b[0-9a-f]{40}\b', self.text)))

    def subject_of(self, prefix):
        return type(self.mail).subject_of(self, prefix)

    def param_order(self, keys):
        return []


def make_parser(e):
    class ReplyBlockParser(e.BlockParser):
        """eml2lkp's block reader, which also reads the commit lines as an
        operator's `git log --oneline` writes them: "<id> <subject>" with
        no quotes (125)."""

        def _commit_lines(self, blk, s):
            try:
                return super()._commit_lines(blk, s)
            except e.InputError:
                pass
            k = len(blk.columns)
            tok = s.split()
            starts = []
            pos = 0
            for col in blk.columns:
                while pos < len(tok) and not compatible(tok[pos], col.ident):
                    pos += 1
                if pos == len(tok):
                    raise e.InputError('block %d: cannot read the commit '
                                       'lines' % blk.index)
                starts.append(pos)
                pos += 1
            if starts[0] != 0:
                raise e.InputError('block %d: cannot read the commit lines'
                                   % blk.index)
            for j, col in enumerate(blk.columns):
                ident = tok[starts[j]]
                end = starts[j + 1] if j + 1 < k else len(tok)
                words = tok[starts[j] + 1:end]
                if not re.fullmatch('[0-9a-f]+', col.ident):
                    if words or ident != col.ident:
                        raise e.InputError('block %d: cannot read the commit'
                                           ' lines' % blk.index)
                    col.tag = ident
                    continue
                col.prefix = max(ident, col.ident, key=len)
                col.subject = exact_subject(self.mail.lines, ident) or \
                    (' '.join(words) if words else None)

    return ReplyBlockParser


def compatible(token, ident):
    if not re.fullmatch('[0-9a-f]+', ident):
        return token == ident
    return re.fullmatch('[0-9a-f]{7,40}', token) is not None and \
        (token.startswith(ident) or ident.startswith(token))


def exact_subject(lines, ident):
    rx = re.compile(r'^\s+' + re.escape(ident) + r' (\S.*?)\s*$')
    for line in lines:
        m = rx.match(line)
        if m:
            return m.group(1)
    return None


def make_assign(e):
    monotone = e.monotone

    def assign_targets(rows, rules, solver, pins=None):
        """eml2lkp's assign_targets for N columns.  lkp-tests sorts the
        rows of a group by [count, key, changes], the changes an array
        compared element by element, so a tie on the first change is
        broken by the next.  The hidden first changes must increase in
        mail order; a row whose change is pinned to one point by columns
        taken as missing (0.00, no stddev) ties with the rows pinned to the
        same point, which their later columns must then order
        (pinned_runs); failing that, it is freed by taking those columns
        as tiny samples (loosened): lkp-tests keeps a stat that is 0.004
        in every run.  pins as eml2lkp's: rows reproduced only by a change
        of their own choosing."""
        pins = pins or {}
        targets = [None] * len(rows)
        solver.group = list(range(len(rows)))
        if not getattr(rules, 'sort_by_change', not getattr(rules, 'legacy',
                                                            False)):
            return targets
        count = {}
        for r in rows:
            base = r.name.partition('.')[0]
            count[base] = count.get(base, 0) + 1
        for base in count:
            if rules.zero_base(base):
                count[base] = 0
        keys = [(count[r.name.partition('.')[0]], rules.sort_key(r.name))
                for r in rows]
        solver.group = keys
        i = 0
        while i < len(rows):
            j = i
            while j + 1 < len(rows) and keys[j + 1] == keys[i]:
                j += 1
            if j > i:
                group = list(range(i, j + 1))
                iv = []
                for g in group:
                    if g in pins:
                        iv.append((pins[g], pins[g]))
                        continue
                    kinds = [e.kind_options(rows[g], c, rules)[0]
                             for c in range(len(rows[g].means))]
                    f = solver.feasible_change(rows[g], kinds, rules)
                    if f is None:
                        iv = None
                        break
                    iv.append(f)
                if iv is not None:
                    got = monotone(iv)
                    if got is None:
                        got = pinned_runs(rows, group, iv)
                    if got is None:
                        got = monotone(loosened(rows, group, iv, rules,
                                                solver))
                    if got is None:
                        raise e.InputError('rows %s .. %s cannot be ordered '
                                           'by their changes'
                                           % (rows[i].name, rows[j].name))
                    for g, t in zip(group, got):
                        targets[g] = t
            i = j + 1
        return targets

    def loosened(rows, group, iv, rules, solver):
        out = []
        for g, f in zip(group, iv):
            r = rows[g]
            if f[0] == f[1]:
                opts = [e.kind_options(r, c, rules)
                        for c in range(len(r.means))]
                kinds = ['present' if 'present' in o else o[0] for o in opts]
                f2 = solver.feasible_change(r, kinds, rules)
                if f2 is not None:
                    f = f2
            out.append(f)
        return out

    def pinned_runs(rows, group, iv):
        elems = []      # (interval, [positions in group])
        for k, f in enumerate(iv):
            if f[0] == f[1] and elems and elems[-1][0] == f:
                elems[-1][1].append(k)
            else:
                elems.append((f, [k]))
        if all(len(m) == 1 for _, m in elems):
            return None
        got = monotone([f for f, _ in elems])
        if got is None:
            return None
        out = [None] * len(iv)
        for (f, members), t in zip(elems, got):
            if len(members) == 1:
                out[members[0]] = t
                continue
            # the base pinned to 0: the next change is the next mean,
            # whose printed intervals must already be apart, increasing
            ivs = []
            for m in members:
                r = rows[group[m]]
                if len(r.means) < 3:
                    return None
                ivs.append(e.mean_interval(r.means[2], r.sds[2]))
            if any(a[1] >= b[0] for a, b in zip(ivs, ivs[1:])):
                return None
        return out

    return assign_targets


def all_stats_block(blk):
    """An `lkp ncompare --all` table: rows no selection shows, a stat
    unchanged in every column with no stddev (page_size, nr_cpus)."""
    n = 0
    for r in blk.perf_rows:
        if all(c in ('+0.0%', '-0.0%') for c in r.changes) and \
                all(sd is None for sd in r.sds) and \
                len(set(r.means)) == 1 and r.means[0] not in ('0.00',):
            n += 1
    return n >= 2


def solve(e, blk, mail, date):
    """eml2lkp's solve_block; an --all table without the selection."""
    if not all_stats_block(blk):
        return e.solve_block(blk, mail, date, None), False
    saved = (e.stat_selected, e.stat_changed, e.make_distractors)
    e.stat_selected = lambda *a, **k: True
    e.stat_changed = lambda *a, **k: True
    e.make_distractors = lambda ctx, used: []
    try:
        return e.solve_block(blk, mail, date, None), True
    finally:
        e.stat_selected, e.stat_changed, e.make_distractors = saved


# -- the robot account's bare fail:runs tables -----------------------------

GREETING_RE = re.compile(r'^Hi [^ ,]+( [^ ,]+)?,$')


def table_start(lines, i):
    """Whether a table starts at lines[i]: a block's "=====" head, or the
    commits' id line over the dashes (a bare table)."""
    if re.fullmatch('={60,}', lines[i].strip()):
        return True
    if lines[i] in ('commit:', 'commit: ') and i + 1 < len(lines) and \
            lines[i + 1].startswith('  '):
        return True    # the compare view's commit lines
    return i + 1 < len(lines) and bare_table(lines[i:i + 2])


def statement(own):
    """The words between the greeting and the first table, as written,
    or None (no greeting, no words, or no table after them)."""
    lines = own.lines
    g = next((i for i, x in enumerate(lines) if GREETING_RE.match(x)), None)
    if g is None:
        return None
    end = next((i for i in range(g + 1, len(lines))
                if table_start(lines, i)), None)
    if end is None:
        return None
    words = lines[g + 1:end]
    while words and not words[0].strip():
        words.pop(0)
    while words and not words[-1].strip():
        words.pop()
    return '\n'.join(words) + '\n' if words else None


def fail_blocks(own):
    """The bare fail:runs tables of the words (lkpfunc.FailBlock); the
    blanks some rows have at their ends (601's) are no part of a row:
    robot writes none (tests/fidelity.md, "The follow-ups")."""
    import lkpfunc
    lines = [x.rstrip() for x in own.lines]
    return [obj for _, _, kind, obj in lkpfunc.find_blocks(lines)
            if kind == 'fail' and obj.axes is None and
            bare_table(obj.lines[:2])]


def full_sha(mail, prefix):
    """The commit a table's id line shows the first digits of: a full id
    in the mail (the quoted report's commit line), else one made up."""
    import lkpfunc
    for sha in re.findall(r'\b[0-9a-f]{40}\b', mail.text):
        if sha.startswith(prefix):
            return sha
    return lkpfunc.full_id(prefix, ' '.join(msgids(
        mail.headers.get('message-id'))))


def quoted_testcase(mail):
    """The testcase the quoted report names ("in testcase: ltp")."""
    for line in mail.lines:
        m = re.match(r'^[> ]*in testcase: (\S+)$', line)
        if m:
            return m.group(1)
    return 'unknown'


def write_fail_roots(outdir, blocks, mail):
    """rt<j> (b<k>-rt<j> for a further table) of each bare fail:runs
    table: the runs and failures its rows count, as lkpfunc writes them."""
    import lkpfunc
    testcase = quoted_testcase(mail)
    for k, blk in enumerate(blocks):
        ids = blk.lines[0].split()
        if len(ids) != blk.ncommits or not blk.rows:
            raise E.InputError('%s: a fail:runs table of %d commits with '
                               '%d ids' % (mail.path, blk.ncommits,
                                           len(ids)))
        for j, ident in enumerate(ids):
            c = lkpfunc.Commit(full_sha(mail, ident))
            for name, cells in blk.rows:
                f, r = cells[j]
                if c.runs is not None and c.runs != r:
                    raise E.InputError('%s: %s: %d runs, elsewhere %d'
                                       % (mail.path, name, r, c.runs))
                c.runs = r
                if f:
                    c.stats[name] = f
            rt = os.path.join(outdir, ('rt%d' % j) if k == 0
                              else 'b%d-rt%d' % (k, j))
            os.makedirs(rt)
            root = '/result/%s/defaults/unknown/unknown/unknown/unknown/%s' \
                % (testcase, c.sha)
            lkpfunc.write_matrix(rt, c, root)
            job = ['suite: ' + E.yaml_scalar(testcase),
                   'testcase: ' + E.yaml_scalar(testcase),
                   'commit: ' + c.sha]
            for i in range(c.runs):
                os.makedirs(os.path.join(rt, str(i)))
                with open(os.path.join(rt, str(i), 'job.yaml'), 'w') as f:
                    f.write('\n'.join(job) + '\n')


# -- lkp-tests' older view: sbin/compare -f FIELD --------------------------

COMPARE_HEAD = 'testcase/testparams/testbox'


class CompareView:
    """The view's commit lines, column names, rows and field."""

    def __init__(self, lines, at):
        self.commit_lines = []
        i = at + 1
        while i < len(lines) and lines[i].startswith('  '):
            self.commit_lines.append(lines[i][2:])
            i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        head = lines[i] if i < len(lines) else ''
        if not head.endswith(COMPARE_HEAD):
            raise E.InputError('the compare view: no "%s" line under the '
                               'commit lines' % COMPARE_HEAD)
        self.names = head[:-len(COMPARE_HEAD)].split()
        n = len(self.names)
        self.rows = []      # (desc, [(value text, change text, sd text)])
        self.field = None
        for line in lines[i + 4:]:
            if not line.strip():
                break
            cells, rest = [], line
            for d in range(n):
                w = 18 if d == 0 else 28
                cell, rest = rest[:w], rest[w:]
                chg = '' if d == 0 else cell[:10].strip()
                body = cell if d == 0 else cell[10:]
                cells.append((body[:10].strip(), chg, body[10:16].strip()))
            if rest.startswith('GEO-MEAN '):
                self.field = rest[len('GEO-MEAN '):]
                break
            self.rows.append((rest, cells))
        if self.field is None or not self.rows:
            raise E.InputError('the compare view: no GEO-MEAN row')


def compare_view(own):
    """The compare view of the words, or None."""
    for i, line in enumerate(own.lines):
        if line in ('commit:', 'commit: ') and i + 1 < len(own.lines) and \
                own.lines[i + 1].startswith('  ') and \
                any(x.endswith(COMPARE_HEAD) for x in own.lines[i:i + 40]):
            return CompareView(own.lines, i)
    return None


def cell_samples(value, sd):
    """Two samples whose average prints as `value` ("%10d", "%10.2f") and
    whose deviation prints as `sd` (" ±N%", or blank below 3%)."""
    if '.' in value:
        m = float(value)
        d = m * (int(sd.strip('±%')) + 0.5) / 100 if sd else 0.0
        return [round(m - d, 6), round(m + d, 6)]
    v = int(value)
    if not sd:
        return [v, v + 1]       # the average v + 0.5 prints as v
    k = max(0, round((int(sd.strip('±%')) + 0.5) * (v + 0.5) / 100 - 0.5))
    return [v - k, v + 1 + k]


def write_compare_roots(outdir, view, mail):
    """rt<j> of the view's commits: per test, the field's samples under
    its LKP path (/result/TESTCASE/PATH_PARAMS/TBOX_GROUP/...)."""
    shas = [full_sha(mail, x) if re.fullmatch('[0-9a-f]{7,40}', x)
            else lkpfunc_full_id('', x + ' ' + mail.path)
            for x in view.names]
    if len(view.rows) != 1:
        raise E.InputError('%s: the compare view of %d tests: robot writes '
                           'one test a request' % (mail.path,
                                                   len(view.rows)))
    desc, cells = view.rows[0]
    parts = desc.split('/')
    if len(parts) != 3:
        raise E.InputError('%s: %r is no testcase/testparams/testbox'
                           % (mail.path, desc))
    testcase, pp, tbox = parts
    for j, sha in enumerate(shas):
        value, _, sd = cells[j]
        samples = cell_samples(value, sd)
        rt = os.path.join(outdir, 'rt%d' % j)
        os.makedirs(rt)
        root = '/result/%s/%s/%s/unknown/unknown/unknown/%s' % (
            testcase, pp, tbox, sha)
        m = {view.field: samples,
             'stats_source': ['%s/%d/stats.json' % (root, i)
                              for i in range(len(samples))]}
        with open(os.path.join(rt, 'matrix.json'), 'w') as f:
            json.dump(m, f, indent=1, sort_keys=True)
            f.write('\n')
        job = ['suite: ' + E.yaml_scalar(testcase),
               'testcase: ' + E.yaml_scalar(testcase),
               'tbox_group: ' + E.yaml_scalar(tbox),
               'testbox: ' + E.yaml_scalar(tbox),
               'commit: ' + sha]
        for i in range(len(samples)):
            os.makedirs(os.path.join(rt, str(i)))
            with open(os.path.join(rt, str(i), 'job.yaml'), 'w') as f:
                f.write('\n'.join(job) + '\n')
    out = ['commits:']
    for sha, name, line in zip(shas, view.names, view.commit_lines):
        out.append('- id: ' + sha)
        m = re.fullmatch(r'[0-9a-f]{7,40} \("(.*)"\)', line)
        if m:
            out.append('  subject: ' + json.dumps(m.group(1),
                                                  ensure_ascii=False))
        elif not re.fullmatch('[0-9a-f]{7,40}', name):
            out.append('  tag: ' + E.yaml_scalar(name))
    with open(os.path.join(outdir, 'commits.yaml'), 'w') as f:
        f.write('\n'.join(out) + '\n')


def lkpfunc_full_id(prefix, salt):
    import lkpfunc
    return lkpfunc.full_id(prefix, salt)


# -- the mail answered ------------------------------------------------------

def parent_of(mail):
    """(name, date header, RFC 5322 date) of the attribution line."""
    for line in mail.lines:
        m = ATTRIBUTION_RE.match(line)
        if not m:
            continue
        try:
            t = time.strptime(m.group(1), '%a, %b %d, %Y at %I:%M:%S%p %z')
        except ValueError:
            continue
        z = m.group(1)[-5:]
        date = '%s, %d %s %d %02d:%02d:%02d %s' % (
            time.strftime('%a', t), t.tm_mday, time.strftime('%b', t),
            t.tm_year, t.tm_hour, t.tm_min, t.tm_sec, z)
        return m.group(2), date
    raise E.InputError('%s: no "On <date>, <name> wrote:" line: which mail '
                       'does it answer?' % mail.path)


def msgids(value):
    return re.findall(r'<[^<>\s]+@[^<>\s]+>', value or '')


def addr_of(entry):
    m = re.search(r'<([^<>]+)>', entry)
    return (m.group(1) if m else entry).strip().lower()


def name_of(entry):
    m = re.match(r'\s*"?([^"<]*?)"?\s*<', entry)
    return m.group(1).strip() if m else ''


def write_parent(outdir, mail, name):
    """parent.eml: the mail the reply answers, rebuilt from the reply."""
    h = mail.headers
    dev, date = parent_of(mail)
    to = E.address_list(h.get('to', ''))
    cc = E.address_list(h.get('cc', ''))
    sender = E.address_list(h.get('from', ''))
    who = [x for x in to + cc if name_of(x) == dev]
    if not who:
        raise E.InputError('%s: the answered "%s" is not among the '
                           'recipients' % (mail.path, dev))
    dev_addr = addr_of(who[0])
    others = [x for x in to + cc if addr_of(x) != dev_addr and
              (not sender or addr_of(x) != addr_of(sender[0]))]
    refs = msgids(h.get('references'))
    irt = msgids(h.get('in-reply-to'))
    if not irt:
        raise E.InputError('%s: In-Reply-To: no Message-ID' % mail.path)
    parent_refs = [x for x in refs if x != irt[0]]
    body = []
    for line in mail.lines:
        if line.startswith('>'):
            body.append(line[2:] if line.startswith('> ') else line[1:])
    while body and not body[-1].strip():
        body.pop()
    out = ['Date: ' + date,
           'From: ' + who[0]]
    if sender:
        out.append('To: ' + sender[0])
    if others:
        out.append('Cc: ' + ', '.join(others))
    out.append('Subject: ' + ' '.join(h.get('subject', '').split()))
    out.append('Message-ID: ' + irt[0])
    if parent_refs:
        out.append('References: ' + ' '.join(parent_refs))
        out.append('In-Reply-To: ' + parent_refs[-1])
    out += ['MIME-Version: 1.0',
            'Content-Type: text/plain; charset=utf-8',
            'Content-Transfer-Encoding: 8bit', '']
    with open(os.path.join(outdir, 'parent.eml'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(out + body) + '\n')
    return irt[0]


# -- the inputs -------------------------------------------------------------

def write_roots(outdir, results, mail, date):
    e = E
    commits, seen = [], set()
    for res in results:
        blk = res.blk
        params = e.job_params(blk, mail, False)
        testcase = res.ctx.testcase
        axes = dict(blk.axes)
        rootfs = os.path.basename(axes.get('rootfs', 'rootfs'))
        pp = e.path_params(params)
        for j, col in enumerate(blk.columns):
            if col.sha not in seen:
                seen.add(col.sha)
                commits.append(col)
            rt = os.path.join(outdir, ('rt%d' % j) if blk.index == 0
                              else 'b%d-rt%d' % (blk.index, j))
            os.makedirs(rt)
            root = '/'.join(['/result', testcase, pp,
                             axes.get('tbox_group', 'unknown'), rootfs,
                             axes.get('kconfig', 'unknown'),
                             axes.get('compiler', 'unknown'), col.sha])
            m = type(res.matrices[j])(res.matrices[j])
            n = res.ctx.n[j]
            m['stats_source'] = ['%s/%d/stats.json' % (root, i)
                                 for i in range(n)]
            with open(os.path.join(rt, 'matrix.json'), 'w') as f:
                f.write(e.format_matrix(m, date))
            job = ['suite: ' + e.yaml_scalar(testcase),
                   'testcase: ' + e.yaml_scalar(testcase)]
            job += e.job_param_lines(params, testcase, date)
            job += ['tbox_group: ' + e.yaml_scalar(axes.get('tbox_group', '')),
                    'testbox: ' + e.yaml_scalar(axes.get('tbox_group', '')),
                    'rootfs: ' + e.yaml_scalar(rootfs),
                    'kconfig: ' + e.yaml_scalar(axes.get('kconfig', '')),
                    'compiler: ' + e.yaml_scalar(axes.get('compiler', '')),
                    'commit: ' + col.sha]
            for i in range(n):
                os.makedirs(os.path.join(rt, str(i)))
                with open(os.path.join(rt, str(i), 'job.yaml'), 'w') as f:
                    f.write('\n'.join(job) + '\n')
    return commits


def write_commits(outdir, commits):
    """commits.yaml, or nothing when the commit lines show bare full ids
    (robot prints a commit it knows nothing about so)."""
    if not any(c.subject is not None or c.tag for c in commits):
        return False
    out = ['commits:']
    for col in commits:
        out.append('- id: ' + col.sha)
        if col.subject is not None:
            out.append('  subject: ' + json.dumps(col.subject,
                                                  ensure_ascii=False))
        if col.tag:
            out.append('  tag: ' + E.yaml_scalar(col.tag))
    with open(os.path.join(outdir, 'commits.yaml'), 'w') as f:
        f.write('\n'.join(out) + '\n')
    return True


def rfc_to_request_date(value):
    t = email.utils.parsedate_tz(value or '')
    if not t:
        return None
    z = t[9] or 0
    sign = '-' if z < 0 else '+'
    z = abs(z) // 60
    return '%04d-%02d-%02d %02d:%02d:%02d %s%02d%02d' % (
        t[0], t[1], t[2], t[3], t[4], t[5], sign, z // 60, z % 60)


def roots_line(key, names):
    return '%s[%s]' % (key, ', '.join(names))


def write_request(outdir, mail, results, alls, parent_id, with_commits,
                  words=None, fails=(), view=None):
    e = E
    h = mail.headers
    req = ['# The reply request behind %s, rebuilt by eml2lkp.'
           % os.path.basename(mail.path)]
    date = rfc_to_request_date(h.get('date'))
    if date:
        req.append('date: ' + e.ystr(date))
    mid = msgids(h.get('message-id'))
    if mid:
        req.append('message_id: ' + e.ystr(mid[0]))
    sender = e.address_list(h.get('from', ''))
    if sender:
        req.append('from: ' + e.ystr(sender[0]))
        name = signed(mail) or name_of(sender[0])
        if name:
            req.append('sender_name: ' + e.ystr(name))
    req.append('in_reply_to: ' + e.ystr(parent_id))
    if with_commits:
        req.append('commits: commits.yaml')
    if words:
        req += e.ytext('statement', words)
    if view:
        req += ['commits: commits.yaml', 'kpi: ' + e.ystr(view.field),
                roots_line('result_roots: ', ['rt%d' % j for j in
                                              range(len(view.names))]),
                'view: compare']
        with open(os.path.join(outdir, 'request.yaml'), 'w') as f:
            f.write('\n'.join(req) + '\n')
        return
    if fails:
        write_fail_request(outdir, req, fails)
        return
    m = KPI_RE.search(' ' + ' '.join(h.get('subject', '').split()))
    rows0 = [r.name for r in results[0].blk.perf_rows]
    if m and m.group(1) in rows0:
        req.append('kpi: ' + e.ystr(m.group(1)))
    main = results[0].blk
    req.append(roots_line('result_roots: ', ['rt%d' % j for j in
                                             range(len(main.columns))]))
    if alls[0]:
        req.append('all_stats: true')
    if len(results) > 1:
        req.append('sections:')
        for res, a in zip(results[1:], alls[1:]):
            k = res.blk.index
            req.append(roots_line('- result_roots: ',
                                  ['b%d-rt%d' % (k, j) for j in
                                   range(len(res.blk.columns))]))
            if a:
                req.append('  all_stats: true')
    with open(os.path.join(outdir, 'request.yaml'), 'w') as f:
        f.write('\n'.join(req) + '\n')


def signed(mail):
    """Who signs the reply: the line under its "Best Regards,"."""
    own = unquoted(mail.lines)
    for a, b in zip(own, own[1:]):
        if a == 'Best Regards,' and b.strip():
            return b.strip()
    return None


def fail_all(blk):
    """Whether a bare fail:runs table is `ncompare --all`'s: lkp-tests
    selects a function stat only when its largest value differs between
    the commits (changed_stats?: max_a != max_b), so a row that every
    commit hit (2:15 against 12:12) is in no other table."""
    return any(all(f for f, _ in cells) for _, cells in blk.rows)


def write_fail_request(outdir, req, fails):
    """The roots of the bare fail:runs tables, each `view: fail_runs`."""
    req.append(roots_line('result_roots: ', ['rt%d' % j for j in
                                             range(fails[0].ncommits)]))
    req.append('view: fail_runs')
    if fail_all(fails[0]):
        req.append('all_stats: true')
    if len(fails) > 1:
        req.append('sections:')
        for k, blk in enumerate(fails[1:], 1):
            req.append(roots_line('- result_roots: ',
                                  ['b%d-rt%d' % (k, j)
                                   for j in range(blk.ncommits)]))
            req.append('  view: fail_runs')
            if fail_all(blk):
                req.append('  all_stats: true')
    with open(os.path.join(outdir, 'request.yaml'), 'w') as f:
        f.write('\n'.join(req) + '\n')


def write_config(outdir, mail):
    cfg = ['# robot\'s configuration for this round trip (eml2lkp, reply '
           'mode).', 'spool: spool', 'mbox: mbox']
    sender = E.address_list(mail.headers.get('from', ''))
    if sender:
        cfg.append('from: ' + E.ystr(sender[0]))
    with open(os.path.join(outdir, 'robot.yaml'), 'w') as f:
        f.write('\n'.join(cfg) + '\n')


def run(mail, args, eml2lkp, date):
    """eml2lkp's reply mode: 0, or an exception eml2lkp reports."""
    global E
    E = e = eml2lkp
    own = OwnText(mail)
    saved = e.assign_targets
    e.assign_targets = make_assign(e)
    fails, view = [], None
    try:
        blocks = make_parser(e)(own).parse()
        if not blocks:
            fails = fail_blocks(own)
        if not blocks and not fails:
            view = compare_view(own)
        if not blocks and not fails and not view:
            raise e.InputError('%s: no comparison block' % mail.path)
        results, alls = [], []
        for b in blocks:
            res, a = solve(e, b, own, date)
            results.append(res)
            alls.append(a)
    finally:
        e.assign_targets = saved
    outdir = args.outdir
    try:
        os.makedirs(outdir, exist_ok=True)
        for name in sorted(os.listdir(outdir)):
            if re.fullmatch(r'([ab]\d+-)?rt\d+', name):
                shutil.rmtree(os.path.join(outdir, name))
        for name in ('commits.yaml', 'parent.eml'):
            if os.path.exists(os.path.join(outdir, name)):
                os.unlink(os.path.join(outdir, name))
        if view:
            write_compare_roots(outdir, view, mail)
            with_commits = False
        elif fails:
            write_fail_roots(outdir, fails, mail)
            with_commits = False
        else:
            commits = write_roots(outdir, results, own, date)
            with_commits = write_commits(outdir, commits)
        parent_id = write_parent(outdir, mail, None)
        write_request(outdir, mail, results, alls, parent_id, with_commits,
                      statement(own), fails, view)
        write_config(outdir, mail)
        with open(os.path.join(outdir, 'date'), 'w') as f:
            f.write(date + '\n')
    except OSError as err:
        raise e.ReadError('%s: %s' % (err.filename or outdir, err.strerror))
    if args.verbose:
        import sys
        for res, a in zip(results, alls):
            sys.stderr.write('eml2lkp: reply block %d: runs %s, %d fail rows, '
                             '%d perf rows%s\n'
                             % (res.blk.index, res.ctx.n,
                                len(res.blk.fail_rows),
                                len(res.blk.perf_rows),
                                ', --all' if a else ''))
        for k, blk in enumerate(fails):
            sys.stderr.write('eml2lkp: reply fail:runs table %d: %d commits, '
                             '%d rows\n' % (k, blk.ncommits, len(blk.rows)))
    return 0
