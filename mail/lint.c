// SPDX-License-Identifier: GPL-2.0-only
/*
 * lint.c: refuse a rendered message that a server or a reader would
 * choke on, with every reason at once.
 *
 * Two parsers read the header.  libetpan's RFC 5322 parser
 * (mailimf_fields_parse) says which fields it understands: a Date, To or
 * Message-ID it cannot parse comes back as an "optional field" of that
 * name, and it stops at a line that is no field at all.  But libetpan is
 * lenient ("To: Linus Torvalds torvalds@x.org" parses as one mailbox
 * "LinusTorvaldstorvalds@x.org"), so the unfolded From, To and Cc values
 * also go through robot's strict address parser (mail/header.c).
 * libetpan's MIME parser (mailmime_parse) then checks a multipart body;
 * it accepts almost anything, so the closing delimiter and the parts'
 * contents are checked by hand.
 *
 * Limits: RFC 5322 §2.1.1 (998 bytes per line), §3.6 (one Date, From,
 * Message-ID), RFC 2046 §5.1.1 (the close delimiter "--B--").
 */
#include "robot/util/common.h"
#include "mail/lint.h"
#include "mail/header.h"

#include <strings.h>

#include "mail/etpan.h"

struct lint_field {
	char *name;
	char *value; /* unfolded, trimmed */
};

struct lint {
	const char *buf;
	size_t len;
	size_t hdr_len;	 /* the header lines, through the last one's LF */
	size_t body_off; /* where the body starts */
	size_t hdr_lines;
	struct lint_field *f;
	size_t nf, alloc;
	struct strbuf *why;
	int nreasons;
};

static void complain(struct lint *l, const char *fmt, ...) ROBOT_PRINTF(2, 3);

static void complain(struct lint *l, const char *fmt, ...)
{
	va_list ap;

	if (l->nreasons++)
		strbuf_addstr(l->why, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(l->why, fmt, ap);
	va_end(ap);
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static int all_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_blank(s[i]) && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* Finds the blank line that ends the header. */
static void split(struct lint *l)
{
	const char *p;

	if (l->len && l->buf[0] == '\n') {
		l->hdr_len = 0;
		l->body_off = 1;
		return;
	}
	p = memmem(l->buf, l->len, "\n\n", 2);
	if (!p) {
		complain(l, "no blank line ends the header");
		l->hdr_len = l->body_off = l->len;
		return;
	}
	l->hdr_len = p - l->buf + 1;
	l->body_off = p - l->buf + 2;
}

/* Line numbers count from the top of the message, 1-based. */
static void check_bytes(struct lint *l)
{
	size_t start = 0, end, line = 1, nlong = 0, first_long = 0;
	size_t longest = 0;
	int nul = l->len && memchr(l->buf, '\0', l->len);
	int cr = l->len && memchr(l->buf, '\r', l->len);

	for (;;) {
		const char *nl = memchr(l->buf + start, '\n', l->len - start);

		end = nl ? (size_t)(nl - l->buf) : l->len;
		if (end - start > HDR_LINE_MAX && !nlong++) {
			first_long = line;
			longest = end - start;
		}
		if (!nl)
			break;
		start = end + 1;
		line++;
	}
	if (nul)
		complain(l, "the message holds a NUL byte");
	if (cr)
		complain(l, "the message holds a CR (want LF line ends)");
	if (nlong)
		complain(l,
			 "%s line %zu is %zu bytes long, over %d "
			 "(RFC 5322 §2.1.1)%s",
			 first_long <= l->hdr_lines ? "header" : "body",
			 first_long, longest, HDR_LINE_MAX,
			 nlong > 1 ? ", and more lines are" : "");
}

static void add_field(struct lint *l, const char *name, size_t namelen)
{
	struct lint_field *f;

	ALLOC_GROW(l->f, l->nf + 1, l->alloc);
	f = &l->f[l->nf++];
	f->name = xstrndup(name, namelen);
	f->value = NULL;
}

static void set_value(struct lint_field *f, struct strbuf *value)
{
	size_t b = 0, e = value->len;

	while (b < e && is_blank(value->buf[b]))
		b++;
	while (e > b && is_blank(value->buf[e - 1]))
		e--;
	f->value = xstrndup(value->buf + b, e - b);
	strbuf_reset(value);
}

static int valid_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 33 || (unsigned char)s[i] > 126)
			return 0;
	return len > 0;
}

