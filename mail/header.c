// SPDX-License-Identifier: GPL-2.0-only
/*
 * header.c: render one header field strictly: check the value, encode
 * what is not ASCII, then fold.
 *
 * Encoding (RFC 2047).  Only runs of words holding non-ASCII bytes (or
 * "=?", which a decoder would take for an encoded-word) become "Q"
 * encoded-words, blanks inside a run as "_"; ASCII words and the blanks
 * around a run stay literal and survive decoding (§6.2).  A display name
 * gets the same treatment when its ASCII words are atoms (§5 (3)), like
 * Python's email package writes it; else it is encoded whole.  An ASCII
 * name with specials is quoted (RFC 5322 §3.2.4, §3.4).
 *
 * Folding (RFC 5322 §2.2.3) only inserts a line break before an existing
 * blank, before the first blank of a run, so no line ends in a blank a
 * tool might strip: "[x86]  20f3" keeps its two blanks.  Address lists
 * fold after a comma and go on with a TAB, as 0-day's mailer does.
 *
 * libetpan's writer was rejected: it folds at 72 columns, pushes an
 * over-long first word to a new line and writes display names raw.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "mail/header.h"
#include "mail/encode.h"
#include "mail/valid.h"

#include <strings.h>

/* The fields RFC 5322 §3.6 allows at most once, and MIME-Version. */
static const struct {
	const char *name;
	enum hdr_kind kind;
} hdr_table[] = {
	{ "Date", HDR_DATE },		  /* RFC 5322 §3.6.1 */
	{ "From", HDR_ADDRESS },	  /* §3.6.2 */
	{ "Sender", HDR_ADDRESS },	  /* §3.6.2 */
	{ "Reply-To", HDR_ADDRESS },	  /* §3.6.2 */
	{ "To", HDR_ADDRESS },		  /* §3.6.3 */
	{ "Cc", HDR_ADDRESS },		  /* §3.6.3 */
	{ "Bcc", HDR_ADDRESS },		  /* §3.6.3 */
	{ "Message-ID", HDR_MSGID },	  /* §3.6.4 */
	{ "In-Reply-To", HDR_MSGIDS },	  /* §3.6.4 */
	{ "References", HDR_MSGIDS },	  /* §3.6.4 */
	{ "Subject", HDR_TEXT },	  /* §3.6.5 */
	{ "MIME-Version", HDR_RESERVED }, /* RFC 2045 §4 */
};

enum hdr_kind hdr_kind_of(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hdr_table); i++)
		if (!strcasecmp(name, hdr_table[i].name))
			return hdr_table[i].kind;
	/* RFC 2045 §9: all Content-* fields belong to the MIME structure */
	if (!strncasecmp(name, "Content-", 8))
		return HDR_RESERVED;
	return HDR_TEXT;
}

int hdr_is_singleton(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hdr_table); i++)
		if (!strcasecmp(name, hdr_table[i].name))
			return 1;
	return 0;
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* RFC 5322 §3.2.3 atext */
static int is_atext(int c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c && strchr("!#$%&'*+-/=?^_`{|}~", c) != NULL;
}

static int is_ascii(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/* The ids of s[0..len), separated by blanks, each valid_msgid(). */
static int check_msgids(const char *s, size_t len, int just_one,
			struct strbuf *why)
{
	size_t i = 0, start, n = 0;

	while (i < len) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		if (valid_msgid(s + start, i - start, why))
			return -1;
		n++;
	}
	if (just_one ? n == 1 : n >= 1)
		return 0;
	strbuf_addf(why, "'%.*s' is not %s", (int)len, s,
		    just_one ? "one <id@host>" : "a list of <id@host>");
	return -1;
}

static int check_name(const char *name)
{
	const char *p;

	if (!*name)
		return 0;
	/* RFC 5322 §3.6.8: ftext is printable ASCII except ":" */
	for (p = name; *p; p++)
		if ((unsigned char)*p < 33 || (unsigned char)*p > 126 ||
		    *p == ':')
			return 0;
	return 1;
}

/* 1 if s prints on one line: UTF-8 without control characters */
static int is_printable(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if ((unsigned char)*p < 32 || *p == 127)
			return 0;
	return utf8_valid(s, p - s);
}

