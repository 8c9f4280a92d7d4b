/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kinds.h: the report kinds, and composing a message of one.
 *
 * The table of kinds (kinds.c) is a plain array of {name, ops}: each
 * kind's folder, robot/kinds/<kind>/, implements the hooks of struct
 * report_kind (robot/report/build.h); compose_report() takes the first
 * kind of the table whose claims() takes the request, so a kind that
 * claims only some requests comes before "perf", which takes the rest.
 * doc/architecture.md says how to add a kind.
 */
#ifndef ROBOT_KINDS_KINDS_H
#define ROBOT_KINDS_KINDS_H

#include "robot/report/build.h"
#include "robot/report/compose.h"

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

#endif
