#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/tools/layout-table, the tabulation of tests/fidelity.md's tables
# A to C (the functional reports' layout choices against their inputs),
# counts the empty lines of real mails as they are
# (../shared/corpus/functional):
#   402 2019-07 Rong Chen's Mutt Message-ID, a result table before the
#       tags, one blank before the Subject's sha
#   459 2025-04 two empty lines after the parameters and before the tags
#       of a test's output
#   469 2026-01 three after the parameters and before the tags of a
#       kernel log
#   474 2026-07 two after the parameters, four before the tags
# leaves out a performance report (mails/300), reads the headers the
# corpus format drops from a raw copy found by its Message-ID (--raw),
# and says how well each column separates a choice (--target).
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
F=$CORPUS/functional
skip_without_corpus "$F" '459-*.eml' "layout-table"
LT=$TOP/tests/tools/layout-table

"$PYTHON" "$LT" "$F"/402-*.eml "$F"/459-*.eml "$F"/469-*.eml \
	"$F"/474-*.eml "$CORPUS"/mails/300-*.eml >"$T/all" 2>"$T/err"
cut -f3-7,9,12-14 "$T/all" | sed 1d >"$T/got"
cat >"$T/want" <<'END'
-	3	on test machin	2	table	log	1	rong.a.chen	mutt@shao2-debian
2	2	config	2	refer	output	2	oliver.sang	lkp
2	3	config	3	refer	log	2	oliver.sang	lkp
2	2	config	4	refer	output	2	oliver.sang	lkp
END
ok "layout-table counts the empty lines, the Subject's blanks, the ids" \
	test_cmp "$T/want" "$T/got"
ok "a performance report is left out" \
	test "$(grep -c 300- "$T/all")" -eq 0

# a raw copy of 459 with the headers of its archived message
mkdir -p "$T/raw"
{
	echo 'Received: from LV3PR11MB0000.example.outlook.com ([fe80::1]) by'
	echo ' LV3PR11MB0000.example.outlook.com with mapi'
	echo 'User-Agent: s-nail v14.9.25'
	echo 'X-ClientProxiedBy: SI1PR02CA0059.apcprd02.prod.outlook.com'
	cat "$F"/459-*.eml
} >"$T/raw/x.eml"
"$PYTHON" "$LT" --raw "$T/raw" "$F"/459-*.eml "$F"/469-*.eml \
	| cut -f29-31 | sed 1d >"$T/got-raw"
printf '%s\t%s\t%s\n' LV3PR11MB0000.example.outlook.com 's-nail v14.9.25' \
	SI1PR02CA - - - >"$T/want-raw"
ok "--raw adds the first Received hop, the mailer and the proxy" \
	test_cmp "$T/want-raw" "$T/got-raw"

"$PYTHON" "$LT" --where pnext=config --target pgap "$F"/459-*.eml \
	"$F"/469-*.eml "$F"/474-*.eml >"$T/sep"
ok "--target counts the choice and the majority" \
	test "$(head -n 1 "$T/sep")" = \
	"3 reports; pgap: 2:2 3:1; the majority (2) is right for 2"
# (values of fewer than three reports count with the majority: no gain)
ok "--target tabulates every column against the choice" \
	grep -qx "+0	evid	output=2:2  log=3:1" "$T/sep"
"$PYTHON" "$LT" --since 2026-01-01 --where test=xfs* "$F"/459-*.eml \
	"$F"/469-*.eml "$F"/474-*.eml | cut -f2 >"$T/since"
printf 'file\n%s\n' "$(basename "$F"/469-*.eml)" >"$T/want-since"
ok "--since and a --where prefix keep the reports asked for" \
	test_cmp "$T/want-since" "$T/since"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
