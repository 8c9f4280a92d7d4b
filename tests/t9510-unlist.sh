#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t9510-unlist: tests/tools/unlist gives a list's copy back as the robot
# sent it (tests/fidelity.md, "Copies a list changed, as sent").  Every
# mail is made here: a robot report's head and its signature, and each
# list's copy of it as that list writes one (its Subject tag, its
# footer).  For each rule of unlist's table the copy comes back byte for
# byte; the additions it cannot undo exactly (a Subject the list wrote
# again, a "Re:" Subject, another mail's Google footer) stay, with a
# note; a mail no list changed, and the robot's own "-- " signature,
# pass through untouched.  Then fidelity --validation scores a list's
# copy of a golden mail "as sent".
. "$(dirname "$0")/lib.sh"

UNLIST=$TOP/tests/tools/unlist

# sent FILE SUBJECT: the robot's mail, its text ending in its signature
sent() {
	printf '%s\n' 'Date: Mon, 2 Jun 2025 10:00:00 +0800' \
		'From: kernel test robot <oliver.sang@intel.com>' \
		'To: A Developer <dev@example.org>' \
		"Subject: $2" \
		'Message-ID: <202506021000.a/b+c-lkp@intel.com>' \
		'MIME-Version: 1.0' \
		'Content-Type: text/plain; charset=us-ascii' '' \
		'Hello,' '' 'kernel test robot noticed "BUG:oops" on:' '' '' \
		'-- ' '0-DAY CI Kernel Test Service' \
		'https://github.com/intel/lkp-tests/wiki' >"$1"
}

# copy IN OUT TAG FOOTERFILE: the list's copy, its tag before the
# Subject, its footer after the text
copy() {
	if [ -n "$3" ]; then
		sed "s/^Subject: /Subject: $3 /" "$1" >"$2"
	else
		cp "$1" "$2"
	fi
	cat "$4" >>"$2"
}

# back NAME: unlist of NAME's copy is the sent mail again, byte for byte,
# and says what it removed
back() {
	"$PYTHON" "$UNLIST" "$T/$1.copy" >"$T/$1.got" 2>"$T/$1.err" &&
		cmp "$T/$1.sent" "$T/$1.got" && grep -q removed "$T/$1.err"
}

SUBJ='[linux-next:master] [fs]  0123456789: BUG:oops'
rule() { # NAME TAG FOOTER-LINES...
	name=$1 tag=$2
	shift 2
	sent "$T/$name.sent" "$SUBJ"
	printf '%s\n' "$@" >"$T/$name.footer"
	copy "$T/$name.sent" "$T/$name.copy" "$tag" "$T/$name.footer"
	ok "$name: its Subject tag and footer are removed, byte for byte" \
		back "$name"
}

rule ltp '[LTP]' '-- ' 'Mailing list info: https://lists.linux.it/listinfo/ltp'
rule f2fs '[f2fs-dev]' '_______________________________________________' \
	'Linux-f2fs-devel mailing list' \
	'Linux-f2fs-devel@lists.sourceforge.net' \
	'https://lists.sourceforge.net/lists/listinfo/linux-f2fs-devel'
rule iwl '[Intel-wired-lan]' '_______________________________________________' \
	'Intel-wired-lan mailing list' 'Intel-wired-lan@osuosl.org' \
	'https://lists.osuosl.org/mailman/listinfo/intel-wired-lan'
rule linaro3 '[Linaro-mm-sig]' '_______________________________________________' \
	'Linaro-mm-sig mailing list -- linaro-mm-sig@lists.linaro.org' \
	'To unsubscribe send an email to linaro-mm-sig-leave@lists.linaro.org'
rule linaro2 '[Linaro-mm-sig]' '_______________________________________________' \
	'Linaro-mm-sig mailing list' 'Linaro-mm-sig@lists.linaro.org' \
	'https://lists.linaro.org/mailman/listinfo/linaro-mm-sig'
rule dmdevel '[dm-devel]' '--' 'dm-devel mailing list' 'dm-devel@redhat.com' \
	'https://listman.redhat.com/mailman/listinfo/dm-devel' ''
rule dmdevel-www '[dm-devel]' '--' 'dm-devel mailing list' \
	'dm-devel@redhat.com' 'https://www.redhat.com/mailman/listinfo/dm-devel'

