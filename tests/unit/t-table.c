// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-table.c: the comparison table, checked against rows of real reports.
 *
 * Most checks are data.  tests/data/table-vectors.txt holds the rows of
 * doc/format.md §6 and rows that tell readings of a rule
 * apart, each with the raw per-run samples behind it (solved for and
 * verified by tests/tools/make-table-vectors).  For each vector this test
 * runs the pipeline compare.c runs: stats_mean and stats_stddev (or
 * stats_sum for a fail:runs row) per commit, table_change (or
 * table_fail_change) against the base, then table_row(), and wants the
 * row byte for byte.  The rest checks the headers against seeds 001 and
 * 002 and the Ruby semantics of the statistics directly.
 *
 *   t-table [VECTORS]    default: $TOP/tests/data/table-vectors.txt
 */
#include "robot/util/common.h"
#include "robot/engine/stats.h"
#include "robot/engine/table.h"
#include "tests/unit/check.h"

#include <math.h>

struct commit {
	int missing;
	size_t nr, alloc, int_alloc;
	double *v;
	unsigned char *is_int;
};

struct vector {
	char *label, *name;
	struct table_style st;
	int have_style, have_kind, fail;
	size_t nr, alloc; /* commits */
	struct commit *c;
	size_t nruns, runs_alloc;
	size_t *runs;
};

static void vector_release(struct vector *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		free(v->c[i].v);
		free(v->c[i].is_int);
	}
	free(v->c);
	free(v->runs);
	free(v->label);
	free(v->name);
	memset(v, 0, sizeof(*v));
}

/* A sample without '.', 'e' or 'E' is an integer, as in lkp's JSON. */
static int parse_sample(const char *tok, size_t len, double *val, int *is_int)
{
	char *s = xstrndup(tok, len), *end;
	int ret = 0;

	*is_int = !strpbrk(s, ".eE");
	errno = 0;
	if (*is_int)
		*val = (double)strtoll(s, &end, 10);
	else
		*val = strtod(s, &end);
	if (!len || *end || errno)
		ret = -1;
	free(s);
	return ret;
}

static int parse_commit(struct vector *v, const char *s)
{
	struct commit *c;

	ALLOC_GROW(v->c, v->nr + 1, v->alloc);
	c = &v->c[v->nr++];
	memset(c, 0, sizeof(*c));
	if (!strcmp(s, "-")) {
		c->missing = 1;
		return 0;
	}
	while (*s) {
		size_t len = strcspn(s, " ");
		double val;
		int is_int;

		if (parse_sample(s, len, &val, &is_int) < 0)
			return -1;
		ALLOC_GROW(c->v, c->nr + 1, c->alloc);
		ALLOC_GROW(c->is_int, c->nr + 1, c->int_alloc);
		c->v[c->nr] = val;
		c->is_int[c->nr++] = is_int;
		s += len;
		if (*s == ' ' && *++s == '\0')
			return -1;
	}
	return c->nr ? 0 : -1;
}

static int parse_style(struct table_style *st, const char *s)
{
	int n = -1;

	if (sscanf(s,
		   "stddev_always=%d abs_changes=%d tiny_zero_base=%d "
		   "col_width=%d%n",
		   &st->stddev_always, &st->abs_changes, &st->tiny_zero_base,
		   &st->col_width, &n) != 4 ||
	    n < 0 || s[n])
		return -1;
	return 0;
}

static int parse_runs(struct vector *v, const char *s)
{
	char *end;
	unsigned long long r;

	errno = 0;
	r = strtoull(s, &end, 10);
	if (!*s || *end || errno || !r)
		return -1;
	ALLOC_GROW(v->runs, v->nruns + 1, v->runs_alloc);
	v->runs[v->nruns++] = (size_t)r;
	return 0;
}

