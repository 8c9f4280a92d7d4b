#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t5510-spool-durable: what the spool keeps through a power loss and a
# careless operator (issue 30).  Every message robot send records as sent
# has its state file and the folders it moved between on disk before the
# next message goes out (strace shows the fsyncs), so a crash re-sends at
# most the message in flight, never the run.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1

# cfg NAME [LINE...]: NAME.yaml with spool NAME.spool, mailbox NAME.mbox
cfg() {
	_n=$1
	shift
	printf 'spool: %s.spool\nmbox: %s.mbox\n' "$_n" "$_n" >"$_n.yaml"
	for _l in "$@"; do
		printf '%s\n' "$_l" >>"$_n.yaml"
	done
}

# mail N: a hand-written message <durable.N@example.org>
mail() {
	printf 'From: Robot <robot@example.org>\nTo: dev@example.org\nSubject: durable %s\nMessage-ID: <durable.%s@example.org>\n\nbody %s\n' \
		"$1" "$1" "$1"
}

count() {
	find "$1" -name '*.eml' 2>/dev/null | wc -l
}

# --- 6. each sent message's state is on disk before the next goes out ---
cfg d
mkdir -p d.spool
for i in 1 2 3; do
	mail $i >m$i.eml
	"$ROBOT" queue -c d.yaml add m$i.eml >/dev/null
done
if ! strace -o /dev/null true 2>/dev/null; then
	_ok "6: # SKIP strace cannot trace here"
else
	strace -f -e trace=openat,fsync,fdatasync,rename,write -o d.trace \
		"$ROBOT" send -c d.yaml >d.out 2>d.err
	ok "6: send under strace: three sent" test "$(count d.spool/sent)" -eq 3
	"$PYTHON" - d.trace <<'PY' >d.check 2>&1
import re, sys
fds, synced, order = {}, set(), []
for line in open(sys.argv[1]):
    line = re.sub(r"^\d+\s+", "", line)
    m = re.match(r'openat\(AT_FDCWD, "([^"]*)", .*\)\s+= (\d+)', line)
    if m:
        fds[int(m.group(2))] = m.group(1)
        continue
    m = re.match(r'f(?:data)?sync\((\d+)\)\s+= 0', line)
    if m and int(m.group(1)) in fds:
        order.append(("fsync", fds[int(m.group(1))]))
        continue
    m = re.match(r'rename\("([^"]*)", "([^"]*)"\)\s+= 0', line)
    if m:
        order.append(("rename", m.group(1), m.group(2)))
        continue
    m = re.match(r'write\((\d+), "From ', line)
    if m and fds.get(int(m.group(1)), "").endswith("d.mbox"):
        order.append(("deliver",))
bad = []
# each state file written into sent/ is fsync'd before its rename, and
# sent/ after it, before the next message is delivered
delivered = [i for i, o in enumerate(order) if o[0] == "deliver"]
states = [i for i, o in enumerate(order) if o[0] == "rename" and o[2].endswith(".state") and "/sent/" in o[2]]
if len(delivered) != 3 or len(states) != 3:
    sys.exit("want 3 deliveries and 3 sent state files: %r" % order)
for k, i in enumerate(states):
    src = order[i][1]
    if not any(o == ("fsync", src) for o in order[:i]):
        bad.append("state file %s not fsync'd before its rename" % src)
    end = delivered[k + 1] if k + 1 < 3 else len(order)
    if not any(o[0] == "fsync" and o[1].endswith("/sent") for o in order[i:end]):
        bad.append("sent/ not fsync'd after message %d's state, before the next" % (k + 1))
print("\n".join(bad) if bad else "ok")
PY
	ok "6: each sent state file and sent/ are fsync'd before the next message" \
		grep -qx ok d.check
	sed 's/^/# /' d.check | grep -v '^# ok$'
fi

