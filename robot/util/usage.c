// SPDX-License-Identifier: GPL-2.0-only
/*
 * usage.c: the error kit.  One line per message, always prefixed, so cron
 * mail and CI logs can be grepped for "robot: error:".
 */
#include "robot/util/common.h"

#include <getopt.h>

int error_quiet;
int error_status;
static const char *error_ctx;

void error_context(const char *ctx)
{
	error_ctx = ctx;
}

int errno_is_runtime(int errnum)
{
	switch (errnum) {
	case ENOENT:
	case ENOTDIR:
	case EISDIR:
	case EACCES:
	case EPERM:
	case ELOOP:
	case ENAMETOOLONG:
	case EINVAL:
	case ENXIO:
	case ENODEV:
	case EFBIG:
	case ENOTREG:
		return 0;
	}
	return 1;
}

const char *robot_strerror(int errnum)
{
	if (errnum == ENOTREG)
		return "not a regular file (a FIFO, a device or a socket: "
		       "robot reads none)";
	return strerror(errnum);
}

int error_exit_code(int fallback)
{
	return error_status ? error_status : fallback;
}

/* Writes sb's bytes as text (strbuf_add_text) and a newline to out. */
static void put_text_line(FILE *out, const struct strbuf *sb)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_add_text(&text, sb->buf, sb->len);
	strbuf_addch(&text, '\n');
	fwrite(text.buf, 1, text.len, out);
	strbuf_release(&text);
}

void print_line(FILE *out, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	put_text_line(out, &sb);
	strbuf_release(&sb);
}

static void report(const char *prefix, const char *fmt, va_list ap,
		   const char *suffix) __attribute__((format(printf, 2, 0)));

static void report(const char *prefix, const char *fmt, va_list ap,
		   const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	if (error_ctx)
		strbuf_addf(&sb, "%s: ", error_ctx);
	strbuf_vaddf(&sb, fmt, ap);
	if (suffix) {
		strbuf_addstr(&sb, ": ");
		strbuf_addstr(&sb, suffix);
	}
	fflush(stdout);
	/* whatever bytes a file gave the line: text (strbuf.h) */
	put_text_line(stderr, &sb);
	strbuf_release(&sb);
}

void die_with(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("robot: error: ", fmt, ap, NULL);
	va_end(ap);
	exit(status);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("robot: error: ", fmt, ap, NULL);
	va_end(ap);
	exit(EXIT_RUNTIME);
}

int error_errno(const char *fmt, ...)
{
	const char *msg = robot_strerror(errno);
	va_list ap;

	if (errno_is_runtime(errno))
		error_status = EXIT_RUNTIME;
	if (error_quiet)
		return -1;
	va_start(ap, fmt);
	report("robot: error: ", fmt, ap, msg);
	va_end(ap);
	return -1;
}

int error(const char *fmt, ...)
{
	va_list ap;

	if (error_quiet)
		return -1;
	va_start(ap, fmt);
	report("robot: error: ", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fprintf(stderr, "robot: error: %s; see 'robot %s -h'\n", sb.buf, cmd);
	strbuf_release(&sb);
	return 2;
}

int usage_option_error(const char *cmd, int c, char *const *argv)
{
	struct strbuf name = STRBUF_INIT;
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int ret;

	/*
	 * An unknown long option leaves optopt 0; a long option without its
	 * value sets optopt to its short name, but is argv[optind - 1].
	 */
	if (c == '?' ? !optopt : !strncmp(arg, "--", 2))
		strbuf_add(&name, arg, strcspn(arg, "="));
	else
		strbuf_addf(&name, "-%c", optopt);
	if (c == ':')
		ret = usage_error(cmd, "option '%s' needs a value", name.buf);
	else
		ret = usage_error(cmd, "unknown option '%s'", name.buf);
	strbuf_release(&name);
	return ret;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (error_quiet)
		return;
	va_start(ap, fmt);
	report("robot: warning: ", fmt, ap, NULL);
	va_end(ap);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "robot: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", sb.buf);
	strbuf_release(&sb);
	abort();
}

/* 9999-12-31 23:59:59 UTC: the last second a Date header's year can name */
#define EPOCH_MAX 253402300799LL

int source_date_epoch(time_t *t)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	long long v;

	if (!sde || !*sde)
		return 0;
	/* digits only: no sign, blank or exponent strtoll would take */
	errno = 0;
	v = strtoll(sde, NULL, 10);
	if (sde[strspn(sde, "0123456789")] || errno || v > EPOCH_MAX)
		return error("SOURCE_DATE_EPOCH: '%s' is not a number of "
			     "seconds from 1970 to 9999",
			     sde);
	*t = (time_t)v;
	return 1;
}
