// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread.c: from a commit to the mail it was posted as (see thread.h).
 *
 * Every message the archive returns becomes a `struct cand`, parsed once:
 * its id, decoded subject and tags, sender, date, and (lazily, since it
 * means decoding the body) whether it carries a diff and the patch-id of
 * that diff.  The answers stay alive in a pool until the lookup ends, so
 * the candidates can point into them.
 */
#include "robot/util/common.h"
#include "robot/delivery/thread.h"
#include "config/config.h"
#include "git/commits.h"
#include "git/patchid.h"
#include "git/repo.h"
#include "mail/inmsg.h"
#include "mail/lore.h"

#include <ctype.h>
#include <strings.h>

/* ---- subjects ---- */

static int starts_ci(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/* One token of a "[...]" tag: a revision or a patch number. */
static void tag_token(const char *t, size_t n, struct subject_tags *tags)
{
	size_t i, digits;

	if (n > 5 && !strncasecmp(t, "patch", 5)) { /* PATCHv2 */
		t += 5;
		n -= 5;
	}
	if (n >= 2 && (t[0] == 'v' || t[0] == 'V')) {
		for (i = 1; i < n && isdigit((unsigned char)t[i]); i++)
			;
		if (i == n && n <= 6)
			tags->version = atoi(t + 1) > 0 ? atoi(t + 1) : 1;
		return;
	}
	digits = strspn(t, "0123456789");
	if (digits && digits < n && t[digits] == '/' &&
	    strspn(t + digits + 1, "0123456789") == n - digits - 1 &&
	    n - digits - 1 > 0 && n <= 12) {
		tags->index = atoi(t);
		tags->total = atoi(t + digits + 1);
	}
}

void subject_parse(const char *subject, struct subject_tags *tags,
		   struct strbuf *rest)
{
	const char *p = subject;
	int blank = 0;
	size_t start;

	memset(tags, 0, sizeof(*tags));
	tags->version = 1;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (starts_ci(p, "re:") || starts_ci(p, "aw:") ||
		    starts_ci(p, "fw:")) {
			tags->reply = 1;
			p += 3;
		} else if (starts_ci(p, "fwd:")) {
			tags->reply = 1;
			p += 4;
		} else if (*p == '[' && strchr(p, ']')) {
			const char *close = strchr(p, ']'), *t = p + 1;

			while (t < close) {
				size_t n = strcspn(t, " ,]");

				if (t + n > close)
					n = close - t;
				if (n)
					tag_token(t, n, tags);
				t += n;
				while (t < close && (*t == ' ' || *t == ','))
					t++;
			}
			p = close + 1;
		} else {
			break;
		}
	}
	start = rest->len;
	for (; *p; p++) {
		if (*p == ' ' || *p == '\t') {
			blank = 1;
			continue;
		}
		if (blank && rest->len > start)
			strbuf_addch(rest, ' ');
		blank = 0;
		strbuf_addch(rest, *p);
	}
}

/* ---- candidates ---- */

struct cand {
	const struct inmsg *m;
	char *id, *subject, *rest, *from_addr;
	struct subject_tags tags;
	int64_t date;
	int diff; /* -1 not known yet, 0 no diff, 1 has one */
	char patch_id[PATCH_ID_HEXSZ + 1];
};

struct lookup {
	struct lore *l;
	const struct commit_info *ci;
	struct repo *repo;
	char *subject_rest; /* the commit's subject without tags */
	char ids[PATCH_ID_MAX][PATCH_ID_HEXSZ + 1];
	int nids; /* -1: not computed yet */
	int ids_failed;
	/* every answer, kept until the end */
	struct answer {
		struct inmsg *msgs;
		size_t nr;
	} * answers;
	size_t nanswers, answers_alloc;
	struct cand *c;
	size_t nc, calloc_;
};

