// SPDX-License-Identifier: GPL-2.0-only
/*
 * t-report.c: report_render() against the five seed mails, and its errors.
 *
 * Each seed's struct report is filled here by hand with what an operator
 * would have known (commit, tree, host fields, job parameters, KPI); the
 * comparison block comes ready-made from tests/data/report/seed-NNN.block,
 * as `robot compare` would print it.  The data files are made from the
 * seeds by tests/data/report/extract-seeds, which documents each one.
 *
 *  - seed 001 (2023-06-07, layout intact): Subject and body byte for byte;
 *  - seeds 000, 002, 003, 004: the body token for token (their archives
 *    collapsed blanks), against seed-NNN.expect.
 *
 * A mismatch prints the first differing line (or token) with context.
 * Then synthetic reports exercise what no seed shows (still lines, the
 * In-addition table, a second section, a posted patch, the tags of each
 * period) and every way rendering must fail closed.
 *
 *   t-report [DATA_DIR]    default: $TOP, else the current directory
 */
#include "robot/util/common.h"
#include "robot/report/report.h"
#include "config/data.h"
#include "config/style.h"
#include "tests/unit/check.h"

#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *top = ".";

static char *read_data(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/tests/data/report/%s", top, name);

	if (strbuf_read_file(&sb, path) < 0)
		die("cannot read '%s': %s", path, strerror(errno));
	free(path);
	return strbuf_detach(&sb, NULL);
}

/* Builders: struct report owns its strings, so everything is copied. */

/* kv: key/value pairs, ending with { NULL, NULL } */
static void set_params(struct report_test *t, const char *const (*kv)[2])
{
	size_t n = 0;

	while (kv[n][0])
		n++;
	t->params = xcalloc(n, sizeof(*t->params));
	for (t->nparams = 0; t->nparams < n; t->nparams++) {
		t->params[t->nparams].key = xstrdup(kv[t->nparams][0]);
		t->params[t->nparams].value = xstrdup(kv[t->nparams][1]);
	}
}

static void set_host(struct report_test *t, const char *nr_cpu,
		     const char *nr_node, const char *brand, const char *model,
		     const char *memory)
{
	t->host.nr_cpu = xstrdup(nr_cpu);
	t->host.nr_node = nr_node ? xstrdup(nr_node) : NULL;
	t->host.brand = brand ? xstrdup(brand) : NULL;
	t->host.model = model ? xstrdup(model) : NULL;
	t->host.memory = xstrdup(memory);
}

static struct report_test *add_test(struct report_test **tests, size_t *n,
				    const char *testcase, const char *kpi,
				    double change, int improvement)
{
	struct report_test *t;

	*tests = xreallocarray(*tests, *n + 1, sizeof(**tests));
	t = &(*tests)[(*n)++];
	memset(t, 0, sizeof(*t));
	t->testcase = xstrdup(testcase);
	t->kpi = xstrdup(kpi);
	t->change = change;
	t->improvement = improvement;
	return t;
}

static void set_commit(struct report *r, const char *id, const char *subject,
		       const char *subsystem, const char *repo,
		       const char *branch)
{
	r->commit_id = xstrdup(id);
	r->commit_subject = xstrdup(subject);
	r->subsystem = xstrdup(subsystem);
	r->repo_url = xstrdup(repo);
	r->branch = xstrdup(branch);
}

#define LINUS "https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git"

/*
 * The 0-day robot's links, which compose makes from its configuration
 * (examples/0day.yaml): the download link and the list's archive.
 */
static void zero_day_links(struct report *r)
{
	size_t len = r->message_id ? strlen(r->message_id) : 0;

	free(r->archive_url);
	free(r->list_archive_url);
	r->list_archive_url = xstrdup("https://lore.kernel.org/oe-lkp");
	r->archive_url = NULL;
	if (!len || !r->date)
		return;
	r->archive_url = xasprintf("https://download.01.org/0day-ci/archive/"
				   "%s/%.*s",
				   r->date, (int)len - 2, r->message_id + 1);
}

static void fill_001(struct report *r)
{
	static const char *const params[][2] = {
		{ "nr_threads", "10%" },
		{ "disk", "1HDD" },
		{ "testtime", "60s" },
		{ "fs", "ext4" },
		{ "class", "os" },
		{ "test", "lockofd" },
		{ "cpufreq_governor", "performance" },
		{ NULL, NULL },
	};
	struct report_test *t;

	memset(r, 0, sizeof(*r));
	set_commit(r, "20f3337d350c4e1b4ac66d731fd4e98565bf6cc0",
		   "x86: don't use REP_GOOD or ERMS for small memory clearing",
		   "x86", LINUS, "master");
	r->tree = xstrdup("linus:master");
	r->reported_by = xstrdup("kernel test robot <oliver.sang@intel.com>");
	r->message_id =
		xstrdup("<202306071452.887afdea-oliver.sang@intel.com>");
	r->date = xstrdup("20230607");
	t = add_test(&r->tests, &r->ntests, "stress-ng",
		     "stress-ng.lockofd.ops_per_sec", 3.3766, 1);
	t->tbox_group = xstrdup("lkp-icl-2sp7");
	t->kconfig = xstrdup("x86_64-rhel-8.3");
	t->compiler = xstrdup("gcc-12");
	set_host(t, "64", "2", "Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz",
		 "Ice Lake", "256G");
	set_params(t, params);
	t->block = read_data("seed-001.block");
	zero_day_links(r);
}

