// SPDX-License-Identifier: GPL-2.0-only
/*
 * msg.c: assemble a message from its headers, body and attachments.
 *
 * Each MIME entity (the body, every attachment) is rendered on its own
 * first: its Content-* lines and its encoded content.  Then the boundary
 * is chosen, checked against every entity (RFC 2046 §5.1: it "must not
 * appear inside any of the encapsulated parts"), and the pieces are joined:
 * "--B" lines between entities, "--B--" at the end.  The line break before
 * each "--B" belongs to the delimiter (RFC 2046 §5.1.1), so a part's last
 * newline, or its absence, survives the trip.
 *
 * The boundary is "=_robot_" and 16 hex digits of an FNV-1a hash of the
 * whole message: the same message renders to the same bytes, and "=_"
 * cannot occur in quoted-printable or base64 text.  On the rare collision
 * with an 8bit part the hash is stirred and tried again.
 *
 * We write the bytes ourselves instead of through libetpan's
 * mailmime_write_mem(): that writer hard-cuts lines over 998 bytes, folds
 * at 72 columns, doubles trailing blanks in quoted-printable and draws a
 * random boundary.  libetpan checks the result instead (mail/lint.c).
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "mail/msg.h"
#include "mail/encode.h"
#include "mail/header.h"
#include "mail/valid.h"

#include <ctype.h>
#include <inttypes.h>
#include <strings.h>

void msg_init(struct msg *m)
{
	memset(m, 0, sizeof(*m));
}

void msg_release(struct msg *m)
{
	size_t i;

	for (i = 0; i < m->nheaders; i++) {
		free(m->headers[i].name);
		free(m->headers[i].value);
	}
	free(m->headers);
	free(m->body);
	for (i = 0; i < m->nparts; i++) {
		free(m->parts[i].filename);
		free(m->parts[i].content_type);
		free(m->parts[i].data);
	}
	free(m->parts);
	free(m->boundary);
	msg_init(m);
}

int msg_add_header_len(struct msg *m, const char *name, const char *value,
		       size_t len)
{
	struct msg_header *h;
	size_t i;

	if (hdr_check(name, value, len) < 0)
		return -1;
	if (hdr_is_singleton(name))
		for (i = 0; i < m->nheaders; i++)
			if (!strcasecmp(m->headers[i].name, name))
				return error("header '%s' given twice", name);
	ALLOC_GROW(m->headers, m->nheaders + 1, m->alloc_h);
	h = &m->headers[m->nheaders++];
	h->name = xstrdup(name);
	h->value = xstrndup(value, len);
	return 0;
}

int msg_add_header(struct msg *m, const char *name, const char *value)
{
	return msg_add_header_len(m, name, value, strlen(value));
}

static char *copy_bytes(const void *data, size_t len)
{
	char *p = xmalloc(len + 1);

	if (len)
		memcpy(p, data, len);
	p[len] = '\0';
	return p;
}

/* s itself when it prints on one line, else a placeholder */
static const char *shown(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if ((unsigned char)*p < 32 || *p == 127)
			return "(unprintable)";
	return utf8_valid(s, p - s) ? s : "(unprintable)";
}

int msg_set_body(struct msg *m, const char *text, size_t len)
{
	if (mime_charset_of(text, len) == MIME_CS_BINARY)
		return error("message body is not UTF-8 text");
	free(m->body);
	m->body = copy_bytes(text, len);
	m->body_len = len;
	return 0;
}

/* RFC 2046 §5.1.1: 1*70 bchars, the last one not a space */
static int is_boundary(const char *b)
{
	size_t i, len = strlen(b);

	if (!len || len > 70 || b[len - 1] == ' ')
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)b[i]) &&
		    !strchr("'()+_,-./:=? ", b[i]))
			return 0;
	return 1;
}

int msg_set_boundary(struct msg *m, const char *boundary)
{
	if (!is_boundary(boundary))
		return error("invalid MIME boundary '%s'", shown(boundary));
	free(m->boundary);
	m->boundary = xstrdup(boundary);
	return 0;
}

