// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-mail.c: mail/ in pieces.  RFC 2047 encoded-words for names and
 * subjects, folding against seed 001's own Subject and CC lines, the
 * charset choice, the quoted-printable and base64 encoders, a multipart
 * message against a golden text, and every refusal: bad header values,
 * a colliding boundary, and the lint pass before queueing.
 */
#include "robot/util/common.h"
#include "mail/encode.h"
#include "mail/header.h"
#include "mail/lint.h"
#include "mail/msg.h"
#include "mail/valid.h"
#include "robot/util/strset.h"
#include "robot/util/utf8.h"
#include "tests/unit/check.h"

static char *render_header(const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	if (hdr_render(&sb, name, value) < 0)
		strbuf_addstr(&sb, "(error)");
	return strbuf_detach(&sb, NULL);
}

#define CHECK_HEADER(name, value, want, ...)             \
	do {                                             \
		char *got_ = render_header(name, value); \
		CHECK_STREQ(got_, want, __VA_ARGS__);    \
		free(got_);                              \
	} while (0)

/* Every line within `max` bytes, and every encoded-word within 75. */
static int lines_within(const char *s, size_t max)
{
	const char *p, *ew;
	size_t len;

	for (p = s; *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		if (len > max)
			return 0;
	}
	for (ew = strstr(s, "=?"); ew; ew = strstr(ew + 2, "=?"))
		if (strstr(ew, "?=") - ew + 2 > MIME_EW_MAX)
			return 0;
	return 1;
}

static void test_rfc2047(void)
{
	char *got;

	CHECK_HEADER("From", "Ren\xc3\xa9 L\xc3\xa9vesque <r@x.org>",
		     "From: =?UTF-8?Q?Ren=C3=A9_L=C3=A9vesque?= <r@x.org>\n",
		     "a non-ASCII display name becomes a Q encoded-word");
	CHECK_HEADER("Subject",
		     "Zo\xc3\xab's \xc3\xbcn\xc3\xaf"
		     "c\xc3\xb6"
		     "d\xc3\xa9",
		     "Subject: =?UTF-8?Q?Zo=C3=AB's_=C3=BCn=C3=AF"
		     "c=C3=B6d=C3=A9?=\n",
		     "a UTF-8 subject becomes one encoded-word, blanks as _");
	CHECK_HEADER("Subject", "[linus:master] Zo\xc3\xab  fix",
		     "Subject: [linus:master] =?UTF-8?Q?Zo=C3=AB?=  fix\n",
		     "only the non-ASCII word is encoded, blanks around kept");
	CHECK_HEADER("Subject", "hello  world", "Subject: hello  world\n",
		     "an ASCII subject stays plain");
	CHECK_HEADER("Subject", "a =?x?= b",
		     "Subject: a =?UTF-8?Q?=3D=3Fx=3F=3D?= b\n",
		     "ASCII that looks like an encoded-word is encoded");
	CHECK_HEADER("From", "kernel test robot <lkp@intel.com>",
		     "From: kernel test robot <lkp@intel.com>\n",
		     "an ASCII display name stays plain");
	CHECK_HEADER("To", "\"Doe, John\" <jd@x.org>, John Q. Public <j@x.org>",
		     "To: \"Doe, John\" <jd@x.org>, \"John Q. Public\" "
		     "<j@x.org>\n",
		     "names with specials are quoted (RFC 5322 3.2.4)");
	CHECK_HEADER("Cc",
		     "Andrew Morton <akpm@x.org>, \"Johannes Weiner\" "
		     "<hannes@x.org>, lkp@x.org",
		     "Cc: Andrew Morton <akpm@x.org>, \"Johannes Weiner\" "
		     "<hannes@x.org>, lkp@x.org\n",
		     "a name quoted by its writer stays quoted, a bare address "
		     "bare (corpus mails 112, 123)");
	CHECK_HEADER(
		"From",
		"Ren\xc3\xa9"
		"e-\xc3\x89lisabeth L\xc3\xa9vesque de "
		"Saint-Hilaire <r@x.org>",
		"From: =?UTF-8?Q?Ren=C3=A9e-=C3=89lisabeth_L=C3=A9vesque?= "
		"de Saint-Hilaire\n <r@x.org>\n",
		"a display name keeps its ASCII atoms plain");
	CHECK_HEADER("From", "Zo\xc3\xab Q. Public <z@x.org>",
		     "From: =?UTF-8?Q?Zo=C3=AB_Q=2E_Public?= <z@x.org>\n",
		     "a display name with a non-atom word is encoded whole");
	CHECK_HEADER("To", "a@b.org,<c@d.org>", "To: a@b.org, <c@d.org>\n",
		     "bare and bracketed addresses keep their form");
	got = render_header("Subject",
			    "\xe6\x80\xa7\xe8\x83\xbd\xe5\x9b\x9e\xe5\xbd\x92 "
			    "\xe6\x80\xa7\xe8\x83\xbd\xe5\x9b\x9e\xe5\xbd\x92 "
			    "\xe6\x80\xa7\xe8\x83\xbd\xe5\x9b\x9e\xe5\xbd\x92 "
			    "\xe6\x80\xa7\xe8\x83\xbd\xe5\x9b\x9e\xe5\xbd\x92 "
			    "\xe6\x80\xa7\xe8\x83\xbd\xe5\x9b\x9e\xe5\xbd\x92");
	CHECK(lines_within(got, 76) && strstr(got, "\n =?UTF-8?Q?"),
	      "a long CJK subject: short encoded-words, lines <= 76 "
	      "(RFC 2047 2)");
	free(got);
}

