# SPDX-License-Identifier: GPL-2.0-only
#
# t3320-summary-gcc: a branch summary of real builds.  A tiny kernel-style
# tree (a Makefile and drivers/pci/probe.c, whose CONFIG_* macros decide
# what it gets wrong) is built with make and gcc for 22 configs (and with
# clang for two more when Debian's clang is installed): some build clean,
# some warn (an unused variable, a missing prototype), some fail (an
# undeclared identifier); one config is skipped.  Each build leaves a
# build result (doc/build-result.md: build.yaml without a status, so robot
# classifies it from the log, and make's own output as build.log); robot
# composes the summary, and the test holds its verdict, counts, finding
# lists, the tree of ids by config and the table to what the builds did.
. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null && command -v make >/dev/null || {
	_ok "gcc and make are installed # SKIP"
	exit 0
}
# the build runs as a job of its own, not of the make running the tests
S=$T/src
mkdir -p "$S/drivers/pci"
cat >"$S/drivers/pci/probe.c" <<'C'
int probe_main(void);
int probe_main(void)
{
#ifdef CONFIG_UNUSED
	int unused_flag;
#endif
#ifdef CONFIG_BROKEN
	return ctrl;
#else
	return 0;
#endif
}
#ifdef CONFIG_NOPROTO
int probe_old(void)
{
	return 1;
}
#endif
C
cat >"$S/Makefile" <<'M'
CC ?= gcc
drivers/pci/probe.o: drivers/pci/probe.c
	$(CC) -Wall -Wmissing-prototypes $(KCONFIG) -c -o $@ $<
M

# NAME ARCH FLAGS: 22 configs of gcc
cat >"$T/configs" <<'L'
alpha-allnoconfig alpha
arc-defconfig arc
arm-allmodconfig arm -DCONFIG_BROKEN
arm-defconfig arm
arm64-allyesconfig arm64 -DCONFIG_BROKEN -DCONFIG_UNUSED
arm64-defconfig arm64
csky-allnoconfig csky -DCONFIG_NOPROTO
hexagon-defconfig hexagon
i386-allyesconfig i386 -DCONFIG_UNUSED
i386-defconfig i386
loongarch-defconfig loongarch
m68k-allnoconfig m68k -DCONFIG_NOPROTO -DCONFIG_UNUSED
mips-allmodconfig mips -DCONFIG_BROKEN
nios2-defconfig nios2
parisc-defconfig parisc
powerpc-allnoconfig powerpc
riscv-defconfig riscv -DCONFIG_UNUSED
s390-allmodconfig s390
sh-defconfig sh
sparc-allnoconfig sparc -DCONFIG_NOPROTO
um-defconfig um
x86_64-allyesconfig x86_64 -DCONFIG_BROKEN -DCONFIG_NOPROTO
L
CLANG=
command -v clang >/dev/null && CLANG=clang
n=0
builds=
while read -r name arch flags; do
	n=$((n + 1))
	d=$T/b/$(printf '%03d' $n)
	mkdir -p "$d"
	rm -rf "$T/w" && cp -R "$S" "$T/w"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$T/w" CC=gcc \
		KCONFIG="$flags" >"$d/build.log" 2>&1
	echo "make CC=gcc KCONFIG=\"$flags\" drivers/pci/probe.o" >>"$d/build.log"
	cat >"$d/build.yaml" <<Y