static void fill_004(struct report *r)
{
	static const char *const params[][2] = {
		{ "nr_threads", "10%" },
		{ "disk", "1SSD" },
		{ "testtime", "60s" },
		{ "fs", "xfs" },
		{ "class", "filesystem" },
		{ "test", "io" },
		{ "cpufreq_governor", "performance" },
		{ NULL, NULL },
	};
	struct report_test *t;

	memset(r, 0, sizeof(*r));
	set_commit(r, "636b927eba5bc633753f8eb80f35e1d5be806e51",
		   "workqueue: Make unbound workqueues to use per-cpu "
		   "pool_workqueues",
		   "workqueue", LINUS, "master");
	r->tree = xstrdup("linus:master");
	r->reported_by = xstrdup("kernel test robot <oliver.sang@intel.com>");
	r->message_id =
		xstrdup("<202309221737.2ee51a68-oliver.sang@intel.com>");
	r->date = xstrdup("20230922");
	t = add_test(&r->tests, &r->ntests, "stress-ng",
		     "stress-ng.io.ops_per_sec", 19.4629, 1);
	set_host(t, "36", "1", "Intel(R) Core(TM) i9-9980XE CPU @ 3.00GHz",
		 "Skylake", "32G");
	set_params(t, params);
	t->block = read_data("seed-004.block");
	zero_day_links(r);
}

static void fill_003(struct report *r)
{
	static const char *const params[][2] = {
		{ "nr_task", "100%" }, { "mode", "thread" },
		{ "test", "signal1" }, { "cpufreq_governor", "performance" },
		{ "ucode", "0x16" },   { NULL, NULL },
	};
	struct report_test *t;

	memset(r, 0, sizeof(*r));
	r->preface = read_data("seed-003.preface");
	set_commit(r, "6c3118c32129b4197999a8928ba776bcabd0f5c4",
		   "signal: Skip the altstack update when not needed", "signal",
		   LINUS, "master");
	r->reported_by = xstrdup("kernel test robot <oliver.sang@intel.com>");
	r->sender_name = xstrdup("Oliver Sang");
	t = add_test(&r->tests, &r->ntests, "will-it-scale",
		     "will-it-scale.per_thread_ops", 13.24, 1);
	set_host(t, "144", "4", "Intel(R) Xeon(R) CPU E7-8890 v3 @ 2.50GHz",
		 "Haswell-EX", "512G");
	set_params(t, params);
	t->test_description = xstrdup(
		"Will It Scale takes a testcase and runs it from 1 through to "
		"n parallel copies to see if the testcase will scale. It "
		"builds both a process and threads based test in order to see "
		"any differences between the two.");
	t->test_url =
		xstrdup("https://github.com/antonblanchard/will-it-scale");
	t->block = read_data("seed-003.block");
	zero_day_links(r);
}

static void fill_000(struct report *r)
{
	static const char *const params[][2] = {
		{ "nr_threads", "100%" }, { "disk", "1HDD" },
		{ "testtime", "60s" },	  { "class", "interrupt" },
		{ "test", "clock" },	  { "cpufreq_governor", "performance" },
		{ "ucode", "0x5003006" }, { NULL, NULL },
	};
	struct report_test *t;

	memset(r, 0, sizeof(*r));
	set_commit(r, "df29d3cd5ad4d400767caa199ec7c0ecbab10fc8",
		   "clocksource: Limit number of CPUs checked for clock "
		   "synchronization",
		   "clocksource",
		   "https://git.kernel.org/cgit/linux/kernel/git/next/"
		   "linux-next.git",
		   "master");
	r->reported_by = xstrdup("kernel test robot <oliver.sang@intel.com>");
	r->sender_name = xstrdup("Oliver Sang");
	t = add_test(&r->tests, &r->ntests, "stress-ng",
		     "stress-ng.clock.ops_per_sec", 4.5418, 1);
	set_host(t, "96", "2", "Intel(R) Xeon(R) Gold 6252 CPU @ 2.10GHz",
		 "Cascade Lake", "512G");
	set_params(t, params);
	t->block = read_data("seed-000.block");
	zero_day_links(r);
}

