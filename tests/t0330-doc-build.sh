# SPDX-License-Identifier: GPL-2.0-only
#
# t0330-doc-build: the worked example of doc/build.md, as the page has
# it (tests/lib-doc.sh).  The example builds its source tree, build
# result, configuration and request from nothing, composes the build
# report and queues it.
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/lib-doc.sh"
run_doc "$TOP/doc/build.md"

# What the page claims beyond the outputs.
ok "the mail went to the spool, once" \
	test "$(find "$T/ex/spool/new" -type f | wc -l)" -eq 1
ok "the queued mail is the --dry-run's" \
	cmp "$(find "$T/ex/spool/new" -type f)" \
	"$(grep -l '^Message-ID:' "$T"/blocks/*.want)"
ok "the old warning is not marked, the new ones are" sh -c \
	'grep -q "^   drivers/demo/core.c:5:13: warning" "$1" &&
	 test "$(grep -c "^>> " "$1")" -eq 2' - \
	"$(grep -l '^Message-ID:' "$T"/blocks/*.want)"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
