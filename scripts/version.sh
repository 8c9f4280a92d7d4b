#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Prints robot's version (robot --version, make's VERSION), from the
# first of:
#   - a git checkout: `git describe` of the newest v* tag (v0.2.0-3-gSHA
#     prints 0.2.0-3-gSHA); with no such tag, debian/changelog's version
#     and the commit (0.1.0+gSHA); -dirty when the tree has changes
#   - a VERSION file (what a tarball or the package build carries)
#   - debian/changelog's version
cd "$(dirname "$0")/.." || exit 1
top=$(pwd -P)

changelog() {
	sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null
}

if command -v git >/dev/null 2>&1 &&
	[ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
	if v=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
		echo "${v#v}"
		exit 0
	fi
	if sha=$(git describe --always --dirty --abbrev=12 2>/dev/null); then
		echo "$(changelog)+g$sha"
		exit 0
	fi
fi
if [ -s VERSION ]; then
	head -n 1 VERSION
	exit 0
fi
v=$(changelog)
echo "${v:-unknown}"
