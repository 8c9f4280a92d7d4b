// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/measure.c: runs one command and prints what it cost, for
 * bench/run: "CPU WALL MAXRSS STATUS" on one line of stdout, CPU (user +
 * system of the command and of everything it waited for) and WALL in
 * seconds, MAXRSS its peak resident set in KiB (getrusage's ru_maxrss of
 * the children), STATUS its exit code (128 + N for a signal).
 *
 *   measure OUT ERR CMD ARG...    the command's stdout to OUT, its stderr
 *                                 to ERR (files, or /dev/null), stdin
 *                                 from /dev/null
 *
 * A process of its own, and a small one: a child's ru_maxrss counts the
 * pages it inherited before exec, so the parent must not be a Python
 * interpreter of 10 MB.  Not part of robot.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double t0, t1;
	int status, code;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: measure OUT ERR CMD ARG...\n");
		return 2;
	}
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		int in = open("/dev/null", O_RDONLY);
		int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("wait4");
		return 1;
	}
	t1 = now();
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("%.6f %.6f %ld %d\n", tv(ru.ru_utime) + tv(ru.ru_stime), t1 - t0,
	       ru.ru_maxrss, code);
	return 0;
}
