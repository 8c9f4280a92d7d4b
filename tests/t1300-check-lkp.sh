#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The differential test against lkp-tests (tests/lkp/check-lkp), short:
# 6 pairs at two dates when LKP_SRC names an lkp-tests git repository and
# Debian's ruby is there; `make check-lkp LKP_SRC=DIR` runs the whole of
# it.  Without LKP_SRC the test is skipped, and says so.
. "$(dirname "$0")/lib.sh"

if [ -z "${LKP_SRC:-}" ]; then
	echo "ok 1 # skip check-lkp: LKP_SRC is not set (make check-lkp LKP_SRC=DIR runs it)"
	exit 0
fi
if ! command -v ruby >/dev/null; then
	echo "ok 1 # skip check-lkp: no ruby (scripts/deps.sh --lkp installs it)"
	exit 0
fi
ok "lkp-tests' ncompare and robot compare agree on 6 pairs at 2 dates" \
	env LKP_PAIRS=6 LKP_TRIPLES=1 LKP_DATES="2019-07-01 2026-07-22" LKP_WORK= \
	ROBOT="$ROBOT" "$TOP/tests/lkp/check-lkp"
