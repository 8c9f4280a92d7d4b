#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t9520-unlist-corpus: a real report as a Mailman 2 list keeps it, scored
# as sent (tests/fidelity.md, "Copies a list changed, as sent"; t9510
# checks unlist's rules on mails made there).  Reads the corpus.
. "$(dirname "$0")/lib.sh"

# a real report (corpus 405, 2019, kept by no list) as the LTP list
# would keep it: "[LTP] " and ", " for its headline's comma, one line of
# 68 characters.  eml2lkp reads the stat name without the list's blank,
# so robot composes it, and the copy is exact as sent
CORPUS=${CORPUS:-$TOP/../shared/corpus}
skip_without_corpus "$CORPUS/functional" '405-*.eml' "a comma headline's LTP copy"
f=$(ls "$CORPUS"/functional/405-*.eml)
V=$T/v
mkdir -p "$V/c/val/functional"
sed -e 's/^Subject: \[/Subject: [LTP] [/' -e '/^Subject:/s/,address$/, address/' \
	"$f" >"$V/c/val/functional/c.eml"
"$PYTHON" "$TOP/tests/tools/eml2lkp" "$V/c/val/functional/c.eml" "$T/c" \
	>/dev/null 2>&1
ok "eml2lkp: the headline of a list's copy without the list's \", \"" \
	grep -qx "kpi: dmesg.BUG:kernel_NULL_pointer_dereference,address" \
	"$T/c/request.yaml"
"$PYTHON" "$TOP/tests/tools/fidelity" --robot "$ROBOT" --validation "$V/c" \
	>"$T/cscore" 2>&1
ok "fidelity --validation: that copy is exact as sent" \
	grep -qx 'functional val as sent: 1/1 exact (100.0%)' "$T/cscore"
echo "1..$test_n"