/* The bytes of any value: one line of UTF-8 without hidden text. */
static int check_bytes(const char *value, size_t len, struct strbuf *why)
{
	size_t i, n;
	unsigned char c;
	uint32_t cp;

	for (i = 0; i < len; i++) {
		c = (unsigned char)value[i];
		if (!c) {
			strbuf_addstr(why, "value contains a NUL byte");
			return -1;
		}
		if (c == '\r' || c == '\n') {
			strbuf_addstr(why, "value contains a line break");
			return -1;
		}
		if ((c < 32 && c != '\t') || c == 127) {
			strbuf_addf(why,
				    "value contains control character "
				    "0x%02x",
				    c);
			return -1;
		}
	}
	for (i = 0; i < len; i += n) {
		n = utf8_char(value + i, len - i, &cp);
		if (!n) {
			strbuf_addstr(why, "value is not valid UTF-8");
			return -1;
		}
		if (utf8_is_control(cp) && cp != '\t') {
			strbuf_addf(why,
				    "value contains control character "
				    "U+%04lX",
				    (unsigned long)cp);
			return -1;
		}
		if (utf8_is_invisible(cp)) {
			strbuf_addf(why,
				    "value contains an invisible "
				    "character (U+%04lX)",
				    (unsigned long)cp);
			return -1;
		}
	}
	return 0;
}

/* From and Sender name one author, RFC 5322 §3.6.2 (robot: From too) */
static int one_mailbox(const char *name)
{
	return !strcasecmp(name, "From") || !strcasecmp(name, "Sender");
}

static int check_kind(const char *name, const char *value, size_t len,
		      struct strbuf *why)
{
	switch (hdr_kind_of(name)) {
	case HDR_ADDRESS:
		return one_mailbox(name) ? valid_mailbox(value, why)
					 : valid_mailbox_list(value, why);
	case HDR_DATE:
		if (is_ascii(value, len) && len)
			return 0;
		strbuf_addstr(why, "value is not an ASCII date");
		return -1;
	case HDR_MSGID:
	case HDR_MSGIDS:
		return check_msgids(value, len, hdr_kind_of(name) == HDR_MSGID,
				    why);
	case HDR_RESERVED:
		strbuf_addstr(why, "is written by robot itself");
		return -1;
	case HDR_TEXT:
		break;
	}
	return 0;
}

static void render_field(struct strbuf *out, const char *name,
			 const char *value);

/* RFC 5322 §2.1.1: the folded field must have no line over 998 bytes. */
static int check_length(const char *name, const char *value, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	size_t longest;

	render_field(&sb, name, value);
	longest = mime_longest_line(sb.buf, sb.len);
	strbuf_release(&sb);
	if (longest <= HDR_LINE_MAX)
		return 0;
	strbuf_addf(why,
		    "a line of %zu bytes, over %d: the value has a word too "
		    "long to fold",
		    longest, HDR_LINE_MAX);
	return -1;
}

int hdr_validate(const char *name, const char *value, size_t len,
		 struct strbuf *why)
{
	if (!check_name(name)) {
		strbuf_addf(why, "invalid header name '%s'",
			    is_printable(name) ? name : "(unprintable)");
		return -1;
	}
	if (check_bytes(value, len, why) || check_kind(name, value, len, why))
		return -1;
	return check_length(name, value, why);
}

int hdr_check(const char *name, const char *value, size_t len)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (hdr_validate(name, value, len, &why)) {
		if (!check_name(name))
			ret = error("%s", why.buf);
		else if (hdr_kind_of(name) == HDR_RESERVED)
			ret = error("header '%s' %s", name, why.buf);
		else
			ret = error("header '%s': %s", name, why.buf);
	}
	strbuf_release(&why);
	return ret;
}

/* ---- addresses ---- */

void hdr_addr_list_release(struct hdr_addr_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		free(list->v[i].display);
		free(list->v[i].addr);
	}
	free(list->v);
	list->v = NULL;
	list->nr = list->alloc = 0;
}

static void trim(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && is_blank(s[*b]))
		(*b)++;
	while (*e > *b && is_blank(s[*e - 1]))
		(*e)--;
}

/* Unquotes the RFC 5322 §3.2.4 quoted-string s[b..e) into a new string. */
static char *unquote(const char *s, size_t b, size_t e, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (e - b < 2 || s[e - 1] != '"')
		goto bad;
	for (i = b + 1; i + 1 < e; i++) {
		if (s[i] == '\\' && i + 2 < e)
			i++;
		else if (s[i] == '"' || s[i] == '\\')
			goto bad;
		strbuf_addch(&sb, s[i]);
	}
	return strbuf_detach(&sb, NULL);
bad:
	strbuf_release(&sb);
	strbuf_addf(why, "bad quoted name %.*s", (int)(e - b), s + b);
	return NULL;
}

