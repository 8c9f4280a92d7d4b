# SPDX-License-Identifier: GPL-2.0-only
#
# t4700-postfix: robot's mails through a real MTA, end to end.  The test
# starts Debian's postfix as a private instance (its own config_directory,
# queue_directory and data_directory under the scratch directory; smtpd
# on a free port of 127.0.0.1 only; STARTTLS with a certificate of a CA
# the test makes with openssl; SMTP AUTH by Cyrus SASL from a sasldb the
# test makes; virtual(8) delivery into one mbox file per test recipient),
# run with `postfix -c DIR start-fg` (its log on stdout: daemon mode
# logs to syslog, which a test machine may lack), stopped with `postfix
# -c DIR stop`, then by the master's PID.  The
# system's postfix is neither used nor needed.
#
# robot send delivers the spool with smtp_url, smtp_user,
# smtp_password_file, smtp_starttls: required and the test's CA
# (smtp_ca_file); without the CA the certificate cannot be verified (78,
# nothing sent, each message's attempt recorded).  Then a message goes
# through postfix's own sendmail (sendmail_cmd: /usr/sbin/sendmail -C DIR
# -oi).  The delivered mails are read back with Python's email parser
# (headers, the decoded display names, the charset and text of the body
# and of every attachment, the attachments' bytes, In-Reply-To and
# References, no Bcc) and with mutt in batch mode (`mutt -n -F muttrc -R
# -f MBOX` in script(1)'s pseudo-terminal, piping every message decoded
# to a file, in the C.UTF-8 locale), which must show the decoded text:
# "café", "René Lévesque".
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-smtp.sh"

for tool in /usr/sbin/postfix /usr/sbin/postconf /usr/sbin/saslpasswd2 \
	/usr/bin/mutt /usr/bin/script /usr/bin/openssl; do
	if [ ! -x "$tool" ]; then
		_ok "postfix end to end # SKIP $tool is missing (scripts/deps.sh)"
		echo "1..$test_n"
		exit 0
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	_ok "postfix end to end # SKIP a private postfix instance needs root"
	echo "1..$test_n"
	exit 0
fi

cd "$T" || exit 1
chmod 711 "$T" # virtual(8) delivers as nobody under $T/pf/mail
PF=$T/pf
PORT=$(free_port)
mkdir -p "$PF/etc/sasl" "$PF/queue" "$PF/data" "$PF/mail" "$PF/tls" || exit 1

# --- the CA and the server's certificate ----------------------------------------
(
	cd "$PF/tls" &&
		openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key \
			-out ca.pem -days 2 -subj "/CN=robot test CA" \
			-addext basicConstraints=critical,CA:TRUE \
			-addext keyUsage=critical,keyCertSign,cRLSign &&
		openssl req -newkey rsa:2048 -nodes -keyout server.key \
			-out server.csr -subj /CN=127.0.0.1 &&
		printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >ext &&
		openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key \
			-CAcreateserial -out server.pem -days 2 -extfile ext
) >"$T/openssl.log" 2>&1
ok "openssl makes a CA and a server certificate it signed" \
	openssl verify -CAfile "$PF/tls/ca.pem" "$PF/tls/server.pem"

# --- the instance ---------------------------------------------------------------
cat >"$PF/etc/main.cf" <<MAINCF
compatibility_level = 3.6
queue_directory = $PF/queue
data_directory = $PF/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.example.org
mydomain = example.org
myorigin = example.org
mydestination =
relayhost =
alias_maps =
alias_database =
# start-fg's standard output, the test's $PF/maillog
maillog_file = /dev/stdout
virtual_mailbox_domains = example.org, lists.example.org
virtual_mailbox_base = $PF/mail
virtual_mailbox_maps = texthash:$PF/etc/vmailbox
virtual_uid_maps = static:65534
virtual_gid_maps = static:65534
smtpd_tls_cert_file = $PF/tls/server.pem
smtpd_tls_key_file = $PF/tls/server.key
smtpd_tls_security_level = may
smtpd_tls_auth_only = yes
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = cyrus
smtpd_sasl_path = smtpd
smtpd_relay_restrictions = permit_sasl_authenticated, reject
smtpd_recipient_restrictions = permit_sasl_authenticated, reject
MAINCF
# the services of a mail system, none chrooted; smtpd on our port only
{
	printf '127.0.0.1:%s inet n - n - - smtpd\n' "$PORT"
	for s in 'pickup unix n - n 1 1 pickup' 'cleanup unix n - n - 0 cleanup' \
		'qmgr unix n - n 300 1 qmgr' 'tlsmgr unix - - n 1000? 1 tlsmgr' \
		'rewrite unix - - n - - trivial-rewrite' \
		'bounce unix - - n - 0 bounce' 'defer unix - - n - 0 bounce' \
		'trace unix - - n - 0 bounce' 'verify unix - - n - 1 verify' \
		'flush unix n - n 1000? 0 flush' 'proxymap unix - - n - - proxymap' \
		'smtp unix - - n - - smtp' 'relay unix - - n - - smtp' \
		'showq unix n - n - - showq' 'error unix - - n - - error' \
		'retry unix - - n - - error' 'discard unix - - n - - discard' \
		'virtual unix - n n - - virtual' 'anvil unix - - n - 1 anvil' \
		'scache unix - - n - 1 scache' \
		'postlog unix-dgram n - n - 1 postlogd'; do
		printf '%s\n' "$s"
	done
} >"$PF/etc/master.cf"
printf '%s\n' 'dev@example.org dev' 'list@lists.example.org list' \
	'secret@example.org secret' >"$PF/etc/vmailbox"
