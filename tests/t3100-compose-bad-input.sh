# SPDX-License-Identifier: GPL-2.0-only
#
# t3100-compose-bad-input: `robot compose` (queueing, not --dry-run) on bad
# input.  Each case exits 65 (bad request, results or commit metadata) or
# 78 (bad configuration) with exactly one "robot: error:" line that names
# the file (request, commit metadata, repository or configuration) and
# the key or line, and queues nothing: the spool's new/ stays empty or
# absent and no material is published.  The last case queues the good
# request through the same configuration, so "nothing queued" is not
# vacuous.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-git.sh"

SMALL=$TOP/tests/data/compare/small
W=$T/w
SPOOL=$T/spool
ARCHIVE=$T/archive
CFG=$T/robot.yaml
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
printf 'spool: %s\narchive_dir: %s\n' "$SPOOL" "$ARCHIVE" >"$CFG"
printf 'archive_url: https://ci.example.org/archive\n' >>"$CFG"
printf 'CONFIG_X86_64=y\n' >"$W/config-6.3.0"

C2=68674f94ffc9dddc1234567890abcdef12345678
C3=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
NOSUCH=1111111111111111111111111111111111111111

# The good request every case breaks in one place.
base() {
	base_request "$C3"
}

# req NAME SED-SCRIPT [EXTRA-LINE]: $W/NAME.yaml, the base edited.
req() {
	base | sed "$2" >"$W/$1.yaml"
	if [ $# -gt 2 ]; then
		printf '%s\n' "$3" >>"$W/$1.yaml"
	fi
}

# Nothing in new/, nothing published.  What a failing case left is
# removed, so the next case starts clean.
nothing_queued() {
	_nq=0
	if [ -d "$SPOOL/new" ] && [ -n "$(ls -A "$SPOOL/new")" ]; then
		echo "queued: $(ls -A "$SPOOL/new")"
		_nq=1
	fi
	if [ -d "$ARCHIVE" ] && [ -n "$(find "$ARCHIVE" -type f)" ]; then
		echo "published: $(find "$ARCHIVE" -type f)"
		_nq=1
	fi
	[ $_nq -eq 0 ] || rm -rf "$SPOOL" "$ARCHIVE"
	return $_nq
}

# check DESC NEEDLE...: the last error line names every NEEDLE, and
# nothing is queued.
check() {
	_desc=$1
	shift
	if names "$@" >"$T/.why" 2>&1 && nothing_queued >>"$T/.why" 2>&1; then
		_ok "$_desc: the error names the place; nothing queued"
	else
		_fail "$_desc: the error names the place; nothing queued"
		sed 's/^/# /' "$T/.why"
	fi
}

# bad CODE DESC REQUEST NEEDLE...: compose REQUEST (queueing) with $CFG.
bad() {
	_code=$1 _bdesc=$2 _req=$3
	shift 3
	expect_code "$_code" "$_bdesc: exit $_code, one error line" \
		"$ROBOT" compose -c "$CFG" "$_req"
	check "$_bdesc" "$@"
}

req good ''
ok "the good request composes (--dry-run)" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/good.yaml"
ok "--dry-run created no spool" test ! -e "$SPOOL"

# --- the style -----------------------------------------------------------
req style1 '' 'style: 2023-13-45'
bad 65 "an unknown style" "$W/style1.yaml" \
	"$W/style1.yaml: style: unknown style '2023-13-45'"
req style2 '' 'style: 1999-01-01'
bad 65 "a style older than the style table" "$W/style2.yaml" \
	"$W/style2.yaml: style: no style is known for 1999-01-01"
req style3 's/^date:.*/date: "1999-06-07 14:32:17 +0800"/'
bad 65 "a date older than the style table" "$W/style3.yaml" \
	"$W/style3.yaml: date: no style is known for 1999-06-07"
expect_code 2 "--style with a bad value is a usage error" \
	"$ROBOT" compose -c "$CFG" --style 2023-02-30 "$W/good.yaml"

# --- the KPI ---------------------------------------------------------------
req kpi1 's/^kpi:.*/kpi: stress-ng.lockofd.no_such_stat/'
bad 65 "a KPI with no row" "$W/kpi1.yaml" \
	"$W/kpi1.yaml: kpi: 'stress-ng.lockofd.no_such_stat' has no row"
req kpi2 '' 'sections: [{result_roots: [rt0, rt1], kpi: no.such.stat}]'
bad 65 "a section's KPI with no row" "$W/kpi2.yaml" \
	"$W/kpi2.yaml: sections[0].kpi: 'no.such.stat' has no row"
req kpi3 '/^kpi:/d'
bad 65 "no KPI" "$W/kpi3.yaml" "$W/kpi3.yaml: 'kpi' is missing (the Subject needs it)"

# --- commits missing from the metadata file or the repository --------------
req nocommit "s/^commit:.*/commit: $NOSUCH/"
bad 65 "a commit not in the commits: file" "$W/nocommit.yaml" \
	"$W/nocommit.yaml: commit '$NOSUCH' (commit) is not in" \
	"$W/commits.yaml"
mkdir -p "$W/m0" && cp -R "$W/rt0" "$W/rt1" "$W/m0/" &&
	grep -v "$C2\|memory copies" "$W/commits.yaml" >"$W/m0/commits.yaml"
req m0/r ''
bad 65 "a result root's commit not in the commits: file" "$W/m0/r.yaml" \
	"$W/m0/r.yaml: commit '$C2' ($W/m0/rt0) is not in"

R=$T/linux
ok "the fixture repository builds" git_fixture_kernel "$R"
G2=$(git -C "$R" rev-parse master^)
G3=$(git -C "$R" rev-parse master)
# A commit object with raw bytes of our choosing in its message: git
# commit would re-encode them, hash-object writes them as given.
raw_commit() {
	_tree=$(git -C "$R" rev-parse "master^{tree}")
	{
		printf 'tree %s\nparent %s\n' "$_tree" "$G3"
		printf 'author A U Thor <a@example.org> 1681984800 +0000\n'
		printf 'committer A U Thor <a@example.org> 1681984800 +0000\n\n'
		# shellcheck disable=SC2059 # $1 is a format: its escapes are the bytes
		printf "$1"
	} | git -C "$R" hash-object -t commit -w --stdin
}
GBAD=$(raw_commit 'x86: a bad \377\376 subject\n\nbody\n')
GCR=$(raw_commit 'x86: a subject with a CR\r in it\n\nbody\n')
mkdir -p "$W/g" && cp -R "$W/rt0" "$W/rt1" "$W/g/" &&
	sed -i "s/^commit:.*/commit: $G2/" "$W/g/rt0"/*/job.yaml &&
	sed -i "s/^commit:.*/commit: $G3/" "$W/g/rt1"/*/job.yaml
greq() {
	base | sed -e "s/^commit:.*/commit: $2/" -e "s|^commits:.*|repo: $R|" \
		>"$W/g/$1.yaml"
}
greq good "$G3"
ok "the good repo: request composes (--dry-run)" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/g/good.yaml"
greq nocommit "$NOSUCH"
bad 65 "a commit not in the repo: repository" "$W/g/nocommit.yaml" \
	"commit '$NOSUCH' not found in repository '$R'"
greq utf8 "$GBAD"
bad 65 "invalid UTF-8 in a repository commit's subject" "$W/g/utf8.yaml" \
	"commit '$GBAD' in repository '$R': 'subject' must be one line of valid UTF-8"
greq cr "$GCR"
bad 65 "a CR in a repository commit's subject" "$W/g/cr.yaml" \
	"commit '$GCR' in repository '$R': 'subject' must be one line"

# --- commit metadata with CR/LF or invalid UTF-8 in a subject --------------
meta() {
	mkdir -p "$W/$1" && cp -R "$W/rt0" "$W/rt1" "$W/$1/" && base >"$W/$1/r.yaml"
	{
		printf 'commits:\n- id: %s\n  subject: "x86: copies"\n' "$C2"
		printf -- '- id: %s\n  subject: %s\n' "$C3" "$2"
	} >"$W/$1/commits.yaml"
}
meta crlf '"x86: clearing\r\nBcc: victim@example.org"'
bad 65 "CR/LF in a metadata subject" "$W/crlf/r.yaml" \
	"$W/crlf/commits.yaml:5: commits: 'subject' must be one line"
meta lf '"x86: clearing\nTo: victim@example.org"'
bad 65 "LF in a metadata subject" "$W/lf/r.yaml" \
	"$W/lf/commits.yaml:5: commits: 'subject' must be one line"
meta utf8 "$(printf '"x86: clearing \377\376"')"
bad 65 "invalid UTF-8 in a metadata subject" "$W/utf8/r.yaml" \
	"$W/utf8/commits.yaml: byte " "UTF-8"

# --- request values that would go into a header ----------------------------
req tree 's/^tree:.*/tree: "linus\\nBcc: victim@example.org"/'
bad 65 "a newline in tree" "$W/tree.yaml" \
	"$W/tree.yaml:5: tree: must be one line"
req from 's/^from:.*/from: "robot <r@example.org>\\r\\nBcc: victim@example.org"/'
bad 65 "CR/LF in from" "$W/from.yaml" "$W/from.yaml:2: from: must be one line"
req to 's/^to:.*/to: ["a@example.org\\nBcc: victim@example.org"]/'
bad 65 "a newline in a to address" "$W/to.yaml" "$W/to.yaml:3: to[0]: must be one line"
req from2 's/^from:.*/from: "not an address"/'
bad 65 "a from that is not an address" "$W/from2.yaml" \
	"$W/from2.yaml:2: from: 'not an address' is not an address"
req irt '' 'in_reply_to: "no angle brackets"'
bad 65 "an in_reply_to that is no Message-ID" "$W/irt.yaml" \
	"$W/irt.yaml:12: in_reply_to: 'no angle brackets' is not one <id@host>"

# --- wrong types and unknown keys ------------------------------------------
req type1 's/^to:.*/to: {name: x}/'
bad 65 "a mapping where a list of strings goes" "$W/type1.yaml" \
	"$W/type1.yaml:3: to: must be a list of strings"
req type2 's/^kpi:.*/kpi: [a, b]/'
bad 65 "a list where a string goes" "$W/type2.yaml" \
	"$W/type2.yaml:10: kpi: must be a string"
req type3 '' 'attachments: config-6.3.0'
bad 65 "a string where a list goes" "$W/type3.yaml" \
	"$W/type3.yaml:12: attachments: must be a list"
req unknown1 '' 'kpis: stress-ng.lockofd.ops_per_sec'
bad 65 "an unknown key" "$W/unknown1.yaml" \
	"$W/unknown1.yaml:12: kpis: unknown key"
req unknown2 '' 'patch: {url: "https://example.org/p", subjekt: x}'
bad 65 "an unknown nested key" "$W/unknown2.yaml" \
	"$W/unknown2.yaml:12: patch.subjekt: unknown key"
req bool1 '' 'still: [{tree: linus/master, commit: x, failed: yes}]'
bad 65 "a boolean that is not true or false" "$W/bool1.yaml" \
	"$W/bool1.yaml:12: still[0].failed: must be true or false"

# --- the note's pieces (note_parts: words, and rows the first table prints) --
req np1 '' 'note_parts: [{rows: [no.such.stat]}]'
bad 65 "a note row the table does not have" "$W/np1.yaml" \
	"$W/np1.yaml: note_parts[0].rows: 'no.such.stat' is not a row of the first test's table"
req np2 '' 'note_parts: [{text: "x", rows: [stress-ng.lockofd.ops_per_sec]}]'
bad 65 "a note part with words and rows" "$W/np2.yaml" \
	"$W/np2.yaml: note_parts[0]: text or rows, not both"
req np3 '' 'note_parts: [{rows: []}]'
bad 65 "a note part with neither" "$W/np3.yaml" \
	"$W/np3.yaml: note_parts[0]: text or rows, one of them"
req np4 '' 'note: "x"
note_parts: [{text: "y"}]'
bad 65 "a note and note_parts" "$W/np4.yaml" \
	"$W/np4.yaml: note and note_parts: one of them, not both"
req np5 '' 'note_parts: [{text: "x\n"}, {rows: stress-ng.lockofd.ops_per_sec}]'
ok "note_parts: words and a row compose (--dry-run)" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/np5.yaml"
"$ROBOT" compose --dry-run -c "$CFG" "$W/np5.yaml" >"$T/np5.eml" 2>&1
row=$(grep ' stress-ng\.lockofd\.ops_per_sec$' "$T/np5.eml" | tail -n 1)
ok "note_parts: the table has the KPI's row" test -n "$row"
ok "note_parts: the note's row is the table's row, as printed" \
	test "$(grep -A1 '^x$' "$T/np5.eml" | tail -n 1)" = "$row"
ok "note_parts: the row is in the mail twice (note and table)" \
	test "$(grep -cxF -- "$row" "$T/np5.eml")" = 2

# --- the sender's words at a place of a performance report (notes) ----------
req pn1 '' 'notes: [{at: intro, text: "x"}]'
bad 65 "a performance note at a functional place" "$W/pn1.yaml" \
	"$W/pn1.yaml: notes[0].at: 'intro' is not a place of a performance report (want source, params, repro, table, details, end or post)"
req pn2 '' 'notes: [{at: params, fail_runs: true}]'
bad 65 "a fail:runs table in a performance note" "$W/pn2.yaml" \
	"$W/pn2.yaml: notes[0]: a performance report's notes are words (text) or a table of result roots, not fail:runs tables"
req pn3 '' 'notes: [{at: table, text: " <-- (a)"}]'
bad 65 "a note at table without its row" "$W/pn3.yaml" \
	"$W/pn3.yaml: notes[0]: a note at table names its row"
req pn4 '' 'notes: [{at: params, row: stress-ng.lockofd.ops_per_sec, text: "x"}]'
bad 65 "a row for a note not at table" "$W/pn4.yaml" \
	"$W/pn4.yaml: notes[0]: row is for a note at table"
req pn5 '' 'notes: [{at: table, row: no.such.stat, text: " <-- (a)"}]'
bad 65 "a note on a row the table does not have" "$W/pn5.yaml" \
	"$W/pn5.yaml: notes[0].row: 'no.such.stat' is not a row of the first test's table"
req pn6 '' 'still: [{tree: linus/master, revert: true, commit: 0123456789012345678901234567890123456789}]'
bad 65 "a reverted head with a commit" "$W/pn6.yaml" \
	"$W/pn6.yaml: still[0]: a reverted head has neither commit nor failed"
req pt1 '' 'notes: [{at: params, text: "x", table: [rt0, rt1]}]'
bad 65 "a table note with words" "$W/pt1.yaml" \
	"$W/pt1.yaml: notes[0]: a table is an item of its own, at params or post"
req pt2 '' 'notes: [{at: repro, table: [rt0, rt1]}]'
bad 65 "a table note at another place" "$W/pt2.yaml" \
	"$W/pt2.yaml: notes[0]: a table is an item of its own, at params or post"
req pt3 '' 'notes: [{at: params, table: [rt0]}]'
bad 65 "a table note of one result root" "$W/pt3.yaml" \
	"$W/pt3.yaml: notes[0].table: a comparison needs at least two"
req pt4 '' 'notes: [{at: params, table: [rt0, no-such-rt]}]'
bad 65 "a table note of a missing result root" "$W/pt4.yaml" \
	"$W/pt4.yaml: notes[0].table[1]: cannot open '$W/no-such-rt'"
req pn8 's/^date:.*/date: "2016-08-01 10:00:00 +0800"/' \
	'notes: [{at: params, text: "x"}]'
bad 65 "a note at params where the period's body has no place for it" \
	"$W/pn8.yaml" "templates/2016/body: the report has a note at params but the template has no '{verdict}'"
req pe1 '' 'notes: [{at: end, row: stress-ng.lockofd.ops_per_sec, text: "x"}]'
bad 65 "a row for a note at end" "$W/pe1.yaml" \
	"$W/pe1.yaml: notes[0]: row is for a note at table"
req pe2 '' 'notes: [{at: end, fail_runs: true}]'
bad 65 "a fail:runs table in a performance note at end" "$W/pe2.yaml" \
	"$W/pe2.yaml: notes[0]: a performance report's notes are words (text) or a table of result roots, not fail:runs tables"
req pe3 '' 'notes: [{at: end, table: [rt0, rt1]}]'
bad 65 "a table note at end" "$W/pe3.yaml" \
	"$W/pe3.yaml: notes[0]: a table is an item of its own, at params"
for d in 2016-08-01 2021-12-14 2023-09-22; do
	req pe4 "s/^date:.*/date: \"$d 10:00:00 +0800\"/" \
		'notes: [{at: end, text: "#regzbot introduced: 0123456789"}]'
	"$ROBOT" compose --dry-run -c "$CFG" "$W/pe4.yaml" >"$T/pe4.eml" 2>&1
	ok "notes at end ($d): the words, then two empty lines and the signature" \
		test "$(grep -A3 '^#regzbot introduced: 0123456789$' "$T/pe4.eml" |
			awk 'NR > 1 { printf "%s", length($0) ? "x" : "-" }')" = "--x"
