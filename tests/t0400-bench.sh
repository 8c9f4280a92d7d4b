#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t0400-bench: the machinery of make bench (bench/run) on a tiny compare
# workload, so that the bench cannot rot between its runs: the table's
# columns, a row per size with its verdict, the growth line, the format of
# results.tsv (bench/run --help), and --diff, which must pass a file
# against itself and fail on one whose CPU time is 20% worse.
. "$(dirname "$0")/lib.sh"

OUT=$T/results.tsv
BENCH_QUICK=1 BENCH_RUNS=1 BENCH_PROFILE=0 BENCH_OUT=$OUT \
	BENCH_SIZES_compare="20x3 40x3 80x3" BUILD=$BUILD ROBOT=$ROBOT \
	"$TOP/bench/run" compare >"$T/table" 2>"$T/err"
ok "bench/run compare exits 0" test $? -eq 0
ok "the table's head names every column" grep -q \
	'^workload  size .* robot CPU  peak RSS  anchor .* its CPU  ratio  floor CPU  x floor  target .* verdict$' \
	"$T/table"
ok "one row per size, each with a figure, a floor and a verdict" sh -c '
	n=$(grep -cE "^compare +[0-9]+ x 3 +[0-9.]+ ms +[0-9.]+ MB .* [0-9.]+ ms +[0-9.]+x .*(ok|MISS)$" "$1")
	test "$n" -eq 3' _ "$T/table"
ok "without LKP_SRC the anchor says it is skipped" \
	grep -q 'skipped: LKP_SRC unset' "$T/table"
ok "the load average is printed" grep -q '^load average [0-9.]* at the start' \
	"$T/table"
ok "the growth of the cost is judged" grep -qE \
	'^  compare \(x 3 runs\): +20: .* 80: .*(linear|NOT linear)' "$T/table"
ok "results.tsv: the header" sh -c '
	test "$(sed -n 2p "$1")" = "$(printf "workload\tsize\tmetric\tvalue\tunit\tcommit\tdate\tloadavg")"' \
	_ "$OUT"
ok "results.tsv: every line has eight fields of their kinds" awk -F'\t' '
	NR <= 2 { next }
	NF != 8 || $1 != "compare" || $2 !~ /^[0-9]+x3$/ ||
	$3 !~ /^(cpu|rss|wall|floor_cpu|floor_rss|input_bytes|start_rss)$/ ||
	$4 !~ /^[0-9.e+-]+$/ || $5 !~ /^(s|KiB|bytes|count)$/ ||
	$7 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-9:]+Z$/ ||
	$8 !~ /^[0-9.]+$/ { print "bad line " NR ": " $0; bad = 1 }
	END { exit bad || NR < 2 + 3 * 7 }' "$OUT"
ok "results.tsv: cpu, rss and the floor of each size" sh -c '
	for s in 20x3 40x3 80x3; do
		for m in cpu rss floor_cpu floor_rss; do
			grep -q "^compare	$s	$m	" "$1" || exit 1
		done
	done' _ "$OUT"
"$TOP/bench/run" --diff "$OUT" "$OUT" >"$T/same" 2>&1
ok "--diff of a file against itself passes" test $? -eq 0
ok "... and says no figure is worse" grep -q '^0 figure(s) more than 10% worse' \
	"$T/same"
awk -F'\t' 'BEGIN { OFS = "\t" }
	$2 == "80x3" && $3 == "cpu" { $4 = $4 * 1.2 + 0.002 } { print }' \
	"$OUT" >"$T/worse.tsv"
"$TOP/bench/run" --diff "$OUT" "$T/worse.tsv" >"$T/worse" 2>&1
ok "--diff fails when a CPU time is 20% worse" test $? -eq 1
ok "... and names it" grep -qE '^compare +80x3 +cpu .*WORSE$' "$T/worse"
echo "1..$test_n"
