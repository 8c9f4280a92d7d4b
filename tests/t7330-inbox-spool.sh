#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7330-inbox-spool: robot inbox reads the spool's messages once a run
# (robot/delivery/msgindex.h), yet each mail's look-up sees the spool as
# it is at that moment, as when the spool was listed for every mail.
# While robot inbox runs, another process queues a message and holds it:
# the first mail's lore link is answered by a server that first runs
# `robot queue add` and `robot queue hold`, so the change falls between
# the first mail and the second, deterministically.  The second mail,
# the list's copy of that message, must be known as robot's own.  The
# spool's folders are made an hour old first, so that what notices the
# change is their mtime, not the second after a change in which robot
# reads a folder again at each look-up.  Then: a message of the spool
# dropped during the run is no longer found; and the inbox opens each
# message of the spool once, whatever the number of mails (strace).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-reply.sh"

REPORT='<202309221737.5eb1e5d1-lkp@intel.com>'
PATCH='<20230925064501.9876-1-rene.levesque@example.org>'
OWN='<202309261200.queued-during-the-run-lkp@intel.com>'
reply_setup

# robot's message queued during the run, and its copy through the list
sed -e "s|^Message-ID: .*|Message-ID: $OWN|" \
	-e 's|^From: .*|From: kernel test robot <lkp@intel.com>|' \
	-e '/^Reply-To: /d' -e '/^List-Id: /d' \
	"$SRC/0012-own-via-list/mail.eml" >"$T/own.eml"
sed "s|^Message-ID: .*|Message-ID: $OWN|" \
	"$SRC/0012-own-via-list/mail.eml" >"$T/list-copy.eml"

# the patch the first mail links to, as the archive answers it (mboxrd)
{
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	echo "From: Rene Levesque <rene.levesque@example.org>"
	echo "To: x86@kernel.org"
	echo "Subject: [PATCH] x86: don't use REP_GOOD or ERMS for small memory clearing"
	echo "Date: Mon, 25 Sep 2023 08:45:01 +0200"
	echo "Message-ID: $PATCH"
	sed -n '/^-- >8 --$/,$p' "$SRC/0001-inline-patch/mail.eml" | sed 1d |
		sed -n '/^$/,$p'
} >"$T/patch.mbox"

