// SPDX-License-Identifier: GPL-2.0-only
/*
 * inmime.c: the checked MIME parts of someone else's mail (see inmime.h).
 *
 * libetpan parses (mailmime_parse) and decodes (mailmime_part_parse,
 * charconv); what it lets through is checked here on the tree and on the
 * raw text it points into: a multipart node that libetpan could not split
 * comes back as a single part, and the raw body of a multipart says
 * whether its delimiters are there.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "mail/inmime.h"
#include "mail/inmsg.h"

#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail/etpan.h"

int inmsg_read_file(struct inmsg *m, const char *path, size_t max_bytes,
		    struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	struct stat st;
	ssize_t n;
	int fd, ret = -1;

	memset(m, 0, sizeof(*m));
	fd = open_regular(path, O_RDONLY);
	if (fd < 0) {
		int e = errno;

		strbuf_addf(why, "cannot read '%s': %s", path,
			    robot_strerror(errno));
		/* not a regular file: bad input (65), not a failure */
		errno = e == ENOTREG ? 0 : e;
		goto out;
	}
	if (fstat(fd, &st)) {
		strbuf_addf(why, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	/* the limit comes before any byte is read */
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max_bytes) {
		strbuf_addf(why,
			    "'%s' is %lld bytes, more than the limit of %zu "
			    "for a mail (mail_max_bytes)",
			    path, (long long)st.st_size, max_bytes);
		errno = 0;
		goto out;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_addf(why, "cannot read '%s': %s", path,
				    strerror(errno));
			goto out;
		}
		if (sb.len + (size_t)n > max_bytes) {
			strbuf_addf(why,
				    "'%s' is more than the limit of %zu bytes "
				    "for a mail (mail_max_bytes)",
				    path, max_bytes);
			errno = 0;
			goto out;
		}
		strbuf_add(&sb, buf, n);
	}
	errno = 0;
	if (!sb.len) {
		strbuf_addf(why, "'%s' is empty, not a mail", path);
		goto out;
	}
	if (memchr(sb.buf, '\0', sb.len)) {
		strbuf_addf(why, "'%s' holds NUL bytes, not a mail", path);
		goto out;
	}
	if (inmsg_parse(m, sb.buf, sb.len, why)) {
		strbuf_addf(why, " ('%s')", path);
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	return ret;
}

struct walk {
	struct inmime *out;
	struct strbuf *why;
	size_t nodes;
};

static char *lower_dup(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p += 'a' - 'A';
	return d;
}

static const char *discrete_name(const struct mailmime_discrete_type *d)
{
	switch (d->dt_type) {
	case MAILMIME_DISCRETE_TYPE_TEXT:
		return "text";
	case MAILMIME_DISCRETE_TYPE_IMAGE:
		return "image";
	case MAILMIME_DISCRETE_TYPE_AUDIO:
		return "audio";
	case MAILMIME_DISCRETE_TYPE_VIDEO:
		return "video";
	case MAILMIME_DISCRETE_TYPE_APPLICATION:
		return "application";
	default:
		return d->dt_extension ? d->dt_extension : "application";
	}
}

static const char *composite_name(const struct mailmime_composite_type *c)
{
	if (c->ct_type == MAILMIME_COMPOSITE_TYPE_MESSAGE)
		return "message";
	if (c->ct_type == MAILMIME_COMPOSITE_TYPE_MULTIPART)
		return "multipart";
	return c->ct_token ? c->ct_token : "multipart";
}

