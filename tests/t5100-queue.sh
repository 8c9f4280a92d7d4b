# SPDX-License-Identifier: GPL-2.0-only
#
# t5100-queue: `robot queue`.  `add` queues ready-made messages as they
# are (CRLF made LF, nothing else changed) and refuses, queueing none of
# them, a message without Message-ID, From or recipient (exit 65); the
# listing, text and JSON, shows each message's state; hold, release,
# retry and drop act on one Message-ID, never on a message a running
# robot send is delivering (exit 75); pause and resume; a missing spool
# is the configuration's fault (78).

# The sh -c scripts expand their own "$1"...
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
printf 'spool: spool\n' >robot.yaml
printf 'spool: nowhere\n' >missing.yaml

# mail N [HEADER...]: mail N.eml with the given extra header lines
mail() {
	_n=$1
	shift
	{
		printf 'From: Robot <robot@example.org>\n'
		printf 'To: dev@example.org, "Two, Names" <two@example.org>\n'
		printf 'Subject: test %s\n' "$_n"
		printf 'Message-ID: <%s.test@example.org>\n' "$_n"
		for h in "$@"; do
			printf '%s\n' "$h"
		done
		printf '\nbody of %s\n.leading dot\n' "$_n"
	} >"$_n.eml"
}

count() {
	find "$1" -type f -name '*.eml' 2>/dev/null | wc -l
}

