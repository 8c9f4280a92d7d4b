#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7300-inbox: robot inbox on a Maildir and on an mbox holding the
# follow-ups of tests/reply (see its README).  Every new mail is worked
# on once: the ones with a patch for the queued report get the files
# `robot reply --extract-patch` writes (the same bytes as t7100's
# goldens), the others one line saying why not; a second run finds
# nothing new, the same request arriving twice (directly and through a
# list) is written once, and a second robot inbox while one runs exits
# 75.
. "$(dirname "$0")/lib.sh"

SRC=$TOP/tests/reply
cp -R "$TOP/tests/golden" "$T/golden"
cp -R "$SRC" "$T/reply"
"$PYTHON" "$T/golden/data/make-rts" "$T/golden/data/rt"
CFG=reply/data/robot.yaml

robot() {
	(cd "$T" && "$ROBOT" "$@")
}

ok "the report is queued" robot compose -c "$CFG" reply/data/report.yaml

# a Maildir: the mails in new/ and cur/, as a mail system leaves them
M=$T/Maildir
mkdir -p "$M/new" "$M/cur" "$M/tmp"
cp "$SRC/0001-inline-patch/mail.eml" "$M/new/1695629564.1.box"
cp "$SRC/0004-twice/mail.eml" "$M/new/1695629565.2.box"
cp "$SRC/0004-twice/list-copy.eml" "$M/cur/1695629582.3.box:2,S"
cp "$SRC/0005-own-mail/mail.eml" "$M/new/1695695400.4.box"
cp "$SRC/0006-auto-reply/mail.eml" "$M/new/1695624001.5.box"
cp "$SRC/0007-malformed-mime/mail.eml" "$M/new/1695628800.6.box"
cp "$SRC/0008-no-patch/mail.eml" "$M/new/1695691200.7.box"

robot inbox -c "$CFG" Maildir >"$T/run1" 2>"$T/run1.err"
ok "robot inbox reads the Maildir: exit 0" test $? -eq 0
R=reply/data/../../requests
# in name order: new/ first, then cur/ (whose mail is the list's copy)
cat >"$T/run1.want" <<EOF
<out-of-office-4711@example.org>: not answered: it is an automatic mail (Auto-Submitted: auto-replied)
Maildir/new/1695628800.6.box: skipped: a mail robot cannot read (robot reply --extract-patch says why)
<87zg1a2b3c.fsf@rene.example.org>: $R/87zg1a2b3c.fsf@rene.example.org: inline patch "[PATCH] x86: don't use REP_GOOD or ERMS for small memory clearing"
<87twice01.fsf@rene.example.org>: $R/87twice01.fsf@rene.example.org: inline patch "[PATCH] x86: don't use REP_GOOD or ERMS for small memory clearing"
<CAHk-retest-1234@mail.gmail.com>: skipped: it carries no patch
<202309261030.0badc0de-lkp@intel.com>: not answered: it is robot's own mail (From: lkp@intel.com)
EOF
ok "one line per mail, the list's copy of a request seen once" \
	test_cmp "$T/run1.want" "$T/run1"
ok "... and nothing on stderr" test ! -s "$T/run1.err"
ok "the requests are t7100's" sh -c '
	for f in patch.mbox test-request.yaml; do
		cmp "$1/reply/0001-inline-patch/expect/$f" \
			"$2/87zg1a2b3c.fsf@rene.example.org/$f" || exit 1
	done' _ "$TOP/tests" "$T/requests"
ok "two requests, no more" test "$(ls "$T/requests" | wc -l)" -eq 2
ok "the seen file names every mail" \
	test "$(grep -vc '^file ' "$T/inbox.seen")" -eq 6
# and every Maildir file done, by the name it keeps in cur/, so that the
# next run does not read it again
ls "$M/new" "$M/cur" | grep '\.box' | sed 's/^/file /; s/:.*//' | sort \
	>"$T/files.want"
grep '^file ' "$T/inbox.seen" | sort >"$T/files.got"
ok "... and every Maildir file, once" test_cmp "$T/files.want" "$T/files.got"

robot inbox -c "$CFG" Maildir >"$T/run2" 2>&1
ok "a second run: exit 0" test $? -eq 0
ok "... finds nothing new" test ! -s "$T/run2"

cp "$SRC/0002-attached-patch/mail.eml" "$M/new/1695708930.8.box"
robot inbox -c "$CFG" Maildir >"$T/run3" 2>&1
ok "a new mail: only it is worked on" \
	test "$(cat "$T/run3")" = "<87y1b2c3d4.fsf@rene.example.org>: $R/87y1b2c3d4.fsf@rene.example.org: attached patch \"[PATCH v2] x86: don't use REP_GOOD or ERMS for small memory clearing\""

# an mbox: two mails after their "From " lines
{
	echo "From zoe@kernel.org Wed Sep 27 15:00:00 2023"
	tr -d '\r' <"$SRC/0003-quoted-printable/mail.eml"
	echo
	echo "From digest@example.org Mon Sep 25 09:30:00 2023"
	cat "$SRC/0009-precedence-bulk/mail.eml"
	echo
} >"$T/in.mbox"
robot inbox -c "$CFG" --out mbox-out in.mbox >"$T/run4" 2>&1
ok "an mbox: exit 0" test $? -eq 0
cat >"$T/run4.want" <<EOF
<ZRQxYz0123@zoe.kernel.org>: mbox-out/ZRQxYz0123@zoe.kernel.org: inline patch (a diff without a subject)
<digest-2023-09-25@example.org>: not answered: it is a bulk mail (Precedence: bulk)
EOF
ok "... one line per mail" test_cmp "$T/run4.want" "$T/run4"
ok "... its patch, from the quoted-printable text" \
	cmp "$SRC/0003-quoted-printable/expect/patch.mbox" \
	"$T/mbox-out/ZRQxYz0123@zoe.kernel.org/patch.mbox"

# while one robot inbox runs, another waits for the next cron run
"$PYTHON" -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(30)' "$T/inbox.seen" &
holder=$!
i=0
while [ $i -lt 100 ] && flock -n "$T/inbox.seen" true; do
	sleep 0.1
	i=$((i + 1))
done
expect_code 75 "a second robot inbox at once: exit 75" \
	robot inbox -c "$CFG" Maildir
ok "... naming the seen file" names inbox.seen "another robot inbox"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

expect_code 78 "no inbox given nor configured: exit 78" \
	robot inbox -c "$CFG"
expect_code 65 "a file that is no mbox: exit 65" \
	robot inbox -c "$CFG" reply/README

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
