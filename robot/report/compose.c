// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose.c: assembling one report, of any kind (build.h).
 *
 *   request + config --> date, style day, lkp tables, commit metadata
 *                    --> per test: result roots --> comparison --> block,
 *                        KPI row, the kind's data --> struct report_test
 *                    --> the kind's parts --> report_render() (templates)
 *                    --> Subject, body --> struct msg (mail/) --> bytes
 *                    --> lint
 *
 * Precedence, everywhere: the command line, then the request, then the
 * configuration, then the built-in default.  Every value that reaches the
 * output comes from an input (the clock only when neither the request
 * nor SOURCE_DATE_EPOCH gives a date), so the same request gives the same
 * bytes.
 */
#include "robot/util/common.h"
#include "robot/engine/bisect.h"
#include "robot/engine/compare.h"
#include "robot/engine/results.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "robot/report/inputs.h"
#include "robot/report/report.h"
#include "config/config.h"
#include "config/lkp.h"
#include "config/request.h"
#include "git/repo.h"
#include "mail/lore.h"
#include "mail/msg.h"

#include <sys/stat.h>

static void fill_host(struct report_host *h, const struct job *job,
		      const char *machine)
{
	h->nr_cpu = compose_strdup(job_get(job, "nr_cpu"));
	h->nr_node = compose_strdup(job_get(job, "nr_node"));
	h->brand = compose_strdup(job_get(job, "brand"));
	h->model = compose_strdup(job_get(job, "model"));
	h->memory = compose_strdup(job_get(job, "memory"));
	h->text = compose_strdup(machine);
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
	t->unlisted_only = n && !t->nparams;
	free(params);
}

/* The KPI's row: its change against the base, and which way is better. */
int compose_kpi_change(struct compose_ctx *c, struct report_test *t,
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
	 * regression with its sign kept, as 0-day did ("-5.2% regression"
	 * while other headlines of those weeks dropped the sign).
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
static int check_base(struct compose_ctx *c, const struct compare_roots *roots,
		      const char *where, const char *key)
{
	const char *id = job_get(&roots->rts[0].job, "commit");
	const struct commit_info *ci;

	if (!c->tested)
		return 0;
	ci = compose_commit(c, id, roots->rts[0].dir);
	if (!ci)
		return -1;
	if (strcmp(ci->id, c->tested))
		return 0;
	return error("%s: %s%s[0]: the base result root '%s' is of the tested "
		     "commit %s (the base comes first)",
		     c->req->file, where, key, roots->rts[0].dir, c->tested);
}

/*
 * The style's threshold_delta: 0 when the reports of the day show rows
 * whose median delta is below half an Integer threshold of lkp-tests'
 * reasonable_perf_change?, as 0-day's of 2017-08 to 2021-06 do, under a
 * Ruby whose integers were Fixnum (config/data/styles).  Only the report's
 * tables follow it; `robot compare` is lkp-tests' ncompare.
 */
static int report_thresholds(const struct compose_ctx *c,
			     struct compare_opts *o)
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
 * them (rows of other regressions, a row without a change), so that no
 * row of a table is text an operator copies.
 */
static int build_note(struct compose_ctx *c, const struct comparison *cmp)
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
 * A test's result roots: there, at least two, loaded.  Returns 0, 1 when
 * the request has none (named with every other missing input), or -1
 * after an error.
 */
static int load_roots(struct compose_ctx *c, const struct req_test *rq,
		      struct report_test *t, const char *where, const char *key,
		      struct compare_roots *roots)
{
	size_t n = rq->result_roots.n, i;
	struct strbuf name = STRBUF_INIT;

	if (!n) {
		/* named at once with every other missing input */
		strbuf_addf(&name, "%s%s", where, key);
		needs_add_key(c->needs, c->req->file, name.buf,
			      "the comparison");
		strbuf_release(&name);
		t->no_inputs = 1;
		return 1;
	}
	if (n < 2)
		return error("%s: %s%s: a comparison needs at least two",
			     c->req->file, where, key);
	for (i = 0; i < n; i++) {
		struct stat st;

		/* a root that is not there is the request's fault: say which */
		if (stat(rq->result_roots.v[i], &st))
			return error_errno("%s: %s%s[%zu]: cannot open '%s'",
					   c->req->file, where, key, i,
					   rq->result_roots.v[i]);
	}
	return compare_roots_load(roots, rq->result_roots.v, n);
}

/*
 * Whether every root has its commit.  Without it a root cannot be
 * compared; the rest of the test is still read, so that one error names
 * every missing key.
 */
static int roots_have_commits(struct compose_ctx *c,
			      const struct compare_roots *roots)
{
	struct strbuf name = STRBUF_INIT;
	int commits = 1;
	size_t i;

	for (i = 0; i < roots->n; i++) {
		if (job_get(&roots->rts[i].job, "commit"))
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "%s/%s/job.yaml", roots->rts[i].dir,
			    roots->rts[i].run_names[0]);
		needs_add_key(c->needs, name.buf, "commit", "the comparison");
		commits = 0;
	}
	strbuf_release(&name);
	return commits;
}