static void fill_002(struct report *r)
{
	/* in the job's order; the 2016 line sorts them */
	static const char *const params[][2] = {
		{ "runtime", "300s" },
		{ "nr_threads", "200%" },
		{ "cluster", "cs-localhost" },
		{ "ip", "ipv4" },
		{ "test", "SCTP_STREAM" },
		{ "cpufreq_governor", "performance" },
		{ NULL, NULL },
	};
	struct report_test *t;

	memset(r, 0, sizeof(*r));
	set_commit(r, "99a544df069c325e161d4f5246586161d84e9e82",
		   "timer: Switch to a non cascading wheel", "timer",
		   "https://github.com/yyu168/linux.git", "WIP.timers");
	r->sender_name = xstrdup("Xiaolong");
	t = add_test(&r->tests, &r->ntests, "netperf",
		     "netperf.Throughput_Mbps", -3.7647, 0);
	set_host(t, "48", "2", NULL, "Ivytown Ivy Bridge-EP", "64G");
	set_params(t, params);
	t->block = read_data("seed-002.block");
	zero_day_links(r);
}

/* Drops the tests of r, keeping the rest. */
static void tests_free_for_empty(struct report *r)
{
	struct report only = { 0 };

	only.tests = r->tests;
	only.ntests = r->ntests;
	report_release(&only);
	r->tests = NULL;
	r->ntests = 0;
}

/* Rendering with stderr captured. */

struct out {
	int ret;
	struct strbuf subject, body, err;
};

static const char *operator; /* the style's operator, for render() */

/*
 * The reports here are the 0-day robot's: its disclaimer and signature
 * (the configuration's `disclaimer: 0day`, `signature: 0day`, which
 * compose turns into these flags); t3130 renders neutral ones.
 */

