# SPDX-License-Identifier: GPL-2.0-only
#
# t0120-lazy-libs: the libraries robot loads with dlopen() when a command
# first needs them (robot/util/dl.h, doc/architecture.md).
#
#   - robot is not linked with any of them (readelf's NEEDED entries), and
#     `robot --version` loads none of them (LD_DEBUG=files), even when all
#     of them are broken.
#   - A command that needs one loads it: compose of the demo loads yajl
#     (the matrices) and PCRE2 (the lkp-tests tables) but not liblzma (its
#     files are plain); a functional report that attaches dmesg.xz loads
#     liblzma; a patch-id loads nettle.
#   - A library that cannot be loaded (a file that is no library, earlier
#     in LD_LIBRARY_PATH) or lacks a function (an empty library) is one
#     `robot: error:` line naming its SONAME, and exit 1.
. "$(dirname "$0")/lib.sh"

# The SONAME of libNAME, read as the Makefile reads it.
soname() {
	readelf -d "$(${CC:-cc} -print-file-name="lib$1.so")" 2>/dev/null |
		sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'
}
YAJL=$(soname yajl)
NETTLE=$(soname nettle)
LZMA=$(soname lzma)
PCRE2=$(soname pcre2-8)
ALL="$(soname curl) $(soname git2) $(soname etpan) $YAJL $NETTLE $LZMA $PCRE2"

readelf -d "$ROBOT" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$T/needed"
for so in $ALL; do
	ok "robot is not linked with $so" sh -c '! grep -qxF "$1" "$2"' - \
		"$so" "$T/needed"
done

# loaded SONAME...: each of them is loaded by the command LD_DEBUG ran
loaded() {
	for so in "$@"; do
		grep -q "file=$so \[0\]" "$T/ld" || {
			echo "$so is not loaded"
			return 1
		}
	done
}
not_loaded() {
	for so in "$@"; do
		! grep "file=$so \[0\]" "$T/ld" || return 1
	done
}

LD_DEBUG=files LD_DEBUG_OUTPUT=$T/ldv "$ROBOT" --version >/dev/null
cat "$T"/ldv.* >"$T/ld"
# shellcheck disable=SC2086
ok "robot --version loads none of them" not_loaded $ALL

# Files named by the SONAMEs that are no libraries, and empty libraries.
mkdir -p "$T/junk" "$T/empty"
echo 'int robot_nothing;' >"$T/empty.c"
for so in $YAJL $NETTLE $LZMA $PCRE2; do
	echo 'not a library' >"$T/junk/$so"
	${CC:-cc} -shared -fPIC -Wl,-soname,"$so" -o "$T/empty/$so" \
		"$T/empty.c"
done
LD_LIBRARY_PATH=$T/junk "$ROBOT" --version >"$T/version" 2>&1
ok "robot --version works with all four broken" \
	sh -c '"$1" --version | cmp - "$2"' - "$ROBOT" "$T/version"

# run VAR=VALUE... DIR CMD...: CMD in DIR with the VARs set (no blanks)
run() {
	vars=
	while case $1 in *=*) true ;; *) false ;; esac do
		vars="$vars $1"
		shift
	done
	dir=$1
	shift
	# shellcheck disable=SC2086
	env -C "$dir" $vars "$@"
}
DEMO="$TOP/examples/demo $ROBOT compose --dry-run -c ../0day.yaml request.yaml"
rm -f "$T"/ld*
# shellcheck disable=SC2086
run LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ldc" $DEMO >/dev/null 2>&1
cat "$T"/ldc.* >"$T/ld"
ok "compose of the demo loads yajl and PCRE2" loaded "$YAJL" "$PCRE2"
ok "compose of plain files does not load liblzma" not_loaded "$LZMA"

# broken SO KIND DESC DIR ARGS...: with SO replaced by $T/KIND/SO, robot
# ARGS in DIR exits 1 with one error line naming SO
broken() {
	so=$1 kind=$2 desc=$3
	shift 3
	mkdir -p "$T/one" && rm -f "$T"/one/* && cp "$T/$kind/$so" "$T/one/"
	expect_code 1 "$desc" run LD_LIBRARY_PATH="$T/one" "$@"
	ok "$desc: the error names $so" names "$so"
}
# shellcheck disable=SC2086
broken "$YAJL" junk "compose without yajl" $DEMO
# shellcheck disable=SC2086
broken "$PCRE2" empty "compose with a PCRE2 without functions" $DEMO

G=$T/functional
mkdir -p "$G" && cp -R "$TOP/tests/functional"/. "$G"/
ok "make-rts writes the result roots" "$PYTHON" "$G/data/make-rts" \
	"$G/data/rt"
XZCASE=$G/0104-2020-boot-last-state
XZ="$XZCASE $ROBOT compose --dry-run -c ../data/robot.yaml request.yaml"
rm -f "$T"/ld*
# shellcheck disable=SC2086
run LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ldx" $XZ >"$T/xz.eml" 2>&1
cat "$T"/ldx.* >"$T/ld"
ok "a report that attaches dmesg.xz loads liblzma" loaded "$LZMA"
ok "and is the expected mail" test_cmp "$XZCASE/expect.eml" "$T/xz.eml"
# shellcheck disable=SC2086
broken "$LZMA" junk "dmesg.xz without liblzma" $XZ
# shellcheck disable=SC2086
broken "$LZMA" empty "dmesg.xz with a liblzma without functions" $XZ

printf 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n' \
	>"$T/diff"
printf 'exec "%s" stdin <"%s"\n' "$BUILD/tests/helpers/patch-id" "$T/diff" \
	>"$T/patch-id.sh"
PID="$T sh $T/patch-id.sh"
rm -f "$T"/ld*
# shellcheck disable=SC2086
run LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ldp" $PID >"$T/pid" 2>&1
cat "$T"/ldp.* >"$T/ld"
ok "a patch-id loads nettle" loaded "$NETTLE"
if command -v git >/dev/null 2>&1; then
	git patch-id --stable <"$T/diff" >"$T/pid.git"
	ok "and is git's" test_cmp "$T/pid.git" "$T/pid"
fi
# shellcheck disable=SC2086
broken "$NETTLE" junk "a patch-id without nettle" $PID

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
