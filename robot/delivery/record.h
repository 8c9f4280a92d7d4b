/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h: what robot remembers about each report and reply it queued,
 * so that it can answer a follow-up to it: SPOOL/reports/NAME.yaml beside
 * the message NAME.eml (which moves between new/, sent/, ...; the record
 * stays).  A record is written in the keys of a request (config/
 * request.h), so it reads back through request_load():
 *
 *   message_id: "<...>"       the message's
 *   commit: <sha40>           the reported commit
 *   base: <sha40>             the base it was compared with
 *   kpi: ...                  the headline stat, when there is one
 *   result_roots: [/abs, ...] the first test's result roots
 *   commits: /abs | repo: /abs  the commit metadata
 *   tree, repo_url, branch    where the commit is from
 *   report: "<...>"           a reply's: the report the thread is about
 *   in_reply_to: "<...>"      a reply's: the mail it answered
 *
 * A message queued as it was (robot queue add) has no record.
 */
#ifndef ROBOT_RECORD_H
#define ROBOT_RECORD_H

#include "robot/delivery/spool.h"

struct request;

struct report_record {
	const char *message_id, *commit, *base, *kpi;
	char *const *result_roots;
	size_t nroots;
	const char *commits, *repo, *tree, *repo_url, *branch;
	const char *report, *in_reply_to;
};

/*
 * The message of the spool whose Message-ID is `msgid` ("<id>"), in any
 * state: 1 with its name (caller frees; `name` may be NULL) and state,
 * 0 when there is none, or an exit code after an error.  Looked up in
 * the spool's index (robot/delivery/msgindex.h): a command that asks for
 * each of many mails reads each message's header once, not once a mail.
 */
int record_find_message(struct spool *s, const char *msgid, char **name,
			enum spool_state *st);
/*
 * The newest of ids[0..n) (the References of a mail, oldest first) that
 * robot's spool holds, in any state: 1 with its name (caller frees) and
 * *id pointing into ids, 0 when none, or an exit code after an error.
 * The spool is looked at once (its index brought up to date), whatever n
 * is.
 */
int record_find_newest(struct spool *s, char *const *ids, size_t n, char **name,
		       const char **id);

/*
 * Writes the record of message `name` (whole, by rename; relative paths
 * are made absolute).  With the spool's lock held.  Returns 0 or an exit
 * code after an error.
 */
/* Whether the record of `name` is there; removing it (a compose that
 * could not queue its message leaves none). */
int record_exists(struct spool *s, const char *name);
void record_remove(struct spool *s, const char *name);

int record_write(struct spool *s, const char *name,
		 const struct report_record *r);

/*
 * Loads the record of `name` as a request.  Returns 0, 1 when there is
 * none, or -1 after an error (a broken record: exit 65).
 */
int record_load(struct request *req, struct spool *s, const char *name);

#endif
