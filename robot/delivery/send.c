// SPDX-License-Identifier: GPL-2.0-only
/*
 * send.c: robot send (see send.h).
 *
 * A run holds send.lock throughout, so no two runs send at once.  Under
 * the spool's lock it removes what killed processes left in tmp/, looks
 * at what a run killed during a mailbox append left, moves messages
 * older than max_age to failed/ and lists new/.  Then, for each message
 * that is due: under the lock, check it is still queued and name it in
 * send.lock (the claim); without the lock, deliver it; under the lock
 * again, record the outcome (state file, rename) and clear the claim.
 * Compose and robot queue take the same lock, so they never see a message
 * half recorded, and robot queue refuses to touch the claimed one.
 */
#include "robot/util/common.h"
#include "robot/delivery/send.h"
#include "robot/delivery/spool.h"
#include "config/config.h"
#include "mail/envelope.h"
#include "mail/header.h"
#include "mail/mbox.h"
#include "mail/sendmail.h"
#include "mail/smtp.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

struct run {
	const struct robot_config *cfg;
	const char *config; /* the file, for errors */
	int verbose;
	time_t now;
	time_t mbox_when; /* the "From " lines': SOURCE_DATE_EPOCH, else now */
	struct spool sp;
	/* the transport: SMTP, sendmail_cmd, or the local mailbox */
	char *smtp_url, *password;
	struct smtp *smtp;
	struct sendmail sendmail;
	int remote; /* SMTP or sendmail: not the local mailbox */
	char *mbox_path;
	struct mbox mbox;
	char *where; /* for log lines */
	/* addresses from the configuration, or NULL */
	char *envelope_from, *staging_to;
	/* the limits: messages this run may still deliver, -1 = no limit */
	long allowance;
	const char *limit_key;
	long limit;
	/* the outcome */
	size_t sent, deferred, failed, not_due, left;
	int status, stop;
	/*
	 * Why the transport stopped the run (NULL: it did not), and whether
	 * the message whose turn it was went untried: that one and every
	 * due message after it get the attempt recorded (held_back()).
	 */
	char *stop_reason;
	int untried;
	int json, quiet;
};

/* ---- what a run says: a line per event, or a JSON object per line ---- */

struct event {
	const char *event; /* sent, deferred, failed, expired, held, ... */
	const char *message_id, *via, *reply;
	const struct spool_strs *sent_to, *refused, *deferred;
	int attempts;	     /* 0: none counted */
	time_t next_attempt; /* 0: none */
};

static void json_strs(struct strbuf *out, const struct spool_strs *l)
{
	size_t i;

	strbuf_addch(out, '[');
	for (i = 0; l && i < l->n; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		strbuf_add_json_string(out, l->v[i]);
	}
	strbuf_addch(out, ']');
}

/*
 * Prints `line` after the time (ISO 8601, UTC), or, with --json, the
 * event as one JSON object (doc/commands.md lists its fields); nothing
 * with --quiet.
 */
static void say(const struct run *r, const struct event *ev, const char *line)
{
	struct strbuf out = STRBUF_INIT;
	time_t now = time(NULL);

	if (r->quiet)
		return;
	if (!r->json) {
		spool_time_format(&out, now);
		printf("%s %s\n", out.buf, line);
		strbuf_release(&out);
		fflush(stdout);
		return;
	}
	strbuf_addstr(&out, "{\"time\": ");
	spool_time_json(&out, now);
	strbuf_addstr(&out, ", \"event\": ");
	strbuf_add_json_string(&out, ev->event);
	strbuf_addstr(&out, ", \"message_id\": ");
	strbuf_add_json_string(&out, ev->message_id);
	strbuf_addstr(&out, ", \"via\": ");
	strbuf_add_json_string(&out, ev->via);
	strbuf_addstr(&out, ", \"reply\": ");
	strbuf_add_json_string(&out, ev->reply);
	strbuf_addstr(&out, ", \"sent_to\": ");
	json_strs(&out, ev->sent_to);
	strbuf_addstr(&out, ", \"refused\": ");
	json_strs(&out, ev->refused);
	strbuf_addstr(&out, ", \"deferred\": ");
	json_strs(&out, ev->deferred);
	if (ev->attempts)
		strbuf_addf(&out, ", \"attempts\": %d", ev->attempts);
	else
		strbuf_addstr(&out, ", \"attempts\": null");
	strbuf_addstr(&out, ", \"next_attempt\": ");
	spool_time_json(&out, ev->next_attempt);
	strbuf_addstr(&out, ", \"text\": ");
	strbuf_add_json_string(&out, line);
	strbuf_addstr(&out, "}\n");
	fwrite(out.buf, 1, out.len, stdout);
	fflush(stdout);
	strbuf_release(&out);
}

/* An event with only a kind, a Message-ID and a reason. */
static void say_simple(const struct run *r, const char *event,
		       const char *message_id, const char *reply,
		       const char *line)
{
	struct event ev = { .event = event,
			    .message_id = message_id,
			    .via = r->where,
			    .reply = reply };

	say(r, &ev, line);
}

