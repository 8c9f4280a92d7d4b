#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t0110-package: the Debian package (debian/, make package,
# doc/operating.md).
#
#   - scripts/package.sh (what make package runs) builds the .deb with
#     dpkg-buildpackage -us -uc -b from a copy of this tree; lintian
#     reports no error.
#   - It depends on the packages of the libraries robot is linked with
#     and of those it loads with dlopen() (build/dl-libs, debian/rules).
#   - The .deb, unpacked into a scratch root with dpkg-deb -x, holds the
#     binary, data, man page, completion, examples, units, the disabled
#     cron example and the conffile; its robot prints this tree's
#     --version and composes the example exactly as build/robot does.
#   - Its maintainer scripts run for real (adduser, install, deluser),
#     in a private mount namespace where /etc, /var/spool, /var/lib and
#     /run/systemd are scratch copies, so the machine is not touched:
#     postinst makes the user robot and /var/spool/robot (robot's, 0700);
#     robot, as that user, queues and delivers the example with the
#     package's /etc/robot/robot.yaml; postrm purge removes both.
#     This is the chroot-free equivalent of dpkg --root: a chroot would
#     need a whole Debian system, and dpkg --root runs the scripts in one.
. "$(dirname "$0")/lib.sh"

for t in dpkg-buildpackage dh lintian; do
	if ! command -v $t >/dev/null 2>&1; then
		_ok "the package # SKIP no $t (scripts/deps.sh installs it)"
		echo "1..$test_n"
		exit 0
	fi
done

start=$(date +%s)
ok "scripts/package.sh builds the .deb" "$TOP/scripts/package.sh" "$T/pkg"
echo "# dpkg-buildpackage and lintian: $(($(date +%s) - start)) s"
ok "lintian reports no error" sh -c '! grep "^E: " "$1"' - "$T/pkg/lintian.txt"
sed 's/^/# lintian: /' "$T/pkg/lintian.txt" | grep -v 'root privileges'
deb=$(ls "$T"/pkg/robot_*.deb 2>/dev/null | head -n 1)
R=$T/root
ok "dpkg-deb -x unpacks it" dpkg-deb -x "$deb" "$R"
dpkg-deb -e "$deb" "$T/ctrl"

for f in usr/bin/robot usr/share/robot/config/data/styles \
	usr/share/robot/templates/2023 usr/share/man/man1/robot.1.gz \
	usr/share/bash-completion/completions/robot \
	usr/share/doc/robot/examples/0day.yaml \
	usr/share/doc/robot/examples/demo/request.yaml \
	usr/share/doc/robot/examples/seed-001/rt0/matrix.json \
	usr/share/doc/robot/operating.md \
	lib/systemd/system/robot-send.service \
	lib/systemd/system/robot-send.timer etc/robot/robot.yaml \
	etc/cron.d/robot; do
	ok "it installs /$f" test -e "$R/$f"
done
ok "no generator script is installed" \
	sh -c '! find "$1/usr/share/robot" -name generate | grep .' - "$R"
ok "the cron example is disabled: every line a comment" \
	sh -c '! grep -v "^#" "$1" | grep .' - "$R/etc/cron.d/robot"
ok "the cron example runs robot send as robot" \
	grep -q '^#.*[[:space:]]robot[[:space:]].*robot send -c /etc/robot/robot.yaml' \
	"$R/etc/cron.d/robot"
ok "the service runs robot send as robot with /etc/robot/robot.yaml" sh -c '
	grep -qx "User=robot" "$1" &&
	grep -qx "ExecStart=/usr/bin/robot send -c /etc/robot/robot.yaml" "$1"' \
	- "$R/lib/systemd/system/robot-send.service"
ok "/etc/robot/robot.yaml is a conffile" \
	grep -qx /etc/robot/robot.yaml "$T/ctrl/conffiles"
# robot is linked with few libraries and loads the others with dlopen()
# (robot/util/dl.h): the package depends on all of them all the same, on
# the Debian package of each library its headers belong to.
sed -n 's/^Depends: //p' "$T/ctrl/control" | tr -d ' ' | tr ',' '\n' |
	sed 's/(.*//' >"$T/depends"
for l in yaml z curl git2 etpan yajl nettle lzma pcre2-8; do
	f=$(readlink -f "$(${CC:-cc} -print-file-name="lib$l.so")")
	p=$(dpkg-query -S "*/${f##*/}" 2>/dev/null | sed -n '1s/[:,].*//p')
	ok "the package depends on ${p:-the package of lib$l}" \
		grep -qx "${p:-no-package-of-lib$l}" "$T/depends"
done
ok "the robot compiled in /usr/share/robot" \
	sh -c 'strings "$1" | grep -q "/usr/share/robot\$"' - "$R/usr/bin/robot"
ok "it has no crash points" \
	sh -c '! strings "$1" | grep ROBOT_TEST_CRASH' - "$R/usr/bin/robot"