/* Computes the row of one vector as compare.c will and checks it. */
static void check_vector(const struct vector *v, const char *expect)
{
	struct strbuf out = STRBUF_INIT;
	struct table_row row = { 0 };
	size_t i, n = v->nr;
	double *avg = xcalloc(n, sizeof(*avg));
	double *sd = xcalloc(n, sizeof(*sd));
	double *fails = xcalloc(n, sizeof(*fails));
	double *change = xcalloc(n, sizeof(*change));

	row.name = v->name;
	row.failure = v->fail;
	row.n = n;
	row.change = change;
	if (v->fail) {
		for (i = 0; i < n; i++) {
			const struct commit *c = &v->c[i];

			if (!c->missing)
				fails[i] = stats_sum(c->v, c->is_int, c->nr);
		}
		for (i = 1; i < n; i++)
			change[i - 1] = table_fail_change(fails, v->runs, i);
		row.fails = fails;
		row.runs = v->runs;
	} else {
		for (i = 0; i < n; i++) {
			const struct commit *c = &v->c[i];

			if (c->missing) {
				avg[i] = 0;
				sd[i] = -1;
				continue;
			}
			avg[i] = stats_mean(c->v, c->is_int, c->nr);
			sd[i] = c->nr >= 2 ? stats_stddev(c->v, c->nr, avg[i])
					   : -1;
		}
		row.abs_change = table_abs_change(&v->st, v->name);
		for (i = 1; i < n; i++)
			change[i - 1] = table_change(&v->st, avg[0], avg[i],
						     row.abs_change);
		row.avg = avg;
		row.sd = sd;
	}
	table_row(&out, &v->st, &row);
	if (out.len && out.buf[out.len - 1] == '\n')
		strbuf_setlen(&out, out.len - 1);
	else
		strbuf_addstr(&out, " [no newline]");
	CHECK_STREQ(out.buf, expect, "vector %s", v->label);
	strbuf_release(&out);
	free(avg);
	free(sd);
	free(fails);
	free(change);
}

/* Why a complete vector cannot be checked, or NULL. */
static const char *vector_error(const struct vector *v)
{
	if (!v->have_style || !v->have_kind || !v->name)
		return "style, kind or name missing";
	if (!v->nr)
		return "no commit";
	if (v->fail && v->nruns != v->nr)
		return "not one runs line per commit";
	if (!v->fail && v->nruns)
		return "runs in a perf vector";
	return NULL;
}

static int parse_line(struct vector *v, const char *key, const char *arg)
{
	if (!strcmp(key, "style")) {
		v->have_style = 1;
		return parse_style(&v->st, arg);
	}
	if (!strcmp(key, "kind")) {
		v->have_kind = 1;
		v->fail = !strcmp(arg, "fail");
		return v->fail || !strcmp(arg, "perf") ? 0 : -1;
	}
	if (!strcmp(key, "name")) {
		free(v->name);
		v->name = xstrdup(arg);
		return *arg ? 0 : -1;
	}
	if (!strcmp(key, "c"))
		return parse_commit(v, arg);
	if (!strcmp(key, "runs"))
		return parse_runs(v, arg);
	return -1;
}

/*
 * Reads the vectors file and checks each vector; returns how many §6
 * vectors (labels "6...") it held.
 */