static void test_folding(void)
{
	CHECK_HEADER("Subject",
		     "[linus:master] [x86]  20f3337d35:  "
		     "stress-ng.lockofd.ops_per_sec 3.4% improvement",
		     "Subject: [linus:master] [x86]  20f3337d35:  "
		     "stress-ng.lockofd.ops_per_sec\n"
		     " 3.4% improvement\n",
		     "seed 001's Subject folds as 0-day's mailer folded it");
	CHECK_HEADER(
		"CC",
		"<oe-lkp@lists.linux.dev>, <lkp@intel.com>, "
		"<linux-kernel@vger.kernel.org>, <ying.huang@intel.com>, "
		"<feng.tang@intel.com>, <fengwei.yin@intel.com>, "
		"<oliver.sang@intel.com>",
		"CC: <oe-lkp@lists.linux.dev>, <lkp@intel.com>,\n"
		"\t<linux-kernel@vger.kernel.org>, <ying.huang@intel.com>,\n"
		"\t<feng.tang@intel.com>, <fengwei.yin@intel.com>,\n"
		"\t<oliver.sang@intel.com>\n",
		"seed 001's CC list folds after commas with TABs");
	CHECK_HEADER("Subject", "a  b", "Subject: a  b\n",
		     "blanks inside a short subject are kept");
	CHECK_HEADER("Subject",
		     "x123456789x123456789x123456789x123456789x123456789"
		     "x123456789x1234567     tail",
		     "Subject: x123456789x123456789x123456789x123456789"
		     "x123456789x123456789x1234567\n"
		     "     tail\n",
		     "a fold goes before the first blank of a run");
}

static char *render_body(const char *body)
{
	struct strbuf sb = STRBUF_INIT;
	struct msg m;

	msg_init(&m);
	if (msg_add_header(&m, "Subject", "s") ||
	    msg_set_body(&m, body, strlen(body)) || msg_render(&sb, &m) < 0)
		strbuf_addstr(&sb, "(error)");
	msg_release(&m);
	return strbuf_detach(&sb, NULL);
}

