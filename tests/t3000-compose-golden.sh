# SPDX-License-Identifier: GPL-2.0-only
#
# t3000-compose-golden: `robot compose --dry-run` on the hand-written
# requests of tests/golden/NNNN-*/ gives exactly their expect.eml
# (tests/golden/README).  For every case it also checks that
#   - Python's email parser (policy.default) finds no defect in any
#     header or part;
#   - `git mailinfo -k` recovers the Subject and the author (the
#     request's from:);
#   - the same request gives the same bytes twice, even with a different
#     SOURCE_DATE_EPOCH and TZ (every case sets date:).
#
# The cases run on a copy of tests/golden in $T, next to the fixture
# repository of tests/lib-git.sh ($T/golden/repo, which `repo: ../repo`
# names) and the result roots tests/golden/data/make-rts writes
# ($T/golden/data/rt).
#
#   UPDATE=1 tests/run t3000     (or `make golden-update`) rewrites every
#                                expect.eml that differs; review the diff.
# A case without expect.eml gets one written, and fails until it is
# committed.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-git.sh"

SRC=$TOP/tests/golden
G=$T/golden
CHECK=$SRC/data/check-mail

if [ ! -x "$ROBOT" ]; then
	_fail "$ROBOT is built (make all)"
	exit 1
fi

mkdir -p "$G" && cp -R "$SRC"/. "$G"/
ok "the fixture repository builds" git_fixture_kernel "$G/repo"

# The ids tests/golden/data/make-rts and commits.yaml name.
want_ids() {
	for spec in v6.3-rc6:f790baedde11de2071b2523ccc1a8f86641bf1b1 \
		master~3:38ce693b0ab314cab6b066d7a4f668e9e9b9e624 \
		v6.3-rc7:3076692f7a1e85ecdd1d03d2979ed73e968f74ad \
		master~1:c7566e2ba4a033966a4373407edd249b8dcc8b21 \
		master:25f3a6c924bba31707230363149933efe219c28e; do
		got=$(git -C "$G/repo" rev-parse --verify -q "${spec%%:*}^{commit}")
		if [ "$got" != "${spec#*:}" ]; then
			echo "${spec%%:*} is $got, want ${spec#*:}"
			return 1
		fi
	done
}
ok "the fixture's ids are the ones the goldens name" want_ids
ok "make-rts writes the result roots" "$PYTHON" "$SRC/data/make-rts" "$G/data/rt"

. "$TOP/tests/lib-golden.sh"

mailinfo() {
	git mailinfo -k "$G/$1/msg" "$G/$1/patch" <"$G/$1/actual" \
		>"$G/$1/info" &&
		"$PYTHON" "$CHECK" mailinfo "$G/$1/actual" "$G/$1/info" \
			"$G/$1/request.yaml"
}

n=0
for dir in "$SRC"/[0-9][0-9][0-9][0-9]-*/; do
	c=$(basename "$dir")
	n=$((n + 1))
	ok "$c: compose --dry-run gives expect.eml" golden "$c"
	if [ ! -s "$G/$c/actual" ]; then
		_fail "$c: no mail to check further"
		continue
	fi
	ok "$c: no defects under Python's email.policy.default" \
		"$PYTHON" "$CHECK" defects "$G/$c/actual"
	ok "$c: git mailinfo recovers Subject and author" mailinfo "$c"
	ok "$c: the same request gives the same bytes twice" same_twice "$c"
done
ok "at least twelve golden cases" test "$n" -ge 12
