# SPDX-License-Identifier: GPL-2.0-only
#
# t6000-git-commit-info: commit metadata from a real repository (libgit2)
# and from a commit-metadata file give the same fields: ids, subject,
# subsystem, tag, author, committer, trailers, body, parent and the kernel
# release.  The release is checked against `git describe --tags` and the
# Makefile; bad input exits 65 with one "robot: error:" line.  Driven
# through tests/helpers/commit-info.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-git.sh"

CI=$BUILD/tests/helpers/commit-info
if [ ! -x "$CI" ]; then
	_fail "$CI is built (make all)"
	exit 1
fi
R=$T/linux

ok "the fixture repository builds" git_fixture_kernel "$R"
rev() {
	git -C "$R" rev-parse --verify -q "$1^{commit}"
}
short() {
	printf '%s\n' "$1" | cut -c1-12
}
c0=$(rev v6.3-rc6)
c1=$(rev v6.3-rc7)
c0b=$(rev "$c1^")
c2=$(rev master^)
c3=$(rev master)
ok "the fixture's ids are fixed" \
	test "$c3" = 25f3a6c924bba31707230363149933efe219c28e

# --- a real repository -------------------------------------------------
cat >"$T/c3.want" <<EOF
id: $c3
short: $(short "$c3")
subject: x86: don't use REP_GOOD or ERMS for small memory clearing
subsystem: x86
author: René Lévesque <rene.levesque@example.org>
author_date: 2023-04-18 10:21:55 +0800 (1681784515 480)
committer: Ingo Molnar <mingo@kernel.org>
committer_date: 2023-04-19 16:42:07 +0200 (1681915327 120)
parent: $c2
release: 6.3.0-rc7-00002-$(printf 'g%s' "$(short "$c3")")
trailer: Fixes: 0123456789ab ("x86: make small copies faster")
trailer: Reported-by: kernel test robot <oliver.sang@intel.com>
trailer: Link: https://lore.kernel.org/oe-lkp/202304181234.deadbeef-oliver.sang@intel.com
trailer: Cc: stable@vger.kernel.org # 6.1+
trailer: Acked-by: Some Maintainer <maint@example.org>
trailer: Signed-off-by: René Lévesque <rene.levesque@example.org>
trailer: Signed-off-by: Ingo Molnar <mingo@kernel.org>
body:
> The same change as for copies: clearing a few bytes is faster
> with the plain loop.
>
> 	Measured with stress-ng's lockofd test.
>
> Fixes: 0123456789ab ("x86: make small copies faster")
> Reported-by: kernel test robot <oliver.sang@intel.com>
> Link: https://lore.kernel.org/oe-lkp/202304181234.deadbeef-oliver.sang@intel.com
> Cc: stable@vger.kernel.org # 6.1+
> Acked-by: Some Maintainer
>   <maint@example.org>
> Signed-off-by: René Lévesque <rene.levesque@example.org>
> Signed-off-by: Ingo Molnar <mingo@kernel.org>
EOF
"$CI" repo "$R" "$c3" >"$T/c3.out" 2>&1
ok "every field of the newest commit" test_cmp "$T/c3.want" "$T/c3.out"

for r in master refs/heads/master "$(short "$c3")" \
	"$(printf %s "$c3" | cut -c1-7)" HEAD; do
	"$CI" repo "$R" "$r" >"$T/rev.out" 2>&1
	ok "revision '$r' names the same commit" \
		test_cmp "$T/c3.want" "$T/rev.out"
done

# shellcheck disable=SC1111 # the “” are data
cat >"$T/older.want" <<EOF
id: $c1
short: $(short "$c1")
subject: Linux 6.3-rc7
tag: v6.3-rc7
author: Linus Torvalds <torvalds@linux-foundation.org>
author_date: 2023-04-16 15:23:53 -0700 (1681683833 -420)
committer: Linus Torvalds <torvalds@linux-foundation.org>
committer_date: 2023-04-16 15:23:53 -0700 (1681683833 -420)
parent: $c0b
release: 6.3.0-rc7

id: $c0b
short: $(short "$c0b")
subject: mm/slub: fix the “Größe” comment — no functional change
subsystem: mm/slub
author: René Lévesque <rene.levesque@example.org>
author_date: 2023-04-12 09:15:27 +0530 (1681271127 330)
committer: Andrew Morton <akpm@linux-foundation.org>
committer_date: 2023-04-13 11:00:00 -0700 (1681408800 -420)
parent: $c0
release: 6.3.0-rc6-00001-g$(short "$c0b")
trailer: Signed-off-by: René Lévesque <rene.levesque@example.org>
trailer: Signed-off-by: Andrew Morton <akpm@linux-foundation.org>
body:
> The comment above the size field still spoke of “Größe”, which
> nobody reading the code in English understands.
>
> Signed-off-by: René Lévesque <rene.levesque@example.org>
> Signed-off-by: Andrew Morton <akpm@linux-foundation.org>