static void test_charset(void)
{
	char *got;

	CHECK(mime_charset_of("abc\n", 4) == MIME_CS_ASCII, "ASCII");
	CHECK(mime_charset_of("\xc2\xb1", 2) == MIME_CS_LATIN1, "± is Latin-1");
	CHECK(mime_charset_of("\xe6\x80\xa7", 3) == MIME_CS_UTF8, "CJK");
	CHECK(mime_charset_of("a\0b", 3) == MIME_CS_BINARY, "NUL is binary");
	CHECK(mime_charset_of("\xc0\xaf", 2) == MIME_CS_BINARY,
	      "an overlong sequence is binary");
	CHECK(mime_charset_of("\xed\xa0\x80", 3) == MIME_CS_BINARY,
	      "a surrogate is binary");

	got = render_body("plain\n");
	CHECK(strstr(got, "Content-Type: text/plain; charset=\"us-ascii\"\n"
			  "Content-Disposition: inline\n"
			  "Content-Transfer-Encoding: 7bit\n\nplain\n"),
	      "an ASCII body goes us-ascii 7bit");
	free(got);
	got = render_body("4.25 \xc2\xb1  0%\n");
	CHECK(strstr(got, "charset=\"iso-8859-1\"\n"
			  "Content-Disposition: inline\n"
			  "Content-Transfer-Encoding: 8bit\n\n4.25 \xb1  0%\n"),
	      "a body with ± goes iso-8859-1 8bit, ± as the byte 0xB1");
	free(got);
	got = render_body("\xe6\x80\xa7\xe8\x83\xbd \xc2\xb1\n");
	CHECK(strstr(got, "charset=\"utf-8\"\nContent-Disposition: inline\n"
			  "Content-Transfer-Encoding: "
			  "8bit\n\n\xe6\x80\xa7\xe8\x83\xbd \xc2\xb1\n"),
	      "a body with CJK goes utf-8 8bit, unchanged");
	free(got);
}

static void qp_decode(struct strbuf *out, const char *s)
{
	unsigned int byte;

	for (; *s; s++) {
		if (*s != '=') {
			strbuf_addch(out, *s);
		} else if (s[1] == '\n') {
			s++;
		} else if (sscanf(s + 1, "%2X", &byte) == 1) {
			strbuf_addch(out, (int)byte);
			s += 2;
		}
	}
}

static char *qp(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	mime_qp_encode(&sb, s, strlen(s));
	return strbuf_detach(&sb, NULL);
}

#define CHECK_QP(in, want, ...)                       \
	do {                                          \
		char *got_ = qp(in);                  \
		CHECK_STREQ(got_, want, __VA_ARGS__); \
		free(got_);                           \
	} while (0)

static void test_qp(void)
{
	struct strbuf line = STRBUF_INIT, back = STRBUF_INIT;
	char *enc, *body;
	size_t i;

	CHECK_QP("-- \n", "--=20\n", "a trailing blank becomes =20, once");
	CHECK_QP("a  \n", "a =20\n", "only the last of two blanks is encoded");
	CHECK_QP("a\t\nb", "a=09\nb", "a trailing tab becomes =09");
	CHECK_QP("end ", "end=20", "a blank at the end of the data, too");
	CHECK_QP("x = y\n", "x =3D y\n", "= becomes =3D, inner blanks stay");
	CHECK_QP("caf\xc3\xa9\n", "caf=C3=A9\n", "8-bit bytes as =XX");
	CHECK_QP("a\r\nb\n", "a=0D\nb\n", "a CR is kept as =0D");

	for (i = 0; i < 1200; i++)
		strbuf_addch(&line, "abc= \t\xc3"[i % 6]);
	strbuf_addstr(&line, " \nnext\n");
	enc = qp(line.buf);
	CHECK(lines_within(enc, 76), "a 1200-byte line: encoded lines <= 76");
	qp_decode(&back, enc);
	CHECK(back.len == line.len && !memcmp(back.buf, line.buf, line.len),
	      "a 1200-byte line decodes back to the same bytes");
	free(enc);

	strbuf_reset(&line);
	for (i = 0; i < 1200; i++)
		strbuf_addch(&line, 'a' + i % 26);
	strbuf_addch(&line, '\n');
	body = render_body(line.buf);
	CHECK(strstr(body, "Content-Transfer-Encoding: quoted-printable\n"),
	      "a body with a 1200-byte line goes quoted-printable");
	free(body);
	strbuf_release(&line);
	strbuf_release(&back);
}

