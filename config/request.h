/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * request.h: a report request, the YAML an operator (or eml2lkp) writes
 * for `robot compose`.  A fixed schema: free text only in `preface` and
 * the test descriptions; everything else is data.  Unknown keys are
 * errors.  Relative paths are relative to the request file.
 *
 *   date: "2023-06-07 14:32:17 +0800"   # the report's Date (and style)
 *   style: 2023-06-07                   # optional, overrides the date
 *   message_id: "<202306071452.887afdea-oliver.sang@intel.com>"
 *   in_reply_to: "<...>"                # optional: else thread_lookup
 *   references: ["<...>"]               # the parent's References (reply)
 *   reply: true                         # a follow-up, not a report
 *   thread_lookup: true                 # reply to the commit's patch on
 *                                       # lore (default: the config's)
 *   from: "kernel test robot <oliver.sang@intel.com>"
 *   to: ["Linus Torvalds <torvalds@linux-foundation.org>"]
 *   cc: ["<oe-lkp@lists.linux.dev>", "<lkp@intel.com>"]
 *   tree: "linus:master"                # the Subject's tree tag
 *   repo_url: https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git
 *   branch: master
 *   commit: 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
 *   commits: commits.yaml               # commit metadata file, or:
 *   repo: /srv/linux                    # a git repository
 *   kpi: stress-ng.lockofd.ops_per_sec
 *   result_roots: [rt0, rt1]            # base first
 *   preface: |                          # optional free text
 *   intro: |                            # optional, after the greeting
 *   note: "..."                         # optional, after the headline
 *   note_parts: [{text: "..."}, {rows: [STAT...]}]  # or: the note's words
 *                                       # and rows of the first table
 *   show: [fsmark.files_per_sec]        # rows shown like the KPI
 *   append: [meminfo.Active]            # rows after the first table's
 *                                       # sorted ones, changed or not
 *   test_description: "..."             # optional
 *   test_url: https://...
 *   machine: "..."                      # optional: overrides host fields
 *   still: [{tree: linus/master, commit: <sha40>, failed: false}]
 *   still_checked: true                 # the heads were tested, none failed
 *                                       # (false: not tested; absent: an
 *                                       # improvement's were, a regression's
 *                                       # without still lines not)
 *   patch: {url: ..., base: ..., link: ..., subject: ...}
 *   sections: [{result_roots: [...], kpi: ..., ...}]   # further tests
 *   additions: [{result_roots: [...], kpi: ..., ...}]  # "In addition"
 *   bisect: {good: [rt...], bad: [rt...]}             # plot samples
 *           stats: [STAT...]  # further stats bisected: plotted forced
 *   attachments: [{path: .config, kind: config}, {path: job.yaml}]
 *   reported_by: "kernel test robot <oliver.sang@intel.com>"
 *   no_tags: true                       # a regression without the tags
 *   no_repro: true                      # sent without the materials
 *   earlier: "<...>"                    # an earlier report on the commit
 *   sender_name: "Oliver Sang"
 *   confidence: ""                      # "[confidence: ]" in the Subject
 *   layout: [flead 1, fpresig tight]    # the operator's layout choices
 *                                       # (config/data/layouts)
 *
 * A functional report (the KPI is a function stat: dmesg.*, kmsg.*,
 * last_state.*, *.fail, ...; doc/functional.md) also takes:
 *   evidence: [{file: dmesg, run: "3", before: 1, after: 0, from: 0,
 *               lines: 0, max_lines: 0, max_bytes: 0}, {text: "..."}]
 *   no_evidence: true                   # quote nothing
 *   evidence_at: end                    # tags (default), remark or end
 *   notes: [{at: intro, text: "..."}, {at: remark, fail_runs: true,
 *            axes: true, stats: [...]}] # the sender's words and tables
 *   result_table: [boot_successes, dmesg.boot_failures, dmesg.X]
 *   no_result_table: true
 *
 * A reply (robot reply, doc/reply.md) also takes, as `robot reply
 * --extract-patch` writes them:
 *   report: "<...>"                     # the robot's report answered
 *   base: <sha40>                       # the base commit of that report
 *   applied: {file: patch.mbox, subject: "...", message_id: "<...>",
 *             link: https://..., author: "Dev <dev@example.org>"}
 *   tested_by: "kernel test robot <lkp@intel.com>"   # else reported_by
 *   remark: |                           # the operator's words, optional
 *   statement: |                        # ... in place of robot's statement
 * and each test `all_stats: true` (every stat, lkp ncompare --all) and
 * `view: fail_runs` (the bare fail:runs table; default ncompare).
 */
#ifndef ROBOT_CONFIG_REQUEST_H
#define ROBOT_CONFIG_REQUEST_H

#include "config/schema.h"

/* One test: the main one, a further section or an In-addition entry. */
struct req_test {
	struct strv result_roots;
	char *kpi;
	char *test_description, *test_url, *machine;
	int all_stats;	/* every stat the roots have, no selection (a reply) */
	int no_section; /* an In-addition entry shown without its section */
	char *view;	/* a reply's table: ncompare (NULL), fail_runs */
};

struct req_still {
	char *tree, *commit;
	int failed; /* "[test failed on ...]" rather than "[still regression" */
	int revert; /* the tree's head with the commit reverted was tested
		       and passed (no commit of its own) */
};

struct req_patch {
	char *url, *base, *link, *subject;
};

/* The patch a reply's last result root tested (robot reply). */
struct req_applied {
	char *file, *subject, *message_id, *link, *author;
};

struct req_bisect {
	struct strv good, bad;
	/*
	 * The stats of further bisections that found the same commit: each
	 * skips the change rules as the KPI does (lkp-tests d2a03836e)
	 */
	struct strv stats;
};

struct req_attachment {
	char *path, *name;
	char *kind; /* "config": named config-<release of the tested commit> */
};

/* One item of a functional report's evidence: an excerpt, or text. */
struct req_evidence {
	char *file, *run; /* a file of a run dir, the run dir */
	long before, after, from, lines, max_lines, max_bytes;
	char *text;    /* the sender's words instead of an excerpt */
	int fail_runs; /* ... or the fail:runs table (as in a note) */
	int axes;
	struct strv stats;
};

/* The sender's words, or a fail:runs table, at a place of the report. */
struct req_note {
	char *at;	   /* preface, intro, params, remark, end; in a
			      performance report params, repro or table */
	char *text;	   /* free text */
	char *row;	   /* at: table, the row the words follow */
	struct strv table; /* result roots: their comparison as pasted */
	int fail_runs;	   /* the fail:runs table of the comparison */
	int axes;	   /* ... under its axes header */
	struct strv stats; /* ... with these rows (default: the changes) */
};

/*
 * A piece of the note under the headline: the sender's words, or rows of
 * the first test's table, printed as the table prints them (208, 287).
 */
struct req_note_part {
	char *text;
	struct strv rows;
};

struct request {
	char *file;
	char *date, *style, *message_id, *in_reply_to, *from;
	struct strv to, cc;
	struct strv references; /* the parent's References, for a reply */
	int reply;		/* a follow-up in a report's thread */
	int thread_lookup;	/* 1, 0, or -1: the config's thread_lookup */
	char *tree, *repo_url, *branch, *commit;
	char *commits, *repo;
	char *preface;
	char *intro; /* the sender's text after the greeting */
	char *note;  /* ... and between the headline and "commit:" */
	/* the note in pieces instead (struct req_note_part) */
	struct objv note_parts;
	struct strv show;     /* stats shown like the KPI, in every table */
	struct strv append;   /* rows after the first table's sorted rows */
	struct req_test test; /* the top-level result_roots, kpi, ... */
	struct objv still;    /* struct req_still */
	int still_checked;    /* the heads were tested: the block has its line;
				 -1 when absent */
	struct req_patch patch;
	struct objv sections;  /* struct req_test */
	struct objv additions; /* struct req_test */
	struct req_bisect bisect;
	struct objv attachments; /* struct req_attachment */
	char *reported_by, *sender_name;
	/* the Subject's "[confidence: ...]": NULL none */
	char *confidence;
	/* "KEY VALUE" layout choices over the day's style: config/data/layouts
	 */
	struct strv layout;
	int no_tags;   /* a regression without the suggested tags */
	int no_repro;  /* sent without the reproduce materials */
	char *earlier; /* the robot's earlier report on the same commit */
	/* functional reports */
	struct objv evidence; /* struct req_evidence */
	int no_evidence;
	char *evidence_at; /* tags, remark or end: where it goes */
	struct objv notes; /* struct req_note */
	struct strv result_table;
	int no_result_table;
	/* replies */
	char *report, *base, *tested_by, *remark;
	char *statement; /* the operator's words in place of robot's */
	struct req_applied applied;
};

/*
 * Loads a request.  Returns 0, or -1 after one error naming file:line and
 * key (exit 65).  Release with request_release() either way.
 */
int request_load(struct request *req, const char *path);
/*
 * The request's `kind:` (build, build-summary: the kinds with request
 * schemas of their own), or NULL when it names none or cannot be read
 * (request_load then says why).  Free it.
 */
char *request_kind(const char *path);
void request_release(struct request *req);

#endif
