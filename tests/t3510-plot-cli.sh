#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `robot plot` on bad input: a clear error (exit 65, one "robot: error:"
# line naming the file and the line) or a correct plot, never a crash.
# The correct plots of one point and 10,000 points are compared with
# gnuplot's by t3500 (its edge set); here they must come out whole.
. "$(dirname "$0")/lib.sh"

D=$T/in
mkdir "$D"
printf '1\n2\n3\n' >"$D/good"
printf '4\n5\n' >"$D/bad"
plot() {
	"$ROBOT" plot --title stress-ng.clock.ops_per_sec "$@"
}

expect_code 0 "two small series" plot "$D/good" "$D/bad"
: >"$D/empty"
expect_code 65 "an empty file" plot "$D/empty" "$D/bad"
grep -q "$D/empty: no samples" "$T/.err" || _fail "the error names the file"
printf '\n  \n\n' >"$D/blank"
expect_code 65 "a file of blank lines" plot "$D/good" "$D/blank"
printf '1\n2\nabc\n' >"$D/word"
expect_code 65 "a non-number" plot "$D/word" "$D/bad"
grep -q "$D/word:3: 'abc' is not a number" "$T/.err" ||
	_fail "the error names the file and the line"
printf '1\nNaN\n' >"$D/nan"
expect_code 65 "NaN" plot "$D/good" "$D/nan"
grep -q "$D/nan:2:" "$T/.err" || _fail "the NaN error names the line"
for v in nan inf -Infinity 1e999 0x10 '1 2' 1e 1.2.3 '--1' ''; do
	printf '1\n%s\n3\n' "$v" >"$D/v"
	[ -n "$v" ] || printf '1\n\0041\n' >"$D/v"
	expect_code 65 "the sample '$v'" plot "$D/v" "$D/bad"
done
printf '1\n2\000\n' >"$D/nul"
expect_code 65 "a NUL byte" plot "$D/nul" "$D/bad"
head -c 3000 /dev/urandom >"$D/garbage"
expect_code 65 "binary garbage" plot "$D/garbage" "$D/bad"
expect_code 65 "a missing file" plot "$D/missing" "$D/bad"
expect_code 65 "a directory" plot "$D" "$D/bad"

printf '42\n' >"$D/one"
expect_code 0 "a single point" plot "$D/one" "$D/one"
[ "$(wc -c <"$T/.out")" -eq 1620 ] && _ok "a single point: 20 rows of 80" ||
	_fail "a single point: 20 rows of 80"
awk 'BEGIN { for (i = 0; i < 10000; i++) print 100 + (i * 7919) % 13 }' \
	>"$D/many"
expect_code 0 "10,000 points" plot "$D/many" "$D/good"
[ "$(wc -c <"$T/.out")" -eq 1620 ] && _ok "10,000 points: 20 rows of 80" ||
	_fail "10,000 points: 20 rows of 80"
printf ' 1.5 \r\n\n-2e3\n+.5\n7.\n' >"$D/forms"
expect_code 0 "blanks, CRLF, blank lines and number forms" \
	plot "$D/forms" "$D/bad"
expect_code 0 "--gnuplot 4" plot --gnuplot 4 "$D/good" "$D/bad"
head -c 1 "$T/.out" | od -c | grep -q '\\f' &&
	! grep -q ' $' "$T/.out" && _ok "--gnuplot 4 trims its rows" ||
	_fail "--gnuplot 4 trims its rows"

expect_code 2 "no --title" "$ROBOT" plot "$D/good" "$D/bad"
expect_code 2 "an empty title" plot --title '' "$D/good" "$D/bad"
expect_code 2 "a title with a newline" "$ROBOT" plot --title "a
b" "$D/good" "$D/bad"
expect_code 2 "an unknown version" plot --gnuplot 3 "$D/good" "$D/bad"
expect_code 2 "one file" plot "$D/good"
expect_code 2 "three files" plot "$D/good" "$D/bad" "$D/bad"
# one side lacks the stat: the other series alone, from one file
expect_code 0 "--no-bad" plot --no-bad "$D/good"
cp "$T/.out" "$T/no-bad"
[ "$(wc -c <"$T/no-bad")" -eq 1620 ] && ! grep -q O "$T/no-bad" &&
	_ok "--no-bad: 20 rows of 80, no bad point" ||
	_fail "--no-bad: 20 rows of 80, no bad point"
printf '1\n4\n2\n3\n' >"$D/bad4"
expect_code 0 "--no-good" plot --no-good "$D/bad4"
grep -q O "$T/.out" && ! grep -q '+\.\.\|\.\.+' "$T/.out" &&
	_ok "--no-good: bad points, no good line" ||
	_fail "--no-good: bad points, no good line"
expect_code 2 "--no-bad with two files" plot --no-bad "$D/good" "$D/bad"
expect_code 2 "--no-good without a file" plot --no-good
expect_code 2 "--no-good and --no-bad" plot --no-good --no-bad "$D/good"
expect_code 65 "--no-bad, an empty file" plot --no-bad "$D/empty"
expect_code 0 "-h" "$ROBOT" plot -h
