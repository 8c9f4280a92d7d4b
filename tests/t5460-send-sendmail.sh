# SPDX-License-Identifier: GPL-2.0-only
#
# t5460-send-sendmail: the sendmail transport (sendmail_cmd) with a fake
# sendmail, a script that keeps its arguments and its stdin and exits
# with the status it is told.  robot runs the command's words (no shell)
# and "-f SENDER -- RCPT...", the message on stdin as the spool has it
# with Bcc removed; the exit status gets the policy of an SMTP reply: 0
# sent, 75 (EX_TEMPFAIL) and the local troubles deferred (exit 75,
# attempt and reply recorded), 67 (EX_NOUSER) and the other refusals
# failed/ (exit 69), 127 or 78 (EX_CONFIG: the command is wrong) stops the
# run (exit 78) with every message still queued and the attempt recorded.
# A command robot cannot run, without -oi, beside smtp_url, or with -t
# beside staging_to is a configuration error (78) that names the key.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
cat >fake-sendmail <<'EOF2'
#!/bin/sh
# the fake: arguments one a line, stdin, then the status in ./status
d=$(dirname "$0")
n=$(ls "$d"/calls 2>/dev/null | wc -l)
mkdir -p "$d/calls"
printf '%s\n' "$@" >"$d/calls/$n.args"
cat >"$d/calls/$n.stdin"
echo "fake: status $(cat "$d/status")"
exit "$(cat "$d/status")"
EOF2
chmod +x fake-sendmail
FAKE=$T/fake-sendmail

mail() {
	_n=$1
	shift
	{
		printf 'From: Robot <robot@example.org>\nTo: dev@example.org\n'
		printf 'Cc: list@example.org\nBcc: secret@example.org\n'
		printf 'Subject: %s\nMessage-ID: <%s@example.org>\n\n' "$_n" "$_n"
		printf 'body of %s\n.\nafter a lone dot\n' "$_n"
	} >"$_n.eml"
}
for m in one two three; do mail $m; done
# state SPOOL DIR ID: the state file of message ID in SPOOL/DIR (a script,
# for the sh -c of the checks)
cat >state <<'EOF2'
#!/bin/sh
f=$(grep -l "^Message-ID: <$3@example.org>" "$1/$2"/*.eml 2>/dev/null | head -1)
[ -n "$f" ] && cat "${f%.eml}.state"
EOF2
chmod +x state
PATH=$T:$PATH
cfg() {
	printf 'spool: %s.spool\nsendmail_cmd: %s -oi\n' "$1" "$FAKE" >"$1.yaml"
}

# --- exit 0: sent ----------------------------------------------------------------
echo 0 >status
cfg a
"$ROBOT" queue -c a.yaml add one.eml >/dev/null
"$ROBOT" send -c a.yaml >a.out 2>a.err
ok "exit 0 of sendmail: send exits 0, nothing on stderr" \
	sh -c 'test "$0" -eq 0 && test ! -s a.err' "$?"
printf '%s\n' -oi -f robot@example.org -- dev@example.org list@example.org \
	secret@example.org >args.want
ok "... the command's words, -f SENDER, --, every recipient (Bcc too)" \
	test_cmp args.want calls/0.args
grep -v '^Bcc: ' one.eml >stdin.want
ok "... the message on stdin as queued, Bcc removed, the lone dot kept" \
	test_cmp stdin.want calls/0.stdin
ok "... in sent/, the log line names sendmail and its answer" \
	sh -c 'test -n "$(ls a.spool/sent/*.eml)" &&
		grep -q "Z sent <one@example.org> to dev@example.org, list@example.org, secret@example.org via sendmail:.*fake-sendmail: exit 0: fake: status 0$" a.out'

# --- exit 75: deferred -------------------------------------------------------------
echo 75 >status
cfg b
"$ROBOT" queue -c b.yaml add two.eml >/dev/null
"$ROBOT" send -c b.yaml --json >b.out 2>b.err
ok "exit 75 (EX_TEMPFAIL): send exits 75" test $? -eq 75
ok "... still queued, attempt 1, the status as the reply" \
	sh -c 'state b.spool new two >s && grep -qx "attempts: 1" s &&
		grep -qx "reply: exit 75 (EX_TEMPFAIL): fake: status 75" s &&
		grep -q "^next-attempt: " s' _
ok "... the JSON event says deferred, via sendmail" \
	"$PYTHON" -c 'import json,sys; e=json.loads(open("b.out").read());
assert e["event"] == "deferred" and e["via"].startswith("sendmail:/"), e
assert e["deferred"] == ["dev@example.org 451 exit 75 (EX_TEMPFAIL): fake: status 75",
  "list@example.org 451 exit 75 (EX_TEMPFAIL): fake: status 75",
  "secret@example.org 451 exit 75 (EX_TEMPFAIL): fake: status 75"], e'

# --- exit 67: refused ---------------------------------------------------------------
echo 67 >status
cfg c
"$ROBOT" queue -c c.yaml add one.eml >/dev/null
"$ROBOT" send -c c.yaml >c.out 2>c.err
ok "exit 67 (EX_NOUSER): send exits 69" test $? -eq 69
ok "... moved to failed/ with the status" \
	sh -c 'state c.spool failed one | grep -qx "reply: exit 67 (EX_NOUSER): fake: status 67"'

# --- exit 78, a program that is gone: the run stops ------------------------------------
echo 78 >status
cfg d
"$ROBOT" queue -c d.yaml add one.eml two.eml >/dev/null
rm -rf calls
expect_code 78 "exit 78 (EX_CONFIG): send exits 78, one error line" \
	"$ROBOT" send -c d.yaml
ok "... the error names sendmail_cmd and the status" \
	names "sendmail_cmd: $FAKE: exit 78 (EX_CONFIG): fake: status 78" \
	"stay queued"
ok "... sendmail ran once: the run stopped" test "$(ls calls | wc -l)" -eq 2
ok "... both stay queued, each with its attempt and the reason" \
	sh -c 'for m in one two; do state d.spool new $m >s &&
		grep -qx "attempts: 1" s &&
		grep -q "^reply: not tried: sendmail_cmd: .* exit 78 (EX_CONFIG)" s ||
		exit 1; done'

# --- configuration errors ------------------------------------------------------------
bad() {
	_desc=$1 _cfg=$2
	shift 2
	printf '%s\n' "$_cfg" >bad.yaml
	expect_code 78 "$_desc: exit 78" "$ROBOT" send -c bad.yaml
	ok "... $_desc: the error names $*" names "$@"
}
mkdir -p e.spool
bad "a relative program" 'spool: e.spool
sendmail_cmd: sendmail -oi' "bad.yaml: sendmail_cmd: 'sendmail' is not an absolute path"
bad "a program that is not there" 'spool: e.spool
sendmail_cmd: /nonexistent/sendmail -oi' "sendmail_cmd: '/nonexistent/sendmail' is no program"
bad "no -oi" "spool: e.spool
sendmail_cmd: $FAKE -t" "sendmail_cmd: add -oi"
bad "beside smtp_url" "spool: e.spool
smtp_url: smtp://127.0.0.1:25
sendmail_cmd: $FAKE -oi" "smtp_url, sendmail_cmd: one transport"
bad "-t with staging_to" "spool: e.spool
staging_to: t@example.org
sendmail_cmd: $FAKE -oi -t" "sendmail_cmd: -t would send" "staging_to"

echo "1..$test_n"