done
req pn7 '' 'notes: [{at: table, row: stress-ng.lockofd.ops_per_sec, text: "   <-- (a)"}]'
"$ROBOT" compose --dry-run -c "$CFG" "$W/pn7.yaml" >"$T/pn7.eml" 2>&1
ok "notes at table: the words follow the row's name on its line" \
	grep -q ' stress-ng\.lockofd\.ops_per_sec   <-- (a)$' "$T/pn7.eml"

req pp1 '' 'notes: [{at: post, text: "more below\n"}, {at: post, table: [rt0, rt1]}]'
"$ROBOT" compose --dry-run -c "$CFG" "$W/pp1.yaml" >"$T/pp1.eml" 2>&1
sed -n '/^Thanks,$/,$p' "$T/pp1.eml" >"$T/pp1.eml.sig"
tail -n 1 "$T/pp1.eml" >"$T/pp1.eml.last"
ok "notes at post: the words follow the signature" \
	grep -qx 'more below' "$T/pp1.eml.sig"
ok "notes at post: the table's rows end the mail" \
	grep -q ' stress-ng\.lockofd\.ops_per_sec$' "$T/pp1.eml.last"
ok "notes at post: the table is its rows, without its header lines" \
	test "$(sed -n '/^more below$/,$p' "$T/pp1.eml" | grep -c 'stddev\|^---')" = 0