/* The exit codes by weight: a configuration error matters most. */
static void worse(struct run *r, int code)
{
	static const int order[] = { EXIT_CONFIG, EXIT_RUNTIME, EXIT_DATAERR,
				     EXIT_UNAVAILABLE, EXIT_TEMPFAIL };
	size_t i, a = ARRAY_SIZE(order), b = ARRAY_SIZE(order);

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (order[i] == code)
			a = i;
		if (order[i] == r->status)
			b = i;
	}
	if (a < b)
		r->status = code;
}

/* ---- the configuration, checked before anything moves ---- */

/* One address, from a key of the configuration. */
static int one_address(char **out, const char *value, const char *config,
		       const char *key)
{
	struct hdr_addr_list l = HDR_ADDR_LIST_INIT;
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (!value)
		return 0;
	if (hdr_parse_addresses(&l, value, &why) || l.nr != 1)
		ret = error("%s: %s: '%s' is not one address%s%s", config, key,
			    value, why.len ? ": " : "", why.buf);
	else
		*out = xstrdup(l.v[0].addr);
	hdr_addr_list_release(&l);
	strbuf_release(&why);
	return ret;
}

/*
 * The SMTP password: $ROBOT_SMTP_PASSWORD, else the first line of
 * smtp_password_file, which others must not be able to read.
 */
static int read_password(struct run *r)
{
	const char *env = getenv("ROBOT_SMTP_PASSWORD");
	const char *file = r->cfg->smtp_password_file;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	if (!r->cfg->smtp_user) {
		if (file)
			return error("%s: smtp_password_file: set without "
				     "smtp_user",
				     r->config);
		return 0;
	}
	if (env && *env) {
		r->password = xstrdup(env);
		return 0;
	}
	if (!file)
		return error("%s: smtp_user: no password: set "
			     "smtp_password_file or ROBOT_SMTP_PASSWORD",
			     r->config);
	if (stat(file, &st) || strbuf_read_file(&sb, file)) {
		strbuf_release(&sb);
		return error_errno("%s: smtp_password_file: cannot read '%s'",
				   r->config, file);
	}
	if (st.st_mode & 0007) {
		strbuf_release(&sb);
		return error("%s: smtp_password_file: '%s' can be read by "
			     "anyone (mode %04o); chmod 600 it",
			     r->config, file, (unsigned)(st.st_mode & 07777));
	}
	strbuf_setlen(&sb, strcspn(sb.buf, "\r\n"));
	if (!sb.len) {
		strbuf_release(&sb);
		return error("%s: smtp_password_file: '%s' is empty", r->config,
			     file);
	}
	r->password = strbuf_detach(&sb, NULL);
	return 0;
}

