# SPDX-License-Identifier: GPL-2.0-only
#
# t1110-compare-bad-input: result roots that load but cannot make an
# honest table.  Samples near the largest double overflow the sum, the
# squares or the difference of two means, which would print "NaN%" or
# "Inf" in the table and the Subject: robot compare and robot compose
# refuse them (exit 65, one error naming the root and the stat).  A 0 to
# 0 change is what lkp-tests printed on the style's date (+NaN% before
# 2018-05-29) and never reaches a Subject.  --kpi naming a stat no root
# has is an error, and so is a table the min-runs rule left empty (fewer
# than 3 complete runs on both sides), with the reason on stderr.
. "$(dirname "$0")/lib.sh"

C0=68674f94ffc9dddc1234567890abcdef12345678
C1=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0

# mk NAME COMMIT NRUNS JSON-STATS: a result root of NRUNS runs
mk() {
	mkdir -p "$T/$1"
	_src=
	_i=0
	while [ $_i -lt "$3" ]; do
		mkdir -p "$T/$1/$_i"
		printf 'suite: stress-ng\ntestcase: stress-ng\ncommit: %s\n' "$2" \
			>"$T/$1/$_i/job.yaml"
		_src="$_src${_src:+, }\"/result/s/$2/$_i/stats.json\""
		_i=$((_i + 1))
	done
	printf '{%s, "stats_source": [%s]}\n' "$4" "$_src" >"$T/$1/matrix.json"
}

# refuses DESC NEEDLE CMD...: exit 65, one error line holding NEEDLE
refuses() {
	_d=$1 _n=$2
	shift 2
	expect_code 65 "$_d: exit 65, one error line" "$@"
	if names "$_n" >"$T/.why" 2>&1; then
		_ok "$_d: the error names the root and the stat"
	else
		_fail "$_d: the error names the root and the stat"
		sed 's/^/# /' "$T/.why"
	fi
}

S='"stress-ng.lockofd.ops_per_sec"'
mk base "$C0" 3 "$S: [100, 101, 102], \"big\": [1.7e308, 1.7e308, 1.7e308]"
mk new "$C1" 3 "$S: [200, 201, 202], \"big\": [1.7e308, 1.7e308, 1.7e308]"
refuses "a mean that overflows" \
	"$T/base: stat 'big': the mean of its samples overflows a double" \
	"$ROBOT" compare --all --style 2023 "$T/base" "$T/new"

mk sdb "$C0" 3 "$S: [100, 101, 102], \"wide\": [1e200, -1e200, 1e200]"
mk sdn "$C1" 3 "$S: [200, 201, 202], \"wide\": [1, 2, 3]"
refuses "a standard deviation that overflows" \
	"$T/sdb: stat 'wide': the standard deviation of its samples overflows" \
	"$ROBOT" compare --all --style 2023 "$T/sdb" "$T/sdn"

# finite means whose difference is not: 5.9e307 - (-1.7e308)
mk chb "$C0" 3 "$S: [100, 101, 102], \"far\": [5.9e307, 5.9e307, 5.9e307]"
mk chn "$C1" 1 "$S: [200], \"far\": [-1.7e308]"
refuses "a change that overflows" \
	"$T/chn: stat 'far': its change against the base overflows a double" \
	"$ROBOT" compare --all --style 2023 "$T/chb" "$T/chn"
refuses "a selected row that overflows (no --all)" \
	"$T/chn: stat 'far': its change against the base overflows" \
	"$ROBOT" compare --style 2023 "$T/chb" "$T/chn"

mk fb "$C0" 3 "$S: [100, 101, 102], \"dmesg.WARNING:x\": [0, 0, 0]"
mk fn "$C1" 3 "$S: [200, 201, 202], \"dmesg.WARNING:x\": [1.7e308, 1.7e308, 1e308]"
refuses "a fail:runs sum that overflows" \
	"$T/fn: stat 'dmesg.WARNING:x': the sum of its samples overflows" \
	"$ROBOT" compare --style 2023 "$T/fb" "$T/fn"

# 0 to 0 is what lkp-tests printed then: 0.0 / 0, "+NaN%", until
# tiny_zero_base (2018-05-29); 0 against 1e-100, "-100.0%", after
mk zb "$C0" 3 "$S: [100, 101, 102], \"zero\": [0, 0, 0]"
mk zn "$C1" 3 "$S: [200, 201, 202], \"zero\": [0, 0, 0]"
ok "a 0 to 0 change (2016 style) makes a table" \
	"$ROBOT" compare --all --style 2016 "$T/zb" "$T/zn"
"$ROBOT" compare --all --style 2016 "$T/zb" "$T/zn" >"$T/zero.out" 2>&1
ok "a 0 to 0 change before 2018-05-29 is lkp-tests' +NaN%" \
	grep -Eq '^ +0\.00 ± +0% +\+NaN% +0\.00 ± +0% +zero$' "$T/zero.out"
"$ROBOT" compare --all --style 2018-05-29 "$T/zb" "$T/zn" >"$T/zero2.out" 2>&1
ok "a 0 to 0 change from 2018-05-29 on is lkp-tests' -100.0%" \
	grep -Eq '^ +0\.00 +-100\.0% +0\.00 +zero$' "$T/zero2.out"

