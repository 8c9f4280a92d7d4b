/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h: a report as data, and its rendering into Subject and body.
 *
 * cmd-compose fills struct report from the request, the configuration, the
 * commit metadata and the comparisons; report_render() turns it into the
 * Subject line and the body text of the style's day, through the
 * templates in templates/ (templates/expand.h).  Nothing here knows about
 * MIME or headers other than the Subject; mail/ does those.
 *
 * All strings are UTF-8 and owned by the struct (report_release frees).
 */
#ifndef ROBOT_REPORT_H
#define ROBOT_REPORT_H

#include <stddef.h>

struct bisect_plot;
struct needs;
struct strbuf;
struct style;

struct report_kv {
	char *key;
	char *value;
};

/* The host fields of LKP's hosts/<tbox_group> file (job.yaml has them). */
struct report_host {
	char *nr_cpu, *nr_node, *brand, *model, *memory;
	char *text; /* an explicit "test machine:" text wins over the fields */
};

/* One test: the table and what describes it. */
struct report_test {
	char *job_file; /* the job.yaml its values come from, for errors */
	int no_inputs;	/* its result roots are missing: ask nothing of it */
	char *testcase;
	char *tbox_group;
	char *kconfig, *compiler;
	struct report_host host;
	struct report_kv *params; /* job parameters, in job.yaml order */
	size_t nparams;
	int unlisted_only; /* no parameter listed, some left out (boot's) */
	char *block;	   /* `robot compare` output for this test */
	char *kpi;	   /* the headline stat of this test */
	double change;	   /* its %change (relative, unrounded) */
	int improvement;   /* 1 improvement, 0 regression */
	int no_direction;  /* no table knew which way is better */
	int no_section;	   /* an In-addition entry without a section */
	char *test_description, *test_url; /* optional */
	/* the bisection's plots (robot/engine/bisect.h), shown after the table
	 */
	struct bisect_plot *plots;
	size_t nplots;
};

/* A "[still regression on ...]" / "[test failed on ...]" line. */
struct report_still {
	char *tree;   /* "linus/master" */
	char *commit; /* 40 hex */
	int failed; /* 1: "[test failed on ...]" (template still-line-failed) */
	int revert; /* 1: the head with the commit reverted passed
		       (still-line-revert; commit NULL) */
};

/*
 * What a functional report adds (robot/kinds/functional/functional.c fills it;
 * the wording around it is in the f* templates).  Every string is plain text
 * ending in a newline, or NULL when the report has none.
 */
struct report_functional {
	char *headline; /* the KPI as the headline shows it */
	char *version;	/* the test package ("xfstests-x86_64-..."), or "" */
	char *arch;	/* ARCH= of the kernel build, from the kconfig */
	char *release;	/* the tested kernel's release */
	int vm;		/* tested in a VM: the qemu reproduce steps */
	int modules;	/* ... with a modules initrd */
	int output;	/* the evidence is a test's output, not a kernel log */
	int test_stat;	/* the headline is a test's stat (not dmesg, kmsg,
			   last_state) */
	int fail_runs;	/* fail:runs tables among the sender's words */
	char *preface;	/* the sender's words and tables before the greeting */
	char *intro;	/* the sender's words after the greeting */
	char *params;	/* ... after the parameters */
	char *remark;	/* the result table, the sender's words and tables */
	char *evidence; /* the excerpts and the words between them */
	char *end;	/* ... after the reproduce steps */
};

/*
 * The files a report's values come from, so that a missing value is an
 * error naming the operator's file and key (robot/report/inputs.h); NULL where
 * unknown (a report built by a test).
 */
struct report_origin {
	char *request; /* the request */
	char *config;  /* the configuration, or "(built-in)" */
	char *commits; /* the commit-metadata file or the repository */
};