# --- rows appended to the first test's table (append) ------------------------
req ap1 '' 'append: [no.such.stat]'
bad 65 "an appended row no result root has" "$W/ap1.yaml" \
	"$W/ap1.yaml: append[0]: 'no.such.stat' is not a stat of the first test's result roots"
req ap2 '' 'append: [stress-ng.lockofd.ops_per_sec]'
bad 65 "an appended row the table shows already" "$W/ap2.yaml" \
	"$W/ap2.yaml: append[0]: 'stress-ng.lockofd.ops_per_sec' is a row of the first test's table already"

req ns1 '' 'sections: [{result_roots: [rt0, rt1], kpi: stress-ng.lockofd.ops_per_sec, no_section: true}]'
bad 65 "a further section without its section" "$W/ns1.yaml" \
	"$W/ns1.yaml: sections[0].no_section: only an In-addition entry (additions) can have no section"

# --- attachments -------------------------------------------------------------
req att1 '' 'attachments: [{path: config-6.3.0}, {path: no-such-file}]'
bad 65 "a missing attachment" "$W/att1.yaml" \
	"$W/att1.yaml: attachments[1].path: cannot read '$W/no-such-file'"
req att2 's/^date:.*/date: "2023-09-22 10:00:00 +0800"/' \
	'attachments: [{path: config-6.3.0}, {path: no-such-file}]'
