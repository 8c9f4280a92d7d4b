// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.c: the performance report kind: the KPI's change in the
 * headline, the rows a sender appends to the first table, the sender's
 * words and tables at the places of the report (doc/request.md).
 */
#include "robot/util/common.h"
#include "robot/engine/compare.h"
#include "robot/report/build.h"
#include "robot/report/report.h"
#include "robot/kinds/perf/perf.h"
#include "config/request.h"

/*
 * The rows the sender appended to the first test's table, after its
 * sorted rows, in the request's order (other stats of the same test,
 * changed or not): each printed as the table prints a row, from a
 * comparison of every stat of the same roots.  A stat the table shows
 * already, or that no root has, is an error.
 */
static int append_rows(struct compose_ctx *c, const struct result_root *rts,
		       size_t n, const struct comparison *cmp,
		       const struct compare_opts *o, struct strbuf *block)
{
	const struct request *req = c->req;
	struct compare_opts every_o = *o;
	struct comparison every = { 0 };
	struct strbuf rows = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

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
 * The sender's words on a row of the first test's table (an arrow that
 * the note under the headline refers to): appended to the row's line as
 * written.
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
 * A table among the sender's words (figures of further runs of the same
 * two commits): the comparison of the note's result roots,
 * every stat of them, from the commits' id line on, as a sender pastes it
 * from a terminal: each line without its trailing blanks.  `rows_only`:
 * its rows alone, without the id, dash and header lines (more details
 * after the signature, rows that follow the table above).
 */
static int note_table(struct compose_ctx *c, const struct req_note *note,
		      size_t i, int rows_only, struct strbuf *out)
{
	struct req_test rq = { .result_roots = note->table, .all_stats = 1 };
	struct report_test t = { 0 };
	struct strbuf where = STRBUF_INIT, heads = STRBUF_INIT;
	const char *p, *q;
	size_t k;
	int ret;

	strbuf_addf(&where, "notes[%zu].", i);
	ret = compose_build_test(c, &rq, &t, where.buf, "table");
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

/*
 * The sender's words in a performance report (the request's `notes`):
 * after the repository line, before the still lines (why it was
 * reported at all), after the parameters (kernel-log lines or figures the
 * sender compared; they take the place of the empty lines before the tags
 * or "Details"), before the reproduce block (a "[1]" that its words point
 * to), on a row of the first test's table (`table` and `row`: an arrow),
 * after the last table in place of the empty lines there (`details`), at
 * the end, before the signature ("#regzbot introduced: <sha>" for the
 * regressions tracker), or after the signature (`post`: "<below more
 * details ...>" and its rows).
 * Words only: every table robot prints is its own.
 */
static int build_perf_notes(struct compose_ctx *c, struct report *r)
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

/* A performance report's headline: its KPI's change against the base. */
static int perf_compared(struct compose_ctx *c, struct report_test *t,
			 const struct compare_roots *roots,
			 const struct comparison *cmp, const char *where)
{
	(void)roots;
	return compose_kpi_change(c, t, cmp, where);
}

/* Every request no other kind claims is a performance report. */
static int perf_claims(const struct compose_ctx *c)
{
	(void)c;
	return 1;
}

const struct report_kind perf_kind = {
	.name = "perf",
	.what = "performance report",
	.claims = perf_claims,
	.compared = perf_compared,
	.append = append_rows,
	.finish = build_perf_notes,
};

/* The words and tables of a report of another kind that has no data. */
int perf_notes(struct compose_ctx *c, struct report *r)
{
	return build_perf_notes(c, r);
}
