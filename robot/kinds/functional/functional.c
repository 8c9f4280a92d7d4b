// SPDX-License-Identifier: GPL-2.0-only
/*
 * functional.c: the data of a functional report (functional.h).
 *
 * Everything here is data: names, counts, the tables lkp-tests prints,
 * the excerpts and the sender's words.  The wording around them is in
 * the f* templates (report.c renders them).
 *
 *   the result table   +--------+------------+------------+ with one row
 *                      per stat: the sum of its values over the runs of
 *                      each commit (the number of runs that hit it);
 *                      "boot_successes" is the runs without a boot
 *                      failure.  A stat the base lacks shows 0, one a
 *                      later commit lacks shows nothing (as 0-day's).
 *   a fail:runs table  the comparison's failure rows (or the stats the
 *                      sender chose), under the commits' id line and,
 *                      if asked, the axes in the order a functional test
 *                      lists them: tbox_group, testcase, rootfs, kconfig,
 *                      compiler, then the job's parameters.
 *   the evidence       robot/kinds/functional/evidence.c, per item of the
 * request's `evidence`, or one excerpt by the rules.
 */
#include "robot/util/common.h"
#include "robot/kinds/functional/functional.h"
#include "robot/engine/compare.h"
#include "robot/kinds/functional/dmesg.h"
#include "robot/kinds/functional/evidence.h"
#include "robot/report/report.h"
#include "robot/engine/results.h"
#include "robot/engine/stats.h"
#include "config/lkp.h"
#include "config/request.h"
#include "config/style.h"

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int functional_kpi(const struct lkp_tables *t, const char *kpi)
{
	static const char *const prefixes[] = { "dmesg.", "kmsg.",
						"last_state.", "stderr." };
	size_t i;

	if (!kpi)
		return 0;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (has_prefix(kpi, prefixes[i]))
			return 1;
	return lkp_function_stat(t, kpi);
}

/* The headline: the stat, without the dmesg./kmsg. of kernel-log stats. */
static char *headline(const char *kpi)
{
	if (has_prefix(kpi, "dmesg."))
		return xstrdup(kpi + 6);
	if (has_prefix(kpi, "kmsg."))
		return xstrdup(kpi + 5);
	return xstrdup(kpi);
}

/* The name of the package file at p[0..len), without ".cgz". */
static char *package_name(const char *p, size_t len)
{
	const char *base = p, *q;
	size_t blen;

	for (q = p; q < p + len; q++)
		if (*q == '/')
			base = q + 1;
	blen = (size_t)(p + len - base);
	if (blen > 4 && !strncmp(base + blen - 4, ".cgz", 4))
		blen -= 4;
	return xstrndup(base, blen);
}

/*
 * The test package's version: the name of the testcase's package among
 * the job's initrds ("/osimage/pkg/<rootfs>/xfstests-x86_64-df16c93a-1_
 * 20260105.cgz" gives "xfstests-x86_64-df16c93a-1_20260105"); else, the
 * job's one package, that of the program the test runs, which may be
 * named otherwise (fio-basic runs fio: "fio-x86_64-3.15-1_20220205" in
 * its reports of 2022); else "".
 */
static char *version(const struct job *job)
{
	const char *initrd = job_get(job, "bm_initrd");
	const char *testcase = job_get(job, "testcase");
	size_t tlen = testcase ? strlen(testcase) : 0, npkg = 0;
	const char *p = initrd, *only = NULL;
	size_t only_len = 0;

	while (p && *p && tlen) {
		size_t len = strcspn(p, ",");

		if (memmem(p, len, "/pkg/", 5)) {
			char *name = package_name(p, len);

			if (strlen(name) > tlen &&
			    !strncmp(name, testcase, tlen) && name[tlen] == '-')
				return name;
			free(name);
			only = p;
			only_len = len;
			npkg++;
		}
		p += len + (p[len] == ',');
	}
	return npkg == 1 ? package_name(only, only_len) : xstrdup("");
}

/* ARCH= of the build: the kconfig's first part ("i386-randconfig-a1"). */
static char *arch(const struct job *job)
{
	const char *kconfig = job_get(job, "kconfig");

	if (!kconfig || !*kconfig)
		return NULL;
	return xstrndup(kconfig, strcspn(kconfig, "-"));
}

