// SPDX-License-Identifier: GPL-2.0-only
/*
 * inmsg.c: reading other people's mail (see inmsg.h).
 *
 * The header block is split by hand, since robot wants every field as
 * written and in order; decoding is libetpan's: encoded-words
 * (mailmime_encoded_phrase_parse), address lists (mailimf_address_list_
 * parse), dates (mailimf_date_time_parse), the MIME tree and transfer
 * encodings (mailmime_parse, mailmime_part_parse) and charsets (charconv).
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "mail/header.h"
#include "mail/inmime.h"
#include "mail/inmsg.h"

#include <strings.h>
#include <time.h>

#include "mail/etpan.h"

static int is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* The end of the line at p (after its LF), and its length without CRLF. */
static const char *line_end(const char *p, const char *end, size_t *len)
{
	const char *nl = memchr(p, '\n', end - p);
	const char *e = nl ? nl : end;

	if (e > p && e[-1] == '\r')
		e--;
	*len = e - p;
	return nl ? nl + 1 : end;
}

static int field_name_ok(const char *p, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] <= ' ' || p[i] > '~' || p[i] == ':')
			return 0;
	return 1;
}

/* The value the last field has gathered, its folded lines too. */
static void last_value(struct inmsg *m, struct strbuf *value)
{
	if (m->nr && !m->f[m->nr - 1].value)
		m->f[m->nr - 1].value = strbuf_detach(value, NULL);
	strbuf_reset(value);
}

int inmsg_parse(struct inmsg *m, const char *raw, size_t len,
		struct strbuf *why)
{
	const char *p, *end;
	struct strbuf value = STRBUF_INIT;

	memset(m, 0, sizeof(*m));
	m->raw = xmalloc(len + 1);
	memcpy(m->raw, raw, len);
	m->raw[len] = '\0';
	m->raw_len = len;
	p = m->raw;
	end = m->raw + len;
	while (p < end) {
		size_t n;
		const char *next = line_end(p, end, &n), *colon;

		if (!n) { /* the blank line: the body follows */
			p = next;
			break;
		}
		if (is_blank(*p)) {
			if (!m->nr) {
				strbuf_addstr(why, "a folded line before any "
						   "header field");
				goto bad;
			}
			/* unfold: the line break goes, the blanks stay (in
			 * `value`, the last field's: a header folded over
			 * many lines is copied once, not once a line) */
			strbuf_add(&value, p, n);
			p = next;
			continue;
		}
		colon = memchr(p, ':', n);
		if (!colon || !field_name_ok(p, colon - p)) {
			strbuf_addf(why, "header line %zu is not 'Name: value'",
				    m->nr + 1);
			goto bad;
		}
		last_value(m, &value);
		ALLOC_GROW(m->f, m->nr + 1, m->alloc);
		m->f[m->nr].name = xstrndup(p, colon - p);
		for (colon++; colon < p + n && is_blank(*colon); colon++)
			;
		m->f[m->nr].value = NULL;
		strbuf_add(&value, colon, p + n - colon);
		m->nr++;
		p = next;
	}
	last_value(m, &value);
	if (!m->nr) {
		strbuf_addstr(why, "no header fields");
		goto bad;
	}
	m->body_off = p - m->raw;
	strbuf_release(&value);
	return 0;
bad:
	strbuf_release(&value);
	inmsg_release(m);
	return -1;
}

void inmsg_release(struct inmsg *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++) {
		free(m->f[i].name);
		free(m->f[i].value);
	}
	free(m->f);
	free(m->raw);
	memset(m, 0, sizeof(*m));
}

const char *inmsg_get(const struct inmsg *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (!strcasecmp(m->f[i].name, name))
			return m->f[i].value;
	return NULL;
}

/* Appends s with control characters and blank runs as single spaces. */
static void add_squeezed(struct strbuf *out, const char *s)
{
	size_t start = out->len;
	int blank = 1;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < ' ' || c == 0x7f) {
			if (!blank)
				strbuf_addch(out, ' ');
			blank = 1;
			continue;
		}
		if (c == ' ') {
			if (!blank)
				strbuf_addch(out, ' ');
			blank = 1;
			continue;
		}
		strbuf_addch(out, c);
		blank = 0;
	}
	while (out->len > start && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
}

/*
 * Appends s[0..len) decoded: encoded-words into UTF-8; raw 8-bit text is
 * taken as UTF-8, and bytes that are not become '?'.
 */
static void decode_words(struct strbuf *out, const char *s, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	char *dec = NULL;
	size_t idx = 0, i;

	/* most values hold no encoded-word: no need for libetpan */
	if (memmem(s, len, "=?", 2) &&
	    mailmime_encoded_phrase_parse("utf-8", s, len, &idx, "utf-8",
					  &dec) == MAILIMF_NO_ERROR &&
	    dec) {
		strbuf_addstr(&tmp, dec);
		free(dec);
	} else {
		strbuf_add(&tmp, s, len);
	}
	if (!utf8_valid(tmp.buf, tmp.len))
		for (i = 0; i < tmp.len; i++)
			if ((unsigned char)tmp.buf[i] >= 0x80)
				tmp.buf[i] = '?';
	add_squeezed(out, tmp.buf);
	strbuf_release(&tmp);
}

