// SPDX-License-Identifier: GPL-2.0-only
/*
 * sendmail.c: the sendmail transport (see sendmail.h): one run of the
 * command per message, the message on its stdin, its exit status mapped
 * onto the SMTP reply codes that robot send's policy already knows.
 */
#include "robot/util/common.h"
#include "mail/sendmail.h"
#include "mail/smtp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_MAX 4096

int sendmail_open(struct sendmail *s, const char *cmd, const char *config)
{
	const char *p = cmd;
	size_t alloc = 0, i;
	int has_i = 0;
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->timeout = 300;
	while (*p) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (!len)
			break;
		if (s->argc + 2 > alloc) {
			alloc = alloc ? 2 * alloc : 8;
			s->argv = xreallocarray(s->argv, alloc, sizeof(char *));
		}
		s->argv[s->argc++] = xstrndup(p, len);
		s->argv[s->argc] = NULL;
		p += len;
	}
	if (!s->argc)
		return error("%s: sendmail_cmd: empty (want a program and its "
			     "options, e.g. /usr/sbin/sendmail -oi)",
			     config);
	if (s->argv[0][0] != '/') {
		error("%s: sendmail_cmd: '%s' is not an absolute path (e.g. "
		      "/usr/sbin/sendmail)",
		      config, s->argv[0]);
		goto bad;
	}
	if (stat(s->argv[0], &st) || !S_ISREG(st.st_mode) ||
	    access(s->argv[0], X_OK)) {
		error("%s: sendmail_cmd: '%s' is no program robot can run",
		      config, s->argv[0]);
		goto bad;
	}
	for (i = 1; i < s->argc; i++) {
		if (!strcmp(s->argv[i], "-i") || !strcmp(s->argv[i], "-oi"))
			has_i = 1;
		if (!strcmp(s->argv[i], "-t"))
			s->has_t = 1;
	}
	if (!has_i) {
		error("%s: sendmail_cmd: add -oi (or -i): without it a line "
		      "of a lone '.' in a report would end the message",
		      config);
		goto bad;
	}
	s->where = xasprintf("sendmail:%s", s->argv[0]);
	return 0;
bad:
	sendmail_close(s);
	return -1;
}

void sendmail_close(struct sendmail *s)
{
	size_t i;

	for (i = 0; i < s->argc; i++)
		free(s->argv[i]);
	free(s->argv);
	free(s->where);
	memset(s, 0, sizeof(*s));
}

/* The sysexits.h names robot's messages use. */
static const char *exit_name(int code)
{
	static const char *const names[] = {
		"EX_USAGE",    "EX_DATAERR",	 "EX_NOINPUT",	"EX_NOUSER",
		"EX_NOHOST",   "EX_UNAVAILABLE", "EX_SOFTWARE", "EX_OSERR",
		"EX_OSFILE",   "EX_CANTCREAT",	 "EX_IOERR",	"EX_TEMPFAIL",
		"EX_PROTOCOL", "EX_NOPERM",	 "EX_CONFIG",
	};

	if (code >= 64 && code <= 78)
		return names[code - 64];
	if (code == 126)
		return "cannot execute";
	if (code == 127)
		return "not found";
	return NULL;
}

/* What a status means: 250 sent, 451 deferred, 550 refused, 0 config. */
static int policy(int code)
{
	switch (code) {
	case 0:
		return 250;
	case 65: /* EX_DATAERR */
	case 67: /* EX_NOUSER */
	case 68: /* EX_NOHOST */
	case 69: /* EX_UNAVAILABLE */
		return 550;
	case 64:  /* EX_USAGE */
	case 66:  /* EX_NOINPUT */
	case 77:  /* EX_NOPERM */
	case 78:  /* EX_CONFIG */
	case 126: /* the shell's "cannot execute" */
	case 127: /* and "not found" */
		return 0;
	default: /* EX_TEMPFAIL, the local troubles 70-74, 76, the rest */
		return 451;
	}
}

/* The first line of the output, visible characters only. */
static void first_line(struct strbuf *out, const struct strbuf *got)
{
	size_t i, end = strcspn(got->buf, "\n");

	for (i = 0; i < end; i++) {
		unsigned char c = (unsigned char)got->buf[i];

		strbuf_addch(out, c < 0x20 || c == 0x7f ? '?' : c);
	}
}

/*
 * Feeds msg to the child's stdin and collects its output (at most
 * OUTPUT_MAX bytes kept) until it closes it, or `timeout` seconds pass.
 * Closes both.  Returns 0, or -1 on the timeout.
 */
static int converse(int in, int out, const char *msg, size_t len,
		    struct strbuf *got, int timeout)
{
	time_t end = time(NULL) + timeout;
	size_t off = 0;
	char buf[4096];