/* RFC 2045 §5.1 token: ASCII but blanks, controls and tspecials */
static int is_token(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 32 || (unsigned char)s[i] >= 127 ||
		    strchr("()<>@,;:\\\"/[]?=", s[i]))
			return 0;
	return 1;
}

static int is_content_type(const char *type)
{
	const char *slash = strchr(type, '/');

	return slash && is_token(type, slash - type) &&
	       is_token(slash + 1, strlen(slash + 1));
}

static int check_filename(const char *name)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (valid_file_name(name, &why))
		ret = error("invalid attachment name: %s", why.buf);
	strbuf_release(&why);
	return ret;
}

int msg_add_part(struct msg *m, const char *filename, const char *content_type,
		 const void *data, size_t len)
{
	struct msg_part *p;

	if (check_filename(filename) < 0)
		return -1;
	if (content_type && !is_content_type(content_type))
		return error("attachment '%s': invalid content type '%s'",
			     filename, shown(content_type));
	ALLOC_GROW(m->parts, m->nparts + 1, m->alloc_p);
	p = &m->parts[m->nparts++];
	p->filename = xstrdup(filename);
	p->content_type = content_type ? xstrdup(content_type) : NULL;
	p->data = copy_bytes(data, len);
	p->len = len;
	return 0;
}

/* ---- entities ---- */

struct entity {
	struct strbuf head;    /* the Content-* lines */
	struct strbuf content; /* the encoded body of the entity */
};

/* 8bit and 7bit carry neither long lines nor bare CRs (RFC 2045 §2.8) */
static int needs_qp(const char *data, size_t len)
{
	return mime_longest_line(data, len) > HDR_LINE_MAX ||
	       memchr(data, '\r', len) != NULL;
}

static void encode_entity(struct entity *e, const char *type,
			  const char *params, enum mime_charset cs,
			  const char *data, size_t len, const char *disposition)
{
	struct strbuf ct = STRBUF_INIT;
	const char *cte;

	if (cs == MIME_CS_BINARY) {
		cte = "base64";
		mime_base64_encode(&e->content, data, len);
	} else if (needs_qp(data, len)) {
		cte = "quoted-printable";
		mime_qp_encode(&e->content, data, len);
	} else {
		cte = cs == MIME_CS_ASCII ? "7bit" : "8bit";
		strbuf_add(&e->content, data, len);
	}
	strbuf_addstr(&ct, type);
	if (cs != MIME_CS_BINARY && !strncasecmp(type, "text/", 5))
		strbuf_addf(&ct, "; charset=\"%s\"", mime_charset_name(cs));
	if (params)
		strbuf_addstr(&ct, params);
	hdr_render_raw(&e->head, "Content-Type", ct.buf);
	if (disposition)
		hdr_render_raw(&e->head, "Content-Disposition", disposition);
	hdr_render_raw(&e->head, "Content-Transfer-Encoding", cte);
	strbuf_release(&ct);
}

static int body_entity(struct entity *e, const struct msg *m)
{
	struct strbuf latin1 = STRBUF_INIT;
	enum mime_charset cs = mime_charset_of(m->body, m->body_len);
	/* 0-day marks its text inline, alone or beside attachments */
	const char *disposition = "inline";
	const char *params = m->flowed ? "; format=flowed" : NULL;

	if (!m->body_len)
		return error("message has an empty body");
	if (cs == MIME_CS_BINARY)
		return error("message body is not UTF-8 text");
	if (cs == MIME_CS_LATIN1) {
		mime_to_latin1(&latin1, m->body, m->body_len);
		encode_entity(e, "text/plain", params, cs, latin1.buf,
			      latin1.len, disposition);
	} else {
		encode_entity(e, "text/plain", params, cs, m->body, m->body_len,
			      disposition);
	}
	strbuf_release(&latin1);
	return 0;
}

