# SPDX-License-Identifier: GPL-2.0-only
#
# t5300-send-smtp: `robot send` against a real SMTP server (aiosmtpd, on a
# free loopback port): plain, STARTTLS with a certificate generated here,
# AUTH, and TLS from the start (smtps).  The server gets every queued
# message with exactly the bytes compose queued (CRLF aside), from the
# configured envelope sender (else the From address) to the To, Cc and Bcc
# addresses, with Bcc gone from the header, over one connection per run.
# A body line that starts with ".", a 990-byte line, ISO-8859-1 "±" and a
# 158 KB attachment arrive intact.  staging_to sends everything to one
# address instead.  The password is never printed or stored.  The
# certificate is checked, STARTTLS is required unless told otherwise.

# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-smtp.sh"

SMALL=$TOP/tests/data/compare/small
cd "$T" || exit 1
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" .
make_cert || echo "not ok - openssl made no certificate"

# A 158 KB attachment with a 990-byte line, and a report whose preface
# has a line that starts with "." and a "±" (the body goes ISO-8859-1).
"$PYTHON" -c '
import sys
lines = ["CONFIG_OPTION_%05d=y" % i for i in range(7400)]
lines[100] = "CONFIG_LONG=\"" + "x" * 976 + "\""
lines[200] = ".CONFIG_DOT=y"
open("config-6.3.0", "w").write("\n".join(lines) + "\n")'
LONG=$(sed -n 101p config-6.3.0)
{
	base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
	echo 'message_id: "<202306071432.0f1e2d3c-oliver.sang@intel.com>"'
	echo 'attachments: [{path: config-6.3.0}]'
	echo 'preface: |'
	echo '  .a line that starts with a dot'
	echo '  ..and one with two'
	echo '  the change is 3.4% ± 2%'
} >report.yaml
cat >hand.eml <<'EOF'
From: Oliver Sang <oliver.sang@intel.com>
To: dev@example.org
Cc: list@example.org
Bcc: secret@example.org
Subject: Re: a follow-up
Message-ID: <followup.1@intel.com>

.
..
a follow-up
EOF

# queue_both CONFIG: the report and the hand-written mail
queue_both() {
	"$ROBOT" compose -c "$1" report.yaml >/dev/null &&
		"$ROBOT" queue -c "$1" add hand.eml >/dev/null
}

# lf FILE: FILE with CRLF made LF
lf() {
	"$PYTHON" -c 'import sys
sys.stdout.buffer.write(open(sys.argv[1], "rb").read().replace(b"\r\n", b"\n"))' "$1"
}

