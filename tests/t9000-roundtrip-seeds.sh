#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip (doc/roundtrip.md): eml2lkp turns each seed
# mail into the inputs an operator would have had (result roots, job.yaml
# host fields, commits.yaml, attachments, request.yaml, robot.yaml), and
# `robot compose --dry-run` on them must print the seed again:
#
#  - seed 001 (its archive kept the layout): byte for byte from "Hello,"
#    through the signature, the same Subject (unfolded) and Message-ID,
#    and attachments of the names, types and sizes the archive lists;
#  - the others: token for token (their archives collapsed whitespace),
#    after undoing generic archive damage (tests/tools/mail-match: '?' for
#    '±', Cloudflare's "[email protected]", "--" for "-- ", archive
#    footers); the ASCII bisect plots too (eml2lkp reads them back into
#    bisect result roots: seed 000 has gnuplot 5.2's, seed 002 4.6's).
#
# Every output directory must carry data only (check-no-copied-lines).
# Then robot's own mails go round: requests using more of the schema than
# the seeds do (a preface, still lines, further sections, an In-addition
# table, a posted patch, tags, test description, attachments, a note
# quoting a row of the table) give mails
# that eml2lkp must turn back into inputs robot renders byte-identically.
# Last, eml2lkp must refuse what is not a report it understands (among
# them tables with rows no lkp-tests table prints: a row of -1.00 over
# no stddev, a line that is no row, a mean of 1e+300), and a report its
# solvers cannot answer within --budget seconds: exit 65, one line on
# stderr naming the row or line where there is one, nothing written.
. "$(dirname "$0")/lib.sh"

SEEDS=${SEEDS_DIR:-$TOP/tests/data/seeds}
EML2LKP=$TOP/tests/tools/eml2lkp
MATCH=$TOP/tests/tools/mail-match
NOCOPY=$TOP/tests/tools/check-no-copied-lines
EX=$TOP/examples

# compose OUT CONFIG REQUEST [DAY]: robot's mail, deterministic when the
# request has a style but no date (SOURCE_DATE_EPOCH: noon UTC of DAY)
compose() {
	out=$1
	cfg=$2
	req=$3
	if [ -n "${4-}" ]; then
		SOURCE_DATE_EPOCH=$(date -u -d "$4 12:00" +%s)
		export SOURCE_DATE_EPOCH
	fi
	"$ROBOT" compose --dry-run ${cfg:+-c "$cfg"} "$req" >"$out"
	rc=$?
	unset SOURCE_DATE_EPOCH
	return $rc
}

for seed in "$SEEDS"/0*.txt; do
	[ -f "$seed" ] || continue
	nnn=$(basename "$seed" | cut -c1-3)
	out=$T/seed-$nnn
	day=$(cat "$EX/seed-$nnn/date")
	ok "seed $nnn: eml2lkp writes the inputs" \
		$PYTHON "$EML2LKP" --date "$day" "$seed" "$out"
	ok "seed $nnn: no line of the mail's report is in the inputs" \
		$PYTHON "$NOCOPY" "$seed" "$out"
	ok "seed $nnn: robot composes the report" \
		compose "$T/mail-$nnn" "$out/robot.yaml" "$out/request.yaml" "$day"
	mode=tokens
	[ "$nnn" = 001 ] && mode=exact
	ok "seed $nnn: robot's mail is the seed ($mode)" \
		$PYTHON "$MATCH" "$mode" "$seed" "$T/mail-$nnn"
	if grep -q 'bisect-good' "$seed"; then
		ok "seed $nnn: robot's mail has the seed's plots" \
			grep -q '^\[O\] bisect-bad  sample$' "$T/mail-$nnn"
	fi
done

# seed 001's archive masked its addresses (user@...el.com), which robot
# refuses: eml2lkp gives them a placeholder domain
if [ -f "$T/seed-001/request.yaml" ]; then
	ok "seed 001: masked addresses get the placeholder domain" \
		grep -q '@masked\.invalid>' "$T/seed-001/request.yaml"
	ok "seed 001: no masked address is left in the inputs" \
		sh -c "! grep -rq '@\.\.\.' '$T/seed-001'"
fi

# robot's own mails, from requests over the example result roots
R=$T/own
mkdir -p "$R/att"
{
	echo "commits:"
	for n in 000 001 003 004; do
		sed 1d "$EX/seed-$n/commits.yaml"
	done
} >"$R/commits.yaml"
awk 'BEGIN { for (i = 0; i < 300; i++) printf "CONFIG_X_%04d=y\n", i }' \
	>"$R/att/config"
printf 'suite: stress-ng\ntestcase: stress-ng\n' >"$R/att/job.yaml"

