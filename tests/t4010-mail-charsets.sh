# SPDX-License-Identifier: GPL-2.0-only
#
# t4010-mail-charsets: what a reader decodes from robot's mails, read back
# with Python's email parser (email.policy.default), not by looking at the
# bytes robot wrote:
#
#  - an attachment holding UTF-8 text ("café") is labelled utf-8 (it was
#    iso-8859-1 over UTF-8 bytes: readers showed "cafÃ©"), an ASCII one
#    us-ascii, bytes that are no text application/octet-stream in base64;
#    a non-ASCII file name, display name and body decode to their text;
#  - a report of the download-link period (2023-07 on) queued without
#    materials would point at nothing: compose refuses it (65, one line
#    naming `attachments` and `no_repro`) and queues nothing; with
#    `no_repro: true` it is queued without the link; with a material, the
#    link's folder holds it.
. "$(dirname "$0")/lib.sh"

SMALL=$TOP/tests/data/compare/small
W=$T/w
mkdir -p "$W" && cp -R "$SMALL/rt0" "$SMALL/rt1" "$SMALL/commits.yaml" "$W/"
printf 'un café, s'"'"'il vous plaît\n' >"$W/notes.txt"
printf 'CONFIG_64BIT=y\n' >"$W/config-6.3.0-rc7"
printf '\000\001\002\377binary\n' >"$W/blob.bin"
printf 'naïve\n' >"$W/résumé.txt"

cat >"$T/a.yaml" <<EOF
spool: a.spool
archive_dir: a.archive
archive_url: https://download.example.org/archive
message_id_user: robot
message_id_domain: ci.example.org
EOF
sed 's/a\./b./' "$T/a.yaml" >"$T/b.yaml"

# req NAME DATE [EXTRA-LINE...]: the request $W/NAME.yaml
req() {
	_name=$1 _date=$2
	shift 2
	{
		base_request 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0 |
			sed -e "s/^date: .*/date: \"$_date\"/" \
				-e 's/^to: .*/to: ["René Lévesque <rene@example.org>"]/'
		for l in "$@"; do
			printf '%s\n' "$l"
		done
	} >"$W/$_name.yaml"
}

# --- the charsets of every part, decoded ------------------------------------
req parts "2023-06-07 14:32:17 +0800" \
	'note: "Mesuré deux fois : ± 1%."' \
	'attachments:' \
	'  - path: config-6.3.0-rc7' \
	'  - path: notes.txt' \
	'  - path: blob.bin' \
	'  - path: résumé.txt'
ok "compose --dry-run of a request with four attachments" \
	sh -c 'cd "$1" && "$2" compose --dry-run -c a.yaml "$3" >parts.eml' _ \
	"$T" "$ROBOT" "$W/parts.yaml"

"$PYTHON" - "$T/parts.eml" "$W" >"$T/parts.out" 2>&1 <<'PY'
import email, email.policy, sys
msg = email.message_from_binary_file(open(sys.argv[1], 'rb'),
                                     policy=email.policy.default)
w = sys.argv[2]
def check(what, got, want):
    print('%s %s: %r%s' % ('ok' if got == want else 'BAD', what, got,
                            '' if got == want else ' (want %r)' % want))
check('To display name', msg['To'].addresses[0].display_name,
      'René Lévesque')
parts = list(msg.iter_parts())
body = parts[0]
check('body charset', body.get_content_charset(), 'iso-8859-1')
check('body holds the note', 'Mesuré deux fois : ± 1%.' in body.get_content(),
      True)
want = [('config-6.3.0-rc7', 'text/plain', 'us-ascii', '7bit'),
        ('notes.txt', 'text/plain', 'utf-8', '8bit'),
        ('blob.bin', 'application/octet-stream', None, 'base64'),
        ('résumé.txt', 'text/plain', 'utf-8', '8bit')]
check('number of attachments', len(parts) - 1, len(want))
for p, (name, ctype, cs, cte) in zip(parts[1:], want):
    check(name + ': file name', p.get_filename(), name)
    check(name + ': type', p.get_content_type(), ctype)
    check(name + ': charset', p.get_content_charset(), cs)
    check(name + ': transfer encoding', p['Content-Transfer-Encoding'], cte)
    raw = open(w + '/' + name, 'rb').read()
    check(name + ': bytes', p.get_payload(decode=True), raw)
    if cs:
        check(name + ': decoded text', p.get_content(), raw.decode('utf-8'))
check('no defects', [d for p in msg.walk() for d in p.defects], [])
PY
ok "Python's email parser decodes every part as written" \
	sh -c '! grep -v "^ok " "$1"' _ "$T/parts.out"

# --- a download-link report without materials -------------------------------
DL="2023-09-22 17:37:11 +0800"
req bare "$DL"
expect_code 65 "a download-link report without materials is not queued" \
	sh -c 'cd "$1" && "$2" compose -c a.yaml "$3"' _ "$T" "$ROBOT" \
	"$W/bare.yaml"
ok "... the error names the request, 'attachments' and 'no_repro'" \
	names "$W/bare.yaml: attachments:" "no_repro: true" "archive_url"
ok "... nothing is queued, nothing published" \
	test ! -e "$T/a.spool/new" -a ! -e "$T/a.archive"
ok "... while --dry-run still shows the period's mail, link and all" \
	sh -c 'cd "$1" && "$2" compose --dry-run -c a.yaml "$3" | grep -q \
	"^https://download.example.org/archive/"' _ "$T" "$ROBOT" "$W/bare.yaml"

req norepro "$DL" "no_repro: true"
ok "with no_repro: true it is queued" \
	sh -c 'cd "$1" && "$2" compose -c a.yaml "$3" >norepro.out' _ "$T" \
	"$ROBOT" "$W/norepro.yaml"
ok "... and its mail has no download link" \
	sh -c '! grep -l "materials to reproduce\|download.example.org" \
	"$1"/a.spool/new/*.eml' _ "$T"

req material "$DL" "attachments: [{path: notes.txt}]"
ok "with a material it is queued (another spool)" \
	sh -c 'cd "$1" && "$2" compose -c b.yaml "$3" >material.out' _ "$T" \
	"$ROBOT" "$W/material.yaml"
"$PYTHON" - "$T" <<'PY' >"$T/link.out" 2>&1
import email, email.policy, glob, os, re, sys
t = sys.argv[1]
mid = open(t + '/material.out').read().strip()
for f in glob.glob(t + '/b.spool/new/*.eml'):
    m = email.message_from_binary_file(open(f, 'rb'),
                                       policy=email.policy.default)
    if m['Message-ID'] == mid:
        text = m.get_body().get_content()
        url = re.search(r'available at:\n(\S+)', text).group(1)
        rel = url.replace('https://download.example.org/archive', 'b.archive')
        got = open(os.path.join(t, rel, 'notes.txt'), 'rb').read()
        want = open(t + '/w/notes.txt', 'rb').read()
        print('ok' if got == want else 'BAD bytes at ' + rel)
        break
else:
    print('BAD: no queued mail ' + mid)
PY
ok "... its download link's folder holds the material" grep -qx ok \
	"$T/link.out"
sed 's/^/# /' "$T/link.out"

echo "1..$test_n"
