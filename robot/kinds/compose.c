// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose.c: assembling one report.
 *
 *   request + config --> date, style day, lkp tables, commit metadata
 *                    --> per test: result roots --> comparison --> block,
 *                        KPI row, direction --> struct report_test
 *                    --> report_render() (templates) --> Subject, body
 *                    --> struct msg (mail/) --> bytes --> lint
 *
 * Precedence, everywhere: the command line, then the request, then the
 * configuration, then the built-in default.  Every value that reaches the
 * output comes from an input (the clock only when neither the request
 * nor SOURCE_DATE_EPOCH gives a date), so the same request gives the same
 * bytes.
 */
#include "robot/util/common.h"
#include "robot/engine/bisect.h"
#include "robot/kinds/compose.h"
#include "robot/engine/compare.h"
#include "robot/util/dir.h"
#include "robot/incoming/followup.h"
#include "robot/kinds/functional/functional.h"
#include "robot/incoming/guard.h"
#include "robot/report/inputs.h"
#include "robot/delivery/record.h"
#include "robot/kinds/reply/reply.h"
#include "robot/report/report.h"
#include "robot/engine/results.h"
#include "robot/delivery/spool.h"
#include "robot/engine/table.h"
#include "robot/delivery/thread.h"
#include "robot/util/utf8.h"
#include "robot/util/xz.h"
#include "config/config.h"
#include "config/lkp.h"
#include "config/request.h"
#include "config/style.h"
#include "git/commits.h"
#include "git/repo.h"
#include "mail/header.h"
#include "mail/lint.h"
#include "mail/lore.h"
#include "mail/msg.h"
#include "mail/valid.h"

#include <dirent.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The report's moment, in its own zone. */
struct when {
	time_t t;
	int tz; /* minutes east of UTC */
	struct tm local;
};

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed",
				     "Thu", "Fri", "Sat" };
static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

static int parse_tz(const char *s, int *tz)
{
	if (strlen(s) != 5 || (s[0] != '+' && s[0] != '-') ||
	    strspn(s + 1, "0123456789") != 4)
		return -1;
	*tz = ((s[1] - '0') * 10 + (s[2] - '0')) * 60 + (s[3] - '0') * 10 +
	      (s[4] - '0');
	if (s[0] == '-')
		*tz = -*tz;
	return 0;
}

static void when_set(struct when *w, time_t t, int tz)
{
	time_t local = t + (time_t)tz * 60;

	w->t = t;
	w->tz = tz;
	gmtime_r(&local, &w->local);
}

/*
 * "2023-06-07 14:32:17 +0800", or the RFC 5322 form of a mail's Date
 * header, "Wed, 7 Jun 2023 14:32:17 +0800".
 */
static int parse_date(struct when *w, const char *s)
{
	char mon[4] = "", tzs[6] = "", wday[4] = "", iso[40];
	int y, m = 0, d, hh, mm, ss, tz, n = 0;
	int64_t t;
	size_t i;

	/* a Date header's form is rewritten into the numeric one */
	if (sscanf(s, "%3s, %2d %3s %4d %2d:%2d:%2d %5s%n", wday, &d, mon, &y,
		   &hh, &mm, &ss, tzs, &n) == 8 &&
	    !s[n]) {
		for (i = 0; i < ARRAY_SIZE(months); i++)
			if (!strcmp(mon, months[i]))
				m = (int)i + 1;
		snprintf(iso, sizeof(iso), "%04d-%02d-%02d %02d:%02d:%02d %s",
			 y, m, d, hh, mm, ss, tzs);
		s = iso;
	}
	/* one parser for "YYYY-MM-DD hh:mm:ss +zzzz" (git/commits.c) */
	if (commit_date_parse(s, &t, &tz) || t < 0)
		return -1;
	when_set(w, (time_t)t, tz);
	return 0;
}

/* The request's date, else SOURCE_DATE_EPOCH, else the clock. */
static int report_when(struct when *w, const struct request *req,
		       const struct robot_config *cfg)
{
	time_t t;
	int tz, sde;

	if (req->date) {
		if (parse_date(w, req->date))
			return error("%s: date: '%s' is not "
				     "'YYYY-MM-DD hh:mm:ss +zzzz'",
				     req->file, req->date);
		return 0;
	}
	if (parse_tz(cfg->timezone, &tz))
		return error("%s: timezone: bad value '%s'", cfg->file,
			     cfg->timezone);
	sde = source_date_epoch(&t);
	if (sde < 0)
		return -1;
	when_set(w, sde ? t : time(NULL), tz);
	return 0;
}

/* RFC 5322 §3.3 date-time, as 0-day's mailer writes it. */
static void format_date(struct strbuf *out, const struct when *w)
{
	int tz = w->tz < 0 ? -w->tz : w->tz;

	strbuf_addf(out, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d",
		    wdays[w->local.tm_wday], w->local.tm_mday,
		    months[w->local.tm_mon], w->local.tm_year + 1900,
		    w->local.tm_hour, w->local.tm_min, w->local.tm_sec,
		    w->tz < 0 ? '-' : '+', tz / 60, tz % 60);
}

/*
 * A reply's KPI against the base in its first table: the reported
 * commit's change (column 1) and the last column's, and whether lkp-tests'
 * rules find the last column's changed at all.
 */
struct reply_judge {
	int has_row, fix_changed;
	size_t n;
	double bad_change, fix_change;
	int direction;
};

struct ctx {
	const struct request *req;
	const struct robot_config *cfg;
	struct style st;
	struct lkp_tables *tables;
	struct commit_set commits; /* from the file, or read from the repo */
	struct when when;
	char *tested; /* the full id of the tested commit; NULL: not given */
	/* inputs found missing while building (the report's; borrowed) */
	struct needs *needs;
	/* a functional report: its data, and the kernel logs to attach */
	int functional;
	struct report_functional *fn;
	struct functional_logs logs;
	int offline;		    /* --dry-run: the lore cache only */
	unsigned revision;	    /* compose --force: the Nth correction */
	struct thread_found thread; /* the posted patch, when threaded */
	int threaded;
	/* a follow-up (compose_reply): its own commit lines, the verdict */
	int reply;
	/*
	 * a report whose period publishes its materials under archive_dir
	 * (`repro download`), in a folder the Message-ID names
	 */
	int publish;
	char *base_id;	 /* the full id of the first test's base */
	char *note;	 /* the request's note_parts, the rows printed */
	char *second_id; /* ... and of its second column */
	struct reply_judge judge;
};

/* The metadata of commit `id`, from the request's file or repository. */
static const struct commit_info *ctx_commit(struct ctx *c, const char *id,
					    const char *what)
{
	const struct commit_info *ci = commits_find(&c->commits, id);
	struct commit_info fresh;

	if (ci)
		return ci;
	if (c->req->repo) {
		if (repo_commit_info(&fresh, c->req->repo, id))
			return NULL;
		ALLOC_GROW(c->commits.c, c->commits.nr + 1, c->commits.alloc);
		c->commits.c[c->commits.nr] = fresh;
		return &c->commits.c[c->commits.nr++];
	}
	if (c->req->commits)
		error("%s: commit '%s' (%s) is not in '%s'", c->req->file, id,
		      what, c->req->commits);
	else
		error("%s: commit '%s' (%s): the request names neither "
		      "'commits' nor 'repo'",
		      c->req->file, id, what);
	return NULL;
}