int inmsg_text(const struct inmsg *m, const char *name, struct strbuf *out)
{
	const char *v = inmsg_get(m, name);

	if (!v)
		return -1;
	decode_words(out, v, strlen(v));
	return 0;
}

size_t inmsg_msgids(const struct inmsg *m, const char *name, char ***ids,
		    size_t *nr, size_t *alloc)
{
	const char *v = inmsg_get(m, name), *lt, *gt;
	size_t added = 0;

	if (!v)
		return 0;
	for (; (lt = strchr(v, '<')); v = gt + 1) {
		gt = strchr(lt, '>');
		if (!gt)
			break;
		if (gt - lt < 3 || !memchr(lt, '@', gt - lt) ||
		    memchr(lt + 1, '<', gt - lt - 1))
			continue;
		ALLOC_GROW(*ids, *nr + 1, *alloc);
		(*ids)[(*nr)++] = xstrndup(lt, gt - lt + 1);
		added++;
	}
	return added;
}

/* Adds one mailbox robot can write back; returns 1, or 0 if left out. */
static int add_mailbox(struct hdr_addr_list *out, struct mailimf_mailbox *mb)
{
	struct hdr_addr_list check = HDR_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int ok;

	if (!mb->mb_addr_spec)
		return 0;
	strbuf_addf(&sb, "<%s>", mb->mb_addr_spec);
	ok = !hdr_parse_addresses(&check, sb.buf, &why);
	hdr_addr_list_release(&check);
	strbuf_release(&why);
	strbuf_reset(&sb);
	if (!ok) {
		strbuf_release(&sb);
		return 0;
	}
	if (mb->mb_display_name)
		decode_words(&sb, mb->mb_display_name,
			     strlen(mb->mb_display_name));
	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	out->v[out->nr].display = sb.len ? strbuf_detach(&sb, NULL) : NULL;
	out->v[out->nr].addr = xstrdup(mb->mb_addr_spec);
	out->v[out->nr].angle = 1;
	out->v[out->nr].quoted = 0;
	out->nr++;
	strbuf_release(&sb);
	return 1;
}

size_t inmsg_addresses(const struct inmsg *m, const char *name,
		       struct hdr_addr_list *out)
{
	const char *v = inmsg_get(m, name);
	struct mailimf_address_list *al = NULL;
	size_t idx = 0, added = 0;
	clistiter *it, *jt;

	if (!v || mailimf_address_list_parse(v, strlen(v), &idx, &al) !=
			  MAILIMF_NO_ERROR)
		return 0;
	for (it = clist_begin(al->ad_list); it; it = clist_next(it)) {
		struct mailimf_address *a = clist_content(it);

		if (a->ad_type == MAILIMF_ADDRESS_MAILBOX) {
			added += add_mailbox(out, a->ad_data.ad_mailbox);
			continue;
		}
		if (!a->ad_data.ad_group->grp_mb_list)
			continue;
		for (jt = clist_begin(
			     a->ad_data.ad_group->grp_mb_list->mb_list);
		     jt; jt = clist_next(jt))
			added += add_mailbox(out, clist_content(jt));
	}
	mailimf_address_list_free(al);
	return added;
}

int inmsg_date(const struct inmsg *m, int64_t *t)
{
	const char *v = inmsg_get(m, "Date");
	struct mailimf_date_time *dt = NULL;
	struct tm tm = { 0 };
	size_t idx = 0;
	int zone;

	if (!v || mailimf_date_time_parse(v, strlen(v), &idx, &dt) !=
			  MAILIMF_NO_ERROR)
		return -1;
	/* a year a Date can write back, so every later gmtime_r() works */
	if (dt->dt_year < 1900 || dt->dt_year > 9999) {
		mailimf_date_time_free(dt);
		return -1;
	}
	tm.tm_year = dt->dt_year - 1900;
	tm.tm_mon = dt->dt_month - 1;
	tm.tm_mday = dt->dt_day;
	tm.tm_hour = dt->dt_hour;
	tm.tm_min = dt->dt_min;
	tm.tm_sec = dt->dt_sec;
	/* the zone comes as the number hhmm: -0700 is -700 */
	zone = dt->dt_zone < 0 ? -dt->dt_zone : dt->dt_zone;
	zone = zone / 100 * 60 + zone % 100;
	if (dt->dt_zone < 0)
		zone = -zone;
	*t = (int64_t)timegm(&tm) - (int64_t)zone * 60;
	mailimf_date_time_free(dt);
	return 0;
}

static int is_text_plain(struct mailmime *mm)
{
	struct mailmime_content *ct = mm->mm_content_type;

	if (!ct) /* RFC 2045 §5.2: text/plain by default */
		return 1;
	return ct->ct_type &&
	       ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE &&
	       ct->ct_type->tp_data.tp_discrete_type->dt_type ==
		       MAILMIME_DISCRETE_TYPE_TEXT &&
	       ct->ct_subtype && !strcasecmp(ct->ct_subtype, "plain");
}