/* "type/subtype" in lower case; no Content-Type is text/plain. */
static char *type_of(const struct mailmime_content *ct)
{
	struct strbuf sb = STRBUF_INIT;
	char *ret;

	if (!ct || !ct->ct_type || !ct->ct_subtype)
		return xstrdup("text/plain");
	if (ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE)
		strbuf_addstr(
			&sb,
			discrete_name(ct->ct_type->tp_data.tp_discrete_type));
	else
		strbuf_addstr(
			&sb,
			composite_name(ct->ct_type->tp_data.tp_composite_type));
	strbuf_addf(&sb, "/%s", ct->ct_subtype);
	ret = lower_dup(sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* A parameter of a Content-Type (libetpan's getter wants a char *). */
static const char *ct_param(struct mailmime_content *ct, const char *name)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%s", name);
	return ct ? mailmime_content_param_get(ct, buf) : NULL;
}

static int is_multipart(const struct mailmime_content *ct)
{
	return ct && ct->ct_type &&
	       ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE &&
	       ct->ct_type->tp_data.tp_composite_type->ct_type ==
		       MAILMIME_COMPOSITE_TYPE_MULTIPART;
}

/* A line of `text` that is "--BOUNDARY" (closing: "--BOUNDARY--"). */
static int has_delimiter(const char *text, size_t len, const char *boundary,
			 int closing)
{
	size_t blen = strlen(boundary);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end, *q;

		if ((size_t)(e - p) >= blen + 2 && p[0] == '-' && p[1] == '-' &&
		    !memcmp(p + 2, boundary, blen)) {
			q = p + 2 + blen;
			if (closing) {
				if (e - q >= 2 && q[0] == '-' && q[1] == '-') {
					q += 2;
					while (q < e &&
					       (*q == ' ' || *q == '\t' ||
						*q == '\r'))
						q++;
					if (q == e)
						return 1;
				}
			} else {
				while (q < e &&
				       (*q == ' ' || *q == '\t' || *q == '\r'))
					q++;
				if (q == e)
					return 1;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static int check_multipart(struct walk *w, struct mailmime *mm)
{
	const char *b = ct_param(mm->mm_content_type, "boundary");
	char *type = type_of(mm->mm_content_type);
	int ret = 0;

	if (!b || !*b || mm->mm_type != MAILMIME_MULTIPLE) {
		strbuf_addf(w->why, "a %s part without a boundary parameter",
			    type);
		ret = -1;
	} else if (!mm->mm_body ||
		   !has_delimiter(mm->mm_body->dt_data.dt_text.dt_data,
				  mm->mm_body->dt_data.dt_text.dt_length, b,
				  0)) {
		strbuf_addf(w->why,
			    "a %s part whose boundary \"%s\" never starts a "
			    "line",
			    type, b);
		ret = -1;
	} else if (!has_delimiter(mm->mm_body->dt_data.dt_text.dt_data,
				  mm->mm_body->dt_data.dt_text.dt_length, b,
				  1)) {
		strbuf_addf(w->why,
			    "a %s part that ends without its closing "
			    "boundary \"--%s--\"",
			    type, b);
		ret = -1;
	}
	free(type);
	return ret;
}

/* A file name from RFC 2231's "filename*=charset'lang'%XX..." form. */
static char *rfc2231_name(const struct mailmime_disposition *d)
{
	clistiter *it;

	if (!d || !d->dsp_parms)
		return NULL;
	for (it = clist_begin(d->dsp_parms); it; it = clist_next(it)) {
		struct mailmime_disposition_parm *p = clist_content(it);
		const char *v, *q;
		struct strbuf sb = STRBUF_INIT;

		if (p->pa_type != MAILMIME_DISPOSITION_PARM_PARAMETER ||
		    strcasecmp(p->pa_data.pa_parameter->pa_name, "filename*"))
			continue;
		v = p->pa_data.pa_parameter->pa_value;
		q = strchr(v, '\'');
		q = q ? strchr(q + 1, '\'') : NULL;
		for (v = q ? q + 1 : v; *v; v++) {
			unsigned hi, lo;

			if (*v == '%' &&
			    sscanf(v + 1, "%1x%1x", &hi, &lo) == 2) {
				strbuf_addch(&sb, (int)(hi * 16 + lo));
				v += 2;
			} else {
				strbuf_addch(&sb, *v);
			}
		}
		return strbuf_detach(&sb, NULL);
	}
	return NULL;
}

/* A name as UTF-8: encoded-words decoded, anything else kept if UTF-8. */
static char *decode_name(const char *s)
{
	char *dec = NULL;
	size_t idx = 0, i;
	char *ret;

	if (strstr(s, "=?") &&
	    mailmime_encoded_phrase_parse("utf-8", s, strlen(s), &idx, "utf-8",
					  &dec) == MAILIMF_NO_ERROR &&
	    dec) {
		ret = xstrdup(dec);
		free(dec);
	} else {
		ret = xstrdup(s);
	}
	if (!utf8_valid(ret, strlen(ret)))
		for (i = 0; ret[i]; i++)
			if ((unsigned char)ret[i] >= 0x80)
				ret[i] = '?';
	return ret;
}

static int base64_clean(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '+' || c == '/' ||
		      c == '=' || c == '\r' || c == '\n' || c == ' ' ||
		      c == '\t'))
			return 0;
	}
	return 1;
}

/* Base64 text whose characters make no whole 4-character groups. */
static int base64_cut(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (s[i] != '\r' && s[i] != '\n' && s[i] != ' ' && s[i] != '\t')
			n++;
	return n % 4 != 0;
}

static void add_part(struct walk *w, struct mailmime *mm, const char *data,
		     size_t len)
{
	struct inmime *out = w->out;
	struct inpart *p;
	const char *cs;

	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	p = &out->v[out->n++];
	memset(p, 0, sizeof(*p));
	p->type = type_of(mm->mm_content_type);
	cs = ct_param(mm->mm_content_type, "charset");
	if (cs && *cs)
		p->charset = lower_dup(cs);
	p->data = xmalloc(len + 1);
	memcpy(p->data, data, len);
	p->data[len] = '\0';
	p->len = len;
}

static int single(struct walk *w, struct mailmime *mm)
{
	struct mailmime_single_fields sf;
	struct mailmime_data *d = mm->mm_data.mm_single;
	const char *name;
	char *dec = NULL, *named;
	size_t idx = 0, dec_len = 0;
	int enc;

	mailmime_single_fields_init(&sf, mm->mm_mime_fields,
				    mm->mm_content_type);
	enc = sf.fld_encoding ? sf.fld_encoding->enc_type
			      : MAILMIME_MECHANISM_8BIT;
	if (enc == MAILMIME_MECHANISM_TOKEN ||
	    enc == MAILMIME_MECHANISM_ERROR) {
		strbuf_addf(w->why,
			    "a part with the unknown Content-Transfer-Encoding "
			    "\"%s\"",
			    sf.fld_encoding && sf.fld_encoding->enc_token
				    ? sf.fld_encoding->enc_token
				    : "?");
		return -1;
	}
	if (!d || d->dt_type != MAILMIME_DATA_TEXT) {
		add_part(w, mm, "", 0);
	} else {
		const char *text = d->dt_data.dt_text.dt_data;
		size_t len = d->dt_data.dt_text.dt_length;

		if (enc == MAILMIME_MECHANISM_BASE64 &&
		    !base64_clean(text, len)) {
			strbuf_addstr(w->why, "a base64 part with characters "
					      "base64 does not use");
			return -1;
		}
		if (enc == MAILMIME_MECHANISM_BASE64 && base64_cut(text, len)) {
			strbuf_addstr(w->why,
				      "a base64 part that is cut off (its "
				      "characters are no whole groups of 4)");
			return -1;
		}
		if (mailmime_part_parse(text, len, &idx, enc, &dec, &dec_len) !=
		    MAILIMF_NO_ERROR) {
			strbuf_addstr(w->why, "a part whose transfer encoding "
					      "cannot be undone");
			return -1;
		}
		add_part(w, mm, dec, dec_len);
		mailmime_decoded_part_free(dec);
	}
	name = sf.fld_disposition_filename ? sf.fld_disposition_filename
					   : sf.fld_content_name;
	named = name ? decode_name(name) : rfc2231_name(sf.fld_disposition);
	if (named && !*named) {
		free(named);
		named = NULL;
	}
	w->out->v[w->out->n - 1].filename = named;
	w->out->v[w->out->n - 1].attachment =
		sf.fld_disposition && sf.fld_disposition->dsp_type &&
		sf.fld_disposition->dsp_type->dsp_type ==
			MAILMIME_DISPOSITION_TYPE_ATTACHMENT;
	return 0;
}

static int walk(struct walk *w, struct mailmime *mm, int depth)
{
	clistiter *it;

	if (++w->nodes > INMIME_MAX_PARTS) {
		strbuf_addf(w->why, "more than %d MIME parts",
			    INMIME_MAX_PARTS);
		return -1;
	}
	if (depth > INMIME_MAX_DEPTH) {
		strbuf_addf(w->why, "MIME parts nested deeper than %d",
			    INMIME_MAX_DEPTH);
		return -1;
	}
	if (is_multipart(mm->mm_content_type) ||
	    mm->mm_type == MAILMIME_MULTIPLE) {
		if (check_multipart(w, mm))
			return -1;
		for (it = clist_begin(mm->mm_data.mm_multipart.mm_mp_list); it;
		     it = clist_next(it))
			if (walk(w, clist_content(it), depth + 1))
				return -1;
		return 0;
	}
	if (mm->mm_type == MAILMIME_MESSAGE) {
		/* an attached message: one part holding it whole */
		if (mm->mm_body)
			add_part(w, mm, mm->mm_body->dt_data.dt_text.dt_data,
				 mm->mm_body->dt_data.dt_text.dt_length);
		else
			add_part(w, mm, "", 0);
		return 0;
	}
	return single(w, mm);
}

/*
 * The nesting, checked before libetpan parses: mailmime_parse() reads
 * every level's body again for each level inside it, so N nested
 * multiparts cost N times the mail.  This scan reads each line once,
 * holding the boundaries of the open multiparts (at most
 * INMIME_MAX_DEPTH of them), and stops at the first level too deep
 * or part too many; what it lets through, walk() checks again on the
 * tree libetpan builds.
 */
struct scan_level {
	char *boundary; /* NULL: an attached message (ends with its parent) */
	int digest;	/* multipart/digest: a part without type is a message */
};

struct scan {
	struct scan_level v[INMIME_MAX_DEPTH + 2];
	size_t depth, parts;
	struct strbuf *why;
};

/* The end of the line at p (past its LF), and the line without CR LF. */
static const char *line_end(const char *p, const char *end, size_t *len)
{
	const char *nl = memchr(p, '\n', end - p);
	const char *e = nl ? nl : end;

	*len = e - p;
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return nl ? nl + 1 : end;
}

/*
 * The header block at *pp (to its empty line): the Content-Type, unfolded,
 * into ct ("" without one).  *pp moves past the block.
 */
static void scan_header(const char **pp, const char *end, struct strbuf *ct)
{
	const char *p = *pp;
	int in_ct = 0;

	strbuf_reset(ct);
	while (p < end) {
		size_t len;
		const char *next = line_end(p, end, &len);

		if (!len) {
			p = next;
			break;
		}
		if (*p == ' ' || *p == '\t') {
			if (in_ct && ct->len < 4096)
				strbuf_add(ct, p, len);
		} else {
			in_ct = len > 13 &&
				!strncasecmp(p, "Content-Type:", 13);
			if (in_ct) {
				strbuf_reset(ct);
				strbuf_add(ct, p + 13,
					   len - 13 < 4096 ? len - 13 : 4096);
			}
		}
		p = next;
	}
	*pp = p;
}

static int scan_push(struct scan *sc, char *boundary, int digest)
{
	if (sc->depth >= INMIME_MAX_DEPTH) {
		free(boundary);
		strbuf_addf(sc->why, "MIME parts nested deeper than %d",
			    INMIME_MAX_DEPTH);
		return -1;
	}
	sc->v[sc->depth].boundary = boundary;
	sc->v[sc->depth].digest = digest;
	sc->depth++;
	return 0;
}

static void scan_pop(struct scan *sc, size_t to)
{
	while (sc->depth > to)
		free(sc->v[--sc->depth].boundary);
}

/*
 * The header at *pp opens the levels its Content-Type says (a multipart,
 * an attached message, whose own header follows).  `digest`: the part is
 * in a multipart/digest.
 */
static int scan_part(struct scan *sc, const char **pp, const char *end,
		     int digest)
{
	struct strbuf v = STRBUF_INIT;
	int ret = 0;

	for (;;) {
		struct mailmime_content *ct = NULL;
		size_t idx = 0;
		int message = 0;

		scan_header(pp, end, &v);
		if (!v.len) {
			message = digest;
		} else if (mailmime_content_parse(v.buf, v.len, &idx, &ct) ==
				   MAILIMF_NO_ERROR &&
			   ct->ct_subtype) {
			const char *b = ct_param(ct, "boundary");

			if (is_multipart(ct) && b && *b)
				ret = scan_push(
					sc, xstrdup(b),
					!strcasecmp(ct->ct_subtype, "digest"));
			else if (ct->ct_type &&
				 ct->ct_type->tp_type ==
					 MAILMIME_TYPE_COMPOSITE_TYPE &&
				 ct->ct_type->tp_data.tp_composite_type
						 ->ct_type ==
					 MAILMIME_COMPOSITE_TYPE_MESSAGE &&
				 !strcasecmp(ct->ct_subtype, "rfc822"))
				message = 1;
		}
		if (ct)
			mailmime_content_free(ct);
		if (ret || !message)
			break;
		ret = scan_push(sc, NULL, 0);
		if (ret)
			break;
		digest = 0;
	}
	strbuf_release(&v);
	return ret;
}

/* The open level whose boundary the line is a delimiter of, or -1. */
static long scan_delimiter(const struct scan *sc, const char *p, size_t len,
			   int *closing)
{
	size_t i = sc->depth;

	if (len < 2 || p[0] != '-' || p[1] != '-')
		return -1;
	while (i-- > 0) {
		const char *b = sc->v[i].boundary;
		size_t bl, k;

		if (!b)
			continue;
		bl = strlen(b);
		if (len < bl + 2 || memcmp(p + 2, b, bl))
			continue;
		k = bl + 2;
		*closing = len >= k + 2 && p[k] == '-' && p[k + 1] == '-';
		if (*closing)
			k += 2;
		while (k < len && (p[k] == ' ' || p[k] == '\t'))
			k++;
		if (k == len)
			return (long)i;
	}
	return -1;
}

int inmime_check_nesting(const char *raw, size_t len, struct strbuf *why)
{
	struct scan sc = { .why = why };
	const char *p = raw, *end = raw + len;
	int ret = scan_part(&sc, &p, end, 0);

	while (!ret && p < end) {
		size_t n;
		const char *next = line_end(p, end, &n);
		int closing = 0;
		long lv;

		/* no boundary open: nothing further can nest */
		if (!sc.depth)
			break;
		lv = scan_delimiter(&sc, p, n, &closing);
		p = next;
		if (lv < 0)
			continue;
		if (closing) {
			scan_pop(&sc, (size_t)lv);
			continue;
		}
		scan_pop(&sc, (size_t)lv + 1);
		if (++sc.parts > INMIME_MAX_PARTS) {
			strbuf_addf(why, "more than %d MIME parts",
				    INMIME_MAX_PARTS);
			ret = -1;
			break;
		}
		ret = scan_part(&sc, &p, end, sc.v[lv].digest);
	}
	scan_pop(&sc, 0);
	return ret;
}

/* The top-level Content-Type, when the mail has one, must parse. */
static int check_top_type(const struct inmsg *m, struct strbuf *why)
{
	const char *v = inmsg_get(m, "Content-Type");
	struct mailmime_content *ct = NULL;
	size_t idx = 0;

	if (!v)
		return 0;
	int ret = 0;

	/* libetpan stops at what it cannot read: the rest must be empty */
	if (mailmime_content_parse(v, strlen(v), &idx, &ct) !=
		    MAILIMF_NO_ERROR ||
	    !ct->ct_subtype || v[idx + strspn(v + idx, " \t;")]) {
		strbuf_addf(why, "Content-Type: cannot parse \"%.80s\"", v);
		ret = -1;
	}
	if (ct)
		mailmime_content_free(ct);
	return ret;
}

int inmime_parse(struct inmime *out, const struct inmsg *m, struct strbuf *why)
{
	struct walk w = { .out = out, .why = why };
	struct mailmime *mime = NULL, *top;
	size_t idx = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (check_top_type(m, why) ||
	    inmime_check_nesting(m->raw, m->raw_len, why))
		return -1;
	if (mailmime_parse(m->raw, m->raw_len, &idx, &mime) !=
		    MAILIMF_NO_ERROR ||
	    !mime) {
		strbuf_addstr(why, "the MIME structure cannot be read");
		return -1;
	}
	top = mime->mm_type == MAILMIME_MESSAGE
		      ? mime->mm_data.mm_message.mm_msg_mime
		      : mime;
	if (!top) {
		/* a header and no body at all: one empty text part */
		add_part(&w, mime, "", 0);
		ret = 0;
	} else {
		ret = walk(&w, top, 0);
	}
	mailmime_free(mime);
	if (ret)
		inmime_release(out);
	return ret;
}

void inmime_release(struct inmime *mm)
{
	size_t i;

	for (i = 0; i < mm->n; i++) {
		free(mm->v[i].type);
		free(mm->v[i].charset);
		free(mm->v[i].filename);
		free(mm->v[i].data);
	}
	free(mm->v);
	memset(mm, 0, sizeof(*mm));
}

int inmsg_date_zone(const struct inmsg *m, int64_t *t, int *tz)
{
	const char *v = inmsg_get(m, "Date");
	struct mailimf_date_time *dt = NULL;
	size_t idx = 0;
	int zone;

	if (!v || inmsg_date(m, t) ||
	    mailimf_date_time_parse(v, strlen(v), &idx, &dt) !=
		    MAILIMF_NO_ERROR)
		return -1;
	/* libetpan gives the zone as the number hhmm: -0730 is -730 */
	zone = dt->dt_zone < 0 ? -dt->dt_zone : dt->dt_zone;
	*tz = (zone / 100 * 60 + zone % 100) * (dt->dt_zone < 0 ? -1 : 1);
	mailimf_date_time_free(dt);
	return 0;
}

int inpart_is_text(const struct inpart *p)
{
	return !p->type || !strncmp(p->type, "text/", 5);
}

void inpart_text(const struct inpart *p, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	char *conv = NULL;
	size_t i;

	if (p->charset && strcmp(p->charset, "utf-8") &&
	    strcmp(p->charset, "us-ascii") &&
	    charconv("utf-8", p->charset, p->data, p->len, &conv) ==
		    MAIL_CHARCONV_NO_ERROR &&
	    conv) {
		strbuf_addstr(&raw, conv);
		free(conv);
	} else if (utf8_valid(p->data, p->len)) {
		strbuf_add(&raw, p->data, p->len);
	} else {
		/* no charset that works: ISO-8859-1, every byte a letter */
		for (i = 0; i < p->len; i++) {
			unsigned char c = (unsigned char)p->data[i];

			if (c < 0x80) {
				strbuf_addch(&raw, c);
			} else {
				strbuf_addch(&raw, 0xc0 | (c >> 6));
				strbuf_addch(&raw, 0x80 | (c & 0x3f));
			}
		}
	}
	for (i = 0; i < raw.len; i++)
		if (!(raw.buf[i] == '\r' && i + 1 < raw.len &&
		      raw.buf[i + 1] == '\n'))
			strbuf_addch(out, raw.buf[i]);
	strbuf_release(&raw);
}