/* Lines without trailing blanks, as the senders paste tables. */
static void rstrip_lines(struct strbuf *sb, size_t from)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf + from, *end = sb->buf + sb->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		strbuf_add(&out, p, (size_t)(e - p));
		if (nl)
			strbuf_addch(&out, '\n');
		p = nl ? nl + 1 : end;
	}
	strbuf_setlen(sb, from);
	strbuf_addbuf(sb, &out);
	strbuf_release(&out);
}

/* A commit as the result table labels it: its tag, else 10 digits. */
static char *label(const char *id)
{
	if (strlen(id) == 40 && strspn(id, "0123456789abcdef") == 40)
		return xstrndup(id, 10);
	return xstrdup(id);
}

static double sum_of(const struct result_root *rt, const char *name,
		     int *present)
{
	const struct rt_stat *s = result_root_stat(rt, name);

	*present = s != NULL;
	return s ? stats_sum(s->val, s->is_int, rt->nruns) : 0;
}

struct cells {
	char **v; /* rows x cols */
	size_t rows, cols;
};

static void add_border(struct strbuf *out, const size_t *w, size_t cols)
{
	size_t j;

	for (j = 0; j < cols; j++) {
		strbuf_addch(out, '+');
		strbuf_addchars(out, '-', w[j] + 2);
	}
	strbuf_addstr(out, "+\n");
}

static void add_cells(struct strbuf *out, char *const *row, const size_t *w,
		      size_t cols)
{
	size_t j;

	for (j = 0; j < cols; j++) {
		strbuf_addf(out, "| %s", row[j]);
		strbuf_addchars(out, ' ', w[j] - strlen(row[j]) + 1);
	}
	strbuf_addstr(out, "|\n");
}

/* The name a row shows: kernel-log stats without their "dmesg.". */
static const char *row_name(const char *stat)
{
	if (has_prefix(stat, "dmesg."))
		return stat + 6;
	return stat;
}

/* The default rows: boot counts, then every kernel-log stat any commit hit. */
static void default_rows(struct strv *rows, const struct compare_roots *roots)
{
	size_t i, j, k;

	rows->v = xcalloc(3, sizeof(char *));
	rows->v[rows->n++] = xstrdup("boot_successes");
	rows->v[rows->n++] = xstrdup("dmesg.boot_failures");
	for (i = 0; i < roots->n; i++)
		for (j = 0; j < roots->rts[i].nstats; j++) {
			const char *name = roots->rts[i].stats[j].name;
			int dup = 0;

			if (!has_prefix(name, "dmesg.") ||
			    !strcmp(name, "dmesg.boot_failures") ||
			    has_prefix(name, "dmesg.timestamp:"))
				continue;
			for (k = 0; k < rows->n && !dup; k++)
				dup = !strcmp(rows->v[k], name);
			if (dup)
				continue;
			rows->v = xreallocarray(rows->v, rows->n + 2,
						sizeof(char *));
			rows->v[rows->n++] = xstrdup(name);
		}
}

/*
 * The width of the rows' names: 0-day computed the table with every row of
 * default_rows() and sized its first column so before it dropped the rows
 * it did not show (those the sender's list leaves out).  Mail 454 shows
 * one row, BUG:workqueue_lockup-pool, in a column as wide as
 * INFO:rcu_preempt_self-detected_stall_on_CPU, a stat of its excerpt that
 * the table does not show; 433, 443, 448 and 466 have columns wider than
 * any row they show; in the 19 tables that show every stat of their
 * excerpts the column is that of the widest row.
 */
static size_t computed_width(const struct compare_roots *roots)
{
	struct strv all = { 0 };
	size_t w = 0;

	default_rows(&all, roots);
	while (all.n) {
		char *name = all.v[--all.n];

		if (strlen(row_name(name)) > w)
			w = strlen(row_name(name));
		free(name);
	}
	free(all.v);
	return w;
}

