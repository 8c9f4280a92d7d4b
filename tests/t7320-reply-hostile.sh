#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7320-reply-hostile: robot reply against follow-ups a hostile sender
# writes (issue 30): reply_allow holds for every From address and every
# address robot would answer; inputs that are no regular file are refused.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-reply.sh"

reply_setup
M=$SRC/0001-inline-patch/mail.eml
robot reply -c "$CFG" --extract-patch out/0001 --to "reply/0001-inline-patch/mail.eml" \
	>/dev/null 2>&1
add_root "$T/out/0001/test-request.yaml" "$(cat "$SRC/0001-inline-patch/patched")" \
	>"$T/out/0001/request.yaml"

# hdr FIELD VALUE: the mail with FIELD set to VALUE (added when absent)
hdr() {
	awk -v f="$1" -v v="$2" '
		!done && index($0, f ": ") == 1 { print f ": " v; skip = 1; done = 1; next }
		skip && /^[ \t]/ { next }
		{ skip = 0 }
		!done && /^$/ { print f ": " v; done = 1 }
		{ print }' "$M"
}

# 4. every From address, every Reply-To and Mail-Followup-To address
hdr From "dev@example.org, evil@evil.org" >"$T/two-from.eml"
robot reply -c "$CFG" --dry-run --to two-from.eml out/0001/request.yaml \
	>"$T/two-from.out" 2>"$T/two-from.err"
ok "4: From: dev@example.org, evil@evil.org: not answered" \
	grep -qF "evil@evil.org is not in reply_allow" "$T/two-from.err"
ok "4: ... nothing composed" test ! -s "$T/two-from.out"
for f in Reply-To Mail-Followup-To; do
	hdr "$f" "dev@example.org, <evil@evil.org>" >"$T/$f.eml"
	robot reply -c "$CFG" --dry-run --to "$f.eml" out/0001/request.yaml \
		>"$T/$f.out" 2>"$T/$f.err"
	ok "4: $f: evil@evil.org: not answered" \
		grep -qF "$f address evil@evil.org is not in reply_allow" "$T/$f.err"
	ok "4: ... nothing composed" test ! -s "$T/$f.out"
done
hdr Cc "Linus Torvalds <torvalds@linux-foundation.org>, victim@evil.org, lkp@intel.com" \
	>"$T/cc.eml"
robot reply -c "$CFG" --dry-run --to cc.eml out/0001/request.yaml \
	>"$T/cc.out" 2>"$T/cc.err"
ok "4: a Cc outside reply_allow: answered" grep -q "^Cc: " "$T/cc.out"
ok "4: ... without copying it" sh -c '! grep -qF "victim@evil.org" "$1"' _ "$T/cc.out"
ok "4: ... the allowed ones copied" grep -qF "torvalds@linux-foundation.org" "$T/cc.out"

# 10. automatic mails: From a mailer daemon, X-Loop naming robot,
# X-Autoreply
auto() {
	robot reply -c "$CFG" --extract-patch "out/auto$1" --to "auto$1.eml" \
		>"$T/auto$1.out" 2>"$T/auto$1.err"
	ok "10: $2: not answered" sh -c 'test "$1" -eq 0 &&
		grep -qF "not answered" "$2" && grep -qF "$3" "$2"' _ $? \
		"$T/auto$1.err" "$3"
	ok "10: ... no request" test ! -e "$T/out/auto$1"
}
hdr From "Mail Delivery System <MAILER-DAEMON@mx.example.org>" >"$T/auto1.eml"
auto 1 "From: MAILER-DAEMON@..." "mailer daemon"
hdr X-Loop "lkp@intel.com" >"$T/auto2.eml"
auto 2 "X-Loop: lkp@intel.com (robot's own)" "X-Loop"
hdr X-Autoreply "yes" >"$T/auto3.eml"
auto 3 "X-Autoreply: yes" "X-Autoreply"
hdr X-Loop "other-list@example.org" >"$T/auto4.eml"
robot reply -c "$CFG" --extract-patch out/auto4 --to auto4.eml >/dev/null 2>&1
ok "10: an X-Loop of someone else's is answered" test -f "$T/out/auto4/patch.mbox"

