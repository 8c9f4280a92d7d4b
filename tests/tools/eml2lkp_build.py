# SPDX-License-Identifier: GPL-2.0-only
"""eml2lkp_build: the inputs behind a kbuild finding report.

A finding report of the 0-day kbuild robot (a compiler error or warning,
sparse, smatch; on a commit of a tree or on a posted patch) becomes what
the operator had when robot wrote it (doc/build-result.md, doc/build.md):

  OUTDIR/build/build.yaml   the build result: arch, config, compiler,
                            commit, the make command lines the job ran
  OUTDIR/build/build.log    the compiler's output (the mail's lines
                            without their ">> " / "   " column)
  OUTDIR/build/base.log     the base build's: the lines the mail shows
                            without ">>" (they were there before)
  OUTDIR/build/.config      when the mail attached one (the archive did
                            not keep its content)
  OUTDIR/src/               a git repository whose commit holds the
                            excerpt's lines at their numbers
  OUTDIR/build/blame        `git blame --porcelain` of those lines, when
                            the mail shows blame columns
  OUTDIR/request.yaml       kind: build, the headers, the tree / patch
                            facts, the excerpt's file, line and window
  OUTDIR/robot.yaml         the configuration (spool inside OUTDIR)

Nothing of the report's layout is written: no line of the mail's body
except the compiler's output (build.log, base.log), the source lines
(src/, blame) and the make command lines (build.yaml make:), which are
the build job's own.
"""

import email
import email.policy
import email.utils
import os
import re
import subprocess


class NotMine(Exception):
    pass


def is_finding_mail(raw):
    m = email.message_from_bytes(raw, policy=email.policy.compat32)
    frm = m.get('From', '')
    subj = re.sub(r'\s+', ' ', m.get('Subject', ''))
    if 'lkp@intel.com' not in frm:
        return False
    if re.search(r'BUILD (SUCCESS|REGRESSION)', subj):
        return False
    body = text_part(m) or ''
    return ('(new ones prefixed by >>)' in body or
            'smatch warnings:' in body or
            'cocci warnings' in body)


def text_part(m):
    for part in m.walk():
        if part.get_content_maintype() == 'multipart':
            continue
        if part.get_content_type() == 'text/plain' and \
                not part.get_filename():
            raw = part.get_payload(decode=True) or b''
            return raw.decode(part.get_content_charset() or 'us-ascii',
                              'replace')
    return None


def q(s):
    """A YAML double-quoted scalar."""
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def unfold(v):
    return re.sub(r'\r?\n[ \t]+', ' ', v or '').strip()


def addresses(v):
    out = []
    for name, addr in email.utils.getaddresses([unfold(v)]):
        if not addr:
            continue
        name = str(email.header.make_header(
            email.header.decode_header(name))) if name else ''
        out.append(email.utils.formataddr((name, addr)) if name else addr)
    return out


GENERATED = [
    r'wget https://raw\.githubusercontent\.com/intel/lkp-tests/master/sbin/'
    r'make\.cross -O ~/bin/make\.cross',
    r'chmod \+x ~/bin/make\.cross',
    r'# apt-get install sparse',
    r'# sparse version: .*',
    r'# https://\S+/commit/[0-9a-f]{40}',
    r'git remote add linux-review \S+',
    r'git fetch --no-tags linux-review \S+',
    r'git checkout [0-9a-f]{40}',
    r'# save the attached \.config to linux build tree',
    r'# save the config file',
    r'# save the config file to linux build tree',
    r'# install \S+ cross compiling tool for clang build',
    r'# apt-get install binutils-\S+',
    r'# https://\S+/commit/\?id=[0-9a-f]{40}',
    r'git remote add \S+ \S+',
    r'git fetch --no-tags \S+ \S+',
    r'mkdir build_dir( && cp config build_dir/\.config)?',
]

SIG = re.compile(r'^(---|-- )$')


