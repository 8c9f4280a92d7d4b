#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7110-reply-layout: robot's answers to follow-ups are laid out as the
# 0-day robot account's own follow-up in the corpus (replies/601,
# 2021-07-07): "On <date>, <name> wrote:", their mail quoted up to their
# question, "Hi <name>,", what was found, the table, "Best Regards," and
# the robot's name, then the rest of their mail quoted; Subject with one
# "Re: ", In-Reply-To the last of References, References from the report
# on.  tests/tools/reply-layout prints that layout, words left out; the
# answers of the cases of tests/reply (composed here as t7100 composes
# them) must print 601's, but for the rest of the quote when their mail
# has nothing after their question (0002, 0003).  Without the corpus the
# test says so and passes.
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
REPLIES=$CORPUS/replies
skip_without_corpus "$REPLIES" '601-*.eml' "the robot's follow-up"
. "$TOP/tests/lib-reply.sh"
LAYOUT=$TOP/tests/tools/reply-layout

"$PYTHON" "$LAYOUT" "$REPLIES"/601-*.eml >"$T/601.full"
ok "601: its layout has the greeting, a table and the rest quoted" \
	sh -c 'grep -qx greeting "$1" && grep -qx table "$1" &&
		test "$(tail -n 2 "$1" | tr "\n" " ")" = "blank quote "' \
	_ "$T/601.full"
head -n -2 "$T/601.full" >"$T/601.short"

reply_setup
for c in 0001-inline-patch:full 0008-no-patch:full \
	0002-attached-patch:short 0003-quoted-printable:short; do
	case=${c%:*}
	out=out/$case
	robot reply -c "$CFG" --extract-patch "$out" \
		--to "reply/$case/mail.eml" >/dev/null 2>&1
	add_root "$T/$out/test-request.yaml" "$(cat "$SRC/$case/patched")" \
		>"$T/$out/request.yaml"
	robot reply --dry-run -c "$CFG" --to "reply/$case/mail.eml" \
		"$out/request.yaml" >"$T/$case.eml" 2>"$T/$case.err"
	"$PYTHON" "$LAYOUT" "$T/$case.eml" >"$T/$case.layout"
	ok "$case: the answer is laid out as 601 (${c#*:})" \
		test_cmp "$T/601.${c#*:}" "$T/$case.layout"
done

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
