// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-results.c: unit tests for result_root_load() (robot/engine/results.c) and
 * the YAML loader under it (config/yaml.c).  Each test writes a small result
 * root into a scratch directory, loads it and checks the arrays; error
 * messages are captured from stderr and matched.
 */
#include "robot/util/common.h"
#include "robot/engine/results.h"
#include "config/yaml.h"
#include "tests/unit/check.h"

#include <fcntl.h>
#include <math.h>
#include <ftw.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

static char scratch[] = "/tmp/t-results.XXXXXX";
static int ncase;

/* ---- fixtures ---- */

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		die("cannot write '%s'", path);
}

static void write_gz(const char *path, const char *text)
{
	gzFile gz = gzopen(path, "wb");

	if (!gz || gzwrite(gz, text, (unsigned)strlen(text)) <= 0 ||
	    gzclose(gz) != Z_OK)
		die("cannot write '%s'", path);
}

/* Makes a new result root with runs 0..nruns-1, each holding `job`. */
static char *new_root(int nruns, const char *job)
{
	char *dir = xasprintf("%s/rt%d", scratch, ++ncase);
	int i;

	if (mkdir(dir, 0755) < 0)
		die("mkdir %s", dir);
	for (i = 0; i < nruns; i++) {
		char *run = xasprintf("%s/%d", dir, i);
		char *path = xasprintf("%s/job.yaml", run);

		if (mkdir(run, 0755) < 0)
			die("mkdir %s", run);
		write_file(path, job, strlen(job));
		free(path);
		free(run);
	}
	return dir;
}

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	write_file(path, text, strlen(text));
	free(path);
}

#define SRC3                                                  \
	"\"stats_source\": [\"/result/x/sha/0/stats.json\", " \
	"\"/result/x/sha/1/stats.json\", \"/result/x/sha/2/stats.json\"]"

static const char job_min[] = "testcase: t\n";

/* Runs fn(arg) with stderr sent to a file; returns what it printed. */
static char *capture(int (*fn)(void *), void *arg, int *ret)
{
	char *path = xasprintf("%s/stderr", scratch);
	struct strbuf sb = STRBUF_INIT;
	int fd, saved;

	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (saved < 0 || fd < 0 || dup2(fd, 2) < 0)
		die("cannot capture stderr");
	close(fd);
	*ret = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (strbuf_read_file(&sb, path) < 0)
		die("cannot read '%s'", path);
	free(path);
	return strbuf_detach(&sb, NULL);
}

static int load_fn(void *arg)
{
	struct result_root rt;
	int ret = result_root_load(&rt, arg);

	result_root_release(&rt);
	result_root_release(&rt); /* harmless twice */
	return ret;
}

/* Loads `dir`, expecting one error line that contains `want`. */
static void expect_fail(const char *dir, const char *want, const char *what)
{
	int ret;
	char *err = capture(load_fn, (void *)(uintptr_t)dir, &ret);
	char *nl = strchr(err, '\n');

	CHECK(ret == -1 && !strncmp(err, "robot: error: ", 14) && nl &&
		      !nl[1] && strstr(err, want),
	      "%s: fails with one line naming '%s'", what, want);
	if (ret != -1 || !strstr(err, want))
		printf("# got: %s", err);
	free(err);
}

/* ---- result roots ---- */

