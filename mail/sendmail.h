/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sendmail.h: the sendmail transport.  `sendmail_cmd` (robot.yaml) names
 * a program and its options, e.g. "/usr/sbin/sendmail -oi", as git
 * send-email offers; robot runs it once per message, the program and its
 * words as written (split on blanks, no shell), then "-f SENDER -- RCPT...",
 * with the message on its standard input (LF line ends, Bcc removed).
 *
 * Its exit status gets the policy of an SMTP reply (doc/delivery.md):
 *   0                      sent to every recipient (250)
 *   75 EX_TEMPFAIL, 70-74, 76, a signal, a timeout, any other status
 *                          deferred (a 4xx): tried again later
 *   65, 67, 68, 69         refused permanently (a 5xx): failed/
 *   64, 66, 77, 78, 126, 127, a program that cannot be run
 *                          the command is wrong: the run stops, exit 78,
 *                          the message stays queued
 * The reply recorded is "exit N (NAME)" and the program's first line of
 * output, control characters made '?'.
 */
#ifndef ROBOT_MAIL_SENDMAIL_H
#define ROBOT_MAIL_SENDMAIL_H

#include <stddef.h>

struct smtp_result;

struct sendmail {
	char **argv; /* the command's words, NULL-terminated */
	size_t argc;
	char *where; /* "sendmail:/usr/sbin/sendmail", for logs */
	int timeout; /* seconds a message may take */
	int has_t;   /* -t among the words */
};

/*
 * Splits `cmd` into words and checks it: an absolute path to a program
 * that can be run, with -i or -oi among its words (without it a line of a
 * lone "." would end the message).  `has_t`: the words hold -t (the
 * program adds the header's recipients to robot's).  Returns 0, or -1
 * after one error naming `config` and the key.
 */
int sendmail_open(struct sendmail *s, const char *cmd, const char *config);
void sendmail_close(struct sendmail *s);

/*
 * Runs the command for one message: msg[0..len) from `from` to
 * rcpt[0..n).  Fills `res` as smtp_send() does (mail/smtp.h): `tried`, a
 * code for every recipient (250, 451 or 550), the reply; or, for a
 * command that is wrong, tried 0 and stop SMTP_CONFIG with the reason.
 */
void sendmail_send(const struct sendmail *s, const char *from,
		   char *const *rcpt, size_t n, const char *msg, size_t len,
		   struct smtp_result *res);

#endif
