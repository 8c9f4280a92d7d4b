// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-mbox.c: what a public-inbox archive answers, which robot thread
 * reads from the network: any bytes are gunzipped when they look like
 * gzip (capped), split as an mbox, and every message is read the way the
 * lookup reads it: the decoded Subject and its tags, the sender and
 * recipients, the Message-IDs, the date, the text and its patch-id.  The
 * same bytes as a Link: URL must give a Message-ID or none.
 */
#include "robot/util/common.h"
#include "tests/fuzz/fuzz.h"
#include "robot/util/gz.h"
#include "robot/util/utf8.h"
#include "robot/delivery/thread.h"
#include "git/patchid.h"
#include "mail/header.h"
#include "mail/inmsg.h"
#include "mail/lore.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

static void read_message(const struct inmsg *m)
{
	static const char *const addr_fields[] = { "From", "To", "Cc" };
	struct hdr_addr_list list = HDR_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT, rest = STRBUF_INIT;
	char hex[PATCH_ID_HEXSZ + 1];
	struct subject_tags tags;
	char **ids = NULL;
	size_t n = 0, alloc = 0, i;
	int64_t t;

	if (!inmsg_text(m, "Subject", &sb)) {
		if (!utf8_valid(sb.buf, sb.len))
			BUG("a decoded Subject is not UTF-8");
		subject_parse(sb.buf, &tags, &rest);
	}
	for (i = 0; i < ARRAY_SIZE(addr_fields); i++) {
		size_t k, got = inmsg_addresses(m, addr_fields[i], &list);

		for (k = list.nr - got; k < list.nr; k++) {
			struct strbuf one = STRBUF_INIT, why = STRBUF_INIT;
			struct hdr_addr_list back = HDR_ADDR_LIST_INIT;

			/* robot writes these back into its Cc */
			hdr_format_mailbox(&one, list.v[k].display,
					   list.v[k].addr);
			if (hdr_parse_addresses(&back, one.buf, &why))
				BUG("a recipient robot read does not parse "
				    "back: %s",
				    why.buf);
			hdr_addr_list_release(&back);
			strbuf_release(&one);
			strbuf_release(&why);
		}
	}
	inmsg_msgids(m, "Message-ID", &ids, &n, &alloc);
	inmsg_msgids(m, "References", &ids, &n, &alloc);
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	inmsg_date(m, &t);
	strbuf_reset(&sb);
	if (!inmsg_body_text(m, &sb))
		patch_id_stable(sb.buf, sb.len, hex);
	hdr_addr_list_release(&list);
	strbuf_release(&sb);
	strbuf_release(&rest);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT, url = STRBUF_INIT;
	struct inmsg *msgs = NULL;
	size_t nr = 0, i;
	char *id;

	if (gz_magic(data, size)) {
		if (gunzip_mem(&text, data, size, 1 << 20) != GZ_OK)
			goto out;
	} else {
		strbuf_add(&text, data, size);
	}
	if (!mbox_split(&msgs, &nr, text.buf, text.len, &why))
		for (i = 0; i < nr; i++)
			read_message(&msgs[i]);
	mbox_release(msgs, nr);
	/* the bytes as a Link: trailer's URL */
	strbuf_add(&url, data, size < 4096 ? size : 4096);
	if (strlen(url.buf) == url.len) {
		id = lore_link_msgid(url.buf, "http://127.0.0.1/test/");
		if (id && (id[0] != '<' || id[strlen(id) - 1] != '>' ||
			   !strchr(id, '@')))
			BUG("lore_link_msgid gave '%s'", id);
		free(id);
	}
out:
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&url);
	return 0;
}