# Debian's smtpd reads CONFIG_DIRECTORY/sasl/smtpd.conf
printf 'pwcheck_method: auxprop\nauxprop_plugin: sasldb\nmech_list: PLAIN LOGIN\nsasldb_path: %s/etc/sasl/sasldb2\n' \
	"$PF" >"$PF/etc/sasl/smtpd.conf"
echo 'c0rrect-h0rse' | saslpasswd2 -p -c -f "$PF/etc/sasl/sasldb2" \
	-u example.org robot
chown postfix "$PF/etc/sasl/sasldb2" "$PF/data"
chown nobody:nogroup "$PF/mail"

pf_stop() {
	/usr/sbin/postfix -c "$PF/etc" stop >/dev/null 2>&1
	_m=$(tr -d ' ' <"$PF/queue/pid/master.pid" 2>/dev/null)
	_i=0
	while [ -n "$_m" ] && kill -0 "$_m" 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -n "$_m" ] && kill "$_m" 2>/dev/null
	return 0
}
trap 'pf_stop; cleanup' EXIT
/usr/sbin/postfix -c "$PF/etc" start-fg >"$PF/maillog" 2>&1 &
wait_port() {
	_i=0
	while [ $_i -lt 100 ]; do
		"$PYTHON" -c 'import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
			"$1" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
ok "the private postfix listens on 127.0.0.1:$PORT" wait_port "$PORT"
if [ $test_failed -ne 0 ]; then
	sed 's/^/# /' "$PF/maillog"
	echo "1..$test_n"
	exit 1
fi
ok "... its master runs, by the PID of its own queue directory" \
	sh -c 'kill -0 "$(tr -d " " <"$1/queue/pid/master.pid")"' _ "$PF"

# --- two reports, the second threaded under the first --------------------------------
SMALL=$TOP/tests/data/compare/small
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$T/"
printf 'un café, s'"'"'il vous plaît\n' >notes.txt
printf 'CONFIG_64BIT=y\n' >config-6.3.0-rc7
printf '\000\001\002\377binary\n' >blob.bin
printf 'naïve\n' >résumé.txt
req() {
	base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0 |
		sed -e 's/^to: .*/to: ["René Lévesque <dev@example.org>"]/' \
			-e 's/^cc: .*/cc: ["Liste Öffentlich <list@lists.example.org>"]/' \
			-e 's/^from: .*/from: "Robot Ærøskøbing <robot@example.org>"/'
	printf '%s\n' "$@"
}
req 'message_id: "<first.1@example.org>"' \
	'note: "Mesuré deux fois : ± 1%."' \
	'attachments:' '  - path: config-6.3.0-rc7' '  - path: notes.txt' \
	'  - path: blob.bin' '  - path: résumé.txt' >first.yaml
req 'message_id: "<second.1@example.org>"' \
	'reply: true' 'in_reply_to: "<first.1@example.org>"' \
	'references: ["<patch.1@example.org>"]' \
	'note: "Corrigé : café."' >second.yaml
printf 'c0rrect-h0rse\n' >pw && chmod 600 pw
{
	printf 'spool: spool\narchive_dir: archive\n'
	printf 'message_id_user: robot\nmessage_id_domain: example.org\n'
	printf 'smtp_url: smtp://127.0.0.1:%s/robot.example.org\n' "$PORT"
	printf 'smtp_user: robot@example.org\nsmtp_password_file: pw\n'
	printf 'smtp_starttls: required\n'
} >a.yaml
{
	cat a.yaml
	printf 'smtp_ca_file: pf/tls/ca.pem\n'
} >b.yaml
"$ROBOT" compose -c a.yaml first.yaml >first.out 2>&1 &&
	"$ROBOT" compose --force -c a.yaml second.yaml >second.out 2>&1
ok "two reports queued, the second a correction threaded under the first" \
	grep -qx '<second.1@example.org>' second.out
sed 's/^/# /' first.out second.out | grep -v '^# <'
"$ROBOT" compose --dry-run -c a.yaml first.yaml >first.eml

# --- without the CA: no delivery ------------------------------------------------------
"$ROBOT" send -c a.yaml >nocas.out 2>nocas.err
ok "without the test's CA the certificate cannot be verified: exit 78" \
	test $? -eq 78
"$ROBOT" queue -c a.yaml --json >nocas.json
ok "... both still queued, each with its attempt and the reason" \
	"$PYTHON" -c 'import json, sys
ms = json.load(open(sys.argv[1]))["messages"]
assert len(ms) == 2, ms
for m in ms:
    assert m["attempts"] == 1 and m["reply"].startswith("not tried: "), m' \
	nocas.json

# --- STARTTLS, AUTH, the CA trusted -------------------------------------------------
"$ROBOT" send -c b.yaml --json >send.out 2>send.err
ok "robot send through postfix (STARTTLS required, AUTH, smtp_ca_file): exit 0" \
	sh -c 'test "$0" -eq 0 && test ! -s send.err' "$?"
sed 's/^/# /' send.err
ok "... postfix accepted both for every recipient" \
	"$PYTHON" -c 'import json, sys
evs = [json.loads(l) for l in open(sys.argv[1])]
assert [e["event"] for e in evs] == ["sent", "sent"], evs
for e in evs:
    assert sorted(e["sent_to"]) == ["dev@example.org", "list@lists.example.org"], e
    assert e["reply"].startswith("250 2.0.0 Ok: queued as "), e' send.out

# wait_mail BOX N: until the mailbox BOX holds N messages (30 s at most)
wait_mail() {
	_i=0
	while [ $_i -lt 150 ]; do
		[ "$(grep -c '^From ' "$PF/mail/$1" 2>/dev/null)" -ge "$2" ] &&
			return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}
ok "postfix delivered both into dev's mailbox" wait_mail dev 2
ok "... and into the list's" wait_mail list 2
ok "... received with TLS and AUTH (ESMTPSA)" \
	test "$(grep -c 'with ESMTPSA id' "$PF/mail/dev")" -eq 2

# --- read back with Python's email parser ---------------------------------------------
"$PYTHON" - "$PF/mail/dev" "$T" >py.out 2>&1 <<'PY'
import email.policy, mailbox, sys
box = mailbox.mbox(sys.argv[1], create=False)
t = sys.argv[2]
def check(what, got, want):
    print('%s %s: %r%s' % ('ok' if got == want else 'BAD', what, got,
                            '' if got == want else ' (want %r)' % want))
msgs = {}
for key in box.keys():
    m = email.message_from_bytes(box.get_bytes(key),
                                 policy=email.policy.default)
    msgs[m['Message-ID']] = m
check('messages', sorted(msgs), ['<first.1@example.org>',
                                 '<second.1@example.org>'])
a, b = msgs['<first.1@example.org>'], msgs['<second.1@example.org>']
for m in (a, b):
    check('From', m['From'].addresses[0].display_name, 'Robot Ærøskøbing')
    check('To', m['To'].addresses[0].display_name, 'René Lévesque')
    check('Cc', m['Cc'].addresses[0].display_name, 'Liste Öffentlich')
    check('no Bcc', m['Bcc'], None)
    check('no defects', [d for p in m.walk() for d in p.defects], [])
check('In-Reply-To', b['In-Reply-To'], '<first.1@example.org>')
check('References', b['References'].split(),
      ['<patch.1@example.org>', '<first.1@example.org>'])
check('first has no In-Reply-To', a['In-Reply-To'], None)
body = b.get_body()
check('reply body charset', body.get_content_charset(), 'iso-8859-1')
check('reply body text', 'Corrigé : café.' in body.get_content(), True)
parts = list(a.iter_parts())
check('first body charset', parts[0].get_content_charset(), 'iso-8859-1')
check('first body text', 'Mesuré deux fois : ± 1%.' in parts[0].get_content(),
      True)
want = [('config-6.3.0-rc7', 'text/plain', 'us-ascii'),
        ('notes.txt', 'text/plain', 'utf-8'),
        ('blob.bin', 'application/octet-stream', None),
        ('résumé.txt', 'text/plain', 'utf-8')]
check('attachments', [p.get_filename() for p in parts[1:]],
      [w[0] for w in want])
for p, (name, ctype, cs) in zip(parts[1:], want):
    raw = open(t + '/' + name, 'rb').read()
    check(name + ': type', p.get_content_type(), ctype)
    check(name + ': charset', p.get_content_charset(), cs)
    check(name + ': bytes', p.get_payload(decode=True), raw)
    if cs:
        check(name + ': text', p.get_content(), raw.decode('utf-8'))
PY
ok "Python's email parser: headers, threading, charsets, text and bytes" \
	sh -c '! grep -v "^ok " "$1"' _ py.out

"$PYTHON" - "$PF/mail/dev" first.eml >same.out 2>&1 <<'PY'
import mailbox, sys
box = mailbox.mbox(sys.argv[1], create=False)
want = open(sys.argv[2], 'rb').read()
body = want.split(b'\n\n', 1)[1]
for key in box.keys():
    got = box.get_bytes(key)
    if b'Message-ID: <first.1@example.org>' in got:
        print('ok' if got.split(b'\n\n', 1)[1] == body else 'BAD body')
PY
ok "... the first's body and parts arrive byte for byte as composed" \
	grep -qx ok same.out

# --- read back with mutt ----------------------------------------------------------------
{
	# its own folder: on a machine where ~/Mail does not exist yet, mutt's
	# first run asks to create it, and the question eats the pushed keys
	printf 'set folder=%s spoolfile=%s/dev-null-box record=/dev/null\n' "$T" "$T"
	printf 'set charset=utf-8\nset pipe_decode=yes\nset pipe_split=yes\n'
	printf 'set wait_key=no\nset quit=yes\n'
	printf 'push "<tag-pattern>~A<enter><tag-prefix><pipe-message>cat >>%s/mutt.txt<enter><quit>"\n' "$T"
} >muttrc
# mutt_read BOX: every message of mailbox BOX, as mutt decodes it, in mutt.txt
mutt_read() {
	rm -f "$T/mutt.txt"
	LC_ALL=C.UTF-8 TERM=xterm timeout 30 script -qec \
		"mutt -n -F $T/muttrc -R -f $PF/mail/$1" /dev/null >/dev/null 2>&1
	test -s "$T/mutt.txt"
}
ok "mutt in batch mode pipes every message of dev's mailbox, decoded" \
	mutt_read dev
for want in 'From: Robot Ærøskøbing <robot@example.org>' \
	'To: René Lévesque <dev@example.org>' \
	'CC: Liste Öffentlich <list@lists.example.org>' \
	'In-Reply-To: <first.1@example.org>' \
	'Mesuré deux fois : ± 1%.' 'Corrigé : café.' \
	"un café, s'il vous plaît" 'naïve'; do
	ok "... mutt shows: $want" grep -qF -- "$want" mutt.txt
done
ok "... and nothing mis-decoded (no Ã)" sh -c '! grep -q "Ã" mutt.txt'

# --- postfix's own sendmail ------------------------------------------------------------
req 'message_id: "<third.1@example.org>"' 'in_reply_to: "<first.1@example.org>"' \
	'note: "Par sendmail : café."' >third.yaml
{
	printf 'spool: spool\narchive_dir: archive\n'
	printf 'message_id_user: robot\nmessage_id_domain: example.org\n'
	printf 'sendmail_cmd: /usr/sbin/sendmail -C %s/etc -oi\n' "$PF"
} >c.yaml
"$ROBOT" compose --force -c c.yaml third.yaml >third.out 2>&1
"$ROBOT" send -c c.yaml >sm.out 2>sm.err
ok "robot send through postfix's sendmail (sendmail_cmd): exit 0" \
	sh -c 'test "$0" -eq 0 && test ! -s sm.err' "$?"
sed 's/^/# /' sm.err
ok "... the log line: sent via sendmail, exit 0" \
	grep -q 'Z sent <third.1@example.org> to dev@example.org, list@lists.example.org via sendmail:/usr/sbin/sendmail: exit 0$' sm.out
ok "... postfix delivered it" wait_mail dev 3
ok "... mutt reads it" mutt_read dev
ok "... with its text decoded" grep -qF 'Par sendmail : café.' mutt.txt

pf_stop
ok "postfix -c DIR stop stops the private instance" \
	sh -c '! kill -0 "$(tr -d " " <"$1/queue/pid/master.pid" 2>/dev/null)" 2>/dev/null' _ "$PF"
echo "1..$test_n"