static void test_base64(void)
{
	struct strbuf sb = STRBUF_INIT;
	char zeros[57] = { 0 };

	mime_base64_encode(&sb, "Man", 3);
	mime_base64_encode(&sb, "Ma", 2);
	mime_base64_encode(&sb, "M", 1);
	CHECK_STREQ(sb.buf, "TWFu\nTWE=\nTQ==\n", "base64 with padding");
	strbuf_reset(&sb);
	mime_base64_encode(&sb, zeros, sizeof(zeros));
	CHECK(sb.len == 77 && sb.buf[76] == '\n' && lines_within(sb.buf, 76),
	      "base64: 57 bytes make one line of 76");
	strbuf_release(&sb);
}

static void add_basic_headers(struct msg *m)
{
	msg_add_header(m, "Date", "Wed, 7 Jun 2023 14:32:17 +0800");
	msg_add_header(m, "From", "kernel test robot <lkp@intel.com>");
	msg_add_header(m, "To", "a@b.org");
	msg_add_header(m, "Subject", "test");
	msg_add_header(m, "Message-ID", "<1@x.org>");
}

static const char golden_multipart[] =
	"Date: Wed, 7 Jun 2023 14:32:17 +0800\n"
	"From: kernel test robot <lkp@intel.com>\n"
	"To: a@b.org\n"
	"Subject: test\n"
	"Message-ID: <1@x.org>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: multipart/mixed; boundary=\"=_test\"\n"
	"\n"
	"--=_test\n"
	"Content-Type: text/plain; charset=\"iso-8859-1\"\n"
	"Content-Disposition: inline\n"
	"Content-Transfer-Encoding: 8bit\n"
	"\n"
	"Hello \xb1 world\n"
	"\n"
	"--=_test\n"
	"Content-Type: text/plain; charset=\"us-ascii\"\n"
	"Content-Disposition: attachment; filename=\"job.yaml\"\n"
	"Content-Transfer-Encoding: 7bit\n"
	"\n"
	"a: 1\n"
	"\n"
	"--=_test\n"
	"Content-Type: application/octet-stream\n"
	"Content-Disposition: attachment; filename=\"blob\"\n"
	"Content-Transfer-Encoding: base64\n"
	"\n"
	"AAEC\n"
	"\n"
	"--=_test--\n";

static void test_multipart(void)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct msg m;
	int ret;

	msg_init(&m);
	add_basic_headers(&m);
	msg_set_body(&m, "Hello \xc2\xb1 world\n", 15);
	msg_add_part(&m, "job.yaml", NULL, "a: 1\n", 5);
	msg_add_part(&m, "blob", NULL, "\0\1\2", 3);
	CHECK(!msg_set_boundary(&m, "=_test"), "a valid boundary is taken");
	ret = msg_render(&a, &m);
	CHECK(!ret, "the multipart message renders");
	CHECK_STREQ(a.buf, golden_multipart, "multipart matches the golden");

	free(m.boundary);
	m.boundary = NULL;
	strbuf_reset(&a);
	msg_render(&a, &m);
	msg_render(&b, &m);
	CHECK(a.len == b.len && !memcmp(a.buf, b.buf, a.len) &&
		      strstr(a.buf, "boundary=\"=_robot_"),
	      "a derived boundary is the same on every render");
	strbuf_reset(&a);
	CHECK(!msg_lint(b.buf, b.len, &a), "the multipart message lints");

	msg_add_part(&m, "collide", NULL, "x --=_test y\n", 13);
	msg_set_boundary(&m, "=_test");
	strbuf_reset(&a);
	CHECK(msg_render(&a, &m) == -1 && !a.len,
	      "a boundary that occurs in a part is refused, nothing written");
	CHECK(msg_set_boundary(&m, "bad\"quote") == -1 &&
		      msg_set_boundary(&m, "") == -1 &&
		      msg_set_boundary(&m, "trailing ") == -1,
	      "invalid boundaries are refused (RFC 2046 5.1.1)");
	msg_release(&m);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void test_refusals(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct msg m;

	msg_init(&m);
	CHECK(msg_add_header(&m, "Subject", "a\r\nBcc: x@y.org") == -1,
	      "CR LF in a header value is refused");
	CHECK(msg_add_header(&m, "Subject", "a\nb") == -1,
	      "LF in a header value is refused");
	CHECK(msg_add_header(&m, "Subject", "a\rb") == -1,
	      "CR in a header value is refused");
	CHECK(msg_add_header_len(&m, "Subject", "a\0b", 3) == -1,
	      "NUL in a header value is refused");
	CHECK(msg_add_header(&m, "Subject", "\xff") == -1,
	      "invalid UTF-8 in a header value is refused");
	CHECK(msg_add_header(&m, "Sub ject", "x") == -1 &&
		      msg_add_header(&m, "Subject:", "x") == -1,
	      "a bad header name is refused");
	CHECK(msg_add_header(&m, "Content-Type", "text/html") == -1 &&
		      msg_add_header(&m, "MIME-Version", "1.0") == -1,
	      "MIME headers are robot's own");
	CHECK(msg_add_header(&m, "To", "Linus Torvalds torvalds@x.org") == -1 &&
		      msg_add_header(&m, "To", "a@b.org, , c@d.org") == -1 &&
		      msg_add_header(&m, "Cc", "<a@b.org") == -1,
	      "bad address lists are refused");
	CHECK(msg_add_header(&m, "Message-ID", "1@x.org") == -1 &&
		      msg_add_header(&m, "In-Reply-To", "<a@b> junk") == -1,
	      "bad message ids are refused");
	CHECK(!msg_add_header(&m, "Subject", "ok") &&
		      msg_add_header(&m, "subject", "twice") == -1,
	      "a second Subject is refused");
	CHECK(m.nheaders == 1, "refused headers are not added");
	CHECK(msg_set_body(&m, "a\0b", 3) == -1, "a binary body is refused");
	CHECK(msg_add_part(&m, "", NULL, "x", 1) == -1 &&
		      msg_add_part(&m, "a\nb", NULL, "x", 1) == -1 &&
		      msg_add_part(&m, "f", "text", "x", 1) == -1,
	      "bad attachment names and types are refused");
	CHECK(msg_render(&sb, &m) == -1 && !sb.len,
	      "a message without a body does not render");
	msg_release(&m);
	strbuf_release(&sb);
}

