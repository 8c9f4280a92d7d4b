#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/send.sh: 1,000 queued reports to a local SMTP sink (postfix's
# smtp-sink on a free loopback port, storing each message), three ways:
#
#   robot        `robot send`: the spool (claim, state file, rename) and
#                libcurl, one connection for the run;
#   git          `git send-email` with the same 1,000 files in one
#                invocation (one connection too);
#   floor        bench/smtp-floor.c: the least a client can do (one
#                connection, TCP_NODELAY, no spool, no parsing).
#
# Targets: robot at least 10x faster than git send-email, and within 2x
# of the floor.  Each message is examples/demo's report (8 recipients)
# with its own Message-ID.  Installs git-email and smtp-sink (postfix,
# unconfigured, never started) when they are missing.  Prints one line
# per client and the two ratios; RUNS=N takes the best of N runs (3) for
# robot and the floor (git send-email runs once: a minute).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ROBOT=${ROBOT:-$top/build/robot}
PYTHON=/usr/bin/python3
N=${N:-1000}
RUNS=${RUNS:-3}
d=$(mktemp -d)
sink=
cleanup() {
	[ -n "$sink" ] && kill "$sink" 2>/dev/null && wait "$sink" 2>/dev/null
	rm -rf "$d"
}
trap cleanup EXIT

need=
[ -x /usr/sbin/smtp-sink ] || need="$need postfix"
for p in git-email libmailtools-perl; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q 'install ok installed' || need="$need $p"
done
if [ -n "$need" ]; then
	echo "bench: installing$need" >&2
	echo "postfix postfix/main_mailer_type select No configuration" |
		debconf-set-selections
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $need >/dev/null
fi
[ -x "$ROBOT" ] || make -C "$top" >/dev/null
mkdir -p "$top/build/bench"
cc -O2 -o "$top/build/bench/smtp-floor" "$top/bench/smtp-floor.c"

# 1,000 messages: the demo report, each with its own Message-ID
"$ROBOT" compose --dry-run -c "$top/examples/demo/robot.yaml" \
	"$top/examples/demo/request.yaml" >"$d/report.eml"
mkdir "$d/mails"
"$PYTHON" - "$d/report.eml" "$d/mails" "$N" <<'PY'
import re, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, "rb").read()
for i in range(n):
    m = re.sub(rb"(?m)^Message-ID: .*$", b"Message-ID: <bench.%04d@example.org>" % i,
               data, count=1)
    open("%s/%04d.eml" % (out, i), "wb").write(m)
PY
rcpts=$("$PYTHON" - "$d/report.eml" <<'PY'
import email.utils, sys
from email.parser import HeaderParser
h = HeaderParser().parse(open(sys.argv[1], encoding="latin-1"))
print(",".join(a for _, a in email.utils.getaddresses(h.get_all("To", []) + h.get_all("Cc", []))))
PY
)
from=$("$PYTHON" -c 'import email.utils, sys
from email.parser import HeaderParser
print(email.utils.parseaddr(HeaderParser().parse(open(sys.argv[1], encoding="latin-1"))["From"])[1])' "$d/report.eml")
size=$(wc -c <"$d/report.eml")

port=$("$PYTHON" -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
chmod 755 "$d"
# -c: a running count of the messages the sink took (not stored: storing
# would make the sink's disk the bottleneck of all three)
/usr/sbin/smtp-sink -c $([ "$(id -u)" -eq 0 ] && echo "-u nobody") \
	"127.0.0.1:$port" 256 >"$d/sink.out" &
sink=$!
sleep 0.5

# taken: how many messages the sink has taken so far
taken() {
	tr '\r' '\n' <"$d/sink.out" | grep -o 'mesg=[0-9]*' | tail -1 |
		sed 's/mesg=//'
}

# run NAME RUNS CMD...: sets best to the best wall time (s) of RUNS runs
# of CMD, each after prepare_NAME and checked to deliver all N; prints it
best=
run() {
	name=$1
	runs=$2
	shift 2
	best=
	r=0
	while [ $r -lt "$runs" ]; do
		prepare_$name
		before=$(taken)
		t=$("$PYTHON" -c '
import subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
if rc:
    sys.exit(rc)
print("%.4f" % (time.monotonic() - t))' "$@")
		sleep 0.2
		got=$(($(taken) - ${before:-0}))
		if [ "$got" -ne "$N" ]; then
			echo "bench: $name delivered $got of $N" >&2
			exit 1
		fi
		best=$("$PYTHON" -c 'import sys
v = [float(x) for x in sys.argv[1:] if x]
print("%.4f" % min(v))' "$t" "$best")
		r=$((r + 1))
	done
	"$PYTHON" -c 'import sys
n, t = int(sys.argv[2]), float(sys.argv[3])
print("%-6s %4d mails in %7.3f s: %8.1f mails/s, %6.2f ms a mail" % (sys.argv[1], n, t, n / t, 1000 * t / n))' \
		"$name" "$N" "$best"
}

prepare_robot() {
	rm -rf "$d/spool"
	printf 'spool: %s\nsmtp_url: smtp://127.0.0.1:%s/robot.example\nsmtp_starttls: opportunistic\n' \
		"$d/spool" "$port" >"$d/robot.yaml"
	"$ROBOT" queue -c "$d/robot.yaml" add "$d"/mails/*.eml >/dev/null
}
prepare_git() {
	:
}
prepare_floor() {
	:
}

echo "bench: $N mails of $size bytes, $(echo "$rcpts" | tr ',' '\n' | wc -l) recipients each, to smtp-sink"
run robot "$RUNS" "$ROBOT" send -c "$d/robot.yaml"
robot_t=$best
run git 1 git send-email --quiet --confirm=never --no-validate \
	--smtp-server=127.0.0.1 --smtp-server-port="$port" \
	--smtp-domain=git.example --no-thread --no-chain-reply-to \
	--suppress-cc=all --no-signed-off-by-cc --from="$from" \
	--to="$(echo "$rcpts" | cut -d, -f1)" "$d"/mails/*.eml
git_t=$best
run floor "$RUNS" "$top/build/bench/smtp-floor" "$port" "$from" "$rcpts" \
	"$d"/mails/*.eml
floor_t=$best
"$PYTHON" -c 'import sys
r, g, f = map(float, sys.argv[1:])
print("robot is %.1fx faster than git send-email (target >= 10x)" % (g / r))
print("robot takes %.2fx the floor (target <= 2x)" % (r / f))' \
	"$robot_t" "$git_t" "$floor_t"
