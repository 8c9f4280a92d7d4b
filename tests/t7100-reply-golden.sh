#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7100-reply-golden: follow-ups to a queued report (tests/reply/README).
# The report of tests/reply/data/report.yaml is queued into a scratch
# spool; each case's mail.eml then goes through
#
#   robot reply --extract-patch out/CASE --to mail.eml
#
# whose exit code, stdout and stderr must be expect/extract.out, and whose
# patch.mbox and test-request.yaml must be the case's expect/ files, byte
# for byte (diff -u).  A case with a file `patched` (the name of a result
# root of tests/golden/data/make-rts) then adds that root to the request
# and composes the answer with --dry-run: expect/reply.eml.  Each patch
# also goes through `git am` on a tree that has the patched file.
#
#   UPDATE=1 tests/run t7100   rewrites the expect/ files that differ
#                              (review the diff before committing).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-reply.sh"

# golden FILE EXPECT: FILE against the case's expect/EXPECT
golden() {
	_exp=$SRC/$case/expect/$2
	if [ -n "${UPDATE:-}" ] && ! cmp -s "$_exp" "$1" 2>/dev/null; then
		mkdir -p "$SRC/$case/expect"
		cp "$1" "$_exp"
		echo "updated $_exp"
		return 0
	fi
	if [ ! -f "$_exp" ]; then
		echo "$_exp is missing (UPDATE=1 writes it)"
		return 1
	fi
	test_cmp "$_exp" "$1"
}

# run OUT CMD...: the exit code, stdout and stderr of CMD in one file
run() {
	_o=$1
	shift
	robot "$@" >"$_o.1" 2>"$_o.2"
	{
		echo "exit $?"
		echo "--- stdout"
		cat "$_o.1"
		echo "--- stderr"
		cat "$_o.2"
	} >"$_o"
}

# a tree with the file the cases' patches change, for `git am`
mkdir -p "$T/tree/arch/x86/lib"
{
	i=1
	while [ $i -le 9 ]; do
		echo "/* line $i */"
		i=$((i + 1))
	done
	printf 'SYM_FUNC_START(clear_page_rep)\n\tmovl $4096/8,%%ecx\n'
	printf '\txorl %%eax,%%eax\n\trep stosq\n\tRET\n'
	printf 'SYM_FUNC_END(clear_page_rep)\nEXPORT_SYMBOL_GPL(clear_page_rep)\n'
} >"$T/tree/arch/x86/lib/clear_page_64.S"
git -C "$T/tree" init -q &&
	git -C "$T/tree" -c user.name=t -c user.email=t@example.org \
		add . >/dev/null &&
	git -C "$T/tree" -c user.name=t -c user.email=t@example.org \
		commit -q -m base

applies() {
	git -C "$T/tree" checkout -q -f master 2>/dev/null ||
		git -C "$T/tree" checkout -q -f main
	git -C "$T/tree" -c user.name=t -c user.email=t@example.org \
		am -q "$1" &&
		grep -q 'rep stosb' "$T/tree/arch/x86/lib/clear_page_64.S" &&
		git -C "$T/tree" reset -q --hard HEAD~1
}

reply_setup
ok "... with its record in the spool" \
	sh -c 'grep -q "^base: \"3076692f7a1e" "$1"/spool/reports/*.yaml' _ "$T"

for dir in "$SRC"/[0-9]*/; do
	case=$(basename "$dir")
	[ "$case" = 0004-twice ] && continue
	out=out/$case
	run "$T/$case.extract" reply -c "$CFG" --extract-patch "$out" \
		--to "reply/$case/mail.eml"
	ok "$case: exit code, stdout and stderr" \
		golden "$T/$case.extract" extract.out
	for f in patch.mbox test-request.yaml; do
		if [ -f "$T/$out/$f" ] || [ -f "$SRC/$case/expect/$f" ]; then
			ok "$case: $f" golden "$T/$out/$f" "$f"
		fi
	done
	if [ -f "$T/$out/patch.mbox" ]; then
		ok "$case: git am applies patch.mbox" applies "$T/$out/patch.mbox"
	fi
	if [ -f "$SRC/$case/patched" ]; then
		add_root "$T/$out/test-request.yaml" "$(cat "$SRC/$case/patched")" \
			>"$T/$out/request.yaml"
		run "$T/$case.reply" reply --dry-run -c "$CFG" \
			--to "reply/$case/mail.eml" "$out/request.yaml"
		ok "$case: the reply is composed" \
			grep -qx 'exit 0' "$T/$case.reply"
		robot reply --dry-run -c "$CFG" --to "reply/$case/mail.eml" \
			"$out/request.yaml" >"$T/$case.eml" 2>/dev/null
		ok "$case: the reply" golden "$T/$case.eml" reply.eml
	fi
done

# --- a request that arrives twice: answered once ----------------------------
case=0004-twice
run "$T/twice.1" reply -c "$CFG" --extract-patch out/twice-1 \
	--to reply/$case/mail.eml
run "$T/twice.2" reply -c "$CFG" --extract-patch out/twice-2 \
	--to reply/$case/list-copy.eml
