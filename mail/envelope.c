// SPDX-License-Identifier: GPL-2.0-only
/*
 * envelope.c: the sender, the recipients and the Message-ID of a message
 * (see envelope.h).
 */
#include "robot/util/common.h"
#include "mail/envelope.h"
#include "mail/header.h"

/* Puts "prefix: " before the reason in `why`. */
static void why_prefix(struct strbuf *why, const char *prefix)
{
	char *reason = strbuf_detach(why, NULL);

	strbuf_addf(why, "%s: %s", prefix, reason);
	free(reason);
}

/* One field of the header section: [start, end) spans its lines. */
struct field_span {
	const char *start, *colon, *end;
};

/* Where the header section ends: at the blank line, else at the end. */
static size_t header_len(const char *msg, size_t len)
{
	size_t i;

	if (len && msg[0] == '\n')
		return 0;
	for (i = 0; i + 1 < len; i++)
		if (msg[i] == '\n' && msg[i + 1] == '\n')
			return i + 1;
	return len;
}

/*
 * The next field at *pos: its first line and the continuation lines that
 * follow.  Returns 0 at the end of the header section.
 */
static int next_field(const char *msg, size_t hlen, size_t *pos,
		      struct field_span *f)
{
	const char *p = msg + *pos, *end = msg + hlen, *nl;

	if (p >= end)
		return 0;
	f->start = p;
	f->colon = NULL;
	do {
		nl = memchr(p, '\n', end - p);
		p = nl ? nl + 1 : end;
	} while (p < end && (*p == ' ' || *p == '\t'));
	f->end = p;
	for (p = f->start; p < f->end && *p != '\n'; p++)
		if (*p == ':') {
			f->colon = p;
			break;
		}
	*pos = f->end - msg;
	return 1;
}

static int field_is(const struct field_span *f, const char *name)
{
	size_t n = strlen(name);
	const char *e = f->colon;

	if (!e)
		return 0;
	while (e > f->start && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return (size_t)(e - f->start) == n && !strncasecmp(f->start, name, n);
}

/* The value unfolded: line breaks dropped, blanks trimmed at both ends. */
static void field_value(struct strbuf *out, const struct field_span *f)
{
	const char *p = f->colon + 1, *nl;
	size_t start = out->len, lead = 0;

	/* unfolded: the line ends dropped, the lines joined as they are */
	for (; p < f->end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(f->end - p));
		if (!nl)
			nl = f->end;
		strbuf_add(out, p, (size_t)(nl - p));
	}
	while (start + lead < out->len && (out->buf[start + lead] == ' ' ||
					   out->buf[start + lead] == '\t'))
		lead++;
	if (lead) {
		memmove(out->buf + start, out->buf + start + lead,
			out->len - start - lead);
		strbuf_setlen(out, out->len - lead);
	}
	while (out->len > start && (out->buf[out->len - 1] == ' ' ||
				    out->buf[out->len - 1] == '\t'))
		strbuf_setlen(out, out->len - 1);
}

int envelope_field(const char *msg, size_t len, const char *name,
		   struct strbuf *out)
{
	size_t hlen = header_len(msg, len), pos = 0;
	struct field_span f;

	while (next_field(msg, hlen, &pos, &f))
		if (field_is(&f, name)) {
			field_value(out, &f);
			return 0;
		}
	return -1;
}

static void add_rcpt(struct envelope *e, const char *addr)
{
	size_t i;

	for (i = 0; i < e->nrcpt; i++)
		if (!strcasecmp(e->rcpt[i], addr))
			return;
	e->rcpt = xreallocarray(e->rcpt, e->nrcpt + 1, sizeof(*e->rcpt));
	e->rcpt[e->nrcpt++] = xstrdup(addr);
}

/* The addresses of every field called `name`, added as recipients. */
static int read_rcpts(struct envelope *e, const char *msg, size_t hlen,
		      const char *name, struct strbuf *why)
{
	struct strbuf value = STRBUF_INIT;
	struct field_span f;
	size_t pos = 0, i;
	int ret = 0;

	while (!ret && next_field(msg, hlen, &pos, &f)) {
		struct hdr_addr_list list = HDR_ADDR_LIST_INIT;

		if (!field_is(&f, name))
			continue;
		strbuf_reset(&value);
		field_value(&value, &f);
		if (!value.len) {
			/* an empty Cc: is allowed, and means nobody */
		} else if (hdr_parse_addresses(&list, value.buf, why)) {
			why_prefix(why, name);
			ret = -1;
		} else {
			for (i = 0; i < list.nr; i++)
				add_rcpt(e, list.v[i].addr);
			if (!strcasecmp(name, "Bcc"))
				e->has_bcc = 1;
		}
		hdr_addr_list_release(&list);
	}
	strbuf_release(&value);
	return ret;
}

