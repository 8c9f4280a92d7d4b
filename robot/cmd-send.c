// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-send.c: `robot send`, the cron entry that delivers the spool.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/delivery/send.h"
#include "config/config.h"

#include <getopt.h>

static const char usage_text[] =
	"usage: robot send [-c CONFIG] [-v] [--json | -q]\n"
	"\n"
	"Delivers every queued message that is due: over SMTP to smtp_url,\n"
	"or, without one, to the local mailbox (the mbox key, else\n"
	"SPOOL/mbox).  One line per message on stdout: the time (ISO 8601,\n"
	"UTC), its Message-ID, the recipients and the server's reply.  A 4xx reply or a broken\n"
	"connection keeps a message queued (tried again after 1, 2, 4 ... 60\n"
	"minutes), a 5xx moves it to failed/.  Run it from cron every few\n"
	"minutes; only one runs at a time.\n"
	"\n"
	"  -c, --config CONFIG\n"
	"                   the configuration (default: $ROBOT_CONFIG, then\n"
	"                   /etc/robot/robot.yaml, then built-in defaults)\n"
	"  -v, --verbose    show the SMTP dialogue on stderr (no password)\n"
	"  --json           one JSON object per message instead of a line\n"
	"  -q, --quiet      nothing on stdout (errors still on stderr)\n"
	"  -h, --help       this help\n"
	"\n"
	"exit codes: 0 all due messages delivered (or nothing due, paused,\n"
	"  a limit reached), 65 a spool file that is not a mail, 69 a message\n"
	"  or recipient refused for good or expired, 75 deferred, server\n"
	"  unreachable or spool busy (retry later), 78 bad configuration\n";

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options send_options = { ":c:vqh", longopts };

int cmd_send(int argc, char **argv)
{
	struct send_opts o = { 0 };
	struct robot_config cfg;
	const char *config = NULL;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, send_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return usage_option_error("send", c, argv);
		}
	}
	if (optind != argc)
		return usage_error("send", "no arguments expected");
	if (o.json && o.quiet)
		return usage_error("send",
				   "--json and --quiet exclude each other");
	if (config_load(&cfg, config)) {
		config_release(&cfg);
		return EXIT_CONFIG;
	}
	ret = send_run(&cfg, &o);
	config_release(&cfg);
	return ret;
}