"$ROBOT" --version >"$T/version.expect"
"$R/usr/bin/robot" --version >"$T/version.out" 2>&1
ok "the package's robot --version is this tree's" \
	test_cmp "$T/version.expect" "$T/version.out"
echo "# $(cat "$T/version.out")"

EX=$R/usr/share/doc/robot/examples
(cd "$TOP/examples/demo" && "$ROBOT" compose --dry-run -c ../0day.yaml \
	request.yaml) >"$T/demo.expect" 2>&1
(cd "$EX/demo" && "$R/usr/bin/robot" compose --dry-run \
	--data-dir "$R/usr/share/robot" -c ../0day.yaml request.yaml) \
	>"$T/demo.out" 2>&1
ok "its robot composes the installed example as build/robot does" \
	test_cmp "$T/demo.expect" "$T/demo.out"
ok "that is a report" grep -q '^Subject: ' "$T/demo.out"

# The maintainer scripts, in a private mount namespace.
if ! unshare --mount true 2>/dev/null || [ "$(id -u)" != 0 ]; then
	_ok "the maintainer scripts # SKIP no mount namespace (needs root)"
	echo "1..$test_n"
	exit 0
fi
chmod 755 "$T" # robot (the user) runs the unpacked binary
mkdir -p "$T/ns/spool" "$T/ns/lib" "$T/ns/run"
cp -a /etc "$T/ns/etc"
cp "$R/etc/robot/robot.yaml" "$T/robot.yaml"
cat >"$T/ns.sh" <<'EOS'
set -u
T=$1 R=$2
mount --make-rprivate / &&
	mount --bind "$T/ns/etc" /etc &&
	mount --bind "$T/ns/spool" /var/spool &&
	mount --bind "$T/ns/lib" /var/lib || exit 1
if [ -d /run/systemd ]; then
	mount --bind "$T/ns/run" /run/systemd || exit 1
fi
mkdir -p /etc/robot && cp "$T/robot.yaml" /etc/robot/robot.yaml
echo "postinst=$(sh -e "$T/ctrl/postinst" configure >"$T/postinst.log" 2>&1; echo $?)"
echo "user=$(getent passwd robot | cut -d: -f1,6,7)"
echo "spool=$(stat -c '%U:%G %a' /var/spool/robot)"
echo "again=$(sh -e "$T/ctrl/postinst" configure >>"$T/postinst.log" 2>&1; echo $?)"
cd "$R/usr/share/doc/robot/examples/demo" || exit 1
echo "compose=$(runuser -u robot -- "$R/usr/bin/robot" compose \
	--data-dir "$R/usr/share/robot" -c /etc/robot/robot.yaml request.yaml \
	>"$T/compose.out" 2>&1; echo $?)"
echo "send=$(runuser -u robot -- "$R/usr/bin/robot" send \
	-c /etc/robot/robot.yaml >"$T/send.out" 2>&1; echo $?)"
echo "mbox=$(grep -c '^From ' /var/spool/robot/mbox)"
cp /var/spool/robot/mbox "$T/mbox" 2>/dev/null
echo "queued=$(ls /var/spool/robot/new | wc -l)"
echo "postrm=$(sh -e "$T/ctrl/postrm" purge >"$T/postrm.log" 2>&1; echo $?)"
echo "purged=$(getent passwd robot >/dev/null && echo user; getent group robot >/dev/null && echo group; test -e /var/spool/robot && echo spool)"
EOS
unshare --mount sh "$T/ns.sh" "$T" "$R" >"$T/ns.out" 2>"$T/ns.err"
sed 's/^/# /' "$T/ns.out" "$T/ns.err"
ns() { grep -qx "$1" "$T/ns.out"; }
ok "postinst configure succeeds" ns postinst=0
ok "it makes the system user robot, home /var/spool/robot, no login" \
	ns "user=robot:/var/spool/robot:/usr/sbin/nologin"
ok "it makes /var/spool/robot, robot's, mode 0700" ns "spool=robot:robot 700"
ok "postinst configure again (an upgrade) succeeds" ns again=0
ok "as robot, compose queues the example with /etc/robot/robot.yaml" \
	ns compose=0
ok "as robot, robot send delivers it to the configured mbox" ns send=0
ok "the mbox holds that one mail" ns mbox=1
ok "robot send says so, and nothing is left queued" sh -c '
	grep -Fq "sent $(cat "$1") to mbox:/var/spool/robot/mbox" "$2" &&
	grep -qx queued=0 "$3"' - "$T/compose.out" "$T/send.out" "$T/ns.out"
ok "the delivered mail is the example composed" \
	grep -Fqx "$(grep "^Subject: " "$T/demo.expect" | head -n 1)" "$T/mbox"
ok "postrm purge succeeds" ns postrm=0
ok "purge removes the user, the group and the spool" ns "purged="
ok "the machine has no user robot" sh -c '! getent passwd robot'
