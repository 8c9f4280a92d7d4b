// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-queue.c: `robot queue`, the operator's view of the spool and the
 * actions on one message.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/delivery/spool.h"
#include "config/config.h"
#include "mail/envelope.h"

#include <getopt.h>
#include <sys/stat.h>

static const char usage_text[] =
	"usage: robot queue [-c CONFIG] [--json]\n"
	"   or: robot queue [-c CONFIG] add MAIL.eml...\n"
	"   or: robot queue [-c CONFIG] (hold | release | retry | drop) "
	"MESSAGE-ID\n"
	"   or: robot queue [-c CONFIG] (pause [REASON] | resume)\n"
	"\n"
	"Without a subcommand, lists the spool's messages: queued (and\n"
	"deferred, with their attempts and the server's last reply), held,\n"
	"failed and sent.\n"
	"\n"
	"  add MAIL.eml...  queue ready-made RFC 5322 messages as they are\n"
	"                   (LF or CRLF); each needs a Message-ID, a From and\n"
	"                   a recipient, else none is queued (exit 65)\n"
	"  hold ID          keep a queued message from being sent\n"
	"  release ID       let a held message go at the next robot send\n"
	"  retry ID         queue a failed message again, or send a deferred\n"
	"                   one at the next robot send, to all recipients\n"
	"  drop ID          delete a queued, held or failed message\n"
	"  pause [REASON]   stop robot send until resume\n"
	"  resume           let robot send deliver again\n"
	"\n"
	"  -c, --config CONFIG\n"
	"                   the configuration (default: $ROBOT_CONFIG, then\n"
	"                   /etc/robot/robot.yaml, then built-in defaults)\n"
	"  --json           list as JSON\n"
	"  -h, --help       this help\n";

struct queue_cli {
	const char *config;
	int json;
};

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options queue_options = { "+:c:h", longopts };

