#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The round trip on real mails (the issue "Round trip", item 2): each mail
# of tests/data/mails named below is a 0-day report kept byte for byte
# from the public list archives (tests/data/mails/README gives its
# source: the linux-mailinglist-archives public-inbox mirror and commit,
# and its Message-ID on lore.kernel.org).  For each one:
#
#  - eml2lkp turns it into the inputs an operator would have had (result
#    roots, job.yaml files, commits.yaml, request.yaml, robot.yaml), with
#    the Date header as the day;
#  - no line of its report is in those inputs (check-no-copied-lines);
#  - `robot compose --dry-run` on them prints the mail again: the decoded
#    text part identical from its first byte to its last, and the same
#    Subject, From, To, Cc, Message-ID and In-Reply-To by value (decoded,
#    unfolded, blanks collapsed: the list server padded and re-indented
#    header lines until 2023) -- tests/tools/mail-match, mode mail.  The
#    ASCII bisect plots of the 2019-2021 mails are cut from the seed's
#    side first: robot draws no plots yet.
#
# The mails, and what each one adds (sources: tests/data/mails/README):
#   101 2019-07 regression, "Greeting,", no blank line before it, no
#       tags yet, "Thanks," only, plots (linux-xfs @ a1fa1d30)
#   102 2020-09 improvement on a posted patch (url:/base:, the patch's
#       subject on the commit line), In-Reply-To (linux-ext4 @ eede8e68)
#   104 2020-11 two sections, the In-addition test as a section, test
#       description (linux-btrfs @ 6bed79a7)
#   106 2020-12 regression on a posted patch, a fail:runs table of
#       perf-profile error_* sums below 1, one blank line before
#       "Greeting," (linux-btrfs @ 5f4e86c2)
#   109 2021-04 improvement, the 0DAY/LKP+ footer, compatible-job.yaml
#       (linux-btrfs @ 430eecf0)
#   110 2021-07 regression on a patch, sockets, generated-yaml-file, an
#       In-addition table and its section (linux-ext4 @ 0829a254)
#   112 2022-01 sudo steps, In-addition, two sections (linux-btrfs @
#       e3d31427)
#   113 2022-01 posted patch with "patch link:" (linux-xfs @ e21a185d)
#   114 2022-05 the "-- 0-DAY CI" signature, a patch without "patch
#       subject:", a machine without brand (linux-xfs @ ad194c13)
#   115 2022-07 preface, a regression whose tags the sender left out
#       (linux-xfs @ 7d6531eb)
#   121 2023-05 "Hello,", "| Link:" tags, job.yaml steps, In-addition,
#       test description (linux-xfs @ 2361a4d7)
#   128 2024-10 config:/compiler: lines, "| Closes:", download link
#       (linux-xfs @ 6dc7996a)
#   129 2025-02 preface, still lines, unsigned change, four sections
#       (linux-btrfs @ b07522a9)
#   130 2025-04 improvement of a lower-is-better stat, fail:runs table
#       (linux-nfs @ 224b8383)
#   132 2025-08 still lines with right-aligned trees, a host without
#       sockets (linux-block @ c25ecf08)
#   133 2025-10 improvement, a brand with two blanks (linux-xfs @
#       ebe8502c)
#   134 2026-02 fio options in fio-setup-basic's section, fio not sorted
#       first yet (linux-btrfs @ e992b4aa)
#   135 2026-05 In-addition without machine, an empty section header,
#       RFC 2047 names in Cc (cgroups @ ac68739d)
#   136 2026-07 posted patch without "base:", two In-addition tests,
#       three sections, Ruby's rounding of exact ties (cgroups @ c659dd75)
#
# Not run here (tests/data/mails/README has their notes): 105, 111, 125
# are the operator's replies (refused below); 116 was re-sent
# format=flowed; 103, 107, 108 show rows that lkp-tests' selection drops
# (a threshold change below half its Integer threshold:
# fsmark.time.elapsed_time 6.69 -> 10.50 in 103); 117, 119, 120 follow
# Yujie Liu's own layout; and 118, 122, 123, 124, 126, 127, 131 differ in
# empty lines no period rule explains (hand edits: 124 dropped an
# In-addition entry, 126 carried a hand-made attachment).
. "$(dirname "$0")/lib.sh"

MAILS=${MAILS_DIR:-$TOP/tests/data/mails}
EML2LKP=$TOP/tests/tools/eml2lkp
MATCH=$TOP/tests/tools/mail-match
NOCOPY=$TOP/tests/tools/check-no-copied-lines

for nnn in 101 102 104 106 109 110 112 113 114 115 121 128 129 130 132 \
	133 134 135 136; do
	mail=$(ls "$MAILS/$nnn"-*.eml)
	out=$T/$nnn
	ok "$nnn: eml2lkp writes the inputs" \
		$PYTHON "$EML2LKP" "$mail" "$out"
	ok "$nnn: no line of the mail's report is in the inputs" \
		$PYTHON "$NOCOPY" "$mail" "$out"
	ok "$nnn: robot composes the report" \
		sh -c '"$1" compose --dry-run -c "$2/robot.yaml" \
			"$2/request.yaml" >"$3"' - "$ROBOT" "$out" "$T/mail-$nnn"
	ok "$nnn: robot's mail is the real one (body, headers)" \
		$PYTHON "$MATCH" mail "$mail" "$T/mail-$nnn"
done

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
