#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/eml2lkp.sh: the round-trip tool tests/tools/eml2lkp on every
# mail of the corpus of real mails (CORPUS=DIR: its mails/ and
# functional/), one process a mail, and the CPU time (user + sys) of
# each; prints the TOP slowest and the total.  The round-trip checker
# gives eml2lkp 120 s of wall time a mail; eml2lkp stops with one error
# past --budget (doc/roundtrip.md).
#
#   CORPUS=DIR bench/eml2lkp.sh          the whole corpus, TOP=10
#   bench/eml2lkp.sh MAIL...             those mails
#   OUT=/tmp/x ...                       keep each mail's inputs in
#                                        /tmp/x/NAME (with its -v stderr
#                                        and exit code), to diff -r two
#                                        versions' trees
#   EML2LKP=/other/tree/tests/tools/eml2lkp ...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
EML2LKP=${EML2LKP:-$top/tests/tools/eml2lkp}
TOP=${TOP:-10}
if [ $# -eq 0 ]; then
	if [ ! -d "${CORPUS:-}/mails" ]; then
		echo "usage: CORPUS=DIR bench/eml2lkp.sh, or bench/eml2lkp.sh MAIL..." >&2
		exit 2
	fi
	set -- "$CORPUS"/mails/*.eml "$CORPUS"/functional/*.eml
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
out=${OUT:-$d/out}
mkdir -p "$out"
for m in "$@"; do
	n=$(basename "$m" .eml)
	rm -rf "${out:?}/$n"
	rc=0
	/usr/bin/time -o "$d/t" -f '%U %S %e %M' /usr/bin/python3 "$EML2LKP" \
		-v "$m" "$out/$n" 2>"$d/err" || rc=$?
	mkdir -p "$out/$n"
	# the time's own line is not the tool's output
	mv "$d/err" "$out/$n.stderr"
	echo "$rc" >"$out/$n.rc"
	read -r u s e k <"$d/t"
	echo "$n $u $s $e $k" >>"$d/times"
done
echo "mail                                                         cpu_s  wall_s  rss_MB"
sort -k2,2 -g -r "$d/times" | awk -v top="$TOP" '
	NR <= top { printf "%-60s %6.2f %7.2f %7.1f\n", $1, $2 + $3, $4, $5 / 1024 }'
awk '{ c += $2 + $3; if ($2 + $3 > m) m = $2 + $3 }
	END { printf "%d mails, %.1f s CPU in all, the slowest %.2f s\n", NR, c, m }' "$d/times"
