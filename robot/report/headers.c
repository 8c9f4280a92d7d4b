// SPDX-License-Identifier: GPL-2.0-only
/*
 * headers.c: a report's headers (Date, From, To, Cc, Subject,
 * Message-ID, the thread's), the period's mailer and robot's own lint
 * of the mail (build.h).
 */
#include "robot/util/common.h"
#include "robot/util/strset.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "config/config.h"
#include "config/request.h"
#include "mail/lint.h"
#include "mail/msg.h"
#include "mail/valid.h"

void compose_join_list(struct strbuf *out, const struct strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", v->v[i]);
}

/*
 * Adds one header whose value comes from `key` of `file`.  A value the
 * header refuses is one error naming the file and the key, with mail/'s
 * reason.
 */
int compose_add_header(struct msg *m, const char *name, const char *value,
		       const char *file, const char *key)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (hdr_validate(name, value, strlen(value), &why))
		ret = error("%s: %s: %s", file, key, why.buf);
	else
		ret = msg_add_header(m, name, value);
	strbuf_release(&why);
	return ret;
}

int compose_add_addresses(struct msg *m, const char *from,
			  const struct strv *to, const struct strv *cc,
			  const char *file, const struct robot_config *cfg,
			  int cc_default)
{
	struct strbuf list = STRBUF_INIT;
	int ret = from ? compose_add_header(m, "From", from, file, "from")
		       : compose_add_header(m, "From", cfg->from, cfg->file,
					    "from");

	if (!ret) {
		compose_join_list(&list, to);
		if (list.len)
			ret = compose_add_header(m, "To", list.buf, file, "to");
	}
	if (!ret) {
		int dflt = cc_default && !cc->n;

		strbuf_reset(&list);
		compose_join_list(&list, dflt ? &cfg->cc : cc);
		if (list.len)
			ret = compose_add_header(m, "Cc", list.buf,
						 dflt ? cfg->file : file, "cc");
	}
	strbuf_release(&list);
	return ret;
}

/* Where the request's commit metadata comes from, for messages. */
static const char *commits_source(const struct request *req)
{
	return req->commits ? req->commits : req->repo;
}

/*
 * Without `to:`, the report goes to the tested commit's author: one
 * mailbox made from the name and email, which must be a valid one (a
 * comma in the name stays inside quotes, "=?" is encoded on rendering).
 */
static int author_to(struct strbuf *out, const struct compose_ctx *c,
		     const struct commit_info *author)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	hdr_format_mailbox(out, author->author_name, author->author_email);
	if (valid_mailbox(out->buf, &why))
		ret = error("%s: commit %s: author: %s (the To of a request "
			    "without 'to')",
			    commits_source(c->req), author->id, why.buf);
	strbuf_release(&why);
	return ret;
}

/* The length of the longest run of non-blanks in s. */
static size_t longest_word(const char *s)
{
	size_t longest = 0, n;

	for (; *s; s += n ? n : 1) {
		n = strcspn(s, " \t");
		if (n > longest)
			longest = n;
	}
	return longest;
}

/*
 * The file the Subject's trouble comes from, with its key appended to
 * `key`: the Subject is made of the tree, the KPI and the commit's
 * subject, and a word too long to fold is in one of them.
 */
static const char *subject_source(const struct compose_ctx *c,
				  const struct commit_info *tested,
				  struct strbuf *key)
{
	const char *which = "tree, kpi and the commit's subject";
	size_t longest = 0, n;

	if (c->req->tree && (n = longest_word(c->req->tree)) > longest) {
		longest = n;
		which = "tree";
	}
	if (c->req->test.kpi &&
	    (n = longest_word(c->req->test.kpi)) > longest) {
		longest = n;
		which = "kpi";
	}
	if (tested && tested->subject &&
	    longest_word(tested->subject) > longest) {
		strbuf_addf(key, "commit %s: subject", tested->id);
		return commits_source(c->req);
	}
	strbuf_addstr(key, which);
	return c->req->file;
}

