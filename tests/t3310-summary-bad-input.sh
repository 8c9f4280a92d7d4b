# SPDX-License-Identifier: GPL-2.0-only
#
# t3310-summary-bad-input: a branch summary over bad build results or a
# bad request is refused with one "robot: error:" line naming the file
# and the key, exit 65 (doc/errors.md), never a wrong mail: a missing or
# empty build.log, a config without a compiler, an unknown key in
# build.yaml or in the request, a bad status, a NUL, control bytes and
# escape sequences in the log, a damaged gzip log, a line of 2 MB, a
# request without builds or head, more findings than robot keeps (8 MiB
# a log, 8 MiB for the summary); a CRLF log, a gzip log, six builds of
# the same findings (listed once) and a log of
# 200 MB (in bounded memory) compose.
. "$(dirname "$0")/lib.sh"

D=$T/s
mkdir -p "$D"
cp -R "$TOP/tests/build-summary/data" "$D/data"
good() {
	cat <<'EOF2'
kind: build-summary
date: "2025-03-06 23:41:45 +0800"
message_id: "<202503062341.bad-lkp@intel.com>"
tree: pci
branch: pci/hotplug
repo_url: https://git.kernel.org/pub/scm/linux/kernel/git/helgaas/pci.git
head: c4e85e3f147644d222f7d2da21a812f8ff3b7cbc
head_subject: "PCI: a subject"
elapsed_minutes: 5
EOF2
}
compose() {
	(cd "$D" && "$ROBOT" compose --dry-run -c data/robot.yaml "$1")
}
build() { # build NAME YAML: a build result dir with a good log
	mkdir -p "$D/$1"
	printf '%s\n' "$2" >"$D/$1/build.yaml"
	printf 'make\n' >"$D/$1/build.log"
}
req() { # req FILE BUILD...: a request over the builds
	f=$1
	shift
	{
		good
		printf 'builds: ['
		sep=
		for b in "$@"; do
			printf '%s%s' "$sep" "$b"
			sep=', '
		done
		printf ']\n'
	} >"$D/$f"
}

req ok.yaml data/builds/x86_64-defconfig
expect_code 0 "the good request composes" compose ok.yaml

build nolog 'arch: x86_64
config: defconfig
compiler: gcc (GCC) 14.2.0'
rm "$D/nolog/build.log"
req nolog.yaml nolog
expect_code 65 "a missing build.log is refused" compose nolog.yaml
ok "... naming the log" names "nolog/build.log" "cannot read"

build empty 'arch: x86_64
config: defconfig
compiler: gcc (GCC) 14.2.0'
: >"$D/empty/build.log"
req empty.yaml empty
expect_code 65 "an empty build.log is refused" compose empty.yaml
ok "... naming the log" names "empty/build.log" "empty"

build nocc 'arch: arm
config: allmodconfig'
req nocc.yaml nocc
expect_code 65 "a config without a compiler is refused" compose nocc.yaml
ok "... naming build.yaml and compiler" names "nocc/build.yaml" "compiler"

build unknown 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0
colour: blue'
req unknown.yaml unknown
expect_code 65 "an unknown key of build.yaml is refused" compose unknown.yaml
ok "... naming the file and the key" names "unknown/build.yaml" "colour"

build list '- arch: arm'
req list.yaml list
expect_code 65 "a build.yaml that is not a mapping is refused" \
	compose list.yaml
ok "... naming the file and its line" names "list/build.yaml:1:" \
	"must be a mapping"

build badst 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0
status: fine'
req badst.yaml badst
expect_code 65 "a status that is none of the four is refused" \
	compose badst.yaml
ok "... naming the file and status" names "badst/build.yaml" "status"

build nul 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0'
printf 'a.c:1:1: error: x\000y\n' >"$D/nul/build.log"
req nul.yaml nul
expect_code 65 "a NUL in the log is refused" compose nul.yaml
ok "... naming the log" names "nul/build.log" "NUL"

build esc 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0'
printf 'a.c:1:1: error: \033[31mred\033[0m\n' >"$D/esc/build.log"
req esc.yaml esc
expect_code 65 "an escape sequence in the log is refused" compose esc.yaml
ok "... naming the log and its line" names "esc/build.log:1" "control"

build crlf 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0'
printf 'a.c:1:1: error: x\r\n' >"$D/crlf/build.log"
req crlf.yaml crlf
expect_code 0 "a CRLF log composes (the CR is the line end)" compose crlf.yaml
cp "$T/.out" "$T/crlf.out"
ok "... and no CR reaches the mail" sh -c "! grep -q \"\$(printf '\\r')\" '$T/crlf.out'"
ok "... but its line does" grep -q '^    a.c:1:1: error: x$' "$T/crlf.out"

{ good; printf 'builds: [data/builds/x86_64-defconfig]\nflavour: x\n'; } \
	>"$D/unknown-req.yaml"