/* compare_commit_fn for the comparisons: the request's commit metadata. */
static const struct commit_info *find_commit(void *ctx, const char *id,
					     const struct result_root *rt)
{
	return ctx_commit(ctx, id, rt->dir);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void fill_host(struct report_host *h, const struct job *job,
		      const char *machine)
{
	h->nr_cpu = dup_or_null(job_get(job, "nr_cpu"));
	h->nr_node = dup_or_null(job_get(job, "nr_node"));
	h->brand = dup_or_null(job_get(job, "brand"));
	h->model = dup_or_null(job_get(job, "model"));
	h->memory = dup_or_null(job_get(job, "memory"));
	h->text = dup_or_null(machine);
}

/* Whether `key` is a word of the blank-separated `list`. */
static int in_list(const char *list, const char *key)
{
	size_t n = strlen(key);

	while (list && *list) {
		size_t w;

		list += strspn(list, " \t");
		w = strcspn(list, " \t");
		if (w == n && !strncmp(list, key, n))
			return 1;
		list += w;
	}
	return 0;
}

/*
 * The parameters under "in testcase:": the job's parameters but for the
 * style's params_unlisted, keys that are axes but never listed (boot's
 * "sleep: 1": config/data/styles).
 */
static void fill_params(struct report_test *t, const struct job *job,
			const struct lkp_tables *tables, const struct style *st)
{
	const char *unlisted = style_get(st, "params_unlisted");
	const struct job_entry **params;
	size_t i, n;

	n = compare_job_params(job, tables, &params);
	t->params = xcalloc(n + 1, sizeof(*t->params));
	t->nparams = 0;
	for (i = 0; i < n; i++) {
		if (!params[i]->section && in_list(unlisted, params[i]->key))
			continue;
		t->params[t->nparams].key = xstrdup(params[i]->key);
		t->params[t->nparams++].value = xstrdup(params[i]->val);
	}
	free(params);
}

/* The KPI's row: its change against the base, and which way is better. */
static int kpi_change(struct ctx *c, struct report_test *t,
		      const struct comparison *cmp, const char *where)
{
	const struct cmp_row *row;
	int dir;

	/* a missing kpi is named with the rest, by the templates' pass */
	if (!t->kpi)
		return 0;
	row = comparison_row(cmp, t->kpi);
	if (!row || row->failure)
		return error("%s: %skpi: '%s' has no row in the comparison",
			     c->req->file, where, t->kpi);
	/*
	 * A change in percent of a base of 0 is lkp-tests' +Inf%, +NaN%
	 * (0 to 0) or, with tiny_zero_base, -100% or 1e+102%: a table shows
	 * it as lkp-tests did, a headline would state it as a fact.
	 */
	if (!row->abs_change && row->avg[0] == 0)
		return error(
			"%s: %skpi: '%s' has a mean of 0 in the base result "
			"root, so its change has no percentage for the "
			"headline",
			c->req->file, where, t->kpi);
	/*
	 * A KPI no table knows the direction of is still reported, as a
	 * regression with its sign kept, as 0-day did (corpus mails 274 and
	 * 289, sysbench-fileio.write_operations/s "-5.2% regression" while
	 * other headlines of those weeks dropped the sign).
	 */
	dir = lkp_kpi_direction(c->tables, t->kpi);
	t->change = row->change[0];
	t->no_direction = !dir;
	t->improvement = dir && dir * t->change >= 0;
	return 0;
}

/*
 * The base is what the tested commit is compared against: a base that is
 * the tested commit would report the base itself as the change.
 */
static int check_base(struct ctx *c, const struct compare_roots *roots,
		      const char *where, const char *key)
{
	const char *id = job_get(&roots->rts[0].job, "commit");
	const struct commit_info *ci;

	if (!c->tested)
		return 0;
	ci = ctx_commit(c, id, roots->rts[0].dir);
	if (!ci)
		return -1;
	if (strcmp(ci->id, c->tested))
		return 0;
	return error("%s: %s%s[0]: the base result root '%s' is of the tested "
		     "commit %s (the base comes first)",
		     c->req->file, where, key, roots->rts[0].dir, c->tested);
}

/*
 * The data of a functional report, from the top-level test's roots: the
 * tested commit's root is the one of the request's commit, else the last.
 */
static int build_functional(struct ctx *c, const struct compare_roots *roots,
			    const struct comparison *cmp)
{
	struct functional_in in = { .req = c->req,
				    .st = &c->st,
				    .tables = c->tables,
				    .roots = roots,
				    .cmp = cmp,
				    .tested = roots->n - 1 };
	const struct commit_info *ci = NULL;
	size_t i;

	if (c->req->commit) {
		ci = ctx_commit(c, c->req->commit, "commit");
		if (!ci)
			return -1;
		for (i = 0; i < roots->n; i++) {
			const char *id = job_get(&roots->rts[i].job, "commit");

			if (id && !strcmp(id, ci->id))
				in.tested = i;
		}
		in.release = ci->release;
	}
	c->fn = xcalloc(1, sizeof(*c->fn));
	return functional_fill(c->fn, &c->logs, &in);
}

static int reply_label(struct ctx *c, struct compare_roots *roots);
static void reply_judge(struct ctx *c, const struct compare_roots *roots,
			const struct comparison *cmp,
			const struct compare_opts *o,
			const struct report_test *t);

/*
 * The style's threshold_delta: 0 when the reports of the day show rows
 * whose median delta is below half an Integer threshold of lkp-tests'
 * reasonable_perf_change?, as 0-day's of 2017-08 to 2021-06 do, under a
 * Ruby whose integers were Fixnum (config/data/styles).  Only the report's
 * tables follow it; `robot compare` is lkp-tests' ncompare.
 */
static int report_thresholds(const struct ctx *c, struct compare_opts *o)
{
	int delta;

	if (style_get_int(&c->st, "threshold_delta", &delta))
		return -1;
	if (!delta)
		o->disabled |= RULE_THRESHOLD_DELTA;
	return 0;
}

/*
 * The request's note_parts, after the first test's comparison: the
 * sender's words as written and the rows they quote as that table prints
 * them (208: two rows of other regressions, 287: a row without a
 * change), so that no row of a table is text an operator copies.
 */
static int build_note(struct ctx *c, const struct comparison *cmp)
{
	const struct request *req = c->req;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	for (i = 0; i < req->note_parts.n; i++) {
		const struct req_note_part *p =
			(const struct req_note_part *)req->note_parts.v + i;

		strbuf_addstr(&sb, p->text ? p->text : "");
		for (k = 0; k < p->rows.n; k++) {
			if (!comparison_print_row(&sb, cmp, p->rows.v[k]))
				continue;
			strbuf_release(&sb);
			return error("%s: note_parts[%zu].rows: '%s' is not a "
				     "row of the first test's table (`show` "
				     "adds a row)",
				     req->file, i, p->rows.v[k]);
		}
	}
	free(c->note);
	c->note = strbuf_detach(&sb, NULL);
	return 0;
}

/*
 * The rows the sender appended to the first test's table, after its
 * sorted rows, in the request's order (277: every other vm-scalability.*
 * stat, changed or not): each printed as the table prints a row, from a
 * comparison of every stat of the same roots.  A stat the table shows
 * already, or that no root has, is an error.
 */
static int append_rows(struct ctx *c, const struct result_root *rts, size_t n,
		       const struct comparison *cmp,
		       const struct compare_opts *o, struct strbuf *block)
{
	const struct request *req = c->req;
	struct compare_opts every_o = *o;
	struct comparison every = { 0 };
	struct strbuf rows = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	if (c->functional || c->reply)
		return error("%s: append: rows of a performance report's "
			     "table, not a %s's",
			     req->file,
			     c->reply ? "reply" : "functional report");
	if (!block->len)
		return error("%s: append: the first test's table has no rows "
			     "to append to",
			     req->file);
	every_o.all = 1;
	if (comparison_build(&every, rts, n, &every_o)) {
		comparison_release(&every);
		return -1;
	}
	for (i = 0; !ret && i < req->append.n; i++) {
		const char *stat = req->append.v[i];

		for (k = 0; k < i && strcmp(req->append.v[k], stat); k++)
			;
		if (k < i)
			ret = error("%s: append[%zu]: '%s' is append[%zu] "
				    "already",
				    req->file, i, stat, k);
		else if (comparison_row(cmp, stat))
			ret = error("%s: append[%zu]: '%s' is a row of the "
				    "first test's table already",
				    req->file, i, stat);
		else if (comparison_print_row(&rows, &every, stat))
			ret = error("%s: append[%zu]: '%s' is not a stat of "
				    "the first test's result roots",
				    req->file, i, stat);
	}
	if (!ret) {
		/* before the table's own last empty line */
		strbuf_setlen(block, block->len - 1);
		strbuf_addbuf(block, &rows);
		strbuf_addch(block, '\n');
	}
	strbuf_release(&rows);
	comparison_release(&every);
	return ret;
}

/*
 * The sender's words on a row of the first test's table (301: "<--------
 * (a)", which the note under the headline refers to): appended to the
 * row's line as written.
 */
static int mark_row(struct report_test *t, const char *file, size_t i,
		    const struct req_note *note)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = t->block, *eol;
	size_t len = strlen(note->row), n;
	int found = 0;

	for (; p && *p; p += n) {
		eol = strchr(p, '\n');
		n = eol ? (size_t)(eol - p) : strlen(p);
		strbuf_add(&sb, p, n);
		if (!found && n > len && !memcmp(p + n - len, note->row, len) &&
		    p[n - len - 1] == ' ') {
			found = 1;
			strbuf_addstr(&sb, note->text);
		}
		if (eol) {
			strbuf_addch(&sb, '\n');
			n++;
		}
	}
	if (!found) {
		strbuf_release(&sb);
		return error("%s: notes[%zu].row: '%s' is not a row of the "
			     "first test's table (`show` adds a row)",
			     file, i, note->row);
	}
	free(t->block);
	t->block = strbuf_detach(&sb, NULL);
	return 0;
}

/*
 * The sender's words in a performance report (the request's `notes`):
 * after the repository line, before the still lines (324: why it was
 * reported at all), after the parameters (dmesg lines the sender
 * compared, 278's perf-c2c figures; they take the place of the empty lines
 * before the tags or "Details"), before the reproduce block (278's "[1]"
 * that its words point to), on a row of the first test's table
 * (`table` and `row`: 301's arrow), after the last table in place of the
 * empty lines there (`details`), at the end, before the signature (116's
 * "#regzbot introduced: <sha>" for the regressions tracker), or after the
 * signature (`post`: 277's "<below more details ...>" and its rows).
 * Words only: every table robot prints is its own.
 */
static int build_test(struct ctx *c, const struct req_test *rq,
		      struct report_test *t, const char *where,
		      const char *key);

/* Whether the n bytes at `line` are a whole line of `lines`. */
static int is_line_of(const char *lines, const char *line, size_t n)
{
	const char *eol;

	for (; *lines; lines = eol + (*eol == '\n')) {
		eol = strchr(lines, '\n');
		if (!eol)
			eol = lines + strlen(lines);
		if ((size_t)(eol - lines) == n && !memcmp(lines, line, n))
			return 1;
	}
	return 0;
}

/*
 * A table among the sender's words (278: perf-c2c figures of further runs
 * of the same two commits): the comparison of the note's result roots,
 * every stat of them, from the commits' id line on, as a sender pastes it
 * from a terminal: each line without its trailing blanks.  `rows_only`:
 * its rows alone, without the id, dash and header lines (277's more
 * details after the signature, rows that follow the table above).
 */
