/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msg.h: a mail message as robot builds it, and its rendering to the exact
 * bytes of RFC 5322 + MIME with LF line ends (the spool's form).
 *
 * A message is an ordered list of headers (UTF-8 values, rendered in the
 * order given, with the caller's spelling of each name), a UTF-8 text body
 * and any number of attachments.  With no attachment it renders as one
 * text/plain entity; with attachments as multipart/mixed (RFC 2046 §5.1),
 * the body first, then the attachments in the order added.
 *
 * Charsets and transfer encodings (see mail/encode.c):
 *   body:        us-ascii 7bit, else iso-8859-1 8bit (converted) when every
 *                character fits Latin-1, else utf-8 8bit
 *   attachments: bytes kept as they are; us-ascii 7bit or utf-8 8bit for
 *                text, base64 for binary (a NUL byte or invalid UTF-8)
 *   any text with a line over 998 bytes or a CR goes quoted-printable.
 *
 * Everything is owned by the struct: the add/set functions copy their
 * arguments, msg_release() frees it all.
 */
#ifndef ROBOT_MAIL_MSG_H
#define ROBOT_MAIL_MSG_H

#include <stddef.h>

struct strbuf;

struct msg_header {
	char *name;
	char *value; /* UTF-8, unfolded, no CR/LF/NUL */
};

/* An attachment. */
struct msg_part {
	char *filename;	    /* UTF-8 */
	char *content_type; /* "type/subtype"; NULL picks a default */
	char *data;	    /* len bytes (plus a NUL not counted) */
	size_t len;
};

struct msg {
	struct msg_header *headers; /* rendered in this order */
	size_t nheaders, alloc_h;
	char *body; /* UTF-8 text, LF line ends */
	size_t body_len;
	int flowed; /* the text is format=flowed (RFC 3676), stuffed */
	struct msg_part *parts; /* attachments; none = single part */
	size_t nparts, alloc_p;
	/*
	 * The multipart boundary, or NULL to derive one from a hash of the
	 * content, so the same message always renders to the same bytes.
	 */
	char *boundary;
};

void msg_init(struct msg *m);
void msg_release(struct msg *m);

/*
 * Appends a header.  Returns -1 after error() for a bad name (RFC 5322
 * §3.6.8), a value with CR, LF, NUL or another control character but TAB,
 * invalid UTF-8, a value that does not parse for its kind (addresses,
 * message ids, see mail/header.h), a second Subject/Date/From/To/Cc/
 * Message-ID..., or a MIME header (robot writes those itself).
 */
int msg_add_header(struct msg *m, const char *name, const char *value);
/* The same for a value of `len` bytes, which may hold a NUL (refused). */
int msg_add_header_len(struct msg *m, const char *name, const char *value,
		       size_t len);

/* Sets the body (copied).  Returns -1 after error() unless UTF-8 text. */
int msg_set_body(struct msg *m, const char *text, size_t len);

/*
 * Sets the boundary (copied): 1 to 70 characters of RFC 2046 §5.1.1
 * bchars, not ending in a space.  Returns -1 after error() otherwise.
 */
int msg_set_boundary(struct msg *m, const char *boundary);

/*
 * Appends an attachment (copied).  `filename` must be a base name of
 * visible text, 1 to 255 bytes (valid_file_name()); `content_type` NULL (=
 * text/plain for text, application/octet-stream for binary data) or a
 * bare "type/subtype" of RFC 2045 §5.1 tokens.  Returns -1 after error().
 */
int msg_add_part(struct msg *m, const char *filename, const char *content_type,
		 const void *data, size_t len);

/*
 * Appends the message to out: the headers (folded), MIME-Version,
 * Content-Type, Content-Transfer-Encoding, a blank line, then the body or
 * the multipart entities; LF line ends, no dot-stuffing.  Returns 0, or -1
 * after error() with out unchanged: a header that fails its check, an
 * empty body, an injected boundary that is invalid or occurs in a part, a
 * header line over 998 bytes.
 */
int msg_render(struct strbuf *out, const struct msg *m);

/*
 * The one place where LF becomes CRLF (RFC 5322 §2.1), as the bytes go to
 * libcurl: a reader of lf_bytes with every LF not already preceded by a
 * CR turned into CRLF, read in pieces of any size (libcurl's read
 * callback), so that no second copy of the message is made.  `size` is
 * the length of what it gives in all.  libcurl does the dot-stuffing and
 * the final ".", so this does neither.
 */
struct msg_crlf {
	const char *lf;
	size_t len, off, size;
	int lf_pending; /* a CR was given, its LF not yet */
};

void msg_crlf_init(struct msg_crlf *c, const char *lf_bytes, size_t len);
/* Up to n bytes into buf; 0 at the end. */
size_t msg_crlf_read(struct msg_crlf *c, char *buf, size_t n);

#endif