static int parse_display(struct hdr_addr *a, const char *s, size_t b, size_t e,
			 struct strbuf *why)
{
	trim(s, &b, &e);
	if (b == e)
		return 0;
	if (s[b] == '"') {
		a->display = unquote(s, b, e, why);
		if (!a->display)
			return -1;
		a->quoted = 1;
		if (!*a->display) {
			free(a->display);
			a->display = NULL;
		}
		return 0;
	}
	if (memchr(s + b, '"', e - b)) {
		strbuf_addf(why, "stray quote in name '%.*s'", (int)(e - b),
			    s + b);
		return -1;
	}
	a->display = xstrndup(s + b, e - b);
	return 0;
}

/* Finds the "<" of an element s[b..e), outside quotes; e if none. */
static size_t find_angle(const char *s, size_t b, size_t e)
{
	int quoted = 0;

	for (; b < e; b++) {
		if (quoted && s[b] == '\\')
			b++;
		else if (s[b] == '"')
			quoted = !quoted;
		else if (!quoted && s[b] == '<')
			return b;
	}
	return e;
}

static int parse_element(struct hdr_addr_list *list, const char *s, size_t b,
			 size_t e, struct strbuf *why)
{
	struct hdr_addr a = { NULL, NULL, 0, 0 };
	size_t lt, gt;

	trim(s, &b, &e);
	if (b == e) {
		strbuf_addstr(why, "empty address in the list");
		return -1;
	}
	lt = find_angle(s, b, e);
	if (lt == e) {
		if (valid_addr_spec(s + b, e - b, why) < 0)
			return -1;
		a.addr = xstrndup(s + b, e - b);
	} else {
		gt = e - 1;
		if (s[gt] != '>' || memchr(s + lt + 1, '>', gt - lt - 1)) {
			strbuf_addf(why, "'%.*s' is not an address",
				    (int)(e - b), s + b);
			return -1;
		}
		if (valid_addr_spec(s + lt + 1, gt - lt - 1, why) < 0 ||
		    parse_display(&a, s, b, lt, why) < 0)
			return -1;
		a.addr = xstrndup(s + lt + 1, gt - lt - 1);
		a.angle = 1;
	}
	ALLOC_GROW(list->v, list->nr + 1, list->alloc);
	list->v[list->nr++] = a;
	return 0;
}

int hdr_parse_addresses(struct hdr_addr_list *list, const char *value,
			struct strbuf *why)
{
	size_t i, start = 0, len = strlen(value);
	int quoted = 0, angle = 0;

	for (i = 0; i < len; i++) {
		if (quoted) {
			if (value[i] == '\\' && i + 1 < len)
				i++;
			else if (value[i] == '"')
				quoted = 0;
		} else if (value[i] == '"') {
			quoted = 1;
		} else if (value[i] == '<') {
			if (angle++)
				goto unbalanced;
		} else if (value[i] == '>') {
			if (!angle--)
				goto unbalanced;
		} else if (value[i] == ',' && !angle) {
			if (parse_element(list, value, start, i, why) < 0)
				return -1;
			start = i + 1;
		}
	}
	if (quoted || angle)
		goto unbalanced;
	return parse_element(list, value, start, len, why);
unbalanced:
	strbuf_addf(why, "unbalanced quotes or angle brackets in '%s'", value);
	return -1;
}

