#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# examples/demo: the report of its request, whose "test machine:" line
# robot builds from the host fields of the result roots' job.yaml (the
# request has no preformatted `machine:`).
. "$(dirname "$0")/lib.sh"

DEMO=$TOP/examples/demo
ok "the demo request names no machine text" \
	sh -c '! grep -q "^machine:" "$1"' - "$DEMO/request.yaml"
ok "robot composes the demo report" \
	sh -c 'cd "$1" && "$2" compose --dry-run -c robot.yaml request.yaml \
		>"$3"' - "$DEMO" "$ROBOT" "$T/demo.eml"
echo "test machine: 64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory" \
	>"$T/expect"
grep '^test machine: ' "$T/demo.eml" >"$T/actual"
ok "its machine line comes from the job's host fields" \
	test_cmp "$T/expect" "$T/actual"
# the same roots without their brand: the period's line without it
mkdir -p "$T/nobrand"
cp -R "$TOP/examples/seed-001/rt0" "$TOP/examples/seed-001/rt1" "$T/nobrand/"
sed -i '/^brand: /d' "$T/nobrand"/rt*/*/job.yaml
sed -e 's|\.\./seed-001/rt|rt|g' \
	-e "s|\.\./seed-001/commits.yaml|$TOP/examples/seed-001/commits.yaml|" \
	"$DEMO/request.yaml" >"$T/nobrand/request.yaml"
ok "robot composes it without a brand" \
	sh -c 'cd "$1" && "$2" compose --dry-run -c "$3" request.yaml >"$4"' \
	- "$T/nobrand" "$ROBOT" "$DEMO/robot.yaml" "$T/nobrand.eml"
echo "test machine: 64 threads 2 sockets (Ice Lake) with 256G memory" \
	>"$T/expect"
grep '^test machine: ' "$T/nobrand.eml" >"$T/actual"
ok "a host without a brand shows its model alone" \
	test_cmp "$T/expect" "$T/actual"
