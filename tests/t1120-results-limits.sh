# SPDX-License-Identifier: GPL-2.0-only
#
# t1110-results-limits: matrices that are small on disk and huge once read
# (tests/tools/matrix-bomb) are refused by robot's memory limits, as bad
# input (exit 65) with one "robot: error:" line that names the file and
# says which limit; running out of memory itself says so (exit 1).  The
# peak memory of the same inputs at 1 MB is bench/limits.sh's.
. "$(dirname "$0")/lib.sh"

LOAD=$BUILD/tests/helpers/rt-load
BOMB="$TOP/tests/tools/matrix-bomb"

# limit DESC DIR PATTERN: loading DIR exits 65 with one error line
# matching PATTERN; robot compare too
limit() {
	expect_code 65 "$1" "$LOAD" "$2"
	if grep -Eq -- "$3" "$T/.err"; then
		_ok "$1: the message names the file and the limit"
	else
		_fail "$1: the message names the file and the limit (want /$3/)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
	expect_code 65 "$1: robot compare" \
		"$ROBOT" compare --all --style 2023 "$2" "$2"
}

# 20 million zeros in one stat: 39 KB of gzip, 40 MB of text
$PYTHON "$BOMB" samples 20000000 "$T/samples"
limit "gzip bomb of samples" "$T/samples" \
	"^robot: error: $T/samples/matrix.json.gz: more than 128 MiB .*memory limit"

# 1,000 empty stats padded to a million runs each
$PYTHON "$BOMB" padding 1000000 "$T/padding"
limit "stats x runs beyond the limit" "$T/padding" \
	"matrix.json.gz: more than 128 MiB .*memory limit"

# a stat name of 2 MB: yajl would buffer all of it
$PYTHON "$BOMB" token 2000000 "$T/token"
limit "a 2 MB token" "$T/token" \
	"token/matrix.json.gz:1:[0-9]+: a JSON string or number longer than 512 KiB .*memory limit"

# 100,000 nested arrays: refused at the first level a matrix lacks
$PYTHON "$BOMB" depth 100000 "$T/depth"
limit "deep nesting" "$T/depth" "depth/matrix.json.gz: stat 'a'\\[0\\] is not a number"

# Two roots of 8 million samples (72 MB each) load one at a time, not
# together: the limit is for the roots of one comparison.
$PYTHON "$BOMB" grid 8000000 "$T/half"
ok "a root of 72 MB of samples loads" "$LOAD" "$T/half"
expect_code 65 "two of them in one comparison do not" \
	"$ROBOT" compare --all --style 2023 "$T/half" "$T/half"
if grep -q "half/matrix.json.gz: more than 128 MiB" "$T/.err"; then
	_ok "... and the message says why"
else
	_fail "... and the message says why"
	sed 's/^/# stderr: /' "$T/.err"
fi

# Out of memory below the limit (an address space of 60 MB): one line
# that says so, exit 1, not "invalid JSON".  Sanitizers need more room.
case "$BUILD" in
*asan*)
	_ok "out of memory: skipped under the sanitizers"
	_ok "out of memory: skipped under the sanitizers"
	;;
*)
	( ulimit -v 60000 && exec "$LOAD" "$T/half" ) >"$T/.out" 2>"$T/.err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/.err")" -eq 1 ]; then
		_ok "out of memory: exit 1, one line"
	else
		_fail "out of memory: exit 1, one line (exit $rc)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
	if grep -qx "robot: error: out of memory" "$T/.err"; then
		_ok "out of memory: says so"
	else
		_fail "out of memory: says so"
	fi
	;;
esac

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
