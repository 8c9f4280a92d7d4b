#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7200-reply-tables: the N-commit tables of the LKP operators' follow-ups
# in the shared corpus come out of robot exactly.  For each of mails 105
# (2020-12, full commit ids), 111 (2021-08, an `ncompare --all` table of
# 3536 rows) and 125 (2024-01, three tables, `git log --oneline` commit
# lines, no blanks at line ends):
#
#   tests/tools/eml2lkp MAIL OUT     (its reply mode: tests/tools/lkpreply.py)
#   robot reply --dry-run -c OUT/robot.yaml --to OUT/parent.eml
#       OUT/request.yaml
#
# and the blocks of robot's answer are the mail's, byte for byte (diff -u
# of tests/tools/reply-blocks on both).  No line of 20 characters or more
# of the mail's tables (but a bare commit id) may be in any file eml2lkp
# wrote; the answer is
# threaded as the mail is (Subject, In-Reply-To, References).  Without
# the corpus the test says so and passes.
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/mails
skip_without_corpus "$MAILS" '105-*.eml' "operators' follow-ups"
BLOCKS=$TOP/tests/tools/reply-blocks

# field MAIL NAME: the unfolded header NAME of MAIL
field() {
	"$PYTHON" -c 'import email, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read())
v = m.get(sys.argv[2], "")
sys.stdout.write(" ".join(str(v).split()) + "\n")' "$1" "$2"
}

for nnn in 105 111 125; do
	mail=$(ls "$MAILS/$nnn"-*.eml)
	out=$T/$nnn
	ok "$nnn: eml2lkp reads the follow-up's tables" \
		"$PYTHON" "$TOP/tests/tools/eml2lkp" "$mail" "$out"
	"$BLOCKS" "$mail" >"$T/$nnn.want"
	# the inputs carry data, never a line of the tables (a commit line
	# that is a bare full id, 105's, is the id itself: data)
	awk 'length($0) >= 20 { sub(/^[ \t]+/, ""); sub(/[ \t]+$/, "");
		if (length($0) >= 20 && $0 !~ /^[0-9a-f]+$/) print }' \
		"$T/$nnn.want" >"$T/$nnn.lines"
	ok "$nnn: no line of its tables is in the inputs" \
		sh -c '! grep -rlFf "$1" "$2"' _ "$T/$nnn.lines" "$out"
	(cd "$out" && "$ROBOT" reply --dry-run -c robot.yaml --to parent.eml \
		request.yaml) >"$T/$nnn.eml" 2>"$T/$nnn.err"
	ok "$nnn: robot reply answers the mail it answered" \
		sh -c 'test -s "$1" && test ! -s "$2"' _ "$T/$nnn.eml" "$T/$nnn.err"
	"$BLOCKS" "$T/$nnn.eml" >"$T/$nnn.got"
	ok "$nnn: the tables come out exactly" \
		test_cmp "$T/$nnn.want" "$T/$nnn.got"
	for h in Subject In-Reply-To References; do
		field "$mail" "$h" >"$T/$nnn.$h.want"
		field "$T/$nnn.eml" "$h" >"$T/$nnn.$h.got"
	done
	ok "$nnn: Subject, In-Reply-To and References are the mail's" \
		sh -c 'for h in Subject In-Reply-To References; do
			cmp -s "$1.$h.want" "$1.$h.got" || exit 1; done' _ "$T/$nnn"
done

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
