// SPDX-License-Identifier: GPL-2.0-only
/*
 * encode.c: charset choice and the transfer and header encodings.
 *
 * A report is UTF-8 inside robot.  On the way out, text that fits
 * ISO-8859-1 is converted to it (0-day's mails say iso-8859-1 when a "±"
 * appears), pure ASCII stays us-ascii and anything else goes as UTF-8.
 * Bodies travel 7bit or 8bit; quoted-printable is only for a part with a
 * line over 998 bytes or a stray CR, which 8bit cannot carry (RFC 5322
 * §2.1.1, RFC 2045 §2.8).  Base64 is for binary attachments.
 *
 * We write our own quoted-printable encoder: libetpan 1.9.4's emits a blank
 * at the end of a line twice ("-- \n" becomes "-- =20"), which breaks the
 * "-- " signature delimiter.  libetpan has no RFC 2047 or RFC 2231
 * encoder at all.  Every function appends LF-terminated lines to a strbuf;
 * nothing here allocates outside it.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "mail/encode.h"

static const char hex_digits[] = "0123456789ABCDEF";

static void add_hex_escape(struct strbuf *out, int lead, unsigned char c)
{
	char esc[3] = { (char)lead, hex_digits[c >> 4], hex_digits[c & 15] };

	strbuf_add(out, esc, 3);
}

enum mime_charset mime_charset_of(const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp, max = 0;

	while (i < len) {
		/* ASCII, the common case, needs no decoding: below any max
		 * that decides the answer; eight bytes at a time while no
		 * byte is NUL or above 0x7f (a NUL borrows: the test then
		 * fails and the bytes go one at a time) */
		while (len - i >= 8) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if ((w | (w - UINT64_C(0x0101010101010101))) &
			    UINT64_C(0x8080808080808080))
				break;
			i += 8;
		}
		if (i == len)
			break;
		if ((unsigned char)s[i] - 1u < 0x7f) {
			i++;
			continue;
		}
		n = utf8_char(s + i, len - i, &cp);
		if (!n || !cp)
			return MIME_CS_BINARY;
		if (cp > max)
			max = cp;
		i += n;
	}
	if (max < 0x80)
		return MIME_CS_ASCII;
	return max <= 0xff ? MIME_CS_LATIN1 : MIME_CS_UTF8;
}

const char *mime_charset_name(enum mime_charset cs)
{
	switch (cs) {
	case MIME_CS_ASCII:
		return "us-ascii";
	case MIME_CS_LATIN1:
		return "iso-8859-1";
	case MIME_CS_UTF8:
		return "utf-8";
	case MIME_CS_BINARY:
		break;
	}
	return NULL;
}

void mime_to_latin1(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = utf8_char(s + i, len - i, &cp);
		if (!n || cp > 0xff)
			BUG("mime_to_latin1: text does not fit ISO-8859-1");
		strbuf_addch(out, (int)cp);
		i += n;
	}
}

size_t mime_longest_line(const char *s, size_t len)
{
	const char *end = s + len, *nl;
	size_t longest = 0;

	for (;;) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if ((size_t)((nl ? nl : end) - s) > longest)
			longest = (size_t)((nl ? nl : end) - s);
		if (!nl)
			return longest;
		s = nl + 1;
	}
}

/* RFC 2045 §6.7 (2): "!" through "~" stand for themselves, except "=" */
static int qp_literal(unsigned char c)
{
	return c >= 33 && c <= 126 && c != '=';
}

void mime_qp_encode(struct strbuf *out, const void *data, size_t len)
{
	const unsigned char *s = data;
	size_t col = 0, i, n, limit;
	int at_eol, literal;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = s[i];
		if (c == '\n') {
			/* RFC 2045 §6.7 (4): LF in the text is a hard break */
			strbuf_addch(out, '\n');
			col = 0;
			continue;
		}
		at_eol = i + 1 == len || s[i + 1] == '\n';
		/*
		 * §6.7 (3): a space or tab may stay literal unless it would
		 * end the encoded line; then it alone is encoded, once.  A
		 * soft break's "=" counts as a printable character after it.
		 */
		literal = qp_literal(c) || ((c == ' ' || c == '\t') && !at_eol);
		n = literal ? 1 : 3;
		/*
		 * §6.7 (5): encoded lines hold at most 76 characters.  All but
		 * the last token of a line must leave room for the "=" of a
		 * soft line break, and no =XX triplet is ever split.
		 */
		limit = at_eol ? 76 : 75;
		if (col + n > limit) {
			strbuf_addstr(out, "=\n");
			col = 0;
		}
		if (literal)
			strbuf_addch(out, c);
		else
			add_hex_escape(out, '=', c);
		col += n;
	}
}

