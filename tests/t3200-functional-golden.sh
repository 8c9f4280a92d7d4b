# SPDX-License-Identifier: GPL-2.0-only
#
# t3200-functional-golden: functional reports (doc/functional.md), byte
# for byte.  Each tests/functional/NNNN-*/ case is a hand-written
# request.yaml whose comment says what it shows; expect.eml is the exact
# output of `robot compose --dry-run -c ../data/robot.yaml request.yaml`
# over the result roots tests/functional/data/make-rts writes.  As in
# t3000, every mail must also parse without defect under Python's email
# package, and the same request must give the same bytes twice.
#
#   UPDATE=1 tests/run t3200   rewrites every expect.eml that differs
. "$(dirname "$0")/lib.sh"

CHECK=$TOP/tests/golden/data/check-mail

if [ ! -x "$ROBOT" ]; then
	_fail "$ROBOT is built (make all)"
	exit 1
fi
functional_cases

. "$TOP/tests/lib-golden.sh"

# The attached kernel log decompresses to the run's log.
attached_log() {
	"$PYTHON" - "$G/$1/actual" "$2" <<'PY'
import email, email.policy, lzma, sys
msg = email.message_from_bytes(open(sys.argv[1], 'rb').read(),
                               policy=email.policy.default)
parts = [p for p in msg.walk() if p.get_filename() == 'dmesg.xz']
if len(parts) != 1:
    sys.exit('%d dmesg.xz parts' % len(parts))
got = lzma.decompress(parts[0].get_payload(decode=True))
raw = open(sys.argv[2], 'rb').read()
want = lzma.decompress(raw) if raw[:6] == b'\xfd7zXZ\x00' else raw
if got != want:
    sys.exit('dmesg.xz is not the run log')
PY
}

n=0
for dir in "$SRC"/[0-9][0-9][0-9][0-9]-*/; do
	c=$(basename "$dir")
	n=$((n + 1))
	ok "$c: compose --dry-run gives expect.eml" golden "$c"
	if [ ! -s "$G/$c/actual" ]; then
		_fail "$c: no mail to check further"
		continue
	fi
	ok "$c: no defects under Python's email.policy.default" \
		"$PYTHON" "$CHECK" defects "$G/$c/actual"
	ok "$c: the same request gives the same bytes twice" same_twice "$c"
done
ok "at least six functional cases" test "$n" -ge 6
ok "2020: the attached dmesg.xz is the run's log" \
	attached_log 0104-2020-boot-last-state "$G/data/rt/boot/rt1/0/dmesg"
ok "2019: the attached dmesg.xz is the run's log" \
	attached_log 0106-2019-no-greeting "$G/data/rt/warn2019/rt1/1/dmesg"
