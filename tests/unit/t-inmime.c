// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-inmime.c: the MIME parts of incoming mail (mail/inmime.h): what they
 * decode to, in LF and CRLF, and each malformed structure refused with
 * its reason.
 */
#include "robot/util/common.h"
#include "mail/inmime.h"
#include "mail/inmsg.h"
#include "tests/unit/check.h"

#include <unistd.h>

static const char multipart[] =
	"From: A <a@example.org>\n"
	"Subject: =?utf-8?q?caf=C3=A9?=\n"
	"MIME-Version: 1.0\n"
	"Content-Type: multipart/mixed; boundary=\"XYZ\"\n"
	"\n"
	"preamble\n"
	"--XYZ\n"
	"Content-Type: text/plain; charset=iso-8859-1\n"
	"Content-Transfer-Encoding: quoted-printable\n"
	"\n"
	"Caf=E9 soft=\n"
	"break\n"
	"--XYZ\n"
	"Content-Type: text/x-patch; name=\"fix.patch\"\n"
	"Content-Disposition: attachment; filename=\"fix.patch\"\n"
	"Content-Transfer-Encoding: base64\n"
	"\n"
	"ZGlmZiAtLWdpdCBhL3ggYi94Cg==\n"
	"--XYZ\n"
	"Content-Type: application/octet-stream\n"
	"Content-Disposition: attachment; filename*=utf-8''r%C3%A9sum%C3%A9.txt\n"
	"\n"
	"x\n"
	"--XYZ--\n"
	"epilogue\n";

/* s with every LF turned into CRLF (caller frees). */
static char *crlf(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '\n')
			strbuf_addch(&sb, '\r');
		strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb, NULL);
}

static int parse(struct inmime *mm, const char *text, struct strbuf *why)
{
	struct inmsg m;
	int ret;

	strbuf_reset(why);
	memset(mm, 0, sizeof(*mm));
	if (inmsg_parse(&m, text, strlen(text), why))
		return -2;
	ret = inmime_parse(mm, &m, why);
	inmsg_release(&m);
	return ret;
}

static void parts(const char *text, const char *how)
{
	struct strbuf why = STRBUF_INIT, t = STRBUF_INIT;
	struct inmime mm;
	int ret = parse(&mm, text, &why);

	CHECK(!ret, "%s: a multipart mail parses (%s)", how, why.buf);
	CHECK(mm.n == 3, "%s: three parts (%zu)", how, mm.n);
	if (mm.n == 3) {
		CHECK_STREQ(mm.v[0].type, "text/plain", "%s: part 1 type", how);
		CHECK_STREQ(mm.v[0].charset, "iso-8859-1", "%s: its charset",
			    how);
		CHECK(!mm.v[0].attachment && !mm.v[0].filename,
		      "%s: part 1 is inline text", how);
		inpart_text(&mm.v[0], &t);
		CHECK_STREQ(t.buf, "Caf\xc3\xa9 softbreak",
			    "%s: quoted-printable and Latin-1 undone", how);
		CHECK_STREQ(mm.v[1].type, "text/x-patch", "%s: part 2 type",
			    how);
		CHECK_STREQ(mm.v[1].filename, "fix.patch", "%s: its name", how);
		CHECK(mm.v[1].attachment, "%s: part 2 is an attachment", how);
		CHECK(mm.v[1].len == 19 &&
			      !memcmp(mm.v[1].data, "diff --git a/x b/x\n", 19),
		      "%s: base64 undone", how);
		CHECK_STREQ(mm.v[2].filename, "r\xc3\xa9sum\xc3\xa9.txt",
			    "%s: an RFC 2231 file name", how);
	}
	inmime_release(&mm);
	strbuf_release(&why);
	strbuf_release(&t);
}

static void refused(const char *text, const char *want, const char *how)
{
	struct strbuf why = STRBUF_INIT;
	struct inmime mm;
	int ret = parse(&mm, text, &why);

	CHECK(ret == -1 && strstr(why.buf, want), "%s: refused: %s", how,
	      why.buf);
	CHECK(mm.n == 0 && !mm.v, "%s: nothing left", how);
	inmime_release(&mm);
	strbuf_release(&why);
}

