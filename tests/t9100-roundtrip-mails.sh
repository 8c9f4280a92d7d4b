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
#   128 2024-10 config:/compiler: lines, download link
#   132 2025-08 still lines with right-aligned trees, a host without
#       sockets
#   133 2025-10 improvement, a brand with two blanks
#   134 2026-02 fio options in fio-setup-basic's section, fio not sorted
#       first yet
#   136 2026-07 posted patch without "base:", two In-addition tests,
#       three sections, Ruby's rounding of exact ties
#   221 2022-02 the 0DAY/LKP+ footer, In-addition
#   234 2022-11 a preface before "Greeting,", "| Link:" tags
#   242 2023-08 a posted patch with "| Closes:" tags
#   276 2024-07 an improvement on a posted patch with In-addition
#   292 2024-11 "[test failed on ...]", In-addition, three sections
. "$(dirname "$0")/lib.sh"

CORPUS=${CORPUS:-$TOP/../shared/corpus}
MAILS=$CORPUS/mails
FIDELITY=$TOP/tests/tools/fidelity
EML2LKP=$TOP/tests/tools/eml2lkp

if ! ls "$MAILS"/*.eml >/dev/null 2>&1; then
	_ok "real mails # SKIP no corpus at $MAILS"
	exit 0
fi

set --
for nnn in 112 114 123 128 132 133 134 136 221 234 242 276 292; do
	set -- "$@" "$(ls "$MAILS/$nnn"-*.eml)"
done
$PYTHON "$FIDELITY" --robot "$ROBOT" "$@" >"$T/fidelity" 2>&1
while read -r verdict name rest; do
	case "$verdict" in
	ok) _ok "$name: robot's mail is the real one" ;;
	FAIL)
		_fail "$name: robot's mail is the real one"
		echo "# $rest"
		;;
	esac
done <"$T/fidelity"

# the operator's replies are not reports: exit 65, one line on stderr
for nnn in 105 111 125; do
	mail=$(ls "$MAILS/$nnn"-*.eml)
	rm -rf "$T/refused"
	$PYTHON "$EML2LKP" "$mail" "$T/refused" >"$T/.out" 2>"$T/.err"
	rc=$?
	if [ "$rc" -eq 65 ] && [ "$(wc -l <"$T/.err")" -eq 1 ] &&
		[ ! -e "$T/refused" ]; then
		_ok "$nnn: eml2lkp refuses the operator's reply"
	else
		_fail "$nnn: eml2lkp refuses the operator's reply (exit $rc)"
		sed 's/^/# stderr: /' "$T/.err"
	fi
done

# a report kept without its headers is still text: ISO-8859-1, with the
# byte B1 for ± (not "binary data")
$PYTHON -c 'import email, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read())
sys.stdout.buffer.write(m.get_payload(decode=True))' \
	"$(ls "$MAILS"/128-*.eml)" >"$T/128-body.txt"
ok "eml2lkp reads an ISO-8859-1 body kept without headers" \
	$PYTHON "$EML2LKP" "$T/128-body.txt" "$T/128-body"
