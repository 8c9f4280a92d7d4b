// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot.c: the lkp-tests bisect plot, as gnuplot's dumb terminal drew it.
 *
 * The script (lib/plot.rb) is fixed: `set terminal dumb nofeed size 80,20`,
 * a title, `noxtics`, `ytics nomirror`, then the bad samples `with points
 * pt 15` and the good samples `with linespoints pt -22 lt 0`, each sample
 * at x = its index.  For that one script the whole of gnuplot reduces to
 * a few rules, written here from gnuplot's documented behaviour and
 * checked against its output byte for byte (tests/t2100-plot-gnuplot.sh
 * runs Debian's gnuplot 5.4 on hundreds of series; the corpus mails are
 * the evidence for the older releases):
 *
 *  - Canvas.  80x20 cells, y counted from the bottom row (0).  The plot box
 *    spans rows 2..16 (three rows above it for the title, two below where
 *    x tics would go) and columns xleft..76, where xleft is the widest y
 *    tic label plus two.
 *  - The y axis.  Autoscaled to the samples of both series; an empty range
 *    is widened by 1% of its value (by 1 at zero).  The tic step aims at
 *    20 tics: with r the range, p = 10^floor(log10 r) and n = 20 / (r/p)
 *    it is p times 0.05, 0.1, 0.2, 0.5, 1, 2 for n above 40, 20, 10, 4, 2,
 *    0.5, else ceil(r/p).  The range is then extended outwards to
 *    multiples of the step, and the tics run from the bottom to the top
 *    by repeated addition, with 1% of a step of slack at each end; a tic
 *    within 1% of a step of zero is labelled 0.  Labels are printf's
 *    "% g" (a blank where a minus would go).
 *  - The x axis has no tics, so it is not extended: 1 .. N, N the longer
 *    series' length (0.99 .. 1.01 for one sample).
 *  - Mapping: column = (int)(xleft + (x - xmin) * scale + 0.5), the same
 *    for rows; scale = box size / axis range.
 *  - Strokes.  A stroke from a to b along its longer axis: both ends '+',
 *    the cells between '-' or '|' for the border and '.' or ':' for the
 *    dotted line, the other coordinate rounded; a diagonal stroke is all
 *    '+'.  A tic is a stroke from the left border two cells inwards (one
 *    in 4.6).  A point of type 15 is 'O'; the good series' point type -22
 *    is '*' in 4.6 and not drawn from 5.0 on.
 *  - Text.  Tic labels end one cell left of the border, right-aligned; the
 *    title is centred on the box (its first cell is the box's middle minus
 *    half its length); text that would start off the canvas is dropped,
 *    text running past the right edge is pushed left.
 *  - Order: tics and labels, border, title, bad points, the good line,
 *    the border again (5.x draws it "in front"), and in 5.4 the title last.
 *
 * Where the releases differ (enum plot_gnuplot):
 *    4.6  cells have priorities (dotted line 1, border and tics 2, points
 *         4, text 5) and a later stroke only replaces a lower one, so
 *         tics show over the border ("++") and points over both; tics are
 *         one cell long; rows lose their trailing blanks.
 *    5.0  the same priorities, two-cell tics ("+-+"), 80 columns.
 *    5.2  no priorities: the last stroke wins, so the front border hides
 *         the points and line ends on it ("|-+").
 *    5.4  the title moves down one row, strokes round their minor
 *         coordinate with round() instead of adding 0.5 and truncating,
 *         and text may start in column 0 (older releases want x > 0).
 */
#include "robot/util/common.h"
#include "robot/engine/plot.h"

#include <math.h>

#define W PLOT_COLS
#define H PLOT_ROWS
/* gnuplot keeps one spare column and row; a cell x == W is (0, y + 1) */
#define CELLS ((W + 1) * (H + 1))

#define BOX_BOTTOM 2
#define BOX_TOP	   16
#define BOX_RIGHT  76
#define GUIDE	   20	/* the number of tics gnuplot aims for */
#define SIGNIF	   0.01 /* the slack at the ends of a tic series, in steps */
#define MAX_TICS   W	/* more tics than columns: gnuplot draws none */
#define LABEL_MAX  50	/* gnuplot's buffer for one label, with its NUL */

/* Cell priorities of 4.6 and 5.0 (none from 5.2 on). */
enum { PRIO_AXIS = 1, PRIO_BORDER = 2, PRIO_POINT = 4, PRIO_TEXT = 5 };

enum pen { PEN_AXIS, PEN_BORDER };

struct canvas {
	enum plot_gnuplot v;
	char cell[CELLS];
	unsigned char prio[CELLS];
	enum pen pen;
	int x, y; /* the pen's position */
};

