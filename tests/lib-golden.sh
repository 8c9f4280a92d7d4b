# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib-golden.sh: the golden-mail helpers of t3000 and t3200, sourced
# after lib.sh.  The caller sets SRC (the cases, tests/golden or
# tests/functional) and G (their copy in $T, where the result roots and
# the fixture repository are); each case is $SRC/NNNN-name/ with
# request.yaml and expect.eml, composed with -c ../data/robot.yaml.
#
#   compose CASE OUT [ENV...]   robot compose --dry-run in $G/CASE
#   golden CASE                 the bytes against expect.eml (written when
#                               missing, or when UPDATE=1)
#   same_twice CASE             the same bytes with another clock and zone

compose() {
	_c=$1 _o=$2
	shift 2
	(cd "$G/$_c" && env "$@" "$ROBOT" compose --dry-run \
		-c ../data/robot.yaml request.yaml) >"$_o" 2>"$_o.err"
}

golden() {
	_c=$1
	_exp=$SRC/$_c/expect.eml
	if ! compose "$_c" "$G/$_c/actual"; then
		cat "$G/$_c/actual.err"
		return 1
	fi
	if [ -s "$G/$_c/actual.err" ]; then
		echo "stderr is not empty:"
		cat "$G/$_c/actual.err"
		return 1
	fi
	if [ ! -f "$_exp" ]; then
		cp "$G/$_c/actual" "$_exp"
		echo "wrote $_exp: review it, then commit it"
		return 1
	fi
	if [ -n "${UPDATE:-}" ] && ! cmp -s "$_exp" "$G/$_c/actual"; then
		cp "$G/$_c/actual" "$_exp"
		echo "updated $_exp"
		return 0
	fi
	test_cmp "$_exp" "$G/$_c/actual"
}

same_twice() {
	compose "$1" "$G/$1/again" SOURCE_DATE_EPOCH=86400 TZ=Asia/Kolkata &&
		cmp "$G/$1/actual" "$G/$1/again"
}