# seed 001's report on linus/master: the request keys after the ids
seed001_keys() {
	cat <<EOF
from: "kernel test robot <oliver.sang@intel.com>"
to: ["Jane Doe <jane@example.org>"]
cc: ["<oe-lkp@lists.linux.dev>", "<lkp@intel.com>"]
tree: "linus:master"
repo_url: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git
branch: master
commit: 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
commits: commits.yaml
kpi: stress-ng.lockofd.ops_per_sec
result_roots: [$EX/seed-001/rt0, $EX/seed-001/rt1]
EOF
}
# 2023: a preface, still lines, a further section and an In-addition entry
{
	printf 'date: "2023-06-07 14:32:17 +0800"\n'
	printf 'message_id: "<202306071452.887afdea-oliver.sang@intel.com>"\n'
	printf 'in_reply_to: "<20230601000000.GA1234@example.org>"\n'
	seed001_keys
} >"$R/own-2023.yaml"
cat >>"$R/own-2023.yaml" <<EOF
preface: |
  Hi all,
  a note from the operator before the report.
still:
  - {tree: linus/master, commit: 0123456789abcdef0123456789abcdef01234567}
  - {tree: linux-next/master, commit: 89abcdef0123456789abcdef0123456789abcdef}
sections:
  - {result_roots: [$EX/seed-004/rt0, $EX/seed-004/rt1], kpi: stress-ng.io.ops_per_sec}
additions:
  - {result_roots: [$EX/seed-004/rt0, $EX/seed-004/rt1], kpi: stress-ng.io.ops_per_sec}
EOF
# 2023: a regression of a posted patch (tags), with attachments
cat >"$R/own-patch.yaml" <<EOF
date: "2023-06-20 08:01:02 +0800"
message_id: "<202306200801.5ab3c-oliver.sang@intel.com>"
from: "kernel test robot <oliver.sang@intel.com>"
to: ["Jane Doe <jane@example.org>"]
cc: ["<oe-lkp@lists.linux.dev>", "<lkp@intel.com>"]
patch:
  url: https://github.com/intel-lab-lkp/linux/commits/Jane-Doe/x86-foo/20230601-101010
  base: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git master
  link: https://lore.kernel.org/all/20230601020202.1234-1-jane@example.org/
  subject: '[PATCH v2] x86: make "foo" faster'
commit: 68674f94ffc9dddcdd471ca753f3aff6c997f98d
commits: commits.yaml
kpi: stress-ng.lockofd.ops_per_sec
result_roots: [$EX/seed-001/rt1, $EX/seed-001/rt0]
attachments:
  - {path: att/config, name: config-6.4.0-rc7-00001-g68674f94ffc9}
  - {path: att/job.yaml}
reported_by: "kernel test robot <oliver.sang@intel.com>"
EOF
# 2021: a regression with the test description, tags, a further section,
# an In-addition entry and the bisect plots of seed 000's samples
cat >"$R/own-2021.yaml" <<EOF
date: "2021-06-15 09:10:11 +0800"
message_id: "<20210615011011.GA1234@xsang-OptiPlex-9020>"
from: "kernel test robot <oliver.sang@intel.com>"
to: ["Jane Doe <jane@example.org>"]
cc: ["<lkp@lists.01.org>", "<lkp@intel.com>"]
repo_url: https://git.kernel.org/cgit/linux/kernel/git/next/linux-next.git
branch: master
commit: b509a9800648b24adbc266ff4f4e02c4ee351697
commits: commits.yaml
kpi: stress-ng.clock.ops_per_sec
result_roots: [$EX/seed-000/rt1, $EX/seed-000/rt0]
bisect:
  good: [$(ls -dv "$EX"/seed-000/bisect-good-* | paste -sd, -)]
  bad: [$(ls -dv "$EX"/seed-000/bisect-bad-* | paste -sd, -)]
test_description: "Stress-ng will stress test a computer system in various ways."
test_url: https://github.com/ColinIanKing/stress-ng
sections:
  - {result_roots: [$EX/seed-003/rt0, $EX/seed-003/rt1], kpi: will-it-scale.per_thread_ops}
additions:
  - {result_roots: [$EX/seed-003/rt0, $EX/seed-003/rt1], kpi: will-it-scale.per_thread_ops}
attachments:
  - {path: att/config, name: config-5.13.0-rc4-00001-gb509a9800648}
  - {path: att/job.yaml}
