# SPDX-License-Identifier: GPL-2.0-only
#
# t3210-functional-bad-input: a functional report's evidence from bad
# run files gives one clear "robot: error:" line (exit 65) or a bounded
# excerpt, never a crash: a log that names no line of the headline, a
# report the log cuts short, a 50 MB log, binary garbage, a corrupt or
# truncated .xz, a missing file, request keys out of range; and for a
# test's stat, whose excerpt is its output file: 50 MB of output, binary
# garbage, an empty file.
. "$(dirname "$0")/lib.sh"

functional_cases
CASE=$G/0101-2026-kasan
RUN=$G/data/rt/kasan/rt1/1
KPI='dmesg.BUG:KASAN:slab-use-after-free_in_frob_buffer_put'

compose() {
	(cd "$CASE" && "$ROBOT" compose --dry-run -c ../data/robot.yaml "$@")
}

# log TEXT-FILE: the run's kernel log becomes that file (plain).
log() {
	rm -f "$RUN/dmesg" "$RUN/dmesg.xz"
	cp "$1" "$RUN/dmesg"
}

# request EXTRA: the case's request with EXTRA lines appended.
request() {
	cp "$SRC/0101-2026-kasan/request.yaml" "$CASE/bad.yaml"
	printf '%s\n' "$@" >>"$CASE/bad.yaml"
}

xz -dc "$RUN/dmesg.xz" >"$T/kasan.log"

printf '[    1.000000] all is well\n[    2.000000] still well\n' >"$T/none.log"
log "$T/none.log"
expect_code 65 "a log with no line of the headline" compose request.yaml
grep -q "no line names '$KPI'" "$T/.err" && _ok "... says which stat" ||
	_fail "... says which stat"

head -n 10 "$T/kasan.log" >"$T/cut.log"
log "$T/cut.log"
expect_code 0 "a report the log cuts short" compose request.yaml
grep -q 'Call Trace:' "$T/.out" && ! grep -q 'end trace' "$T/.out" &&
	_ok "... is quoted to where the log ends" ||
	_fail "... is quoted to where the log ends"

# 50 MB of boot lines, then the report, then more lines
"$PYTHON" - "$T/big.log" "$T/kasan.log" <<'PY'
import sys
line = b'[    3.000000] robot-test: filler line of a big kernel log, 64 bytes\n'
with open(sys.argv[1], 'wb') as f:
    for _ in range(50 * 1024 * 1024 // len(line)):
        f.write(line)
    f.write(open(sys.argv[2], 'rb').read())
PY
log "$T/big.log"
expect_code 0 "a 50 MB log" compose request.yaml
n=$(grep -c 'robot-test: filler' "$T/.out")
[ "$n" -eq 0 ] && grep -q 'end trace' "$T/.out" &&
	_ok "... gives the report alone" || _fail "... gives the report alone"

# one report that never ends, 50 MB long: cut at the bounds, with a warning
"$PYTHON" - "$T/endless.log" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('[    1.000000] BUG: KASAN: slab-use-after-free in frob_buffer_put+0x1/0x2\n')
    line = '[    1.000001] ------------[ cut here ]------------ %d\n'
    for k in range(800000):
        f.write(line % k)
PY
log "$T/endless.log"
expect_code 0 "a report of 800000 lines" compose request.yaml
lines=$(sed -n '/^\[    1.000000\] BUG: KASAN/,/^$/p' "$T/.out" | wc -l)
[ "$lines" -le 6001 ] && [ "$lines" -gt 100 ] &&
	_ok "... is cut at 6000 lines ($lines)" || _fail "... is cut ($lines)"
grep -q 'robot: warning: .*cut at' "$T/.err" && _ok "... with a warning" ||
	_fail "... with a warning"

head -c 200000 /dev/urandom >"$T/garbage.log"
log "$T/garbage.log"
expect_code 65 "binary garbage" compose request.yaml

# garbage inside the report: quoted with '?' for what is not text, but a
# terminal colour sequence (ESC [ ... m), which is quoted as it is
{ head -n 8 "$T/kasan.log"; printf '[   61.2][ T3301] \001\033[31mred\033[0m \033]0;t\007 \033[2J\033[1;3 \377\376\n'; tail -n +9 "$T/kasan.log"; } >"$T/dirty.log"
log "$T/dirty.log"
expect_code 0 "control bytes and invalid UTF-8 in the report" compose request.yaml
grep -q '^\[   61.2\]\[ T3301\] ?'"$(printf '\033')"'\[31mred'"$(printf '\033')"'\[0m ?\]0;t? ?\[2J?\[1;3 ??$' "$T/.out" &&
	_ok "... become '?', but colour sequences" || _fail "... become '?', but colour sequences"
"$PYTHON" "$TOP/tests/golden/data/check-mail" defects "$T/.out" &&
	_ok "... and the mail stays valid" || _fail "... and the mail stays valid"

# a corrupt and a truncated .xz
rm -f "$RUN/dmesg"
xz -c "$T/kasan.log" >"$T/good.xz"
head -c 300 "$T/good.xz" >"$RUN/dmesg.xz"
expect_code 65 "a truncated dmesg.xz" compose request.yaml
grep -q 'dmesg.xz' "$T/.err" && _ok "... names the file" ||
	_fail "... names the file"
{ head -c 100 "$T/good.xz"; head -c 500 /dev/urandom; } >"$RUN/dmesg.xz"
expect_code 65 "a corrupt dmesg.xz" compose request.yaml
# a tiny .xz that expands past the input bound (256 MiB)
"$PYTHON" -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress((b'x' * 65535 + b'\n') * 4800, preset=1))" >"$RUN/dmesg.xz"
expect_code 65 "an .xz that expands to 300 MiB" compose request.yaml
rm -f "$RUN/dmesg.xz"
expect_code 65 "a run without any kernel log" compose request.yaml
cp "$T/good.xz" "$RUN/dmesg.xz"
expect_code 0 "a good dmesg.xz again" compose request.yaml

