# SPDX-License-Identifier: GPL-2.0-only
#
# t1100-results-bad-input: every broken result root is refused as bad
# input (exit 65) with exactly one "robot: error:" line that names the
# file at fault.  Driven through tests/helpers/rt-load, which calls
# result_root_load() and prints "nruns nstats nincomplete".
. "$(dirname "$0")/lib.sh"

LOAD=$BUILD/tests/helpers/rt-load
if [ ! -x "$LOAD" ]; then
	_fail "$LOAD is built (make all)"
	exit 1
fi
SRC='"stats_source": ["/result/t/sha/0/stats.json", "/result/t/sha/1/stats.json"]'

# mkroot NAME [MATRIX]: a result root with runs 0 and 1 and a matrix.json
mkroot() {
	mkdir -p "$T/$1/0" "$T/$1/1"
	printf 'testcase: t\nt:\n  test: x\n' >"$T/$1/0/job.yaml"
	cp "$T/$1/0/job.yaml" "$T/$1/1/job.yaml"
	if [ $# -gt 1 ]; then
		printf '%s\n' "$2" >"$T/$1/matrix.json"
	fi
}

# bad DESC NAME PATTERN: loading $T/NAME exits 65 with one error line,
# and that line contains PATTERN (a grep -E pattern); the same through
# `robot compare --all` against a good root
bad() {
	expect_code 65 "$1" "$LOAD" "$T/$2"
	if grep -Eq -- "$3" "$T/.err"; then
		_ok "$1: message names the file"
	else
		_fail "$1: message names the file (want /$3/)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
	expect_code 65 "$1: robot compare" \
		"$ROBOT" compare --all --style 2023 "$T/good" "$T/$2"
	if grep -Eq -- "$3" "$T/.err"; then
		_ok "$1: robot compare names the file"
	else
		_fail "$1: robot compare names the file (want /$3/)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
}

mkroot good "{\"a\": [1, 2.5], \"b\": [3],
  \"last_state.is_incomplete_run\": [0, 1], $SRC}"
ok "a good result root loads" "$LOAD" "$T/good"
"$LOAD" "$T/good" >"$T/good.out" 2>&1
echo "2 3 1" >"$T/good.want"
ok "a good result root: 2 runs, 3 stats, 1 incomplete" \
	test_cmp "$T/good.want" "$T/good.out"

mkroot gzok
printf '{"a": [1, 2], %s}\n' "$SRC" | gzip -c >"$T/gzok/matrix.json.gz"
ok "a good matrix.json.gz loads" "$LOAD" "$T/gzok"

bad "missing result root" nonexistent "'$T/nonexistent'.*No such file"

mkroot nomatrix
bad "missing matrix.json" nomatrix "'$T/nomatrix/matrix.json'.*No such file"

# Tests run as root, where chmod 000 does not stop reading, so an
# unreadable matrix.json is a directory of that name.
mkroot unreadable
mkdir "$T/unreadable/matrix.json"
bad "unreadable matrix.json (a directory)" unreadable \
	"cannot read '$T/unreadable/matrix.json'"
if [ "$(id -u)" -ne 0 ]; then
	mkroot noperm "{\"a\": [1], $SRC}"
	chmod 000 "$T/noperm/matrix.json"
	bad "unreadable matrix.json (mode 000)" noperm \
		"'$T/noperm/matrix.json'.*Permission denied"
fi

mkroot invalid "{\"a\": [1, 2],
  \"b\": [1 2], $SRC}"
bad "invalid JSON: line and column" invalid \
	"$T/invalid/matrix.json:2:[0-9]+: invalid JSON"

mkroot truncated "{\"a\": [1, 2], $SRC"
bad "truncated JSON" truncated "$T/truncated/matrix.json:[0-9]+:[0-9]+: "

mkroot nonnum "{\"a\": [1, \"2\"], $SRC}"
bad "non-numeric sample" nonnum \
	"$T/nonnum/matrix.json: stat 'a'\\[1\\] is not a number"

mkroot nullsample "{\"a\": [null], $SRC}"
bad "null sample" nullsample "matrix.json: stat 'a'\\[0\\] is not a number"

mkroot notarray "{\"a\": 1, $SRC}"
bad "stat that is not an array" notarray "matrix.json: stat 'a' is not an array"

mkroot toolong "{\"a\": [1, 2, 3], $SRC}"
bad "array longer than stats_source" toolong \
	"$T/toolong/matrix.json: stat 'a' has 3 values"

mkroot nan "{\"a\": [NaN, 1], $SRC}"
bad "NaN" nan "$T/nan/matrix.json:1:[0-9]+: invalid JSON: .*, near 'NaN'"

mkroot inf "{\"a\": [Infinity, 1], $SRC}"
bad "Infinity" inf "$T/inf/matrix.json:1:[0-9]+: invalid JSON"

mkroot huge "{\"a\": [1e999, 1], $SRC}"
bad "1e999 overflows" huge "$T/huge/matrix.json:1:[0-9]+: invalid JSON"

mkroot neghuge "{\"a\": [1, -1e999], $SRC}"
bad "-1e999 overflows" neghuge "$T/neghuge/matrix.json:1:[0-9]+: "

mkroot bigint "{\"a\": [99999999999999999999], $SRC}"
bad "integer beyond 64 bits" bigint "$T/bigint/matrix.json:1:[0-9]+: "

# numbers of 64 characters or more are parsed from a heap copy
long=1.$(printf '%070d' 0)1
mkroot longnum "{\"a\": [$long, 2], $SRC}"
ok "a number of 72 characters loads" "$LOAD" "$T/longnum"
mkroot longhuge "{\"a\": [1, ${long}e999], $SRC}"
bad "a long number that overflows" longhuge \
	"$T/longhuge/matrix.json:1:[0-9]+: invalid JSON"

mkroot dupkey "{\"a\": [1],
 \"a\": [2], $SRC}"
bad "duplicate stat" dupkey "$T/dupkey/matrix.json:2:[0-9]+: .*duplicate"

mkroot empty "{$SRC}"
bad "empty matrix (only stats_source)" empty "$T/empty/matrix.json: no stats"

mkroot emptyobj "{}"
bad "empty matrix ({})" emptyobj "$T/emptyobj/matrix.json: no \"stats_source\""

mkroot emptysrc '{"a": [], "stats_source": []}'
bad "empty stats_source" emptysrc "$T/emptysrc/matrix.json: .*empty"

mkroot numsrc '{"a": [1], "stats_source": [0, 1]}'
bad "stats_source not strings" numsrc \
	"$T/numsrc/matrix.json: stats_source\\[0\\] is not a string"

mkroot emptyfile ""
bad "empty matrix.json file" emptyfile "$T/emptyfile/matrix.json:[0-9]+:[0-9]+: "

mkroot badgz
printf '{"a": [1, 2], %s}\n' "$SRC" | gzip -c >"$T/badgz.gz"
head -c 30 "$T/badgz.gz" >"$T/badgz/matrix.json.gz"
bad "corrupt matrix.json.gz (truncated)" badgz \
	"'$T/badgz/matrix.json.gz': corrupt gzip data"

mkroot notgz
printf 'this is not gzip at all\n' >"$T/notgz/matrix.json.gz"
bad "matrix.json.gz that is not gzip" notgz \
	"'$T/notgz/matrix.json.gz' is not gzip data"

mkroot nojob "{\"a\": [1, 2], $SRC}"
rm "$T/nojob/1/job.yaml"
bad "missing job.yaml" nojob "'$T/nojob/1/job.yaml'.*No such file"

mkroot norun "{\"a\": [1, 2], $SRC}"
rm -r "$T/norun/0"
bad "missing run directory" norun "'$T/norun/0/job.yaml'.*No such file"

mkroot badyaml "{\"a\": [1, 2], $SRC}"
printf 'testcase: t\n  bad: indent\n' >"$T/badyaml/0/job.yaml"
bad "bad YAML in job.yaml" badyaml "$T/badyaml/0/job.yaml:2:[0-9]+: "

mkroot dupyaml "{\"a\": [1, 2], $SRC}"
printf 'testcase: t\ntestcase: u\n' >"$T/dupyaml/0/job.yaml"
bad "duplicate key in job.yaml" dupyaml \
	"$T/dupyaml/0/job.yaml:2:1: duplicate key 'testcase'"

mkroot aliasyaml "{\"a\": [1, 2], $SRC}"
printf 'a: &x 1\nb: *x\n' >"$T/aliasyaml/0/job.yaml"
bad "anchor in job.yaml" aliasyaml "$T/aliasyaml/0/job.yaml:1:4: anchors"

mkroot listyaml "{\"a\": [1, 2], $SRC}"
printf -- '- a\n- b\n' >"$T/listyaml/0/job.yaml"
bad "job.yaml that is not a mapping" listyaml \
	"$T/listyaml/0/job.yaml: not a YAML mapping"

mkroot utf8yaml "{\"a\": [1, 2], $SRC}"
printf 'a: \377\n' >"$T/utf8yaml/0/job.yaml"
bad "invalid UTF-8 in job.yaml" utf8yaml "$T/utf8yaml/0/job.yaml: byte 3: "

# Every run's job.yaml is read, not only the first one's.
mkroot badyaml1 "{\"a\": [1, 2], $SRC}"
printf 'testcase: t\n  bad: indent\n' >"$T/badyaml1/1/job.yaml"
bad "bad YAML in a later run's job.yaml" badyaml1 "$T/badyaml1/1/job.yaml:2:[0-9]+: "
mkroot listyaml1 "{\"a\": [1, 2], $SRC}"
printf -- '- a\n' >"$T/listyaml1/1/job.yaml"
bad "a later run's job.yaml that is not a mapping" listyaml1 \
	"$T/listyaml1/1/job.yaml: not a YAML mapping"
mkroot commit1 "{\"a\": [1, 2], $SRC}"
printf 'commit: %s\n' 1111111111111111111111111111111111111111 >>"$T/commit1/0/job.yaml"
printf 'commit: %s\n' 2222222222222222222222222222222222222222 >>"$T/commit1/1/job.yaml"
bad "a later run of another commit" commit1 \
	"$T/commit1/1/job.yaml: commit: '2222222222222222222222222222222222222222' is not the commit of $T/commit1/0/job.yaml"
mkroot commit2 "{\"a\": [1, 2], $SRC}"
printf 'commit: %s\n' 1111111111111111111111111111111111111111 >>"$T/commit2/0/job.yaml"
bad "a later run without the commit" commit2 \
	"$T/commit2/1/job.yaml: commit: '\(none\)' is not the commit of"

# Stat names are table rows: one line of visible text, not empty.
mkroot nlname "{\"a\\nb\": [1, 2], $SRC}"
bad "a stat name with a newline" nlname \
	"$T/nlname/matrix.json: the stat name \"a\\\\u000ab\" is not one line of visible text \(a line break at byte 2\)"
mkroot emptyname "{\"\": [1, 2], $SRC}"
bad "an empty stat name" emptyname "$T/emptyname/matrix.json: the stat name \"\" is empty"
mkroot bidiname "{\"a\\u202eb\": [1, 2], $SRC}"
bad "a stat name with a bidi override" bidiname \
	"$T/bidiname/matrix.json: the stat name .* is not one line of visible text \(an invisible character \(U\+202E\) at byte 2\)"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
