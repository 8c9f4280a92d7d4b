#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t9500-validation: the validation protocol's tools (tests/fidelity.md,
# "The validation protocol").
#
# tests/tools/gather-validation on a public-inbox mirror made here (a git
# repository whose every commit holds one message in `m`, as the list
# mirrors do): it keeps the robot's performance and functional reports
# and its follow-ups in a report's thread, leaves out its build reports,
# a person's mail and a Message-ID it already has, writes each mail once
# in the corpus's format (the kept headers in their order, the text part
# decoded from quoted-printable with "8bit", LF), and puts it in the half
# the sha256 of its Message-ID names; --raw keeps the archived message
# beside it.  Then tests/tools/fidelity
# --validation scores a folder of two halves by kind and half (a golden
# mail, which round-trips, and the mirror's follow-up, which does not).
. "$(dirname "$0")/lib.sh"

GATHER=$TOP/tests/tools/gather-validation
M=$T/mirror
git init -q "$M" && git -C "$M" config user.email t@example.org &&
	git -C "$M" config user.name t

# commit NAME EMAIL: the message on stdin as the next commit's `m`
commit() {
	cat >"$M/m"
	git -C "$M" add m
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 git -C "$M" commit -q -m x
}

commit 'kernel test robot' oliver.sang@intel.com <<'EOF'
Date: Mon, 2 Jun 2025 10:00:00 +0800
From: kernel test robot <oliver.sang@intel.com>
To: A Developer <dev@example.org>
X-Mailer: dropped
Subject: [linus:master] [foo]  0123456789:  bar.score 9.9% regression
Message-ID: <202506021000.aaaa0001-lkp@intel.com>
MIME-Version: 1.0
Content-Type: text/plain; charset="iso-8859-1"
Content-Transfer-Encoding: quoted-printable

Hello,

kernel test robot noticed a 9.9% regression of bar.score on:
=B1
EOF
commit 'kernel test robot' lkp@intel.com <<'EOF'
Date: Tue, 3 Jun 2025 10:00:00 +0800
From: kernel test robot <lkp@intel.com>
To: A Developer <dev@example.org>
Subject: [foo:bar 1/2] foo.c:1:2: error: no
Message-ID: <202506031000.bbbb0002-lkp@intel.com>

Hi A,

kernel test robot noticed the following build errors:
EOF
commit 'kernel test robot' oliver.sang@intel.com <<'EOF'
Date: Wed, 4 Jun 2025 10:00:00 +0800
From: kernel test robot <oliver.sang@intel.com>
To: A Developer <dev@example.org>
Subject: [linus:master] [foo]  0123456789: BUG:oops
Message-ID: <202506041000.cccc0003-lkp@intel.com>

Hello,

kernel test robot noticed "BUG:oops" on:
EOF
commit 'kernel test robot' oliver.sang@intel.com <<'EOF'
Date: Thu, 5 Jun 2025 10:00:00 +0800
From: kernel test robot <oliver.sang@intel.com>
To: A Developer <dev@example.org>
Subject: Re: [linus:master] [foo]  0123456789: BUG:oops
Message-ID: <aGaaaa0004@xsang-OptiPlex>
In-Reply-To: <dev-answer@example.org>

On Thu, Jun 05, 2025, A Developer wrote:
> > in testcase: boot
> could you test the fix?

we tested the fix, the issue is gone.
EOF
commit 'A Developer' dev@example.org <<'EOF'
Date: Fri, 6 Jun 2025 10:00:00 +0800
From: A Developer <dev@example.org>
Subject: Re: [linus:master] [foo]  0123456789: BUG:oops
Message-ID: <dev-answer-2@example.org>

kernel test robot noticed "BUG:oops" on:
EOF
# the first report again, as a second list's copy holds it
commit 'kernel test robot' oliver.sang@intel.com <<'EOF'
Date: Mon, 2 Jun 2025 10:00:00 +0800
From: kernel test robot <oliver.sang@intel.com>
Subject: [linus:master] [foo]  0123456789:  bar.score 9.9% regression
Message-ID: <202506021000.aaaa0001-lkp@intel.com>

Hello,

kernel test robot noticed a 9.9% regression of bar.score on:
EOF

OUT=$T/out
ok "gather-validation reads the mirror" \
	"$PYTHON" "$GATHER" --corpus "$T/none" --out "$OUT" "$M/.git"
# the half of each Message-ID, by the rule of tests/fidelity.md
half() {
	"$PYTHON" -c 'import hashlib, sys
print("dev" if hashlib.sha256(sys.argv[1].encode()).digest()[0] % 2 == 0
      else "val")' "$1"
}
{
	printf '%s\tperformance\t202506021000.aaaa0001-lkp@intel.com\n' \
		"$(half 202506021000.aaaa0001-lkp@intel.com)"
	printf '%s\tfunctional\t202506041000.cccc0003-lkp@intel.com\n' \
		"$(half 202506041000.cccc0003-lkp@intel.com)"
	printf '%s\tfollowup\taGaaaa0004@xsang-OptiPlex\n' \
		"$(half aGaaaa0004@xsang-OptiPlex)"
} | sort >"$T/want"
cut -f1,2,4 "$OUT/index.tsv" | sort >"$T/got"
ok "the reports and the follow-up, once each, in their halves" \
	test_cmp "$T/want" "$T/got"
