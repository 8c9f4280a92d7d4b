/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmds.h: the entry points of the CLI commands, one per robot/cmd-*.c.
 * Each returns an exit code of enum robot_exit.
 */
#ifndef ROBOT_CMDS_H
#define ROBOT_CMDS_H

#include <getopt.h>

/*
 * A command's options as getopt_long reads them: its short options and
 * its table.  `robot help --options` prints every command's; t0210 checks
 * the usage, -h and the man page against them.
 */
struct cmd_options {
	const char *shortopts;
	const struct option *longopts;
};

int cmd_compare(int argc, char **argv);
int cmd_compose(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_thread(int argc, char **argv);
int cmd_reply(int argc, char **argv);
int cmd_inbox(int argc, char **argv);

extern const struct cmd_options compare_options, compose_options, plot_options,
	queue_options, send_options, thread_options, reply_options,
	inbox_options;

#endif
