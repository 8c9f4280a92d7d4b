#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# t4000-mail-python-parse: the messages msg_render() writes read back
# exactly through two other parsers.  tests/helpers/msg-render renders a
# plain ASCII mail, a Latin-1 body with "±", a UTF-8 author and subject,
# a long UTF-8 author and subject that fold between encoded-words,
# a multipart mail with four attachments (one with a 1200-byte line, so
# quoted-printable) and a binary attachment with a UTF-8 name; it lints
# each and writes the original values beside it.  Python's email package
# (policy.default) must find no defect and decode subject, author, body
# and every attachment to the originals; `git mailinfo -k` must recover
# Subject and Author.
. "$(dirname "$0")/lib.sh"

RENDER=$BUILD/tests/helpers/msg-render
if [ ! -x "$RENDER" ]; then
	_fail "$RENDER is built (make all)"
	exit 1
fi
OUT=$T/out
mkdir "$OUT"
ok "msg-render renders and lints the samples" "$RENDER" "$OUT"

cat >"$T/check.py" <<'EOF'
import email, email.policy, os, sys

out, name = sys.argv[1], sys.argv[2]
d = os.path.join(out, name + ".d")
def orig(f, mode="r"):
    with open(os.path.join(d, f), mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as fh:
        return fh.read()
raw = open(os.path.join(out, name + ".eml"), "rb").read()
msg = email.message_from_bytes(raw, policy=email.policy.default)
bad = []
for part in msg.walk():
    if part.defects:
        bad.append("defects in %s: %r" % (part.get_content_type(), part.defects))
if b"\r" in raw:
    bad.append("a CR in the LF form")
head = raw.split(b"\n\n", 1)[0].split(b"\n")
for line in raw.split(b"\n"):
    if len(line) > 998:
        bad.append("line over 998 bytes")
for line in head:
    if len(line) > 78:
        bad.append("header line over 78: %r" % line)
if str(msg["subject"]) != orig("subject"):
    bad.append("subject %r != %r" % (str(msg["subject"]), orig("subject")))
if str(msg["from"]) != orig("from"):
    bad.append("from %r != %r" % (str(msg["from"]), orig("from")))
parts = list(msg.iter_parts()) if msg.is_multipart() else [msg]
if parts[0].get_content() != orig("body"):
    bad.append("body %r != %r" % (parts[0].get_content(), orig("body")))
n = 1
while os.path.exists(os.path.join(d, "att.%d" % n)):
    if n >= len(parts):
        bad.append("attachment %d missing" % n)
        break
    p = parts[n]
    if p.get_content_disposition() != "attachment":
        bad.append("part %d is not an attachment" % n)
    if p.get_filename() != orig("att.%d.name" % n):
        bad.append("part %d filename %r" % (n, p.get_filename()))
    if p.get_payload(decode=True) != orig("att.%d" % n, "rb"):
        bad.append("part %d payload differs" % n)
    n += 1
if len(parts) != n:
    bad.append("%d parts, want %d" % (len(parts), n))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

# mailinfo_check NAME: git mailinfo -k recovers Subject and Author
mailinfo_check() {
	d=$OUT/$1.d
	from=$(cat "$d/from")
	{
		printf 'Author: %s\n' "${from% <*}"
		printf 'Subject: %s\n' "$(cat "$d/subject")"
	} >"$T/$1.want" &&
		git mailinfo -k "$T/$1.msg" "$T/$1.patch" \
			<"$OUT/$1.eml" >"$T/$1.info" &&
		grep -E '^(Author|Subject): ' "$T/$1.info" >"$T/$1.got" &&
		test_cmp "$T/$1.want" "$T/$1.got"
}

for name in ascii latin1 utf8 longname multipart binary; do
	ok "$name: Python's email parser reads it back exactly" \
		$PYTHON "$T/check.py" "$OUT" "$name"
	ok "$name: git mailinfo -k recovers Subject and Author" \
		mailinfo_check "$name"
done

ok "latin1: the body goes as ISO-8859-1 8bit, 0xB1 for the plus-minus" \
	grep -q "$(printf '4.25 \261  0%%')" "$OUT/latin1.eml"
ok "multipart: the 1200-byte line goes quoted-printable" \
	grep -q '^Content-Transfer-Encoding: quoted-printable$' \
	"$OUT/multipart.eml"
ok "binary: the binary attachment goes base64" \
	grep -q '^Content-Transfer-Encoding: base64$' "$OUT/binary.eml"

[ "$test_failed" -eq 0 ]
