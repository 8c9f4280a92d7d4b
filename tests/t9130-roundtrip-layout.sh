#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t9130-roundtrip-layout: eml2lkp's layout mode (doc/roundtrip.md, "The
# layout mode").  robot composes functional case 0113 (Oliver Sang's
# kernel log of 2021-01) with layout choices the day's style does not
# make (four empty lines before the tags, two before the greeting, one
# blank before the Subject's sha).  The contract round trip
# (`eml2lkp MAIL OUT`) sets no `layout:` and does not give that mail back;
# `eml2lkp --layout ROBOT MAIL OUT` finds exactly those choices, writes
# them into the request, which then gives the mail back exactly, and the
# inputs hold no report line.  A mail the day's style writes needs no
# choice, and none is written.  tests/tools/fidelity --layout prints the
# second verdict and figure beside the contract ones.  Every value of a
# key differs in blanks only: case 0119's "[confidence: ]" stays in the
# Subject under each fsubject value.  A value is found even when two
# others render the mail as the day's style does (performance case 0006,
# verdict tight).
. "$(dirname "$0")/lib.sh"

EML2LKP=$TOP/tests/tools/eml2lkp
FIDELITY=$TOP/tests/tools/fidelity
functional_cases
CASE=$G/0113-2021-oliver-sang-kernel-log
CHOICE='"flead 2", "fpretags-dmesg wide", "fsubject narrow"'

# compose CASE CHOICES OUT: the case's request with `layout: [CHOICES]`
compose() {
	sed "s/^kpi:/layout: [$2]\nkpi:/" "$1/request.yaml" >"$1/layout.yaml" &&
		(cd "$1" && "$ROBOT" compose --dry-run -c ../data/robot.yaml \
			layout.yaml) >"$3"
}
ok "robot composes the case with the layout choices" \
	compose "$CASE" "$CHOICE" "$T/mail.eml"
ok "... which change the mail" sh -c '! cmp -s "$1" "$2"' _ \
	"$CASE/expect.eml" "$T/mail.eml"
ok "... its Subject's blank too" \
	grep -qx 'Subject: \[frob\] 3333333333: WARNING:at_net/frob/rate.c:#frob_rate_pick\[frob\]' \
	"$T/mail.eml"

ok "eml2lkp: the contract round trip" \
	"$PYTHON" "$EML2LKP" "$T/mail.eml" "$T/contract"
ok "... sets no layout" sh -c '! grep -q "^layout" "$1"' _ \
	"$T/contract/request.yaml"

ok "eml2lkp --layout ROBOT: the layout mode" \
	"$PYTHON" "$EML2LKP" -v --layout "$ROBOT" "$T/mail.eml" "$T/layout"
ok "... writes the three choices" grep -qx \
	'layout: \["flead 2", "fpretags-dmesg wide", "fsubject narrow"\]' \
	"$T/layout/request.yaml"
ok "... and nothing of the mail's report" "$PYTHON" \
	"$TOP/tests/tools/check-no-copied-lines" "$T/mail.eml" "$T/layout"
# the request and the contract's differ in that line alone
grep -v '^layout: ' "$T/layout/request.yaml" >"$T/without"
ok "... the rest of the request is the contract's" \
	test_cmp "$T/contract/request.yaml" "$T/without"

# fidelity: the contract verdict first, then the layout mode's
"$PYTHON" "$FIDELITY" --robot "$ROBOT" "$T/mail.eml" >"$T/plain" 2>&1
ok "fidelity: the mail fails the contract round trip" \
	grep -q '^FAIL  mail.eml: body line' "$T/plain"
ok "... and prints no layout figure without --layout" sh -c \
	'! grep -q layout "$1"' _ "$T/plain"
