/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect.h: which stats a bisection plots, and their samples.
 *
 * The request's `bisect: {good: [RT...], bad: [RT...]}` names the result
 * roots of the commits the bisection judged good and bad, oldest first.
 * Each side's samples of a stat are the values of its roots, one root
 * after the other, as lkp-tests' merge_matrixes joins matrices: a root
 * without the stat, or with fewer values than runs, gives zeros up to its
 * last run when a later root has the stat; the last root that has it ends
 * the series with its own values.  A stat is plotted when lkp-tests'
 * change detection (the table's rules of the day, with the bisected KPI
 * forced as for the table, on each side's samples padded with zeros to
 * all its runs as StatCompare pads them) finds it changed from the good
 * samples to the bad ones, it is bisectable (stat-denylist/allowlist) and
 * it is not a pass/fail stat: what lkp-tests' `mmplot --concise` plots for
 * two matrices.  A side whose roots all lack the stat has no series
 * (ngood or nbad 0): mmplot then leaves out that matrix's data set and
 * draws the other alone.  The plots come in the order of the bad samples'
 * stats (each root's matrix.json order, first appearance wins), then the
 * stats the bad side lacks in the good side's order (as lkp-tests'
 * change detection appends them to the bad matrix).
 */
#ifndef ROBOT_BISECT_H
#define ROBOT_BISECT_H

#include <stddef.h>

struct compare_opts;

struct bisect_plot {
	char *stat;
	double *good, *bad;
	size_t ngood, nbad;
};

/*
 * Loads the roots and picks the plotted stats.  `where` names the
 * request key for messages ("req.yaml: bisect").  Returns 0 with *out
 * (n plots, maybe none), or -1 after error().
 */
int bisect_plots(struct bisect_plot **out, size_t *n, char *const *good,
		 size_t ngood, char *const *bad, size_t nbad,
		 const struct compare_opts *o, const char *where);
void bisect_plots_free(struct bisect_plot *p, size_t n);

#endif
