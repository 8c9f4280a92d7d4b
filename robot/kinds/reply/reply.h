/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reply.h: the text of robot's answer to a follow-up (robot reply), in
 * the layout of 0-day's own follow-ups: the developer's mail quoted up to
 * their question, a greeting, what was tested (which patch, or none) and
 * how it came out, the Tested-by line, the comparison blocks, the
 * signature, and the rest of their mail quoted.
 *
 * Wording and layout are templates (templates/SET/reply*, SET the style's
 * `rset`); the style table's dated rows, and the sending operator's own
 * (KEY@OPERATOR), pick their variants: the commit lines of the tables
 * (`rcommit`), whether the tables keep trailing blanks (`rstrip`), the
 * Tested-by line (`rtested`).  compose_reply() (compose.h) gathers the
 * data; this file only lays it out.
 */
#ifndef ROBOT_REPLY_H
#define ROBOT_REPLY_H

struct commit_info;
struct lkp_tables;
struct result_root;
struct compose_opts;
struct composed;
struct followup;
struct report_kind;
struct request;
struct robot_config;
struct strbuf;
struct style;

/* How the KPI came out with the patch, against the base. */
enum reply_verdict {
	REPLY_UNJUDGED, /* no KPI, or too few columns to judge */
	REPLY_GONE,	/* the change the report was about is gone */
	REPLY_STILL,	/* still there, the same way */
	REPLY_TURNED,	/* a significant change the other way */
};

struct reply_view {
	const struct followup *parent;
	const struct style *st;
	const char *sender_name;
	const char *tested_by; /* NULL: no Tested-by line */
	const char *remark;    /* the operator's words, or NULL */
	const char *statement; /* the operator's words in place of robot's */
	const char *tables;    /* the blocks, each ending in an empty line */
	/* what was tested */
	int applied;
	const char *patch_subject, *patch_ref;
	const char *bad_line; /* the reported commit, as a commit line */
	const char *kpi;      /* NULL: no verdict */
	enum reply_verdict verdict;
	const char *kind;     /* the report's: "regression", "improvement" */
	const char *bad_pct;  /* the reported commit's change, "-36.6" */
	const char *fix_pct;  /* the patched kernel's change, "-1.4" */
	const char *fix_kind; /* REPLY_TURNED: what the change now is */
};

/*
 * Appends the reply's body.  Returns 0, or -1 after an error naming the
 * template (a missing file, an unknown placeholder, a value the template
 * needs and the reply lacks).
 */
int reply_render(struct strbuf *body, const struct reply_view *v);

/*
 * The parent's text split where the answer goes: after the developer's
 * last own paragraph that is not a sign-off ("Thanks,\nDavid"); their
 * signature ("-- " and after) is dropped, and so is their patch unless
 * `with_patch`.  `head` and `tail` get the
 * quoted lines ("> " + line); the tail keeps the blank line that follows
 * the head, and loses the blank lines at its end.
 */
void reply_quote_split(const char *text, int with_patch, struct strbuf *head,
		       struct strbuf *tail);

/*
 * The line a reply's table shows for a commit: the style's `rcommit`
 * template, first fitting line (a tag alone, "<sha10> (\"<subject>\")",
 * ...).  Returns 0, or -1 after an error.
 */
int reply_commit_line(struct strbuf *out, const struct style *st,
		      const struct commit_info *ci);

/*
 * A table as the style writes it in a reply: with `rstrip 1`, without
 * the blanks at line ends (the operator's mailer took them off).
 */
void reply_table_layout(struct strbuf *block, const struct style *st);

/* The follow-up kind's hooks (robot/report/build.h); compose_reply uses it. */
extern const struct report_kind reply_kind;

/*
 * Composes robot's answer to the follow-up `parent` (robot reply,
 * doc/reply.md): the request's result roots and sections are the tables,
 * its `applied` the patch tested (none without); the reply goes to the
 * parent's sender and everyone it went to but robot, threaded under it.
 * Returns 0 or an exit code after one error line, as compose_report()
 * (robot/kinds/kinds.h).
 */
int compose_reply(struct composed *out, const struct followup *parent,
		  const struct request *req, const struct robot_config *cfg,
		  const struct compose_opts *o);

/*
 * lkp-tests' older view of one stat over result roots, `compare -f FIELD
 * RT...` (sbin/compare), as the robot account's follow-ups of 2020 show
 * it: "commit: " over the commit `lines`, then a column per root headed
 * by `names` (a tag, or the first 27 digits of the id), a row per test
 * ("TESTCASE/PATH_PARAMS/TBOX_GROUP" of the root's LKP path, its
 * stats_source) and the GEO-MEAN row; an empty line after it.  Nothing
 * when no test has two commits that do not scatter.  Returns 0, or -1
 * after an error naming the root whose path is no LKP result path.
 * compare-view.c.
 */
int reply_compare_view(struct strbuf *out, const struct result_root *rts,
		       size_t n, const char *const *names,
		       const char *const *lines, const char *field,
		       const struct lkp_tables *t);

#endif