static void render(struct out *o, const struct report *in, const char *date)
{
	struct report copy = *in, *r = &copy;
	struct style st;
	FILE *tmp = tmpfile();
	int saved = dup(2), c;

	memset(o, 0, sizeof(*o));
	strbuf_init(&o->subject, 0);
	strbuf_init(&o->body, 0);
	strbuf_init(&o->err, 0);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	copy.disclaimer_0day = copy.signature_0day = 1;
	o->ret = style_load_for(&st, date, operator);
	if (!o->ret) {
		o->ret = report_render(&o->subject, &o->body, r, &st);
		style_release(&st);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	while ((c = fgetc(tmp)) != EOF)
		strbuf_addch(&o->err, c);
	fclose(tmp);
}

static void out_release(struct out *o)
{
	strbuf_release(&o->subject);
	strbuf_release(&o->body);
	strbuf_release(&o->err);
}

/* Prints a line with its tabs and trailing blanks made visible. */
static void show_line(const char *label, const char *s, size_t len)
{
	size_t i;

	printf("# %s|", label);
	for (i = 0; i < len; i++)
		if (s[i] == '\t')
			fputs("\\t", stdout);
		else
			putchar(s[i]);
	puts("|");
}

/* The first differing line of two texts, with two lines around it. */
static void show_diff(const char *want, const char *got)
{
	const char *w = want, *g = got;
	int line = 1, shown;

	while (*w && *g) {
		size_t wl = strcspn(w, "\n"), gl = strcspn(g, "\n");

		if (wl != gl || memcmp(w, g, wl) || !w[wl] != !g[gl])
			break;
		w += wl + 1;
		g += gl + 1;
		line++;
	}
	printf("# first difference at line %d (want, then got):\n", line);
	for (shown = 0; shown < 3 && (*w || *g); shown++) {
		size_t wl = strcspn(w, "\n"), gl = strcspn(g, "\n");

		show_line("want ", w, wl);
		show_line(" got ", g, gl);
		w += wl + !!w[wl];
		g += gl + !!g[gl];
	}
}

static void check_exact(const char *got, const char *want, const char *desc)
{
	int same = !strcmp(got, want);

	CHECK(same, "%s", desc);
	if (!same)
		show_diff(want, got);
}

/* Whitespace-separated tokens. */
struct tokens {
	char **v;
	size_t nr, alloc;
};

static void tokenize(struct tokens *tk, const char *s)
{
	memset(tk, 0, sizeof(*tk));
	for (;;) {
		size_t len;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		for (len = 0; s[len] && !isspace((unsigned char)s[len]); len++)
			;
		ALLOC_GROW(tk->v, tk->nr + 1, tk->alloc);
		tk->v[tk->nr++] = xstrndup(s, len);
		s += len;
	}
}

static void tokens_release(struct tokens *tk)
{
	size_t i;

	for (i = 0; i < tk->nr; i++)
		free(tk->v[i]);
	free(tk->v);
}

static void show_tokens(const char *label, const struct tokens *tk, size_t at)
{
	size_t i = at > 6 ? at - 6 : 0;

	printf("# %s:", label);
	for (; i < tk->nr && i < at + 7; i++)
		printf(i == at ? " >>%s<<" : " %s", tk->v[i]);
	putchar('\n');
}

static void check_tokens(const char *got, const char *want, const char *desc)
{
	struct tokens g, w;
	size_t i;

	tokenize(&g, got);
	tokenize(&w, want);
	for (i = 0; i < g.nr && i < w.nr; i++)
		if (strcmp(g.v[i], w.v[i]))
			break;
	CHECK(i == g.nr && i == w.nr, "%s (%zu tokens)", desc, w.nr);
	if (i != g.nr || i != w.nr) {
		printf("# first difference at token %zu of %zu/%zu:\n", i + 1,
		       w.nr, g.nr);
		show_tokens("want", &w, i);
		show_tokens(" got", &g, i);
	}
	tokens_release(&g);
	tokens_release(&w);
}

static void check_seed_001(void)
{
	struct report r;
	struct out o;
	char *want = read_data("seed-001.body");

	fill_001(&r);
	render(&o, &r, "2023-06-07");
	CHECK(o.ret == 0 && !o.err.len, "seed 001: renders silently");
	if (o.err.len)
		printf("# %s", o.err.buf);
	CHECK_STREQ(o.subject.buf,
		    "[linus:master] [x86]  20f3337d35:  "
		    "stress-ng.lockofd.ops_per_sec 3.4% improvement",
		    "seed 001: the Subject");
	check_exact(o.body.buf, want, "seed 001: the body, byte for byte");
	free(want);
	out_release(&o);
	report_release(&r);
	CHECK(!r.tests && !r.commit_id, "report_release clears the report");
}

static void check_seed(const char *nnn, const char *date,
		       void (*fill)(struct report *))
{
	struct report r;
	struct out o;
	char *name = xasprintf("seed-%s.expect", nnn);
	char *want = read_data(name);

	fill(&r);
	render(&o, &r, date);
	CHECK(o.ret == 0 && !o.err.len, "seed %s: renders silently", nnn);
	if (o.err.len)
		printf("# %s", o.err.buf);
	free(name);
	name = xasprintf("seed %s (%s): the body, token for token", nnn, date);
	check_tokens(o.body.buf, want, name);
	free(name);
	free(want);
	out_release(&o);
	report_release(&r);
}

/* The first test of fill_001 again, as an extra section or addition. */
static void add_second_test(struct report_test **tests, size_t *n)
{
	static const char *const params[][2] = {
		{ "nr_task", "100%" }, { "mode", "process" },
		{ "test", "brk2" },    { "cpufreq_governor", "performance" },
		{ NULL, NULL },
	};
	struct report_test *t =
		add_test(tests, n, "will-it-scale",
			 "will-it-scale.per_process_ops", -12.345, 0);

	t->tbox_group = xstrdup("lkp-skl-fpga01");
	set_host(t, "104", "2", NULL, "Skylake", "192G");
	set_params(t, params);
	t->block = xstrdup("=====\nTABLE 2\n\n");
}

#define SHA_A "1111111111111111111111111111111111111111"
#define SHA_B "2222222222222222222222222222222222222222"

/* A 2025 regression on a posted patch, with every optional block. */
static void fill_2025(struct report *r)
{
	fill_001(r);
	r->tests[0].improvement = 0;
	r->tests[0].change = -7.25;
	r->patch_url = xstrdup("https://github.com/intel-lab-lkp/linux/commits/"
			       "A-U-Thor/x86-frob/20250601-101010");
	r->patch_base = xstrdup(LINUS " master");
	r->patch_link = xstrdup("https://lore.kernel.org/all/"
				"20250601.1234-1-author@example.org/");
	r->patch_subject = xstrdup("[PATCH v2] x86: frob the widgets");
	r->still = xcalloc(2, sizeof(*r->still));
	r->still[0].tree = xstrdup("linus/master");
	r->still[0].commit = xstrdup(SHA_A);
	r->still[1].tree = xstrdup("linux-next/master");
	r->still[1].commit = xstrdup(SHA_B);
	r->nstill = 2;
	free(r->message_id);
	r->message_id =
		xstrdup("<202506151234.abcdef12-oliver.sang@intel.com>");
	free(r->date);
	r->date = xstrdup("20250615");
	add_second_test(&r->tests, &r->ntests);
	add_second_test(&r->additions, &r->nadditions);
	zero_day_links(r);
}

static void want_in(const char *body, const char *piece, const char *desc)
{
	CHECK(strstr(body, piece) != NULL, "%s", desc);
	if (!strstr(body, piece))
		show_line("missing", piece, strlen(piece));
}

/*
 * The In-addition table of fill_2025 by the rule of doc/format.md
 * §3.2: an 18-wide first column, the second padded to its longest text;
 * in 2025 the change's minus is a blank (corpus mails 129, 135).
 */
static void addition_table(struct strbuf *sb, const char *head,
			   const char *tail)
{
	static const char *const rows[][2] = {
		{ "testcase: change",
		  "will-it-scale: will-it-scale.per_process_ops  12.3% "
		  "regression" },
		{ "test machine",
		  "104 threads 2 sockets (Skylake) with 192G memory" },
		{ "test parameters", "cpufreq_governor=performance" },
		{ "", "mode=process" },
		{ "", "nr_task=100%" },
		{ "", "test=brk2" },
	};
	int w = (int)strlen(rows[0][1]);
	size_t i;

	strbuf_addf(sb, "%s+------------------+", head);
	strbuf_addchars(sb, '-', w + 2);
	strbuf_addstr(sb, "+\n");
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		strbuf_addf(sb, "| %-16s | %-*s |\n", rows[i][0], w,
			    rows[i][1]);
	strbuf_addstr(sb, "+------------------+");
	strbuf_addchars(sb, '-', w + 2);
	strbuf_addf(sb, "+\n%s", tail);
}

/* What check_2025() expects in the body, piece by piece. */
static const char *const y2025_top_part =
	"\n\nHello,\n\n"
	"kernel test robot noticed a 7.2% regression of "
	"stress-ng.lockofd.ops_per_sec on:\n\n\n"
	"commit: 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0 "
	"(\"[PATCH v2] x86: frob the widgets\")\n"
	"url: https://github.com/intel-lab-lkp/linux/commits/A-U-Thor/"
	"x86-frob/20250601-101010\n"
	"base: " LINUS " master\n"
	"patch link: https://lore.kernel.org/all/"
	"20250601.1234-1-author@example.org/\n"
	"patch subject: [PATCH v2] x86: frob the widgets\n"
	"\n"
	"[still regression on      linus/master " SHA_A "]\n"
	"[still regression on linux-next/master " SHA_B "]\n"
	"\n"
	"testcase: stress-ng\n"
	"config: x86_64-rhel-8.3\n"
	"compiler: gcc-12\n"
	"test machine: 64 threads 2 sockets Intel(R) Xeon(R) Gold 6346 "
	"CPU @ 3.10GHz (Ice Lake) with 256G memory\n"
	"parameters:\n\n";
static const char *const y2025_table_head =
	"\tcpufreq_governor: performance\n"
	"\n\n"
	"In addition to that, the commit also has significant impact "
	"on the following tests:\n\n";
static const char *const y2025_tags =
	"\n\n"
	"If you fix the issue in a separate patch/commit (i.e. not just "
	"a new version of\nthe same patch/commit), kindly add following "
	"tags\n"
	"| Reported-by: kernel test robot <oliver.sang@intel.com>\n"
	"| Closes: https://lore.kernel.org/oe-lkp/202506151234.abcdef12-"
	"oliver.sang@intel.com\n"
	"\n\n"
	"Details are as below:\n";
static const char *const y2025_sections =
	"The kernel config and materials to reproduce are available "
	"at:\nhttps://download.01.org/0day-ci/archive/20250615/"
	"202506151234.abcdef12-oliver.sang@intel.com\n\n"
	"=========================================================="
	"===============================\nclass/";

static void check_2025(void)
{
	struct strbuf table = STRBUF_INIT;
	struct report r;
	struct out o;
	/*
	 * The In-addition test, then the further section: 2 empty lines
	 * before the first stars, 3 before later ones and 4 before
	 * "Disclaimer:" (corpus mails 129, 136)
	 */
	char *more =
		xasprintf("memset_orig\n\n\n%.99s\nlkp-skl-fpga01: 104 "
			  "threads 2 sockets (Skylake) with 192G memory\n"
			  "=====\nTABLE 2\n\n\n\n%.99s\nlkp-skl-fpga01: 104 "
			  "threads 2 sockets (Skylake) with 192G memory\n"
			  "=====\nTABLE 2\n\n\n\n\n\nDisclaimer:\n",
			  "*****************************************"
			  "*****************************************"
			  "*****************************************",
			  "*****************************************"
			  "*****************************************"
			  "*****************************************");

	fill_2025(&r);
	render(&o, &r, "2025-08-15");
	CHECK(o.ret == 0 && !o.err.len, "2025: renders silently");
	if (o.err.len)
		printf("# %s", o.err.buf);
	CHECK_STREQ(o.subject.buf, "Re: [PATCH v2] x86: frob the widgets",
		    "2025: a report on a patch answers it");
	CHECK(!strncmp(o.body.buf, y2025_top_part, strlen(y2025_top_part)),
	      "2025: greeting, patch lines, still lines, config lines");
	if (strncmp(o.body.buf, y2025_top_part, strlen(y2025_top_part)))
		show_diff(y2025_top_part, o.body.buf);
	addition_table(&table, y2025_table_head, y2025_tags);
	want_in(o.body.buf, table.buf,
		"2025: In-addition table, then y2025_tags");
	strbuf_release(&table);
	want_in(o.body.buf, y2025_sections, "2025: the download link");
	want_in(o.body.buf, more, "2025: a second section after 99 stars");
	free(more);
	out_release(&o);
	report_release(&r);
}

static void check_periods(void)
{
	struct report r;
	struct out o;

	fill_001(&r);
	free(r.tree);
	r.tree = NULL;
	r.tests[0].improvement = 0;
	r.tests[0].change = -9.84;
	r.sender_name = xstrdup("Oliver Sang");
	render(&o, &r, "2021-12-14");
	CHECK(o.ret == 0 && !o.err.len, "2021: renders silently");
	CHECK_STREQ(o.subject.buf,
		    "[x86]  20f3337d35:  stress-ng.lockofd.ops_per_sec -9.8% "
		    "regression",
		    "2021: no tree in the Subject (§3.1)");
	want_in(o.body.buf,
		"\tcpufreq_governor: performance\n\n\n\n\n"
		"If you fix the issue, kindly add following tag\n"
		"Reported-by: kernel test robot <oliver.sang@intel.com>\n\n\n"
		"Details are as below:",
		"2021: the Reported-by tag");
	out_release(&o);
	render(&o, &r, "2022-11-01");
	want_in(o.body.buf,
		"If you fix the issue, kindly add following tag\n"
		"| Reported-by: kernel test robot <oliver.sang@intel.com>\n"
		"| Link: https://lore.kernel.org/oe-lkp/202306071452.887afdea-"
		"oliver.sang@intel.com\n\n\nDetails",
		"late 2022: the Link tag");
	want_in(o.body.buf,
		"on test machine: 64 threads 2 sockets Intel(R) "
		"Xeon(R) Gold 6346 CPU @ 3.10GHz (Ice Lake) with 256G memory\n",
		"late 2022: the machine has its model (mails 116-118)");
	out_release(&o);
	render(&o, &r, "2022-06-01");
	want_in(o.body.buf,
		"on test machine: 64 threads 2 sockets Intel(R) "
		"Xeon(R) Gold 6346 CPU @ 3.10GHz with 256G memory\n",
		"mid 2022: the machine has no model (mail 115)");
	out_release(&o);
	render(&o, &r, "2020-06-01");
	want_in(o.body.buf,
		"on test machine: 64 threads Intel(R) Xeon(R) Gold "
		"6346 CPU @ 3.10GHz with 256G memory\n",
		"2020: the machine has no sockets (§3.5)");
	want_in(o.body.buf,
		"        bin/lkp install job.yaml  # job file is attached in "
		"this email\n        bin/lkp run     job.yaml\n",
		"2020: reproduce with bin/lkp run job.yaml (mails 101-107)");
	out_release(&o);
	render(&o, &r, "2021-03-01");
	want_in(o.body.buf,
		"bin/lkp run                    compatible-job.yaml",
		"early 2021: reproduce with compatible-job.yaml (108, 109)");
	out_release(&o);
	render(&o, &r, "2016-07-25");
	want_in(o.body.buf,
		"\tclass=os/cpufreq_governor=performance/disk=1HDD/fs=ext4/"
		"nr_threads=10%/test=lockofd/testtime=60s\n\n\nDisclaimer:",
		"2016: sorted k=v parameters on one line");
	CHECK(!strstr(o.body.buf, "Reported-by"), "2016: no tags");
	out_release(&o);
	report_release(&r);
}

/*
 * The Subject's blanks around "<sha10>:" (config/data/styles subject_lead
 * and subject_width): two and two up to 68 characters before the end of
 * the KPI, then one after the colon; one and one for an operator whose
 * own rows say so.
 */
static void check_subjects(void)
{
	static const char *const kpis[][2] = {
		/* 68 wide with two blanks: "[linus:master] [x86]  sha:  " is 35
		 */
		{ "stress-ng.abcdefghijk.ops_per_sec",
		  "[linus:master] [x86]  20f3337d35:  stress-ng.abcdefghijk"
		  ".ops_per_sec 3.4% improvement" },
		{ "stress-ng.abcdefghijkl.ops_per_sec",
		  "[linus:master] [x86]  20f3337d35: stress-ng.abcdefghijkl"
		  ".ops_per_sec 3.4% improvement" },
	};
	struct report r;
	struct out o;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kpis); i++) {
		fill_001(&r);
		free(r.tests[0].kpi);
		r.tests[0].kpi = xstrdup(kpis[i][0]);
		render(&o, &r, "2023-06-07");
		CHECK_STREQ(o.subject.buf, kpis[i][1],
			    i ? "Subject: one blank after the colon beyond 68"
			      : "Subject: two blanks after the colon up to 68");
		out_release(&o);
		report_release(&r);
	}
	fill_001(&r);
	operator= "yujie.liu";
	render(&o, &r, "2023-04-24");
	CHECK_STREQ(
		o.subject.buf,
		"[linus:master] [x86] 20f3337d35: stress-ng.lockofd."
		"ops_per_sec 3.4% improvement",
		"Subject: one blank on either side for Yujie Liu (119, 236)");
	out_release(&o);
	operator= "oliver.sang";
	render(&o, &r, "2023-04-24");
	CHECK_STREQ(o.subject.buf,
		    "[linus:master] [x86]  20f3337d35:  stress-ng.lockofd."
		    "ops_per_sec 3.4% improvement",
		    "Subject: two blanks for Oliver Sang the same days (235)");
	out_release(&o);
	operator= NULL;
	report_release(&r);
}