/* The commit lines of a test's roots: the kind's, else the comparison's. */
static int label_roots(struct compose_ctx *c, struct compare_roots *roots,
		       const char *where, const char *key)
{
	if (c->kind->label)
		return c->kind->label(c, roots);
	return compare_roots_label(roots, compose_find_commit, c) ||
	       check_base(c, roots, where, key);
}

/*
 * The comparison of a test's roots, the kind's part of it, and its table
 * (with the append rows of the first one) into t->block.
 */
static int compare_test(struct compose_ctx *c, struct report_test *t,
			struct compare_roots *roots, struct compare_opts *o,
			const char *where)
{
	const struct report_kind *k = c->kind;
	struct comparison cmp = { 0 };
	struct strbuf block = STRBUF_INIT;
	int ret = -1;

	o->commit_lines = (const char *const *)roots->lines;
	o->commit_ids = (const char *const *)roots->ids;
	if (comparison_build(&cmp, roots->rts, roots->n, o) ||
	    k->compared(c, t, roots, &cmp, where))
		goto out;
	comparison_print(&block, &cmp);
	if (!*where && c->req->append.n &&
	    (k->append ? k->append(c, roots->rts, roots->n, &cmp, o, &block)
		       : error("%s: append: rows of a performance report's "
			       "table, not a %s's",
			       c->req->file, k->what)))
		goto out;
	if (k->printed)
		k->printed(c, t, roots, &cmp, o, &block, where);
	t->block = strbuf_detach(&block, NULL);
	if (!*where && c->req->note_parts.n && build_note(c, &cmp))
		goto out;
	ret = 0;
out:
	comparison_release(&cmp);
	strbuf_release(&block);
	return ret;
}

/* What describes a test: its job's fields, the request's words. */
static void describe_test(struct compose_ctx *c, const struct req_test *rq,
			  struct report_test *t,
			  const struct compare_roots *roots)
{
	const struct job *job = &roots->rts[0].job;

	t->job_file = xasprintf("%s/%s/job.yaml", roots->rts[0].dir,
				roots->rts[0].run_names[0]);
	t->testcase = compose_strdup(job_get(job, "testcase"));
	t->tbox_group = compose_strdup(job_get(job, "tbox_group"));
	t->kconfig = compose_strdup(job_get(job, "kconfig"));
	t->compiler = compose_strdup(job_get(job, "compiler"));
	t->test_description = compose_strdup(rq->test_description);
	t->test_url = compose_strdup(rq->test_url);
	fill_host(&t->host, job, rq->machine);
	fill_params(t, job, c->tables, &c->st);
}

/*
 * One test: load its roots, compare them, describe it.  `where` is the
 * test's key prefix in the request: "" for the top level, "sections[0].";
 * `key` names its result roots there: "result_roots", a note's "table".
 */
int compose_build_test(struct compose_ctx *c, const struct req_test *rq,
		       struct report_test *t, const char *where,
		       const char *key)
{
	struct compare_opts o = { .style = &c->st, .tables = c->tables };
	struct compare_roots roots = { 0 };
	int ret, commits;

	if (rq->view && strcmp(c->kind->name, "reply"))
		return error("%s: %sview: a follow-up's table view (robot "
			     "reply), not a %s's",
			     c->req->file, where, c->kind->what);
	t->kpi = compose_strdup(rq->kpi);
	o.force = t->kpi;
	o.shown = (const char *const *)c->req->show.v;
	o.nshown = c->req->show.n;
	if (report_thresholds(c, &o))
		return -1;
	o.all = rq->all_stats;
	ret = load_roots(c, rq, t, where, key, &roots);
	if (ret) {
		compare_roots_release(&roots);
		return ret < 0 ? -1 : 0;
	}
	commits = roots_have_commits(c, &roots);
	ret = commits && label_roots(c, &roots, where, key);
	if (!ret && !*where && !c->base_id) {
		c->base_id =
			compose_strdup(job_get(&roots.rts[0].job, "commit"));
		c->second_id =
			compose_strdup(job_get(&roots.rts[1].job, "commit"));
	}
	if (!ret)
		ret = commits && compare_test(c, t, &roots, &o, where);
	if (!ret)
		/* a missing testcase, host field, ... is the templates' to name
		 */
		describe_test(c, rq, t, &roots);
	compare_roots_release(&roots);
	return ret ? -1 : 0;
}