static const char good_mail[] =
	"Date: Wed, 7 Jun 2023 14:32:17 +0800\n"
	"From: kernel test robot <lkp@intel.com>\n"
	"To: Linus Torvalds <torvalds@linux-foundation.org>\n"
	"CC: <oe-lkp@lists.linux.dev>,\n\t<lkp@intel.com>\n"
	"Subject: [linus:master] test\n"
	"Message-ID: <1@x.org>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=\"us-ascii\"\n"
	"\n"
	"Hello\n";

/* Lints good_mail with `from` replaced by `to`; 1 if refused for `want`. */
static int lint_refuses(const char *from, const char *to, const char *want)
{
	struct strbuf mail = STRBUF_INIT, why = STRBUF_INIT;
	const char *at = strstr(good_mail, from);
	int ret;

	if (!at)
		return 0;
	strbuf_add(&mail, good_mail, at - good_mail);
	strbuf_addstr(&mail, to);
	strbuf_addstr(&mail, at + strlen(from));
	ret = msg_lint(mail.buf, mail.len, &why) == -1 &&
	      strstr(why.buf, want) != NULL;
	if (!ret)
		printf("# why: '%s'\n", why.buf);
	strbuf_release(&mail);
	strbuf_release(&why);
	return ret;
}

static void test_lint(void)
{
	struct strbuf why = STRBUF_INIT, longline = STRBUF_INIT;

	CHECK(!msg_lint(good_mail, strlen(good_mail), &why) && !why.len,
	      "a good mail lints clean");
	strbuf_addstr(&longline, "X-Long: ");
	strbuf_addchars(&longline, 'x', 1000);
	strbuf_addstr(&longline, "\nMessage-ID:");
	CHECK(lint_refuses("Message-ID:", longline.buf,
			   "header line 7 is 1008 bytes long, over 998"),
	      "lint: an over-long header line");
	CHECK(lint_refuses("Message-ID:", "Message-ID: <2@x.org>\nMessage-ID:",
			   "2 Message-ID headers, want exactly 1"),
	      "lint: two Message-IDs");
	CHECK(lint_refuses("Linus Torvalds <torvalds@linux-foundation.org>",
			   "Linus Torvalds torvalds@x.org",
			   "header 'To': 'Linus Torvalds torvalds@x.org' is "
			   "not an address"),
	      "lint: a bad recipient");
	CHECK(lint_refuses("\n\nHello\n", "\n\n \n\n", "the body is empty"),
	      "lint: an empty body");
	CHECK(lint_refuses("Subject: [linus:master] test\n", "",
			   "the Subject is missing or empty"),
	      "lint: no Subject");
	CHECK(lint_refuses("Date: Wed, 7 Jun 2023 14:32:17 +0800\n",
			   "Date: yesterday\n", "header 'Date' does not parse"),
	      "lint: a Date libetpan cannot parse");
	CHECK(lint_refuses("To: Linus Torvalds <torvalds@linux-foundation.org>"
			   "\nCC: <oe-lkp@lists.linux.dev>,\n\t<lkp@intel.com>"
			   "\n",
			   "", "no recipient in To or Cc"),
	      "lint: no recipient");
	CHECK(lint_refuses("Message-ID: <1@x.org>\n", "Message-ID <1@x.org>\n",
			   "header line 7 is not a field"),
	      "lint: a line that is no header field");
	CHECK(lint_refuses("Hello\n", "Hel\rlo\n", "a CR"),
	      "lint: a CR in the LF form");
	CHECK(lint_refuses("Content-Type: text/plain; charset=\"us-ascii\"\n\n"
			   "Hello\n",
			   "Content-Type: multipart/mixed; boundary=\"B\"\n\n"
			   "--B\nContent-Type: text/plain\n\nHello\n--B\n"
			   "Content-Type: text/plain\n\n\n--B--\n",
			   "MIME part 2 is empty"),
	      "lint: an empty MIME part");
	CHECK(lint_refuses("Content-Type: text/plain; charset=\"us-ascii\"\n\n"
			   "Hello\n",
			   "Content-Type: multipart/mixed; boundary=\"B\"\n\n"
			   "--B\nContent-Type: text/plain\n\nHello\n",
			   "lacks its closing delimiter"),
	      "lint: a multipart body without its close delimiter");
	strbuf_release(&why);
	strbuf_release(&longline);
}

