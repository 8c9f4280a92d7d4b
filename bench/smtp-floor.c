// SPDX-License-Identifier: GPL-2.0-only
/*
 * smtp-floor.c: the floor of bench/send.sh, the least a client can do to
 * hand messages to an SMTP sink: one connection, TCP_NODELAY, no TLS,
 * and for each file MAIL FROM, one RCPT TO per recipient, DATA, the bytes
 * (LF made CRLF, dot-stuffed) and the final ".", each reply read before
 * the next command.  No spool, no parsing, no state.
 *
 *   smtp-floor [--spool DIR] PORT FROM RCPT[,RCPT...] FILE...
 *
 * --spool DIR adds what robot's promise of durability costs at the least
 * (doc/delivery.md): after each message's final reply, a state file of
 * a few lines written to DIR/tmp, fsync'd, renamed into DIR/sent, and
 * DIR/sent fsync'd; the "durable floor".
 *
 * Built by bench/send.sh; not part of robot.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static int fd;
static char rbuf[65536];
static size_t rlen;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void put(const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n <= 0)
			die("write");
		data += n;
		len -= (size_t)n;
	}
}

/* Reads one whole reply; fails unless its code starts with `want`. */
static void reply(char want)
{
	for (;;) {
		char *nl;

		while ((nl = memchr(rbuf, '\n', rlen))) {
			size_t line = (size_t)(nl - rbuf) + 1;
			int last = line >= 4 && rbuf[3] == ' ';
			char code = rbuf[0];

			memmove(rbuf, rbuf + line, rlen - line);
			rlen -= line;
			if (last) {
				if (code != want) {
					fprintf(stderr, "unexpected reply\n");
					exit(1);
				}
				return;
			}
		}
		ssize_t n = read(fd, rbuf + rlen, sizeof(rbuf) - rlen);

		if (n <= 0)
			die("read");
		rlen += (size_t)n;
	}
}

static void command(const char *fmt, const char *arg, char want)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), fmt, arg);

	put(line, (size_t)n);
	reply(want);
}

static void send_file(const char *path, char *out, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t o = 0;
	int c, bol = 1;

	if (!f)
		die(path);
	while ((c = getc(f)) != EOF) {
		if (o + 4 > cap) {
			put(out, o);
			o = 0;
		}
		if (bol && c == '.')
			out[o++] = '.';
		if (c == '\n')
			out[o++] = '\r';
		out[o++] = (char)c;
		bol = c == '\n';
	}
	fclose(f);
	if (!bol) {
		out[o++] = '\r';
		out[o++] = '\n';
	}
	out[o++] = '.';
	out[o++] = '\r';
	out[o++] = '\n';
	put(out, o);
}

/* The least a durable record of message `i` costs: two fsyncs. */
static void record(const char *spool, int i)
{
	char tmp[4096], dst[4096], line[256];
	int f, n;

	snprintf(tmp, sizeof(tmp), "%s/tmp/%d.state", spool, i);
	snprintf(dst, sizeof(dst), "%s/sent/%d.state", spool, i);
	n = snprintf(line, sizeof(line),
		     "message-id: <%d@floor.example>\nattempts: 1\n"
		     "last-attempt: 2026-12-01T09:10:00Z\nreply: 250 ok\n",
		     i);
	f = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (f < 0 || write(f, line, (size_t)n) != n || fsync(f) || close(f) ||
	    rename(tmp, dst))
		die(tmp);
	snprintf(tmp, sizeof(tmp), "%s/sent", spool);
	f = open(tmp, O_RDONLY | O_DIRECTORY);
	if (f < 0 || fsync(f) || close(f))
		die(tmp);
}

int main(int argc, char **argv)
{
	const char *spool = NULL;
	struct sockaddr_in a = { 0 };
	static char out[1 << 16];
	char *rcpts, *r;
	int one = 1, i;

	if (argc > 2 && !strcmp(argv[1], "--spool")) {
		char d[4096];

		spool = argv[2];
		argv += 2;
		argc -= 2;
		snprintf(d, sizeof(d), "%s/tmp", spool);
		mkdir(spool, 0700);
		mkdir(d, 0700);
		snprintf(d, sizeof(d), "%s/sent", spool);
		mkdir(d, 0700);
	}
	if (argc < 5) {
		fprintf(stderr,
			"usage: smtp-floor [--spool DIR] PORT FROM RCPT,... "
			"FILE...\n");
		return 2;
	}
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)atoi(argv[1]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	reply('2');
	command("EHLO %s\r\n", "floor.example", '2');
	for (i = 4; i < argc; i++) {
		command("MAIL FROM:<%s>\r\n", argv[2], '2');
		rcpts = strdup(argv[3]);
		for (r = strtok(rcpts, ","); r; r = strtok(NULL, ","))
			command("RCPT TO:<%s>\r\n", r, '2');
		free(rcpts);
		command("DATA\r\n%s", "", '3');
		send_file(argv[i], out, sizeof(out));
		reply('2');
		if (spool)
			record(spool, i);
	}
	command("QUIT\r\n%s", "", '2');
	close(fd);
	return 0;
}