# apparmor adds its tag and no footer
sent "$T/apparmor.sent" "$SUBJ"
: >"$T/none"
copy "$T/apparmor.sent" "$T/apparmor.copy" '[apparmor]' "$T/none"
ok "apparmor: its Subject tag is removed" back apparmor

# a Google group: no tag; one empty line, "-- " and its footer, which
# names the mail's Message-ID ("/" kept, "+" and "@" quoted); the
# robot's own empty lines before it are the group's one
sent "$T/google.sent" "$SUBJ"
sed '$d' "$T/google.sent" >"$T/google.copy"
printf '%s\n' 'https://github.com/intel/lkp-tests/wiki' '' '-- ' \
	'You received this message because you are subscribed to the Google Groups "kasan-dev" group.' \
	'To unsubscribe from this group and stop receiving emails from it, send an email to kasan-dev+unsubscribe@googlegroups.com.' \
	'To view this discussion visit https://groups.google.com/d/msgid/kasan-dev/202506021000.a/b%2Bc-lkp%40intel.com.' \
	>>"$T/google.copy"
ok "a Google group: its footer is removed, byte for byte" back google
sed 's/a\/b%2Bc/another/' "$T/google.copy" >"$T/google-other.copy"
ok "a Google footer naming another Message-ID stays" \
	sh -c '"$1" "$2" "$3.copy" >"$3.got" 2>"$3.err" &&
		cmp "$3.copy" "$3.got" && grep -q "footer kept" "$3.err"' \
	_ "$PYTHON" "$UNLIST" "$T/google-other"

# what cannot be undone exactly keeps its tag, with a note, while the
# footer still goes
kept() { # NAME SUBJECT-OF-THE-COPY WHY
	sent "$T/$1.sent" 'unused'
	sed "s/^Subject: .*/Subject: $2/" "$T/$1.sent" >"$T/$1.want"
	copy "$T/$1.want" "$T/$1.copy" '' "$T/ltp.footer"
	"$PYTHON" "$UNLIST" "$T/$1.copy" >"$T/$1.got" 2>"$T/$1.err" &&
		cmp "$T/$1.want" "$T/$1.got" &&
		grep -q "ltp: Subject tag kept: $3" "$T/$1.err" &&
		grep -q "ltp: footer removed" "$T/$1.err"
}
ok "a Subject the list folded keeps its tag" kept folded \
	'[LTP] [linux-next:master] [block\/bdev] 47dd675323:\n ltp.ioctl_loop06.fail' \
	'the list wrote the Subject again (folded)'
# 66 characters: Mailman 2 may have written a longer one so, its runs of
# blanks made one
s66='[LTP] [linux-next:master] [loop] 18048c1af7: ltp.ioctl_loop06.fail'
ok "a Subject of ${#s66} characters keeps its tag" kept s66 "$s66" \
	'the list wrote the Subject again (66 characters)'
ok "a \"Re:\" Subject keeps its tag" kept re \
	'Re: [LTP] [PATCH] mm: a fix' 'a "Re:" Subject'
# a "Re:" Subject answers a patch: "Re: " and the text's "patch subject:"
# line byte for byte.  A tag the line has not is the list's: it goes, and
# a Subject the list folded (its run of two blanks made one) comes back
# from the line; a tag the line has too (a patch posted with it) stays.
reply() { # FILE SUBJECT PATCH-SUBJECT
	printf '%s\n' 'Date: Mon, 2 Jun 2025 10:00:00 +0800' \
		'From: kernel test robot <oliver.sang@intel.com>' \
		"Subject: $2" \
		'Message-ID: <202506021000.a/b+c-lkp@intel.com>' \
		'MIME-Version: 1.0' '' 'Hello,' '' \
		'url:    https://github.com/intel-lab-lkp/linux/commits/x' \
		'patch link:    https://lore.kernel.org/all/x@example.org/' \
		"patch subject: $3" '' '-- ' '0-DAY CI Kernel Test Service' >"$1"
}
pre='Re: [PATCH v2 13/17] signal: Stop skipping current in  do_group_exit'
reply "$T/pre.sent" "$pre" "${pre#Re: }"
reply "$T/pre.copy" 'Re: [LTP] [PATCH v2 13/17] signal: Stop skipping current in
 do_group_exit' "${pre#Re: }"
