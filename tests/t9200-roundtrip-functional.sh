#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip on real functional reports, a representative subset of
# `make fidelity` (its functional part runs every mail of
# ../shared/corpus/functional): for each mail below, tests/tools/fidelity
# runs eml2lkp (its functional mode, tests/tools/lkpfunc.py), then
# `robot compose --dry-run`, and wants the text part, Subject, From, To,
# Cc and ids again.  Without the corpus the test says so and passes.
#
#   401 2019-05 no greeting, posted patch, result table, each make
#       target of the qemu steps on its line
#   402 2019-07 a result table whose stat holds '|', the qemu steps
#   408 2020-03 a failed xfstests test, its output quoted
#   410 2020-05 "Greeting,", a boot hang: the end of the console log
#   412 2020-07 a test's stat named after a kernel-log line
#       (leaking-addresses.dmesg.*): its output in the kernel log's layout
#   418 2021-03 an LTP output of 5000 lines, the 0DAY/LKP+ footer
#   429 2022-05 a decoded log, qemu steps with modules, the 01.org footer
#   432 2022-08 sent from Thunderbird (style mailer): format=flowed,
#       References, the Subject's single blanks
#   434 2022-11 a fail:runs table in the sender's preface, "due to commit"
#   439 2023-08 "Hello," "noticed", a KASAN report with context before it
#   450 2024-04 a kunit failure quoted from the kernel log
#   452 2024-05 "[test failed on ...]" x2, the sender's words and a
#       fail:runs table before the tags, words inside the evidence
#   459 2025-04 a failed blktests test without a fail:runs table: two
#       empty lines after the parameters and before the tags
#   460 2025-04 words, a fail:runs table under its axes before "noticed"
#   462 2025-05 a long "[tree] [subsystem]": one blank before the sha
#   469 2026-01 heads tested without a failure (still_checked): two
#       empty lines after the repository line
#   473 2026-03 a failed kselftest, a remark with a log line in it
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/functional
FIDELITY=$TOP/tests/tools/fidelity

skip_without_corpus "$MAILS" '*.eml' "real functional reports"

set --
for nnn in 401 402 408 410 412 418 429 432 434 439 450 452 459 460 462 469 473; do
	set -- "$@" "$(ls "$MAILS/$nnn"-*.eml)"
done
$PYTHON "$FIDELITY" --robot "$ROBOT" "$@" >"$T/fidelity" 2>&1
while read -r verdict name rest; do
	case "$verdict" in
	ok) _ok "$name: robot's mail is the real one" ;;
	FAIL)
		_fail "$name: robot's mail is the real one"
		echo "# $rest"
		;;
	esac
done <"$T/fidelity"

# 432's text goes out as Thunderbird sent it: format=flowed
f=$(ls "$MAILS"/432-*.eml)
if $PYTHON "$TOP/tests/tools/eml2lkp" "$f" "$T/432" >"$T/432.log" 2>&1 &&
	"$ROBOT" compose --dry-run -c "$T/432/robot.yaml" \
		"$T/432/request.yaml" >"$T/432.eml" 2>>"$T/432.log" &&
	grep -q '^Content-Type: text/plain; charset="[^"]*"; format=flowed$' \
		"$T/432.eml"; then
	_ok "432: the text part is format=flowed"
else
	_fail "432: the text part is format=flowed"
	sed 's/^/# /' "$T/432.log"
fi
