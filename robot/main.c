// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c: robot's command table and dispatch.
 *
 * Adding a command: write robot/cmd-NAME.c with `int cmd_NAME(int argc,
 * char **argv)` (parse options with getopt_long, call the library, return
 * an exit code of enum robot_exit), declare it in cmds.h, add a row to
 * cmds[] below and the file to CLI_SRCS in the Makefile.  Nothing else.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} cmds[] = {
	{ "compare", cmd_compare,
	  "print the comparison block for LKP result roots" },
	{ "compose", cmd_compose, "render one report: queue it, or --dry-run" },
	{ "plot", cmd_plot, "print an ASCII bisect plot as gnuplot draws it" },
	{ "queue", cmd_queue,
	  "list the spool; add, hold, release, retry, drop a message" },
	{ "send", cmd_send, "deliver the queued messages (the cron entry)" },
	{ "thread", cmd_thread,
	  "the Message-ID a report about a commit replies to (lore)" },
	{ "reply", cmd_reply,
	  "answer a follow-up: extract its patch, or reply with results" },
	{ "inbox", cmd_inbox,
	  "scan a Maildir or mbox for follow-ups carrying patches" },
};

/* Each command's options (cmds.h), for robot help --options. */
static const struct {
	const char *name;
	const struct cmd_options *opts;
} cmd_opts[] = {
	{ "compare", &compare_options }, { "compose", &compose_options },
	{ "plot", &plot_options },	 { "queue", &queue_options },
	{ "send", &send_options },	 { "thread", &thread_options },
	{ "reply", &reply_options },	 { "inbox", &inbox_options },
};

/*
 * robot help --options: every option of every command, one a line:
 * COMMAND, --LONG, -S (or -), ARG (or -), tab-separated.  A command
 * without a table prints "COMMAND ?", which t0210 reports.
 */
static int list_options(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		const struct cmd_options *o = NULL;
		const struct option *l;

		for (j = 0; j < ARRAY_SIZE(cmd_opts); j++)
			if (!strcmp(cmd_opts[j].name, cmds[i].name))
				o = cmd_opts[j].opts;
		if (!o) {
			printf("%s\t?\n", cmds[i].name);
			continue;
		}
		for (l = o->longopts; l->name; l++) {
			const char *s = strchr(o->shortopts, l->val);
			int is_short = l->val > ' ' && l->val < 127 &&
				       l->val != ':' && l->val != '+' && s;

			printf("%s\t--%s\t", cmds[i].name, l->name);
			if (is_short)
				printf("-%c", l->val);
			else
				putchar('-');
			printf("\t%s\n", l->has_arg ? "ARG" : "-");
		}
	}
	return EXIT_OK;
}

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: robot [--version] [--help] COMMAND [ARGS]\n\n"
	      "Renders LKP test results into 0-day kernel test robot reports."
	      "\n\ncommands:\n",
	      out);
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(out, "   %-10s %s\n", cmds[i].name, cmds[i].summary);
	fputs("\n'robot COMMAND -h' shows the options of a command.\n\n"
	      "exit codes: 0 success, 1 runtime failure, 2 usage error,\n"
	      "  65 bad input data, 69 message refused permanently,\n"
	      "  75 temporary failure (retry later), 78 bad configuration\n",
	      out);
}

/*
 * Flushes stdout and fails if the output could not be written, so that
 * `robot compare > /full/disk` never exits 0.
 */
static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "robot: error: cannot write output: %s\n",
			strerror(errno));
		return status ? status : EXIT_RUNTIME;
	}
	return status;
}

int main(int argc, char **argv)
{
	const char *name;
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "--help")) {
		if (argc == 3 && !strcmp(argv[1], "help") &&
		    !strcmp(argv[2], "--options"))
			return finish_stdout(list_options());
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			static char dash_h[] = "-h";
			char *args[] = { argv[2], dash_h, NULL };

			for (i = 0; i < ARRAY_SIZE(cmds); i++)
				if (!strcmp(cmds[i].name, argv[2]))
					return finish_stdout(
						cmds[i].fn(2, args));
		}
		usage(stdout);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("robot %s\n", ROBOT_VERSION);
		return finish_stdout(EXIT_OK);
	}
	name = argv[1];
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i].name, name))
			return finish_stdout(cmds[i].fn(argc - 1, argv + 1));
	fprintf(stderr,
		"robot: error: unknown command '%s'; see 'robot help'\n", name);
	return EXIT_USAGE;
}
