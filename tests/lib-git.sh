# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib-git.sh: git fixtures for shell tests (POSIX sh; source it after
# tests/lib.sh).
#
#   git_fixture_kernel DIR    builds a small kernel-like repository in DIR
#
# Every identity, date and message is fixed and git reads no user or
# system configuration here, so the commit ids are the same on every run
# and every machine.  History (oldest first):
#
#   Linux 6.3-rc6                 Makefile -rc6; lightweight tag v6.3-rc6
#   mm/slub: ... “Größe” ...      UTF-8 subject, author René Lévesque +0530
#   Linux 6.3-rc7                 Makefile -rc7; annotated tag v6.3-rc7,
#                                 and the lightweight tag rc7-base
#   x86: ... small memory copies  Linus Torvalds -0700, committer +0200
#   x86: ... small memory clearing  René Lévesque +0800; trailers with a
#                                 folded one; branch master, release
#                                 6.3.0-rc7-00002-g<12 hex>

# The fixture's assembler lines hold a literal "$64".
# shellcheck disable=SC2016

# Runs git in DIR with fixed identities and no outside configuration.
# Usage: _fixture_git DIR AUTHOR EMAIL ADATE COMMITTER CEMAIL CDATE ARGS...
_fixture_git() {
	_fg_dir=$1
	_fg_an=$2 _fg_ae=$3 _fg_ad=$4 _fg_cn=$5 _fg_ce=$6 _fg_cd=$7
	shift 7
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
		GIT_AUTHOR_NAME=$_fg_an GIT_AUTHOR_EMAIL=$_fg_ae \
		GIT_AUTHOR_DATE=$_fg_ad GIT_COMMITTER_NAME=$_fg_cn \
		GIT_COMMITTER_EMAIL=$_fg_ce GIT_COMMITTER_DATE=$_fg_cd \
		git -C "$_fg_dir" -c core.autocrlf=false -c commit.gpgsign=false \
		-c tag.gpgsign=false -c i18n.commitEncoding=UTF-8 "$@"
}

_fixture_linus() {
	_fl_dir=$1 _fl_date=$2
	shift 2
	_fixture_git "$_fl_dir" "Linus Torvalds" torvalds@linux-foundation.org \
		"$_fl_date" "Linus Torvalds" torvalds@linux-foundation.org \
		"$_fl_date" "$@"
}

_fixture_makefile() {
	cat >"$1/Makefile" <<EOF
# SPDX-License-Identifier: GPL-2.0
VERSION = 6
PATCHLEVEL = 3
SUBLEVEL = 0
EXTRAVERSION = $2
NAME = Fixture Kernel

# *DOCUMENTATION*
# This is a test fixture, not a kernel.
all:
	@echo "\$(VERSION).\$(PATCHLEVEL).\$(SUBLEVEL)\$(EXTRAVERSION)"
EOF
}

git_fixture_kernel() {
	_fk=$1
	mkdir -p "$_fk/arch/x86/lib" || return 1
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent \
		git init -q --initial-branch=master "$_fk" || return 1

	_fixture_makefile "$_fk" -rc6
	printf 'Linux kernel (test fixture)\n' >"$_fk/README"
	printf '/* memcpy_64.S: fixture */\n\tcmpq $64, %%rdx\n' \
		>"$_fk/arch/x86/lib/memcpy_64.S"
	printf '/* clear_user: fixture */\n\trep stosb\n' \
		>"$_fk/arch/x86/lib/clear_page_64.S"
	_fixture_linus "$_fk" "2023-04-09 15:03:00 -0700" add -A &&
		_fixture_linus "$_fk" "2023-04-09 15:03:00 -0700" \
			commit -q -m "Linux 6.3-rc6" &&
		_fixture_linus "$_fk" "2023-04-09 15:03:00 -0700" \
			tag v6.3-rc6 || return 1

	printf 'mm/slub.c: the size (“Größe”) of an object\n' >"$_fk/slub.txt"
	_fixture_git "$_fk" "René Lévesque" rene.levesque@example.org \
		"2023-04-12 09:15:27 +0530" "Andrew Morton" \
		akpm@linux-foundation.org "2023-04-13 11:00:00 -0700" \
		add -A || return 1
	_fixture_git "$_fk" "René Lévesque" rene.levesque@example.org \
		"2023-04-12 09:15:27 +0530" "Andrew Morton" \
		akpm@linux-foundation.org "2023-04-13 11:00:00 -0700" \
		commit -q -F - <<'EOF' || return 1
mm/slub: fix the “Größe” comment — no functional change

The comment above the size field still spoke of “Größe”, which
nobody reading the code in English understands.

Signed-off-by: René Lévesque <rene.levesque@example.org>
Signed-off-by: Andrew Morton <akpm@linux-foundation.org>
EOF

	_fixture_makefile "$_fk" -rc7
	_fixture_linus "$_fk" "2023-04-16 15:23:53 -0700" add -A &&
		_fixture_linus "$_fk" "2023-04-16 15:23:53 -0700" \
			commit -q -m "Linux 6.3-rc7" &&
		_fixture_linus "$_fk" "2023-04-16 15:30:00 -0700" \
			tag -a -m "Linux 6.3-rc7" v6.3-rc7 &&
		_fixture_linus "$_fk" "2023-04-16 15:30:00 -0700" \
			tag rc7-base || return 1

	printf '\tcmpq $64, %%rdx\n\tjb .Lsmall\n' >>"$_fk/arch/x86/lib/memcpy_64.S"
	_fixture_git "$_fk" "Linus Torvalds" torvalds@linux-foundation.org \
		"2023-04-17 14:10:03 -0700" "Ingo Molnar" mingo@kernel.org \
		"2023-04-18 09:00:00 +0200" add -A || return 1
	_fixture_git "$_fk" "Linus Torvalds" torvalds@linux-foundation.org \
		"2023-04-17 14:10:03 -0700" "Ingo Molnar" mingo@kernel.org \
		"2023-04-18 09:00:00 +0200" commit -q -F - <<'EOF' || return 1
x86: don't use REP_GOOD or ERMS for small memory copies

Short copies take the plain loop now; the string instructions are
kept for the large cases, where they pay off.

Reported-by: kernel test robot <oliver.sang@intel.com>
Link: https://lore.kernel.org/oe-lkp/202304171010.1234abcd-oliver.sang@intel.com
Signed-off-by: Linus Torvalds <torvalds@linux-foundation.org>
Signed-off-by: Ingo Molnar <mingo@kernel.org>
EOF

	printf '\tcmpq $64, %%rcx\n\tjb .Lclear_small\n' \
		>>"$_fk/arch/x86/lib/clear_page_64.S"
	_fixture_git "$_fk" "René Lévesque" rene.levesque@example.org \
		"2023-04-18 10:21:55 +0800" "Ingo Molnar" mingo@kernel.org \
		"2023-04-19 16:42:07 +0200" add -A || return 1
	_fixture_git "$_fk" "René Lévesque" rene.levesque@example.org \
		"2023-04-18 10:21:55 +0800" "Ingo Molnar" mingo@kernel.org \
		"2023-04-19 16:42:07 +0200" commit -q -F - <<'EOF' || return 1
x86: don't use REP_GOOD or ERMS for small memory clearing

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
EOF
}
