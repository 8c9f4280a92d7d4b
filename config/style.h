/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * style.h: the dated style table (config/data/styles).
 *
 * A style is a day, YYYY-MM-DD: robot writes a report the way the 0-day
 * robot wrote it on that day.  Every rule that changed over time is a
 * key of the table; the value in force on a day is the latest row dated on
 * or before it.
 */
#ifndef ROBOT_CONFIG_STYLE_H
#define ROBOT_CONFIG_STYLE_H

#include <stddef.h>

struct style_entry {
	char *key;
	char *value;
	int own; /* a KEY@OPERATOR row of the report's operator */
};

struct style {
	char date[11]; /* YYYY-MM-DD */
	struct style_entry *entries;
	size_t nr, alloc;
};

/*
 * Turns a style given by a user ("2023-06-07", or one of the year aliases
 * "2016", "2021", "2023", "2025") into a date.  Returns 0, or -1 after an
 * error naming the bad value.
 */
int style_resolve(const char *spec, char date[11]);
/*
 * Loads the table as it stood on `date`.  Returns 0, or -1 after an error
 * (bad date, unreadable table, a malformed row named by file:line).
 */
int style_load(struct style *st, const char *date);
/*
 * The same for the reports one operator sends (the local part of the From
 * address, "oliver.sang"): rows keyed KEY@OPERATOR apply too, and win over
 * the rows of KEY.  A NULL operator is style_load().
 */
int style_load_for(struct style *st, const char *date, const char *operator);
/*
 * The same for another dated table of the data directory (`table`, e.g.
 * "config/data/build-styles"), in the same format.
 */
int style_load_table(struct style *st, const char *date, const char *operator,
		     const char * table);
void style_release(struct style *st);
/*
 * Applies an operator's layout choices, "KEY VALUE" each (a request's
 * `layout`, named `file` in errors), over the style: KEY must be a row of
 * config/data/layouts, and both the value in force (`default` when none)
 * and VALUE among that row's values, which differ in empty lines and blanks
 * only.  Returns 0, or -1 after one error naming the file and the choice.
 */
int style_layout(struct style *st, char *const *choices, size_t n,
		 const char *file);

/* The value of `key` on the style's day, or NULL (borrowed). */
const char *style_get(const struct style *st, const char *key);
/*
 * The integer value of `key`.  Returns 0, or -1 after an error when the key
 * is missing or not an integer.
 */
int style_get_int(const struct style *st, const char *key, int *out);

#endif