ok "$case: both copies give the same request" \
	cmp "$T/out/twice-1/test-request.yaml" "$T/out/twice-2/test-request.yaml"
ok "$case: ... and the same patch" \
	cmp "$T/out/twice-1/patch.mbox" "$T/out/twice-2/patch.mbox"
add_root "$T/out/twice-1/test-request.yaml" clear >"$T/out/twice-1/request.yaml"
add_root "$T/out/twice-2/test-request.yaml" clear >"$T/out/twice-2/request.yaml"
robot reply -c "$CFG" --to reply/$case/mail.eml out/twice-1/request.yaml \
	>"$T/twice.q1" 2>&1
robot reply -c "$CFG" --to reply/$case/list-copy.eml \
	out/twice-2/request.yaml >"$T/twice.q2" 2>&1
id=$(cat "$T/twice.q1")
ok "$case: the first answer is queued" \
	sh -c 'case "$1" in "<"*"@intel.com>") exit 0 ;; esac; exit 1' _ "$id"
ok "$case: the second is the first" \
	grep -qxF "already queued: $id" "$T/twice.q2"
ok "$case: one answer in the spool" test "$(grep -l "^In-Reply-To: <87twice01" \
	"$T"/spool/new/*.eml | wc -l)" -eq 1
robot queue -c "$CFG" >"$T/queue.out" 2>&1
ok "$case: robot queue lists the report and the answer" \
	test "$(grep -c '@intel.com>' "$T/queue.out")" -eq 2

# --- a mail larger than mail_max_bytes: refused before it is parsed -------
{
	cat "$T/$CFG"
	echo "mail_max_bytes: 1024"
} >"$T/reply/data/small.yaml"
expect_code 65 "a mail over mail_max_bytes: exit 65, one error line" \
	robot reply -c reply/data/small.yaml --extract-patch out/big \
	--to reply/0001-inline-patch/mail.eml
ok "... naming the mail, its size and the key" \
	names "reply/0001-inline-patch/mail.eml" \
	"$(wc -c <"$SRC/0001-inline-patch/mail.eml") bytes" "mail_max_bytes"
ok "... and nothing is written" test ! -e "$T/out/big"
head -c 1024 "$SRC/0001-inline-patch/mail.eml" >"$T/reply/limit.eml"
robot reply -c reply/data/small.yaml --extract-patch out/limit \
	--to reply/limit.eml >/dev/null 2>"$T/limit.err"
ok "a mail of exactly mail_max_bytes is read" \
	sh -c '! grep -q mail_max_bytes "$1"' _ "$T/limit.err"

# --- the answer to the answer: a follow-up on robot's own reply ------------
sed -e "s/^Message-ID: .*/Message-ID: <87again.fsf@rene.example.org>/" \
	-e "s/^In-Reply-To: .*/In-Reply-To: $id/" \
	-e "s/^References: .*/References: <202309221737.5eb1e5d1-lkp@intel.com> <87twice01.fsf@rene.example.org> $id/" \
	"$SRC/0001-inline-patch/mail.eml" >"$T/again.eml"
robot reply -c "$CFG" --extract-patch out/again --to again.eml >/dev/null 2>&1
ok "a follow-up to robot's answer finds the report behind it" \
	grep -qx 'report: "<202309221737.5eb1e5d1-lkp@intel.com>"' \
	"$T/out/again/test-request.yaml"

# --- a Date whose year no Date header can write: taken as no Date ---------
# The patch is taken, and the answer robot reply writes on its request is
# the one to a mail without a Date (0013-no-date): it quotes "NAME wrote:",
# never a date it cannot write.
case=0001-inline-patch
sed 's/^Date: .*/Date: Mon, 25 Sep 99999 09:12:44 +0200/' \
	"$SRC/$case/mail.eml" >"$T/far.eml"
run "$T/far.extract" reply -c "$CFG" --extract-patch out/far --to far.eml
ok "a follow-up dated in the year 99999: its patch is still taken" \
	grep -qx 'exit 0' "$T/far.extract"
add_root "$T/out/far/test-request.yaml" "$(cat "$SRC/$case/patched")" \
	>"$T/out/far/request.yaml"
robot reply --dry-run -c "$CFG" --to far.eml out/far/request.yaml \
	>"$T/far.eml.out" 2>"$T/far.err"
echo "exit $?" >"$T/far.rc"
ok "... robot reply on its request: exit 0, nothing on stderr" \
	sh -c 'grep -qx "exit 0" "$1" && [ ! -s "$2" ]' _ "$T/far.rc" \
	"$T/far.err"
ok "... the answer quotes the sender without the date" \
	sh -c 'LC_ALL=C grep -qx "Ren. L.vesque wrote:" "$1" &&
		! grep -q "99999" "$1"' _ "$T/far.eml.out"
ok "... and is 0013-no-date's answer but for the ids" \
	sh -c 'sed -e "s/87nodate1/87zg1a2b3c/" -e "/^Message-ID:/d" "$2" >"$2.a"
		sed "/^Message-ID:/d" "$1" | cmp - "$2.a"' _ \
	"$T/far.eml.out" "$T/0013-no-date.eml"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