	while (out >= 0) {
		struct pollfd fds[2] = { { .fd = out, .events = POLLIN },
					 { .fd = in, .events = POLLOUT } };
		int left = (int)(end - time(NULL)), nfds = in >= 0 ? 2 : 1;
		ssize_t k;

		if (left <= 0)
			break;
		if (poll(fds, (nfds_t)nfds, left * 1000) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (nfds == 2 && fds[1].revents) {
			k = write(in, msg + off, len - off);
			if (k > 0)
				off += (size_t)k;
			if (k < 0 && errno != EINTR && errno != EAGAIN)
				off = len; /* EPIPE: it stopped reading */
			if (off == len) {
				close(in);
				in = -1;
			}
		}
		if (fds[0].revents) {
			k = read(out, buf, sizeof(buf));
			if (k > 0 && got->len < OUTPUT_MAX)
				strbuf_add(got, buf, (size_t)k);
			if (k == 0 || (k < 0 && errno != EINTR)) {
				close(out);
				out = -1;
			}
		}
	}
	if (in >= 0)
		close(in);
	if (out >= 0) {
		close(out);
		return -1;
	}
	return 0;
}

static void set_all(struct smtp_result *res, size_t n, int code,
		    const char *reply)
{
	size_t i;

	res->tried = 1;
	res->nrcpt = n;
	res->rcpt = xcalloc(n ? n : 1, sizeof(*res->rcpt));
	for (i = 0; i < n; i++) {
		res->rcpt[i].code = code;
		res->rcpt[i].reply = xasprintf("%d %s", code, reply);
	}
	res->reply = xstrdup(reply);
}

/*
 * Starts argv with pipes on its stdin and its stdout and stderr: *in to
 * write to, *out to read.  Returns its pid, or -1 with res's stop set.
 */
static pid_t spawn(char **argv, int *in, int *out, struct smtp_result *res)
{
	int to_child[2] = { -1, -1 }, from_child[2] = { -1, -1 };
	pid_t pid = -1;

	if (pipe2(to_child, O_CLOEXEC) || pipe2(from_child, O_CLOEXEC)) {
		res->stop = SMTP_TEMPORARY;
		res->stop_reason = xasprintf("sendmail_cmd: cannot make a "
					     "pipe: %s",
					     strerror(errno));
	} else {
		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			res->stop = SMTP_TEMPORARY;
			res->stop_reason =
				xasprintf("sendmail_cmd: cannot fork: %s",
					  strerror(errno));
		}
	}
	if (!pid) {
		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		dup2(from_child[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execv(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (to_child[0] >= 0)
		close(to_child[0]);
	if (from_child[1] >= 0)
		close(from_child[1]);
	if (pid < 0) {
		if (to_child[1] >= 0)
			close(to_child[1]);
		if (from_child[0] >= 0)
			close(from_child[0]);
		return -1;
	}
	*in = to_child[1];
	*out = from_child[0];
	return pid;
}

/* The status's reply ("exit 75 (EX_TEMPFAIL)") and code (policy()). */
static int verdict(struct strbuf *reply, int timed_out, int status, int timeout)
{
	if (timed_out) {
		strbuf_addf(reply, "no answer within %d s, killed", timeout);
		return 451;
	}
	if (WIFSIGNALED(status)) {
		strbuf_addf(reply, "killed by signal %d", WTERMSIG(status));
		return 451;
	}
	strbuf_addf(reply, "exit %d", WEXITSTATUS(status));
	if (exit_name(WEXITSTATUS(status)))
		strbuf_addf(reply, " (%s)", exit_name(WEXITSTATUS(status)));
	return policy(WEXITSTATUS(status));
}

void sendmail_send(const struct sendmail *s, const char *from,
		   char *const *rcpt, size_t n, const char *msg, size_t len,
		   struct smtp_result *res)
{
	struct strbuf got = STRBUF_INIT, reply = STRBUF_INIT;
	char **argv = xcalloc(s->argc + n + 5, sizeof(char *));
	char *f_opt = xstrdup("-f"), *from_copy = xstrdup(from),
	     *dashes = xstrdup("--");
	int in = -1, out = -1, status = 0, timed_out, code;
	void (*old_pipe)(int);
	size_t i, k = 0;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < s->argc; i++)
		argv[k++] = s->argv[i];
	argv[k++] = f_opt;
	argv[k++] = from_copy;
	argv[k++] = dashes;
	for (i = 0; i < n; i++)
		argv[k++] = rcpt[i];
	argv[k] = NULL;
	pid = spawn(argv, &in, &out, res);
	if (pid < 0)
		goto out;
	old_pipe = signal(SIGPIPE, SIG_IGN);
	timed_out = converse(in, out, msg, len, &got, s->timeout);
	signal(SIGPIPE, old_pipe);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	code = verdict(&reply, timed_out, status, s->timeout);
	if (got.len) {
		strbuf_addstr(&reply, ": ");
		first_line(&reply, &got);
	}
	if (!code) {
		res->stop = SMTP_CONFIG;
		res->stop_reason = xasprintf("sendmail_cmd: %s: %s", s->argv[0],
					     reply.buf);
		goto out;
	}
	set_all(res, n, code, reply.buf);
out:
	strbuf_release(&got);
	strbuf_release(&reply);
	free(f_opt);
	free(from_copy);
	free(dashes);
	free(argv);
}
