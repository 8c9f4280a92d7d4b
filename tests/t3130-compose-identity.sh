# SPDX-License-Identifier: GPL-2.0-only
#
# t3130-compose-identity: who a report says it is from.  The built-in
# defaults are neutral: From "robot <robot@HOST>", Message-IDs
# <...-robot@HOST>, the host's name, no public URL and no list in the
# headers; a period that links to the materials or to the list archive
# names the configuration key it lacks.  examples/0day.yaml is the 0-day
# robot's identity.  Unset, `disclaimer:` and `signature:` give no
# disclaimer and a neutral "Thanks,\nNAME": no Intel, 01.org or 0-day
# word in any period's mail; `0day` gives the period's 0-day texts (what
# examples/0day.yaml says); a text of the operator's replaces them, and
# nothing else of the mail; a mistyped keyword is one error, exit 78.
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
ok "built-in defaults: no disclaimer" \
	sh -c '! grep -q "^Disclaimer:" "$1"' - "$T/neutral.eml"

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

# Every period's mail of a neutral configuration (its own URLs for the
# periods that link), over a machine that is not Intel's (its CPU brand
# would be in the mail: it is data, not the robot's words): no word of
# Intel's or 0-day's anywhere in it, headers or body.
mkdir -p "$W/amd"
cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/amd/"
for f in "$W"/amd/rt*/*/job.yaml; do
	sed 's/^brand: .*/brand: AMD EPYC 7763 64-Core Processor/' "$f" >"$f.new" &&
		mv "$f.new" "$f"
done
cat >"$W/amd/robot.yaml" <<'EOF'
archive_url: https://ci.example.org/archive
list_archive_url: https://lists.example.org/ci
EOF
# (case matters: the reproduce steps clone github.com/intel/lkp-tests, the
# tool that runs the jobs, whoever runs it)
INTEL='Intel|intel\.com|01\.org|0-?day|0-?DAY|oe-lkp'
for day in 2016-07-25 2021-06-15 2022-06-15 2023-06-07 2025-06-15; do
	sed "s/^date:.*/date: \"$day 16:02:48 +0800\"/" "$W/req.yaml" >"$W/amd/req-$day.yaml"
	ok "neutral, $day: the report composes" \
		sh -c '"$1" compose --dry-run -c "$2" "$3" >"$4"' - "$ROBOT" \
		"$W/amd/robot.yaml" "$W/amd/req-$day.yaml" "$T/neutral-$day.eml"
	ok "neutral, $day: no Intel, 01.org or 0-day in the mail" \
		sh -c '! grep -E "$1" "$2"' - "$INTEL" "$T/neutral-$day.eml"
	ok "neutral, $day: no disclaimer; signed Thanks, robot" \
		sh -c '! grep -q "^Disclaimer:" "$1" &&
			tail -n 2 "$1" | tr "\n" / | grep -qx "Thanks,/robot/"' \
		- "$T/neutral-$day.eml"
	# disclaimer: 0day and signature: 0day, the period's 0-day texts
	{ cat "$W/amd/robot.yaml"; printf 'disclaimer: 0day\nsignature: 0day\n'; } \
		>"$W/amd/0day.yaml"
	"$ROBOT" compose --dry-run -c "$W/amd/0day.yaml" "$W/amd/req-$day.yaml" \
		>"$T/0day-$day.eml" 2>"$T/.err"
	ok "0day, $day: Intel's disclaimer" \
		grep -qx 'Results have been estimated based on internal Intel analysis and are provided' "$T/0day-$day.eml"
done
# ... and each period's own signature (templates/*/footer*)
ok "0day, 2016: Thanks, and the sender's name" \
	sh -c 'tail -n 2 "$1" | tr "\n" / | grep -qx "Thanks,/robot/"' - "$T/0day-2016-07-25.eml"
ok "0day, 2021-06: the 0DAY/LKP+ footer" \
	grep -q '^0DAY/LKP+ Test Infrastructure  ' "$T/0day-2021-06-15.eml"
ok "0day, 2022-06: the 0-DAY CI Kernel Test Service, 01.org" \
	sh -c 'grep -qx "0-DAY CI Kernel Test Service" "$1" && grep -qx "https://01.org/lkp" "$1"' - "$T/0day-2022-06-15.eml"
ok "0day, 2023-06: the lkp-tests wiki" \
	grep -qx 'https://github.com/intel/lkp-tests/wiki' "$T/0day-2023-06-07.eml"
/usr/bin/python3 - "$T/0day-2023-06-07.eml" "$T/want-neutral.eml" <<'EOF'
import sys
text = open(sys.argv[1], encoding='latin-1').read()
# the disclaimer block goes, and the signature after it becomes "Thanks,"
i = text.index('Disclaimer:\n')
open(sys.argv[2], 'w', encoding='latin-1').write(text[:i] + 'Thanks,\nrobot\n')
EOF
ok "0day = the neutral mail plus the 0-day texts, and nothing else" \
	test_cmp "$T/want-neutral.eml" "$T/neutral-2023-06-07.eml"
ok "examples/0day.yaml says disclaimer: 0day and signature: 0day" \
	sh -c 'grep -qx "disclaimer: 0day" "$1" && grep -qx "signature: 0day" "$1"' - "$TOP/examples/0day.yaml"

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
compose "$TOP/examples/0day.yaml" "$T/0day-own.eml"
/usr/bin/python3 - "$T/0day-own.eml" "$T/want.eml" <<'EOF'
import sys
text = open(sys.argv[1], encoding='latin-1').read()
# the 0-day identity's headers are the built-in defaults' in own.eml
head, sep, body = text.partition('\n\n')
head = open(sys.argv[1].replace('0day-own', 'neutral'), encoding='latin-1').read().partition('\n\n')[0]
old = body[body.index('Disclaimer:\n') + 12:]
old = old[:old.index('\n\n')]
body = body.replace(old, "Measured on the Example lab's machines;\nyours may differ.", 1)
# the signature: everything after the disclaimer's two empty lines
i = body.index('\n\n\n', body.index('Disclaimer:\n')) + 3
body = body[:i] + '-- \nThe Example CI robot, https://ci.example.org/\n'
open(sys.argv[2], 'w', encoding='latin-1').write(head + sep + body)
EOF
ok "disclaimer and signature: they replace the 0-day texts, and only them" \
	test_cmp "$T/want.eml" "$T/own.eml"

# A keyword mistyped is an error, not a one-word text; so is an empty one.
for bad in 'disclaimer: 0-day' 'signature: 0DAY' 'disclaimer: None' 'signature: ""'; do
	key=${bad%%:*}
	printf '%s\n' "$bad" >"$T/bad.yaml"
	expect_code 78 "$bad: exit 78 (configuration), one error line" \
		"$ROBOT" compose --dry-run -c "$T/bad.yaml" "$W/req.yaml"
	ok "... naming the file and the key" \
		grep -q "^robot: error: $T/bad.yaml: $key: " "$T/.err"
done
# none: no disclaimer (as unset), no signature at all
printf 'disclaimer: none\nsignature: none\n' >"$T/none.yaml"
ok "none: the report composes" compose "$T/none.yaml" "$T/none.eml"
ok "none: no disclaimer, and the mail ends with the tables" \
	sh -c '! grep -q "^Disclaimer:" "$1" && ! grep -qx "Thanks," "$1"' - "$T/none.eml"

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
