# SPDX-License-Identifier: GPL-2.0-only
#
# t0310-doc-first-report: the worked example of doc/first-report.md, as
# the page has it (tests/lib-doc.sh).  The example builds its result
# roots, commit metadata, configuration and request from nothing, prints
# the comparison, composes the mail and queues it.
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/lib-doc.sh"
run_doc "$TOP/doc/first-report.md"

# What the page claims beyond the outputs.
ok "the mail went to the spool, once" \
	test "$(find "$T/ex/spool/new" -type f | wc -l)" -eq 1
ok "the mail is From the operator, not 0-day" \
	sh -c '! grep -q "intel\.com\|01\.org" "$1"/blocks/*.want' - "$T"
ok "the queued mail is the --dry-run's" \
	cmp "$(find "$T/ex/spool/new" -type f)" \
	"$(grep -l '^Message-ID:' "$T"/blocks/*.want)"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