static void cand_fill(struct cand *c, const struct inmsg *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct hdr_addr_list from = HDR_ADDR_LIST_INIT;
	char **ids = NULL;
	size_t n = 0, alloc = 0, i;

	memset(c, 0, sizeof(*c));
	c->m = m;
	c->diff = -1;
	inmsg_msgids(m, "Message-ID", &ids, &n, &alloc);
	c->id = n ? ids[0] : NULL;
	for (i = 1; i < n; i++)
		free(ids[i]);
	free(ids);
	inmsg_text(m, "Subject", &sb);
	c->subject = strbuf_detach(&sb, NULL);
	subject_parse(c->subject, &c->tags, &sb);
	c->rest = strbuf_detach(&sb, NULL);
	if (inmsg_addresses(m, "From", &from))
		c->from_addr = xstrdup(from.v[0].addr);
	hdr_addr_list_release(&from);
	if (inmsg_date(m, &c->date))
		c->date = 0;
}

static void cand_release(struct cand *c)
{
	free(c->id);
	free(c->subject);
	free(c->rest);
	free(c->from_addr);
}

/* Whether the message carries a diff; computes its patch-id once. */
static int cand_diff(struct cand *c)
{
	struct strbuf text = STRBUF_INIT;

	if (c->diff >= 0)
		return c->diff;
	c->diff = !inmsg_body_text(c->m, &text) &&
		  patch_id_stable(text.buf, text.len, c->patch_id);
	strbuf_release(&text);
	return c->diff;
}

/*
 * Takes an answer into the pool and makes candidates of its messages
 * (those with a Message-ID), skipping ids seen before.  Returns the index
 * of the first new candidate.
 */
static size_t take_answer(struct lookup *lk, struct inmsg *msgs, size_t nr)
{
	size_t first = lk->nc, i, j;

	ALLOC_GROW(lk->answers, lk->nanswers + 1, lk->answers_alloc);
	lk->answers[lk->nanswers].msgs = msgs;
	lk->answers[lk->nanswers++].nr = nr;
	for (i = 0; i < nr; i++) {
		struct cand c;

		cand_fill(&c, &msgs[i]);
		for (j = 0; c.id && j < lk->nc; j++)
			if (!strcmp(lk->c[j].id, c.id))
				break;
		if (!c.id || j < lk->nc) {
			cand_release(&c);
			continue;
		}
		ALLOC_GROW(lk->c, lk->nc + 1, lk->calloc_);
		lk->c[lk->nc++] = c;
	}
	return first;
}

static struct cand *find_id(struct lookup *lk, const char *id)
{
	size_t i;

	for (i = 0; i < lk->nc; i++)
		if (!strcmp(lk->c[i].id, id))
			return &lk->c[i];
	return NULL;
}

static int commit_ids(struct lookup *lk)
{
	if (lk->nids >= 0)
		return lk->nids;
	lk->nids = 0;
	if (lk->repo) {
		int n = repo_patch_ids(lk->repo, lk->ci->id, lk->ids);

		if (n < 0) {
			lk->ids_failed = 1;
			return -1;
		}
		lk->nids = n;
	}
	return lk->nids;
}

static int same_patch_id(struct lookup *lk, struct cand *c)
{
	int i;

	if (!cand_diff(c) || commit_ids(lk) <= 0)
		return 0;
	for (i = 0; i < lk->nids; i++)
		if (!strcmp(lk->ids[i], c->patch_id))
			return 1;
	return 0;
}

static int same_subject(const struct lookup *lk, const struct cand *c)
{
	return lk->subject_rest && *lk->subject_rest &&
	       !strcmp(c->rest, lk->subject_rest);
}

static int from_author(const struct lookup *lk, const struct cand *c)
{
	return c->from_addr && lk->ci->author_email &&
	       !strcasecmp(c->from_addr, lk->ci->author_email);
}

/* Is b a newer posting than a: revision, then Date, then id. */
static int newer(const struct cand *a, const struct cand *b)
{
	if (a->tags.version != b->tags.version)
		return b->tags.version > a->tags.version;
	if (a->date != b->date)
		return b->date > a->date;
	return strcmp(b->id, a->id) > 0;
}

/*
 * The winner among the candidates [from, nc) that `match` accepts: mails
 * of the commit's author first, then the newest.
 */
