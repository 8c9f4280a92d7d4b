# SPDX-License-Identifier: GPL-2.0-only
#
# t5200-send-mbox: `robot send` without an SMTP URL delivers to the local
# mailbox, an mbox that Python's mailbox module (and mutt) reads: each
# message once, as queued, with its Bcc removed and "From " lines quoted
# (mboxrd).  A run killed halfway through an append leaves no half message
# (the next run cuts it off and delivers again), a run killed after the
# append but before the spool knows sends no second copy, a missing
# mailbox folder is 78 with nothing moved, and the pause file stops
# everything.

# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
cd "$T" || exit 1
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" .
{
	base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
	echo 'message_id: "<202306071432.0f1e2d3c-oliver.sang@intel.com>"'
} >report.yaml
cat >hand.eml <<'EOF'
From: Oliver Sang <oliver.sang@intel.com>
To: dev@example.org
Bcc: secret@example.org
Subject: Re: [linus:master] a follow-up
Message-ID: <followup.1@intel.com>

From this line on, mbox readers would see a new message
>From this one too, unless both are quoted
EOF

# cfg NAME [LINE...]: NAME.yaml with spool NAME.spool, mailbox NAME.mbox
cfg() {
	_n=$1
	shift
	printf 'spool: %s.spool\nmbox: %s.mbox\n' "$_n" "$_n" >"$_n.yaml"
	for _l in "$@"; do
		printf '%s\n' "$_l" >>"$_n.yaml"
	done
}

count() {
	find "$1" -name '*.eml' 2>/dev/null | wc -l
}

# mbox_ids MBOX: the Message-IDs in the mailbox, one a line
mbox_ids() {
	"$PYTHON" -c '
import mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    print(m["Message-ID"])' "$1"
}

# --- a report and a hand-written mail into the mailbox ----------------------------------
cfg a
"$ROBOT" compose -c a.yaml report.yaml >/dev/null
"$ROBOT" compose --dry-run -c a.yaml report.yaml >report.eml
"$ROBOT" queue -c a.yaml add hand.eml >/dev/null
SOURCE_DATE_EPOCH=1686119537 "$ROBOT" send -c a.yaml >send.out 2>send.err
ok "send: exit 0" test $? -eq 0
ok "send: nothing on stderr" test ! -s send.err
ok "send: one line per message, with its Message-ID and recipients" \
	sh -c 'grep -qx "[0-9][0-9-]*T[0-9:]*Z sent <202306071432.0f1e2d3c-oliver.sang@intel.com> to mbox:.*a.mbox (for torvalds@linux-foundation.org, oe-lkp@lists.linux.dev)" "$1" &&
		grep -qx "[0-9][0-9-]*T[0-9:]*Z sent <followup.1@intel.com> to mbox:.*a.mbox (for dev@example.org, secret@example.org)" "$1" &&
		test "$(wc -l <"$1")" -eq 2' _ send.out
ok "both are in sent/, none in new/" \
	test "$(count a.spool/sent)" -eq 2 -a "$(count a.spool/new)" -eq 0
ok "the state file says where it went and when" \
	sh -c 'grep -q "^via: mbox:" "$1" && grep -q "^done: 20" "$1" &&
		grep -qx "attempts: 1" "$1"' _ "$(ls a.spool/sent/*.state | head -1)"
ok "the mailbox is private (0600)" test "$(stat -c %a a.mbox)" = 600
mbox_ids a.mbox | sort >ids.out
printf '<202306071432.0f1e2d3c-oliver.sang@intel.com>\n<followup.1@intel.com>\n' |
	sort >ids.want
ok "Python's mailbox reads both messages" test_cmp ids.want ids.out
{
	echo 'From oliver.sang@intel.com Wed Jun  7 06:32:17 2023'
	cat report.eml
	echo
} >entry.want
ok "the report's entry: the From line, the --dry-run bytes, a blank line" \
	sh -c 'head -c "$(wc -c <"$1")" "$2" | cmp - "$1"' _ entry.want a.mbox
"$PYTHON" -c '
import mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    if m["Message-ID"] == "<followup.1@intel.com>":
        assert m["Bcc"] is None, "Bcc delivered"
        body = m.get_payload()
        # mboxrd: one more ">" before ">*From "; a reader takes it off
        assert body.startswith(">From this line on"), body
        assert "\n>>From this one too" in body, body
        import re
        orig = re.sub(r"(?m)^>(>*From )", r"\1", body)
        assert orig == open(sys.argv[2]).read().split("\n\n", 1)[1], orig
        print("ok")' a.mbox hand.eml >hand.out 2>&1
ok "the hand-written mail: Bcc removed, From lines quoted (mboxrd) and back" \
	grep -qx ok hand.out