/* The local mailbox: mbox, else SPOOL/mbox; its folder must exist. */
static int check_mbox(struct run *r)
{
	char *dir, *slash;
	struct stat st;
	int ret = 0;

	r->mbox_path = r->cfg->mbox ? xstrdup(r->cfg->mbox)
				    : xasprintf("%s/mbox", r->cfg->spool);
	dir = xstrdup(r->mbox_path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (stat(slash ? dir : ".", &st) || !S_ISDIR(st.st_mode))
		ret = error("%s: mbox: '%s': its folder does not exist",
			    r->config, r->mbox_path);
	free(dir);
	r->where = xasprintf("mbox:%s", r->mbox_path);
	return ret;
}

static int check_config(struct run *r)
{
	const struct robot_config *cfg = r->cfg;
	struct smtp_opts o = { 0 };

	if (one_address(&r->envelope_from, cfg->envelope_from, r->config,
			"envelope_from") ||
	    one_address(&r->staging_to, cfg->staging_to, r->config,
			"staging_to"))
		return -1;
	if (cfg->smtp_url && cfg->sendmail_cmd)
		return error("%s: smtp_url, sendmail_cmd: one transport at a "
			     "time; drop one of them",
			     r->config);
	if (cfg->sendmail_cmd) {
		if (sendmail_open(&r->sendmail, cfg->sendmail_cmd, r->config))
			return -1;
		if (r->sendmail.has_t && r->staging_to)
			return error("%s: sendmail_cmd: -t would send to the "
				     "header's recipients too, not only to "
				     "staging_to; drop -t",
				     r->config);
		r->remote = 1;
		r->where = xstrdup(r->sendmail.where);
		return 0;
	}
	if (!cfg->smtp_url)
		return check_mbox(r);
	r->remote = 1;
	if (read_password(r))
		return -1;
	o.url = cfg->smtp_url;
	o.user = cfg->smtp_user;
	o.password = r->password;
	o.starttls_required = cfg->starttls_required;
	o.ca_file = cfg->smtp_ca_file;
	o.timeout = cfg->smtp_timeout;
	o.verbose = r->verbose;
	o.config = r->config;
	/* sets up only: nothing connects before a message is due */
	r->smtp = smtp_open(&o);
	if (!r->smtp)
		return -1;
	r->where = xstrdup(smtp_where(r->smtp));
	return 0;
}

/* ---- the local mailbox ---- */

/*
 * Before it appends, a run writes mbox.journal (the message, where the
 * append starts, its sender and date), and removes it only once the
 * message is recorded as sent.  A run killed in between leaves it, and
 * the next run finds in the mailbox either nothing, part of the entry
 * (cut off again, then the message is delivered once more), or all of it
 * (recorded as sent without a second copy).
 */
struct journal {
	char *name, *sender;
	long long offset;
	time_t when;
};

static char *journal_path(const struct run *r)
{
	return xasprintf("%s/mbox.journal", r->sp.dir);
}

static int journal_write(const struct run *r, const char *name,
			 const char *sender, long long offset, time_t when)
{
	char *p = journal_path(r);
	FILE *f = fopen(p, "w");
	int ret = 0;

	if (!f || fprintf(f, "name %s\noffset %lld\ntime %lld\nsender %s\n",
			  name, offset, (long long)when, sender) < 0) {
		ret = spool_errno_exit(errno);
		error_errno("cannot write '%s'", p);
	}
	if (f && fclose(f) && !ret) {
		ret = spool_errno_exit(errno);
		error_errno("cannot write '%s'", p);
	}
	free(p);
	return ret;
}

static void journal_remove(const struct run *r)
{
	char *p = journal_path(r);

	unlink(p);
	free(p);
}

static int journal_read(const struct run *r, struct journal *j)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = journal_path(r), *line, *next;

	memset(j, 0, sizeof(*j));
	if (strbuf_read_file(&sb, p)) {
		free(p);
		strbuf_release(&sb);
		return -1;
	}
	free(p);
	for (line = sb.buf; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (!strncmp(line, "name ", 5))
			j->name = xstrdup(line + 5);
		else if (!strncmp(line, "offset ", 7))
			j->offset = atoll(line + 7);
		else if (!strncmp(line, "time ", 5))
			j->when = (time_t)atoll(line + 5);
		else if (!strncmp(line, "sender ", 7))
			j->sender = xstrdup(line + 7);
	}
	strbuf_release(&sb);
	return j->name && j->sender ? 0 : -1;
}

static void journal_release(struct journal *j)
{
	free(j->name);
	free(j->sender);
}

/*
 * The bytes that leave robot: the message without its Bcc fields, in
 * place of it (a message without Bcc is sent from the buffer it was read
 * into: one copy of it in memory, doc/limits.md).
 */
static void outgoing(struct strbuf *msg, const struct envelope *e)
{
	struct strbuf out = STRBUF_INIT;

	if (!e->has_bcc)
		return;
	envelope_strip_bcc(&out, msg->buf, msg->len);
	strbuf_release(msg);
	*msg = out;
}

static int open_mbox(struct run *r)
{
	if (r->mbox.path)
		return 0;
	if (mbox_open(&r->mbox, r->mbox_path))
		return spool_errno_exit(errno);
	return 0;
}

static int record_sent(struct run *r, const char *name, const char *id,
		       struct spool_meta *meta);

/* What a run killed during an append left (the spool lock held). */
static int recover_mbox(struct run *r)
{
	struct strbuf msg = STRBUF_INIT, entry = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct spool_meta meta = { 0 };
	struct envelope e = { 0 };
	struct journal j;
	enum mbox_found found;
	int ret = 0;

	if (journal_read(r, &j)) {
		journal_remove(r);
		return 0;
	}
	if (r->remote || !spool_has(&r->sp, SPOOL_NEW, j.name) ||
	    spool_read(&r->sp, SPOOL_NEW, j.name, &msg) ||
	    envelope_read(&e, msg.buf, msg.len, &why) || open_mbox(r)) {
		journal_remove(r);
		goto out;
	}
	outgoing(&msg, &e);
	mbox_entry(&entry, j.sender, j.when, msg.buf, msg.len);
	if (mbox_lock(&r->mbox) < 0) {
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	found = mbox_recover(&r->mbox, j.offset, entry.buf, entry.len);
	mbox_unlock(&r->mbox);
	if (found == MBOX_WHOLE) {
		/* delivered before the crash: record it, send no copy */
		spool_read_meta(&r->sp, SPOOL_NEW, j.name, &meta);
		ret = record_sent(r, j.name, e.message_id, &meta);
		if (!ret) {
			struct strbuf line = STRBUF_INIT;

			strbuf_addf(&line,
				    "sent %s to %s (found whole after a crash)",
				    e.message_id, r->where);
			say_simple(r, "sent", e.message_id, "found whole",
				   line.buf);
			strbuf_release(&line);
		}
	} else if (found == MBOX_REMOVED) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line,
			    "removed the half of %s that a crash left "
			    "in %s",
			    e.message_id, r->where);
		say_simple(r, "removed", e.message_id, "half written",
			   line.buf);
		strbuf_release(&line);
	} else if (found == MBOX_SOMETHING) {
		warning("%s: other bytes where a crashed run was appending "
			"%s; left alone",
			r->mbox_path, e.message_id);
	}
	if (!ret)
		journal_remove(r);