static const struct {
	const char *name;
	enum plot_gnuplot v;
} versions[] = {
	{ "4", PLOT_GNUPLOT_46 },   { "4.6", PLOT_GNUPLOT_46 },
	{ "5.0", PLOT_GNUPLOT_50 }, { "5.2", PLOT_GNUPLOT_52 },
	{ "5", PLOT_GNUPLOT_54 },   { "5.4", PLOT_GNUPLOT_54 },
};

int plot_gnuplot_parse(const char *s, enum plot_gnuplot *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(versions); i++)
		if (!strcmp(versions[i].name, s)) {
			*v = versions[i].v;
			return 0;
		}
	return -1;
}

const char *plot_gnuplot_name(enum plot_gnuplot v)
{
	switch (v) {
	case PLOT_GNUPLOT_46:
		return "4.6";
	case PLOT_GNUPLOT_50:
		return "5.0";
	case PLOT_GNUPLOT_52:
		return "5.2";
	case PLOT_GNUPLOT_54:
		return "5.4";
	}
	return "?";
}

static int has_prio(const struct canvas *c)
{
	return c->v <= PLOT_GNUPLOT_50;
}

static void pixel(struct canvas *c, int x, int y, char ch, int prio)
{
	size_t i;

	if ((unsigned)x > W || (unsigned)y > H)
		return;
	i = (size_t)W * (size_t)y + (size_t)x;
	if (has_prio(c)) {
		if (prio <= c->prio[i])
			return;
		c->prio[i] = (unsigned char)prio;
	}
	c->cell[i] = ch;
}

/* The minor coordinate of a stroke's inner cell. */
static int minor(const struct canvas *c, int d, int step, int len)
{
	double at = (double)d * step / len;

	if (c->v >= PLOT_GNUPLOT_54)
		return (int)round(at);
	return (int)(at + 0.5);
}

static int sign(int n)
{
	return n >= 0 ? 1 : -1;
}

static void move(struct canvas *c, int x, int y)
{
	c->x = x;
	c->y = y;
}

/* A stroke from the pen's position to (x, y). */
static void stroke(struct canvas *c, int x, int y)
{
	int border = c->pen == PEN_BORDER;
	int prio = border ? PRIO_BORDER : PRIO_AXIS;
	int dx = x - c->x, dy = y - c->y;
	int adx = abs(dx), ady = abs(dy), i;

	if (ady > adx) {
		pixel(c, c->x, c->y, '+', prio);
		for (i = 1; i < ady; i++)
			pixel(c, c->x + minor(c, dx, i, ady),
			      c->y + i * sign(dy), border ? '|' : ':', prio);
		pixel(c, x, y, '+', prio);
	} else if (adx > ady) {
		pixel(c, c->x, c->y, '+', prio);
		for (i = 1; i < adx; i++)
			pixel(c, c->x + i * sign(dx),
			      c->y + minor(c, dy, i, adx), border ? '-' : '.',
			      prio);
		pixel(c, x, y, '+', prio);
	} else {
		for (i = 0; i <= adx; i++)
			pixel(c, c->x + i * sign(dx), c->y + i * sign(dy), '+',
			      prio);
	}
	move(c, x, y);
}

/*
 * Text at (x, y), its first cell, as write_multiline() and the terminal's
 * put_text() place it.
 */
static void text(struct canvas *c, int x, int y, const char *s)
{
	int len = (int)strlen(s), i;
	int low = c->v >= PLOT_GNUPLOT_54 ? 0 : 1;

	if (x < low || x >= W || y < low || y >= H)
		return;
	if (x + len > W)
		x = W - len > 0 ? W - len : 0;
	switch (c->v) {
	case PLOT_GNUPLOT_46:
		for (i = 0; x < W && s[i]; i++, x++)
			pixel(c, x, y, s[i], PRIO_TEXT);
		break;
	case PLOT_GNUPLOT_50:
		/* every byte, past the row's end too, without a priority */
		for (i = 0; i < len && W * y + x < CELLS; i++, x++)
			c->cell[W * y + x] = s[i];
		break;
	default:
		for (i = 0; i < len && x < W; i++, x++)
			c->cell[W * y + x] = s[i];
		break;
	}
}

/* The tic step for an axis range (gnuplot's quantize_normal_tics). */
static double tic_step(double range)
{
	double power = pow(10.0, floor(log10(range)));
	double xnorm = range / power;
	double posns = GUIDE / xnorm;
	double tics;

	if (posns > 40)
		tics = 0.05;
	else if (posns > 20)
		tics = 0.1;
	else if (posns > 10)
		tics = 0.2;
	else if (posns > 4)
		tics = 0.5;
	else if (posns > 2)
		tics = 1;
	else if (posns > 0.5)
		tics = 2;
	else
		tics = ceil(xnorm);
	return tics * power;
}