SOURCE_DATE_EPOCH=1686119537 "$ROBOT" send -c a.yaml >send2.out 2>&1
ok "a second run: exit 0, nothing sent" \
	sh -c 'test "$0" -eq 0 && test ! -s "$1"' "$?" send2.out
cp a.mbox a.mbox.before
"$ROBOT" compose -c a.yaml report.yaml >again.out
ok "compose again: already sent" grep -qx 'already sent: <202306071432.0f1e2d3c-oliver.sang@intel.com>' again.out
"$ROBOT" send -c a.yaml >/dev/null 2>&1
ok "... and the mailbox is unchanged" cmp a.mbox.before a.mbox

# --- no mbox key: SPOOL/mbox --------------------------------------------------------
printf 'spool: b.spool\n' >b.yaml
"$ROBOT" queue -c b.yaml add hand.eml >/dev/null
"$ROBOT" send -c b.yaml >b.out 2>&1
ok "without an mbox key the mailbox is SPOOL/mbox" \
	sh -c 'test "$(grep -c "^From " "$1")" -eq 1 && grep -q "mbox:.*b.spool/mbox" "$2"' \
	_ b.spool/mbox b.out

# --- a mailbox whose folder is missing: 78, nothing moved ---------------------------------
printf 'spool: c.spool\nmbox: no/such/dir/mbox\n' >c.yaml
"$ROBOT" queue -c c.yaml add hand.eml >/dev/null
expect_code 78 "an mbox in a folder that does not exist: exit 78" \
	"$ROBOT" send -c c.yaml
ok "... the error names the configuration and the key" \
	grep -q "c.yaml: mbox: " "$T/.err"
ok "... the message stays queued" test "$(count c.spool/new)" -eq 1

# --- killed halfway through an append ------------------------------------------------
cfg d
"$ROBOT" compose -c d.yaml report.yaml >/dev/null
"$ROBOT" queue -c d.yaml add hand.eml >/dev/null
ROBOT_TEST_CRASH=mbox:2 "$ROBOT_CRASH" send -c d.yaml >d1.out 2>&1
ok "killed (test crash point) in the middle of the second append" \
	test $? -eq 137
ok "... the mailbox holds one message and half of another" \
	sh -c 'test "$(grep -c "^From " "$1")" -eq 2' _ d.mbox
ok "... the journal says where the half starts" test -s d.spool/mbox.journal
"$ROBOT" send -c d.yaml >d2.out 2>&1
ok "the next run: exit 0" test $? -eq 0
ok "... it says it removed the half" grep -q '^[0-9][0-9-]*T[0-9:]*Z removed the half of ' d2.out
mbox_ids d.mbox | sort >d.ids
ok "... each message once, whole" test_cmp ids.want d.ids
ok "... both sent, the journal gone" \
	test "$(count d.spool/sent)" -eq 2 -a ! -e d.spool/mbox.journal

# --- killed after the append, before the spool knows ---------------------------------
cfg e
"$ROBOT" compose -c e.yaml report.yaml >/dev/null
"$ROBOT" queue -c e.yaml add hand.eml >/dev/null
ROBOT_TEST_CRASH=after-250:1 "$ROBOT_CRASH" send -c e.yaml >e1.out 2>&1
ok "killed (test crash point) after the first append" test $? -eq 137
ok "... one message in the mailbox, both still queued" \
	sh -c 'test "$(grep -c "^From " "$1")" -eq 1 &&
		test "$(find "$2/new" -name "*.eml" | wc -l)" -eq 2' _ e.mbox e.spool
"$ROBOT" send -c e.yaml >e2.out 2>&1
ok "the next run: exit 0, the first found whole, not sent again" \
	grep -q 'found whole after a crash' e2.out
mbox_ids e.mbox | sort >e.ids
ok "... each message exactly once" test_cmp ids.want e.ids
ok "... both in sent/" test "$(count e.spool/sent)" -eq 2

# --- the pause file ------------------------------------------------------------------
cfg f
"$ROBOT" queue -c f.yaml add hand.eml >/dev/null
"$ROBOT" queue -c f.yaml pause mail server moves >/dev/null
"$ROBOT" send -c f.yaml >f1.out 2>f1.err
ok "paused: exit 0, quietly (one line on stdout)" \
	sh -c 'test "$0" -eq 0 && grep -q "^[0-9][0-9-]*T[0-9:]*Z paused: mail server moves" "$1" &&
		test ! -s "$2"' "$?" f1.out f1.err
ok "paused: nothing delivered, the message stays queued" \
	test ! -e f.mbox -a "$(count f.spool/new)" -eq 1
"$ROBOT" queue -c f.yaml resume >/dev/null
"$ROBOT" send -c f.yaml >/dev/null 2>&1
ok "resumed: delivered" test "$(count f.spool/sent)" -eq 1

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
