# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib-pi.sh: a real public-inbox archive for shell tests (POSIX sh;
# source it after tests/lib.sh and tests/lib-git.sh).  Debian 12's
# public-inbox 1.9 (scripts/deps.sh installs it); all of its state lives
# under $T/pi, so nothing touches ~/.public-inbox.
#
#   pi_init [NAME [ADDR]]  an empty v2 inbox NAME (default "test") for the
#                          list address ADDR (default linux-test@example.org)
#   pi_add MAIL...         adds each mail file (RFC 5322, LF or CRLF) as
#                          public-inbox-mda delivers it (tests/tools/
#                          pi-import: one process for all), indexed at
#                          once; a running server sees it without restart
#   pi_start               serves the inbox with public-inbox-httpd on a
#                          free 127.0.0.1 port and waits until it answers;
#                          sets PI_URL (the inbox's base URL, with its
#                          trailing "/", as lore_url wants it), PI_PORT and
#                          PI_PID.  Stopped by PID at exit (pi_stop).
#   pi_stop                stops the server, by its PID; waits for it
#   pi_get PATH            prints the answer to GET $PI_URL/PATH, gunzipped
#                          for *.gz ("MSGID/t.mbox.gz", "MSGID/raw"); PATH
#                          must be percent-encoded already
#   pi_msgid_path ID       prints the Message-ID <ID> as a URL path segment
#   pi_thread ID           prints the thread of <ID> as an mbox
#   pi_fixture_series DIR  the standard archive content (see below): a git
#                          repository DIR/repo and the mails DIR/mails/*.eml
#
# The standard content, with fixed identities and dates (the same commit
# ids and Message-IDs on every run):
#
#   a 3-patch series by Alice Developer, "mm: make foo faster", posted as
#   v1 (2024-06-03) and v2 (2024-06-10) with cover letters: patches 1 and 3
#   are the same in both, patch 2 changed; replies by Zoë Reviewer to v1
#   2/3 (and Alice's answer) and to the v2 cover; an unrelated thread by
#   Carol.  The repository holds, on base "Linux 6.9":
#     branch v1, v2   the series as 0-day applies posted patches
#     branch applied  v2 as a maintainer applied it: 1/3 with a Link:
#                     trailer, 2/3 edited (its diff no longer matches) and
#                     no trailer, 3/3 with a Message-Id: trailer
#     tag unknown     a fix by Carol that was never posted
#     tag dead-link   a change never posted, with a Link: to a mail that
#                     does not exist
#     tag dead-link-patch  1/3's change with a Link: that does not exist
#   Message-IDs of v2 hold "/", "+", "%" and "=".  The variables PI_V1_0
#   (cover), PI_V1_1..PI_V1_3, PI_V2_0..PI_V2_3, PI_REPLY_V1_2,
#   PI_REPLY_V2_0 and PI_OTHER hold the Message-IDs, with their <>.

PI_HOME=$T/pi
PI_NAME=test
PI_ADDR=linux-test@example.org
PI_PID=
PI_URL=
PI_PORT=

_pi() {
	HOME=$PI_HOME/home PI_CONFIG=$PI_HOME/config \
		PI_EMERGENCY=$PI_HOME/emergency "$@"
}

pi_init() {
	PI_NAME=${1:-test}
	PI_ADDR=${2:-linux-test@example.org}
	if ! command -v public-inbox-httpd >/dev/null; then
		echo "# public-inbox is not installed (scripts/deps.sh)" >&2
		return 1
	fi
	mkdir -p "$PI_HOME/home" &&
		_pi public-inbox-init -V2 -L full "$PI_NAME" \
			"$PI_HOME/inbox/$PI_NAME" \
			"http://127.0.0.1/$PI_NAME" "$PI_ADDR" &&
		_pi git config -f "$PI_HOME/config" publicinboxmda.spamcheck \
			none
}

pi_add() {
	_pi perl "$TOP/tests/tools/pi-import" "$PI_NAME" "$@"
}