static int check_vectors(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct vector v = { 0 };
	int lineno = 0, in_vector = 0, bad = 0, nr_sec6 = 0, nr = 0;
	char *line, *next;

	if (strbuf_read_file(&sb, path) < 0) {
		CHECK(0, "read %s: %s", path, strerror(errno));
		return 0;
	}
	for (line = sb.buf; line && *line; line = next) {
		char *arg;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		arg = strchr(line, ' ');
		if (arg)
			*arg++ = '\0';
		else
			arg = line + strlen(line);
		if (!strcmp(line, "vector")) {
			if (in_vector)
				CHECK(0, "%s:%d: vector %s has no expect line",
				      path, lineno, v.label);
			vector_release(&v);
			v.label = xstrdup(arg);
			in_vector = 1;
			bad = 0;
		} else if (!in_vector) {
			CHECK(0, "%s:%d: '%s' outside a vector", path, lineno,
			      line);
		} else if (!strcmp(line, "expect")) {
			const char *err = vector_error(&v);

			if (err && !bad)
				CHECK(0, "%s:%d: vector %s: %s", path, lineno,
				      v.label, err);
			else if (!bad)
				check_vector(&v, arg);
			nr++;
			if (v.label[0] == '6')
				nr_sec6++;
			in_vector = 0;
		} else if (!bad && parse_line(&v, line, arg) < 0) {
			CHECK(0, "%s:%d: vector %s: bad '%s' line", path,
			      lineno, v.label, line);
			bad = 1;
		}
	}
	if (in_vector)
		CHECK(0, "%s: vector %s has no expect line", path, v.label);
	vector_release(&v);
	strbuf_release(&sb);
	CHECK(nr > 0, "%s holds %d vectors", path, nr);
	return nr_sec6;
}

static const char *const seed001_keys[] = {
	"class",      "compiler", "cpufreq_governor", "disk",
	"fs",	      "kconfig",  "nr_threads",	      "rootfs",
	"tbox_group", "test",	  "testcase",	      "testtime",
};
static const char *const seed001_values[] = {
	"os",		"gcc-12",
	"performance",	"1HDD",
	"ext4",		"x86_64-rhel-8.3",
	"10%",		"debian-11.1-x86_64-20220510.cgz",
	"lkp-icl-2sp7", "lockofd",
	"stress-ng",	"60s",
};
static const char *const seed001_commits[] = {
	"68674f94ff (\"x86: don't use REP_GOOD or ERMS for small memory copies\")",
	"20f3337d35 (\"x86: don't use REP_GOOD or ERMS for small memory clearing\")",
	"v6.4-rc5",
};
static const char *const seed001_ids[] = {
	"68674f94ffc9dddc0123456789abcdef01234567",
	"20f3337d350c4e1b4ac66d731fd4e98565bf6cc0",
	"v6.4-rc5",
};

/* Seed 001, lines 54-65 (note the trailing blanks). */
#define SEED001_GROUP                                                          \
	"========================================================="            \
	"================================\n"                                   \
	"class/compiler/cpufreq_governor/disk/fs/kconfig/nr_threads/rootfs/"   \
	"tbox_group/test/testcase/testtime:\n"                                 \
	"  os/gcc-12/performance/1HDD/ext4/x86_64-rhel-8.3/10%/"               \
	"debian-11.1-x86_64-20220510.cgz/lkp-icl-2sp7/lockofd/stress-ng/60s\n" \
	"\n"                                                                   \
	"commit: \n"                                                           \
	"  68674f94ff (\"x86: don't use REP_GOOD or ERMS for small memory "    \
	"copies\")\n"                                                          \
	"  20f3337d35 (\"x86: don't use REP_GOOD or ERMS for small memory "    \
	"clearing\")\n"

