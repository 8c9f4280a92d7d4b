/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spool.h: the queue on disk, the boundary between composing and sending.
 *
 * A spool directory holds tmp/, new/, sent/, failed/ and hold/.  A message
 * is written to tmp/, fsync'd, then linked into new/ under a name derived
 * from the report's identity (commit, test, parameters, box, KPI), so the
 * same report composed twice finds its first copy wherever send has moved
 * it since.  The files hold exactly the bytes `compose --dry-run` prints.
 */
#ifndef ROBOT_SPOOL_H
#define ROBOT_SPOOL_H

#include <stddef.h>

struct strbuf;

enum spool_result {
	SPOOL_QUEUED,	      /* written to new/ */
	SPOOL_ALREADY_QUEUED, /* the report waits in new/, failed/ or hold/ */
	SPOOL_ALREADY_SENT,   /* the report is in sent/ */
};

/*
 * Queues `msg` (len bytes) for the report identified by `key`.  When the
 * report is already in the spool, nothing is written and `first_id` gets
 * the Message-ID of the first copy.  Returns 0, or -1 after an error
 * (exit 1; 75 when the spool is locked: spool_locked() tells).
 */
int spool_enqueue(const char *dir, const char *key, const char *msg, size_t len,
		  enum spool_result *res, struct strbuf *first_id);

/* A hex digest of `key` (32 digits), the file name of its report. */
void spool_key_name(struct strbuf *out, const char *key);

#endif
