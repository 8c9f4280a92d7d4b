// SPDX-License-Identifier: GPL-2.0-only
/*
 * blocks.c: the blocks of a report's body: the sender's words, the source
 * and still lines, parameters, tags, reproduce steps, sections and plots
 * (render.h).
 */
#include "robot/util/common.h"
#include "robot/engine/bisect.h"
#include "robot/engine/plot.h"
#include "robot/report/render.h"
#include "robot/report/report.h"
#include "config/data.h"
#include "config/style.h"

/* Blocks.  Optional ones render nothing when the report has no data. */

/* Free text of the sender before the greeting, ending in a newline. */
int b_preface(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->preface;

	rc->used |= USED_PREFACE;
	if (!text || !*text)
		return 0;
	strbuf_addstr(out, text);
	if (text[strlen(text) - 1] != '\n')
		strbuf_addch(out, '\n');
	return 0;
}

/*
 * The empty lines before the greeting: the style's `lead`, or after a
 * preface the `-preface` file of that lead where the set has one.  A
 * preface is followed by two empty lines in every period: 234 of
 * 2022-11-22 (a `lead 1` period) as 122-129, 248, 258, 281, 308, 311 and
 * 329 of the `lead 2` ones.
 */
int b_lead(struct render *rc, struct strbuf *out)
{
	const char *pre = rc->r->preface;

	return render_expand_optional(rc, out, "lead",
				      pre && *pre ? "-preface" : NULL);
}

/*
 * The sender's text after the greeting (258, 308, 311, 329 of the corpus:
 * "we reported ... now we got more bisect results"), as the `intro`
 * template lays it out; nothing without one.
 */
int b_intro(struct render *rc, struct strbuf *out)
{
	rc->used |= USED_INTRO;
	if (!rc->r->intro || !*rc->r->intro)
		return 0;
	return render_expand(rc, out, "intro", NULL);
}

/*
 * What stands between the headline and "commit:": the sender's note as
 * written, empty lines included (208, 287, 298, 301: "(but no obvious
 * diff for fsmark.files_per_sec)"), else the period's `note-none`.
 */
int b_note(struct render *rc, struct strbuf *out)
{
	if (rc->r->note && *rc->r->note) {
		strbuf_addstr(out, rc->r->note);
		return 0;
	}
	return render_expand(rc, out, "note-none", NULL);
}

/* The intro's text, ending in a newline. */
int f_intro_text(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->intro;

	if (!text || !*text)
		return render_no_value(rc, "intro_text");
	strbuf_addstr(out, text);
	if (text[strlen(text) - 1] != '\n')
		strbuf_addch(out, '\n');
	return 0;
}

/*
 * The sender's words at the end, before the signature: a functional
 * report's notes at end (after the reproduce steps), a performance
 * report's after the disclaimer (116: "#regzbot introduced: <sha>", the
 * regressions tracker's command).  As written, ending in a newline.
 */
int f_note_end(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->fn ? rc->r->fn->end : rc->r->end_note;

	if (!rc->r->fn)
		rc->used |= USED_END_NOTE;
	return render_add_value(rc, out, "note_end", text);
}

/*
 * A posted patch whose url: has neither base: nor patch link: under it:
 * the `-nobase` file, where a period has one, keeps an empty line in the
 * place of base: (the 2021 set: 201 of 2019-11, functional 402-413 of
 * 2019-2020, none of which had a patch link yet).  With a patch link the
 * lines close up (<20211105064159.GB17949@xsang-OptiPlex-9020>,
 * <20220613085029.GG7252@xsang-OptiPlex-9020>: url:, patch link:, then
 * one empty line).
 */
const char *nobase_suffix(const struct report *r)
{
	if (r->patch_base && *r->patch_base)
		return NULL;
	return r->patch_link && *r->patch_link ? NULL : "-nobase";
}

/*
 * Were the heads tested, with no failure shown (the still block without
 * lines, whose empty line a period keeps: `source-split-checked`,
 * `fstill-none`)?
 * As the request says; if it does not, a performance improvement's were
 * and a regression's without still lines were not (the majority of the
 * 2024-11 on mails: config/data/styles "source split").
 */
static int heads_checked(const struct render *rc)
{
	if (rc->r->nstill || rc->r->patch_url)
		return 0;
	if (rc->r->still_checked >= 0)
		return rc->r->still_checked;
	return rc->t->improvement;
}