static int note_table(struct ctx *c, const struct req_note *note, size_t i,
		      int rows_only, struct strbuf *out)
{
	struct req_test rq = { .result_roots = note->table, .all_stats = 1 };
	struct report_test t = { 0 };
	struct strbuf where = STRBUF_INIT, heads = STRBUF_INIT;
	const char *p, *q;
	size_t k;
	int ret;

	strbuf_addf(&where, "notes[%zu].", i);
	ret = build_test(c, &rq, &t, where.buf, "table");
	/* the header lines a table of rows only leaves out */
	if (rows_only) {
		table_fail_header(&heads, rq.result_roots.n);
		table_perf_header(&heads, rq.result_roots.n);
	}
	if (!ret && t.block) {
		/* from the id line above the dashes under it */
		p = strstr(t.block, "\n----------------");
		while (p && p > t.block && p[-1] != '\n')
			p--;
		/* ... or, its rows only, from the line after those dashes */
		for (k = 0; p && rows_only && k < 2; k++)
			p = (q = strchr(p, '\n')) ? q + 1 : NULL;
		for (; p && *p; p = q + (*q == '\n')) {
			size_t n;

			q = strchr(p, '\n');
			if (!q)
				q = p + strlen(p);
			n = (size_t)(q - p);
			if (rows_only && is_line_of(heads.buf, p, n))
				continue;
			while (n && p[n - 1] == ' ')
				n--;
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		/* the table's own last empty line: the note's follow it */
		while (out->len > 1 && out->buf[out->len - 1] == '\n' &&
		       out->buf[out->len - 2] == '\n')
			strbuf_setlen(out, out->len - 1);
	}
	report_test_release(&t);
	strbuf_release(&where);
	strbuf_release(&heads);
	return ret;
}

static int build_perf_notes(struct ctx *c, struct report *r)
{
	const struct request *req = c->req;
	struct strbuf params = STRBUF_INIT, repro = STRBUF_INIT;
	struct strbuf source = STRBUF_INIT, end = STRBUF_INIT;
	struct strbuf post_words = STRBUF_INIT, details = STRBUF_INIT;
	/* each place's words, and the report's field they go to */
	const struct {
		struct strbuf *words;
		char **note;
	} places[] = {
		{ &params, &r->params_note },	{ &repro, &r->repro_note },
		{ &source, &r->source_note },	{ &end, &r->end_note },
		{ &post_words, &r->post_note }, { &details, &r->details_note },
	};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < req->notes.n; i++) {
		const struct req_note *note =
			(const struct req_note *)req->notes.v + i;
		const char *at = note->at ? note->at : "";
		int post = !strcmp(at, "post");

		if (note->table.n &&
		    (note->text || (strcmp(at, "params") && !post)))
			ret = error("%s: notes[%zu]: a table is an item of its "
				    "own, at params or post",
				    req->file, i);
		else if (note->table.n) {
			struct strbuf tab = STRBUF_INIT;

			ret = note_table(c, note, i, post, &tab);
			if (!ret)
				notes_add_item(post ? &post_words : &params,
					       tab.buf);
			strbuf_release(&tab);
		} else if (!note->text || note->fail_runs || note->axes ||
			   note->stats.n)
			ret = error("%s: notes[%zu]: a performance report's "
				    "notes are words (text) or a table of "
				    "result roots, not fail:runs tables",
				    req->file, i);
		else if (!!note->row != !strcmp(at, "table"))
			ret = error("%s: notes[%zu]: %s", req->file, i,
				    note->row
					    ? "row is for a note at table"
					    : "a note at table names its row");
		else if (!strcmp(at, "params"))
			notes_add_item(&params, note->text);
		else if (!strcmp(at, "repro"))
			notes_add_item(&repro, note->text);
		else if (!strcmp(at, "source"))
			notes_add_item(&source, note->text);
		else if (!strcmp(at, "end"))
			notes_add_item(&end, note->text);
		else if (post)
			notes_add_item(&post_words, note->text);
		else if (!strcmp(at, "details"))
			notes_add_item(&details, note->text);
		else if (!strcmp(at, "table"))
			ret = r->ntests ? mark_row(&r->tests[0], req->file, i,
						   note)
					: 0;
		else
			ret = error("%s: notes[%zu].at: '%s' is not a place of "
				    "a performance report (want source, "
				    "params, repro, table, details, end or "
				    "post)",
				    req->file, i, at);
	}
	for (i = 0; i < ARRAY_SIZE(places); i++) {
		if (!ret && places[i].words->len)
			*places[i].note = strbuf_detach(places[i].words, NULL);
		strbuf_release(places[i].words);
	}
	return ret;
}

/* note or note_parts, and each part words or rows. */
static int check_note(const struct request *req)
{
	size_t i;

	if (req->note && req->note_parts.n)
		return error("%s: note and note_parts: one of them, not both",
			     req->file);
	for (i = 0; i < req->note_parts.n; i++) {
		const struct req_note_part *p =
			(const struct req_note_part *)req->note_parts.v + i;

		if (!p->text == !p->rows.n)
			return error("%s: note_parts[%zu]: text or rows, %s",
				     req->file, i,
				     p->text ? "not both" : "one of them");
	}
	return 0;
}

/*
 * One test: load its roots, compare them, describe it.  `where` is the
 * test's key prefix in the request: "" for the top level, "sections[0].";
 * `key` names its result roots there: "result_roots", a note's "table".
 */
static int build_test(struct ctx *c, const struct req_test *rq,
		      struct report_test *t, const char *where, const char *key)
{
	size_t n = rq->result_roots.n, i;
	struct compare_opts o = { .style = &c->st, .tables = c->tables };
	struct compare_roots roots = { 0 };
	struct comparison cmp = { 0 };
	struct strbuf block = STRBUF_INIT;
	const struct job *job;
	struct strbuf name = STRBUF_INIT;
	int ret = -1, commits = 1;

	t->kpi = dup_or_null(rq->kpi);
	o.force = t->kpi;
	o.shown = (const char *const *)c->req->show.v;
	o.nshown = c->req->show.n;
	if (report_thresholds(c, &o))
		goto out;
	if (!n) {
		/* named at once with every other missing input */
		strbuf_addf(&name, "%s%s", where, key);
		needs_add_key(c->needs, c->req->file, name.buf,
			      "the comparison");
		t->no_inputs = 1;
		ret = 0;
		goto out;
	}
	o.all = rq->all_stats;
	if (n < 2) {
		error("%s: %s%s: a comparison needs at least two", c->req->file,
		      where, key);
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct stat st;

		/* a root that is not there is the request's fault: say which */
		if (stat(rq->result_roots.v[i], &st)) {
			error_errno("%s: %s%s[%zu]: cannot open '%s'",
				    c->req->file, where, key, i,
				    rq->result_roots.v[i]);
			goto out;
		}
	}
	if (compare_roots_load(&roots, rq->result_roots.v, n))
		goto out;
	/*
	 * Without its commit a root cannot be compared; the rest of the test
	 * is still read, so that one error names every missing key.
	 */
	for (i = 0; i < n; i++) {
		if (job_get(&roots.rts[i].job, "commit"))
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "%s/%s/job.yaml", roots.rts[i].dir,
			    roots.rts[i].run_names[0]);
		needs_add_key(c->needs, name.buf, "commit", "the comparison");
		commits = 0;
	}
	if (commits &&
	    (c->reply ? reply_label(c, &roots)
		      : (compare_roots_label(&roots, find_commit, c) ||
			 check_base(c, &roots, where, key))))
		goto out;
	if (!*where && !c->base_id) {
		c->base_id = dup_or_null(job_get(&roots.rts[0].job, "commit"));
		c->second_id =
			dup_or_null(job_get(&roots.rts[1].job, "commit"));
	}
	o.commit_lines = (const char *const *)roots.lines;
	o.commit_ids = (const char *const *)roots.ids;
	if (commits &&
	    (comparison_build(&cmp, roots.rts, n, &o) ||
	     (!(c->functional && !*where) &&
	      (!c->reply || (t->kpi && !functional_kpi(c->tables, t->kpi))) &&
	      kpi_change(c, t, &cmp, where)) ||
	     (c->functional && !*where && build_functional(c, &roots, &cmp))))
		goto out;
	if (commits) {
		comparison_print(&block, &cmp);
		if (!*where && c->req->append.n &&
		    append_rows(c, roots.rts, n, &cmp, &o, &block))
			goto out;
		if (c->reply) {
			reply_table_layout(&block, &c->st);
			if (!*where)
				reply_judge(c, &roots, &cmp, &o, t);
		}
		t->block = strbuf_detach(&block, NULL);
		if (!*where && c->req->note_parts.n && build_note(c, &cmp))
			goto out;
	}
	job = &roots.rts[0].job;
	t->job_file = xasprintf("%s/%s/job.yaml", roots.rts[0].dir,
				roots.rts[0].run_names[0]);
	t->testcase = dup_or_null(job_get(job, "testcase"));
	t->tbox_group = dup_or_null(job_get(job, "tbox_group"));
	t->kconfig = dup_or_null(job_get(job, "kconfig"));
	t->compiler = dup_or_null(job_get(job, "compiler"));
	t->test_description = dup_or_null(rq->test_description);
	t->test_url = dup_or_null(rq->test_url);
	fill_host(&t->host, job, rq->machine);
	fill_params(t, job, c->tables, &c->st);
	/* a missing testcase, host field, ... is the templates' to name */
	ret = 0;
out:
	comparison_release(&cmp);
	strbuf_release(&block);
	strbuf_release(&name);
	compare_roots_release(&roots);
	return ret;
}

/*
 * The bisection's plots for the first test, from the request's bisect
 * roots (robot/engine/bisect.h); report.c draws them when the period did.
 */
static int build_plots(struct ctx *c, struct report_test *t)
{
	const struct req_bisect *b = &c->req->bisect;
	struct compare_opts o = { .style = &c->st, .tables = c->tables };
	char *where;
	int ret;

	if (!b->good.n && !b->bad.n)
		return 0;
	/* a bisected stat is forced past the change rules (d2a03836e) */
	o.force = t->kpi;
	o.shown = (const char *const *)b->stats.v;
	o.nshown = b->stats.n;
	if (report_thresholds(c, &o))
		return -1;
	where = xasprintf("%s: bisect", c->req->file);
	ret = bisect_plots(&t->plots, &t->nplots, b->good.v, b->good.n,
			   b->bad.v, b->bad.n, &o, where);
	free(where);
	return ret;
}

static int build_tests(struct ctx *c, struct report *r)
{
	const struct objv *sections = &c->req->sections;
	const struct objv *adds = &c->req->additions;
	struct strbuf where = STRBUF_INIT;
	size_t i;
	int ret = 0;

	r->ntests = 1 + sections->n;
	r->tests = xcalloc(r->ntests, sizeof(*r->tests));
	ret = build_test(c, &c->req->test, &r->tests[0], "", "result_roots");
	if (!ret)
		ret = build_plots(c, &r->tests[0]);
	for (i = 0; i < sections->n && !ret; i++) {
		const struct req_test *rq =
			(const struct req_test *)sections->v + i;

		strbuf_reset(&where);
		strbuf_addf(&where, "sections[%zu].", i);
		if (rq->no_section)
			ret = error("%s: %sno_section: only an In-addition "
				    "entry (additions) can have no section",
				    c->req->file, where.buf);
		else
			ret = build_test(c, rq, &r->tests[1 + i], where.buf,
					 "result_roots");
	}
	r->nadditions = adds->n;
	r->additions = xcalloc(adds->n ? adds->n : 1, sizeof(*r->additions));
	for (i = 0; i < adds->n && !ret; i++) {
		strbuf_reset(&where);
		strbuf_addf(&where, "additions[%zu].", i);
		ret = build_test(c, (const struct req_test *)adds->v + i,
				 &r->additions[i], where.buf, "result_roots");
		r->additions[i].no_section =
			((const struct req_test *)adds->v + i)->no_section;
	}
	strbuf_release(&where);
	return ret;
}