reported_by: "kernel test robot <oliver.sang@intel.com>"
sender_name: "Oliver Sang"
EOF
# 2024: a note under the headline quoting the KPI's row (208, 287): robot
# prints the row from the data, so eml2lkp must write the note's words
# and the row's name (note_parts), never the row
{
	printf 'date: "2024-10-07 22:43:54 +0800"\n'
	printf 'message_id: "<202410072214.11d18a3c-oliver.sang@intel.com>"\n'
	seed001_keys
} >"$R/own-note.yaml"
cat >>"$R/own-note.yaml" <<EOF
note_parts:
  - text: "\n(\nthe KPI as the table shows it:\n"
  - rows: [stress-ng.lockofd.ops_per_sec]
  - text: ")\n\n\n"
EOF
# Each mail alone in a folder: eml2lkp takes the mails beside one for the
# robot's earlier reports (`earlier`), and own-2023 and own-note report
# the same commit.
for name in own-2023 own-patch own-2021 own-note; do
	ok "$name: robot composes the report" \
		compose "$R/$name.eml" "$TOP/examples/0day.yaml" "$R/$name.yaml"
	mkdir -p "$R/alone-$name" && cp "$R/$name.eml" "$R/alone-$name/"
	ok "$name: eml2lkp writes the inputs" \
		$PYTHON "$EML2LKP" "$R/alone-$name/$name.eml" "$R/$name"
	ok "$name: no line of the mail's report is in the inputs" \
		$PYTHON "$NOCOPY" "$R/$name.eml" "$R/$name"
	ok "$name: robot composes them" \
		compose "$R/$name-again.eml" "$R/$name/robot.yaml" \
		"$R/$name/request.yaml"
	ok "$name: the two mails are the same (exact)" \
		$PYTHON "$MATCH" exact "$R/$name.eml" "$R/$name-again.eml"
	if grep -q '^bisect:' "$R/$name.yaml"; then
		ok "$name: robot's mail has plots" \
			grep -q '^\[O\] bisect-bad  sample$' "$R/$name.eml"
	fi
done

# ... and beside an earlier report on its commit, own-note is a repeated
# report: eml2lkp names the earlier one, whose Message-ID time is older
mkdir -p "$R/both" && cp "$R/own-2023.eml" "$R/own-note.eml" "$R/both/"
ok "eml2lkp names an earlier report on the commit beside the mail" \
	$PYTHON "$EML2LKP" "$R/both/own-note.eml" "$R/both-note"
ok "... the older one's Message-ID" \
	grep -qxF 'earlier: "<202306071452.887afdea-oliver.sang@intel.com>"' \
	"$R/both-note/request.yaml"
ok "eml2lkp names none for the older report beside the newer" \
	$PYTHON "$EML2LKP" "$R/both/own-2023.eml" "$R/both-2023"
ok "... no earlier:" sh -c "! grep -q '^earlier:' '$R/both-2023/request.yaml'"

ok "own-note: eml2lkp gives the note's row by name" \
	grep -qx '  - rows: \[stress-ng.lockofd.ops_per_sec\]' \
	"$R/own-note/request.yaml"

# refusals: exit 65, one line on stderr, nothing written
refuses() {
	desc=$1
	mail=$2
	shift 2
	rm -rf "$T/refused"
	$PYTHON "$EML2LKP" "$@" "$mail" "$T/refused" >"$T/.out" 2>"$T/.err"
	rc=$?
	if [ "$rc" -eq 65 ] && [ "$(wc -l <"$T/.err")" -eq 1 ] &&
		grep -q '^eml2lkp: error: ' "$T/.err" && [ ! -s "$T/.out" ] &&
		[ ! -e "$T/refused" ]; then
		_ok "eml2lkp refuses $desc"
	else
		_fail "eml2lkp refuses $desc (exit $rc)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
}
refuses "a human reply" "$TOP/tests/data/not-reports/human-reply.eml"
# a kbuild report is not refused any more: eml2lkp's build mode
# (tests/tools/eml2lkp_build.py) writes its build result and request
rm -rf "$T/kbuild"
ok "eml2lkp reads a build-error report as a build request" \
	$PYTHON "$EML2LKP" "$TOP/tests/data/not-reports/build-error.eml" "$T/kbuild"
ok "... kind: build, with its build result" sh -c \
	"grep -qx 'kind: build' '$T/kbuild/request.yaml' && test -s '$T/kbuild/build/build.log'"
: >"$T/empty.eml"
refuses "an empty file" "$T/empty.eml"
$PYTHON -c 'import random, sys
r = random.Random(9000)
sys.stdout.buffer.write(bytes(r.randrange(1, 256) for _ in range(4096)))' \
	>"$T/garbage.bin"