bad 65 "a missing material (download-link style)" "$W/att2.yaml" \
	"$W/att2.yaml: attachments[1].path: cannot read"
req att3 's/^date:.*/date: "2023-09-22 10:00:00 +0800"/' \
	'attachments: [{path: config-6.3.0, name: ../../escape}]'
bad 65 "a material named out of its folder" "$W/att3.yaml" \
	"$W/att3.yaml:12: attachments[0].name: the file name '../../escape' is not a base name"
req att-dev '' 'attachments: [{path: /dev/zero, name: zero}]'
bad 65 "a device as an attachment" "$W/att-dev.yaml" \
	"$W/att-dev.yaml: attachments[0].path: '/dev/zero' is not a regular file"
mkfifo "$W/fifo"
req att-fifo '' 'attachments: [{path: fifo}]'
bad 65 "a FIFO as an attachment (it would block)" "$W/att-fifo.yaml" \
	"$W/att-fifo.yaml: attachments[0].path: '$W/fifo' is not a regular file"
req att4 '' 'attachments: [{path: config-6.3.0, kind: kconfig}]'
bad 65 "an unknown attachment kind" "$W/att4.yaml" \
	"$W/att4.yaml: attachments[0].kind: unknown kind 'kconfig'"
req att5 '' 'attachments: [{path: config-6.3.0, kind: config}]'
bad 65 "a config named after a release nobody knows" "$W/att5.yaml" \
	"$W/att5.yaml: attachments[0].kind: the tested commit has no known release"

