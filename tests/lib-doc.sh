# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib-doc.sh: runs a doc page's worked example as the page has it,
# sourced after lib.sh (t0310, t0330).  Its ```sh blocks run in order,
# each in `sh -e`, in one empty folder $T/ex, with $ROBOT as `robot`; a
# block followed by an ```output block must print exactly that.  The
# commands are read from the page, so the page and the test cannot drift
# apart.  Each block's files stay in $T/blocks (NN.sh, NN.want) and its
# output in $T/NN.out for the caller's further checks.
#
#   run_doc PAGE    one check that the page has blocks, one a block

run_doc() {
	_doc=$1
	mkdir -p "$T/bin" "$T/ex"
	ln -s "$ROBOT" "$T/bin/robot"
	/usr/bin/python3 - "$_doc" "$T/blocks" <<'EOF'
import os, sys
doc, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
lines = open(doc, encoding='utf-8').read().split('\n')
blocks, i = [], 0
while i < len(lines):
    if lines[i] in ('```sh', '```output'):
        kind, body, i = lines[i][3:], [], i + 1
        while lines[i] != '```':
            body.append(lines[i])
            i += 1
        blocks.append((kind, '\n'.join(body) + '\n'))
    i += 1
n = 0
for k, (kind, body) in enumerate(blocks):
    if kind != 'sh':
        continue
    n += 1
    with open(os.path.join(out, '%02d.sh' % n), 'w') as f:
        f.write(body)
    if k + 1 < len(blocks) and blocks[k + 1][0] == 'output':
        with open(os.path.join(out, '%02d.want' % n), 'w') as f:
            f.write(blocks[k + 1][1])
EOF
	ok "${_doc#"$TOP"/} has its sh blocks" test -f "$T/blocks/01.sh"
	for b in "$T"/blocks/*.sh; do
		n=$(basename "$b" .sh)
		first=$(grep -m1 -v '^\s*$' "$b")
		(cd "$T/ex" && PATH=$T/bin:$PATH sh -e "$b") >"$T/$n.out" 2>"$T/$n.err"
		rc=$?
		if [ -f "$T/blocks/$n.want" ]; then
			if [ $rc -eq 0 ] && test_cmp "$T/blocks/$n.want" "$T/$n.out" >"$T/$n.diff" 2>&1; then
				_ok "block $n ($first): prints the page's output"
			else
				_fail "block $n ($first): prints the page's output (exit $rc)"
				sed 's/^/# /' "$T/$n.err" "$T/$n.diff"
			fi
		elif [ $rc -eq 0 ] && [ ! -s "$T/$n.err" ]; then
			_ok "block $n ($first): runs"
		else
			_fail "block $n ($first): runs (exit $rc)"
			sed 's/^/# /' "$T/$n.err"
		fi
	done
}
