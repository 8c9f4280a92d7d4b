# SPDX-License-Identifier: GPL-2.0-only
#
# t5500-send-crash: the delivery promise under SIGKILL.
#
#   - 200 queued messages; robot send killed with SIGKILL at random moments
#     in 20 rounds, then run to completion: none lost, at most one
#     duplicate per kill, each duplicate byte-identical with the same
#     Message-ID, the spool clean (all in sent/, nothing in tmp/).
#   - Test-only crash points give exact counts: killed after the server's
#     250 (before the spool knows), exactly that message twice; killed
#     after the claim (before anything is sent), no duplicate.
#   - Two robot send at once send nothing twice.
#   - robot compose of the same reports while robot send runs never makes
#     a duplicate.

# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-smtp.sh"

cd "$T" || exit 1

# make_mails DIR N [NAME]: N messages DIR/NNN.eml, of different sizes,
# Message-IDs <NAME.NNN@example.org> (NAME: crash)
make_mails() {
	mkdir -p "$1"
	"$PYTHON" - "$1" "$2" "${3:-crash}" <<'EOF'
import sys
d, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for i in range(n):
    body = "".join("line %d of message %d\n" % (j, i) for j in range(1 + i * 7 % 60))
    open("%s/%03d.eml" % (d, i), "w").write(
        "From: Robot <robot@example.org>\n"
        "To: dev@example.org\n"
        "Cc: list@example.org\n"
        "Subject: crash test %d\n"
        "Message-ID: <%s.%03d@example.org>\n\n%s" % (i, name, i, body))
EOF
}

# check_server SERVER N KILLS: every one of the N messages arrived, with
# at most KILLS duplicates, each byte-identical to its first copy; prints
# "received duplicates"
check_server() {
	"$PYTHON" - "$T/$1.mail" "$2" "$3" <<'EOF'
import os, re, sys
d, n, kills = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seen = {}
bad = []
files = sorted((f for f in os.listdir(d) if f.endswith(".eml")),
               key=lambda f: int(f[:-4]))
for f in files:
    data = open(os.path.join(d, f), "rb").read()
    m = re.search(rb"^Message-ID: (<[^>]*>)", data, re.M)
    mid = m.group(1).decode()
    if mid in seen and seen[mid][0] != data:
        bad.append("%s differs from its first copy" % mid)
    seen.setdefault(mid, [data, 0])[1] += 1
dups = sum(c - 1 for _, c in seen.values())
lost = n - len(seen)
if lost:
    bad.append("%d lost" % lost)
if dups > kills:
    bad.append("%d duplicates for %d kills" % (dups, kills))
print(len(files), dups)
for b in bad:
    print("#", b)
sys.exit(1 if bad else 0)
EOF
}

# spool_clean SPOOL N: N in sent/, nothing in new/, failed/, tmp/
spool_clean() {
	test "$(find "$1/sent" -name '*.eml' | wc -l)" -eq "$2" &&
		test "$(find "$1/new" "$1/failed" -name '*.eml' | wc -l)" -eq 0 &&
		test "$(find "$1/tmp" -type f | wc -l)" -eq 0
}

smtpd_start s

