#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t4600-reply-lore: a follow-up and robot's answer in a real public-inbox
# 1.9 archive (tests/lib-pi.sh, served by public-inbox-httpd on a free
# loopback port).  The archive gets the report robot queued (the one of
# tests/reply), a patch posted on its own and a developer's mail that
# answers the report with a lore link to that patch.  Then
#
#   - robot reply --extract-patch follows the link: it fetches the patch
#     from the archive (lore_url <id>/raw) and writes it for git am;
#   - robot reply queues the answer, and once the archive has it too, it
#     is in the report's thread (t.mbox.gz), replying to the developer's
#     mail, and public-inbox's thread view nests it under that mail;
#   - with the archive down, a link cannot be followed: exit 75, and
#     nothing is written.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-git.sh"
. "$TOP/tests/lib-pi.sh"

if ! pi_init test oe-lkp@lists.linux.dev; then
	_fail "public-inbox is installed (scripts/deps.sh)"
	echo "1..$test_n"
	exit 1
fi
SRC=$TOP/tests/reply
cp -R "$TOP/tests/golden" "$T/golden"
cp -R "$SRC" "$T/reply"
"$PYTHON" "$T/golden/data/make-rts" "$T/golden/data/rt"
CFG=$T/robot.yaml
sed "s|\.\./\.\./|$T/|" "$SRC/data/robot.yaml" >"$CFG"
export SOURCE_DATE_EPOCH=1695695400

REPORT='<202309221737.5eb1e5d1-lkp@intel.com>'
PATCH='<20230925064501.9876-1-rene.levesque@example.org>'
DEV='<87link01.fsf@rene.example.org>'

ok "the report is queued" "$ROBOT" compose -c "$CFG" \
	"$T/reply/data/report.yaml"
