/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd-json.h: the JSON objects compose and reply print with --json, one a
 * line (doc/commands.md lists their fields), written as robot queue
 * --json writes its listing (strbuf_add_json_string()).
 */
#ifndef ROBOT_CMD_JSON_H
#define ROBOT_CMD_JSON_H

struct composed;

/*
 * After queueing, from compose_queue()'s `said` ("<id>", "already queued:
 * <id>", "already sent: <id>"): {"event": "queued" | "already queued" |
 * "already sent", "message_id", "first", "corrects", "corrects_state",
 * "in_reply_to"}.  `corrects` (a --force correction's earlier copy, or
 * NULL) counts only when this one was queued.
 */
void json_said(const char *said, const char *message_id, const char *corrects,
	       const char *corrects_state, const char *in_reply_to);

/*
 * --dry-run: {"message_id", "bytes", "message" (the text when it is
 * UTF-8, else null), "message_base64" (the exact bytes, one line)}.
 */
void json_message(const struct composed *c);

/* {"event", "dir", "reason"}: reply --extract-patch, and not answered. */
void json_event(const char *event, const char *dir, const char *reason);

#endif