id: $c0
short: $(short "$c0")
subject: Linux 6.3-rc6
tag: v6.3-rc6
author: Linus Torvalds <torvalds@linux-foundation.org>
author_date: 2023-04-09 15:03:00 -0700 (1681077780 -420)
committer: Linus Torvalds <torvalds@linux-foundation.org>
committer_date: 2023-04-09 15:03:00 -0700 (1681077780 -420)
release: 6.3.0-rc6
EOF
"$CI" repo "$R" rc7-base "$c0b" v6.3-rc6 >"$T/older.out" 2>&1
ok "tagged, UTF-8 and root commits (annotated tag beats lightweight)" \
	test_cmp "$T/older.want" "$T/older.out"

# The release, as the kernel's setlocalversion builds it from the
# Makefile and `git describe --tags`.
want_release() {
	mk=$(git -C "$1" show "$2:Makefile")
	v=$(printf '%s\n' "$mk" | sed -n 's/^VERSION = //p')
	p=$(printf '%s\n' "$mk" | sed -n 's/^PATCHLEVEL = //p')
	s=$(printf '%s\n' "$mk" | sed -n 's/^SUBLEVEL = //p')
	e=$(printf '%s\n' "$mk" | sed -n 's/^EXTRAVERSION = //p')
	printf '%s.%s.%s%s' "$v" "$p" "$s" "$e"
	git -C "$1" describe --tags --exact-match "$2" >/dev/null 2>&1 &&
		return 0
	if d=$(git -C "$1" describe --tags "$2" 2>/dev/null); then
		n=$(printf '%s\n' "$d" | sed 's/.*-\([0-9][0-9]*\)-g[0-9a-f]*$/\1/')
		printf '%s%05d' - "$n"
	fi
	printf '%s%s' -g "$(short "$2")"
}
check_releases() {
	for c in $(git -C "$1" rev-list --all); do
		w=$(want_release "$1" "$c")
		g=$("$CI" repo "$1" "$c" | sed -n 's/^release: //p')
		if [ "$w" != "$g" ]; then
			echo "$c: want '$w', got '$g'"
			return 1
		fi
	done
}
ok "every release matches git describe --tags and the Makefile" \
	check_releases "$R"

# More tags, in a clone: a lightweight tag on c2 counts for describe
# --tags (c2 is exactly at it, c3 one past it); two annotated tags on c1
# give the smaller name.
R2=$T/clone
git clone -q "$R" "$R2" 2>/dev/null
_fixture_linus "$R2" "2023-04-20 10:00:00 -0700" tag light-c2 "$c2"
_fixture_linus "$R2" "2023-04-20 10:00:00 -0700" \
	tag -a -m "another name" a-annotated "$c1"
ok "clone: releases still match git describe --tags" check_releases "$R2"
"$CI" repo "$R2" "$c2" "$c1" "$c3" |
	sed -n -e 's/^tag: //p' -e 's/^release: //p' >"$T/tags.out" 2>&1
cat >"$T/tags.want" <<EOF
light-c2
6.3.0-rc7
a-annotated
6.3.0-rc7
6.3.0-rc7-00001-g$(short "$c3")
EOF
ok "clone: lightweight tag found, smallest annotated name wins" \
	test_cmp "$T/tags.want" "$T/tags.out"

# No tags at all: "-g" and 12 digits only; no Makefile: no release.
R3=$T/notags
mkdir -p "$R3"
_fixture_linus "$R3" "2023-04-20 10:00:00 -0700" init -q
git -C "$R" show "$c3:Makefile" >"$R3/Makefile"
_fixture_linus "$R3" "2023-04-20 10:00:00 -0700" add Makefile
_fixture_linus "$R3" "2023-04-20 10:00:00 -0700" commit -q -m "first"
git -C "$R3" rm -q Makefile
_fixture_linus "$R3" "2023-04-20 10:00:00 -0700" commit -q -m "second"
n1=$(git -C "$R3" rev-parse HEAD~1)
printf 'release: 6.3.0-rc7-g%s\n' "$(short "$n1")" >"$T/notags.want"
"$CI" repo "$R3" HEAD~1 HEAD | grep '^release' >"$T/notags.out"
ok "no tags: release ends in -g<12 digits>; no Makefile: no release" \
	test_cmp "$T/notags.want" "$T/notags.out"

ok "is-repo: the fixture is a repository" "$CI" is-repo "$R"
not() {
	! "$@"
}
ok "is-repo: a plain directory is not" not "$CI" is-repo "$T"

