/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strset.h: a set of strings in an open-addressing hash table, compared
 * as they are (Message-IDs) or case-insensitively in ASCII letters (mail
 * addresses).  For what robot dedups or looks up from someone's input
 * (the addresses and References of a mail robot answers, the Cc of a
 * patch it replies to): a list scanned for each item made that quadratic
 * in the mail's size.
 */
#ifndef ROBOT_UTIL_STRSET_H
#define ROBOT_UTIL_STRSET_H

#include <stddef.h>

struct strset {
	char **slots; /* NULL or a copy of a member */
	size_t nslots, n;
	int icase;    /* compare ASCII letters in either case */
	size_t *vals; /* each slot's value (strset_put), or NULL */
};

#define STRSET_INIT                 \
	{                           \
		NULL, 0, 0, 0, NULL \
	}
#define STRSET_ICASE_INIT           \
	{                           \
		NULL, 0, 0, 1, NULL \
	}

/* Adds a copy of s; returns 1 when it was added, 0 when it was there. */
int strset_add(struct strset *set, const char *s);
/* Whether s is a member. */
int strset_has(const struct strset *set, const char *s);
/*
 * The set as a map to indexes (of an array the caller keeps): adds s with
 * value v and returns 1, or returns 0 and leaves the value s has.
 * strset_get: whether s is a member, and its value into *v (0 for one
 * added by strset_add).
 */
int strset_put(struct strset *set, const char *s, size_t v);
int strset_get(const struct strset *set, const char *s, size_t *v);
void strset_release(struct strset *set);

#endif
