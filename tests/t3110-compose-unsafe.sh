# SPDX-License-Identifier: GPL-2.0-only
#
# t3110-compose-unsafe: values that would make an unsafe or wrong mail.
# Each case either is refused (the exit code of robot's contract and
# exactly one "robot: error:" line naming the file and the key) or gives
# a mail that Python's email package (policy.default, which decodes
# encoded-words even inside quotes and addresses) reads without a defect
# and without CR, LF or NUL in any decoded header value, address or file
# name (tests/tools/mail-safe), and that shows the text as given.
#
# The kinds of value each have one validator (mail/valid.h, visible text
# in robot/util/utf8.h); the cases go through every field of each kind: the
# request's from/to/cc, the configuration's from/cc, the commit author
# that becomes the To, message_id and in_reply_to, attachment names, and
# the visible-text fields (tree, kpi, preface, commit subjects).
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
SAFE="$PYTHON $TOP/tests/tools/mail-safe"
W=$T/w
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
printf 'spool: %s\narchive_dir: %s\n' "$T/spool" "$T/archive" >"$W/robot.yaml"
printf 'CONFIG_X86_64=y\n' >"$W/config"
C2=68674f94ffc9dddc1234567890abcdef12345678
C3=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0

# An encoded-word lookalike that decodes to a CR LF and a Bcc header.
EW='=?utf-8?q?x=0D=0ABcc:_eve@example.org?='

