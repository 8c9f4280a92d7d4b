# SPDX-License-Identifier: GPL-2.0-only
#
# t5270-json-commands: --json of compose, reply and inbox, read back with
# Python's json module: one object a line, every field doc/commands.md
# lists, of its type.  compose: queued, already queued, a --force
# correction, and --dry-run (the message as text and as base64 of the
# exact bytes --dry-run prints without --json).  reply --extract-patch:
# written; a mail not answered.  inbox: one object a new mail, the same
# outcomes as its lines.  (robot thread --json: t4500, beside its archive.)
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
SMALL=$TOP/tests/data/compare/small
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$T/"
printf 'spool: spool\narchive_dir: archive\nmessage_id_user: robot\nmessage_id_domain: example.org\n' >a.yaml
{
	base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
	echo 'note: "Mesuré : ± 1%."'
} >one.yaml
{
	base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
	echo 'note: "Mesuré : ± 2%."'
	echo 'message_id: "<fixed.1@example.org>"'
} >fix.yaml

# check FILE PYTHON: the one JSON object a line of FILE as `objs`
check() {
	"$PYTHON" -c 'import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
exec(sys.argv[2])' "$1" "$2"
}

"$ROBOT" compose --json -c a.yaml one.yaml >q1.json
ok "compose --json: queued" check q1.json '
(o,) = objs
assert sorted(o) == ["corrects", "corrects_state", "event", "first",
                     "in_reply_to", "message_id"], o
assert o["event"] == "queued" and o["message_id"].startswith("<"), o
assert o["first"] is None and o["corrects"] is None, o'
"$ROBOT" compose --json -c a.yaml one.yaml >q2.json
ok "... again: already queued, with the first Message-ID" check q2.json '
(o,) = objs
first = json.load(open("q1.json"))["message_id"]
assert o["event"] == "already queued" and o["first"] == first, o'
"$ROBOT" compose --json --force -c a.yaml fix.yaml >q3.json
ok "... --force: queued, correcting the first copy, still queued" check q3.json '
(o,) = objs
first = json.load(open("q1.json"))["message_id"]
assert o["event"] == "queued" and o["message_id"] == "<fixed.1@example.org>", o
assert o["corrects"] == first and o["corrects_state"] == "queued", o'

"$ROBOT" compose --dry-run -c a.yaml one.yaml >dry.eml
"$ROBOT" compose --dry-run --json -c a.yaml one.yaml >dry.json
ok "compose --dry-run --json: the message, its exact bytes in base64" \
	check dry.json '
import base64
(o,) = objs
assert sorted(o) == ["bytes", "message", "message_base64", "message_id"], o
raw = open("dry.eml", "rb").read()
assert base64.b64decode(o["message_base64"]) == raw
assert o["bytes"] == len(raw)
# an ISO-8859-1 body is no UTF-8 text: message is null then
try:
    want = raw.decode("utf-8")
except UnicodeDecodeError:
    want = None
assert o["message"] == want, (o["message"], want)
assert o["message_id"] in raw.decode("latin-1")'

# --- reply and inbox, on tests/reply's follow-ups ---------------------------------
SRC=$TOP/tests/reply
cp -R "$TOP/tests/golden" "$T/golden"
cp -R "$SRC" "$T/reply"
"$PYTHON" "$T/golden/data/make-rts" "$T/golden/data/rt"
CFG=reply/data/robot.yaml
"$ROBOT" compose -c "$CFG" reply/data/report.yaml >/dev/null
"$ROBOT" reply --json -c "$CFG" --extract-patch x1 \
	--to reply/0001-inline-patch/mail.eml >r1.json 2>r1.err
ok "reply --extract-patch --json: written, with the folder and the reason" \
	check r1.json '
(o,) = objs
assert o == {"event": "written", "dir": "x1",
             "reason": o["reason"]} and "inline patch" in o["reason"], o'
ok "... the files are there" test -s x1/test-request.yaml -a -s x1/patch.mbox
"$ROBOT" reply --json -c "$CFG" --extract-patch x2 \
	--to reply/0006-auto-reply/mail.eml >r2.json 2>r2.err
ok "... a mail not answered: its line on stderr" grep -q "not answered" r2.err
ok "... and its object" check r2.json '
(o,) = objs
assert o["event"] == "not answered" and o["dir"] is None, o
assert "automatic" in o["reason"], o'

M=$T/Maildir
mkdir -p "$M/new" "$M/cur" "$M/tmp"
cp "$SRC/0001-inline-patch/mail.eml" "$M/new/1695629564.1.box"
cp "$SRC/0006-auto-reply/mail.eml" "$M/new/1695624001.5.box"
cp "$SRC/0007-malformed-mime/mail.eml" "$M/new/1695628800.6.box"
cp "$SRC/0008-no-patch/mail.eml" "$M/new/1695691200.7.box"
"$ROBOT" inbox --json -c "$CFG" --out in-out Maildir >i.json 2>i.err
ok "inbox --json: exit 0, nothing on stderr" \
	sh -c 'test "$0" -eq 0 && test ! -s i.err' "$?"
ok "... one object a new mail, with its outcome" check i.json '
assert all(sorted(o) == ["dir", "event", "mail", "message_id", "reason"]
           for o in objs), objs
got = [(o["event"], o["message_id"], o["dir"]) for o in objs]
want = [("not answered", "<out-of-office-4711@example.org>", None),
        ("skipped", None, None),
        ("written", "<87zg1a2b3c.fsf@rene.example.org>",
         "in-out/87zg1a2b3c.fsf@rene.example.org"),
        ("skipped", "<CAHk-retest-1234@mail.gmail.com>", None)]
assert got == want, got
assert objs[1]["mail"] == "Maildir/new/1695628800.6.box", objs[1]'

echo "1..$test_n"
