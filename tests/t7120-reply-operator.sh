#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t7120-reply-operator: the answer of tests/reply/0001-inline-patch (the
# fix brings the KPI back: a Tested-by line) as the robot account and as
# Oliver Sang wrote their follow-ups on the days the corpus shows them
# (config/data/styles, the r* rows):
#
#   robot-2021-08-03   "Tested-by:" without "| " (before 2022-10), the
#                      table's commit lines "<sha10> (\"subject\")"
#   oliver-2021-08-03  his own: "<sha9> (\"subject\")" (mails/111)
#   oliver-2024-01-24  his own: `git log --oneline` lines of 13 digits, no
#                      blanks at the ends of the table's lines, and his
#                      Tested-by still without "| " (mails/125)
#
# Each answer must be tests/reply/operator/EXPECT.eml (diff -u).
#   UPDATE=1 tests/run t7120   rewrites the goldens that differ.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-reply.sh"

case=0001-inline-patch
out=out/$case
reply_setup
robot reply -c "$CFG" --extract-patch "$out" --to "reply/$case/mail.eml" \
	>/dev/null 2>&1
ok "$case: the request is extracted" test -f "$T/$out/test-request.yaml"

for v in robot-2021-08-03 oliver-2021-08-03 oliver-2024-01-24; do
	req=$T/$out/$v.yaml
	add_root "$T/$out/test-request.yaml" "$(cat "$SRC/$case/patched")" >"$req"
	echo "style: \"${v#*-}\"" >>"$req"
	case $v in
	oliver-*) echo 'from: "Oliver Sang <oliver.sang@intel.com>"' >>"$req" ;;
	esac
	robot reply --dry-run -c "$CFG" --to "reply/$case/mail.eml" \
		"$out/$v.yaml" >"$T/$v.eml" 2>"$T/$v.err"
	ok "$v: composed, nothing on stderr" test ! -s "$T/$v.err"
	exp=$SRC/operator/$v.eml
	if [ -n "${UPDATE:-}" ] && ! cmp -s "$exp" "$T/$v.eml" 2>/dev/null; then
		mkdir -p "$SRC/operator"
		cp "$T/$v.eml" "$exp"
		echo "updated $exp"
	fi
	ok "$v: the answer" test_cmp "$exp" "$T/$v.eml"
done

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