static void test_samples(void)
{
	char *dir = new_root(3, job_min);
	struct result_root rt;
	const struct rt_stat *st;

	put(dir, "matrix.json",
	    "{\"z.last\": [1, 2, 3],\n"
	    " \"a.real\": [1.5, 2, 3.0],\n"
	    " \"m.short\": [7],\n"
	    " \"m.empty\": [],\n"
	    " \"A.upper\": [-4, 1e3, 0],\n"
	    " \"last_state.is_incomplete_run\": [0, 1, 0],\n"
	    " " SRC3 "}\n");
	put(dir, "avg.json", "not even JSON");
	CHECK(!result_root_load(&rt, dir), "loads a plain matrix.json");
	CHECK(rt.nruns == 3 && rt.nstats == 6, "3 runs, 6 stats (got %zu %zu)",
	      rt.nruns, rt.nstats);
	CHECK_STREQ(rt.dir, dir, "keeps the directory");

	CHECK_STREQ(rt.stats[0].name, "z.last", "in file order: z.last first");
	CHECK_STREQ(rt.stats[1].name, "a.real", "in file order: a.real");
	CHECK_STREQ(rt.stats[2].name, "m.short", "in file order: m.short");
	CHECK_STREQ(rt.stats[3].name, "m.empty", "in file order: m.empty");
	CHECK_STREQ(rt.stats[4].name, "A.upper", "in file order: A.upper");
	CHECK_STREQ(rt.stats[5].name, "last_state.is_incomplete_run",
		    "in file order: last_state last");

	st = result_root_stat(&rt, "a.real");
	CHECK(st && st->val[0] == 1.5 && st->val[1] == 2 && st->val[2] == 3,
	      "real values");
	CHECK(st && !st->is_int[0] && st->is_int[1] && !st->is_int[2],
	      "1.5 and 3.0 are reals, 2 is an integer");
	st = result_root_stat(&rt, "A.upper");
	CHECK(st && st->val[0] == -4 && st->val[1] == 1000 && !st->is_int[1],
	      "negative integer; 1e3 is a real");
	st = result_root_stat(&rt, "z.last");
	CHECK(st && st->is_int[0] && st->is_int[1] && st->is_int[2] &&
		      st->val[2] == 3,
	      "integer values");
	st = result_root_stat(&rt, "m.short");
	CHECK(st && st->val[0] == 7 && st->val[1] == 0 && st->val[2] == 0 &&
		      st->is_int[1] && st->is_int[2],
	      "a short array is padded with integer 0");
	st = result_root_stat(&rt, "m.empty");
	CHECK(st && st->val[0] == 0 && st->val[2] == 0 && st->is_int[0],
	      "an empty array is all integer 0");
	CHECK(!result_root_stat(&rt, "stats_source"),
	      "stats_source is not a stat");
	CHECK(!result_root_stat(&rt, "m.") && !result_root_stat(&rt, "zz") &&
		      !result_root_stat(&rt, ""),
	      "lookup of absent names gives NULL");
	CHECK(result_root_stat(&rt, "last_state.is_incomplete_run") != NULL,
	      "the incomplete-run stat is kept");
	CHECK(rt.nincomplete == 1 && !rt.incomplete[0] && rt.incomplete[1] &&
		      !rt.incomplete[2],
	      "run 1 is incomplete");
	result_root_release(&rt);
	CHECK(!rt.stats && !rt.nstats && !rt.dir, "release resets");
	free(dir);
}

static void test_no_incomplete_stat(void)
{
	char *dir = new_root(3, job_min);
	struct result_root rt;

	put(dir, "matrix.json", "{\"a\": [1, 1, 1], " SRC3 "}");
	CHECK(!result_root_load(&rt, dir) && rt.nincomplete == 0 &&
		      rt.incomplete && !rt.incomplete[0] && !rt.incomplete[2],
	      "without last_state every run is complete");
	result_root_release(&rt);
	free(dir);
}

static void test_gz(void)
{
	char *dir = new_root(3, job_min);
	char *path = xasprintf("%s/matrix.json.gz", dir);
	struct result_root rt;
	const struct rt_stat *st;

	write_gz(path, "{\"b\": [1, 2.5], \"a\": [3, 4, 5], " SRC3 "}");
	CHECK(!result_root_load(&rt, dir), "loads matrix.json.gz");
	st = result_root_stat(&rt, "b");
	CHECK(rt.nstats == 2 && st && st->val[1] == 2.5 && !st->is_int[1] &&
		      st->is_int[0] && st->val[2] == 0,
	      "gz samples, padding and types");
	CHECK_STREQ(rt.stats[0].name, "b", "gz stats in file order");
	result_root_release(&rt);

	put(dir, "matrix.json", "{\"plain\": [1], " SRC3 "}");
	CHECK(!result_root_load(&rt, dir) && rt.nstats == 1 &&
		      result_root_stat(&rt, "plain"),
	      "matrix.json wins over matrix.json.gz");
	result_root_release(&rt);
	free(path);
	free(dir);
}

/*
 * Numbers: decimals that fit are converted without strtod(), everything
 * else with it; both must give strtod()'s (or strtoll()'s) bits.
 */
