#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip on real mails, a representative subset of `make fidelity`
# (which runs every mail of the shared corpus): each mail named below is a
# 0-day report kept byte for byte from a public list archive, in
# ../shared/corpus/mails (its README gives each one's source).  For each,
# tests/tools/fidelity runs eml2lkp, checks that no line of the report's
# tables is in the inputs, runs `robot compose --dry-run` and compares:
# the decoded text part exactly, the Subject unfolded only (runs of
# blanks count), From/To/Cc by decoded name and address, Message-ID and
# In-Reply-To.  Without the corpus the test says so and passes.
#
# The mails, and what each one adds:
#   112 2022-01 sudo steps, In-addition, two sections
#   114 2022-05 the "-- 0-DAY CI" signature, a patch without "patch
#       subject:", a machine without brand
#   123 2023-10 a posted patch, "| Closes:", In-addition, two sections
#   128 2024-10 config:/compiler: lines, download link, the change's sign
#   133 2025-10 improvement, a brand with two blanks
#   134 2026-02 still lines whose trees start together, a regression
#       without In-addition: two empty lines before the tags
#   136 2026-07 posted patch without "base:", two In-addition tests,
#       three sections, Ruby's rounding of exact ties
#   205 2020-11 one empty line before "Greeting," (lead 1 from
#       2020-11-15)
#   208 2020-12 a note under the headline quoting two rows of the table
#       (note_parts), fail:runs rows, 36 plots with incomplete runs
#   213 2021-03 "Thanks," without the 0DAY/LKP+ footer (footer lkp from
#       2021-03-02)
#   221 2022-02 the 0DAY/LKP+ footer, In-addition
#   234 2022-11 a preface before "Greeting," (two empty lines in the
#       one-line lead period), "| Link:" tags
#   238 2023-07 the lkp steps still (repro download from 2023-08-01)
#   242 2023-08 a posted patch with "| Closes:" tags
#   276 2024-07 an improvement on a posted patch with In-addition
#   287 2024-10 a note quoting a row without a change, in parentheses
#       (note_parts)
#   289 2024-10 a KPI whose direction no table knows, its sign kept
#   291 2024-10 the change without its sign, in the In-addition rows too
#   292 2024-11 "[test failed on ...]", the In-addition minus a blank
#   296 2024-12 four vmstat rows (the threshold distractor takes
#       vmstat.cpu.us, whose threshold is 10), the test sorted by its
#       row count
#   299 2024-12 a regression without still lines: one empty line after
#       the repository line, four before the tags
#   306 2025-03 an improvement with In-addition: two empty lines after
#       the repository line, four after the table
#   311 2025-06 the sender's text after "Hello,", a Subject of 69
#       characters with one blank after the colon, twelve sections
#   320 2025-08 an improvement without In-addition: three empty lines
#       before "Details"
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/mails
FIDELITY=$TOP/tests/tools/fidelity
EML2LKP=$TOP/tests/tools/eml2lkp

skip_without_corpus "$MAILS" '*.eml' "real mails"

set --
for nnn in 112 114 123 128 133 134 136 205 208 213 221 234 238 242 276 287 \
	289 291 292 296 299 306 311 320; do
	set -- "$@" "$(ls "$MAILS/$nnn"-*.eml)"
done
$PYTHON "$FIDELITY" --robot "$ROBOT" "$@" >"$T/fidelity" 2>&1
while read -r verdict name rest; do
	case "$verdict" in
	ok) _ok "$name: robot's mail is the real one" ;;
	FAIL)
		_fail "${name%:}: robot's mail is the real one"
		echo "# $rest"
		;;
	esac
done <"$T/fidelity"

# the operators' replies (105, 111, 125) are follow-ups, not reports:
# eml2lkp's reply mode reads their tables, t7200 round-trips them

# a report kept without its headers is still text: ISO-8859-1, with the
# byte B1 for ± (not "binary data")
$PYTHON -c 'import email, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read())
sys.stdout.buffer.write(m.get_payload(decode=True))' \
	"$(ls "$MAILS"/128-*.eml)" >"$T/128-body.txt"
