# SPDX-License-Identifier: GPL-2.0-only
#
# t5000-compose-spool: `robot compose` without --dry-run.  The spool gets
# exactly the bytes --dry-run prints, in new/<name>.eml, and stdout the
# Message-ID; the same report again is "already queued: <first id>" (or
# "already sent: <id>" once send has moved it to sent/), exit 0, nothing
# added.  A request without message_id gets 0-day's form of id from the
# configuration, the same on every run.  Download-link styles publish
# their attachments under <archive_dir>/<YYYYMMDD>/<id>/ when queued, not
# on --dry-run, each with its source's permissions, fsync'd before its
# rename (strace shows it), and a compose killed while publishing leaves
# .NAME.PID.tmp files that the next compose removes.  Two composes at once
# queue one message; a spool key that names no directory is 78, a spool
# that cannot be written 75; a stray file in tmp/ (a compose killed with
# -9) neither blocks nor doubles a later compose, and is removed.

# The sh -c scripts expand their own "$1"...
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
W=$T/w
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
# a config attachment and a job file, as materials
i=0
while [ $i -lt 200 ]; do
	printf 'CONFIG_OPTION_%03d=y\n' $i
	i=$((i + 1))
done >"$W/config-6.3.0-rc7"
printf 'suite: stress-ng\ntestcase: stress-ng\n' >"$W/job.yaml"

# cfg NAME: $T/NAME.yaml with spool $T/NAME.spool, archive $T/NAME.archive
cfg() {
	cat >"$T/$1.yaml" <<EOF
spool: $1.spool
archive_dir: $1.archive
archive_url: https://download.example.org/archive
message_id_user: robot
message_id_domain: ci.example.org
EOF
}

# req NAME [EXTRA-LINE...]: the request $W/NAME.yaml
req() {
	_name=$1
	shift
	{
		base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
		for l in "$@"; do
			printf '%s\n' "$l"
		done
	} >"$W/$_name.yaml"
}

# count DIR: the number of files in DIR (0 when it does not exist)
count() {
	if [ -d "$1" ]; then
		find "$1" -type f | wc -l
	else
		echo 0
	fi
}

# messages SPOOL: the number of files in its state directories
messages() {
	find "$1" -mindepth 2 -type f -name "*.eml" | wc -l
}

# out_is FILE TEXT: FILE holds exactly the line TEXT
out_is() {
	printf '%s\n' "$2" >"$1.want"
	test_cmp "$1.want" "$1"
}

# --- queue exactly the --dry-run bytes ---------------------------------------
ID='<202306071432.0f1e2d3c-oliver.sang@intel.com>'
req one "message_id: \"$ID\"" "attachments: [{path: config-6.3.0-rc7}]"
cfg a
ok "--dry-run prints the message" \
	sh -c 'cd "$1" && "$2" compose --dry-run -c a.yaml "$3" >dry.eml' _ \
	"$T" "$ROBOT" "$W/one.yaml"
ok "--dry-run creates no spool" test ! -e "$T/a.spool"
ok "--dry-run attaches the config as a MIME part" \
	grep -q '^Content-Disposition: attachment; filename="config-6.3.0-rc7"' \
	"$T/dry.eml"
(cd "$T" && "$ROBOT" compose -c a.yaml "$W/one.yaml" >q1.out 2>q1.err)
ok "compose queues: exit 0" test $? -eq 0
ok "compose prints the Message-ID" out_is "$T/q1.out" "$ID"
ok "compose prints nothing on stderr" test ! -s "$T/q1.err"
ok "one message in new/" test "$(count "$T/a.spool/new")" -eq 1
Q=$(find "$T/a.spool/new" -type f)
NAME=$(basename "$Q" .eml)
ok "it is new/<32 hex digits>.eml" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^[0-9a-f]{32}\$"' _ "$NAME"
ok "it holds exactly the --dry-run bytes" cmp "$T/dry.eml" "$Q"
ok "tmp/ is empty afterwards" test "$(count "$T/a.spool/tmp")" -eq 0
ok "a style that attaches publishes nothing" test ! -e "$T/a.archive"

# --- the same report again ------------------------------------------------------
(cd "$T" && "$ROBOT" compose -c a.yaml "$W/one.yaml" >q2.out 2>q2.err)
ok "again: exit 0" test $? -eq 0
ok "again: already queued, with the first id" \
	out_is "$T/q2.out" "already queued: $ID"