# req NAME SED-SCRIPT [EXTRA-LINE]: $W/NAME.yaml, the base request edited.
req() {
	base_request "$C3" | sed "$2" >"$W/$1.yaml"
	if [ $# -gt 2 ]; then
		printf '%s\n' "$3" >>"$W/$1.yaml"
	fi
}

# refused CODE DESC REQUEST [CONFIG] -- NEEDLE...
refused() {
	_code=$1 _desc=$2 _req=$3 _cfg=$W/robot.yaml
	shift 3
	if [ "$1" != -- ]; then
		_cfg=$1
		shift
	fi
	shift
	expect_code "$_code" "$_desc: exit $_code, one error line" \
		"$ROBOT" compose --dry-run -c "$_cfg" "$_req"
	if names "$@" >"$T/.why" 2>&1; then
		_ok "$_desc: the error names file and key"
	else
		_fail "$_desc: the error names file and key"
		sed 's/^/# /' "$T/.why"
	fi
}

# safe DESC REQUEST [CONFIG] -- LINE...: the mail composes, mail-safe
# passes, and its decoded values (blanks dropped: Python keeps the blank
# between two encoded-words of a display name) hold every LINE.
safe() {
	_desc=$1 _req=$2 _cfg=$W/robot.yaml
	shift 2
	if [ "$1" != -- ]; then
		_cfg=$1
		shift
	fi
	shift
	if "$ROBOT" compose --dry-run -c "$_cfg" "$_req" >"$T/mail" 2>"$T/.err" &&
		$SAFE "$T/mail" >"$T/seen" 2>>"$T/.err"; then
		_ok "$_desc: composed; Python reads it without a defect or CR/LF"
	else
		_fail "$_desc: composed; Python reads it without a defect or CR/LF"
		sed 's/^/# /' "$T/.err"
		return
	fi
	tr -d ' ' <"$T/seen" >"$T/seen.nb"
	for l in "$@"; do
		_l=$(printf '%s' "$l" | tr -d ' ')
		if ! grep -qxF -- "$_l" "$T/seen.nb"; then
			_fail "$_desc: a reader sees '$l'"
			sed 's/^/# seen: /' "$T/seen"
			return
		fi
	done
	_ok "$_desc: a reader sees the text as given"
}

req good ''
safe "the base request" "$W/good.yaml" -- \
	"To[0]: Linus Torvalds <torvalds@linux-foundation.org>"

# --- encoded-word lookalikes: robot encodes them itself -------------------
req ew-from "s/^from:.*/from: '\"$EW\" <robot@example.org>'/"
safe "a lookalike in from's quoted name" "$W/ew-from.yaml" -- \
	"From[0]: $EW <robot@example.org>"
req ew-from2 "s/^from:.*/from: '$EW <robot@example.org>'/"
safe "a lookalike as from's bare name" "$W/ew-from2.yaml" -- \
	"From[0]: $EW <robot@example.org>"
req ew-to "s/^to:.*/to: ['\"$EW\" <a@example.org>', 'B <b@example.org>']/"
safe "a lookalike in a to name" "$W/ew-to.yaml" -- \
	"To[0]: $EW <a@example.org>" "To[1]: B <b@example.org>"
req ew-cc "s/^cc:.*/cc: ['\"x, $EW\" <c@example.org>']/"
safe "a lookalike in a cc name" "$W/ew-cc.yaml" -- \
	"CC[0]: x, $EW <c@example.org>"
req ew-cfg '/^from:/d; /^cc:/d'
{
	cat "$W/robot.yaml"
	printf "from: '\"%s\" <robot@example.org>'\n" "$EW"
	printf "cc: ['\"%s\" <list@example.org>']\n" "$EW"
} >"$W/ew.robot.yaml"
safe "lookalikes in the configuration's from and cc" "$W/ew-cfg.yaml" \
	"$W/ew.robot.yaml" -- \
	"From[0]: $EW <robot@example.org>" "CC[0]: $EW <list@example.org>"
req ew-tree "s/^tree:.*/tree: '$EW'/"
safe "a lookalike in the tree (the Subject)" "$W/ew-tree.yaml" --
if grep -qF "Subject: [$EW]" "$T/seen"; then
	_ok "a lookalike in the tree: the Subject shows it as given"
else
	_fail "a lookalike in the tree: the Subject shows it as given"
	sed 's/^/# seen: /' "$T/seen"
fi

# The tested commit's author becomes the To when the request has none.
# author NAME ADDR: $W/a-*/ with commits.yaml giving the tested commit
# that author, and r.yaml the request without to:
author() {
	_d=$W/a-$1
	mkdir -p "$_d" && cp -R "$W/rt0" "$W/rt1" "$_d/"
	{
		printf 'commits:\n- id: %s\n  subject: "x86: copies"\n' "$C2"
		printf -- '- id: %s\n  subject: "x86: clearing"\n' "$C3"
		printf '  author: %s\n' "$2"
		printf '  author_date: "2023-04-18 10:21:55 +0800"\n'
	} >"$_d/commits.yaml"
	base_request "$C3" | sed '/^to:/d' >"$_d/r.yaml"
}
author ew "'$EW <a@example.org>'"
safe "a lookalike in the commit author's name (the To)" "$W/a-ew/r.yaml" -- \
	"To[0]: $EW <a@example.org>"
author comma "'Doe, John <jd@example.org>'"
safe "a comma in the commit author's name: one recipient" \
	"$W/a-comma/r.yaml" -- "To[0]: Doe, John <jd@example.org>"
if grep -q '^To\[1\]' "$T/seen"; then
	_fail "a comma in the commit author's name: no second recipient"
else
	_ok "a comma in the commit author's name: no second recipient"
fi
author quote "'Eve \"x\" y <e@example.org>'"
safe "quotes in the commit author's name" "$W/a-quote/r.yaml" -- \
	'To[0]: Eve "x" y <e@example.org>'
author badmail "'Eve <e@-.example.org>'"
refused 65 "a commit author whose email is no address" "$W/a-badmail/r.yaml" \
	-- "$W/a-badmail/commits.yaml: commit $C3: author: 'e@-.example.org' is not an address"
author bidi "$(printf "'Eve \342\200\256evE <e@example.org>'")"
refused 65 "a bidi override in the commit author's name" \
	"$W/a-bidi/r.yaml" -- "$W/a-bidi/commits.yaml:6: commits: 'author'"

# --- attachment names: base names, RFC 2231 for lookalikes -----------------
req att-ew '' "attachments: [{path: config, name: '$EW.txt'}]"
safe "a lookalike in an attachment name" "$W/att-ew.yaml" -- \
	"filename[0]: $EW.txt"
req att-dots '' 'attachments: [{path: config, name: ../../.bashrc}]'
refused 65 "an attachment name that climbs out" "$W/att-dots.yaml" -- \
	"$W/att-dots.yaml:12: attachments[0].name: the file name '../../.bashrc' is not a base name"
req att-bs '' 'attachments: [{path: config, name: '"'"'..\x'"'"'}]'
refused 65 "an attachment name with a backslash" "$W/att-bs.yaml" -- \
	"$W/att-bs.yaml:12: attachments[0].name: the file name '..\x' is not a base name"
req att-dot '' 'attachments: [{path: config, name: ..}]'
refused 65 "an attachment named .." "$W/att-dot.yaml" -- \
	"attachments[0].name: the file name '..' is not a base name"
mkdir -p "$W/dir"
req att-path '' 'attachments: [{path: dir/}]'
refused 65 "an attachment path without a base name" "$W/att-path.yaml" -- \
	"$W/att-path.yaml: attachments[0].path: the file name '' is empty"
req att-pub 's/^date:.*/date: "2023-09-22 10:00:00 +0800"/' \
	'attachments: [{path: config, name: ../x}]'
refused 65 "a published material that climbs out" "$W/att-pub.yaml" -- \
	"$W/att-pub.yaml:12: attachments[0].name: the file name '../x' is not a base name"
req att-bom '' "$(printf 'attachments: [{path: config, name: "\357\273\277config"}]')"
refused 65 "a BOM in an attachment name" "$W/att-bom.yaml" -- \
	"$W/att-bom.yaml:12: attachments[0].name: must be one line of visible UTF-8 text (an invisible character (U+FEFF) at byte 1)"
req att-rlo '' "$(printf 'attachments: [{path: config, name: "a\342\200\256txt.exe"}]')"
refused 65 "a right-to-left override in an attachment name" \
	"$W/att-rlo.yaml" -- "attachments[0].name: must be one line of visible UTF-8 text (an invisible character (U+202E)"

# --- Message-IDs: RFC 5322 msg-id -------------------------------------------
for id in '<a,b@example.org>' '<a@.b>' '<a..b@example.org>' '<a@b..c>' \
	'<@example.org>' '<a@>' "<$EW@example.org>" '<a@b@c>'; do
	req mid '' "message_id: '$id'"
	refused 65 "message_id $id" "$W/mid.yaml" -- \
		"$W/mid.yaml:12: message_id: '$id' is not one <id@host>"
	req irt '' "in_reply_to: '$id'"
	refused 65 "in_reply_to $id" "$W/irt.yaml" -- \
		"$W/irt.yaml:12: in_reply_to: '$id' is not one <id@host>"
done
req mid-lit '' "message_id: '<a.b@[127.0.0.1]>'"
safe "a Message-ID with a no-fold-literal" "$W/mid-lit.yaml" -- \
	"Message-ID: <a.b@[127.0.0.1]>"
printf 'message_id_user: "a,b"\n' | cat "$W/robot.yaml" - >"$W/mid.robot.yaml"
refused 78 "a configured Message-ID user that makes no msg-id" \
	"$W/good.yaml" "$W/mid.robot.yaml" -- \
	"$W/mid.robot.yaml: message_id_user, message_id_domain: they make '<"

# --- addresses ---------------------------------------------------------------
for a in '..@b' 'a.@b' 'a@-.x' 'a@x-' 'a@b..c' 'user@...el.com' 'a b@c' \
	'a@b_c.d' "$EW@example.org" 'a@' '@b'; do
	req addr "s/^from:.*/from: '$a'/"
	refused 65 "from $a" "$W/addr.yaml" -- \
		"$W/addr.yaml:2: from: '$a' is not an address"
	req addr "s/^to:.*/to: ['Name <$a>']/"
	refused 65 "to <$a>" "$W/addr.yaml" -- \
		"$W/addr.yaml:3: to[0]: '$a' is not an address"
	req addr "s/^cc:.*/cc: ['<$a>']/"
	refused 65 "cc <$a>" "$W/addr.yaml" -- \
		"$W/addr.yaml:4: cc[0]: '$a' is not an address"
done
req from2 "s/^from:.*/from: 'a@example.org, b@example.org'/"
refused 65 "a From with two mailboxes" "$W/from2.yaml" -- \
	"$W/from2.yaml:2: from: 'a@example.org, b@example.org' holds 2 addresses, not one"
req to2 "s/^to:.*/to: ['a@example.org, b@example.org']/"
refused 65 "a comma inside one to item" "$W/to2.yaml" -- \
	"$W/to2.yaml:3: to[0]: 'a@example.org, b@example.org' holds 2 addresses"
req cc2 "s/^cc:.*/cc: ['<a@example.org>, <b@example.org>']/"
refused 65 "a comma inside one cc item" "$W/cc2.yaml" -- \
	"$W/cc2.yaml:4: cc[0]: '<a@example.org>, <b@example.org>' holds 2 addresses"
req rb '' "reported_by: 'robot <r@...el.com>'"
refused 65 "a masked reported_by" "$W/rb.yaml" -- \
	"$W/rb.yaml:12: reported_by: 'r@...el.com' is not an address"
req cfgmail '/^from:/d; /^cc:/d'
printf "from: 'a@example.org, b@example.org'\n" |
	cat "$W/robot.yaml" - >"$W/from.robot.yaml"
refused 78 "a configured From with two mailboxes" "$W/cfgmail.yaml" \
	"$W/from.robot.yaml" -- "$W/from.robot.yaml:3: from: 'a@example.org, b@example.org' holds 2 addresses"
printf "cc: ['<lkp@...el.com>']\n" | cat "$W/robot.yaml" - >"$W/cc.robot.yaml"
refused 78 "a masked address in the configured cc" "$W/cfgmail.yaml" \
	"$W/cc.robot.yaml" -- "$W/cc.robot.yaml:3: cc[0]: 'lkp@...el.com' is not an address"
printf "cc: ['<a@example.org>, <b@example.org>']\n" |
	cat "$W/robot.yaml" - >"$W/cc2.robot.yaml"
refused 78 "a comma inside one configured cc item" "$W/cfgmail.yaml" \
	"$W/cc2.robot.yaml" -- "$W/cc2.robot.yaml:3: cc[0]: '<a@example.org>, <b@example.org>' holds 2 addresses"

# --- invisible text ----------------------------------------------------------
# inv NAME CODEPOINT BYTES: BYTES (printf escapes) in the tree, a display
# name, the KPI, the preface and a commit subject
inv() {
	_c=$(printf "$3")
	req "inv-tree-$1" "s/^tree:.*/tree: \"linus${_c}master\"/"
	refused 65 "$2 in the tree" "$W/inv-tree-$1.yaml" -- \
		"$W/inv-tree-$1.yaml:5: tree: must be one line of visible UTF-8 text (an invisible character ($2) at byte 6)"
	req "inv-name-$1" "s/^to:.*/to: [\"Li${_c}nus <l@example.org>\"]/"
	refused 65 "$2 in a display name" "$W/inv-name-$1.yaml" -- \
		"$W/inv-name-$1.yaml:3: to[0]: " "invisible character ($2)"
	req "inv-kpi-$1" "s/^kpi:.*/kpi: \"stress-ng${_c}.lockofd.ops_per_sec\"/"
	refused 65 "$2 in the kpi" "$W/inv-kpi-$1.yaml" -- \
		"$W/inv-kpi-$1.yaml:10: kpi: must be one line of visible UTF-8 text"
	req "inv-pre-$1" '' "$(printf 'preface: "Hi\\n%s all\\n"' "$_c")"
	refused 65 "$2 in the preface" "$W/inv-pre-$1.yaml" -- \
		"$W/inv-pre-$1.yaml:12: preface: must be visible UTF-8 text (an invisible character ($2)"
	_d=$W/inv-sub-$1
	mkdir -p "$_d" && cp -R "$W/rt0" "$W/rt1" "$_d/"
	{
		printf 'commits:\n- id: %s\n  subject: "x86: copies"\n' "$C2"
		printf -- '- id: %s\n  subject: "x86: clear%sing"\n' "$C3" "$_c"
	} >"$_d/commits.yaml"
	base_request "$C3" >"$_d/r.yaml"
	refused 65 "$2 in a commit subject" "$_d/r.yaml" -- \
		"$_d/commits.yaml:5: commits: 'subject' must be"
}
inv rlo U+202E '\342\200\256'
inv lri U+2066 '\342\201\246'
inv zwsp U+200B '\342\200\213'
inv zwj U+200D '\342\200\215'
inv bom U+FEFF '\357\273\277'
inv shy U+00AD '\302\255'
inv tag U+E0041 '\363\240\201\201'

# Visible non-ASCII text still goes through, encoded.
req utf8-tree "s/^tree:.*/tree: \"linus:m$(printf '\303\244')ster\"/"
safe "visible non-ASCII text in the tree" "$W/utf8-tree.yaml" --
if grep -qF "$(printf 'Subject: [linus:m\303\244ster]')" "$T/seen"; then
	_ok "visible non-ASCII text in the tree: the Subject shows it"
else
	_fail "visible non-ASCII text in the tree: the Subject shows it"
fi

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
