# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib-reply.sh: sourced after lib.sh by the tests of robot reply
# (t7100, t7110, t7120).  reply_setup copies tests/golden and tests/reply into
# the scratch directory, writes the result roots of make-rts and queues
# the report of tests/reply/data/report.yaml into a scratch spool; the
# answers' clock is 2023-09-26 10:30:00 +0800.
#
#   robot ARGS...            robot, run in $T
#   add_root REQUEST COMMIT  REQUEST with make-rts' root of COMMIT after
#                            the report's two (the patched kernel's)

SRC=$TOP/tests/reply
CFG=reply/data/robot.yaml
export SOURCE_DATE_EPOCH=1695695400

robot() {
	(cd "$T" && "$ROBOT" "$@")
}

reply_setup() {
	cp -R "$TOP/tests/golden" "$T/golden"
	cp -R "$SRC" "$T/reply"
	ok "make-rts writes the result roots" \
		"$PYTHON" "$T/golden/data/make-rts" "$T/golden/data/rt"
	ok "the report is queued" robot compose -c "$CFG" reply/data/report.yaml
}

add_root() {
	awk -v root="- \"../../golden/data/rt/stress-ng@$2\"" '
		{ print }
		/^result_roots:/ { n = 2; next }
		n > 0 && /^- / { if (--n == 0) print root }' "$1"
}