/* Robot's own reading of the header: names and unfolded values. */
static void scan_fields(struct lint *l)
{
	struct strbuf value = STRBUF_INIT;
	size_t pos = 0, end, line = 0;
	const char *colon, *nl;

	while (pos < l->hdr_len) {
		nl = memchr(l->buf + pos, '\n', l->hdr_len - pos);
		end = nl ? (size_t)(nl - l->buf) : l->hdr_len;
		line++;
		if (is_blank(l->buf[pos]) && l->nf) {
			/* RFC 5322 §2.2.3: unfolding removes the line break */
			strbuf_add(&value, l->buf + pos, end - pos);
		} else {
			if (l->nf)
				set_value(&l->f[l->nf - 1], &value);
			colon = memchr(l->buf + pos, ':', end - pos);
			if (!colon ||
			    !valid_name(l->buf + pos, colon - l->buf - pos)) {
				complain(l, "header line %zu is not a field",
					 line);
				strbuf_release(&value);
				return;
			}
			add_field(l, l->buf + pos, colon - l->buf - pos);
			strbuf_add(&value, colon + 1, l->buf + end - colon - 1);
		}
		pos = end + 1;
	}
	if (l->nf)
		set_value(&l->f[l->nf - 1], &value);
	strbuf_release(&value);
}

static size_t count_fields(struct lint *l, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < l->nf; i++)
		n += !strcasecmp(l->f[i].name, name);
	return n;
}

static const struct lint_field *find_field(struct lint *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->nf; i++)
		if (!strcasecmp(l->f[i].name, name))
			return &l->f[i];
	return NULL;
}

static void check_addresses(struct lint *l)
{
	struct hdr_addr_list list = HDR_ADDR_LIST_INIT;
	struct strbuf why = STRBUF_INIT;
	size_t i;

	for (i = 0; i < l->nf; i++) {
		if (hdr_kind_of(l->f[i].name) != HDR_ADDRESS)
			continue;
		if (hdr_parse_addresses(&list, l->f[i].value, &why) < 0)
			complain(l, "header '%s': %s", l->f[i].name, why.buf);
		else if (!list.nr)
			complain(l, "header '%s' is empty", l->f[i].name);
		hdr_addr_list_release(&list);
		strbuf_reset(&why);
	}
	strbuf_release(&why);
}

/* ---- libetpan's view ---- */

struct imf_counts {
	size_t date, from, msgid, recipients;
};

static size_t count_addresses(struct mailimf_address_list *al)
{
	struct mailimf_address *a;
	clistiter *it;
	size_t n = 0;

	for (it = clist_begin(al->ad_list); it; it = clist_next(it)) {
		a = clist_content(it);
		if (a->ad_type == MAILIMF_ADDRESS_MAILBOX)
			n++;
		else if (a->ad_data.ad_group->grp_mb_list)
			n += clist_count(
				a->ad_data.ad_group->grp_mb_list->mb_list);
	}
	return n;
}

static void count_field(struct lint *l, struct imf_counts *c,
			struct mailimf_field *f)
{
	const char *name;

	switch (f->fld_type) {
	case MAILIMF_FIELD_ORIG_DATE:
		c->date++;
		break;
	case MAILIMF_FIELD_FROM:
		c->from++;
		break;
	case MAILIMF_FIELD_MESSAGE_ID:
		c->msgid++;
		break;
	case MAILIMF_FIELD_TO:
		c->recipients +=
			count_addresses(f->fld_data.fld_to->to_addr_list);
		break;
	case MAILIMF_FIELD_CC:
		c->recipients +=
			count_addresses(f->fld_data.fld_cc->cc_addr_list);
		break;
	case MAILIMF_FIELD_OPTIONAL_FIELD:
		/* a structured field libetpan could not parse lands here */
		name = f->fld_data.fld_optional_field->fld_name;
		if (hdr_kind_of(name) != HDR_TEXT &&
		    hdr_kind_of(name) != HDR_RESERVED)
			complain(l, "header '%s' does not parse (libetpan)",
				 name);
		break;
	default:
		break;
	}
}