/* Whether validator `fn` accepts s; `why` gets its reason. */
#define ACCEPTS(fn, s)	   (!fn(s, NULL))
#define ACCEPTS_LEN(fn, s) (!fn(s, strlen(s), NULL))

static void test_validators(void)
{
	static const char *const good_addr[] = { "a@b", "a.b@example.org",
						 "x+y=z@mail.example.org",
						 "a@b-c.d1",
						 "o'neil@example.org" };
	static const char *const bad_addr[] = {
		"..@b",	       "a.@b",	 "a..b@c",
		"@b",	       "a@",	 "a@-.x",
		"a@x-",	       "a@b..c", "user@...el.com",
		"a b@c",       "a@b_c",	 "a@b@c",
		"=?q?x?=@b.c", "a\"b@c", "\xc3\xa9@b.c",
		"a@[1.2.3.4]",
	};
	static const char *const good_id[] = {
		"<a@b>", "<202306071452.887afdea-oliver.sang@intel.com>",
		"<a.b@[127.0.0.1]>", "<a/b@c>"
	};
	static const char *const bad_id[] = {
		"a@b",	     "<a,b@c>", "<a@.b>",      "<a..b@c>", "<@b>",
		"<a@>",	     "<a@b@c>", "<=?x?=@b>",   "<a b@c>",  "<a@[b]c>",
		"<a@[b[c]>", "<>",	"<a@b> <c@d>",
	};
	size_t i;
	int ok;

	for (ok = 1, i = 0; i < ARRAY_SIZE(good_addr); i++)
		ok &= !valid_addr_spec(good_addr[i], strlen(good_addr[i]),
				       NULL);
	CHECK(ok, "valid_addr_spec: dot-atom local parts, host names");
	for (ok = 1, i = 0; i < ARRAY_SIZE(bad_addr); i++)
		if (ACCEPTS_LEN(valid_addr_spec, bad_addr[i])) {
			printf("# accepted '%s'\n", bad_addr[i]);
			ok = 0;
		}
	CHECK(ok, "valid_addr_spec refuses dots, empty labels, hyphens, '=?'");
	for (ok = 1, i = 0; i < ARRAY_SIZE(good_id); i++)
		ok &= ACCEPTS_LEN(valid_msgid, good_id[i]);
	CHECK(ok, "valid_msgid: dot-atom-text, no-fold-literal");
	for (ok = 1, i = 0; i < ARRAY_SIZE(bad_id); i++)
		if (ACCEPTS_LEN(valid_msgid, bad_id[i])) {
			printf("# accepted '%s'\n", bad_id[i]);
			ok = 0;
		}
	CHECK(ok, "valid_msgid refuses what RFC 5322 msg-id does not allow");
}

