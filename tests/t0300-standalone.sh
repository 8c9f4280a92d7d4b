# SPDX-License-Identifier: GPL-2.0-only
#
# t0300-standalone: the project stands alone.  No file of the repository
# refers to the material the project was started from (the documents
# in the shared folder beside the checkout: its contract, format notes,
# architecture, references, seeds and tools); what the project needs to
# say is in doc/.  The one thing tests may read from there is the corpus
# of real mails, at ../shared/corpus, and a test that does says in one
# line that it is absent, and passes, when it is.
#
# The rule for everyone: cite doc/ pages (doc/format.md for the format,
# doc/commands.md for the interface, doc/roundtrip.md for the round
# trip), tests/data/seeds/ for the seeds; `../shared/corpus` only in a
# test, to find the corpus.
. "$(dirname "$0")/lib.sh"

cd "$TOP" || exit 1
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	_ok "references # SKIP not a git checkout"
	echo "1..$test_n"
	exit 0
fi

# The patterns, built from parts so that this file does not match them.
sh=shared
rf=report
docs="CONTRACT\\.md|$rf-format|ARCHITECTURE\\.md|anchors\\.md"
docs="$docs|house-style\\.md|libraries\\.md|roundtrip\\.py|/work/$sh"
git ls-files -z | xargs -0 grep -nIE "$sh/|\\.\\./$sh([^/]|\$)|$docs" -- 2>/dev/null |
	grep -vE "\\.\\./$sh/corpus" >"$T/refs"
if [ -s "$T/refs" ]; then
	_fail "no file refers to the documents under ../$sh"
	sed 's/^/# /' "$T/refs"
else
	_ok "no file refers to the documents under ../$sh"
fi

# Outside tests/, no file names the shared folder at all, the corpus
# included: the tests are the ones that read it.
git ls-files -z | xargs -0 grep -nIE "\\.\\./$sh" -- 2>/dev/null |
	grep -v '^tests/' >"$T/outside"
if [ -s "$T/outside" ]; then
	_fail "only tests name ../$sh/corpus"
	sed 's/^/# /' "$T/outside"
else
	_ok "only tests name ../$sh/corpus"
fi

# Every test that reads the corpus says so in one line when it is absent.
for t in $(git ls-files 'tests/t[0-9]*.sh' | xargs grep -l "\\.\\./$sh/corpus"); do
	case $t in */t0300-*) continue ;; esac
	CORPUS=$T/no-corpus sh "$t" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$T/out")" -le 2 ] &&
		grep -q "^ok .* # SKIP no corpus at $T/no-corpus" "$T/out"; then
		_ok "$t: without the corpus, one line that says so"
	else
		_fail "$t: without the corpus, one line that says so (exit $rc)"
		sed 's/^/# /' "$T/out"
	fi
done

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
