/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compose.h: from a request and the configuration to the message bytes.
 *
 * compose_report() loads everything the request names (result roots,
 * commit metadata), builds each test's comparison, fills struct report,
 * renders it through the style's templates and wraps it in a MIME message
 * that passes the lint.  It touches no network and no spool: the CLI
 * prints the bytes (--dry-run) or queues them.
 */
#ifndef ROBOT_COMPOSE_H
#define ROBOT_COMPOSE_H

#include "robot/util/strbuf.h"

struct followup;
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

/*
 * Composes the report.  `style` (the --style option) may be NULL.
 * Returns 0, or after one error line the exit code the failure calls for:
 * EXIT_DATAERR for bad input (request, result roots, commit metadata,
 * attachments), EXIT_CONFIG when robot's own data files (templates,
 * tables) are missing or broken, EXIT_RUNTIME for an I/O error or a mail
 * that fails robot's own lint.  With thread_lookup (the request's, else
 * the configuration's) and no in_reply_to, the report replies to the mail
 * the tested commit was posted as, when the archive at lore_url has it
 * (robot/delivery/thread.h): then also EXIT_TEMPFAIL when the archive cannot be
 * asked now, EXIT_RUNTIME for an answer robot cannot use.
 */
int compose_report(struct composed *out, const struct request *req,
		   const struct robot_config *cfg, const char *style);
int compose_report_opts(struct composed *out, const struct request *req,
			const struct robot_config *cfg,
			const struct compose_opts *o);
void composed_release(struct composed *c);

/*
 * Composes robot's answer to the follow-up `parent` (robot reply,
 * doc/reply.md): the request's result roots and sections are the tables,
 * its `applied` the patch tested (none without); the reply goes to the
 * parent's sender and everyone it went to but robot, threaded under it.
 * Returns 0 or an exit code after one error line, as compose_report().
 */
int compose_reply(struct composed *out, const struct followup *parent,
		  const struct request *req, const struct robot_config *cfg,
		  const struct compose_opts *o);

/*
 * Copies the materials into their archive folder, creating it, each with
 * its source's permissions, fsync'd before it is renamed into place; a
 * killed compose's temporary files there are removed first.  The caller
 * holds the spool's lock.  Returns 0, or an exit code after an error (75
 * when the folder cannot be written, 1 otherwise).
 */
int compose_publish(const struct composed *c);

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
