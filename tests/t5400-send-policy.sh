# SPDX-License-Identifier: GPL-2.0-only
#
# t5400-send-policy: what robot send does with each kind of answer, against
# real servers on free loopback ports: aiosmtpd (tests/helpers/smtpd.py)
# for exact codes (451, 550, 554 at RCPT or DATA) and postfix's smtp-sink
# (421 on DATA, 450 on RCPT).  4xx and broken connections keep a message
# queued with a growing delay (exit 75); a 5xx moves it to failed/ with the
# server's reply (exit 69, after the rest were tried); a 5xx for some
# recipients delivers to the others and records the refused ones; a 4xx
# for some tries those again, and only those.  max_per_run, max_per_hour
# stop a run quietly (exit 0); max_age moves old messages to failed/.

# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-smtp.sh"

cd "$T" || exit 1

# mail NAME [HEADER...]: NAME.eml to dev@example.org (To: and Cc: may be
# given as headers instead)
mail() {
	_n=$1
	shift
	{
		printf 'From: Robot <robot@example.org>\n'
		printf 'Subject: %s\nMessage-ID: <%s@example.org>\n' "$_n" "$_n"
		_to=0
		for h in "$@"; do
			printf '%s\n' "$h"
			case "$h" in To:*) _to=1 ;; esac
		done
		[ $_to -eq 1 ] || printf 'To: dev@example.org\n'
		printf '\nbody of %s\n' "$_n"
	} >"$_n.eml"
}

