/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * envelope.h: what delivery needs from a finished message, read from its
 * header section: the Message-ID, the sender and the recipients.
 *
 * The message has LF line ends (the spool's form).  Fields are found by
 * name, case-insensitively, and unfolded (RFC 5322 §2.2.3).  Addresses
 * are parsed with the strict parser of mail/header.h.  The recipients
 * are those of To, Cc and Bcc, each once, in that order; Bcc fields are
 * removed from the bytes that leave robot (envelope_strip_bcc()).
 */
#ifndef ROBOT_MAIL_ENVELOPE_H
#define ROBOT_MAIL_ENVELOPE_H

#include <stddef.h>

struct strbuf;

struct envelope {
	char *message_id; /* "<left@right>" */
	char *from;	  /* the From address, "user@host" */
	char *subject;	  /* the Subject field unfolded, as written; or NULL */
	char **rcpt;	  /* "user@host", To then Cc then Bcc */
	size_t nrcpt;
	int has_bcc;
};

/*
 * Reads the envelope of msg[0..len).  Returns 0, or -1 with the reason in
 * `why` (nothing printed): no Message-ID or a bad one, no From or one that
 * is not one address, a To/Cc/Bcc that does not parse, no recipient at
 * all, a second Message-ID or From.
 */
int envelope_read(struct envelope *e, const char *msg, size_t len,
		  struct strbuf *why);
void envelope_release(struct envelope *e);

/* Appends msg[0..len) without its Bcc fields (continuation lines too). */
void envelope_strip_bcc(struct strbuf *out, const char *msg, size_t len);

/*
 * The value of the first field called `name` in the header section,
 * unfolded and without the blanks around it, appended to `out`.
 * Returns 0, or -1 when there is no such field.
 */
int envelope_field(const char *msg, size_t len, const char *name,
		   struct strbuf *out);

/* Appends msg[0..len) with every CRLF turned into LF. */
void envelope_to_lf(struct strbuf *out, const char *msg, size_t len);

#endif
