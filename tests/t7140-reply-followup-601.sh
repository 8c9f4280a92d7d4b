#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7140-reply-followup-601: the corpus's robot follow-up round-trips.
# replies/601 (2021-07-07, the robot account's answer, a bare fail:runs
# table and the operator's words; doc/reply.md, "The operator's words and
# the table's view"): tests/tools/eml2lkp writes its inputs (parent.eml
# and the reply request), robot reply --dry-run answers parent.eml, and
# the answer is the mail: its Subject, From, To, Cc and threading, and
# its text but for what no robot wrote (the LTP list's footer, and the
# blanks three rows have at their ends: tests/fidelity.md, "The
# follow-ups"), which the test names line by line.  Without the corpus
# it says so and passes.
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
skip_without_corpus "$CORPUS/replies" '601-*.eml' "the robot's follow-up"
set -- "$CORPUS"/replies/601-*.eml
mail=$1
ok "601: eml2lkp writes the reply's inputs" \
	"$PYTHON" "$TOP/tests/tools/eml2lkp" "$mail" "$T/601"
ok "601: the request has the operator's words and the bare table" \
	grep -qx 'view: fail_runs' "$T/601/request.yaml"
(cd "$T/601" && "$ROBOT" reply --dry-run -c robot.yaml --to parent.eml \
	request.yaml) >"$T/601.eml" 2>"$T/601.err"
ok "601: robot reply answers parent.eml" test -s "$T/601.eml"
"$PYTHON" - "$mail" "$T/601.eml" "$T" <<'PY'
import email, email.policy, email.utils, re, sys
def load(p):
    m = email.message_from_bytes(open(p, 'rb').read(),
                                 policy=email.policy.compat32)
    body = m.get_payload(decode=True).decode('utf-8')
    return m, body
want_m, want = load(sys.argv[1])
got_m, got = load(sys.argv[2])
out = sys.argv[3]
def ids(v):
    return re.findall(r'<[^<>]+>', v or '')
def addrs(v):
    return [(n, a.lower()) for n, a in
            email.utils.getaddresses([' '.join(str(v or '').split())])]
heads = ['Subject: %s' % (' '.join(str(got_m['Subject']).split()) ==
                          ' '.join(str(want_m['Subject']).split()))]
for h in ('From', 'To', 'Cc'):
    heads.append('%s: %s' % (h, addrs(got_m[h]) == addrs(want_m[h])))
for h in ('Message-ID', 'In-Reply-To', 'References'):
    heads.append('%s: %s' % (h, ids(got_m[h]) == ids(want_m[h])))
open(out + '/601.heads', 'w').write('\n'.join(heads) + '\n')
# what no robot wrote: the list's footer, the rows' end blanks
footer = '\n-- \nMailing list info: https://lists.linux.it/listinfo/ltp\n'
rest = want[:-len(footer)] if want.endswith(footer) else want
g, w = got.rstrip('\n').split('\n'), rest.rstrip('\n').split('\n')
diffs = ['footer: %s' % (rest != want)]
if len(g) != len(w):
    diffs.append('lines: got %d, want %d' % (len(g), len(w)))
for a, b in zip(g, w):
    if a != b:
        diffs.append(('end blanks: ' if a == b.rstrip(' ') else 'other: ') +
                     b.split()[-1])
open(out + '/601.diffs', 'w').write('\n'.join(diffs) + '\n')
PY
printf '%s: True\n' Subject From To Cc Message-ID In-Reply-To References \
	>"$T/601.heads.want"
ok "601: Subject, From, To, Cc and the threading are the mail's" \
	test_cmp "$T/601.heads.want" "$T/601.heads"
cat >"$T/601.diffs.want" <<'EOF2'
footer: True
end blanks: dmesg.Kernel_panic-not_syncing:Hard_LOCKUP
end blanks: dmesg.RIP:native_queued_spin_lock_slowpath
end blanks: dmesg.WARNING:at_kernel/sched/fair.c:#update_blocked_averages
EOF2
ok "601: the text is the mail's but for the list's footer and three rows' end blanks" \
	test_cmp "$T/601.diffs.want" "$T/601.diffs"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
