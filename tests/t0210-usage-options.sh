# SPDX-License-Identifier: GPL-2.0-only
#
# t0210-usage-options: the usage, -h and the man page list every option,
# and no option that does not exist.  The options are the option parser's
# own tables (each command's getopt_long table, which `robot help
# --options` prints), so an option added to the parser without its
# documentation, or documented and gone, fails here.  For each command and
# each of its options:
#   - `robot CMD -h` names it (its long form, and its short one if any);
#   - the usage line(s) at the top of -h name it (long or short form);
#   - doc/robot.1 names it in the command's SYNOPSIS and in its OPTIONS
#     subsection (.SS robot CMD), both forms.
# -h/--help is every command's; the usage lines and the SYNOPSIS leave it
# out.  Every command of `robot help` has its table.
. "$(dirname "$0")/lib.sh"

MAN=$TOP/doc/robot.1

ok "robot help --options: exit 0" sh -c '"$1" help --options >"$2"' - "$ROBOT" "$T/options"
"$ROBOT" help | sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p' >"$T/commands"
ok "robot help lists commands" test -s "$T/commands"
cut -f1 "$T/options" | sort -u >"$T/with-options"
ok "every command of robot help has its option table" \
	test_cmp "$T/with-options" "$(sort "$T/commands" >"$T/commands.s" && echo "$T/commands.s")"

# The man page, per command: its SYNOPSIS lines and its OPTIONS subsection,
# as plain text ("\-" is "-").
/usr/bin/python3 - "$MAN" "$T" <<'EOF'
import re, sys
man, out = sys.argv[1], sys.argv[2]
text = open(man, encoding='utf-8').read().replace('\\-', '-')
text = re.sub(r'\\f[BIRP]', '', text)
sections = re.split(r'^\.SH ', text, flags=re.M)
def section(name):
    for s in sections:
        if s.startswith(name + '\n') or s.startswith('"' + name + '"'):
            return s
    return ''
syn = {}
cmd = None
for line in section('SYNOPSIS').split('\n'):
    m = re.match(r'^\.B robot ([a-z-]+)$', line)
    if m:
        cmd = m.group(1)
        syn.setdefault(cmd, '')
    elif line == '.br':
        cmd = None
    elif cmd:
        syn[cmd] += line + '\n'
opts = {}
for part in re.split(r'^\.SS ', section('OPTIONS'), flags=re.M)[1:]:
    m = re.match(r'"?robot ([a-z-]+)"?\n', part)
    if m:
        opts[m.group(1)] = part
for cmd in set(syn) | set(opts):
    open('%s/man-syn-%s' % (out, cmd), 'w').write(syn.get(cmd, ''))
    open('%s/man-opt-%s' % (out, cmd), 'w').write(opts.get(cmd, ''))
EOF

# has FILE OPT: FILE names OPT as a whole word
has() {
	grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1"
}

while read -r cmd; do
	"$ROBOT" "$cmd" -h >"$T/help-$cmd" 2>&1
	sed '/^$/q' "$T/help-$cmd" >"$T/usage-$cmd"
	: >"$T/miss-$cmd"
	while IFS='	' read -r c long short arg; do
		[ "$c" = "$cmd" ] || continue
		[ "$short" = - ] && short=
		has "$T/help-$cmd" "$long" || echo "-h lacks $long" >>"$T/miss-$cmd"
		[ -z "$short" ] || has "$T/help-$cmd" "$short" ||
			echo "-h lacks $short" >>"$T/miss-$cmd"
		has "$T/man-opt-$cmd" "$long" ||
			echo "robot.1 OPTIONS lacks $long" >>"$T/miss-$cmd"
		[ -z "$short" ] || has "$T/man-opt-$cmd" "$short" ||
			echo "robot.1 OPTIONS lacks $short" >>"$T/miss-$cmd"
		[ "$long" = --help ] && continue
		{ has "$T/usage-$cmd" "$long" || { [ -n "$short" ] && has "$T/usage-$cmd" "$short"; }; } ||
			echo "the usage line lacks $long" >>"$T/miss-$cmd"
		{ has "$T/man-syn-$cmd" "$long" || { [ -n "$short" ] && has "$T/man-syn-$cmd" "$short"; }; } ||
			echo "robot.1 SYNOPSIS lacks $long" >>"$T/miss-$cmd"
	done <"$T/options"
	# ... and nothing that is not an option
	awk -F'\t' -v c="$cmd" '$1 == c { print $2; if ($3 != "-") print $3 }' \
		"$T/options" | sort -u >"$T/known-$cmd"
	for f in help-$cmd man-opt-$cmd man-syn-$cmd; do
		# "robot OTHER --opt" names another command's option
		sed -E "s/robot ([a-z]+) --?[a-z][a-z-]*/robot \\1/g" "$T/$f" |
			grep -oE -- '(^|[^A-Za-z0-9-])--?[a-z][a-z-]*' |
			sed 's/^[^-]*//' | sort -u | while read -r o; do
			grep -qxF -- "$o" "$T/known-$cmd" ||
				echo "$f names $o, which robot $cmd does not have"
		done
	done >>"$T/miss-$cmd"
	if [ -s "$T/miss-$cmd" ]; then
		_fail "robot $cmd: usage, -h and robot.1 list its options"
		sed 's/^/# /' "$T/miss-$cmd"
	else
		_ok "robot $cmd: usage, -h and robot.1 list its options"
	fi
done <"$T/commands"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
