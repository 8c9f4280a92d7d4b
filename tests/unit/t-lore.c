// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-lore.c: the pure parts of the lore lookup.  Message-IDs in Link:
 * URLs and in URL paths, the tags of patch subjects, mboxes and the
 * decoding of other people's headers (inmsg), and gunzip with its cap.
 */
#include "robot/util/common.h"
#include "robot/util/gz.h"
#include "robot/delivery/thread.h"
#include "mail/header.h"
#include "mail/inmsg.h"
#include "mail/lore.h"
#include "tests/unit/check.h"

#include <zlib.h>

static void check_link(const char *url, const char *base, const char *want)
{
	char *got = lore_link_msgid(url, base);

	if (want)
		CHECK_STREQ(got, want, "link %s", url);
	else
		CHECK(!got, "link %s names no Message-ID (got %s)", url,
		      got ? got : "none");
	free(got);
}

static void links(void)
{
	const char *base = "http://127.0.0.1:8080/test/";

	check_link("https://lore.kernel.org/r/20240101.1234-1-a@example.org",
		   NULL, "<20240101.1234-1-a@example.org>");
	check_link("https://lore.kernel.org/all/20240101.x@example.org/", NULL,
		   "<20240101.x@example.org>");
	check_link("https://lore.kernel.org/linux-mm/a.b@example.org/T/#u",
		   NULL, "<a.b@example.org>");
	check_link("https://lore.kernel.org/linux-mm/a.b@example.org/raw", NULL,
		   "<a.b@example.org>");
	check_link("https://lore.kernel.org/r/Y%2F5wFE%2BYCYJ%2Fyr0j%40morell",
		   NULL, "<Y/5wFE+YCYJ/yr0j@morell>");
	check_link("https://lore.kernel.org/all/Y/5wFE+YCYJ/yr0j@morell/", NULL,
		   "<Y/5wFE+YCYJ/yr0j@morell>");
	check_link("https://patch.msgid.link/20240101.x%25y%3Dz@example.org",
		   NULL, "<20240101.x%y=z@example.org>");
	check_link("https://msgid.link/a@b", NULL, "<a@b>");
	check_link("https://lkml.kernel.org/r/a@b", NULL, "<a@b>");
	check_link("http://127.0.0.1:8080/test/a@b/t.mbox.gz", base, "<a@b>");
	/* not a message: a bug tracker, a list page, no '@' */
	check_link("https://bugzilla.kernel.org/show_bug.cgi?id=1", NULL, NULL);
	check_link("https://lore.kernel.org/all/", NULL, NULL);
	check_link("https://lore.kernel.org/r/no-at-sign", NULL, NULL);
	check_link("ftp://lore.kernel.org/r/a@b", NULL, NULL);
	check_link("https://lore.kernel.org", NULL, NULL);
	check_link("<https://lore.kernel.org/r/a@b>", NULL, "<a@b>");
}

static void encoding(void)
{
	struct strbuf sb = STRBUF_INIT;

	lore_encode_msgid(&sb, "<Y/5wFE+YCYJ/yr0j%a=b@morell>");
	CHECK_STREQ(sb.buf, "Y%2F5wFE%2BYCYJ%2Fyr0j%25a%3Db@morell",
		    "a Message-ID in a URL path: / + %% = encoded, @ kept");
	strbuf_reset(&sb);
	lore_encode_msgid(&sb, "<a b\"c@d>");
	CHECK_STREQ(sb.buf, "a%20b%22c@d", "blanks and quotes encoded");
	strbuf_release(&sb);
}

static void check_subject(const char *s, int reply, int version, int index,
			  int total, const char *rest)
{
	struct strbuf sb = STRBUF_INIT;
	struct subject_tags t;

	subject_parse(s, &t, &sb);
	CHECK(t.reply == reply && t.version == version && t.index == index &&
		      t.total == total,
	      "'%s': reply %d v%d %d/%d (want %d v%d %d/%d)", s, t.reply,
	      t.version, t.index, t.total, reply, version, index, total);
	CHECK_STREQ(sb.buf, rest, "'%s' without its tags", s);
	strbuf_release(&sb);
}

static void subjects(void)
{
	check_subject("[PATCH] mm: foo", 0, 1, 0, 0, "mm: foo");
	check_subject("[PATCH v2 3/5] mm: memcg: make  stats", 0, 2, 3, 5,
		      "mm: memcg: make stats");
	check_subject("[RFC PATCH net-next v3 0/7] net: bar", 0, 3, 0, 7,
		      "net: bar");
	check_subject("[PATCHv4 1/2] x86: baz", 0, 4, 1, 2, "x86: baz");
	check_subject("[PATCH V2] x86: baz", 0, 2, 0, 0, "x86: baz");
	check_subject("[PATCH 6.1 012/150] x86: baz", 0, 1, 12, 150,
		      "x86: baz");
	check_subject("Re: [PATCH v2 2/3] mm/bar: use", 1, 2, 2, 3,
		      "mm/bar: use");
	check_subject("[LTP] Re: [PATCH] ltp: qux", 1, 1, 0, 0, "ltp: qux");
	check_subject("RE: Fwd: [PATCH,v5,2/4] a: b", 1, 5, 2, 4, "a: b");
	check_subject("mm: no tags at all", 0, 1, 0, 0, "mm: no tags at all");
	check_subject("[PATCH] [v7] a: b", 0, 7, 0, 0, "a: b");
	check_subject("[unclosed a: b", 0, 1, 0, 0, "[unclosed a: b");
}

