/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * render.h: the pieces of report_render() (robot/report/report.h), shared
 * by the files of the renderer: the template machinery (template.c), the
 * strings computed for placeholders (fields.c), the blocks of a
 * performance report (blocks.c), the In-addition table (addition.c), the
 * blocks of a functional report (fblocks.c) and the table of placeholders
 * with the lookup (report.c).  Nothing outside robot/report/ includes it.
 */
#ifndef ROBOT_REPORT_RENDER_H
#define ROBOT_REPORT_RENDER_H

#include <stddef.h>

struct needs;
struct report;
struct report_kv;
struct report_still;
struct report_test;
struct strbuf;
struct style;

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

const struct tmpl *render_load(struct render *rc, const char *name);
char *render_block_file(const struct render *rc, const char *block,
			const char *suffix);
int render_expand(struct render *rc, struct strbuf *out, const char *block,
		  const char *suffix);
int render_has_file(const struct render *rc, const char *name);
int render_has_variant(const struct render *rc, const char *block,
		       const char *suffix);
int render_expand_file(struct render *rc, struct strbuf *out, const char *name);
int render_expand_optional(struct render *rc, struct strbuf *out,
			   const char *block, const char *suffix);
int render_try_line(struct render *rc, struct strbuf *out, const struct tmpl *t,
		    const char *line, size_t len, int nr, struct probe *lacks);
int render_expand_first_fit(struct render *rc, struct strbuf *out,
			    const char *block, const char *suffix);
int render_no_value(struct render *rc, const char *name);
int render_add_value(struct render *rc, struct strbuf *out, const char *name,
		     const char *value);
int f_sha10(struct render *rc, struct strbuf *out);
int f_msgid(struct render *rc, struct strbuf *out);
int f_pct(struct render *rc, struct strbuf *out);
int f_pct_abs(struct render *rc, struct strbuf *out);
int f_pct_blank(struct render *rc, struct strbuf *out);
int f_headline_subject(struct render *rc, struct strbuf *out);
size_t text_width(const char *s);
int f_kpi_gap(struct render *rc, struct strbuf *out);
int f_subject_lead(struct render *rc, struct strbuf *out);
int f_kind(struct render *rc, struct strbuf *out);
int f_machine(struct render *rc, struct strbuf *out);
int f_archive_url(struct render *rc, struct strbuf *out);
int f_disclaimer(struct render *rc, struct strbuf *out);
int f_signature(struct render *rc, struct strbuf *out);
int f_key(struct render *rc, struct strbuf *out);
int f_value(struct render *rc, struct strbuf *out);
int f_still_tree(struct render *rc, struct strbuf *out);
int f_still_tree_right(struct render *rc, struct strbuf *out);
int f_still_commit(struct render *rc, struct strbuf *out);
int f_items(struct render *rc, struct strbuf *out);
int b_preface(struct render *rc, struct strbuf *out);
int b_lead(struct render *rc, struct strbuf *out);
int b_intro(struct render *rc, struct strbuf *out);
int b_note(struct render *rc, struct strbuf *out);
int f_intro_text(struct render *rc, struct strbuf *out);
int f_note_end(struct render *rc, struct strbuf *out);
const char *nobase_suffix(const struct report *r);
int b_source(struct render *rc, struct strbuf *out);
int b_verdict(struct render *rc, struct strbuf *out);
int still_block(struct render *rc, struct strbuf *out, const char *wrapper,
		const char *line);
int b_still(struct render *rc, struct strbuf *out);
int b_cfg(struct render *rc, struct strbuf *out);
size_t *param_order(const struct render *rc, const struct report_test *t,
		    const char *how);
int b_params(struct render *rc, struct strbuf *out);
int b_testdesc(struct render *rc, struct strbuf *out);
int b_tags(struct render *rc, struct strbuf *out);
int repro_block(struct render *rc, struct strbuf *out, const char *block,
		const char *suffix);
int b_repro(struct render *rc, struct strbuf *out);
int b_details(struct render *rc, struct strbuf *out);
int b_post(struct render *rc, struct strbuf *out);
int b_sections(struct render *rc, struct strbuf *out);
int b_plots(struct render *rc, struct strbuf *out);
int b_addition(struct render *rc, struct strbuf *out);
int b_fsource(struct render *rc, struct strbuf *out);
int b_fstill(struct render *rc, struct strbuf *out);
int f_subject_gap(struct render *rc, struct strbuf *out);
int f_confidence(struct render *rc, struct strbuf *out);
int f_version(struct render *rc, struct strbuf *out);
int f_still_tree_bare(struct render *rc, struct strbuf *out);
int b_fparams(struct render *rc, struct strbuf *out);
int b_ftestdesc(struct render *rc, struct strbuf *out);
int b_fpretags(struct render *rc, struct strbuf *out);
int b_fevidence(struct render *rc, struct strbuf *out);
int b_frepro(struct render *rc, struct strbuf *out);
int render_lookup(void *ctx, const char *name, struct strbuf *out);

#endif