/* The identity of a report: commit, test, parameters, box and KPI. */
static char *report_key(const struct report *r)
{
	const struct report_test *t = &r->tests[0];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addf(&sb, "commit=%s\ntestcase=%s\ntbox_group=%s\nkpi=%s\n",
		    r->commit_id ? r->commit_id : "",
		    t->testcase ? t->testcase : "",
		    t->tbox_group ? t->tbox_group : "", t->kpi ? t->kpi : "");
	for (i = 0; i < t->nparams; i++)
		strbuf_addf(&sb, "%s=%s\n", t->params[i].key,
			    t->params[i].value);
	return strbuf_detach(&sb, NULL);
}

/*
 * 0-day's form: <YYYYMMDDhhmm.HEX-USER@DOMAIN>, HEX a 32-bit digest in 8
 * digits.
 */
static char *make_message_id(const struct ctx *c, const char *key)
{
	uint64_t h64 = fnv1a64(FNV64_INIT, key, strlen(key));
	uint32_t h = (uint32_t)(h64 ^ (h64 >> 32));

	return xasprintf("<%04d%02d%02d%02d%02d.%08x-%s@%s>",
			 c->when.local.tm_year + 1900, c->when.local.tm_mon + 1,
			 c->when.local.tm_mday, c->when.local.tm_hour,
			 c->when.local.tm_min, h, c->cfg->message_id_user,
			 c->cfg->message_id_domain);
}

/*
 * A Message-ID robot can use: one <id@host>, as the header wants it, and,
 * when the id names the materials' folder under archive_dir (`folder`: a
 * style that publishes them), no '/': "<a/../../b@host>" must not climb
 * out of it.  Other periods take any id the header takes: a mailer's
 * "<YsbxPjmWXXobY/QH@host>" (the corpus's functional 431, 2022-07).
 */
static int check_message_id(const char *id, const char *file, const char *key,
			    int folder)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (hdr_validate("Message-ID", id, strlen(id), &why))
		ret = error("%s: %s: %s", file, key, why.buf);
	else if (folder && strchr(id, '/'))
		ret = error("%s: %s: '%s' contains '/' (the id names a folder "
			    "under archive_dir)",
			    file, key, id);
	strbuf_release(&why);
	return ret;
}

/*
 * The day the report was made, YYYYMMDD, which names the materials'
 * folder: the one in 0-day's Message-ID, <YYYYMMDDhhmm.HEX-USER@DOMAIN>,
 * when it has that form, else the Date's.  A report can go out days after
 * it was made: 123 (Date 2023-10-21, id 202310202303...) links
 * archive/20231020/, 126 (Date 2024-03-03, id 202403011849...) 20240301/.
 */
static char *report_day(const struct ctx *c, const char *msgid)
{
	struct tm tm = { 0 };
	int y, m, d;

	if (strlen(msgid) > 14 && msgid[0] == '<' &&
	    strspn(msgid + 1, "0123456789") == 12 && msgid[13] == '.' &&
	    sscanf(msgid + 1, "%4d%2d%2d", &y, &m, &d) == 3 && y >= 1970 &&
	    m >= 1 && m <= 12 && d >= 1 && d <= 31) {
		time_t t;

		tm.tm_year = y - 1900;
		tm.tm_mon = m - 1;
		tm.tm_mday = d;
		t = timegm(&tm);
		gmtime_r(&t, &tm);
		if (tm.tm_mday == d)
			return xasprintf("%04d%02d%02d", y, m, d);
	}
	return xasprintf("%04d%02d%02d", c->when.local.tm_year + 1900,
			 c->when.local.tm_mon + 1, c->when.local.tm_mday);
}

/* Whether the report is to reply to the tested commit's posted patch. */
static int thread_wanted(const struct ctx *c)
{
	if (c->req->in_reply_to)
		return 0; /* the request says where it goes */
	if (c->req->thread_lookup >= 0)
		return c->req->thread_lookup;
	return c->cfg->thread_lookup;
}

/* A Subject without its leading "Re:"s, for "Re: <patch subject>". */
static char *strip_re(const char *s)
{
	for (;;) {
		while (*s == ' ')
			s++;
		if (strncasecmp(s, "re:", 3))
			return xstrdup(s);
		s += 3;
	}
}

/*
 * Looks the tested commit's posted patch up on the archive and takes
 * what the request does not say from it: the patch link, its subject,
 * its revision and a newer one (the note).  Returns 0 (found or not), or
 * -1 after an error with error_status set: EXIT_TEMPFAIL when the
 * archive cannot be asked now, EXIT_RUNTIME for a bad answer.
 */
static int lookup_thread(struct ctx *c, const struct commit_info *ci,
			 struct report *r)
{
	const struct thread_found *f = &c->thread;
	struct repo *repo = NULL;
	struct lore *l = NULL;
	int ret;

	if (thread_lore_open(&l, c->cfg, c->offline, 0)) {
		error_status = EXIT_RUNTIME;
		return -1;
	}
	if (c->req->repo && repo_open(&repo, c->req->repo)) {
		lore_close(l);
		return -1;
	}
	ret = thread_find(l, ci, repo, &c->thread);
	repo_close(repo);
	lore_close(l);
	if (ret < 0) {
		error_status =
			ret == LORE_TEMPFAIL ? EXIT_TEMPFAIL : EXIT_RUNTIME;
		return -1;
	}
	if (ret == LORE_NONE)
		return 0;
	c->threaded = 1;
	if (!r->patch_link)
		r->patch_link = xstrdup(f->url);
	if (!r->patch_subject)
		r->patch_subject = strip_re(f->subject);
	r->patch_version = xasprintf("%d", f->version);
	if (f->newer_id) {
		r->newer_version = xasprintf("%d", f->newer_version);
		r->newer_link = xstrdup(f->newer_url);
		r->newer_subject = xstrdup(f->newer_subject);
	}
	return 0;
}

static int fill_report(struct ctx *c, struct report *r, struct composed *out)
{
	const struct request *req = c->req;
	const struct commit_info *ci;
	struct strbuf sb = STRBUF_INIT;
	const char *id = req->commit;
	size_t i;
	int ret;

	r->origin.request = xstrdup(req->file);
	r->origin.config = xstrdup(c->cfg->file);
	r->origin.commits =
		dup_or_null(req->commits ? req->commits : req->repo);
	/* what is missing is named at once, with the templates' needs */
	c->needs = r->needs = needs_new();
	if (check_note(req))
		return -1;
	if (!id) {
		needs_add_key(r->needs, req->file, "commit", "the commit line");
	} else {
		ci = ctx_commit(c, id, "commit");
		if (!ci)
			return -1;
		c->tested = xstrdup(ci->id);
	}
	c->functional = functional_kpi(c->tables, req->test.kpi);
	ret = build_tests(c, r);
	if (ret)
		return -1;
	r->fn = c->fn;
	c->fn = NULL;
	if (!r->fn && build_perf_notes(c, r))
		return -1;
	/* the tests may have read more commits from a repository */
	if (c->tested) {
		ci = ctx_commit(c, c->tested, "commit");
		r->commit_id = xstrdup(ci->id);
		r->commit_subject = dup_or_null(ci->subject);
		if (!commit_subsystem(ci, &sb))
			r->subsystem = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	r->repo_url = dup_or_null(req->repo_url);
	r->branch = dup_or_null(req->branch);
	r->tree = dup_or_null(req->tree);
	r->patch_url = dup_or_null(req->patch.url);
	r->patch_base = dup_or_null(req->patch.base);
	r->patch_link = dup_or_null(req->patch.link);
	r->patch_subject = dup_or_null(req->patch.subject);
	/* without a tested commit there is nothing to look up */
	if (c->tested && thread_wanted(c) &&
	    lookup_thread(c, ctx_commit(c, c->tested, "commit"), r))
		return -1;
	r->nstill = req->still.n;
	r->still = xcalloc(r->nstill + 1, sizeof(*r->still));
	for (i = 0; i < r->nstill; i++) {
		const struct req_still *s =
			(const struct req_still *)req->still.v + i;

		r->still[i].tree = dup_or_null(s->tree);
		r->still[i].commit = dup_or_null(s->commit);
		r->still[i].failed = s->failed;
		r->still[i].revert = s->revert;
		if (s->revert && (s->commit || s->failed))
			return error("%s: still[%zu]: a reverted head has "
				     "neither commit nor failed",
				     req->file, i);
	}
	r->preface = dup_or_null(req->preface);
	r->intro = dup_or_null(req->intro);
	r->note = c->note ? xstrdup(c->note) : dup_or_null(req->note);
	r->no_tags = req->no_tags;
	r->no_repro = req->no_repro;
	r->repeated = req->earlier != NULL;
	r->still_checked = req->still_checked;
	r->reported_by = xstrdup(req->reported_by ? req->reported_by
						  : c->cfg->reported_by);
	r->sender_name = xstrdup(req->sender_name ? req->sender_name
						  : c->cfg->sender_name);
	out->key = report_key(r);
	if (c->revision) {
		char *key = xasprintf("%srevision=%u\n", out->key, c->revision);

		free(out->key);
		out->key = key;
	}
	out->message_id = req->message_id ? xstrdup(req->message_id)
					  : make_message_id(c, out->key);
	if (!req->message_id &&
	    check_message_id(out->message_id, c->cfg->file,
			     "message_id_user, message_id_domain", 1))
		return -1;
	r->message_id = xstrdup(out->message_id);
	out->commit_id = dup_or_null(r->commit_id);
	out->base_id = dup_or_null(c->base_id);
	r->date = report_day(c, r->message_id);
	if (c->cfg->archive_url)
		r->archive_url = xasprintf(
			"%s/%s/%.*s", c->cfg->archive_url, r->date,
			(int)strlen(r->message_id) - 2, r->message_id + 1);
	r->list_archive_url = dup_or_null(c->cfg->list_archive_url);
	r->disclaimer = dup_or_null(c->cfg->disclaimer);
	r->signature = dup_or_null(c->cfg->signature);
	r->disclaimer_0day = c->cfg->disclaimer_0day;
	r->signature_0day = c->cfg->signature_0day;
	return 0;
}

static void join_list(struct strbuf *out, const struct strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", v->v[i]);
}

/*
 * Adds one header whose value comes from `key` of `file`.  A value the
 * header refuses is one error naming the file and the key, with mail/'s
 * reason.
 */
static int add_header(struct msg *m, const char *name, const char *value,
		      const char *file, const char *key)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (hdr_validate(name, value, strlen(value), &why))
		ret = error("%s: %s: %s", file, key, why.buf);
	else
		ret = msg_add_header(m, name, value);
	strbuf_release(&why);
	return ret;
}