static struct cand *pick(struct lookup *lk, size_t from,
			 int (*match)(struct lookup *, struct cand *))
{
	struct cand *best = NULL;
	int best_author = 0;
	size_t i;

	for (i = from; i < lk->nc; i++) {
		struct cand *c = &lk->c[i];
		int author;

		if (c->tags.reply || !match(lk, c))
			continue;
		author = from_author(lk, c);
		if (!best || author > best_author ||
		    (author == best_author && newer(best, c))) {
			best = c;
			best_author = author;
		}
	}
	return best;
}

static int match_link(struct lookup *lk, struct cand *c)
{
	/* the subject first: it needs no patch-id of the commit */
	return cand_diff(c) && (same_subject(lk, c) || same_patch_id(lk, c));
}

static int match_patch_id(struct lookup *lk, struct cand *c)
{
	return same_patch_id(lk, c);
}

static int match_subject(struct lookup *lk, struct cand *c)
{
	return from_author(lk, c) && same_subject(lk, c) && cand_diff(c);
}

/* The cover letter ("[PATCH 0/N]") the patch answers, if it was seen. */
static struct cand *cover_of(struct lookup *lk, const struct cand *p)
{
	char **ids = NULL;
	size_t n = 0, alloc = 0, i;
	struct cand *cover = NULL;

	if (p->tags.total <= 1)
		return NULL;
	inmsg_msgids(p->m, "In-Reply-To", &ids, &n, &alloc);
	inmsg_msgids(p->m, "References", &ids, &n, &alloc);
	for (i = 0; i < n; i++) {
		struct cand *c = cover ? NULL : find_id(lk, ids[i]);

		if (c && c->tags.index == 0 && c->tags.total == p->tags.total &&
		    !c->tags.reply)
			cover = c;
		free(ids[i]);
	}
	free(ids);
	return cover;
}

/* Appends `s` as a phrase of public-inbox's search language. */
static void add_phrase(struct strbuf *q, const char *prefix, const char *s)
{
	strbuf_addf(q, "%s:\"", prefix);
	for (; *s; s++)
		strbuf_addch(q, *s == '"' ? ' ' : *s);
	strbuf_addch(q, '"');
}

static int search(struct lookup *lk, const char *query, int threads)
{
	struct inmsg *msgs;
	size_t nr;
	int ret = lore_search(lk->l, query, threads, &msgs, &nr);

	if (ret == LORE_FOUND)
		take_answer(lk, msgs, nr);
	return ret;
}

/* Step 1: the Link: and Message-Id: trailers. */
static int by_trailers(struct lookup *lk, struct cand **found, const char **how)
{
	const struct commit_info *ci = lk->ci;
	size_t i;

	for (i = 0; i < ci->trailers_nr; i++) {
		const char *key = ci->trailers[i].key,
			   *v = ci->trailers[i].value;
		char *id = NULL;
		struct inmsg *msgs;
		struct cand *c;
		size_t nr, first;
		int ret;

		if (!strcasecmp(key, "Link")) {
			id = lore_link_msgid(v, NULL);
			*how = "Link: trailer";
		} else if (!strcasecmp(key, "Message-Id")) {
			size_t len = strcspn(v, " \t");

			id = v[0] == '<' ? xstrndup(v, len)
					 : xasprintf("<%.*s>", (int)len, v);
			*how = "Message-Id: trailer";
		}
		if (!id || !strchr(id, '@') || id[strlen(id) - 1] != '>') {
			free(id);
			continue;
		}
		ret = lore_thread(lk->l, id, &msgs, &nr);
		if (ret < 0) {
			free(id);
			return ret;
		}
		if (ret == LORE_NONE) {
			free(id);
			continue;
		}
		first = take_answer(lk, msgs, nr);
		/* the linked mail itself, else the patch in its thread */
		c = find_id(lk, id);
		free(id);
		if (!c || c->tags.reply || !match_link(lk, c))
			c = pick(lk, first, match_link);
		if (lk->ids_failed)
			return LORE_ERROR;
		if (c) {
			*found = c;
			return LORE_FOUND;
		}
	}
	return LORE_NONE;
}

