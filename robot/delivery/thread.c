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
#include "robot/util/strset.h"

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
	struct strset by_id; /* each candidate's id: its index in c */
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
static size_t take_cands(struct lookup *lk, const struct inmsg *msgs, size_t nr)
{
	size_t first = lk->nc, i;

	for (i = 0; i < nr; i++) {
		struct cand c;

		cand_fill(&c, &msgs[i]);
		if (!c.id || !strset_put(&lk->by_id, c.id, lk->nc)) {
			cand_release(&c);
			continue;
		}
		ALLOC_GROW(lk->c, lk->nc + 1, lk->calloc_);
		lk->c[lk->nc++] = c;
	}
	return first;
}

/* The same for an answer the lookup owns from now on. */
static size_t take_answer(struct lookup *lk, struct inmsg *msgs, size_t nr)
{
	ALLOC_GROW(lk->answers, lk->nanswers + 1, lk->answers_alloc);
	lk->answers[lk->nanswers].msgs = msgs;
	lk->answers[lk->nanswers++].nr = nr;
	return take_cands(lk, msgs, nr);
}

static struct cand *find_id(struct lookup *lk, const char *id)
{
	size_t i;

	return strset_get(&lk->by_id, id, &i) ? &lk->c[i] : NULL;
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

/*
 * The newest revision newer than the patch, by its sender, among the
 * candidates: a patch with its subject, or a cover letter with its
 * cover's subject (the search of step 4 brought them).
 */
static struct cand *newer_pick(struct lookup *lk, const struct cand *p,
			       const char *p_from, const char *p_rest,
			       const char *cover_rest)
{
	int p_version = p->tags.version, best_patch = 0;
	struct cand *best = NULL;
	size_t i;

	for (i = 0; i < lk->nc; i++) {
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
	return best;
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

/* ---- step 3 and the newer revisions: one search a sender ---- */

/* What a commit of a batch waits for after steps 1 and 2. */
enum pend_state {
	PEND_DONE,    /* ret says how it ended */
	PEND_SUBJECT, /* step 3: its subject, by its author */
	PEND_NEWER,   /* the newer revisions of the patch lk.c[pi] */
};

struct pending {
	struct lookup lk;
	enum pend_state state;
	int ret; /* LORE_* */
	const char *how;
	size_t pi;			    /* the patch: lk.c[pi] */
	char *p_from, *p_rest, *cover_rest; /* what step 4 asks */
	size_t fed;			    /* the batch's answers taken */
};

/* A search of the batch: some subjects of one sender. */
struct asked {
	char *sender, *phrase;
	int threads, ret;
};

struct batch {
	struct lore *l;
	struct asked *q;
	size_t nq, q_alloc;
	struct banswer {
		char *sender;
		struct inmsg *msgs;
		size_t nr;
	} * a;
	size_t na, a_alloc;
};

/* The most subjects one search asks for. */
#define BATCH_PHRASES 8

static const struct asked *asked(const struct batch *b, const char *sender,
				 const char *phrase, int threads)
{
	size_t i;

	for (i = 0; i < b->nq; i++)
		if (!strcasecmp(b->q[i].sender, sender) &&
		    !strcmp(b->q[i].phrase, phrase) &&
		    b->q[i].threads >= threads)
			return &b->q[i];
	return NULL;
}

/* The sender a pending commit searches by, and what it needs asked. */
static const char *pend_sender(const struct pending *pd)
{
	return pd->state == PEND_SUBJECT ? pd->lk.ci->author_email : pd->p_from;
}

static int pend_need(const struct pending *pd, const char **phrase, int k)
{
	if (pd->state == PEND_SUBJECT) {
		*phrase = pd->lk.subject_rest;
		return k == 0;
	}
	*phrase = k == 0 ? pd->p_rest : pd->cover_rest;
	return pd->state == PEND_NEWER && k < 2 && *phrase;
}

/*
 * Whether everything pd needs was asked: 1, 0 when not yet, or an error
 * of the search that asked it (LORE_ERROR, LORE_TEMPFAIL).
 */
static int pend_ready(const struct batch *b, const struct pending *pd)
{
	const char *phrase;
	int k;

	for (k = 0; pend_need(pd, &phrase, k); k++) {
		const struct asked *q = asked(b, pend_sender(pd), phrase,
					      pd->state == PEND_SUBJECT);

		if (!q)
			return 0;
		if (q->ret < 0)
			return q->ret;
	}
	return 1;
}

/* Takes the batch's answers for pd's sender that it has not seen. */
static void pend_feed(const struct batch *b, struct pending *pd)
{
	for (; pd->fed < b->na; pd->fed++)
		if (!strcasecmp(b->a[pd->fed].sender, pend_sender(pd)))
			take_cands(&pd->lk, b->a[pd->fed].msgs,
				   b->a[pd->fed].nr);
}

/* The patch is found: what its newer revisions are searched by. */
static void pend_found(struct pending *pd, struct cand *p, const char *how)
{
	struct cand *cover = cover_of(&pd->lk, p);

	pd->pi = (size_t)(p - pd->lk.c);
	pd->how = how;
	pd->ret = LORE_FOUND;
	pd->state = PEND_NEWER;
	/* nothing to search by: not found, as step 4 finds nothing */
	if (!p->from_addr || !*p->rest) {
		pd->ret = LORE_NONE;
		pd->state = PEND_DONE;
		return;
	}
	pd->p_from = xstrdup(p->from_addr);
	pd->p_rest = xstrdup(p->rest);
	if (cover && *cover->rest)
		pd->cover_rest = xstrdup(cover->rest);
}

/* Moves pd on as far as what was asked allows. */
static void pend_advance(const struct batch *b, struct pending *pd)
{
	int ready;

	while (pd->state != PEND_DONE && (ready = pend_ready(b, pd))) {
		if (ready < 0) {
			pd->ret = ready;
			pd->state = PEND_DONE;
			return;
		}
		pend_feed(b, pd);
		if (pd->state == PEND_SUBJECT) {
			struct cand *p = pick(&pd->lk, 0, match_subject);

			pd->fed = 0; /* its sender may change */
			pd->ret = LORE_NONE;
			pd->state = PEND_DONE;
			if (p)
				pend_found(pd, p, "subject and author");
		} else {
			pd->state = PEND_DONE;
		}
	}
}

/* One search: `sender` and the subjects v[0..n). */
static void batch_ask(struct batch *b, const char *sender, char **v, size_t n,
		      int threads)
{
	struct strbuf q = STRBUF_INIT;
	struct inmsg *msgs = NULL;
	size_t nr = 0, i;
	int ret;

	add_phrase(&q, "f", sender);
	strbuf_addstr(&q, " AND (");
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&q, " OR ");
		add_phrase(&q, "s", v[i]);
	}
	strbuf_addch(&q, ')');
	ret = lore_search(b->l, q.buf, threads, &msgs, &nr);
	strbuf_release(&q);
	if (ret == LORE_FOUND) {
		ALLOC_GROW(b->a, b->na + 1, b->a_alloc);
		b->a[b->na].sender = xstrdup(sender);
		b->a[b->na].msgs = msgs;
		b->a[b->na++].nr = nr;
	}
	for (i = 0; i < n; i++) {
		ALLOC_GROW(b->q, b->nq + 1, b->q_alloc);
		b->q[b->nq].sender = xstrdup(sender);
		b->q[b->nq].phrase = v[i];
		b->q[b->nq].threads = threads;
		b->q[b->nq++].ret = ret;
	}
}

/*
 * Asks what the pending commits wait for, one search a sender (up to
 * BATCH_PHRASES subjects each).  Returns 0 when nothing was left to ask.
 */
static int batch_round(struct batch *b, struct pending *pd, size_t n)
{
	size_t i, j, k, nv = 0;
	char *v[BATCH_PHRASES];
	int asked_any = 0;

	for (i = 0; i < n; i++) {
		const char *sender = pend_sender(&pd[i]), *phrase;
		int threads = 0;

		if (pd[i].state == PEND_DONE || pend_ready(b, &pd[i]))
			continue;
		/* every commit of this sender that waits, in one search */
		for (j = i; j < n; j++) {
			if (pd[j].state == PEND_DONE ||
			    strcasecmp(pend_sender(&pd[j]), sender))
				continue;
			for (k = 0; pend_need(&pd[j], &phrase, k); k++) {
				size_t m;
				int t = pd[j].state == PEND_SUBJECT;

				if (asked(b, sender, phrase, t))
					continue;
				for (m = 0; m < nv && strcmp(v[m], phrase); m++)
					;
				if (m == nv)
					v[nv++] = xstrdup(phrase);
				threads |= t;
				if (nv == BATCH_PHRASES) {
					batch_ask(b, sender, v, nv, threads);
					nv = threads = 0;
				}
			}
		}
		if (nv)
			batch_ask(b, sender, v, nv, threads);
		nv = 0;
		asked_any = 1;
	}
	return asked_any;
}

static void batch_release(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->nq; i++) {
		free(b->q[i].sender);
		free(b->q[i].phrase);
	}
	for (i = 0; i < b->na; i++) {
		free(b->a[i].sender);
		mbox_release(b->a[i].msgs, b->a[i].nr);
	}
	free(b->q);
	free(b->a);
}

