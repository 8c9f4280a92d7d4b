// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-json.c: the JSON objects of compose --json and reply --json.
 */
#include "robot/util/common.h"
#include "robot/cmd-json.h"
#include "robot/report/compose.h"
#include "mail/encode.h"

static void put(struct strbuf *out)
{
	strbuf_addstr(out, "}\n");
	fwrite(out->buf, 1, out->len, stdout);
	strbuf_release(out);
}

void json_said(const char *said, const char *message_id, const char *corrects,
	       const char *corrects_state, const char *in_reply_to)
{
	struct strbuf out = STRBUF_INIT;
	const char *colon = strstr(said, ": ");
	int already = !strncmp(said, "already ", 8) && colon != NULL;

	if (already)
		corrects = NULL;
	strbuf_addstr(&out, "{\"event\": ");
	if (already) {
		char *ev = xstrndup(said, (size_t)(colon - said));

		strbuf_add_json_string(&out, ev);
		free(ev);
	} else {
		strbuf_add_json_string(&out, "queued");
	}
	strbuf_addstr(&out, ", \"message_id\": ");
	strbuf_add_json_string(&out, message_id);
	strbuf_addstr(&out, ", \"first\": ");
	strbuf_add_json_string(&out, already ? colon + 2 : NULL);
	strbuf_addstr(&out, ", \"corrects\": ");
	strbuf_add_json_string(&out, corrects);
	strbuf_addstr(&out, ", \"corrects_state\": ");
	strbuf_add_json_string(&out, corrects ? corrects_state : NULL);
	strbuf_addstr(&out, ", \"in_reply_to\": ");
	strbuf_add_json_string(&out, in_reply_to);
	put(&out);
}

void json_message(const struct composed *c)
{
	struct strbuf out = STRBUF_INIT, b64 = STRBUF_INIT;
	int text =
		mime_charset_of(c->bytes.buf, c->bytes.len) != MIME_CS_BINARY;
	size_t i;

	mime_base64_encode(&b64, c->bytes.buf, c->bytes.len);
	strbuf_addstr(&out, "{\"message_id\": ");
	strbuf_add_json_string(&out, c->message_id);
	strbuf_addf(&out, ", \"bytes\": %zu, \"message\": ", c->bytes.len);
	strbuf_add_json_string(&out, text ? c->bytes.buf : NULL);
	strbuf_addstr(&out, ", \"message_base64\": \"");
	for (i = 0; i < b64.len; i++)
		if (b64.buf[i] != '\n')
			strbuf_addch(&out, b64.buf[i]);
	strbuf_addch(&out, '"');
	strbuf_release(&b64);
	put(&out);
}

void json_event(const char *event, const char *dir, const char *reason)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_addstr(&out, "{\"event\": ");
	strbuf_add_json_string(&out, event);
	strbuf_addstr(&out, ", \"dir\": ");
	strbuf_add_json_string(&out, dir);
	strbuf_addstr(&out, ", \"reason\": ");
	strbuf_add_json_string(&out, reason);
	put(&out);
}