_pi_free_port() {
	$PYTHON -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# GET $1 and print the status code (000 when nothing answers).
_pi_status() {
	$PYTHON - "$1" <<'EOF'
import sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen(sys.argv[1], timeout=5)
    print(r.status)
except urllib.error.HTTPError as e:
    print(e.code)
except Exception:
    print("000")
EOF
}

pi_start() {
	_ps_try=0
	while [ $_ps_try -lt 5 ]; do
		_ps_try=$((_ps_try + 1))
		PI_PORT=$(_pi_free_port) || return 1
		# a simple command, so that $! is the server's own PID
		HOME=$PI_HOME/home PI_CONFIG=$PI_HOME/config \
			PI_EMERGENCY=$PI_HOME/emergency \
			public-inbox-httpd -W0 -l "http://127.0.0.1:$PI_PORT" \
			-1 "$PI_HOME/httpd.out" -2 "$PI_HOME/httpd.err" \
			2>>"$PI_HOME/httpd.err" &
		PI_PID=$!
		_ps_n=0
		# up to 20 s: public-inbox loads its Perl modules first
		while [ $_ps_n -lt 400 ]; do
			if ! kill -0 "$PI_PID" 2>/dev/null; then
				wait "$PI_PID" 2>/dev/null
				PI_PID=
				break # the port was taken meanwhile: another
			fi
			PI_URL=http://127.0.0.1:$PI_PORT/$PI_NAME/
			[ "$(_pi_status "$PI_URL")" = 200 ] && return 0
			sleep 0.05
			_ps_n=$((_ps_n + 1))
		done
		[ -n "$PI_PID" ] && pi_stop
	done
	echo "# public-inbox-httpd did not start:" >&2
	sed 's/^/# /' "$PI_HOME/httpd.err" >&2
	return 1
}

pi_stop() {
	if [ -n "$PI_PID" ]; then
		kill "$PI_PID" 2>/dev/null
		wait "$PI_PID" 2>/dev/null
		PI_PID=
	fi
}

_pi_cleanup() {
	pi_stop
	cleanup
}
trap _pi_cleanup EXIT
trap 'exit 130' INT TERM

pi_msgid_path() {
	$PYTHON -c 'import sys, urllib.parse
print(urllib.parse.quote(sys.argv[1].strip("<>"), safe="@"))' "$1"
}

pi_get() {
	$PYTHON - "$PI_URL$1" <<'EOF'
import gzip, sys, urllib.request
data = urllib.request.urlopen(sys.argv[1], timeout=10).read()
if sys.argv[1].endswith(".gz"):
    data = gzip.decompress(data)
sys.stdout.buffer.write(data)
EOF
}

pi_thread() {
	pi_get "$(pi_msgid_path "$1")/t.mbox.gz"
}

# --- the standard content ----------------------------------------------

# _pi_git REPO ARGS...: git with fixed identities, for tags and branches
_pi_git() {
	_pg_repo=$1
	shift
	_fixture_git "$_pg_repo" x x@example.org "2024-01-01 00:00:00 +0000" \
		x x@example.org "2024-01-01 00:00:00 +0000" "$@"
}

# _pi_commit REPO AUTHOR EMAIL ADATE COMMITTER CEMAIL CDATE MESSAGE
_pi_commit() {
	_fixture_git "$1" "$2" "$3" "$4" "$5" "$6" "$7" add -A &&
		_fixture_git "$1" "$2" "$3" "$4" "$5" "$6" "$7" \
			commit -q -m "$8"
}

_pi_file() {
	# _pi_file REPO PATH LINE...: PATH holds the lines
	_pf_repo=$1 _pf_path=$2
	shift 2
	mkdir -p "$(dirname "$_pf_repo/$_pf_path")"
	printf '%s\n' "$@" >"$_pf_repo/$_pf_path"
}

_pi_base_files() {
	_pi_file "$1" mm/foo.c "/* foo: the slow path */" "int foo(int x)" \
		"{" "	return slow_foo(x);" "}"
	_pi_file "$1" mm/bar.c "/* bar */" "int bar(int x)" "{" \
		"	return foo(x) + 1;" "}"
	_pi_file "$1" mm/baz.c "/* baz */" "int slow_foo(int x)" "{" \
		"	return x * 2;" "}" "" "int baz(void)" "{" \
		"	return 0;" "}"
	_pi_file "$1" drivers/qux.c "/* qux: a driver */" \
		"int qux_probe(void)" "{" "	return 0; /* sucess */" "}"
}

_pi_patch1() { # the fast path, in v1 and v2
	_pi_file "$1" mm/foo.c "/* foo: the fast path first */" \
		"int foo(int x)" "{" "	if (x < 16)" "		return x * 2;" \
		"	return slow_foo(x);" "}"
}
_pi_patch2_v1() {
	_pi_file "$1" mm/bar.c "/* bar */" "int bar(int x)" "{" \
		"	return foo(x) + 1; /* fast */" "}"
}
_pi_patch2_v2() {
	_pi_file "$1" mm/bar.c "/* bar: uses the fast path */" \
		"int bar(int x)" "{" "	return foo(x) + 1;" "}"
}
_pi_patch2_edited() { # v2's 2/3 as a maintainer edited it
	_pi_file "$1" mm/bar.c "/* bar: uses foo's fast path */" \
		"int bar(int x)" "{" "	return foo(x) + 1;" "}"
}
_pi_patch3() {
	_pi_file "$1" mm/baz.c "/* baz */" "int slow_foo(int x)" "{" \
		"	return x + x;" "}" "" "int baz(void)" "{" \
		"	return 0;" "}"
}

PI_S1="mm/foo: add a fast path"
PI_S2="mm/bar: use the fast path"
PI_S3="mm/baz: simplify the slow path"
PI_COVER="mm: make foo faster"
PI_V1_0="<20240603100000.0-3.alice@example.org>"
PI_V1_1="<20240603100001.1-3.alice@example.org>"
PI_V1_2="<20240603100002.2-3.alice@example.org>"
PI_V1_3="<20240603100003.3-3.alice@example.org>"
PI_V2_0="<20240610100000.v2/0-3@example.org>"
PI_V2_1="<20240610100001.v2+1/3=fast%path@example.org>"
PI_V2_2="<20240610100002.v2=2/3@example.org>"
PI_V2_3="<20240610100003.v2%3/3+baz@example.org>"
PI_REPLY_V1_2="<87zoe.v1-2@example.net>"
PI_REPLY_V1_2_ALICE="<20240605080000.re-2-3.alice@example.org>"
PI_REPLY_V2_0="<87zoe.v2-0@example.net>"
PI_OTHER="<20240605120000.qux@example.com>"
PI_OTHER_REPLY="<20240605130000.re-qux@example.com>"
PI_ALICE="Alice Developer <alice@example.org>"
PI_ZOE="Zoë Reviewer <zoe@example.net>"
PI_AKPM="Andrew Maintainer <akpm@example.org>"

# _pi_series_commit REPO DATE SUBJECT: Alice's commit, applied by 0-day
_pi_series_commit() {
	_pi_commit "$1" "Alice Developer" alice@example.org "$2" \
		"0-day robot" lkp@example.com "$2" "$3

Make it faster.

Signed-off-by: $PI_ALICE"
}

# _pi_applied REPO SECOND "DAY hh:mm:ss" SUBJECT LINE [LAST]: v2's patch
# (posted 2024-06-10 10:00:SECOND) as Andrew applied it on 2024-06-DAY,
# LINE among the trailers before his Signed-off-by (LAST, or none if "")
_pi_applied() {
	_pa_last="Signed-off-by: $PI_AKPM"
	[ $# -ge 6 ] && _pa_last=$6
	_pi_commit "$1" "Alice Developer" alice@example.org \
		"2024-06-10 10:00:$2 +0000" "$PI_AKPM" akpm@example.org \
		"2024-06-$3 +0000" "$4

Make it faster.

Signed-off-by: $PI_ALICE
$5${_pa_last:+
$_pa_last}"
}

_pi_repo() {
	_pr=$1
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
		git init -q --initial-branch=master "$_pr" || return 1
	_pi_base_files "$_pr"
	_pi_commit "$_pr" "Linus Torvalds" torvalds@example.org \
		"2024-05-12 14:00:00 -0700" "Linus Torvalds" \
		torvalds@example.org "2024-05-12 14:00:00 -0700" \
		"Linux 6.9" || return 1
	_pi_git "$_pr" tag base
	# v1, as posted
	_pi_git "$_pr" checkout -q -b v1 base
	_pi_patch1 "$_pr"
	_pi_series_commit "$_pr" "2024-06-03 10:00:01 +0000" "$PI_S1" &&
		_pi_patch2_v1 "$_pr" &&
		_pi_series_commit "$_pr" "2024-06-03 10:00:02 +0000" "$PI_S2" &&
		_pi_patch3 "$_pr" &&
		_pi_series_commit "$_pr" "2024-06-03 10:00:03 +0000" "$PI_S3" ||
		return 1
	# v2: 1 and 3 unchanged, 2 changed
	_pi_git "$_pr" checkout -q -b v2 base
	_pi_patch1 "$_pr"
	_pi_series_commit "$_pr" "2024-06-10 10:00:01 +0000" "$PI_S1" &&
		_pi_patch2_v2 "$_pr" &&
		_pi_series_commit "$_pr" "2024-06-10 10:00:02 +0000" "$PI_S2" &&
		_pi_patch3 "$_pr" &&
		_pi_series_commit "$_pr" "2024-06-10 10:00:03 +0000" "$PI_S3" ||
		return 1
	# v2 as the maintainer applied it
	_pi_git "$_pr" checkout -q -b applied base
	_pi_patch1 "$_pr"
	_pi_applied "$_pr" 01 "12 09:00:00" "$PI_S1" \
		"Link: https://lore.kernel.org/r/$(pi_msgid_path "$PI_V2_1")" ||
		return 1
	_pi_patch2_edited "$_pr"
	_pi_applied "$_pr" 02 "12 09:00:01" "$PI_S2" \
		"[akpm: reword the comment]" || return 1
	_pi_patch3 "$_pr"
	_pi_applied "$_pr" 03 "12 09:00:02" "$PI_S3" "Message-Id: $PI_V2_3" ||
		return 1
	# never posted: a fix by Carol; a change with a dead link
	_pi_git "$_pr" checkout -q -b other base
	sed -i 's/sucess/success/' "$_pr/drivers/qux.c"
	_pi_commit "$_pr" "Carol Hacker" carol@example.com \
		"2024-06-06 10:00:00 +0000" "Carol Hacker" carol@example.com \
		"2024-06-06 10:00:00 +0000" "drivers/qux: fix a typo

Signed-off-by: Carol Hacker <carol@example.com>" || return 1
	_pi_git "$_pr" tag unknown
	printf '/* more */\n' >>"$_pr/mm/baz.c"
	_pi_commit "$_pr" "Alice Developer" alice@example.org \
		"2024-06-07 10:00:00 +0000" "$PI_AKPM" akpm@example.org \
		"2024-06-07 11:00:00 +0000" "mm/baz: add a comment

Signed-off-by: $PI_ALICE
Link: https://lore.kernel.org/r/never-posted.alice@example.org" ||
		return 1
	_pi_git "$_pr" tag dead-link
	_pi_git "$_pr" checkout -q -b dead base
	_pi_patch1 "$_pr"
	_pi_applied "$_pr" 01 "13 09:00:00" "$PI_S1" \
		"Link: https://patch.msgid.link/gone.alice@example.org" "" ||
		return 1
	_pi_git "$_pr" tag dead-link-patch
	_pi_git "$_pr" checkout -q master
}

# _pi_mail OUT ARGS...: tests/tools/pi-mail
_pi_mail() {
	_pm_out=$1
	shift
	$PYTHON "$TOP/tests/tools/pi-mail" "$@" >"$_pm_out"
}

# _pi_post DIR VERSION: the cover letter and the patches of branch vN
_pi_post() {
	_pp_dir=$1 _pp_v=$2
	if [ "$_pp_v" = 1 ]; then
		_pp_tag="PATCH" _pp_day=03 _pp_ids="$PI_V1_0 $PI_V1_1 $PI_V1_2 $PI_V1_3"
	else
		_pp_tag="PATCH v2" _pp_day=10 _pp_ids="$PI_V2_0 $PI_V2_1 $PI_V2_2 $PI_V2_3"
	fi
	set -- $_pp_ids
	_pp_cover=$1
	_pi_mail "$_pp_dir/mails/v$_pp_v-0.eml" --from "$PI_ALICE" \
		--to "$PI_AKPM" --cc "$PI_ADDR" --cc "$PI_ZOE" \
		--date "Mon, $_pp_day Jun 2024 10:00:00 +0000" \
		--message-id "$_pp_cover" \
		--subject "[$_pp_tag 0/3] $PI_COVER" \
		--body "The fast path for small values, and its users.\n" ||
		return 1
	shift
	_pp_n=0
	for _pp_id in "$@"; do
		_pp_n=$((_pp_n + 1))
		eval "_pp_s=\$PI_S$_pp_n"
		_pi_mail "$_pp_dir/mails/v$_pp_v-$_pp_n.eml" --from "$PI_ALICE" \
			--to "$PI_AKPM" --cc "$PI_ADDR" --cc "$PI_ZOE" \
			--date "Mon, $_pp_day Jun 2024 10:00:0$_pp_n +0000" \
			--message-id "$_pp_id" --in-reply-to "$_pp_cover" \
			--references "$_pp_cover" \
			--subject "[$_pp_tag $_pp_n/3] $_pp_s" \
			--patch "$_pp_dir/repo" "v$_pp_v~$((3 - _pp_n))" ||
			return 1
	done
}

pi_fixture_series() {
	_pf=$1
	mkdir -p "$_pf/mails" && _pi_repo "$_pf/repo" &&
		_pi_post "$_pf" 1 && _pi_post "$_pf" 2 || return 1
	_pi_mail "$_pf/mails/re-v1-2.eml" --from "$PI_ZOE" --to "$PI_ALICE" \
		--cc "$PI_AKPM" --cc "$PI_ADDR" \
		--date "Tue, 04 Jun 2024 09:00:00 +0200" \
		--message-id "$PI_REPLY_V1_2" --in-reply-to "$PI_V1_2" \
		--references "$PI_V1_0 $PI_V1_2" \
		--subject "Re: [PATCH 2/3] $PI_S2" \
		--body "On Mon, Jun 03, Alice wrote:\n> -\treturn foo(x) + 1;\n> +\treturn foo(x) + 1; /* fast */\n\nThe comment belongs above the function.\n" &&
		_pi_mail "$_pf/mails/re-v1-2-alice.eml" --from "$PI_ALICE" \
			--to "$PI_ZOE" --cc "$PI_AKPM" --cc "$PI_ADDR" \
			--date "Wed, 05 Jun 2024 08:00:00 +0000" \
			--message-id "$PI_REPLY_V1_2_ALICE" \
			--in-reply-to "$PI_REPLY_V1_2" \
			--references "$PI_V1_0 $PI_V1_2 $PI_REPLY_V1_2" \
			--subject "Re: [PATCH 2/3] $PI_S2" \
			--body "Right, v2 will move it.\n" &&
		_pi_mail "$_pf/mails/re-v2-0.eml" --from "$PI_ZOE" --to "$PI_ALICE" \
			--cc "$PI_ADDR" --date "Tue, 11 Jun 2024 09:00:00 +0200" \
			--message-id "$PI_REPLY_V2_0" --in-reply-to "$PI_V2_0" \
			--references "$PI_V2_0" \
			--subject "Re: [PATCH v2 0/3] $PI_COVER" \
			--body "For the series:\nReviewed-by: $PI_ZOE\n" &&
		_pi_mail "$_pf/mails/other.eml" \
			--from "Carol Hacker <carol@example.com>" \
			--to "$PI_ADDR" --date "Wed, 05 Jun 2024 12:00:00 +0000" \
			--message-id "$PI_OTHER" \
			--subject "[PATCH] drivers/qux: fix a null dereference" \
			--body "qux_probe() may see a NULL device.\n" &&
		_pi_mail "$_pf/mails/other-reply.eml" --from "$PI_AKPM" \
			--to "Carol Hacker <carol@example.com>" --cc "$PI_ADDR" \
			--date "Wed, 05 Jun 2024 13:00:00 +0000" \
			--message-id "$PI_OTHER_REPLY" --in-reply-to "$PI_OTHER" \
			--references "$PI_OTHER" \
			--subject "Re: [PATCH] drivers/qux: fix a null dereference" \
			--body "Applied, thanks.\n"
}