static const char *const zoo[] = {
	"0",
	"-0",
	"1",
	"-1",
	"42",
	"9007199254740993",
	"9223372036854775807",
	"-9223372036854775807",
	"0.0",
	"-0.0",
	"0.1",
	"2.5e-3",
	"1E+2",
	"1e22",
	"1e23",
	"1e-22",
	"123e-20",
	"3.14159",
	"0.30000000000000004",
	"9007199254740993.0",
	"123456789.123456789",
	"1.7976931348623157e308",
	"4.9e-324",
	"1e-400",
	"0.000001234",
	"100000000000000000000000.5",
	"12345678901234567890e-10",
	"-2019757.2",
	"99.96200000000002",
	"0.037",
	"-9223372036854775808",
	"123456789012345678",
	"1234567890123456789",
	"9007199254740992.5",
	"900719925474099.25",
	"4503599627370496.5",
	"0.0000000000000000000001",
	"0.00000000000000000000001",
	"0.1234567890123456789",
	"1.00000000000000011102230246251565404236316680908203125",
	"-0.000000000000000000000000000000000000000000001",
	"574552.13",
	"0.5e1",
};

static void test_numbers_exact(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = new_root(1, job_min);
	struct result_root rt;
	const struct rt_stat *a;
	size_t i, same = 0;

	strbuf_addstr(&sb, "{\"x\": [");
	for (i = 0; i < ARRAY_SIZE(zoo); i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", zoo[i]);
	strbuf_addstr(&sb, "],\n \"stats_source\": [\"/r/sha/0/stats.json\"");
	for (i = 1; i < ARRAY_SIZE(zoo); i++)
		strbuf_addstr(&sb, ", \"/r/sha/0/stats.json\"");
	strbuf_addstr(&sb, "]}\n");
	put(dir, "matrix.json", sb.buf);
	CHECK(!result_root_load(&rt, dir) && rt.nruns == ARRAY_SIZE(zoo),
	      "number zoo loads");
	a = result_root_stat(&rt, "x");
	for (i = 0; a && i < ARRAY_SIZE(zoo); i++) {
		int is_int = !strpbrk(zoo[i], ".eE");
		double want = is_int ? (double)strtoll(zoo[i], NULL, 10)
				     : strtod(zoo[i], NULL);

		if (!memcmp(&a->val[i], &want, sizeof(double)) &&
		    a->is_int[i] == is_int)
			same++;
		else
			printf("# %s: %.17g/%d, want %.17g/%d\n", zoo[i],
			       a->val[i], a->is_int[i], want, is_int);
	}
	CHECK(same == ARRAY_SIZE(zoo),
	      "every number has strtod()'s or strtoll()'s bits");
	CHECK(a && a->is_int[1] && !signbit(a->val[1]) && !a->is_int[9] &&
		      signbit(a->val[9]) && a->val[3] == -1 && a->is_int[6],
	      "-0 is integer +0, -0.0 is real -0");
	CHECK(a && a->val[10] == 0.1 && a->val[21] == 1.7976931348623157e308 &&
		      a->val[23] == 0,
	      "reals: 0.1, DBL_MAX, an underflow to 0");
	result_root_release(&rt);

	/* escapes in strings are decoded: \u0030 names run 0 */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "{\"x\": [1], \"stats_source\": "
			   "[\"/r/sha/\\u0030/stats.json\"]}");
	put(dir, "matrix.json", sb.buf);
	CHECK(!result_root_load(&rt, dir) && rt.nruns == 1,
	      "a \\u0030 escape in stats_source names run 0");
	result_root_release(&rt);
	strbuf_release(&sb);
	free(dir);
}