/* Steps 1 and 2 for one commit; what is left waits in pd. */
static void pend_start(struct pending *pd, struct lore *l,
		       const struct commit_info *ci, struct repo *repo)
{
	struct strbuf sb = STRBUF_INIT;
	struct subject_tags tags;
	struct cand *p = NULL;
	const char *how = NULL;

	memset(pd, 0, sizeof(*pd));
	pd->lk.l = l;
	pd->lk.ci = ci;
	pd->lk.repo = repo;
	pd->lk.nids = -1;
	if (ci->subject) {
		subject_parse(ci->subject, &tags, &sb);
		pd->lk.subject_rest = strbuf_detach(&sb, NULL);
	}
	pd->ret = by_trailers(&pd->lk, &p, &how);
	if (pd->ret == LORE_NONE) {
		how = "patch-id";
		pd->ret = by_patch_id(&pd->lk, &p);
	}
	if (pd->ret == LORE_FOUND)
		pend_found(pd, p, how);
	else if (pd->ret == LORE_NONE && pd->lk.subject_rest &&
		 *pd->lk.subject_rest && ci->author_email)
		pd->state = PEND_SUBJECT;
}

static void pend_finish(struct pending *pd, struct thread_found *out)
{
	struct lookup *lk = &pd->lk;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (pd->ret == LORE_FOUND) {
		struct cand *p = &lk->c[pd->pi], *nw;

		nw = newer_pick(lk, p, pd->p_from, pd->p_rest, pd->cover_rest);
		fill_found(lk, out, p, pd->how);
		if (nw) {
			out->newer_id = xstrdup(nw->id);
			lore_msg_url(&sb, lk->l, nw->id);
			out->newer_url = strbuf_detach(&sb, NULL);
			out->newer_subject = xstrdup(nw->subject);
			out->newer_version = nw->tags.version;
		}
	}
	for (i = 0; i < lk->nc; i++)
		cand_release(&lk->c[i]);
	free(lk->c);
	strset_release(&lk->by_id);
	for (i = 0; i < lk->nanswers; i++)
		mbox_release(lk->answers[i].msgs, lk->answers[i].nr);
	free(lk->answers);
	free(lk->subject_rest);
	free(pd->p_from);
	free(pd->p_rest);
	free(pd->cover_rest);
	strbuf_release(&sb);
}

size_t thread_find_many(struct lore *l, const struct commit_info *const *ci,
			size_t n, struct repo *repo, struct thread_found *out,
			int *ret)
{
	struct pending *pd = xcalloc(n ? n : 1, sizeof(*pd));
	struct batch b = { .l = l };
	size_t done, i;

	for (done = 0; done < n;) {
		pend_start(&pd[done], l, ci[done], repo);
		if (pd[done++].ret < 0)
			break;
	}
	do {
		for (i = 0; i < done; i++)
			pend_advance(&b, &pd[i]);
	} while (batch_round(&b, pd, done));
	for (i = 0; i < done; i++) {
		pend_finish(&pd[i], &out[i]);
		ret[i] = pd[i].ret;
	}
	batch_release(&b);
	free(pd);
	return done;
}

int thread_find(struct lore *l, const struct commit_info *ci, struct repo *repo,
		struct thread_found *out)
{
	int ret;

	thread_find_many(l, &ci, 1, repo, out, &ret);
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
