#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Plots in composed reports (robot/engine/bisect.c, the `plots` block): the
# request's bisect roots give each side's samples, run after run, oldest
# root first; a stat is plotted when the day's rules find it changed from
# the good samples to the bad ones (the KPI forced), it is bisectable and
# not a pass/fail stat; the plots follow the first section's table in the
# order of the bad roots' matrix.json keys, drawn by the style's gnuplot,
# each plot's form feed dropped, then the legend.  Periods without plots
# (2021-10 on) show none.  Bad bisect keys and bad samples in a bisect
# root (a non-number, null, NaN, no array) are one error, exit 65.
. "$(dirname "$0")/lib.sh"

D=$T/d
mkdir -p "$D"
cp -R "$TOP/tests/data/compare/small/." "$D/"
# bisect roots: stats in a chosen key order, one value list per stat
$PYTHON - "$D" <<'PY'
import json, os, sys
d = sys.argv[1]
job = open(os.path.join(d, 'rt0/0/job.yaml')).read()
def root(name, stats):
    runs = len(next(iter(stats.values())))
    for i in range(runs):
        os.makedirs(os.path.join(d, name, str(i)), exist_ok=True)
        open(os.path.join(d, name, str(i), 'job.yaml'), 'w').write(job)
    m = dict(stats)
    m['stats_source'] = ['/r/%s/%d/stats.json' % (name, i) for i in range(runs)]
    open(os.path.join(d, name, 'matrix.json'), 'w').write(json.dumps(m))
kpi = 'stress-ng.lockofd.ops_per_sec'
# the changed stats: about 100 good, 200 bad
root('g1', {'stress-ng.lockofd.ops': [100, 101, 99],
            kpi: [1000.5, 1001.5, 999.5],
            'stress-ng.same': [5, 6, 5],
            'interrupts.CPU0.LOC': [10, 11, 10],
            'stress-ng.lockofd.fail': [0, 0, 0],
            'stress-ng.short.ops': [200, 201, 199],
            'stress-ng.gone.ops': [30, 31, 29],
            'stress-ng.flat.ops': [10, 12, 11]})
# the bad roots lack stress-ng.gone.ops: the good line alone, plotted
# after the bad roots' stats
root('g2', {kpi: [1002.0, 1000.0],
            'stress-ng.gone.ops': [32, 28],
            'stress-ng.late.ops_per_sec': [10, 11],
            'stress-ng.short.ops': [202, 198],
            'stress-ng.lockofd.ops': [102, 98],
            'stress-ng.same': [6, 5],
            'interrupts.CPU0.LOC': [10, 10],
            'stress-ng.lockofd.fail': [0, 0],
            'stress-ng.flat.ops': [12, 10]})
root('b1', {'stress-ng.lockofd.ops': [200, 201, 199],
            kpi: [1200.5, 1199.5, 1201.0],
            'stress-ng.same': [5, 6, 6],
            'interrupts.CPU0.LOC': [90, 91, 92],
            'stress-ng.lockofd.fail': [1, 1, 1],
            'stress-ng.late.ops_per_sec': [50, 51, 52],
            'stress-ng.short.ops': [100, 101, 99],
            'stress-ng.flat.ops': [11, 10.5, 11.5]})
# b1's key order wins; g1 lacks a stat: zeros for its runs; the last root
# has fewer values of a stat than runs: the series ends with them
root('b2', {kpi: [1199.0, 1202.0],
            'stress-ng.late.ops_per_sec': [50, 52],
            'stress-ng.lockofd.ops': [202, 198],
            'stress-ng.short.ops': [102],
            'stress-ng.same': [5, 5],
            'interrupts.CPU0.LOC': [95, 90],
            'stress-ng.lockofd.fail': [1, 1],
            'stress-ng.flat.ops': [11.25, 10.75]})