# compose_req DIR BASE NEW KPI [DATE]: DIR/r.yaml, a request comparing
# copies of the roots BASE and NEW, with KPI as its kpi
compose_req() {
	rm -rf "$1" && mkdir -p "$1" && cp -R "$T/$2" "$1/rt0" &&
		cp -R "$T/$3" "$1/rt1" &&
		cp "$TOP/tests/data/compare/small/commits.yaml" "$1/"
	base_request "$C1" | sed -e "s/^kpi:.*/kpi: $4/" \
		-e "s/^date:.*/date: \"${5:-2023-06-07 14:32:17 +0800}\"/" \
		>"$1/r.yaml"
}

# no_nan DESC: the last command printed no NaN
no_nan() {
	if grep -q NaN "$T/.out"; then
		_fail "$1: no NaN reaches stdout"
	else
		_ok "$1: no NaN reaches stdout"
	fi
}

# compose: a KPI of base mean 0 has no percentage for the Subject
for date in "2016-07-15 10:00:00 +0800" "2023-07-01 10:00:00 +0800"; do
	compose_req "$T/z" zb zn zero "$date"
	refuses "compose at ${date%% *}: a KPI that is 0 in the base" \
		"$T/z/r.yaml: kpi: 'zero' has a mean of 0 in the base result root" \
		"$ROBOT" compose --dry-run "$T/z/r.yaml"
	no_nan "compose at ${date%% *}"
done

# compose: a KPI whose mean overflows; no table or Subject with NaN%
compose_req "$T/cm" base new big
refuses "compose: a KPI whose mean overflows" \
	"$T/cm/rt0: stat 'big': the mean of its samples overflows a double" \
	"$ROBOT" compose --dry-run "$T/cm/r.yaml"
no_nan "compose: a mean that overflows"

# compose: the KPI's change overflows; no Subject with NaN% goes out
compose_req "$T/c" chb chn far
refuses "compose: a KPI whose change overflows" \
	"$T/c/rt1: stat 'far': its change against the base overflows" \
	"$ROBOT" compose --dry-run "$T/c/r.yaml"
no_nan "compose"

# --kpi must name a stat some root has
refuses "--kpi of a stat no root has" \
	"--kpi: no result root has a stat 'no.such.stat' ($T/base, $T/new)" \
	"$ROBOT" compare --style 2023 --kpi no.such.stat "$T/base" "$T/new"

# min-runs: with fewer than 3 complete runs on both sides lkp-tests
# shows no perf stat; robot says so
mk m0 "$C0" 2 "$S: [100, 101], \"dmesg.WARNING:y\": [0, 0]"
mk m1 "$C1" 2 "$S: [200, 201], \"dmesg.WARNING:y\": [0, 0]"
refuses "2 runs on both sides: an empty table is an error" \
	"$T/m0 has 2 complete runs and $T/m1 2: lkp-tests compares a stat only with 3 or more on one side (rule min-runs" \
	"$ROBOT" compare --style 2023 "$T/m0" "$T/m1"
"$ROBOT" compare --style 2023 --no-rule min-runs "$T/m0" "$T/m1" \
	>"$T/nomin.out" 2>"$T/nomin.err"
ok "--no-rule min-runs shows the change" \
	grep -q 'stress-ng.lockofd.ops_per_sec$' "$T/nomin.out"
ok "--no-rule min-runs: nothing on stderr" test ! -s "$T/nomin.err"
"$ROBOT" compare --style 2023 --kpi stress-ng.lockofd.ops_per_sec \
	"$T/m0" "$T/m1" >"$T/kpi.out" 2>"$T/kpi.err"
ok "--kpi with 2 runs: exit 0, the forced row" \
	grep -q 'stress-ng.lockofd.ops_per_sec$' "$T/kpi.out"
ok "--kpi with 2 runs: stderr says why no other row is shown" \
	grep -q "^robot: warning: $T/m0 has 2 complete runs.*rule min-runs" \
	"$T/kpi.err"
mk m2 "$C1" 2 "$S: [200, 201], \"dmesg.WARNING:y\": [1, 1]"
"$ROBOT" compare --style 2023 "$T/m0" "$T/m2" >"$T/fail.out" 2>"$T/fail.err"
ok "2 runs with a fail:runs row: exit 0, the row" \
	grep -q 'dmesg.WARNING:y$' "$T/fail.out"
ok "2 runs with a fail:runs row: stderr says why no perf row is shown" \
	grep -q "^robot: warning: .*rule min-runs" "$T/fail.err"
mk m3 "$C1" 3 "$S: [200, 201, 202], \"dmesg.WARNING:y\": [0, 0, 0]"
"$ROBOT" compare --style 2023 "$T/m0" "$T/m3" >"$T/three.out" 2>"$T/three.err"
ok "3 runs on one side: the change, nothing on stderr" \
	sh -c "grep -q 'stress-ng.lockofd.ops_per_sec\$' '$T/three.out' && test ! -s '$T/three.err'"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