out:
	spool_meta_release(&meta);
	envelope_release(&e);
	journal_release(&j);
	strbuf_release(&msg);
	strbuf_release(&entry);
	strbuf_release(&why);
	return ret;
}

/* ---- recording ---- */

/*
 * Moves the message from new/ to `to` (sent/ or failed/) with its record
 * (the spool lock held): the record is written into `to` first, then the
 * message renamed there, the moment it counts as done.
 */
static int record_done(struct run *r, const char *name, const char *id,
		       struct spool_meta *meta, enum spool_state to)
{
	int ret;

	meta->done = r->now;
	meta->next_attempt = 0;
	if (to == SPOOL_SENT)
		spool_strs_release(&meta->deferred);
	/*
	 * The record first, then the move: a disk too full for the record
	 * leaves the message queued with what it had (it goes out again),
	 * never in sent/ without one.
	 */
	ret = spool_write_meta(&r->sp, to, name, id, meta);
	if (ret)
		error("%s: %s, but its record cannot be written: it stays "
		      "queued and goes out again",
		      id ? id : name, to == SPOOL_SENT ? "sent" : "failed");
	if (!ret)
		ret = spool_move(&r->sp, name, SPOOL_NEW, to,
				 SPOOL_MOVE_KEEP_META);
	if (!ret && to == SPOOL_SENT)
		spool_rate_add(&r->sp, r->now);
	return ret;
}

static int record_sent(struct run *r, const char *name, const char *id,
		       struct spool_meta *meta)
{
	return record_done(r, name, id, meta, SPOOL_SENT);
}

static int record_failed(struct run *r, const char *name, const char *id,
			 struct spool_meta *meta)
{
	return record_done(r, name, id, meta, SPOOL_FAILED);
}

/* 1, 2, 4, ... minutes after the Nth failed attempt, at most an hour. */
static time_t backoff(int attempts)
{
	long d = 60;

	while (--attempts > 0 && d < 3600)
		d *= 2;
	return d < 3600 ? d : 3600;
}

/* "a@x" in l, as "a@x" or "a@x reply" */
static int listed(const struct spool_strs *l, const char *addr)
{
	size_t i, n = strlen(addr);

	for (i = 0; i < l->n; i++)
		if (!strncasecmp(l->v[i], addr, n) &&
		    (!l->v[i][n] || l->v[i][n] == ' '))
			return 1;
	return 0;
}

static void add_list(struct strbuf *sb, const char *word,
		     const struct spool_strs *l)
{
	size_t i;

	if (!l->n)
		return;
	strbuf_addf(sb, "; %s: ", word);
	for (i = 0; i < l->n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", l->v[i]);
}

static void join(struct strbuf *sb, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", v[i]);
}

/* ---- one message ---- */

struct attempt {
	char **rcpt; /* this attempt's recipients */
	size_t n;
	struct smtp_result res;
};

/* Delivers to the local mailbox: every recipient or none. */
static int deliver_mbox(struct run *r, const char *name,
			const struct strbuf *bytes, const char *sender,
			struct attempt *a)
{
	struct strbuf entry = STRBUF_INIT;
	time_t when = r->mbox_when;
	long long off;
	size_t i;
	int ret = open_mbox(r);

	if (ret)
		return ret;
	mbox_entry(&entry, sender, when, bytes->buf, bytes->len);
	off = mbox_lock(&r->mbox);
	if (off < 0) {
		strbuf_release(&entry);
		return EXIT_TEMPFAIL;
	}
	ret = journal_write(r, name, sender, off, when);
	if (!ret && test_crash_due("mbox")) {
		mbox_write(&r->mbox, entry.buf, entry.len / 2, 0);
		raise(SIGKILL);
	}
	if (!ret && mbox_write(&r->mbox, entry.buf, entry.len, 1)) {
		ret = spool_errno_exit(errno);
		journal_remove(r);
	}
	mbox_unlock(&r->mbox);
	strbuf_release(&entry);
	if (ret)
		return ret;
	a->res.tried = 1;
	a->res.nrcpt = a->n;
	a->res.rcpt = xcalloc(a->n ? a->n : 1, sizeof(*a->res.rcpt));
	for (i = 0; i < a->n; i++)
		a->res.rcpt[i].code = 250;
	a->res.reply = xstrdup("appended");
	return 0;
}

/*
 * Stops the run: the message (and the rest) stay queued, each with the
 * attempt recorded (held_back()).
 */
static void stop_run(struct run *r, int code, const char *why)
{
	r->stop = 1;
	worse(r, code);
	free(r->stop_reason);
	r->stop_reason = xstrdup(why ? why : "the transport failed");
	error("%s; the queued messages stay queued", why);
}

static int stop_code(enum smtp_stop s)
{
	switch (s) {
	case SMTP_CONFIG:
		return EXIT_CONFIG;
	case SMTP_SESSION_5XX:
		return EXIT_UNAVAILABLE;
	case SMTP_RUNTIME:
		return EXIT_RUNTIME;
	default:
		return EXIT_TEMPFAIL;
	}
}

/* Each recipient's answer: sent, refused (5xx) or deferred, with it. */
static void sort_rcpts(const struct attempt *a, struct spool_meta *meta,
		       struct spool_strs *sent, struct spool_strs *refused,
		       struct spool_strs *deferred)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		const struct smtp_rcpt *x = &a->res.rcpt[i];
		struct strbuf item = STRBUF_INIT;

		const char *why = x->reply;

		/* a deferred recipient's reply is the message's, never the
		 * 250 its RCPT got before the connection broke */
		if (!(x->code >= 200 && x->code < 300) && why && why[0] == '2')
			why = NULL;
		strbuf_addf(&item, "%s %s", a->rcpt[i],
			    why ? why
				: (a->res.reply ? a->res.reply : "no reply"));
		if (x->code >= 200 && x->code < 300) {
			spool_strs_add(sent, a->rcpt[i]);
			spool_strs_add(&meta->sent_to, a->rcpt[i]);
		} else if (x->code >= 500) {
			spool_strs_add(refused, item.buf);
			spool_strs_add(&meta->refused, item.buf);
		} else {
			spool_strs_add(deferred, item.buf);
		}
		strbuf_release(&item);
	}
}

