/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * valid.h: one validator for each kind of value that ends up in a mail,
 * used by every field of that kind: the request's and the configuration's
 * keys (config/schema.c), commit metadata that becomes a header (the
 * author as To), and the header and MIME code itself (mail/header.c,
 * mail/msg.c), so a value refused in one place is refused everywhere.
 *
 *   kind           accepts                            used for
 *   addr-spec      local@domain: a dot-atom local     every address
 *                  part, a host name of letters,
 *                  digits and inner hyphens
 *   mailbox        exactly one addr-spec, bare, in    from, reported_by,
 *                  <>, or after a display name        each to/cc item
 *   mailbox list   mailboxes separated by commas      From/To/Cc headers
 *   display name   visible text                       names in mailboxes
 *   msg-id         <dot-atom-text@dot-atom-text> or   message_id,
 *                  <dot-atom-text@[dtext]>            in_reply_to
 *   file name      a base name of visible text,       attachment names
 *                  1 to 255 bytes
 *
 * Visible text is robot/util/utf8.h's utf8_check_text(): valid UTF-8 without
 * control or invisible characters (bidi controls, zero-width characters,
 * the BOM...).  An address or id holding "=?" is refused: mail readers
 * decode an encoded-word lookalike wherever it appears, even inside an
 * address, and robot cannot encode it there.  In display names, the
 * Subject and file names robot encodes such text itself (RFC 2047, RFC
 * 2231), so it reads back as written.
 *
 * Each returns 0, or -1 with the reason appended to `why` (NULL: not
 * wanted); none prints anything.
 */
#ifndef ROBOT_MAIL_VALID_H
#define ROBOT_MAIL_VALID_H

#include <stddef.h>

struct strbuf;

int valid_addr_spec(const char *s, size_t len, struct strbuf *why);
int valid_display_name(const char *s, struct strbuf *why);
int valid_mailbox(const char *s, struct strbuf *why);
int valid_mailbox_list(const char *s, struct strbuf *why);
int valid_msgid(const char *s, size_t len, struct strbuf *why);
int valid_file_name(const char *s, struct strbuf *why);

/* The longest file name robot attaches or publishes (a common NAME_MAX). */
#define VALID_FILE_NAME_MAX 255

#endif
