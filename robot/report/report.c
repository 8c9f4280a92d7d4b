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
#include "robot/engine/plot.h"
#include "robot/report/report.h"
#include "robot/engine/rubyfmt.h"
#include "config/data.h"
#include "config/style.h"
#include "templates/expand.h"

#include <math.h>
#include <unistd.h>

/* Blocks may nest (body > sections > section > machine); never this deep. */
#define MAX_DEPTH 8

struct tmpl {
	char *name; /* "repro-sudo" */
	char *path; /* full path, for messages */
	char *text; /* without the file's final newline */
};

struct render {
	const struct report *r;
	const struct style *st;
	const char *set; /* the style's `template`: templates/SET/ */
	/* what the current template is about */
	const struct report_test *t;
	const struct report_kv *kv;
	const struct report_still *still;
	size_t still_width;
	const char *items; /* a wrapper's rendered list: {lines}, {table} */
	const char *file;  /* the template being expanded */
	int depth;
	const char *missing; /* the last placeholder without a value */
	int lenient;	     /* > 0: a missing value counts as empty */
	/*
	 * The first pass collects every missing value into `needs` (an error
	 * naming the inputs, robot/report/inputs.h) instead of failing;
	 * `probe`, while a line is only tried ({opt.X}, one-line-per-form
	 * files), gathers the names that line lacks.
	 */
	struct needs *needs;
	struct probe *probe;
	unsigned used;	     /* USED_*: optional data the templates showed */
	struct tmpl **cache; /* each loaded once; the pointers stay valid */
	size_t ncache, alloc;
};

/*
 * Optional data a period's body may lack a place for: if the report has
 * it but the body never asked, rendering fails instead of dropping it.
 */
enum {
	USED_PREFACE = 1 << 0,
	USED_STILL = 1 << 1,
	USED_ADDITION = 1 << 2,
	USED_INTRO = 1 << 3,
	USED_SOURCE_NOTE = 1 << 4,
	USED_PARAMS_NOTE = 1 << 5,
	USED_REPRO_NOTE = 1 << 6,
	USED_END_NOTE = 1 << 7,
	USED_DETAILS_NOTE = 1 << 8,
	USED_POST_NOTE = 1 << 9,
};

/* The names a tried line had no value for. */
struct probe {
	const char *names[32];
	const struct report_test *tests[32];
	size_t n;
};

static int lookup(void *ctx, const char *name, struct strbuf *out);

/* Loads templates/SET/NAME once; the file's final newline is dropped. */
static const struct tmpl *load(struct render *rc, const char *name)
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
static char *block_file(const struct render *rc, const char *block,
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
	ret = tmpl_expand(out, text, t->path, lookup, rc);
	rc->depth--;
	rc->file = saved;
	return ret;
}

/* Expands the template of `block` (see block_file) into out. */
static int expand(struct render *rc, struct strbuf *out, const char *block,
		  const char *suffix)
{
	char *name = block_file(rc, block, suffix);
	const struct tmpl *t = load(rc, name);

	free(name);
	return t ? expand_text(rc, out, t, t->text) : -1;
}

/*
 * Expands `block` with a data suffix that only some periods need a file
 * for (-improvement, -empty: templates/README): the file with the suffix
 * when the set has one, else the block's own file.
 */
/* The set's file `name` exists (a block named outright, not by style). */
static int has_file(const struct render *rc, const char *name)
{
	char *rel = xasprintf("templates/%s/%s", rc->set, name);
	char *path = data_path(rel);
	int has = !access(path, F_OK);

	free(path);
	free(rel);
	return has;
}

static int has_variant(const struct render *rc, const char *block,
		       const char *suffix)
{
	char *name = block_file(rc, block, suffix);
	int has = has_file(rc, name);

	free(name);
	return has;
}

static int expand_file(struct render *rc, struct strbuf *out, const char *name)
{
	const struct tmpl *t = load(rc, name);

	return t ? expand_text(rc, out, t, t->text) : -1;
}