void mime_base64_encode(struct strbuf *out, const void *data, size_t len)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = data;
	size_t i, col = 0;
	uint32_t v;
	char quad[4];

	for (i = 0; i < len; i += 3) {
		v = (uint32_t)s[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		quad[0] = b64[(v >> 18) & 63];
		quad[1] = b64[(v >> 12) & 63];
		quad[2] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		quad[3] = i + 2 < len ? b64[v & 63] : '=';
		strbuf_add(out, quad, 4);
		/* RFC 2045 §6.8: no more than 76 characters per line */
		col += 4;
		if (col == 76) {
			strbuf_addch(out, '\n');
			col = 0;
		}
	}
	if (col)
		strbuf_addch(out, '\n');
}

static int q_literal(enum mime_q_context ctx, unsigned char c)
{
	if (c >= '0' && c <= '9')
		return 1;
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return 1;
	if (ctx == MIME_Q_PHRASE)
		return c && strchr("!*+-/", c) != NULL;
	/* RFC 2047 §4.2 (3), §5 (1): printable ASCII but "=", "?", "_" */
	return c > 32 && c < 127 && c != '=' && c != '?' && c != '_';
}

/* The encoded length of the character at s, which is n bytes long. */
static size_t q_cost(enum mime_q_context ctx, const char *s, size_t n)
{
	size_t k, need = 0;
	unsigned char c;

	for (k = 0; k < n; k++) {
		c = (unsigned char)s[k];
		need += c == ' ' || q_literal(ctx, c) ? 1 : 3;
	}
	return need;
}

static void q_emit(struct strbuf *out, enum mime_q_context ctx, const char *s,
		   size_t n)
{
	size_t k;
	unsigned char c;

	for (k = 0; k < n; k++) {
		c = (unsigned char)s[k];
		if (c == ' ')
			strbuf_addch(out, '_'); /* RFC 2047 §4.2 (2) */
		else if (q_literal(ctx, c))
			strbuf_addch(out, c);
		else
			add_hex_escape(out, '=', c);
	}
}

/* The length in bytes of the UTF-8 character at s; BUG()s if invalid. */
static size_t char_len(const char *s, size_t len)
{
	uint32_t cp;
	size_t n = utf8_char(s, len, &cp);

	if (!n)
		BUG("mime_q_words: invalid UTF-8");
	return n;
}

/* The encoded length of the blanks and the word that start at s[i]. */
static size_t segment_cost(enum mime_q_context ctx, const char *s, size_t len,
			   size_t i, size_t *end)
{
	size_t need = 0, n;
	int seen_word = 0;

	while (i < len && (s[i] != ' ' || !seen_word)) {
		seen_word |= s[i] != ' ';
		n = char_len(s + i, len - i);
		need += q_cost(ctx, s + i, n);
		i += n;
	}
	*end = i;
	return need;
}

void mime_q_words(struct strbuf *out, const char *s, size_t len,
		  enum mime_q_context ctx)
{
	static const char open[] = "=?UTF-8?Q?";
	const size_t budget = MIME_EW_MAX - (sizeof(open) - 1) - 2;
	size_t i = 0, n, need, used = 0, seg_end = 0, seg;
	int in_word = 0;

	while (i < len) {
		/*
		 * Prefer to close a word before a blank, which then opens
		 * the next word as "_": a decoder that wrongly keeps the
		 * space between encoded-words (Python's, in display names)
		 * then only doubles a blank instead of splitting a name.
		 */
		if (i == seg_end) {
			seg = segment_cost(ctx, s, len, i, &seg_end);
			if (in_word && used + seg > budget && seg <= budget) {
				strbuf_addstr(out, "?= ");
				in_word = 0;
			}
		}
		n = char_len(s + i, len - i);
		need = q_cost(ctx, s + i, n);
		/* RFC 2047 §5: each encoded-word holds whole characters */
		if (in_word && used + need > budget) {
			strbuf_addstr(out, "?= ");
			in_word = 0;
		}
		if (!in_word) {
			strbuf_addstr(out, open);
			in_word = 1;
			used = 0;
		}
		q_emit(out, ctx, s + i, n);
		used += need;
		i += n;
	}
	if (in_word)
		strbuf_addstr(out, "?=");
}

void mime_rfc2231_value(struct strbuf *out, const char *s, size_t len)
{
	size_t i;
	unsigned char c;

	strbuf_addstr(out, "utf-8''");
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		/* RFC 2231 §7: attribute-char, i.e. no tspecials, "*'%" */
		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c && strchr("!#$&+-.^_`|~", c)))
			strbuf_addch(out, c);
		else
			add_hex_escape(out, '%', c);
	}
}
