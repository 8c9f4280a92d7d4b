# SPDX-License-Identifier: GPL-2.0-only
#
# t5600-send-config: a bad delivery configuration is one clear error line
# naming the file and the key, exit 78, and nothing in the spool moves: an
# unknown URL scheme, a password file that cannot be read or that anyone
# may read, a spool directory that does not exist, and the other keys of
# robot send (values, combinations).  Checked before anything connects.

# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
printf 'From: Robot <robot@example.org>\nTo: dev@example.org\nMessage-ID: <cfg.1@example.org>\nSubject: x\n\nbody\n' \
	>m.eml
printf 's3cret\n' >pw
chmod 600 pw
printf 's3cret\n' >pw-world
chmod 644 pw-world
: >pw-empty
chmod 600 pw-empty
mkdir pw-dir
printf 'spool: spool\n' >q.yaml
"$ROBOT" queue -c q.yaml add m.eml >/dev/null
find spool -type f | sort | xargs md5sum >spool.before

# bad NAME DESC WANT-IN-ERROR LINE...: robot send with a configuration of
# spool: spool and LINEs exits 78 with one error line naming NAME.yaml
# and holding WANT, and leaves the spool as it was
bad() {
	_n=$1
	_desc=$2
	_want=$3
	shift 3
	printf 'spool: spool\n' >"$_n.yaml"
	for _l in "$@"; do
		printf '%s\n' "$_l" >>"$_n.yaml"
	done
	expect_code 78 "$_desc: exit 78, one error line" \
		"$ROBOT" send -c "$_n.yaml"
	ok "... it names the file and says: $_want" \
		sh -c 'grep -q "^robot: error: $1.yaml: " "$3" && grep -qF -- "$2" "$3"' \
		_ "$_n" "$_want" "$T/.err"
	find spool -type f | sort | xargs md5sum >spool.after
	ok "... nothing in the spool moved or changed" \
		test_cmp spool.before spool.after
}

URL='smtp_url: smtp://127.0.0.1:1'
bad scheme "an unknown URL scheme" \
	"smtp_url: 'http://mail.example.org': unknown scheme 'http' (want smtp,smtps)" \
	'smtp_url: http://mail.example.org'
bad scheme2 "a URL without a scheme" "not a URL" \
	'smtp_url: mail.example.org:25'
bad userinfo "a password in the URL" "not in the URL" \
	'smtp_url: smtp://robot:s3cret@127.0.0.1:1'
bad nopwfile "a password file that does not exist" \
	"smtp_password_file: cannot read" \
	"$URL" 'smtp_user: robot' 'smtp_password_file: no-such-file'
bad pwdir "a password file that is a directory" \
	"smtp_password_file: cannot read" \
	"$URL" 'smtp_user: robot' 'smtp_password_file: pw-dir'
if [ "$(id -u)" -ne 0 ]; then
	printf 'x\n' >pw-000
	chmod 000 pw-000
	bad pw000 "a password file robot may not read" \
		"smtp_password_file: cannot read" \
		"$URL" 'smtp_user: robot' 'smtp_password_file: pw-000'
fi
bad pwworld "a world-readable password file" \
	"can be read by anyone (mode 0644); chmod 600 it" \
	"$URL" 'smtp_user: robot' 'smtp_password_file: pw-world'
bad pwempty "an empty password file" "is empty" \
	"$URL" 'smtp_user: robot' 'smtp_password_file: pw-empty'
bad nopw "smtp_user without a password" \
	"no password: set smtp_password_file or ROBOT_SMTP_PASSWORD" \
	"$URL" 'smtp_user: robot'
bad nouser "a password file without smtp_user" "set without smtp_user" \
	"$URL" 'smtp_password_file: pw'
bad clear "opportunistic STARTTLS with a password" \
	"opportunistic would let the password go in clear text" \
	"$URL" 'smtp_user: robot' 'smtp_password_file: pw' \
	'smtp_starttls: opportunistic'
bad starttls "a bad smtp_starttls" "smtp_starttls: 'maybe' is not required or opportunistic" \
	"$URL" 'smtp_starttls: maybe'
bad perrun "a bad max_per_run" "max_per_run: '-3' is not a positive whole number" \
	'max_per_run: -3'
bad perhour "a bad max_per_hour" "max_per_hour: 'lots' is not a positive whole number" \
	'max_per_hour: lots'
bad age "a bad max_age" "max_age: '5 days' is not a duration" \
	'max_age: 5 days'
bad age0 "a zero max_age" "max_age: '0d' is not a duration" \
	'max_age: 0d'
bad envfrom "an envelope_from that is not one address" "envelope_from: 'a@b.org, c@d.org' is not one address" \
	'envelope_from: "a@b.org, c@d.org"'
bad staging "a staging_to that is not an address" "staging_to: 'nobody' is not one address" \
	'staging_to: nobody'
bad mboxdir "a local mailbox in a folder that does not exist" "mbox: " \
	'mbox: no/such/folder/mbox'

# the spool itself
printf 'spool: no-such-spool\n' >nospool.yaml
expect_code 78 "a spool directory that does not exist: exit 78, one error line" \
	"$ROBOT" send -c nospool.yaml
ok "... it names the file, the key and the directory" \
	grep -q "^robot: error: nospool.yaml: spool: '.*no-such-spool' does not exist" "$T/.err"
ok "... and creates nothing" test ! -e no-such-spool
printf 'spool: m.eml\n' >filespool.yaml
expect_code 78 "a spool that is a file: exit 78" "$ROBOT" send -c filespool.yaml
printf 'spool: spool\nsmtp_url: [a, b]\n' >kind.yaml
expect_code 78 "smtp_url that is not a string: exit 78" "$ROBOT" send -c kind.yaml
printf 'spool: spool\nsmtp_ulr: smtp://x\n' >typo.yaml
expect_code 78 "a misspelt key: exit 78" "$ROBOT" send -c typo.yaml
ok "... naming the key" grep -q 'smtp_ulr' "$T/.err"

# SOURCE_DATE_EPOCH dates the mailbox's "From " lines: checked first too
expect_code 65 "SOURCE_DATE_EPOCH out of range: exit 65, one error line" \
	env SOURCE_DATE_EPOCH=253402300800 "$ROBOT" send -c q.yaml
ok "... it names the variable and its value" \
	grep -qx "robot: error: SOURCE_DATE_EPOCH: '253402300800' is not a number of seconds from 1970 to 9999" "$T/.err"
find spool -type f | sort | xargs md5sum >spool.after
ok "... nothing in the spool moved or changed" test_cmp spool.before spool.after

# good values of the same keys are accepted
printf 'spool: spool\nmax_per_run: 10\nmax_per_hour: 100\nmax_age: 36h\nenvelope_from: "Bounces <b@example.org>"\nstaging_to: t@example.org\nmbox: box\n' \
	>good.yaml
"$ROBOT" send -c good.yaml >good.out 2>good.err
ok "the same keys with good values: exit 0, delivered" \
	sh -c 'test "$0" -eq 0 && grep -q "^[0-9][0-9-]*T[0-9:]*Z sent <cfg.1@example.org>" "$1"' "$?" \
	good.out

echo "1..$test_n"
[ "$test_failed" -eq 0 ]
