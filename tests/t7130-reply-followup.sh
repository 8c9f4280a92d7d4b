#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7130-reply-followup: the robot account's own follow-ups (doc/reply.md,
# "The operator's words and the table's view"): the operator's words in
# place of robot's statement (`statement`) and the bare fail:runs table
# (`view: fail_runs`).
#
#   golden     the retest of tests/reply/0008-no-patch answered with
#              both keys over make-rts' netperf roots (kmsg failure
#              stats): tests/reply/followup/fail-runs.eml; and with `view:
#              compare` (lkp-tests' sbin/compare -f KPI) over three
#              will-it-scale roots whose runs have an LKP result path:
#              compare-view.eml (diff -u; UPDATE=1 tests/run t7130
#              rewrites them)
#   bad input  an empty statement, a view robot does not print, at the
#              top and in a section, the compare view without a kpi or
#              over roots without an LKP path, and both keys in a
#              report's request: exit 65, one error line naming file and
#              key
#   corpus     replies/601 (2021-07-07, the robot account's follow-up):
#              tests/tools/eml2lkp writes its inputs, robot reply
#              --dry-run answers parent.eml, and the answer is the mail:
#              its headers, and its text but for what no robot wrote
#              (the LTP list's footer, and the blanks three rows have at
#              their ends: tests/fidelity.md, "The follow-ups"), which
#              the test names line by line.  Without the corpus it says
#              so and passes that part.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-reply.sh"

case=0008-no-patch
reply_setup

# golden NAME REQUEST: the answer to 0008 must be followup/NAME.eml
golden() {
	robot reply --dry-run -c "$CFG" --to "reply/$case/mail.eml" "$2" \
		>"$T/$1.eml" 2>"$T/$1.err"
	ok "$1: composed, nothing on stderr" test ! -s "$T/$1.err"
	exp=$SRC/followup/$1.eml
	if [ -n "${UPDATE:-}" ] && ! cmp -s "$exp" "$T/$1.eml" 2>/dev/null; then
		cp "$T/$1.eml" "$exp"
		echo "updated $exp"
	fi
	ok "$1: the answer" test_cmp "$exp" "$T/$1.eml"
}
req=reply/followup.yaml
cat >"$T/$req" <<'YAML'
in_reply_to: "<CAHk-retest-1234@mail.gmail.com>"
date: "2021-07-07 17:07:22 +0800"
message_id: "<20210707090722.GH1234@shao2-debian>"
sender_name: "Rong Chen"
statement: |
  It is bisected by the robot; we ran both commits more times and the
  kmsg lines below come and go with the commit.
result_roots:
- "../golden/data/rt/netperf@rc7"
- "../golden/data/rt/netperf@copy"
view: fail_runs
YAML
golden fail-runs "$req"
ok "fail-runs: the statement is the operator's, as written" \
	grep -qx "kmsg lines below come and go with the commit." "$T/fail-runs.eml"
ok "fail-runs: a bare table, no axes and no performance rows" \
	sh -c '! grep -q "^=====\|%stddev" "$1"' _ "$T/fail-runs.eml"

# the compare view over make-rts' will-it-scale roots, their runs under
# an LKP result path as real roots have them (make-rts' paths are short)
for c in rc7 copy clear; do
	rt=$T/golden/data/rt/will-it-scale@$c
	cp -R "$rt" "$T/reply/wis@$c"
	sed -i 's|"/result/[^"]*/\([0-9a-f]\{40\}/[0-9]*/stats.json\)"|"/result/will-it-scale/performance-process-16-read2-ucode=0x21/lkp-ivb-d02/debian-x86_64-20191114.cgz/x86_64-rhel-7.6/gcc-7/\1"|' \
		"$T/reply/wis@$c/matrix.json"
done
view=reply/compare-view.yaml
cat >"$T/$view" <<'YAML'
in_reply_to: "<CAHk-retest-1234@mail.gmail.com>"
date: "2020-03-26 16:33:55 +0800"
message_id: "<20200326083355.GO1234@shao2-debian>"
sender_name: "Rong Chen"
statement: |
  The patch can fix the regression:
commits: "../golden/data/commits.yaml"
kpi: will-it-scale.workload
result_roots: ["wis@rc7", "wis@copy", "wis@clear"]
view: compare
YAML
golden compare-view "$view"
ok "compare-view: a row for the test, named by its LKP path, and GEO-MEAN" \
	sh -c 'grep -q " will-it-scale/performance-process-16-read2-ucode=0x21/lkp-ivb-d02$" "$1" &&
		grep -q " GEO-MEAN will-it-scale.workload$" "$1"' _ "$T/compare-view.eml"
sed '/^kpi:/d' "$T/$view" >"$T/reply/view-no-kpi.yaml"
expect_code 65 "bad input: view compare without a kpi" robot reply --dry-run \
	-c "$CFG" --to "reply/$case/mail.eml" reply/view-no-kpi.yaml
ok "bad input: view compare without a kpi: the error names file and view" \
	names "reply/view-no-kpi.yaml" "view: compare"
sed 's|"wis@rc7", "wis@copy", "wis@clear"|"../golden/data/rt/will-it-scale@rc7", "../golden/data/rt/will-it-scale@copy"|' \
	"$T/$view" >"$T/reply/view-short-path.yaml"
expect_code 65 "bad input: view compare over roots without an LKP path" \
	robot reply --dry-run -c "$CFG" --to "reply/$case/mail.eml" \
	reply/view-short-path.yaml
ok "bad input: roots without an LKP path: the error names matrix.json and stats_source" \
	names "will-it-scale@rc7/matrix.json" "stats_source[0]"

# bad input: one error line naming the file and the key
bad() {
	name=$1
	key=$2
	shift 2
	sed "$@" "$T/$req" >"$T/reply/$name.yaml"
	expect_code 65 "bad input: $name" robot reply --dry-run -c "$CFG" \
		--to "reply/$case/mail.eml" "reply/$name.yaml"
	ok "bad input: $name: the error names the file and $key" \
		names "reply/$name.yaml" "$key"
}
bad empty-statement 'statement:' -e '/^statement:/,/^  kmsg/d' \
	-e '$a statement: "\\n  \\n"'
bad bad-view "view: 'plain'" -e 's/^view: fail_runs/view: plain/'
bad bad-section-view 'sections[0].view' -e '$a sections:' \
	-e '$a - result_roots: ["../golden/data/rt/netperf@rc7", "../golden/data/rt/netperf@copy"]' \
	-e '$a \  view: bars'
# a report's request with a reply's key: KEY LINE
report_bad() {
	f=reply/data/report-$1.yaml
	cp "$TOP/tests/reply/data/report.yaml" "$T/$f"
	echo "$2" >>"$T/$f"
	expect_code 65 "bad input: a report's $1" robot compose --dry-run \
		-c "$CFG" "$f"
	ok "bad input: a report's $1: the error names the file and key" \
		names "$f" "$1:"
}
report_bad view 'view: fail_runs'
report_bad statement 'statement: "our words"'

# the corpus's follow-up
CORPUS=${CORPUS:-$TOP/../shared/corpus}
set -- "$CORPUS"/replies/601-*.eml
if [ ! -f "$1" ]; then
	echo "# skipped: no corpus follow-up at $CORPUS/replies"
	echo "1..$test_n"
	[ "$test_failed" -eq 0 ]
	exit
fi
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
