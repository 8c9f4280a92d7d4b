/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * header.h: one header field, from a UTF-8 value to the folded ASCII lines
 * of a mail.  The caller's spelling of the name is kept ("CC:" stays
 * "CC:").  What a value means depends on the name:
 *
 *   From, To, Cc, Bcc, Reply-To, Sender    address lists ("a, b, c")
 *   Message-ID                             one <id@host>
 *   In-Reply-To, References                <id@host> ids separated by blanks
 *   Date                                   printable ASCII, kept as given
 *   MIME-Version, Content-*                refused: msg_render() writes them
 *   anything else                          unstructured text (RFC 2047)
 *
 * Values never carry CR, LF, NUL, other control characters but TAB or
 * invisible characters, and are valid UTF-8.
 */
#ifndef ROBOT_MAIL_HEADER_H
#define ROBOT_MAIL_HEADER_H

#include <stddef.h>

struct strbuf;

/*
 * Folded lines stay below this column where a blank allows it: 0-day's
 * mailer breaks "...ops_per_sec 3.4%" (78 characters) before " 3.4%" and
 * a 78-character CC line before its last address (RFC 5322 §2.1.1 says
 * SHOULD 78).  A line holding an encoded-word stops one column earlier
 * (RFC 2047 §2: 76 characters).  A TAB advances to the next multiple of 8.
 */
#define HDR_FOLD_COLUMN 78
/* RFC 5322 §2.1.1: no line may be longer than 998 characters. */
#define HDR_LINE_MAX 998

enum hdr_kind {
	HDR_TEXT,
	HDR_ADDRESS,
	HDR_DATE,
	HDR_MSGID,
	HDR_MSGIDS,
	HDR_RESERVED,
};

/* The kind of header `name` is (compared case-insensitively). */
enum hdr_kind hdr_kind_of(const char *name);
/* 1 if RFC 5322 §3.6 allows at most one field called `name`. */
int hdr_is_singleton(const char *name);

/*
 * Checks the name (RFC 5322 §3.6.8 ftext) and the value bytes
 * value[0..len): one line of UTF-8 without control or invisible
 * characters (robot/util/utf8.h), valid for the header's kind (mail/valid.h:
 * a mailbox list, or exactly one mailbox for From and Sender; one
 * msg-id, a list of them), and short enough to fold into lines of at
 * most HDR_LINE_MAX bytes.  Returns 0, or -1 with the reason appended to
 * `why` (nothing printed).
 */
int hdr_validate(const char *name, const char *value, size_t len,
		 struct strbuf *why);
/* hdr_validate(), the reason printed with error().  Returns 0 or -1. */
int hdr_check(const char *name, const char *value, size_t len);

/*
 * Appends "name: value" as folded lines, each ended by LF: non-ASCII text
 * and display names, and words holding "=?", become RFC 2047
 * encoded-words, other display names with specials are quoted (RFC 5322
 * §3.2.4), lines are folded before blanks
 * (RFC 5322 §2.2.3), address lists after their commas with a TAB.
 * Returns 0, or -1 after error() (the value is checked first).
 */
int hdr_render(struct strbuf *out, const char *name, const char *value);

/*
 * Appends "name: value" for an ASCII value that needs no encoding (the
 * MIME headers), folded before blanks like unstructured text.
 */
void hdr_render_raw(struct strbuf *out, const char *name, const char *value);

/* One address: `display` (UTF-8, unquoted; NULL for none) and `addr`. */
struct hdr_addr {
	char *display;
	char *addr;
	int angle;  /* written as <addr> */
	int quoted; /* the name was written as a quoted-string */
};

struct hdr_addr_list {
	struct hdr_addr *v;
	size_t nr, alloc;
};

#define HDR_ADDR_LIST_INIT \
	{                  \
		NULL, 0, 0 \
	}

void hdr_addr_list_release(struct hdr_addr_list *list);

/*
 * Parses an (unfolded) address list strictly: comma-separated
 * `addr@domain`, `<addr@domain>`, `Name <addr@domain>` or
 * `"Quoted, Name" <addr@domain>`; no groups, no comments, each address
 * valid_addr_spec() (mail/valid.h).  Returns 0 with the addresses
 * appended to list, or -1 with the reason appended to `why` (nothing
 * printed).
 */
int hdr_parse_addresses(struct hdr_addr_list *list, const char *value,
			struct strbuf *why);

/*
 * Appends "display <addr>" as one mailbox that hdr_parse_addresses() reads
 * back as (display, addr): the name is quoted, its quotes and backslashes
 * escaped, when it holds anything but atext, non-ASCII characters and
 * single blanks (a comma, say).  `display` NULL or empty: "<addr>".
 */
void hdr_format_mailbox(struct strbuf *out, const char *display,
			const char *addr);

#endif