/*
 * A KPI whose direction no table knows: reported as a regression with its
 * sign, also in the unsigned headlines of 2025 (corpus mails 274, 289).
 */
static void check_no_direction(void)
{
	struct report r;
	struct out o;

	fill_001(&r);
	r.tests[0].improvement = 0;
	r.tests[0].no_direction = 1;
	r.tests[0].change = -5.24;
	render(&o, &r, "2025-06-15");
	want_in(o.body.buf,
		"kernel test robot noticed a -5.2% regression of "
		"stress-ng.lockofd.ops_per_sec on:",
		"2025: a KPI of unknown direction keeps its sign");
	out_release(&o);
	r.tests[0].no_direction = 0;
	render(&o, &r, "2025-06-15");
	want_in(o.body.buf,
		"kernel test robot noticed a 5.2% regression of "
		"stress-ng.lockofd.ops_per_sec on:",
		"2025: a known KPI loses its sign");
	out_release(&o);
	report_release(&r);
}

/* Renders r at `date` and wants it to fail with exactly `msg`. */
static void want_error(const struct report *r, const char *date,
		       const char *msg, const char *desc)
{
	struct out o;
	char *line = xasprintf("robot: error: %s\n", msg);

	render(&o, r, date);
	CHECK(o.ret == -1 && !o.subject.len && !o.body.len,
	      "%s: fails, renders nothing", desc);
	CHECK_STREQ(o.err.buf, line, "%s: the message", desc);
	free(line);
	out_release(&o);
}