static int parse_options(struct queue_cli *cli, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	/* "+": options stop at the subcommand; ":": a missing value */
	while ((c = getopt_long(argc, argv, queue_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			cli->config = optarg;
			break;
		case 'j':
			cli->json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			usage_option_error("queue", c, argv);
			return -1;
		}
	}
	return 0;
}

/* ---- listing ---- */

static void json_strs(struct strbuf *out, const struct spool_strs *l)
{
	size_t i;

	strbuf_addch(out, '[');
	for (i = 0; i < l->n; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		strbuf_add_json_string(out, l->v[i]);
	}
	strbuf_addch(out, ']');
}

/*
 * The queued message a robot send was delivering when it died (its
 * name, or empty): the server may have it.
 */
static struct strbuf crashed = STRBUF_INIT;

/* What the operator calls the message's state. */
static const char *state_word(const struct spool_msg *m)
{
	switch (m->state) {
	case SPOOL_NEW:
		if (crashed.len && !strcmp(crashed.buf, m->name))
			return "possibly sent";
		return m->meta.attempts ? "deferred" : "queued";
	case SPOOL_HOLD:
		return "held";
	case SPOOL_FAILED:
		return "failed";
	case SPOOL_SENT:
		return "sent";
	default:
		return "?";
	}
}

static void list_json(struct strbuf *out, const struct spool_msg *m, int first)
{
	strbuf_addstr(out, first ? "\n    {" : ",\n    {");
	strbuf_addstr(out, "\"message_id\": ");
	strbuf_add_json_string(out, m->message_id);
	strbuf_addstr(out, ", \"state\": ");
	strbuf_add_json_string(out, state_word(m));
	strbuf_addf(out, ", \"file\": \"%s/%s.eml\"", spool_state_dir(m->state),
		    m->name);
	strbuf_addstr(out, ", \"subject\": ");
	strbuf_add_json_string(out, m->subject);
	strbuf_addstr(out, ", \"queued\": ");
	spool_time_json(out, m->queued);
	strbuf_addf(out, ", \"bytes\": %lld, \"attempts\": %d", m->size,
		    m->meta.attempts);
	strbuf_addstr(out, ", \"last_attempt\": ");
	spool_time_json(out, m->meta.last_attempt);
	strbuf_addstr(out, ", \"next_attempt\": ");
	spool_time_json(out, m->meta.next_attempt);
	strbuf_addstr(out, ", \"done\": ");
	spool_time_json(out, m->meta.done);
	strbuf_addstr(out, ", \"via\": ");
	strbuf_add_json_string(out, m->meta.via);
	strbuf_addstr(out, ", \"reply\": ");
	strbuf_add_json_string(out, m->meta.reply);
	strbuf_addstr(out, ", \"sent_to\": ");
	json_strs(out, &m->meta.sent_to);
	strbuf_addstr(out, ", \"refused\": ");
	json_strs(out, &m->meta.refused);
	strbuf_addstr(out, ", \"deferred\": ");
	json_strs(out, &m->meta.deferred);
	strbuf_addch(out, '}');
}

static void list_text(struct strbuf *out, const struct spool_msg *m)
{
	strbuf_addf(out, "%-8s ", state_word(m));
	spool_time_format(out, m->queued);
	strbuf_addf(out, " %s", m->message_id ? m->message_id : "(no id)");
	if (m->meta.attempts)
		strbuf_addf(out, " attempts %d", m->meta.attempts);
	if (m->state == SPOOL_NEW && m->meta.next_attempt) {
		strbuf_addstr(out, " next ");
		spool_time_format(out, m->meta.next_attempt);
	}
	if (m->meta.done) {
		strbuf_addstr(out, " done ");
		spool_time_format(out, m->meta.done);
	}
	if (m->meta.reply)
		strbuf_addf(out, ": %s", m->meta.reply);
	strbuf_addch(out, '\n');
}

/* The order of the listing: what waits first, what is done last. */
static const enum spool_state list_order[] = { SPOOL_NEW, SPOOL_HOLD,
					       SPOOL_FAILED, SPOOL_SENT };

static int list(struct spool *s, int json)
{
	struct strbuf out = STRBUF_INIT, reason = STRBUF_INIT;
	int paused = spool_paused(s, &reason), first = 1, ret = 0, corrupt = 0;
	size_t i, j, n;

	strbuf_reset(&crashed);
	spool_crashed_claim(s, &crashed);

	if (json) {
		strbuf_addstr(&out, "{\n  \"spool\": ");
		strbuf_add_json_string(&out, s->dir);
		strbuf_addstr(&out, ",\n  \"paused\": ");
		strbuf_add_json_string(&out, paused ? reason.buf : NULL);
		strbuf_addstr(&out, ",\n  \"messages\": [");
	} else if (paused) {
		strbuf_addf(&out, "paused: %s\n", reason.buf);
	}
	for (i = 0; i < ARRAY_SIZE(list_order) && !ret; i++) {
		struct spool_msg *v;

		ret = spool_list(s, list_order[i], &v, &n);
		for (j = 0; j < n && !ret; j++) {
			if (v[j].corrupt) {
				/* its error line, naming the file and key */
				struct spool_meta m;

				spool_read_meta(s, list_order[i], v[j].name,
						&m);
				corrupt = 1;
			}
			if (json)
				list_json(&out, &v[j], first);
			else
				list_text(&out, &v[j]);
			first = 0;
		}
		spool_msgs_release(v, n);
	}
	if (json)
		strbuf_addstr(&out, first ? "]\n}\n" : "\n  ]\n}\n");
	strbuf_release(&crashed);
	if (!ret)
		fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	strbuf_release(&reason);
	return ret ? ret : corrupt ? EXIT_DATAERR : 0;
}

/* ---- add ---- */

/*
 * One file robot queue add takes: its bytes with LF line ends, and its
 * Message-ID.  Returns 0, or EXIT_DATAERR after one error line (a file
 * over SPOOL_MESSAGE_MAX is refused before it is read).
 */
static int load_message(const char *file, struct strbuf *bytes,
			char **message_id)
{
	struct strbuf raw = STRBUF_INIT, why = STRBUF_INIT;
	struct envelope e;
	struct stat st;
	int ret = 0;

	strbuf_reset(bytes);
	if (!stat(file, &st) && (size_t)st.st_size > SPOOL_MESSAGE_MAX) {
		error("%s: %lld bytes, %s; nothing queued", file,
		      (long long)st.st_size, spool_too_big);
		return EXIT_DATAERR;
	}
	if (strbuf_read_file(&raw, file)) {
		error_errno("%s: cannot read", file);
		return EXIT_DATAERR;
	}
	envelope_to_lf(bytes, raw.buf, raw.len);
	strbuf_release(&raw);
	if (memchr(bytes->buf, '\0', bytes->len)) {
		error("%s: the message holds a NUL byte", file);
		ret = EXIT_DATAERR;
	} else if (envelope_read(&e, bytes->buf, bytes->len, &why)) {
		error("%s: %s; nothing queued", file, why.buf);
		ret = EXIT_DATAERR;
	} else {
		*message_id = xstrdup(e.message_id);
		envelope_release(&e);
	}
	strbuf_release(&why);
	return ret;
}

/*
 * Checks every file before it queues any, holding one file at a time:
 * each is read once to be checked, and again to be queued.
 */
static int add(const struct robot_config *cfg, int argc, char **argv)
{
	struct strbuf bytes = STRBUF_INIT, key = STRBUF_INIT,
		      first = STRBUF_INIT;
	char *id = NULL;
	struct spool s;
	int i, ret = 0, opened = 0;

	if (!argc)
		return usage_error("queue", "add needs a MAIL.eml file");
	for (i = 0; i < argc && !ret; i++) {
		ret = load_message(argv[i], &bytes, &id);
		free(id);
		id = NULL;
	}
	if (!ret) {
		ret = spool_open(&s, cfg->spool, 1, cfg->file);
		opened = !ret;
	}
	if (!ret)
		ret = spool_lock(&s);
	for (i = 0; i < argc && !ret; i++) {
		enum spool_result res;

		ret = load_message(argv[i], &bytes, &id);
		if (ret)
			break;
		strbuf_reset(&key);
		strbuf_reset(&first);
		/* a hand-written message is who it says it is */
		strbuf_addf(&key, "queue add\n%s", id);
		ret = spool_enqueue(&s, key.buf, bytes.buf, bytes.len, &res,
				    &first);
		if (!ret && res == SPOOL_QUEUED)
			printf("%s\n", id);
		else if (!ret)
			printf("already %s: %s\n",
			       res == SPOOL_ALREADY_SENT ? "sent" : "queued",
			       first.buf);
		free(id);
		id = NULL;
	}
	if (opened) {
		spool_unlock(&s);
		spool_close(&s);
	}
	free(id);
	strbuf_release(&bytes);
	strbuf_release(&key);
	strbuf_release(&first);
	return ret;
}

/* ---- actions on one message ---- */

enum action { HOLD, RELEASE, RETRY, DROP };

static const struct {
	const char *name, *done;
	enum action action;
} actions[] = {
	{ "hold", "held", HOLD },
	{ "release", "released", RELEASE },
	{ "retry", "queued again", RETRY },
	{ "drop", "dropped", DROP },
};

/* Makes a queued message due now; `fresh` also forgets its failures
 * (their replies, not how many attempts there were). */
static int make_due(struct spool *s, enum spool_state st,
		    const struct spool_msg *m, int fresh)
{
	struct spool_meta meta;
	int ret;

	if (spool_read_meta(s, st, m->name, &meta))
		return 0;
	meta.next_attempt = 0;
	if (fresh) {
		/* the attempts stay counted: a retry is one more */
		free(meta.reply);
		meta.reply = NULL;
		spool_strs_release(&meta.refused);
		/* a message already sent to some keeps the recipients it
		 * still owes: its sent-to lines stand only beside them */
		if (!meta.sent_to.n)
			spool_strs_release(&meta.deferred);
	}
	ret = spool_write_meta(s, st, m->name, m->message_id, &meta);
	spool_meta_release(&meta);
	return ret;
}

static int act_one(struct spool *s, enum action a, const struct spool_msg *m)
{
	int ret;

	switch (a) {
	case HOLD:
		if (m->state == SPOOL_HOLD)
			return 0;
		if (m->state != SPOOL_NEW)
			break;
		return spool_move(s, m->name, SPOOL_NEW, SPOOL_HOLD, 0);
	case RELEASE:
		if (m->state == SPOOL_NEW)
			return 0;
		if (m->state != SPOOL_HOLD)
			break;
		ret = spool_move(s, m->name, SPOOL_HOLD, SPOOL_NEW, 1);
		return ret ? ret : make_due(s, SPOOL_NEW, m, 0);
	case RETRY:
		if (m->state == SPOOL_NEW)
			return make_due(s, SPOOL_NEW, m, 1);
		if (m->state != SPOOL_FAILED)
			break;
		ret = spool_move(s, m->name, SPOOL_FAILED, SPOOL_NEW, 1);
		return ret ? ret : make_due(s, SPOOL_NEW, m, 1);
	case DROP:
		if (m->state == SPOOL_SENT)
			break;
		return spool_remove(s, m->state, m->name);
	}
	error("%s is %s: it cannot be %s", m->message_id, state_word(m),
	      actions[a].done);
	return EXIT_RUNTIME;
}

static int act(const struct robot_config *cfg, enum action a, const char *arg)
{
	char *id = arg[0] == '<' ? xstrdup(arg) : xasprintf("<%s>", arg);
	struct spool_msg *all[SPOOL_NSTATES] = { NULL };
	size_t n[SPOOL_NSTATES] = { 0 }, i, j, found = 0;
	struct spool s;
	int ret = spool_open(&s, cfg->spool, 0, cfg->file);

	if (ret) {
		free(id);
		return ret;
	}
	/* the whole spool first: a message moved here is not met again */
	ret = spool_lock(&s);
	for (i = 0; i < SPOOL_NSTATES && !ret; i++)
		ret = spool_list(&s, i, &all[i], &n[i]);
	for (i = 0; i < SPOOL_NSTATES && !ret; i++)
		for (j = 0; j < n[i] && !ret; j++) {
			const struct spool_msg *m = &all[i][j];

			if (!m->message_id || strcmp(m->message_id, id))
				continue;
			found++;
			if (spool_in_flight(&s, m->name)) {
				error("%s is being delivered right now; try "
				      "again in a moment",
				      id);
				ret = EXIT_TEMPFAIL;
				break;
			}
			ret = act_one(&s, a, m);
			if (!ret)
				printf("%s %s\n", actions[a].done, id);
		}
	if (!ret && !found) {
		error("no message %s in spool '%s'", id, s.dir);
		ret = EXIT_RUNTIME;
	}
	for (i = 0; i < SPOOL_NSTATES; i++)
		spool_msgs_release(all[i], n[i]);
	spool_unlock(&s);
	spool_close(&s);
	free(id);
	return ret;
}

static int pause_resume(const struct robot_config *cfg, int pause, int argc,
			char **argv)
{
	struct strbuf reason = STRBUF_INIT;
	struct spool s;
	int i, ret = spool_open(&s, cfg->spool, 0, cfg->file);

	if (ret)
		return ret;
	for (i = 0; i < argc; i++)
		strbuf_addf(&reason, "%s%s", i ? " " : "", argv[i]);
	ret = pause ? spool_pause(&s, reason.len ? reason.buf : NULL)
		    : spool_resume(&s);
	if (!ret)
		printf("%s\n", pause ? "paused" : "resumed");
	spool_close(&s);
	strbuf_release(&reason);
	return ret;
}

int cmd_queue(int argc, char **argv)
{
	struct queue_cli cli = { 0 };
	struct robot_config cfg;
	const char *sub;
	size_t i;
	int ret, r = parse_options(&cli, argc, argv);

	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	sub = optind < argc ? argv[optind] : NULL;
	if (sub && cli.json)
		return usage_error("queue",
				   "--json only goes with the listing");
	for (i = 0; sub && i < ARRAY_SIZE(actions); i++)
		if (!strcmp(sub, actions[i].name))
			break;
	if (sub && i < ARRAY_SIZE(actions) && argc - optind != 2)
		return usage_error("queue", "%s needs one MESSAGE-ID", sub);
	if (sub && i == ARRAY_SIZE(actions) && strcmp(sub, "add") &&
	    strcmp(sub, "pause") && strcmp(sub, "resume"))
		return usage_error("queue", "unknown subcommand '%s'", sub);
	if (sub && !strcmp(sub, "resume") && argc - optind != 1)
		return usage_error("queue", "resume takes no argument");
	if (config_load(&cfg, cli.config)) {
		config_release(&cfg);
		return EXIT_CONFIG;
	}
	if (!sub) {
		struct spool s;

		ret = spool_open(&s, cfg.spool, 0, cfg.file);
		if (!ret) {
			ret = list(&s, cli.json);
			spool_close(&s);
		}
	} else if (!strcmp(sub, "add")) {
		ret = add(&cfg, argc - optind - 1, argv + optind + 1);
	} else if (!strcmp(sub, "pause") || !strcmp(sub, "resume")) {
		ret = pause_resume(&cfg, !strcmp(sub, "pause"),
				   argc - optind - 1, argv + optind + 1);
	} else {
		ret = act(&cfg, actions[i].action, argv[optind + 1]);
	}
	config_release(&cfg);
	return ret;
}