static void check_headers(void)
{
	static const struct table_style st_new = { 0, 1, 1, 27 };
	struct table_header h = {
		ARRAY_SIZE(seed001_keys), seed001_keys, seed001_values, 2,
		seed001_commits,	  seed001_ids,
	};
	struct strbuf out = STRBUF_INIT;

	table_group_header(&out, &st_new, &h);
	table_perf_header(&out, 2);
	CHECK_STREQ(out.buf,
		    SEED001_GROUP
		    "\n"
		    "68674f94ffc9dddc 20f3337d350c4e1b4ac66d731fd \n"
		    "---------------- --------------------------- \n"
		    "         %stddev     %change         %stddev\n"
		    "             \\          |                \\  \n",
		    "seed 001 header, lines 54-65");

	strbuf_reset(&out);
	h.n = 3;
	table_group_header(&out, &st_new, &h);
	table_perf_header(&out, 3);
	CHECK_STREQ(out.buf,
		    SEED001_GROUP
		    "  v6.4-rc5\n"
		    "\n"
		    "68674f94ffc9dddc 20f3337d350c4e1b4ac66d731fd "
		    "                   v6.4-rc5 \n"
		    "---------------- --------------------------- "
		    "--------------------------- \n"
		    "         %stddev     %change         %stddev"
		    "     %change         %stddev\n"
		    "             \\          |                \\  "
		    "        |                \\  \n",
		    "seed 001 header with a third commit, a tag");

	strbuf_reset(&out);
	table_fail_header(&out, 2);
	CHECK_STREQ(out.buf,
		    "       fail:runs  %reproduction    fail:runs\n"
		    "           |             |             |    \n",
		    "fail:runs header, 2 commits");
	strbuf_reset(&out);
	table_fail_header(&out, 3);
	CHECK_STREQ(out.buf,
		    "       fail:runs  %reproduction    fail:runs"
		    "  %reproduction    fail:runs\n"
		    "           |             |             |    "
		    "         |             |    \n",
		    "fail:runs header, 3 commits");

	strbuf_release(&out);
}

/* seed 002's header, 2016: the axes' keys and values, 26 wide. */
static void check_headers_2016(void)
{
	static const struct table_style st_2016 = { 1, 0, 0, 26 };
	static const char *const keys_2016[] = {
		"cluster",    "compiler",   "cpufreq_governor", "ip",
		"kconfig",    "nr_threads", "rootfs",		"runtime",
		"tbox_group", "test",	    "testcase",
	};
	static const char *const values_2016[] = {
		"cs-localhost",
		"gcc-4.9",
		"performance",
		"ipv4",
		"x86_64-rhel",
		"200%",
		"debian-x86_64-2015-02-07.cgz",
		"300s",
		"ivb43",
		"SCTP_STREAM",
		"netperf",
	};
	static const char *const commits_2016[] = {
		"672573b753 (\"timer: Reduce the CPU index space to 256k\")",
		"99a544df06 (\"timer: Switch to a non cascading wheel\")",
	};
	static const char *const ids_2016[] = {
		"672573b753e951a6fedcba9876543210fedcba98",
		"99a544df069c325e161d4f5246586161d84e9e82",
	};
	struct table_header h = { 0 };
	struct strbuf out = STRBUF_INIT;

	h.naxes = ARRAY_SIZE(keys_2016);
	h.axis_keys = keys_2016;
	h.axis_values = values_2016;
	h.n = 2;
	h.commit_lines = commits_2016;
	h.commit_ids = ids_2016;
	table_group_header(&out, &st_2016, &h);
	CHECK_STREQ(
		out.buf,
		"========================================================="
		"================================\n"
		"cluster/compiler/cpufreq_governor/ip/kconfig/nr_threads/"
		"rootfs/runtime/tbox_group/test/testcase:\n"
		"  cs-localhost/gcc-4.9/performance/ipv4/x86_64-rhel/200%/"
		"debian-x86_64-2015-02-07.cgz/300s/ivb43/SCTP_STREAM/"
		"netperf\n"
		"\n"
		"commit: \n"
		"  672573b753 (\"timer: Reduce the CPU index space to "
		"256k\")\n"
		"  99a544df06 (\"timer: Switch to a non cascading wheel\")\n"
		"\n"
		"672573b753e951a6 99a544df069c325e161d4f5246 \n"
		"---------------- -------------------------- \n",
		"seed 002 header, 2016: 26 wide");
	strbuf_release(&out);
}

