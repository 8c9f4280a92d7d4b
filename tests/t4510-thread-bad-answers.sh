#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t4510-thread-bad-answers: an archive that answers badly gives one clear
# error and the right exit code, never a crash or a wrong thread: a 10 MB
# answer (with and without Content-Length), a gzip bomb, a web page or
# broken gzip where an mbox should be, an mbox without headers (exit 1);
# a timeout, HTTP 429 and 503 (exit 75: try later); HTTP 403 (exit 1).
# Both kinds of request: the thread of a Link: trailer (GET) and a search
# (POST).  Bad lore_* settings are exit 78.  The answers come from a small
# Python server on loopback (tests/tools/bad-lore).
. "$(dirname "$0")/lib.sh"

"$PYTHON" "$TOP/tests/tools/bad-lore" "$T/port" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; cleanup' EXIT
n=0
while [ ! -s "$T/port" ] && [ $n -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
PORT=$(cat "$T/port")
if [ -z "$PORT" ]; then
	_fail "the bad archive starts"
	exit 1
fi

cat >"$T/meta.yaml" <<'EOF'
commits:
- id: 1111111111111111111111111111111111111111
  subject: "mm/foo: add a fast path"
  author: "Alice Developer <alice@example.org>"
  author_date: "2024-06-10 10:00:01 +0000"
  committer: "Alice Developer <alice@example.org>"
  committer_date: "2024-06-10 10:00:01 +0000"
  trailers:
  - "Link: https://lore.kernel.org/r/20240610100001.x@example.org"
- id: 2222222222222222222222222222222222222222
  subject: "mm/foo: add a fast path"
  author: "Alice Developer <alice@example.org>"
  author_date: "2024-06-10 10:00:01 +0000"
  committer: "Alice Developer <alice@example.org>"
  committer_date: "2024-06-10 10:00:01 +0000"
EOF
LINK=1111111111 SEARCH=2222222222

# at MODE [LINE...]: a configuration for the answers of MODE
at() {
	_m=$1
	shift
	{
		printf 'spool: spool\nlore_url: http://127.0.0.1:%s/%s/\n' \
			"$PORT" "$_m"
		printf 'lore_cache_ttl: 0\nlore_rate: 0\n'
		for _l in "$@"; do
			printf '%s\n' "$_l"
		done
	} >"$T/$_m.yaml"
	echo "$T/$_m.yaml"
}

# bad CODE MODE WHAT COMMIT TEXT: exit CODE, one error line holding TEXT
bad() {
	_code=$1 _mode=$2 _what=$3 _c=$4 _text=$5
	shift 5
	expect_code "$_code" "$_mode ($_what): exit $_code" \
		"$ROBOT" thread -c "$(at "$_mode" "$@")" --commits "$T/meta.yaml" \
		"$_c"
	if grep -qF "$_text" "$T/.err"; then
		_ok "$_mode ($_what): says '$_text'"
	else
		_fail "$_mode ($_what): says '$_text'"
		sed 's/^/# /' "$T/.err"
	fi
}

for c in "$LINK thread" "$SEARCH search"; do
	set -- $c
	bad 1 big "$2" "$1" "is larger than 8388608 bytes"
	bad 1 bigstream "$2" "$1" "is larger than 8388608 bytes"
	bad 1 html "$2" "$1" "is not a valid mbox"
	bad 1 badgz "$2" "$1" "is corrupt gzip data"
	bad 75 e503 "$2" "$1" "HTTP 503, try later"
done
bad 1 bomb search "$SEARCH" "unpacks to more than 8388608 bytes"
bad 1 cut search "$SEARCH" "is corrupt gzip data"
bad 1 nohdr search "$SEARCH" "no header fields"
bad 75 e429 search "$SEARCH" "HTTP 429, try later"
bad 1 e403 search "$SEARCH" "unexpected answer HTTP 403"
start=$(date +%s)
bad 75 slow "thread, lore_timeout: 1" "$LINK" "no answer within 1 s" \
	"lore_timeout: 1"
ok "the timeout cut the 5 s answer short" test $(($(date +%s) - start)) -lt 4
bad 1 bigstream "lore_max_bytes: 65536" "$SEARCH" \
	"larger than 65536 bytes" "lore_max_bytes: 65536"

# a well-formed answer without the patch: nothing, exit 0
expect_code 0 "a good answer without the patch: exit 0" \
	"$ROBOT" thread -c "$(at good)" --commits "$T/meta.yaml" "$LINK" "$SEARCH"
printf '%s\n' 1111111111111111111111111111111111111111 \
	2222222222222222222222222222222222222222 >"$T/want"
cp "$T/.out" "$T/good.out"
ok "... and no Message-ID" test_cmp "$T/want" "$T/good.out"

# bad settings: exit 78 naming the key
for kv in "lore_url: ftp://example.org/" "lore_url: lore.kernel.org" \
	"lore_rate: -1" "lore_rate: fast" "lore_timeout: 0" \
	"lore_cache_ttl: soon" "lore_max_bytes: 10"; do
	printf 'spool: spool\n%s\n' "$kv" >"$T/badcfg.yaml"
	expect_code 78 "$kv: exit 78" \
		"$ROBOT" thread -c "$T/badcfg.yaml" --commits "$T/meta.yaml" "$LINK"
	ok "... naming ${kv%%:*}" grep -q "${kv%%:*}" "$T/.err"
done
expect_code 2 "no commit: usage error" "$ROBOT" thread -c "$T/badcfg.yaml"
expect_code 65 "an unknown commit: exit 65" \
	"$ROBOT" thread -c "$(at good)" --commits "$T/meta.yaml" 3333333333