# state SPOOL DIR ID: the state file of message ID in SPOOL/DIR
state() {
	_f=$(grep -l "^Message-ID: <$3@example.org>" "$1/$2"/*.eml 2>/dev/null |
		head -1)
	[ -n "$_f" ] && cat "${_f%.eml}.state"
}

# in SPOOL DIR ID: message ID is in SPOOL/DIR
in_dir() {
	grep -q "^Message-ID: <$3@example.org>" "$1/$2"/*.eml 2>/dev/null
}

# rcpts SERVER ID: the envelope recipients SERVER got message ID for
rcpts() {
	for _e in "$T/$1.mail"/*.env; do
		[ -f "$_e" ] || continue
		grep -q "^Message-ID: <$2@example.org>" "${_e%.env}.eml" &&
			"$PYTHON" -c 'import json, sys
print(" ".join(json.load(open(sys.argv[1]))["rcpt_tos"]))' "$_e"
	done
}

smtpd_start s
smtpd_start once --once

# --- a 554 at the end of DATA: failed/, the others still go, exit 69 -------------------
mail ok1
mail spam 'X-Test-Reply: 554'
mail ok2
smtp_config s a.yaml 'smtp_starttls: opportunistic'
for m in ok1 spam ok2; do
	"$ROBOT" queue -c a.yaml add "$m.eml" >/dev/null
done
expect_code 69 "554 at DATA: exit 69 after the rest were tried, one error line" \
	"$ROBOT" send -c a.yaml
cp "$T/.out" a.out
ok "... the error names the message and the reply" \
	grep -q '<spam@example.org>: refused permanently, moved to failed/: dev@example.org 554 5.7.1 Message rejected as spam' "$T/.err"
ok "... it is in failed/" in_dir a.spool failed spam
ok "... with the server's reply in its state file" \
	sh -c 'state() { f=$(grep -l "^Message-ID: <spam@example.org>" a.spool/failed/*.eml); cat "${f%.eml}.state"; }
		state | grep -qx "reply: 554 5.7.1 Message rejected as spam"'
ok "... the two others were delivered" \
	sh -c 'test "$(find s.mail -name "*.eml" | wc -l)" -eq 2'
ok "... and are in sent/" \
	test "$(find a.spool/sent -name '*.eml' | wc -l)" -eq 2
ok "... the log line says failed, with the reply" \
	grep -q '^[0-9][0-9-]*T[0-9:]*Z failed <spam@example.org> via smtp://127.0.0.1:[0-9]*: 554 5.7.1 Message rejected as spam' a.out

# --- 550 for every recipient; 550 for some ----------------------------------------------
mail allbad 'To: rcpt550-a@example.org' 'Cc: rcpt550-b@example.org'
mail somebad 'To: dev@example.org, rcpt550-c@example.org' 'Cc: list@example.org'
smtp_config s b.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c b.yaml add allbad.eml >/dev/null
"$ROBOT" queue -c b.yaml add somebad.eml >/dev/null
"$ROBOT" send -c b.yaml >b.out 2>b.err
ok "550 for all and for some: exit 69" test $? -eq 69
ok "... every recipient refused: failed/" in_dir b.spool failed allbad
ok "... some refused: delivered to the others" \
	test "$(rcpts s somebad)" = "dev@example.org list@example.org"
ok "... and in sent/, the refused one recorded" \
	sh -c 'f=$(grep -l "^Message-ID: <somebad@example.org>" b.spool/sent/*.eml) &&
		grep -q "^refused: rcpt550-c@example.org 550 5.1.1" "${f%.eml}.state" &&
		grep -qx "sent-to: dev@example.org" "${f%.eml}.state" &&
		grep -qx "sent-to: list@example.org" "${f%.eml}.state"'
ok "... one error line each" test "$(grep -c '^robot: error: ' b.err)" -eq 2 -a \
	"$(wc -l <b.err)" -eq 2
ok "... the partial one says who was refused" \
	grep -q '<somebad@example.org>: refused for rcpt550-c@example.org 550 5.1.1 .*; sent to the others' b.err

# --- a 451 for one recipient: the others get it now, that one later, alone --------------
mail greylist 'To: dev@example.org, rcpt451-g@example.org'
smtp_config once c.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c c.yaml add greylist.eml >/dev/null
expect_code 75 "451 for one recipient: exit 75, one error line" \
	"$ROBOT" send -c c.yaml
ok "... the other recipient got it" test "$(rcpts once greylist)" = dev@example.org
ok "... it stays queued, deferred" in_dir c.spool new greylist
state c.spool new greylist >c.state
ok "... its state: attempts, who has it, who waits" \
	sh -c 'grep -qx "attempts: 1" c.state && grep -qx "sent-to: dev@example.org" c.state &&
		grep -q "^deferred: rcpt451-g@example.org 451 4.7.1" c.state &&
		grep -q "^next-attempt: " c.state'
ok "... the next attempt a minute after the last" \
	"$PYTHON" -c '
import sys, datetime
s = dict(l.split(": ", 1) for l in open(sys.argv[1]).read().splitlines() if ": " in l)
t = lambda k: datetime.datetime.strptime(s[k], "%Y-%m-%dT%H:%M:%SZ")
assert (t("next-attempt") - t("last-attempt")).total_seconds() == 60, s' c.state
"$ROBOT" send -c c.yaml >c2.out 2>c2.err
ok "a run before the next attempt is due: exit 0, nothing sent" \
	sh -c 'test "$0" -eq 0 && test ! -s c2.out && test ! -s c2.err' "$?"
ok "... nothing reached the server" test "$(received once)" -eq 1
"$ROBOT" queue -c c.yaml --json >c.json
ok "robot queue shows it deferred, with its next attempt" "$PYTHON" -c '
import json, sys
m = json.load(open(sys.argv[1]))["messages"][0]
assert m["state"] == "deferred" and m["attempts"] == 1 and m["next_attempt"], m
assert m["sent_to"] == ["dev@example.org"], m' c.json
sed -i 's/^next-attempt: .*/next-attempt: 2000-01-01T00:00:00Z/' \
	"$(grep -l '^Message-ID: <greylist' c.spool/new/*.eml | sed 's/eml$/state/')"
"$ROBOT" send -c c.yaml >c3.out 2>c3.err
ok "due again: exit 0, sent" \
	sh -c 'test "$0" -eq 0 && grep -q "^Message-ID: <greylist" c.spool/sent/*.eml' "$?"
ok "... to the deferred recipient only" \
	test "$(rcpts once greylist | tr '\n' '|')" = 'dev@example.org|rcpt451-g@example.org|'
ok "... its record: two attempts, both recipients" \
	sh -c 'f=$(grep -l "^Message-ID: <greylist" c.spool/sent/*.eml) &&
		grep -qx "attempts: 2" "${f%.eml}.state" &&
		test "$(grep -c "^sent-to: " "${f%.eml}.state")" -eq 2 &&
		! grep -q "^deferred:" "${f%.eml}.state"'

# --- a 451 at DATA: the delay doubles, up to an hour ----------------------------------
mail busy 'X-Test-Reply: 451'
smtp_config s d.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c d.yaml add busy.eml >/dev/null
n=1
for want in 60 120 240 480 960 1920 3600 3600; do
	"$ROBOT" send -c d.yaml >/dev/null 2>&1
	rc=$?
	state d.spool new busy >d.state
	gap=$("$PYTHON" -c '
import sys, datetime
s = dict(l.split(": ", 1) for l in open(sys.argv[1]).read().splitlines() if ": " in l)
t = lambda k: datetime.datetime.strptime(s[k], "%Y-%m-%dT%H:%M:%SZ")
print(s["attempts"], int((t("next-attempt") - t("last-attempt")).total_seconds()))' d.state)
	ok "451 at DATA, attempt $n: exit 75, next in $want s" \
		test "$rc" -eq 75 -a "$gap" = "$n $want"
	sed -i 's/^next-attempt: .*/next-attempt: 2000-01-01T00:00:00Z/' \
		"$(grep -l '^Message-ID: <busy' d.spool/new/*.eml | sed 's/eml$/state/')"
	n=$((n + 1))
done
"$ROBOT" queue -c d.yaml retry '<busy@example.org>' >/dev/null
ok "robot queue retry: due now, the attempts still counted" \
	sh -c 'state() { f=$(grep -l "^Message-ID: <busy" d.spool/new/*.eml); cat "${f%.eml}.state"; }
		state | grep -qx "attempts: 8" && ! state | grep -q "^next-attempt"'

# --- 421 from postfix's smtp-sink: the run stops, nothing else is tried --------------
sink_start q -Q DATA
smtp_config q e.yaml 'smtp_starttls: opportunistic'
for m in ok1 ok2; do "$ROBOT" queue -c e.yaml add "$m.eml" >/dev/null; done
expect_code 75 "421 on DATA (smtp-sink -Q DATA): exit 75, one error line" \
	"$ROBOT" send -c e.yaml
ok "... the error gives the server's 421" grep -q ': 421 4.0.0 ' "$T/.err"
ok "... both stay queued" test "$(find e.spool/new -name '*.eml' | wc -l)" -eq 2
ok "... only the first was tried (the run stopped)" \
	test "$(cat e.spool/new/*.state 2>/dev/null | grep -c '^reply: 421 ')" -eq 1
ok "... the other one held back, its attempt recorded with the reason" \
	sh -c 'f=$(grep -l "^Message-ID: <ok2@" e.spool/new/*.eml) &&
		grep -qx "attempts: 1" "${f%.eml}.state" &&
		grep -q "^reply: not tried: .*421 " "${f%.eml}.state"'
sink_start r -r RCPT
smtp_config r f.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c f.yaml add ok1.eml >/dev/null
expect_code 75 "450 on RCPT (smtp-sink -r RCPT): exit 75" "$ROBOT" send -c f.yaml
ok "... deferred" in_dir f.spool new ok1
mail closing 'To: rcpt421-x@example.org'
smtp_config s g.yaml 'smtp_starttls: opportunistic'
for m in closing ok2; do "$ROBOT" queue -c g.yaml add "$m.eml" >/dev/null; done
expect_code 75 "421 on RCPT (aiosmtpd): exit 75, the run stops" \
	"$ROBOT" send -c g.yaml
ok "... both stay queued" test "$(find g.spool/new -name '*.eml' | wc -l)" -eq 2

# --- nobody listening: 75, nothing moved, the attempt recorded on each -------------------
printf 'spool: h.spool\nsmtp_url: smtp://127.0.0.1:%s\nsmtp_starttls: opportunistic\n' \
	"$(free_port)" >h.yaml
for m in ok1 ok2; do "$ROBOT" queue -c h.yaml add "$m.eml" >/dev/null; done
expect_code 75 "connection refused: exit 75, one error line" "$ROBOT" send -c h.yaml
ok "... it says the messages stay queued" grep -q 'stay queued' "$T/.err"
ok "... nothing moved" test "$(find h.spool/new -name '*.eml' | wc -l)" -eq 2
"$ROBOT" queue -c h.yaml --json >h.json
"$PYTHON" - h.json <<'PY' >h.check 2>&1
import json, sys
q = json.load(open(sys.argv[1]))
ms = q['messages']
assert len(ms) == 2, ms
for m in ms:
    assert m['attempts'] == 1, m
    assert m['last_attempt'], m
    assert m['state'] == 'deferred', m
    assert m['reply'].startswith('not tried: ') and 'onnect' in m['reply'], m
    assert m['via'].startswith('smtp://127.0.0.1:'), m
print('ok')
PY
ok "... queue --json shows each: attempts 1, its time, the reason" \
	grep -qx ok h.check
sed 's/^/# /' h.check

# --- a deferral and a refusal in one run: 69 wins -------------------------------------
mail tempdata 'X-Test-Reply: 451'
smtp_config s i.yaml 'smtp_starttls: opportunistic'
for m in tempdata spam; do "$ROBOT" queue -c i.yaml add "$m.eml" >/dev/null; done
"$ROBOT" send -c i.yaml >/dev/null 2>i.err
ok "451 and 554 in one run: exit 69 (a human must look)" test $? -eq 69
ok "... two error lines, one each" test "$(wc -l <i.err)" -eq 2

# --- the sender refused (550 at MAIL) ------------------------------------------------
mail badsender
sed -i 's/^From: .*/From: mail550-x@example.org/' badsender.eml
smtp_config s j.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c j.yaml add badsender.eml >/dev/null
expect_code 69 "550 at MAIL FROM: exit 69" "$ROBOT" send -c j.yaml
ok "... failed/" in_dir j.spool failed badsender

# --- limits: max_per_run and max_per_hour stop quietly ------------------------------------
smtp_config s k.yaml 'smtp_starttls: opportunistic' 'max_per_run: 2'
for i in 1 2 3 4 5; do
	mail "lim$i"
	"$ROBOT" queue -c k.yaml add "lim$i.eml" >/dev/null
done
before=$(received s)
"$ROBOT" send -c k.yaml >k.out 2>k.err
ok "max_per_run 2: exit 0, nothing on stderr" \
	sh -c 'test "$0" -eq 0 && test ! -s k.err' "$?"
ok "... two sent, three wait" \
	test "$(find k.spool/sent -name '*.eml' | wc -l)" -eq 2 -a \
	"$(find k.spool/new -name '*.eml' | wc -l)" -eq 3 -a \
	"$(received s)" -eq $((before + 2))
ok "... it says why on stdout" \
	grep -qx '[0-9][0-9-]*T[0-9:]*Z max_per_run (2) reached: 3 messages wait for the next run' k.out
ok "... the oldest went first" \
	sh -c 'grep -q "^Message-ID: <lim1@" k.spool/sent/*.eml &&
		grep -q "^Message-ID: <lim2@" k.spool/sent/*.eml'
smtp_config s k.yaml 'smtp_starttls: opportunistic' 'max_per_hour: 3'
"$ROBOT" send -c k.yaml >k2.out 2>k2.err
ok "max_per_hour 3, two sent this hour: one more, exit 0" \
	sh -c 'test "$0" -eq 0 && test ! -s k2.err &&
		test "$(find k.spool/sent -name "*.eml" | wc -l)" -eq 3' "$?"
"$ROBOT" send -c k.yaml >k3.out 2>k3.err
ok "... then none, exit 0, quietly" \
	sh -c 'test "$0" -eq 0 && test ! -s k3.err &&
		grep -q "^[0-9][0-9-]*T[0-9:]*Z max_per_hour (3) reached: 2 messages" k3.out &&
		test "$(find k.spool/sent -name "*.eml" | wc -l)" -eq 3' "$?"
ok "... the rate file holds the last hour's deliveries" test "$(wc -l <k.spool/rate)" -eq 3

# --- max_age: an old message goes to failed/, and is reported --------------------------
smtp_config s l.yaml 'smtp_starttls: opportunistic' 'max_age: 2h'
"$ROBOT" queue -c l.yaml add ok1.eml >/dev/null
"$ROBOT" queue -c l.yaml add ok2.eml >/dev/null
touch -d '3 hours ago' "$(grep -l '^Message-ID: <ok1@' l.spool/new/*.eml)"
expect_code 69 "max_age 2h, a message queued 3 hours ago: exit 69, one error line" \
	"$ROBOT" send -c l.yaml
ok "... the error says so" \
	grep -q '<ok1@example.org>: in the queue longer than max_age (2h), moved to failed/' "$T/.err"
ok "... it is in failed/, the reason in its state file" \
	sh -c 'f=$(grep -l "^Message-ID: <ok1@" l.spool/failed/*.eml) &&
		grep -q "^reply: expired: queued .*, longer ago than max_age (2h)" "${f%.eml}.state"'
ok "... the young one was sent" in_dir l.spool sent ok2

# --- a file in new/ that is not a mail: failed/, 65 --------------------------------
smtp_config s m.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c m.yaml add ok1.eml >/dev/null
printf 'garbage without headers\n' >m.spool/new/0123456789abcdef0123456789abcdef.eml
"$ROBOT" send -c m.yaml >m.out 2>m.err
ok "a spool file that is not a mail: exit 65" test $? -eq 65
ok "... moved to failed/ with the reason" \
	grep -q '^reply: not a mail robot can send: ' \
	m.spool/failed/0123456789abcdef0123456789abcdef.state
ok "... the good one was sent" in_dir m.spool sent ok1

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
