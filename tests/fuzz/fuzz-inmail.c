// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-inmail.c: the incoming-mail parser on any bytes, as robot reply
 * and robot inbox read a follow-up: the header (mail/inmsg.h), the MIME
 * parts and their decoding (mail/inmime.h), the names and dates robot
 * takes from them (robot/incoming/followup.h), the patch it looks for
 * (robot/incoming/patch.h, links not followed) and the quote it would write
 * (robot/kinds/reply/reply.h).
 */
#include "robot/util/common.h"
#include "robot/incoming/followup.h"
#include "tests/fuzz/fuzz.h"
#include "robot/incoming/patch.h"
#include "robot/kinds/reply/reply.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT,
		      name = STRBUF_INIT;
	struct patch_found p;
	struct followup f;

	if (!followup_parse(&f, "mail.eml", (const char *)data, size)) {
		followup_first_name(&f, &name);
		/* both splits: without their patch, and quoted whole */
		reply_quote_split(f.text, 0, &head, &tail);
		strbuf_reset(&head);
		strbuf_reset(&tail);
		reply_quote_split(f.text, 1, &head, &tail);
		patch_find(&p, &f, NULL);
		patch_found_release(&p);
	}
	followup_release(&f);
	strbuf_release(&head);
	strbuf_release(&tail);
	strbuf_release(&name);
	return 0;
}