static void result_table(struct strbuf *out, const struct compare_roots *roots,
			 const struct strv *rows)
{
	size_t cols = roots->n + 1, nrows = rows->n + 1, i, j;
	char **cell = xcalloc(cols * nrows, sizeof(char *));
	size_t *w = xcalloc(cols, sizeof(size_t));
	size_t computed = computed_width(roots);

	cell[0] = xstrdup("");
	for (j = 1; j < cols; j++)
		cell[j] = label(roots->ids[j - 1]);
	for (i = 0; i < rows->n; i++) {
		const char *stat = rows->v[i];
		int boot_ok = !strcmp(stat, "boot_successes");

		cell[(i + 1) * cols] = xstrdup(row_name(stat));
		for (j = 1; j < cols; j++) {
			const struct result_root *rt = &roots->rts[j - 1];
			int present;
			double v;

			if (boot_ok) {
				v = (double)rt->nruns -
				    sum_of(rt, "dmesg.boot_failures", &present);
				present = 1;
			} else {
				v = sum_of(rt, stat, &present);
			}
			/* the base shows 0 for a stat it lacks; others blank */
			cell[(i + 1) * cols + j] =
				present || j == 1 ? xasprintf("%.0f", v)
						  : xstrdup("");
		}
	}
	for (i = 0; i < nrows * cols; i++)
		if (strlen(cell[i]) > w[i % cols])
			w[i % cols] = strlen(cell[i]);
	if (computed > w[0])
		w[0] = computed;
	add_border(out, w, cols);
	add_cells(out, cell, w, cols);
	add_border(out, w, cols);
	for (i = 1; i < nrows; i++)
		add_cells(out, cell + i * cols, w, cols);
	add_border(out, w, cols);
	for (i = 0; i < nrows * cols; i++)
		free(cell[i]);
	free(cell);
	free(w);
}

/* The axes of a functional test, in the order its reports list them. */
static void axes_header(struct strbuf *out, const struct result_root *rt,
			const struct lkp_tables *tables)
{
	static const char *const first[] = { "tbox_group", "testcase", "rootfs",
					     "kconfig", "compiler" };
	const struct job_entry **params;
	size_t n = compare_job_params(&rt->job, tables, &params), i;
	const char *v;

	strbuf_addchars(out, '=', 89);
	strbuf_addch(out, '\n');
	for (i = 0; i < ARRAY_SIZE(first); i++)
		strbuf_addf(out, "%s%s", i ? "/" : "", first[i]);
	for (i = 0; i < n; i++)
		strbuf_addf(out, "/%s", params[i]->key);
	strbuf_addstr(out, ":\n  ");
	for (i = 0; i < ARRAY_SIZE(first); i++) {
		v = job_get(&rt->job, first[i]);
		strbuf_addf(out, "%s%s", i ? "/" : "", v ? v : "");
	}
	for (i = 0; i < n; i++)
		strbuf_addf(out, "/%s", params[i]->val);
	strbuf_addstr(out, "\n\n");
	free(params);
}

static void fail_row(struct strbuf *out, const struct table_style *ts,
		     const struct compare_roots *roots, const char *stat)
{
	size_t n = roots->n, i;
	double *fails = xcalloc(n, sizeof(double));
	double *change = xcalloc(n, sizeof(double));
	size_t *runs = xcalloc(n, sizeof(size_t));
	int present;

	for (i = 0; i < n; i++) {
		fails[i] = sum_of(&roots->rts[i], stat, &present);
		runs[i] = roots->rts[i].nruns;
	}
	for (i = 1; i < n; i++)
		change[i - 1] = table_fail_change(fails, runs, i);
	table_row(out, ts,
		  &(struct table_row){ .name = stat,
				       .failure = 1,
				       .n = n,
				       .fails = fails,
				       .runs = runs,
				       .change = change });
	free(fails);
	free(change);
	free(runs);
}

/* A fail:runs table as the senders paste it (functional.h). */
void functional_fail_table(struct strbuf *out, const struct comparison *cmp,
			   const struct compare_roots *roots,
			   const struct lkp_tables *tables, int axes,
			   const struct strv *stats)
{
	struct strbuf head = STRBUF_INIT;
	size_t at = out->len, i;
	const char *p;
	int nl = 0;

	if (axes)
		axes_header(out, &roots->rts[0], tables);
	/* the id and dash lines: the last two of the ncompare header */
	table_group_header(
		&head, &cmp->ts,
		&(struct table_header){
			.naxes = 0,
			.n = cmp->n,
			.commit_lines = (const char *const *)cmp->commit_lines,
			.commit_ids = (const char *const *)cmp->commit_ids });
	for (p = head.buf + head.len - 1; p > head.buf; p--)
		if (*p == '\n' && ++nl == 3)
			break;
	strbuf_addstr(out, p + (*p == '\n'));
	table_fail_header(out, cmp->n);
	if (stats->n) {
		for (i = 0; i < stats->n; i++)
			fail_row(out, &cmp->ts, roots, stats->v[i]);
	} else {
		for (i = 0; i < cmp->nrows; i++)
			if (cmp->rows[i].failure)
				fail_row(out, &cmp->ts, roots,
					 cmp->rows[i].name);
	}
	rstrip_lines(out, at);
	strbuf_release(&head);
}

