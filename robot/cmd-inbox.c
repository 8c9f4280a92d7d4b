// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-inbox.c: `robot inbox`, the follow-ups of a Maildir or an mbox.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/incoming/extract.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/inbox.h"
#include "robot/delivery/spool.h"
#include "robot/delivery/thread.h"
#include "config/config.h"
#include "config/data.h"
#include "mail/lore.h"

#include <getopt.h>

static const char usage_text[] =
	"usage: robot inbox [-c CONFIG] [--out DIR] [--data-dir DIR] [--json]\n"
	"                   [MAILDIR | MBOX]\n"
	"\n"
	"Reads the robot's incoming mail (the configuration's inbox, a\n"
	"Maildir or an mbox file) and, for each mail not seen before that\n"
	"answers one of robot's reports with a patch, writes what\n"
	"`robot reply --extract-patch` writes into OUT/<Message-ID>/.  The\n"
	"mails it saw are remembered (inbox_seen): each is worked on once,\n"
	"also when it arrived twice.  One line per new mail on stdout.\n"
	"\n"
	"  --out DIR       where the requests go (default: inbox_out, else\n"
	"                  <spool>/requests)\n"
	"  -c, --config CONFIG\n"
	"                  the configuration (default: $ROBOT_CONFIG, then\n"
	"                  /etc/robot/robot.yaml, then built-in defaults)\n"
	"  --data-dir DIR  robot's data files (default: built in)\n"
	"  --json          one JSON object a new mail: mail, message_id,\n"
	"                  event (written, not answered, skipped), dir, reason\n"
	"  -h, --help      this help\n";

struct inbox_cli {
	const char *config, *out;
	int json;
};

/* --json: what one() says about each mail, as objects (doc/commands.md) */
static int json_out;

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "out", required_argument, NULL, 'o' },
	{ "data-dir", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options inbox_options = { ":c:h", longopts };

static int parse_options(struct inbox_cli *cli, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, inbox_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			cli->config = optarg;
			break;
		case 'o':
			cli->out = optarg;
			break;
		case 'd':
			data_dir_set(optarg);
			break;
		case 'j':
			cli->json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			usage_option_error("inbox", c, argv);
			return -1;
		}
	}
	return 0;
}

/*
 * Says what became of a mail: "MAIL: DIR: WHY", "MAIL: not answered:
 * WHY", "MAIL: skipped: WHY", or the same as one JSON object.
 */
