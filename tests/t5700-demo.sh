# SPDX-License-Identifier: GPL-2.0-only
#
# t5700-demo: scripts/demo.sh (make demo) runs the whole path with no
# server: it composes every example, queues them, delivers them with
# robot send to the local mailbox and says where they went.  The mailbox
# holds each report once, exactly as --dry-run prints it (mboxrd quoting
# aside), and Python's mailbox module reads it.

# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

DEMO_OUT=$T/demo ROBOT=$ROBOT sh "$TOP/scripts/demo.sh" >"$T/demo.out" 2>&1
ok "make demo's script: exit 0" test $? -eq 0
ok "it says where the mails went" \
	grep -qx "demo: 5 mails delivered to the local mailbox $T/demo/mbox" \
	"$T/demo.out"
ok "... and how to read them" grep -qx "demo: read them with: mutt -f $T/demo/mbox" \
	"$T/demo.out"
ok "nothing is left queued" \
	test "$(find "$T/demo/spool/new" -name '*.eml' | wc -l)" -eq 0 -a \
	"$(find "$T/demo/spool/sent" -name '*.eml' | wc -l)" -eq 5
"$PYTHON" - "$T/demo" <<'PY' >"$T/check.out" 2>&1
import glob, mailbox, os, re, sys
d = sys.argv[1]
want = {}
# demo.eml first: seed-001 is the same report, queued once, as the demo's
for f in sorted(glob.glob(os.path.join(d, "*.eml"))):
    data = open(f, "rb").read()
    mid = re.search(rb"^Message-ID: (\S+)", data, re.M).group(1).decode()
    want.setdefault(mid, data)
got = {}
for m in mailbox.mbox(os.path.join(d, "mbox")):
    got.setdefault(m["Message-ID"], []).append(m)
assert sorted(got) == sorted(want), (sorted(got), sorted(want))
assert all(len(v) == 1 for v in got.values()), "a report twice"
# byte for byte: each entry is its --dry-run bytes, >From-quoted
box = open(os.path.join(d, "mbox"), "rb").read()
for mid, data in want.items():
    quoted = re.sub(rb"(?m)^(>*From )", rb">\1", data)
    assert b"\n" + quoted + b"\n" in box, mid
print("ok", len(got))
PY
ok "the mailbox holds each example's report once, its --dry-run bytes" \
	grep -qx 'ok 5' "$T/check.out"
sed 's/^/# /' "$T/check.out" | grep -v '^# ok'

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