def run(cmd, cwd, env=None):
    subprocess.run(cmd, cwd=cwd, check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def parse_excerpt(lines):
    """The excerpt lines: (number, marked, code, blame or None).  A blame
    line is git blame's "SHA [PATH] (AUTHOR DATE LINE) CODE" as the robot
    shows it: its first "(" dropped, its first ") " two blanks (an author
    with a ")" keeps the line number's), "@" before a named line's
    number."""
    out = []
    for l in lines:
        m = re.match(r'^ *(> )?(\d+)\t(.*)$', l)
        if m and not re.match(r'^\^?[0-9a-f]{8,} ', l):
            out.append((int(m.group(2)), bool(m.group(1)), m.group(3),
                        None))
            continue
        m = re.match(r'^(\^?[0-9a-f]{8,}) (.*?) (\d{4}-\d\d-\d\d) '
                     r' *([ @])(\d+)(\) |  )(.*)$', l)
        if m:
            who = m.group(2)
            if m.group(6) == ') ':
                # the author's own ")" was the first ") "
                who = who[:-1] if who.endswith(' ') else who
                who = who.rstrip() + ')'
            else:
                who = who.rstrip()
            out.append((int(m.group(5)), m.group(4) == '@', m.group(7),
                        (m.group(1), who, m.group(3))))
            continue
        raise NotMine('an excerpt line robot cannot read: %r' % l[:60])
    return out


def main(path, outdir):
    raw = open(path, 'rb').read()
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    body = text_part(msg) or ''
    L = body.split('\n')
    req = ['kind: build']
    res = {}
    patch = {}
    os.makedirs(os.path.join(outdir, 'build'), exist_ok=True)
    for h, key in (('Date', 'date'), ('Message-ID', 'message_id'),
                   ('In-Reply-To', 'in_reply_to')):
        if msg[h]:
            v = unfold(msg[h])
            if key != 'date':
                v = re.findall(r'<[^>]+>', v)[0]
            req.append('%s: %s' % (key, q(v)))
    if msg['References']:
        req.append('references: [%s]' % ', '.join(
            q(x) for x in re.findall(r'<[^>]+>', msg['References'])))
    req.append('from: %s' % q(addresses(msg['From'])[0]))
    for h, key in (('To', 'to'), ('Cc', 'cc')):
        if msg[h]:
            req.append('%s: [%s]' % (key, ', '.join(
                q(a) for a in addresses(msg[h]))))
    i = 0
    n = len(L)
    make = []
    heading = None
    while i < n:
        l = L[i]
        m = re.match(r'^Hi(?: (.*))?,$', l)
        if m and heading is None:
            req.append('greeting: %s' % q(m.group(1) or ''))
        # "I love your patch!": the robot's other words of 2019-09 to
        # 2023-05 besides the table's "Thank you for the patch!"
        if l.startswith('I love your patch! ') and heading is None:
            req.append('intro: love')
        m = re.match(r'^\[auto build test \w+ on (.*)\]$', l)
        if m:
            req.append('auto_on: [%s]' % q(m.group(1)))
        m = re.match(r'^\[also build test \w+ on (.*)\]$', l)
        if m:
            req.append('also_on: [%s]' % ', '.join(
                q(x) for x in m.group(1).split(' ')))
        m = re.match(r'^\[cannot apply to (.*)\]$', l)
        if m:
            req.append('cannot_apply: [%s]' % ', '.join(
                q(x) for x in m.group(1).split(' ')))
        for pre, key in (('url:    ', 'url'), ('base:   ', 'base'),
                         ('patch link:    ', 'link'),
                         ('patch subject: ', 'subject')):
            if l.startswith(pre):
                patch[key] = l[len(pre):]
        m = re.match(r'^tree:   (\S+) (\S+)$', l)
        if m:
            req.append('tree: %s' % q(m.group(1)))
            req.append('branch: %s' % q(m.group(2)))
        m = re.match(r'^head:   ([0-9a-f]{40})$', l)
        if m:
            req.append('head: %s' % q(m.group(1)))
        m = re.match(r'^commit: ([0-9a-f]{40}) \[(\d+/\d+)\] (.*)$', l)
        if m:
            res['commit'] = m.group(1)
            req.append('position: %s' % q(m.group(2)))
            req.append('commit_subject: %s' % q(m.group(3)))
        if re.match(r'^config: \S+$', l):
            res['config'] = l.split(' ')[1]
            res['arch'] = res['config'].split('-')[0]
            res['unpublished'] = True
        if l.startswith('sparse: ') and heading is None:
            res['sparse_version'] = l[len('sparse: '):]
        if l.startswith('smatch version: ') and heading is None:
            res['smatch_version'] = l[len('smatch version: '):]
        if l.startswith('rustc: ') and heading is None:
            res['rustc'] = l[len('rustc: '):]
        if l.startswith('FYI, the error/warning was bisected to this '):
            req.append('bisected: true')
        m = re.match(r'^config: (\S+) \((.*)\)$', l)
        if m:
            res['config'] = m.group(1)
            res['attached'] = m.group(2) == 'attached as .config'
            res['arch'] = m.group(1).split('-')[0]
        if l.startswith('compiler: '):
            res['compiler'] = l[len('compiler: '):]
        m = re.match(r'^reproduce( \(this is a W=1 build\))?:(.*)$', l)
        if m and heading is None:
            res['w1'] = bool(m.group(1))
            j = i + 1
            while j < n and L[j].startswith('        '):
                step = L[j][8:]
                sv = re.match(r'^# sparse version: (.*)$', step)
                if sv:
                    res['sparse_version'] = sv.group(1)
                co = re.match(r'^git checkout ([0-9a-f]{40})$', step)
                if co:
                    res['commit'] = co.group(1)
                bu = re.match(r'^# apt-get install (binutils-\S+)$', step)
                if bu:
                    res['binutils'] = bu.group(1)
                if step.startswith('git remote add linux-review '):
                    patch['review'] = True
                if not any(re.fullmatch(g, step) for g in GENERATED):
                    make.append(step)
                j += 1
        if re.match(r'^(All (errors|warnings|error/warnings) \(new ones '
                    r'prefixed by >>\):|"?sparse warnings: \(new ones '
                    r'prefixed by >>\)"?)$', l):
            heading = i
            break
        i += 1
    if heading is None:
        return smatch(L, req, res, patch, make, msg, outdir)
    if 'sparse warnings:' in L[heading]:
        checker_config(res)
    # the compiler's output: up to the excerpt or the signature
    end = next((k for k in range(heading + 1, n)
                if L[k].startswith('vim +') or SIG.match(L[k])), n)
    vim = end if end < n and L[end].startswith('vim +') else None
    log_end = end
    while vim is not None and log_end > heading and \
            re.match(r'^(# https://|git (remote|fetch|checkout) )', L[log_end - 1]):
        # 734-736: the steps that fetch the commit, before the excerpt
        if L[log_end - 1].startswith('git remote add linux-review '):
            patch['review'] = True
        co = re.match(r'^git checkout ([0-9a-f]{40})$', L[log_end - 1])
        if co:
            res['commit'] = co.group(1)
        log_end -= 1
    if log_end > heading + 2 and L[log_end - 2] == \
            'Please review and possibly fold the followup patch.':
        req.append('followup_patch: true')
        log_end -= 2
    log = L[heading + 1:log_end]
    while log and log[0] == '':
        log.pop(0)
    while log and log[-1] == '':
        log.pop()
    kconfig = []
    if 'Kconfig warnings: (for reference only)' in log:
        # Kconfig's output: in the log as make printed it (the robot
        # shows it apart, each line unindented)
        k = log.index('Kconfig warnings: (for reference only)')
        for x in log[k + 1:]:
            x = x[3:]
            kconfig.append(x if x.startswith('WARNING: ') else '  ' + x)
        log = log[:k]
        while log and log[-1] == '':
            log.pop()
    new, old = [], []
    for l in log:
        if l.startswith('>> '):
            new.append(l[3:])
        elif l.startswith('   ') or l in ('', '--'):
            old.append(l[3:] if l != '--' else l)
            new.append(l[3:] if l != '--' else l)
            continue
        else:
            raise NotMine('a log line without its column: %r' % l[:40])
    # build.log: every line; base.log: those without the mark
    with open(os.path.join(outdir, 'build', 'build.log'), 'w') as f:
        f.write(''.join(x + '\n' for x in kconfig + new))
    with open(os.path.join(outdir, 'build', 'base.log'), 'w') as f:
        f.write(''.join(x + '\n' for x in old) or '\n')
    return finish(L, n, end, vim, req, res, patch, make, msg, outdir)


def checker_config(res):
    """A sparse or smatch report of 2019 names no config: the build had
    one all the same (the reproduce steps make allmodconfig), which the
    period's words leave out (config/data/build-styles,
    checker_no_config).  A placeholder stands for it; the mail never
    shows it."""
    if 'config' not in res:
        res['config'] = res['compiler'] = 'unknown'
        res['unpublished'] = True


def smatch(L, req, res, patch, make, msg, outdir):
    """A smatch report: "New smatch warnings:" (or "smatch warnings:")
    and "Old smatch warnings:", no column of marks."""
    checker_config(res)
    n = len(L)
    new, old = [], []
    k = next((i for i, l in enumerate(L) if l in (
        'New smatch warnings:', 'smatch warnings:')), None)
    if k is None:
        raise NotMine('no "(new ones prefixed by >>)" heading')
    cur = new
    k += 1
    while k < n and not L[k].startswith('vim +') and not SIG.match(L[k]) \
            and not L[k].startswith('# https://'):
        if L[k] == 'Old smatch warnings:':
            cur = old
        elif L[k]:
            cur.append(L[k])
        k += 1
    end = k
    vim = None
    while end < n and not SIG.match(L[end]):
        if L[end].startswith('vim +'):
            vim = end
            break
        co = re.match(r'^git checkout ([0-9a-f]{40})$', L[end])
        if co:
            res['commit'] = co.group(1)
        if L[end].startswith('git remote add linux-review '):
            patch['review'] = True
        end += 1
    with open(os.path.join(outdir, 'build', 'build.log'), 'w') as f:
        f.write(''.join(x + '\n' for x in new + old))
    with open(os.path.join(outdir, 'build', 'base.log'), 'w') as f:
        f.write(''.join(x + '\n' for x in old) or '\n')
    return finish(L, n, end, vim, req, res, patch, make, msg, outdir)


def finish(L, n, end, vim, req, res, patch, make, msg, outdir):
    subj0 = unfold(msg['Subject'])
    if patch and 'subject' not in patch and subj0.startswith('Re: '):
        # the posted patch's Subject (its mail), not on a line of its own
        patch['subject'] = subj0[4:]
    if patch:
        url = patch.get('url', '')
        m = re.match(r'^(https://\S+)/commits/(\S+)$', url)
        if m and patch.pop('review', None):
            patch['review_repo'] = m.group(1)
            patch['review_branch'] = m.group(2)
        req.append('patch:')
        for k in ('url', 'base', 'link', 'subject', 'review_repo',
                  'review_branch'):
            if k in patch:
                req.append('  %s: %s' % (k, q(patch[k])))
    subj = unfold(msg['Subject'])
    m = re.match(r'^\[([^:\]]+):(\S+) (\d+/\d+)\] ', subj)
    if m:
        req.append('tree_name: %s' % q(m.group(1)))
    if 'commit' not in res:
        res['commit'] = '0' * 40
    # the excerpt and its source tree
    if vim is not None:
        m = re.match(r'^vim (?:\+/(\S+) )?\+(\d+) (\S+)$', L[vim])
        if not m:
            raise NotMine('a vim line robot cannot read')
        sym, line, file = m.group(1), int(m.group(2)), m.group(3)
        k = vim + 2
        ex = []
        while k < n and L[k] != '':
            ex.append(L[k])
            k += 1
        rows = parse_excerpt(ex)
        src = os.path.join(outdir, 'src')
        os.makedirs(os.path.join(src, os.path.dirname(file)), exist_ok=True)
        top = max(r[0] for r in rows)
        text = [''] * top
        for r in rows:
            text[r[0] - 1] = r[2]
        with open(os.path.join(src, file), 'w') as f:
            f.write('\n'.join(text) + '\n')
        env = dict(os.environ, GIT_AUTHOR_NAME='robot',
                   GIT_AUTHOR_EMAIL='robot@example.org',
                   GIT_COMMITTER_NAME='robot',
                   GIT_COMMITTER_EMAIL='robot@example.org',
                   GIT_AUTHOR_DATE='2000-01-01T00:00:00Z',
                   GIT_COMMITTER_DATE='2000-01-01T00:00:00Z')
        run(['git', 'init', '-q', '.'], src, env)
        run(['git', 'add', '-A'], src, env)
        run(['git', 'commit', '-q', '-m', 'the tree of the built commit'],
            src, env)
        run(['git', 'tag', 'built'], src, env)
        res['source_rev'] = 'built'
        req.append('repo: src')
        req.append('excerpts:')
        req.append('  - file: %s' % q(file))
        req.append('    line: %d' % line)
        if sym:
            req.append('    symbol: %s' % q(sym))
        req.append('    from: %d' % rows[0][0])
        req.append('    to: %d' % rows[-1][0])
        if rows[0][3]:
            write_blame(outdir, file, rows, L, k, line)
            req.append('    blame: build/blame')
            # the tree's abbreviation: a boundary commit shows one digit
            # less after its "^"
            r0 = rows[0][3][0]
            req.append('    abbrev: %d' % (len(r0) - 1))
    y = ['arch: %s' % q(res.get('arch', 'x86_64')),
         'commit: %s' % q(res['commit'])]
    for k in ('config', 'compiler'):
        if k in res:
            y.append('%s: %s' % (k, q(res[k])))
    if res.get('source_rev'):
        y.append('source_rev: %s' % q(res['source_rev']))
    if make:
        y.append('make: [%s]' % ', '.join(q(x) for x in make))
    if res.get('sparse_version'):
        y.append('sparse_version: %s' % q(res['sparse_version']))
    if res.get('w1'):
        y.append('w1: true')
    for k in ('rustc', 'binutils', 'smatch_version'):
        if res.get(k):
            y.append('%s: %s' % (k, q(res[k])))
    if res.get('unpublished'):
        y.append('config_unpublished: true')
    with open(os.path.join(outdir, 'build', 'build.yaml'), 'w') as f:
        f.write('\n'.join(y) + '\n')
    if res.get('attached'):
        with open(os.path.join(outdir, 'build', '.config'), 'w') as f:
            f.write('# the attached .config: not kept by the archive\n')
    req.append('build: build')
    with open(os.path.join(outdir, 'request.yaml'), 'w') as f:
        f.write('\n'.join(req) + '\n')
    with open(os.path.join(outdir, 'robot.yaml'), 'w') as f:
        f.write('spool: %s\n' % q(os.path.join(os.path.abspath(outdir),
                                                'spool')))
        f.write('archive_url: "https://download.01.org/0day-ci/archive"\n')
        f.write('list_archive_url: "https://lore.kernel.org/oe-kbuild-all"\n')
    return 0


def write_blame(outdir, file, rows, L, k, line):
    """The porcelain blame of the excerpt's lines; the commit that
    introduced the vim line from the ":::::: " lines when the mail has
    them."""
    intro = {}
    for l in L[k:]:
        m = re.match(r'^:::::: ([0-9a-f]{40}) (.*)$', l)
        if m:
            intro['sha'], intro['summary'] = m.group(1), m.group(2)
        m = re.match(r'^:::::: TO: (.*) (<[^>]*>)$', l)
        if m:
            intro['to'] = (m.group(1), m.group(2))
        m = re.match(r'^:::::: CC: (.*) (<[^>]*>)$', l)
        if m:
            intro['cc'] = (m.group(1), m.group(2))
    firsts = set(r[3][1].split(' ')[0] for r in rows)
    renamed = all(re.match(r'^\S+/\S+ ', r[3][1]) for r in rows) and \
        (len(firsts) > 1 or firsts != {file})
    out = []
    import calendar
    for num, _, code, (sha, who, day) in rows:
        path = file
        if renamed:
            path, who = who.split(' ', 1)
            who = who.strip()
        boundary = sha.startswith('^')
        sha = sha.lstrip('^')
        full = sha + '0' * (40 - len(sha))
        to = cc = (who, '<>')
        summary = '-'
        if intro.get('sha', '').startswith(sha) and num == line:
            full = intro['sha']
            summary = intro['summary']
            to = intro.get('to', to)
            cc = intro.get('cc', cc)
        y, mo, d = (int(x) for x in day.split('-'))
        t = calendar.timegm((y, mo, d, 12, 0, 0))
        out.append('%s %d %d 1' % (full, num, num))
        if boundary:
            out.append('boundary')
        out += ['author %s' % to[0], 'author-mail %s' % to[1],
                'author-time %d' % t, 'author-tz +0000',
                'committer %s' % cc[0], 'committer-mail %s' % cc[1],
                'summary %s' % summary, 'filename %s' % path,
                '\t' + code]
    with open(os.path.join(outdir, 'build', 'blame'), 'w') as f:
        f.write('\n'.join(out) + '\n')