cat "$T/ltp.footer" >>"$T/pre.copy"
ok "a \"Re:\" Subject loses a tag its patch subject has not, its blanks from the line" \
	sh -c '"$1" "$2" "$3.copy" >"$3.got" 2>"$3.err" && cmp "$3.sent" "$3.got" &&
		grep -q "ltp: Subject tag removed: a \"Re:\" Subject" "$3.err"' \
	_ "$PYTHON" "$UNLIST" "$T/pre"
reply "$T/lin.sent" 'Re: [PATCH] dma-buf: a fix' '[PATCH] dma-buf: a fix'
reply "$T/lin.copy" '[Linaro-mm-sig] Re: [PATCH] dma-buf: a fix' \
	'[PATCH] dma-buf: a fix'
cat "$T/linaro3.footer" >>"$T/lin.copy"
ok "... and a tag before \"Re: \" (Mailman 3)" \
	sh -c '"$1" "$2" "$3.copy" >"$3.got" 2>"$3.err" && cmp "$3.sent" "$3.got" &&
		grep -q "Linaro-mm-sig: Subject tag removed: a \"Re:\" Subject" "$3.err"' \
	_ "$PYTHON" "$UNLIST" "$T/lin"
reply "$T/own.sent" 'Re: [LTP] [PATCH] syscalls: a new test' \
	'[LTP] [PATCH] syscalls: a new test'
cp "$T/own.sent" "$T/own.copy"
cat "$T/ltp.footer" >>"$T/own.copy"
ok "... and keeps one its patch subject has" \
	sh -c '"$1" "$2" "$3.copy" >"$3.got" 2>"$3.err" && cmp "$3.sent" "$3.got" &&
		grep -q "ltp: Subject tag kept: a \"Re:\" Subject" "$3.err"' \
	_ "$PYTHON" "$UNLIST" "$T/own"
# 64 characters and two blanks in a run: the list left it as it was
s64='[LTP] [linus:master] [loop]  ae074d07a0: ltp.ioctl_loop01.fail12'
sent "$T/s64.sent" "${s64#\[LTP\] }"
copy "$T/s64.sent" "$T/s64.copy" '[LTP]' "$T/none"
ok "a Subject of ${#s64} characters loses its tag, its blanks as they are" \
	back s64

# Python 2's email.header (Mailman 2) splits a long Subject at its commas
# first, keeping the other blanks, and writes ", " or a fold after each
# comma: a Subject folded after commas only loses its tag and comes back
# on one line, and a stat-name headline loses the blank after its comma
nul='BUG:kernel_NULL_pointer_dereference,address'
sent "$T/comma.sent" "[linux-next:master] [fs]  0123456789: $nul"
sed "s/^Subject: .*/Subject: [LTP] [linux-next:master] [fs]  0123456789: ${nul%address}\\n address/" \
	"$T/comma.sent" >"$T/comma.copy"
# noted NAME PATTERN...: back NAME, its notes matching each PATTERN
noted() {
	back "$1" || return 1
	n=$1
	shift
	for p; do grep -q "$p" "$T/$n.err" || return 1; done
}
ok "a Subject folded after its comma only loses its tag, the comma's blank and its fold" \
	noted comma "folded at commas only" "no blank after its commas"
sent "$T/comma1.sent" "[fs] 0123456789: $nul"
sed "s/^Subject: .*/Subject: [LTP] [fs] 0123456789: ${nul%address} address/" \
	"$T/comma1.sent" >"$T/comma1.copy"
ok "... and so does one the list wrote on one line with \", \"" \
	noted comma1 "no blank after its commas"
# a headline with other blanks is no stat name: its ", " stays
s2='[fs]  0123456789: one, two three'
sent "$T/comma2.sent" "$s2"
copy "$T/comma2.sent" "$T/comma2.copy" '[LTP]' "$T/none"
ok "a Subject of a headline with blanks loses its tag" back comma2
ok "a headline with other blanks keeps its \", \"" \
	sh -c '! grep -q "no blank after" "$1"' _ "$T/comma2.err"
# eml2lkp reads a list copy's Subject through the list's tag: the tree
# after "[LTP] ", a stat name without the list's ", "
f=$TOP/tests/functional/0105-2024-test-failed-on-2/expect.eml
sed 's/^Subject: \[/Subject: [LTP] [/' "$f" >"$T/tree.eml"
"$PYTHON" "$TOP/tests/tools/eml2lkp" "$T/tree.eml" "$T/tree" >/dev/null 2>&1
ok "eml2lkp: the tree of a list's copy, after the list's tag" \
	grep -qx 'tree: linus:master' "$T/tree/request.yaml"