static void check_missing_data(void)
{
	struct report r;

	fill_001(&r);
	free(r.tree);
	r.tree = NULL;
	want_error(&r, "2023-06-07",
		   "the request: 'tree' is missing (the Subject needs it)",
		   "no tree in 2023, no origin: the input in words");
	r.origin.request = xstrdup("req.yaml");
	r.origin.config = xstrdup("robot.yaml");
	r.tests[0].job_file = xstrdup("rt0/0/job.yaml");
	want_error(&r, "2023-06-07",
		   "req.yaml: 'tree' is missing (the Subject needs it)",
		   "no tree in 2023");
	r.tree = xstrdup("linus:master");
	free(r.repo_url);
	r.repo_url = NULL;
	want_error(&r, "2023-06-07",
		   "req.yaml: 'repo_url' is missing (the line under the "
		   "commit needs it)",
		   "no repository");
	r.repo_url = xstrdup(LINUS);
	free(r.tests[0].host.brand);
	free(r.tests[0].host.model);
	r.tests[0].host.brand = r.tests[0].host.model = NULL;
	want_error(&r, "2023-06-07",
		   "rt0/0/job.yaml: 'brand' or 'model' is missing (the test "
		   "machine line needs it, unless the request gives "
		   "'machine')",
		   "neither brand nor model: either would do");
	free(r.tests[0].host.memory);
	free(r.tests[0].testcase);
	r.tests[0].host.memory = r.tests[0].testcase = NULL;
	free(r.tree);
	r.tree = NULL;
	want_error(&r, "2023-06-07",
		   "req.yaml: 'tree' is missing (the Subject needs it); "
		   "rt0/0/job.yaml: 'testcase', 'brand' and 'memory' are "
		   "missing (the testcase line needs 'testcase'; the test "
		   "machine line needs 'brand' and 'memory', unless the "
		   "request gives 'machine')",
		   "all missing keys at once, by file");
	r.tree = xstrdup("linus:master");
	r.tests[0].testcase = xstrdup("stress-ng");
	r.tests[0].host.text = xstrdup("qemu-system-x86_64 -enable-kvm");
	want_error(&r, "2016-07-25",
		   "robot.yaml: 'sender_name' is missing (the signature needs "
		   "it)",
		   "no sender for a 2016 signature");
	report_release(&r);
}

