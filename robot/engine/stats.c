// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c: lkp-tests' statistics.  Each function names the Ruby it
 * mirrors; keep the operation order, since reports print truncated values
 * and the row order depends on unrounded changes.
 */
#include "robot/util/common.h"
#include "robot/engine/stats.h"

#include <math.h>

/* One step of Kahan-Babuska summation, as Ruby's ary_sum does it. */
static void kb_add(double *f, double *c, double x)
{
	double t;

	if (isnan(*f))
		return;
	if (isnan(x)) {
		*f = x;
		return;
	}
	if (isinf(x)) {
		if (isinf(*f) && signbit(x) != signbit(*f))
			*f = NAN;
		else
			*f = x;
		return;
	}
	if (isinf(*f))
		return;
	t = *f + x;
	if (fabs(*f) >= fabs(x))
		*c += (*f - t) + x;
	else
		*c += (x - t) + *f;
	*f = t;
}

double stats_sum(const double *v, const unsigned char *is_int, size_t n)
{
	/*
	 * Ruby adds Integers exactly, in bignums past 64 bits: 128 bits hold
	 * any sum of the run counts robot takes, and the conversion rounds
	 * to nearest, as Integer#to_f does.
	 */
	__int128 exact = 0;
	double f, c = 0.0;
	size_t i = 0;

	for (; is_int && i < n && is_int[i]; i++)
		exact += (__int128)(long long)v[i];
	if (i == n)
		return (double)exact;
	f = (double)exact;
	for (; i < n; i++)
		kb_add(&f, &c, v[i]);
	return f + c;
}

double stats_sum_inject(const double *v, const unsigned char *is_int, size_t n)
{
	__int128 exact = 0;
	double f;
	size_t i = 0;

	for (; is_int && i < n && is_int[i]; i++)
		exact += (__int128)(long long)v[i];
	if (i == n)
		return (double)exact;
	/* Integer + Float converts the integer, then adds in doubles. */
	f = (double)exact;
	for (; i < n; i++)
		f = f + v[i];
	return f;
}

double stats_mean(const double *v, const unsigned char *is_int, size_t n)
{
	return stats_sum(v, is_int, n) / (double)n;
}

double stats_stddev(const double *v, size_t n, double mean)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++) {
		double d = v[i] - mean;

		sum = sum + d * d;
	}
	return sqrt(1 / (double)n * sum);
}

struct sample {
	double v;
	unsigned char is_int;
	size_t at; /* its place in the run order */
};

/*
 * The order of the sort lkp-tests' samples go through: by value; Ruby's
 * Array#sort is glibc's qsort_r, a merge sort, so equal values (an Integer
 * 0 and a Float 0.0) keep their run order, which decides whether the
 * median is an Integer.  A total order: any algorithm finds the same
 * sample at each rank.
 */
static int sample_lt(const struct sample *x, const struct sample *y)
{
	return x->v < y->v || (x->v == y->v && x->at < y->at);
}

static void sample_swap(struct sample *x, struct sample *y)
{
	struct sample t = *x;

	*x = *y;
	*y = t;
}

static void insertion_sort(struct sample *s, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++) {
		struct sample x = s[i];
		size_t j = i;

		for (; j > lo && sample_lt(&x, &s[j - 1]); j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
}

/*
 * Moves the sample of rank k of s[lo..hi) to s[k], with no greater one
 * before it and no smaller one after it (quickselect, median of three).
 */
static void select_rank(struct sample *s, size_t lo, size_t hi, size_t k)
{
	while (hi - lo > 16) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi - 1;
		struct sample pivot;

		if (sample_lt(&s[mid], &s[lo]))
			sample_swap(&s[mid], &s[lo]);
		if (sample_lt(&s[hi - 1], &s[lo]))
			sample_swap(&s[hi - 1], &s[lo]);
		if (sample_lt(&s[hi - 1], &s[mid]))
			sample_swap(&s[hi - 1], &s[mid]);
		pivot = s[mid];
		/* Hoare: s[lo..j] <= pivot <= s[j+1..hi), both non-empty */
		for (;;) {
			while (sample_lt(&s[i], &pivot))
				i++;
			while (sample_lt(&pivot, &s[j]))
				j--;
			if (i >= j)
				break;
			sample_swap(&s[i++], &s[j--]);
		}
		if (k <= j)
			hi = j + 1;
		else
			lo = j + 1;
	}
	insertion_sort(s, lo, hi);
}

/*
 * The sample of rank k (k < 8) of s[lo..hi), counted from the small end,
 * or with `from_top` from the large end: one pass keeping the k + 1
 * extreme samples in order.
 */
