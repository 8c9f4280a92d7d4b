// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch.c: finding the patch in a follow-up (patch.h).
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/patch.h"
#include "mail/lore.h"

#include <ctype.h>
#include <strings.h>

const char *patch_how_name(enum patch_how how)
{
	switch (how) {
	case PATCH_INLINE:
		return "inline";
	case PATCH_ATTACHED:
		return "attached";
	case PATCH_LINK:
		return "lore link";
	}
	return "?";
}

void patch_found_release(struct patch_found *p)
{
	strbuf_release(&p->mbox);
	free(p->subject);
	free(p->message_id);
	free(p->author);
	free(p->link);
	free(p->file);
	memset(p, 0, sizeof(*p));
	strbuf_init(&p->mbox, 0);
}

/* ---- diffs ---- */

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

static int starts(const char *p, const char *s)
{
	return !strncmp(p, s, strlen(s));
}

/* "@@ -a[,b] +c[,d] @@": the old and new line counts. */
static int hunk_header(const char *p, long *old, long *new)
{
	long a, b = 1, c, d = 1;
	char *e;

	if (!starts(p, "@@ -"))
		return 0;
	a = strtol(p + 4, &e, 10);
	if (e == p + 4 || a < 0)
		return 0;
	if (*e == ',') {
		b = strtol(e + 1, &e, 10);
		if (b < 0)
			return 0;
	}
	if (strncmp(e, " +", 2))
		return 0;
	c = strtol(e + 2, &e, 10);
	if (c < 0)
		return 0;
	if (*e == ',') {
		d = strtol(e + 1, &e, 10);
		if (d < 0)
			return 0;
	}
	if (strncmp(e, " @@", 3))
		return 0;
	*old = b;
	*new = d;
	return 1;
}

/* The extended header lines of a git diff. */
static int git_header_line(const char *p)
{
	static const char *const heads[] = {
		"index ",
		"old mode ",
		"new mode ",
		"deleted file mode ",
		"new file mode ",
		"similarity index ",
		"dissimilarity index ",
		"rename from ",
		"rename to ",
		"copy from ",
		"copy to ",
		"Binary files ",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(heads); i++)
		if (starts(p, heads[i]))
			return 1;
	return 0;
}

/* "--- a/x\n+++ b/x\n@@ ": a file's old and new names, then a hunk. */
static int file_names(const char *p)
{
	const char *q;
	long o, n;

	if (!starts(p, "--- "))
		return 0;
	q = next_line(p);
	if (!starts(q, "+++ "))
		return 0;
	return hunk_header(next_line(q), &o, &n);
}

/* The length of one file's diff at p (0: none). */
static size_t file_diff(const char *p)
{
	const char *start = p;
	int git = 0, hunks = 0;
	long old, new;

	if (starts(p, "diff --git ")) {
		git = 1;
		p = next_line(p);
		while (*p && git_header_line(p))
			p = next_line(p);
	}
	if (starts(p, "--- ") && starts(next_line(p), "+++ ")) {
		p = next_line(next_line(p));
	} else if (git) {
		return p - start; /* a mode change, a rename: no hunk */
	} else {
		return 0;
	}
	while (hunk_header(p, &old, &new)) {
		hunks++;
		p = next_line(p);
		while (*p && (old > 0 || new > 0)) {
			if (*p == ' ' || *p == '\n') {
				old--;
				new --;
			} else if (*p == '-') {
				old--;
			} else if (*p == '+') {
				new --;
			} else if (*p != '\\') {
				return 0; /* not the lines the hunk counts */
			}
			if (old < 0 || new < 0)
				return 0;
			p = next_line(p);
		}
		if (old > 0 || new > 0)
			return 0;
		while (*p == '\\') /* "\ No newline at end of file" */
			p = next_line(p);
	}
	return hunks ? (size_t)(p - start) : 0;
}

size_t patch_diff_len(const char *text)
{
	const char *p = text;
	size_t n;

	while (*p && (n = file_diff(p)))
		p += n;
	return p - text;
}