# netperf, whose KPI lkp-tests knew in 2016
root('n0', {'netperf.Throughput_Mbps': [4.25, 4.26, 4.24]})
root('n1', {'netperf.Throughput_Mbps': [4.09, 4.08, 4.1]})
root('ng', {'netperf.Throughput_Mbps': [4.25, 4.26, 4.24, 4.25]})
root('nb', {'netperf.Throughput_Mbps': [4.09, 4.08, 4.1]})
PY
# the 0-day robot's disclaimer and signature: the layout around the plots
printf 'disclaimer: 0day\nsignature: 0day\n' >"$D/robot.yaml"
ROBOT_CONFIG=$D/robot.yaml
export ROBOT_CONFIG
commit=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
request() {
	printf 'date: "%s"\n' "$1"
	printf 'from: "kernel test robot <oliver.sang@intel.com>"\n'
	printf 'to: ["Jane Doe <jane@example.org>"]\n'
	printf 'repo_url: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git\n'
	printf 'branch: master\ncommit: %s\ncommits: commits.yaml\n' "$commit"
	printf 'kpi: stress-ng.lockofd.ops_per_sec\nresult_roots: [rt0, rt1]\n'
	printf 'sender_name: "Oliver Sang"\n'
	[ -z "${2-}" ] || printf '%s\n' "$2"
}
BISECT='bisect: {good: [g1, g2], bad: [b1, b2]}'
request "2021-03-07 14:32:17 +0800" "$BISECT" >"$D/req.yaml"
ok "compose a 2021 report with bisect roots" \
	sh -c '"$ROBOT" compose --dry-run "$1" >"$2"' - "$D/req.yaml" "$T/mail"

# the plotted stats of mail $1, in order: the plot titles
plot_titles() {
	$PYTHON - "$1" <<'PY'
import re, sys
body = open(sys.argv[1], encoding='latin-1').read()
for m in re.finditer(r'\n {20,}(\S+) *\n {80}\n {0,8}\S+ \+-', body):
    print(m.group(1))
PY
}
plot_titles "$T/mail" >"$T/titles"
printf '%s\n' stress-ng.lockofd.ops stress-ng.lockofd.ops_per_sec \
	stress-ng.late.ops_per_sec stress-ng.short.ops stress-ng.gone.ops \
	>"$T/want-titles"
ok "the changed, bisectable, non-pass/fail stats in the bad roots' order, then those the bad roots lack" \
	test_cmp "$T/want-titles" "$T/titles"

# each plot is robot plot's (5.2 in 2021-03) of the concatenated runs,
# form feed dropped; the legend follows, then the disclaimer
printf '100\n101\n99\n102\n98\n' >"$T/g"
printf '200\n201\n199\n202\n198\n' >"$T/b"
printf '1000.5\n1001.5\n999.5\n1002.0\n1000.0\n' >"$T/gk"
printf '1200.5\n1199.5\n1201.0\n1199.0\n1202.0\n' >"$T/bk"
printf '0\n0\n0\n10\n11\n' >"$T/gl"
printf '50\n51\n52\n50\n52\n' >"$T/bl"
printf '200\n201\n199\n202\n198\n' >"$T/gs"
printf '100\n101\n99\n102\n' >"$T/bs"
printf '30\n31\n29\n32\n28\n' >"$T/gg"
want_plots() {
	{
		printf '\n'
		"$ROBOT" plot --gnuplot "$1" --title stress-ng.lockofd.ops \
			"$T/g" "$T/b"
		"$ROBOT" plot --gnuplot "$1" \
			--title stress-ng.lockofd.ops_per_sec "$T/gk" "$T/bk"
		"$ROBOT" plot --gnuplot "$1" --title stress-ng.late.ops_per_sec \
			"$T/gl" "$T/bl"
		"$ROBOT" plot --gnuplot "$1" --title stress-ng.short.ops \
			"$T/gs" "$T/bs"
		"$ROBOT" plot --gnuplot "$1" --title stress-ng.gone.ops \
			--no-bad "$T/gg"
		printf '\n[*] bisect-good sample\n[O] bisect-bad  sample\n'
	} | tr -d '\f'
}
got_plots() {
	$PYTHON - "$1" <<'PY'
import sys
body = open(sys.argv[1], encoding='latin-1').read()
start = body.index('\n\n\n', body.index('%stddev')) + 2
end = body.index('[O] bisect-bad  sample\n') + len('[O] bisect-bad  sample\n')
sys.stdout.write(body[start:end])
PY
}
want_plots 5.2 >"$T/want-plots"
got_plots "$T/mail" >"$T/got-plots"
ok "the plots after the table, then the legend (gnuplot 5.2)" \
	test_cmp "$T/want-plots" "$T/got-plots"
