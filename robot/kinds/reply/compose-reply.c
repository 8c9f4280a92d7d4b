// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose-reply.c: the follow-up kind (robot reply; reply.h): the
 * answer's tables with their own commit lines, the verdict on the patch,
 * the reply-all headers, threaded under the mail it answers.
 */
#include "robot/util/common.h"
#include "robot/engine/compare.h"
#include "robot/engine/results.h"
#include "robot/util/strset.h"
#include "robot/util/utf8.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/guard.h"
#include "robot/report/inputs.h"
#include "robot/report/report.h"
#include "robot/kinds/functional/functional.h"
#include "robot/kinds/reply/reply.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "config/config.h"
#include "config/lkp.h"
#include "config/request.h"
#include "mail/msg.h"

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
	struct strbuf view; /* a test's `view: compare` block, until printed */
};

/*
 * The commit lines of a reply's table: the style's `rcommit` for each
 * commit the request's metadata knows; without metadata, the full ids,
 * as `lkp ncompare` prints the commits it knows nothing about.
 */
static int reply_label(struct compose_ctx *c, struct compare_roots *roots)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!c->req->commits && !c->req->repo)
		return 0;
	if (compare_roots_label(roots, compose_find_commit, c))
		return -1;
	for (i = 0; i < roots->n; i++) {
		const char *id = job_get(&roots->rts[i].job, "commit");
		const struct commit_info *ci =
			compose_commit(c, id, roots->rts[i].dir);

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
static void reply_judge(struct compose_ctx *c,
			const struct compare_roots *roots,
			const struct comparison *cmp,
			const struct compare_opts *o,
			const struct report_test *t)
{
	struct reply_judge *j = c->kind_data;
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
static void reply_add_all(struct strbuf *out, struct strset *seen,
			  const struct hdr_addr_list *l,
			  const struct compose_ctx *c, int copy)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct hdr_addr *a = &l->v[i];

		if (strset_has(seen, a->addr) ||
		    guard_is_robot(c->cfg, c->req->from, a->addr) ||
		    (copy && !guard_may_copy(c->cfg, c->req->from, a->addr)))
			continue;
		compose_add_mailbox(out, a->display, a->addr);
		strset_add(seen, a->addr);
	}
}

/*
 * Reply-all, as a mailer's group reply does: To the Mail-Followup-To, or
 * the Reply-To, or the sender; Cc everyone else the mail went to, robot
 * and the addresses reply_allow does not let it copy left out.  The
 * request's to and cc, when given, are used instead.
 */
static void reply_recipients(const struct compose_ctx *c,
			     const struct followup *f, struct strbuf *to,
			     struct strbuf *cc)
{
	struct strset seen = STRSET_ICASE_INIT;
	const struct hdr_addr_list *first = f->followup_to.nr ? &f->followup_to
					    : f->reply_to.nr  ? &f->reply_to
							      : &f->from;

	if (c->req->to.n) {
		compose_join_list(to, &c->req->to);
		compose_join_list(cc, &c->req->cc);
		return;
	}
	reply_add_all(to, &seen, first, c, 0);
	if (!f->followup_to.nr) {
		reply_add_all(cc, &seen, &f->to, c, 1);
		reply_add_all(cc, &seen, &f->cc, c, 1);
	}
	if (c->req->cc.n) {
		struct strbuf extra = STRBUF_INIT;

		compose_join_list(&extra, &c->req->cc);
		if (cc->len)
			strbuf_addstr(cc, ", ");
		strbuf_addbuf(cc, &extra);
		strbuf_release(&extra);
	}
	strset_release(&seen);
}