/* Where the first diff of `text` starts, or NULL. */
static const char *diff_start(const char *text)
{
	const char *p;

	for (p = text; *p; p = next_line(p))
		if ((starts(p, "diff --git ") || file_names(p)) && file_diff(p))
			return p;
	return NULL;
}

/* git's scissors: a line of dashes with ">8" or "8<" ("-- >8 --"). */
static int scissors(const char *p)
{
	size_t len = strcspn(p, "\n"), i, dashes = 0, marks = 0;

	for (i = 0; i < len; i++) {
		if (p[i] == '-') {
			dashes++;
		} else if (i + 1 < len && ((p[i] == '>' && p[i + 1] == '8') ||
					   (p[i] == '8' && p[i + 1] == '<'))) {
			marks++;
			i++;
		} else if (!strncasecmp(p + i, "cut here", 8)) {
			i += 7;
		} else if (p[i] != ' ' && p[i] != '\t') {
			return 0;
		}
	}
	return marks == 1 && dashes >= 2;
}

size_t patch_text_start(const char *text)
{
	const char *p, *d, *sep = NULL;

	for (p = text; *p; p = next_line(p))
		if (scissors(p))
			return p - text;
	d = diff_start(text);
	if (!d)
		return strlen(text);
	for (p = text; p < d; p = next_line(p))
		if (!strncmp(p, "---\n", 4))
			sep = p;
	return (sep ? sep : d) - text;
}

/* ---- the mbox ---- */

/* Appends `text` as an mbox body: ">From " quoting (mboxrd). */
static void add_body(struct strbuf *out, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *q = p;
		const char *e = nl ? nl + 1 : end;

		while (q < e && *q == '>')
			q++;
		if (e - q >= 5 && !memcmp(q, "From ", 5))
			strbuf_addch(out, '>');
		strbuf_add(out, p, e - p);
		p = e;
	}
	if (len && text[len - 1] != '\n')
		strbuf_addch(out, '\n');
}

static void add_header_line(struct strbuf *out, const char *name,
			    const char *value)
{
	const char *p;

	if (!value || !*value)
		return;
	strbuf_addf(out, "%s: ", name);
	for (p = value; *p; p++)
		strbuf_addch(out, *p == '\n' || *p == '\r' ? ' ' : *p);
	strbuf_addch(out, '\n');
}

static void mbox_entry(struct strbuf *out, const char *author, const char *date,
		       const char *subject, const char *msgid, const char *body,
		       size_t len)
{
	strbuf_addstr(out, "From 0000000000000000000000000000000000000000 "
			   "Mon Sep 17 00:00:00 2001\n");
	add_header_line(out, "From", author);
	add_header_line(out, "Date", date);
	add_header_line(out, "Subject", subject);
	add_header_line(out, "Message-ID", msgid);
	strbuf_addch(out, '\n');
	add_body(out, body, len);
}

/* "Re: Re: [PATCH] x" -> "[PATCH] x" */
static char *subject_of(const char *s)
{
	for (;;) {
		s += strspn(s, " ");
		if (strncasecmp(s, "re:", 3) && strncasecmp(s, "aw:", 3))
			return xstrdup(s);
		s += 3;
	}
}

static void author_of(struct strbuf *out, const struct followup *f)
{
	if (f->from.nr)
		hdr_format_mailbox(out, f->from.v[0].display,
				   f->from.v[0].addr);
}

/*
 * What a patch's in-body or attached header gives robot's own values (its
 * Subject, its author, in test-request.yaml, in patch.mbox and in the
 * answer): one line of visible text, as robot reply reads it back.
 */
static void make_visible(struct strbuf *sb)
{
	struct strbuf v = STRBUF_INIT;

	utf8_add_visible(&v, sb->buf, sb->len);
	strbuf_reset(sb);
	strbuf_addbuf(sb, &v);
	strbuf_release(&v);
}