static const char mbox[] =
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: =?UTF-8?q?Zo=C3=AB?= Reviewer <zoe@example.net>\n"
	"To: \"Doe, John\" <john@example.org>, list@example.org,\n"
	"\tundisclosed: <a@example.org>, =?ISO-8859-1?Q?Ren=E9?= <r@x.org>;\n"
	"Cc: bad address <not an address>, ok@example.org\n"
	"Subject: Re: [PATCH v2 2/3] =?UTF-8?B?R3LDtsOfZQ==?=\n"
	" of things\n"
	"Date: Tue, 04 Jun 2024 09:00:00 +0200\n"
	"Message-ID: <1@example.net>\n"
	"References: <0@example.org>\n"
	" junk <2@example.org>\n"
	"\n"
	">From the start\n"
	">>From twice\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\r\n"
	"Subject: second\r\n"
	"Message-ID: <3@x>\r\n"
	"Content-Type: text/plain; charset=iso-8859-1\r\n"
	"Content-Transfer-Encoding: quoted-printable\r\n"
	"\r\n"
	"caf=E9 =\r\n"
	"au lait\r\n";

static void mboxes(void)
{
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT;
	struct hdr_addr_list to = HDR_ADDR_LIST_INIT;
	struct inmsg *m = NULL;
	char **ids = NULL;
	size_t nr = 0, nids = 0, alloc = 0, i;
	int64_t t = 0;

	CHECK(!mbox_split(&m, &nr, mbox, strlen(mbox), &why) && nr == 2,
	      "an mbox of two messages (%zu) %s", nr, why.buf);
	if (nr != 2)
		return;
	inmsg_text(&m[0], "subject", &sb);
	CHECK_STREQ(sb.buf, "Re: [PATCH v2 2/3] Größe of things",
		    "a folded, encoded Subject decoded");
	strbuf_reset(&sb);
	inmsg_text(&m[0], "From", &sb);
	CHECK_STREQ(sb.buf, "Zoë Reviewer <zoe@example.net>",
		    "an encoded display name");
	inmsg_addresses(&m[0], "To", &to);
	CHECK(to.nr == 4, "To: 4 mailboxes, a group's flattened (%zu)", to.nr);
	if (to.nr == 4) {
		CHECK_STREQ(to.v[0].display, "Doe, John", "a quoted name");
		CHECK(!to.v[1].display, "a bare address has no name");
		CHECK_STREQ(to.v[1].addr, "list@example.org", "its address");
		CHECK_STREQ(to.v[3].display, "René", "ISO-8859-1 decoded");
	}
	hdr_addr_list_release(&to);
	inmsg_addresses(&m[0], "Cc", &to);
	CHECK(to.nr == 1 && !strcmp(to.v[0].addr, "ok@example.org"),
	      "an address robot cannot write back is left out (%zu)", to.nr);
	hdr_addr_list_release(&to);
	CHECK(!inmsg_date(&m[0], &t) && t == 1717484400,
	      "the Date in its zone: %lld", (long long)t);
	inmsg_msgids(&m[0], "References", &ids, &nids, &alloc);
	CHECK(nids == 2 && !strcmp(ids[0], "<0@example.org>") &&
		      !strcmp(ids[1], "<2@example.org>"),
	      "References: the ids, text between them ignored");
	for (i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	strbuf_reset(&sb);
	inmsg_body_text(&m[0], &sb);
	CHECK_STREQ(sb.buf, "From the start\n>From twice\n",
		    "mboxrd: one '>' off each >From line, the blank line "
		    "before the next message dropped");
	strbuf_reset(&sb);
	inmsg_body_text(&m[1], &sb);
	CHECK_STREQ(sb.buf, "café au lait\r\n",
		    "CRLF, quoted-printable, ISO-8859-1 to UTF-8");
	mbox_release(m, nr);

	strbuf_reset(&why);
	CHECK(mbox_split(&m, &nr, "<html>", 6, &why) && !nr,
	      "a web page is not an mbox: %s", why.buf);
	strbuf_reset(&why);
	CHECK(mbox_split(&m, &nr, "From x\n\nbody\n", 13, &why),
	      "a message without a header: %s", why.buf);
	CHECK(!mbox_split(&m, &nr, "", 0, &why) && !nr, "empty: no messages");
	strbuf_release(&why);
	strbuf_release(&sb);
}

static void gz(void)
{
	unsigned char packed[4096];
	uLongf plen = sizeof(packed);
	struct strbuf out = STRBUF_INIT;
	static char big[100000];
	z_stream z;

	memset(big, 'a', sizeof(big));
	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (Bytef *)big;
	z.avail_in = sizeof(big);
	z.next_out = packed;
	z.avail_out = sizeof(packed);
	deflate(&z, Z_FINISH);
	plen = z.total_out;
	deflateEnd(&z);
	CHECK(gz_magic(packed, plen), "gzip magic");
	CHECK(gunzip_mem(&out, packed, plen, sizeof(big)) == GZ_OK &&
		      out.len == sizeof(big),
	      "unpacks %zu bytes", out.len);
	strbuf_reset(&out);
	CHECK(gunzip_mem(&out, packed, plen, 50000) == GZ_TOO_BIG && !out.len,
	      "over the cap: refused, nothing kept");
	CHECK(gunzip_mem(&out, packed, plen / 2, sizeof(big)) == GZ_CORRUPT &&
		      !out.len,
	      "cut short: corrupt");
	CHECK(gunzip_mem(&out, "\x1f\x8bxyz", 5, 100) == GZ_CORRUPT,
	      "not gzip: corrupt");
	strbuf_release(&out);
}

int main(void)
{
	links();
	encoding();
	subjects();
	mboxes();
	gz();
	return check_done();
}
