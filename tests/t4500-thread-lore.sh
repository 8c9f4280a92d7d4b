#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t4500-thread-lore: `robot thread` and compose's threading against a real
# public-inbox 1.9 archive on loopback (tests/lib-pi.sh: a 3-patch series
# posted as v1 and v2, replies, an unrelated thread, and a repository of
# the commits).  robot finds the patch by a Link: or Message-Id: trailer,
# by patch-id (the newest revision carrying the patch wins) and by
# subject and author; prints nothing for a commit never posted; resolves
# Message-IDs with / + % =; answers again from its cache; spaces its
# requests; exits 75 when the archive is down.  A report composed with
# thread_lookup replies to the patch (Subject, In-Reply-To, no References,
# recipients, the patch link line, the note on a newer revision), and fed
# back into the archive it shows in the patch's thread.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-git.sh"
. "$TOP/tests/lib-pi.sh"

FX=$T/fx
R=$FX/repo
if ! { pi_fixture_series "$FX" && pi_init && pi_add "$FX"/mails/*.eml &&
	pi_start; }; then
	_fail "a public-inbox archive on loopback"
	exit 1
fi
_ok "a public-inbox archive serves the series at $PI_URL"

# What public-inbox 1.9 accepts, which robot relies on: an mbox (x=m) only
# for a POST with the query in the URL; a GET gets the HTML page, and a
# query in a POST's body is not read.
"$PYTHON" - "$PI_URL" >"$T/methods" <<'EOF'
import sys, urllib.error, urllib.request
base, q = sys.argv[1], "q=s:%22fast%20path%22&x=m"
def answer(req):
    try:
        r = urllib.request.urlopen(req, timeout=10)
        return "%d %s" % (r.status, r.headers.get_content_type())
    except urllib.error.HTTPError as e:
        return "%d" % e.code
print("GET", answer(urllib.request.Request(base + "?" + q)))
print("POST", answer(urllib.request.Request(base + "?" + q, data=b"",
                                            method="POST")))
print("POST body", answer(urllib.request.Request(base, data=q.encode(),
                                                 method="POST")))
EOF
printf '%s\n' "GET 200 text/html" "POST 200 application/gzip" \
	"POST body 404" >"$T/want"
ok "public-inbox answers x=m with an mbox only on POST" \
	test_cmp "$T/want" "$T/methods"

# conf NAME [LINE...]: $T/NAME.yaml, its own cache $T/NAME.cache
conf() {
	_c=$1
	shift
	{
		printf 'spool: %s.spool\n' "$_c"
		printf 'lore_url: %s\n' "$PI_URL"
		printf 'lore_cache: %s.cache\n' "$_c"
		printf 'lore_rate: %s\n' "${RATE:-0}"
		printf 'message_id_user: robot\nmessage_id_domain: ci.example.org\n'
		printf 'archive_url: https://ci.example.org/archive\nlist_archive_url: https://lists.example.org/ci\n'
		printf 'cc: ["<oe-lkp@lists.linux.dev>", "Zoë Reviewer <ZOE@example.net>"]\n'
		for _l in "$@"; do
			printf '%s\n' "$_l"
		done
	} >"$T/$_c.yaml"
}
conf main
CFG=$T/main.yaml

# thread_is DESC REV WANT: robot thread prints WANT (empty: nothing)
thread_is() {
	_d=$1 _rev=$2 _want=$3
	"$ROBOT" thread -c "$CFG" --repo "$R" "$_rev" >"$T/got" 2>"$T/err"
	_rc=$?
	if [ -n "$_want" ]; then
		printf '%s\n' "$_want" >"$T/want"
	else
		: >"$T/want"
	fi
	if [ $_rc -eq 0 ] && [ ! -s "$T/err" ] && test_cmp "$T/want" "$T/got" \
		>"$T/diff"; then
		_ok "$_d"
	else
		_fail "$_d (exit $_rc)"
		sed 's/^/# /' "$T/diff" "$T/err"
	fi
}

# --- the three ways, in order ------------------------------------------
thread_is "a Link: trailer (percent-encoded id) finds v2 1/3" \
	applied~2 "$PI_V2_1"
thread_is "a Message-Id: trailer finds v2 3/3" applied "$PI_V2_3"
thread_is "patch-id: v1 1/3, unchanged in v2, replies to v2 (the newest)" \
	v1~2 "$PI_V2_1"
thread_is "patch-id: v1 2/3, changed in v2, replies to v1 2/3" \
	v1~1 "$PI_V1_2"
thread_is "patch-id: v1 3/3 replies to v2 3/3" v1 "$PI_V2_3"
thread_is "patch-id: v2 2/3 replies to v2 2/3" v2~1 "$PI_V2_2"
thread_is "subject and author: an edited 2/3 replies to v2 2/3" \
	applied~1 "$PI_V2_2"
thread_is "a commit never posted: nothing" unknown ""
thread_is "a Link: to a mail that does not exist: nothing" dead-link ""
thread_is "a dead Link: is passed over for the patch-id" \
	dead-link-patch "$PI_V2_1"

"$ROBOT" thread -v -c "$CFG" --repo "$R" v1~1 >/dev/null 2>"$T/v"
ok "-v says how it was found and names the newer revision" \
	grep -qF "(by patch-id, v1); newer: v2 $PI_V2_2" "$T/v"

# several commits: "id msgid", or the id alone
"$ROBOT" thread -c "$CFG" --repo "$R" v2~1 unknown >"$T/got"
{
	printf '%s %s\n' "$(git -C "$R" rev-parse v2~1)" "$PI_V2_2"
	git -C "$R" rev-parse unknown
} >"$T/want"
ok "several commits: one line each" test_cmp "$T/want" "$T/got"

# --json: one object a commit, found or not
"$ROBOT" thread --json -c "$CFG" --repo "$R" v1~1 unknown >"$T/got.json"
ok "--json: one object a commit, the found one with how and its newer v2" \
	"$PYTHON" -c 'import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
keys = ["commit", "how", "message_id", "newer_message_id", "newer_version",
        "subject", "url", "version"]
assert [sorted(o) for o in objs] == [keys, keys], objs
a, b = objs
assert a["commit"] == sys.argv[2] and a["how"] == "patch-id", a
assert a["version"] == 1 and a["newer_version"] == 2, a
assert a["newer_message_id"] == sys.argv[3] and a["url"].startswith("http"), a
assert b["commit"] == sys.argv[4] and b["message_id"] is None, b
assert all(b[k] is None for k in keys if k != "commit"), b' \
	"$T/got.json" "$(git -C "$R" rev-parse v1~1)" "$PI_V2_2" \
	"$(git -C "$R" rev-parse unknown)"

# --- Link: URL forms and a metadata file (no patch-ids) ----------------
v22=$(printf '%s' "$PI_V2_2" | tr -d '<>')
v23=$(printf '%s' "$PI_V2_3" | tr -d '<>')
cat >"$T/meta.yaml" <<EOF
commits:
- id: 1111111111111111111111111111111111111111
  subject: "$PI_S2"
  author: "Alice Developer <alice@example.org>"
  author_date: "2024-06-10 10:00:02 +0000"
  committer: "Andrew Maintainer <akpm@example.org>"
  committer_date: "2024-06-12 09:00:01 +0000"
- id: 2222222222222222222222222222222222222222
  subject: "unrelated: a raw id in a link"
  trailers:
  - "Link: https://lore.kernel.org/all/$v22/"
- id: 3333333333333333333333333333333333333333
  subject: "unrelated: patch.msgid.link"
  trailers:
  - "Link: https://patch.msgid.link/$(pi_msgid_path "$PI_V2_3")"
- id: 4444444444444444444444444444444444444444
  subject: "unrelated: lkml and a view"
  trailers:
  - "Link: https://lkml.kernel.org/r/$(pi_msgid_path "$PI_V2_1")/T/#u"
- id: 5555555555555555555555555555555555555555
  subject: "$PI_S2"
  author: "Somebody Else <else@example.org>"
  author_date: "2024-06-10 10:00:02 +0000"
  committer: "Somebody Else <else@example.org>"
  committer_date: "2024-06-12 09:00:01 +0000"
EOF
# the linked mail must be this commit's patch: here the subjects differ
"$ROBOT" thread -c "$CFG" --commits "$T/meta.yaml" 1111111111 2222222222 \
	3333333333 4444444444 5555555555 >"$T/got"
cat >"$T/want" <<EOF
1111111111111111111111111111111111111111 $PI_V2_2
2222222222222222222222222222222222222222
3333333333333333333333333333333333333333
4444444444444444444444444444444444444444
5555555555555555555555555555555555555555
EOF
ok "metadata file: subject and author; links to other patches do not count" \
	test_cmp "$T/want" "$T/got"
# now with the subjects of the patches they link
sed -i -e "s|unrelated: a raw id in a link|$PI_S2|" \
	-e "s|unrelated: patch.msgid.link|$PI_S3|" \
	-e "s|unrelated: lkml and a view|$PI_S1|" "$T/meta.yaml"
"$ROBOT" thread -c "$CFG" --commits "$T/meta.yaml" 2222222222 3333333333 \
	4444444444 >"$T/got"
cat >"$T/want" <<EOF
2222222222222222222222222222222222222222 $PI_V2_2
3333333333333333333333333333333333333333 $PI_V2_3
4444444444444444444444444444444444444444 $PI_V2_1
EOF
ok "Link: forms: a raw '/' in the id, patch.msgid.link, lkml /r/ .../T/#u" \
	test_cmp "$T/want" "$T/got"

# --- the archive's own view of those ids --------------------------------
for id in "$PI_V2_0" "$PI_V2_1" "$PI_V2_2" "$PI_V2_3"; do
	pi_get "$(pi_msgid_path "$id")/raw" | grep -qF "Message-ID: $id"
	ok "the archive serves $id percent-encoded" test $? -eq 0
done

# --- compose: a report replying to the patch ----------------------------
W=$T/w
mkdir -p "$W"
cp -R "$TOP/tests/data/compare/small/rt0" "$TOP/tests/data/compare/small/rt1" \
	"$W/"
base=$(git -C "$R" rev-parse base)
tested=$(git -C "$R" rev-parse v1~1)
grep -rl 68674f94ffc9dddc1234567890abcdef12345678 "$W" |
	xargs sed -i "s/68674f94ffc9dddc1234567890abcdef12345678/$base/g"
grep -rl 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0 "$W" |
	xargs sed -i "s/20f3337d350c4e1b4ac66d731fd4e98565bf6cc0/$tested/g"
# the material of the download link
printf 'suite: stress-ng\n' >"$W/job.yaml"
# request NAME COMMIT [LINE...]
request() {
	_n=$1 _commit=$2
	shift 2
	{
		cat <<EOF
date: "2024-06-20 10:00:00 +0800"
message_id: "<202406201000.$_n-robot@ci.example.org>"
tree: "akpm-mm:mm-everything"
repo_url: https://git.kernel.org/cgit/linux/kernel/git/akpm/mm.git
branch: mm-everything
commit: $_commit
repo: $R
kpi: stress-ng.lockofd.ops_per_sec
result_roots: [rt0, rt1]
attachments: [{path: job.yaml}]
EOF
		for _l in "$@"; do
			printf '%s\n' "$_l"
		done
	} >"$W/$_n.yaml"
}
# headers MAIL NAME...: those fields of the header, with their folded lines
headers() {
	_h=$1
	shift
	sed '/^$/q' "$_h" | awk -v names=" $* " '
		/^[^ \t]/ { keep = index(names, " " substr($0, 1, index($0, ":") - 1) " ") > 0 }
		keep'
}

request thread "$tested" "thread_lookup: true"
expect_code 0 "compose --dry-run with thread_lookup (the cache is warm)" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/thread.yaml"
cp "$T/.out" "$T/thread.eml"
cat >"$T/want" <<EOF
To: Alice Developer <alice@example.org>
CC: <oe-lkp@lists.linux.dev>,
	=?UTF-8?Q?Zo=C3=AB?= Reviewer <ZOE@example.net>,
	Andrew Maintainer <akpm@example.org>, <linux-test@example.org>
Subject: Re: [PATCH 2/3] mm/bar: use the fast path
In-Reply-To: <20240603100002.2-3.alice@example.org>
EOF
headers "$T/thread.eml" To CC Subject In-Reply-To References >"$T/got"
ok "it replies to v1 2/3: To its sender, Cc its recipients once each" \
	test_cmp "$T/want" "$T/got"
ok "no References in a 0-day style report" \
	sh -c '! sed "/^\$/q" "$1" | grep -q "^References:"' sh "$T/thread.eml"
cat >"$T/want" <<EOF
commit: $tested ("[PATCH 2/3] mm/bar: use the fast path")
https://git.kernel.org/cgit/linux/kernel/git/akpm/mm.git mm-everything
patch link: ${PI_URL}20240603100002.2-3.alice@example.org/
patch subject: [PATCH 2/3] mm/bar: use the fast path
note: robot tested v1 of the series; a newer version, v2, is at ${PI_URL}$(pi_msgid_path "$PI_V2_2")/

testcase: stress-ng
EOF
sed -n '/^commit: /,/^testcase: /{p;/^testcase: /q}' "$T/thread.eml" >"$T/got"
ok "the patch link, its subject and the note on v2" \
	test_cmp "$T/want" "$T/got"

# a functional report on the same commit: the same lines
"$PYTHON" "$TOP/tests/functional/data/make-rts" "$W/frt" >/dev/null
grep -rl 1111111111aaaaaaaaaa2222222222bbbbbbbbbb "$W/frt" |
	xargs sed -i "s/1111111111aaaaaaaaaa2222222222bbbbbbbbbb/$base/g"
grep -rl 3333333333cccccccccc4444444444dddddddddd "$W/frt" |
	xargs sed -i "s/3333333333cccccccccc4444444444dddddddddd/$tested/g"
request func "$tested" "thread_lookup: true"
sed -i -e 's|^kpi: .*|kpi: "dmesg.BUG:KASAN:slab-use-after-free_in_frob_buffer_put"|' \
	-e 's|^result_roots: .*|result_roots: [frt/kasan/rt0, frt/kasan/rt1]|' \
	-e 's|^date: .*|date: "2026-01-10 21:24:19 +0800"|' "$W/func.yaml"
expect_code 0 "a functional report with thread_lookup" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/func.yaml"
cp "$T/.out" "$T/func.eml"
headers "$T/func.eml" Subject In-Reply-To >"$T/got"
printf '%s\n' "Subject: Re: [PATCH 2/3] mm/bar: use the fast path" \
	"In-Reply-To: $PI_V1_2" >"$T/want"
ok "... replies to the patch" test_cmp "$T/want" "$T/got"
sed -n '/^commit: /,/^in testcase: /{p;/^in testcase: /q}' "$T/func.eml" \
	>"$T/got"
sed -e 's/^testcase: stress-ng$/in testcase: xfstests/' "$T/thread.eml" |
	sed -n '/^commit: /,/^in testcase: /{p;/^in testcase: /q}' >"$T/want"
ok "... with the patch link, its subject and the note" \
	test_cmp "$T/want" "$T/got"

request nothread "$tested" "thread_lookup: false"
"$ROBOT" compose --dry-run -c "$CFG" "$W/nothread.yaml" >"$T/no.eml"
ok "thread_lookup: false: no lookup, no In-Reply-To" \
	sh -c '! grep -q "^In-Reply-To:" "$1"' sh "$T/no.eml"
conf on "thread_lookup: true"
cp -R "$T/main.cache" "$T/on.cache"
request cfgon "$tested"
"$ROBOT" compose --dry-run -c "$T/on.yaml" "$W/cfgon.yaml" >"$T/on.eml"
ok "thread_lookup: true in the configuration" \
	grep -q "^In-Reply-To: $PI_V1_2" "$T/on.eml"
"$ROBOT" compose --dry-run -c "$T/on.yaml" "$W/nothread.yaml" >"$T/no.eml"
ok "... and false in the request turns it off" \
	sh -c '! grep -q "^In-Reply-To:" "$1"' sh "$T/no.eml"

# a reply (robot's own follow-up): the parent's References, then the parent
request reply "$tested" "in_reply_to: \"$PI_REPLY_V1_2_ALICE\"" \
	"references: [\"$PI_V1_0\", \"$PI_V1_2\", \"$PI_REPLY_V1_2\"]" \
	"reply: true"
"$ROBOT" compose --dry-run -c "$CFG" "$W/reply.yaml" >"$T/reply.eml"
cat >"$T/want" <<EOF
References: $PI_V1_0 $PI_V1_2 $PI_REPLY_V1_2 $PI_REPLY_V1_2_ALICE
In-Reply-To: $PI_REPLY_V1_2_ALICE
EOF
# unfolded
headers "$T/reply.eml" References In-Reply-To |
	awk '/^[ \t]/ { sub(/^[ \t]+/, " "); printf "%s", $0; next }
		{ if (NR > 1) print ""; printf "%s", $0 } END { print "" }' \
	>"$T/got"
ok "a reply: true carries the parent's References and the parent" \
	test_cmp "$T/want" "$T/got"
request refs "$tested" "in_reply_to: \"$PI_V1_2\"" \
	"references: [\"$PI_V1_0\"]"
expect_code 65 "references in a report (no reply: true) is an error" \
	"$ROBOT" compose --dry-run -c "$CFG" "$W/refs.yaml"

# --dry-run asks no archive: a cold cache is exit 75
conf cold "thread_lookup: true"
expect_code 75 "compose --dry-run with a cold cache: exit 75" \
	"$ROBOT" compose --dry-run -c "$T/cold.yaml" "$W/cfgon.yaml"
ok "... saying why" grep -q "is not in the cache" "$T/.err"

# queued, then fed back into the archive: it shows in the patch's thread
expect_code 0 "compose queues the threaded report" \
	"$ROBOT" compose -c "$CFG" "$W/thread.yaml"
queued=$(find "$T/main.spool/new" -type f | head -1)
ok "the queued report is the --dry-run bytes" test_cmp "$T/thread.eml" \
	"$queued"
ok "the archive takes the report" pi_add "$queued"
pi_thread "$PI_V1_2" >"$T/t.mbox"
ok "t.mbox.gz of v1 2/3 holds the report" \
	grep -q "^Message-ID: <202406201000.thread-robot@ci.example.org>" \
	"$T/t.mbox"
ok "... replying to the patch" \
	grep -q "^In-Reply-To: $PI_V1_2" "$T/t.mbox"
# and robot thread still finds the patch, not its own report
thread_is "the report in the thread does not change the lookup" \
	v1~1 "$PI_V1_2"

# --- politeness ---------------------------------------------------------
RATE=4 conf slow
start=$(date +%s%N)
"$ROBOT" thread -v -c "$T/slow.yaml" --repo "$R" applied~1 >/dev/null \
	2>"$T/slow.err"
end=$(date +%s%N)
n=$(grep -c ': [0-9]*, [0-9]* bytes$' "$T/slow.err")
ok "a cold lookup by subject makes 3 requests" test "$n" -eq 3
ok "lore_rate: 4 spaces them 0.25 s apart" \
	test $(((end - start) / 1000000)) -ge $(((n - 1) * 250 - 5))
"$ROBOT" thread -v -c "$T/slow.yaml" --repo "$R" applied~1 >/dev/null \
	2>"$T/slow.err"
ok "again: all from the cache" \
	test "$(grep -c '(cached)$' "$T/slow.err")" -eq 3

# --- the archive down ---------------------------------------------------
pi_stop
thread_is "down, but cached: the same answer" v1~1 "$PI_V1_2"
conf down
expect_code 75 "down and not cached: exit 75" \
	"$ROBOT" thread -c "$T/down.yaml" --repo "$R" v1~1
ok "... naming the archive" grep -q "cannot reach" "$T/.err"
conf downon "thread_lookup: true"
expect_code 75 "compose with thread_lookup, archive down: exit 75" \
	"$ROBOT" compose -c "$T/downon.yaml" "$W/cfgon.yaml"
ok "... and queues nothing" test ! -d "$T/downon.spool/new"