ok "eml2lkp reads an ISO-8859-1 body kept without headers" \
	$PYTHON "$EML2LKP" "$T/128-body.txt" "$T/128-body"

# 236 (2023-04): perf-profile rows on one change (the "-0.0" rows of
# 0.22 to 0.16 and 0.08 to 0.02: two-decimal samples, a hair above -0.05)
# keep matrix.json's order, which until lkp-tests c81381bf8 (2024-01-14)
# was the perf-profile parser's, by falling value of the first run.
# eml2lkp writes such rows so and robot prints the mail's table; with the
# same matrices written by name, the tied rows come in name order.
MATCH=$TOP/tests/tools/block-match
m236=$(ls "$MAILS"/236-*.eml)
ok "236: eml2lkp writes the inputs of rows tied on one change" \
	$PYTHON "$EML2LKP" "$m236" "$T/236"
kpi=$(sed -n 's/^kpi: //p' "$T/236/request.yaml")
"$ROBOT" compare --style 2023-04-24 --commits "$T/236/commits.yaml" \
	--kpi "$kpi" "$T/236/rt0" "$T/236/rt1" >"$T/236.block" 2>&1
ok "236: robot compare prints the mail's table" \
	$PYTHON "$MATCH" exact "$m236" "$T/236.block"
mkdir -p "$T/236-byname"
for rt in rt0 rt1; do
	cp -r "$T/236/$rt" "$T/236-byname/$rt"
	$PYTHON -c 'import json, sys
m = json.load(open(sys.argv[1]))
json.dump(dict(sorted(m.items())), open(sys.argv[1], "w"), indent=2)' \
		"$T/236-byname/$rt/matrix.json"
done
"$ROBOT" compare --style 2023-04-24 --commits "$T/236/commits.yaml" \
	--kpi "$kpi" "$T/236-byname/rt0" "$T/236-byname/rt1" \
	>"$T/236-byname.block" 2>&1
ok "236: the tied rows follow matrix.json's order" \
	grep -q "put_pid\$" "$T/236-byname.block"
if $PYTHON "$MATCH" exact "$m236" "$T/236-byname.block" >/dev/null; then
	_fail "236: by name, the tied rows leave the mail's order"
else
	_ok "236: by name, the tied rows leave the mail's order"
fi

# The same class on larger means, from robot's own mail: three of those
# rows given two-decimal samples at 5.21/5.22 and 5.17/5.16 in the
# inputs above (their matrix order kept) tie at "5.22 -0.0 5.16" out of
# name order; eml2lkp rebuilds inputs from that mail (rounded shapes: too
# wide a spread to walk) and robot prints its table again.
cp -r "$T/236" "$T/tie5"
$PYTHON -c 'import json, sys
for rt, v in (("rt0", [5.21, 5.22] * 3), ("rt1", [5.17, 5.16] * 3)):
    p = sys.argv[1] + "/" + rt + "/matrix.json"
    m = json.load(open(p))
    for k in ("try_to_unlazy_next", "put_pid", "vfs_fstat"):
        m["perf-profile.children.cycles-pp." + k] = v
    json.dump(m, open(p, "w"), indent=1)' "$T/tie5"
sed -i "s|$T/236/|$T/tie5/|g" "$T/tie5/robot.yaml" "$T/tie5/request.yaml"
"$ROBOT" compose --dry-run -c "$T/tie5/robot.yaml" "$T/tie5/request.yaml" \
	>"$T/tie5.eml" 2>&1
ok "tie5: robot's mail has the three rows on one change" \
	test "$(grep -c ' 5\.22  *-0\.0  *5\.16  *perf-profile\.children\.' \
		"$T/tie5.eml")" = 3
ok "tie5: eml2lkp writes the inputs" \
	$PYTHON "$EML2LKP" "$T/tie5.eml" "$T/tie5-out"
"$ROBOT" compare --style 2023-04-24 --commits "$T/tie5-out/commits.yaml" \
	--kpi "$kpi" "$T/tie5-out/rt0" "$T/tie5-out/rt1" >"$T/tie5.block" 2>&1
ok "tie5: robot compare prints the mail's table again" \
	$PYTHON "$MATCH" exact "$T/tie5.eml" "$T/tie5.block"
