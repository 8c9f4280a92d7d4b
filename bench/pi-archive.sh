#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/pi-archive.sh DIR NMAILS: the archive of bench/run's thread
# workload, in DIR: a git repository DIR/repo of 100 commits on a base
# (DIR/commits lists them, oldest first) and a public-inbox 1.9 v2 inbox
# (DIR/pi, tests/lib-pi.sh's layout) holding NMAILS mails: 25 posted
# series of 4 patches with cover letters, 5 of them posted again as v2
# (of every 10 commits, 4 carry a Link: trailer, 4 are found by patch-id,
# 1 was edited after posting, 1 was never posted), and the rest the
# list's other traffic: threads of reviews and patches of other people.
# Every identity and date is fixed, so the same DIR comes out each time;
# bench/run keeps it in build/bench and builds it once.
set -eu
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
NMAILS=$2
top=$(cd "$(dirname "$0")/.." && pwd)
TOP=$top
. "$top/tests/lib.sh"
. "$top/tests/lib-git.sh"
. "$top/tests/lib-pi.sh"
PI_HOME=$OUT/pi
R=$OUT/repo
M=$OUT/mails
mkdir -p "$M"
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
	git init -q --initial-branch=master "$R"
i=0
while [ $i -lt 100 ]; do
	printf '/* file %03d */\nint v%03d = 0;\n' $i $i >"$R/f$i.c"
	i=$((i + 1))
done
_pi_commit "$R" "Base Author" base@example.org "2024-05-01 10:00:00 +0000" \
	"Base Author" base@example.org "2024-05-01 10:00:00 +0000" "base"

msgid() { printf '<20240601.s%02d-p%d-v%d.bench@example.org>' "$1" "$2" "$3"; }
i=0
while [ $i -lt 100 ]; do
	s=$((i / 4)) p=$((i % 4 + 1))
	msg="sub$s: change $i

Change $i of series $s.

Signed-off-by: Dev $s <dev$s@example.org>"
	[ $((i % 10)) -lt 4 ] && msg="$msg
Link: https://lore.kernel.org/r/$(pi_msgid_path "$(msgid $s $p 1)")"
	printf '/* file %03d */\nint v%03d = %d;\n' $i $i $((i + 1)) >"$R/f$i.c"
	_pi_commit "$R" "Dev $s" "dev$s@example.org" \
		"2024-06-0$((s % 9 + 1)) 10:00:0$p +0000" "Dev $s" \
		"dev$s@example.org" "2024-06-0$((s % 9 + 1)) 10:00:0$p +0000" \
		"$msg"
	i=$((i + 1))
done
git -C "$R" rev-list --reverse master~100..master >"$OUT/commits"
commits=$(cat "$OUT/commits")

post() { # post S VERSION
	_s=$1 _v=$2 _tag=PATCH
	[ "$_v" -gt 1 ] && _tag="PATCH v$_v"
	$PYTHON "$top/tests/tools/pi-mail" --from "Dev $_s <dev$_s@example.org>" \
		--to "$PI_ADDR" --date "Mon, 0$((_s % 9 + 1)) Jun 2024 10:00:00 +0000" \
		--message-id "$(msgid "$_s" 0 "$_v")" \
		--subject "[$_tag 0/4] sub$_s: series $_s" \
		--body "Series $_s.\n" >"$M/s$_s-v$_v-0.eml"
	for _p in 1 2 3 4; do
		_i=$((_s * 4 + _p - 1))
		[ $((_i % 10)) -eq 9 ] && continue # never posted
		_c=$(printf '%s\n' $commits | sed -n "$((_i + 1))p")
		$PYTHON "$top/tests/tools/pi-mail" \
			--from "Dev $_s <dev$_s@example.org>" --to "$PI_ADDR" \
			--date "Mon, 0$((_s % 9 + 1)) Jun 2024 10:00:0$_p +0000" \
			--message-id "$(msgid "$_s" "$_p" "$_v")" \
			--in-reply-to "$(msgid "$_s" 0 "$_v")" \
			--subject "[$_tag $_p/4] sub$_s: change $_i" \
			--patch "$R" "$_c" >"$M/s$_s-v$_v-$_p.eml"
		# edited after posting: the posted diff differs
		if [ $((_i % 10)) -eq 8 ]; then
			sed -i "s|^+int v\\(...\\) = \\(.*\\);|+int v\\1 = \\2; /* posted */|" \
				"$M/s$_s-v$_v-$_p.eml"
		fi
	done
}
s=0
while [ $s -lt 25 ]; do
	post $s 1
	[ $((s % 5)) -eq 0 ] && post $s 2
	s=$((s + 1))
done
# the other traffic: threads of a patch and its reviews, by other people
$PYTHON - "$M" "$((NMAILS - $(ls "$M" | wc -l)))" "$PI_ADDR" <<'PY'
import os, sys
out, n, addr = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for k in range(max(n, 0)):
    t, r = k // 8, k % 8
    mid = "<2024%02d%02d.t%06d-%d.other@example.net>" % (
        t % 12 + 1, t % 28 + 1, t, r)
    root = "<2024%02d%02d.t%06d-0.other@example.net>" % (
        t % 12 + 1, t % 28 + 1, t)
    head = ["From: Other %d <other%d@example.net>" % (t % 500, t % 500),
            "To: " + addr,
            "Date: Mon, %02d Jan 2024 %02d:%02d:%02d +0000" % (
                t % 28 + 1, t % 24, r, k % 60),
            "Message-ID: " + mid]
    if r == 0:
        head.append("Subject: [PATCH] drv%d: fix the probe of device %d"
                    % (t % 97, t))
        body = ("The probe of device %d fails on resume.\n\n"
                "Signed-off-by: Other %d <other%d@example.net>\n---\n"
                " drivers/drv%d.c | 2 +-\n\n"
                "diff --git a/drivers/drv%d.c b/drivers/drv%d.c\n"
                "--- a/drivers/drv%d.c\n+++ b/drivers/drv%d.c\n"
                "@@ -1,3 +1,3 @@\n int drv_probe(void)\n {\n"
                "-\treturn %d;\n+\treturn %d;\n }\n"
                % (t, t % 500, t % 500, t, t, t, t, t, t, t + 1))
    else:
        head += ["Subject: Re: [PATCH] drv%d: fix the probe of device %d"
                 % (t % 97, t), "In-Reply-To: " + root,
                 "References: " + root]
        body = "On Mon, Other wrote:\n> -\treturn %d;\n\nReview %d: fine.\n" % (
            t, r)
    with open(os.path.join(out, "o%06d.eml" % k), "w") as f:
        f.write("\n".join(head) + "\n\n" + body)
PY
pi_init
cd "$M"
ls | xargs -n 5000 sh -c 'p=$1; shift; HOME=$0/home PI_CONFIG=$0/config \
	PI_EMERGENCY=$0/emergency perl "$p" test "$@"' "$PI_HOME" \
	"$top/tests/tools/pi-import"
