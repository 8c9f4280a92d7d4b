# SPDX-License-Identifier: GPL-2.0-only
#
# t0330-doc-build: the worked example of doc/build.md, as
# the page has it.  Its ```sh blocks run in order, each in `sh -e`, in one
# empty folder, with $ROBOT as `robot`; a block followed by an ```output
# block must print exactly that.  The commands are read from the page, so
# the page and the test cannot drift apart.  The example builds its
# source tree, build result, configuration and request from nothing,
# composes the build report and queues it.
. "$(dirname "$0")/lib.sh"

DOC=$TOP/doc/build.md
mkdir -p "$T/bin" "$T/ex"
ln -s "$ROBOT" "$T/bin/robot"

/usr/bin/python3 - "$DOC" "$T/blocks" <<'EOF'
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
ok "doc/build.md has its sh blocks" test -f "$T/blocks/01.sh"

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

# What the page claims beyond the outputs.
ok "the mail went to the spool, once" \
	test "$(find "$T/ex/spool/new" -type f | wc -l)" -eq 1
ok "the queued mail is the --dry-run's" \
	cmp "$(find "$T/ex/spool/new" -type f)" \
	"$(grep -l '^Message-ID:' "$T"/blocks/*.want)"
ok "the old warning is not marked, the new ones are" sh -c \
	'grep -q "^   drivers/demo/core.c:5:13: warning" "$1" &&
	 test "$(grep -c "^>> " "$1")" -eq 2' - \
	"$(grep -l '^Message-ID:' "$T"/blocks/*.want)"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
