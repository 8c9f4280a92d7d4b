// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c: the `lkp ncompare` text format, field by field.
 *
 * Ruby's printf differs from C's: "%d" of a Float truncates toward zero,
 * infinities print as "Inf" and a NaN as "NaN", and near-ties round as
 * Ruby's dtoa rounds them; rubyfmt.c does the float conversions.  Widths come
 * from lkp-tests' ABS_WIDTH = 10, REL_WIDTH = 10 and ERR_WIDTH = 6
 * (lib/compare.rb).
 */
#include "robot/util/common.h"
#include "robot/engine/table.h"
#include "robot/engine/rubyfmt.h"

#include <math.h>

#define ABS_WIDTH   10
#define REL_WIDTH   10
#define ERR_WIDTH   6
#define FIRST_WIDTH (ABS_WIDTH + ERR_WIDTH)

/* Ruby's text for a non-finite Float, with its sign rules. */
static const char *nonfinite(double x, int plus)
{
	if (isnan(x))
		return plus ? "+NaN" : "NaN";
	if (x > 0)
		return plus ? "+Inf" : "Inf";
	return "-Inf";
}

/* A mean: %.2f below 1000, %.4g above 1e8, a truncated %d between. */
static void add_avg(struct strbuf *out, double avg)
{
	double a = fabs(avg);

	if (!isfinite(avg))
		strbuf_addf(out, "%*s", ABS_WIDTH, nonfinite(avg, 0));
	else if (a < 1000)
		rubyfmt(out, "", ABS_WIDTH, 2, 'f', avg);
	else if (a > 100000000)
		rubyfmt(out, "", ABS_WIDTH, 4, 'g', avg);
	else
		rubyfmt_trunc(out, ABS_WIDTH, avg);
}

/*
 * The stddev as a percentage of the mean (absolute when the mean is 0),
 * shown only above 2 unless the style always shows it.
 */
static void add_sd(struct strbuf *out, const struct table_style *st, double avg,
		   double sd)
{
	if (avg != 0)
		sd = 100 * sd / avg;
	if (sd > 2 || st->stddev_always) {
		strbuf_addstr(out, " \xc2\xb1");
		rubyfmt_trunc(out, ERR_WIDTH - 3, sd);
		strbuf_addch(out, '%');
	} else {
		strbuf_addchars(out, ' ', ERR_WIDTH);
	}
}

static void add_change(struct strbuf *out, double p, int absolute)
{
	if (!isfinite(p))
		strbuf_addf(out, "%*s", REL_WIDTH, nonfinite(p, 1));
	else if (fabs(p) < 100000)
		rubyfmt(out, "+", REL_WIDTH, 1, 'f', p);
	else
		rubyfmt(out, "+", REL_WIDTH, 2, 'g', p);
	strbuf_addstr(out, absolute ? "  " : "% ");
}

static void perf_row(struct strbuf *out, const struct table_style *st,
		     const struct table_row *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (i)
			add_change(out, r->change[i - 1], r->abs_change);
		add_avg(out, r->avg[i]);
		add_sd(out, st, r->avg[i], r->sd[i]);
	}
}

static void fail_row(struct strbuf *out, const struct table_row *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (i) {
			double p = r->change[i - 1];

			rubyfmt(out, "", REL_WIDTH, 0, 'f', p);
			strbuf_addstr(out, "% ");
		}
		if (r->fails[i] == 0)
			strbuf_addchars(out, ' ', ABS_WIDTH + 1);
		else
			rubyfmt_trunc(out, ABS_WIDTH + 1, r->fails[i]);
		strbuf_addf(out, ":%-*zu", ERR_WIDTH - 2, r->runs[i]);
	}
}

void table_row(struct strbuf *out, const struct table_style *st,
	       const struct table_row *row)
{
	if (row->failure)
		fail_row(out, row);
	else
		perf_row(out, st, row);
	strbuf_addf(out, "  %s\n", row->name);
}

void table_fail_header(struct strbuf *out, size_t n)
{
	size_t i;

	strbuf_addstr(out, "       fail:runs");
	for (i = 1; i < n; i++)
		strbuf_addstr(out, "  %reproduction    fail:runs");
	strbuf_addstr(out, "\n           |    ");
	for (i = 1; i < n; i++)
		strbuf_addstr(out, "         |             |    ");
	strbuf_addch(out, '\n');
}

void table_perf_header(struct strbuf *out, size_t n)
{
	size_t i;

	strbuf_addstr(out, "         %stddev");
	for (i = 1; i < n; i++)
		strbuf_addstr(out, "     %change         %stddev");
	strbuf_addstr(out, "\n             \\  ");
	for (i = 1; i < n; i++)
		strbuf_addstr(out, "        |                \\  ");
	strbuf_addch(out, '\n');
}

/* printf("%<width>s ", s[0...width]): right-aligned, cut to the width. */
static void add_cut(struct strbuf *out, const char *s, int width)
{
	strbuf_addf(out, "%*.*s ", width, width, s);
}

void table_group_header(struct strbuf *out, const struct table_style *st,
			const struct table_header *h)
{
	size_t i;

	strbuf_addchars(out, '=', 89);
	strbuf_addch(out, '\n');
	for (i = 0; i < h->naxes; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", h->axis_keys[i]);
	strbuf_addstr(out, ":\n  ");
	for (i = 0; i < h->naxes; i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", h->axis_values[i]);
	strbuf_addstr(out, "\n\ncommit: \n");
	for (i = 0; i < h->n; i++)
		strbuf_addf(out, "  %s\n", h->commit_lines[i]);
	strbuf_addch(out, '\n');
	for (i = 0; i < h->n; i++)
		add_cut(out, h->commit_ids[i], i ? st->col_width : FIRST_WIDTH);
	strbuf_addch(out, '\n');
	for (i = 0; i < h->n; i++) {
		strbuf_addchars(out, '-',
				i ? (size_t)st->col_width : FIRST_WIDTH);
		strbuf_addch(out, ' ');
	}
	strbuf_addch(out, '\n');
}

double table_change(const struct table_style *st, double avg0, double avg,
		    int absolute)
{
	if (absolute)
		return avg - avg0;
	/*
	 * lkp-tests' arithmetic, whatever it gives: before tiny_zero_base a
	 * 0 base makes a change +Inf% and a 0 to 0 one 0.0 / 0, "+NaN%";
	 * after, 0 to 0 is -100.0% (0 against 1e-100).  Overflow is refused
	 * by the comparison (compare.c check_row), and the headline does not
	 * take a NaN (compose.c kpi_change).
	 */
	if (avg0 == 0 && st->tiny_zero_base)
		avg0 = 1e-100;
	return 100.0 * (avg - avg0) / avg0;
}

double table_fail_change(const double *fails, const size_t *runs, size_t i)
{
	double reproduce0 = fails[0] / (double)runs[0];

	/* lkp-tests divides by runs[i - 1], not runs[i]: keep the bug. */
	return 100 * (fails[i] / (double)runs[i - 1] - reproduce0);
}

int table_abs_change(const struct table_style *st, const char *name)
{
	size_t len = strlen(name);

	if (!st->abs_changes)
		return 0;
	return !strncmp(name, "perf-profile", 12) ||
	       (len && name[len - 1] == '%');
}