static int reply_headers(struct msg *m, const struct compose_ctx *c,
			 const struct followup *f, const char *msgid)
{
	const struct request *req = c->req;
	const struct robot_config *cfg = c->cfg;
	const char *how = style_get(&c->st, "reply-references");
	struct strbuf sb = STRBUF_INIT, cc = STRBUF_INIT;
	char *subject;
	size_t i;
	int ret;

	ret = compose_add_date_from(m, c);
	reply_recipients(c, f, &sb, &cc);
	if (!ret && !sb.len)
		ret = error("%s: nobody to answer: the mail's sender is robot "
			    "itself",
			    f->path);
	if (!ret)
		ret = compose_add_header(m, "To", sb.buf, f->path,
					 req->to.n ? "to (the request's)"
						   : "From, Reply-To or "
						     "Mail-Followup-To");
	if (!ret && cc.len)
		ret = compose_add_header(m, "Cc", cc.buf, f->path, "To and Cc");
	/* one Re:, the parent's Subject without its own */
	subject = compose_strip_re(f->subject);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Re: %s", subject);
	free(subject);
	if (!ret)
		ret = compose_add_header(m, "Subject", sb.buf, f->path,
					 "Subject");
	if (!ret)
		ret = compose_add_header(m, "Message-ID", msgid,
					 req->message_id ? req->file
							 : cfg->file,
					 req->message_id ? "message_id"
							 : "message_id_user, "
							   "message_id_domain");
	if (!ret && how && !strcmp(how, "chain")) {
		strbuf_reset(&sb);
		for (i = 0; i < f->nrefs; i++)
			if (strcmp(f->refs[i], f->message_id))
				strbuf_addf(&sb, "%s ", f->refs[i]);
		strbuf_addstr(&sb, f->message_id);
		ret = compose_add_header(m, "References", sb.buf, f->path,
					 "References and Message-ID");
	}
	if (!ret)
		ret = compose_add_header(m, "In-Reply-To", f->message_id,
					 f->path, "Message-ID");
	/* RFC 3834: an automatic answer, which mailers must not answer */
	if (!ret)
		ret = msg_add_header(m, "Auto-Submitted", "auto-replied");
	strbuf_release(&sb);
	strbuf_release(&cc);
	return ret;
}