/*
 * The bisection's plots for the first test, from the request's bisect
 * roots (robot/engine/bisect.h); report.c draws them when the period did.
 */
static int build_plots(struct compose_ctx *c, struct report_test *t)
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

static int build_tests(struct compose_ctx *c, struct report *r)
{
	const struct objv *sections = &c->req->sections;
	const struct objv *adds = &c->req->additions;
	struct strbuf where = STRBUF_INIT;
	size_t i;
	int ret = 0;

	r->ntests = 1 + sections->n;
	r->tests = xcalloc(r->ntests, sizeof(*r->tests));
	if (c->req->statement)
		return error("%s: statement: the operator's words of a "
			     "follow-up (robot reply), not a %s's",
			     c->req->file, c->kind->what);
	ret = compose_build_test(c, &c->req->test, &r->tests[0], "",
				 "result_roots");
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
			ret = compose_build_test(c, rq, &r->tests[1 + i],
						 where.buf, "result_roots");
	}
	r->nadditions = adds->n;
	r->additions = xcalloc(adds->n ? adds->n : 1, sizeof(*r->additions));
	for (i = 0; i < adds->n && !ret; i++) {
		strbuf_reset(&where);
		strbuf_addf(&where, "additions[%zu].", i);
		ret = compose_build_test(
			c, (const struct req_test *)adds->v + i,
			&r->additions[i], where.buf, "result_roots");
		r->additions[i].no_section =
			((const struct req_test *)adds->v + i)->no_section;
	}
	strbuf_release(&where);
	return ret;
}

/* Whether the report is to reply to the tested commit's posted patch. */
static int thread_wanted(const struct compose_ctx *c)
{
	if (c->req->in_reply_to)
		return 0; /* the request says where it goes */
	if (c->req->thread_lookup >= 0)
		return c->req->thread_lookup;
	return c->cfg->thread_lookup;
}

/* A Subject without its leading "Re:"s, for "Re: <patch subject>". */
char *compose_strip_re(const char *s)
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
static int lookup_thread(struct compose_ctx *c, const struct commit_info *ci,
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
		r->patch_subject = compose_strip_re(f->subject);
	r->patch_version = xasprintf("%d", f->version);
	if (f->newer_id) {
		r->newer_version = xasprintf("%d", f->newer_version);
		r->newer_link = xstrdup(f->newer_url);
		r->newer_subject = xstrdup(f->newer_subject);
	}
	return 0;
}

/* The still lines: "[still regression on ...]", "[test failed on ...]". */
static int fill_still(const struct request *req, struct report *r)
{
	size_t i;

	r->nstill = req->still.n;
	r->still = xcalloc(r->nstill + 1, sizeof(*r->still));
	for (i = 0; i < r->nstill; i++) {
		const struct req_still *s =
			(const struct req_still *)req->still.v + i;

		r->still[i].tree = compose_strdup(s->tree);
		r->still[i].commit = compose_strdup(s->commit);
		r->still[i].failed = s->failed;
		r->still[i].revert = s->revert;
		if (s->revert && (s->commit || s->failed))
			return error("%s: still[%zu]: a reverted head has "
				     "neither commit nor failed",
				     req->file, i);
	}
	return 0;
}

