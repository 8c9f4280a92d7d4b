// SPDX-License-Identifier: GPL-2.0-only
/*
 * template.c: the template machinery of the renderer: loading a block's file
 * in the style's variant, expanding it, one-line-per-form files, and the
 * values a template lacks (render.h).
 */
#include "robot/util/common.h"
#include "robot/report/inputs.h"
#include "robot/report/render.h"
#include "config/data.h"
#include "config/style.h"
#include "templates/expand.h"

#include <unistd.h>

/* Loads templates/SET/NAME once; the file's final newline is dropped. */
const struct tmpl *render_load(struct render *rc, const char *name)
{
	struct tmpl *t;
	char *text, *path;
	size_t i;

	for (i = 0; i < rc->ncache; i++)
		if (!strcmp(rc->cache[i]->name, name))
			return rc->cache[i];
	text = data_template(rc->set, name, &path);
	if (!text)
		return NULL;
	ALLOC_GROW(rc->cache, rc->ncache + 1, rc->alloc);
	t = rc->cache[rc->ncache++] = xmalloc(sizeof(*t));
	t->name = xstrdup(name);
	t->path = path;
	t->text = text;
	return t;
}

/* The file of block `block`: BLOCK[-VARIANT][SUFFIX]; the caller frees. */
char *render_block_file(const struct render *rc, const char *block,
			const char *suffix)
{
	const char *variant = style_get(rc->st, block);

	return xasprintf("%s%s%s%s", block, variant ? "-" : "",
			 variant ? variant : "", suffix ? suffix : "");
}

/* Expands `text` of template `t` (one more level of nesting). */
static int expand_text(struct render *rc, struct strbuf *out,
		       const struct tmpl *t, const char *text)
{
	const char *saved = rc->file;
	int ret;

	if (rc->depth >= MAX_DEPTH)
		return error("%s: templates nest deeper than %d", t->path,
			     MAX_DEPTH);
	rc->depth++;
	rc->file = t->path;
	ret = tmpl_expand(out, text, t->path, render_lookup, rc);
	rc->depth--;
	rc->file = saved;
	return ret;
}

/* Expands the template of `block` (see render_block_file) into out. */
int render_expand(struct render *rc, struct strbuf *out, const char *block,
		  const char *suffix)
{
	char *name = render_block_file(rc, block, suffix);
	const struct tmpl *t = render_load(rc, name);

	free(name);
	return t ? expand_text(rc, out, t, t->text) : -1;
}

/*
 * Expands `block` with a data suffix that only some periods need a file
 * for (-improvement, -empty: templates/README): the file with the suffix
 * when the set has one, else the block's own file.
 */
/* The set's file `name` exists (a block named outright, not by style). */
int render_has_file(const struct render *rc, const char *name)
{
	char *rel = xasprintf("templates/%s/%s", rc->set, name);
	char *path = data_path(rel);
	int has = !access(path, F_OK);

	free(path);
	free(rel);
	return has;
}

int render_has_variant(const struct render *rc, const char *block,
		       const char *suffix)
{
	char *name = render_block_file(rc, block, suffix);
	int has = render_has_file(rc, name);

	free(name);
	return has;
}

int render_expand_file(struct render *rc, struct strbuf *out, const char *name)
{
	const struct tmpl *t = render_load(rc, name);

	return t ? expand_text(rc, out, t, t->text) : -1;
}

int render_expand_optional(struct render *rc, struct strbuf *out,
			   const char *block, const char *suffix)
{
	return render_expand(rc, out, block,
			     render_has_variant(rc, block, suffix) ? suffix
								   : NULL);
}

/* Expands a broken line again to print why it is broken. */
static int say_aloud(struct render *rc, struct strbuf *out,
		     const struct tmpl *t, const char *text)
{
	int ret;

	rc->lenient++; /* a missing value is not the problem: skip it */
	ret = expand_text(rc, out, t, text);
	rc->lenient--;
	return ret;
}

/*
 * Tries line `nr` (from 1) of t alone, quietly.  Earlier lines become empty
 * lines so that an error names the right line when said aloud.  Returns 0
 * (appended), 1 (values were missing: the line does not fit) or -1 (the
 * line is broken even with every missing value taken as empty).
 */