static int part_entity(struct entity *e, const struct msg_part *p)
{
	struct strbuf disp = STRBUF_INIT;
	enum mime_charset cs = mime_charset_of(p->data, p->len);
	const char *type = p->content_type;
	size_t namelen = strlen(p->filename);

	if (check_filename(p->filename) < 0)
		return -1;
	if (type && !is_content_type(type))
		return error("attachment '%s': invalid content type '%s'",
			     p->filename, shown(type));
	if (!type)
		type = cs == MIME_CS_BINARY ? "application/octet-stream"
					    : "text/plain";
	/*
	 * An attachment's bytes go as they are: text that is not ASCII is
	 * UTF-8 (mime_charset_of() says Latin-1 when every character would
	 * fit it, which only the body is converted to).
	 */
	if (cs == MIME_CS_LATIN1)
		cs = MIME_CS_UTF8;
	/*
	 * RFC 2183 §2.3 filename; RFC 2231 §4 when it is not plain ASCII,
	 * and when it holds "=?": readers decode encoded-word lookalikes
	 * inside a quoted file name, not inside an RFC 2231 value.
	 */
	strbuf_addstr(&disp, "attachment; ");
	if (mime_charset_of(p->filename, namelen) == MIME_CS_ASCII &&
	    !strpbrk(p->filename, "\"\\") && !strstr(p->filename, "=?")) {
		strbuf_addf(&disp, "filename=\"%s\"", p->filename);
	} else {
		strbuf_addstr(&disp, "filename*=");
		mime_rfc2231_value(&disp, p->filename, namelen);
	}
	encode_entity(e, type, NULL, cs, p->data, p->len, disp.buf);
	strbuf_release(&disp);
	return 0;
}

/* ---- boundary ---- */

