// SPDX-License-Identifier: GPL-2.0-only
/*
 * smtp.c: SMTP through libcurl (see smtp.h).
 *
 * libcurl tells what the server said only through its debug callback:
 * each command it sends (CURLINFO_HEADER_OUT) and each reply line it gets
 * (CURLINFO_HEADER_IN).  No command is pipelined, so a reply belongs to
 * the last command sent; that is how each RCPT's reply is matched to its
 * recipient.  The AUTH exchange is never stored nor printed.
 */
#include "robot/util/common.h"
#include "mail/msg.h"
#include "mail/net.h"
#include "mail/smtp.h"

enum smtp_cmd {
	CMD_NONE, /* the greeting of a new connection */
	CMD_SESSION,
	CMD_AUTH,
	CMD_MAIL,
	CMD_RCPT,
	CMD_DATA,
	CMD_BODY,
	CMD_QUIT,
};

/* One reply: its code (0 = none yet) and line. */
struct reply {
	int code;
	char *text;
};

struct smtp {
	struct net net;
	char *where;
	int verbose;
	struct msg_crlf wire; /* the message being sent, read as CRLF */
	/* the dialogue of the message being sent */
	enum smtp_cmd cmd;
	int in_auth, mail_sent, closing;
	size_t rcpt_i;
	struct smtp_result *res;
	struct reply session, mail, data, final;
};

static void reply_set(struct reply *r, int code, const char *line)
{
	free(r->text);
	r->code = code;
	r->text = xstrdup(line);
}

static void reply_clear(struct reply *r)
{
	free(r->text);
	r->code = 0;
	r->text = NULL;
}

/* A reply line for logs and state files: no CR/LF, no control chars. */
static char *clean_line(const char *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	while (size && (data[size - 1] == '\n' || data[size - 1] == '\r'))
		size--;
	if (size > 500)
		size = 500;
	for (i = 0; i < size; i++) {
		unsigned char c = (unsigned char)data[i];

		strbuf_addch(&sb, c < 32 || c == 127 ? '?' : (char)c);
	}
	return strbuf_detach(&sb, NULL);
}

static int starts(const char *data, size_t size, const char *word)
{
	size_t n = strlen(word);

	return size >= n && !strncasecmp(data, word, n);
}

static void on_command(struct smtp *s, const char *data, size_t size)
{
	char *line;

	if (s->in_auth) {
		/* a continuation of the AUTH exchange: credentials */
		if (s->verbose)
			fputs("smtp: > ****\n", stderr);
		return;
	}
	if (starts(data, size, "AUTH ")) {
		s->cmd = CMD_AUTH;
		s->in_auth = 1;
		if (s->verbose) {
			size_t n = 5 + strcspn(data + 5, " \r\n");

			fprintf(stderr, "smtp: > %.*s ****\n", (int)n, data);
		}
		return;
	}
	if (starts(data, size, "MAIL FROM:")) {
		s->cmd = CMD_MAIL;
		s->mail_sent = 1;
	} else if (starts(data, size, "RCPT TO:")) {
		s->cmd = CMD_RCPT;
	} else if (starts(data, size, "DATA")) {
		s->cmd = CMD_DATA;
	} else if (starts(data, size, "QUIT")) {
		s->cmd = CMD_QUIT;
	} else {
		s->cmd = CMD_SESSION; /* EHLO, HELO, STARTTLS, ... */
	}
	if (s->verbose) {
		line = clean_line(data, size);
		fprintf(stderr, "smtp: > %s\n", line);
		free(line);
	}
}