static void fail_table(struct strbuf *out, const struct functional_in *in,
		       int axes, const struct strv *stats)
{
	functional_fail_table(out, in->cmp, in->roots, in->tables, axes, stats);
}

static const char *const slots[] = { "intro", "params", "remark", "end",
				     "preface" };

static char *detach_or_null(struct strbuf *sb)
{
	if (!sb->len) {
		strbuf_release(sb);
		return NULL;
	}
	return strbuf_detach(sb, NULL);
}

static int fill_notes(struct report_functional *fn,
		      const struct functional_in *in, struct strbuf *remark)
{
	const struct request *req = in->req;
	struct strbuf slot[ARRAY_SIZE(slots)];
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(slots); k++)
		strbuf_init(&slot[k], 0);
	strbuf_addbuf(&slot[2], remark);
	for (i = 0; i < req->notes.n; i++) {
		const struct req_note *note =
			(const struct req_note *)req->notes.v + i;
		struct strbuf item = STRBUF_INIT;

		for (k = 0; k < ARRAY_SIZE(slots); k++)
			if (note->at && !strcmp(note->at, slots[k]))
				break;
		if (k == ARRAY_SIZE(slots)) {
			for (k = 0; k < ARRAY_SIZE(slots); k++)
				strbuf_release(&slot[k]);
			return error("%s: notes[%zu].at: '%s' is not a place "
				     "(want preface, intro, params, remark or "
				     "end)",
				     req->file, i, note->at ? note->at : "");
		}
		if (note->row) {
			for (k = 0; k < ARRAY_SIZE(slots); k++)
				strbuf_release(&slot[k]);
			return error(
				"%s: notes[%zu].row: a functional report's "
				"notes have no row (the words of a "
				"performance report's table)",
				req->file, i);
		}
		if (note->text && note->fail_runs) {
			for (k = 0; k < ARRAY_SIZE(slots); k++)
				strbuf_release(&slot[k]);
			return error("%s: notes[%zu]: text or fail_runs, not "
				     "both",
				     req->file, i);
		}
		if (note->fail_runs) {
			fail_table(&item, in, note->axes, &note->stats);
			fn->fail_runs++;
		} else
			strbuf_addstr(&item, note->text ? note->text : "");
		notes_add_item(&slot[k], item.buf);
		strbuf_release(&item);
	}
	fn->intro = detach_or_null(&slot[0]);
	fn->params = detach_or_null(&slot[1]);
	fn->remark = detach_or_null(&slot[2]);
	fn->end = detach_or_null(&slot[3]);
	fn->preface = detach_or_null(&slot[4]);
	return 0;
}

/*
 * A test's stat named after a kernel-log line it found ("TEST.dmesg.<line>",
 * lkp-tests' leaking-addresses parse): quoted from its output, in the
 * kernel log's layout.
 */
static int log_named(const char *kpi)
{
	size_t n = strcspn(kpi, ".");

	return kpi[n] == '.' && (has_prefix(kpi + n + 1, "dmesg.") ||
				 has_prefix(kpi + n + 1, "kmsg."));
}