/* Adds the addresses of `value` (unparsable: none) to `seen`. */
static void note_addresses(struct strset *seen, const char *value)
{
	struct hdr_addr_list l = HDR_ADDR_LIST_INIT;
	struct strbuf why = STRBUF_INIT;
	size_t i;

	if (!hdr_parse_addresses(&l, value, &why))
		for (i = 0; i < l.nr; i++)
			strset_add(seen, l.v[i].addr);
	hdr_addr_list_release(&l);
	strbuf_release(&why);
}

void compose_add_mailbox(struct strbuf *list, const char *display,
			 const char *addr)
{
	if (list->len)
		strbuf_addstr(list, ", ");
	hdr_format_mailbox(list, display, addr);
}

/*
 * The recipients of a report on a posted patch: the request's or the
 * configuration's Cc as given, then the patch's To and Cc and the
 * commit's author, each address once and none that To already has.
 */
static void thread_cc(struct strbuf *cc, const struct compose_ctx *c,
		      const struct commit_info *author, const char *to)
{
	const struct hdr_addr_list *lists[] = { &c->thread.to, &c->thread.cc };
	struct strset seen = STRSET_ICASE_INIT;
	size_t i, j;

	note_addresses(&seen, to);
	if (cc->len)
		note_addresses(&seen, cc->buf);
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		for (j = 0; j < lists[i]->nr; j++) {
			const struct hdr_addr *p = &lists[i]->v[j];

			if (!strset_add(&seen, p->addr))
				continue;
			compose_add_mailbox(cc, p->display, p->addr);
		}
	if (author && author->author_email &&
	    !strset_has(&seen, author->author_email))
		compose_add_mailbox(cc, author->author_name,
				    author->author_email);
	strset_release(&seen);
}

/*
 * References, by the style (`references` for a report, `reply-
 * references` for a follow-up): none, as 0-day's reports carry
 * In-Reply-To alone, or the chain: the parent's References, then the
 * parent.  Returns 0, or -1 after an error.
 */
static int add_references(struct msg *m, const struct compose_ctx *c,
			  const char *parent)
{
	const struct request *req = c->req;
	const char *key = req->reply ? "reply-references" : "references";
	const char *how = style_get(&c->st, key);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	if (!how || (strcmp(how, "none") && strcmp(how, "chain"))) {
		error_status = EXIT_CONFIG;
		return error("config/data/styles: %s on %s: '%s' is not none "
			     "or chain",
			     key, c->st.date, how ? how : "(unset)");
	}
	if (!strcmp(how, "none")) {
		if (req->references.n)
			return error("%s: references: a report of %s carries "
				     "no References (only a reply: true does)",
				     req->file, c->st.date);
		return 0;
	}
	if (!parent)
		return 0;
	for (i = 0; i < req->references.n; i++)
		strbuf_addf(&sb, "%s ", req->references.v[i]);
	if (!req->references.n && c->threaded && c->thread.references)
		strbuf_addf(&sb, "%s ", c->thread.references);
	strbuf_addstr(&sb, parent);
	ret = compose_add_header(m, "References", sb.buf, req->file,
				 "references and in_reply_to");
	strbuf_release(&sb);
	return ret;
}

int compose_add_date_from(struct msg *m, const struct compose_ctx *c)
{
	const struct request *req = c->req;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	compose_format_date(&sb, &c->when);
	ret = compose_add_header(m, "Date", sb.buf, req->file, "date");
	strbuf_release(&sb);
	if (!ret)
		ret = req->from ? compose_add_header(m, "From", req->from,
						     req->file, "from")
				: compose_add_header(m, "From", c->cfg->from,
						     c->cfg->file, "from");
	return ret;
}

