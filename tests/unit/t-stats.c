// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-stats.c: stats_summarize() against the plain definition (sort all
 * samples, drop the leading -1s and the margins, take min, middle and max)
 * on many generated arrays: short ones (counted) and long ones
 * (partitioned around the three ranks), with ties, integers and reals of
 * one value, -1s, negative values and margins.
 */
#include "robot/util/common.h"
#include "robot/engine/stats.h"
#include "tests/unit/check.h"

struct sample {
	double v;
	unsigned char is_int;
	size_t at;
};

/* Ruby's sort: by value, equal values in run order (a merge sort) */
static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* The definition, spelled out: a full sort. */
static void reference(struct stat_summary *s, const double *v,
		      const unsigned char *is_int, size_t n, size_t max_margin)
{
	struct sample *buf = xcalloc(n + 1, sizeof(*buf)), *sorted = buf;
	size_t margin = n >> 5, len = n, i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		buf[i].v = v[i];
		buf[i].is_int = is_int[i];
		buf[i].at = i;
	}
	qsort(buf, n, sizeof(*buf), cmp_sample);
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
	free(buf);
}

static unsigned long seed = 20261201;

static unsigned next(void)
{
	seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(seed >> 33);
}

int main(void)
{
	static const double pool[] = { -1, 0, 1, 2, 3.25, -2, 1e9, 7, 7, -1 };
	static const size_t margins[] = { 0, 1, 3, 1000 };
	double v[300];
	unsigned char is_int[300];
	size_t cases = 0, same = 0, n, m, k;

	for (n = 1; n <= 300; n += n < 40 ? 1 : 7) {
		for (k = 0; k < 12; k++) {
			/* k picks how many distinct values: many ties or few */
			size_t spread = k % 3 ? ARRAY_SIZE(pool) : 3;

			for (size_t i = 0; i < n; i++) {
				if (k >= 9) {
					v[i] = (double)(next() % 1000) / 8;
				} else {
					v[i] = pool[next() % spread];
				}
				is_int[i] = v[i] == (long)v[i] && next() % 2;
			}
			for (m = 0; m < ARRAY_SIZE(margins); m++) {
				struct stat_summary got, want;

				stats_summarize(&got, v, is_int, n, margins[m]);
				reference(&want, v, is_int, n, margins[m]);
				cases++;
				if (got.size == want.size &&
				    got.min == want.min &&
				    got.max == want.max &&
				    got.median == want.median &&
				    got.median_is_int == want.median_is_int)
					same++;
				else if (cases - same < 5)
					printf("# n=%zu k=%zu margin=%zu: size "
					       "%zu/%zu median %g/%g\n",
					       n, k, margins[m], got.size,
					       want.size, got.median,
					       want.median);
			}
		}
	}
	CHECK(same == cases, "%zu of %zu summaries equal the full sort's", same,
	      cases);
	{
		struct stat_summary s;
		const double ones[] = { -1, -1, -1 };

		stats_summarize(&s, ones, NULL, 3, 3);
		CHECK(!s.size, "only -1s: no data point");
	}
	return check_done();
}