static uint64_t fnv1a_str(uint64_t h, const char *s)
{
	return fnv1a64(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

static uint64_t msg_hash(const struct msg *m)
{
	uint64_t h = FNV64_INIT;
	size_t i;

	for (i = 0; i < m->nheaders; i++) {
		h = fnv1a_str(h, m->headers[i].name);
		h = fnv1a_str(h, m->headers[i].value);
	}
	h = fnv1a64(h, m->body, m->body_len);
	for (i = 0; i < m->nparts; i++) {
		h = fnv1a_str(h, m->parts[i].filename);
		h = fnv1a_str(h, m->parts[i].content_type);
		h = fnv1a64(h, m->parts[i].data, m->parts[i].len);
	}
	return h;
}

/* The index of the first entity holding `b`, or n when none does. */
static size_t find_collision(const char *b, const struct entity *ents, size_t n)
{
	size_t i, len = strlen(b);

	for (i = 0; i < n; i++)
		if (memmem(ents[i].head.buf, ents[i].head.len, b, len) ||
		    memmem(ents[i].content.buf, ents[i].content.len, b, len))
			break;
	return i;
}

static int pick_boundary(struct strbuf *b, const struct msg *m,
			 const struct entity *ents, size_t n)
{
	uint64_t h;
	size_t hit, tries;

	if (m->boundary) {
		if (!is_boundary(m->boundary))
			return error("invalid MIME boundary '%s'",
				     shown(m->boundary));
		hit = find_collision(m->boundary, ents, n);
		if (hit < n)
			return error(
				"MIME boundary '%s' occurs in %s", m->boundary,
				hit ? m->parts[hit - 1].filename : "the body");
		strbuf_addstr(b, m->boundary);
		return 0;
	}
	h = msg_hash(m);
	for (tries = 0; tries < 64; tries++, h = fnv1a64(h, "+", 1)) {
		strbuf_reset(b);
		strbuf_addf(b, "=_robot_%016" PRIx64, h);
		if (find_collision(b->buf, ents, n) == n)
			return 0;
	}
	return error("no MIME boundary found that occurs in no part");
}

/* ---- the message ---- */

static void add_entity(struct strbuf *out, const struct entity *e)
{
	strbuf_addbuf(out, &e->head);
	strbuf_addch(out, '\n');
	strbuf_addbuf(out, &e->content);
}

static int join_multipart(struct strbuf *out, const struct msg *m,
			  const struct entity *ents, size_t n)
{
	struct strbuf b = STRBUF_INIT, ct = STRBUF_INIT;
	size_t i;

	if (pick_boundary(&b, m, ents, n) < 0) {
		strbuf_release(&b);
		return -1;
	}
	strbuf_addf(&ct, "multipart/mixed; boundary=\"%s\"", b.buf);
	hdr_render_raw(out, "Content-Type", ct.buf);
	strbuf_addch(out, '\n');
	for (i = 0; i < n; i++) {
		strbuf_addf(out, "--%s\n", b.buf);
		add_entity(out, &ents[i]);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "--%s--\n", b.buf);
	strbuf_release(&b);
	strbuf_release(&ct);
	return 0;
}

/* RFC 5322 §2.1.1: every line, header or body, within 998 bytes */
static int check_lines(const struct strbuf *sb)
{
	size_t start = 0, end, line = 1;

	for (;;) {
		const char *nl = memchr(sb->buf + start, '\n', sb->len - start);

		end = nl ? (size_t)(nl - sb->buf) : sb->len;
		if (end - start > HDR_LINE_MAX)
			return error("rendered line %zu is %zu bytes long, "
				     "over %d",
				     line, end - start, HDR_LINE_MAX);
		if (!nl)
			return 0;
		start = end + 1;
		line++;
	}
}

static int render_into(struct strbuf *sb, const struct msg *m,
		       struct entity *ents, size_t n)
{
	size_t i;

	for (i = 0; i < m->nheaders; i++)
		if (hdr_render(sb, m->headers[i].name, m->headers[i].value) < 0)
			return -1;
	strbuf_addstr(sb, "MIME-Version: 1.0\n");
	if (body_entity(&ents[0], m) < 0)
		return -1;
	for (i = 0; i < m->nparts; i++)
		if (part_entity(&ents[i + 1], &m->parts[i]) < 0)
			return -1;
	if (!m->nparts)
		add_entity(sb, &ents[0]);
	else if (join_multipart(sb, m, ents, n) < 0)
		return -1;
	return check_lines(sb);
}

int msg_render(struct strbuf *out, const struct msg *m)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 1 + m->nparts;
	struct entity *ents = xcalloc(n, sizeof(*ents));
	int ret;

	for (i = 0; i < n; i++) {
		strbuf_init(&ents[i].head, 0);
		strbuf_init(&ents[i].content, 0);
	}
	ret = render_into(&sb, m, ents, n);
	if (!ret)
		strbuf_addbuf(out, &sb);
	for (i = 0; i < n; i++) {
		strbuf_release(&ents[i].head);
		strbuf_release(&ents[i].content);
	}
	free(ents);
	strbuf_release(&sb);
	return ret;
}

/* Whether the LF at lf[i] is bare: it becomes CRLF. */
static int bare_lf(const char *lf, size_t i)
{
	return !i || lf[i - 1] != '\r';
}

void msg_crlf_init(struct msg_crlf *c, const char *lf_bytes, size_t len)
{
	const char *p = lf_bytes, *end = lf_bytes + len;

	memset(c, 0, sizeof(*c));
	c->lf = lf_bytes;
	c->len = c->size = len;
	while (p < end && (p = memchr(p, '\n', end - p))) {
		c->size += bare_lf(lf_bytes, p - lf_bytes);
		p++;
	}
}

size_t msg_crlf_read(struct msg_crlf *c, char *buf, size_t n)
{
	size_t i = 0;

	while (i < n) {
		const char *p = c->lf + c->off, *nl;
		size_t run;

		if (c->lf_pending) {
			buf[i++] = '\n';
			c->lf_pending = 0;
			continue;
		}
		if (c->off == c->len)
			break;
		if (*p == '\n') {
			c->lf_pending = bare_lf(c->lf, c->off);
			buf[i++] = c->lf_pending ? '\r' : '\n';
			c->off++;
			continue;
		}
		nl = memchr(p, '\n', c->len - c->off);
		run = nl ? (size_t)(nl - p) : c->len - c->off;
		if (run > n - i)
			run = n - i;
		memcpy(buf + i, p, run);
		i += run;
		c->off += run;
	}
	return i;
}