void hdr_format_mailbox(struct strbuf *out, const char *display,
			const char *addr)
{
	const char *p;
	int quote = 0;

	if (display && *display) {
		quote = display[0] == ' ' ||
			display[strlen(display) - 1] == ' ' ||
			strstr(display, "  ");
		for (p = display; *p && !quote; p++)
			quote = (unsigned char)*p < 0x80 && *p != ' ' &&
				!is_atext((unsigned char)*p);
		if (quote)
			strbuf_addch(out, '"');
		for (p = display; *p; p++) {
			if (quote && (*p == '"' || *p == '\\'))
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
		if (quote)
			strbuf_addch(out, '"');
		strbuf_addch(out, ' ');
	}
	strbuf_addf(out, "<%s>", addr);
}

/* ---- encoding ---- */

static int word_needs_encoding(const char *s, size_t len)
{
	return !is_ascii(s, len) || memmem(s, len, "=?", 2) != NULL;
}

static size_t skip_blanks(const char *s, size_t len, size_t i)
{
	while (i < len && is_blank(s[i]))
		i++;
	return i;
}

static size_t skip_word(const char *s, size_t len, size_t i)
{
	while (i < len && !is_blank(s[i]))
		i++;
	return i;
}

/*
 * Encodes the runs of words that need it (RFC 2047 §5 (1) for unstructured
 * text, §5 (3) for a phrase whose other words are atoms).
 */
static void add_text(struct strbuf *out, const char *s, size_t len,
		     enum mime_q_context ctx)
{
	size_t i = 0, b, e, next, next_end;

	while (i < len) {
		b = skip_blanks(s, len, i);
		strbuf_add(out, s + i, b - i);
		e = skip_word(s, len, b);
		if (!word_needs_encoding(s + b, e - b)) {
			strbuf_add(out, s + b, e - b);
			i = e;
			continue;
		}
		for (;;) {
			next = skip_blanks(s, len, e);
			next_end = skip_word(s, len, next);
			if (next == len ||
			    !word_needs_encoding(s + next, next_end - next))
				break;
			e = next_end;
		}
		mime_q_words(out, s + b, e - b, ctx);
		i = e;
	}
}

/* A display name that may go out as atoms: RFC 5322 §3.2.5 phrase. */
static int is_plain_phrase(const char *s)
{
	const char *p;

	if (!*s || *s == ' ' || strstr(s, "=?"))
		return 0;
	for (p = s; *p; p++) {
		if (*p == ' ' && (p[1] == ' ' || !p[1]))
			return 0;
		if (*p != ' ' && !is_atext((unsigned char)*p))
			return 0;
	}
	return 1;
}

/* 1 if every word of s that needs no encoding is an RFC 5322 atom */
static int plain_words_are_atoms(const char *s)
{
	size_t i = 0, b, e, k, len = strlen(s);

	while (i < len) {
		b = skip_blanks(s, len, i);
		e = skip_word(s, len, b);
		if (!word_needs_encoding(s + b, e - b))
			for (k = b; k < e; k++)
				if (!is_atext((unsigned char)s[k]))
					return 0;
		i = e;
	}
	return 1;
}

/*
 * A display name as a phrase: atoms when it can be, else quoted, and
 * quoted anyway when the sender quoted it (0-day copied the addresses of
 * the patch mail as they were written: 123 has "Johannes Weiner" quoted
 * beside Andrew Morton bare).  Non-ASCII names become encoded-words.
 */
static void add_phrase(struct strbuf *out, const char *name, int quoted)
{
	const char *p;

	/*
	 * RFC 2047 §5 (3): a name holding "=?" is encoded, never quoted:
	 * readers decode an encoded-word lookalike even inside quotes.
	 */
	if (!is_ascii(name, strlen(name)) || strstr(name, "=?")) {
		/* like Python's email package: ASCII atoms stay readable */
		if (plain_words_are_atoms(name))
			add_text(out, name, strlen(name), MIME_Q_PHRASE);
		else
			mime_q_words(out, name, strlen(name), MIME_Q_PHRASE);
		return;
	}
	if (!quoted && is_plain_phrase(name)) {
		strbuf_addstr(out, name);
		return;
	}
	strbuf_addch(out, '"');
	for (p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

static void add_address(struct strbuf *out, const struct hdr_addr *a)
{
	if (a->display) {
		add_phrase(out, a->display, a->quoted);
		strbuf_addch(out, ' ');
	}
	if (a->angle || a->display)
		strbuf_addf(out, "<%s>", a->addr);
	else
		strbuf_addstr(out, a->addr);
}

/* ---- folding ---- */

struct fold {
	struct strbuf *out;
	size_t col;
	size_t limit; /* a line must not reach this column */
	int fresh;    /* the line holds nothing but the field name yet */
};

static size_t advance(size_t col, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/* A word: a run of blanks, then everything up to the next blank. */
static size_t word_end(const char *s, size_t len, size_t i, int quotes)
{
	int quoted = 0;

	i = skip_blanks(s, len, i);
	for (; i < len && (quoted || !is_blank(s[i])); i++) {
		if (!quotes)
			continue;
		if (quoted && s[i] == '\\' && i + 1 < len)
			i++;
		else if (s[i] == '"')
			quoted = !quoted;
	}
	return i;
}

/*
 * Appends s, breaking the line before a word's blanks when the word would
 * reach HDR_FOLD_COLUMN (RFC 5322 §2.2.3: the break goes before an
 * existing blank, which then starts the continuation line).
 */
static void fold_add(struct fold *f, const char *s, size_t len, int quotes)
{
	size_t i = 0, j, col;

	while (i < len) {
		j = word_end(s, len, i, quotes);
		col = advance(f->col, s + i, j - i);
		if (!f->fresh && is_blank(s[i]) && col >= f->limit) {
			strbuf_addch(f->out, '\n');
			col = advance(0, s + i, j - i);
		}
		strbuf_add(f->out, s + i, j - i);
		f->col = col;
		f->fresh = 0;
		i = j;
	}
}

static void start_field(struct fold *f, struct strbuf *out, const char *name,
			const char *value)
{
	strbuf_addstr(out, name);
	strbuf_addch(out, ':');
	f->out = out;
	f->col = strlen(name) + 1;
	f->fresh = 1;
	/*
	 * RFC 2047 §2: a line holding an encoded-word is at most 76
	 * characters long; encoded-words appear for non-ASCII or "=?".
	 */
	f->limit = HDR_FOLD_COLUMN;
	if (!is_ascii(value, strlen(value)) || strstr(value, "=?"))
		f->limit = HDR_FOLD_COLUMN - 1;
}

static void render_text(struct strbuf *out, const char *name, const char *value,
			int encode)
{
	struct strbuf line = STRBUF_INIT;
	struct fold f;

	start_field(&f, out, name, encode ? value : "");
	if (*value) {
		strbuf_addch(&line, ' ');
		if (encode)
			add_text(&line, value, strlen(value), MIME_Q_TEXT);
		else
			strbuf_addstr(&line, value);
		fold_add(&f, line.buf, line.len, 0);
	}
	strbuf_addch(out, '\n');
	strbuf_release(&line);
}

void hdr_render_raw(struct strbuf *out, const char *name, const char *value)
{
	render_text(out, name, value, 0);
}

static void render_addresses(struct strbuf *out, const char *name,
			     const char *value)
{
	struct hdr_addr_list list = HDR_ADDR_LIST_INIT;
	struct strbuf piece = STRBUF_INIT, why = STRBUF_INIT;
	struct fold f;
	size_t i;

	if (hdr_parse_addresses(&list, value, &why) < 0)
		BUG("address list passed hdr_check but does not parse");
	start_field(&f, out, name, value);
	for (i = 0; i < list.nr; i++) {
		strbuf_reset(&piece);
		strbuf_addch(&piece, ' ');
		add_address(&piece, &list.v[i]);
		if (i + 1 < list.nr)
			strbuf_addch(&piece, ',');
		/* 0-day's mailer: break after the comma, go on with a TAB */
		if (i && advance(f.col, piece.buf, piece.len) >= f.limit) {
			strbuf_addstr(out, "\n\t");
			f.col = 8;
			f.fresh = 1;
			fold_add(&f, piece.buf + 1, piece.len - 1, 1);
		} else {
			fold_add(&f, piece.buf, piece.len, 1);
		}
	}
	strbuf_addch(out, '\n');
	hdr_addr_list_release(&list);
	strbuf_release(&piece);
	strbuf_release(&why);
}

/* Renders a value that passed check_bytes() and check_kind(). */
static void render_field(struct strbuf *out, const char *name,
			 const char *value)
{
	switch (hdr_kind_of(name)) {
	case HDR_ADDRESS:
		render_addresses(out, name, value);
		return;
	case HDR_TEXT:
		render_text(out, name, value, 1);
		return;
	case HDR_DATE:
	case HDR_MSGID:
	case HDR_MSGIDS:
		render_text(out, name, value, 0);
		return;
	case HDR_RESERVED:
		break;
	}
	BUG("reserved header '%s' passed hdr_check", name);
}

int hdr_render(struct strbuf *out, const char *name, const char *value)
{
	if (hdr_check(name, value, strlen(value)) < 0)
		return -1;
	render_field(out, name, value);
	return 0;
}
