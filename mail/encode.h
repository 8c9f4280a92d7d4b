/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * encode.h: the byte-level encodings of a mail, as pure functions that
 * append to a strbuf: UTF-8 checks and the charset choice, UTF-8 to
 * ISO-8859-1, quoted-printable (RFC 2045 §6.7), base64 (RFC 2045 §6.8),
 * RFC 2047 "Q" encoded-words and RFC 2231 parameter values.
 *
 * Output uses LF line ends; msg_crlf_read() (mail/msg.h) is the one place
 * that turns them into CRLF.  Nothing here prints or fails: callers check
 * their input first (mime_charset_of() tells text from binary).
 */
#ifndef ROBOT_MAIL_ENCODE_H
#define ROBOT_MAIL_ENCODE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * The longest encoded-word we write.  RFC 2047 §2 allows 75 characters;
 * we stop at 64 so that a header name of up to 12 characters, ": " and one
 * encoded-word still fit in 78 columns (RFC 5322 §2.1.1).
 */
#define MIME_EW_MAX 64

/* What a piece of text needs in order to travel as a text/plain part. */
enum mime_charset {
	MIME_CS_ASCII,	/* only bytes below 0x80: "us-ascii" */
	MIME_CS_LATIN1, /* valid UTF-8, every code point <= U+00FF */
	MIME_CS_UTF8,	/* valid UTF-8 beyond U+00FF */
	MIME_CS_BINARY, /* a NUL byte or invalid UTF-8: not text */
};

/* The charset s[0..len) needs (UTF-8 checks: robot/util/utf8.h). */
enum mime_charset mime_charset_of(const char *s, size_t len);
/* The MIME charset name ("us-ascii", ...); NULL for MIME_CS_BINARY. */
const char *mime_charset_name(enum mime_charset cs);

/*
 * Appends s, which mime_charset_of() classed as MIME_CS_ASCII or
 * MIME_CS_LATIN1, as ISO-8859-1 bytes.  BUG()s on anything else.
 */
void mime_to_latin1(struct strbuf *out, const char *s, size_t len);

/* The length in bytes of the longest line of s, LF not counted. */
size_t mime_longest_line(const char *s, size_t len);

/*
 * Quoted-printable, RFC 2045 §6.7: LF in the data is a hard line break,
 * encoded lines are at most 76 characters, and a blank is encoded (once)
 * only where it would end an encoded line.
 */
void mime_qp_encode(struct strbuf *out, const void *data, size_t len);

/* Base64, RFC 2045 §6.8: lines of 76 characters, each ended by LF. */
void mime_base64_encode(struct strbuf *out, const void *data, size_t len);

/*
 * Where an encoded-word goes decides which characters may stay literal
 * (RFC 2047 §5): in unstructured text (Subject) every printable ASCII
 * character but "=", "?" and "_"; in a phrase (a display name) only
 * letters, digits and "!*+-/".
 */
enum mime_q_context { MIME_Q_TEXT, MIME_Q_PHRASE };

/*
 * Appends the UTF-8 text s[0..len) as one or more "=?UTF-8?Q?...?="
 * encoded-words separated by single spaces, each at most MIME_EW_MAX long
 * and each holding whole characters (RFC 2047 §5).  A space becomes "_".
 * The input must be valid UTF-8.
 */
void mime_q_words(struct strbuf *out, const char *s, size_t len,
		  enum mime_q_context ctx);

/* RFC 2231 §4 extended value: "utf-8''" then %XX for all but attribute-char. */
void mime_rfc2231_value(struct strbuf *out, const char *s, size_t len);

#endif
