# SPDX-License-Identifier: GPL-2.0-only
#
# t2100-error-hints: errors that say what to do, in one `robot: error:`
# line.  A spool that is missing under the built-in defaults (no -c, no
# $ROBOT_CONFIG, no /etc/robot/robot.yaml: a forgotten -c, or a cron job
# on a fresh machine) names -c, ROBOT_CONFIG and /etc/robot/robot.yaml;
# an unknown key of a request or a configuration offers the nearest known
# one when it is a slip ("kpis": did you mean `kpi`?), and nothing when no
# key is near.  Bare `robot` still prints its usage and exits 0.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
if [ -e /etc/robot/robot.yaml ] || [ -e /var/spool/robot ]; then
	_ok "the built-in spool's hint # SKIP this machine has /etc/robot/robot.yaml or /var/spool/robot"
else
	for cmd in send queue; do
		expect_code 78 "robot $cmd under the built-in defaults, no spool: exit 78" \
			env -u ROBOT_CONFIG "$ROBOT" $cmd
		ok "... the error names -c, ROBOT_CONFIG and /etc/robot/robot.yaml" \
			names "(built-in): spool: '/var/spool/robot' does not exist" \
			"-c FILE" "\$ROBOT_CONFIG" "/etc/robot/robot.yaml"
	done
fi
# a configuration's own spool that is missing: its file is the hint
printf 'spool: nowhere\n' >own.yaml
expect_code 78 "a configuration's missing spool: exit 78" "$ROBOT" send -c own.yaml
ok "... names the file, and no hint about -c" \
	sh -c 'grep -q "own.yaml: spool: .*nowhere. does not exist$" "$1/.err"' _ "$T"

# hint KEYFILE EXIT DESC NEEDLE...: robot compose --dry-run REQ with -c CFG
hint() {
	_want=$1 _desc=$2 _cfg=$3 _req=$4
	shift 4
	expect_code "$_want" "$_desc: exit $_want" \
		"$ROBOT" compose --dry-run -c "$_cfg" "$_req"
	ok "... $_desc: $*" names "$@"
}
printf 'spool: s\n' >good.yaml
printf 'kpis: hackbench.throughput\n' >kpis.yaml
hint 65 "request key kpis" good.yaml kpis.yaml \
	"kpis.yaml:1: kpis: unknown key (did you mean \`kpi\`?)"
printf 'patch:\n  subjekt: x\n' >nested.yaml
hint 65 "nested request key patch.subjekt" good.yaml nested.yaml \
	"nested.yaml:2: patch.subjekt: unknown key (did you mean \`subject\`?)"
printf 'colour: blue\n' >far.yaml
hint 65 "a key near no other" good.yaml far.yaml "far.yaml:1: colour: unknown key"
ok "... offers nothing" sh -c '! grep -q "did you mean" "$1/.err"' _ "$T"
printf 'spoool: s\n' >spoool.yaml
hint 78 "config key spoool" spoool.yaml kpis.yaml \
	"spoool.yaml:1: spoool: unknown key (did you mean \`spool\`?)"
printf 'smtp_pasword_file: p\n' >pw.yaml
hint 78 "config key smtp_pasword_file" pw.yaml kpis.yaml \
	"unknown key (did you mean \`smtp_password_file\`?)"

"$ROBOT" >bare.out 2>&1
ok "bare robot exits 0 (the interface promises it)" test $? -eq 0
ok "... and prints its usage" grep -q "^usage: robot" bare.out

echo "1..$test_n"
