/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * thread.h: which posted patch a commit came from, on a public-inbox
 * archive (mail/lore.h), so a report can reply to it.
 *
 * Tried in order, the first that finds the patch wins:
 *
 *   1. the commit's Link: trailers (lore, patch.msgid.link, lkml.kernel.org
 *      /r/ URLs) and Message-Id: trailers: the thread of each id is fetched,
 *      and the patch in it must be this commit's (the same patch-id, or the
 *      same subject): a Link: to a bug report or to a discussion is passed
 *      over;
 *   2. a search for the commit's stable patch-ids (git/patchid.h, needs the
 *      repository): every revision of the series that carries this very
 *      change matches;
 *   3. a search for the subject (without its "[PATCH ...]" tags) and the
 *      author's address: a mail from that address with that subject and a
 *      diff.
 *
 * Replies ("Re:") never count.  When several mails match, mails from the
 * commit's author come first, then the newest revision wins: the highest
 * "vN" of the "[PATCH vN ...]" tag (none is v1), then the latest Date.
 *
 * Then the newer revisions: a search by the patch's sender for the
 * patch's subject or its series' cover letter subject; a revision newer
 * than the patch's that does not carry the patch (else step 2 had chosen
 * it) is reported as `newer`.
 *
 * Steps 3 and 4 ask by a sender, so the commits looked up together
 * (thread_find_many) ask them together: one search a sender for all their
 * subjects (up to 8 a search), with threads when one of them is a step 3.
 * Requests: one for each commit whose patch a Link:/Message-Id: trailer
 * or its patch-id finds (the thread or the search), one more for each
 * trailer that leads nowhere, and one or two a sender for steps 3 and 4
 * (two when a patch found by step 3 has a cover letter none of the
 * others had): about one a commit for a series, two for a lone commit.
 * The cache answers repeated lookups without any.
 */
#ifndef ROBOT_THREAD_H
#define ROBOT_THREAD_H

#include <stddef.h>

#include "mail/header.h"

struct commit_info;
struct lore;
struct repo;
struct robot_config;

struct thread_found {
	char *message_id; /* the patch mail: "<id>" */
	char *url;	  /* its page on the archive (the "patch link") */
	char *subject;	  /* its Subject, decoded: "[PATCH v2 2/3] mm: ..." */
	char *from;	  /* its sender, "Name <addr>" */
	struct hdr_addr_list to, cc; /* its To and Cc */
	char *references;	     /* its References ids, or NULL */
	int version;		     /* its revision: 2 for "[PATCH v2 ...]" */
	const char *how; /* "Link: trailer", "patch-id", "subject and author" */
	/* a newer revision of the series, or newer_id NULL */
	char *newer_id, *newer_url, *newer_subject;
	int newer_version;
};

/*
 * Looks the commit up; `repo` (may be NULL) gives the patch-ids.  Returns
 * LORE_FOUND with *out filled (release it with thread_found_release), or
 * LORE_NONE, LORE_ERROR, LORE_TEMPFAIL (mail/lore.h) after one error line.
 */
int thread_find(struct lore *l, const struct commit_info *ci, struct repo *repo,
		struct thread_found *out);
/*
 * The same for the commits ci[0..n): out[i] and ret[i] (thread_find's
 * return) for the first commits up to the one whose lookup failed (steps
 * 1 and 2, each commit in turn) or all n; returns how many.
 */
size_t thread_find_many(struct lore *l, const struct commit_info *const *ci,
			size_t n, struct repo *repo, struct thread_found *out,
			int *ret);
void thread_found_release(struct thread_found *f);

/*
 * Opens the archive the configuration names (lore_url and the lore_*
 * settings); `offline` answers from the cache only, `verbose` logs every
 * request on stderr.  Returns 0, or -1 after an error naming the key.
 */
int thread_lore_open(struct lore **l, const struct robot_config *cfg,
		     int offline, int verbose);

/*
 * Parses a mail Subject's leading tags: whether it is a reply ("Re:",
 * also behind list tags), the revision ("v2", "V3", "PATCHv4"; 1 when
 * none), the patch number and count ("2/3"; 0 when none), and the subject
 * without them, blanks squeezed (appended to `rest`).
 */
struct subject_tags {
	int reply, version, index, total;
};
void subject_parse(const char *subject, struct subject_tags *tags,
		   struct strbuf *rest);

#endif