report=$(grep -l "^Message-ID: $REPORT" "$T"/spool/new/*.eml)
ok "the archive takes the report" pi_add "$report"

# the patch, posted on its own
sed -n '/^-- >8 --$/,$p' "$SRC/0001-inline-patch/mail.eml" | sed 1d |
	sed -n '/^$/,$p' >"$T/patch.body"
{
	echo "Date: Mon, 25 Sep 2023 08:45:01 +0200"
	echo "From: =?utf-8?q?Ren=C3=A9_L=C3=A9vesque?= <rene.levesque@example.org>"
	echo "To: x86@kernel.org"
	echo "Cc: oe-lkp@lists.linux.dev, linux-kernel@vger.kernel.org"
	echo "Subject: [PATCH] x86: don't use REP_GOOD or ERMS for small memory clearing"
	echo "Message-ID: $PATCH"
	echo "MIME-Version: 1.0"
	echo "Content-Type: text/plain; charset=utf-8"
	echo "Content-Transfer-Encoding: 8bit"
	cat "$T/patch.body"
} >"$T/patch.eml"
ok "the archive takes the patch" pi_add "$T/patch.eml"

# the developer answers the report with a link to it
id=${PATCH#<}
id=${id%>}
{
	echo "Date: Mon, 25 Sep 2023 09:12:44 +0200"
	echo "From: =?utf-8?q?Ren=C3=A9_L=C3=A9vesque?= <rene.levesque@example.org>"
	echo "To: kernel test robot <lkp@intel.com>"
	echo "Cc: oe-lkp@lists.linux.dev, linux-kernel@vger.kernel.org"
	echo "Subject: Re: [linus:master] [x86]  c7566e2ba4:  stress-ng.lockofd.ops_per_sec"
	echo " -7.0% regression"
	echo "Message-ID: $DEV"
	echo "References: $REPORT"
	echo "In-Reply-To: $REPORT"
	echo "MIME-Version: 1.0"
	echo "Content-Type: text/plain; charset=utf-8"
	echo "Content-Transfer-Encoding: 8bit"
	echo
	echo "On Fri, Sep 22, 2023 at 05:37:11PM +0800, kernel test robot wrote:"
	echo "> kernel test robot noticed a -7.0% regression of stress-ng.lockofd.ops_per_sec on:"
	echo
	echo "I posted a fix for the clearing this morning, could you test it?"
	echo
	echo "  https://lore.kernel.org/r/$id"
	echo
	echo "Thanks,"
	echo "René"
} >"$T/dev.eml"
ok "the archive takes the developer's mail" pi_add "$T/dev.eml"
ok "public-inbox-httpd serves the archive" pi_start
{
	echo "lore_url: $PI_URL"
	echo "lore_cache: $T/lore-cache"
	echo "lore_rate: 0"
} >>"$CFG"

"$ROBOT" reply -c "$CFG" --extract-patch "$T/out" --to "$T/dev.eml" \
	>"$T/x.out" 2>"$T/x.err"
ok "extract-patch follows the lore link: exit 0" test $? -eq 0
ok "... saying so" grep -qF 'lore link patch "[PATCH] x86: don'"'"'t use' \
	"$T/x.out"
ok "... the patch as the archive has it" \
	grep -qx "Message-ID: $PATCH" "$T/out/patch.mbox"
ok "... the diff" grep -qx '+	rep stosb' "$T/out/patch.mbox"
ok "... the request names the patch and its link" sh -c '
	grep -qx "  message_id: \"$2\"" "$1" &&
	grep -qx "  link: \"https://lore.kernel.org/r/$3\"" "$1"' _ \
	"$T/out/test-request.yaml" "$PATCH" "$id"

# the patched kernel's results, then the answer
awk -v root="- \"$T/golden/data/rt/stress-ng@clear\"" '
	{ print }
	/^result_roots:/ { n = 2; next }
	n > 0 && /^- / { if (--n == 0) print root }' \
	"$T/out/test-request.yaml" >"$T/out/request.yaml"
expect_code 0 "robot reply queues the answer" \
	"$ROBOT" reply -c "$CFG" --to "$T/dev.eml" "$T/out/request.yaml"
answer=$(grep -l "^In-Reply-To: $DEV" "$T"/spool/new/*.eml)
ok "it is in the spool, In-Reply-To the developer's mail" test -n "$answer"
ok "the archive takes the answer" pi_add "$answer"
aid=$(sed -n 's/^Message-ID: //p' "$answer")

pi_thread "$REPORT" >"$T/t.mbox"
ok "the report's thread holds the report, the mail and the answer" \
	test "$(grep -c '^Message-ID: ' "$T/t.mbox")" -eq 3
ok "... the answer replying to the developer's mail" \
	"$PYTHON" - "$T/t.mbox" "$aid" "$DEV" <<'EOF'
import mailbox, sys
msgs = {m['Message-ID']: m for m in mailbox.mbox(sys.argv[1])}
a = msgs[sys.argv[2]]
refs = a['References'].split()
sys.exit(0 if a['In-Reply-To'] == sys.argv[3] and refs[-1] == sys.argv[3]
         and refs[0] == "<202309221737.5eb1e5d1-lkp@intel.com>" else 1)
EOF
# public-inbox's nested view: its "Thread overview" lists the thread one
# mail a line, each deeper one after a "` " indented by its depth, and
# links each line to "#m" + the SHA-1 of the Message-ID (without <>)
pi_get "$(pi_msgid_path "$REPORT")/t/" >"$T/t.html"
ok "public-inbox nests the answer under the developer's mail" \
	"$PYTHON" - "$T/t.html" "$aid" "$DEV" <<'EOF'
import hashlib, re, sys
html = open(sys.argv[1], encoding="utf-8", errors="replace").read()
view = html.split("Thread overview", 1)[1].split("</pre>", 1)[0]
rows = re.findall(r'\n\S+ +\S+ ( *)(`? ?)<a\nhref="#m([0-9a-f]{40})"', view)
depth = [(m, len(ind) // 2 + (1 if tick else 0)) for ind, tick, m in rows]
def sha(i):
    return hashlib.sha1(i.strip("<>").encode()).hexdigest()
ids = [m for m, d in depth]
a, p = ids.index(sha(sys.argv[2])), ids.index(sha(sys.argv[3]))
sys.exit(0 if a == p + 1 and depth[a][1] == depth[p][1] + 1 else 1)
EOF

# the archive down: a link cannot be followed now
pi_stop
sed "s/$DEV/<87link02.fsf@rene.example.org>/" "$T/dev.eml" >"$T/dev2.eml"
sed 's|^lore_cache: .*|lore_cache: '"$T"'/cold-cache|' "$CFG" >"$T/down.yaml"
expect_code 75 "the archive down: exit 75" \
	"$ROBOT" reply -c "$T/down.yaml" --extract-patch "$T/out2" \
	--to "$T/dev2.eml"
ok "... and nothing is written" test ! -e "$T/out2"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