int compose_add_headers(struct msg *m, const struct compose_ctx *c,
			const struct commit_info *author, const char *subject,
			const char *msgid)
{
	const struct request *req = c->req;
	const struct robot_config *cfg = c->cfg;
	const struct strv *cc = req->cc.n ? &req->cc : &cfg->cc;
	const char *parent = req->in_reply_to;
	struct strbuf sb = STRBUF_INIT, to = STRBUF_INIT;
	int ret;

	if (!parent && c->threaded)
		parent = c->thread.message_id;
	ret = compose_add_date_from(m, c);
	compose_join_list(&to, &req->to);
	/* without `to:`, the patch's sender, else the tested commit's author */
	if (!ret && !to.len && c->threaded && c->thread.from) {
		strbuf_addstr(&to, c->thread.from);
		ret = compose_add_header(m, "To", to.buf, cfg->file,
					 "lore_url (the patch's sender)");
	} else {
		if (!ret && !to.len && author && author->author_name)
			ret = author_to(&to, c, author);
		if (!ret && to.len)
			ret = compose_add_header(
				m, "To", to.buf,
				req->to.n ? req->file : commits_source(req),
				req->to.n ? "to" : "author (the To)");
	}
	strbuf_reset(&sb);
	compose_join_list(&sb, cc);
	if (c->threaded)
		thread_cc(&sb, c, author, to.buf);
	if (!ret && sb.len)
		ret = compose_add_header(
			m, "CC", sb.buf, req->cc.n ? req->file : cfg->file,
			c->threaded ? "cc (with the patch's recipients "
				      "on lore)"
				    : "cc");
	if (!ret) {
		const char *file;

		strbuf_reset(&sb);
		file = subject_source(c, author, &sb);
		ret = compose_add_header(m, "Subject", subject, file, sb.buf);
	}
	if (!ret)
		ret = compose_add_header(m, "Message-ID", msgid,
					 req->message_id ? req->file
							 : cfg->file,
					 req->message_id ? "message_id"
							 : "message_id_user, "
							   "message_id_domain");
	if (!ret)
		ret = add_references(m, c, parent);
	/* 0-day's replies carry In-Reply-To alone (the corpus mails) */
	if (!ret && parent)
		ret = compose_add_header(
			m, "In-Reply-To", parent,
			req->in_reply_to ? req->file : cfg->file,
			req->in_reply_to ? "in_reply_to"
					 : "lore_url (the patch's "
					   "Message-ID)");
	strbuf_release(&sb);
	strbuf_release(&to);
	return ret;
}

/*
 * The mail client the period's reports went out from (the style's
 * `mailer`): robot's own (`robot`, the default) or Thunderbird
 * (`thunderbird`), whose text is format=flowed (RFC 3676 §4.2, §4.4): a
 * line that starts with a blank, "From " or ">" takes one more blank,
 * blanks at line ends go (but the signature's "-- "), and so do the
 * empty lines that end the text, with its last newline; the Subject's
 * runs of blanks are one blank.  Yujie Liu sent hers so in 2022-08.
 */
int compose_mailer_apply(const struct compose_ctx *c, struct msg *m,
			 struct strbuf *subject, struct strbuf *body)
{
	const char *mailer = style_get(&c->st, "mailer");
	struct strbuf out = STRBUF_INIT;
	const char *p, *end;
	size_t i, j;

	if (!mailer || !strcmp(mailer, "robot"))
		return 0;
	if (strcmp(mailer, "thunderbird")) {
		error_status = EXIT_CONFIG;
		return error("config/data/styles: mailer on %s: '%s' is not "
			     "robot or thunderbird",
			     c->st.date, mailer);
	}
	for (p = body->buf, end = p + body->len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len != 3 || memcmp(p, "-- ", 3))
			while (len && p[len - 1] == ' ')
				len--;
		if ((len && (p[0] == ' ' || p[0] == '>')) ||
		    (len >= 5 && !memcmp(p, "From ", 5)))
			strbuf_addch(&out, ' ');
		strbuf_add(&out, p, len);
		strbuf_addch(&out, '\n');
		p = nl ? nl + 1 : end;
	}
	while (out.len && out.buf[out.len - 1] == '\n')
		strbuf_setlen(&out, out.len - 1);
	strbuf_reset(body);
	strbuf_addbuf(body, &out);
	strbuf_release(&out);
	for (i = j = 0; i < subject->len; i++)
		if (subject->buf[i] != ' ' || !j || subject->buf[j - 1] != ' ')
			subject->buf[j++] = subject->buf[i];
	strbuf_setlen(subject, j);
	m->flowed = 1;
	return 0;
}

/* robot's own lint on what it wrote; failing it is robot's own fault */
int compose_lint(const struct composed *out, const struct request *req)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (msg_lint(out->bytes.buf, out->bytes.len, &why)) {
		ret = error("%s: the mail fails the lint: %s", req->file,
			    why.buf);
		error_status = EXIT_RUNTIME;
	}
	strbuf_release(&why);
	return ret;
}
