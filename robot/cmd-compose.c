// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-compose.c: `robot compose`, one report from a request.
 */
#include "common.h"
#include "cmds.h"
#include "compose.h"
#include "record.h"
#include "spool.h"
#include "config/config.h"
#include "config/data.h"
#include "config/request.h"
#include "config/style.h"

#include <getopt.h>

static const char usage_text[] =
	"usage: robot compose [--dry-run] [-c CONFIG] [--style STYLE] "
	"REQUEST.yaml\n"
	"\n"
	"Renders the report a request describes.  With --dry-run, writes the\n"
	"exact message to stdout and touches no network and no spool; without\n"
	"it, queues the message in the spool and prints its Message-ID.  The\n"
	"same report composed again prints \"already queued\" or \"already\n"
	"sent\" with the first Message-ID.\n"
	"\n"
	"  --dry-run        print the message instead of queueing it\n"
	"  -c CONFIG        the configuration (default: $ROBOT_CONFIG, then\n"
	"                   /etc/robot/robot.yaml, then built-in defaults)\n"
	"  --style STYLE    YYYY-MM-DD or 2016/2021/2023/2025: overrides the\n"
	"                   request's style and date\n"
	"  --data-dir DIR   robot's data files (default: built in)\n";

struct compose_cli {
	int dry_run;
	const char *config, *style;
};

static int parse_options(struct compose_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ "style", required_argument, NULL, 's' },
		{ "data-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			cli->dry_run = 1;
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

static int queue(const struct composed *c, const struct request *req,
		 const struct robot_config *cfg)
{
	struct report_record rec;
	struct strbuf said = STRBUF_INIT;
	int ret;

	compose_record(&rec, c, req);
	ret = compose_queue(c, cfg, &rec, &said);
	if (!ret)
		printf("%s\n", said.buf);
	strbuf_release(&said);
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

int cmd_compose(int argc, char **argv)
{
	struct compose_cli cli = { 0 };
	struct robot_config cfg;
	struct request req;
	struct composed c = { 0 };
	struct compose_opts o = { 0 };
	int status, r = parse_options(&cli, argc, argv);

	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (argc - optind != 1)
		return usage_error("compose", "one request file needed");
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
	if (request_load(&req, argv[optind])) {
		status = error_exit_code(EXIT_DATAERR);
		goto out;
	}
	o.style = cli.style;
	o.offline = cli.dry_run; /* the lore cache only: no network */
	status = compose_report_opts(&c, &req, &cfg, &o);
	if (status)
		goto out;
	if (cli.dry_run) {
		fwrite(c.bytes.buf, 1, c.bytes.len, stdout);
		status = EXIT_OK;
	} else {
		status = queue(&c, &req, &cfg);
	}
out:
	composed_release(&c);
	request_release(&req);
	config_release(&cfg);
	return status;
}
