#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/tools/layout-gaps, the tabulation tests/fidelity.md's groups 1
# and 4 rest on, counts the empty lines of real mails as they are
# (../shared/corpus/mails):
#   300 2024-12 a regression, four empty lines before the tags
#   318 2025-07 a regression, two before them
#   310 2025-05 an improvement, two before "Details", two before
#       "Disclaimer"
#   122 2023-08 an In-addition table exactly one blank wider than its
#       widest cell, three before "Disclaimer", a preface of nine lines
#       (then two empty lines before "Hello,"), two after the table
#   241 2023-07 an improvement's In-addition table, four after it
#   297 2024-12 one empty line before "Hello," (the corpus's first of
#       the 2024-11-30 period)
# and leaves out what is not a report of the "Hello," period (102, 2020).
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/mails
skip_without_corpus "$MAILS" '*.eml' "layout-gaps"
$PYTHON "$TOP/tests/tools/layout-gaps" "$MAILS"/102-*.eml "$MAILS"/122-*.eml \
	"$MAILS"/241-*.eml "$MAILS"/297-*.eml "$MAILS"/300-*.eml \
	"$MAILS"/310-*.eml "$MAILS"/318-*.eml >"$T/all" 2>"$T/err"
cut -f2-12,14 "$T/all" >"$T/got"
cat >"$T/want" <<'END'
mail	kind	lead	hello	params	disc	adds	secs	slack	iatab	sep	text
241	I	2	1	2In	5	5	5	1	4	2	0
122	R	2	1	2In	3	1	1	1	2	2	9
297	R	1	1	4If	4	0	0	-	-	-	0
300	R	2	1	4If	4	0	0	-	-	-	0
310	I	2	1	2Det	2	0	0	-	-	-	0
318	R	2	1	2If	4	0	0	-	-	-	0
END
ok "layout-gaps counts the empty lines and blocks" test_cmp "$T/want" "$T/got"
$PYTHON "$TOP/tests/tools/layout-gaps" --since 2025-01-01 \
	"$MAILS"/122-*.eml "$MAILS"/300-*.eml "$MAILS"/310-*.eml \
	"$MAILS"/318-*.eml | cut -f2 >"$T/since"
printf 'mail\n310\n318\n' >"$T/want-since"
ok "layout-gaps --since keeps the reports made from that day" \
	test_cmp "$T/want-since" "$T/since"
if $PYTHON "$TOP/tests/tools/layout-gaps" "$MAILS"/102-*.eml >/dev/null 2>&1; then
	_fail "layout-gaps fails when no report is of the Hello, period"
else
	_ok "layout-gaps fails when no report is of the Hello, period"
fi