static char *visible_dup(char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		return NULL;
	utf8_add_visible(&sb, s, strlen(s));
	free(s);
	return strbuf_detach(&sb, NULL);
}

/* ---- inline ---- */

/*
 * In-body headers after the scissors ("From: ...", "Subject: ...",
 * "Date: ..."), then an empty line; returns where the message starts.
 */
static const char *in_body_headers(const char *p, struct strbuf *from,
				   struct strbuf *subject, struct strbuf *date)
{
	const char *q = p;

	while (*q == '\n')
		q++;
	for (;;) {
		size_t len = strcspn(q, "\n");
		struct strbuf *dst = NULL;
		size_t skip = 0;

		if (!strncasecmp(q, "From: ", 6))
			dst = from, skip = 6;
		else if (!strncasecmp(q, "Subject: ", 9))
			dst = subject, skip = 9;
		else if (!strncasecmp(q, "Date: ", 6))
			dst = date, skip = 6;
		if (!dst)
			break;
		strbuf_reset(dst);
		strbuf_add(dst, q + skip, len - skip);
		q = next_line(q);
	}
	return q == p ? p : q;
}

static int find_inline(struct patch_found *out, const struct followup *f)
{
	struct strbuf from = STRBUF_INIT, subject = STRBUF_INIT,
		      date = STRBUF_INIT, body = STRBUF_INIT;
	const char *text = f->text, *p, *d, *msg = NULL;
	char *s;
	size_t len;
	int own = 0; /* the patch has a subject of its own */

	for (p = text; *p; p = next_line(p))
		if (scissors(p)) {
			msg = next_line(p);
			break;
		}
	d = diff_start(msg ? msg : text);
	if (!d)
		return 0;
	len = patch_diff_len(d);
	author_of(&from, f);
	s = subject_of(f->subject);
	strbuf_addstr(&subject, s);
	free(s);
	strbuf_addstr(&date, inmsg_get(&f->msg, "Date")
				     ? inmsg_get(&f->msg, "Date")
				     : "");
	if (msg) {
		/* after the scissors: a commit as `git am --scissors` reads it
		 */
		strbuf_reset(&subject);
		msg = in_body_headers(msg, &from, &subject, &date);
		own = subject.len > 0;
		if (!own) {
			s = subject_of(f->subject);
			strbuf_addstr(&subject, s);
			free(s);
		}
		while (*msg == '\n' && msg < d)
			msg++;
		strbuf_add(&body, msg, d - msg);
	} else if (strstr(f->subject, "PATCH")) {
		/* the mail is the patch: its text is the commit message */
		strbuf_add(&body, text, d - text);
		own = 1;
	} else {
		/* a diff among their words: no commit message of its own */
		strbuf_addf(&body, "The diff sent in %s.\n\n---\n",
			    f->message_id ? f->message_id : f->path);
	}
	if (!strstr(body.buf, "\n---\n") && strncmp(body.buf, "---\n", 4))
		strbuf_addstr(&body, "---\n");
	strbuf_add(&body, d, len);
	make_visible(&from);
	make_visible(&subject);
	make_visible(&date);
	mbox_entry(&out->mbox, from.buf, date.buf, subject.buf, f->message_id,
		   body.buf, body.len);
	out->how = PATCH_INLINE;
	out->subject = own ? strbuf_detach(&subject, NULL) : NULL;
	out->author = strbuf_detach(&from, NULL);
	out->message_id = f->message_id ? xstrdup(f->message_id) : NULL;
	strbuf_release(&subject);
	strbuf_release(&date);
	strbuf_release(&body);
	return 1;
}

/* ---- attached ---- */

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcasecmp(s + n - k, suffix);
}

static int patch_part(const struct inpart *p)
{
	static const char *const types[] = {
		"text/x-patch",	       "text/x-diff",
		"application/x-patch", "text/x-diff-patch",
		"application/x-diff",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(p->type, types[i]))
			return 1;
	return p->filename && (has_suffix(p->filename, ".patch") ||
			       has_suffix(p->filename, ".diff"));
}