request 'evidence: [{run: "../.."}]'
expect_code 65 "evidence run that is not a run dir" compose bad.yaml
request 'evidence: [{run: "5"}]'
expect_code 65 "evidence run without the log" compose bad.yaml
request 'evidence: [{from: 900000, lines: 3}]'
expect_code 65 "evidence from a line past the end" compose bad.yaml
request 'evidence: [{before: -1}]'
expect_code 65 "a negative count" compose bad.yaml
request 'evidence: [{lines: "7"}]'
expect_code 65 "a quoted count" compose bad.yaml
request 'evidence: [{file: nosuchfile}]'
expect_code 65 "evidence from a file the run lacks" compose bad.yaml
request 'notes: [{at: nowhere, text: "x"}]'
expect_code 65 "a note at no place" compose bad.yaml
request 'notes: [{at: intro, text: "x", fail_runs: true}]'
expect_code 65 "a note with words and a table" compose bad.yaml
request 'still_checked: "true"'
expect_code 65 "a quoted still_checked" compose bad.yaml
request 'notes: [{at: intro, row: dmesg.BUG:KASAN, text: "x"}]'
expect_code 65 "a functional note on a row" compose bad.yaml
grep -q "bad.yaml: notes\[0\].row: a functional report's notes have no row" \
	"$T/.err" && _ok "... names the key" || _fail "... names the key"
request 'still: [{tree: linus/master, revert: true}]'
expect_code 65 "a reverted head where the period has no line for it" \
	compose bad.yaml
grep -q "still\[0\].revert: the period's still lines have no line for a reverted head" \
	"$T/.err" && _ok "... names the key" || _fail "... names the key"
request 'evidence_at: nowhere'
expect_code 65 "evidence at no place" compose bad.yaml
grep -q "bad.yaml: evidence_at: 'nowhere' is not a place" "$T/.err" &&
	_ok "... names the key" || _fail "... names the key"
request 'evidence_at: end'
expect_code 0 "evidence after the download link" compose bad.yaml
sed -n '/^The kernel config and materials/,$p' "$T/.out" |
	grep -q 'BUG: KASAN: slab-use-after-free in frob_buffer_put' &&
	_ok "... is quoted there" || _fail "... is quoted there"