# a mail no list changed, and the robot's own signature, pass untouched
sent "$T/plain.sent" "$SUBJ"
ok "a mail no list changed passes byte for byte, silently" \
	sh -c '"$1" "$2" "$3" >"$3.got" 2>"$3.err" && cmp "$3" "$3.got" &&
		test ! -s "$3.err"' _ "$PYTHON" "$UNLIST" "$T/plain.sent"
# a signature that looks like the LTP footer but is not at the text's
# end, and a robot's "-- " alone at the end
printf '%s\n' '' '-- ' 'Mailing list info: https://lists.linux.it/listinfo/ltp' \
	'' 'Thanks,' >>"$T/plain.sent"
ok "a footer's lines not at the text's end stay" \
	sh -c '"$1" "$2" "$3" >"$3.got" && cmp "$3" "$3.got"' \
	_ "$PYTHON" "$UNLIST" "$T/plain.sent"
sent "$T/sig.sent" "$SUBJ"
printf '%s\n' '-- ' >>"$T/sig.sent"
ok "the robot's \"-- \" at the text's end stays" \
	sh -c '"$1" "$2" "$3" >"$3.got" && cmp "$3" "$3.got"' \
	_ "$PYTHON" "$UNLIST" "$T/sig.sent"
ok "the LTP copy keeps the robot's signature" \
	grep -qx '0-DAY CI Kernel Test Service' "$T/ltp.got"
ok "unlist OUT writes the file" \
	sh -c '"$1" "$2" -q "$3.copy" "$3.out" && cmp "$3.sent" "$3.out"' \
	_ "$PYTHON" "$UNLIST" "$T/ltp"
if "$PYTHON" "$UNLIST" "$T/no-such.eml" >/dev/null 2>"$T/err"; then
	_fail "unlist refuses a missing file"
else
	_ok "unlist refuses a missing file"
fi

# fidelity --validation: Linaro-mm-sig's copy (Mailman 3: the tag on the
# one long line, its footer) of a mail robot writes again exactly
# (golden 0002) fails as it is and is exact as sent
V=$T/v
mkdir -p "$V/val/performance"
g=$TOP/tests/golden/0002-2021-improvement/expect.eml
copy "$g" "$V/val/performance/b.eml" '[Linaro-mm-sig]' "$T/linaro3.footer"
"$PYTHON" "$TOP/tests/tools/fidelity" --robot "$ROBOT" --validation "$V" \
	>"$T/score" 2>&1
sed -n '/^validation summary:$/,$p' "$T/score" >"$T/sum"
{
	echo 'validation summary:'
	echo 'performance val: 0/1 exact (0.0%), 0/0 (100.0%) of the copies no list changed'
	echo 'performance val as sent: 1/1 exact (100.0%)'
	echo 'validation val: 0/1 exact (0.0%), 0/0 (100.0%) of the copies no list changed'
	echo 'validation val as sent: 1/1 exact (100.0%)'
} >"$T/sum.want"
ok "fidelity --validation scores the list's copy as sent" \
	test_cmp "$T/sum.want" "$T/sum"

# unlist-check: a mail kept by a vger list and by the LTP list (a
# public-inbox mirror each, made here: one commit, the message in `m`)
mirror() { # DIR FILE
	git init -q "$1" && cp "$2" "$1/m" && git -C "$1" add m &&
		GIT_AUTHOR_NAME='kernel test robot' \
		GIT_AUTHOR_EMAIL=oliver.sang@intel.com \
		GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org \
		git -C "$1" commit -q -m x
}
mirror "$T/m/x.vger.kernel.org.0" "$T/ltp.sent"
mirror "$T/m/ltp.lists.linux.it.0" "$T/ltp.copy"
"$PYTHON" "$TOP/tests/tools/unlist-check" "$T/m/x.vger.kernel.org.0" \
	"$T/m/ltp.lists.linux.it.0" >"$T/check" 2>&1
printf '%s\n' 'ltp.lists.linux.it.0: Subject tag removed: 1 agree, 0 differ' \
	'ltp.lists.linux.it.0: footer removed: 1 agree, 0 differ' \
	'vger: 1 copies, 0 changed by unlist' >"$T/check.want"
ok "unlist-check: the LTP copy unlisted is the vger copy" \
	test_cmp "$T/check.want" "$T/check"
echo "1..$test_n"