arch: $arch
config: ${name#"$arch"-}
compiler: "$(gcc --version | head -n 1)"
Y
	builds="$builds, b/$(printf '%03d' $n)"
done <"$T/configs"
if [ -n "$CLANG" ]; then
	for cfg in "x86_64 randconfig-001 -DCONFIG_BROKEN" "arm64 randconfig-002"; do
		set -- $cfg
		n=$((n + 1))
		d=$T/b/$(printf '%03d' $n)
		mkdir -p "$d"
		rm -rf "$T/w" && cp -R "$S" "$T/w"
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$T/w" \
			CC=clang KCONFIG="${3:-}" >"$d/build.log" 2>&1
		echo "make CC=clang" >>"$d/build.log"
		printf 'arch: %s\nconfig: %s\ncompiler: "%s"\n' "$1" "$2" \
			"$(clang --version | head -n 1)" >"$d/build.yaml"
		builds="$builds, b/$(printf '%03d' $n)"
	done
fi
mkdir -p "$T/b/skip"
printf 'arch: xtensa\nconfig: allmodconfig\nstatus: skipped\n' >"$T/b/skip/build.yaml"
cat >"$T/request.yaml" <<R
kind: build-summary
date: "2022-05-15 21:00:21 +0800"
message_id: "<202205152100.t3320-lkp@intel.com>"
from: "kernel test robot <lkp@intel.com>"
to: ["Some One <some@example.org>"]
tree: demo
branch: master
repo_url: https://example.org/demo.git
head: 0123456789abcdef0123456789abcdef01234567
head_subject: "demo: the head"
elapsed_minutes: 3
builds: [${builds#, }, b/skip]
R
(cd "$T" && "$ROBOT" compose --dry-run request.yaml) >"$T/mail" 2>"$T/err"
ok "compose of the summary of the real builds succeeds" test ! -s "$T/err"
tested=$n
ok "configs tested: $tested (every built config)" \
	grep -qx "configs tested: $tested" "$T/mail"
ok "configs skipped: 1" grep -qx "configs skipped: 1" "$T/mail"
ok "a failed build makes it a BUILD REGRESSION" \
	grep -q '^Subject: \[demo:master\] BUILD REGRESSION$' "$T/mail"

# the new lines: each distinct finding line of the logs, sorted
grep -h -e ': error: ' -e ': warning: ' -e ': note: ' "$T"/b/*/build.log |
	LC_ALL=C sort -u >"$T/want-lines"
sed -n '/^Error\/Warning: (recently/,/^Error\/Warning ids/p' "$T/mail" |
	sed '1,2d;$d' | sed '$d' >"$T/got-lines"
ok "the listed lines are the logs' findings, sorted" \
	test_cmp "$T/want-lines" "$T/got-lines"

# the tree: by hand, the ids gcc's findings must give in the C locale
want_tree() {
	echo gcc_recent_errors
	set --
	while read -r name arch flags; do
		ids=
		case "$flags" in *BROKEN*)
			ids="$ids drivers-pci-probe.c:error:ctrl-undeclared-(first-use-in-this-function)"
			ids="$ids drivers-pci-probe.c:note:each-undeclared-identifier-is-reported-only-once-for-each-function-it-appears-in"
			# gcc's error recovery: the return has no value left
			ids="$ids drivers-pci-probe.c:warning:control-reaches-end-of-non-void-function"
			;;
		esac
		case "$flags" in *NOPROTO*)
			ids="$ids drivers-pci-probe.c:warning:no-previous-prototype-for-probe_old" ;;
		esac
		case "$flags" in *UNUSED*)
			ids="$ids drivers-pci-probe.c:warning:unused-variable-unused_flag" ;;
		esac
		[ -n "$ids" ] && echo "$name$ids"
	done <"$T/configs" | LC_ALL=C sort >"$T/with-ids"
	last=$(tail -n 1 "$T/with-ids" | cut -d' ' -f1)
	while read -r label rest; do
		if [ "$label" = "$last" ]; then b='`--' p='    '; else b='|--' p='|   '; fi
		echo "$b $label"
		set -- $(printf '%s\n' $rest | LC_ALL=C sort)
		while [ $# -gt 0 ]; do
			if [ $# -eq 1 ]; then echo "$p\`-- $1"; else echo "$p|-- $1"; fi
			shift
		done
	done <"$T/with-ids"
}
want_tree >"$T/want-tree"
sed -n '/^gcc_recent_errors$/,/^$/p' "$T/mail" | sed '$d' >"$T/got-tree"
ok "the gcc tree groups each config's ids, configs and ids sorted" \
	test_cmp "$T/want-tree" "$T/got-tree"

# the table: every built config in the order of the request, by family
{
	echo "gcc tested configs:"
	while read -r name arch flags; do
		printf '%-13s%32s\n' "$arch" "${name#"$arch"-}"
	done <"$T/configs"
} >"$T/want-table"
sed -n '/^gcc tested configs:$/,/^$/p' "$T/mail" | sed '$d' >"$T/got-table"
ok "the gcc table lists every gcc config, arch and config aligned" \
	test_cmp "$T/want-table" "$T/got-table"
if [ -n "$CLANG" ]; then
	ok "clang's configs have their tree" grep -qx 'clang_recent_errors' "$T/mail"
	ok "... holding clang's own wording of the error" grep -q \
		"^    .-- drivers-pci-probe.c:error:use-of-undeclared-identifier-ctrl$" \
		"$T/mail"
	ok "... and their table" grep -qx 'clang tested configs:' "$T/mail"
	ok "... whose clean config is not in the tree" \
		sh -c "! grep -q -- '-- arm64-randconfig-002' '$T/mail'"
fi
ok "a clean config is not in the tree" \
	sh -c "! grep -q -- '-- alpha-allnoconfig' '$T/mail'"
ok "the skipped config is not in the table" \
	sh -c "! grep -q '^xtensa' '$T/mail'"

# the same builds, warnings only: BUILD SUCCESS WITH WARNING
sed "s/, b\/003//; s/, b\/005//; s/, b\/013//; s/, b\/022//; s/, b\/023//" \
	"$T/request.yaml" >"$T/warn.yaml"
(cd "$T" && "$ROBOT" compose --dry-run warn.yaml) >"$T/wmail" 2>"$T/err"
ok "without the failed builds it is BUILD SUCCESS WITH WARNING" \
	grep -q '^Subject: \[demo:master\] BUILD SUCCESS WITH WARNING$' "$T/wmail"
ok "... under the Warning headings" grep -qx 'Warning ids grouped by kconfigs:' \
	"$T/wmail"