static void on_reply(struct smtp *s, const char *data, size_t size)
{
	char *line = clean_line(data, size);
	int code = 0;
	struct smtp_result *r = s->res;

	if (s->verbose)
		fprintf(stderr, "smtp: < %s\n", line);
	if (size >= 3 && strspn(line, "0123456789") >= 3)
		code = (line[0] - '0') * 100 + (line[1] - '0') * 10 +
		       (line[2] - '0');
	/* "250-..." continues; the last line of a reply has a blank */
	if (!code || line[3] == '-') {
		free(line);
		return;
	}
	if (s->in_auth && code != 334)
		s->in_auth = 0;
	if (code == 421)
		s->closing = 1;
	switch (s->cmd) {
	case CMD_NONE:
	case CMD_SESSION:
	case CMD_AUTH:
		if (code >= 400 && !s->session.code)
			reply_set(&s->session, code, line);
		break;
	case CMD_MAIL:
		reply_set(&s->mail, code, line);
		break;
	case CMD_RCPT:
		if (r && s->rcpt_i < r->nrcpt) {
			r->rcpt[s->rcpt_i].code = code;
			free(r->rcpt[s->rcpt_i].reply);
			r->rcpt[s->rcpt_i].reply = xstrdup(line);
			s->rcpt_i++;
		}
		break;
	case CMD_DATA:
		reply_set(&s->data, code, line);
		break;
	case CMD_BODY:
		reply_set(&s->final, code, line);
		break;
	case CMD_QUIT:
		break;
	}
	free(line);
}

static int on_debug(CURL *h, curl_infotype type, char *data, size_t size,
		    void *u)
{
	struct smtp *s = u;
	char *line;

	(void)h;
	switch (type) {
	case CURLINFO_HEADER_OUT:
		on_command(s, data, size);
		break;
	case CURLINFO_HEADER_IN:
		on_reply(s, data, size);
		break;
	case CURLINFO_DATA_OUT:
		s->cmd = CMD_BODY;
		break;
	case CURLINFO_TEXT:
		if (s->verbose) {
			line = clean_line(data, size);
			fprintf(stderr, "smtp: * %s\n", line);
			free(line);
		}
		break;
	default:
		break;
	}
	return 0;
}

static size_t on_read(char *buf, size_t size, size_t n, void *u)
{
	struct smtp *s = u;

	return msg_crlf_read(&s->wire, buf, size * n);
}

/* "smtp://host:port", from a URL that must carry no user or password. */
static char *url_where(const char *url, const char *config)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL, *user = NULL;
	char *ret = NULL;

	if (!u)
		return NULL;
	if (!curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, &host, 0) &&
	    !curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT)) {
		if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK)
			error("%s: smtp_url: put the user in smtp_user and "
			      "the password in smtp_password_file, not in the "
			      "URL",
			      config);
		else
			ret = xasprintf("%s://%s:%s", scheme, host, port);
	}
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(user);
	curl_url_cleanup(u);
	return ret;
}

struct smtp *smtp_open(const struct smtp_opts *o)
{
	/* connecting counts against the same bound, at most 30 s of it */
	const struct net_opts no = { "smtp,smtps", o->ca_file,
				     o->timeout && o->timeout < 30 ? o->timeout
								   : 0,
				     o->timeout };
	struct strbuf why = STRBUF_INIT;
	struct smtp *s;
	CURL *h;
	int bad = 0, smtps;

	const char *cfg = o->config ? o->config : "(built-in)";

