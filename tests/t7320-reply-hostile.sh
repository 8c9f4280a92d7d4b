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

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