expect_code 65 "an unknown request key is refused" compose unknown-req.yaml
ok "... naming the request and the key" names "unknown-req.yaml" "flavour"

good >"$D/nobuilds.yaml"
expect_code 65 "a request without builds is refused" compose nobuilds.yaml
ok "... naming builds" names "nobuilds.yaml" "builds"

{ good | sed 's/^head: .*/head: c4e85e3/'
	printf 'builds: [data/builds/x86_64-defconfig]\n'; } >"$D/short.yaml"
expect_code 65 "a head that is no full sha is refused" compose short.yaml
ok "... naming head" names "short.yaml" "head"

req missing.yaml no-such-dir
expect_code 65 "a build result that is not there is refused" \
	compose missing.yaml
ok "... naming its build.yaml" names "no-such-dir/build.yaml"

build gz 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0'
rm "$D/gz/build.log"
printf 'a.c:1:1: error: from the gzip log\n' | gzip >"$D/gz/build.log.gz"
req gz.yaml gz
expect_code 0 "a build.log.gz is read" compose gz.yaml
cp "$T/.out" "$T/gz.out"
ok "... and its finding listed" grep -q '^    a.c:1:1: error: from the gzip log$' \
	"$T/gz.out"
printf 'not gzip at all' >"$D/gz/build.log.gz"
expect_code 65 "a damaged build.log.gz is refused" compose gz.yaml
ok "... naming it" names "gz/build.log.gz"

build long 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0'
head -c 2000000 /dev/zero | tr '\0' x >"$D/long/build.log"
req long.yaml long
expect_code 65 "a line of 2 MB is refused" compose long.yaml
ok "... naming the log and its line" names "long/build.log:1" "over"

# a log of 200 MB: one pass, memory bounded by the findings it keeps
build big 'arch: arm
config: allmodconfig
compiler: gcc (GCC) 14.2.0'
$PYTHON - "$D/big/build.log" <<'PY'
import sys
chunk = ''.join('  CC      drivers/x/f%05d.o\n' % i for i in range(4000))
with open(sys.argv[1], 'w') as f:
    n = 0
    while n < 200 * 1024 * 1024:
        f.write(chunk)
        n += len(chunk)
    f.write("drivers/x/f.c:9:1: warning: the one finding [-Wfoo]\n")
PY
req big.yaml big
$PYTHON - "$ROBOT" "$D" >"$T/rss" 2>&1 <<'PY'
import resource, subprocess, sys
p = subprocess.run([sys.argv[1], 'compose', '--dry-run', '-c',
                    'data/robot.yaml', 'big.yaml'], cwd=sys.argv[2],
                   capture_output=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(p.returncode, rss, b'the one finding' in p.stdout)
PY
read -r rc rss found <"$T/rss"
ok "a 200 MB log composes" test "$rc" = 0 -a "$found" = True
ok "... in under 32 MB ($rss MB)" test "$rss" -lt 32
rm -f "$D/big/build.log"

# what a summary keeps: 8 MiB of findings a log, 8 MiB of lines listed
# and ids for all its builds, each line once however many builds have it
# (doc/limits.md)
warnings() { # warnings N TAG: N warnings of 4,000 bytes a line
	awk -v n="$1" -v tag="$2" 'BEGIN {
		pad = sprintf("%3960s", ""); gsub(/ /, "y", pad)
		for (i = 0; i < n; i++)
			printf "drivers/%s.c:%d:1: warning: %s\n", tag, i, pad
	}'
}
cfg() { # cfg NAME: a build result of config NAME
	build "$1" "arch: arm
config: $1
compiler: gcc (GCC) 14.2.0"
}
cfg kept-log
warnings 2200 x >"$D/kept-log/build.log"
req kept-log.yaml kept-log
expect_code 65 "a log of 8.4 MiB of findings is refused" compose kept-log.yaml
ok "... naming the log, its line and the limit" names "kept-log/build.log:" \
	"more than 8 MiB of findings in one log"
set --
for i in 1 2 3 4 5 6; do
	cfg same$i
	warnings 700 same >"$D/same$i/build.log"
	set -- "$@" "same$i"
done
req same.yaml "$@"
expect_code 0 "six builds of the same 2.7 MiB of findings compose" \
	compose same.yaml
ok "... each line listed once" test "$(grep -c 'drivers/same.c:9:1:' \
	"$T/.out")" -eq 1
cfg other1
warnings 800 other1 >"$D/other1/build.log"
cfg other2
warnings 800 other2 >"$D/other2/build.log"
req kept-sum.yaml same1 other1 same2 other2
expect_code 65 "2.7 MiB of findings, then two builds of 3 MiB of others: refused" \
	compose kept-sum.yaml
ok "... naming the log that passes it, and the limit" names "other2/build.log" \
	"more than 8 MiB of findings and ids"

expect_code 2 "--force is refused for a summary (a usage error)" \
	sh -c "cd '$D' && '$ROBOT' compose --force -c data/robot.yaml ok.yaml"
