/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h: the ASCII bisect plot of a 0-day report, drawn natively.
 *
 * The 0-day robot piped one script per plotted stat into gnuplot's dumb
 * terminal (lkp-tests, lib/plot.rb): an 80x20 canvas, the stat's name as
 * the title, no x tics, y tics on the left only, the bisect-bad samples as
 * points `O` and the bisect-good samples as a dotted line, each sample at
 * x = its index.  plot_draw() writes the bytes gnuplot wrote for that
 * script, for the gnuplot versions the robot ran (doc/plot.md has the
 * rules and the differences between the versions).
 */
#ifndef ROBOT_PLOT_H
#define ROBOT_PLOT_H

#include <stddef.h>

struct strbuf;

/* The gnuplot releases whose output robot reproduces. */
enum plot_gnuplot {
	PLOT_GNUPLOT_46, /* 4.6 (2016): "++" tics, '*' points, trimmed rows */
	PLOT_GNUPLOT_50, /* 5.0 (2019): points drawn over the border */
	PLOT_GNUPLOT_52, /* 5.2 (2020-2021): the border in front */
	PLOT_GNUPLOT_54, /* 5.4: the title one row lower, rounded lines */
};

/*
 * "4.6", "5.0", "5.2", "5.4"; "4" is 4.6 and "5" is 5.4.  Returns 0, or -1
 * (quietly) for anything else.
 */
int plot_gnuplot_parse(const char *s, enum plot_gnuplot *v);
const char *plot_gnuplot_name(enum plot_gnuplot v);

/* The largest magnitude of a sample robot plots (ranges stay finite). */
#define PLOT_VALUE_MAX 1e150

/* Canvas of the lkp-tests script: `set terminal dumb size 80,20`. */
#define PLOT_COLS 80
#define PLOT_ROWS 20

/*
 * Appends what gnuplot `v` prints for the lkp-tests script with these
 * series: a form feed, then the 20 rows joined by newlines, without a
 * newline after the last (`nofeed`); every row has 80 columns, except in
 * 4.6, which trims trailing blanks.  A series without samples is absent
 * from the plot (lkp-tests' mmplot leaves out the data set of a matrix
 * that lacks the stat), so the other one is drawn alone; at least one
 * series needs a sample.  Each sample is finite and within
 * PLOT_VALUE_MAX; the title is one line of
 * printable characters, drawn byte by byte.  Returns 0, or -1 after
 * error() when the input breaks those rules.
 */
int plot_draw(struct strbuf *out, const char *title, const double *good,
	      size_t ngood, const double *bad, size_t nbad,
	      enum plot_gnuplot v);

/*
 * lkp-tests' title for a stat: every byte outside [A-Za-z0-9_.:+=-]
 * becomes '_' ("fio.read_clat_90%_us" -> "fio.read_clat_90__us").
 * The caller frees the result.
 */
char *plot_title(const char *stat);

#endif
