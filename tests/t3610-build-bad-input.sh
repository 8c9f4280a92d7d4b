#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t3610-build-bad-input: a build request over a bad build result gets one
# "robot: error:" line naming the file and the key, exit 65, never a
# mail: a missing or empty log, binary junk, a finding whose file or
# line the commit does not have, a config with no compiler, an unknown
# key, a build.log or base.log of more than 8 MiB of lines robot keeps
# (just under it composes, in bounded memory).  Compiler output with CR, NUL-free control bytes and escape
# sequences is shown safely in the body and never reaches a header.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
mkdir -p src/drivers && cd src || exit 1
git init -q . && git config user.name Dev && git config user.email dev@example.org
printf 'int a;\nint b(void)\n{\n\treturn c;\n}\n' >drivers/x.c
git add -A && git commit -q -m x
commit=$(git rev-parse HEAD)
cd "$T" || exit 1

# reset: a good build result and request, which the cases then break
reset() {
	rm -rf b && mkdir b
	cat >b/build.yaml <<Y
arch: x86_64
config: x86_64-defconfig
compiler: "gcc-12 (Debian 12.2.0-14) 12.2.0"
commit: $commit
Y
	printf '%s\n' "drivers/x.c: In function 'b':" \
		"drivers/x.c:4:16: error: 'c' undeclared (first use in this function)" >b/build.log
	cat >request.yaml <<R
kind: build
date: "Sat, 21 Mar 2026 16:21:51 +0800"
message_id: "<202603211611.bad-lkp@intel.com>"
from: "kernel test robot <lkp@intel.com>"
to: ["Dev <dev@example.org>"]
tree: "https://git.example.org/x.git"
tree_name: x
branch: master
head: $commit
position: "1/1"
commit_subject: "x"
build: b
repo: src
excerpts:
  - {file: drivers/x.c, line: 4, from: 1, to: 5}
R
	cat >robot.yaml <<C
spool: $T/spool
archive_url: "https://download.01.org/0day-ci/archive"
list_archive_url: "https://lore.kernel.org/oe-kbuild-all"
C
}
compose() {
	"$ROBOT" compose --dry-run -c robot.yaml request.yaml
}

reset
expect_code 0 "the good request composes" compose
cp "$T/.out" mail
ok "... with the error marked" grep -q "^>> drivers/x.c:4:16: error:" mail

reset
rm b/build.log
expect_code 65 "a missing build.log" compose
ok "... names it" names "b/build.log"

reset
: >b/build.log
expect_code 65 "an empty build.log" compose
ok "... names it" names "b/build.log" "empty"

reset
printf -- '- arch: x86_64\n' >b/build.yaml
expect_code 65 "a build.yaml that is not a mapping" compose
ok "... names it and its line" names "b/build.yaml:1:" "must be a mapping"

reset
: >b/build.yaml
expect_code 65 "an empty build.yaml" compose
ok "... names it" names "b/build.yaml" "empty build result"

reset
head -c 4096 /dev/urandom | tr '\n' '\0' | fold -w 60 >b/build.log
printf '\0\n\0\n\0\n\0\n' >>b/build.log
expect_code 65 "binary junk" compose
ok "... names the log" names "b/build.log" "binary junk"

reset
sed -i 's/file: drivers\/x.c/file: drivers\/y.c/' request.yaml
expect_code 65 "a finding in a file the commit does not have" compose
ok "... names the file and the key" names "request.yaml" "excerpts[0].file" "drivers/y.c"

reset
sed -i 's/line: 4,/line: 40,/' request.yaml
expect_code 65 "a line the file does not have" compose
ok "... names the key" names "request.yaml" "excerpts[0].line"

reset
sed -i '/^compiler:/d' b/build.yaml
expect_code 65 "a config with no compiler" compose
ok "... names the file and the key" names "b/build.yaml" "compiler"

reset
echo "colour: always" >>b/build.yaml
expect_code 65 "an unknown key of build.yaml" compose
ok "... names it" names "b/build.yaml" "colour"