# every period's body has the place: a 2021 report quotes it after the steps
cp "$SRC/0103-2021-xfstests-output/request.yaml" \
	"$G/0103-2021-xfstests-output/end.yaml"
echo 'evidence_at: end' >>"$G/0103-2021-xfstests-output/end.yaml"
expect_code 0 "evidence after the reproduce steps (2021)" \
	sh -c 'cd "$1" && "$2" compose --dry-run -c ../data/robot.yaml end.yaml' \
	- "$G/0103-2021-xfstests-output" "$ROBOT"
sed -n '/^To reproduce:/,$p' "$T/.out" | grep -q 'generic/324' &&
	_ok "... is quoted there" || _fail "... is quoted there"
request 'evidence: [{before: 2, after: 1}]'
expect_code 0 "context lines around the report" compose bad.yaml
grep -q '^\[   61.311004\]\[ T3302\] frob: device frob0 closed$' "$T/.out" &&
	grep -q 'robot-test: boot step 3 done' "$T/.out" &&
	_ok "... are quoted" || _fail "... are quoted"

# a 2019 report attaches the log: one over 64 MiB is left out, with a
# warning, and the report goes without it
OLD=$G/0106-2019-no-greeting
"$PYTHON" - "$G/data/rt/warn2019/rt1/1/dmesg" <<'PY'
import sys
path = sys.argv[1]
log = open(path, 'rb').read()
line = b'[    3.000000] robot-test: filler line of a big kernel log, 64 bytes\n'
with open(path, 'wb') as f:
    f.write(log)
    f.write(line * (70 * 1024 * 1024 // len(line)))
PY
(cd "$OLD" && "$ROBOT" compose --dry-run -c ../data/robot.yaml request.yaml) \
	>"$T/.out" 2>"$T/.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q 'robot: warning: .*not attached' "$T/.err" &&
	! grep -q 'dmesg.xz' "$T/.out" &&
	_ok "a 70 MB log is not attached, with a warning" ||
	_fail "a 70 MB log is not attached, with a warning (exit $rc)"

# A test's stat quotes its output file: the same bounds hold there.
XCASE=$G/0103-2021-xfstests-output
XOUT=$G/data/rt/xfstests/rt1/0/output
xcompose() {
	(cd "$XCASE" && "$ROBOT" compose --dry-run -c ../data/robot.yaml \
		request.yaml)
}
cp "$XOUT" "$T/xfstests.out"
# 50 MB of output lines around the test's own
"$PYTHON" - "$XOUT" "$T/xfstests.out" <<'PY'
import sys
line = b'2021-05-10 11:02:03 robot-test: filler line of a big output....\n'
half = line * (25 * 1024 * 1024 // len(line))
with open(sys.argv[1], 'wb') as f:
    f.write(half + open(sys.argv[2], 'rb').read() + half)
PY
expect_code 0 "a 50 MB test output" xcompose
lines=$(grep -c 'robot-test: filler' "$T/.out")
grep -q 'generic/324' "$T/.out" && [ "$lines" -le 6000 ] &&
	_ok "... is quoted from before the test, at most 6000 lines ($lines)" ||
	_fail "... is quoted from before the test ($lines filler lines)"
grep -q 'robot: warning: .*cut at 6000 lines' "$T/.err" &&
	_ok "... with a warning" || _fail "... with a warning"
head -c 200000 /dev/urandom >"$XOUT"
expect_code 0 "a test output of binary garbage" xcompose
"$PYTHON" "$TOP/tests/golden/data/check-mail" defects "$T/.out" &&
	_ok "... is quoted as text ('?'), the mail stays valid" ||
	_fail "... is quoted as text, the mail stays valid"
: >"$XOUT"
expect_code 65 "an empty test output" xcompose
grep -q 'output: the excerpt is empty' "$T/.err" && _ok "... says so" ||
	_fail "... says so"
cp "$T/xfstests.out" "$XOUT"