/* "From <40 hex> Mon Sep 17 00:00:00 2001": git format-patch's first line */
static int format_patch(const char *t)
{
	size_t i;

	if (strncmp(t, "From ", 5))
		return 0;
	for (i = 5; i < 45; i++)
		if (!isxdigit((unsigned char)t[i]))
			return 0;
	return !strncmp(t + 45, " Mon Sep 17 00:00:00 2001\n", 26);
}

/* The unfolded value of the first header `name` of an mbox's message. */
static char *mbox_header(const char *t, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = next_line(t); *p && *p != '\n'; p = next_line(p)) {
		struct strbuf sb = STRBUF_INIT;
		const char *q;

		if (strncasecmp(p, name, n) || p[n] != ':')
			continue;
		q = p + n + 1;
		q += strspn(q, " ");
		strbuf_add(&sb, q, strcspn(q, "\n"));
		for (q = next_line(q); *q == ' ' || *q == '\t';
		     q = next_line(q)) {
			strbuf_addch(&sb, ' ');
			q += strspn(q, " \t");
			strbuf_add(&sb, q, strcspn(q, "\n"));
		}
		return strbuf_detach(&sb, NULL);
	}
	return NULL;
}

static int find_attached(struct patch_found *out, const struct followup *f)
{
	struct strbuf text = STRBUF_INIT, from = STRBUF_INIT,
		      body = STRBUF_INIT;
	const struct inpart *p = NULL, *lost = NULL;
	size_t i;
	int ret = 0;

	for (i = 0; i < f->mime.n && !p; i++) {
		const struct inpart *q = &f->mime.v[i];

		if (!q->attachment && !q->filename)
			continue;
		strbuf_reset(&text);
		if (inpart_is_text(q) || patch_part(q))
			inpart_text(q, &text);
		if (patch_part(q) && !diff_start(text.buf)) {
			if (!lost)
				lost = q;
			continue;
		}
		if (patch_part(q) ||
		    (inpart_is_text(q) && diff_start(text.buf)))
			p = q;
	}
	if (!p && lost) {
		/* a patch file robot cannot read is no retest */
		error("%s: the attached patch%s%s%s holds no diff robot "
		      "can read%s%s%s",
		      f->path, lost->filename ? " '" : "",
		      lost->filename ? lost->filename : "",
		      lost->filename ? "'" : "",
		      lost->charset ? " (charset " : "",
		      lost->charset ? lost->charset : "",
		      lost->charset ? ")" : "");
		ret = -EXIT_DATAERR;
		goto out;
	}
	if (!p || !diff_start(text.buf))
		goto out;
	out->how = PATCH_ATTACHED;
	/* a name is someone's text: no line break into the message */
	out->file = p->filename ? visible_dup(xstrdup(p->filename)) : NULL;
	out->message_id = f->message_id ? xstrdup(f->message_id) : NULL;
	if (format_patch(text.buf)) {
		/* a `git format-patch` file: kept as it is */
		strbuf_addbuf(&out->mbox, &text);
		if (text.len && text.buf[text.len - 1] != '\n')
			strbuf_addch(&out->mbox, '\n');
		out->subject = visible_dup(mbox_header(text.buf, "Subject"));
		out->author = visible_dup(mbox_header(text.buf, "From"));
	} else {
		const char *d = diff_start(text.buf);

		char *subject = subject_of(f->subject);

		author_of(&from, f);
		out->author = strbuf_detach(&from, NULL);
		strbuf_addf(&body, "The patch attached to %s%s%s.\n\n",
			    f->message_id ? f->message_id : f->path,
			    out->file ? " as " : "",
			    out->file ? out->file : "");
		strbuf_add(&body, text.buf, d - text.buf);
		if (!strstr(body.buf, "\n---\n"))
			strbuf_addstr(&body, "---\n");
		strbuf_add(&body, d, patch_diff_len(d));
		mbox_entry(&out->mbox, out->author, inmsg_get(&f->msg, "Date"),
			   subject, f->message_id, body.buf, body.len);
		free(subject);
	}
	ret = 1;
out:
	strbuf_release(&text);
	strbuf_release(&from);
	strbuf_release(&body);
	return ret;
}