/* Where the request's commit metadata comes from, for messages. */
static const char *commits_source(const struct request *req)
{
	return req->commits ? req->commits : req->repo;
}

/*
 * Without `to:`, the report goes to the tested commit's author: one
 * mailbox made from the name and email, which must be a valid one (a
 * comma in the name stays inside quotes, "=?" is encoded on rendering).
 */
static int author_to(struct strbuf *out, const struct ctx *c,
		     const struct commit_info *author)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	hdr_format_mailbox(out, author->author_name, author->author_email);
	if (valid_mailbox(out->buf, &why))
		ret = error("%s: commit %s: author: %s (the To of a request "
			    "without 'to')",
			    commits_source(c->req), author->id, why.buf);
	strbuf_release(&why);
	return ret;
}

/* The length of the longest run of non-blanks in s. */
static size_t longest_word(const char *s)
{
	size_t longest = 0, n;

	for (; *s; s += n ? n : 1) {
		n = strcspn(s, " \t");
		if (n > longest)
			longest = n;
	}
	return longest;
}

/*
 * The file the Subject's trouble comes from, with its key appended to
 * `key`: the Subject is made of the tree, the KPI and the commit's
 * subject, and a word too long to fold is in one of them.
 */
static const char *subject_source(const struct ctx *c,
				  const struct commit_info *tested,
				  struct strbuf *key)
{
	const char *which = "tree, kpi and the commit's subject";
	size_t longest = 0, n;

	if (c->req->tree && (n = longest_word(c->req->tree)) > longest) {
		longest = n;
		which = "tree";
	}
	if (c->req->test.kpi &&
	    (n = longest_word(c->req->test.kpi)) > longest) {
		longest = n;
		which = "kpi";
	}
	if (tested && tested->subject &&
	    longest_word(tested->subject) > longest) {
		strbuf_addf(key, "commit %s: subject", tested->id);
		return commits_source(c->req);
	}
	strbuf_addstr(key, which);
	return c->req->file;
}

/* Whether `addr` is one of the list's (case-insensitively). */
static int has_address(const struct hdr_addr_list *list, const char *addr)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (!strcasecmp(list->v[i].addr, addr))
			return 1;
	return 0;
}

/* Adds the addresses of `value` (unparsable: none) to `seen`. */
static void note_addresses(struct hdr_addr_list *seen, const char *value)
{
	struct strbuf why = STRBUF_INIT;
	size_t n = seen->nr;

	if (hdr_parse_addresses(seen, value, &why)) {
		while (seen->nr > n) {
			seen->nr--;
			free(seen->v[seen->nr].display);
			free(seen->v[seen->nr].addr);
		}
	}
	strbuf_release(&why);
}

static void add_mailbox(struct strbuf *list, const char *display,
			const char *addr)
{
	if (list->len)
		strbuf_addstr(list, ", ");
	hdr_format_mailbox(list, display, addr);
}

/*
 * The recipients of a report on a posted patch: the request's or the
 * configuration's Cc as given, then the patch's To and Cc and the
 * commit's author, each address once and none that To already has.
 */
static void thread_cc(struct strbuf *cc, const struct ctx *c,
		      const struct commit_info *author, const char *to)
{
	const struct hdr_addr_list *lists[] = { &c->thread.to, &c->thread.cc };
	struct hdr_addr_list seen = HDR_ADDR_LIST_INIT;
	size_t i, j;

	note_addresses(&seen, to);
	if (cc->len)
		note_addresses(&seen, cc->buf);
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		for (j = 0; j < lists[i]->nr; j++) {
			const struct hdr_addr *p = &lists[i]->v[j];

			if (has_address(&seen, p->addr))
				continue;
			add_mailbox(cc, p->display, p->addr);
			note_addresses(&seen, cc->buf);
		}
	if (author && author->author_email &&
	    !has_address(&seen, author->author_email))
		add_mailbox(cc, author->author_name, author->author_email);
	hdr_addr_list_release(&seen);
}

/*
 * References, by the style (`references` for a report, `reply-
 * references` for a follow-up): none, as 0-day's reports carry
 * In-Reply-To alone, or the chain: the parent's References, then the
 * parent.  Returns 0, or -1 after an error.
 */
static int add_references(struct msg *m, const struct ctx *c,
			  const char *parent)
{
	const struct request *req = c->req;
	const char *key = req->reply ? "reply-references" : "references";
	const char *how = style_get(&c->st, key);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	if (!how || (strcmp(how, "none") && strcmp(how, "chain"))) {
		error_status = EXIT_CONFIG;
		return error("config/data/styles: %s on %s: '%s' is not none "
			     "or chain",
			     key, c->st.date, how ? how : "(unset)");
	}
	if (!strcmp(how, "none")) {
		if (req->references.n)
			return error("%s: references: a report of %s carries "
				     "no References (only a reply: true does)",
				     req->file, c->st.date);
		return 0;
	}
	if (!parent)
		return 0;
	for (i = 0; i < req->references.n; i++)
		strbuf_addf(&sb, "%s ", req->references.v[i]);
	if (!req->references.n && c->threaded && c->thread.references)
		strbuf_addf(&sb, "%s ", c->thread.references);
	strbuf_addstr(&sb, parent);
	ret = add_header(m, "References", sb.buf, req->file,
			 "references and in_reply_to");
	strbuf_release(&sb);
	return ret;
}

