/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * followup.h: a mail that answers one of robot's reports ("could you test
 * this fix?"), read into robot's own terms: who wrote it and to whom, what
 * it answers, its text and its parts.  mail/ does the reading (inmsg.h,
 * inmime.h); this is what the reply, the guards and the patch extraction
 * work on.
 */
#ifndef ROBOT_FOLLOWUP_H
#define ROBOT_FOLLOWUP_H

#include <stddef.h>
#include <stdint.h>

#include "mail/header.h"
#include "mail/inmime.h"
#include "mail/inmsg.h"

struct followup {
	char *path;
	struct inmsg msg;   /* the header fields as written */
	struct inmime mime; /* the parts, decoded */
	char *message_id;   /* "<id>", or NULL */
	char *in_reply_to;  /* the first id of In-Reply-To, or NULL */
	char **refs;	    /* References, then In-Reply-To; once each */
	size_t nrefs, alloc_refs;
	char *subject; /* decoded, or "" */
	struct hdr_addr_list from, to, cc, reply_to, followup_to;
	int has_date;
	int64_t date;
	int tz;	    /* the Date's zone, minutes east of UTC */
	char *text; /* the first inline text part, UTF-8, LF; or "" */
};

/*
 * Reads the mail at `path`, refusing one larger than `max_bytes` before
 * reading it, or whose header or MIME structure is malformed.  Returns 0,
 * or after one error line naming the file the exit code: 65 for a mail
 * robot does not understand, 1 when the file cannot be read.
 */
int followup_read(struct followup *f, const char *path, size_t max_bytes);
/* The same for a message already in memory (an mbox's, lore's answer). */
int followup_parse(struct followup *f, const char *name, const char *raw,
		   size_t len);
void followup_release(struct followup *f);

/* The sender's address ("" when the From names none). */
const char *followup_sender(const struct followup *f);

/*
 * The name to greet the sender by: the first word of the From's display
 * name, else the local part of the address.  Appended to `out`.
 */
void followup_first_name(const struct followup *f, struct strbuf *out);

/* The sender as an attribution names them: the display name, else the
 * address. */
const char *followup_sender_name(const struct followup *f);

#endif
