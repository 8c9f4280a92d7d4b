// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-reply.c: `robot reply`, answering a follow-up to a report.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/cmd-json.h"
#include "robot/kinds/reply/reply.h"
#include "robot/report/compose.h"
#include "robot/incoming/extract.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/guard.h"
#include "robot/delivery/record.h"
#include "robot/delivery/spool.h"
#include "robot/delivery/thread.h"
#include "config/config.h"
#include "config/data.h"
#include "config/request.h"
#include "config/style.h"
#include "mail/lore.h"

#include <getopt.h>

static const char usage_text[] =
	"usage: robot reply [--dry-run] [--json] [-c CONFIG] [--style STYLE]\n"
	"                   [--data-dir DIR] --to MAIL.eml REQUEST.yaml\n"
	"   or: robot reply [--json] [-c CONFIG] --extract-patch DIR --to MAIL.eml\n"
	"\n"
	"Answers a mail that follows up one of robot's reports (\"could you\n"
	"test this fix?\").  With --extract-patch, finds the report it answers\n"
	"in the spool and the patch it carries (inline, attached, or a lore\n"
	"link), and writes DIR/patch.mbox and DIR/test-request.yaml for the\n"
	"LKP side.  With a request (that test-request.yaml, its result roots\n"
	"completed), composes the answer: the comparison of the commits, the\n"
	"patch tested and Tested-by, threaded under the mail to everyone it\n"
	"went to; queued like a report, or printed with --dry-run.\n"
	"\n"
	"robot's own mails, automatic ones, mails not addressed to robot and\n"
	"senders outside reply_allow are not answered (exit 0, one line on\n"
	"stderr).\n"
	"\n"
	"  --to MAIL.eml        the mail answered (RFC 5322, LF or CRLF)\n"
	"  --extract-patch DIR  write the patch and the test request to DIR\n"
	"  --dry-run            print the reply instead of queueing it\n"
	"  --json               one JSON object: what was written or queued,\n"
	"                       or the message\n"
	"  -c, --config CONFIG  the configuration (default: $ROBOT_CONFIG,\n"
	"                       then /etc/robot/robot.yaml, then built-in)\n"
	"  --style STYLE        YYYY-MM-DD or 2016/2021/2023/2025\n"
	"  --data-dir DIR       robot's data files (default: built in)\n"
	"  -h, --help           this help\n";

struct reply_cli {
	int dry_run, json;
	const char *config, *style, *to, *extract;
};

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'j' },
	{ "config", required_argument, NULL, 'c' },
	{ "style", required_argument, NULL, 's' },
	{ "to", required_argument, NULL, 't' },
	{ "extract-patch", required_argument, NULL, 'x' },
	{ "data-dir", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options reply_options = { ":c:h", longopts };

static int parse_options(struct reply_cli *cli, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, reply_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			cli->dry_run = 1;
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
		case 't':
			cli->to = optarg;
			break;
		case 'x':
			cli->extract = optarg;
			break;
		case 'd':
			data_dir_set(optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			usage_option_error("reply", c, argv);
			return -1;
		}
	}
	return 0;
}

static void not_answered(const struct reply_cli *cli, const char *why)
{
	print_line(stderr, "robot: %s: not answered: %s", cli->to, why);
	if (cli->json)
		json_event("not answered", NULL, why);
}

static int extract(const struct reply_cli *cli, const struct robot_config *cfg,
		   const struct followup *f)
{
	struct strbuf why = STRBUF_INIT;
	enum extract_result res;
	struct lore *lore = NULL;
	struct spool s;
	int ret = spool_open(&s, cfg->spool, 0, cfg->file);

	if (ret)
		return ret;
	if (thread_lore_open(&lore, cfg, 0, 0)) {
		spool_close(&s);
		return EXIT_CONFIG;
	}
	ret = extract_mail(f, cfg, &s, lore, cli->extract, 0, &res, &why);
	lore_close(lore);
	spool_close(&s);
	if (!ret) {
		switch (res) {
		case EXTRACT_WRITTEN:
			if (cli->json)
				json_event("written", cli->extract, why.buf);
			else
				print_line(stdout, "%s/test-request.yaml: %s",
					   cli->extract, why.buf);
			break;
		case EXTRACT_IGNORED:
			not_answered(cli, why.buf);
			break;
		case EXTRACT_NO_REPORT:
		case EXTRACT_NO_PATCH:
			error("%s: %s", cli->to, why.buf);
			ret = EXIT_DATAERR;
			break;
		}
	}
	strbuf_release(&why);
	return ret;
}

static int queue(const struct composed *c, const struct request *req,
		 const struct robot_config *cfg, const struct followup *f,
		 int json)
{
	struct report_record rec;
	struct strbuf said = STRBUF_INIT;
	int ret;

	compose_record(&rec, c, req);
	rec.in_reply_to = f->message_id;
	ret = compose_queue(c, cfg, &rec, &said);
	if (!ret && json)
		json_said(said.buf, c->message_id, NULL, NULL, f->message_id);
	else if (!ret)
		printf("%s\n", said.buf);
	strbuf_release(&said);
	return ret;
}

static int answer(const struct reply_cli *cli, const struct robot_config *cfg,
		  const struct followup *f, const char *request)
{
	struct compose_opts o = { .style = cli->style,
				  .offline = cli->dry_run };
	struct strbuf why = STRBUF_INIT;
	struct composed c = { 0 };
	struct request req;
	int ret;

	if (request_load(&req, request)) {
		request_release(&req);
		return error_exit_code(EXIT_DATAERR);
	}
	if (guard_check(f, cfg, req.from, NULL, &why)) {
		not_answered(cli, why.buf);
		ret = EXIT_OK;
		goto out;
	}
	ret = compose_reply(&c, f, &req, cfg, &o);
	if (ret)
		goto out;
	if (cli->dry_run && cli->json)
		json_message(&c);
	else if (cli->dry_run)
		fwrite(c.bytes.buf, 1, c.bytes.len, stdout);
	else
		ret = queue(&c, &req, cfg, f, cli->json);
out:
	composed_release(&c);
	request_release(&req);
	strbuf_release(&why);
	return ret;
}

int cmd_reply(int argc, char **argv)
{
	struct reply_cli cli = { 0 };
	struct robot_config cfg;
	struct followup f;
	char day[11];
	int status, r = parse_options(&cli, argc, argv);

	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (!cli.to)
		return usage_error("reply", "--to MAIL.eml is needed");
	if (cli.extract && (argc - optind != 0 || cli.dry_run || cli.style))
		return usage_error("reply", "--extract-patch takes no request, "
					    "--dry-run or --style");
	if (!cli.extract && argc - optind != 1)
		return usage_error("reply", "one request file needed (or "
					    "--extract-patch DIR)");
	if (cli.style) {
		error_quiet++;
		r = style_resolve(cli.style, day);
		error_quiet--;
		if (r)
			return usage_error("reply",
					   "unknown style '%s' (want "
					   "YYYY-MM-DD or one of 2016, 2021, "
					   "2023, 2025)",
					   cli.style);
	}
	error_status = 0;
	if (config_load(&cfg, cli.config)) {
		config_release(&cfg);
		return error_exit_code(EXIT_CONFIG);
	}
	status = followup_read(&f, cli.to, cfg.mail_max_bytes);
	if (!status)
		status = cli.extract ? extract(&cli, &cfg, &f)
				     : answer(&cli, &cfg, &f, argv[optind]);
	followup_release(&f);
	config_release(&cfg);
	return status;
}