/* The evidence: the request's items, or one excerpt by the rules. */
static int fill_evidence(struct report_functional *fn,
			 struct functional_logs *logs,
			 const struct functional_in *in)
{
	const struct request *req = in->req;
	const struct result_root *rt = &in->roots->rts[in->tested];
	struct dmesg_rules *rules = NULL;
	struct strbuf all = STRBUF_INIT, where = STRBUF_INIT;
	struct req_evidence one = { 0 };
	const struct req_evidence *items = &one;
	size_t n = 1, i;
	int ret = 0, first = 1;

	/* a test's stat quotes its output; the others a kernel log */
	fn->output = !has_prefix(req->test.kpi, "dmesg.") &&
		     !has_prefix(req->test.kpi, "kmsg.") &&
		     !has_prefix(req->test.kpi, "last_state.");
	fn->test_stat = fn->output;
	if (log_named(req->test.kpi))
		fn->output = 0;
	if (req->no_evidence)
		return 0;
	if (req->evidence.n) {
		items = req->evidence.v;
		n = req->evidence.n;
	}
	for (i = 0; i < n && !ret; i++) {
		const struct req_evidence *e = &items[i];
		struct evidence_opts o = { e->file,	 e->run,      e->before,
					   e->after,	 e->from,     e->lines,
					   e->max_lines, e->max_bytes };
		struct evidence ev;

		if (e->text) {
			notes_add_item(&all, e->text);
			continue;
		}
		if (e->fail_runs) {
			struct strbuf item = STRBUF_INIT;

			fail_table(&item, in, e->axes, &e->stats);
			fn->fail_runs++;
			notes_add_item(&all, item.buf);
			strbuf_release(&item);
			continue;
		}
		if (!rules) {
			rules = dmesg_rules_load(in->st->date);
			if (!rules) {
				ret = -1;
				break;
			}
		}
		strbuf_reset(&where);
		if (req->evidence.n)
			strbuf_addf(&where, "%s: evidence[%zu]", req->file, i);
		else
			strbuf_addf(&where, "%s: kpi", req->file);
		ret = evidence_find(&ev, rt, req->test.kpi, &o, rules,
				    where.buf);
		if (ret)
			break;
		if (ev.cut)
			warning("%s: the excerpt of %s is cut at %zu lines",
				where.buf, ev.path, ev.nlines);
		if (first) {
			if (e->file)
				fn->output = strcmp(e->file, "dmesg") &&
					     strcmp(e->file, "kmsg") &&
					     !log_named(req->test.kpi);
			logs->n = evidence_logs(ev.run_dir, logs->paths);
			first = 0;
		}
		notes_add_item(&all, ev.text);
		evidence_release(&ev);
	}
	dmesg_rules_free(rules);
	strbuf_release(&where);
	if (!ret)
		fn->evidence = detach_or_null(&all);
	else
		strbuf_release(&all);
	return ret;
}

/*
 * Where the evidence goes: after the tags; as the remark's last item,
 * before the tags ("remark": an operator's own layout, the style's
 * fevidence_at in config/data/styles); or after the download link, after
 * the words there ("end": the request's evidence_at, a sender's choice for
 * one report).
 */
static int evidence_place(struct report_functional *fn,
			  const struct functional_in *in)
{
	const char *at = in->req->evidence_at;
	struct strbuf sb = STRBUF_INIT;
	char **slot;

	if (!at)
		at = style_get(in->st, "fevidence_at");
	if (!at || !strcmp(at, "tags"))
		return 0;
	if (!strcmp(at, "remark"))
		slot = &fn->remark;
	else if (!strcmp(at, "end"))
		slot = &fn->end;
	else
		return error("%s: evidence_at: '%s' is not a place (want tags, "
			     "remark or end)",
			     in->req->evidence_at ? in->req->file : "styles",
			     at);
	if (!fn->evidence)
		return 0;
	if (*slot)
		strbuf_addstr(&sb, *slot);
	notes_add_item(&sb, fn->evidence);
	free(*slot);
	free(fn->evidence);
	*slot = strbuf_detach(&sb, NULL);
	fn->evidence = NULL;
	return 0;
}

int functional_fill(struct report_functional *fn, struct functional_logs *logs,
		    const struct functional_in *in)
{
	const struct request *req = in->req;
	const struct result_root *tested = &in->roots->rts[in->tested];
	const char *tbox = job_get(&tested->job, "tbox_group");
	const char *modules = job_get(&tested->job, "modules_initrd");
	struct strbuf remark = STRBUF_INIT;
	int ret;

	fn->headline = headline(req->test.kpi);
	fn->version = version(&tested->job);
	fn->arch = arch(&tested->job);
	fn->release = in->release ? xstrdup(in->release) : NULL;
	fn->vm = tbox && has_prefix(tbox, "vm-");
	fn->modules = modules && *modules;
	/* the result table: asked for, or by default for a VM's test */
	if (!req->no_result_table && (req->result_table.n || fn->vm)) {
		struct strv rows = { 0 };

		if (req->result_table.n)
			result_table(&remark, in->roots, &req->result_table);
		else {
			default_rows(&rows, in->roots);
			result_table(&remark, in->roots, &rows);
		}
		while (rows.n)
			free(rows.v[--rows.n]);
		free(rows.v);
	}
	ret = fill_notes(fn, in, &remark);
	strbuf_release(&remark);
	if (!ret)
		ret = fill_evidence(fn, logs, in);
	if (!ret)
		ret = evidence_place(fn, in);
	return ret;
}

void functional_logs_release(struct functional_logs *logs)
{
	while (logs->n)
		free(logs->paths[--logs->n]);
}
