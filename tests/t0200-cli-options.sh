# SPDX-License-Identifier: GPL-2.0-only
#
# t0200-cli-options: every command reads its options the same way: an
# option without its value and an unknown option are usage errors (exit
# 2) with one line that names the option, long or short.
. "$(dirname "$0")/lib.sh"

# opt DESC NEEDLE ARGS...: exit 2, one error line holding NEEDLE
opt() {
	_d=$1 _n=$2
	shift 2
	expect_code 2 "$_d: exit 2, one error line" "$ROBOT" "$@"
	if names "$_n" >"$T/.why" 2>&1; then
		_ok "$_d: the error says so"
	else
		_fail "$_d: the error says so"
		sed 's/^/# /' "$T/.why"
	fi
}

opt "compose -c without a value" "option '-c' needs a value" compose r.yaml -c
opt "compose --config without a value" "option '--config' needs a value" \
	compose r.yaml --config
opt "compose --style without a value" "option '--style' needs a value" \
	compose r.yaml --style
opt "compose --data-dir without a value" "option '--data-dir' needs a value" \
	compose r.yaml --data-dir
opt "compose: an unknown long option" "unknown option '--frob'" \
	compose --frob=1 r.yaml
opt "compose: an unknown short option" "unknown option '-x'" compose -x r.yaml
opt "compare --kpi without a value" "option '--kpi' needs a value" \
	compare a b --kpi
opt "compare --no-rule without a value" "option '--no-rule' needs a value" \
	compare a b --no-rule
opt "compare: an unknown option" "unknown option '-q'" compare -q a b
opt "queue -c without a value" "option '-c' needs a value" queue -c
opt "queue: an unknown option" "unknown option '--frob'" queue --frob
opt "send -c without a value" "option '-c' needs a value" send -c
opt "send: an unknown option" "unknown option '--frob'" send --frob
opt "plot --title without a value" "option '--title' needs a value" \
	plot a b --title
opt "plot: an unknown option" "unknown option '-z'" plot -z a b
opt "thread --repo without a value" "option '--repo' needs a value" \
	thread HEAD --repo
opt "thread --commits without a value" "option '--commits' needs a value" \
	thread HEAD --commits
opt "thread: an unknown option" "unknown option '-x'" thread -x HEAD

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