# --- 200 messages, SIGKILL at random moments in 20 rounds -----------------------
# Each round starts robot send, lets it deliver a random 0 to 8 messages
# (watching sent/ grow, so the moments follow the machine's speed, ASan
# or not), waits a random 0 to 2 ms more and kills it.  At about 1.5 ms a
# message, a longer wait could let 20 rounds send all 200 before the last
# round, leaving it nothing to be killed in.  The draws are
# seeded: CRASH_SEED=N replays a failure.
make_mails m 200
smtp_config s a.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c a.yaml add m/*.eml >/dev/null
ok "200 queued" test "$(find a.spool/new -name '*.eml' | wc -l)" -eq 200
"$PYTHON" - "$ROBOT" a.yaml a.spool "${CRASH_SEED:-5500}" >a.kills <<'EOF'
import os, random, signal, subprocess, sys, time
robot, cfg, spool, seed = sys.argv[1:5]
r = random.Random(int(seed))
def count(d):
    return sum(1 for f in os.listdir(os.path.join(spool, d)) if f.endswith(".eml"))
kills = midway = 0
for _ in range(20):
    before = count("sent")
    k, jitter = r.randint(0, 8), r.uniform(0, 0.002)
    p = subprocess.Popen([robot, "send", "-c", cfg],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while p.poll() is None and count("sent") < before + k and time.time() < deadline:
        time.sleep(0.0005)
    time.sleep(jitter)
    if p.poll() is None:
        p.send_signal(signal.SIGKILL)
        kills += 1
    p.wait()
    if count("sent") > before and count("new") > 0:
        midway += 1
print(kills, midway, count("new"))
EOF
read -r kills midway left <a.kills
echo "# $kills kills, $midway after some messages went; $left of 200 queued before the last run"
ok "20 rounds, each killed" test "$kills" -eq 20
ok "most kills landed after some messages went" test "$midway" -ge 10
"$ROBOT" send -c a.yaml >a.out 2>a.err
ok "the last run: exit 0" test $? -eq 0
check_server s 200 "$kills" >a.check
ok "none lost, at most one duplicate per kill, each byte-identical" \
	sh -c 'cat "$1"; test "$(grep -c "^#" "$1")" -eq 0' _ a.check
echo "# received, duplicates: $(head -1 a.check)"
ok "the spool is clean: 200 in sent/, nothing in new/, failed/ or tmp/" \
	spool_clean a.spool 200
rm -f s.mail/*

# --- exact crash points ------------------------------------------------------------
make_mails p 10
smtp_config s b.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c b.yaml add p/*.eml >/dev/null
ROBOT_TEST_CRASH=after-250:4 "$ROBOT_CRASH" send -c b.yaml >/dev/null 2>&1
ok "killed after the 4th server 250 (test crash point)" test $? -eq 137
ok "... the server has 4, the spool records 3 as sent" \
	test "$(received s)" -eq 4 -a "$(find b.spool/sent -name '*.eml' | wc -l)" -eq 3
"$ROBOT" send -c b.yaml >/dev/null 2>&1
check_server s 10 1 >b.check
ok "the next run: all 10 arrived, exactly one duplicate" \
	sh -c 'test "$(head -1 "$1")" = "11 1" && ! grep -q "^#" "$1"' _ b.check
ok "... the 4th message, twice, byte-identical" \
	sh -c 'test "$(grep -l "^Message-ID: <crash.003@" s.mail/*.eml | wc -l)" -eq 2 &&
		cmp $(grep -l "^Message-ID: <crash.003@" s.mail/*.eml)'
ok "... the spool is clean" spool_clean b.spool 10
rm -f s.mail/*

smtp_config s c.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c c.yaml add p/*.eml >/dev/null
ROBOT_TEST_CRASH=claim:4 "$ROBOT_CRASH" send -c c.yaml >/dev/null 2>&1
ok "killed after the 4th claim, before it was sent (test crash point)" \
	test $? -eq 137
ok "... the server has 3" test "$(received s)" -eq 3
ok "... send.lock holds its pid and the 4th claim, nothing else" \
	"$PYTHON" -c 'import re, sys
sys.exit(not re.fullmatch(sys.argv[1], open(sys.argv[2]).read()))' \
	'pid \d+\nsending [0-9a-f]{32}\n' c.spool/send.lock
"$ROBOT" send -c c.yaml >/dev/null 2>&1
check_server s 10 0 >c.check
ok "the next run: all 10 arrived, no duplicate" \
	sh -c 'test "$(head -1 "$1")" = "10 0" && ! grep -q "^#" "$1"' _ c.check
ok "... and left send.lock holding its pid alone (the claim cut off)" \
	"$PYTHON" -c 'import re, sys
sys.exit(not re.fullmatch(sys.argv[1], open(sys.argv[2]).read()))' \
	'pid \d+\n' c.spool/send.lock
ok "... the spool is clean" spool_clean c.spool 10
rm -f s.mail/*

# the crash points are the test build's only (build/tests/robot-crash):
# build/robot, the one installed, has none and ignores the variable
smtp_config s r.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c r.yaml add p/*.eml >/dev/null
ROBOT_TEST_CRASH=claim:1 "$ROBOT" send -c r.yaml >r.out 2>&1
ok "build/robot with ROBOT_TEST_CRASH=claim:1: not killed (exit 0)" \
	test $? -eq 0
ok "... all 10 sent" test "$(received s)" -eq 10
ok "... nor does it hold the hook's text" \
	sh -c '! strings "$1" | grep ROBOT_TEST_CRASH' - "$ROBOT"
rm -f s.mail/*

# --- two runs at once -----------------------------------------------------------
smtpd_start slow --delay 20
make_mails q 30
round=1
while [ $round -le 3 ]; do
	smtp_config slow "d$round.yaml" 'smtp_starttls: opportunistic'
	"$ROBOT" queue -c "d$round.yaml" add q/*.eml >/dev/null
	"$ROBOT" send -c "d$round.yaml" >"d$round.o1" 2>"d$round.e1" &
	p1=$!
	"$ROBOT" send -c "d$round.yaml" >"d$round.o2" 2>"d$round.e2" &
	p2=$!
	wait $p1
	r1=$?
	wait $p2
	r2=$?
	"$ROBOT" send -c "d$round.yaml" >/dev/null 2>&1
	check_server slow 30 0 >"d$round.check"
	ok "two runs at once ($round): each message exactly once" \
		sh -c 'test "$(head -1 "$1")" = "30 0" && ! grep -q "^#" "$1"' _ \
		"d$round.check"
	ok "... the one that found the spool busy said so, exit 75" \
		sh -c 'test "$1" -eq 0 -a "$2" -eq 0 ||
		{ test "$1" -eq 75 && grep -q "is busy: another robot send" "$3"; } ||
		{ test "$2" -eq 75 && grep -q "is busy: another robot send" "$4"; }' \
		_ "$r1" "$r2" "d$round.e1" "d$round.e2"
	rm -f slow.mail/*
	round=$((round + 1))
done

# --- compose while send runs ----------------------------------------------------
SMALL=$TOP/tests/data/compare/small
cp "$SMALL/commits.yaml" .
# eight reports: the same test with eight test times (their identities)
i=0
while [ $i -lt 8 ]; do
	mkdir "w$i"
	cp -R "$SMALL/rt0" "$SMALL/rt1" "w$i/"
	sed -i "s/^testtime: 60s/testtime: 6${i}s/" "w$i"/rt*/*/job.yaml
	{
		base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
		echo "message_id: \"<report.$i@example.org>\""
	} | sed "s|^commits: commits.yaml|commits: ../commits.yaml|" >"w$i/r.yaml"
	i=$((i + 1))