/*
 * A data directory of broken styles and templates, one period each, for
 * the errors only a broken installation can cause.
 */
static const char *const broken[][2] = {
	{ "config/data/styles", "2019-01-01 other x\n"
				"2020-01-01 template bad\n"
				"2021-01-01 template bad2\n"
				"2022-01-01 template nest\n"
				"2023-01-01 template miss\n"
				"2023-01-01 repro gone\n"
				"2024-01-01 template labels\n"
				"2025-01-01 template order\n"
				"2025-01-01 params_order random\n"
				"2026-01-01 template ctx\n" },
	{ "templates/bad/subject",
	  "Re: {patch_subject}\n[{patch_url}] {nope} {sha10}\n" },
	{ "templates/bad2/subject", "{sha10}\n" },
	{ "templates/bad2/body", "x\n{nope}\n" },
	{ "templates/nest/subject", "{sha10}\n" },
	{ "templates/nest/body", "{sections}\n" },
	{ "templates/nest/section", "{sections}\n" },
	{ "templates/miss/subject", "{sha10}\n" },
	{ "templates/miss/body", "{repro}\n" },
	{ "templates/labels/subject", "{sha10}\n" },
	{ "templates/labels/body", "{addition}\n" },
	{ "templates/labels/addition", "{table}\n" },
	{ "templates/labels/addition-labels", "a\nb\n" },
	{ "templates/order/subject", "{sha10}\n" },
	{ "templates/order/body", "{params}\n" },
	{ "templates/order/param", "{key}\n" },
	{ "templates/ctx/subject", "{sha10}\n" },
	{ "templates/ctx/body", "{key}\n" },
};