/* Step 2: the patch-ids. */
static int by_patch_id(struct lookup *lk, struct cand **found)
{
	struct strbuf q = STRBUF_INIT;
	int i, ret;

	if (commit_ids(lk) < 0 || lk->ids_failed)
		return LORE_ERROR;
	if (!lk->nids)
		return LORE_NONE;
	for (i = 0; i < lk->nids; i++)
		strbuf_addf(&q, "%spatchid:%s", i ? " OR " : "", lk->ids[i]);
	ret = search(lk, q.buf, 1);
	strbuf_release(&q);
	if (ret != LORE_FOUND)
		return ret;
	/*
	 * A hit's thread-mates come along (t=1): the hits are the mails
	 * with the same patch-id here.  Should none be (a body this decoder
	 * reads differently from the archive), a patch with the commit's
	 * subject in those threads.
	 */
	*found = pick(lk, 0, match_patch_id);
	if (!*found)
		*found = pick(lk, 0, match_link);
	return *found ? LORE_FOUND : LORE_NONE;
}

/* Step 3: the subject and the author's address. */
static int by_subject(struct lookup *lk, struct cand **found)
{
	struct strbuf q = STRBUF_INIT;
	int ret;

	if (!lk->subject_rest || !*lk->subject_rest || !lk->ci->author_email)
		return LORE_NONE;
	add_phrase(&q, "s", lk->subject_rest);
	strbuf_addstr(&q, " AND ");
	add_phrase(&q, "f", lk->ci->author_email);
	ret = search(lk, q.buf, 1);
	strbuf_release(&q);
	if (ret != LORE_FOUND)
		return ret;
	*found = pick(lk, 0, match_subject);
	return *found ? LORE_FOUND : LORE_NONE;
}

/*
 * The newest revision newer than p's, by p's sender: a patch with p's
 * subject, or a cover letter with its cover's subject.
 */
static int newer_revision(struct lookup *lk, struct cand *p, struct cand **out)
{
	struct strbuf q = STRBUF_INIT;
	struct cand *cover = cover_of(lk, p), *best = NULL;
	char *p_id = xstrdup(p->id), *cover_rest = NULL;
	char *p_rest = xstrdup(p->rest), *p_from = NULL;
	int p_version = p->tags.version, best_patch = 0, ret;
	size_t i;

	*out = NULL;
	if (!p->from_addr || !*p->rest) {
		free(p_id);
		free(p_rest);
		return LORE_NONE;
	}
	p_from = xstrdup(p->from_addr);
	if (cover && *cover->rest)
		cover_rest = xstrdup(cover->rest);
	add_phrase(&q, "f", p_from);
	strbuf_addstr(&q, " AND (");
	add_phrase(&q, "s", p_rest);
	if (cover_rest) {
		strbuf_addstr(&q, " OR ");
		add_phrase(&q, "s", cover_rest);
	}
	strbuf_addch(&q, ')');
	ret = search(lk, q.buf, 0);
	strbuf_release(&q);
	/* candidates may have moved: search() grew the array */
	for (i = 0; ret == LORE_FOUND && i < lk->nc; i++) {
		struct cand *c = &lk->c[i];
		int is_patch, is_cover;

		if (c->tags.reply || c->tags.version <= p_version ||
		    !c->from_addr || strcasecmp(c->from_addr, p_from))
			continue;
		is_patch = !strcmp(c->rest, p_rest) && cand_diff(c);
		is_cover = cover_rest && c->tags.index == 0 &&
			   c->tags.total > 1 && !strcmp(c->rest, cover_rest);
		if (!is_patch && !is_cover)
			continue;
		/* the newest; at one revision its patch before its cover */
		if (!best || c->tags.version > best->tags.version ||
		    (c->tags.version == best->tags.version &&
		     (is_patch > best_patch ||
		      (is_patch == best_patch && newer(best, c))))) {
			best = c;
			best_patch = is_patch;
		}
	}
	*out = best;
	free(p_id);
	free(p_rest);
	free(p_from);
	free(cover_rest);
	return ret < 0 ? ret : LORE_FOUND;
}

