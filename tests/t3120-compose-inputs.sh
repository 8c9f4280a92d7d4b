# SPDX-License-Identifier: GPL-2.0-only
#
# t3120-compose-inputs: every input key a report needs, removed one at a
# time (and several at once), gives exactly one error line that names the
# input file and the key, says which part of the mail needs it, and lists
# every key missing from that file at once; never a template's path.
# doc/result-root.md and doc/request.md list the same keys per period.
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
C3=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
CFG=$T/robot.yaml
# The neutral defaults link nowhere: the configuration names the list
# archive of the tags and the download link of the materials.
printf 'spool: %s/spool\n' "$T" >"$CFG"
printf 'archive_url: https://ci.example.org/archive\n' >>"$CFG"
printf 'list_archive_url: https://lists.example.org/ci\n' >>"$CFG"

# The table: STYLE | FILE | KEYS | the error after "robot: error: ".
# FILE is job (every job.yaml of rt0 and rt1), request, commits or config
# (robot.yaml); KEYS are removed from it (a commits key from every
# commit).  W is the scratch folder of the case.
cases() {
	cat <<'EOF'
2023-06-07|job|memory|W/rt0/0/job.yaml: 'memory' is missing (the test machine line needs it, unless the request gives 'machine')
2023-06-07|job|nr_cpu|W/rt0/0/job.yaml: 'nr_cpu' is missing (the test machine line needs it, unless the request gives 'machine')
2023-06-07|job|brand model|W/rt0/0/job.yaml: 'brand' or 'model' is missing (the test machine line needs it, unless the request gives 'machine')
2023-06-07|job|testcase|W/rt0/0/job.yaml: 'testcase' is missing (the testcase line needs it)
2023-06-07|job|commit|W/rt0/0/job.yaml: 'commit' is missing (the comparison needs it); W/rt1/0/job.yaml: 'commit' is missing (the comparison needs it)
2023-06-07|job|testcase memory nr_cpu|W/rt0/0/job.yaml: 'testcase', 'nr_cpu' and 'memory' are missing (the testcase line needs 'testcase'; the test machine line needs 'nr_cpu' and 'memory', unless the request gives 'machine')
2023-06-07|job|commit memory|W/rt0/0/job.yaml: 'commit' and 'memory' are missing (the comparison needs 'commit'; the test machine line needs 'memory', unless the request gives 'machine'); W/rt1/0/job.yaml: 'commit' is missing (the comparison needs it)
2023-06-07|request|tree|W/req.yaml: 'tree' is missing (the Subject needs it)
2023-06-07|request|repo_url|W/req.yaml: 'repo_url' is missing (the line under the commit needs it)
2023-06-07|request|branch|W/req.yaml: 'branch' is missing (the line under the commit needs it)
2023-06-07|request|kpi|W/req.yaml: 'kpi' is missing (the Subject needs it)
2023-06-07|request|commit|W/req.yaml: 'commit' is missing (the commit line needs it)
2023-06-07|request|result_roots|W/req.yaml: 'result_roots' is missing (the comparison needs it)
2023-06-07|request|tree repo_url branch|W/req.yaml: 'tree', 'repo_url' and 'branch' are missing (the Subject needs 'tree'; the line under the commit needs 'repo_url' and 'branch')
2023-06-07|commits|subject|W/commits.yaml: 'subject' of commit 20f3337d35 is missing (the commit line needs it)
2025-06-01|job|kconfig|W/rt0/0/job.yaml: 'kconfig' is missing (the config and compiler lines need it)
2025-06-01|job|kconfig compiler|W/rt0/0/job.yaml: 'kconfig' and 'compiler' are missing (the config and compiler lines need them)
2021-06-01|job|nr_node|W/rt0/0/job.yaml: 'nr_node' is missing (the test machine line needs it, unless the request gives 'machine')
2021-06-01|request|branch|W/req.yaml: 'branch' is missing (the line under the commit needs it)
2020-06-01|job|memory|W/rt0/0/job.yaml: 'memory' is missing (the test machine line needs it, unless the request gives 'machine')
2020-06-01|job|brand model|W/rt0/0/job.yaml: 'brand' or 'model' is missing (the test machine line needs it, unless the request gives 'machine')
2020-06-01|commits|subject|W/commits.yaml: 'subject' of commit 20f3337d35 is missing (the commit line needs it)
2025-06-01|config|archive_url|W/robot.yaml: 'archive_url' is missing (the download link needs it)
2025-06-01|config|archive_url list_archive_url|W/robot.yaml: 'archive_url' is missing (the download link needs it)
2025-06-01|job commits config|memory subject archive_url|W/commits.yaml: 'subject' of commit 20f3337d35 is missing (the commit line needs it); W/rt0/0/job.yaml: 'memory' is missing (the test machine line needs it, unless the request gives 'machine'); W/robot.yaml: 'archive_url' is missing (the download link needs it)
EOF
}

n=0
cases >"$T/cases"
while IFS='|' read -r style file keys expect; do
	n=$((n + 1))
	W=$T/case$n
	mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
	cp "$CFG" "$W/robot.yaml"
	{
		base_request "$C3"
		printf 'style: %s\n' "$style"
	} >"$W/req.yaml"
	for k in $keys; do
		case $file in
		job) for j in "$W"/rt*/*/job.yaml; do sed -i "/^$k:/d" "$j"; done ;;
		request) sed -i "/^$k:/d" "$W/req.yaml" ;;
		commits) sed -i "/^  $k:/d" "$W/commits.yaml" ;;
		config) sed -i "/^$k:/d" "$W/robot.yaml" ;;
		*) for f in $file; do # "job commits config": one key each
			case $f in
			job) sed -i "/^$k:/d" "$W"/rt*/*/job.yaml ;;
			commits) sed -i "/^  $k:/d" "$W/commits.yaml" ;;
			config) sed -i "/^$k:/d" "$W/robot.yaml" ;;
			esac
		done ;;
		esac
	done
	cdesc="$style, $file without $keys"
	# keys only the configuration lacks: bad configuration
	code=65
	[ "$file" = config ] && code=78
	expect_code $code "$cdesc: exit $code, one error line" \
		"$ROBOT" compose --dry-run -c "$W/robot.yaml" "$W/req.yaml"
	printf 'robot: error: %s\n' "$expect" | sed "s|W/|$W/|g" >"$T/want"
	if test_cmp "$T/want" "$T/.err" >"$T/.diff" 2>&1 &&
		! grep -q 'templates/' "$T/.err"; then
		_ok "$cdesc: names the file and every missing key"
	else
		_fail "$cdesc: names the file and every missing key"
		sed 's/^/# /' "$T/.diff"
	fi
done <"$T/cases"

# The good request, untouched, composes: the cases are not vacuous.
W=$T/good
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
base_request "$C3" >"$W/req.yaml"
for style in 2020-06-01 2021-06-01 2023-06-07 2025-06-01; do
	ok "the untouched request composes in the $style style" \
		"$ROBOT" compose --dry-run -c "$CFG" --style "$style" \
		"$W/req.yaml"
done

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