/* Mailboxes, file names, invisible characters. */
static void test_validators_names(void)
{
	struct strbuf why = STRBUF_INIT;

	CHECK(ACCEPTS(valid_mailbox, "Linus Torvalds <torvalds@x.org>") &&
		      ACCEPTS(valid_mailbox, "\"Doe, John\" <j@x.org>") &&
		      ACCEPTS(valid_mailbox, "<a@b.c>") &&
		      ACCEPTS(valid_mailbox, "a@b.c") &&
		      ACCEPTS(valid_mailbox, "\"=?utf-8?q?x?=\" <a@b.c>"),
	      "valid_mailbox: one mailbox, in any of its forms");
	CHECK(!ACCEPTS(valid_mailbox, "a@b.c, d@e.f") &&
		      !ACCEPTS(valid_mailbox, "") &&
		      !ACCEPTS(valid_mailbox, "A <a@b.c>, B <d@e.f>"),
	      "valid_mailbox: not two, not none");
	valid_mailbox("Li\xe2\x80\xaenus <l@x.org>", &why);
	CHECK_STREQ(why.buf,
		    "must be one line of visible UTF-8 text (an invisible "
		    "character (U+202E) at byte 3)",
		    "valid_mailbox: an invisible character in the name");
	CHECK(ACCEPTS(valid_mailbox_list, "a@b.c, D <d@e.f>") &&
		      !ACCEPTS(valid_mailbox_list, "a@b.c, ..@e.f"),
	      "valid_mailbox_list: every address checked");

	CHECK(ACCEPTS(valid_file_name, "config-6.3.0-rc7") &&
		      ACCEPTS(valid_file_name, ".config") &&
		      ACCEPTS(valid_file_name, "=?utf-8?q?x?=.txt") &&
		      ACCEPTS(valid_file_name, "r\xc3\xa9sum\xc3\xa9"),
	      "valid_file_name: base names of visible text");
	CHECK(!ACCEPTS(valid_file_name, "") && !ACCEPTS(valid_file_name, ".") &&
		      !ACCEPTS(valid_file_name, "..") &&
		      !ACCEPTS(valid_file_name, "../x") &&
		      !ACCEPTS(valid_file_name, "a\\b") &&
		      !ACCEPTS(valid_file_name, "a\tb") &&
		      !ACCEPTS(valid_file_name, "\xef\xbb\xbfx"),
	      "valid_file_name: no paths, no control or invisible characters");

	CHECK(utf8_is_invisible(0x202e) && utf8_is_invisible(0x2066) &&
		      utf8_is_invisible(0x200b) && utf8_is_invisible(0xfeff) &&
		      utf8_is_invisible(0xe0041) &&
		      utf8_is_invisible(0x10ffff) && utf8_is_invisible(0xfdd0),
	      "utf8_is_invisible: bidi, zero-width, BOM, tags, nonchars");
	CHECK(!utf8_is_invisible('a') && !utf8_is_invisible(0xe9) &&
		      !utf8_is_invisible(0xfe0f) && !utf8_is_invisible(0xa0) &&
		      !utf8_is_invisible(0x1f600),
	      "utf8_is_invisible: letters, variation selectors, NBSP, emoji");
	strbuf_release(&why);
}

/* The message read through msg_crlf in pieces of `piece` bytes. */
static void crlf_read(struct strbuf *out, const char *lf, size_t piece)
{
	struct msg_crlf c;
	char buf[16];
	size_t n;

	msg_crlf_init(&c, lf, strlen(lf));
	while ((n = msg_crlf_read(&c, buf, piece)) > 0)
		strbuf_add(out, buf, n);
	CHECK(out->len == c.size, "msg_crlf: size %zu, %zu bytes given", c.size,
	      out->len);
}