static void check_sums(void)
{
	static const double mixed[] = { 1, 2, 0.1, 0.2, 0.3 };
	static const unsigned char mixed_int[] = { 1, 1, 0, 0, 0 };
	static const double big[] = { 9007199254740992.0, 1, 1 };
	static const unsigned char big_int[] = { 1, 1, 1 };
	static const unsigned char big_int_real[] = { 1, 1, 0 };
	static const double four[] = { 1, 2, 3, 4 };
	static const unsigned char four_int[] = { 1, 1, 1, 1 };
	double tenth[10], v[3];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tenth); i++)
		tenth[i] = 0.1;
	CHECK(stats_sum(mixed, mixed_int, 5) == 3.6,
	      "sum [1, 2, 0.1, 0.2, 0.3] is 3.6");
	CHECK(stats_mean(mixed, mixed_int, 5) == 0.72,
	      "mean [1, 2, 0.1, 0.2, 0.3] is 0.72");
	CHECK(stats_sum(tenth, NULL, 10) == 1.0,
	      "ten 0.1 sum to 1.0 (Kahan-Babuska), not 0.9999999999999999");
	CHECK(stats_mean(tenth, NULL, 10) == 0.1, "mean of ten 0.1 is 0.1");
	CHECK(stats_sum(big, big_int, 3) == 9007199254740994.0,
	      "integers add exactly: 2^53 + 1 + 1 = 2^53 + 2");
	CHECK(stats_sum(big, big_int_real, 3) == 9007199254740992.0,
	      "[2^53, 1, 1.0]: the integer prefix 2^53 + 1 becomes the "
	      "Float 2^53 at the first real");
	CHECK(stats_sum(big, NULL, 3) == 9007199254740994.0,
	      "[2^53, 1.0, 1.0] compensated: 2^53 + 2");
	CHECK(stats_mean(four, four_int, 4) == 2.5,
	      "mean of Integers is a Float division: 2.5");

	v[0] = 1.0;
	v[1] = INFINITY;
	v[2] = 2.0;
	CHECK(isinf(stats_sum(v, NULL, 3)) && stats_sum(v, NULL, 3) > 0,
	      "sum [1.0, Inf, 2.0] is Inf");
	v[2] = -INFINITY;
	CHECK(isnan(stats_sum(v, NULL, 3)), "sum [1.0, Inf, -Inf] is NaN");
	v[1] = NAN;
	CHECK(isnan(stats_sum(v, NULL, 3)), "sum [1.0, NaN, -Inf] is NaN");
}

static void check_stddev(void)
{
	static const double two[] = { 98, 102 };
	static const double spike[] = { 0, 0, 0, 0, 0, 60 };
	static const double four[] = { 1, 2, 3, 4 };

	CHECK(stats_stddev(two, 2, 100) == 2.0,
	      "population stddev of [98, 102] is 2 (sample: 2.83)");
	CHECK(stats_stddev(four, 4, 2.5) == sqrt(1.25),
	      "population stddev of [1, 2, 3, 4] is sqrt(1.25)");
	CHECK(fabs(stats_stddev(spike, 6, 10) - sqrt(500)) < 1e-12,
	      "[0, 0, 0, 0, 0, 60]: 10 * sqrt(5), i.e. 223%%");
}

static void check_summary(const char *what, const double *v,
			  const unsigned char *is_int, size_t n,
			  size_t max_margin, size_t size, double min,
			  double median, double max)
{
	struct stat_summary s;

	stats_summarize(&s, v, is_int, n, max_margin);
	CHECK(s.size == size && (!size || (s.min == min && s.median == median &&
					   s.max == max)),
	      "summary %s: size %zu min %g median %g max %g", what, s.size,
	      s.min, s.median, s.max);
}

