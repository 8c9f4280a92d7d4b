/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h: printing the comparison block of `lkp ncompare`, the table at
 * the heart of every 0-day report (doc/format.md §1.2-§1.5).
 *
 * This module only formats: the caller (compare.c) computes means,
 * standard deviations and changes, selects and orders the rows.  The
 * switches that changed over the robot's history arrive in struct
 * table_style, filled from the dated style table.
 */
#ifndef ROBOT_TABLE_H
#define ROBOT_TABLE_H

#include <stddef.h>

struct strbuf;

struct table_style {
	int stddev_always; /* print " ±%3d%%" even when <= 2 (before 2017-08) */
	int abs_changes;   /* perf-profile.* and *% changes are absolute */
	int tiny_zero_base; /* a zero base is 1e-100, not a division by 0 */
	int col_width;	    /* width of a later commit's column: 26 or 27 */
};

/* One row of the table, for n commits (base first). */
struct table_row {
	const char *name;
	int failure; /* a fail:runs row */
	size_t n;
	/* perf rows */
	const double *avg; /* n means (0 for a missing stat) */
	const double *sd;  /* n absolute stddevs, -1 for < 2 samples */
	int abs_change;	   /* changes are absolute (no '%') */
	/* fail:runs rows */
	const double *fails; /* n sums of the per-run values */
	const size_t *runs;  /* n run counts */
	/* both: n - 1 changes */
	const double *change;
};

/* The axes line pair and the commit block: one group header. */
struct table_header {
	size_t naxes;
	const char *const *axis_keys; /* sorted as lkp-tests sorts them */
	const char *const *axis_values;
	size_t n;			 /* commits */
	const char *const *commit_lines; /* shown under "commit: " */
	const char *const *commit_ids;	 /* full ids or tags, for the id line */
};

void table_group_header(struct strbuf *out, const struct table_style *st,
			const struct table_header *h);
void table_fail_header(struct strbuf *out, size_t n);
void table_perf_header(struct strbuf *out, size_t n);
void table_row(struct strbuf *out, const struct table_style *st,
	       const struct table_row *row);

/*
 * The change of `avg` against `avg0` as lkp-tests computes it: absolute, or
 * relative in percent (a zero base is 1e-100 with tiny_zero_base, else the
 * IEEE division by zero of old Ruby).
 */
double table_change(const struct table_style *st, double avg0, double avg,
		    int absolute);
/* fail:runs change of column i (>= 1), with upstream's runs[i - 1]. */
double table_fail_change(const double *fails, const size_t *runs, size_t i);
/* Whether a stat's change is absolute: perf-profile.* or a name ending in %. */
int table_abs_change(const struct table_style *st, const char *name);

#endif