/*
 * The tree of the commit (`source`), or the url:/base:/patch lines of a
 * posted patch (`source-patch`, or `source-patch-nobase` where a period
 * has a file for a patch without its base or link: nobase_suffix): two
 * blocks, each with its own variants.  A commit of a tree whose posted patch
 * robot found on the archive, with no url: of a branch made from it, shows the
 * tree and the patch's lines (`source-link`).
 */
int b_source(struct render *rc, struct strbuf *out)
{
	int ret;

	if (rc->r->patch_url)
		ret = render_expand_optional(rc, out, "source-patch",
					     nobase_suffix(rc->r));
	else if (rc->r->patch_link)
		ret = render_expand(rc, out, "source-link", NULL);
	else
		ret = render_expand_optional(rc, out, "source",
					     heads_checked(rc) ? "-checked"
							       : NULL);
	/* the sender's words before the still lines (324), as written */
	rc->used |= USED_SOURCE_NOTE;
	if (!ret && rc->r->source_note)
		strbuf_addstr(out, rc->r->source_note);
	return ret;
}

/*
 * What the report says between the parameters and "Details are as
 * below:": the In-addition table and the tags (`verdict`), or, without
 * the table, `verdict-empty` (an improvement), `verdict-left` (a
 * regression sent without the tags) or `verdict-bare` (a regression)
 * where a period has it.
 */
int b_verdict(struct render *rc, struct strbuf *out)
{
	const char *suffix = NULL, *note = rc->r->params_note;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	int ret;

	if (!rc->r->nadditions)
		suffix = rc->t->improvement ? "-empty"
			 : rc->r->no_tags   ? "-left"
					    : "-bare";
	/*
	 * A second report on a commit the robot reported before (`earlier`)
	 * has the short frame whatever the period: two empty lines before
	 * the tags or "Details" where the table is absent (286 on 274's
	 * commit, 2024-09; 325 on 133's, 2025-11; 329 on 327's), where the
	 * first reports have the period's four or three.
	 */
	if (suffix && rc->r->repeated && !note) {
		char *name = xasprintf("verdict-short%s", suffix);
		int has = render_has_file(rc, name);

		ret = has ? render_expand_file(rc, out, name) : 0;
		free(name);
		if (has)
			return ret;
	}
	rc->used |= USED_PARAMS_NOTE;
	if (!note || rc->t != &rc->r->tests[0])
		return render_expand_optional(rc, out, "verdict", suffix);
	/*
	 * The sender's words after the parameters stand where the verdict's
	 * empty lines did, with their own
	 * (<202311301346.56b0fcd6-oliver.sang@intel.com>: dmesg lines of
	 * both commits; 278's words stand there too, around a table).
	 */
	ret = render_expand_optional(rc, &sb, "verdict", suffix);
	while (n < sb.len && sb.buf[n] == '\n')
		n++;
	strbuf_addstr(out, note);
	strbuf_add(out, sb.buf + n, sb.len - n);
	strbuf_release(&sb);
	return ret;
}

/*
 * The still lines: `wrapper` around one `line` template per line (still
 * and still-line, or a functional report's fstill and fstill-line).
 */
/*
 * The line of a head that passed with the commit reverted (324): the
 * block LINE-revert, one file whatever the still lines' padding (it has
 * no id to align), where the period has one.
 */
static int revert_line(struct render *rc, struct strbuf *out, const char *line,
		       size_t i)
{
	char *block = xasprintf("%s-revert", line);
	int ret;

	if (render_has_variant(rc, block, NULL)) {
		ret = render_expand(rc, out, block, NULL);
	} else {
		char *rel = xasprintf("templates/%s", rc->set);
		char *path = data_path(rel);

		ret = error("%s: %s: still[%zu].revert: the period's still "
			    "lines have no line for a reverted head (no %s)",
			    rc->r->origin.request, path, i, block);
		free(path);
		free(rel);
	}
	free(block);
	return ret;
}