/* `multipart` with `from` replaced by `to`, once (caller frees). */
static char *edited(const char *from, const char *to)
{
	const char *at = strstr(multipart, from);
	struct strbuf sb = STRBUF_INIT;

	if (!at)
		return xstrdup(multipart);
	strbuf_add(&sb, multipart, at - multipart);
	strbuf_addstr(&sb, to);
	strbuf_addstr(&sb, at + strlen(from));
	return strbuf_detach(&sb, NULL);
}

static void malformed(void)
{
	char *s;

	s = edited("; boundary=\"XYZ\"", "");
	refused(s, "without a boundary parameter", "no boundary");
	free(s);
	s = edited("boundary=\"XYZ\"", "boundary=\"QQQ\"");
	refused(s, "never starts a line", "a boundary that never occurs");
	free(s);
	s = edited("--XYZ--\n", "");
	refused(s, "without its closing boundary", "no closing delimiter");
	free(s);
	s = edited("Content-Transfer-Encoding: base64",
		   "Content-Transfer-Encoding: x-uuencode");
	refused(s, "unknown Content-Transfer-Encoding \"x-uuencode\"",
		"an unknown transfer encoding");
	free(s);
	s = edited("ZGlmZiAtLWdpdCBhL3ggYi94Cg==", "ZGlm*ZiAt!");
	refused(s, "base64 part with characters", "base64 with junk");
	free(s);
	s = edited("multipart/mixed; boundary=\"XYZ\"", "text/plain; (");
	refused(s, "Content-Type: cannot parse", "a broken Content-Type");
	free(s);
}

static void nested(void)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	struct inmime mm;
	int i;

	/* 20 levels of multipart: deeper than the limit */
	strbuf_addstr(&sb, "From: a@example.org\nMIME-Version: 1.0\n"
			   "Content-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 0; i < 20; i++)
		strbuf_addf(&sb,
			    "--b%d\nContent-Type: multipart/mixed; "
			    "boundary=b%d\n\n",
			    i, i + 1);
	strbuf_addstr(&sb, "--b20\n\nx\n");
	for (i = 20; i >= 0; i--)
		strbuf_addf(&sb, "--b%d--\n", i);
	CHECK(parse(&mm, sb.buf, &why) == -1 && strstr(why.buf, "nested"),
	      "deep nesting is refused: %s", why.buf);
	inmime_release(&mm);
	strbuf_reset(&sb);
	/* a plain mail: one text part, its body */
	CHECK(!parse(&mm, "Subject: x\n\nhello\n", &why) && mm.n == 1 &&
		      !strcmp(mm.v[0].type, "text/plain") &&
		      !strcmp(mm.v[0].data, "hello\n"),
	      "a mail without MIME is one text part");
	inmime_release(&mm);
	strbuf_release(&sb);
	strbuf_release(&why);
}

static void files(void)
{
	char path[] = "/tmp/t-inmime-XXXXXX";
	struct strbuf why = STRBUF_INIT;
	struct inmsg m;
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, multipart, sizeof(multipart) - 1) ==
				 (ssize_t)(sizeof(multipart) - 1),
	      "a mail file is written");
	if (fd >= 0)
		close(fd);
	CHECK(!inmsg_read_file(&m, path, INMAIL_MAX_BYTES, &why),
	      "it reads back (%s)", why.buf);
	inmsg_release(&m);
	strbuf_reset(&why);
	CHECK(inmsg_read_file(&m, path, 100, &why) &&
		      strstr(why.buf, "more than the limit of 100"),
	      "a mail over the limit is refused before reading: %s", why.buf);
	inmsg_release(&m);
	unlink(path);
	strbuf_release(&why);
}

/*
 * strbuf_read_file and strbuf_read_file_max: a file of several reads
 * comes back whole, into one allocation of its size; one over the limit
 * is not read; a directory and a missing file fail with their errno.
 */