refuses "binary garbage" "$T/garbage.bin"
# a mail its solvers cannot answer within --budget seconds of CPU time
# a row of -1.00 over a blank stddev: a candidate of every run at -1,
# which lkp-tests' StatSummary drops (no sample left to compare), is
# never selected; whether the later side is -0.50 or 0, the row is
# refused by name, not a Python error on the empty summary
row='     39.25            +2.2%      40.10        iostat.cpu.user'
for later in '-50.0%      -0.50' '-100.0%       0.00'; do
	new=$(printf '%10s%17s%11s        iostat.cpu.user' -1.00 \
		"${later%% *}" "${later##* }")
	grep -qxF -- "$row" "$R/own-note.eml" ||
		_fail "own-note.eml has the row of iostat.cpu.user"
	awk -v old="$row" -v new="$new" '$0 == old { $0 = new } { print }' \
		"$R/own-note.eml" >"$T/minus1.eml"
	refuses "a row of -1.00 without a stddev, then ${later##* }" \
		"$T/minus1.eml"
	ok "... naming the row" \
		grep -q ' row iostat\.cpu\.user$' "$T/.err"
done
# rows no table of lkp-tests prints: a line in the table that is no row
# (which ended the rows there, the rest left out), first or after a row,
# a mean whose samples' squares overflow a double; each refusal names the
# line or the row
odd='     1.2.3                 +x%        --1        iostat.cpu.user'
odd_table() {
	awk -v old="$row" -v new="$2" '$0 == old { $0 = new } { print }' \
		"$R/own-note.eml" >"$T/odd.eml"
	refuses "a table with $1" "$T/odd.eml"
	ok "... naming it" grep -q "iostat\.cpu\.user" "$T/.err"
}
odd_table "a line that is no row first" "$odd"
odd_table "a line that is no row after a row" "$row\\n$odd"
# a row with the sender's words after its name (an arrow its note points
# at) is a row, and the words a note at that row, as written
awk -v old="$row" -v new="$row     <-- (a)" '$0 == old { $0 = new } { print }' \
	"$R/own-note.eml" >"$T/mark.eml"
rm -rf "$T/mark"
ok "eml2lkp reads a row with the sender's words after its name" \
	$PYTHON "$EML2LKP" "$T/mark.eml" "$T/mark"
ok "... and writes them as a note on that row" \
	grep -qzF "  - at: table
    row: iostat.cpu.user
    text: \"     <-- (a)\"" "$T/mark/request.yaml"
(cd "$T/mark" && "$ROBOT" compose --dry-run -c robot.yaml request.yaml) \
	>"$T/mark.out" 2>&1
ok "... which robot prints after the row, as the mail has them" \
	grep -qxF -- "$row     <-- (a)" "$T/mark.out"
# the sender's words after the parameters are a note at params, which
# robot prints in place of the empty lines there; words holding a
# comparison table are refused (robot prints tables from result roots)
words_after_params() {
	awk -v w="$1" '
		/^parameters:$/ { p = 1 }
		p == 1 && /^\t/ { p = 2 }
		p == 2 && /^$/ && ++e == 2 { print; print w; print ""; p = 3; next }
		{ print }' "$R/own-note.eml"
}
words_after_params 'we also ran it twice more, with the same result.' \
	>"$T/pwords.eml"
rm -rf "$T/pwords"
ok "eml2lkp reads the sender's words after the parameters" \
	$PYTHON "$EML2LKP" "$T/pwords.eml" "$T/pwords"
ok "... as a note at params" \
	grep -qzF "  - at: params
    text: \"we also ran it twice more, with the same result.\\n\\n" \
	"$T/pwords/request.yaml"
(cd "$T/pwords" && "$ROBOT" compose --dry-run -c robot.yaml request.yaml) \
	>"$T/pwords.out" 2>&1
ok "... which robot prints where the mail has them" \
	sh -c "sed '1,/^\$/d' '$T/pwords.eml' >'$T/pwords.want' &&
		sed '1,/^\$/d' '$T/pwords.out' | cmp -s - '$T/pwords.want'"
words_after_params '         %stddev     %change         %stddev' \
	>"$T/ptable.eml"
refuses "words after the parameters that hold a comparison table" \
	"$T/ptable.eml"
ok "... saying so" grep -q 'hold a comparison table' "$T/.err"
odd_table "a mean of 1e+300" \
	'    1e+300          +100.0%     2e+300        iostat.cpu.user'
refuses "a report past its CPU budget" "$SEEDS/000_74aefeb1da089ba9.txt" \
	--date "$(cat "$EX/seed-000/date")" --budget 0.001
ok "the budget's refusal names where the solvers stopped" \
	grep -q ': gave up on block 0, row .* after 0.001 s of CPU time (--budget)$' \
	"$T/.err"