done
smtp_config slow e.yaml 'smtp_starttls: opportunistic'
"$ROBOT" queue -c e.yaml add q/*.eml >/dev/null
for r in 0 1 2 3; do
	"$ROBOT" compose -c e.yaml "w$r/r.yaml" >/dev/null
done
make_mails q2 60 more
"$ROBOT" queue -c e.yaml add q2/*.eml >/dev/null
"$ROBOT" send -c e.yaml >e.send 2>&1 &
sp=$!
# every report composed again and again while the send delivers them
n=0
while kill -0 $sp 2>/dev/null && [ $n -lt 400 ]; do
	"$ROBOT" compose -c e.yaml "w$((n % 8))/r.yaml" >>e.compose 2>&1
	n=$((n + 1))
done
wait $sp
"$ROBOT" send -c e.yaml >>e.send 2>&1
echo "# $n composes during the send"
ok "composes ran while the send delivered" test "$n" -ge 8
check_server slow 98 0 >e.check
ok "compose during send: every report and mail exactly once" \
	sh -c 'test "$(head -1 "$1")" = "98 0" && ! grep -q "^#" "$1"' _ e.check
ok "... every compose answered a Message-ID or already queued/sent" \
	sh -c '! grep -v "^<report\.[0-7]@example\.org>$\|^already queued: <report\.[0-7]@example\.org>$\|^already sent: <report\.[0-7]@example\.org>$" "$1"' \
	_ e.compose
ok "... the spool is clean" spool_clean e.spool 98

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