grep -q '^\[O\] bisect-bad  sample$' "$T/mail" &&
	sed -n '/^\[O\] bisect-bad  sample$/,/Disclaimer/p' "$T/mail" |
	awk 'NR == 5 && /^Disclaimer:$/ { ok = 1 } END { exit !ok }' &&
	_ok "three empty lines between the legend and the disclaimer" ||
	_fail "three empty lines between the legend and the disclaimer"

# other periods: 2016 draws with 4.6, 2019 with 5.0; 2022 has none
sed -e 's/^kpi: .*/kpi: netperf.Throughput_Mbps/' \
	-e 's/^result_roots: .*/result_roots: [n0, n1]/' \
	-e 's/^bisect: .*/bisect: {good: [ng], bad: [nb]}/' \
	-e 's/^date: .*/date: "2016-07-25 10:00:00 +0800"/' \
	"$D/req.yaml" >"$D/req-4.6.yaml"
"$ROBOT" compose --dry-run "$D/req-4.6.yaml" >"$T/mail-4.6" 2>"$T/err"
printf '4.25\n4.26\n4.24\n4.25\n' >"$T/ng"
printf '4.09\n4.08\n4.1\n' >"$T/nb"
{
	printf '\n'
	"$ROBOT" plot --gnuplot 4 --title netperf.Throughput_Mbps "$T/ng" \
		"$T/nb"
	printf '\n[*] bisect-good sample\n[O] bisect-bad  sample\n'
} | tr -d '\f' >"$T/want-4.6"
got_plots "$T/mail-4.6" >"$T/got-4.6" 2>>"$T/err"
if test_cmp "$T/want-4.6" "$T/got-4.6" >"$T/diff" && grep -q '++' "$T/got-4.6"
then
	_ok "2016: the plots are gnuplot 4.6's"
else
	_fail "2016: the plots are gnuplot 4.6's"
	sed 's/^/# /' "$T/err" "$T/diff"