static struct sample near_end(const struct sample *s, size_t lo, size_t hi,
			      size_t k, int from_top)
{
	struct sample best[8];
	size_t nbest = 0;

	for (size_t i = lo; i < hi; i++) {
		size_t j;

		if (nbest == k + 1 && !(from_top ? sample_lt(&best[k], &s[i])
						 : sample_lt(&s[i], &best[k])))
			continue;
		j = nbest < k + 1 ? nbest++ : k;
		for (; j > 0 && (from_top ? sample_lt(&best[j - 1], &s[i])
					  : sample_lt(&s[i], &best[j - 1]));
		     j--)
			best[j] = best[j - 1];
		best[j] = s[i];
	}
	return best[k];
}

/* The sample of rank k of s[lo..hi); it may reorder s[lo..hi). */
static struct sample rank_of(struct sample *s, size_t lo, size_t hi, size_t k)
{
	if (k - lo < 8)
		return near_end(s, lo, hi, k - lo, 0);
	if (hi - 1 - k < 8)
		return near_end(s, lo, hi, hi - 1 - k, 1);
	select_rank(s, lo, hi, k);
	return s[k];
}

/*
 * For a few samples: the value of rank k by counting, without branches
 * to mispredict: v[i] has it when fewer than k + 1 samples are smaller and
 * more than k are not larger.
 */
static double count_rank(const double *v, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++) {
		size_t lt = 0, le = 0;

		for (size_t j = 0; j < n; j++) {
			lt += v[j] < v[i];
			le += v[j] <= v[i];
		}
		if (lt <= k && k < le)
			return v[i];
	}
	return v[0];
}

/*
 * Whether the sample of rank k, of value m, is an integer: equal values
 * keep their run order, so it is the (k - smaller)-th sample equal to m.
 */
static int rank_is_int(const double *v, const unsigned char *is_int, size_t n,
		       size_t k, double m)
{
	size_t lt = 0, i;

	for (i = 0; i < n; i++)
		lt += v[i] < m;
	for (i = 0; i < n; i++)
		if (v[i] == m && lt++ == k)
			return is_int && is_int[i];
	return 0;
}

/*
 * The ranks of the summary of n samples, and their smallest and largest
 * value; 0 when nothing is left.
 */
static int summary_ranks(const double *v, size_t n, size_t max_margin,
			 size_t *r_min, size_t *r_med, size_t *r_max,
			 double *min, double *max)
{
	size_t margin = n >> 5, drop = 0, len;

	*min = *max = v[0];
	for (size_t i = 0; i < n; i++) {
		*min = v[i] < *min ? v[i] : *min;
		*max = v[i] > *max ? v[i] : *max;
		drop += v[i] == -1;
	}
	/* Enumerable#sorted: leading -1 values mean "no data point" */
	if (*min != -1)
		drop = 0;
	len = n - drop;
	if (margin > max_margin)
		margin = max_margin;
	if (len <= 2 * margin)
		return 0;
	len -= 2 * margin;
	*r_min = drop + margin;
	*r_med = *r_min + len / 2;
	*r_max = *r_min + len - 1;
	return 1;
}

/*
 * Only three ranks of the sorted samples are needed: for up to FEW samples
 * they are counted, more are partitioned around the middle and the two
 * others found in the parts; the same samples as a full sort, in linear
 * time.
 */
#define FEW 16

void stats_summarize(struct stat_summary *s, const double *v,
		     const unsigned char *is_int, size_t n, size_t max_margin)
{
	struct sample stack[64], *buf = stack, lo, mid, hi;
	size_t r_min, r_med, r_max;
	double min, max;

	memset(s, 0, sizeof(*s));
	if (!n || !summary_ranks(v, n, max_margin, &r_min, &r_med, &r_max, &min,
				 &max))
		return;
	s->size = r_max - r_min + 1;
	if (n <= FEW) {
		s->min = r_min ? count_rank(v, n, r_min) : min;
		s->max = r_max < n - 1 ? count_rank(v, n, r_max) : max;
		s->median = count_rank(v, n, r_med);
		s->median_is_int = rank_is_int(v, is_int, n, r_med, s->median);
		return;
	}
	if (n > ARRAY_SIZE(stack))
		buf = xmalloc(n * sizeof(*buf));
	for (size_t i = 0; i < n; i++) {
		buf[i].v = v[i];
		buf[i].is_int = is_int ? is_int[i] : 0;
		buf[i].at = i;
	}
	select_rank(buf, 0, n, r_med);
	mid = buf[r_med];
	lo = r_min < r_med ? rank_of(buf, 0, r_med, r_min) : mid;
	hi = r_max > r_med ? rank_of(buf, r_med + 1, n, r_max) : mid;
	s->min = lo.v;
	s->max = hi.v;
	s->median = mid.v;
	s->median_is_int = mid.is_int;
	if (buf != stack)
		free(buf);
}