static void fill_found(struct lookup *lk, struct thread_found *f,
		       const struct cand *p, const char *how)
{
	struct hdr_addr_list from = HDR_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	char **ids = NULL;
	size_t n = 0, alloc = 0, i;

	f->message_id = xstrdup(p->id);
	lore_msg_url(&sb, lk->l, p->id);
	f->url = strbuf_detach(&sb, NULL);
	f->subject = xstrdup(p->subject);
	if (inmsg_addresses(p->m, "From", &from)) {
		hdr_format_mailbox(&sb, from.v[0].display, from.v[0].addr);
		f->from = strbuf_detach(&sb, NULL);
	}
	hdr_addr_list_release(&from);
	inmsg_addresses(p->m, "To", &f->to);
	inmsg_addresses(p->m, "Cc", &f->cc);
	if (inmsg_msgids(p->m, "References", &ids, &n, &alloc)) {
		for (i = 0; i < n; i++) {
			strbuf_addf(&sb, "%s%s", i ? " " : "", ids[i]);
			free(ids[i]);
		}
		f->references = strbuf_detach(&sb, NULL);
	}
	free(ids);
	f->version = p->tags.version;
	f->how = how;
	strbuf_release(&sb);
}

int thread_find(struct lore *l, const struct commit_info *ci, struct repo *repo,
		struct thread_found *out)
{
	struct lookup lk = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct subject_tags tags;
	struct cand *p = NULL, *nw = NULL;
	const char *how = NULL;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	lk.l = l;
	lk.ci = ci;
	lk.repo = repo;
	lk.nids = -1;
	if (ci->subject) {
		subject_parse(ci->subject, &tags, &sb);
		lk.subject_rest = strbuf_detach(&sb, NULL);
	}
	ret = by_trailers(&lk, &p, &how);
	if (ret == LORE_NONE) {
		how = "patch-id";
		ret = by_patch_id(&lk, &p);
	}
	if (ret == LORE_NONE) {
		how = "subject and author";
		ret = by_subject(&lk, &p);
	}
	if (ret == LORE_FOUND) {
		/* newer_revision() may grow lk.c: keep the index */
		size_t pi = p - lk.c;

		ret = newer_revision(&lk, p, &nw);
		p = &lk.c[pi];
		if (ret == LORE_FOUND) {
			fill_found(&lk, out, p, how);
			if (nw) {
				out->newer_id = xstrdup(nw->id);
				lore_msg_url(&sb, l, nw->id);
				out->newer_url = strbuf_detach(&sb, NULL);
				out->newer_subject = xstrdup(nw->subject);
				out->newer_version = nw->tags.version;
			}
		}
	}
	for (i = 0; i < lk.nc; i++)
		cand_release(&lk.c[i]);
	free(lk.c);
	for (i = 0; i < lk.nanswers; i++)
		mbox_release(lk.answers[i].msgs, lk.answers[i].nr);
	free(lk.answers);
	free(lk.subject_rest);
	strbuf_release(&sb);
	return ret;
}

void thread_found_release(struct thread_found *f)
{
	free(f->message_id);
	free(f->url);
	free(f->subject);
	free(f->from);
	hdr_addr_list_release(&f->to);
	hdr_addr_list_release(&f->cc);
	free(f->references);
	free(f->newer_id);
	free(f->newer_url);
	free(f->newer_subject);
	memset(f, 0, sizeof(*f));
}

int thread_lore_open(struct lore **l, const struct robot_config *cfg,
		     int offline, int verbose)
{
	struct lore_opts o = { 0 };

	o.url = cfg->lore_url;
	o.cache_dir = cfg->lore_cache;
	o.cache_ttl = cfg->lore_cache_ttl;
	o.rate = cfg->lore_rate;
	o.timeout = cfg->lore_timeout;
	o.max_bytes = cfg->lore_max_bytes;
	o.offline = offline;
	o.verbose = verbose;
	o.where = cfg->file;
	return lore_open(l, &o);
}
