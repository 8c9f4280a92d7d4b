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

#include "strbuf.h"

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
};

/*
 * Composes the report.  `style` (the --style option) may be NULL.
 * Returns 0, or after one error line the exit code the failure calls for:
 * EXIT_DATAERR for bad input (request, result roots, commit metadata,
 * attachments), EXIT_CONFIG when robot's own data files (templates,
 * tables) are missing or broken, EXIT_RUNTIME for an I/O error or a mail
 * that fails robot's own lint.
 */
int compose_report(struct composed *out, const struct request *req,
		   const struct robot_config *cfg, const char *style);
void composed_release(struct composed *c);

/*
 * Copies the materials into their archive folder, creating it, each with
 * its source's permissions, fsync'd before it is renamed into place; a
 * killed compose's temporary files there are removed first.  The caller
 * holds the spool's lock.  Returns 0, or an exit code after an error (75
 * when the folder cannot be written, 1 otherwise).
 */
int compose_publish(const struct composed *c);

#endif
