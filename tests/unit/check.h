/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h: the unit-test kit.  CHECK() prints one TAP line per check;
 * check_done() returns the exit status (non-zero if anything failed).
 */
#ifndef ROBOT_TESTS_CHECK_H
#define ROBOT_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_n, check_failed;

#define CHECK(cond, ...)                                                 \
	do {                                                             \
		check_n++;                                               \
		if (cond) {                                              \
			printf("ok %d - ", check_n);                     \
		} else {                                                 \
			check_failed++;                                  \
			printf("not ok %d - %s:%d: ", check_n, __FILE__, \
			       __LINE__);                                \
		}                                                        \
		printf(__VA_ARGS__);                                     \
		putchar('\n');                                           \
	} while (0)

#define CHECK_STREQ(got, want, ...)                                     \
	do {                                                            \
		const char *g_ = (got), *w_ = (want);                   \
		int same_ = g_ && w_ && !strcmp(g_, w_);                \
		CHECK(same_, __VA_ARGS__);                              \
		if (!same_)                                             \
			printf("#  got: '%s'\n# want: '%s'\n",          \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} while (0)

static inline int check_done(void)
{
	printf("# %d passed, %d failed\n", check_n - check_failed,
	       check_failed);
	return check_failed ? 1 : 0;
}

#endif