static int add_headers(struct msg *m, const struct ctx *c,
		       const struct commit_info *author, const char *subject,
		       const char *msgid)
{
	const struct request *req = c->req;
	const struct robot_config *cfg = c->cfg;
	const struct strv *cc = req->cc.n ? &req->cc : &cfg->cc;
	const char *parent = req->in_reply_to;
	struct strbuf sb = STRBUF_INIT, to = STRBUF_INIT;
	int ret;

	if (!parent && c->threaded)
		parent = c->thread.message_id;
	format_date(&sb, &c->when);
	ret = add_header(m, "Date", sb.buf, req->file, "date");
	if (!ret)
		ret = req->from ? add_header(m, "From", req->from, req->file,
					     "from")
				: add_header(m, "From", cfg->from, cfg->file,
					     "from");
	join_list(&to, &req->to);
	/* without `to:`, the patch's sender, else the tested commit's author */
	if (!ret && !to.len && c->threaded && c->thread.from) {
		strbuf_addstr(&to, c->thread.from);
		ret = add_header(m, "To", to.buf, cfg->file,
				 "lore_url (the patch's sender)");
	} else {
		if (!ret && !to.len && author && author->author_name)
			ret = author_to(&to, c, author);
		if (!ret && to.len)
			ret = add_header(m, "To", to.buf,
					 req->to.n ? req->file
						   : commits_source(req),
					 req->to.n ? "to" : "author (the To)");
	}
	strbuf_reset(&sb);
	join_list(&sb, cc);
	if (c->threaded)
		thread_cc(&sb, c, author, to.buf);
	if (!ret && sb.len)
		ret = add_header(
			m, "CC", sb.buf, req->cc.n ? req->file : cfg->file,
			c->threaded ? "cc (with the patch's recipients "
				      "on lore)"
				    : "cc");
	if (!ret) {
		const char *file;

		strbuf_reset(&sb);
		file = subject_source(c, author, &sb);
		ret = add_header(m, "Subject", subject, file, sb.buf);
	}
	if (!ret)
		ret = add_header(m, "Message-ID", msgid,
				 req->message_id ? req->file : cfg->file,
				 req->message_id ? "message_id"
						 : "message_id_user, "
						   "message_id_domain");
	if (!ret)
		ret = add_references(m, c, parent);
	/* 0-day's replies carry In-Reply-To alone (the corpus mails) */
	if (!ret && parent)
		ret = add_header(m, "In-Reply-To", parent,
				 req->in_reply_to ? req->file : cfg->file,
				 req->in_reply_to ? "in_reply_to"
						  : "lore_url (the patch's "
						    "Message-ID)");
	strbuf_release(&sb);
	strbuf_release(&to);
	return ret;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The attachments: MIME parts, or, for styles that publish the materials
 * behind a download link, files for compose_publish().
 */
static int add_attachments(struct msg *m, const struct ctx *c,
			   const struct commit_info *tested,
			   struct composed *out, int publish)
{
	const struct objv *atts = &c->req->attachments;
	struct strbuf data = STRBUF_INIT, config_name = STRBUF_INIT,
		      why = STRBUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	out->material_names = xcalloc(atts->n + 1, sizeof(char *));
	out->material_paths = xcalloc(atts->n + 1, sizeof(char *));
	for (i = 0; i < atts->n && !ret; i++) {
		const struct req_attachment *a =
			(const struct req_attachment *)atts->v + i;
		const char *name = a->name ? a->name : NULL;
		const char *key = "name";

		if (!a->path) {
			ret = error("%s: attachments[%zu].path: missing",
				    c->req->file, i);
			break;
		}
		if (a->kind && strcmp(a->kind, "config")) {
			ret = error("%s: attachments[%zu].kind: unknown kind "
				    "'%s' (want config)",
				    c->req->file, i, a->kind);
			break;
		}
		/*
		 * The kernel config is named after the tested kernel's
		 * release, "config-6.3.0-rc7-00002-g20f3337d350c".
		 */
		if (!name && a->kind) {
			if (!tested || !tested->release) {
				ret = error(
					"%s: attachments[%zu].kind: the "
					"tested commit has no known release "
					"to name the config after",
					c->req->file, i);
				break;
			}
			strbuf_reset(&config_name);
			strbuf_addf(&config_name, "config-%s", tested->release);
			name = config_name.buf;
			key = "kind";
		}
		if (!name) {
			name = base_name(a->path);
			key = "path";
		}
		/*
		 * An attachment's name, and a published material's, which is
		 * a file in the report's folder: a base name of visible text.
		 */
		strbuf_reset(&why);
		if (valid_file_name(name, &why)) {
			ret = error("%s: attachments[%zu].%s: %s", c->req->file,
				    i, key, why.buf);
			break;
		}
		strbuf_reset(&data);
		/* a device or a FIFO would be read forever, or block cron */
		if (!stat(a->path, &st) && !S_ISREG(st.st_mode)) {
			ret = error("%s: attachments[%zu].path: '%s' is not a "
				    "regular file",
				    c->req->file, i, a->path);
		} else if (strbuf_read_file(&data, a->path)) {
			ret = error_errno("%s: attachments[%zu].path: cannot "
					  "read '%s'",
					  c->req->file, i, a->path);
		} else if (publish) {
			out->material_names[out->nmaterials] = xstrdup(name);
			out->material_paths[out->nmaterials++] =
				xstrdup(a->path);
		} else {
			ret = msg_add_part(m, name, "text/plain", data.buf,
					   data.len);
		}
	}
	strbuf_release(&data);
	strbuf_release(&config_name);
	strbuf_release(&why);
	return ret;
}

/*
 * A functional report's kernel logs: attached as NAME.xz (compressed here
 * when the run kept them plain), or published with the materials.
 */
#define LOG_MAX_ATTACH (64u << 20)

static int add_logs(struct msg *m, const struct ctx *c, struct composed *out,
		    int publish)
{
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	for (i = 0; i < c->logs.n && !ret; i++) {
		const char *path = c->logs.paths[i], *base = base_name(path);
		size_t len = strlen(base);
		char *name = len > 3 && !strcmp(base + len - 3, ".xz")
				     ? xstrdup(base)
				     : xasprintf("%s.xz", base);

		if (publish) {
			out->material_names = xreallocarray(out->material_names,
							    out->nmaterials + 2,
							    sizeof(char *));
			out->material_paths = xreallocarray(out->material_paths,
							    out->nmaterials + 2,
							    sizeof(char *));
			out->material_names[out->nmaterials] = xstrdup(base);
			out->material_paths[out->nmaterials++] = xstrdup(path);
			free(name);
			continue;
		}
		strbuf_reset(&data);
		error_quiet++;
		/* a plain log is measured first: no need to compress 1 GiB */
		ret = !stat(path, &st) && st.st_size > (off_t)LOG_MAX_ATTACH
			      ? -1
			      : xz_compress_file(&data, path, LOG_MAX_ATTACH);
		error_quiet--;
		if (ret) {
			/* a log too big to mail: the report goes without it */
			warning("%s: the kernel log '%s' is not attached (more "
				"than %u MiB, or unreadable)",
				c->req->file, path, LOG_MAX_ATTACH >> 20);
			ret = 0;
		} else {
			error_quiet++;
			ret = msg_add_part(m, name, "application/x-xz",
					   data.buf, data.len);
			error_quiet--;
			if (ret)
				error("%s: cannot attach '%s'", c->req->file,
				      name);
		}
		free(name);
	}
	strbuf_release(&data);
	return ret;
}

/*
 * The operator who sends the report: the local part of the From address
 * ("kernel test robot <oliver.sang@intel.com>": "oliver.sang"), whose own
 * layout rows the style table may have.  NULL without one.
 */
static char *report_operator(const struct ctx *c)
{
	const char *from = c->req->from ? c->req->from : c->cfg->from;
	const char *lt, *at;

	if (!from)
		return NULL;
	lt = strrchr(from, '<');
	if (lt)
		from = lt + 1;
	at = strchr(from, '@');
	if (!at || at == from)
		return NULL;
	return xstrndup(from, at - from);
}

/*
 * The style's day, from --style, else the request's style, else its date;
 * with the rows of the sending operator's own layout.
 * A bad value is the request's fault and the error names the key; only a
 * broken style table is reported as the table's.
 */
static int ctx_style(struct ctx *c, const char *style)
{
	const struct request *req = c->req;
	const char *file = req->file, *key = "style";
	char day[11], *operator;
	int ret;

	if (style) {
		file = "command line";
		key = "--style";
	} else if (req->style) {
		style = req->style;
	} else {
		key = req->date ? "date" : "the report's date";
		strftime(day, sizeof(day), "%Y-%m-%d", &c->when.local);
	}
	if (style) {
		error_quiet++;
		ret = style_resolve(style, day);
		error_quiet--;
		if (ret)
			return error("%s: %s: unknown style '%s' (want "
				     "YYYY-MM-DD or one of 2016, 2021, 2023, "
				     "2025)",
				     file, key, style);
	}
	operator= report_operator(c);
	error_quiet++;
	ret = style_load_for(&c->st, day, operator);
	error_quiet--;
	free(operator);
	if (!ret)
		return 0;
	/* is the table fine, and the day merely older than its first row? */
	error_quiet++;
	ret = style_load(&c->st, "9999-12-31");
	error_quiet--;
	style_release(&c->st);
	if (!ret)
		return error("%s: %s: no style is known for %s (the style "
			     "table starts later)",
			     file, key, day);
	/* robot's own table is missing or broken: say why */
	error_status = error_exit_code(EXIT_CONFIG);
	return style_load(&c->st, day);
}

/*
 * The moment whose lkp-tests tables the report uses: the report's time
 * (a version committed later that day is not deployed yet: config/data/
 * lkp/README), or the style's day when --style or the request's style
 * names one.
 */
static const char *tables_when(const struct ctx *c, const char *style,
			       char *buf, size_t size)
{
	int tz = c->when.tz < 0 ? -c->when.tz : c->when.tz;
	size_t n;

	if (style || c->req->style)
		return c->st.date;
	n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &c->when.local);
	/* a year past 9999 or a zone past 99 hours: the day will do */
	if (n != 19 || tz >= 100 * 60)
		return c->st.date;
	snprintf(buf + n, size - n, " %c%02d%02d", c->when.tz < 0 ? '-' : '+',
		 tz / 60, tz % 60);
	return buf;
}

/* `report`: a report (not a reply), which may publish its materials */
static int ctx_init(struct ctx *c, const struct request *req,
		    const struct robot_config *cfg, const char *style,
		    int report)
{
	char when[48];
	const char *repro;

	memset(c, 0, sizeof(*c));
	c->req = req;
	c->cfg = cfg;

	if (report_when(&c->when, req, cfg) || ctx_style(c, style))
		return -1;
	/*
	 * The styles whose reproduce block is the download link (`repro
	 * download` in config/data/styles) attach nothing: the attachments
	 * are the materials behind that link, published under archive_dir.
	 * A report sent without the reproduce block (`no_repro`) attaches
	 * its materials whatever the period: 255 (2023-12) carries config,
	 * job-script, job.yaml and repro-script as parts and no link.
	 */
	repro = style_get(&c->st, "repro");
	c->publish =
		report && repro && !strcmp(repro, "download") && !req->no_repro;
	c->tables = lkp_tables_load(tables_when(c, style, when, sizeof(when)));
	if (!c->tables) {
		/* robot's own lkp-tests tables */
		error_status = error_exit_code(EXIT_CONFIG);
		return -1;
	}
	if (req->commits && commits_load_file(&c->commits, req->commits))
		return -1;
	if (req->message_id && check_message_id(req->message_id, req->file,
						"message_id", c->publish))
		return -1;
	return 0;
}

static void ctx_release(struct ctx *c)
{
	thread_found_release(&c->thread);
	if (c->fn) {
		struct report tmp = { .fn = c->fn };

		report_release(&tmp);
		c->fn = NULL;
	}
	functional_logs_release(&c->logs);
	style_release(&c->st);
	lkp_tables_free(c->tables);
	commits_release(&c->commits);
	free(c->tested);
	free(c->base_id);
	free(c->second_id);
	free(c->note);
}

/*
 * The mail client the period's reports went out from (the style's
 * `mailer`): robot's own (`robot`, the default) or Thunderbird
 * (`thunderbird`), whose text is format=flowed (RFC 3676 §4.2, §4.4): a
 * line that starts with a blank, "From " or ">" takes one more blank,
 * blanks at line ends go (but the signature's "-- "), and so do the
 * empty lines that end the text, with its last newline; the Subject's
 * runs of blanks are one blank.  Yujie Liu sent hers so in 2022-08 (the
 * performance report 116 and the functional 432).
 */
static int mailer_apply(const struct ctx *c, struct msg *m,
			struct strbuf *subject, struct strbuf *body)
{
	const char *mailer = style_get(&c->st, "mailer");
	struct strbuf out = STRBUF_INIT;
	const char *p, *end;
	size_t i, j;

	if (!mailer || !strcmp(mailer, "robot"))
		return 0;
	if (strcmp(mailer, "thunderbird")) {
		error_status = EXIT_CONFIG;
		return error("config/data/styles: mailer on %s: '%s' is not "
			     "robot or thunderbird",
			     c->st.date, mailer);
	}
	for (p = body->buf, end = p + body->len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len != 3 || memcmp(p, "-- ", 3))
			while (len && p[len - 1] == ' ')
				len--;
		if ((len && (p[0] == ' ' || p[0] == '>')) ||
		    (len >= 5 && !memcmp(p, "From ", 5)))
			strbuf_addch(&out, ' ');
		strbuf_add(&out, p, len);
		strbuf_addch(&out, '\n');
		p = nl ? nl + 1 : end;
	}
	while (out.len && out.buf[out.len - 1] == '\n')
		strbuf_setlen(&out, out.len - 1);
	strbuf_reset(body);
	strbuf_addbuf(body, &out);
	strbuf_release(&out);
	for (i = j = 0; i < subject->len; i++)
		if (subject->buf[i] != ' ' || !j || subject->buf[j - 1] != ' ')
			subject->buf[j++] = subject->buf[i];
	strbuf_setlen(subject, j);
	m->flowed = 1;
	return 0;
}

/* robot's own lint on what it wrote; failing it is robot's own fault */
static int lint(const struct composed *out, const struct request *req)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (msg_lint(out->bytes.buf, out->bytes.len, &why)) {
		ret = error("%s: the mail fails the lint: %s", req->file,
			    why.buf);
		error_status = EXIT_RUNTIME;
	}
	strbuf_release(&why);
	return ret;
}

int compose_report(struct composed *out, const struct request *req,
		   const struct robot_config *cfg, const char *style)
{
	struct compose_opts o = { .style = style };

	return compose_report_opts(out, req, cfg, &o);
}