struct tics {
	double at[MAX_TICS + 2];
	char label[MAX_TICS + 2][LABEL_MAX];
	size_t n;
	int widest;
	int precision; /* > 0: labels "%.Nf", else "% g" */
};

/*
 * The label format.  "% g" by default; but when the range does not
 * include zero and is small against its values, gnuplot switches to a
 * fixed number of decimals that tells the tics apart: N = ceil(-log10 d)
 * with d the range (4.6) or the smaller of the range and |min| (5.0 on),
 * when N > 4 (at most 14), and from 5.2 on only while N < 10.
 */
static int label_precision(enum plot_gnuplot v, double lo, double hi)
{
	double d = fabs(hi - lo), p;

	if (v >= PLOT_GNUPLOT_50 && fabs(lo) < d)
		d = fabs(lo);
	if (!(lo * hi > 0) || !(d > 0))
		return 0;
	p = ceil(-log10(d));
	if (v >= PLOT_GNUPLOT_52)
		return 4 < p && p < 10 ? (int)p : 0;
	return p > 4 ? (p > 14 ? 14 : (int)p) : 0;
}

static void add_tic(struct tics *t, double at, double value)
{
	char *label;
	int len;

	if (t->n >= ARRAY_SIZE(t->at))
		return;
	t->at[t->n] = at;
	label = t->label[t->n];
	if (t->precision)
		snprintf(label, LABEL_MAX, "%.*f", t->precision, value);
	else
		snprintf(label, LABEL_MAX, "% g", value);
	len = (int)strlen(label);
	if (len > t->widest)
		t->widest = len;
	t->n++;
}

/* The tics of the (extended) y range [lo, hi] with step `step`. */
static void make_tics(struct tics *t, enum plot_gnuplot v, double lo, double hi,
		      double step)
{
	double start = step * floor(lo / step);
	double end = step * ceil(hi / step);
	double imin = lo, imax = hi, tic, prev;
	int nsteps = 0, guard = 0;

	t->n = 0;
	t->widest = 0;
	t->precision = label_precision(v, lo, hi);
	end += SIGNIF * step;
	if (step < fabs(hi) + fabs(lo)) {
		imax = hi + step * SIGNIF;
		imin = lo - step * SIGNIF;
	}
	if (step == 0 || (imax - imin) / step > MAX_TICS)
		return;
	/* a step below the precision of the values: two tics, start and end */
	prev = start - step;
	for (tic = start; tic <= end; tic += step) {
		if (fabs(tic - prev) < step / 4.) {
			step = end - start;
			nsteps = 2;
			break;
		}
		prev = tic;
		nsteps++;
	}
	for (tic = start; guard++ <= MAX_TICS + 1; tic += step) {
		if (v >= PLOT_GNUPLOT_50 ? nsteps-- <= 0 : tic > end)
			break;
		if (tic > imax)
			break;
		if (tic >= imin)
			add_tic(t, tic, fabs(tic) < step * SIGNIF ? 0.0 : tic);
	}
}

struct axis {
	double min, max, scale;
	int lower;
};

static int map(const struct axis *a, double value)
{
	return (int)(a->lower + (value - a->min) * a->scale + 0.5);
}

/* An autoscaled range that is empty: widened as gnuplot does. */
static void widen(double *min, double *max)
{
	double by;

	if (*max - *min != 0.0)
		return;
	by = *max == 0.0 ? 1.0 : 0.01 * fabs(*max);
	*min -= by;
	*max += by;
}

static void border(struct canvas *c, int xleft)
{
	c->pen = PEN_BORDER;
	move(c, xleft, BOX_TOP);
	stroke(c, xleft, BOX_BOTTOM);
	stroke(c, BOX_RIGHT, BOX_BOTTOM);
	stroke(c, BOX_RIGHT, BOX_TOP);
	stroke(c, xleft, BOX_TOP);
}

static void title_text(struct canvas *c, int xleft, const char *title)
{
	int y = c->v >= PLOT_GNUPLOT_54 ? BOX_TOP + 1 : BOX_TOP + 2;

	text(c, (xleft + BOX_RIGHT) / 2 - (int)strlen(title) / 2, y, title);
}

static int check_series(const char *what, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]) || fabs(v[i]) > PLOT_VALUE_MAX)
			return error("plot: %s sample %zu is %g, not a finite "
				     "number within +-%g",
				     what, i + 1, v[i], PLOT_VALUE_MAX);
	return 0;
}

static void render(struct strbuf *out, struct canvas *c)
{
	int y, end;

	strbuf_grow(out, (size_t)(W + 1) * H + 1);
	strbuf_addch(out, '\f');
	for (y = H - 1; y >= 0; y--) {
		const char *row = c->cell + (size_t)W * (size_t)y;

		end = W;
		if (c->v == PLOT_GNUPLOT_46)
			while (end > 0 && row[end - 1] == ' ')
				end--;
		strbuf_add(out, row, (size_t)end);
		if (y > 0)
			strbuf_addch(out, '\n');
	}
}

