/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmds.h: the entry points of the CLI commands, one per robot/cmd-*.c.
 * Each returns an exit code of enum robot_exit.
 */
#ifndef ROBOT_CMDS_H
#define ROBOT_CMDS_H

int cmd_compare(int argc, char **argv);
int cmd_compose(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_thread(int argc, char **argv);
int cmd_reply(int argc, char **argv);
int cmd_inbox(int argc, char **argv);

#endif
