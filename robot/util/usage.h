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

#include <stdio.h>
#include <time.h>

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
 * While set (not NULL), error() and warning() lines say `ctx` first, after
 * their "robot: error: ": what a library was doing it for, which it does
 * not know ("MAIL: the link URL").  The caller keeps the string alive and
 * sets NULL after.
 */
void error_context(const char *ctx);

/*
 * Prints one line (the format carries no newline) on `out` the way the
 * error kit prints its own: whatever bytes the arguments carry (a header
 * of someone's mail, a file name) come out as text, control bytes and
 * bytes that are no UTF-8 as \xNN (strbuf_add_text), so that a value
 * can neither break the line nor drive the terminal.
 */
void print_line(FILE *out, const char *fmt, ...) ROBOT_PRINTF(2, 3);

/*
 * For the CLI: prints "robot: error: MESSAGE; see 'robot CMD -h'" and
 * returns 2, the usage exit code.
 */
int usage_error(const char *cmd, const char *fmt, ...) ROBOT_PRINTF(2, 3);

/*
 * For the CLI's getopt_long() loops, run with opterr = 0 and an optstring
 * that starts with ':': prints the usage error for getopt's return `c`,
 * "option '-c' needs a value" for ':' and "unknown option '--x'" for '?',
 * and returns 2.
 */
int usage_option_error(const char *cmd, int c, char *const *argv);

/* For broken invariants only: prints file:line and aborts. */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
void bug_fl(const char *file, int line, const char *fmt, ...) ROBOT_PRINTF(3, 4)
	__attribute__((noreturn));

/*
 * Silences error() and warning() while > 0; the counter lets a caller probe
 * (try one parse, then another) without printing the first failure.
 */
extern int error_quiet;

/*
 * The exit code (enum robot_exit) a failure calls for when the code that
 * found it knows better than its caller, which would blame its input: a
 * data file of robot's own (templates, tables) that is missing or broken
 * sets EXIT_CONFIG; error_errno() sets EXIT_RUNTIME for an errno that
 * says the machine failed (EIO, ENOSPC, ENOMEM, EMFILE, ...) rather than
 * that the input named the wrong file (ENOENT, EACCES, EISDIR, ...).
 * 0 when nothing set it.  The CLI clears it before the work it
 * classifies and reads it after a failure: error_exit_code(EXIT_DATAERR).
 */
extern int error_status;
/* error_status if set, else `fallback`. */
int error_exit_code(int fallback);
/* Whether errnum says the machine failed rather than the input. */
int errno_is_runtime(int errnum);

/*
 * robot's own errno value: a path that names a FIFO, a device or a
 * socket where robot reads a file (reading it could block or never end;
 * open_regular() refuses it).  robot_strerror() words it, strerror()
 * the others; error_errno() uses it, and counts it as bad input (65).
 */
#define ENOTREG 4095
const char *robot_strerror(int errnum);

/*
 * SOURCE_DATE_EPOCH (reproducible builds): 0 when unset or empty, 1 with
 * *t set when it is a number of seconds that gmtime() can turn into a
 * four-digit year (1970 to 9999), else the error's -1 ("robot: error:
 * SOURCE_DATE_EPOCH: ...").
 */
int source_date_epoch(time_t *t);

#endif
