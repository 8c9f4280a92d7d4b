/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inmime.h: the MIME structure of a mail others wrote (mail/inmsg.h reads
 * its header), checked and flattened into parts robot can use: a follow-up
 * to a report carries its patch inline, attached, or behind a link.
 *
 * libetpan reads anything: a multipart without a boundary becomes one text
 * part, a boundary that never occurs swallows the mail.  robot answers a
 * mail only when it understands it, so inmime_parse() refuses, with one
 * reason:
 *
 *   - a mail larger than the limit (checked before it is read, by
 *     inmsg_read_file);
 *   - a Content-Type that does not parse, a multipart without boundary,
 *     whose boundary never starts a line, or that lacks its closing
 *     delimiter;
 *   - a Content-Transfer-Encoding other than 7bit, 8bit, binary,
 *     quoted-printable and base64, or base64 text with other characters;
 *   - more than INMIME_MAX_PARTS parts, or nesting deeper than
 *     INMIME_MAX_DEPTH (multiparts and attached messages), found in one
 *     pass over the text before libetpan parses it, so that the time
 *     stays linear in the mail's size (inmime_check_nesting).
 *
 * Line ends may be LF or CRLF.  The parts are the leaves of the tree in
 * mail order, their transfer encoding undone; a message/rfc822 part is a
 * leaf holding the inner message.
 */
#ifndef ROBOT_MAIL_INMIME_H
#define ROBOT_MAIL_INMIME_H

#include <stddef.h>
#include <stdint.h>

struct inmsg;
struct strbuf;

#define INMIME_MAX_PARTS 256
#define INMIME_MAX_DEPTH 16
/* The default size limit of a mail robot reads (bytes). */
#define INMAIL_MAX_BYTES (16u << 20)

struct inpart {
	char *type;	/* "text/plain", lower case */
	char *charset;	/* lower case, or NULL */
	char *filename; /* the decoded file name, or NULL */
	int attachment; /* Content-Disposition: attachment */
	char *data;	/* the decoded bytes, NUL-terminated (not counted) */
	size_t len;
};

struct inmime {
	struct inpart *v;
	size_t n, alloc;
};

/*
 * Reads and parses the mail file `path`, refusing one larger than
 * `max_bytes` before reading it (and a file with NUL bytes in its
 * header).  Returns 0, or -1 with the reason in `why`; errno is set when
 * the file could not be read (why says so too).
 */
int inmsg_read_file(struct inmsg *m, const char *path, size_t max_bytes,
		    struct strbuf *why);

/*
 * The parts of `m` (see above).  Returns 0, or -1 with the reason in
 * `why` (out empty).  Release with inmime_release() either way.
 */
int inmime_parse(struct inmime *out, const struct inmsg *m, struct strbuf *why);
void inmime_release(struct inmime *mm);

/*
 * The nesting and part limits of raw[0..len) (a whole mail), checked in
 * one pass before any MIME parser reads it: libetpan's costs the mail's
 * size times its depth.  Returns 0, or -1 with the reason in `why`.
 * inmime_parse() and inmsg_body_text() call it first.
 */
int inmime_check_nesting(const char *raw, size_t len, struct strbuf *why);

/*
 * The Date field as seconds since the epoch and its zone in minutes east
 * of UTC ("-0800": -480).  Returns 0, or -1 without a Date that parses.
 */
int inmsg_date_zone(const struct inmsg *m, int64_t *t, int *tz);

/* Whether the part is text (text/ *, or no type). */
int inpart_is_text(const struct inpart *p);

/*
 * Appends the part's bytes as UTF-8 text with LF line ends: converted
 * from its charset (bytes that are no valid UTF-8 and name no charset are
 * taken as ISO-8859-1).
 */
void inpart_text(const struct inpart *p, struct strbuf *out);

#endif
