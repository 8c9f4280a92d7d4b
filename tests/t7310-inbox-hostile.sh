#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7310-inbox-hostile: robot inbox against mails a hostile sender writes
# (issue 30).  No mail stops the run: one robot cannot work on is set
# aside with one error line and the others are still worked on; each
# Message-ID gets its own request folder, whatever its length and its
# characters.
. "$(dirname "$0")/lib.sh"

SRC=$TOP/tests/reply
cp -R "$TOP/tests/golden" "$T/golden"
cp -R "$SRC" "$T/reply"
"$PYTHON" "$T/golden/data/make-rts" "$T/golden/data/rt"
CFG=reply/data/robot.yaml

robot() {
	(cd "$T" && "$ROBOT" "$@")
}

# mail ID [SUBJECT-SUFFIX]: the inline-patch follow-up with Message-ID ID
mail() {
	sed -e "s|^Message-ID: .*|Message-ID: $1|" \
		-e "s|^Subject: \[PATCH\] x86: \(.*\)|Subject: [PATCH] x86: \1${2:-}|" \
		"$SRC/0001-inline-patch/mail.eml"
}

ok "the report is queued" robot compose -c "$CFG" reply/data/report.yaml

# 1. a legal Message-ID longer than a file name may be
long=$(printf 'a%.0s' $(seq 1 400))
M=$T/Maildir
mkdir -p "$M/new" "$M/cur" "$M/tmp"
mail "<$long@example.org>" >"$M/new/1.box"
mail "<second@example.org>" >"$M/new/2.box"
robot inbox -c "$CFG" Maildir >"$T/run1" 2>"$T/run1.err"
ok "1: a 400-character Message-ID: exit 0" test $? -eq 0
ok "1: ... nothing on stderr" test ! -s "$T/run1.err"
ok "1: ... both mails worked on" test "$(grep -c 'inline patch' "$T/run1")" -eq 2
ok "1: ... two requests" test "$(ls "$T/requests" | wc -l)" -eq 2
ok "1: ... the long one's folder name fits (<= 255 bytes)" sh -c '
	for d in "$1"/requests/*; do
		test "$(basename "$d" | wc -c)" -le 256 || exit 1
		test -s "$d/patch.mbox" || exit 1
	done' _ "$T"
ok "1: ... the request names the long Message-ID" \
	grep -rqF "in_reply_to: \"<$long@example.org>\"" "$T/requests"
robot inbox -c "$CFG" Maildir >"$T/run2" 2>&1
ok "1: a second run: exit 0, nothing new" test $? -eq 0 -a ! -s "$T/run2"

# 3. two Message-IDs the old folder names made one
rm -rf "$M/new"/* "$T/requests"
mail "<col/x@e.org>" " (one)" >"$M/new/3.box"
mail "<col_x@e.org>" " (two)" >"$M/new/4.box"
robot inbox -c "$CFG" Maildir >"$T/run3" 2>"$T/run3.err"
ok "3: <col/x@e.org> and <col_x@e.org>: exit 0" test $? -eq 0
ok "3: ... two request folders" test "$(ls "$T/requests" | wc -l)" -eq 2
ok "3: ... each with its own patch" sh -c '
	grep -lF "clearing (one)" "$1"/requests/*/patch.mbox >"$1/one" &&
	grep -lF "clearing (two)" "$1"/requests/*/patch.mbox >"$1/two" &&
	test "$(cat "$1/one")" != "$(cat "$1/two")"' _ "$T"
ok "3: ... the plain id keeps its plain folder name" \
	test -f "$T/requests/col_x@e.org/patch.mbox"
ok "3: ... the folder of each is on its line" sh -c '
	while read -r id dir rest; do
		dir=${dir%:}
		test -f "$1/$dir/test-request.yaml" || exit 1
		grep -qF "in_reply_to: \"${id%:}\"" "$1/$dir/test-request.yaml" ||
			exit 1
	done <"$1/run3"' _ "$T"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