# --- add ----------------------------------------------------------------------------
mail m1 'Bcc: hidden@example.org'
sed 's/$/\r/' m1.eml >m1-crlf.eml
mail m2
"$ROBOT" queue -c robot.yaml add m1-crlf.eml m2.eml >add.out 2>add.err
ok "add: exit 0" test $? -eq 0
printf '<m1.test@example.org>\n<m2.test@example.org>\n' >add.want
ok "add: prints each Message-ID" test_cmp add.want add.out
ok "add: two messages in new/" test "$(count spool/new)" -eq 2
Q1=$(grep -l 'm1.test' spool/new/*.eml)
ok "a CRLF file is queued with LF, byte for byte the same otherwise" \
	cmp m1.eml "$Q1"
ok "the spool keeps the Bcc (send strips it)" grep -q '^Bcc: hidden' "$Q1"
"$ROBOT" queue -c robot.yaml add m1.eml >again.out 2>&1
ok "the same message again: already queued" \
	sh -c 'test "$(cat "$1")" = "already queued: <m1.test@example.org>"' \
	_ again.out
ok "... nothing added" test "$(count spool/new)" -eq 2

# --- refusals: exit 65, nothing queued --------------------------------------------------
mail good
printf 'From: robot@example.org\nTo: dev@example.org\nSubject: x\n\nbody\n' \
	>noid.eml
printf 'To: dev@example.org\nMessage-ID: <nf@example.org>\n\nbody\n' \
	>nofrom.eml
printf 'From: robot@example.org\nMessage-ID: <nr@example.org>\n\nbody\n' \
	>norcpt.eml
printf 'From: robot@example.org\nTo: dev@example.org\nMessage-ID: not-an-id\n\nx\n' \
	>badid.eml
printf 'From: a@example.org, b@example.org\nTo: dev@example.org\nMessage-ID: <tf@example.org>\n\nx\n' \
	>twofrom.eml
printf 'From: robot@example.org\nTo: not an address\nMessage-ID: <ba@example.org>\n\nx\n' \
	>badto.eml
for f in noid nofrom norcpt badid twofrom badto; do
	expect_code 65 "add $f.eml (after a good one): exit 65, one error line" \
		"$ROBOT" queue -c robot.yaml add good.eml "$f.eml"
	ok "... the error names the file" grep -q "^robot: error: $f.eml: " "$T/.err"
	ok "... nothing queued, not even the good one" \
		test "$(count spool/new)" -eq 2
done
for f in "noid:no Message-ID field" "nofrom:no From field" \
	"norcpt:no recipient (To, Cc or Bcc)" "badid:is not one <id@host>" \
	"twofrom:is not one address"; do
	"$ROBOT" queue -c robot.yaml add "${f%%:*}.eml" 2>"${f%%:*}.err"
	ok "${f%%:*}.eml: the error says why: ${f#*:}" \
		grep -qF "${f#*:}" "${f%%:*}.err"
done
expect_code 65 "add a missing file: exit 65" \
	"$ROBOT" queue -c robot.yaml add no-such.eml
expect_code 2 "add without a file: usage error" "$ROBOT" queue -c robot.yaml add

# --- the listing ------------------------------------------------------------------------
"$ROBOT" queue -c robot.yaml >list.out 2>&1
ok "list: exit 0" test $? -eq 0
ok "list: one line per message, queued" \
	sh -c 'test "$(grep -c "^queued " "$1")" -eq 2' _ list.out
ok "list: each with its Message-ID" \
	sh -c 'grep -q "<m1.test@example.org>" "$1" &&
		grep -q "<m2.test@example.org>" "$1"' _ list.out
"$ROBOT" queue -c robot.yaml --json >list.json 2>&1
ok "--json is JSON with the messages, their state, file and subject" \
	"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["message_id"]: x for x in d["messages"]}
assert d["paused"] is None, d
assert set(m) == {"<m1.test@example.org>", "<m2.test@example.org>"}, m
for k, x in m.items():
    assert x["state"] == "queued" and x["attempts"] == 0, x
    assert x["file"].startswith("new/") and x["file"].endswith(".eml"), x
assert m["<m1.test@example.org>"]["subject"] == "test m1"
' list.json
expect_code 78 "a spool that does not exist: exit 78" \
	"$ROBOT" queue -c missing.yaml
ok "... the error names the configuration and the key" \
	grep -q "missing.yaml: spool: '.*nowhere' does not exist" "$T/.err"
ok "... and the listing created nothing" test ! -e nowhere
expect_code 2 "--json with a subcommand: usage error" \
	"$ROBOT" queue -c robot.yaml --json hold x

# --- hold, release, retry, drop ---------------------------------------------------------
N1=$(basename "$Q1" .eml)
"$ROBOT" queue -c robot.yaml hold m1.test@example.org >h.out 2>&1
ok "hold: exit 0, says so" \
	sh -c 'test "$(cat "$1")" = "held <m1.test@example.org>"' _ h.out
ok "hold: the message is in hold/" test -f "spool/hold/$N1.eml"
"$ROBOT" queue -c robot.yaml >l2.out
ok "hold: listed as held" grep -q '^held .*<m1.test@example.org>' l2.out
"$ROBOT" queue -c robot.yaml add m1.eml >ha.out
ok "a held message added again: already queued" \
	grep -qx 'already queued: <m1.test@example.org>' ha.out
expect_code 1 "retry a held message: exit 1, one error line" \
	"$ROBOT" queue -c robot.yaml retry '<m1.test@example.org>'
ok "... it stays held" test -f "spool/hold/$N1.eml"
touch -d '2020-01-01' "spool/hold/$N1.eml"
"$ROBOT" queue -c robot.yaml release '<m1.test@example.org>' >r.out 2>&1
ok "release: back in new/" test -f "spool/new/$N1.eml" -a ! -e "spool/hold/$N1.eml"
ok "release: its queue time starts again (max_age counts from now)" \
	test "$(stat -c %Y "spool/new/$N1.eml")" -gt 1600000000
ok "release: the bytes are untouched" cmp m1.eml "spool/new/$N1.eml"
# a file of the same name where it would go: never overwritten
printf 'planted\n' >"spool/hold/$N1.eml"
expect_code 1 "hold onto a file of its name in hold/: exit 1, one error line" \
	"$ROBOT" queue -c robot.yaml hold '<m1.test@example.org>'
ok "... the error says it exists" \
	grep -q "cannot move 'spool/new/$N1.eml': 'spool/hold/$N1.eml' exists" \
	"$T/.err"
ok "... both files stay as they were" \
	sh -c 'cmp "$1" "$2" && test "$(cat "$3")" = planted' _ m1.eml \
	"spool/new/$N1.eml" "spool/hold/$N1.eml"
rm "spool/hold/$N1.eml"
mv "spool/new/$N1.eml" spool/failed/
printf 'attempts: 3\nreply: 550 5.1.1 no such user\nrefused: dev@example.org 550 5.1.1 no such user\n' \
	>"spool/failed/$N1.state"
"$ROBOT" queue -c robot.yaml >l3.out
ok "a failed message is listed with its reply" \
	grep -q '^failed .*<m1.test@example.org> attempts 3: 550 5.1.1 no such user' l3.out
"$ROBOT" queue -c robot.yaml retry '<m1.test@example.org>' >rt.out 2>&1
ok "retry: a failed message goes back to new/" \
	test -f "spool/new/$N1.eml" -a ! -e "spool/failed/$N1.eml"
ok "retry: with its state file, refusals forgotten, attempts kept" \
	sh -c 'grep -qx "attempts: 3" "$1" && ! grep -q "^refused:" "$1"' _ \
	"spool/new/$N1.state"
expect_code 1 "an unknown Message-ID: exit 1, one error line" \
	"$ROBOT" queue -c robot.yaml drop '<nobody@example.org>'
ok "... the error names it" grep -q '<nobody@example.org>' "$T/.err"
expect_code 2 "hold without a Message-ID: usage error" \
	"$ROBOT" queue -c robot.yaml hold
expect_code 2 "an unknown subcommand: usage error" \
	"$ROBOT" queue -c robot.yaml frobnicate x
N2=$(basename "$(grep -l 'm2.test' spool/new/*.eml)" .eml)
mv "spool/new/$N2.eml" spool/sent/
expect_code 1 "drop a sent message: exit 1 (it is the record of a delivery)" \
	"$ROBOT" queue -c robot.yaml drop '<m2.test@example.org>'
expect_code 1 "hold a sent message: exit 1" \
	"$ROBOT" queue -c robot.yaml hold '<m2.test@example.org>'
"$ROBOT" queue -c robot.yaml drop '<m1.test@example.org>' >d.out 2>&1
ok "drop: the message and its state file are gone" \
	test ! -e "spool/new/$N1.eml" -a ! -e "spool/new/$N1.state"
ok "drop: says so" grep -qx 'dropped <m1.test@example.org>' d.out

# --- never while a robot send delivers it ----------------------------------------------
"$ROBOT" queue -c robot.yaml add m1.eml >/dev/null
printf 'pid 4242\nsending %s\n' "$N1" >spool/send.lock
# a robot send holds send.lock for its whole run
"$PYTHON" -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(30)' spool/send.lock &
holder=$!
sleep 0.3
expect_code 75 "hold the message a running send delivers: exit 75" \
	"$ROBOT" queue -c robot.yaml hold '<m1.test@example.org>'
ok "... it stays in new/" test -f "spool/new/$N1.eml"
expect_code 75 "drop it: exit 75" \
	"$ROBOT" queue -c robot.yaml drop '<m1.test@example.org>'
kill "$holder"
wait "$holder" 2>/dev/null
"$ROBOT" queue -c robot.yaml hold '<m1.test@example.org>' >/dev/null 2>&1
ok "the send gone (its lock released), the stale name in the file is ignored" \
	test -f "spool/hold/$N1.eml"

# --- pause and resume -------------------------------------------------------------------
"$ROBOT" queue -c robot.yaml pause relay maintenance until 10:00 >p.out 2>&1
ok "pause: the pause file with the reason" \
	sh -c 'test "$(cat spool/pause)" = "relay maintenance until 10:00"'
"$ROBOT" queue -c robot.yaml >l4.out
ok "pause: the listing says so first" \
	sh -c 'head -1 "$1" | grep -qx "paused: relay maintenance until 10:00"' \
	_ l4.out
"$ROBOT" queue -c robot.yaml --json >l4.json
ok "pause: in the JSON too" "$PYTHON" -c '
import json, sys
assert json.load(open(sys.argv[1]))["paused"] == "relay maintenance until 10:00"
' l4.json
"$ROBOT" queue -c robot.yaml resume >p2.out 2>&1
ok "resume: the pause file is gone" test ! -e spool/pause
ok "nothing was left in tmp/" test "$(find spool/tmp -type f | wc -l)" -eq 0

# --- each message gets its own state file, whatever else the folder holds --------------
# failed/ of o.spool: messages 1 to 30, the odd ones with a state file
# (attempts 11, 13...), state files whose message is gone (sorting
# before, between and after each of the messages), a folder named like a
# message, a state file that is a folder, NAME.eml.state beside NAME.eml;
# message 3's name is in new/ too, with a state file of its own
mkdir -p o.spool/new o.spool/sent o.spool/failed o.spool/hold
printf 'spool: o.spool\n' >o.yaml
hexname() { printf '%032x' "$1"; }
for i in $(seq 1 30); do
	f=o.spool/failed/$(hexname $((i * 16)))
	mail "o$i"
	cp "o$i.eml" "$f.eml"
	touch -d "@$((1767261600 + i * 60))" "$f.eml"
	[ $((i % 2)) -eq 1 ] &&
		printf 'attempts: %d\nreply: 550 state of o%d\n' $((10 + i)) "$i" >"$f.state"
	printf 'attempts: 99\nreply: 550 no message\n' >"o.spool/failed/$(hexname $((i * 16 - 8))).state"
done
printf 'attempts: 99\n' >"o.spool/failed/$(hexname 65535).state"
mkdir "o.spool/failed/$(hexname 1000).eml"
printf 'attempts: 98\n' >"o.spool/failed/$(hexname 1000).state"
rm "o.spool/failed/$(hexname 80).state"
mkdir "o.spool/failed/$(hexname 80).state"
printf 'attempts: 97\n' >"o.spool/failed/$(hexname 32).eml.state"
cp o3.eml "o.spool/new/$(hexname 48).eml"
printf 'attempts: 2\nreply: 421 state in new\n' >"o.spool/new/$(hexname 48).state"
"$ROBOT" queue -c o.yaml --json >o.json 2>o.err
ok "odd entries beside the state files: exit 0, nothing on stderr" \
	sh -c 'test $? -eq 0 && test ! -s "$1"' _ o.err
ok "... each message listed once with its own state, oldest first" "$PYTHON" -c '
import json, sys
got = [(m["file"], m["message_id"], m["attempts"], m["reply"])
       for m in json.load(open(sys.argv[1]))["messages"]]
want = [("new/%032x.eml" % 48, "<o3.test@example.org>", 2, "421 state in new")]
for i in range(1, 31):
    odd = i % 2 == 1 and i != 5
    want.append(("failed/%032x.eml" % (i * 16), "<o%d.test@example.org>" % i,
                 10 + i if odd else 0, "550 state of o%d" % i if odd else None))
assert got == want, "\n".join(map(repr, got))
' o.json
"$ROBOT" queue -c o.yaml >o.out
ok "... the text listing too" sh -c '
	grep -q "^failed .*<o1.test@example.org> attempts 11: 550 state of o1$" "$1" &&
	grep -q "^failed .*<o7.test@example.org> attempts 17: 550 state of o7$" "$1" &&
	grep -q "^failed .*<o2.test@example.org>$" "$1" &&
	test "$(wc -l <"$1")" -eq 31' _ o.out

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