static int expand_optional(struct render *rc, struct strbuf *out,
			   const char *block, const char *suffix)
{
	return expand(rc, out, block,
		      has_variant(rc, block, suffix) ? suffix : NULL);
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
static int try_line(struct render *rc, struct strbuf *out, const struct tmpl *t,
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
static int expand_first_fit(struct render *rc, struct strbuf *out,
			    const char *block, const char *suffix)
{
	char *name = block_file(rc, block, suffix);
	const struct tmpl *t = load(rc, name);
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
		ret = try_line(rc, out, t, line, end - line, nr, &lacks);
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
static int no_value(struct render *rc, const char *name)
{
	rc->missing = name;
	if (rc->probe || (rc->needs && !rc->lenient))
		need(rc, name, rc->t, rc->file);
	if (rc->lenient || (rc->needs && !rc->probe))
		return 0;
	return error("%s: the report has no value for '{%s}'", rc->file, name);
}

static int add_value(struct render *rc, struct strbuf *out, const char *name,
		     const char *value)
{
	if (!value || !*value)
		return no_value(rc, name);
	strbuf_addstr(out, value);
	return 0;
}

/* Strings that do not exist as such in struct report. */

static int f_sha10(struct render *rc, struct strbuf *out)
{
	const char *id = rc->r->commit_id;

	if (!id || strlen(id) < 10)
		return no_value(rc, "sha10");
	strbuf_add(out, id, 10);
	return 0;
}

/* The Message-ID without its angle brackets, as in the links to it. */
static int f_msgid(struct render *rc, struct strbuf *out)
{
	const char *id = rc->r->message_id;
	size_t len;

	if (!id || !*id)
		return no_value(rc, "msgid");
	id += *id == '<';
	len = strlen(id);
	strbuf_add(out, id, len - (len && id[len - 1] == '>'));
	return 0;
}

/* The KPI's relative change as the headline prints it: sign, no '+'. */
static int f_pct(struct render *rc, struct strbuf *out)
{
	rubyfmt(out, "", 0, 1, 'f', rc->t->change);
	return 0;
}

/*
 * The same without its sign: the 2025 headlines ("6.5% regression"); a
 * KPI whose direction is unknown keeps it ("-5.2% regression").
 */
static int f_pct_abs(struct render *rc, struct strbuf *out)
{
	double v = rc->t->no_direction ? rc->t->change : fabs(rc->t->change);

	rubyfmt(out, "", 0, 1, 'f', v);
	return 0;
}

/*
 * The same with its minus sign turned into a blank: the 2025 In-addition
 * rows ("iozone.average_KBps  14.1% regression", mails 129, 135, 136).
 */
static int f_pct_blank(struct render *rc, struct strbuf *out)
{
	size_t at = out->len;

	rubyfmt(out, "", 0, 1, 'f', rc->t->change);
	if (out->buf[at] == '-')
		out->buf[at] = ' ';
	return 0;
}

/*
 * The subject on the "commit:" line: the posted patch's own subject for
 * a report on a patch ("[PATCH v2 3/5] mm: memcg: ..."), which the
 * applied commit lost, else the commit's.
 */
static int f_headline_subject(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;

	if ((r->patch_url || r->patch_link) && r->patch_subject &&
	    *r->patch_subject)
		return add_value(rc, out, "headline_subject", r->patch_subject);
	return add_value(rc, out, "headline_subject", r->commit_subject);
}

/* Characters, not bytes: what Ruby's ljust pads to. */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * The blanks between the Subject's "<sha10>:" and the KPI: two, unless
 * the Subject up to the end of the KPI would then be wider than the
 * style's subject_width, which takes one (0 means always one).  The
 * line rendered so far is the text of `out` after its last newline.
 */
static int f_kpi_gap(struct render *rc, struct strbuf *out)
{
	const char *line = strrchr(out->buf, '\n');
	int limit;

	if (style_get_int(rc->st, "subject_width", &limit))
		return -1;
	line = line ? line + 1 : out->buf;
	if (!rc->t->kpi)
		return no_value(rc, "kpi_gap");
	strbuf_addstr(out, limit && width(line) + 2 + width(rc->t->kpi) <=
						   (size_t)limit
				   ? "  "
				   : " ");
	return 0;
}

/* The blanks before the Subject's "<sha10>:": the style's subject_lead. */
static int f_subject_lead(struct render *rc, struct strbuf *out)
{
	int n;

	if (style_get_int(rc->st, "subject_lead", &n))
		return -1;
	if (n < 1 || n > 2)
		return error("style %s: subject_lead is %d (want 1 or 2)",
			     rc->st->date, n);
	strbuf_addchars(out, ' ', n);
	return 0;
}

static int f_kind(struct render *rc, struct strbuf *out)
{
	strbuf_addstr(out, rc->t->improvement ? "improvement" : "regression");
	return 0;
}

/* An explicit machine text wins; else the first `machine` line that fits. */
static int f_machine(struct render *rc, struct strbuf *out)
{
	if (rc->t->host.text && *rc->t->host.text) {
		strbuf_addstr(out, rc->t->host.text);
		return 0;
	}
	return expand_first_fit(rc, out, "machine", NULL);
}

static int f_archive_url(struct render *rc, struct strbuf *out)
{
	return add_value(rc, out, "archive_url", rc->r->archive_url);
}

/*
 * The disclaimer's text (under "Disclaimer:", the block
 * `disclaimer-section` a body shows with {opt.disclaimer_section}) and
 * the signature that ends the mail: the operator's (the configuration's
 * `disclaimer` and `signature`), the 0-day robot's of the period when
 * the configuration says `0day` (the `disclaimer` and `footer` blocks),
 * else no disclaimer and the neutral signature (the `signature` block).
 * The operator's signature is used as it is; a disclaimer loses its
 * trailing newlines, the body has its own.
 */
static int f_disclaimer(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->disclaimer;
	size_t len;

	if (rc->r->disclaimer_0day)
		return expand(rc, out, "disclaimer", NULL);
	if (!text)
		return no_value(rc, "disclaimer");
	len = strlen(text);
	while (len && text[len - 1] == '\n')
		len--;
	strbuf_add(out, text, len);
	return 0;
}

static int f_signature(struct render *rc, struct strbuf *out)
{
	if (rc->r->signature_0day)
		return expand(rc, out, "footer", NULL);
	if (!rc->r->signature)
		return expand(rc, out, "signature", NULL);
	strbuf_addstr(out, rc->r->signature);
	return 0;
}

/* Only inside a parameter template. */
static int f_key(struct render *rc, struct strbuf *out)
{
	return rc->kv ? add_value(rc, out, "key", rc->kv->key) : 1;
}

static int f_value(struct render *rc, struct strbuf *out)
{
	return rc->kv ? add_value(rc, out, "value", rc->kv->value) : 1;
}

/* Only inside a still line: the tree, padded so that the ids align. */
static int f_still_tree(struct render *rc, struct strbuf *out)
{
	size_t len;

	if (!rc->still)
		return 1;
	if (add_value(rc, out, "still_tree", rc->still->tree))
		return -1;
	len = strlen(rc->still->tree);
	strbuf_addchars(out, ' ', rc->still_width - len);
	return 0;
}

/* The same, padded on the left: the ids align and the trees end together. */
static int f_still_tree_right(struct render *rc, struct strbuf *out)
{
	if (!rc->still)
		return 1;
	if (!rc->still->tree || !*rc->still->tree)
		return no_value(rc, "still_tree_right");
	strbuf_addchars(out, ' ', rc->still_width - strlen(rc->still->tree));
	strbuf_addstr(out, rc->still->tree);
	return 0;
}

static int f_still_commit(struct render *rc, struct strbuf *out)
{
	return rc->still ? add_value(rc, out, "still_commit", rc->still->commit)
			 : 1;
}

/* Only inside a wrapper: the list it wraps. */
static int f_items(struct render *rc, struct strbuf *out)
{
	if (!rc->items)
		return 1;
	strbuf_addstr(out, rc->items);
	return 0;
}

/* Blocks.  Optional ones render nothing when the report has no data. */

/* Free text of the sender before the greeting, ending in a newline. */
static int b_preface(struct render *rc, struct strbuf *out)
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
static int b_lead(struct render *rc, struct strbuf *out)
{
	const char *pre = rc->r->preface;

	return expand_optional(rc, out, "lead",
			       pre && *pre ? "-preface" : NULL);
}

/*
 * The sender's text after the greeting (258, 308, 311, 329 of the corpus:
 * "we reported ... now we got more bisect results"), as the `intro`
 * template lays it out; nothing without one.
 */
static int b_intro(struct render *rc, struct strbuf *out)
{
	rc->used |= USED_INTRO;
	if (!rc->r->intro || !*rc->r->intro)
		return 0;
	return expand(rc, out, "intro", NULL);
}

/*
 * What stands between the headline and "commit:": the sender's note as
 * written, empty lines included (208, 287, 298, 301: "(but no obvious
 * diff for fsmark.files_per_sec)"), else the period's `note-none`.
 */
static int b_note(struct render *rc, struct strbuf *out)
{
	if (rc->r->note && *rc->r->note) {
		strbuf_addstr(out, rc->r->note);
		return 0;
	}
	return expand(rc, out, "note-none", NULL);
}

/* The intro's text, ending in a newline. */
static int f_intro_text(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->intro;

	if (!text || !*text)
		return no_value(rc, "intro_text");
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
static int f_note_end(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->fn ? rc->r->fn->end : rc->r->end_note;

	if (!rc->r->fn)
		rc->used |= USED_END_NOTE;
	return add_value(rc, out, "note_end", text);
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
static const char *nobase_suffix(const struct report *r)
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
static int b_source(struct render *rc, struct strbuf *out)
{
	int ret;

	if (rc->r->patch_url)
		ret = expand_optional(rc, out, "source-patch",
				      nobase_suffix(rc->r));
	else if (rc->r->patch_link)
		ret = expand(rc, out, "source-link", NULL);
	else
		ret = expand_optional(rc, out, "source",
				      heads_checked(rc) ? "-checked" : NULL);
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
static int b_verdict(struct render *rc, struct strbuf *out)
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
		int has = has_file(rc, name);

		ret = has ? expand_file(rc, out, name) : 0;
		free(name);
		if (has)
			return ret;
	}
	rc->used |= USED_PARAMS_NOTE;
	if (!note || rc->t != &rc->r->tests[0])
		return expand_optional(rc, out, "verdict", suffix);
	/*
	 * The sender's words after the parameters stand where the verdict's
	 * empty lines did, with their own
	 * (<202311301346.56b0fcd6-oliver.sang@intel.com>: dmesg lines of
	 * both commits; 278's words stand there too, around a table).
	 */
	ret = expand_optional(rc, &sb, "verdict", suffix);
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

	if (has_variant(rc, block, NULL)) {
		ret = expand(rc, out, block, NULL);
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

static int still_block(struct render *rc, struct strbuf *out,
		       const char *wrapper, const char *line)
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
		return expand(rc, out, "fstill-none", NULL);
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
		ret = expand(rc, &lines, line,
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
		ret = expand(rc, out, wrapper, r->patch_url ? "-patch" : NULL);
	rc->items = NULL;
	strbuf_release(&lines);
	return ret;
}

static int b_still(struct render *rc, struct strbuf *out)
{
	return still_block(rc, out, "still", "still-line");
}

static int b_cfg(struct render *rc, struct strbuf *out)
{
	return expand(rc, out, "cfg", NULL);
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
static size_t *param_order(const struct render *rc, const struct report_test *t,
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
static int b_params(struct render *rc, struct strbuf *out)
{
	const struct report_test *t = rc->t;
	size_t *order = param_order(rc, t, style_get(rc->st, "params_order"));
	size_t i;
	int ret = order ? 0 : -1;

	for (i = 0; !ret && i < t->nparams; i++) {
		rc->kv = &t->params[order[i]];
		if (i)
			ret = expand(rc, out, "param-sep", NULL);
		if (!ret)
			ret = expand(rc, out, "param", NULL);
	}
	rc->kv = NULL;
	free(order);
	return ret;
}

static int b_testdesc(struct render *rc, struct strbuf *out)
{
	if (!rc->t->test_description || !*rc->t->test_description)
		return 0;
	return expand(rc, out, "testdesc", NULL);
}

/*
 * The suggested tags, with the empty lines after them: `tags` for a
 * regression; `tags-none` for an improvement, which asks for no fix;
 * `tags-left` for a regression whose sender left them out (115).  Three
 * blocks, each with its own dated variants: the empty lines that stand
 * in for the tags changed on their own.
 */
static int b_tags(struct render *rc, struct strbuf *out)
{
	if (rc->t->improvement)
		return expand(rc, out, "tags-none", NULL);
	if (rc->r->no_tags)
		return expand(rc, out, "tags-left", NULL);
	return expand(rc, out, "tags", NULL);
}

/*
 * The reproduce block, or for a report sent without the materials
 * (`no_repro`) what the block leaves: its lines go and the empty lines
 * after them stay (255, 2023-12: one empty line where the download link
 * was; 236, 2023-04: where the steps were), so the block is rendered
 * leniently (no archive_url needed) and cut to its trailing empty lines.
 */
static int repro_block(struct render *rc, struct strbuf *out, const char *block,
		       const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;
	int ret;

	if (!rc->r->no_repro)
		return expand(rc, out, block, suffix);
	rc->lenient++;
	ret = expand(rc, &sb, block, suffix);
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

static int b_repro(struct render *rc, struct strbuf *out)
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
static int b_details(struct render *rc, struct strbuf *out)
{
	rc->used |= USED_DETAILS_NOTE;
	if (!rc->r->details_note)
		return expand(rc, out, "details-gap", NULL);
	strbuf_addstr(out, rc->r->details_note);
	return 0;
}

/* The sender's words after the signature (277's more details), as written. */
static int b_post(struct render *rc, struct strbuf *out)
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
static int b_sections(struct render *rc, struct strbuf *out)
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
		ret = expand(rc, out, "section", i ? "-more" : NULL);
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
static int b_plots(struct render *rc, struct strbuf *out)
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
		ret = expand(rc, out, "plots", NULL);
		rc->items = NULL;
	}
	strbuf_release(&one);
	strbuf_release(&graphs);
	return ret;
}

/* The "In addition to that" table, drawn the way terminal-table does. */
struct add_row {
	size_t label; /* index into the labels */
	char *text;
	int last; /* a border follows */
};

struct add_table {
	struct add_row *rows;
	size_t nr, alloc;
	char **labels; /* change, machine, parameters; then "" */
	size_t nlabels, labels_alloc;
};

static void add_row(struct add_table *tab, size_t label, struct strbuf *text)
{
	ALLOC_GROW(tab->rows, tab->nr + 1, tab->alloc);
	tab->rows[tab->nr].label = label;
	tab->rows[tab->nr].text = strbuf_detach(text, NULL);
	tab->rows[tab->nr].last = 0;
	tab->nr++;
}

/*
 * The rows of one test: its KPI, its machine (when the period shows it),
 * its sorted parameters.
 */
static int add_test_rows(struct render *rc, struct add_table *tab)
{
	const struct report_test *t = rc->t;
	struct strbuf sb = STRBUF_INIT;
	size_t *order = param_order(rc, t, "sorted");
	size_t i;
	int ret = expand(rc, &sb, "addition-change", NULL);

	if (!ret)
		add_row(tab, 0, &sb);
	/* `addition-machine`: the machine row, left out when it is empty */
	if (!ret && !(ret = expand(rc, &sb, "addition-machine", NULL)) &&
	    sb.len)
		add_row(tab, 1, &sb);
	for (i = 0; !ret && i < t->nparams; i++) {
		rc->kv = &t->params[order[i]];
		ret = expand(rc, &sb, "addition-param", NULL);
		if (!ret)
			add_row(tab, i ? 3 : 2, &sb);
	}
	rc->kv = NULL;
	if (tab->nr)
		tab->rows[tab->nr - 1].last = 1;
	free(order);
	strbuf_release(&sb);
	return ret;
}

static void add_border(struct strbuf *out, size_t lw, size_t tw)
{
	strbuf_addch(out, '+');
	strbuf_addchars(out, '-', lw + 2);
	strbuf_addch(out, '+');
	strbuf_addchars(out, '-', tw + 2);
	strbuf_addstr(out, "+\n");
}

static void add_draw(const struct add_table *tab, struct strbuf *out)
{
	size_t lw = 0, tw = 0, i;

	for (i = 0; i < tab->nlabels; i++)
		if (width(tab->labels[i]) > lw)
			lw = width(tab->labels[i]);
	for (i = 0; i < tab->nr; i++)
		if (width(tab->rows[i].text) > tw)
			tw = width(tab->rows[i].text);
	add_border(out, lw, tw);
	for (i = 0; i < tab->nr; i++) {
		const char *label = tab->labels[tab->rows[i].label];

		strbuf_addf(out, "| %s", label);
		strbuf_addchars(out, ' ', lw - width(label));
		strbuf_addf(out, " | %s", tab->rows[i].text);
		strbuf_addchars(out, ' ', tw - width(tab->rows[i].text));
		strbuf_addstr(out, " |\n");
		if (tab->rows[i].last)
			add_border(out, lw, tw);
	}
}

/*
 * `addition-labels`: the first column's texts, one a line, for the change,
 * the machine and the first parameter; further parameters have none.
 */
static int add_labels(struct render *rc, struct add_table *tab)
{
	char *name = block_file(rc, "addition-labels", NULL);
	const struct tmpl *t = load(rc, name);
	const char *p;

	free(name);
	if (!t)
		return -1;
	for (p = t->text; *p; p += *p == '\n') {
		size_t len = strcspn(p, "\n");

		ALLOC_GROW(tab->labels, tab->nlabels + 1, tab->labels_alloc);
		tab->labels[tab->nlabels++] = xstrndup(p, len);
		p += len;
	}
	if (tab->nlabels != 3)
		return error("%s: want 3 lines (the change, the machine, the "
			     "parameters), not %zu",
			     t->path, tab->nlabels);
	ALLOC_GROW(tab->labels, tab->nlabels + 1, tab->labels_alloc);
	tab->labels[tab->nlabels++] = xstrdup("");
	return 0;
}

static void add_release(struct add_table *tab)
{
	size_t i;

	for (i = 0; i < tab->nr; i++)
		free(tab->rows[i].text);
	for (i = 0; i < tab->nlabels; i++)
		free(tab->labels[i]);
	free(tab->rows);
	free(tab->labels);
}

static int b_addition(struct render *rc, struct strbuf *out)
{
	const struct report_test *saved = rc->t;
	struct add_table tab = { 0 };
	struct strbuf table = STRBUF_INIT;
	size_t i;
	int ret;

	rc->used |= USED_ADDITION;
	if (!rc->r->nadditions)
		return 0;
	ret = add_labels(rc, &tab);
	for (i = 0; !ret && i < rc->r->nadditions; i++) {
		rc->t = &rc->r->additions[i];
		ret = add_test_rows(rc, &tab);
	}
	rc->t = saved;
	if (!ret) {
		add_draw(&tab, &table);
		rc->items = table.buf;
		ret = expand(rc, out, "addition", NULL);
		rc->items = NULL;
	}
	add_release(&tab);
	strbuf_release(&table);
	return ret;
}

/*
 * Functional reports (robot/kinds/functional/functional.c fills r->fn).  Their
 * wording is in the f* templates; which file a block uses depends on the data:
 * a posted patch with or without its base, a test with or without parameters
 * and description, a kernel log or a test's output as the evidence, a VM (and
 * its modules) for the reproduce steps.
 */

static int b_fsource(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;

	if (!r->patch_url &&
	    r->patch_link) /* found on lore (doc/threading.md) */
		return expand(rc, out, "fsource-link", NULL);
	if (!r->patch_url)
		return expand(rc, out, "fsource", NULL);
	return expand(rc, out, "fsource-patch", nobase_suffix(r));
}

static int b_fstill(struct render *rc, struct strbuf *out)
{
	/* no functional report shows still lines after a patch's */
	if (rc->r->patch_url && rc->r->nstill)
		return error("a functional report on a posted patch has no "
			     "place for still lines");
	return still_block(rc, out, "fstill", "fstill-line");
}

/*
 * The blanks before the sha in a functional report's Subject: two after a
 * "[tree] [subsystem]" of at most `fsubject_prefix_max` characters (a
 * style row), one after a longer one (mails 439-474: 440, 445, 456, 462
 * and 470 have one, their 29 others of 2023-2026 two).
 */
static int f_subject_gap(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;
	int max;

	if (!r->tree || !r->subsystem)
		return no_value(rc, "subject_gap");
	if (style_get_int(rc->st, "fsubject_prefix_max", &max))
		return -1;
	strbuf_addstr(out,
		      strlen(r->tree) + strlen(r->subsystem) + 5 <= (size_t)max
			      ? "  "
			      : " ");
	return 0;
}

/* The test package's version: "version: " shows it even when empty. */
static int f_version(struct render *rc, struct strbuf *out)
{
	if (!rc->r->fn || !rc->r->fn->version)
		return no_value(rc, "version");
	strbuf_addstr(out, rc->r->fn->version);
	return 0;
}

/* Only inside a still line: the tree as it is, without padding. */
static int f_still_tree_bare(struct render *rc, struct strbuf *out)
{
	return rc->still
		       ? add_value(rc, out, "still_tree_bare", rc->still->tree)
		       : 1;
}

/*
 * The parameters; a test's failure shown by its output alone, with no
 * fail:runs table, takes the period's -output file when it has one.
 */
static int b_fparams(struct render *rc, struct strbuf *out)
{
	const struct report_functional *fn = rc->r->fn;

	if (!rc->t->nparams)
		return 0;
	return expand_optional(rc, out, "fparams",
			       fn && fn->output && !fn->fail_runs ? "-output"
								  : NULL);
}

static int b_ftestdesc(struct render *rc, struct strbuf *out)
{
	if (rc->t->test_description && *rc->t->test_description)
		return expand(rc, out, "ftestdesc", NULL);
	return rc->t->nparams ? expand(rc, out, "ftestdesc", "-none") : 0;
}

/*
 * A block whose file depends on what the evidence is: BLOCK-dmesg (a
 * kernel log), BLOCK-output (a test's output) or BLOCK-none.  Each is a
 * block: a style row "BLOCK-output VARIANT" picks its variant.
 */
static int by_evidence(struct render *rc, struct strbuf *out, const char *block)
{
	const struct report_functional *fn = rc->r->fn;
	char *name;
	int ret;

	if (!fn)
		return no_value(rc, block);
	name = xasprintf("%s-%s", block,
			 !fn->evidence ? "none"
			 : fn->output  ? "output"
				       : "dmesg");
	ret = expand(rc, out, name, NULL);
	free(name);
	return ret;
}

/* The empty lines before the tags: after a remark, a remark's; else by
 * what the evidence is. */
static int b_fpretags(struct render *rc, struct strbuf *out)
{
	if (rc->r->fn && rc->r->fn->remark)
		return expand(rc, out, "fpretags", "-remark");
	return by_evidence(rc, out, "fpretags");
}

static int b_fevidence(struct render *rc, struct strbuf *out)
{
	return by_evidence(rc, out, "fevidence");
}

/* In a VM the kernel is built and booted by `lkp qemu`; else as a job. */
static int b_frepro(struct render *rc, struct strbuf *out)
{
	const struct report_functional *fn = rc->r->fn;

	if (!fn || !fn->vm)
		return repro_block(rc, out, "repro", NULL);
	return repro_block(rc, out, "frepro", fn->modules ? "-modules" : NULL);
}

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
		ret = expand(rc, out, block, NULL);
		free(block);
		return ret;
	}
	file = block_file(rc, block, NULL);
	t = load(rc, file);
	free(file);
	free(block);
	if (!t)
		return -1;
	ret = try_line(rc, out, t, t->text, strlen(t->text), 1, NULL);
	return ret > 0 ? 0 : ret;
}

static int lookup(void *ctx, const char *name, struct strbuf *out)
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
			return no_value(rc, fields[i].name);
		base = rc->r->fn;
		break;
	default:
		return fields[i].fn(rc, out);
	}
	return add_value(
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

/* The Subject and the body; a functional report has its own (f*). */
static int render_all(struct render *rc, struct strbuf *subject,
		      struct strbuf *body)
{
	int ret;

	rc->t = &rc->r->tests[0];
	rc->used = 0;
	if (!rc->r->fn)
		ret = expand_first_fit(rc, subject, "subject", NULL);
	else if (rc->r->fn->test_stat && has_variant(rc, "fsubject", "-test"))
		/* a test's stat: the period's file for them, if it has one */
		ret = expand_first_fit(rc, subject, "fsubject", "-test");
	else
		ret = expand_first_fit(rc, subject, "fsubject", NULL);
	if (!ret)
		ret = expand(rc, body, rc->r->fn ? "fbody" : "body", NULL);
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
		&r->details_note,
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