reset
echo "flavour: x" >>request.yaml
expect_code 65 "an unknown key of the request" compose
ok "... names it" names "request.yaml" "flavour"

reset
printf '%s\n' "drivers/x.c: In function 'b':" >b/build.log
expect_code 65 "a log with no finding" compose
ok "... says so" names "b/build.log" "no new finding"

# what is kept of a log: 8 MiB of its lines (doc/limits.md); beyond, one
# error naming the log, whichever of the two it is
warnings() { # warnings N: N warnings of 4,000 bytes a line
	awk -v n="$1" 'BEGIN {
		pad = sprintf("%3970s", ""); gsub(/ /, "y", pad)
		for (i = 0; i < n; i++)
			printf "drivers/x.c:4:%d: warning: %s\n", i % 10, pad
	}'
}
reset
warnings 2000 >>b/build.log
$PYTHON - "$ROBOT" >"$T/rss" 2>&1 <<'PY'
import resource, subprocess, sys
p = subprocess.run([sys.argv[1], 'compose', '--dry-run', '-c', 'robot.yaml',
                    'request.yaml'], capture_output=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(p.returncode, rss, p.stdout.count(b'warning: yyy'))
PY
read -r rc rss kept <"$T/rss"
ok "7.6 MiB of warnings kept: composed, every line in the mail ($kept)" \
	test "$rc" = 0 -a "$kept" = 2000
case "$BUILD" in
*asan*) _ok "... its memory: not measured under the sanitizers" ;;
*) ok "... in at most 100 MB ($rss MB; doc/limits.md)" test "$rss" -le 100 ;;
esac
reset
warnings 2200 >>b/build.log
expect_code 65 "8.4 MiB of warnings kept: refused" compose
ok "... one error naming the log and the limit" names "b/build.log" \
	"more than 8 MiB of compiler output kept"
reset
warnings 2200 >b/base.log
expect_code 65 "a base.log over 8 MiB kept: refused" compose
ok "... naming it" names "b/base.log" "8 MiB"

# escape sequences, CR and control bytes: shown as ^X, never raw
reset
printf "drivers/x.c:4:16: \033[01;31merror: \033[m'c' undeclared\033]0;title\007 x\r\n" >b/build.log
expect_code 0 "colour, an OSC sequence and a CR are composed" compose
cp "$T/.out" mail
ok "... the colour dropped, the rest shown as ^X" grep -qF \
	">> drivers/x.c:4:16: error: 'c' undeclared^[]0;title^G x" mail
ok "... no control byte but tab and newline in the mail" sh -c \
	"! LC_ALL=C tr -d '\t\n' <mail | LC_ALL=C grep -q '[[:cntrl:]]'"
ok "... the Subject shows them the same way" grep -qF \
	"Subject: [x:master 1/1] drivers/x.c:4:16: error: 'c' undeclared^[]0;title^G" mail
# queued as any report: once, then "already queued"; --force queues a
# correction under a new Message-ID, refused for the request's own one
reset
queue() {
	"$ROBOT" compose -c robot.yaml "$@" request.yaml
}
expect_code 0 "a build report is queued" queue
expect_code 0 "... and once only" queue
cp "$T/.out" said
ok "... the second time says so" grep -q "^already queued: <202603211611.bad-lkp@intel.com>" said
expect_code 65 "--force with the request's Message-ID of the queued copy" queue --force
ok "... names the key" names "request.yaml" "message_id"
sed -i '/^message_id:/d' request.yaml
expect_code 0 "without a Message-ID: the same report, already queued" queue
expect_code 0 "... --force queues a correction" queue --force
cp "$T/.out" said
ok "... which says what it corrects" grep -q "^corrects <" said
ok "... two messages in the spool" test "$(ls "$T/spool/new" | wc -l)" -eq 2
echo "1..$test_n"
[ "$test_failed" -eq 0 ]
