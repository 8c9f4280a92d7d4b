/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smtp.h: sending finished messages over SMTP, through libcurl.
 *
 * One `struct smtp` is one connection for a whole run: the first message
 * connects (TLS, AUTH), the next ones reuse it, and libcurl reconnects by
 * itself when the server has closed it.  The URL is smtp://host[:port]
 * (STARTTLS required, or opportunistic) or smtps://host[:port] (TLS from
 * the start); a path names the EHLO domain: smtp://relay:587/robot.example.
 *
 * The message is given with LF line ends, as the spool holds it; it
 * becomes CRLF here, as libcurl reads it (msg_crlf_read(): no second
 * copy of the message is made), and libcurl
 * does the dot-stuffing.  Every reply the server gives is kept, per
 * recipient, so that a 5xx for one recipient does not stop the others
 * and a 4xx for one is tried again without resending to the rest.
 */
#ifndef ROBOT_MAIL_SMTP_H
#define ROBOT_MAIL_SMTP_H

#include <stddef.h>

struct smtp_opts {
	const char *url;
	const char *user, *password; /* AUTH when user is set */
	int starttls_required;	     /* else opportunistic (smtp:// only) */
	const char *ca_file;	     /* CAs besides the system's, or NULL */
	long timeout;		     /* seconds for one message; 0 = 300 */
	int verbose;		     /* the dialogue on stderr, AUTH masked */
	const char *config;	     /* the configuration file, for errors */
};

struct smtp;

/* Sets up the connection (nothing is sent yet).  NULL after error(). */
struct smtp *smtp_open(const struct smtp_opts *o);
/* Says QUIT and closes. */
void smtp_close(struct smtp *s);

/* Why a run cannot go on. */
enum smtp_stop {
	SMTP_GO_ON,	  /* the session is fine */
	SMTP_TEMPORARY,	  /* unreachable, dropped, 421: retry later */
	SMTP_CONFIG,	  /* login refused, no TLS, bad certificate */
	SMTP_SESSION_5XX, /* the server refused the session itself */
	SMTP_RUNTIME,	  /* out of memory and the like */
};

/* What happened to one recipient: code 0 = no answer (try again). */
struct smtp_rcpt {
	int code;
	char *reply; /* the server's line, control characters made '?' */
};

struct smtp_result {
	/* the message reached MAIL FROM: it was tried, its replies count */
	int tried;
	struct smtp_rcpt *rcpt; /* one per recipient, in the order given */
	size_t nrcpt;
	char *reply;	     /* the deciding reply: final 250, or refusal */
	enum smtp_stop stop; /* the run must stop after this message */
	char *stop_reason;   /* why, for the error line */
};

/*
 * Sends msg[0..len) (LF line ends) from `from` to rcpt[0..n).  Returns 0
 * with `res` filled (see above); the caller releases it.
 */
int smtp_send(struct smtp *s, const char *from, char *const *rcpt, size_t n,
	      const char *msg, size_t len, struct smtp_result *res);
void smtp_result_release(struct smtp_result *r);

/* The URL without user or password, for logs: "smtp://host:port". */
const char *smtp_where(const struct smtp *s);

#endif