# --- 9. a state file corrupted by hand is reported, its message kept ----
# corrupt KEY LINE: a queued message whose state file has LINE; robot
# send names the file and KEY, sends and parks nothing, reports nothing
# delivered, and still sends the others
corrupt() {
	rm -rf c.spool c.mbox
	cfg c
	mkdir -p c.spool
	mail bad >bad.eml
	mail good >good.eml
	"$ROBOT" queue -c c.yaml add bad.eml >/dev/null
	st=$(ls c.spool/new/*.eml)
	st=${st%.eml}.state
	printf 'message-id: <durable.bad@example.org>\n%s\n' "$2" >"$st"
	"$ROBOT" queue -c c.yaml add good.eml >/dev/null
	"$ROBOT" send -c c.yaml >c.out 2>c.err
	rc=$?
	ok "9: $2: send exits 65" test "$rc" -eq 65
	ok "9: ... one error line naming the file and $1" sh -c '
		test "$(wc -l <"$1")" -eq 1 && grep -q "^robot: error: " "$1" &&
		grep -qF "$2" "$1" && grep -qF "$3" "$1"' _ c.err "$st" "$1"
	ok "9: ... the message kept in new/, not sent" sh -c '
		test -f "$1" && ! grep -q "durable bad" c.mbox &&
		! grep -q "durable.bad" c.out' _ "${st%.state}.eml"
	ok "9: ... the other one sent" grep -q "durable good" c.mbox
	if [ -z "${3:-}" ]; then
		"$ROBOT" queue -c c.yaml >q.out 2>q.err
		ok "9: ... robot queue names it too (exit 65)" \
			sh -c 'test "$1" -eq 65 && grep -qF "$2" q.err' _ $? "$1"
	fi
}
corrupt attempts "attempts: 99999999999"
corrupt attempts "attempts: -3"
corrupt next-attempt "next-attempt: 9999-99-99T00:00:00Z"
corrupt next-attempt "next-attempt: 2999-01-01T00:00:00Z"
corrupt sent-to "sent-to: dev@example.org"
# (an address that is none of the recipients: send's check)
corrupt sent-to "$(printf 'sent-to: other@evil.org\ndeferred: dev@example.org')" send

# --- 11. the spool is private, whatever the umask -----------------------
rm -rf p.spool
cfg p
mail 1 >p1.eml
(umask 0 && "$ROBOT" queue -c p.yaml add p1.eml >/dev/null &&
	"$ROBOT" send -c p.yaml >/dev/null)
ok "11: umask 0: the spool's folders are 0700" sh -c '
	for d in p.spool p.spool/new p.spool/sent p.spool/tmp p.spool/failed p.spool/hold; do
		test "$(stat -c %a "$d")" = 700 || { echo "$d: $(stat -c %a "$d")"; exit 1; }
	done'
ok "11: ... its files 0600" sh -c '
	find p.spool -type f | while read -r f; do
		test "$(stat -c %a "$f")" = 600 || { echo "$f: $(stat -c %a "$f")"; exit 1; }
	done && test "$(find p.spool -type f | wc -l)" -ge 2'

# --- 11. a compose that cannot queue its message leaves no record of it --
SMALL=$TOP/tests/data/compare/small
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" .
base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0 >report.yaml
cfg q
mkdir -p q.spool
: >q.spool/new
"$ROBOT" compose -c q.yaml report.yaml >q.out 2>q.err
ok "11: compose, new/ not a folder: it fails" test $? -ne 0
ok "11: ... and keeps no record of the report it did not queue" \
	test "$(find q.spool/reports -type f 2>/dev/null | wc -l)" -eq 0

# --- 11. a read-only spool can be listed; a full disk loses no state ------
M=$T/mnt
mkdir -p "$M"
if ! mount -t tmpfs -o size=256k tmpfs "$M" 2>/dev/null; then
	_ok "11: # SKIP cannot mount a tmpfs here (read-only and full spools)"
else
	trap 'umount "$M" 2>/dev/null; cleanup' EXIT
	printf 'spool: %s/s\nmbox: %s/out.mbox\n' "$M" "$T" >r.yaml
	for i in 1 2; do
		mail $i >r$i.eml
		"$ROBOT" queue -c r.yaml add r$i.eml >/dev/null
	done
	mount -o remount,ro "$M"
	"$ROBOT" queue -c r.yaml >r.out 2>r.err
	ok "11: robot queue lists a read-only spool: exit 0" test $? -eq 0
	ok "11: ... both messages" test "$(grep -c durable r.out)" -eq 2
	mount -o remount,rw "$M"
	"$ROBOT" send -c r.yaml >/dev/null 2>&1
	# fill the disk: a message the server took keeps its state (it
	# stays queued, to go out again, and is never in sent/ without one)
	. "$TOP/tests/lib-smtp.sh"
	trap 'smtp_stop_all; umount "$M" 2>/dev/null; cleanup' EXIT
	smtpd_start full
	smtp_config full f.yaml 'smtp_starttls: opportunistic'
	sed -i "s|^spool: .*|spool: $M/f|" f.yaml
	mail 3 >r3.eml
	"$ROBOT" queue -c f.yaml add r3.eml >/dev/null
	"$PYTHON" -c '
import sys
f = open(sys.argv[1], "wb")
try:
    while True:
        f.write(b"x" * 1024); f.flush()
except OSError:
    pass' "$M/fill" 2>/dev/null
	"$ROBOT" send -c f.yaml >f.out 2>f.err
	rc=$?
	ok "11: send on a full disk: the server has it, exit 75" \
		test "$rc" -eq 75 -a "$(received full)" -eq 1
	ok "11: ... no message in sent/ without its state file" sh -c '
		for e in "$1"/f/sent/*.eml; do
			test -e "$e" || continue
			test -s "${e%.eml}.state" || { echo "no state: $e"; exit 1; }
		done' _ "$M"
	ok "11: ... it stays queued, saying it goes out again" sh -c '
		test "$(ls "$1"/f/new/*.eml | wc -l)" -eq 1 &&
		grep -q "goes out again" "$2"' _ "$M" f.err
	rm -f "$M/fill"
	umount "$M"
fi

# --- 12. the smaller ones ------------------------------------------------
# a garbage file in new/: no raw byte of it on stderr nor in the JSON
rm -rf g.spool
cfg g
mkdir -p g.spool/new
printf 'Subject: \033[31mred\377\376\nMessage-ID: <\001x\377@e.org>\n' >g.spool/new/garbage.eml
"$ROBOT" queue -c g.yaml --json >g.json 2>g.err
ok "12: robot queue --json on a garbage file: valid JSON" \
	"$PYTHON" -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' g.json
"$ROBOT" send -c g.yaml >g.out 2>g.err
ok "12: send: no raw control or non-UTF-8 byte on stderr or stdout" "$PYTHON" -c '
import sys
for f in sys.argv[1:]:
    b = open(f, "rb").read()
    b.decode("utf-8")
    assert not any(c < 32 and c not in (9, 10) or c == 127 for c in b), (f, b)' g.err g.out

# queue retry keeps the count of attempts
rm -rf t.spool
cfg t
mail 9 >t9.eml
"$ROBOT" queue -c t.yaml add t9.eml >/dev/null
st=$(ls t.spool/new/*.eml)
st=${st%.eml}.state
printf 'message-id: <durable.9@example.org>\nattempts: 3\nlast-attempt: 2026-01-01T00:00:00Z\nnext-attempt: 2026-01-01T00:04:00Z\ndeferred: dev@example.org 451 4.7.1 later\n' >"$st"
"$ROBOT" queue -c t.yaml retry "<durable.9@example.org>" >/dev/null 2>&1
ok "12: queue retry keeps the attempts" grep -qx "attempts: 3" "$st"

# a drop in the middle of DATA: the deferred recipients are not "250 ok",
# the reason is in words
"$PYTHON" "$TOP/tests/helpers/smtp-drop.py" "$T/drop.port" >/dev/null 2>&1 &
drop_pid=$!
i=0
while [ ! -s "$T/drop.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
printf 'spool: x.spool\nsmtp_url: smtp://127.0.0.1:%s/x\nsmtp_starttls: opportunistic\n' \
	"$(cat "$T/drop.port")" >x.yaml
mail 10 >x.eml
"$ROBOT" queue -c x.yaml add x.eml >/dev/null
"$ROBOT" send -c x.yaml >x.out 2>x.err
ok "12: a drop mid-DATA: deferred (75)" test $? -eq 75
ok "12: ... no deferred recipient with the 250 of its RCPT" sh -c '
	! grep -q "^deferred: .* 250 " x.spool/new/*.state &&
	! grep -q "example.org 250 ok" x.out'
ok "12: ... no errno number for a reason" sh -c '! grep -q "errno: [0-9]" x.out x.err'
kill "$drop_pid"
wait "$drop_pid" 2>/dev/null

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
