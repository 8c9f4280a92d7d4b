# SPDX-License-Identifier: GPL-2.0-only
#
# t5050-compose-force: a corrected report.  Two reports are the same when
# they have the same commit, testcase, tbox_group, kpi and parameters:
# composing one again answers "already queued" (or "already sent") with
# the first Message-ID, whatever else changed.  `compose --force` queues
# the corrected report anyway, under a new Message-ID (generated: the
# identity plus the correction's number), and names the copy it corrects;
# a request's own message_id must then be new.  --force with --dry-run is
# a usage error.
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
C3=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
W=$T/w
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
cat >"$T/robot.yaml" <<EOF
spool: $T/spool
mbox: $T/mbox
message_id_user: robot
message_id_domain: ci.example.org
EOF

# req NAME [EXTRA-LINE...]: $W/NAME.yaml, without a message_id
req() {
	_name=$1
	shift
	{
		base_request "$C3"
		for l in "$@"; do
			printf '%s\n' "$l"
		done
	} >"$W/$_name.yaml"
}
run() {
	_out=$1
	shift
	"$ROBOT" "$@" >"$T/$_out" 2>"$T/$_out.err"
}
line() { sed -n "${2}p" "$T/$1"; }
queued() { find "$T/spool/new" -type f | wc -l; }

req first
# a corrected report: another recipient, a later date
req fixed
sed -i -e 's/^date:.*/date: "2023-06-08 09:00:00 +0800"/' \
	-e 's/^to: \[\(.*\)\]/to: [\1, "<x86@kernel.org>"]/' "$W/fixed.yaml"

ok "the first report is queued" run q1 compose -c "$T/robot.yaml" "$W/first.yaml"
ID1=$(line q1 1)
ok "... under a generated Message-ID" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^<202306071432\\.[0-9a-f]{8}-robot@ci\\.example\\.org>\$"' - "$ID1"
run q1b compose -c "$T/robot.yaml" "$W/fixed.yaml"
ok "the corrected report without --force: already queued, the first id" \
	test "$(cat "$T/q1b")" = "already queued: $ID1"
ok "... and nothing added" test "$(queued)" -eq 1

ok "--force queues it" run q2 compose --force -c "$T/robot.yaml" "$W/fixed.yaml"
ID2=$(line q2 1)
ok "... under a new Message-ID" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^<202306080900\\.[0-9a-f]{8}-robot@ci\\.example\\.org>\$" &&
		test "$1" != "$2"' - "$ID2" "$ID1"
ok "... naming the copy it corrects, still queued" \
	test "$(line q2 2)" = "corrects $ID1 (still queued: 'robot queue drop $ID1' withdraws it)"
ok "... two messages queued" test "$(queued)" -eq 2
ok "... the new one has the new recipient and Message-ID" \
	sh -c 'grep -lx "Message-ID: $1" "$2"/spool/new/*.eml | xargs grep -q "^To: .*x86@kernel.org"' \
	- "$ID2" "$T"
ok "... its body is the --dry-run's but for the Message-ID" \
	sh -c '"$1" compose --dry-run -c "$2/robot.yaml" "$3" |
		sed "s/^Message-ID: .*/Message-ID: $4/" >"$2/fixed-dry.eml" &&
		cmp "$2/fixed-dry.eml" "$(grep -lx "Message-ID: $4" "$2"/spool/new/*.eml)"' \
	- "$ROBOT" "$T" "$W/fixed.yaml" "$ID2"

ok "--force again: a third Message-ID" run q3 compose --force -c "$T/robot.yaml" "$W/fixed.yaml"
ID3=$(line q3 1)
ok "... differs from both" sh -c 'test "$1" != "$2" && test "$1" != "$3"' - "$ID3" "$ID1" "$ID2"
ok "... and corrects the latest copy" test "$(line q3 2)" = "corrects $ID2 (still queued: 'robot queue drop $ID2' withdraws it)"

ok "robot send delivers them" run s1 send -c "$T/robot.yaml"
ok "--force after delivery: queued, correcting a sent copy" \
	run q4 compose --force -c "$T/robot.yaml" "$W/first.yaml"
ok "... 'already sent'" test "$(line q4 2)" = "corrects $ID3 (already sent)"

# The request's own Message-ID must be new for a correction.
req mine "message_id: \"$ID1\""
expect_code 65 "--force with the first copy's message_id: exit 65" \
	"$ROBOT" compose --force -c "$T/robot.yaml" "$W/mine.yaml"
ok "... the error names the request and its key" \
	grep -q "^robot: error: $W/mine.yaml: message_id: '$ID1' is the Message-ID of a copy" "$T/.err"
req mine2 'message_id: "<fix.2@ci.example.org>"'
ok "--force with a new message_id: queued under it" \
	run q5 compose --force -c "$T/robot.yaml" "$W/mine2.yaml"
ok "... which it prints" test "$(line q5 1)" = "<fix.2@ci.example.org>"

expect_code 2 "--force --dry-run: a usage error" \
	"$ROBOT" compose --force --dry-run -c "$T/robot.yaml" "$W/fixed.yaml"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