int still_block(struct render *rc, struct strbuf *out, const char *wrapper,
		const char *line)
{
	const struct report *r = rc->r;
	struct strbuf lines = STRBUF_INIT;
	size_t i;
	int ret = 0;

	rc->used |= USED_STILL;
	/*
	 * Heads tested without a failure: the block without lines, whose
	 * empty line the style keeps or drops (BLOCK-none VARIANT)
	 */
	if (!r->nstill && r->still_checked > 0 && !r->patch_url &&
	    !strcmp(wrapper, "fstill"))
		return render_expand(rc, out, "fstill-none", NULL);
	if (!r->nstill)
		return 0;
	rc->still_width = 0;
	for (i = 0; i < r->nstill; i++)
		if (r->still[i].tree && !r->still[i].revert &&
		    strlen(r->still[i].tree) > rc->still_width)
			rc->still_width = strlen(r->still[i].tree);
	for (i = 0; !ret && i < r->nstill; i++) {
		rc->still = &r->still[i];
		if (rc->still->revert) {
			ret = revert_line(rc, &lines, line, i);
			continue;
		}
		ret = render_expand(rc, &lines, line,
				    rc->still->failed ? "-failed" : NULL);
	}
	/*
	 * The lines come in two slots, linus/master's and then
	 * linux-next/master's, and the second is a line of its own even
	 * when that head has none: 263 (2024-03, a linus/master line
	 * alone) has one empty line more than the reports whose last line
	 * is linux-next's (292, 296, 327 and the rest).
	 */
	for (i = 0; i < r->nstill; i++)
		if (r->still[i].tree &&
		    !strncmp(r->still[i].tree, "linux-next/", 11))
			break;
	if (!ret && i == r->nstill)
		strbuf_addch(&lines, '\n');
	rc->still = NULL;
	rc->items = lines.buf;
	/* after a posted patch's lines: `still-patch` (no mail shows one) */
	if (!ret)
		ret = render_expand(rc, out, wrapper,
				    r->patch_url ? "-patch" : NULL);
	rc->items = NULL;
	strbuf_release(&lines);
	return ret;
}

int b_still(struct render *rc, struct strbuf *out)
{
	return still_block(rc, out, "still", "still-line");
}

int b_cfg(struct render *rc, struct strbuf *out)
{
	return render_expand(rc, out, "cfg", NULL);
}

struct kv_sort {
	char *kv; /* "key=value", the order of LKP's axes strings */
	size_t i;
};

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct kv_sort *)a)->kv,
		      ((const struct kv_sort *)b)->kv);
}

/*
 * The order of t's parameters: the job's, or sorted as `k=v` strings
 * (style `params_order`: job | sorted).  Returns an array the caller
 * frees, or NULL after an error.
 */
size_t *param_order(const struct render *rc, const struct report_test *t,
		    const char *how)
{
	int sorted = how && !strcmp(how, "sorted");
	struct kv_sort *s;
	size_t *order, i;

	if (!sorted && (!how || strcmp(how, "job"))) {
		error("style %s: params_order is '%s' (want job or sorted)",
		      rc->st->date, how ? how : "");
		return NULL;
	}
	s = xcalloc(t->nparams + 1, sizeof(*s));
	order = xcalloc(t->nparams + 1, sizeof(*order));
	for (i = 0; i < t->nparams; i++) {
		const struct report_kv *kv = &t->params[i];

		s[i].kv = xasprintf("%s=%s", kv->key ? kv->key : "",
				    kv->value ? kv->value : "");
		s[i].i = i;
	}
	if (sorted)
		qsort(s, t->nparams, sizeof(*s), cmp_kv);
	for (i = 0; i < t->nparams; i++) {
		order[i] = s[i].i;
		free(s[i].kv);
	}
	free(s);
	return order;
}

/* The job's parameters: `param` per item, `param-sep` between items. */
int b_params(struct render *rc, struct strbuf *out)
{
	const struct report_test *t = rc->t;
	size_t *order = param_order(rc, t, style_get(rc->st, "params_order"));
	size_t i;
	int ret = order ? 0 : -1;

	for (i = 0; !ret && i < t->nparams; i++) {
		rc->kv = &t->params[order[i]];
		if (i)
			ret = render_expand(rc, out, "param-sep", NULL);
		if (!ret)
			ret = render_expand(rc, out, "param", NULL);
	}
	rc->kv = NULL;
	free(order);
	return ret;
}

int b_testdesc(struct render *rc, struct strbuf *out)
{
	if (!rc->t->test_description || !*rc->t->test_description)
		return 0;
	return render_expand(rc, out, "testdesc", NULL);
}

/*
 * The suggested tags, with the empty lines after them: `tags` for a
 * regression; `tags-none` for an improvement, which asks for no fix;
 * `tags-left` for a regression whose sender left them out (115).  Three
 * blocks, each with its own dated variants: the empty lines that stand
 * in for the tags changed on their own.
 */
int b_tags(struct render *rc, struct strbuf *out)
{
	if (rc->t->improvement)
		return render_expand(rc, out, "tags-none", NULL);
	if (rc->r->no_tags)
		return render_expand(rc, out, "tags-left", NULL);
	return render_expand(rc, out, "tags", NULL);
}