# --- the request file itself -----------------------------------------------
printf 'date: "2023-06-07 14:32:17 +0800"\nto: [a@example.org\nkpi: x\n' \
	>"$W/yaml.yaml"
expect_code 65 "malformed YAML: exit 65, one error line" \
	"$ROBOT" compose -c "$CFG" "$W/yaml.yaml"
if grep -q "^robot: error: $W/yaml.yaml:[0-9]*:[0-9]*: " "$T/.err" &&
	nothing_queued >"$T/.why" 2>&1; then
	_ok "malformed YAML: the error names file:line:column; nothing queued"
else
	_fail "malformed YAML: the error names file:line:column; nothing queued"
	sed 's/^/# /' "$T/.err" "$T/.why"
fi
: >"$W/empty.yaml"
bad 65 "an empty request" "$W/empty.yaml" "$W/empty.yaml: empty request"
printf '# nothing but a comment\n' >"$W/comment.yaml"
bad 65 "a request of only a comment" "$W/comment.yaml" \
	"$W/comment.yaml: empty request"
printf -- '- a\n- b\n' >"$W/list.yaml"
bad 65 "a request that is a list" "$W/list.yaml" \
	"$W/list.yaml:1: the request must be a mapping"
bad 65 "a missing request file" "$W/no-such.yaml" \
	"cannot read '$W/no-such.yaml'"

