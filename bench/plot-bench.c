// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/plot-bench.c: draws every plot of a case file through robot's plot
 * module in one process (bench/plot.sh builds and runs it).
 *
 * usage: plot-bench VERSION CASES > OUT
 *
 * CASES holds three lines per plot: the title, the good samples and the
 * bad samples (blank-separated).  Writes every plot to stdout, as robot
 * plot would, and the time spent drawing (after parsing) to stderr.
 */
#include "robot/util/common.h"
#include "robot/engine/plot.h"

#include <time.h>

static double *numbers(char *line, size_t *n)
{
	double *v = NULL;
	size_t alloc = 0;
	char *p = line, *end;

	*n = 0;
	for (;;) {
		double d = strtod(p, &end);

		if (end == p)
			break;
		ALLOC_GROW(v, *n + 1, alloc);
		v[(*n)++] = d;
		p = end;
	}
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	enum plot_gnuplot v;
	char **lines = NULL, *p;
	size_t nlines = 0, alloc = 0, i, plots = 0, *ng, *nb;
	double t0, t1, **g, **b;

	if (argc != 3 || plot_gnuplot_parse(argv[1], &v) ||
	    strbuf_read_file(&in, argv[2]) < 0) {
		fprintf(stderr, "usage: plot-bench VERSION CASES\n");
		return 2;
	}
	for (p = in.buf; *p;) {
		char *nl = strchr(p, '\n');

		ALLOC_GROW(lines, nlines + 1, alloc);
		lines[nlines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	/* parse everything first: the timed loop only draws */
	g = xcalloc(nlines / 3 + 1, sizeof(*g));
	b = xcalloc(nlines / 3 + 1, sizeof(*b));
	ng = xcalloc(nlines / 3 + 1, sizeof(*ng));
	nb = xcalloc(nlines / 3 + 1, sizeof(*nb));
	for (i = 0; i + 2 < nlines; i += 3, plots++) {
		g[plots] = numbers(lines[i + 1], &ng[plots]);
		b[plots] = numbers(lines[i + 2], &nb[plots]);
	}
	strbuf_grow(&out, plots * 1700);
	t0 = now();
	for (i = 0; i < plots; i++)
		if (plot_draw(&out, lines[3 * i], g[i], ng[i], b[i], nb[i], v))
			return 1;
	t1 = now();
	for (i = 0; i < plots; i++) {
		free(g[i]);
		free(b[i]);
	}
	free(g);
	free(b);
	free(ng);
	free(nb);
	fwrite(out.buf, 1, out.len, stdout);
	fprintf(stderr, "%zu plots drawn in %.6f s\n", plots, t1 - t0);
	strbuf_release(&in);
	strbuf_release(&out);
	free(lines);
	return 0;
}
