/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h: the statistics of lkp-tests, reproduced to the last bit.
 *
 * The means and standard deviations in a 0-day table come from Ruby code
 * (lkp-tests lib/statistics.rb over Ruby's Array#sum).  A report is only
 * byte-exact if robot performs the same floating-point operations in the
 * same order, so these functions spell that order out.
 */
#ifndef ROBOT_STATS_H
#define ROBOT_STATS_H

#include <stddef.h>

/*
 * Ruby's Array#sum: the leading integers (is_int[i] set) are added
 * exactly; from the first real value on, Kahan-Babuska compensated
 * summation runs over the rest.  is_int may be NULL (all reals).
 */
double stats_sum(const double *v, const unsigned char *is_int, size_t n);
/*
 * The Array#sum lkp-tests defined itself until 2019-06-11 (d287b002f),
 * inject(0) { |sum, i| sum + i }: plain left-to-right additions, exact
 * while both sides are integers.
 */
double stats_sum_inject(const double *v, const unsigned char *is_int, size_t n);
/* Enumerable#average: stats_sum / n.  n must be > 0. */
double stats_mean(const double *v, const unsigned char *is_int, size_t n);
/*
 * Population standard deviation as lkp-tests computes it:
 * sqrt((1.0 / n) * sum((x - mean)^2)), the squares added left to right.
 */
double stats_stddev(const double *v, size_t n, double mean);

/*
 * The summary lkp-tests' StatSummary makes of one commit's samples: sort,
 * drop `size >> 5` values at each end (at most max_margin), then min, the
 * middle element s[size / 2] (called "mean" upstream, a median) and max.
 * Leading -1 values ("no data point") are dropped after sorting; size 0
 * means nothing was left.
 * `median_is_int` tells whether that middle element was a JSON integer.
 */
struct stat_summary {
	double min, median, max;
	int median_is_int;
	size_t size;
};
void stats_summarize(struct stat_summary *s, const double *v,
		     const unsigned char *is_int, size_t n, size_t max_margin);

#endif
