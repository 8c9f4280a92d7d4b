// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-plot.c: `robot plot`, one ASCII bisect plot from two sample files.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/engine/plot.h"

#include <getopt.h>
#include <math.h>

static const char usage_text[] =
	"usage: robot plot [--gnuplot VERSION] --title TITLE GOOD.txt BAD.txt\n"
	"   or: robot plot [--gnuplot VERSION] --title TITLE --no-bad GOOD.txt\n"
	"   or: robot plot [--gnuplot VERSION] --title TITLE --no-good BAD.txt\n"
	"\n"
	"Prints the ASCII plot of a 0-day bisection as gnuplot's dumb terminal\n"
	"draws it for the lkp-tests script: the bisect-good samples (GOOD.txt)\n"
	"as a dotted line, the bisect-bad samples (BAD.txt) as 'O', each at x =\n"
	"its index.  The files hold one number per line; blank lines are\n"
	"skipped.  The output is gnuplot's: a form feed, 20 rows of 80 columns,\n"
	"no newline after the last row.\n"
	"\n"
	"  --gnuplot VERSION  4.6, 5.0, 5.2 or 5.4; 4 is 4.6 (the 2016 look:\n"
	"                     '++' tics, '*' points, trimmed rows), 5 is 5.4\n"
	"                     (default)\n"
	"  --title TITLE      the plot's title, one line (lkp-tests passes the\n"
	"                     stat's name)\n"
	"  --no-bad           the bisect-bad side lacks the stat: the good\n"
	"                     samples are drawn alone (lkp-tests leaves out the\n"
	"                     data set of a matrix without the stat)\n"
	"  --no-good          the bisect-good side lacks the stat: the bad\n"
	"                     samples are drawn alone\n"
	"  -h, --help         this help\n";

/* A decimal number as LKP writes one: [+-]digits[.digits][e[+-]digits]. */
static int decimal(const char *s, size_t len)
{
	size_t i = 0, digits = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && '0' <= s[i] && s[i] <= '9'; i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && '0' <= s[i] && s[i] <= '9'; i++)
			digits++;
	if (!digits)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = 0;

		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (; i < len && '0' <= s[i] && s[i] <= '9'; i++)
			e++;
		if (!e)
			return 0;
	}
	return i == len;
}

/* A line for an error message: at most 40 bytes, '?' for unprintable ones. */
static char *shown(const char *s, size_t len)
{
	char *out = xstrndup(s, len > 40 ? 40 : len), *p;
	size_t i;

	for (i = 0, p = out; i < (len > 40 ? 40 : len); i++, p++)
		if ((unsigned char)s[i] < ' ' || (unsigned char)s[i] >= 0x7f)
			*p = '?';
		else
			*p = s[i];
	*p = '\0';
	return out;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Reads one number per line.  Returns 0, or -1 after one error line that
 * names the file (and the line).
 */
static int read_samples(const char *path, double **out, size_t *n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t at = 0, alloc = 0, lineno = 0;
	double *v = NULL;
	int ret = 0;

	*n = 0;
	if (strbuf_read_file(&sb, path) < 0)
		return error_errno("cannot read '%s'", path);
	while (!ret && at < sb.len) {
		const char *line = sb.buf + at, *nl;
		size_t len, b = 0;
		char *num, *end;
		double d;

		nl = memchr(line, '\n', sb.len - at);
		len = nl ? (size_t)(nl - line) : sb.len - at;
		at += len + 1;
		lineno++;
		while (b < len && is_blank(line[b]))
			b++;
		while (len > b && is_blank(line[len - 1]))
			len--;
		if (b == len)
			continue;
		if (!decimal(line + b, len - b)) {
			num = shown(line + b, len - b);
			ret = error("%s:%zu: '%s' is not a number", path,
				    lineno, num);
			free(num);
			continue;
		}
		num = xstrndup(line + b, len - b);
		d = strtod(num, &end);
		if (!isfinite(d) || fabs(d) > PLOT_VALUE_MAX) {
			ret = error("%s:%zu: '%.40s' is out of range (at most "
				    "%g in magnitude)",
				    path, lineno, num, PLOT_VALUE_MAX);
		} else {
			ALLOC_GROW(v, *n + 1, alloc);
			v[(*n)++] = d;
		}
		free(num);
	}
	if (!ret && !*n)
		ret = error("%s: no samples (want one number per line)", path);
	strbuf_release(&sb);
	if (ret) {
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "gnuplot", required_argument, NULL, 'g' },
	{ "title", required_argument, NULL, 't' },
	{ "no-bad", no_argument, NULL, 'B' },
	{ "no-good", no_argument, NULL, 'G' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options plot_options = { ":h", longopts };

int cmd_plot(int argc, char **argv)
{
	enum plot_gnuplot v = PLOT_GNUPLOT_54;
	const char *title = NULL, *p;
	double *good = NULL, *bad = NULL;
	size_t ngood = 0, nbad = 0;
	struct strbuf out = STRBUF_INIT;
	int c, ret, no_good = 0, no_bad = 0, nfiles;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, plot_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'g':
			if (plot_gnuplot_parse(optarg, &v))
				return usage_error("plot",
						   "--gnuplot: unknown version "
						   "'%s' (want 4.6, 5.0, 5.2, "
						   "5.4, 4 or 5)",
						   optarg);
			break;
		case 't':
			title = optarg;
			break;
		case 'B':
			no_bad = 1;
			break;
		case 'G':
			no_good = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return usage_option_error("plot", c, argv);
		}
	}
	if (!title)
		return usage_error("plot", "--title is required");
	if (!*title)
		return usage_error("plot", "--title is empty");
	for (p = title; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			return usage_error("plot",
					   "--title has a control character");
	if (no_good && no_bad)
		return usage_error("plot", "--no-good and --no-bad leave "
					   "nothing to plot");
	nfiles = 2 - no_good - no_bad;
	if (argc - optind != nfiles) {
		const char *want = nfiles == 2 ? "two files, GOOD.txt BAD.txt"
				   : no_bad    ? "one file, GOOD.txt"
					       : "one file, BAD.txt";

		return usage_error("plot", "want %s", want);
	}
	if ((!no_good && read_samples(argv[optind], &good, &ngood)) ||
	    (!no_bad && read_samples(argv[argc - 1], &bad, &nbad))) {
		free(good);
		return EXIT_DATAERR;
	}
	ret = plot_draw(&out, title, good, ngood, bad, nbad, v);
	if (!ret)
		fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	free(good);
	free(bad);
	return ret ? EXIT_DATAERR : EXIT_OK;
}
