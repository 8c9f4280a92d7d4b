# SPDX-License-Identifier: GPL-2.0-only
"""eml2lkp for the build service's branch summaries ("[tree:branch] BUILD
SUCCESS | BUILD SUCCESS WITH WARNING | BUILD REGRESSION <sha>").

From the mail it writes what the build farm would have had
(doc/build-summary.md, doc/build-result.md):

  OUTDIR/builds/NNN/   one build result per config of the table, in the
                       table's order: build.yaml (arch, config, compiler,
                       status), build.log, and base.log for the findings
                       the base build had too;
  OUTDIR/builds/sNNN/  the configs skipped (status: skipped);
  OUTDIR/recent/       a build of an earlier head of the branch holding
                       the new lines no config of the tree shows;
  OUTDIR/request.yaml, OUTDIR/robot.yaml.

The logs hold compiler lines, never the mail's ids: a listed line goes to
the build.log of each config whose tree entry is its id; an id no listed
line gives is an old finding, written as a line of both logs whose id it
is (the id with its ':' followed by a blank and its '-' as blanks: robot's
id rule reads it back to the id).  Facts the mail does not show are plain
placeholders: a skipped config's name, the earlier head's config; the
compiler is the table's name of it (gcc, clang, gcc-14.2.0, clang-18).
"""
import email
import email.policy
import email.utils
import os
import re
import sys

EX_DATAERR = 65

SUBJECT_RE = re.compile(r'^\[([^:\]]+):([^\]]+)\] BUILD (SUCCESS WITH WARNING|'
                        r'SUCCESS|REGRESSION) ([0-9a-f]{40})$')


class Fail(Exception):
    pass


def unfold(v):
    return re.sub(r'\r?\n[ \t]', ' ', v or '').strip()


def is_summary(path):
    try:
        with open(path, 'rb') as f:
            msg = email.message_from_binary_file(f,
                                                 policy=email.policy.compat32)
    except OSError:
        return False
    return bool(SUBJECT_RE.match(re.sub(r'\s+', ' ', unfold(msg['Subject']))))


def body_text(msg):
    for part in msg.walk():
        if part.get_content_maintype() == 'multipart':
            continue
        if part.get_content_type() == 'text/plain' and not part.get_filename():
            raw = part.get_payload(decode=True) or b''
            return raw.decode(part.get_content_charset() or 'us-ascii',
                              'replace')
    raise Fail('no text part')


