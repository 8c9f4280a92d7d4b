// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c: a report, rendered into the Subject and body of its day.
 *
 * All wording lives in templates/SET/ (templates/README); this file only
 * knows how blocks nest.  The style's `template` row names SET, and the
 * template for block NAME is the file NAME-VARIANT when the style has a
 * row `NAME VARIANT` (repro, tags, machine, cfg, ...), else the file NAME.
 * So a period of the robot's history is rows plus files, never an `if`.
 *
 * The body template names the blocks; each block here expands its own
 * templates through the same lookup, which resolves a placeholder from the
 * table `fields`: a string of the report, of the current test or of its
 * host, or a function that renders a block.  Lists (parameters, still
 * lines, sections, In-addition rows) are loops over per-item templates.
 * Which file a block uses may depend on the data (source-patch when the
 * report is about a posted patch, still-line-failed), never on the date.
 *
 * Two files are one alternative per line, the first whose placeholders
 * all have values winning: `subject` (reply, tree, subsystem forms) and
 * `machine` (the fallbacks for hosts without brand or model).  A value
 * that is missing anywhere else is an error, like an unknown placeholder:
 * no report goes out with a hole in it.
 */
#include "robot/util/common.h"
#include "robot/engine/bisect.h"
#include "robot/report/inputs.h"
#include "robot/report/render.h"
#include "robot/report/report.h"
#include "config/data.h"
#include "config/style.h"

/* What a placeholder can name. */
enum scope { IN_REPORT, IN_TEST, IN_HOST, IN_FUNC, COMPUTED };

