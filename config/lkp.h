/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lkp.h: the lkp-tests data tables (stat deny/allow lists, failure and pass
 * patterns, perf-metric prefixes, thresholds, KPI directions, test and
 * parameter names) as they were on a given date.
 *
 * The tables live in config/data/lkp/ (format: config/data/lkp/README); each
 * dated section is one version of an lkp-tests file.  The predicates below
 * mirror the lib/stats.rb / lib/perf_metrics.rb methods named next to them,
 * with the anchoring each of them used.  Patterns are Ruby regexps, compiled
 * once at load time as they are (PCRE2, config/rubyre.c).
 */
#ifndef ROBOT_CONFIG_LKP_H
#define ROBOT_CONFIG_LKP_H

#include <stddef.h>

struct lkp_tables;

/*
 * Loads the tables as they were on `date` ("YYYY-MM-DD"; a date before the
 * oldest version carried gets the oldest), or at a time ("YYYY-MM-DD
 * hh:mm:ss +zzzz": a section dated with a time is in force from it on; a
 * day alone takes every section of that day).  Returns NULL after error()
 * naming the data file and line.
 */
struct lkp_tables *lkp_tables_load(const char *date);
void lkp_tables_free(struct lkp_tables *t);
/*
 * Compiles every pattern now; the long first-match tables are otherwise
 * compiled a pattern at a time, when first tried.  Returns 0, or -1 after
 * an error naming the data file and line.
 */
int lkp_tables_verify(const struct lkp_tables *t);
/* The date the tables were loaded for (borrowed). */
const char *lkp_tables_date(const struct lkp_tables *t);

/* bisectable_stat?: in stat-allowlist, or not in stat-denylist. */
int lkp_bisectable_stat(const struct lkp_tables *t, const char *stat);
/*
 * A monitor whose stats are compared even when the base lacks the stat,
 * as long as the base has some stat of that monitor (the "newly added
 * monitors" test of __get_changed_stats; rules: new_monitors).
 */
int lkp_new_monitor(const struct lkp_tables *t, const char *monitor);

/*
 * A monitor whose rows sort by their first two name components, then by
 * change (lib/compare.rb $stat_sort_key_number; rules: change_sorted).
 */
int lkp_change_sorted(const struct lkp_tables *t, const char *monitor);

/*
 * Whether Array#sum is lkp-tests' own inject (stats_sum_inject) rather
 * than Ruby's compensated one (rules: sum).
 */
int lkp_inject_sum(const struct lkp_tables *t);

/* ReportAllowlist.contain?: matches report-allowlist. */
int lkp_report_allowed(const struct lkp_tables *t, const char *stat);
/*
 * function_stat?: the name contains none of the era's excluded parts
 * (".time.", ".timestamp:", ...) and failure_stat? or pass_stat? holds.
 */
int lkp_function_stat(const struct lkp_tables *t, const char *stat);
/* failure_stat?: stat =~ /^PATTERN/ for a line of etc/failure. */
int lkp_failure_stat(const struct lkp_tables *t, const char *stat);
/* pass_stat?: stat =~ /^PATTERN/ for a line of etc/pass. */
int lkp_pass_stat(const struct lkp_tables *t, const char *stat);
/*
 * latency_stat? (is_latency before 2020-12-10): stat =~ /^PATTERN/ for a
 * line of etc/latency; always 0 from 2020-12-10.
 */
int lkp_latency_stat(const struct lkp_tables *t, const char *stat);
/*
 * perf_metric?: matches perf-metrics-patterns, or starts with a prefix of
 * etc/perf-metrics-prefixes or with "<program>." for a perf program.
 */
int lkp_perf_metric(const struct lkp_tables *t, const char *stat);
/*
 * reasonable_perf_change?: 1 if the change passes the first threshold whose
 * regexp matches the whole name (or, without one, the fallbacks for
 * iostat, pagetypeinfo/buddyinfo/slabinfo, proc-vmstat/meminfo, lock_stat
 * and interrupts/softirqs).  `delta` is the difference of the medians,
 * `max` the largest sample of both sides.  int_delta: an Integer
 * threshold v also wants delta >= v / 2 (lkp-tests' "delta < v / 2 &&
 * v.class == Integer", which the 0-day robot's Ruby of 2017-2021 never
 * met: config/data/styles threshold_delta); 0 skips that test.
 */
int lkp_reasonable_change(const struct lkp_tables *t, const char *stat,
			  double delta, double max, int int_delta);
/*
 * skip_small_change?'s ratio test for stats that are not perf metrics: the
 * median ratio must exceed this (1.1, from 2026-01-21 1.05).
 */
double lkp_nonperf_ratio(const struct lkp_tables *t);
/*
 * lkp ncompare's perf-profile threshold (5 from 2017-08-15, 0 before: no
 * special case).  When it is set, changed_stats? calls a perf-profile stat
 * changed iff either median exceeds it, and skip_small_change? passes every
 * perf-profile stat.  From 2018-01-31 *integer_only is 1: the changed_stats?
 * branch applies only when the later commit's median is an Integer.
 */
double lkp_perf_profile_threshold(const struct lkp_tables *t,
				  int *integer_only);

/*
 * skip_function_stat?: 1 when the function stat `stat` is dropped because
 * the base matrix lacks its counterpart.  `base_has(ctx, key, 0)` answers
 * whether the base matrix has the key, `base_has(ctx, key, 1)` whether it
 * has a key "key.<x>" with no dot in <x>.  dmesg/kmsg/last_state/stderr
 * stats are never dropped.
 */
int lkp_skip_function_stat(const struct lkp_tables *t, const char *stat,
			   int (*base_has)(void *ctx, const char *key,
					   int any_child),
			   void *ctx);

/*
 * kpi_stat_direction: +1 when higher is better, -1 when lower is better,
 * 0 when the stat is in neither index-perf nor (from 2021-06-29)
 * index-latency.  lkp_kpi_value() gives the raw index value.
 */
int lkp_kpi_direction(const struct lkp_tables *t, const char *stat);
int lkp_kpi_value(const struct lkp_tables *t, const char *stat, double *value);

/* The test name is in all_tests_set (the sort zeroes its row count). */
int lkp_is_test(const struct lkp_tables *t, const char *name);

/*
 * Job#each_param.  lkp_is_param(): the key is a program option of some
 * program (or names a setup/test/daemon program, or is an option of every
 * job such as cluster).  For one job, lkp_job_options_new() gathers the
 * options of the programs it references (`job_keys` are all its keys,
 * nested ones too), once; lkp_job_options_has() then answers exactly for
 * each key.  The caller skips keys whose value is a mapping and keys below
 * a monitor.  lkp_param_type() returns '-' or '=' (a '=' option appears as
 * "k=v" in the result path), 0 for no option.
 */
struct lkp_job_options;
int lkp_is_param(const struct lkp_tables *t, const char *key);
struct lkp_job_options *lkp_job_options_new(const struct lkp_tables *t,
					    const char *const *job_keys,
					    size_t nr_keys);
int lkp_job_options_has(const struct lkp_tables *t,
			const struct lkp_job_options *o, const char *key);
void lkp_job_options_free(struct lkp_job_options *o);
int lkp_param_type(const struct lkp_tables *t, const char *key);
/* The name is a setup/test/daemon program on that date. */
int lkp_is_program(const struct lkp_tables *t, const char *name);

#endif
