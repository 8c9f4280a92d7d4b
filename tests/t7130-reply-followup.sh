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
# t7140 round-trips the corpus's robot follow-up.
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

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
