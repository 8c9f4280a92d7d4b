/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.h: included first by every robot source file.
 *
 * It sets the feature macros, pulls in the system headers nearly every file
 * needs, and declares the util module (xalloc, strbuf, the error kit), which
 * depends on nothing else of robot.  Library modules (mail/, git/, config/,
 * templates/) may include it and nothing else of robot/ outside robot/util/.
 */
#ifndef ROBOT_COMMON_H
#define ROBOT_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robot/util/xalloc.h"
#include "robot/util/strbuf.h"
#include "robot/util/usage.h"
#include "robot/util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Grow an array to hold at least `nr` elements; `alloc` tracks its capacity.
 * The same idiom as git's ALLOC_GROW.
 */
#define ALLOC_GROW(x, nr, alloc)                                         \
	do {                                                             \
		if ((nr) > (alloc)) {                                    \
			(alloc) = (alloc) < 16 ? 16 : (alloc);           \
			while ((alloc) < (nr))                           \
				(alloc) *= 2;                            \
			(x) = xreallocarray((x), (alloc), sizeof(*(x))); \
		}                                                        \
	} while (0)

/* The exit codes of doc/commands.md (sysexits.h values). */
enum robot_exit {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_DATAERR = 65,
	EXIT_UNAVAILABLE = 69,
	EXIT_TEMPFAIL = 75,
	EXIT_CONFIG = 78,
};

#endif