	if (net_url_check(o->url, "smtp,smtps", &why)) {
		error("%s: smtp_url: '%s': %s", cfg, o->url, why.buf);
		strbuf_release(&why);
		return NULL;
	}
	strbuf_release(&why);
	smtps = !strncasecmp(o->url, "smtps:", 6);
	if (o->user && !o->starttls_required && !smtps) {
		error("%s: smtp_starttls: opportunistic would let the "
		      "password go in clear text; use required with smtp_user",
		      cfg);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->verbose = o->verbose;
	s->where = url_where(o->url, cfg);
	if (!s->where || net_open(&s->net, &no)) {
		smtp_close(s);
		return NULL;
	}
	h = s->net.curl;
	bad |= curl_easy_setopt(h, CURLOPT_URL, o->url);
	bad |= curl_easy_setopt(h, CURLOPT_USE_SSL,
				o->starttls_required || smtps
					? (long)CURLUSESSL_ALL
					: (long)CURLUSESSL_TRY);
	if (o->user) {
		bad |= curl_easy_setopt(h, CURLOPT_USERNAME, o->user);
		bad |= curl_easy_setopt(h, CURLOPT_PASSWORD,
					o->password ? o->password : "");
	}
	/* each reply as well: libcurl's own bound is 120 s */
	bad |= curl_easy_setopt(h, CURLOPT_SERVER_RESPONSE_TIMEOUT,
				o->timeout ? o->timeout : 300L);
	bad |= curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	/*
	 * libcurl's least upload buffer: its dot-stuffing copy is twice that,
	 * taken and given back for every message; at the 64 KiB default
	 * that is 128 KiB, which malloc maps and returns to the system each
	 * time (a page fault and two system calls a message, more than the
	 * rest of its bookkeeping).
	 */
	bad |= curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, 16384L);
	bad |= curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
	bad |= curl_easy_setopt(h, CURLOPT_READDATA, s);
	bad |= curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	bad |= curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
	bad |= curl_easy_setopt(h, CURLOPT_DEBUGDATA, s);
	/* a refused recipient does not stop the others (its name has three
	 * L's before 8.2) */
#if LIBCURL_VERSION_NUM >= 0x080200
	bad |= curl_easy_setopt(h, CURLOPT_MAIL_RCPT_ALLOWFAILS, 1L);
#else
	bad |= curl_easy_setopt(h, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1L);
#endif
	if (bad) {
		error("libcurl refuses the SMTP settings");
		smtp_close(s);
		return NULL;
	}
	return s;
}

void smtp_close(struct smtp *s)
{
	if (!s)
		return;
	s->res = NULL;
	s->cmd = CMD_QUIT;
	/*
	 * After a reply that never came libcurl keeps the connection and
	 * waits for the answer to QUIT as long again: a few seconds do
	 */
	if (s->net.curl)
		curl_easy_setopt(s->net.curl, CURLOPT_SERVER_RESPONSE_TIMEOUT,
				 5L);
	net_close(&s->net);
	free(s->where);
	reply_clear(&s->session);
	reply_clear(&s->mail);
	reply_clear(&s->data);
	reply_clear(&s->final);
	free(s);
}

const char *smtp_where(const struct smtp *s)
{
	return s->where;
}

/* Why the session failed before the message was tried. */
static enum smtp_stop session_stop(const struct smtp *s, CURLcode rc)
{
	if (rc == CURLE_LOGIN_DENIED || rc == CURLE_USE_SSL_FAILED)
		return SMTP_CONFIG;
	if (s->session.code >= 500)
		return SMTP_SESSION_5XX;
	if (s->session.code >= 400)
		return SMTP_TEMPORARY;
	switch (net_classify(rc)) {
	case NET_CONFIG:
		return SMTP_CONFIG;
	case NET_RUNTIME:
		return SMTP_RUNTIME;
	default:
		return SMTP_TEMPORARY;
	}
}

/* What to look at in the configuration, for the errors it can cause. */
static const char *hint(CURLcode rc)
{
	switch (rc) {
	case CURLE_LOGIN_DENIED:
		return " (check smtp_user and its password)";
	case CURLE_USE_SSL_FAILED:
		return " (the server offers no STARTTLS; smtp_starttls: "
		       "opportunistic sends without it)";
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
		return " (smtp_ca_file names the CA of the server's "
		       "certificate)";
	default:
		return "";
	}
}

/* The first refusal of the message, for its log line. */
static const char *first_refusal(const struct smtp *s,
				 const struct smtp_result *r)
{
	size_t i;

	if (s->mail.code >= 400)
		return s->mail.text;
	for (i = 0; i < r->nrcpt; i++)
		if (r->rcpt[i].code >= 400)
			return r->rcpt[i].reply;
	if (s->data.code >= 400)
		return s->data.text;
	if (s->final.code >= 400)
		return s->final.text;
	return NULL;
}

static void set_rcpt(struct smtp_rcpt *r, const struct reply *from)
{
	free(r->reply);
	r->code = from->code;
	r->reply = from->text ? xstrdup(from->text) : NULL;
}