# --- date and Message-ID -------------------------------------------------------
req date1 's/^date:.*/date: "2023-02-30 14:32:17 +0800"/'
bad 65 "a date that does not exist" "$W/date1.yaml" \
	"$W/date1.yaml: date: '2023-02-30 14:32:17 +0800' is not"
req date2 's/^date:.*/date: "2023-06-07 14:32:17"/'
bad 65 "a date without its zone" "$W/date2.yaml" "$W/date2.yaml: date: "
req date3 's/^date:.*/date: "yesterday"/'
bad 65 "a date that is no date" "$W/date3.yaml" "$W/date3.yaml: date: 'yesterday'"
# without a date the clock is SOURCE_DATE_EPOCH: a four-digit year or an error
req nodate '/^date:/d'
for v in 12x -5 253402300800 99999999999999999 ' 7'; do
	SOURCE_DATE_EPOCH=$v
	export SOURCE_DATE_EPOCH
	bad 65 "SOURCE_DATE_EPOCH='$v'" "$W/nodate.yaml" \
		"SOURCE_DATE_EPOCH: '$v' is not a number of seconds from 1970 to 9999"
done
SOURCE_DATE_EPOCH=253402300799
export SOURCE_DATE_EPOCH
"$ROBOT" compose --dry-run -c "$CFG" "$W/nodate.yaml" >"$T/last.eml" 2>&1
ok "SOURCE_DATE_EPOCH=253402300799 dates the mail in 9999" \
	grep -qx 'Date: Fri, 31 Dec 9999 23:59:59 +0000' "$T/last.eml"