/* A title of visible text, and at least one series of finite samples. */
static int check_input(const char *title, const double *good, size_t ngood,
		       const double *bad, size_t nbad)
{
	const char *p;

	if (!*title)
		return error("plot: the title is empty");
	for (p = title; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			return error("plot: the title has a control character");
	if (!ngood && !nbad)
		return error("plot: both series are empty");
	if (check_series("good", good, ngood) || check_series("bad", bad, nbad))
		return -1;
	return 0;
}

/* The y axis: autoscaled, widened, extended to whole tic steps. */
static void y_axis(struct axis *ay, struct tics *t, enum plot_gnuplot v,
		   const double *good, size_t ngood, const double *bad,
		   size_t nbad)
{
	double step;
	size_t i;

	ay->min = ay->max = ngood ? good[0] : bad[0];
	for (i = 0; i < ngood; i++) {
		ay->min = good[i] < ay->min ? good[i] : ay->min;
		ay->max = good[i] > ay->max ? good[i] : ay->max;
	}
	for (i = 0; i < nbad; i++) {
		ay->min = bad[i] < ay->min ? bad[i] : ay->min;
		ay->max = bad[i] > ay->max ? bad[i] : ay->max;
	}
	widen(&ay->min, &ay->max);
	step = tic_step(fabs(ay->min - ay->max));
	ay->min = step * floor(ay->min / step);
	ay->max = step * ceil(ay->max / step);
	make_tics(t, v, ay->min, ay->max, step);
}

/* The bad samples, then the good ones (points, a line, and 4.6's stars). */
static void draw_samples(struct canvas *c, const struct axis *ax,
			 const struct axis *ay, const double *good,
			 size_t ngood, const double *bad, size_t nbad)
{
	size_t i;

	for (i = 0; i < nbad; i++)
		pixel(c, map(ax, (double)(i + 1)), map(ay, bad[i]), 'O',
		      PRIO_POINT);
	c->pen = PEN_AXIS;
	for (i = 0; i < ngood; i++) {
		int x = map(ax, (double)(i + 1)), y = map(ay, good[i]);

		if (!i)
			move(c, x, y);
		stroke(c, x, y);
	}
	if (c->v == PLOT_GNUPLOT_46)
		for (i = 0; i < ngood; i++)
			pixel(c, map(ax, (double)(i + 1)), map(ay, good[i]),
			      '*', PRIO_POINT);
}

int plot_draw(struct strbuf *out, const char *title, const double *good,
	      size_t ngood, const double *bad, size_t nbad, enum plot_gnuplot v)
{
	struct canvas *c;
	struct tics *t;
	struct axis ax, ay;
	size_t i, n = ngood > nbad ? ngood : nbad;
	int xleft, ticlen = v == PLOT_GNUPLOT_46 ? 1 : 2;

	if (check_input(title, good, ngood, bad, nbad))
		return -1;

	c = xcalloc(1, sizeof(*c));
	t = xcalloc(1, sizeof(*t));
	c->v = v;
	memset(c->cell, ' ', sizeof(c->cell));

	y_axis(&ay, t, v, good, ngood, bad, nbad);

	/* the x axis: the sample indexes, not extended */
	ax.min = 1;
	ax.max = (double)n;
	widen(&ax.min, &ax.max);

	xleft = t->widest + 2;
	ax.lower = xleft;
	ax.scale = (BOX_RIGHT - xleft) / (ax.max - ax.min);
	ay.lower = BOX_BOTTOM;
	ay.scale = (BOX_TOP - BOX_BOTTOM) / (ay.max - ay.min);

	/* tics and their labels */
	for (i = 0; i < t->n; i++) {
		int y = map(&ay, t->at[i]);

		c->pen = PEN_BORDER;
		move(c, xleft, y);
		stroke(c, xleft + ticlen, y);
		text(c, xleft - 1 - (int)strlen(t->label[i]), y, t->label[i]);
	}
	border(c, xleft);
	if (v < PLOT_GNUPLOT_54)
		title_text(c, xleft, title);

	draw_samples(c, &ax, &ay, good, ngood, bad, nbad);

	border(c, xleft);
	if (v >= PLOT_GNUPLOT_54)
		title_text(c, xleft, title);
	render(out, c);
	free(t);
	free(c);
	return 0;
}

char *plot_title(const char *stat)
{
	char *s = xstrdup(stat), *p;

	for (p = s; *p; p++)
		if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') ||
		      ('0' <= *p && *p <= '9') || strchr("_.:+=-", *p)))
			*p = '_';
	return s;
}
