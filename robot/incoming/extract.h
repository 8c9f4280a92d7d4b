/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * extract.h: turning a follow-up into work for the LKP side.  Which of
 * robot's reports (or replies) the mail answers is found by its
 * In-Reply-To, then its References from the newest, among the spool's
 * messages; the report's record (robot/delivery/record.h) says what was tested.
 * The result is a directory:
 *
 *   DIR/patch.mbox          the patch the mail carries
 * (robot/incoming/patch.h), as `git am` takes it; none without a patch
 *   DIR/test-request.yaml   a reply request (config/request.h) that
 *                           names the mail answered, the report, the
 *                           reported commit and its base, the KPI, the
 *                           report's two result roots and the patch
 *                           (applied:); the LKP side adds the result root
 *                           of the patched kernel and runs robot reply.
 */
#ifndef ROBOT_EXTRACT_H
#define ROBOT_EXTRACT_H

struct followup;
struct lore;
struct robot_config;
struct spool;
struct strbuf;

enum extract_result {
	EXTRACT_WRITTEN,   /* DIR holds the request (and the patch) */
	EXTRACT_IGNORED,   /* a guard said no (why says which) */
	EXTRACT_NO_REPORT, /* it answers none of robot's messages */
	EXTRACT_NO_PATCH,  /* it carries no patch (only when one is needed) */
};

/*
 * Works on one mail: the guards (robot/incoming/guard.h), the report it
 * answers, the patch (links followed through `lore`, which may be NULL), then
 * writes DIR.  With `need_patch`, a mail without a patch writes nothing
 * (EXTRACT_NO_PATCH).  `why` gets the reason of a result other than
 * EXTRACT_WRITTEN, or "inline patch" and the like.  Returns 0 (see
 * *res), or an exit code after an error line.
 */
int extract_mail(const struct followup *f, const struct robot_config *cfg,
		 struct spool *s, struct lore *lore, const char *dir,
		 int need_patch, enum extract_result *res, struct strbuf *why);

#endif