static void read_files(void)
{
	char path[] = "/tmp/t-inmime-XXXXXX";
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	int fd = mkstemp(path), ok = fd >= 0;
	size_t i;

	for (i = 0; i < 200000; i++)
		strbuf_addch(&want, (char)('a' + i % 26 + (i % 997 == 0)));
	ok = ok && write(fd, want.buf, want.len) == (ssize_t)want.len;
	if (fd >= 0)
		close(fd);
	CHECK(ok, "a file of 200,000 bytes is written");
	strbuf_addstr(&sb, "x");
	CHECK(!strbuf_read_file(&sb, path) && sb.len == want.len + 1 &&
		      !memcmp(sb.buf + 1, want.buf, want.len) &&
		      sb.alloc == want.len + 3,
	      "read whole after what the buffer held, in one allocation "
	      "(one byte more than the file: a read that brings less is at "
	      "its end) "
	      "(len %zu, alloc %zu)",
	      sb.len, sb.alloc);
	strbuf_reset(&sb);
	CHECK(!strbuf_read_file_max(&sb, path, want.len) &&
		      sb.len == want.len && !memcmp(sb.buf, want.buf, want.len),
	      "read whole at exactly the limit");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "kept");
	CHECK(strbuf_read_file_max(&sb, path, want.len - 1) == 1 &&
		      !strcmp(sb.buf, "kept"),
	      "one byte over the limit: 1, nothing read");
	errno = 0;
	CHECK(strbuf_read_file_max(&sb, "/tmp", 10) == -1 && errno == EISDIR &&
		      !strcmp(sb.buf, "kept"),
	      "a directory: -1, EISDIR");
	unlink(path);
	errno = 0;
	CHECK(strbuf_read_file(&sb, path) == -1 && errno == ENOENT &&
		      !strcmp(sb.buf, "kept"),
	      "a missing file: -1, ENOENT");
	strbuf_release(&sb);
	strbuf_release(&want);
}

/* inmsg_parse: folded fields unfolded, each field its own value */
static void unfolded(void)
{
	const char *text = "Subject: a\n b\n\tc\nX-Empty:\nReferences: "
			   "<1@x>\n <2@x>\n <3@x>\nTo: d@x\n\nbody\n";
	struct strbuf why = STRBUF_INIT, big = STRBUF_INIT;
	struct inmsg m;
	const char *v;
	int i;

	CHECK(!inmsg_parse(&m, text, strlen(text), &why), "folded: parses");
	CHECK_STREQ(inmsg_get(&m, "Subject"), "a b\tc",
		    "folded: a Subject of three lines");
	CHECK_STREQ(inmsg_get(&m, "X-Empty"), "", "folded: an empty field");
	CHECK_STREQ(inmsg_get(&m, "References"), "<1@x> <2@x> <3@x>",
		    "folded: References of three lines");
	CHECK_STREQ(inmsg_get(&m, "To"), "d@x", "folded: the field after");
	inmsg_release(&m);
	strbuf_addstr(&big, "From: a@x\nReferences: <0@x>");
	for (i = 1; i < 20000; i++)
		strbuf_addf(&big, "\n <%d@x>", i);
	strbuf_addstr(&big, "\n\nbody\n");
	CHECK(!inmsg_parse(&m, big.buf, big.len, &why), "20,000 lines: parse");
	v = inmsg_get(&m, "References");
	/* the value: the field's text less its 19,999 line breaks */
	CHECK(v &&
		      strlen(v) == big.len - strlen("From: a@x\nReferences: ") -
					   strlen("\n\nbody\n") - 19999 &&
		      strstr(v, "<18@x> <19@x> <20@x>") && !strchr(v, '\n'),
	      "folded: References of 20,000 lines, whole");
	inmsg_release(&m);
	strbuf_release(&big);
	strbuf_release(&why);
}

int main(void)
{
	char *c = crlf(multipart);

	unfolded();
	parts(multipart, "LF");
	parts(c, "CRLF");
	free(c);
	malformed();
	nested();
	files();
	read_files();
	return check_done();
}
