// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-compose.c: `robot compose`, one report from a request.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/cmd-json.h"
#include "robot/kinds/kinds.h"
#include "robot/delivery/record.h"
#include "robot/delivery/spool.h"
#include "robot/kinds/build/summary.h"
#include "config/config.h"
#include "config/data.h"
#include "config/request.h"
#include "config/style.h"
#include "robot/kinds/build/build.h"

#include <getopt.h>

static const char usage_text[] =
	"usage: robot compose [--dry-run | --force] [--json] [-c CONFIG]\n"
	"                     [--style STYLE] [--data-dir DIR] REQUEST.yaml\n"
	"\n"
	"Renders the report a request describes.  With --dry-run, writes the\n"
	"exact message to stdout and touches no network and no spool; without\n"
	"it, queues the message in the spool and prints its Message-ID.  The\n"
	"same report composed again prints \"already queued\" or \"already\n"
	"sent\" with the first Message-ID: the same commit, testcase,\n"
	"tbox_group, kpi and parameters make the same report.\n"
	"\n"
	"  --dry-run        print the message instead of queueing it\n"
	"  --force          queue a corrected report (new recipients, a new\n"
	"                   date) under a new Message-ID, even though the\n"
	"                   same report is already queued or sent\n"
	"  --json           one JSON object: what was queued, or the message\n"
	"  -c, --config CONFIG\n"
	"                   the configuration (default: $ROBOT_CONFIG, then\n"
	"                   /etc/robot/robot.yaml, then built-in defaults)\n"
	"  --style STYLE    YYYY-MM-DD or 2016/2021/2023/2025: overrides the\n"
	"                   request's style and date\n"
	"  --data-dir DIR   robot's data files (default: built in)\n"
	"  -h, --help       this help\n";

struct compose_cli {
	int dry_run, force, json;
	const char *config, *style;
};

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "config", required_argument, NULL, 'c' },
	{ "style", required_argument, NULL, 's' },
	{ "data-dir", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options compose_options = { ":c:h", longopts };

static int parse_options(struct compose_cli *cli, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, compose_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			cli->dry_run = 1;
			break;
		case 'f':
			cli->force = 1;
			break;
		case 'j':
			cli->json = 1;
			break;
		case 'c':
			cli->config = optarg;
			break;
		case 's':
			cli->style = optarg;
			break;
		case 'd':
			data_dir_set(optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			usage_option_error("compose", c, argv);
			return -1;
		}
	}
	return 0;
}

/* Whether `lines` (each ending in '\n') has one that is `s`. */
static int in_lines(const char *lines, const char *s)
{
	size_t len = strlen(s);

	for (; *lines; lines = strchr(lines, '\n') + 1)
		if (!strncmp(lines, s, len) && lines[len] == '\n')
			return 1;
	return 0;
}

/*
 * compose --force: the first revision of the report that is not in the
 * spool yet, composed into `c` (which holds revision 0).  `prev` gets
 * the Message-ID of the latest copy in the spool, `prev_res` where it is.
 * The request's own message_id cannot name two messages: a correction
 * under the Message-ID of a copy in the spool is refused (65).
 */
static int correction(struct composed *c, const struct request *req,
		      const struct robot_config *cfg, struct compose_opts *o,
		      struct spool *s, struct strbuf *prev,
		      enum spool_result *prev_res, int build)
{
	struct strbuf id = STRBUF_INIT, ids = STRBUF_INIT;
	enum spool_result res;
	int ret = 0;

	while (spool_find(s, c->key, &res, &id)) {
		strbuf_reset(prev);
		strbuf_addbuf(prev, &id);
		*prev_res = res;
		strbuf_addf(&ids, "%s\n", id.buf);
		strbuf_reset(&id);
		if (++o->revision > 1000) {
			error("%s: more than 1000 corrections of this report "
			      "are in the spool",
			      req->file);
			ret = EXIT_DATAERR;
			break;
		}
		composed_release(c);
		ret = build ? build_compose(c, req->file, cfg, o)
			    : compose_report_opts(c, req, cfg, o);
		if (ret)
			break;
	}
	if (!ret && o->revision && in_lines(ids.buf, c->message_id)) {
		error("%s: message_id: '%s' is the Message-ID of a copy of "
		      "this report in the spool; a correction (--force) needs "
		      "another, or none to have one generated",
		      req->file, c->message_id);
		ret = EXIT_DATAERR;
	}
	strbuf_release(&id);
	strbuf_release(&ids);
	return ret;
}

/* --dry-run: the message as it is, or as one JSON object (--json) */
static void print_message(const struct composed *c, int json)
{
	if (json)
		json_message(c);
	else
		fwrite(c->bytes.buf, 1, c->bytes.len, stdout);
}

/*
 * Queues the report; with --force, as the first correction of it that is
 * not in the spool yet, and says which copy it corrects.  The spool's
 * lock is let go between finding the correction's number and queueing
 * it: a compose of the same correction in between makes this one answer
 * "already queued", never queue it twice.  `build`: a build report,
 * composed again by its own kind.
 */
