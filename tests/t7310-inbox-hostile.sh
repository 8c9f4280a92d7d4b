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

# 2. MIME nesting: refused while parsing, in linear time.  nest N SIZE:
# the follow-up with N multiparts nested, padded to about SIZE bytes
nest() {
	"$PYTHON" - "$SRC/0001-inline-patch/mail.eml" "$1" "$2" <<'PY'
import sys
src, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
head = open(src, "rb").read().split(b"\n\n", 1)[0].split(b"\n")
head = [l for l in head if not l.lower().startswith(b"content-")]
out = [b"\n".join(head), b"Content-Type: multipart/mixed; boundary=\"b0\"", b""]
for i in range(1, n):
    out += [b"--b%d" % (i - 1), b"Content-Type: multipart/mixed; boundary=\"b%d\"" % i, b""]
out += [b"--b%d" % (n - 1), b"Content-Type: text/plain", b"", b"hello"]
pad = b"x" * 76
body = b"\n".join(out) + b"\n"
body += (pad + b"\n") * max(0, (size - len(body) - 8 * n) // 77)
tail = b"".join(b"--b%d--\n" % i for i in range(n - 1, -1, -1))
sys.stdout.buffer.write(body + tail)
PY
}
nest 16 10000 >"$T/deep16.eml"
expect_code 0 "2: 16 nested multiparts are read" \
	robot reply -c "$CFG" --extract-patch "$T/x16" --to "$T/deep16.eml"
nest 200000 16000000 >"$T/deep.eml"
start=$(date +%s%N)
expect_code 65 "2: a 16 MB mail of 200000 nested multiparts: exit 65 within 5 s" \
	timeout 5 "$ROBOT" reply -c "$T/$CFG" --extract-patch "$T/x" --to "$T/deep.eml"
end=$(date +%s%N)
echo "# 16 MB nested: $(( (end - start) / 1000000 )) ms"
ok "2: ... saying why" names "nested deeper than 16"
nest 17 10000 >"$T/deep17.eml"
expect_code 65 "2: 17 nested multiparts: exit 65" \
	robot reply -c "$CFG" --extract-patch "$T/x17" --to "$T/deep17.eml"

# 7. a patch request that lost its patch is no retest: refused with one
# line, set aside (not done), and the run goes on
A=$SRC/0002-attached-patch/mail.eml
rm -rf "$M/new"/* "$T/requests" "$T/inbox.seen"
sed -e 's|^Message-ID: .*|Message-ID: <utf16@example.org>|' \
	-e 's|^Content-Type: text/x-patch; charset=utf-8|Content-Type: text/x-patch; charset=utf-16|' \
	"$A" >"$M/new/5.box"
sed 's|^Message-ID: .*|Message-ID: <cut@example.org>|' "$A" |
	awk '/^ZWxldGlvbigtKQ/ { print substr($0, 1, 10); print "--=-=-=--"; exit } { print }' \
	>"$M/new/6.box"
mail "<after@example.org>" >"$M/new/8.box"
# an archive that knows no message: every request is a 404
"$PYTHON" - "$T/lore.port" "$T/lore.log" <<'PY' &
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        open(sys.argv[2], "a").write(self.path + "\n")
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1] + ".tmp", "w").write(str(s.server_port))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
s.serve_forever()
PY
lore_pid=$!
i=0
while [ ! -s "$T/lore.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
{
	cat "$T/$CFG"
	echo "lore_url: http://127.0.0.1:$(cat "$T/lore.port")/all/"
	echo "lore_cache: ../../lore-cache"
	echo "lore_rate: 0"
} >"$T/reply/data/lore.yaml"
{
	sed -n '1,/^$/p' "$SRC/0008-no-patch/mail.eml" |
		sed 's|^Message-ID: .*|Message-ID: <link404@example.org>|'
	echo "Could you test the fix I posted?"
	echo
	echo "  https://lore.kernel.org/r/fix-404@example.org"
} >"$M/new/7.box"
robot inbox -c reply/data/lore.yaml Maildir >"$T/run7" 2>"$T/run7.err"
ok "7: three patches lost: exit 65" test $? -eq 65
ok "7: ... one error line for each patch robot cannot read" \
	test "$(grep -c '^robot: error: ' "$T/run7.err")" -eq 2 -a \
	"$(wc -l <"$T/run7.err")" -eq 2
ok "7: ... the utf-16 one names its attachment" \
	grep -qF "0001-x86-don-t-use-REP_GOOD-or-ERMS-for-small-memory-clea.patch" "$T/run7.err"
ok "7: ... the 404 names the link" grep -qF "fix-404@example.org" "$T/run7.err"
ok "7: ... the cut one is a mail robot cannot read" \
	grep -qx "Maildir/new/6.box: skipped: a mail robot cannot read (robot reply --extract-patch says why)" "$T/run7"
expect_code 65 "7: ... which --extract-patch refuses: exit 65" \
	robot reply -c "$CFG" --extract-patch xcut --to Maildir/new/6.box
ok "7: ... saying it is cut off" names "6.box" "cut off"
ok "7: ... none taken for a mail without a patch" sh -c '! grep -q "carries no patch" "$1"' _ "$T/run7"
ok "7: ... the mail after them worked on" grep -qF "<after@example.org>: " "$T/run7"
ok "7: ... only its request written" test "$(ls "$T/requests" | wc -l)" -eq 1
ok "7: ... the two set aside, not done" sh -c '
	test "$(grep -c "^aside " "$1")" -eq 2 &&
	! grep -qx "<utf16@example.org>" "$1" &&
	! grep -qx "<link404@example.org>" "$1"' _ "$T/inbox.seen"
robot inbox -c reply/data/lore.yaml Maildir >"$T/run8" 2>&1
ok "7: a second run does not stop on them: exit 0, nothing new" \
	test $? -eq 0 -a ! -s "$T/run8"
robot reply -c reply/data/lore.yaml --extract-patch x404 --to Maildir/new/7.box \
	>/dev/null 2>&1
ok "7: the 404 is not cached: asked again" test "$(grep -c 'fix-404' "$T/lore.log")" -eq 2

# 8. Message-IDs checked when the request is made: the mail's own, and a
# link's (never sent to lore_url when it is none)
for id in "<a b@e.org>" "<a@b@e.org>" "<.dot@e.org>"; do
	mail "$id" >"$T/bad-id.eml"
	expect_code 65 "8: Message-ID: $id: --extract-patch refuses it" \
		robot reply -c "$CFG" --extract-patch xbad --to bad-id.eml
	ok "8: ... naming the field" names "bad-id.eml" "Message-ID"
	ok "8: ... no request written" test ! -e "$T/xbad"
done
{
	sed -n '1,/^$/p' "$SRC/0008-no-patch/mail.eml" |
		sed 's|^Message-ID: .*|Message-ID: <traversal@example.org>|'
	echo "Could you test the fix I posted?"
	echo
	echo "  https://lore.kernel.org/r/..%2F..%2Fadmin@x.org"
} >"$T/traversal.eml"
robot reply -c reply/data/lore.yaml --extract-patch xtrav --to traversal.eml \
	>"$T/trav.out" 2>&1
ok "8: a link to ..%2F..%2Fadmin@x.org is not asked for" \
	sh -c '! grep -q "admin" "$1"' _ "$T/lore.log"
kill "$lore_pid"
wait "$lore_pid" 2>/dev/null

# 11. an mbox is not read whole on every run: the next run starts where
# the last one ended (the bytes before it garbled here, as a check)
rm -rf "$T/requests" "$T/inbox.seen"
{
	echo "From rene@example.org Mon Sep 25 09:12:44 2023"
	mail "<mbox1@example.org>"
	echo
	echo "From rene@example.org Mon Sep 25 09:12:45 2023"
	mail "<mbox2@example.org>"
	echo
} >"$T/big.mbox"
robot inbox -c "$CFG" big.mbox >"$T/mb1" 2>&1
ok "11: an mbox of two: both worked on" test "$(grep -c 'inline patch' "$T/mb1")" -eq 2
size=$(wc -c <"$T/big.mbox")
"$PYTHON" -c '
import sys
p, n = sys.argv[1], int(sys.argv[2])
with open(p, "r+b") as f:
    f.write(b"x" * (n - 1))' "$T/big.mbox" "$size"
robot inbox -c "$CFG" big.mbox >"$T/mb2" 2>&1
ok "11: a second run reads none of what the first read: exit 0, nothing" \
	test $? -eq 0 -a ! -s "$T/mb2"
{
	echo "From rene@example.org Mon Sep 25 09:12:46 2023"
	mail "<mbox3@example.org>"
	echo
} >>"$T/big.mbox"
robot inbox -c "$CFG" big.mbox >"$T/mb3" 2>&1
ok "11: a mail appended: only it is worked on" sh -c '
	test "$(wc -l <"$1")" -eq 1 && grep -qF "<mbox3@example.org>: " "$1"' _ "$T/mb3"
: >"$T/big.mbox"
{
	echo "From rene@example.org Mon Sep 25 09:12:47 2023"
	mail "<mbox4@example.org>"
	echo
} >"$T/big.mbox"
robot inbox -c "$CFG" big.mbox >"$T/mb4" 2>&1
ok "11: the mbox rewritten (shorter): read from its start again" \
	grep -qF "<mbox4@example.org>: " "$T/mb4"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