# --- the subsystem rule ------------------------------------------------
"$CI" subsystem \
	"x86: don't use REP_GOOD or ERMS for small memory copies" \
	"sched/fair: fix the lag" "mm/slub: fix" "drm/i915/gt: fix" \
	"[PATCH v2 3/4] foo: bar" "[PATCH] [RFC] net: sched: fix" \
	"Linux 6.3-rc7" "foo:bar" ": bar" "[PATCH] no colon" \
	'Revert "x86: foo"' "  spaced : x" "[unclosed x86: y" \
	"io_uring/io-wq: fix" "block/mq-deadline: x" "x86/copy_mc: y" \
	"btrfs_get_tree_subvol(): z" "-x: y" \
	"tools/power turbostat: Add LLC stats" \
	"dax/hmem, e820, resource: Defer" 'Reapply "serial: 8250: x"' \
	"Re: [RFC] what to do with IOCB_DSYNC?" "Re: [PATCH] mm: x" \
	>"$T/subsys.out" 2>&1
cat >"$T/subsys.want" <<'EOF'
x86
sched/fair
mm/slub
drm/i915/gt
foo
net
(none)
(none)
(none)
(none)
(none)
spaced
(none)
io_uring/io
block/mq
x86/copy_mc
btrfs_get_tree_subvol()
(none)
tools/power turbostat
dax/hmem, e820, resource
(none)
(none)
mm
EOF
ok "subsystem: the word before the first ': ', after leading [...] groups" \
	test_cmp "$T/subsys.want" "$T/subsys.out"

# --- the commit-metadata file ------------------------------------------
cat >"$T/meta.yaml" <<EOF
commits:
- id: $c3
  subject: "x86: don't use REP_GOOD or ERMS for small memory clearing"
  author: "René Lévesque <rene.levesque@example.org>"
  author_date: "2023-04-18 10:21:55 +0800"
  committer: Ingo Molnar <mingo@kernel.org>
  committer_date: 2023-04-19 16:42:07 +0200
  parent: $c2
  release: 6.3.0-rc7-00002-g$(short "$c3")
  body: |
    The same change as for copies: clearing a few bytes is faster
    with the plain loop.

    	Measured with stress-ng's lockofd test.

    Fixes: 0123456789ab ("x86: make small copies faster")
    Reported-by: kernel test robot <oliver.sang@intel.com>
    Link: https://lore.kernel.org/oe-lkp/202304181234.deadbeef-oliver.sang@intel.com
    Cc: stable@vger.kernel.org # 6.1+
    Acked-by: Some Maintainer
      <maint@example.org>
    Signed-off-by: René Lévesque <rene.levesque@example.org>
    Signed-off-by: Ingo Molnar <mingo@kernel.org>
  trailers:
  - 'Fixes: 0123456789ab ("x86: make small copies faster")'
  - "Reported-by: kernel test robot <oliver.sang@intel.com>"
  - "Link: https://lore.kernel.org/oe-lkp/202304181234.deadbeef-oliver.sang@intel.com"
  - "Cc: stable@vger.kernel.org # 6.1+"
  - "Acked-by: Some Maintainer <maint@example.org>"
  - "Signed-off-by: René Lévesque <rene.levesque@example.org>"
  - "Signed-off-by: Ingo Molnar <mingo@kernel.org>"
- id: $c1
  subject: Linux 6.3-rc7
  tag: v6.3-rc7
EOF
"$CI" file "$T/meta.yaml" "$(short "$c3")" >"$T/meta.out" 2>&1
ok "metadata file: the same fields as the repository" \
	test_cmp "$T/c3.want" "$T/meta.out"

all="$c3 $c2 $c1 $c0b $c0"
# shellcheck disable=SC2086
"$CI" yaml "$R" $all >"$T/all.yaml" 2>"$T/all.err"
# shellcheck disable=SC2086
"$CI" repo "$R" $all >"$T/all-repo.out" 2>&1
# shellcheck disable=SC2086
"$CI" file "$T/all.yaml" $all >"$T/all-file.out" 2>&1
ok "metadata file written from the repository loads back the same" \
	test_cmp "$T/all-repo.out" "$T/all-file.out"
# shellcheck disable=SC2086
"$CI" repo-set "$R" $all >"$T/all-set.out" 2>&1
ok "a commit set from the repository: the same, in order" \
	test_cmp "$T/all-repo.out" "$T/all-set.out"

# --- errors: exit 65, one "robot: error:" line --------------------------
# bad DESC PATTERN CMD...: exits 65 with one error line matching PATTERN
bad() {
	desc=$1 pat=$2
	shift 2
	expect_code 65 "$desc" "$@"
	if ! grep -Eq -- "$pat" "$T/.err"; then
		_fail "$desc: message (want /$pat/)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
}
bad "unknown commit" "commit 'deadbeef' not found in repository '$R'" \
	"$CI" repo "$R" deadbeef
