# SPDX-License-Identifier: GPL-2.0-only
#
# t5250-send-json: what robot send says, for a cron log and for programs.
# Every human line starts with the time, ISO 8601 UTC; --json gives one
# JSON object a line (the fields doc/commands.md lists, each of its
# type); -q prints nothing on stdout; --json with -q is a usage error.
# A refused connection (nobody listening on a free port) holds back every
# due message: each gets attempts 1, its time and "not tried: ..." with
# the reason, in the state file and in `robot queue --json`, and a `held`
# event; the next run counts a second attempt.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-smtp.sh"

cd "$T" || exit 1
mail() {
	printf 'From: Robot <robot@example.org>\nTo: dev@example.org\n'
	printf 'Subject: %s\nMessage-ID: <%s@example.org>\n\nbody\n' "$1" "$1"
}
for m in one two three; do mail $m >$m.eml; done

printf 'spool: a.spool\nmbox: a.mbox\n' >a.yaml
"$ROBOT" queue -c a.yaml add one.eml two.eml >/dev/null
before=$(date -u +%s)
"$ROBOT" send -c a.yaml >a.out 2>a.err
ok "send to the mailbox: exit 0, nothing on stderr" \
	sh -c 'test "$0" -eq 0 && test ! -s a.err' "$?"
ok "... each line starts with an ISO 8601 time (UTC) of the run" \
	"$PYTHON" - a.out "$before" <<'PY'
import datetime, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
for l in lines:
    t, rest = l.split(' ', 1)
    when = datetime.datetime.strptime(t, '%Y-%m-%dT%H:%M:%SZ').replace(
        tzinfo=datetime.timezone.utc).timestamp()
    assert int(sys.argv[2]) - 1 <= when <= int(sys.argv[2]) + 60, l
    assert rest.startswith('sent <'), l
PY

"$ROBOT" queue -c a.yaml add three.eml >/dev/null
"$ROBOT" send -c a.yaml --json >j.out 2>j.err
ok "send --json: exit 0" test $? -eq 0
ok "... one JSON object a line, every documented field of its type" \
	"$PYTHON" - j.out <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
o = json.loads(lines[0])
want = {'time': str, 'event': str, 'message_id': str, 'via': str,
        'reply': str, 'sent_to': list, 'refused': list, 'deferred': list,
        'attempts': int, 'next_attempt': type(None), 'text': str}
assert sorted(o) == sorted(want), sorted(o)
for k, t in want.items():
    assert isinstance(o[k], t), (k, o[k])
assert o['event'] == 'sent' and o['message_id'] == '<three@example.org>', o
assert o['sent_to'] == ['dev@example.org'] and o['attempts'] == 1, o
assert o['via'].startswith('mbox:') and o['time'].endswith('Z'), o
PY
"$ROBOT" queue -c a.yaml add one.eml >/dev/null 2>&1
"$ROBOT" queue -c a.yaml retry '<one@example.org>' >/dev/null 2>&1
"$ROBOT" send -c a.yaml -q >q.out 2>q.err
ok "send -q: exit 0, nothing on stdout" \
	sh -c 'test "$0" -eq 0 && test ! -s q.out' "$?"
expect_code 2 "--json with -q: a usage error" "$ROBOT" send -c a.yaml --json -q

# --- nobody listening ---------------------------------------------------------
printf 'spool: h.spool\nsmtp_url: smtp://127.0.0.1:%s\nsmtp_starttls: opportunistic\n' \
	"$(free_port)" >h.yaml
"$ROBOT" queue -c h.yaml add one.eml two.eml >/dev/null
"$ROBOT" send -c h.yaml --json >h.out 2>h.err
ok "connection refused: exit 75" test $? -eq 75
ok "... a held event for each message, with the reason" \
	"$PYTHON" - h.out <<'PY'
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1])]
assert [e['event'] for e in evs] == ['held', 'held'], evs
assert sorted(e['message_id'] for e in evs) == \
    ['<one@example.org>', '<two@example.org>'], evs
for e in evs:
    assert e['attempts'] == 1 and e['reply'].startswith('not tried: '), e
PY
"$ROBOT" queue -c h.yaml --json >h.json
check_queue() {
	"$PYTHON" - h.json "$1" <<'PY'
import json, sys
ms = json.load(open(sys.argv[1]))['messages']
assert len(ms) == 2, ms
for m in ms:
    assert m['state'] == 'deferred', m
    assert m['attempts'] == int(sys.argv[2]), m
    assert m['last_attempt'] and m['last_attempt'].endswith('Z'), m
    assert m['reply'].startswith('not tried: '), m
    assert m['via'].startswith('smtp://127.0.0.1:'), m
PY
}
ok "... robot queue --json: attempts 1, last_attempt, the reason" check_queue 1
"$ROBOT" send -c h.yaml >h2.out 2>h2.err
ok "the next run: exit 75 again, both tried again" \
	sh -c 'test "$0" -eq 75 && test "$(grep -c " held <" h2.out)" -eq 2' "$?"
"$ROBOT" queue -c h.yaml --json >h.json
ok "... attempts 2" check_queue 2

echo "1..$test_n"