int render_try_line(struct render *rc, struct strbuf *out, const struct tmpl *t,
		    const char *line, size_t len, int nr, struct probe *lacks)
{
	struct strbuf text = STRBUF_INIT, res = STRBUF_INIT;
	struct probe *saved = rc->probe, mine = { .n = 0 };
	int ret, fits_empty = 0;

	strbuf_addchars(&text, '\n', nr - 1);
	strbuf_add(&text, line, len);
	error_quiet++;
	rc->probe = &mine;
	ret = expand_text(rc, &res, t, text.buf);
	if (ret) {
		/* every value the line lacks, not just the first */
		mine.n = 0;
		rc->lenient++;
		fits_empty = !expand_text(rc, &res, t, text.buf);
		rc->lenient--;
	}
	rc->probe = saved;
	error_quiet--;
	if (lacks)
		*lacks = mine;
	if (!ret)
		strbuf_add(out, res.buf + nr - 1, res.len - (nr - 1));
	else if (fits_empty)
		ret = 1;
	else
		ret = say_aloud(rc, &res, t, text.buf);
	strbuf_release(&text);
	strbuf_release(&res);
	return ret;
}

static void need(struct render *rc, const char *name,
		 const struct report_test *t, const char *file)
{
	size_t i;

	if (rc->probe) {
		for (i = 0; i < rc->probe->n; i++)
			if (!strcmp(rc->probe->names[i], name) &&
			    rc->probe->tests[i] == t)
				return;
		if (rc->probe->n < ARRAY_SIZE(rc->probe->names)) {
			rc->probe->names[rc->probe->n] = name;
			rc->probe->tests[rc->probe->n++] = t;
		}
	} else if (rc->needs) {
		needs_add(rc->needs, rc->r, t, name, file);
	}
}

/* Whether the tried line lacks data only some reports have. */
static int lacks_optional(const struct probe *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (needs_optional(p->names[i]))
			return 1;
	return 0;
}

/*
 * Expands the first line of `block` whose placeholders all have values
 * (empty lines do not count).  When none fits, the values missing are
 * those of the line that lacks the fewest, the later (more general)
 * line winning a tie, and lines that each lack one value different
 * ones ("'brand' or 'model'"); a line that lacks optional data (a posted
 * patch's subject) is the form of other reports, and counts only when
 * every line lacks some.
 */
int render_expand_first_fit(struct render *rc, struct strbuf *out,
			    const char *block, const char *suffix)
{
	char *name = render_block_file(rc, block, suffix);
	const struct tmpl *t = render_load(rc, name);
	struct probe lacks, best = { .n = 0 }, alts = { .n = 0 };
	const char *line, *end;
	int nr = 1, ret = 1, any = 0, opt, best_opt = 0, tie;
	size_t i;

	free(name);
	if (!t)
		return -1;
	for (line = t->text; ret > 0 && *line; line = end + !!*end, nr++) {
		end = line + strcspn(line, "\n");
		if (end == line)
			continue;
		ret = render_try_line(rc, out, t, line, end - line, nr, &lacks);
		if (ret <= 0)
			continue;
		opt = lacks_optional(&lacks);
		tie = any && best_opt == opt && lacks.n == best.n;
		if (!tie && any && !(best_opt && !opt) &&
		    !(best_opt == opt && lacks.n < best.n))
			continue;
		/* lines that each lack one value: any one of them would do */
		if (!tie)
			alts.n = 0;
		for (i = 0; lacks.n == 1 && i < alts.n; i++)
			if (!strcmp(alts.names[i], lacks.names[0]))
				break;
		if (lacks.n == 1 && i == alts.n &&
		    alts.n < ARRAY_SIZE(alts.names)) {
			alts.names[alts.n] = lacks.names[0];
			alts.tests[alts.n++] = lacks.tests[0];
		}
		best = lacks;
		best_opt = opt;
		any = 1;
	}
	if (ret <= 0)
		return ret;
	if (rc->needs && !rc->probe && best.n == 1 && alts.n > 1) {
		needs_add_either(rc->needs, rc->r, alts.tests[0], alts.names,
				 alts.n, t->path);
		return 0;
	}
	if (rc->needs || rc->probe) {
		for (i = 0; i < best.n; i++)
			need(rc, best.names[i], best.tests[i], t->path);
		rc->missing = best.n ? best.names[0] : NULL;
		return rc->probe && !rc->lenient ? -1 : 0;
	}
	return error("%s: no line fits this report (it has no value for "
		     "'{%s}')",
		     t->path, best.n ? best.names[0] : "?");
}

/*
 * A placeholder that is known but has no value in this report: noted
 * while collecting (the first pass of report_render) or trying a line.
 */
int render_no_value(struct render *rc, const char *name)
{
	rc->missing = name;
	if (rc->probe || (rc->needs && !rc->lenient))
		need(rc, name, rc->t, rc->file);
	if (rc->lenient || (rc->needs && !rc->probe))
		return 0;
	return error("%s: the report has no value for '{%s}'", rc->file, name);
}

int render_add_value(struct render *rc, struct strbuf *out, const char *name,
		     const char *value)
{
	if (!value || !*value)
		return render_no_value(rc, name);
	strbuf_addstr(out, value);
	return 0;
}