fi
for spec in "2019-11-07 10:00:00 +0800=5.0"; do
	day=${spec%=*}
	v=${spec#*=}
	request "$day" "$BISECT" >"$D/req-$v.yaml"
	"$ROBOT" compose --dry-run "$D/req-$v.yaml" >"$T/mail-$v" 2>"$T/err"
	want_plots "$v" >"$T/want-$v"
	got_plots "$T/mail-$v" >"$T/got-$v" 2>>"$T/err"
	if cmp -s "$T/want-$v" "$T/got-$v" &&
		! cmp -s "$T/want-$v" "$T/want-plots"; then
		_ok "$day: the plots are gnuplot $v's"
	else
		_fail "$day: the plots are gnuplot $v's"
		sed 's/^/# /' "$T/err"
	fi
done
request "2022-01-17 10:00:00 +0800" "$BISECT" >"$D/req-2022.yaml"
"$ROBOT" compose --dry-run "$D/req-2022.yaml" >"$T/mail-2022"
if grep -q 'bisect-good' "$T/mail-2022" || ! grep -q 'Disclaimer' \
	"$T/mail-2022"; then
	_fail "2022: no plots"
else
	_ok "2022: no plots"
fi
request "2021-03-07 14:32:17 +0800" >"$D/req-none.yaml"
"$ROBOT" compose --dry-run "$D/req-none.yaml" >"$T/mail-none"
if grep -q 'bisect-good' "$T/mail-none" || ! grep -q 'Disclaimer' \
	"$T/mail-none"; then
	_fail "no bisect roots: no plots"
else
	_ok "no bisect roots: no plots"
fi

# a further bisected stat (`bisect: stats`) is plotted whatever its
# samples, in its matrix place, as the KPI is (lkp-tests forces a
# bisected stat past the change rules): stress-ng.flat.ops did not change
request "2021-03-07 14:32:17 +0800" \
	'bisect: {good: [g1, g2], bad: [b1, b2], stats: [stress-ng.flat.ops]}' \
	>"$D/req-forced.yaml"
"$ROBOT" compose --dry-run "$D/req-forced.yaml" >"$T/mail-forced"
plot_titles "$T/mail-forced" >"$T/titles-forced"
printf '%s\n' stress-ng.lockofd.ops stress-ng.lockofd.ops_per_sec \
	stress-ng.late.ops_per_sec stress-ng.short.ops stress-ng.flat.ops \
	stress-ng.gone.ops >"$T/want-forced"
ok "bisect: stats forces a stat the rules drop into the plots, in matrix order" \
	test_cmp "$T/want-forced" "$T/titles-forced"
printf '10\n12\n11\n12\n10\n' >"$T/gflat"
printf '11\n10.5\n11.5\n11.25\n10.75\n' >"$T/bflat"
"$ROBOT" plot --gnuplot 5.2 --title stress-ng.flat.ops "$T/gflat" "$T/bflat" \
	>"$T/plot-same"
ok "the forced stat's plot is robot plot's of its samples" \
	$PYTHON -c 'import sys
p = open(sys.argv[1], encoding="latin-1").read().split("\n", 1)[1]
sys.exit(p not in open(sys.argv[2], encoding="latin-1").read())' \
	"$T/plot-same" "$T/mail-forced"

# bad bisect keys: one error line naming the key, exit 65
bad_bisect() {
	request "2021-03-07 14:32:17 +0800" "$2" >"$D/req-bad.yaml"
	expect_code 65 "$1" "$ROBOT" compose --dry-run "$D/req-bad.yaml"
	grep -q "$3" "$T/.err" || _fail "$1: the error says '$3'"
}
bad_bisect "good roots only" 'bisect: {good: [g1]}' 'bisect: bad: no result'
bad_bisect "a missing root" 'bisect: {good: [g1], bad: [nope]}' \
	'bisect.bad\[0\]'
bad_bisect "a root without a matrix" 'bisect: {good: [g1], bad: [rt0/0]}' \
	'matrix'
bad_bisect "an unknown key" 'bisect: {good: [g1], bad: [b1], ugly: [b2]}' \
	'ugly'
bad_bisect "a stats map" 'bisect: {good: [g1], bad: [b1], stats: {a: b}}' \
	'bisect.stats'

# bad samples in a bisect root: one error naming the root's matrix.json
# and the stat, exit 65; an empty series is lkp-tests' zeros, not a crash
bad_sample() {
	rm -rf "$D/bx"
	cp -R "$D/b1" "$D/bx"
	$PYTHON - "$D/bx/matrix.json" "$2" <<'PY'
import json, sys
p, v = sys.argv[1:]
m = json.load(open(p))
m['stress-ng.lockofd.ops'] = json.loads(v)
open(p, 'w').write(json.dumps(m))
PY
	request "2021-03-07 14:32:17 +0800" \
		'bisect: {good: [g1, g2], bad: [bx, b2]}' >"$D/req-bx.yaml"
	expect_code "$3" "$1" "$ROBOT" compose --dry-run "$D/req-bx.yaml"
	[ "$3" -eq 0 ] && return
	[ "$(wc -l <"$T/.err")" -eq 1 ] &&
		grep -q "^robot: error: .*bx/matrix.json: stat 'stress-ng.lockofd.ops'$4" \
			"$T/.err" && _ok "$1: the error names the root and the stat" ||
		_fail "$1: the error names the root and the stat"
}
bad_sample "a non-number sample" '[200, "x", 199]' 65 '\[1\] is not a number'
bad_sample "a null sample" '[null, 201, 199]' 65 '\[0\] is not a number'
bad_sample "a stat that is no array" '"200"' 65 ' is not an array'
bad_sample "an empty series" '[]' 0
grep -q '^\[O\] bisect-bad  sample$' "$T/.out" &&
	_ok "an empty series: the report still has its plots" ||
	_fail "an empty series: the report still has its plots"
rm -rf "$D/bx"
cp -R "$D/b1" "$D/bx"
sed 's/"stress-ng.lockofd.ops": \[200,/"stress-ng.lockofd.ops": [NaN,/' \
	"$D/b1/matrix.json" >"$D/bx/matrix.json"
expect_code 65 "a NaN sample" "$ROBOT" compose --dry-run "$D/req-bx.yaml"
grep -q "^robot: error: .*bx/matrix.json:1:[0-9]*: invalid JSON: .*NaN" \
	"$T/.err" && _ok "a NaN sample: the error names the file and place" ||
	_fail "a NaN sample: the error names the file and place"