struct report {
	struct report_origin origin;
	/*
	 * Inputs found missing while the report was built
	 * (robot/report/inputs.h): report_render() adds the templates' and
	 * names them all at once. NULL: none; report_release() frees it.
	 */
	struct needs *needs;
	/* the tested ("bad") commit */
	char *commit_id, *commit_subject;
	char *subsystem;	 /* "x86", for the Subject; may be NULL */
	char *repo_url, *branch; /* "https://git.kernel.org/...", "master" */
	char *tree;		 /* "linus:master": the Subject's tag; NULL */
	/* a report on a posted patch (NULL when not) */
	char *patch_url, *patch_base, *patch_link, *patch_subject;
	/*
	 * the posted patch's revision ("2" for v2) and a newer revision of
	 * its series on the archive (robot's note, never 0-day's): NULL
	 * when not known
	 */
	char *patch_version, *newer_version, *newer_link, *newer_subject;
	struct report_still *still;
	size_t nstill;
	/*
	 * the heads were tested (none failed when there is no still line):
	 * 1, 0, or -1 when the request does not say (report.c's
	 * heads_checked: the report's kind decides)
	 */
	int still_checked;
	char *preface; /* free text before the greeting; NULL */
	char *intro;   /* free text after the greeting; NULL */
	char *note;    /* the lines between the headline and "commit:" */
	/*
	 * the sender's words (the request's notes) after the parameters, in
	 * place of the empty lines before the In-addition table, the tags or
	 * "Details", and before the reproduce block: as written, ending in a
	 * newline; NULL
	 */
	char *params_note, *repro_note;
	/* ... and after the repository line, before the still lines */
	char *source_note;
	/*
	 * ... and at the end, before the signature (116's "#regzbot
	 * introduced: <sha>" line for the regressions tracker)
	 */
	char *end_note;
	/* ... and after the signature, the mail's last words */
	char *post_note;
	/* ... and after the last table, in place of the empty lines there */
	char *details_note;
	/* tests[0] gives the headline; later ones are further sections */
	struct report_test *tests;
	size_t ntests;
	/*
	 * the "In addition to that" table; each of its tests is a further
	 * section too, before the tests[1..] sections
	 */
	struct report_test *additions;
	size_t nadditions;
	char *reported_by; /* "kernel test robot <oliver.sang@intel.com>" */
	char *message_id;  /* "<202306071452.887afdea-oliver.sang@intel.com>" */
	char *archive_url; /* the download link of the materials; NULL */
	/* where the list archives the report: Closes:/Link: point there */
	char *list_archive_url;
	/*
	 * The operator's texts.  A NULL disclaimer is none (no
	 * "Disclaimer:" block), a NULL signature the neutral one (the
	 * set's `signature` block: "Thanks," and sender_name); with
	 * *_0day, the 0-day robot's texts of the period (the `disclaimer`
	 * and `footer` blocks).
	 */
	char *disclaimer, *signature;
	int disclaimer_0day, signature_0day;
	char *date;	   /* YYYYMMDD of the report (archive path) */
	char *sender_name; /* "Oliver Sang", signs old-style mails */
	/* the Subject's "[confidence: ...]" tag's value (may be empty): NULL
	 * when the request has none */
	char *confidence;
	int no_tags;  /* a regression without the suggested tags */
	int no_repro; /* sent without the reproduce materials */
	int repeated; /* the commit was reported before (`earlier`) */
	struct report_functional *fn; /* a functional report; else NULL */
};

/*
 * What rendering needs (templates/README lists every placeholder):
 *  - always commit_id (>= 10 hex), commit_subject, repo_url and branch
 *    (or the patch_* fields), and per test testcase, kpi, block and the
 *    host fields nr_cpu, nr_node, memory plus brand and/or model (or
 *    host.text);
 *  - 2023 on: tree (else the Subject has no form that fits); message_id
 *    and date when the period shows the download link or Closes:/Link:;
 *    reported_by for the tags of a regression; kconfig and compiler from
 *    mid-2024; tbox_group for every test after the first;
 *  - before 2023: sender_name (the signature);
 *  - subsystem: without it the Subject drops the "[x86]" tag (a guessed
 *    form: no mail without one is known).
 * Every value the period's templates ask for and the report lacks is
 * listed in one error naming the input file and key it comes from
 * (robot/report/inputs.h), never the template; data the period has no place
 * for (a preface, still lines, an In-addition table in 2016) is an error
 * too, never silently dropped.  test_description is shown whenever the
 * report has one (the mails show it from 2019 to 2024, while lkp-tests
 * still had the test's description).
 */

/*
 * Renders the Subject (one line, unfolded) and the body (LF line ends) as
 * the robot wrote them on the style's day.  Returns 0, or -1 after an
 * error (a template names an unknown placeholder: file and line).
 */
int report_render(struct strbuf *subject, struct strbuf *body,
		  const struct report *r, const struct style *st);
void report_release(struct report *r);

/*
 * Appends one of the sender's items (words or a table) to a place of the
 * report: one empty line between items, the item ending in a newline.
 * Every kind's notes use it.
 */
void notes_add_item(struct strbuf *place, const char *text);
/* Frees what one test owns (a test outside a report's arrays). */
void report_test_release(struct report_test *t);

#endif