int compose_report_opts(struct composed *out, const struct request *req,
			const struct robot_config *cfg,
			const struct compose_opts *o)
{
	struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT,
		      why = STRBUF_INIT;
	struct report r = { 0 };
	struct msg m;
	struct ctx c;
	int ret = -1;

	error_status = 0;
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->bytes, 0);
	msg_init(&m);
	if (ctx_init(&c, req, cfg, o->style, 1))
		goto out;
	c.offline = o->offline;
	c.revision = o->revision;
	if (fill_report(&c, &r, out) ||
	    report_render(&subject, &body, &r, &c.st))
		goto out;
	if (c.publish)
		out->archive_dir = xasprintf(
			"%s/%s/%.*s", cfg->archive_dir, r.date,
			(int)strlen(out->message_id) - 2, out->message_id + 1);
	if (mailer_apply(&c, &m, &subject, &body) ||
	    msg_set_body(&m, body.buf, body.len) ||
	    add_headers(&m, &c, commits_find(&c.commits, r.commit_id),
			subject.buf, out->message_id) ||
	    add_attachments(&m, &c, commits_find(&c.commits, r.commit_id), out,
			    c.publish) ||
	    add_logs(&m, &c, out, c.publish) || msg_render(&out->bytes, &m))
		goto out;
	if (lint(out, req))
		goto out;
	ret = 0;
out:
	msg_release(&m);
	report_release(&r);
	ctx_release(&c);
	strbuf_release(&subject);
	strbuf_release(&body);
	strbuf_release(&why);
	return ret ? error_exit_code(EXIT_DATAERR) : 0;
}

/* ---- follow-ups (robot reply; robot/kinds/reply/reply.h) ---- */

/*
 * The commit lines of a reply's table: the style's `rcommit` for each
 * commit the request's metadata knows; without metadata, the full ids,
 * as `lkp ncompare` prints the commits it knows nothing about.
 */
static int reply_label(struct ctx *c, struct compare_roots *roots)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!c->req->commits && !c->req->repo)
		return 0;
	if (compare_roots_label(roots, find_commit, c))
		return -1;
	for (i = 0; i < roots->n; i++) {
		const char *id = job_get(&roots->rts[i].job, "commit");
		const struct commit_info *ci =
			ctx_commit(c, id, roots->rts[i].dir);

		strbuf_reset(&sb);
		if (!ci || reply_commit_line(&sb, &c->st, ci)) {
			strbuf_release(&sb);
			return -1;
		}
		free(roots->lines[i]);
		roots->lines[i] = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	return 0;
}

/* The KPI in the first table of a reply: what the verdict is made of. */
static void reply_judge(struct ctx *c, const struct compare_roots *roots,
			const struct comparison *cmp,
			const struct compare_opts *o,
			const struct report_test *t)
{
	struct reply_judge *j = &c->judge;
	struct compare_opts plain = *o;
	const struct cmp_row *row;
	char **names;
	size_t n, i;

	j->n = roots->n;
	if (!t->kpi || roots->n < 3 || functional_kpi(c->tables, t->kpi))
		return;
	row = comparison_row(cmp, t->kpi);
	if (!row || row->failure)
		return;
	j->has_row = 1;
	j->bad_change = row->change[0];
	j->fix_change = row->change[roots->n - 2];
	j->direction = lkp_kpi_direction(c->tables, t->kpi);
	/* is the last column's change one lkp-tests would report? */
	plain.force = NULL;
	plain.all = 0;
	n = compare_changed(&names, &roots->rts[0], &roots->rts[roots->n - 1],
			    &plain);
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], t->kpi))
			j->fix_changed = 1;
		free(names[i]);
	}
	free(names);
}

/*
 * Appends the mailboxes of `l` that are neither robot's nor in `seen`;
 * with `copy` (the mail's To and Cc), only those reply_allow lets robot
 * copy (guard_may_copy).
 */
static void reply_add_all(struct strbuf *out, struct hdr_addr_list *seen,
			  const struct hdr_addr_list *l, const struct ctx *c,
			  int copy)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct hdr_addr *a = &l->v[i];

		if (has_address(seen, a->addr) ||
		    guard_is_robot(c->cfg, c->req->from, a->addr) ||
		    (copy && !guard_may_copy(c->cfg, c->req->from, a->addr)))
			continue;
		add_mailbox(out, a->display, a->addr);
		ALLOC_GROW(seen->v, seen->nr + 1, seen->alloc);
		seen->v[seen->nr].display = NULL;
		seen->v[seen->nr].addr = xstrdup(a->addr);
		seen->v[seen->nr].angle = seen->v[seen->nr].quoted = 0;
		seen->nr++;
	}
}

/*
 * Reply-all, as a mailer's group reply does: To the Mail-Followup-To, or
 * the Reply-To, or the sender; Cc everyone else the mail went to, robot
 * and the addresses reply_allow does not let it copy left out.  The request's
 * to and cc, when given, are used instead.
 */
static void reply_recipients(const struct ctx *c, const struct followup *f,
			     struct strbuf *to, struct strbuf *cc)
{
	struct hdr_addr_list seen = HDR_ADDR_LIST_INIT;
	const struct hdr_addr_list *first = f->followup_to.nr ? &f->followup_to
					    : f->reply_to.nr  ? &f->reply_to
							      : &f->from;

	if (c->req->to.n) {
		join_list(to, &c->req->to);
		join_list(cc, &c->req->cc);
		return;
	}
	reply_add_all(to, &seen, first, c, 0);
	if (!f->followup_to.nr) {
		reply_add_all(cc, &seen, &f->to, c, 1);
		reply_add_all(cc, &seen, &f->cc, c, 1);
	}
	if (c->req->cc.n) {
		struct strbuf extra = STRBUF_INIT;

		join_list(&extra, &c->req->cc);
		if (cc->len)
			strbuf_addstr(cc, ", ");
		strbuf_addbuf(cc, &extra);
		strbuf_release(&extra);
	}
	hdr_addr_list_release(&seen);
}

static int reply_headers(struct msg *m, const struct ctx *c,
			 const struct followup *f, const char *msgid)
{
	const struct request *req = c->req;
	const struct robot_config *cfg = c->cfg;
	const char *how = style_get(&c->st, "reply-references");
	struct strbuf sb = STRBUF_INIT, cc = STRBUF_INIT;
	char *subject;
	size_t i;
	int ret;

	format_date(&sb, &c->when);
	ret = add_header(m, "Date", sb.buf, req->file, "date");
	if (!ret)
		ret = req->from ? add_header(m, "From", req->from, req->file,
					     "from")
				: add_header(m, "From", cfg->from, cfg->file,
					     "from");
	strbuf_reset(&sb);
	reply_recipients(c, f, &sb, &cc);
	if (!ret && !sb.len)
		ret = error("%s: nobody to answer: the mail's sender is robot "
			    "itself",
			    f->path);
	if (!ret)
		ret = add_header(m, "To", sb.buf, f->path,
				 req->to.n ? "to (the request's)"
					   : "From, Reply-To or "
					     "Mail-Followup-To");
	if (!ret && cc.len)
		ret = add_header(m, "Cc", cc.buf, f->path, "To and Cc");
	/* one Re:, the parent's Subject without its own */
	subject = strip_re(f->subject);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Re: %s", subject);
	free(subject);
	if (!ret)
		ret = add_header(m, "Subject", sb.buf, f->path, "Subject");
	if (!ret)
		ret = add_header(m, "Message-ID", msgid,
				 req->message_id ? req->file : cfg->file,
				 req->message_id ? "message_id"
						 : "message_id_user, "
						   "message_id_domain");
	if (!ret && how && !strcmp(how, "chain")) {
		strbuf_reset(&sb);
		for (i = 0; i < f->nrefs; i++)
			if (strcmp(f->refs[i], f->message_id))
				strbuf_addf(&sb, "%s ", f->refs[i]);
		strbuf_addstr(&sb, f->message_id);
		ret = add_header(m, "References", sb.buf, f->path,
				 "References and Message-ID");
	}
	if (!ret)
		ret = add_header(m, "In-Reply-To", f->message_id, f->path,
				 "Message-ID");
	/* RFC 3834: an automatic answer, which mailers must not answer */
	if (!ret)
		ret = msg_add_header(m, "Auto-Submitted", "auto-replied");
	strbuf_release(&sb);
	strbuf_release(&cc);
	return ret;
}

/* The reply's identity in the spool: what it answers, with what. */
static char *reply_key(const struct ctx *c, const struct followup *f,
		       const struct report *r)
{
	const struct req_applied *a = &c->req->applied;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addf(&sb, "reply-to=%s\n", f->message_id);
	for (i = 0; i < r->ntests; i++)
		strbuf_addf(&sb, "block=%zu:%08llx\n", i,
			    (unsigned long long)fnv1a64(
				    FNV64_INIT, r->tests[i].block,
				    strlen(r->tests[i].block)));
	strbuf_addf(&sb, "applied=%s %s %s\n",
		    a->message_id ? a->message_id : "", a->link ? a->link : "",
		    a->subject ? a->subject : "");
	return strbuf_detach(&sb, NULL);
}

static void pct(char **out, double v)
{
	*out = xasprintf("%.1f", v);
}

/* What the view says about the patch: the verdict and the Tested-by. */
static void reply_verdict(struct reply_view *v, const struct ctx *c,
			  char **bad_pct, char **fix_pct)
{
	const struct reply_judge *j = &c->judge;
	int regression;

	if (!v->applied || !j->has_row)
		return;
	regression = j->direction * j->bad_change < 0;
	v->kind = regression ? "regression" : "improvement";
	pct(bad_pct, j->bad_change);
	pct(fix_pct, j->fix_change);
	v->bad_pct = *bad_pct;
	v->fix_pct = *fix_pct;
	if (!j->fix_changed)
		v->verdict = REPLY_GONE;
	else if ((j->bad_change < 0) == (j->fix_change < 0))
		v->verdict = REPLY_STILL;
	else
		v->verdict = REPLY_TURNED;
	v->fix_kind =
		j->direction * j->fix_change < 0 ? "regression" : "improvement";
}