static void check_summaries(void)
{
	static const double six[] = { 5, 1, 4, 2, 6, 3 };
	static const double five[] = { 3, 1, 2, 5, 4 };
	static const double two[] = { 7, 3 };
	static const double holes[] = { -1, 4, -1, 2, 3 };
	static const double mixed[] = { 3.5, 2, 1.5 };
	static const unsigned char mixed_int[] = { 0, 1, 0 };
	double seq[100], dropped[32];
	struct stat_summary s;
	size_t i;

	check_summary("[5, 1, 4, 2, 6, 3]: median s[3]", six, NULL, 6, 3, 6, 1,
		      4, 6);
	check_summary("[3, 1, 2, 5, 4]", five, NULL, 5, 3, 5, 1, 3, 5);
	check_summary("[7, 3]: s[1], not the average", two, NULL, 2, 3, 2, 3, 7,
		      7);
	check_summary("[-1, 4, -1, 2, 3]: leading -1 dropped", holes, NULL, 5,
		      3, 3, 2, 3, 4);
	check_summary("empty", six, NULL, 0, 3, 0, 0, 0, 0);

	for (i = 0; i < 64; i++)
		seq[i] = (double)(63 - i);
	check_summary("0..63, margin 64 >> 5 = 2", seq, NULL, 64, 3, 60, 2, 32,
		      61);
	check_summary("0..63, max_margin 1", seq, NULL, 64, 1, 62, 1, 32, 62);
	check_summary("0..63, max_margin 0", seq, NULL, 64, 0, 64, 0, 32, 63);
	for (i = 0; i < 100; i++)
		seq[i] = (double)((i * 37) % 100);
	check_summary("100 values, margin 3", seq, NULL, 100, 3, 94, 3, 50, 96);

	for (i = 0; i < 30; i++)
		dropped[i] = -1;
	dropped[30] = 6;
	dropped[31] = 5;
	check_summary("30 x -1, 5, 6: the margin counts the -1s, nothing left",
		      dropped, NULL, 32, 3, 0, 0, 0, 0);

	stats_summarize(&s, mixed, mixed_int, 3, 3);
	CHECK(s.median == 2 && s.median_is_int,
	      "summary [3.5, 2, 1.5]: the median 2 is an Integer");
	stats_summarize(&s, mixed, NULL, 3, 3);
	CHECK(s.median == 2 && !s.median_is_int,
	      "summary [3.5, 2.0, 1.5]: the median 2.0 is a Float");
}

static void check_rules(void)
{
	static const struct table_style st_2016 = { 1, 0, 0, 26 };
	static const struct table_style st_2017 = { 0, 1, 0, 26 };
	static const struct table_style st_new = { 0, 1, 1, 27 };
	static const double fails[] = { 2, 3, 9 };
	static const size_t runs[] = { 10, 20, 30 };
	double p;

	CHECK(table_abs_change(&st_new, "perf-profile.self.cycles-pp.x") &&
		      table_abs_change(&st_new, "mpstat.cpu.all.soft%") &&
		      !table_abs_change(&st_new, "turbostat.%Busy") &&
		      !table_abs_change(&st_2016, "perf-profile.self.x"),
	      "absolute changes: perf-profile* and a final %%, from 2017");
	p = table_change(&st_2017, 0, 1.5, 0);
	CHECK(isinf(p) && p > 0, "zero base before 2018-05: +Inf");
	p = table_change(&st_new, 0, 1.5, 0);
	CHECK(p == 100.0 * 1.5 / 1e-100, "zero base after 2018-05: 1e-100");
	CHECK(table_fail_change(fails, runs, 1) == 100 * (3 / 10.0 - 0.2) &&
		      table_fail_change(fails, runs, 2) ==
			      100 * (9 / 20.0 - 0.2),
	      "fail:runs change divides by runs[i - 1]");
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP");
	char *path;
	int nr_sec6;

	if (argc > 1)
		path = xstrdup(argv[1]);
	else if (top && *top)
		path = xasprintf("%s/tests/data/table-vectors.txt", top);
	else
		path = xstrdup("tests/data/table-vectors.txt");

	nr_sec6 = check_vectors(path);
	CHECK(nr_sec6 == 64,
	      "%d vectors of §6 (54 perf rows, 10 fail:runs rows)", nr_sec6);
	check_headers();
	check_headers_2016();
	check_sums();
	check_stddev();
	check_summaries();
	check_rules();
	free(path);
	return check_done();
}