def ystr(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def mailboxes(v):
    out = []
    for name, addr in email.utils.getaddresses([unfold(v)]):
        if addr:
            out.append(email.utils.formataddr((name, addr)) if name
                       else '<%s>' % addr)
    return out


def slug(line, drop_dym):
    """robot's finding id (robot/kinds/build/buildlog.c), to pair the
    listed lines with the tree's ids."""
    s = line.strip()
    if drop_dym:
        s = re.sub(r'; did you mean .*$', '', s)
    s = re.sub(r' \[-W[^\],]*\]$', '', s)
    s = re.sub(r'^ERROR: modpost: ', 'ERROR: ', s)
    s = re.sub(r'(__compiletime_assert_)\d+', r'\1NNN', s)
    s = re.sub(r'\+0x[0-9a-fA-F]+', '', s)
    s = re.sub(r'0x[0-9a-fA-F]*', '', s)
    s = re.sub(r':\d+', '', s)
    s = re.sub(r'\[\d+\]', '', s)
    s = re.sub(r"['`*]", ' ', s)
    s = re.sub(r'[^A-Za-z0-9_.:()/ \-]', '', s)
    s = re.sub(r'\b\d+\b', '', s)
    s = s.replace('/', '-')
    s = re.sub(r'\s+', ' ', s).strip()
    s = ' '.join(w.lstrip('-') for w in s.split(' ') if w.lstrip('-'))
    return s.replace(': ', ':').replace(' ', '-')[:200]


# an id a cut tree hides (the mail cannot show it)
HIDDEN = 'hidden:warning:past-the-cut'


def old_line(fid):
    """A log line whose id is `fid` (see the module docstring)."""
    return fid.replace(':', ': ').replace('-', ' ')


def parse(text):
    lines = text.split('\n')
    m = {'reports': [], 'listed': [], 'unverified': [], 'trees': {},
         'rows': []}
    i = 0

    def at(k):
        return lines[k] if k < len(lines) else ''
    while i < len(lines):
        line = lines[i]
        if line.startswith('tree/branch: '):
            m['repo_url'] = line.split()[1]
        elif line.startswith('branch HEAD: '):
            rest = line[len('branch HEAD: '):]
            sha, _, subj = rest.partition('  ')
            m['head_subject'] = subj
        elif re.match(r'^(Error/|)Warning reports:$', line):
            i += 2
            while at(i).startswith('https://'):
                m['reports'].append(at(i))
                i += 1
            continue
        elif (re.search(r'in current branch', line) and
              not line.startswith('possible')) or \
                re.search(r'^(Error/Warning|Warning|Error):? \(recently', line):
            i += 2
            while at(i).strip():
                s = at(i)
                if s.startswith('    '):
                    s = s[4:]
                if s.startswith('https://'):
                    m['reports'].append(s)
                else:
                    m['listed'].append(s)
                i += 1
                if not at(i).strip() and at(i + 1).startswith('    ') and \
                        m['reports'] and not m['listed']:
                    i += 1
            continue
        elif line.startswith(('possible ', 'Unverified ')):
            i += 2
            while at(i).strip():
                s = at(i)
                m['unverified'].append(s[4:] if s.startswith('    ') else s)
                i += 1
            continue
        elif line in ('recent_errors', 'gcc_recent_errors',
                      'clang_recent_errors'):
            fam = line.split('_')[0] if line != 'recent_errors' else None
            i += 1
            cur = None
            last = ''
            while at(i).startswith(('|', '`', '    ')):
                last = at(i)
                s = at(i)
                if s.startswith(('|-- ', '`-- ')):
                    cur = (fam, s[4:])
                    m['trees'].setdefault(cur, [])
                else:
                    m['trees'][cur].append(s[8:])
                i += 1
            if last.startswith('|'):
                # a tree cut short (778, 786): its last config has ids
                # the cut hides, and a config follows it
                if not m['trees'][cur]:
                    m['trees'][cur].append(HIDDEN)
                m['trees'][(fam, 'zz-hidden')] = [HIDDEN]
            continue
        elif line.startswith('elapsed time: '):
            m['elapsed'] = int(line.split()[2].rstrip('m'))
        elif line.startswith('configs skipped: '):
            m['skipped'] = int(line.split()[2])
            i += 1
            fam = None
            while i < len(lines) and not lines[i].startswith('--'):
                s = lines[i]
                if s in ('gcc tested configs:', 'clang tested configs:'):
                    fam = s.split()[0]
                elif s == 'tested configs:':
                    fam = None
                elif s and not s.startswith(('The following', 'More configs')):
                    r = re.match(r'^(\S+) +(\S+)(?: +(\S+) *)?$', s)
                    if not r:
                        raise Fail('table row %r' % s)
                    m['rows'].append((r.group(1), r.group(2),
                                      r.group(3) or fam or 'gcc'))
                i += 1
            continue
        i += 1
    return m


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def build_yaml(arch, config, compiler, status):
    out = ['arch: ' + ystr(arch), 'config: ' + ystr(config)]
    if compiler:
        out.append('compiler: ' + ystr(compiler))
    out.append('status: ' + status)
    return '\n'.join(out) + '\n'


def run(path, outdir):
    try:
        return _run(path, outdir)
    except Fail as e:
        sys.stderr.write('eml2lkp: error: %s: %s\n' % (path, e))
        return EX_DATAERR


def _run(path, outdir):
    with open(path, 'rb') as f:
        msg = email.message_from_binary_file(f, policy=email.policy.compat32)
    subj = re.sub(r'\s+', ' ', unfold(msg['Subject']))
    tree, branch, verdict, head = SUBJECT_RE.match(subj).groups()
    m = parse(body_text(msg))
    t = email.utils.parsedate_tz(msg['Date'])
    if not t:
        raise Fail('no Date')
    tz = t[9] // 60
    date = '%04d-%02d-%02d %02d:%02d:%02d %c%02d%02d' % (
        t[0], t[1], t[2], t[3], t[4], t[5], '-' if tz < 0 else '+',
        abs(tz) // 60, abs(tz) % 60)
    # gcc's "; did you mean" is in the ids until 2021-02 (summary-styles)
    drop = '%04d-%02d-%02d' % t[:3] >= '2021-02-12'
    status = {'REGRESSION': 'error', 'SUCCESS WITH WARNING': 'warning',
              'SUCCESS': 'success'}[verdict]
    # a tree's config is the table's row of its label and family
    rows = {}
    for k, (a, c, comp) in enumerate(m['rows']):
        fam = 'clang' if comp.startswith('clang') else 'gcc'
        rows.setdefault((fam, '%s-%s' % (a, c)), k)
        rows.setdefault((None, '%s-%s' % (a, c)), k)
    logs = [[] for _ in m['rows']]
    bases = [[] for _ in m['rows']]
    unver = [[] for _ in m['rows']]
    recent, recent_unv = [], []
    # a config of the tree the table does not show: a build of an earlier
    # head of the branch (request's recent:)
    extra = [label for label in m['trees'] if label not in rows]
    for label in extra:
        rows[label] = len(m['rows']) + extra.index(label)
    logs += [[] for _ in extra]
    bases += [[] for _ in extra]
    unver += [[] for _ in extra]
    covered = set()
    for kind, src in (('v', m['listed']), ('u', m['unverified'])):
        for line in src:
            fid = slug(line, drop)
            hit = False
            for label, ids in m['trees'].items():
                if fid in ids:
                    k = rows[label]
                    (logs if kind == 'v' else unver)[k].append(line)
                    covered.add((label, fid))
                    hit = True
            if not hit:  # noqa: the untracked build's
                (recent if kind == 'v' else recent_unv).append(line)
    for label, ids in m['trees'].items():
        k = rows[label]
        for fid in ids:
            if (label, fid) not in covered:
                logs[k].append(old_line(fid))
                bases[k].append(old_line(fid))
    bdirs = []
    for k, (arch, config, comp) in enumerate(m['rows']):
        d = os.path.join(outdir, 'builds', '%03d' % k)
        intree = any(rows[t] == k for t in m['trees'])
        write(os.path.join(d, 'build.yaml'),
              build_yaml(arch, config, comp, status if intree else 'success'))
        write(os.path.join(d, 'build.log'),
              'make ARCH=%s %s\n' % (arch, config) +
              ''.join(x + '\n' for x in logs[k]))
        if bases[k]:
            write(os.path.join(d, 'base.log'),
                  ''.join(x + '\n' for x in bases[k]))
        if unver[k]:
            write(os.path.join(d, 'unverified.log'),
                  ''.join(x + '\n' for x in unver[k]))
        bdirs.append('builds/%03d' % k)
    for k in range(m.get('skipped', 0)):
        d = os.path.join(outdir, 'builds', 's%03d' % k)
        write(os.path.join(d, 'build.yaml'),
              build_yaml('unknown', 'skipped-%d' % k, None, 'skipped'))
        bdirs.append('builds/s%03d' % k)
    req = ['# a branch summary rebuilt by eml2lkp (eml2lkp_summary.py)',
           'kind: build-summary',
           'date: ' + ystr(date),
           'message_id: ' + ystr(unfold(msg['Message-ID'])),
           'from: ' + ystr(mailboxes(msg['From'])[0]),
           'to: [%s]' % ', '.join(ystr(x) for x in mailboxes(msg['To'])),
           'cc: [%s]' % ', '.join(ystr(x) for x in mailboxes(msg['Cc'])),
           'tree: ' + ystr(tree), 'branch: ' + ystr(branch),
           'repo_url: ' + ystr(m['repo_url']), 'head: ' + head,
           'head_subject: ' + ystr(m['head_subject']),
           'elapsed_minutes: %d' % m['elapsed']]
    if m['reports']:
        req.append('reports: [%s]' % ', '.join(ystr(x) for x in m['reports']))
    req.append('builds:')
    req += ['  - ' + b for b in bdirs]
    rdirs = []
    for n, label in enumerate(extra):
        k = rows[label]
        fam = label[0] or 'gcc'
        arch, _, config = label[1].partition('-')
        d = os.path.join(outdir, 'recent', '%03d' % n)
        write(os.path.join(d, 'build.yaml'),
              build_yaml(arch, config, fam, status))
        write(os.path.join(d, 'build.log'),
              'make ARCH=%s %s\n' % (arch, config) +
              ''.join(x + '\n' for x in logs[k]))
        if bases[k]:
            write(os.path.join(d, 'base.log'),
                  ''.join(x + '\n' for x in bases[k]))
        if unver[k]:
            write(os.path.join(d, 'unverified.log'),
                  ''.join(x + '\n' for x in unver[k]))
        rdirs.append('recent/%03d' % n)
    if recent or recent_unv:
        # lines of builds the tree does not group (tracked: false)
        d = os.path.join(outdir, 'recent', 'untracked')
        write(os.path.join(d, 'build.yaml'),
              build_yaml('unknown', 'earlier-head', 'gcc', status) +
              'tracked: false\n')
        write(os.path.join(d, 'build.log'),
              'make\n' + ''.join(x + '\n' for x in recent))
        if recent_unv:
            write(os.path.join(d, 'unverified.log'),
                  ''.join(x + '\n' for x in recent_unv))
        rdirs.append('recent/untracked')
    if rdirs:
        req.append('recent:')
        req += ['  - ' + b for b in rdirs]
    write(os.path.join(outdir, 'request.yaml'), '\n'.join(req) + '\n')
    write(os.path.join(outdir, 'robot.yaml'),
          '# robot\'s configuration for this round trip (eml2lkp)\n'
          'spool: spool\narchive_dir: archive\nmbox: mbox\n')
    return 0