/* The log's "sent <id> to ..." and to whom instead, where it applies. */
static void log_sent(struct strbuf *log, const struct run *r,
		     const struct envelope *e, const struct spool_strs *sent)
{
	strbuf_addf(log, "sent %s to ", e->message_id);
	if (r->staging_to) {
		strbuf_addf(log, "%s (staging_to, instead of ", r->staging_to);
		join(log, e->rcpt, e->nrcpt);
		strbuf_addch(log, ')');
	} else if (!r->remote) {
		strbuf_addf(log, "%s (for ", r->where);
		join(log, sent->v, sent->n);
		strbuf_addch(log, ')');
	} else {
		join(log, sent->v, sent->n);
	}
}

/* A refused recipient: one error, the run's exit code at least 69. */
static void say_refused(struct run *r, const struct envelope *e,
			const struct spool_meta *meta,
			const struct spool_strs *refused, size_t ndeferred)
{
	worse(r, EXIT_UNAVAILABLE);
	if (meta->sent_to.n || ndeferred)
		error("%s: refused for %s; %s to the others", e->message_id,
		      refused->v[0], meta->sent_to.n ? "sent" : "deferred");
	else
		error("%s: refused permanently, moved to failed/: %s",
		      e->message_id, refused->v[0]);
}

/* Records what the attempt did (the spool lock held); prints the log. */
static int record(struct run *r, const char *name, const struct envelope *e,
		  struct spool_meta *meta, const struct attempt *a)
{
	struct spool_strs refused = { 0 }, deferred = { 0 }, sent = { 0 };
	struct strbuf log = STRBUF_INIT, when = STRBUF_INIT;
	size_t i;
	int ret = 0;

	sort_rcpts(a, meta, &sent, &refused, &deferred);
	meta->attempts++;
	meta->last_attempt = r->now;
	free(meta->via);
	meta->via = xstrdup(r->where);
	free(meta->reply);
	meta->reply = xstrdup(a->res.reply ? a->res.reply : "no reply");
	spool_strs_release(&meta->deferred);
	for (i = 0; i < deferred.n; i++)
		spool_strs_add(&meta->deferred, deferred.v[i]);

	if (deferred.n) {
		meta->next_attempt = r->now + backoff(meta->attempts);
		ret = spool_write_meta(&r->sp, SPOOL_NEW, name, e->message_id,
				       meta);
		spool_time_format(&when, meta->next_attempt);
		strbuf_addf(&log, "deferred %s", e->message_id);
		r->deferred++;
		worse(r, EXIT_TEMPFAIL);
		/* a stopped run says it once, for this one and the rest */
		if (!a->res.stop)
			error("%s: deferred, next attempt %s: %s",
			      e->message_id, when.buf, deferred.v[0]);
	} else if (meta->sent_to.n) {
		ret = record_sent(r, name, e->message_id, meta);
		log_sent(&log, r, e, &sent);
		r->sent++;
	} else {
		ret = record_failed(r, name, e->message_id, meta);
		strbuf_addf(&log, "failed %s", e->message_id);
		r->failed++;
	}
	if (r->remote)
		strbuf_addf(&log, " via %s: %s", r->where,
			    a->res.reply ? a->res.reply : "no reply");
	if (deferred.n) {
		strbuf_addf(&log, " (attempt %d, next %s)", meta->attempts,
			    when.buf);
		if (sent.n) {
			strbuf_addstr(&log, "; sent to: ");
			join(&log, sent.v, sent.n);
		}
	}
	add_list(&log, "refused", &refused);
	add_list(&log, "deferred", &deferred);
	{
		struct event ev = {
			.event = deferred.n	   ? "deferred"
				 : meta->sent_to.n ? "sent"
						   : "failed",
			.message_id = e->message_id,
			.via = r->where,
			.reply = meta->reply,
			.sent_to = &sent,
			.refused = &refused,
			.deferred = &deferred,
			.attempts = meta->attempts,
			.next_attempt = deferred.n ? meta->next_attempt : 0,
		};

		say(r, &ev, log.buf);
	}
	if (refused.n)
		say_refused(r, e, meta, &refused, deferred.n);
	spool_strs_release(&refused);
	spool_strs_release(&deferred);
	spool_strs_release(&sent);
	strbuf_release(&log);
	strbuf_release(&when);
	return ret;
}