static const struct field {
	const char *name;
	enum scope scope;
	size_t offset; /* of a char * member */
	int (*fn)(struct render *rc, struct strbuf *out);
} fields[] = {
	{ "commit_id", IN_REPORT, offsetof(struct report, commit_id), NULL },
	{ "commit_subject", IN_REPORT, offsetof(struct report, commit_subject),
	  NULL },
	{ "subsystem", IN_REPORT, offsetof(struct report, subsystem), NULL },
	{ "repo_url", IN_REPORT, offsetof(struct report, repo_url), NULL },
	{ "branch", IN_REPORT, offsetof(struct report, branch), NULL },
	{ "tree", IN_REPORT, offsetof(struct report, tree), NULL },
	{ "patch_url", IN_REPORT, offsetof(struct report, patch_url), NULL },
	{ "patch_base", IN_REPORT, offsetof(struct report, patch_base), NULL },
	{ "patch_link", IN_REPORT, offsetof(struct report, patch_link), NULL },
	{ "patch_subject", IN_REPORT, offsetof(struct report, patch_subject),
	  NULL },
	{ "patch_version", IN_REPORT, offsetof(struct report, patch_version),
	  NULL },
	{ "newer_version", IN_REPORT, offsetof(struct report, newer_version),
	  NULL },
	{ "newer_link", IN_REPORT, offsetof(struct report, newer_link), NULL },
	{ "newer_subject", IN_REPORT, offsetof(struct report, newer_subject),
	  NULL },
	{ "reported_by", IN_REPORT, offsetof(struct report, reported_by),
	  NULL },
	{ "message_id", IN_REPORT, offsetof(struct report, message_id), NULL },
	{ "date", IN_REPORT, offsetof(struct report, date), NULL },
	{ "sender_name", IN_REPORT, offsetof(struct report, sender_name),
	  NULL },
	{ "testcase", IN_TEST, offsetof(struct report_test, testcase), NULL },
	{ "tbox_group", IN_TEST, offsetof(struct report_test, tbox_group),
	  NULL },
	{ "kconfig", IN_TEST, offsetof(struct report_test, kconfig), NULL },
	{ "compiler", IN_TEST, offsetof(struct report_test, compiler), NULL },
	{ "kpi", IN_TEST, offsetof(struct report_test, kpi), NULL },
	{ "block", IN_TEST, offsetof(struct report_test, block), NULL },
	{ "test_description", IN_TEST,
	  offsetof(struct report_test, test_description), NULL },
	{ "test_url", IN_TEST, offsetof(struct report_test, test_url), NULL },
	{ "nr_cpu", IN_HOST, offsetof(struct report_host, nr_cpu), NULL },
	{ "nr_node", IN_HOST, offsetof(struct report_host, nr_node), NULL },
	{ "brand", IN_HOST, offsetof(struct report_host, brand), NULL },
	{ "model", IN_HOST, offsetof(struct report_host, model), NULL },
	{ "memory", IN_HOST, offsetof(struct report_host, memory), NULL },
	{ "sha10", COMPUTED, 0, f_sha10 },
	{ "msgid", COMPUTED, 0, f_msgid },
	{ "pct", COMPUTED, 0, f_pct },
	{ "pct_abs", COMPUTED, 0, f_pct_abs },
	{ "pct_blank", COMPUTED, 0, f_pct_blank },
	{ "headline_subject", COMPUTED, 0, f_headline_subject },
	{ "kind", COMPUTED, 0, f_kind },
	{ "kpi_gap", COMPUTED, 0, f_kpi_gap },
	{ "subject_lead", COMPUTED, 0, f_subject_lead },
	{ "machine", COMPUTED, 0, f_machine },
	{ "archive_url", COMPUTED, 0, f_archive_url },
	{ "list_archive_url", IN_REPORT,
	  offsetof(struct report, list_archive_url), NULL },
	{ "disclaimer", COMPUTED, 0, f_disclaimer },
	{ "signature", COMPUTED, 0, f_signature },
	{ "key", COMPUTED, 0, f_key },
	{ "value", COMPUTED, 0, f_value },
	{ "still_tree", COMPUTED, 0, f_still_tree },
	{ "still_tree_right", COMPUTED, 0, f_still_tree_right },
	{ "still_commit", COMPUTED, 0, f_still_commit },
	{ "lines", COMPUTED, 0, f_items },
	{ "table", COMPUTED, 0, f_items },
	{ "graphs", COMPUTED, 0, f_items },
	{ "preface", COMPUTED, 0, b_preface },
	{ "lead", COMPUTED, 0, b_lead },
	{ "intro", COMPUTED, 0, b_intro },
	{ "note", COMPUTED, 0, b_note },
	{ "intro_text", COMPUTED, 0, f_intro_text },
	{ "source", COMPUTED, 0, b_source },
	{ "still", COMPUTED, 0, b_still },
	{ "cfg", COMPUTED, 0, b_cfg },
	{ "params", COMPUTED, 0, b_params },
	{ "testdesc", COMPUTED, 0, b_testdesc },
	{ "addition", COMPUTED, 0, b_addition },
	{ "tags", COMPUTED, 0, b_tags },
	{ "verdict", COMPUTED, 0, b_verdict },
	{ "repro", COMPUTED, 0, b_repro },
	{ "post", COMPUTED, 0, b_post },
	{ "details", COMPUTED, 0, b_details },
	{ "sections", COMPUTED, 0, b_sections },
	{ "plots", COMPUTED, 0, b_plots },
	{ "headline", IN_FUNC, offsetof(struct report_functional, headline),
	  NULL },
	{ "version", COMPUTED, 0, f_version },
	{ "subject_gap", COMPUTED, 0, f_subject_gap },
	{ "confidence", COMPUTED, 0, f_confidence },
	{ "arch", IN_FUNC, offsetof(struct report_functional, arch), NULL },
	{ "release", IN_FUNC, offsetof(struct report_functional, release),
	  NULL },
	{ "note_preface", IN_FUNC, offsetof(struct report_functional, preface),
	  NULL },
	{ "note_intro", IN_FUNC, offsetof(struct report_functional, intro),
	  NULL },
	{ "note_params", IN_FUNC, offsetof(struct report_functional, params),
	  NULL },
	{ "remark", IN_FUNC, offsetof(struct report_functional, remark), NULL },
	{ "evidence", IN_FUNC, offsetof(struct report_functional, evidence),
	  NULL },
	{ "note_end", COMPUTED, 0, f_note_end },
	{ "fsource", COMPUTED, 0, b_fsource },
	{ "fstill", COMPUTED, 0, b_fstill },
	{ "still_tree_bare", COMPUTED, 0, f_still_tree_bare },
	{ "fparams", COMPUTED, 0, b_fparams },
	{ "ftestdesc", COMPUTED, 0, b_ftestdesc },
	{ "fpretags", COMPUTED, 0, b_fpretags },
	{ "fevidence", COMPUTED, 0, b_fevidence },
	{ "frepro", COMPUTED, 0, b_frepro },
};

/*
 * {t.NAME}: the template block NAME ('_' in NAME stands for '-' in the
 * file name), in the variant the style's row for it names, like any other
 * block: so a dated part of a body is a small file, not a copy of the
 * body.  {opt.NAME}: the same, but when the report has no value for one
 * of its placeholders it renders nothing (a line shown only with data,
 * such as "base: " of a posted patch).
 */
