// SPDX-License-Identifier: GPL-2.0-only
/*
 * usage.c: the error kit.  One line per message, always prefixed, so cron
 * mail and CI logs can be grepped for "robot: error:".
 */
#include "common.h"

int error_quiet;

static void report(const char *prefix, const char *fmt, va_list ap,
		   const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	if (suffix) {
		strbuf_addstr(&sb, ": ");
		strbuf_addstr(&sb, suffix);
	}
	strbuf_addch(&sb, '\n');
	fflush(stdout);
	fwrite(sb.buf, 1, sb.len, stderr);
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
	const char *msg = strerror(errno);
	va_list ap;

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