static int queue(struct composed *c, const struct request *req,
		 const struct robot_config *cfg, struct compose_opts *o,
		 int force, int json, int build)
{
	struct strbuf said = STRBUF_INIT, prev = STRBUF_INIT;
	enum spool_result prev_res = SPOOL_QUEUED;
	struct report_record rec;
	int ret = 0;

	if (force) {
		struct spool s;

		ret = spool_open(&s, cfg->spool, 1, cfg->file);
		if (ret)
			return ret;
		ret = spool_lock(&s);
		if (!ret)
			ret = correction(c, req, cfg, o, &s, &prev, &prev_res,
					 build);
		spool_unlock(&s);
		spool_close(&s);
	}
	if (!ret) {
		/* a summary (no perf request) has no record to keep */
		if (req)
			compose_record(&rec, c, req);
		ret = compose_queue(c, cfg, req ? &rec : NULL, &said);
	}
	if (!ret && json) {
		json_said(said.buf, c->message_id, prev.len ? prev.buf : NULL,
			  prev_res == SPOOL_ALREADY_SENT ? "sent" : "queued",
			  NULL);
	} else if (!ret) {
		printf("%s\n", said.buf);
		if (prev.len && !strcmp(said.buf, c->message_id))
			printf(prev_res == SPOOL_ALREADY_SENT
				       ? "corrects %s (already sent)\n"
				       : "corrects %s (still queued: 'robot queue "
					 "drop %s' withdraws it)\n",
			       prev.buf, prev.buf);
	}
	strbuf_release(&said);
	strbuf_release(&prev);
	return ret;
}

/* Whether --style names a day, as `robot compare --style` checks it. */
static int style_valid(const char *style)
{
	char day[11];
	int ret;

	error_quiet++;
	ret = style_resolve(style, day);
	error_quiet--;
	return !ret;
}

/*
 * The build kinds (robot/kinds/build/) have request schemas of their own,
 * so they are handed the file before the perf request is loaded.  A
 * branch summary keeps no report record, so it cannot be corrected.
 */
static int compose_build_kind(const struct compose_cli *cli, const char *file,
			      struct robot_config *cfg, int summary)
{
	struct composed c = { 0 };
	struct compose_opts o = { 0 };
	struct request req;
	int status;

	if (summary && cli->force)
		return usage_error("compose", "--force is for performance "
					      "and functional reports, "
					      "not kind: build-summary");
	memset(&req, 0, sizeof(req));
	o.style = cli->style;
	if (summary)
		status = summary_compose(&c, file, cfg, &o);
	else
		status = build_compose(&c, file, cfg, &o);
	if (!status && cli->dry_run) {
		print_message(&c, cli->json);
	} else if (!status) {
		req.file = xstrdup(file);
		status = queue(&c, summary ? NULL : &req, cfg, &o, cli->force,
			       cli->json, !summary);
	}
	composed_release(&c);
	request_release(&req);
	return status;
}

int cmd_compose(int argc, char **argv)
{
	struct compose_cli cli = { 0 };
	struct robot_config cfg;
	struct request req;
	struct composed c = { 0 };
	struct compose_opts o = { 0 };
	char *kind;
	int status, r = parse_options(&cli, argc, argv);

	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (argc - optind != 1)
		return usage_error("compose", "one request file needed");
	if (cli.dry_run && cli.force)
		return usage_error("compose",
				   "--dry-run and --force exclude each other");
	if (cli.style && !style_valid(cli.style))
		return usage_error("compose",
				   "unknown style '%s' (want YYYY-MM-DD or one "
				   "of 2016, 2021, 2023, 2025)",
				   cli.style);
	error_status = 0;
	if (config_load(&cfg, cli.config)) {
		config_release(&cfg);
		return error_exit_code(EXIT_CONFIG);
	}
	kind = request_kind(argv[optind]);
	if (kind &&
	    (!strcmp(kind, "build") || !strcmp(kind, "build-summary"))) {
		status = compose_build_kind(&cli, argv[optind], &cfg,
					    !strcmp(kind, "build-summary"));
		free(kind);
		config_release(&cfg);
		return status;
	}
	free(kind);
	if (request_load(&req, argv[optind])) {
		status = error_exit_code(EXIT_DATAERR);
		goto out;
	}
	o.style = cli.style;
	o.offline = cli.dry_run; /* the lore cache only: no network */
	status = compose_report_opts(&c, &req, &cfg, &o);
	if (status)
		goto out;
	/*
	 * A download-link report points at its materials under archive_url:
	 * queued with none, the link would lead nowhere.  --dry-run shows
	 * the mail of the period as it is; queueing it needs the materials,
	 * or no_repro for a report without the link.
	 */
	if (!cli.dry_run && c.archive_dir && !c.nmaterials) {
		error("%s: attachments: none, but this period's mail says "
		      "\"materials to reproduce are available at\" its "
		      "download link (archive_url): list the materials under "
		      "'attachments', or set 'no_repro: true' for a report "
		      "without the link",
		      req.file);
		status = EXIT_DATAERR;
		goto out;
	}
	if (cli.dry_run) {
		print_message(&c, cli.json);
		status = EXIT_OK;
	} else {
		status = queue(&c, &req, &cfg, &o, cli.force, cli.json, 0);
	}
out:
	composed_release(&c);
	request_release(&req);
	config_release(&cfg);
	return status;
}
