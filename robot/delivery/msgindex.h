/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msgindex.h: the spool's messages by Message-ID, for the look-ups of
 * robot inbox and robot reply (robot/delivery/record.h): which of
 * robot's messages a follow-up answers, and whether a mail is robot's
 * own.
 *
 * The index is made when a command first looks a Message-ID up (each
 * message's header read once) and lives as long as the spool is open
 * (struct spool holds it).  Each look-up first brings it up to date: a
 * state folder whose stat (device, inode, mtime) is not the one it had
 * when the index last read it is read again, and only its messages not
 * seen before (a name, inode and mtime the index does not know) have
 * their header read.  Every change of a folder (a message queued into
 * new/, moved, removed) changes its mtime, so a look-up sees the spool
 * as a listing at that moment would, at the cost of a stat of each
 * folder while the spool does not change.  A folder whose mtime was
 * less than a second old when it was read might change again within the
 * same tick of the filesystem's clock, unseen: it is read again at each
 * look-up until it is older than that.
 */
#ifndef ROBOT_MSGINDEX_H
#define ROBOT_MSGINDEX_H

#include "robot/delivery/spool.h"

struct msgindex;

/* Brings the index of `s` up to date (makes it the first time). */
void msgindex_update(struct spool *s);
/*
 * Whether the state folder `st` could be read at the last update: 0, or
 * its error line printed ("cannot read 'DIR'") and the exit code.
 */
int msgindex_error(struct spool *s, enum spool_state st);
/*
 * The message of state `st` whose Message-ID is `msgid` (the oldest,
 * then the first by name, when there are several): its name, owned by
 * the index, or NULL.
 */
const char *msgindex_get(struct spool *s, enum spool_state st,
			 const char *msgid);
void msgindex_free(struct msgindex *ix);

#endif
