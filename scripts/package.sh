#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/package.sh OUTDIR: builds robot's Debian package from a copy
# of this checkout's files (tracked and new ones, as they are in the
# work tree; not build output), so that the checkout gets no debian/robot
# nor ../robot_*.deb.  The copy carries the version in VERSION
# (scripts/version.sh), so the package's robot --version is this tree's.
# Leaves in OUTDIR: robot_VERSION_ARCH.deb (and robot-dbgsym's), the
# .changes and .buildinfo,
# build.log and lintian.txt (lintian's findings; any error fails).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/package.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src/robot
rm -rf "$out/src" "$out"/robot_* "$out"/robot-dbgsym_*
mkdir -p "$src"
cd "$top"
git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' - |
	tar --null -T - -cf - | tar -C "$src" -xf -
scripts/version.sh >"$src/VERSION"
cd "$src"
if ! dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "package: dpkg-buildpackage failed; see $out/build.log" >&2
	exit 1
fi
cd "$out"
mv src/robot_* src/robot-dbgsym_* .
rm -rf "$out/src"
deb=$(ls robot_*.deb)
lintian --tag-display-limit 0 robot_*.changes >lintian.txt 2>&1 || true
if grep -q '^E: ' lintian.txt; then
	cat lintian.txt >&2
	echo "package: lintian reports errors" >&2
	exit 1
fi
echo "package: $out/$deb (lintian: $(grep -c '^W: ' lintian.txt) warnings, see $out/lintian.txt)"