bad "unknown branch" "commit 'no-such-branch' not found in repository" \
	"$CI" repo "$R" no-such-branch
bad "short hex" "commit 'abc' not found in repository '$R'" \
	"$CI" repo "$R" abc
bad "not a commit" "is not a commit" "$CI" repo "$R" "HEAD^{tree}"
bad "commit set: one unknown commit" "commit 'nope' not found" \
	"$CI" repo-set "$R" HEAD nope HEAD~1
bad "commit set: not a repository" "'$T' is not a git repository" \
	"$CI" repo-set "$T" HEAD
bad "not a repository" "commit 'HEAD'.*'$T' is not a git repository" \
	"$CI" repo "$T" HEAD
bad "missing repository" "commit 'HEAD'.*'$T/nope' is not a git repository" \
	"$CI" repo "$T/nope" HEAD

# badmeta DESC PATTERN ENTRY: a metadata file with one entry whose lines
# (after "- id: $c3") are ENTRY (printf format) is refused
badmeta() {
	{
		printf 'commits:\n- id: %s\n' "$c3"
		# shellcheck disable=SC2059
		printf "$3"
	} >"$T/bad.yaml"
	bad "metadata file: $1" "$2" "$CI" file "$T/bad.yaml" "$c3"
}
badmeta "unknown key" "bad.yaml:3: commits: unknown key 'colour'" \
	'  colour: blue\n'
badmeta "bad parent id" "bad.yaml:3: .*'parent' must be 40 lowercase hex" \
	'  parent: 1234\n'
badmeta "CR in subject" "bad.yaml:3: .*'subject' must be one line" \
	'  subject: "x86: a\\rb"\n'
badmeta "LF in subject" "'subject' must be one line" \
	'  subject: "x86: a\\nb"\n'
badmeta "U+2028 in subject" "'subject' must be one line" \
	'  subject: "x86: a\\Lb"\n'
badmeta "invalid UTF-8" "bad.yaml" '  subject: "x86: \377"\n'
badmeta "wrong type (list subject)" "'subject' must be a string" \
	'  subject: [a, b]\n'
badmeta "wrong type (null tag)" "'tag' must be a string" '  tag:\n'
badmeta "wrong type (trailers not a list)" "'trailers' must be a list" \
	'  trailers: "Signed-off-by: x"\n'
badmeta "trailer without a key" "bad.yaml:4: .*'trailers' entries" \
	'  trailers:\n  - "no key here"\n'
badmeta "author without email" "'author' must be \"Name <email>\"" \
	'  author: René\n  author_date: "2023-04-18 10:21:55 +0800"\n'
badmeta "author with CR" "'author' must be \"Name <email>\"" \
	'  author: "A\\rB <a@b>"\n  author_date: "2023-04-18 10:21:55 +0800"\n'
badmeta "impossible date" "'author_date' must be \"YYYY-MM-DD" \
	'  author: "A <a@b>"\n  author_date: "2023-02-29 10:21:55 +0800"\n'
badmeta "date without zone" "'committer_date' must be" \
	'  committer: "A <a@b>"\n  committer_date: "2023-04-18 10:21:55"\n'
badmeta "author without date" "'author' and 'author_date' go together" \
	'  author: "A <a@b>"\n'
badmeta "control character in body" "'body' must be valid UTF-8" \
	'  body: "a\\x01b"\n'
printf 'commits:\n- id: %s\n- id: %s\n' "$c3" "$c3" >"$T/dup.yaml"
bad "metadata file: duplicate id" "dup.yaml:3: commits: duplicate id" \
	"$CI" file "$T/dup.yaml" "$c3"
printf 'commits:\n- id: %s\n' "$(printf %s "$c3" | tr a-f A-F)" >"$T/uc.yaml"
bad "metadata file: uppercase id" "uc.yaml:2: .*'id' must be 40 lowercase" \
	"$CI" file "$T/uc.yaml" "$c3"

# A repository's text goes through the same checks as the file's (git
# itself would re-encode a Latin-1 name, so the commit is written raw).
R4=$T/latin1
mkdir -p "$R4"
_fixture_linus "$R4" "2023-04-20 10:00:00 -0700" init -q
tree=$(git -C "$R4" mktree </dev/null)
l1=$({
	printf 'tree %s\n' "$tree"
	printf 'author Ren\351 <r@example.org> 1682010000 -0700\n'
	printf 'committer C <c@example.org> 1682010000 -0700\n\nx: y\n'
} | git -C "$R4" hash-object -t commit -w --stdin)
bad "repository: author name not UTF-8" \
	"commit '$l1' in repository '$R4': 'author' name must be one line" \
	"$CI" repo "$R4" "$l1"