/* A file in new/ that is not a mail: failed/, with the reason. */
static void unreadable(struct run *r, const char *name, const char *why)
{
	struct spool_meta meta = { 0 };
	char *id = xasprintf("(unreadable %s)", name);
	struct strbuf text = STRBUF_INIT;

	/* the reason may quote the file: its bytes as text */
	strbuf_addstr(&text, "not a mail robot can send: ");
	strbuf_add_text(&text, why, strlen(why));
	meta.reply = strbuf_detach(&text, NULL);
	if (!spool_lock(&r->sp)) {
		record_failed(r, name, NULL, &meta);
		spool_send_claim(&r->sp, NULL);
		spool_unlock(&r->sp);
	}
	{
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line, "failed %s: %s", id, meta.reply);
		say_simple(r, "failed", NULL, meta.reply, line.buf);
		strbuf_release(&line);
	}
	error("%s/new/%s.eml: %s; moved to failed/", r->sp.dir, name, why);
	worse(r, EXIT_DATAERR);
	r->failed++;
	spool_meta_release(&meta);
	free(id);
}

/*
 * The claimed message's bytes: 0, -1 when it is too big to send (moved
 * to failed/ as one robot cannot send), or an exit code.
 */
static int read_claimed(struct run *r, const char *name, struct strbuf *msg)
{
	if (!spool_message_fits(&r->sp, SPOOL_NEW, name)) {
		unreadable(r, name, spool_too_big);
		return -1;
	}
	return spool_read(&r->sp, SPOOL_NEW, name, msg);
}

/* Who the message goes to this time: staging_to, or who has it not yet. */
static void pick_rcpts(const struct run *r, const struct spool_meta *meta,
		       const struct envelope *e, struct attempt *a)
{
	size_t i;

	a->rcpt = xcalloc(e->nrcpt + 1, sizeof(*a->rcpt));
	if (r->staging_to) {
		if (!listed(&meta->sent_to, r->staging_to))
			a->rcpt[a->n++] = r->staging_to;
	} else {
		for (i = 0; i < e->nrcpt; i++)
			if (!listed(&meta->sent_to, e->rcpt[i]) &&
			    !listed(&meta->refused, e->rcpt[i]))
				a->rcpt[a->n++] = e->rcpt[i];
	}
}

/*
 * The attempt: over SMTP or into the local mailbox.  Returns 0, or 1
 * when the run stops (the claim given up, nothing to record).
 */
static int transmit(struct run *r, const char *name, struct strbuf *out,
		    const char *sender, struct attempt *a)
{
	int ret;

	if (!a->n) {
		/* nobody left: an earlier run was killed before recording */
		a->res.tried = 1;
		return 0;
	}
	if (r->remote) {
		if (r->smtp)
			smtp_send(r->smtp, sender, a->rcpt, a->n, out->buf,
				  out->len, &a->res);
		else
			sendmail_send(&r->sendmail, sender, a->rcpt, a->n,
				      out->buf, out->len, &a->res);
		if (a->res.tried)
			return 0;
		spool_lock(&r->sp);
		spool_send_claim(&r->sp, NULL);
		spool_unlock(&r->sp);
		r->untried = 1;
		stop_run(r, stop_code(a->res.stop), a->res.stop_reason);
		return 1;
	}
	ret = deliver_mbox(r, name, out, sender, a);
	if (!ret)
		return 0;
	spool_lock(&r->sp);
	spool_send_claim(&r->sp, NULL);
	spool_unlock(&r->sp);
	r->untried = 1;
	stop_run(r, ret, "the local mailbox cannot be written");
	return 1;
}

