// SPDX-License-Identifier: GPL-2.0-only
/*
 * fblocks.c: the blocks of a functional report's body (the f* templates;
 * render.h).
 */
#include "robot/util/common.h"
#include "robot/report/render.h"
#include "robot/report/report.h"
#include "config/style.h"

/*
 * Functional reports (robot/kinds/functional/functional.c fills r->fn).  Their
 * wording is in the f* templates; which file a block uses depends on the data:
 * a posted patch with or without its base, a test with or without parameters
 * and description, a kernel log or a test's output as the evidence, a VM (and
 * its modules) for the reproduce steps.
 */

int b_fsource(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;

	if (!r->patch_url &&
	    r->patch_link) /* found on lore (doc/threading.md) */
		return render_expand(rc, out, "fsource-link", NULL);
	if (!r->patch_url)
		return render_expand(rc, out, "fsource", NULL);
	return render_expand(rc, out, "fsource-patch", nobase_suffix(r));
}

int b_fstill(struct render *rc, struct strbuf *out)
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
int f_subject_gap(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;
	int max;

	if (!r->tree || !r->subsystem)
		return render_no_value(rc, "subject_gap");
	if (style_get_int(rc->st, "fsubject_prefix_max", &max))
		return -1;
	strbuf_addstr(out,
		      strlen(r->tree) + strlen(r->subsystem) + 5 <= (size_t)max
			      ? "  "
			      : " ");
	return 0;
}

/*
 * The Subject's "[confidence: VALUE]" tag, which some hand-sent reports of
 * 2022 carry before the sha with an empty value (the request's
 * `confidence`, eml2lkp reads it from the Subject): a value even when empty.
 */
int f_confidence(struct render *rc, struct strbuf *out)
{
	if (!rc->r->confidence)
		return render_no_value(rc, "confidence");
	strbuf_addf(out, "[confidence: %s]", rc->r->confidence);
	return 0;
}

/* The test package's version: "version: " shows it even when empty. */
int f_version(struct render *rc, struct strbuf *out)
{
	if (!rc->r->fn || !rc->r->fn->version)
		return render_no_value(rc, "version");
	strbuf_addstr(out, rc->r->fn->version);
	return 0;
}

/* Only inside a still line: the tree as it is, without padding. */
int f_still_tree_bare(struct render *rc, struct strbuf *out)
{
	return rc->still ? render_add_value(rc, out, "still_tree_bare",
					    rc->still->tree)
			 : 1;
}

/*
 * The test's description and url go inside the parameters block when the
 * period's variant has a -desc file (the 2023-04 "noticed" body, which
 * has no block of its own for them: "test-description:" one empty line
 * after the parameters, two after "test-url:"); else {ftestdesc} has them.
 */
static int desc_in_params(const struct render *rc)
{
	return rc->t->test_description && *rc->t->test_description &&
	       render_has_variant(rc, "fparams", "-desc");
}

/*
 * The data suffix of the parameters: a test's failure shown by its output
 * alone, with no fail:runs table, takes the period's -output file when it
 * has one; an output quoted after the download link (the request's
 * evidence_at: end) its -output-end file first (the 2025-08 layout: three
 * empty lines before an output after the tags, two before the link's).
 */
static const char *fparams_suffix(const struct render *rc,
				  const struct report_functional *fn)
{
	if (desc_in_params(rc))
		return "-desc";
	if (!fn || !fn->output || fn->fail_runs)
		return NULL;
	if (!fn->evidence && fn->end &&
	    render_has_variant(rc, "fparams", "-output-end"))
		return "-output-end";
	return "-output";
}

/*
 * The parameters (their empty lines by fparams_suffix).  A job whose only
 * parameters are never listed (boot's "sleep: 1", the style's
 * params_unlisted) has no block; a test without parameters has the block
 * with an empty list (cpu-hotplug of 2024-01 and mce-log of 2025-04 in the
 * list archives; every boot report has none).
 */
int b_fparams(struct render *rc, struct strbuf *out)
{
	if (rc->t->unlisted_only)
		return 0;
	return render_expand_optional(rc, out, "fparams",
				      fparams_suffix(rc, rc->r->fn));
}

int b_ftestdesc(struct render *rc, struct strbuf *out)
{
	if (desc_in_params(rc))
		return 0;
	if (rc->t->test_description && *rc->t->test_description)
		return render_expand(rc, out, "ftestdesc", NULL);
	return rc->t->nparams ? render_expand(rc, out, "ftestdesc", "-none")
			      : 0;
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
		return render_no_value(rc, block);
	name = xasprintf("%s-%s", block,
			 !fn->evidence ? "none"
			 : fn->output  ? "output"
				       : "dmesg");
	ret = render_expand(rc, out, name, NULL);
	free(name);
	return ret;
}

/* The empty lines before the tags: after a remark, a remark's; else by
 * what the evidence is. */
int b_fpretags(struct render *rc, struct strbuf *out)
{
	if (rc->r->fn && rc->r->fn->remark)
		return render_expand(rc, out, "fpretags", "-remark");
	return by_evidence(rc, out, "fpretags");
}

int b_fevidence(struct render *rc, struct strbuf *out)
{
	return by_evidence(rc, out, "fevidence");
}

/* In a VM the kernel is built and booted by `lkp qemu`; else as a job. */
int b_frepro(struct render *rc, struct strbuf *out)
{
	const struct report_functional *fn = rc->r->fn;

	if (!fn || !fn->vm)
		return repro_block(rc, out, "repro", NULL);
	return repro_block(rc, out, "frepro", fn->modules ? "-modules" : NULL);
}