f=$(ls "$OUT"/*/performance/*.eml)
ok "a mail is named by its UTC time and its id's hash" \
	test "$(basename "$f")" = "20250602-020000-$(printf %s \
		202506021000.aaaa0001-lkp@intel.com | sha256sum | cut -c1-8).eml"
printf '%s\n' 'Date: Mon, 2 Jun 2025 10:00:00 +0800' \
	'From: kernel test robot <oliver.sang@intel.com>' \
	'To: A Developer <dev@example.org>' \
	'Subject: [linus:master] [foo]  0123456789:  bar.score 9.9% regression' \
	'Message-ID: <202506021000.aaaa0001-lkp@intel.com>' \
	'MIME-Version: 1.0' \
	'Content-Type: text/plain; charset="iso-8859-1"' \
	'Content-Transfer-Encoding: 8bit' '' 'Hello,' '' \
	'kernel test robot noticed a 9.9% regression of bar.score on:' \
	>"$T/want.eml"
printf '\261\n' >>"$T/want.eml"
ok "the corpus's format: kept headers, the text decoded, 8bit" \
	cmp "$T/want.eml" "$f"
ok "a second run adds nothing" \
	sh -c '"$1" "$2" --corpus "$3" --out "$4" "$5" | grep -qx "total: 0 new mails"' \
	_ "$PYTHON" "$GATHER" "$T/none" "$OUT" "$M/.git"
mkdir -p "$T/corpus"
cp "$f" "$T/corpus/x.eml"
ok "a Message-ID the corpus has is left out" \
	sh -c '"$1" "$2" --corpus "$3" --out "$4" "$5" | grep -qx "total: 2 new mails"' \
	_ "$PYTHON" "$GATHER" "$T/corpus" "$T/out2" "$M/.git"
# --raw: the mail as the mirror holds it, every header, in OUT/raw; a
# mail gathered before gets its raw copy when its mirror is read again
ok "gather-validation --raw on a gathered set adds no mail" \
	sh -c '"$1" "$2" --raw --corpus "$3" --out "$4" "$5" | grep -qx "total: 0 new mails"' \
	_ "$PYTHON" "$GATHER" "$T/none" "$OUT" "$M/.git"
r=$OUT/raw/${f#"$OUT"/}
ok "--raw keeps the first copy with the headers the format drops" \
	sh -c 'grep -qx "X-Mailer: dropped" "$1" &&
		grep -qx "Content-Transfer-Encoding: quoted-printable" "$1"' \
	_ "$r"
ok "--raw writes one raw copy per gathered mail" \
	test "$(find "$OUT/raw" -type f | wc -l)" -eq 3
if "$PYTHON" "$GATHER" --out "$TOP/tests/x" "$M/.git" >/dev/null 2>&1; then
	_fail "gather-validation refuses an OUT inside the tree"
else
	_ok "gather-validation refuses an OUT inside the tree"
fi

# the validation mode: one half with a mail eml2lkp refuses (the
# follow-up of the mirror has no table), one with a report robot writes
# again exactly (golden 0002, robot's own mail)
V=$T/v
mkdir -p "$V/dev/followup" "$V/val/performance"
cp "$(ls "$OUT"/*/followup/*.eml)" "$V/dev/followup/a.eml"
cp "$TOP/tests/golden/0002-2021-improvement/expect.eml" \
	"$V/val/performance/b.eml"
good='performance val: 1/1 exact (100.0%), 1/1 (100.0%) of the copies no list changed'
"$PYTHON" "$TOP/tests/tools/fidelity" --robot "$ROBOT" --validation "$V" \
	>"$T/score" 2>&1
sed -n '/^validation summary:$/,$p' "$T/score" >"$T/sum"
{
	echo 'validation summary:'
	echo 'followup dev: 0/1 exact (0.0%), 0/1 (0.0%) of the copies no list changed'
	echo 'followup dev as sent: 0/1 exact (0.0%)'
	echo "$good"
	echo 'performance val as sent: 1/1 exact (100.0%)'
	echo 'validation dev: 0/1 exact (0.0%), 0/1 (0.0%) of the copies no list changed'
	echo 'validation dev as sent: 0/1 exact (0.0%)'
	echo "validation ${good#performance }"
	echo 'validation val as sent: 1/1 exact (100.0%)'
} >"$T/sum.want"
ok "fidelity --validation scores each half by kind" \
	test_cmp "$T/sum.want" "$T/sum"
ok "the follow-up is scored, not left aside as a reply" \
	grep -q '^FAIL  dev/followup/a.eml: eml2lkp exit 65' "$T/score"
echo "1..$test_n"