/* The first text/plain single part, depth first, or NULL. */
static struct mailmime *find_text(struct mailmime *mm)
{
	clistiter *it;

	switch (mm->mm_type) {
	case MAILMIME_SINGLE:
		return is_text_plain(mm) ? mm : NULL;
	case MAILMIME_MULTIPLE:
		for (it = clist_begin(mm->mm_data.mm_multipart.mm_mp_list); it;
		     it = clist_next(it)) {
			struct mailmime *found = find_text(clist_content(it));

			if (found)
				return found;
		}
		return NULL;
	case MAILMIME_MESSAGE:
		return mm->mm_data.mm_message.mm_msg_mime
			       ? find_text(mm->mm_data.mm_message.mm_msg_mime)
			       : NULL;
	}
	return NULL;
}

int inmsg_body_text(const struct inmsg *m, struct strbuf *out)
{
	struct mailmime *mime = NULL, *part;
	struct mailmime_data *d;
	char *dec = NULL, *conv = NULL;
	const char *cs = NULL;
	size_t idx = 0, dec_len = 0;
	struct strbuf why = STRBUF_INIT;
	int ret = inmime_check_nesting(m->raw, m->raw_len, &why);

	strbuf_release(&why);
	if (ret ||
	    mailmime_parse(m->raw, m->raw_len, &idx, &mime) != MAILIMF_NO_ERROR)
		return -1;
	ret = -1;
	part = find_text(mime);
	if (!part || !part->mm_data.mm_single)
		goto out;
	d = part->mm_data.mm_single;
	if (d->dt_type != MAILMIME_DATA_TEXT)
		goto out;
	idx = 0;
	if (mailmime_part_parse(
		    d->dt_data.dt_text.dt_data, d->dt_data.dt_text.dt_length,
		    &idx, d->dt_encoding, &dec, &dec_len) != MAILIMF_NO_ERROR)
		goto out;
	if (part->mm_content_type)
		cs = mailmime_content_charset_get(part->mm_content_type);
	if (cs && strcasecmp(cs, "utf-8") && strcasecmp(cs, "us-ascii") &&
	    charconv("utf-8", cs, dec, dec_len, &conv) ==
		    MAIL_CHARCONV_NO_ERROR) {
		strbuf_addstr(out, conv);
		free(conv);
	} else {
		strbuf_add(out, dec, dec_len);
	}
	mailmime_decoded_part_free(dec);
	ret = 0;
out:
	mailmime_free(mime);
	return ret;
}

void mbox_release(struct inmsg *msgs, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		inmsg_release(&msgs[i]);
	free(msgs);
}

/* Appends s[0..len) with one '>' taken off each ">+From " line. */
static void add_unquoted(struct strbuf *out, const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl + 1 : end, *q = p;

		while (q < e && *q == '>')
			q++;
		if (q > p && e - q >= 5 && !memcmp(q, "From ", 5))
			p++;
		strbuf_add(out, p, e - p);
		p = e;
	}
}

int mbox_split(struct inmsg **msgs, size_t *nr, const char *text, size_t len,
	       struct strbuf *why)
{
	struct strbuf one = STRBUF_INIT;
	const char *p = text, *end = text + len;
	size_t alloc = 0;

	*msgs = NULL;
	*nr = 0;
	if (len && (len < 5 || memcmp(text, "From ", 5))) {
		strbuf_addstr(why, "not an mbox (no \"From \" line first)");
		return -1;
	}
	while (p < end) {
		const char *start = memchr(p, '\n', end - p), *next;

		start = start ? start + 1 : end; /* after the From line */
		for (next = start; next < end; next++) {
			next = memchr(next, '\n', end - next);
			if (!next) {
				next = end;
				break;
			}
			if (end - next > 5 && !memcmp(next + 1, "From ", 5)) {
				next++;
				break;
			}
		}
		strbuf_reset(&one);
		add_unquoted(&one, start, next - start);
		/* the blank line an mbox puts before the next "From " */
		if (one.len >= 2 && one.buf[one.len - 1] == '\n' &&
		    one.buf[one.len - 2] == '\n')
			strbuf_setlen(&one, one.len - 1);
		else if (one.len >= 4 &&
			 !memcmp(one.buf + one.len - 4, "\r\n\r\n", 4))
			strbuf_setlen(&one, one.len - 2);
		ALLOC_GROW(*msgs, *nr + 1, alloc);
		if (inmsg_parse(&(*msgs)[*nr], one.buf, one.len, why)) {
			strbuf_addf(why, " (message %zu of the mbox)", *nr + 1);
			mbox_release(*msgs, *nr);
			*msgs = NULL;
			*nr = 0;
			strbuf_release(&one);
			return -1;
		}
		(*nr)++;
		p = next;
	}
	strbuf_release(&one);
	return 0;
}