# env_of SERVER ID KEY: KEY of the envelope of message ID as SERVER got it
env_of() {
	for _e in "$T/$1.mail"/*.env; do
		if grep -q "^Message-ID: $2" "${_e%.env}.eml"; then
			"$PYTHON" -c 'import json, sys
v = json.load(open(sys.argv[1]))[sys.argv[2]]
print(" ".join(v) if isinstance(v, list) else v)' "$_e" "$3"
		fi
	done
}

# got SERVER ID: the message ID as SERVER got it, CRLF made LF
got() {
	for _e in "$T/$1.mail"/*.eml; do
		if grep -q "^Message-ID: $2" "$_e"; then
			lf "$_e"
		fi
	done
}

RID='<202306071432.0f1e2d3c-oliver.sang@intel.com>'
HID='<followup.1@intel.com>'

# --- plain SMTP -------------------------------------------------------------------------
smtpd_start plain
smtp_config plain a.yaml 'smtp_starttls: opportunistic'
queue_both a.yaml
"$ROBOT" compose --dry-run -c a.yaml report.yaml >report.eml
"$ROBOT" send -c a.yaml >a.out 2>a.err
ok "plain: exit 0, nothing on stderr" \
	sh -c 'test "$0" -eq 0 && test ! -s "$1"' "$?" a.err
ok "plain: the server got both" test "$(received plain)" -eq 2
got plain "$RID" >r.got
ok "the report arrives with exactly the bytes compose queued (CRLF aside)" \
	cmp report.eml r.got
ok "... which are the bytes in the spool" \
	cmp report.eml "$(grep -l "^Message-ID: $RID" a.spool/sent/*.eml)"
ok "... sent in CRLF: no bare LF on the wire" \
	sh -c '! "$1" -c "import sys, re
d = open(sys.argv[1], \"rb\").read()
sys.exit(0 if re.search(rb\"(?<!\\r)\\n\", d) else 1)" "$2"' _ "$PYTHON" \
	"$(grep -l "^Message-ID: $RID" plain.mail/*.eml)"
ok "the envelope sender is the From address" \
	test "$(env_of plain "$RID" mail_from)" = oliver.sang@intel.com
ok "the recipients are To and Cc" \
	test "$(env_of plain "$RID" rcpt_tos)" = \
	"torvalds@linux-foundation.org oe-lkp@lists.linux.dev"
ok "the hand-written mail goes to To, Cc and Bcc" \
	test "$(env_of plain "$HID" rcpt_tos)" = \
	"dev@example.org list@example.org secret@example.org"
got plain "$HID" >h.got
grep -v '^Bcc:' hand.eml >h.want
ok "... with the Bcc field removed, and nothing else changed" \
	test_cmp h.want h.got
ok "one connection for the whole run" \
	test "$(cat plain.mail/*.env | grep -o '"session": [0-9]*' | sort -u | wc -l)" -eq 1
ok "one log line per message: Message-ID, recipients, the server's reply" \
	sh -c 'grep -qx "[0-9][0-9-]*T[0-9:]*Z sent $1 to torvalds@linux-foundation.org, oe-lkp@lists.linux.dev via smtp://127.0.0.1:$3: 250 2.0.0 Ok: queued as [12]" "$2" &&
		grep -qx "[0-9][0-9-]*T[0-9:]*Z sent $4 to dev@example.org, list@example.org, secret@example.org via smtp://127.0.0.1:$3: 250 2.0.0 Ok: queued as [12]" "$2" &&
		test "$(wc -l <"$2")" -eq 2' _ "$RID" a.out "$plain_port" "$HID"
"$PYTHON" - "$(grep -l "^Message-ID: $RID" plain.mail/*.eml)" config-6.3.0 <<'EOF' >intact.out 2>&1
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"),
                                   policy=email.policy.default)
assert not m.defects, m.defects
parts = list(m.iter_parts())
body = parts[0].get_content()
assert parts[0].get_content_charset() == "iso-8859-1", parts[0]["Content-Type"]
assert body.startswith(".a line that starts with a dot\n..and one with two\n"), body
assert "3.4% \u00b1 2%" in body, body
att = parts[1].get_payload(decode=True)
want = open(sys.argv[2], "rb").read()
assert att == want, (len(att), len(want))
assert len(want) > 158000, len(want)
print("ok")
EOF
ok "the dot lines, the ± (ISO-8859-1) and the 158 KB attachment arrive intact" \
	grep -qx ok intact.out
ok "... the 990-byte line too, as one line" \
	sh -c 'test ${#1} -eq 990 && grep -qxF -- "$1" "$2"' _ "$LONG" r.got
"$ROBOT" send -c a.yaml >a2.out 2>&1
ok "a second run sends nothing" test "$(received plain)" -eq 2 -a ! -s a2.out

# --- envelope_from and staging_to ----------------------------------------------------------
smtp_config plain b.yaml 'smtp_starttls: opportunistic' \
	'envelope_from: "Bounces <bounces@ci.example.org>"' \
	'staging_to: staging@ci.example.org'
queue_both b.yaml
rm -f plain.mail/*
"$ROBOT" send -c b.yaml >b.out 2>&1
ok "envelope_from is the envelope sender" \
	test "$(env_of plain "$RID" mail_from)" = bounces@ci.example.org
ok "staging_to: every message goes to that one address" \
	test "$(cat plain.mail/*.env | grep -o '"rcpt_tos": \["staging@ci.example.org"\]' | wc -l)" -eq 2
got plain "$RID" >b.got
ok "... with the message untouched" cmp report.eml b.got
ok "... and the log says so" \
	grep -q "^[0-9][0-9-]*T[0-9:]*Z sent $RID to staging@ci.example.org (staging_to, instead of torvalds@linux-foundation.org, oe-lkp@lists.linux.dev)" b.out
smtpd_stop plain

# --- STARTTLS, AUTH with a password file ------------------------------------------------
smtpd_start tls --starttls cert.pem key.pem --auth robot:s3cr3t-Pw
printf 's3cr3t-Pw\n' >pw
chmod 600 pw
smtp_config tls c.yaml 'smtp_user: robot' 'smtp_password_file: pw' \
	'smtp_ca_file: cert.pem'
queue_both c.yaml
"$ROBOT" send -v -c c.yaml >c.out 2>c.err
ok "STARTTLS + AUTH (0600 password file): exit 0" test $? -eq 0
ok "... the server got both" test "$(received tls)" -eq 2
got tls "$RID" >c.got
ok "... the bytes compose queued" cmp report.eml c.got
ok "... STARTTLS and AUTH happened (the -v dialogue)" \
	sh -c 'grep -q "^smtp: > STARTTLS" "$1" && grep -q "^smtp: > AUTH [A-Z]* \*\*\*\*" "$1" &&
		grep -q "^smtp: < 235" "$1"' _ c.err
ok "... the password is in no output, state file or log" \
	sh -c '! grep -rq "s3cr3t-Pw" "$1" "$2" c.spool &&
		! grep -q "$(printf "\0robot\0s3cr3t-Pw" | base64)" "$2"' _ c.out c.err
ok "... one connection (one STARTTLS, one AUTH)" \
	test "$(grep -c '^smtp: > STARTTLS' c.err)" -eq 1

# the password from the environment; the file is not needed
smtp_config tls d.yaml 'smtp_user: robot' 'smtp_ca_file: cert.pem'
queue_both d.yaml
ROBOT_SMTP_PASSWORD=s3cr3t-Pw "$ROBOT" send -c d.yaml >d.out 2>d.err
ok "the password from ROBOT_SMTP_PASSWORD: exit 0, both sent" \
	sh -c 'test "$0" -eq 0 && test "$(find d.spool/sent -name "*.eml" | wc -l)" -eq 2' "$?"
smtp_config tls e.yaml 'smtp_user: robot' 'smtp_ca_file: cert.pem'
queue_both e.yaml
expect_code 78 "a wrong password: exit 78" \
	env ROBOT_SMTP_PASSWORD=wrong "$ROBOT" send -c e.yaml
ok "... nothing moved" \
	test "$(find e.spool/new -name '*.eml' | wc -l)" -eq 2
ok "... and the error does not show the password" \
	sh -c '! grep -q wrong "$1"' _ "$T/.err"

# certificate verification is on: without the CA, nothing goes
smtp_config tls f.yaml 'smtp_user: robot' 'smtp_password_file: pw'
queue_both f.yaml
expect_code 78 "a certificate robot cannot verify: exit 78" \
	"$ROBOT" send -c f.yaml
ok "... the error says so" grep -qi 'certificate' "$T/.err"
ok "... nothing moved, nothing received" \
	test "$(find f.spool/new -name '*.eml' | wc -l)" -eq 2 -a \
	"$(received tls)" -eq 4
smtpd_stop tls

# STARTTLS required (the default) against a server without it
smtpd_start bare
smtp_config bare g.yaml
queue_both g.yaml
expect_code 78 "STARTTLS required (the default), the server has none: exit 78" \
	"$ROBOT" send -c g.yaml
ok "... nothing received" test "$(received bare)" -eq 0
smtp_config bare h.yaml 'smtp_starttls: opportunistic' 'smtp_user: robot' \
	'smtp_password_file: pw'
queue_both h.yaml
expect_code 78 "opportunistic STARTTLS with a password: exit 78 (never in clear)" \
	"$ROBOT" send -c h.yaml
smtpd_stop bare

# --- smtps: TLS from the start -------------------------------------------------------
smtpd_start tls2 --smtps cert.pem key.pem --auth robot:s3cr3t-Pw
printf 'spool: i.spool\nsmtp_url: smtps://127.0.0.1:%s\nsmtp_user: robot\nsmtp_password_file: pw\nsmtp_ca_file: cert.pem\n' \
	"$tls2_port" >i.yaml
queue_both i.yaml
"$ROBOT" send -c i.yaml >i.out 2>i.err
ok "smtps + AUTH: exit 0, both received" \
	sh -c 'test "$0" -eq 0 && test "$(find tls2.mail -name "*.eml" | wc -l)" -eq 2' "$?"
ok "... the log names smtps://" grep -q "via smtps://127.0.0.1:$tls2_port" i.out
smtpd_stop tls2

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
