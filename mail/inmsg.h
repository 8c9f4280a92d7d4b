/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inmsg.h: mail that others wrote, as robot reads it: an mbox split into
 * messages, and a message's header fields and text, decoded to UTF-8.
 *
 * robot's own mails are built by msg.h; these are the mails it answers
 * and looks up (a public-inbox archive's answers, a follow-up to a
 * report).  Reading is lenient where mail in the wild is (folded and
 * encoded headers, any charset, quoted-printable or base64 text) and
 * strict where robot relies on the content: a message needs a header
 * block, and an mbox must start with a "From " line.
 *
 * The raw bytes stay as they came (CRLF or LF); decoded values are UTF-8
 * (libetpan does RFC 2047 words, transfer encodings and charsets).
 */
#ifndef ROBOT_MAIL_INMSG_H
#define ROBOT_MAIL_INMSG_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct hdr_addr_list;

struct inmsg_field {
	char *name;  /* as written */
	char *value; /* unfolded: line breaks of folding removed, raw bytes */
};

struct inmsg {
	struct inmsg_field *f;
	size_t nr, alloc;
	char *raw; /* the whole message (headers, blank line, body) */
	size_t raw_len;
	size_t body_off; /* where the body starts in raw */
};

/*
 * Parses one message raw[0..len) (copied).  Returns 0, or -1 with the
 * reason appended to `why` (no header field at the start, a header line
 * that is not "Name: value"), nothing printed.
 */
int inmsg_parse(struct inmsg *m, const char *raw, size_t len,
		struct strbuf *why);
void inmsg_release(struct inmsg *m);

/* The first field `name` (case-insensitive), unfolded and raw, or NULL. */
const char *inmsg_get(const struct inmsg *m, const char *name);

/*
 * Appends the field as UTF-8 text: RFC 2047 encoded-words decoded, blanks
 * squeezed to single spaces and trimmed.  Returns 0, or -1 when there is
 * no such field (out unchanged).
 */
int inmsg_text(const struct inmsg *m, const char *name, struct strbuf *out);

/*
 * The Message-IDs of a field ("<a@b> <c@d>"), with their angle brackets,
 * in order, appended to ids[*nr]; text around and between them is
 * ignored.  Returns how many were added.
 */
size_t inmsg_msgids(const struct inmsg *m, const char *name, char ***ids,
		    size_t *nr, size_t *alloc);

/*
 * Appends the mailboxes of an address field (From, To, Cc) with their
 * display names decoded; groups are flattened, an address robot cannot
 * write back (mail/header.h) is left out.  Returns how many were added
 * (0 for no or an unparsable field).
 */
size_t inmsg_addresses(const struct inmsg *m, const char *name,
		       struct hdr_addr_list *out);

/* The Date field as seconds since the epoch.  Returns 0, or -1. */
int inmsg_date(const struct inmsg *m, int64_t *t);

/*
 * Appends the message's text: its first text/plain part (the body itself
 * for a message that is not multipart) with the transfer encoding undone
 * and converted to UTF-8 from its charset.  Returns 0, or -1 when the
 * message has no text part.
 */
int inmsg_body_text(const struct inmsg *m, struct strbuf *out);

/*
 * Splits an mbox (mboxrd or mboxo: messages after "From " lines; one ">"
 * is removed from ">From " lines of an mboxrd body) into *msgs[*nr].
 * Returns 0, or -1 with the reason in `why` (text that does not start
 * with "From ", a message that does not parse), *msgs empty then.  An
 * empty text is an empty mbox.
 */
int mbox_split(struct inmsg **msgs, size_t *nr, const char *text, size_t len,
	       struct strbuf *why);
void mbox_release(struct inmsg *msgs, size_t nr);

#endif
