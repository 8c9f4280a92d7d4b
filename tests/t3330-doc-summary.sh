# SPDX-License-Identifier: GPL-2.0-only
#
# t3330-doc-summary: the worked example of doc/build-summary.md, run as
# written: its sh block in a scratch directory (robot on the PATH), its
# output against the body the page shows.
. "$(dirname "$0")/lib.sh"

DOC=$TOP/doc/build-summary.md
mkdir -p "$T/ex" "$T/bin"
ln -s "$ROBOT" "$T/bin/robot"
# the first ```sh block after "## A worked example", then the plain block
awk '/^## A worked example/{on=1} on&&/^```sh$/{f=1;next} f&&/^```$/{exit} f' \
	"$DOC" >"$T/example.sh"
awk '/^## A worked example/{on=1} on&&/^```sh$/{sh=1} on&&sh&&/^```$/{sh=0;done=1;next}
	done&&/^```$/{if(p){exit} p=1;next} p' "$DOC" >"$T/want"
ok "the page has an example and its output" test -s "$T/example.sh" -a -s "$T/want"
(cd "$T/ex" && PATH="$T/bin:$PATH" sh -e "$T/example.sh") >"$T/mail" 2>"$T/err"
ok "the example runs as written" test ! -s "$T/err"
ok "its Subject is the one the page names" grep -qx \
	'Subject: \[pci:next\] BUILD REGRESSION c4e85e3f147644d222f7d2da21a812f8ff3b7cbc' "$T/mail"
sed -n '/^tree\/branch:/,$p' "$T/mail" >"$T/got"
ok "its body is the one the page shows" test_cmp "$T/want" "$T/got"