# 5. FIFOs (and other files that are no regular file) are refused at
# once, naming the file, exit 65: none of them may hang robot
SMALL=$TOP/tests/data/compare/small
mkdir -p "$T/f"
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$T/f/"
mkfifo "$T/fifo"
rm "$T/f/rt1/matrix.json"
mkfifo "$T/f/rt1/matrix.json"
expect_code 65 "5: compare, matrix.json a FIFO: exit 65 at once" \
	timeout 10 "$ROBOT" compare "$T/f/rt0" "$T/f/rt1"
ok "5: ... naming it" names "$T/f/rt1/matrix.json" "not a regular file"
cp "$SMALL/rt1/matrix.json" "$T/f/rt1/m.json"
rm "$T/f/rt1/matrix.json"
mv "$T/f/rt1/m.json" "$T/f/rt1/matrix.json"
expect_code 65 "5: compare --commits a FIFO: exit 65 at once" \
	timeout 10 "$ROBOT" compare --commits "$T/fifo" "$T/f/rt0" "$T/f/rt1"
ok "5: ... naming it" names "$T/fifo" "not a regular file"
expect_code 65 "5: reply --to a FIFO: exit 65 at once" \
	timeout 10 "$ROBOT" reply -c "$T/$CFG" --dry-run --to "$T/fifo" \
	"$T/out/0001/request.yaml"
ok "5: ... naming it" names "$T/fifo" "not a regular file"
expect_code 65 "5: reply, the request a FIFO: exit 65 at once" \
	timeout 10 "$ROBOT" reply -c "$T/$CFG" --dry-run --to "$T/reply/0001-inline-patch/mail.eml" \
	"$T/fifo"
ok "5: ... naming it" names "$T/fifo" "not a regular file"
sed 's|^commits:.*|commits: ../../fifo|' "$T/reply/data/report.yaml" >"$T/reply/data/fifo.yaml"
expect_code 65 "5: compose, commits: a FIFO: exit 65 at once" \
	timeout 10 "$ROBOT" compose -c "$T/$CFG" --dry-run "$T/reply/data/fifo.yaml"
ok "5: ... naming it" names "fifo" "not a regular file"

# 12. --extract-patch refuses a patch that writes outside the tree, into
# .git, or makes a symbolic link, naming the file
k=0
for c in "../../etc/cron.d/x" "/etc/passwd" ".git/config" "sub/.git/hooks/post-checkout"; do
	k=$((k + 1))
	sed -e "s|^diff --git a/arch/x86/lib/clear_page_64.S b/arch/x86/lib/clear_page_64.S|diff --git a/$c b/$c|" \
		-e "s|^--- a/arch/x86/lib/clear_page_64.S|--- a/$c|" \
		-e "s|^+++ b/arch/x86/lib/clear_page_64.S|+++ b/$c|" "$M" >"$T/path$k.eml"
	expect_code 65 "12: a patch touching $c: refused" \
		robot reply -c "$CFG" --extract-patch "out/path$k" --to "path$k.eml"
	ok "12: ... naming it" names "$c"
	ok "12: ... nothing written" test ! -e "$T/out/path$k"
done
sed 's|^index 1234567..89abcde 100644|new file mode 120000\nindex 0000000..89abcde|' "$M" >"$T/link.eml"
expect_code 65 "12: a patch making a symbolic link: refused" \
	robot reply -c "$CFG" --extract-patch out/link --to link.eml
ok "12: ... naming the file" names "arch/x86/lib/clear_page_64.S" "symbolic link"

# 12. a symlinked matrix.json: no byte of what it points to is quoted
mkdir -p "$T/s"
cp -R "$SMALL/rt0" "$SMALL/rt1" "$T/s/"
printf 'secret-token-1234 not json\n' >"$T/secret"
rm "$T/s/rt1/matrix.json"
ln -s "$T/secret" "$T/s/rt1/matrix.json"
expect_code 65 "12: compare, matrix.json a symbolic link: exit 65" \
	"$ROBOT" compare "$T/s/rt0" "$T/s/rt1"
ok "12: ... naming it, quoting nothing of its target" sh -c '
	grep -qF "$2" "$1" && ! grep -q "secret-token" "$1"' _ "$T/.err" "$T/s/rt1/matrix.json"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
