/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * send.h: robot send, the delivery of the spool's queued messages, and
 * its policy (doc/delivery.md):
 *
 *   - a message is claimed (send.lock names it), delivered, recorded, and
 *     moved to sent/; a crash between the server's 250 and the record is
 *     the only way it can go twice, with the same bytes and Message-ID;
 *   - 4xx replies and broken connections keep it queued, tried again
 *     after 1, 2, 4 ... 60 minutes; a 5xx moves it to failed/ with the
 *     server's reply; a 5xx for some recipients delivers to the others
 *     and records the refused ones; a 4xx for some is tried again for
 *     those only;
 *   - max_per_run and max_per_hour stop the run quietly; a message older
 *     than max_age goes to failed/; the pause file stops everything.
 */
#ifndef ROBOT_SEND_H
#define ROBOT_SEND_H

struct robot_config;

struct send_opts {
	int verbose; /* the SMTP dialogue on stderr, passwords masked */
	int json;    /* one JSON object per line instead of the log lines */
	int quiet;   /* nothing on stdout: the errors alone */
};

/*
 * Delivers what is due.  Returns the exit code: 0, or the worst of 78
 * (configuration), 1 (runtime), 65 (a message in the spool that is not a
 * mail), 69 (a message or recipient refused for good, a message expired),
 * 75 (deferred, unreachable, spool busy or not writable).
 */
int send_run(const struct robot_config *cfg, const struct send_opts *o);

#endif