static void test_crlf(void)
{
	static const char *const cases[][2] = {
		{ "a\nb\r\n.\n\nc", "a\r\nb\r\n.\r\n\r\nc" },
		{ "\n\nx\r\n\r\r\n\n", "\r\n\r\nx\r\n\r\r\n\r\n" },
		{ "", "" },
		{ "no line end", "no line end" },
	};
	size_t i, piece;
	int all = 1;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (piece = 1; piece <= 16; piece++) {
			struct strbuf sb = STRBUF_INIT;

			crlf_read(&sb, cases[i][0], piece);
			all &= !strcmp(sb.buf, cases[i][1]);
			strbuf_release(&sb);
		}
	CHECK(all, "msg_crlf: LF becomes CRLF once, CRLF stays, no "
		   "dot-stuffing, read 1 to 16 bytes at a time");
}

/* strset as a map: strset_put and strset_get, through its growth */
static void test_map(void)
{
	struct strset m = STRSET_INIT;
	char id[32];
	size_t i, v = 99;
	int all = 1;

	CHECK(!strset_get(&m, "<a@b>", &v) && v == 99,
	      "strset_get on an empty set: not there, *v untouched");
	CHECK(strset_add(&m, "<a@b>") && strset_get(&m, "<a@b>", &v) && !v,
	      "strset_get: a member strset_add added has the value 0");
	for (i = 0; i < 5000; i++) {
		snprintf(id, sizeof(id), "<%zu@x>", i);
		all &= strset_put(&m, id, 3 * i + 1);
	}
	all &= !strset_put(&m, "<7@x>", 5);
	for (i = 0; i < 5000; i++) {
		snprintf(id, sizeof(id), "<%zu@x>", i);
		all &= strset_get(&m, id, &v) && v == 3 * i + 1;
	}
	CHECK(all && m.n == 5001 && strset_get(&m, "<a@b>", &v) && !v &&
		      !strset_get(&m, "<5000@x>", &v),
	      "strset_put: 5,000 values through the growth, the first value "
	      "kept, the member from before the first put with 0");
	strset_release(&m);
}

/* utf8_add_visible and strset (robot/util) */
static void test_visible_and_sets(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct strset a = STRSET_ICASE_INIT, m = STRSET_INIT;
	char id[32];
	int i, all = 1;

	const char *in = " [PATCH]\x1b[2J\r\xe2\x80\xae x\xff\t ";

	utf8_add_visible(&sb, in, strlen(in));
	CHECK(!strcmp(sb.buf, "[PATCH] [2J   x") &&
		      !utf8_check_text(sb.buf, 0, NULL),
	      "utf8_add_visible: controls, invisibles, bad bytes as blanks, "
	      "ends trimmed (got '%s')",
	      sb.buf);
	strbuf_release(&sb);
	CHECK(strset_add(&a, "Dev@Example.org") &&
		      !strset_add(&a, "dev@example.ORG") &&
		      strset_has(&a, "DEV@example.org") && a.n == 1,
	      "strset, STRSET_ICASE_INIT: one address in any case");
	CHECK(strset_add(&m, "<a@b>") && strset_add(&m, "<A@b>") &&
		      !strset_add(&m, "<a@b>") && m.n == 2,
	      "strset: Message-IDs compared as they are");
	for (i = 0; i < 10000; i++) {
		snprintf(id, sizeof(id), "<%d@x>", i);
		all &= strset_add(&m, id) && strset_has(&m, id);
	}
	CHECK(all && m.n == 10002 && !strset_has(&m, "<10000@x>"),
	      "strset: 10,000 members through its growth");
	strset_release(&a);
	strset_release(&m);
	test_map();
}

int main(void)
{
	test_visible_and_sets();
	test_rfc2047();
	test_folding();
	test_charset();
	test_qp();
	test_base64();
	test_multipart();
	test_refusals();
	test_lint();
	test_validators();
	test_validators_names();
	test_crlf();
	return check_done();
}