static void say(const char *event, const char *name, const char *id,
		const char *dir, const char *why)
{
	struct strbuf out = STRBUF_INIT;

	if (!json_out) {
		/* their Subject, their header values: one line of text */
		print_line(stdout, "%s: %s: %s", id ? id : name,
			   !strcmp(event, "written") ? dir : event, why);
		return;
	}
	strbuf_addstr(&out, "{\"mail\": ");
	strbuf_add_json_string(&out, name);
	strbuf_addstr(&out, ", \"message_id\": ");
	strbuf_add_json_string(&out, id);
	strbuf_addstr(&out, ", \"event\": ");
	strbuf_add_json_string(&out, event);
	strbuf_addstr(&out, ", \"dir\": ");
	strbuf_add_json_string(&out, dir);
	strbuf_addstr(&out, ", \"reason\": ");
	strbuf_add_json_string(&out, why);
	strbuf_addstr(&out, "}\n");
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

/*
 * One mail: 0 (done, remembered), or the exit code of its error line.
 * A mail robot cannot work on is set aside (remembered as such, so that
 * no later run stops on it either); one that failed for a reason that
 * passes (75: lore cannot be asked now) is left for the next run.  The
 * scan goes on either way.
 */
static int one(const struct inbox_mail *m, const struct robot_config *cfg,
	       struct spool *s, struct lore *lore, const char *out,
	       struct inbox_seen *seen)
{
	struct strbuf why = STRBUF_INIT;
	enum extract_result res;
	struct followup f;
	char *id, *dir = NULL, *sub;
	int ret;

	if (!m->raw) {
		say("skipped", m->name, NULL, NULL, m->why);
		return 0;
	}
	error_quiet++;
	ret = followup_parse(&f, m->name, m->raw, m->len);
	error_quiet--;
	id = inbox_mail_id(ret ? NULL : f.message_id, m->raw, m->len);
	if (inbox_seen_has(seen, id)) {
		ret = inbox_seen_done(seen, id) && inbox_seen_file(seen, m)
			      ? EXIT_RUNTIME
			      : 0;
		goto out;
	}
	if (ret) {
		/* a mail robot cannot read is seen once and left alone */
		say("skipped", m->name, NULL, NULL,
		    "a mail robot cannot read (robot reply --extract-patch "
		    "says why)");
		ret = inbox_seen_add(seen, id) || inbox_seen_file(seen, m)
			      ? EXIT_RUNTIME
			      : 0;
		goto out;
	}
	sub = inbox_dir_name(id);
	dir = xasprintf("%s/%s", out, sub);
	free(sub);
	ret = extract_mail(&f, cfg, s, lore, dir, 1, &res, &why);
	if (ret) {
		if (ret != EXIT_TEMPFAIL && inbox_seen_aside(seen, id))
			ret = EXIT_RUNTIME;
		goto out;
	}
	switch (res) {
	case EXTRACT_WRITTEN:
		say("written", m->name, id, dir, why.buf);
		break;
	case EXTRACT_IGNORED:
		say("not answered", m->name, id, NULL, why.buf);
		break;
	case EXTRACT_NO_REPORT:
	case EXTRACT_NO_PATCH:
		say("skipped", m->name, id, NULL, why.buf);
		break;
	}
	ret = inbox_seen_add(seen, id) || inbox_seen_file(seen, m)
		      ? EXIT_RUNTIME
		      : 0;
out:
	followup_release(&f);
	free(id);
	free(dir);
	strbuf_release(&why);
	return ret;
}

/*
 * The mails of `r`, one at a time: one() on each, the first mail's exit
 * code into *first.  Returns 0, or the exit code of an error reading
 * them.  *retry gets an mbox's offset of the first mail to try again.
 */
static int each_mail(struct inbox_reader *r, const struct robot_config *cfg,
		     struct spool *s, struct lore *lore, const char *out,
		     struct inbox_seen *seen, int *first, off_t *retry)
{
	struct inbox_mail m;
	int got = 0;

	/* a mail's error is its own: the others are still worked on */
	while (!seen->broken && (got = inbox_next(r, &m)) == 1) {
		int r1 = one(&m, cfg, s, lore, out, seen);

		if (r1 && !*first)
			*first = r1;
		/* an mbox is read again from the first mail to try again */
		if (r1 == EXIT_TEMPFAIL && *retry < 0)
			*retry = m.offset;
		inbox_mail_release(&m);
	}
	return seen->broken ? 0 : got;
}

int cmd_inbox(int argc, char **argv)
{
	struct inbox_cli cli = { 0 };
	struct robot_config cfg;
	struct inbox_reader reader = { .fd = -1 };
	struct inbox_seen seen = { .fd = -1 };
	struct lore *lore = NULL;
	struct spool s;
	const char *source;
	off_t offset = 0, retry = -1;
	int status, opened = 0, first = 0;
	int r = parse_options(&cli, argc, argv);

	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (argc - optind > 1)
		return usage_error("inbox", "one Maildir or mbox at most");
	json_out = cli.json;
	error_status = 0;
	if (config_load(&cfg, cli.config)) {
		config_release(&cfg);
		return error_exit_code(EXIT_CONFIG);
	}
	source = argc > optind ? argv[optind] : cfg.inbox;
	if (!source) {
		error("%s: inbox: no Maildir or mbox to read (give one, or set "
		      "inbox)",
		      cfg.file);
		config_release(&cfg);
		return EXIT_CONFIG;
	}
	status = spool_open(&s, cfg.spool, 0, cfg.file);
	if (status) {
		config_release(&cfg);
		return status;
	}
	if (thread_lore_open(&lore, &cfg, 0, 0))
		status = EXIT_CONFIG;
	if (!status)
		status = inbox_seen_open(&seen, cfg.inbox_seen);
	if (!status) {
		offset = inbox_seen_offset(&seen, source);
		status = inbox_open(&reader, source, cfg.mail_max_bytes,
				    &offset, &seen);
		opened = 1;
	}
	if (!status)
		status = each_mail(&reader, &cfg, &s, lore,
				   cli.out ? cli.out : cfg.inbox_out, &seen,
				   &first, &retry);
	if (!status && !seen.broken && inbox_end(&reader) >= 0)
		inbox_seen_set_offset(&seen, source,
				      retry >= 0 ? retry : inbox_end(&reader));
	if (!status)
		status = first;
	if (opened)
		inbox_close(&reader);
	inbox_seen_close(&seen);
	lore_close(lore);
	spool_close(&s);
	config_release(&cfg);
	return status;
}
