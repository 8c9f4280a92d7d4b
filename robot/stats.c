// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c: lkp-tests' statistics.  Each function names the Ruby it
 * mirrors; keep the operation order, since reports print truncated values
 * and the row order depends on unrounded changes.
 */
#include "common.h"
#include "stats.h"

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

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->v < y->v)
		return -1;
	if (x->v > y->v)
		return 1;
	/*
	 * Ruby's Array#sort is glibc's qsort_r, a merge sort: equal values
	 * (an Integer 0 and a Float 0.0) keep their order, which decides
	 * whether the median is an Integer.
	 */
	return (x->at > y->at) - (x->at < y->at);
}

void stats_summarize(struct stat_summary *s, const double *v,
		     const unsigned char *is_int, size_t n, size_t max_margin)
{
	struct sample stack[64], *buf = stack, *sorted;
	size_t margin = n >> 5, i, len;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	if (n > ARRAY_SIZE(stack))
		buf = xmalloc(n * sizeof(*buf));
	for (i = 0; i < n; i++) {
		buf[i].v = v[i];
		buf[i].is_int = is_int ? is_int[i] : 0;
		buf[i].at = i;
	}
	qsort(buf, n, sizeof(*buf), cmp_sample);
	/* Enumerable#sorted: a leading -1 means "no data point". */
	sorted = buf;
	len = n;
	while (len && sorted[0].v == -1) {
		sorted++;
		len--;
	}
	if (margin > max_margin)
		margin = max_margin;
	if (len > 2 * margin) {
		sorted += margin;
		len -= 2 * margin;
		s->size = len;
		s->min = sorted[0].v;
		s->max = sorted[len - 1].v;
		s->median = sorted[len / 2].v;
		s->median_is_int = sorted[len / 2].is_int;
	}
	if (buf != stack)
		free(buf);
}
