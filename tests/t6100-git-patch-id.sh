#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t6100-git-patch-id: robot's stable patch-id (git/patchid.c, over the
# diff libgit2 prints) is the one `git patch-id --stable` prints for
# `git show --binary --format=email C`, the oracle, on commits of every
# kind: edits, several files (in an order a diff of another base would
# not keep), new, deleted and renamed files, a mode change, binary files,
# no newline at the end, blanks-only changes, CRLF text, quoted file
# names, a root commit.
# A merge and an empty commit have none.  The ids of posted patches
# (git format-patch mails, read from stdin) agree too.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-git.sh"

PID=$BUILD/tests/helpers/patch-id
R=$T/repo
g() {
	_fixture_git "$R" "Alice Example" alice@example.org \
		"2024-06-01 10:00:00 +0000" "Alice Example" alice@example.org \
		"2024-06-01 10:00:00 +0000" "$@"
}
commit() {
	g add -A && g commit -q --allow-empty -m "$1"
}
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
	git init -q --initial-branch=master "$R"

seq 1 40 >"$R/numbers"
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$R/main.c"
printf 'no newline at the end' >"$R/tail.txt"
commit "root: the first files"
sed -i 's/^7$/seven/; s/^30$/thirty/' "$R/numbers"
commit "edit: two hunks"
printf 'x\n' >>"$R/main.c"
printf 'a\n' >"$R/a.txt"
printf 'z\n' >"$R/z.txt"
commit "several files"
printf 'still no newline, but changed' >"$R/tail.txt"
commit "no newline at the end of file"
printf 'int main(void)\n{\n\treturn  0;\n}\nx\n' >"$R/main.c"
commit "blanks only"
rm "$R/a.txt"
commit "delete a file"
g mv numbers numbers.txt
commit "rename a file"
chmod +x "$R/z.txt"
commit "mode change alone"
chmod -x "$R/z.txt"
printf 'z\nzz\n' >"$R/z.txt"
commit "mode change and edit"
printf '\000\001\002binary\377' >"$R/blob.bin"
commit "add a binary file"
printf '\000\001\003binary\376' >"$R/blob.bin"
printf 'crlf\r\nline\r\n' >"$R/dos.txt"
commit "modify a binary file, add CRLF text"
printf 'b\n}\n}\nb\nc\n}\n{\nx\n}\na\n}\na\n\n{\n' >"$R/moved.txt"
commit "lines to move"
printf 'b\n}\n}\nx\nb\nc\n}\n{\na\n}\na\n\n{\n' >"$R/moved.txt"
commit "moved lines (myers and patience differ)"
g tag moved
printf 'grün\n' >"$R/größe.txt"
printf 'blank\n' >"$R/with blank.txt"
commit "UTF-8 and blanks in file names"
commit "empty commit"
g checkout -q -b side HEAD~2
printf 'side\n' >"$R/side.txt"
commit "side branch"
g checkout -q master
g merge -q --no-ff -m "a merge" side

oracle() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
		git -C "$R" show --binary --format=email "$1" |
		git patch-id --stable
}
revs=$(git -C "$R" rev-list --reverse master)
n=0
for c in $revs; do
	n=$((n + 1))
	subj=$(git -C "$R" log -1 --format=%s "$c")
	oracle "$c" >"$T/want"
	"$PID" repo "$R" "$c" >"$T/got"
	ok "patch-id of '$subj' is git's" test_cmp "$T/want" "$T/got"
done
ok "the history has all 17 commits" test "$n" -eq 17

ok "a merge has no patch-id" test -z "$("$PID" all "$R" master)"
ok "an empty commit has no patch-id" \
	test -z "$("$PID" all "$R" master^1)"
# the moved lines: myers's id first, then patience's, which differs
"$PID" all "$R" moved >"$T/all"
ok "the moved lines give two ids" test "$(wc -l <"$T/all")" -eq 2
ok "the first is git's default (myers)" \
	test "$(head -1 "$T/all")" = "$(oracle moved | cut -d' ' -f1)"
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
	git -C "$R" show --binary --format=email --diff-algorithm=patience \
	moved | git patch-id --stable | cut -d' ' -f1 >"$T/pat"
ok "the second is patience's" test "$(sed -n 2p "$T/all")" = "$(cat "$T/pat")"

# posted patches: git format-patch mails, as public-inbox indexes them
mkdir "$T/mails"
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
	git -C "$R" format-patch -q -o "$T/mails" master~15..master~2
for m in "$T/mails"/*.patch; do
	git patch-id --stable <"$m" | cut -d' ' -f1 >"$T/want"
	"$PID" stdin <"$m" | cut -d' ' -f1 >"$T/got"
	ok "the mail $(basename "$m") has git's patch-id" \
		test_cmp "$T/want" "$T/got"
done
ok "a text without a diff has no patch-id" \
	test -z "$(printf 'Subject: hi\n\nno diff here\n' | "$PID" stdin)"

# Only the distinct ids: robot diffs again with patience and minimal only
# when myers's diff could differ (more than one changed block in a file),
# so for random edits of small files, the ids robot gives must be exactly
# the distinct ones of git's myers, patience and minimal diffs.
Q=$T/random
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
	git init -q --initial-branch=master "$Q"
"$PYTHON" - "$Q" <<'PY'
import random, sys
random.seed(13)
words = ["a", "b", "c", "{", "}", "x", ""]
for n in range(30):
    old = [random.choice(words) for _ in range(14)]
    new = list(old)
    for _ in range(random.randint(1, 4)):
        i = random.randint(0, len(new) - 1)
        op = random.randint(0, 2)
        if op == 0:
            new.insert(i, random.choice(words))
        elif op == 1 and len(new) > 1:
            del new[i]
        else:
            new[i] = random.choice(words)
    for side, lines in (("old", old), ("new", new)):
        with open("%s/pair%02d.%s" % (sys.argv[1], n, side), "w") as f:
            f.write("\n".join(lines) + "\n")
PY
n=0
agree=0
while [ $n -lt 30 ]; do
	f=$(printf 'pair%02d' $n)
	cp "$Q/$f.old" "$Q/file"
	_fixture_git "$Q" A a@example.org "2024-06-01 10:00:00 +0000" A \
		a@example.org "2024-06-01 10:00:00 +0000" add file
	_fixture_git "$Q" A a@example.org "2024-06-01 10:00:00 +0000" A \
		a@example.org "2024-06-01 10:00:00 +0000" commit -q -m "old $n"
	cp "$Q/$f.new" "$Q/file"
	_fixture_git "$Q" A a@example.org "2024-06-01 10:00:00 +0000" A \
		a@example.org "2024-06-01 10:00:00 +0000" commit -q -a \
		--allow-empty -m "new $n"
	for a in myers patience minimal; do
		GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
			git -C "$Q" show --binary --format=email \
			--diff-algorithm=$a HEAD | git patch-id --stable |
			cut -d' ' -f1
	done | awk '!seen[$0]++' >"$T/want"
	"$PID" all "$Q" HEAD >"$T/got"
	if cmp -s "$T/want" "$T/got"; then
		agree=$((agree + 1))
	else
		echo "# pair $n: git's ids and robot's differ"
		diff "$T/want" "$T/got" | sed 's/^/# /'
	fi
	n=$((n + 1))
done
ok "30 random edits: robot's ids are git's distinct myers/patience/minimal ids" \
	test "$agree" -eq 30
