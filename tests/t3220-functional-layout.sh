# SPDX-License-Identifier: GPL-2.0-only
#
# t3220-functional-layout: the request's `layout` (config/data/layouts,
# doc/request.md), the operator's choice among layouts that differ in empty
# lines or blanks only.  A choice moves exactly its empty lines or blanks
# and nothing else of the mail; a key, value or set the table does not have
# is one "robot: error:" line naming the file and the key (exit 65).
. "$(dirname "$0")/lib.sh"

functional_cases
CASE=$G/0101-2026-kasan
EXPECT=$SRC/0101-2026-kasan/expect.eml
REQUEST=$SRC/0101-2026-kasan/request.yaml

# layout CHOICES: the case's request with `layout: CHOICES`, composed.
layout() {
	sed "s/^kpi:/layout: $1\nkpi:/" "$REQUEST" >"$CASE/layout.yaml"
	(cd "$CASE" && "$ROBOT" compose --dry-run -c ../data/robot.yaml \
		layout.yaml)
}

# edit EXPR: expect.eml changed by the Python expression EXPR over its text
# `m`, the mail the layout must give.
edit() {
	"$PYTHON" -c 'import sys
m = open(sys.argv[1], encoding="utf-8").read()
sys.stdout.write(eval(sys.argv[2]))' "$EXPECT" "$1" >"$T/want.eml"
}

# same CHOICES EXPR: the layout gives expect.eml edited by EXPR, and the
# edit changed the mail.
same() {
	edit "$2" && ! cmp -s "$EXPECT" "$T/want.eml" &&
		layout "$1" >"$T/got.eml" && diff -u "$T/want.eml" "$T/got.eml"
}

REFER='(please refer to attached dmesg/kmsg for entire log/backtrace)\n'
ok "fpretags-dmesg tight: two empty lines before the tags, not three" \
	same '[fpretags-dmesg tight]' \
	"m.replace('$REFER\n\n\n', '$REFER\n\n', 1)"
ok "fpretags-dmesg wide: four" same '[fpretags-dmesg wide]' \
	"m.replace('$REFER\n\n\n', '$REFER\n\n\n\n', 1)"
ok "fsubject narrow: one blank before the commit" same '[fsubject narrow]' \
	"m.replace('[frob]  3333333333:', '[frob] 3333333333:', 1)"
ok "fsubject_prefix_max 0, a value of the code: one blank there too" \
	same '[fsubject_prefix_max 0]' \
	"m.replace('[frob]  3333333333:', '[frob] 3333333333:', 1)"
ok "flead 1: one empty line before the greeting, not two" \
	same '[flead 1, fpretags-dmesg three]' \
	"m.replace('7bit\n\n\n\nHello,', '7bit\n\n\nHello,', 1)"
ok "fsiggap tight: two empty lines before the signature, not three" \
	same '[fsiggap tight]' \
	"m.replace('lkp@intel.com\n\n\n\n-- \n', 'lkp@intel.com\n\n\n-- \n', 1)"
ok "fsiggap wide: four" same '[fsiggap wide]' \
	"m.replace('lkp@intel.com\n\n\n\n-- \n', 'lkp@intel.com\n\n\n\n\n-- \n', 1)"
# fpretags has only files with the remark's suffix (fpretags-wide-remark):
# a report without a remark takes the choice and does not change
layout '[fpretags wide]' >"$T/got.eml"
ok "fpretags wide, a layout of suffixed files only, is taken" \
	cmp "$EXPECT" "$T/got.eml"
layout '[flead 2, fpretags-dmesg default]' >"$T/got.eml"
ok "choices the day has already change nothing" cmp "$EXPECT" "$T/got.eml"

ok "fevidence-dmesg tight: one empty line between the tags and the excerpt" \
	same '[fevidence-dmesg tight]' \
	"m.replace('lkp@intel.com\n\n\n[   61.205102]', 'lkp@intel.com\n\n[   61.205102]', 1)"

ok "fsource blank: two empty lines after the repository line, not one" \
	same '[fsource blank]' \
	"m.replace('linux.git for-next\n\nin testcase', 'linux.git for-next\n\n\nin testcase', 1)"

# same_in NAME CHOICES EXPR: `same` on case NAME of tests/functional
same_in() {
	(
		CASE=$G/$1 EXPECT=$SRC/$1/expect.eml REQUEST=$SRC/$1/request.yaml
		same "$2" "$3"
	)
}

# the still lines of case 0105 (2024): fstill wide keeps two empty lines
# after them, not one
ok "fstill wide: two empty lines after the still lines" \
	same_in 0105-2024-test-failed-on-2 '[fstill wide]' \
	"m.replace('a672853a]\n\nin testcase', 'a672853a]\n\n\nin testcase', 1)"

# no excerpt before the tags (case 0116: the test's output follows the
# download link): fpretags-none tight takes one of the three empty lines
ok "fpretags-none tight: two empty lines before the tags with no excerpt" \
	same_in 0116-2026-output-at-end '[fpretags-none tight]' \
	"m.replace('$REFER\n\n\n', '$REFER\n\n', 1)"

bad() {
	expect_code 65 "$1" layout "$2"
	grep -qx "robot: error: layout.yaml: layout: $3" "$T/.err" &&
		test "$(wc -l <"$T/.err")" = 1 &&
		_ok "... one line: $3" || _fail "... one line: $3 (got: $(cat "$T/.err"))"
}
bad "a key that is no layout" '[template 2016]' \
	"'template' is no layout key (config/data/layouts)"
bad "an unknown value" '[flead 7]' \
	"flead: unknown value '7' (want one of 0 1 2)"
bad "a choice without a value" '[flead]' "'flead': want KEY VALUE"
bad "a choice of three words" '["flead 1 2"]' "'flead 1 2': want KEY VALUE"
bad "an unknown value of a layout of suffixed files" '[fsiggap huge]' \
	"fsiggap: unknown value 'huge' (want one of default tight wide)"
bad "a value the set has no file for" '[fsubject early-wide]' \
	"fsubject: templates/2023 has no layout 'early-wide'"
expect_code 65 "a value the day's style has no layout of" sh -c \
	'sed -e "s/^date: .*/date: \"2019-03-02 10:00:00 +0800\"/" \
	     -e "s/^kpi:/layout: [fparams version3]\nkpi:/" "$1" \
	     >"$2/old.yaml" && cd "$2" &&
	 "$3" compose --dry-run -c ../data/robot.yaml old.yaml' sh \
	"$SRC/0101-2026-kasan/request.yaml" "$CASE" "$ROBOT"
grep -qx "robot: error: old.yaml: layout: fparams: the style of 2019-03-02 has 'default', which is no layout of it" "$T/.err" &&
	_ok "... names the day's value" || _fail "... names the day's value ($(cat "$T/.err"))"