int compose_reply(struct composed *out, const struct followup *parent,
		  const struct request *req, const struct robot_config *cfg,
		  const struct compose_opts *o)
{
	const struct req_applied *a = &req->applied;
	struct strbuf body = STRBUF_INIT, tables = STRBUF_INIT,
		      bad = STRBUF_INIT, why = STRBUF_INIT;
	char *bad_pct = NULL, *fix_pct = NULL;
	struct reply_view v = { .parent = parent };
	struct report r = { 0 };
	const struct commit_info *ci;
	const char *bad_id;
	struct msg m;
	struct ctx c;
	size_t i;
	int ret = -1;

	error_status = 0;
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->bytes, 0);
	msg_init(&m);
	if (ctx_init(&c, req, cfg, o->style, 0))
		goto out;
	c.reply = 1;
	if (!parent->message_id) {
		error("%s: the mail has no Message-ID: a reply cannot be "
		      "threaded under it",
		      parent->path);
		goto out;
	}
	if (req->in_reply_to && strcmp(req->in_reply_to, parent->message_id)) {
		error("%s: in_reply_to: the request answers %s, the mail is %s",
		      req->file, req->in_reply_to, parent->message_id);
		goto out;
	}
	/* what is missing is named at once (robot/report/inputs.h) */
	c.needs = r.needs = needs_new();
	r.ntests = 1 + req->sections.n;
	r.tests = xcalloc(r.ntests, sizeof(*r.tests));
	if (build_test(&c, &req->test, &r.tests[0], "", "result_roots"))
		goto out;
	for (i = 0; i < req->sections.n; i++) {
		char *where = xasprintf("sections[%zu].", i);
		int bad_section = build_test(
			&c, (const struct req_test *)req->sections.v + i,
			&r.tests[1 + i], where, "result_roots");

		free(where);
		if (bad_section)
			goto out;
	}
	if (needs_count(c.needs)) {
		needs_report(c.needs);
		goto out;
	}
	for (i = 0; i < r.ntests; i++)
		strbuf_addstr(&tables, r.tests[i].block);
	/* the reported commit: the request's, else the second column's */
	bad_id = req->commit ? req->commit : c.second_id;
	if (bad_id && (req->commits || req->repo)) {
		ci = ctx_commit(&c, bad_id, "commit");
		if (!ci || reply_commit_line(&bad, &c.st, ci))
			goto out;
		out->commit_id = xstrdup(ci->id);
	} else if (bad_id) {
		strbuf_addstr(&bad, bad_id);
		out->commit_id = xstrdup(bad_id);
	}
	v.st = &c.st;
	v.sender_name = req->sender_name ? req->sender_name : cfg->sender_name;
	v.remark = req->remark;
	v.tables = tables.buf;
	v.applied = a->subject || a->message_id || a->link || a->file;
	v.patch_subject = a->subject;
	v.patch_ref = a->message_id ? a->message_id
		      : a->link	    ? a->link
				    : parent->message_id;
	v.bad_line = bad.len ? bad.buf : NULL;
	v.kpi = req->test.kpi;
	reply_verdict(&v, &c, &bad_pct, &fix_pct);
	if (v.applied &&
	    !((v.verdict == REPLY_STILL && !strcmp(v.kind, "regression")) ||
	      (v.verdict == REPLY_TURNED && !strcmp(v.fix_kind, "regression"))))
		v.tested_by = req->tested_by	 ? req->tested_by
			      : req->reported_by ? req->reported_by
						 : cfg->reported_by;
	if (reply_render(&body, &v)) {
		error_status = error_exit_code(EXIT_CONFIG);
		goto out;
	}
	out->key = reply_key(&c, parent, &r);
	out->message_id = req->message_id ? xstrdup(req->message_id)
					  : make_message_id(&c, out->key);
	if (!req->message_id &&
	    check_message_id(out->message_id, cfg->file,
			     "message_id_user, message_id_domain", 1))
		goto out;
	out->base_id = dup_or_null(c.base_id);
	if (msg_set_body(&m, body.buf, body.len) ||
	    reply_headers(&m, &c, parent, out->message_id) ||
	    msg_render(&out->bytes, &m))
		goto out;
	if (lint(out, req))
		goto out;
	ret = 0;
out:
	msg_release(&m);
	report_release(&r);
	ctx_release(&c);
	strbuf_release(&body);
	strbuf_release(&tables);
	strbuf_release(&bad);
	strbuf_release(&why);
	free(bad_pct);
	free(fix_pct);
	return ret ? error_exit_code(EXIT_DATAERR) : 0;
}

void composed_release(struct composed *c)
{
	size_t i;

	strbuf_release(&c->bytes);
	free(c->message_id);
	free(c->key);
	free(c->archive_dir);
	free(c->commit_id);
	free(c->base_id);
	for (i = 0; i < c->nmaterials; i++) {
		free(c->material_names[i]);
		free(c->material_paths[i]);
	}
	free(c->material_names);
	free(c->material_paths);
	memset(c, 0, sizeof(*c));
}

/* mkdir -p; 0 or an exit code */
static int make_path(const char *dir)
{
	int ret;

	if (!mkdir_p(dir))
		return 0;
	ret = spool_errno_exit(errno);
	error_errno("cannot create '%s' (archive_dir)", dir);
	return ret;
}

/*
 * Removes the ".NAME.PID.tmp" files that a compose killed while
 * publishing left in the folder.  The caller holds the spool's lock, as
 * every publisher does, so none of them is being written.
 */
static int clean_stale(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t n;
	int ret = 0;

	if (!d) {
		ret = spool_errno_exit(errno);
		error_errno("cannot read '%s'", dir);
		return ret;
	}
	while ((de = readdir(d))) {
		n = strlen(de->d_name);
		if (de->d_name[0] != '.' || n < 6 ||
		    strcmp(de->d_name + n - 4, ".tmp"))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT) {
			ret = spool_errno_exit(errno);
			error_errno("cannot remove '%s/%s'", dir, de->d_name);
			break;
		}
	}
	closedir(d);
	return ret;
}

/*
 * One material: written aside with its source's permissions (a file only
 * its owner may read is not published world-readable), fsync'd, then
 * renamed over the old copy, so a reader never sees it half written.
 */
static int publish_one(const char *src, const char *tmp, const char *dst)
{
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	size_t done = 0;
	int fd = -1, ret = 0;

	if (stat(src, &st) || strbuf_read_file(&data, src)) {
		ret = error_errno("cannot read '%s'", src);
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, st.st_mode & 0666))
		goto fail;
	while (done < data.len) {
		ssize_t n = write(fd, data.buf + done, data.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		done += (size_t)n;
	}
	test_crash_point("publish");
	if (fsync(fd))
		goto fail;
	ret = close(fd);
	fd = -1;
	if (ret)
		goto fail;
	if (rename(tmp, dst)) {
		ret = spool_errno_exit(errno);
		error_errno("cannot rename '%s' to '%s'", tmp, dst);
		unlink(tmp);
	}
	goto out;
fail:
	ret = spool_errno_exit(errno);
	error_errno("cannot write '%s'", tmp);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	strbuf_release(&data);
	return ret;
}

int compose_publish(const struct composed *c)
{
	struct strbuf dst = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t i;
	int ret, fd;

	if (!c->archive_dir || !c->nmaterials)
		return 0;
	ret = make_path(c->archive_dir);
	if (!ret)
		ret = clean_stale(c->archive_dir);
	for (i = 0; i < c->nmaterials && !ret; i++) {
		strbuf_reset(&dst);
		strbuf_reset(&tmp);
		strbuf_addf(&dst, "%s/%s", c->archive_dir,
			    c->material_names[i]);
		strbuf_addf(&tmp, "%s/.%s.%ld.tmp", c->archive_dir,
			    c->material_names[i], (long)getpid());
		ret = publish_one(c->material_paths[i], tmp.buf, dst.buf);
	}
	/* the renames are durable before the message that links them */
	if (!ret) {
		fd = open(c->archive_dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (fsync(fd) && errno != EINVAL)) {
			ret = spool_errno_exit(errno);
			error_errno("cannot fsync '%s'", c->archive_dir);
		}
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&dst);
	strbuf_release(&tmp);
	return ret;
}

void compose_record(struct report_record *rec, const struct composed *c,
		    const struct request *req)
{
	memset(rec, 0, sizeof(*rec));
	rec->message_id = c->message_id;
	rec->commit = c->commit_id;
	rec->base = c->base_id;
	rec->kpi = req->test.kpi;
	rec->result_roots = req->test.result_roots.v;
	rec->nroots = req->test.result_roots.n;
	rec->commits = req->commits;
	rec->repo = req->repo;
	rec->tree = req->tree;
	rec->repo_url = req->repo_url;
	rec->branch = req->branch;
	rec->report = req->report;
}

/*
 * The materials are published before the message is queued: a queued
 * message whose download link leads nowhere could not be repaired, since
 * composing it again only answers "already queued".  Publishing is
 * idempotent (the same files, replaced whole), so a repeated compose of a
 * queued or sent report rewrites the same bytes; so is the record.  All
 * happens holding the spool's lock, so that two composes of one report
 * neither queue it twice nor remove each other's half-written materials.
 */
int compose_queue(const struct composed *c, const struct robot_config *cfg,
		  const struct report_record *rec, struct strbuf *said)
{
	struct strbuf name = STRBUF_INIT, first = STRBUF_INIT;
	enum spool_result res;
	struct spool s;
	int had_record, ret = spool_open(&s, cfg->spool, 1, cfg->file);

	if (ret)
		return ret;
	ret = spool_lock(&s);
	if (!ret)
		ret = compose_publish(c);
	spool_key_name(&name, c->key);
	had_record = rec && record_exists(&s, name.buf);
	if (!ret && rec)
		ret = record_write(&s, name.buf, rec);
	if (!ret)
		ret = spool_enqueue(&s, c->key, c->bytes.buf, c->bytes.len,
				    &res, &first);
	/* no record of a message that was never queued */
	if (ret && rec && !had_record)
		record_remove(&s, name.buf);
	spool_unlock(&s);
	spool_close(&s);
	if (!ret && res == SPOOL_QUEUED)
		strbuf_addstr(said, c->message_id);
	else if (!ret)
		strbuf_addf(said, "already %s: %s",
			    res == SPOOL_ALREADY_SENT ? "sent" : "queued",
			    first.buf);
	strbuf_release(&name);
	strbuf_release(&first);
	return ret;
}