/* ---- a link ---- */

static int in_thread(const struct followup *f, const char *id)
{
	size_t i;

	if (f->message_id && !strcmp(f->message_id, id))
		return 1;
	for (i = 0; i < f->nrefs; i++)
		if (!strcmp(f->refs[i], id))
			return 1;
	return 0;
}

/* 1 found, 0 none, or minus an exit code after an error line. */
static int find_inline_or_attached(struct patch_found *out,
				   const struct followup *f)
{
	return find_inline(out, f) ? 1 : find_attached(out, f);
}

/*
 * The first link in their own words to a message that is not of this
 * thread; fetched and searched.
 */
/*
 * The most links of one mail robot asks the archive for: each costs a
 * request (at most lore_rate a second), and a mail can hold thousands.
 */
#define LINKS_MAX 8

static int find_link(struct patch_found *out, const struct followup *f,
		     struct lore *l)
{
	struct strbuf ctx = STRBUF_INIT;
	const char *p;
	int ret = 0, asked = 0;

	for (p = f->text; *p && !ret && asked <= LINKS_MAX; p = next_line(p)) {
		const char *u = p, *line_end = p + strcspn(p, "\n");

		if (*p == '>')
			continue;
		/* within the line: a search to the text's end a line
		 * was quadratic in the mail's size */
		while ((u = memmem(u, line_end - u, "http", 4))) {
			size_t len = strcspn(u, " \t\n<>\"'()");
			char *url = xstrndup(u, len), *id;
			struct inmsg *msgs = NULL;
			struct followup inner;
			size_t nr = 0;
			int got;

			u += len;
			while (len &&
			       (url[len - 1] == '.' || url[len - 1] == ','))
				url[--len] = '\0';
			/* a link under lore_url, or to a known archive:
			 * only ever asked of lore_url */
			id = lore_link_msgid(url, lore_base_url(l));
			if (id && !in_thread(f, id) && ++asked > LINKS_MAX) {
				free(id);
				free(url);
				break;
			}
			if (!id || in_thread(f, id)) {
				free(id);
				free(url);
				continue;
			}
			/* lore's error lines name the mail and its link */
			strbuf_reset(&ctx);
			strbuf_addf(&ctx, "%s: the link %s", f->path, url);
			error_context(ctx.buf);
			got = lore_raw(l, id, &msgs, &nr);
			error_context(NULL);
			if (got == LORE_TEMPFAIL || got == LORE_ERROR) {
				ret = got == LORE_TEMPFAIL ? -EXIT_TEMPFAIL
							   : -EXIT_RUNTIME;
			} else if (got == LORE_NONE) {
				/* the patch it points to is lost: no retest */
				error("%s: the link %s: the archive has no "
				      "message %s",
				      f->path, url, id);
				ret = -EXIT_DATAERR;
			} else if (got == LORE_FOUND && nr &&
				   !followup_parse(&inner, url, msgs[0].raw,
						   msgs[0].raw_len)) {
				ret = find_inline_or_attached(out, &inner);
				if (ret > 0) {
					out->how = PATCH_LINK;
					out->link = xstrdup(url);
					free(out->message_id);
					out->message_id = xstrdup(id);
					ret = 1;
				}
				followup_release(&inner);
			} else if (got == LORE_FOUND && nr) {
				followup_release(&inner);
			}
			mbox_release(msgs, nr);
			free(id);
			free(url);
			if (ret)
				break;
		}
	}
	strbuf_release(&ctx);
	return ret;
}

int patch_find(struct patch_found *out, const struct followup *f,
	       struct lore *lore)
{
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->mbox, 0);
	int ret = find_inline_or_attached(out, f);

	if (ret)
		return ret;
	if (lore)
		return find_link(out, f, lore);
	return 0;
}