/* The only field called `name`: -1 if there is none or more than one. */
static int single_field(const char *msg, size_t hlen, const char *name,
			struct strbuf *out, struct strbuf *why)
{
	struct field_span f;
	size_t pos = 0;
	int n = 0;

	while (next_field(msg, hlen, &pos, &f))
		if (field_is(&f, name) && !n++)
			field_value(out, &f);
	if (n == 1)
		return 0;
	strbuf_addf(why, n ? "more than one %s field" : "no %s field", name);
	return -1;
}

int envelope_read(struct envelope *e, const char *msg, size_t len,
		  struct strbuf *why)
{
	struct hdr_addr_list from = HDR_ADDR_LIST_INIT;
	struct strbuf v = STRBUF_INIT;
	size_t hlen = header_len(msg, len), pos = 0;
	struct field_span f;
	int ret = -1;

	memset(e, 0, sizeof(*e));
	while (next_field(msg, hlen, &pos, &f))
		if (!f.colon) {
			const char *nl = memchr(f.start, '\n', f.end - f.start);
			int n = (int)((nl ? nl : f.end) - f.start);

			strbuf_addf(why,
				    "the header line '%.*s' is not a field "
				    "(Name: value)",
				    n > 40 ? 40 : n, f.start);
			goto out;
		}
	if (single_field(msg, hlen, "Message-ID", &v, why))
		goto out;
	error_quiet++;
	ret = hdr_check("Message-ID", v.buf, v.len);
	error_quiet--;
	if (ret) {
		strbuf_addf(why, "Message-ID '%s' is not one <id@host>", v.buf);
		goto out;
	}
	ret = -1;
	e->message_id = strbuf_detach(&v, NULL);
	if (single_field(msg, hlen, "From", &v, why))
		goto out;
	if (hdr_parse_addresses(&from, v.buf, why)) {
		why_prefix(why, "From");
		goto out;
	}
	if (from.nr != 1) {
		strbuf_addf(why, "From: '%s' is not one address", v.buf);
		goto out;
	}
	e->from = xstrdup(from.v[0].addr);
	strbuf_reset(&v);
	if (!envelope_field(msg, len, "Subject", &v))
		e->subject = xstrdup(v.buf);
	if (read_rcpts(e, msg, hlen, "To", why) ||
	    read_rcpts(e, msg, hlen, "Cc", why) ||
	    read_rcpts(e, msg, hlen, "Bcc", why))
		goto out;
	if (!e->nrcpt) {
		strbuf_addstr(why, "no recipient (To, Cc or Bcc)");
		goto out;
	}
	ret = 0;
out:
	hdr_addr_list_release(&from);
	strbuf_release(&v);
	if (ret)
		envelope_release(e);
	return ret;
}

void envelope_release(struct envelope *e)
{
	size_t i;

	free(e->message_id);
	free(e->from);
	free(e->subject);
	for (i = 0; i < e->nrcpt; i++)
		free(e->rcpt[i]);
	free(e->rcpt);
	memset(e, 0, sizeof(*e));
}

void envelope_strip_bcc(struct strbuf *out, const char *msg, size_t len)
{
	size_t hlen = header_len(msg, len), pos = 0;
	struct field_span f;

	while (next_field(msg, hlen, &pos, &f))
		if (!field_is(&f, "Bcc"))
			strbuf_add(out, f.start, f.end - f.start);
	strbuf_add(out, msg + hlen, len - hlen);
}

void envelope_to_lf(struct strbuf *out, const char *msg, size_t len)
{
	size_t i, start = 0;

	strbuf_grow(out, len);
	for (i = 0; i + 1 < len; i++)
		if (msg[i] == '\r' && msg[i + 1] == '\n') {
			strbuf_add(out, msg + start, i - start);
			start = i + 1;
		}
	strbuf_add(out, msg + start, len - start);
}