# the archive: before its answer, another process changes the spool
# (ACTION: "hold" queues $OWN and holds it, "drop" drops it)
"$PYTHON" - "$T" "$ROBOT" "$T/$CFG" <<'PY' &
import http.server, os, subprocess, sys
t, robot, cfg = sys.argv[1:4]
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        act = open(os.path.join(t, "action")).read().strip()
        with open(os.path.join(t, "lore.log"), "a") as f:
            f.write("%s %s\n" % (act, self.path))
        own = open(os.path.join(t, "own.id")).read().strip()
        if act == "hold":
            subprocess.run([robot, "queue", "-c", cfg, "add",
                            os.path.join(t, "own.eml")], check=True)
        subprocess.run([robot, "queue", "-c", cfg, act, own], check=True)
        body = open(os.path.join(t, "patch.mbox"), "rb").read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_POST = do_GET
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(os.path.join(t, "lore.port.tmp"), "w").write(str(s.server_port))
os.rename(os.path.join(t, "lore.port.tmp"), os.path.join(t, "lore.port"))
s.serve_forever()
PY
lore_pid=$!
i=0
while [ ! -s "$T/lore.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
{
	echo "lore_url: http://127.0.0.1:$(cat "$T/lore.port")/all/"
	echo "lore_cache: $T/lore-cache"
	echo "lore_rate: 0"
} >>"$T/$CFG"
echo "$OWN" >"$T/own.id"

# a follow-up to the report that links to the patch (the first mail)
linked() {
	sed -n '1,/^$/p' "$SRC/0008-no-patch/mail.eml" |
		sed "s|^Message-ID: .*|Message-ID: $1|"
	echo "I posted a fix, could you test it?"
	echo
	echo "  https://lore.kernel.org/r/${PATCH#<}" | sed 's/>$//'
}

M=$T/Maildir
mkdir -p "$M/new" "$M/cur" "$M/tmp"
linked '<linked-1@example.org>' >"$M/new/1.box"
cp "$T/list-copy.eml" "$M/new/2.box"
touch -d '1 hour ago' "$T/spool"/new "$T/spool"/sent "$T/spool"/failed \
	"$T/spool"/hold
echo hold >"$T/action"
robot inbox -c "$CFG" Maildir >"$T/run1" 2>"$T/run1.err"
ok "a message queued during the run: exit 0" test $? -eq 0
R=reply/data/../../requests
cat >"$T/run1.want" <<EOF
<linked-1@example.org>: $R/linked-1@example.org: lore link patch "[PATCH] x86: don't use REP_GOOD or ERMS for small memory clearing"
$OWN: not answered: it is robot's own mail ($OWN is in the spool)
EOF
ok "... the mail after it knows it as robot's own" \
	test_cmp "$T/run1.want" "$T/run1"
ok "... nothing on stderr" test ! -s "$T/run1.err"
ok "... the archive was asked once, the message held by then" \
	test "$(grep -c '^hold /all/' "$T/lore.log")" -eq 1 -a \
	"$(wc -l <"$T/lore.log")" -eq 1
ok "... it is held" test "$(ls "$T/spool/hold" | grep -c '\.eml$')" -eq 1

# a message dropped during the run is no longer one of robot's: a
# retest that answers it, after it, answers none (while the message is
# held, it answers one robot keeps no record of)
rm -f "$M"/new/* "$T/inbox.seen" "$T/lore.log"
rm -rf "$T/requests" "$T/lore-cache"
linked '<linked-2@example.org>' >"$M/new/1.box"
sed -e 's|^Message-ID: .*|Message-ID: <retest-2@example.org>|' \
	-e "s|^References: .*|References: $OWN|" \
	-e "s|^In-Reply-To: .*|In-Reply-To: $OWN|" \
	"$SRC/0008-no-patch/mail.eml" >"$M/new/2.box"
cp "$M/new/2.box" "$T/retest.eml"
robot reply -c "$CFG" --extract-patch "$T/x" --to "$T/retest.eml" \
	>"$T/held.out" 2>&1
ok "while the message is held, the retest answers it" \
	grep -qF "robot keeps no record of $OWN" "$T/held.out"
touch -d '1 hour ago' "$T/spool"/new "$T/spool"/sent "$T/spool"/failed \
	"$T/spool"/hold
echo drop >"$T/action"
robot inbox -c "$CFG" Maildir >"$T/run2" 2>"$T/run2.err"
ok "a message dropped during the run: exit 0" test $? -eq 0
ok "... the mail after it answers none of robot's messages" \
	grep -qxF "<retest-2@example.org>: skipped: it answers none of robot's messages (its In-Reply-To and References are not in the spool)" \
	"$T/run2"
ok "... nothing on stderr" test ! -s "$T/run2.err"
ok "... it is gone" test "$(ls "$T/spool/hold" | grep -c '\.eml$')" -eq 0
kill "$lore_pid"

# two messages with the report's Message-ID (the report, and a copy of
# it queued as it is, which has no record): the older one is the one
# answered, as the spool lists them (oldest first)
report=$(grep -l "^Message-ID: $REPORT" "$T"/spool/new/*.eml)
cp "$report" "$T/copy.eml"
ok "a copy of the report queued as it is" \
	robot queue -c "$CFG" add "$T/copy.eml"
copy=$(ls -t "$T"/spool/new/*.eml | head -1)
touch -d '1 hour ago' "$report"
robot reply -c "$CFG" --extract-patch "$T/x1" \
	--to "$SRC/0001-inline-patch/mail.eml" >"$T/dup1" 2>&1
ok "... the report older: its record answers" \
	grep -qF 'inline patch "[PATCH] x86' "$T/dup1"
touch -d '2 hours ago' "$copy"
robot reply -c "$CFG" --extract-patch "$T/x2" \
	--to "$SRC/0001-inline-patch/mail.eml" >"$T/dup2" 2>&1
ok "... the copy older: it has no record" \
	grep -qF "robot keeps no record of $REPORT" "$T/dup2"
rm -f "$copy"

# each message of the spool opened once, whatever the number of mails
if ! strace -o /dev/null true 2>/dev/null; then
	_ok "the spool read once a run # SKIP strace cannot trace here"
else
	rm -f "$M"/new/* "$T/inbox.seen"
	rm -rf "$T/requests"
	for i in 1 2 3 4 5 6; do
		sed "s|^Message-ID: .*|Message-ID: <many-$i@example.org>|" \
			"$SRC/0001-inline-patch/mail.eml" >"$M/new/$i.box"
	done
	for i in 1 2 3 4 5 6 7 8 9; do
		sed "s|^Message-ID: .*|Message-ID: <sent-$i@intel.com>|" \
			"$T/own.eml" >"$T/spool/sent/0000000000000000000000000000000$i.eml"
	done
	# (LeakSanitizer cannot run under ptrace: the ASan build's leaks are
	# checked by the runs above)
	(cd "$T" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=openat -o "$T/trace" \
		"$ROBOT" inbox -c "$CFG" Maildir) >"$T/run3" 2>"$T/run3.err"
	ok "six mails against a spool of ten messages: exit 0" test $? -eq 0
	ok "... six requests written" \
		test "$(grep -c ': lore link patch\|: inline patch' "$T/run3")" -eq 6
	n=$(ls "$T"/spool/*/*.eml | wc -l)
	ok "... the spool's $n messages each opened once" \
		test "$(grep -cE '/spool/(new|sent|failed|hold)/[^/"]*\.eml", [^)]*\) = [0-9]' \
			"$T/trace")" -eq "$n"
fi

echo "1..$test_n"
test "$test_failed" -eq 0