static void deliver(struct run *r, const char *name)
{
	struct strbuf msg = STRBUF_INIT, why = STRBUF_INIT;
	struct spool_meta meta = { 0 };
	struct envelope e = { 0 };
	struct attempt a = { 0 };
	const char *sender;
	size_t i;
	int ret;

	/* the claim: still queued (not held or dropped meanwhile)? */
	ret = spool_lock(&r->sp);
	if (ret)
		goto stop;
	if (!spool_has(&r->sp, SPOOL_NEW, name)) {
		spool_unlock(&r->sp);
		goto out;
	}
	if (spool_read_meta(&r->sp, SPOOL_NEW, name, &meta) < 0) {
		/* a state file robot did not write: kept, never sent */
		spool_unlock(&r->sp);
		worse(r, EXIT_DATAERR);
		goto out;
	}
	spool_send_claim(&r->sp, name);
	spool_unlock(&r->sp);
	test_crash_point("claim");

	ret = read_claimed(r, name, &msg);
	if (ret < 0)
		goto out;
	if (ret)
		goto stop;
	if (envelope_read(&e, msg.buf, msg.len, &why)) {
		unreadable(r, name, why.buf);
		goto out;
	}
	if (spool_check_meta(&r->sp, SPOOL_NEW, name, &meta, e.rcpt, e.nrcpt,
			     r->staging_to)) {
		spool_lock(&r->sp);
		spool_send_claim(&r->sp, NULL);
		spool_unlock(&r->sp);
		worse(r, EXIT_DATAERR);
		goto out;
	}
	sender = r->envelope_from ? r->envelope_from : e.from;
	pick_rcpts(r, &meta, &e, &a);
	outgoing(&msg, &e);
	if (transmit(r, name, &msg, sender, &a))
		goto out;
	for (i = 0; i < a.res.nrcpt; i++)
		if (a.res.rcpt[i].code >= 200 && a.res.rcpt[i].code < 300) {
			test_crash_point("after-250");
			break;
		}

	ret = spool_lock(&r->sp);
	if (ret)
		goto stop;
	ret = record(r, name, &e, &meta, &a);
	if (!r->remote && !ret)
		journal_remove(r);
	spool_send_claim(&r->sp, NULL);
	spool_unlock(&r->sp);
	if (ret)
		goto stop;
	if (a.res.stop)
		stop_run(r, stop_code(a.res.stop), a.res.stop_reason);
	goto out;
stop:
	/* the spool cannot be changed: stop before anything else goes */
	r->stop = 1;
	worse(r, ret);
out:
	smtp_result_release(&a.res);
	free(a.rcpt);
	envelope_release(&e);
	spool_meta_release(&meta);
	strbuf_release(&msg);
	strbuf_release(&why);
}

/* ---- the run ---- */

/* Messages older than max_age go to failed/ (the spool lock held). */
static int expire(struct run *r, struct spool_msg *v, size_t n)
{
	struct strbuf when = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		if (v[i].queued + r->cfg->max_age > r->now)
			continue;
		strbuf_reset(&when);
		spool_time_format(&when, v[i].queued);
		free(v[i].meta.reply);
		v[i].meta.reply = xasprintf("expired: queued %s, longer ago "
					    "than max_age (%s)",
					    when.buf, r->cfg->max_age_text);
		ret = record_failed(r, v[i].name, v[i].message_id, &v[i].meta);
		if (ret)
			break;
		strbuf_reset(&when);
		strbuf_addf(&when, "expired %s: %s", v[i].message_id,
			    v[i].meta.reply);
		say_simple(r, "expired", v[i].message_id, v[i].meta.reply,
			   when.buf);
		error("%s: in the queue longer than max_age (%s), moved to "
		      "failed/",
		      v[i].message_id ? v[i].message_id : v[i].name,
		      r->cfg->max_age_text);
		worse(r, EXIT_UNAVAILABLE);
		r->failed++;
		free(v[i].name);
		v[i].name = NULL; /* gone from new/ */
	}
	strbuf_release(&when);
	return ret;
}

/* The limits: how many messages this run may deliver (-1: any). */
static void set_allowance(struct run *r)
{
	long recent;

	r->allowance = -1;
	if (r->cfg->max_per_run) {
		r->allowance = r->cfg->max_per_run;
		r->limit_key = "max_per_run";
		r->limit = r->cfg->max_per_run;
	}
	if (r->cfg->max_per_hour) {
		recent = spool_rate_recent(&r->sp, r->now);
		if (r->allowance < 0 ||
		    r->cfg->max_per_hour - recent < r->allowance) {
			r->allowance = r->cfg->max_per_hour - recent;
			if (r->allowance < 0)
				r->allowance = 0;
			r->limit_key = "max_per_hour";
			r->limit = r->cfg->max_per_hour;
		}
	}
}

static int prepare(struct run *r, struct spool_msg **v, size_t *n)
{
	int ret = spool_lock(&r->sp);

	if (!ret)
		ret = spool_clean_tmp(&r->sp);
	if (!ret)
		ret = recover_mbox(r);
	if (!ret)
		ret = spool_list(&r->sp, SPOOL_NEW, v, n);
	if (!ret)
		ret = expire(r, *v, *n);
	if (!ret)
		set_allowance(r);
	spool_unlock(&r->sp);
	return ret;
}

