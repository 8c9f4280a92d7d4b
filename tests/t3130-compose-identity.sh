# SPDX-License-Identifier: GPL-2.0-only
#
# t3130-compose-identity: who a report says it is from.  The built-in
# defaults are neutral: From "robot <robot@HOST>", Message-IDs
# <...-robot@HOST>, the host's name, no public URL and no list in the
# headers; a period that links to the materials or to the list archive
# names the configuration key it lacks.  examples/0day.yaml is the 0-day
# robot's identity.  The `disclaimer:` and `signature:` keys replace the
# period's 0-day texts, and nothing else of the mail.
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
C3=20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
W=$T/w
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"

# The host's name as robot uses it: "localhost" when it is no domain.
host=$(uname -n)
case $host in
'' | .* | -* | *. | *[!A-Za-z0-9.-]*) host=localhost ;;
esac

# A request with no identity of its own (no from, cc, message_id,
# reported_by, sender_name), in the 2021-06 style: no download link.
{
	printf 'date: "2021-06-15 16:02:48 +0800"\n'
	printf 'to: ["Linus Torvalds <torvalds@linux-foundation.org>"]\n'
	base_request "$C3" | grep -E '^(tree|repo_url|branch|commit|commits|kpi|result_roots):'
} >"$W/req.yaml"
: >"$T/empty.yaml"

compose() {
	"$ROBOT" compose --dry-run -c "$1" "$W/req.yaml" >"$2" 2>"$T/.err"
}

ok "built-in defaults: the report composes" compose "$T/empty.yaml" "$T/neutral.eml"
ok "built-in defaults: From is robot at this host" \
	grep -qx "From: robot <robot@$host>" "$T/neutral.eml"
ok "built-in defaults: the Message-ID's user is robot, its domain the host" \
	grep -qE "^Message-ID: <[0-9]{12}\\.[0-9a-f]{8}-robot@$host>\$" "$T/neutral.eml"
ok "built-in defaults: no CC (no list)" \
	sh -c '! grep -qi "^cc:" "$1"' - "$T/neutral.eml"
ok "built-in defaults: no 0-day address, domain or archive in the headers" \
	sh -c 'sed "/^\$/q" "$1" | grep -Eq "intel\\.com|01\\.org|oe-lkp|lore\\.kernel" && exit 1; exit 0' - "$T/neutral.eml"
ok "built-in defaults: signed by the From's name" \
	grep -qx 'robot' "$T/neutral.eml"

# A period with the download link and the Closes: tag, with no URL set.
sed 's/^date:.*/date: "2025-06-15 16:02:48 +0800"/' "$W/req.yaml" >"$W/req2025.yaml"
expect_code 78 "built-in defaults, 2025: exit 78 (configuration), one error line" \
	"$ROBOT" compose --dry-run -c "$T/empty.yaml" "$W/req2025.yaml"
ok "... naming the configuration and its key, not a template" \
	grep -qx "robot: error: $T/empty.yaml: 'archive_url' is missing (the download link needs it)" "$T/.err"

# The 0-day identity.
ok "examples/0day.yaml: the report composes" \
	compose "$TOP/examples/0day.yaml" "$T/0day.eml"
ok "examples/0day.yaml: From kernel test robot <lkp@intel.com>" \
	grep -qx 'From: kernel test robot <lkp@intel.com>' "$T/0day.eml"
ok "examples/0day.yaml: CC the 0-day lists" \
	grep -qx 'CC: <oe-lkp@lists.linux.dev>, <lkp@intel.com>' "$T/0day.eml"
ok "examples/0day.yaml: <...-lkp@intel.com> Message-IDs" \
	grep -qE '^Message-ID: <[0-9]{12}\.[0-9a-f]{8}-lkp@intel\.com>$' "$T/0day.eml"
"$ROBOT" compose --dry-run -c "$TOP/examples/0day.yaml" "$W/req2025.yaml" \
	>"$T/0day-2025.eml" 2>&1
ok "examples/0day.yaml, 2025: the download link is 0-day's" \
	grep -qx 'https://download.01.org/0day-ci/archive/20250615/202506151602\.[0-9a-f]*-lkp@intel.com' \
	"$T/0day-2025.eml"

# The operator's disclaimer and signature, and nothing else changes.
cat >"$T/own.yaml" <<'EOF'
disclaimer: |
  Measured on the Example lab's machines;
  yours may differ.
signature: |
  -- 
  The Example CI robot, https://ci.example.org/
EOF
ok "disclaimer and signature: the report composes" compose "$T/own.yaml" "$T/own.eml"
/usr/bin/python3 - "$T/neutral.eml" "$T/want.eml" <<'EOF'
import sys
text = open(sys.argv[1], encoding='latin-1').read()
head, sep, rest = text.partition('Disclaimer:\n')
old = rest[:rest.index('\n\n')]
rest = rest.replace(old, "Measured on the Example lab's machines;\nyours may differ.", 1)
# the signature: everything after the disclaimer's two empty lines
i = rest.index('\n\n\n') + 3
rest = rest[:i] + '-- \nThe Example CI robot, https://ci.example.org/\n'
open(sys.argv[2], 'w', encoding='latin-1').write(head + sep + rest)
EOF
ok "disclaimer and signature: they replace the 0-day texts, and only them" \
	test_cmp "$T/want.eml" "$T/own.eml"
ok "... which the default mail has" \
	grep -q 'internal Intel analysis' "$T/neutral.eml"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
