/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compose.h: a composed message, and its way into the spool.
 *
 * robot/kinds/kinds.h composes a report or a reply (struct composed);
 * compose_queue() publishes its materials, records it and queues it.
 */
#ifndef ROBOT_REPORT_COMPOSE_H
#define ROBOT_REPORT_COMPOSE_H

#include "robot/util/strbuf.h"

struct request;
struct robot_config;

struct composed {
	struct strbuf bytes; /* the RFC 5322 message, LF line ends */
	char *message_id;    /* "<...>" */
	char *key;	     /* the report's identity, for the spool */
	/* materials to publish under archive_dir (download-link styles) */
	char *archive_dir;
	size_t nmaterials;
	char **material_names, **material_paths;
	/* for the record of the message (robot/delivery/record.h): full ids */
	char *commit_id, *base_id;
};

struct compose_opts {
	const char *style; /* the --style option, or NULL */
	/*
	 * --dry-run: the thread lookup (thread_lookup, doc/threading.md)
	 * reads the lore cache only, and fails with EXIT_TEMPFAIL for what
	 * is not in it
	 */
	int offline;
	/*
	 * compose --force: the Nth correction of a report already in the
	 * spool (0: the report itself).  A correction's identity, and so
	 * its spool name and generated Message-ID, differ from the first's.
	 */
	unsigned revision;
};

void composed_release(struct composed *c);

/*
 * Copies the materials into their archive folder, creating it, each with
 * its source's permissions, fsync'd before it is renamed into place; a
 * killed compose's temporary files there are removed first.  The caller
 * holds the spool's lock.  Returns 0, or an exit code after an error (75
 * when the folder cannot be written, 1 otherwise).
 */
int compose_publish(const struct composed *c);

struct msg;
struct strv;

/*
 * What every kind's headers share (headers.c): a list joined with ", ",
 * and one header whose value comes from `key` of `file`, refused with
 * one error naming both when the header cannot carry it.
 */
void compose_join_list(struct strbuf *out, const struct strv *v);
int compose_add_header(struct msg *m, const char *name, const char *value,
		       const char *file, const char *key);
/*
 * From, To and Cc of a request that names them itself (the build kinds):
 * its `from`, else the configuration's; its `to` and `cc`, each left out
 * when empty, and with `cc_default` the configuration's cc when the
 * request has none.  `file` is the request's.
 */
int compose_add_addresses(struct msg *m, const char *from,
			  const struct strv *to, const struct strv *cc,
			  const char *file, const struct robot_config *cfg,
			  int cc_default);

struct report_record;

/*
 * The record (robot/delivery/record.h) of the message `c` composed from `req`:
 * its pointers are theirs.
 */
void compose_record(struct report_record *rec, const struct composed *c,
		    const struct request *req);

/*
 * Queues a composed message holding the spool's lock: publishes its
 * materials, writes its record (robot/delivery/record.h; `rec` may be NULL),
 * then queues it.  `said` gets what the CLI prints: the Message-ID, or "already
 * queued: <id>" / "already sent: <id>" with the first copy's when it was queued
 * before.  Returns 0 or an exit code after an error.
 */
int compose_queue(const struct composed *c, const struct robot_config *cfg,
		  const struct report_record *rec, struct strbuf *said);

#endif
