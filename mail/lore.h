/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lore.h: a public-inbox archive (lore.kernel.org or any other) over
 * HTTP, politely: answers are cached on disk, requests are spaced out,
 * answers are size-capped, and each failure says whether trying again
 * later can help.
 *
 * The archive is a base URL (`lore_url`, "https://lore.kernel.org/all/"):
 *
 *   thread     GET  BASE<id>/t.mbox.gz          the whole thread, gzipped
 *   search     POST BASE?q=<query>&x=m[&t=1]    matches (with t=1: their
 *                                               whole threads), gzipped
 *
 * <id> is the Message-ID without its <>, percent-encoded but for '@'
 * ("/" is %2F, "+" %2B, "%" %25, "=" %3D).  public-inbox 1.9 honours
 * x=m (an mbox) only on POST, with the query in the URL and an empty
 * body: a GET gets the HTML page, a query in the body is not read.  404
 * means no such message, or no match.
 *
 * Cache: one file per request (method and URL) under `cache_dir`, holding
 * the status (200 or 404; a 404 of lore_raw() is not kept, a linked patch
 * not found is asked again) and the answer as it came; reused while younger
 * than `cache_ttl` seconds, or whatever its age when `offline`.  Other
 * answers are never cached.  Requests are spaced at least 1/rate seconds
 * apart, across processes too when there is a cache (a lock file there).
 */
#ifndef ROBOT_MAIL_LORE_H
#define ROBOT_MAIL_LORE_H

#include <stddef.h>

struct inmsg;
struct strbuf;

struct lore_opts {
	const char *url;       /* the base URL, ending in '/' */
	const char *cache_dir; /* NULL: no cache */
	long cache_ttl;	       /* seconds */
	double rate;	       /* requests a second; 0: no limit */
	long timeout;	       /* seconds for one request; 0: 30 */
	size_t max_bytes;      /* the largest answer, unpacked */
	int offline;	       /* the cache only, no network */
	int verbose;	       /* one line on stderr per request */
	const char *where;     /* names the settings in errors: "robot.yaml" */
};

/*
 * Results of the calls below: found, nothing there, a bad answer or a
 * local failure (exit 1), or the archive cannot be asked now (network
 * down, timeout, HTTP 429 or 5xx, or offline and not cached: exit 75).
 */
enum lore_status {
	LORE_FOUND = 1,
	LORE_NONE = 0,
	LORE_ERROR = -1,
	LORE_TEMPFAIL = -2,
};

struct lore;

/* Returns 0, or -1 after an error (a bad URL, no libcurl). */
int lore_open(struct lore **out, const struct lore_opts *o);
void lore_close(struct lore *l);

/*
 * The thread of Message-ID `msgid` ("<id>"): its messages, as the archive
 * orders them, in *msgs[*nr] (mbox_release() frees them).  Returns a
 * lore_status; every failure is one error line naming the URL.
 */
int lore_thread(struct lore *l, const char *msgid, struct inmsg **msgs,
		size_t *nr);

/*
 * The message `msgid` itself (GET BASE<id>/raw, an mbox of the one
 * message, or of every message with that id), as lore_thread().
 */
int lore_raw(struct lore *l, const char *msgid, struct inmsg **msgs,
	     size_t *nr);

/*
 * The messages matching `query` (public-inbox's search language:
 * "patchid:HEX", 's:"subject" AND f:"addr"'), or their whole threads when
 * `threads`.  Returns a lore_status, as lore_thread().
 */
int lore_search(struct lore *l, const char *query, int threads,
		struct inmsg **msgs, size_t *nr);

/* Appends the archive's URL of a message: BASE<encoded id>/. */
void lore_msg_url(struct strbuf *out, const struct lore *l, const char *msgid);

/* Appends the Message-ID without <>, percent-encoded for a URL path. */
void lore_encode_msgid(struct strbuf *out, const char *msgid);

/* lore_url, ending in '/'. */
const char *lore_base_url(const struct lore *l);

/* How many requests went to the network so far (not the cache's). */
size_t lore_requests(const struct lore *l);

/*
 * The Message-ID ("<id>", malloc'd) a Link: trailer's URL names, or
 * NULL when it names none: https://lore.kernel.org/LIST/<id>[/...],
 * .../r/<id>, https://lkml.kernel.org/r/<id>, https://patch.msgid.link/
 * <id>, https://msgid.link/<id>, or a URL under `base` (lore_url, may be
 * NULL).  The id is percent-decoded; raw '/' in it are kept.
 */
char *lore_link_msgid(const char *url, const char *base);

#endif
