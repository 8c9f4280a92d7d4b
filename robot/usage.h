/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * usage.h: the error kit.  Every message is one line on stderr starting
 * with "robot: error: " (or "robot: warning: "); formats carry no newline.
 *
 * Library code reports with error() or error_errno(), which return -1 so a
 * failure reads `return error("cannot open '%s'", path);`.  Only the CLI in
 * robot/ calls die(), which exits.
 */
#ifndef ROBOT_USAGE_H
#define ROBOT_USAGE_H

#define ROBOT_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Prints the message and exits with `status`. */
void die_with(int status, const char *fmt, ...) ROBOT_PRINTF(2, 3)
	__attribute__((noreturn));
/* Prints the message and exits 1. */
void die(const char *fmt, ...) ROBOT_PRINTF(1, 2) __attribute__((noreturn));
/* Prints the message, then ": " and strerror(errno); returns -1. */
int error_errno(const char *fmt, ...) ROBOT_PRINTF(1, 2);
/* Prints the message; returns -1. */
int error(const char *fmt, ...) ROBOT_PRINTF(1, 2);
void warning(const char *fmt, ...) ROBOT_PRINTF(1, 2);

/*
 * For the CLI: prints "robot: error: MESSAGE; see 'robot CMD -h'" and
 * returns 2, the usage exit code.
 */
int usage_error(const char *cmd, const char *fmt, ...) ROBOT_PRINTF(2, 3);

/* For broken invariants only: prints file:line and aborts. */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
void bug_fl(const char *file, int line, const char *fmt, ...) ROBOT_PRINTF(3, 4)
	__attribute__((noreturn));

/*
 * Silences error() and warning() while > 0; the counter lets a caller probe
 * (try one parse, then another) without printing the first failure.
 */
extern int error_quiet;

#endif
