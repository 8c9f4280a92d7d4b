/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strset.h: a set of strings, compared case-insensitively (ASCII letters:
 * mail addresses), in an open-addressing hash table.  For what robot
 * dedups from someone's input (the addresses of a mail robot answers,
 * of a patch it replies to): a list scanned for each item made that
 * quadratic in the mail's size.
 */
#ifndef ROBOT_UTIL_STRSET_H
#define ROBOT_UTIL_STRSET_H

#include <stddef.h>

struct strset {
	char **slots; /* NULL or a copy of a member */
	size_t nslots, n;
};

#define STRSET_INIT        \
	{                  \
		NULL, 0, 0 \
	}

/* Adds a copy of s; returns 1 when it was added, 0 when it was there. */
int strset_add(struct strset *set, const char *s);
/* Whether s is a member. */
int strset_has(const struct strset *set, const char *s);
void strset_release(struct strset *set);

#endif
