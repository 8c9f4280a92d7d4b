// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-rubyfmt.c: rubyfmt() against Ruby's own sprintf output, recorded by
 * tests/tools/make-ruby-printf in tests/data/ruby-printf.txt.  One check
 * per format; the test also counts how many lines plain glibc printf gets
 * wrong, so it shows the file really tells the two apart.
 */
#include "robot/util/common.h"
#include "robot/engine/rubyfmt.h"
#include "tests/unit/check.h"

/* The reference formats come from the data file. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define NFMT 8

struct fmt_stat {
	char fmt[16];
	int total, bad, glibc_bad;
};

static struct fmt_stat *stat_for(struct fmt_stat *st, int *n, const char *f)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(st[i].fmt, f))
			return &st[i];
	if (*n == NFMT)
		return NULL;
	snprintf(st[*n].fmt, sizeof(st[*n].fmt), "%s", f);
	return &st[(*n)++];
}

/* "%+10.1f" -> flags "+", width 10, prec 1, conv 'f' */
static int parse_fmt(const char *f, char *flags, int *width, int *prec,
		     char *conv)
{
	const char *p = f + 1;
	char *end;

	flags[0] = '\0';
	if (*p == '+') {
		flags[0] = '+';
		flags[1] = '\0';
		p++;
	}
	*width = (int)strtol(p, &end, 10);
	if (*end != '.')
		return -1;
	*prec = (int)strtol(end + 1, &end, 10);
	*conv = *end;
	return (*conv == 'f' || *conv == 'g') && !end[1] ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP");
	char *path = argc > 1 ? xstrdup(argv[1])
			      : xasprintf("%s/tests/data/ruby-printf.txt",
					  top ? top : ".");
	struct fmt_stat st[NFMT] = { 0 };
	struct strbuf got = STRBUF_INIT, glibc = STRBUF_INIT;
	char line[256];
	int nst = 0, i, shown = 0, lines = 0;
	FILE *f = fopen(path, "r");

	CHECK(f != NULL, "open %s", path);
	while (f && fgets(line, sizeof(line), f)) {
		char fmt[16], hex[64], flags[2], conv, *want, *bar;
		int width, prec;
		struct fmt_stat *s;
		double v;

		want = strchr(line, '|');
		bar = want ? strrchr(line, '|') : NULL;
		if (!want || bar == want ||
		    sscanf(line, "%15s %63s", fmt, hex) != 2 ||
		    parse_fmt(fmt, flags, &width, &prec, &conv) ||
		    !(s = stat_for(st, &nst, fmt))) {
			CHECK(0, "malformed line: %s", line);
			break;
		}
		*bar = '\0';
		want++;
		v = strtod(hex, NULL);
		strbuf_reset(&got);
		rubyfmt(&got, flags, width, prec, conv, v);
		strbuf_reset(&glibc);
		strbuf_addf(&glibc, fmt, v);
		s->total++;
		lines++;
		if (strcmp(glibc.buf, want))
			s->glibc_bad++;
		if (strcmp(got.buf, want)) {
			s->bad++;
			if (shown++ < 10)
				printf("# %s of %s (%.17g): got '%s', Ruby '%s'\n",
				       fmt, hex, v, got.buf, want);
		}
	}
	if (f)
		fclose(f);
	CHECK(lines > 1000, "the reference file has %d lines", lines);
	for (i = 0; i < nst; i++)
		CHECK(st[i].bad == 0,
		      "%s: %d of %d values as Ruby prints them (glibc alone "
		      "misses %d)",
		      st[i].fmt, st[i].total - st[i].bad, st[i].total,
		      st[i].glibc_bad);
	{
		int glibc_total = 0;

		for (i = 0; i < nst; i++)
			glibc_total += st[i].glibc_bad;
		CHECK(glibc_total > 0,
		      "the file tells Ruby from glibc (%d lines differ)",
		      glibc_total);
	}
	strbuf_release(&got);
	strbuf_release(&glibc);
	free(path);
	return check_done();
}