static int include(struct render *rc, struct strbuf *out, const char *name,
		   int optional)
{
	char *block = xstrdup(name), *p, *file;
	const struct tmpl *t;
	int ret;

	for (p = block; *p; p++)
		if (*p == '_')
			*p = '-';
	if (!optional) {
		ret = render_expand(rc, out, block, NULL);
		free(block);
		return ret;
	}
	file = render_block_file(rc, block, NULL);
	t = render_load(rc, file);
	free(file);
	free(block);
	if (!t)
		return -1;
	ret = render_try_line(rc, out, t, t->text, strlen(t->text), 1, NULL);
	return ret > 0 ? 0 : ret;
}

int render_lookup(void *ctx, const char *name, struct strbuf *out)
{
	struct render *rc = ctx;
	const void *base;
	size_t i;

	/* {t.NAME} and {opt.NAME}: the template block NAME (see include) */
	if (!strncmp(name, "t.", 2) && name[2])
		return include(rc, out, name + 2, 0);
	if (!strncmp(name, "opt.", 4) && name[4])
		return include(rc, out, name + 4, 1);
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(fields[i].name, name))
			break;
	if (i == ARRAY_SIZE(fields))
		return 1;
	switch (fields[i].scope) {
	case IN_REPORT:
		base = rc->r;
		break;
	case IN_TEST:
		base = rc->t;
		break;
	case IN_HOST:
		base = &rc->t->host;
		break;
	case IN_FUNC:
		if (!rc->r->fn)
			return render_no_value(rc, fields[i].name);
		base = rc->r->fn;
		break;
	default:
		return fields[i].fn(rc, out);
	}
	return render_add_value(
		rc, out, fields[i].name,
		*(char *const *)((const char *)base + fields[i].offset));
}

static void cache_release(struct render *rc)
{
	size_t i;

	for (i = 0; i < rc->ncache; i++) {
		free(rc->cache[i]->name);
		free(rc->cache[i]->path);
		free(rc->cache[i]->text);
		free(rc->cache[i]);
	}
	free(rc->cache);
}

/* Fails when the report has data the style's body has no place for. */
static int check_used(const struct render *rc)
{
	static const struct {
		unsigned bit;
		const char *name, *what;
	} blocks[] = {
		{ USED_PREFACE, "preface", "a preface" },
		{ USED_INTRO, "intro", "an intro" },
		{ USED_STILL, "still", "still lines" },
		{ USED_ADDITION, "addition", "an In-addition table" },
		{ USED_SOURCE_NOTE, "source", "a note at source" },
		{ USED_PARAMS_NOTE, "verdict", "a note at params" },
		{ USED_REPRO_NOTE, "repro", "a note at repro" },
		{ USED_END_NOTE, "opt.end", "a note at end" },
		{ USED_POST_NOTE, "post", "a note at post" },
		{ USED_DETAILS_NOTE, "details", "a note at details" },
	};
	const struct report *r = rc->r;
	unsigned has = (r->preface && *r->preface ? USED_PREFACE : 0) |
		       (r->intro && *r->intro ? USED_INTRO : 0) |
		       (r->nstill ? USED_STILL : 0) |
		       (r->nadditions ? USED_ADDITION : 0) |
		       (r->source_note ? USED_SOURCE_NOTE : 0) |
		       (r->params_note ? USED_PARAMS_NOTE : 0) |
		       (r->repro_note ? USED_REPRO_NOTE : 0) |
		       (r->end_note ? USED_END_NOTE : 0) |
		       (r->post_note ? USED_POST_NOTE : 0) |
		       (r->details_note ? USED_DETAILS_NOTE : 0);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(blocks); i++) {
		char *rel, *path;

		if (!(has & blocks[i].bit) || (rc->used & blocks[i].bit))
			continue;
		rel = xasprintf("templates/%s/body", rc->set);
		path = data_path(rel);
		error("%s: the report has %s but the template has no '{%s}'",
		      path, blocks[i].what, blocks[i].name);
		free(path);
		free(rel);
		return -1;
	}
	return 0;
}

/*
 * The data suffix of a functional report's Subject: a test's stat takes
 * the period's -test file, a boot job (no parameter listed, some left out:
 * the style's params_unlisted) its -boot file, when the variant has one.
 */
static const char *fsubject_suffix(const struct render *rc)
{
	if (rc->r->fn->test_stat && render_has_variant(rc, "fsubject", "-test"))
		return "-test";
	if (rc->t->unlisted_only && render_has_variant(rc, "fsubject", "-boot"))
		return "-boot";
	return NULL;
}

/* The Subject and the body; a functional report has its own (f*). */
static int render_all(struct render *rc, struct strbuf *subject,
		      struct strbuf *body)
{
	int ret;