/*
 * The transport stopped the run before these messages' turn (a refused
 * connection, a failed STARTTLS or AUTH, a session-wide reply): each
 * gets the attempt recorded, its count, time and reason, so that `robot
 * queue` shows why it is still there.  Its next attempt is left as it
 * was: the next run tries it again.  The spool lock held.
 */
static void held_back(struct run *r, struct spool_msg *v, size_t from, size_t n)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	for (i = from; i < n; i++) {
		struct spool_meta meta = { 0 };

		if (!v[i].name || v[i].meta.next_attempt > r->now ||
		    !spool_has(&r->sp, SPOOL_NEW, v[i].name))
			continue;
		spool_read_meta(&r->sp, SPOOL_NEW, v[i].name, &meta);
		meta.attempts++;
		meta.last_attempt = r->now;
		free(meta.via);
		meta.via = xstrdup(r->where);
		free(meta.reply);
		meta.reply = xasprintf("not tried: %s", r->stop_reason);
		if (!spool_write_meta(&r->sp, SPOOL_NEW, v[i].name,
				      v[i].message_id, &meta)) {
			struct event ev = { .event = "held",
					    .message_id = v[i].message_id,
					    .via = r->where,
					    .reply = meta.reply,
					    .attempts = meta.attempts };

			strbuf_reset(&line);
			strbuf_addf(&line, "held %s (attempt %d): %s",
				    v[i].message_id ? v[i].message_id
						    : v[i].name,
				    meta.attempts, meta.reply);
			say(r, &ev, line.buf);
		}
		spool_meta_release(&meta);
	}
	strbuf_release(&line);
}

/* Delivers the due messages in order, until a limit, a pause or a stop. */
static void deliver_all(struct run *r, struct spool_msg *v, size_t n)
{
	struct strbuf reason = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n && !r->stop; i++) {
		if (!v[i].name)
			continue;
		if (v[i].meta.next_attempt > r->now) {
			r->not_due++;
			continue;
		}
		if (r->allowance >= 0 && (long)r->sent >= r->allowance) {
			struct strbuf line = STRBUF_INIT;

			r->left = n - i;
			strbuf_addf(&line,
				    "%s (%ld) reached: %zu messages wait for "
				    "the next run",
				    r->limit_key, r->limit, r->left);
			say_simple(r, "limit", NULL, r->limit_key, line.buf);
			strbuf_release(&line);
			break;
		}
		strbuf_reset(&reason);
		if (spool_paused(&r->sp, &reason)) {
			struct strbuf line = STRBUF_INIT;

			strbuf_addf(&line, "paused: %s; the rest waits",
				    reason.buf);
			say_simple(r, "paused", NULL, reason.buf, line.buf);
			strbuf_release(&line);
			break;
		}
		deliver(r, v[i].name);
		if (r->stop && r->stop_reason && !spool_lock(&r->sp)) {
			held_back(r, v, r->untried ? i : i + 1, n);
			spool_unlock(&r->sp);
		}
	}
	strbuf_release(&reason);
}

int send_run(const struct robot_config *cfg, const struct send_opts *o)
{
	struct run r = { 0 };
	struct strbuf reason = STRBUF_INIT;
	struct spool_msg *v = NULL;
	size_t n = 0;
	int ret;

	r.cfg = cfg;
	r.config = cfg->file;
	r.verbose = o->verbose;
	r.json = o->json;
	r.quiet = o->quiet;
	r.now = time(NULL);
	r.mbox.fd = -1;
	/* checked before the spool is touched, so a bad value costs nothing */
	ret = source_date_epoch(&r.mbox_when);
	if (ret < 0)
		return EXIT_DATAERR; /* as compose */
	if (!ret)
		r.mbox_when = r.now;
	r.sp.lock_fd = r.sp.send_fd = -1;
	/* everything that can be wrong with the configuration, first */
	ret = spool_open(&r.sp, cfg->spool, 0, cfg->file);
	if (ret)
		goto out;
	if (check_config(&r)) {
		ret = EXIT_CONFIG;
		goto out;
	}
	ret = spool_send_begin(&r.sp);
	if (ret)
		goto out;
	if (spool_paused(&r.sp, &reason)) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line,
			    "paused: %s (robot queue resume sends again)",
			    reason.buf);
		say_simple(&r, "paused", NULL, reason.buf, line.buf);
		strbuf_release(&line);
		goto out;
	}
	ret = prepare(&r, &v, &n);
	if (ret)
		goto out;
	deliver_all(&r, v, n);
	if (spool_sync(&r.sp))
		worse(&r, EXIT_TEMPFAIL);
	ret = r.status;
out:
	spool_msgs_release(v, n);
	smtp_close(r.smtp);
	sendmail_close(&r.sendmail);
	if (r.mbox.path)
		mbox_close(&r.mbox);
	spool_close(&r.sp);
	free(r.password);
	free(r.mbox_path);
	free(r.where);
	free(r.envelope_from);
	free(r.staging_to);
	free(r.stop_reason);
	strbuf_release(&reason);
	return ret;
}
