#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the Debian packages robot needs to build and test.
#   scripts/deps.sh               install everything listed below
#   scripts/deps.sh --if-missing  install only when a package is missing
#   scripts/deps.sh --list        print the package names
#   scripts/deps.sh --lkp [...]   the same for `make check-lkp`'s packages
#   scripts/deps.sh --bench [...] the same for `make bench`'s packages
set -eu

# Build: libcurl, libgit2, libyaml and libetpan, plus yajl and zlib for
# LKP result roots, PCRE2 for lkp-tests' Ruby regexps, nettle for the
# SHA-1 of patch-ids (git/patchid.c).
# libcurl must be the GnuTLS flavour: libetpan-dev
# depends on it.
BUILD_PKGS="build-essential pkg-config libcurl4-gnutls-dev libgit2-dev
libyaml-dev libetpan-dev libyajl-dev zlib1g-dev nettle-dev liblzma-dev
libpcre2-dev"
# Tests: the real SMTP server (Debian's Python with aiosmtpd), git for
# fixture repositories, clang-format for format-check, and the clang
# runtime for the sanitizer build; gnuplot-nox (5.4) is the oracle of the
# plot test (t3500); public-inbox (1.9) a real archive that robot thread
# looks patches up in (t4500).
TEST_PKGS="python3 python3-aiosmtpd git clang-format gnuplot-nox xz-utils
public-inbox"
# make fuzz: clang 14 and its runtime (libFuzzer, ASan, UBSan).
TEST_PKGS="$TEST_PKGS clang-14 libclang-rt-14-dev"
# The delivery tests: openssl makes their TLS certificate; postfix brings
# smtp-sink, the fault-injecting sink (installed unconfigured and never
# started: nothing listens on port 25); strace shows the spool's fsyncs.
# t4700 runs a private postfix instance (never the system's) with Cyrus
# SASL AUTH (sasl2-bin makes its sasldb, libsasl2-modules the mechanisms)
# and reads the delivered mails back with mutt.
TEST_PKGS="$TEST_PKGS openssl postfix strace mutt sasl2-bin libsasl2-modules"
# make torture: python3-cryptography makes its CA and its expired and
# wrong-host certificates (tests/torture/run); valgrind (callgrind)
# counts robot's instructions for the bounds a timing cannot show
# (tests/torture/bounds.py).
TEST_PKGS="$TEST_PKGS python3-cryptography valgrind"
# The package (make package, t0110): dpkg-buildpackage, debhelper,
# lintian; util-linux's unshare runs its maintainer scripts in a private
# mount namespace, adduser makes the user robot there.
TEST_PKGS="$TEST_PKGS dpkg-dev debhelper lintian adduser util-linux"

PKGS="$BUILD_PKGS $TEST_PKGS"
# make check-lkp (not CI): Debian's ruby runs lkp-tests' own code, which
# loads these gems (activesupport: lib/statistics.rb; git: lib/git.rb;
# tty-command: lib/bash.rb; gnuplot: lib/plot.rb, for t3540).
LKP_PKGS="ruby ruby-activesupport ruby-git ruby-tty-command ruby-gnuplot"
# make bench (bench/run, not CI): the anchors (gnuplot, git send-email
# and the Perl modules it sends with, Python's smtplib), the SMTP sink
# (postfix's smtp-sink), public-inbox and Plack's access log for the
# archive of the thread workload, valgrind for the profile of a missed
# target, and the C compiler and liblzma of the floor programs.
BENCH_PKGS="build-essential liblzma-dev python3 gnuplot-nox git git-email
libmailtools-perl libnet-smtp-ssl-perl postfix public-inbox libplack-perl
valgrind"
if [ "${1:-}" = --lkp ]; then
	PKGS=$LKP_PKGS
	shift
elif [ "${1:-}" = --bench ]; then
	PKGS=$BENCH_PKGS
	shift
fi

missing() {
	for p in $PKGS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done
}

case "${1:-}" in
--list)
	echo $PKGS
	exit 0
	;;
--if-missing)
	todo=$(missing)
	[ -z "$todo" ] && exit 0
	echo "deps: installing" $todo >&2
	;;
"")
	todo=$PKGS
	;;
*)
	echo "usage: scripts/deps.sh [--if-missing|--list]" >&2
	exit 2
	;;
esac

if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# postfix: no questions, no configuration, and no MTA started on port 25
# (a policy-rc.d that denies every start while apt runs, unless the
# machine has one already)
echo "postfix postfix/main_mailer_type select No configuration" |
	$SUDO debconf-set-selections
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod 755 /usr/sbin/policy-rc.d
	trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $todo >/dev/null