ok "again: nothing added" test "$(messages "$T/a.spool")" -eq 1
ok "again: the queued file is untouched" cmp "$T/dry.eml" "$Q"
req other "message_id: \"<other.1@example.org>\"" \
	"attachments: [{path: config-6.3.0-rc7}]"
(cd "$T" && "$ROBOT" compose -c a.yaml "$W/other.yaml" >q3.out 2>q3.err)
ok "the same report under another id: already queued, the first id" \
	out_is "$T/q3.out" "already queued: $ID"
mv "$Q" "$T/a.spool/hold/"
(cd "$T" && "$ROBOT" compose -c a.yaml "$W/one.yaml" >q4.out 2>q4.err)
ok "held: already queued" out_is "$T/q4.out" "already queued: $ID"
mv "$T/a.spool/hold/$NAME.eml" "$T/a.spool/sent/"
(cd "$T" && "$ROBOT" compose -c a.yaml "$W/one.yaml" >q5.out 2>q5.err)
ok "sent: exit 0" test $? -eq 0
ok "sent: already sent, with the id" out_is "$T/q5.out" "already sent: $ID"
ok "sent: nothing added" test "$(messages "$T/a.spool")" -eq 1
ok "sent: new/ stays empty" test "$(count "$T/a.spool/new")" -eq 0

# --- a generated Message-ID ---------------------------------------------------------
req gen
cfg b
cfg c
"$ROBOT" compose -c "$T/b.yaml" "$W/gen.yaml" >"$T/g1.out" 2>&1
GEN=$(cat "$T/g1.out")
ok "no message_id: 0-day's form <YYYYMMDDhhmm.hex-user@domain>" \
	sh -c 'printf "%s\n" "$1" |
		grep -Eqx "<202306071432\\.[0-9a-f]{8}-robot@ci\\.example\\.org>"' \
	_ "$GEN"
ok "the queued message carries it" \
	grep -qx "Message-ID: $GEN" "$T/b.spool/new/"*.eml
ok "--dry-run shows the same id" \
	sh -c '"$1" compose --dry-run -c "$2" "$3" | grep -qx "Message-ID: $4"' \
	_ "$ROBOT" "$T/b.yaml" "$W/gen.yaml" "$GEN"
"$ROBOT" compose -c "$T/c.yaml" "$W/gen.yaml" >"$T/g2.out" 2>&1
ok "another spool, another run: the same id" out_is "$T/g2.out" "$GEN"
ok "and the same bytes" cmp "$T/b.spool/new/"*.eml "$T/c.spool/new/"*.eml
"$ROBOT" compose -c "$T/b.yaml" "$W/gen.yaml" >"$T/g3.out" 2>&1
ok "again: already queued with the generated id" \
	out_is "$T/g3.out" "already queued: $GEN"
(
	unset TZ
	SOURCE_DATE_EPOCH=1686119537
	export SOURCE_DATE_EPOCH
	sed '/^date:/d' "$W/gen.yaml" >"$W/nodate.yaml"
	cfg d
	"$ROBOT" compose -c "$T/d.yaml" "$W/nodate.yaml" >"$T/g4.out" 2>&1
	"$ROBOT" compose --dry-run -c "$T/d.yaml" "$W/nodate.yaml" >"$T/g4.eml"
)
ok "no date: SOURCE_DATE_EPOCH with the config's zone makes the id" \
	sh -c 'grep -Eqx "<202306070632\\.[0-9a-f]{8}-robot@ci\\.example\\.org>" "$1"' \
	_ "$T/g4.out"
ok "no date: the queued bytes are the --dry-run bytes" \
	cmp "$T/g4.eml" "$T/d.spool/new/"*.eml

# --- a download-link style publishes the materials -------------------------------
req dl 'date: "2023-09-22 10:00:00 +0800"' \
	"attachments: [{path: config-6.3.0-rc7}, {path: job.yaml, name: job-script}]"
sed -i '1d' "$W/dl.yaml"
cfg e
(cd "$T" && "$ROBOT" compose --dry-run -c e.yaml "$W/dl.yaml" >dl.eml)
ok "download link: --dry-run exits 0" test $? -eq 0
ok "download link: --dry-run publishes nothing" test ! -e "$T/e.archive"
ok "download link: no attachment in the mail" \
	sh -c '! grep -qi "^Content-Disposition: attachment" "$1"' _ "$T/dl.eml"
