#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t3600-build-golden: build reports (doc/build-result.md), byte for byte.
# Each tests/build/NNNN-*/ case is a hand-written request.yaml (its
# comment says what it shows) over a build result build/ and the source
# files src/, which the test commits into a git repository src.git
# (tagged `built`, the build result's source_rev); expect.eml is the
# exact output of `robot compose --dry-run`.  The same request gives the
# same bytes twice, and each mail parses without defect.
#
#   UPDATE=1 tests/run t3600   rewrites every expect.eml that differs
. "$(dirname "$0")/lib.sh"

SRC=$TOP/tests/build
cat >"$T/robot.yaml" <<C
spool: $T/spool
archive_url: "https://download.01.org/0day-ci/archive"
list_archive_url: "https://lore.kernel.org/oe-kbuild-all"
C
for dir in "$SRC"/[0-9]*/; do
	name=$(basename "$dir")
	G=$T/$name
	cp -R "$dir" "$G"
	(
		cd "$G/src" && git init -q . && git add -A &&
			GIT_AUTHOR_DATE=2000-01-01T00:00:00Z \
			GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
			git -c user.name=Dev -c user.email=dev@example.org \
				commit -q -m tree && git tag built
	) && mv "$G/src" "$G/src.git"
	"$ROBOT" compose --dry-run -c "$T/robot.yaml" "$G/request.yaml" \
		>"$G/actual" 2>"$G/err"
	if [ -n "${UPDATE:-}" ] && ! cmp -s "$G/actual" "$dir/expect.eml"; then
		cp "$G/actual" "$dir/expect.eml"
	fi
	ok "$name: the mail is expect.eml" test_cmp "$dir/expect.eml" "$G/actual"
	"$ROBOT" compose --dry-run -c "$T/robot.yaml" "$G/request.yaml" \
		>"$G/again" 2>/dev/null
	ok "$name: the same bytes twice" cmp "$G/actual" "$G/again"
	ok "$name: Python's parser finds no defect" "$PYTHON" -c '
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
assert not m.defects and m["Subject"] and m["Message-ID"], m.defects' "$G/actual"
done
echo "1..$test_n"
[ "$test_failed" -eq 0 ]