/* A new message on the session: its bytes, and no reply seen yet. */
static void start_message(struct smtp *s, const char *msg, size_t len,
			  struct smtp_result *res)
{
	/* the one place LF becomes CRLF, as libcurl reads it */
	msg_crlf_init(&s->wire, msg, len);
	s->cmd = CMD_NONE;
	s->in_auth = s->mail_sent = s->closing = 0;
	s->rcpt_i = 0;
	s->res = res;
	reply_clear(&s->session);
	reply_clear(&s->mail);
	reply_clear(&s->data);
	reply_clear(&s->final);
}

/* What the session's replies say about the message and each recipient. */
static void read_result(struct smtp *s, CURLcode rc, size_t n,
			struct smtp_result *res)
{
	const char *why;
	size_t i;

	res->tried = s->mail_sent;
	if (!res->tried) {
		res->stop = session_stop(s, rc);
		res->stop_reason =
			xasprintf("%s: %s%s", s->where,
				  s->session.text ? s->session.text
						  : net_strerror(&s->net, rc),
				  hint(rc));
		return;
	}
	if (s->mail.code >= 400) {
		/* the sender refused: for every recipient */
		for (i = 0; i < n; i++)
			set_rcpt(&res->rcpt[i], &s->mail);
		if (s->mail.code == 530) {
			/* "authentication required": configuration */
			res->tried = 0;
			res->stop = SMTP_CONFIG;
			res->stop_reason = xasprintf("%s: %s (set smtp_user)",
						     s->where, s->mail.text);
			return;
		}
	} else {
		const struct reply *end = s->final.code		? &s->final
					  : s->data.code >= 400 ? &s->data
								: NULL;

		for (i = 0; i < n; i++) {
			struct smtp_rcpt *r = &res->rcpt[i];

			if (r->code < 200 || r->code >= 300)
				continue;
			if (end) {
				set_rcpt(r, end);
			} else {
				/* no answer to the message: try again */
				r->code = 0;
			}
		}
	}
	if (rc == CURLE_OK && s->final.code >= 200 && s->final.code < 300) {
		res->reply = xstrdup(s->final.text);
	} else {
		why = first_refusal(s, res);
		res->reply = xstrdup(why ? why : net_strerror(&s->net, rc));
		/* no SMTP reply explains the failure: the session broke */
		if (!why)
			res->stop = SMTP_TEMPORARY;
	}
	if (s->closing)
		res->stop = SMTP_TEMPORARY;
	if (res->stop)
		res->stop_reason = xasprintf("%s: %s", s->where, res->reply);
}

int smtp_send(struct smtp *s, const char *from, char *const *rcpt, size_t n,
	      const char *msg, size_t len, struct smtp_result *res)
{
	struct curl_slist *list = NULL;
	char *sender = xasprintf("<%s>", from);
	CURLcode rc;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->rcpt = xcalloc(n ? n : 1, sizeof(*res->rcpt));
	res->nrcpt = n;
	for (i = 0; i < n; i++) {
		char *a = xasprintf("<%s>", rcpt[i]);

		list = curl_slist_append(list, a);
		free(a);
	}
	start_message(s, msg, len, res);
	curl_easy_setopt(s->net.curl, CURLOPT_MAIL_FROM, sender);
	curl_easy_setopt(s->net.curl, CURLOPT_MAIL_RCPT, list);
	curl_easy_setopt(s->net.curl, CURLOPT_INFILESIZE_LARGE,
			 (curl_off_t)s->wire.size);
	net_reset_error(&s->net);
	rc = curl_easy_perform(s->net.curl);
	s->res = NULL;
	curl_easy_setopt(s->net.curl, CURLOPT_MAIL_RCPT, NULL);
	curl_slist_free_all(list);
	free(sender);

	read_result(s, rc, n, res);
	return 0;
}

void smtp_result_release(struct smtp_result *r)
{
	size_t i;

	for (i = 0; i < r->nrcpt; i++)
		free(r->rcpt[i].reply);
	free(r->rcpt);
	free(r->reply);
	free(r->stop_reason);
	memset(r, 0, sizeof(*r));
}