static void test_bad_matrices(void)
{
	static const struct {
		const char *json, *want, *what;
	} bad[] = {
		{ "{\"a\": [1, 2, 3, 4], " SRC3 "}", "'a' has 4 values",
		  "array longer than stats_source" },
		{ "{\"a\": [1, \"x\"], " SRC3 "}", "'a'[1] is not a number",
		  "non-numeric sample" },
		{ "{\"a\": [1, null], " SRC3 "}", "'a'[1] is not a number",
		  "null sample" },
		{ "{\"a\": 5, " SRC3 "}", "'a' is not an array",
		  "stat not an array" },
		{ "{\"a\": [1e400], " SRC3 "}",
		  "matrix.json:1:", "overflow to infinity" },
		{ "{\"a\": [NaN], " SRC3 "}", "invalid JSON", "NaN" },
		{ "{\"a\": [1],\n \"a\": [2], " SRC3 "}",
		  "matrix.json:2:", "duplicate JSON key" },
		{ "{\"a\": [1,\n\n   ]}", "matrix.json:3:4: invalid JSON",
		  "syntax error has line and column" },
		{ "{" SRC3 "}", "no stats", "no stats" },
		{ "{\"a\": [], \"stats_source\": []}", "is empty",
		  "empty stats_source" },
		{ "{\"a\": [1]}", "no \"stats_source\"", "no stats_source" },
		{ "{\"a\": [1], \"stats_source\": [1]}",
		  "stats_source[0] is not a string",
		  "stats_source of numbers" },
		{ "[1, 2]", "not a JSON object", "top level array" },
		{ "{\"a\": [1], \"stats_source\": [\"stats.json\"]}",
		  "names no run directory", "stats_source without directory" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char *dir = new_root(3, job_min);

		put(dir, "matrix.json", bad[i].json);
		expect_fail(dir, bad[i].want, bad[i].what);
		free(dir);
	}
}

static void test_bad_files(void)
{
	char *dir = new_root(3, job_min);
	char *path = xasprintf("%s/matrix.json.gz", dir);
	char *job = xasprintf("%s/2/job.yaml", dir);
	char *missing = xasprintf("%s/none", scratch);

	expect_fail(dir, "matrix.json' (nor matrix.json.gz)", "no matrix");
	put(dir, "matrix.json.gz", "{\"a\": [1], " SRC3 "}");
	expect_fail(dir, "matrix.json.gz' is not gzip data", "plain .gz");
	write_gz(path, "{\"a\": [1], " SRC3 "}");
	if (truncate(path, 20) < 0)
		die("truncate");
	expect_fail(dir, "matrix.json.gz': corrupt gzip data", "truncated .gz");
	unlink(path);
	put(dir, "matrix.json", "{\"a\": [1], " SRC3 "}");
	unlink(job);
	expect_fail(dir, "/2/job.yaml': No such file", "missing job.yaml");
	expect_fail(missing, "cannot open result root", "missing directory");
	free(missing);
	free(job);
	free(path);
	free(dir);
}

/* ---- job.yaml ---- */

static const char job_yaml[] = "suite: stress-ng\n"
			       "testcase: stress-ng\n"
			       "nr_threads: 10%\n"
			       "stress-ng:\n"
			       "  class: os\n"
			       "  test: lockofd\n"
			       "cpufreq_governor: performance\n"
			       "tags: [a, \"b c\", {k: v}, [x, y]]\n"
			       "monitors:\n"
			       "  kmsg:\n"
			       "  perf-profile:\n"
			       "    delay: 5\n"
			       "    events:\n"
			       "    - cycles\n"
			       "    - instructions\n"
			       "ucode: '0x21'\n"
			       "empty_list: []\n";

static void check_entry(const struct job *job, size_t i, const char *key,
			const char *val, const char *section)
{
	const struct job_entry *e = i < job->nr ? &job->entries[i] : NULL;
	int same = e && !strcmp(e->key, key) && !strcmp(e->val, val) &&
		   (section ? e->section && !strcmp(e->section, section)
			    : !e->section);

	CHECK(same, "job entry %zu is %s=%s in section %s", i, key, val,
	      section ? section : "(top)");
	if (!same && e)
		printf("# got: %s=%s in %s\n", e->key, e->val,
		       e->section ? e->section : "(top)");
}

static void test_job(void)
{
	char *dir = new_root(2, job_yaml);
	char *other = xasprintf("%s/1/job.yaml", dir);
	struct result_root rt;

	write_file(other, "testcase: other\n", 16);
	put(dir, "matrix.json",
	    "{\"a\": [1, 2], \"stats_source\": "
	    "[\"/r/sha/0/stats.json\", \"/r/sha/1/stats.json\"]}");
	CHECK(!result_root_load(&rt, dir), "loads a root with a rich job.yaml");
	CHECK(rt.job.nr == 12, "12 job entries (got %zu)", rt.job.nr);
	check_entry(&rt.job, 0, "suite", "stress-ng", NULL);
	check_entry(&rt.job, 2, "nr_threads", "10%", NULL);
	check_entry(&rt.job, 3, "class", "os", "stress-ng");
	check_entry(&rt.job, 4, "test", "lockofd", "stress-ng");
	check_entry(&rt.job, 5, "cpufreq_governor", "performance", NULL);
	check_entry(&rt.job, 6, "tags", "a, b c, {k: v}, [x, y]", NULL);
	check_entry(&rt.job, 7, "kmsg", "", "monitors");
	check_entry(&rt.job, 8, "delay", "5", "monitors");
	check_entry(&rt.job, 9, "events", "cycles, instructions", "monitors");
	check_entry(&rt.job, 10, "ucode", "0x21", NULL);
	check_entry(&rt.job, 11, "empty_list", "", NULL);
	CHECK_STREQ(job_get(&rt.job, "testcase"), "stress-ng",
		    "job_get returns the first run's value");
	CHECK_STREQ(job_get(&rt.job, "class"), "os", "job_get nested key");
	CHECK(!job_get(&rt.job, "nope"), "job_get of an absent key is NULL");
	result_root_release(&rt);
	free(other);
	free(dir);
}

static void test_bad_job(void)
{
	static const struct {
		const char *yaml, *want, *what;
	} bad[] = {
		{ "a: 1\nb: [\n", "/0/job.yaml:3:1:", "bad YAML syntax" },
		{ "- a\n- b\n", "/0/job.yaml: not a YAML mapping",
		  "job.yaml is a sequence" },
		{ "", "/0/job.yaml: not a YAML mapping", "empty job.yaml" },
		{ "a: 1\nb: 2\na: 3\n", "/0/job.yaml:3:1: duplicate key 'a'",
		  "duplicate key in job.yaml" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char *dir = new_root(1, bad[i].yaml);

		put(dir, "matrix.json",
		    "{\"a\": [1], \"stats_source\": [\"/r/0/stats.json\"]}");
		expect_fail(dir, bad[i].want, bad[i].what);
		free(dir);
	}
}

/* ---- the YAML loader itself ---- */

struct yarg {
	const char *text;
	struct ydoc doc;
};

static int yload_fn(void *arg)
{
	struct yarg *y = arg;

	return ydoc_load_mem(&y->doc, "t.yaml", y->text, strlen(y->text));
}

static void expect_yaml_fail(const char *text, const char *want,
			     const char *what)
{
	struct yarg y = { text, { NULL, NULL } };
	int ret;
	char *err = capture(yload_fn, &y, &ret);
	char *nl = strchr(err, '\n');
	int good = ret == -1 && !strncmp(err, "robot: error: t.yaml", 20) &&
		   nl && !nl[1] && strstr(err, want);

	CHECK(good, "yaml %s: fails with '%s'", what, want);
	if (!good)
		printf("# got (%d): %s", ret, err);
	ydoc_release(&y.doc);
	free(err);
}

static void test_yaml(void)
{
	static const char text[] = "a: 1\n"
				   "b: \"1\"\n"
				   "c:\n"
				   "  - x\n"
				   "  - {d: e}\n"
				   "'<<': quoted merge is a plain key\n";
	struct ydoc doc;
	const struct ynode *n;

	CHECK(!ydoc_load_mem(&doc, "t.yaml", text, strlen(text)),
	      "loads a small document");
	CHECK(doc.root && doc.root->type == YNODE_MAP && doc.root->n == 4,
	      "root is a map of 4");
	CHECK_STREQ(doc.path, "t.yaml", "keeps the name");
	n = ynode_get(doc.root, "a");
	CHECK(n && n->type == YNODE_SCALAR && !n->quoted && n->line == 1 &&
		      !strcmp(n->str, "1"),
	      "plain scalar on line 1");
	n = ynode_get(doc.root, "b");
	CHECK(n && n->quoted && !strcmp(n->str, "1"), "quoted scalar");
	n = ynode_get(doc.root, "c");
	CHECK(n && n->type == YNODE_SEQ && n->n == 2 && n->line == 4 &&
		      n->kids[1]->type == YNODE_MAP && n->kids[1]->line == 5,
	      "sequence with a map item, lines");
	CHECK(n && ynode_get(n->kids[1], "d") &&
		      !strcmp(ynode_get(n->kids[1], "d")->str, "e"),
	      "nested lookup");
	CHECK(ynode_get(doc.root, "<<") && !ynode_get(doc.root, "zz") &&
		      !ynode_get(n, "x"),
	      "quoted '<<' is an ordinary key; misses give NULL");
	ydoc_release(&doc);

	CHECK(!ydoc_load_mem(&doc, "e.yaml", "", 0) && !doc.root,
	      "empty input: no error, no root");
	ydoc_release(&doc);
	CHECK(!ydoc_load_mem(&doc, "e.yaml", "# just a comment\n", 17) &&
		      !doc.root,
	      "comment only: no root");
	ydoc_release(&doc);
	CHECK(!ydoc_load_mem(&doc, "m.yaml", "a: 1\n---\nb: [\n", 14) &&
		      doc.root && ynode_get(doc.root, "a"),
	      "only the first document is read");
	ydoc_release(&doc);

	expect_yaml_fail("a: 1\nb: 2\na: 3\n", "t.yaml:3:1: duplicate key 'a'",
			 "duplicate key");
	expect_yaml_fail("x:\n  a: 1\n  'a': 2\n", ":3:3: duplicate key 'a'",
			 "duplicate key, quoted");
	expect_yaml_fail("a: &x 1\nb: *x\n", ":1:4: anchors are not supported",
			 "anchor");
	expect_yaml_fail("a: [*x]\n", ":1:5: aliases are not supported",
			 "alias");
	expect_yaml_fail("base: {a: 1}\nd:\n  <<: {b: 2}\n",
			 ":3:3: merge keys ('<<') are not supported",
			 "merge key");
	expect_yaml_fail("? [a]\n: 1\n", ":1:3: mapping keys must be scalars",
			 "sequence key");
	expect_yaml_fail("a: 1\n b: 2\n", "t.yaml:2:3:", "bad indentation");
	expect_yaml_fail("a: \"x\n", "t.yaml:2:1: found unexpected end",
			 "unterminated quote");
	expect_yaml_fail("a: \xff\n", "t.yaml: byte 3:", "invalid UTF-8");
	expect_yaml_fail("a: \"x\\0y\"\n", ":1:4: NUL characters",
			 "NUL in scalar");
}

static void test_yaml_big(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct ydoc doc;
	int i, ret;

	for (i = 0; i < 20000; i++)
		strbuf_addf(&sb, "key%d: %d\n", i, i);
	ret = ydoc_load_mem(&doc, "big.yaml", sb.buf, sb.len);
	CHECK(!ret && doc.root && doc.root->n == 20000 &&
		      !strcmp(ynode_get(doc.root, "key19999")->str, "19999"),
	      "a mapping of 20000 keys");
	ydoc_release(&doc);

	strbuf_reset(&sb);
	for (i = 0; i < 300; i++)
		strbuf_addch(&sb, '[');
	expect_yaml_fail(sb.buf, "nesting deeper than", "deep nesting");
	strbuf_release(&sb);
}

/* Two roots of 20,000 stats x 10 runs: a guard against quadratic code. */
static void test_big_roots(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct result_root rt[2];
	struct timespec t0, t1;
	char *dir[2];
	double secs;
	int i, k, r, ok = 1;

	strbuf_addch(&sb, '{');
	for (i = 0; i < 20000; i++) {
		strbuf_addf(&sb, "\"stat.%d.x\": [", (i * 7919) % 20000);
		for (r = 0; r < 10; r++)
			strbuf_addf(&sb, r & 1 ? "%d.25%s" : "%d%s", i + r,
				    r < 9 ? ", " : "],\n");
	}
	strbuf_addstr(&sb, "\"stats_source\": [");
	for (r = 0; r < 10; r++)
		strbuf_addf(&sb, "\"/r/sha/%d/stats.json\"%s", r,
			    r < 9 ? ", " : "]}");
	for (k = 0; k < 2; k++) {
		dir[k] = new_root(10, job_min);
		put(dir[k], "matrix.json", sb.buf);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < 2; k++)
		ok &= !result_root_load(&rt[k], dir[k]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	CHECK(ok && rt[0].nstats == 20000 && rt[1].nruns == 10,
	      "two roots of 20000 stats x 10 runs load");
	/* speed is bench/compare.sh's to measure, not a test's: say it only */
	printf("# ... in %.3f s\n", secs);
	for (i = 0; ok && i < 20000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "stat.%d.x", (i * 7919) % 20000);
		if (strcmp(rt[0].stats[i].name, name) ||
		    result_root_stat(&rt[1], name) != &rt[1].stats[i])
			ok = 0;
	}
	CHECK(ok, "big root in file order, every stat found by name");
	for (k = 0; k < 2; k++) {
		result_root_release(&rt[k]);
		free(dir[k]);
	}
	strbuf_release(&sb);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	int ret;

	if (!mkdtemp(scratch))
		die("mkdtemp");
	test_samples();
	test_no_incomplete_stat();
	test_gz();
	test_numbers_exact();
	test_bad_matrices();
	test_bad_files();
	test_job();
	test_bad_job();
	test_yaml();
	test_yaml_big();
	test_big_roots();
	ret = check_done();
	nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
