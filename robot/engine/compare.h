/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h: the comparison of result roots, as `lkp ncompare` does it.
 *
 * comparison_build() takes the result roots of n commits (base first),
 * selects the stats that changed significantly between the base and each
 * later commit (doc/format.md §1.6), computes their means,
 * standard deviations and changes, and orders them (§1.7).
 * comparison_print() writes the block through table.c.  The caller picks
 * the style (a date) and the lkp-tests tables of that date.
 */
#ifndef ROBOT_COMPARE_H
#define ROBOT_COMPARE_H

#include <stddef.h>

#include "robot/engine/table.h"

struct commit_info;
struct job;
struct job_entry;
struct lkp_tables;
struct result_root;
struct strbuf;
struct style;

/* The selection rules, each of which tests can switch off. */
enum compare_rule {
	RULE_DENYLIST = 1 << 0,	     /* stat-denylist / report-allowlist */
	RULE_FUNCTION_PASS = 1 << 1, /* .fail needs .pass in the base */
	RULE_MIN_RUNS = 1 << 2,	     /* >= 3 runs on one side */
	RULE_SEPARATION = 1 << 3,    /* the medians and ranges separate */
	RULE_RATIO_PERF = 1 << 4,    /* median ratio > 1.01 */
	RULE_RATIO_OTHER = 1 << 5,   /* > 1.1 (later 1.05) unless perf metric */
	RULE_THRESHOLD = 1 << 6,     /* per-metric thresholds */
	RULE_THRESHOLD_DELTA = 1 << 7, /* an Integer one's delta >= v / 2 */
};

/* Parses a rule name ("denylist", "ratio-perf", ...); -1 if unknown. */
int compare_rule_parse(const char *name, unsigned *bit);

struct compare_opts {
	const struct style *style;
	const struct lkp_tables *tables;
	int all;	   /* every stat of any root, no selection */
	unsigned disabled; /* enum compare_rule bits switched off */
	const char *force; /* a stat shown without the significance tests */
	/* more such stats: the ones a sender shows on purpose; n of them */
	const char *const *shown;
	size_t nshown;
	/*
	 * n strings each, or NULL: what the "commit:" lines and the id line
	 * show.  Default: the full ids of the roots' job.yaml.
	 */
	const char *const *commit_lines;
	const char *const *commit_ids;
};

struct cmp_row {
	char *name;
	int failure;
	double *avg, *sd; /* perf rows: n each */
	double *fails;	  /* fail:runs rows: n */
	size_t *runs;	  /* fail:runs rows: n */
	double *change;	  /* n - 1 */
	int abs_change;
	long count;	/* rows of the same monitor, the first sort key */
	size_t key_len; /* the name's sort key: its length */
	size_t seq;	/* the order selection met it in: the last sort key */
};

struct comparison {
	size_t n;
	struct table_style ts;
	size_t naxes;
	char **axis_keys, **axis_values;
	char **commit_ids, **commit_lines;
	struct cmp_row *rows;
	size_t nrows;
	/* what the rows point into: one block each, not one per row */
	char *row_names;
	double *row_values;
	size_t *row_runs;
};

/*
 * Whether the min-runs rule (on in `o`, which selects) drops every perf
 * stat that is not forced: the base and each later root have fewer than
 * 3 complete runs.
 */
int compare_min_runs_drops_all(const struct result_root *rts, size_t n,
			       const struct compare_opts *o);

/*
 * Builds the comparison of `n` >= 2 result roots.  Returns 0, or -1 after
 * an error (bad input: exit 65).
 */
int comparison_build(struct comparison *c, const struct result_root *rts,
		     size_t n, const struct compare_opts *o);
void comparison_print(struct strbuf *out, const struct comparison *c);
/*
 * Appends the row of stat `name` as comparison_print() prints it.
 * Returns 0, or -1 when the table has no such row (nothing appended).
 */
int comparison_print_row(struct strbuf *out, const struct comparison *c,
			 const char *name);
/* The row of stat `name`, or NULL (borrowed). */
const struct cmp_row *comparison_row(const struct comparison *c,
				     const char *name);

/*
 * The stats lkp-tests' get_changed_stats finds changed in `rt` against
 * `base` under the options' rules (comparison_build's selection for one
 * pair).  Returns their number; *names, sorted bytewise, and its strings
 * are the caller's to free.
 */
size_t compare_changed(char ***names, const struct result_root *base,
		       const struct result_root *rt,
		       const struct compare_opts *o);
void comparison_release(struct comparison *c);

/*
 * The result roots of one comparison and the labels of their commits, as
 * the mails print them: the tag, or sha10 ("subject") with the full id.
 */
struct compare_roots {
	struct result_root *rts;
	char **lines, **ids; /* n each once labelled, else NULL */
	size_t n;
};

/*
 * Returns the metadata of commit `id`, the job commit of `rt`, or NULL
 * after printing an error.
 */
typedef const struct commit_info *(*compare_commit_fn)(
	void *ctx, const char *id, const struct result_root *rt);

/* Loads `n` result roots.  Returns 0 or -1 (error printed); release always. */
int compare_roots_load(struct compare_roots *r, char *const *dirs, size_t n);
/* Labels every root's commit through `find`.  Returns 0 or -1. */
int compare_roots_label(struct compare_roots *r, compare_commit_fn find,
			void *ctx);
void compare_roots_release(struct compare_roots *r);

/*
 * The job parameters of a job.yaml (Job#each_param), in job order, one per
 * key: `*out` gets an array of borrowed entries (the caller frees the
 * array).  Returns how many.
 */
size_t compare_job_params(const struct job *job, const struct lkp_tables *t,
			  const struct job_entry ***out);

/* Fills the table switches from the style.  Returns 0 or -1 (error). */
int compare_table_style(struct table_style *ts, const struct style *st);

#endif