(cd "$T" && "$ROBOT" compose -c e.yaml "$W/dl.yaml" >dl.out 2>dl.err)
ok "download link: queued, exit 0" test $? -eq 0
DLID=$(cat "$T/dl.out")
BARE=${DLID#<}
BARE=${BARE%>}
DIR=$T/e.archive/20230922/$BARE
ok "download link: the mail links <archive_url>/<YYYYMMDD>/<id>" \
	grep -qx "https://download.example.org/archive/20230922/$BARE" "$T/dl.eml"
ok "download link: the config is published" \
	cmp "$W/config-6.3.0-rc7" "$DIR/config-6.3.0-rc7"
ok "download link: the job file under its name" \
	cmp "$W/job.yaml" "$DIR/job-script"
ok "download link: nothing else is published" \
	test "$(count "$T/e.archive")" -eq 2
ok "download link: the queued bytes are the --dry-run bytes" \
	cmp "$T/dl.eml" "$T/e.spool/new/"*.eml
(cd "$T" && "$ROBOT" compose -c e.yaml "$W/dl.yaml" >dl2.out 2>dl2.err)
ok "download link again: already queued, the materials unchanged" \
	sh -c 'grep -qx "already queued: $1" "$2" &&
		cmp "$3" "$4/config-6.3.0-rc7" &&
		test "$(find "$5" -type f | wc -l)" -eq 2' _ \
	"$DLID" "$T/dl2.out" "$W/config-6.3.0-rc7" "$DIR" "$T/e.archive"

# --- every file is on disk before its name appears (strace) ----------------------------
# Each published material is fsync'd before it is renamed into place, the
# folder before the message is queued; the queued message is fsync'd
# before it is linked into new/, and new/ after.
cfg sy
if ! strace -o /dev/null true 2>/dev/null; then
	echo "ok - # SKIP strace cannot trace here"
else
strace -e trace=openat,fsync,rename,link -o "$T/sy.trace" \
	"$ROBOT" compose -c "$T/sy.yaml" "$W/dl.yaml" >"$T/sy.out" 2>&1
ok "compose under strace: queued" test "$(count "$T/sy.spool/new")" -eq 1
"$PYTHON" - "$T/sy.trace" <<'PY' >"$T/sy.check" 2>&1
import re, sys
fds, synced, order = {}, set(), []
for line in open(sys.argv[1]):
    m = re.match(r'openat\(AT_FDCWD, "([^"]*)", .*\)\s+= (\d+)', line)
    if m:
        fds[int(m.group(2))] = m.group(1)
        continue
    m = re.match(r'fsync\((\d+)\)\s+= 0', line)
    if m and int(m.group(1)) in fds:
        synced.add(fds[int(m.group(1))])
        order.append(("fsync", fds[int(m.group(1))]))
        continue
    m = re.match(r'(rename|link)\("([^"]*)", "([^"]*)"\)\s+= 0', line)
    if m:
        order.append((m.group(1), m.group(2), m.group(3)))
        src = m.group(2)
        if (src.endswith(".tmp") or "/tmp/" in src) and src not in synced:
            sys.exit("not fsync'd before %s: %s" % (m.group(1), src))
renames = [o for o in order if o[0] == "rename" and o[1].endswith(".tmp")]
links = [o for o in order if o[0] == "link"]
assert len(renames) == 2, order
assert len(links) == 1, order
i_link = order.index(links[0])
dirs = [i for i, o in enumerate(order) if o[0] == "fsync" and o[1].endswith("/20230922/" + renames[0][2].split("/")[-2])]
assert dirs and dirs[0] < i_link, ("archive folder not fsync'd before queueing", order)
assert any(o[0] == "fsync" and o[1].endswith("/new") for o in order[i_link:]), ("new/ not fsync'd", order)
print("ok")
PY
ok "materials and message are fsync'd before their rename and link" \
	grep -qx ok "$T/sy.check"
sed 's/^/# /' "$T/sy.check" | grep -v '^# ok$'
fi

# --- published materials keep their source's mode; a killed publish is undone ---------
chmod 0600 "$W/config-6.3.0-rc7"
chmod 0644 "$W/job.yaml"
cfg m
(cd "$T" && "$ROBOT" compose -c m.yaml "$W/dl.yaml" >/dev/null 2>&1)
MDIR=$T/m.archive/20230922/$BARE
ok "a 0600 source is published 0600, not world-readable" \
	test "$(stat -c %a "$MDIR/config-6.3.0-rc7")" = 600
ok "a 0644 source is published 0644" \
	test "$(stat -c %a "$MDIR/job-script")" = 644
chmod 0640 "$W/config-6.3.0-rc7"
cfg m2
(cd "$T" && umask 077 && "$ROBOT" compose -c m2.yaml "$W/dl.yaml" >/dev/null 2>&1)
ok "a 0640 source is published 0640, whatever the umask" \
	test "$(stat -c %a "$T/m2.archive/20230922/$BARE/config-6.3.0-rc7")" = 640
ok "... and a 0644 one 0644" \
	test "$(stat -c %a "$T/m2.archive/20230922/$BARE/job-script")" = 644
chmod 0644 "$W/config-6.3.0-rc7"
cfg n
(cd "$T" && ROBOT_TEST_CRASH=publish "$ROBOT_CRASH" compose -c n.yaml "$W/dl.yaml" \
	>n1.out 2>&1)
ok "killed while publishing (test crash point): SIGKILL" test $? -eq 137
NDIR=$T/n.archive/20230922/$BARE
ok "... it left its .NAME.PID.tmp in the archive folder" \
	test "$(find "$NDIR" -name '.*.tmp' | wc -l)" -eq 1
ok "... and queued nothing" test "$(count "$T/n.spool/new")" -eq 0
(cd "$T" && ROBOT_TEST_CRASH=publish:2 "$ROBOT_CRASH" compose -c n.yaml \
	"$W/dl.yaml" >n2.out 2>&1)
ok "killed again, at the second material" test $? -eq 137
ok "... one stray file still (the first was removed)" \
	test "$(find "$NDIR" -name '.*.tmp' | wc -l)" -eq 1
(cd "$T" && "$ROBOT" compose -c n.yaml "$W/dl.yaml" >n3.out 2>&1)
ok "the next compose queues the report" out_is "$T/n3.out" "$DLID"
ok "... and removes the stray files" \
	test "$(find "$NDIR" -name '.*' -type f | wc -l)" -eq 0
ok "... the materials are whole" \
	sh -c 'cmp "$1/config-6.3.0-rc7" "$2/config-6.3.0-rc7" &&
		cmp "$1/job.yaml" "$2/job-script" &&
		test "$(find "$2" -type f | wc -l)" -eq 2' _ "$W" "$NDIR"
ok "... queued once, tmp/ empty" \
	sh -c 'test "$(find "$1/new" -type f | wc -l)" -eq 1 &&
		test "$(find "$1/tmp" -type f | wc -l)" -eq 0' _ "$T/n.spool"

# --- two composes at once -----------------------------------------------------------
round=1
while [ $round -le 5 ]; do
	cfg "r$round"
	"$ROBOT" compose -c "$T/r$round.yaml" "$W/one.yaml" >"$T/r$round.o1" 2>&1 &
	p1=$!
	"$ROBOT" compose -c "$T/r$round.yaml" "$W/one.yaml" >"$T/r$round.o2" 2>&1 &
	p2=$!
	wait $p1
	rc1=$?
	wait $p2
	rc2=$?
	ok "at once ($round): both exit 0" test $rc1 -eq 0 -a $rc2 -eq 0
	ok "at once ($round): one queued file" \
		test "$(count "$T/r$round.spool/new")" -eq 1
	cat "$T/r$round.o1" "$T/r$round.o2" | sort >"$T/r$round.out"
	printf '%s\nalready queued: %s\n' "$ID" "$ID" | sort >"$T/r$round.want"
	ok "at once ($round): one id and one 'already queued'" \
		test_cmp "$T/r$round.want" "$T/r$round.out"
	round=$((round + 1))
done

# --- a spool that cannot be created: the configuration's fault (78) ----------------
printf 'not a directory\n' >"$T/plain"
printf 'spool: %s\n' "$T/plain/spool" >"$T/f.yaml"
expect_code 78 "a spool under a regular file: exit 78, one error line" \
	"$ROBOT" compose -c "$T/f.yaml" "$W/one.yaml"
ok "the error names the configuration, the key and the spool" \
	grep -qF "$T/f.yaml: spool: '$T/plain/spool'" "$T/.err"
printf 'spool: %s\n' "$T/no/such/parent" >"$T/f2.yaml"
expect_code 78 "a spool whose parent does not exist: exit 78, one error line" \
	"$ROBOT" compose -c "$T/f2.yaml" "$W/one.yaml"
printf 'spool: %s\n' "$T/plain" >"$T/f3.yaml"
expect_code 78 "a spool that is a regular file: exit 78, one error line" \
	"$ROBOT" compose -c "$T/f3.yaml" "$W/one.yaml"

# --- a spool that cannot be written: temporary (75), cron retries ---------------------
# read_only DIR CMD...: runs CMD while DIR cannot be written (a read-only
# bind mount in a private mount namespace as root, else the permissions)
read_only() {
	_dir=$1
	shift
	if [ "$(id -u)" -ne 0 ]; then
		chmod -R a-w "$_dir"
		"$@"
		_rc=$?
		chmod -R u+w "$_dir"
		return $_rc
	fi
	unshare -m sh -c 'mount --bind -o ro "$1" "$1" && shift && exec "$@"' \
		_ "$_dir" "$@"
}
if [ "$(id -u)" -ne 0 ] ||
	unshare -m sh -c 'mount --bind -o ro "$1" "$1"' _ "$T" 2>/dev/null; then
	cfg ro
	(cd "$T" && "$ROBOT" compose -c ro.yaml "$W/gen.yaml" >/dev/null)
	expect_code 75 "a read-only spool: exit 75, one error line" \
		read_only "$T/ro.spool" "$ROBOT" compose -c "$T/ro.yaml" "$W/one.yaml"
	ok "the error names the spool" grep -qF "$T/ro.spool" "$T/.err"
	ok "nothing was queued" test "$(count "$T/ro.spool/new")" -eq 1
	cfg ro2
	mkdir "$T/ro2.spool"
	expect_code 75 "a read-only empty spool: exit 75" \
		read_only "$T/ro2.spool" "$ROBOT" compose -c "$T/ro2.yaml" "$W/one.yaml"
else
	echo "ok - # SKIP no way to make a read-only directory here"
fi

# --- a compose killed with -9 left files in tmp/ ------------------------------------
cfg k
mkdir -p "$T/k.spool/tmp"
printf 'From: half a mess' >"$T/k.spool/tmp/$NAME.1"
printf 'From: half a mess' >"$T/k.spool/tmp/$NAME.99999"
# the next compose has the dead one's pid: sh -c execs robot under its $$
ok "stray files in tmp/, one with our own pid: compose queues" \
	sh -c 'printf "From: half" >"$1/tmp/$2.$$" && exec "$3" compose -c "$4" "$5" >"$6"' \
	_ "$T/k.spool" "$NAME" "$ROBOT" "$T/k.yaml" "$W/one.yaml" "$T/k1.out"
ok "... and prints the id" out_is "$T/k1.out" "$ID"
ok "... one message in new/, the --dry-run bytes" \
	sh -c 'test "$(find "$1/new" -type f | wc -l)" -eq 1 &&
		cmp "$2" "$1/new/$3.eml"' _ "$T/k.spool" "$T/dry.eml" "$NAME"
"$ROBOT" compose -c "$T/k.yaml" "$W/one.yaml" >"$T/k2.out" 2>&1
ok "a compose after that: already queued" out_is "$T/k2.out" "already queued: $ID"
ok "the strays queue nothing" test "$(count "$T/k.spool/new")" -eq 1
# killed between link() and unlink(): the message is in new/ and in tmp/
cfg l
mkdir -p "$T/l.spool/new" "$T/l.spool/tmp"
cp "$T/dry.eml" "$T/l.spool/new/$NAME.eml"
cp "$T/dry.eml" "$T/l.spool/tmp/$NAME.4242"
"$ROBOT" compose -c "$T/l.yaml" "$W/one.yaml" >"$T/l.out" 2>&1
ok "killed after the link: already queued, not doubled" \
	sh -c 'grep -qx "already queued: $1" "$2" &&
		test "$(find "$3/new" -type f | wc -l)" -eq 1' _ \
	"$ID" "$T/l.out" "$T/l.spool"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