/* The tested commit, its source and its posted patch. */
static int fill_commit(struct compose_ctx *c, struct report *r)
{
	const struct request *req = c->req;
	const struct commit_info *ci;
	struct strbuf sb = STRBUF_INIT;

	/* the tests may have read more commits from a repository */
	if (c->tested) {
		ci = compose_commit(c, c->tested, "commit");
		r->commit_id = xstrdup(ci->id);
		r->commit_subject = compose_strdup(ci->subject);
		if (!commit_subsystem(ci, &sb))
			r->subsystem = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	r->repo_url = compose_strdup(req->repo_url);
	r->branch = compose_strdup(req->branch);
	r->tree = compose_strdup(req->tree);
	r->patch_url = compose_strdup(req->patch.url);
	r->patch_base = compose_strdup(req->patch.base);
	r->patch_link = compose_strdup(req->patch.link);
	r->patch_subject = compose_strdup(req->patch.subject);
	/* without a tested commit there is nothing to look up */
	if (c->tested && thread_wanted(c) &&
	    lookup_thread(c, compose_commit(c, c->tested, "commit"), r))
		return -1;
	return 0;
}

/* The sender's texts and flags, the operator's names. */
static void fill_words(const struct compose_ctx *c, struct report *r)
{
	const struct request *req = c->req;

	r->preface = compose_strdup(req->preface);
	r->intro = compose_strdup(req->intro);
	r->note = c->note ? xstrdup(c->note) : compose_strdup(req->note);
	r->no_tags = req->no_tags;
	r->no_repro = req->no_repro;
	r->repeated = req->earlier != NULL;
	r->still_checked = req->still_checked;
	r->reported_by = xstrdup(req->reported_by ? req->reported_by
						  : c->cfg->reported_by);
	r->sender_name = xstrdup(req->sender_name ? req->sender_name
						  : c->cfg->sender_name);
	r->confidence = req->confidence ? xstrdup(req->confidence) : NULL;
}

static int fill_report(struct compose_ctx *c, struct report *r,
		       struct composed *out)
{
	const struct request *req = c->req;
	const struct commit_info *ci;
	const char *id = req->commit;

	r->origin.request = xstrdup(req->file);
	r->origin.config = xstrdup(c->cfg->file);
	r->origin.commits =
		compose_strdup(req->commits ? req->commits : req->repo);
	/* what is missing is named at once, with the templates' needs */
	c->needs = r->needs = needs_new();
	if (check_note(req))
		return -1;
	if (!id) {
		needs_add_key(r->needs, req->file, "commit", "the commit line");
	} else {
		ci = compose_commit(c, id, "commit");
		if (!ci)
			return -1;
		c->tested = xstrdup(ci->id);
	}
	if (build_tests(c, r) || (c->kind->finish && c->kind->finish(c, r)) ||
	    fill_commit(c, r) || fill_still(req, r))
		return -1;
	fill_words(c, r);
	return compose_fill_identity(c, r, out);
}

/* The first kind of the table that claims the request. */
static const struct report_kind *
pick_kind(const struct compose_ctx *c, const struct report_kind_entry *kinds,
	  size_t nkinds)
{
	size_t i;

	for (i = 0; i < nkinds; i++)
		if (kinds[i].ops->claims && kinds[i].ops->claims(c))
			return kinds[i].ops;
	return NULL;
}

/* The rendered report into a message: headers, body, attachments. */
static int make_message(struct compose_ctx *c, struct report *r,
			struct composed *out, struct strbuf *subject,
			struct strbuf *body)
{
	const struct commit_info *tested =
		commits_find(&c->commits, r->commit_id);
	struct msg m;
	int ret;

	msg_init(&m);
	ret = compose_mailer_apply(c, &m, subject, body) ||
	      msg_set_body(&m, body->buf, body->len) ||
	      compose_add_headers(&m, c, tested, subject->buf,
				  out->message_id) ||
	      compose_add_attachments(&m, c, tested, out, c->publish) ||
	      (c->kind->attach && c->kind->attach(&m, c, out, c->publish)) ||
	      msg_render(&out->bytes, &m);
	msg_release(&m);
	return ret ? -1 : 0;
}

int compose_run(struct composed *out, const struct request *req,
		const struct robot_config *cfg, const struct compose_opts *o,
		const struct report_kind_entry *kinds, size_t nkinds)
{
	struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT;
	struct report r = { 0 };
	struct compose_ctx c;
	int ret = -1;

	error_status = 0;
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->bytes, 0);
	if (compose_ctx_init(&c, req, cfg, o->style, 1))
		goto out;
	c.offline = o->offline;
	c.revision = o->revision;
	c.kind = pick_kind(&c, kinds, nkinds);
	if (!c.kind) {
		error("%s: no report kind takes the request", req->file);
		goto out;
	}
	if (fill_report(&c, &r, out) ||
	    report_render(&subject, &body, &r, &c.st))
		goto out;
	if (c.publish)
		out->archive_dir = xasprintf(
			"%s/%s/%.*s", cfg->archive_dir, r.date,
			(int)strlen(out->message_id) - 2, out->message_id + 1);
	if (make_message(&c, &r, out, &subject, &body) ||
	    compose_lint(out, req))
		goto out;
	ret = 0;
out:
	report_release(&r);
	compose_ctx_release(&c);
	strbuf_release(&subject);
	strbuf_release(&body);
	return ret ? error_exit_code(EXIT_DATAERR) : 0;
}