static void check_imf(struct lint *l)
{
	struct mailimf_fields *fields = NULL;
	struct imf_counts c = { 0, 0, 0, 0 };
	size_t idx = 0;
	clistiter *it;

	if (mailimf_fields_parse(l->buf, l->hdr_len, &idx, &fields) !=
	    MAILIMF_NO_ERROR) {
		complain(l, "the header does not parse (libetpan)");
		return;
	}
	if (idx < l->hdr_len)
		complain(l, "libetpan stops reading the header at byte %zu",
			 idx);
	for (it = clist_begin(fields->fld_list); it; it = clist_next(it))
		count_field(l, &c, clist_content(it));
	mailimf_fields_free(fields);
	if (c.date != 1)
		complain(l, "%zu Date headers, want exactly 1", c.date);
	if (c.from != 1)
		complain(l, "%zu From headers, want exactly 1", c.from);
	if (c.msgid != 1)
		complain(l, "%zu Message-ID headers, want exactly 1", c.msgid);
	if (!c.recipients)
		complain(l, "no recipient in To or Cc");
}

/* ---- MIME ---- */

static int part_is_empty(struct mailmime *part)
{
	struct mailmime_data *d;

	if (part->mm_type != MAILMIME_SINGLE)
		return part->mm_length == 0;
	d = part->mm_data.mm_single;
	return !d || d->dt_type != MAILMIME_DATA_TEXT ||
	       all_blank(d->dt_data.dt_text.dt_data,
			 d->dt_data.dt_text.dt_length);
}

static void check_parts(struct lint *l, struct mailmime *mp)
{
	struct strbuf close = STRBUF_INIT;
	char param[] = "boundary"; /* libetpan takes a non-const name */
	char *boundary;
	clistiter *it;
	size_t n = 0;

	boundary = mailmime_content_param_get(mp->mm_content_type, param);
	if (!boundary) {
		complain(l, "multipart Content-Type has no boundary");
		return;
	}
	/* RFC 2046 §5.1.1: close-delimiter := delimiter "--" */
	strbuf_addf(&close, "\n--%s--", boundary);
	if (!memmem(l->buf, l->len, close.buf, close.len))
		complain(l, "the multipart body lacks its closing delimiter");
	strbuf_release(&close);
	for (it = clist_begin(mp->mm_data.mm_multipart.mm_mp_list); it;
	     it = clist_next(it)) {
		n++;
		if (part_is_empty(clist_content(it)))
			complain(l, "MIME part %zu is empty", n);
	}
	if (!n)
		complain(l, "the multipart body has no parts");
}

static void check_mime(struct lint *l)
{
	const struct lint_field *ct = find_field(l, "Content-Type");
	struct mailmime *mime = NULL, *inner;
	size_t idx = 0;

	if (!ct)
		return;
	if (!find_field(l, "MIME-Version"))
		complain(l, "Content-Type without MIME-Version");
	if (strncasecmp(ct->value, "multipart/", 10))
		return;
	if (mailmime_parse(l->buf, l->len, &idx, &mime) != MAILIMF_NO_ERROR) {
		complain(l, "the MIME structure does not parse (libetpan)");
		return;
	}
	inner = mime->mm_type == MAILMIME_MESSAGE
			? mime->mm_data.mm_message.mm_msg_mime
			: NULL;
	if (!inner || inner->mm_type != MAILMIME_MULTIPLE)
		complain(l, "the multipart body does not parse (libetpan)");
	else
		check_parts(l, inner);
	mailmime_free(mime);
}

static void check_required(struct lint *l)
{
	const struct lint_field *subject = find_field(l, "Subject");
	size_t n = count_fields(l, "Subject");

	if (n > 1)
		complain(l, "%zu Subject headers, want exactly 1", n);
	else if (!n || !*subject->value)
		complain(l, "the Subject is missing or empty");
	if (all_blank(l->buf + l->body_off, l->len - l->body_off))
		complain(l, "the body is empty");
}

int msg_lint(const char *bytes, size_t len, struct strbuf *why)
{
	struct lint l = { .buf = bytes, .len = len, .why = why };
	size_t i;

	split(&l);
	for (i = 0; i < l.hdr_len; i++)
		l.hdr_lines += bytes[i] == '\n';
	check_bytes(&l);
	scan_fields(&l);
	check_imf(&l);
	check_addresses(&l);
	check_required(&l);
	check_mime(&l);
	for (i = 0; i < l.nf; i++) {
		free(l.f[i].name);
		free(l.f[i].value);
	}
	free(l.f);
	return l.nreasons ? -1 : 0;
}