unset SOURCE_DATE_EPOCH
req mid1 '' 'message_id: "202306071432.abc@example.org"'
bad 65 "a message_id without angle brackets" "$W/mid1.yaml" \
	"$W/mid1.yaml:12: message_id: '202306071432.abc@example.org' is not one"
req mid2 '' 'message_id: "<a b@example.org>"'
bad 65 "a message_id with a blank" "$W/mid2.yaml" "$W/mid2.yaml:12: message_id: '<a b@example.org>' is not one"
req mid3 '' 'message_id: ""'
bad 65 "an empty message_id" "$W/mid3.yaml" "$W/mid3.yaml:12: message_id: '' is not one"
# a '/' only matters where the id names the materials' folder (the
# download-link styles); before them a mailer's id may hold one
req mid4 's/^date:.*/date: "2023-09-22 10:00:00 +0800"/' \
	'message_id: "<a/b@example.org>"'
bad 65 "a message_id with a slash (download-link style)" "$W/mid4.yaml" \
	"$W/mid4.yaml: message_id: '<a/b@example.org>' contains '/'"
req mid5 '' 'message_id: "<YsbxPjmWXXobY/QH@example.org>"'
ok "a message_id with a slash where nothing is published" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/mid5.yaml"

# --- result roots ------------------------------------------------------------
req rt1 's/^result_roots:.*/result_roots: [rt0, no-such-rt]/'
bad 65 "a result root that does not exist" "$W/rt1.yaml" \
	"$W/rt1.yaml: result_roots[1]: cannot open '$W/no-such-rt'"
req rt2 's/^result_roots:.*/result_roots: [rt0]/'
bad 65 "a single result root" "$W/rt2.yaml" \
	"$W/rt2.yaml: result_roots: a comparison needs at least two"

# --- the base must not be the tested commit ------------------------------------
req base1 "s/^commit:.*/commit: $C2/"
bad 65 "the tested commit is the base root's" "$W/base1.yaml" \
	"$W/base1.yaml: result_roots[0]: the base result root '$W/rt0' is of the tested commit $C2"
req base2 's/^result_roots:.*/result_roots: [rt1, rt0]/'
bad 65 "the result roots in the wrong order" "$W/base2.yaml" \
	"$W/base2.yaml: result_roots[0]: the base result root '$W/rt1' is of the tested commit $C3"
req base3 '' 'sections: [{result_roots: [rt1, rt0], kpi: stress-ng.lockofd.ops_per_sec}]'
bad 65 "a section whose base is the tested commit" "$W/base3.yaml" \
	"$W/base3.yaml: sections[0].result_roots[0]: the base result root '$W/rt1'"

# --- a line too long to fold names the key it came from ------------------------
LONG=$(printf '%01000d' 0 | tr 0 x)
req long1 "s/^tree:.*/tree: \"$LONG\"/"
bad 65 "a tree with a 1000-character word" "$W/long1.yaml" \
	"$W/long1.yaml: tree: a line of 1011 bytes, over 998"
req long2 "s/^to:.*/to: [\"$LONG <a@example.org>\"]/"
bad 65 "a to name with a 1000-character word" "$W/long2.yaml" \
	"$W/long2.yaml: to: a line of " ", over 998"
req long3 '' "message_id: \"<$LONG@example.org>\""
bad 65 "a 1000-character message_id" "$W/long3.yaml" \
	"$W/long3.yaml: message_id: a line of " ", over 998"