/* Creates (text) or removes (NULL) the directories of `rel` under dir. */
static void dirs(const char *dir, const char *rel, int create)
{
	char *path = xasprintf("%s/%s", dir, rel), *slash;

	if (create) {
		for (slash = strchr(path + strlen(dir) + 1, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			mkdir(path, 0700);
			*slash = '/';
		}
	} else {
		while ((slash = strrchr(path, '/')) &&
		       slash > path + strlen(dir)) {
			*slash = '\0';
			rmdir(path); /* fails while not empty: fine */
		}
	}
	free(path);
}

static void broken_dir(const char *dir, int create)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(broken); i++) {
		char *path = xasprintf("%s/%s", dir, broken[i][0]);

		if (create) {
			FILE *f;

			dirs(dir, broken[i][0], 1);
			f = fopen(path, "w");
			if (!f)
				die("cannot write '%s'", path);
			fputs(broken[i][1], f);
			fclose(f);
		} else {
			unlink(path);
		}
		free(path);
	}
	for (i = 0; !create && i < ARRAY_SIZE(broken); i++)
		dirs(dir, broken[i][0], 0);
	if (!create)
		rmdir(dir);
}

static void check_broken(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/t-report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	struct report r;
	char *msg;

	if (!mkdtemp(dir))
		die("cannot make a scratch directory in '%s'", dir);
	broken_dir(dir, 1);
	data_dir_set(dir);
	fill_001(&r);
	want_error(&r, "2019-06-01",
		   "style 2019-06-01: no 'template' row in config/data/styles",
		   "a style without templates");
	msg = xasprintf("%s/templates/bad/subject:2: unknown placeholder "
			"'{nope}'",
			dir);
	want_error(&r, "2020-06-01", msg,
		   "an unknown placeholder in an alternative");
	free(msg);
	msg = xasprintf("%s/templates/bad2/body:2: unknown placeholder "
			"'{nope}'",
			dir);
	want_error(&r, "2021-06-01", msg, "an unknown placeholder in a body");
	free(msg);
	msg = xasprintf("%s/templates/nest/section: templates nest deeper "
			"than 8",
			dir);
	want_error(&r, "2022-06-01", msg, "a template including itself");
	free(msg);
	msg = xasprintf("cannot read data file '%s/templates/miss/repro-gone': "
			"No such file or directory",
			dir);
	want_error(&r, "2023-06-01", msg, "a variant without its file");
	free(msg);
	add_second_test(&r.additions, &r.nadditions);
	msg = xasprintf("%s/templates/labels/addition-labels: want 3 lines "
			"(the change, the machine, the parameters), not 2",
			dir);
	want_error(&r, "2024-06-01", msg, "In-addition labels: 2 lines");
	free(msg);
	want_error(&r, "2025-06-01",
		   "style 2025-06-01: params_order is 'random' (want job or "
		   "sorted)",
		   "an unknown parameter order");
	msg = xasprintf("%s/templates/ctx/body:1: unknown placeholder '{key}'",
			dir);
	want_error(&r, "2026-06-01", msg, "{key} outside a parameter");
	free(msg);
	data_dir_set(top);
	broken_dir(dir, 0);
	free(dir);

	r.sender_name = xstrdup("Xiaolong");
	msg = xasprintf("%s/templates/2016/body: the report has an In-addition "
			"table but the template has no '{addition}'",
			data_dir());
	want_error(&r, "2016-07-25", msg, "data the period has no place for");
	free(msg);
	tests_free_for_empty(&r);
	want_error(&r, "2023-06-07", "the report has no test",
		   "a report without a test");
	report_release(&r);
}

int main(int argc, char **argv)
{
	const char *env = getenv("TOP");

	if (argc > 1)
		top = argv[1];
	else if (env && *env)
		top = env;
	data_dir_set(top);

	check_seed_001();
	check_seed("004", "2023-09-22", fill_004);
	check_seed("003", "2021-12-14", fill_003);
	check_seed("000", "2021-06-15", fill_000);
	check_seed("002", "2016-07-25", fill_002);
	check_2025();
	check_periods();
	check_subjects();
	check_no_direction();
	check_missing_data();
	check_broken();
	return check_done();
}
