#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t0220-completion: the bash completion, generated from `robot help
# --options` (scripts/gen-completion.sh, build/completion/robot), asked
# what bash asks it: COMP_WORDS/COMP_CWORD set, _robot called, COMPREPLY
# read, as `robot co<TAB>` would.
. "$(dirname "$0")/lib.sh"

C=$BUILD/completion/robot
ok "make built the completion" test -s "$C"
"$TOP/scripts/gen-completion.sh" "$ROBOT" >"$T/gen"
ok "it is what robot help --options gives now" test_cmp "$T/gen" "$C"

# complete WORD...: what _robot offers for the last word (one a line,
# sorted), the words typed so far being robot WORD...
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=(robot "$@"); COMP_CWORD=$#
		_robot; printf "%s\n" "${COMPREPLY[@]}" | sort' - "$C" "$@"
}

complete_words co >"$T/out"
printf 'compare\ncompose\n' >"$T/expect"
ok "robot co<TAB>: compare, compose" test_cmp "$T/expect" "$T/out"
complete_words "" >"$T/out"
"$ROBOT" help --options | cut -f1 | uniq >"$T/expect"
printf '%s\n' help --version --help >>"$T/expect"
sort -o "$T/expect" "$T/expect"
ok "robot <TAB>: every command, help, --version, --help" test_cmp "$T/expect" "$T/out"
complete_words compose --d >"$T/out"
printf -- '--data-dir\n--dry-run\n' >"$T/expect"
ok "robot compose --d<TAB>: --data-dir, --dry-run" test_cmp "$T/expect" "$T/out"
complete_words help q >"$T/out"
ok "robot help q<TAB>: queue" test_cmp - "$T/out" <<EOT
queue
EOT
mkdir -p "$T/d" && : >"$T/d/robot.yaml"
(cd "$T/d" && complete_words send -c r) >"$T/out"
ok "robot send -c r<TAB>: a file name" test_cmp - "$T/out" <<EOT
robot.yaml
EOT

# every option of every command, as robot help --options lists it
"$ROBOT" help --options >"$T/opts"
bad=0
for c in $(cut -f1 "$T/opts" | uniq); do
	complete_words "$c" - >"$T/got"
	awk -F '\t' -v c="$c" '$1 == c { print $2; if ($3 != "-") print $3 }' \
		"$T/opts" | sort >"$T/want"
	if ! test_cmp "$T/want" "$T/got" >"$T/diff"; then
		bad=1
		sed "s/^/# $c: /" "$T/diff"
	fi
done
ok "robot CMD -<TAB>: each command's options, no other" test "$bad" = 0