/*
 * The reproduce block, or for a report sent without the materials
 * (`no_repro`) what the block leaves: its lines go and the empty lines
 * after them stay (255, 2023-12: one empty line where the download link
 * was; 236, 2023-04: where the steps were), so the block is rendered
 * leniently (no archive_url needed) and cut to its trailing empty lines.
 */
int repro_block(struct render *rc, struct strbuf *out, const char *block,
		const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;
	int ret;

	if (!rc->r->no_repro)
		return render_expand(rc, out, block, suffix);
	rc->lenient++;
	ret = render_expand(rc, &sb, block, suffix);
	rc->lenient--;
	n = sb.len;
	while (n && sb.buf[n - 1] == '\n')
		n--;
	/* the first newline ends the block's last line */
	if (!ret && sb.len - n > 1)
		strbuf_add(out, sb.buf + n + 1, sb.len - n - 1);
	strbuf_release(&sb);
	return ret;
}

int b_repro(struct render *rc, struct strbuf *out)
{
	rc->used |= USED_REPRO_NOTE;
	if (rc->r->repro_note && rc->t == &rc->r->tests[0])
		strbuf_addstr(out, rc->r->repro_note);
	return repro_block(rc, out, "repro", NULL);
}

/*
 * What follows the last test's table: the empty lines before the
 * disclaimer or signature (`details-gap`), or the sender's words in their
 * place, which carry their own (277's table ends one empty line short).
 */
int b_details(struct render *rc, struct strbuf *out)
{
	rc->used |= USED_DETAILS_NOTE;
	if (!rc->r->details_note)
		return render_expand(rc, out, "details-gap", NULL);
	strbuf_addstr(out, rc->r->details_note);
	return 0;
}

/* The sender's words after the signature (277's more details), as written. */
int b_post(struct render *rc, struct strbuf *out)
{
	rc->used |= USED_POST_NOTE;
	if (rc->r->post_note)
		strbuf_addstr(out, rc->r->post_note);
	return 0;
}

/*
 * One section per test: `section` for the first, `section-more` for each
 * later one.  The tests of the In-addition table are further sections, in
 * the table's order, before the report's own further sections: every
 * real mail with that table shows each entry's comparison as a section of
 * its own (corpus mails 104-136), but for an entry the sender shows
 * without it (`no_section`: 241's blogbench, whose place the next
 * further section takes).
 */
int b_sections(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;
	const struct report_test *saved = rc->t;
	size_t n = r->ntests + r->nadditions, i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		if (!i)
			rc->t = &r->tests[0];
		else if (i <= r->nadditions)
			rc->t = &r->additions[i - 1];
		else
			rc->t = &r->tests[i - r->nadditions];
		if (rc->t->no_section)
			continue;
		ret = render_expand(rc, out, "section", i ? "-more" : NULL);
	}
	rc->t = saved;
	return ret;
}

/*
 * The ASCII plots after the table of the bisected test, drawn as the
 * style's `gnuplot` release drew them (`none`: the period had no plots),
 * inside the `plots` template ({graphs}, then the legend).  The robot
 * dropped the form feed gnuplot starts each plot with, so a plot's last
 * row runs on into the next plot's first one (real mails of 2019-2021:
 * 160 blanks on that line).
 */
int b_plots(struct render *rc, struct strbuf *out)
{
	const struct report_test *t = rc->t;
	const char *v = style_get(rc->st, "gnuplot");
	struct strbuf graphs = STRBUF_INIT, one = STRBUF_INIT;
	enum plot_gnuplot gv;
	size_t i;
	int ret = 0;

	if (!t->nplots || !v || !strcmp(v, "none"))
		return 0;
	if (plot_gnuplot_parse(v, &gv))
		return error("style %s: gnuplot is '%s' (want none, 4.6, 5.0, "
			     "5.2 or 5.4)",
			     rc->st->date, v);
	for (i = 0; !ret && i < t->nplots; i++) {
		const struct bisect_plot *p = &t->plots[i];
		char *title = plot_title(p->stat);

		strbuf_reset(&one);
		ret = plot_draw(&one, title, p->good, p->ngood, p->bad, p->nbad,
				gv);
		if (!ret && one.len && one.buf[0] == '\f')
			strbuf_add(&graphs, one.buf + 1, one.len - 1);
		free(title);
	}
	if (!ret) {
		rc->items = graphs.buf;
		ret = render_expand(rc, out, "plots", NULL);
		rc->items = NULL;
	}
	strbuf_release(&one);
	strbuf_release(&graphs);
	return ret;
}