mkdir -p "$W/long4" && cp -R "$W/rt0" "$W/rt1" "$W/long4/" && base >"$W/long4/r.yaml"
{
	printf 'commits:\n- id: %s\n  subject: "x86: copies"\n' "$C2"
	printf -- '- id: %s\n  subject: "%s: x"\n' "$C3" "$LONG"
} >"$W/long4/commits.yaml"
bad 65 "a commit subject with a 1000-character word" "$W/long4/r.yaml" \
	"$W/long4/commits.yaml: commit $C3: subject: a line of " ", over 998"

# --- what is not the input's fault -----------------------------------------------
expect_code 78 "a data directory that does not exist: exit 78" \
	"$ROBOT" compose --data-dir "$T/no-data" -c "$CFG" "$W/good.yaml"
check "a data directory that does not exist" \
	"cannot read data file '$T/no-data/config/data/styles'"
mkdir -p "$T/data" && cp -R "$TOP/templates" "$TOP/config" "$T/data/" &&
	rm "$T/data/templates/2023/body"
expect_code 78 "a missing template: exit 78" \
	"$ROBOT" compose --data-dir "$T/data" -c "$CFG" "$W/good.yaml"
check "a missing template" "cannot read data file '$T/data/templates/2023/body'"
rm -r "$T/data/config/data/lkp"
expect_code 78 "missing lkp-tests tables: exit 78" \
	"$ROBOT" compose --data-dir "$T/data" -c "$CFG" "$W/good.yaml"
check "missing lkp-tests tables" "cannot read data file '$T/data/config/data/lkp/"
# /proc/self/mem opens, but reading its first page fails with EIO
if [ -r /proc/self/mem ]; then
	req eio '' 'attachments: [{path: /proc/self/mem, name: mem}]'
	bad 1 "an I/O error reading an attachment" "$W/eio.yaml" \
		"$W/eio.yaml: attachments[0].path: cannot read '/proc/self/mem': Input/output error"
fi

# --- the command line ------------------------------------------------------------
expect_code 2 "-c without a value: exit 2" "$ROBOT" compose "$W/good.yaml" -c
check "-c without a value" "option '-c' needs a value"
expect_code 2 "--style without a value: exit 2" \
	"$ROBOT" compose "$W/good.yaml" --style
check "--style without a value" "option '--style' needs a value"
expect_code 2 "an unknown option: exit 2" "$ROBOT" compose --bogus "$W/good.yaml"
check "an unknown option" "unknown option '--bogus'"

# --- the configuration -------------------------------------------------------
printf 'spool: %s\nspoool: %s\n' "$SPOOL" "$SPOOL" >"$T/bad-key.yaml"
expect_code 78 "a config with an unknown key: exit 78" \
	"$ROBOT" compose -c "$T/bad-key.yaml" "$W/good.yaml"
check "a config with an unknown key" "$T/bad-key.yaml:2: spoool: unknown key"
printf 'spool: %s\ncc: {a: b}\n' "$SPOOL" >"$T/bad-type.yaml"
expect_code 78 "a config value of the wrong type: exit 78" \
	"$ROBOT" compose -c "$T/bad-type.yaml" "$W/good.yaml"
check "a config value of the wrong type" "$T/bad-type.yaml:2: cc: must be a list"
expect_code 78 "a config file that does not exist: exit 78" \
	"$ROBOT" compose -c "$T/no-such-config.yaml" "$W/good.yaml"
check "a config file that does not exist" "cannot read '$T/no-such-config.yaml'"
ROBOT_CONFIG=$T/bad-key.yaml
export ROBOT_CONFIG
expect_code 78 "\$ROBOT_CONFIG with an unknown key: exit 78" \
	"$ROBOT" compose "$W/good.yaml"
unset ROBOT_CONFIG

# --- and the good request does queue through the same configuration ----------
ok "the good request queues" "$ROBOT" compose -c "$CFG" "$W/good.yaml"
ok "exactly one message is queued" \
	test "$(find "$SPOOL/new" -type f | wc -l)" -eq 1

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
