/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.h: reading one LKP result root ("_rt" directory).
 *
 * A result root holds matrix.json (or matrix.json.gz): one array per stat,
 * one value per run, plus "stats_source", the list of the runs' stats.json
 * paths, which fixes the number of runs.  Run directories (0/, 1/, ...,
 * named by the stats_source paths) each hold a job.yaml.
 *
 * robot never trusts avg.json or stddev.json: it computes its own
 * statistics from the samples, remembering per sample whether the JSON
 * wrote it as an integer (doc/format.md §1.6 step 4).
 * robot/engine/matrix.c reads matrix.json; this file the runs and job.yaml.
 */
#ifndef ROBOT_RESULTS_H
#define ROBOT_RESULTS_H

#include <stddef.h>

struct strbuf;

struct rt_stat {
	char *name;
	double *val;	       /* nruns values; a missing tail is 0 */
	unsigned char *is_int; /* 1 where the value was a JSON integer */
	size_t order;	       /* its place among matrix.json's keys */
	size_t n;	       /* the values matrix.json has (<= nruns) */
};

/* One scalar of job.yaml, in document order. */
struct job_entry {
	char *key;
	char *val;
	/* the key of the enclosing mapping ("stress-ng"), NULL at top level */
	char *section;
};

struct job {
	struct job_entry *entries;
	size_t nr, alloc;
};

struct matrix_store;

struct result_root {
	char *dir;
	size_t nruns;	       /* the length of stats_source */
	struct rt_stat *stats; /* in matrix.json's order; no stats_source */
	size_t nstats;
	struct matrix_store *store; /* what stats[] point into (matrix.c) */
	unsigned char *incomplete;  /* per run: last_state.is_incomplete_run */
	size_t nincomplete;
	struct job job; /* the job.yaml of the first run (every run's loads) */
	/* nruns names of the run directories under dir ("0", "1", ...) */
	char **run_names;
	/* stats_source[0] as LKP wrote it: the first run's path under LKP's
	   result tree (/result/TESTCASE/PATH_PARAMS/TBOX_GROUP/...) */
	char *source;
};

/*
 * Loads the result root at `dir`: matrix.json, and the job.yaml of every
 * run, which must load and name the first run's commit (the runs of a
 * root test one commit); every stat name passes rt_check_stat_name().
 * Returns 0, or -1 after printing one
 * "robot: error:" line that names the file (and line:column for JSON and
 * YAML syntax errors).  Every failure is bad input (exit 65).  On failure
 * rt holds nothing that needs releasing, but releasing it is harmless.
 */
int result_root_load(struct result_root *rt, const char *dir);
void result_root_release(struct result_root *rt);

/* The stat called `name`, or NULL (borrowed pointer): a hash lookup. */
const struct rt_stat *result_root_stat(const struct result_root *rt,
				       const char *name);

/*
 * Whether `name` can be a stat: a table row shows it, so it must be one
 * line of visible text (robot/util/utf8.h), and not empty.  Returns 0, or -1
 * with the reason appended to `why`, the name JSON-escaped.  Every
 * reader of matrix.json calls it for every stat.
 */
int rt_check_stat_name(const char *name, struct strbuf *why);

/* Returns the value of the first job.yaml entry `key`, or NULL. */
const char *job_get(const struct job *job, const char *key);

#endif