/* The reply's identity in the spool: what it answers, with what. */
static char *reply_key(const struct compose_ctx *c, const struct followup *f,
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
static void reply_verdict(struct reply_view *v, const struct compose_ctx *c,
			  char **bad_pct, char **fix_pct)
{
	const struct reply_judge *j = c->kind_data;
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

static const struct req_test *reply_req_test(const struct compose_ctx *c,
					     const char *where);

/*
 * A test's `view: compare` (compare-view.c): its KPI over the roots, the
 * columns named by the commits' tags, else their first 27 digits, as
 * sbin/compare's dim_name.
 */
static int view_compare(struct compose_ctx *c, const struct report_test *t,
			const struct compare_roots *roots, const char *where)
{
	struct reply_judge *j = c->kind_data;
	const char **names = xcalloc(roots->n, sizeof(*names));
	char **own = xcalloc(roots->n, sizeof(*own));
	size_t i;
	int ret = -1;

	if (!t->kpi) {
		error("%s: %sview: compare shows the test's kpi, and the test "
		      "has none",
		      c->req->file, where);
		goto out;
	}
	for (i = 0; i < roots->n; i++) {
		const char *id = job_get(&roots->rts[i].job, "commit");
		const struct commit_info *ci =
			compose_commit(c, id, roots->rts[i].dir);

		if (!ci)
			goto out;
		names[i] = ci->tag;
		if (!names[i])
			names[i] = own[i] = xstrndup(ci->id, 27);
	}
	strbuf_reset(&j->view);
	ret = reply_compare_view(&j->view, roots->rts, roots->n, names,
				 (const char *const *)roots->lines, t->kpi,
				 c->tables);
out:
	for (i = 0; i < roots->n; i++)
		free(own[i]);
	free(own);
	free(names);
	return ret;
}

/* A reply's tables: a KPI of a performance test has its row judged. */
static int reply_compared(struct compose_ctx *c, struct report_test *t,
			  const struct compare_roots *roots,
			  const struct comparison *cmp, const char *where)
{
	const struct req_test *rq = reply_req_test(c, where);

	if (rq->view && !strcmp(rq->view, "compare") &&
	    view_compare(c, t, roots, where))
		return -1;
	if (t->kpi && !functional_kpi(c->tables, t->kpi))
		return compose_kpi_change(c, t, cmp, where);
	return 0;
}

/* The request's test at `where`: "" the top level, "sections[N]." */
static const struct req_test *reply_req_test(const struct compose_ctx *c,
					     const char *where)
{
	const char *p = where + strcspn(where, "[");

	if (!*p)
		return &c->req->test;
	return (const struct req_test *)c->req->sections.v +
	       strtoul(p + 1, NULL, 10);
}

/*
 * The table in the reply's layout, or in the test's view: `fail_runs`
 * is the bare fail:runs table of the robot account's follow-ups (the
 * commits' id line, the fail:runs rows; no axes, no performance rows).
 * The first table gives the verdict.
 */
static void reply_printed(struct compose_ctx *c, struct report_test *t,
			  const struct compare_roots *roots,
			  const struct comparison *cmp,
			  const struct compare_opts *o, struct strbuf *block,
			  const char *where)
{
	const struct req_test *rq = reply_req_test(c, where);
	struct strv all = { 0 };

	if (rq->view && !strcmp(rq->view, "fail_runs")) {
		strbuf_reset(block);
		functional_fail_table(block, cmp, roots, c->tables, 0, &all);
		strbuf_addch(block, '\n');
	} else if (rq->view && !strcmp(rq->view, "compare")) {
		struct reply_judge *j = c->kind_data;

		strbuf_reset(block);
		strbuf_addbuf(block, &j->view);
	} else {
		reply_table_layout(block, &c->st);
	}
	if (!*where)
		reply_judge(c, roots, cmp, o, t);
}

/* Answers are made by compose_reply, never picked for a report. */
const struct report_kind reply_kind = {
	.name = "reply",
	.what = "reply",
	.label = reply_label,
	.compared = reply_compared,
	.printed = reply_printed,
};

/* The mail answered is one robot can thread under, and the request's. */
static int check_parent(const struct followup *parent,
			const struct request *req)
{
	if (!parent->message_id)
		return error("%s: the mail has no Message-ID: a reply cannot "
			     "be threaded under it",
			     parent->path);
	if (req->in_reply_to && strcmp(req->in_reply_to, parent->message_id))
		return error("%s: in_reply_to: the request answers %s, the "
			     "mail is %s",
			     req->file, req->in_reply_to, parent->message_id);
	return 0;
}

/* A test's `view`: one robot prints (doc/reply.md). */
static int check_view(const struct request *req, const struct req_test *rq,
		      const char *where)
{
	if (!rq->view || !strcmp(rq->view, "ncompare") ||
	    !strcmp(rq->view, "fail_runs") || !strcmp(rq->view, "compare"))
		return 0;
	return error("%s: %sview: '%s' is not a table view (want ncompare, "
		     "fail_runs or compare)",
		     req->file, where, rq->view);
}

/* The request's reply keys robot checks before it reads the roots. */
static int check_reply_keys(const struct request *req)
{
	char where[48];
	size_t i;

	if (req->statement && !req->statement[strspn(req->statement, " \t\n")])
		return error("%s: statement: empty (the operator's words in "
			     "place of robot's; leave the key out for robot's)",
			     req->file);
	if (check_view(req, &req->test, ""))
		return -1;
	for (i = 0; i < req->sections.n; i++) {
		snprintf(where, sizeof(where), "sections[%zu].", i);
		if (check_view(req,
			       (const struct req_test *)req->sections.v + i,
			       where))
			return -1;
	}
	return 0;
}

/* The reply's tests, their tables one after the other in `tables`. */
static int reply_tables(struct compose_ctx *c, struct report *r,
			struct strbuf *tables)
{
	const struct request *req = c->req;
	size_t i;

	if (check_reply_keys(req))
		return -1;

	/* what is missing is named at once (robot/report/inputs.h) */
	c->needs = r->needs = needs_new();
	r->ntests = 1 + req->sections.n;
	r->tests = xcalloc(r->ntests, sizeof(*r->tests));
	if (compose_build_test(c, &req->test, &r->tests[0], "", "result_roots"))
		return -1;
	for (i = 0; i < req->sections.n; i++) {
		char *where = xasprintf("sections[%zu].", i);
		int bad_section = compose_build_test(
			c, (const struct req_test *)req->sections.v + i,
			&r->tests[1 + i], where, "result_roots");

		free(where);
		if (bad_section)
			return -1;
	}
	if (needs_count(c->needs)) {
		needs_report(c->needs);
		return -1;
	}
	for (i = 0; i < r->ntests; i++)
		strbuf_addstr(tables, r->tests[i].block);
	return 0;
}

/* The reported commit's line: the request's, else the second column's. */
static int reply_bad_line(struct compose_ctx *c, struct strbuf *bad,
			  struct composed *out)
{
	const struct request *req = c->req;
	const char *bad_id = req->commit ? req->commit : c->second_id;
	const struct commit_info *ci;

	if (bad_id && (req->commits || req->repo)) {
		ci = compose_commit(c, bad_id, "commit");
		if (!ci || reply_commit_line(bad, &c->st, ci))
			return -1;
		out->commit_id = xstrdup(ci->id);
	} else if (bad_id) {
		strbuf_addstr(bad, bad_id);
		out->commit_id = xstrdup(bad_id);
	}
	return 0;
}

/* What the answer's templates show (reply.h). */
static void reply_fill_view(struct reply_view *v, const struct compose_ctx *c,
			    const char *tables, const char *bad, char **bad_pct,
			    char **fix_pct)
{
	const struct request *req = c->req;
	const struct req_applied *a = &req->applied;

	v->st = &c->st;
	v->sender_name =
		req->sender_name ? req->sender_name : c->cfg->sender_name;
	v->remark = req->remark;
	v->statement = req->statement;
	v->tables = tables;
	v->applied = a->subject || a->message_id || a->link || a->file;
	v->patch_subject = a->subject;
	v->patch_ref = a->message_id ? a->message_id
		       : a->link     ? a->link
				     : v->parent->message_id;
	v->bad_line = *bad ? bad : NULL;
	v->kpi = req->test.kpi;
	reply_verdict(v, c, bad_pct, fix_pct);
	if (v->applied &&
	    !((v->verdict == REPLY_STILL && !strcmp(v->kind, "regression")) ||
	      (v->verdict == REPLY_TURNED &&
	       !strcmp(v->fix_kind, "regression"))))
		v->tested_by = req->tested_by	  ? req->tested_by
			       : req->reported_by ? req->reported_by
						  : c->cfg->reported_by;
}

/* The answer's identity, Message-ID, headers and bytes. */
static int reply_message(struct composed *out, struct compose_ctx *c,
			 const struct followup *parent, const struct report *r,
			 const struct strbuf *body)
{
	struct msg m;
	int ret;

	out->key = reply_key(c, parent, r);
	out->message_id = compose_pick_message_id(c, out->key);
	if (!out->message_id)
		return -1;
	out->base_id = compose_strdup(c->base_id);
	msg_init(&m);
	ret = msg_set_body(&m, body->buf, body->len) ||
	      reply_headers(&m, c, parent, out->message_id) ||
	      msg_render(&out->bytes, &m);
	msg_release(&m);
	return ret ? -1 : 0;
}

int compose_reply(struct composed *out, const struct followup *parent,
		  const struct request *req, const struct robot_config *cfg,
		  const struct compose_opts *o)
{
	struct strbuf body = STRBUF_INIT, tables = STRBUF_INIT,
		      bad = STRBUF_INIT;
	char *bad_pct = NULL, *fix_pct = NULL;
	struct reply_view v = { .parent = parent };
	struct reply_judge judge = { .view = STRBUF_INIT };
	struct report r = { 0 };
	struct compose_ctx c;
	int ret = -1;

	error_status = 0;
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->bytes, 0);
	if (compose_ctx_init(&c, req, cfg, o->style, 0))
		goto out;
	c.kind = &reply_kind;
	c.kind_data = &judge;
	if (check_parent(parent, req) || reply_tables(&c, &r, &tables) ||
	    reply_bad_line(&c, &bad, out))
		goto out;
	reply_fill_view(&v, &c, tables.buf, bad.buf, &bad_pct, &fix_pct);
	if (reply_render(&body, &v)) {
		error_status = error_exit_code(EXIT_CONFIG);
		goto out;
	}
	if (reply_message(out, &c, parent, &r, &body) || compose_lint(out, req))
		goto out;
	ret = 0;
out:
	report_release(&r);
	compose_ctx_release(&c);
	strbuf_release(&judge.view);
	strbuf_release(&body);
	strbuf_release(&tables);
	strbuf_release(&bad);
	free(bad_pct);
	free(fix_pct);
	return ret ? error_exit_code(EXIT_DATAERR) : 0;
}