"$PYTHON" "$FIDELITY" --robot "$ROBOT" --layout "$T/mail.eml" >"$T/lay" 2>&1
{
	sed -n 1p "$T/plain"
	echo 'layout ok   mail.eml: [flead 2, fpretags-dmesg wide, fsubject narrow]'
	echo '2021: 0/1 exact'
	echo "mails: 0/1 exact (0.0%), 0 replies not scored; with the operator's layout 1/1 (100.0%)"
} >"$T/lay.want"
ok "fidelity --layout: the mail comes back with the layout found" \
	test_cmp "$T/lay.want" "$T/lay"

# a list's copy of that mail (the LTP list's tag and footer): fidelity
# --validation --layout scores it as archived, as sent (tests/tools/
# unlist), and as sent with the operator's layout
V=$T/v
mkdir -p "$V/val/functional"
{
	sed 's/^Subject: /Subject: [LTP] /' "$T/mail.eml"
	printf '%s\n' '-- ' 'Mailing list info: https://lists.linux.it/listinfo/ltp'
} >"$V/val/functional/ltp.eml"
"$PYTHON" "$FIDELITY" --robot "$ROBOT" --layout --validation "$V" \
	>"$T/vlay" 2>&1
sed -n '/^validation summary:$/,$p' "$T/vlay" >"$T/vsum"
{
	echo 'validation summary:'
	for k in 'functional val' 'validation val'; do
		echo "$k: 0/1 exact (0.0%), 0/0 (100.0%) of the copies no list changed; with the operator's layout 0/1 (0.0%), 0/0 (100.0%)"
		echo "$k as sent: 0/1 exact (0.0%); with the operator's layout 1/1 (100.0%)"
	done
} >"$T/vsum.want"
ok "fidelity --validation --layout: a list's copy, as sent, with the layout" \
	test_cmp "$T/vsum.want" "$T/vsum"

ok "eml2lkp --layout on the case as the day's style writes it" \
	"$PYTHON" "$EML2LKP" --layout "$ROBOT" "$CASE/expect.eml" "$T/plain-in"
ok "... writes no layout" sh -c '! grep -q "^layout" "$1"' _ \
	"$T/plain-in/request.yaml"

if "$PYTHON" "$EML2LKP" --layout "$T/no-robot" "$T/mail.eml" "$T/x" \
	2>"$T/err"; then
	_fail "eml2lkp --layout without a robot binary fails"
else
	_ok "eml2lkp --layout without a robot binary fails"
fi

# A key's values may render a mail alike in pairs: performance case 0006
# (2023-05, no In-addition table) comes out the same under verdict's
# default, 2023 and 2025, and only tight (three empty lines before the
# tags) changes it.  The search tries every value, so it finds tight.
P=$T/perf
ok "eml2lkp reads performance case 0006" "$PYTHON" "$EML2LKP" \
	"$TOP/tests/golden/0006-2023-regression-link/expect.eml" "$P/in"
sed 's/^kpi:/layout: ["verdict tight"]\nkpi:/' "$P/in/request.yaml" \
	>"$P/in/tight.yaml"
ok "robot composes it with verdict tight" sh -c \
	'cd "$1" && "$2" compose --dry-run -c robot.yaml tight.yaml >"$3"' _ \
	"$P/in" "$ROBOT" "$P/tight.eml"
ok "... which changes the mail" sh -c '! cmp -s "$1" "$2"' _ \
	"$TOP/tests/golden/0006-2023-regression-link/expect.eml" "$P/tight.eml"
ok "eml2lkp --layout finds verdict tight past 2023 and 2025" \
	"$PYTHON" "$EML2LKP" --layout "$ROBOT" "$P/tight.eml" "$P/out"
ok "... and writes that choice alone" grep -qx 'layout: \["verdict tight"\]' \
	"$P/out/request.yaml"

# the Subject's blanks only: 0119 keeps its tag under every fsubject value
C19=$G/0119-2022-confidence
for v in narrow wide early-wide; do
	compose "$C19" "\"fsubject $v\"" "$T/c-$v.eml"
	ok "fsubject $v keeps \"[confidence: ]\"" grep -q \
		'^Subject: \[frob\]  *\[confidence: \] 3333333333: ' "$T/c-$v.eml"
done
echo "1..$test_n"