	rc->t = &rc->r->tests[0];
	rc->used = 0;
	if (!rc->r->fn)
		ret = render_expand_first_fit(rc, subject, "subject", NULL);
	else
		ret = render_expand_first_fit(rc, subject, "fsubject",
					      fsubject_suffix(rc));
	if (!ret)
		ret = render_expand(rc, body, rc->r->fn ? "fbody" : "body",
				    NULL);
	return ret;
}

int report_render(struct strbuf *subject, struct strbuf *body,
		  const struct report *r, const struct style *st)
{
	struct render rc = { .r = r, .st = st };
	size_t subject_len = subject->len, body_len = body->len;
	struct strbuf s1 = STRBUF_INIT, b1 = STRBUF_INIT;
	int ret;

	rc.set = style_get(st, "template");
	if (!rc.set)
		return error("style %s: no 'template' row in "
			     "config/data/styles",
			     st->date);
	if (!r->ntests)
		return error("the report has no test");
	/*
	 * First every value the templates ask for and the report lacks, all
	 * at once and named by their inputs; then the real rendering.
	 */
	rc.needs = r->needs ? r->needs : needs_new();
	ret = render_all(&rc, &s1, &b1);
	if (!ret && needs_count(rc.needs))
		ret = needs_report(rc.needs);
	if (rc.needs != r->needs)
		needs_free(rc.needs);
	rc.needs = NULL;
	strbuf_release(&s1);
	strbuf_release(&b1);
	if (!ret)
		ret = render_all(&rc, subject, body);
	if (!ret)
		ret = check_used(&rc);
	if (ret) {
		strbuf_setlen(subject, subject_len);
		strbuf_setlen(body, body_len);
	}
	cache_release(&rc);
	return ret;
}

static void host_release(struct report_host *h)
{
	free(h->nr_cpu);
	free(h->nr_node);
	free(h->brand);
	free(h->model);
	free(h->memory);
	free(h->text);
}

void report_test_release(struct report_test *t)
{
	size_t j;

	free(t->job_file);
	free(t->testcase);
	free(t->tbox_group);
	free(t->kconfig);
	free(t->compiler);
	host_release(&t->host);
	for (j = 0; j < t->nparams; j++) {
		free(t->params[j].key);
		free(t->params[j].value);
	}
	free(t->params);
	free(t->block);
	free(t->kpi);
	free(t->test_description);
	free(t->test_url);
	bisect_plots_free(t->plots, t->nplots);
	memset(t, 0, sizeof(*t));
}

static void tests_release(struct report_test *tests, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		report_test_release(&tests[i]);
	free(tests);
}

void report_release(struct report *r)
{
	char **strings[] = {
		&r->commit_id,	   &r->commit_subject,
		&r->subsystem,	   &r->repo_url,
		&r->branch,	   &r->tree,
		&r->patch_url,	   &r->patch_base,
		&r->patch_link,	   &r->patch_subject,
		&r->preface,	   &r->intro,
		&r->note,	   &r->params_note,
		&r->repro_note,	   &r->source_note,
		&r->reported_by,   &r->message_id,
		&r->archive_url,   &r->date,
		&r->sender_name,   &r->patch_version,
		&r->newer_version, &r->newer_link,
		&r->newer_subject, &r->list_archive_url,
		&r->disclaimer,	   &r->signature,
		&r->end_note,	   &r->post_note,
		&r->details_note,  &r->confidence,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(strings); i++)
		free(*strings[i]);
	needs_free(r->needs);
	free(r->origin.request);
	free(r->origin.config);
	free(r->origin.commits);
	for (i = 0; i < r->nstill; i++) {
		free(r->still[i].tree);
		free(r->still[i].commit);
	}
	free(r->still);
	tests_release(r->tests, r->ntests);
	tests_release(r->additions, r->nadditions);
	if (r->fn) {
		char **fs[] = { &r->fn->headline, &r->fn->version,
				&r->fn->arch,	  &r->fn->release,
				&r->fn->intro,	  &r->fn->params,
				&r->fn->preface,  &r->fn->remark,
				&r->fn->evidence, &r->fn->end };

		for (i = 0; i < ARRAY_SIZE(fs); i++)
			free(*fs[i]);
		free(r->fn);
	}
	memset(r, 0, sizeof(*r));
}

void notes_add_item(struct strbuf *slot, const char *text)
{
	if (slot->len)
		strbuf_addch(slot, '\n');
	strbuf_addstr(slot, text);
	if (!slot->len || slot->buf[slot->len - 1] != '\n')
		strbuf_addch(slot, '\n');
}
