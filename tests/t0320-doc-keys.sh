# SPDX-License-Identifier: GPL-2.0-only
#
# t0320-doc-keys: the operator's reference names every key robot reads.
# The keys come from the schema tables the loaders use (config/request.c:
# R(), T() and F() rows; config/config.c: C() rows); each must appear, as
# `key`, in doc/request.md or doc/config.md.  doc/README.md lists every
# page of doc/, and every page it lists exists.
. "$(dirname "$0")/lib.sh"

# keys FILE MACROS: the first argument of each MACRO("key", ...) row
keys() {
	grep -oE "^[[:space:]]*($2)\\(\"[a-z_.]+\"" "$1" | sed 's/.*("//; s/"$//' | sort -u
}

keys "$TOP/config/request.c" 'R|T|F' >"$T/request-keys"
keys "$TOP/config/config.c" 'C' >"$T/config-keys"
ok "the request schema has keys" test "$(wc -l <"$T/request-keys")" -gt 40
ok "the configuration schema has keys" test "$(wc -l <"$T/config-keys")" -gt 25

for pair in request:request config:config; do
	what=${pair%%:*}
	page=$TOP/doc/${pair#*:}.md
	: >"$T/missing"
	while read -r k; do
		grep -qF "\`$k\`" "$page" || grep -qE "\\{[^}]*\\b$k\\b" "$page" ||
			echo "$k" >>"$T/missing"
	done <"$T/$what-keys"
	if [ -s "$T/missing" ]; then
		_fail "doc/${pair#*:}.md names every $what key"
		sed 's/^/# missing: /' "$T/missing"
	else
		_ok "doc/${pair#*:}.md names every $what key"
	fi
done

# doc/README.md: every page of doc/, and no page that is not there
(cd "$TOP/doc" && ls | grep -v '^README\.md$') | sort >"$T/pages"
grep -oE '^\| `[^`]+`' "$TOP/doc/README.md" | sed 's/^| `//; s/`$//' | sort >"$T/listed"
ok "doc/README.md lists every page of doc/, and only those" \
	test_cmp "$T/pages" "$T/listed"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
