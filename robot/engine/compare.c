// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c: which rows a 0-day table shows, and in which order.
 *
 * This mirrors lkp-tests' lib/stats.rb (_get_changed_stats, StatCompare)
 * and lib/compare.rb (each_changed_stat, sort_stats) rule by rule; the
 * comments name the Ruby each step comes from.  Data flow:
 *
 *   result roots --> matrix views (all runs; complete runs only)
 *                --> selection, base against each later commit
 *                --> rows: means, stddevs, changes (stats.c, table.c)
 *                --> sort --> comparison_print() via table.c
 *
 * The era-dependent lists (denylists, failure patterns, thresholds, the
 * test list) come from config/lkp.c for the style's date; the formatting
 * switches from the dated style table.
 */
#include "robot/util/common.h"
#include "robot/engine/compare.h"
#include "robot/engine/results.h"
#include "robot/engine/stats.h"
#include "config/lkp.h"
#include "config/style.h"
#include "git/commits.h"

#include <math.h>

static const char INCOMPLETE[] = "last_state.is_incomplete_run";

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The distinct stat names of a comparison.  Each is matched against the
 * lkp-tests tables once, whatever the number of roots and passes: `known`
 * and `flags` cache the predicates' answers.  at[id * nroots + r] is the
 * index of name `id` in root r, or -1; id_of[r][i] the id of root r's
 * stat i.  The selected names are `order`, in the order selection met
 * them, as lkp-tests' changed_stat_keys (Hash#merge!, Array#|) keeps
 * them: a name stays where it was first added.
 */
enum pred {
	PRED_BISECTABLE,
	PRED_REPORT,
	PRED_FUNCTION,
	PRED_LATENCY,
	PRED_PERF_METRIC,
};

struct names {
	size_t n, alloc, nroots;
	const char **name;
	int32_t *at;
	int32_t **id_of;
	unsigned char *known, *flags;
	unsigned char *selected;
	size_t *order, nsel;
};

static void names_build(struct names *nt, const struct result_root *rts,
			size_t nroots)
{
	size_t r, q, i, id;

	memset(nt, 0, sizeof(*nt));
	nt->nroots = nroots;
	nt->id_of = xcalloc(nroots + 1, sizeof(*nt->id_of));
	/* mostly the roots share their names: room for the first's */
	nt->alloc = nroots ? rts[0].nstats + 16 : 16;
	nt->name = xcalloc(nt->alloc, sizeof(*nt->name));
	nt->at = xmalloc(nt->alloc * nroots * sizeof(*nt->at));
	memset(nt->at, 0xff, nt->alloc * nroots * sizeof(*nt->at));
	for (r = 0; r < nroots; r++) {
		const struct result_root *rt = &rts[r];

		nt->id_of[r] =
			xcalloc(rt->nstats ? rt->nstats : 1, sizeof(int32_t));
		for (i = 0; i < rt->nstats; i++) {
			const char *k = rt->stats[i].name;

			/* the first root that has it gave its id */
			for (q = 0; q < r; q++) {
				const struct rt_stat *s =
					result_root_stat(&rts[q], k);

				if (s) {
					id = (size_t)nt->id_of[q][s -
								  rts[q].stats];
					break;
				}
			}
			if (q == r) {
				id = nt->n++;
				if (nt->n > nt->alloc) {
					size_t old = nt->alloc;

					ALLOC_GROW(nt->name, nt->n, nt->alloc);
					nt->at = xreallocarray(
						nt->at, nt->alloc * nroots,
						sizeof(*nt->at));
					memset(nt->at + old * nroots, 0xff,
					       (nt->alloc - old) * nroots *
						       sizeof(*nt->at));
				}
				nt->name[id] = k;
			}
			nt->id_of[r][i] = (int32_t)id;
			nt->at[id * nroots + r] = (int32_t)i;
		}
	}
	nt->known = xcalloc(nt->n ? nt->n : 1, 1);
	nt->flags = xcalloc(nt->n ? nt->n : 1, 1);
	nt->selected = xcalloc(nt->n ? nt->n : 1, 1);
	nt->order = xcalloc(nt->n ? nt->n : 1, sizeof(*nt->order));
}

static void names_release(struct names *nt)
{
	for (size_t r = 0; nt->id_of && r < nt->nroots; r++)
		free(nt->id_of[r]);
	free(nt->id_of);
	free(nt->name);
	free(nt->at);
	free(nt->known);
	free(nt->flags);
	free(nt->selected);
	free(nt->order);
	memset(nt, 0, sizeof(*nt));
}

/* Adds name `id` to the selection, unless it is there already. */
static void names_select(struct names *nt, size_t id)
{
	if (nt->selected[id])
		return;
	nt->selected[id] = 1;
	nt->order[nt->nsel++] = id;
}

static int pred(struct names *nt, size_t id, enum pred which,
		const struct lkp_tables *t)
{
	unsigned char bit = (unsigned char)(1u << which);
	const char *k = nt->name[id];
	int v = 0;

	if (nt->known[id] & bit)
		return !!(nt->flags[id] & bit);
	switch (which) {
	case PRED_BISECTABLE:
		v = lkp_bisectable_stat(t, k);
		break;
	case PRED_REPORT:
		v = lkp_report_allowed(t, k);
		break;
	case PRED_FUNCTION:
		v = lkp_function_stat(t, k);
		break;
	case PRED_LATENCY:
		v = lkp_latency_stat(t, k);
		break;
	case PRED_PERF_METRIC:
		v = lkp_perf_metric(t, k);
		break;
	}
	nt->known[id] |= bit;
	if (v)
		nt->flags[id] |= bit;
	return v;
}

/*
 * One root as a selection pass sees it: all its runs, or (lib/stats.rb
 * filter_incomplete_run and ResultRoot#complete_matrix) only the runs
 * whose last_state.is_incomplete_run is not 1, without that stat.  The
 * stats are the root's, in matrix.json's order, which is the order of the
 * Hash lkp-tests walks: selection meets them in it.
 */
struct view {
	const struct result_root *rt;
	size_t r; /* the root's index in the name table */
	int complete;
	size_t cols;
	long incomplete; /* the index of INCOMPLETE in rt, or -1 */
	/* monitored_by_b? answers so far */
	struct {
		char *base;
		int has;
	} monitors[8];
	size_t nmonitors;
};

static void view_init(struct view *v, const struct result_root *rt, size_t r,
		      int complete)
{
	const struct rt_stat *inc = result_root_stat(rt, INCOMPLETE);

	memset(v, 0, sizeof(*v));
	v->rt = rt;
	v->r = r;
	v->complete = complete;
	v->cols = complete ? rt->nruns - rt->nincomplete : rt->nruns;
	v->incomplete = inc ? inc - rt->stats : -1;
}

static void view_release(struct view *v)
{
	for (size_t i = 0; i < v->nmonitors; i++)
		free(v->monitors[i].base);
	v->nmonitors = 0;
}

/* Whether the view has stat i (the complete view lacks INCOMPLETE). */
static int view_has(const struct view *v, long i)
{
	return i >= 0 && !(v->complete && i == v->incomplete);
}

/* The index in v's root of name `id`, or -1 when the view lacks it. */
static long view_at(const struct view *v, const struct names *nt, size_t id)
{
	long i = nt->at[id * nt->nroots + v->r];

	return view_has(v, i) ? i : -1;
}

/*
 * lib/stats.rb monitored_by_b?: whether the view has a stat of monitor
 * `base` ("base" or "base.<anything>"); a few monitors are asked about, so
 * the answers are kept.
 */
static int view_has_monitor(struct view *v, const char *base)
{
	size_t len = strlen(base), i;
	int has = 0;

	for (i = 0; i < v->nmonitors; i++)
		if (!strcmp(v->monitors[i].base, base))
			return v->monitors[i].has;
	for (i = 0; i < v->rt->nstats && !has; i++) {
		const char *k = v->rt->stats[i].name;

		has = view_has(v, (long)i) && !strncmp(k, base, len) &&
		      (k[len] == '.' || !k[len]);
	}
	if (v->nmonitors < ARRAY_SIZE(v->monitors)) {
		v->monitors[v->nmonitors].base = xstrdup(base);
		v->monitors[v->nmonitors++].has = has;
	}
	return has;
}

/*
 * The samples of stat i of the view: the root's arrays, or for a complete
 * view of a root with incomplete runs, copies into buf (cols each).
 */
static void view_samples(const struct view *v, long i, double *buf_v,
			 unsigned char *buf_int, const double **val,
			 const unsigned char **is_int)
{
	const struct rt_stat *s = &v->rt->stats[i];
	size_t j, k;

	if (!v->complete || !v->rt->nincomplete) {
		*val = s->val;
		*is_int = s->is_int;
		return;
	}
	for (j = k = 0; j < v->rt->nruns; j++) {
		if (v->rt->incomplete[j])
			continue;
		buf_v[k] = s->val[j];
		buf_int[k++] = s->is_int[j];
	}
	*val = buf_v;
	*is_int = buf_int;
}

/* One stat of the later commit `a` against the base `b`. */
struct pair_ctx {
	struct view *a, *b;
	struct names *nt;
	const struct compare_opts *o;
	int incomplete_pass;
	double *zeros; /* cols-sized integer-zero fills */
	unsigned char *zero_int;
	double *buf_v[2]; /* complete-run copies, a and b */
	unsigned char *buf_int[2];
};

/* Is k one of the stats a sender shows on purpose (opts.shown)? */
static int shown_stat(const struct compare_opts *o, const char *k)
{
	size_t i;

	for (i = 0; i < o->nshown; i++)
		if (!strcmp(o->shown[i], k))
			return 1;
	return 0;
}

static int rule_on(const struct pair_ctx *p, unsigned rule)
{
	return !(p->o->disabled & rule);
}

static int base_has(void *ctx, const char *key, int any_child)
{
	const struct view *b = ctx;
	const struct rt_stat *s;
	size_t i, len;

	if (!any_child) {
		s = result_root_stat(b->rt, key);
		return s && view_has(b, s - b->rt->stats);
	}
	/* a key KEY.<x>, no dot in <x>: only failure stats of 2020-07/08 ask */
	len = strlen(key);
	for (i = 0; i < b->rt->nstats; i++) {
		const char *n = b->rt->stats[i].name;

		if (!strncmp(n, key, len) && n[len] == '.' &&
		    !strchr(n + len + 1, '.') && view_has(b, i))
			return 1;
	}
	return 0;
}

/*
 * lib/stats.rb skip_stat?, but for its first test (in the incomplete pass,
 * only dmesg, last_state and stderr stats), which process() makes first.
 */
static int skip_stat(struct pair_ctx *p, size_t id, int function, int force)
{
	const struct lkp_tables *t = p->o->tables;
	const char *k = p->nt->name[id];

	if (rule_on(p, RULE_DENYLIST) && !pred(p->nt, id, PRED_BISECTABLE, t) &&
	    !pred(p->nt, id, PRED_REPORT, t))
		return 1;
	if (force)
		return 0;
	if (function)
		return rule_on(p, RULE_FUNCTION_PASS) &&
		       lkp_skip_function_stat(t, k, base_has, p->b);
	return rule_on(p, RULE_MIN_RUNS) && p->a->cols < 3 && p->b->cols < 3;
}

static size_t complete_runs(const struct result_root *rt)
{
	return rt->nruns - rt->nincomplete;
}

int compare_min_runs_drops_all(const struct result_root *rts, size_t n,
			       const struct compare_opts *o)
{
	size_t i;

	if (o->all || (o->disabled & RULE_MIN_RUNS) || n < 2)
		return 0;
	for (i = 1; i < n; i++)
		if (complete_runs(&rts[i]) >= 3 || complete_runs(&rts[0]) >= 3)
			return 0;
	return 1;
}

/* LKP::ChangedStat#change? without options: the ranges separate. */
static int separated(const struct stat_summary *a, const struct stat_summary *b)
{
	if (b->min > a->median && b->median > a->max)
		return 1;
	return a->min > b->median && a->median > b->max;
}

/* StatCompare#changed_stats? */
static int changed(const struct pair_ctx *p, const char *k, int function,
		   int latency, const struct stat_summary *a,
		   const struct stat_summary *b)
{
	int integer_only;
	double pp = lkp_perf_profile_threshold(p->o->tables, &integer_only);

	/*
	 * ncompare's perf-profile threshold; from 2018-01-31 it is the
	 * Integer 5, which Ruby's is_a? test matches only against an Integer
	 * median (doc/format.md §1.6 step 4).
	 */
	if (pp > 0 && has_prefix(k, "perf-profile.") &&
	    (!integer_only || a->median_is_int))
		return a->median > pp || b->median > pp;
	if (function)
		return a->max != b->max;
	/* changed_latency_stat? (latency stats exist before 2020-12-10) */
	if (latency)
		return a->max > 3 * b->max || b->max > 3 * a->max;
	return !rule_on(p, RULE_SEPARATION) || separated(a, b);
}

/* StatCompare.calc_stats_metrics and skip_small_change? */
static int small_change(struct pair_ctx *p, size_t id,
			const struct stat_summary *a,
			const struct stat_summary *b)
{
	const char *k = p->nt->name[id];
	const struct stat_summary *high = a, *low = b;
	double max = a->max > b->max ? a->max : b->max;
	double delta, ratio = 5;
	int integer_only;

	if (has_prefix(k, "perf-profile.") &&
	    lkp_perf_profile_threshold(p->o->tables, &integer_only) > 0)
		return 0;
	if (!(a->median > b->median)) {
		high = b;
		low = a;
	}
	delta = high->median - low->median;
	if (low->median > 0)
		ratio = high->median / low->median;
	if (ratio > 5)
		ratio = 5;
	if (rule_on(p, RULE_RATIO_PERF) && !(ratio > 1.01))
		return 1;
	if (rule_on(p, RULE_RATIO_OTHER) &&
	    !(ratio > lkp_nonperf_ratio(p->o->tables)) &&
	    !pred(p->nt, id, PRED_PERF_METRIC, p->o->tables))
		return 1;
	return rule_on(p, RULE_THRESHOLD) &&
	       !lkp_reasonable_change(p->o->tables, k, delta, max,
				      rule_on(p, RULE_THRESHOLD_DELTA));
}

static int forced(const struct pair_ctx *p, const char *k)
{
	return (p->o->force && !strcmp(p->o->force, k)) || shown_stat(p->o, k);
}

/*
 * StatCompare#process for name `id`, absent from a when the base alone has
 * it.  A forced stat (options["force_<stat>"]: the bisected KPI) skips the
 * function-stat, run-count, change and small-change tests.
 */
static void process(struct pair_ctx *p, size_t id)
{
	const char *k = p->nt->name[id];
	const struct lkp_tables *t = p->o->tables;
	long ia = view_at(p->a, p->nt, id), ib = view_at(p->b, p->nt, id);
	const double *va, *vb;
	const unsigned char *ia_int, *ib_int;
	int function = pred(p->nt, id, PRED_FUNCTION, t);
	int latency = pred(p->nt, id, PRED_LATENCY, t);
	struct stat_summary sa, sb;
	size_t margin = function || latency ? 0 : 3;
	int force = forced(p, k);
	char base[64];

	/*
	 * Every test must pass and none has side effects, so the cheap ones
	 * come first: the numbers reject most stats before the deny lists
	 * are matched.
	 */
	if (p->incomplete_pass && !has_prefix(k, "dmesg.") &&
	    !has_prefix(k, "last_state.") && !has_prefix(k, "stderr."))
		return;
	if (ib < 0 && !function) {
		size_t len = strcspn(k, ".");

		if (len >= sizeof(base) || !k[len])
			return;
		memcpy(base, k, len);
		base[len] = '\0';
		if (!lkp_new_monitor(t, base) || !view_has_monitor(p->b, base))
			return;
	}
	if (ib >= 0)
		view_samples(p->b, ib, p->buf_v[1], p->buf_int[1], &vb,
			     &ib_int);
	else
		vb = p->zeros, ib_int = p->zero_int;
	stats_summarize(&sb, vb, ib_int, p->b->cols, margin);
	if (!sb.size)
		return;
	if (p->b->cols <= 3 && margin > 1)
		margin = 1;
	if (ia >= 0)
		view_samples(p->a, ia, p->buf_v[0], p->buf_int[0], &va,
			     &ia_int);
	else
		va = p->zeros, ia_int = p->zero_int;
	stats_summarize(&sa, va, ia_int, p->a->cols, margin);
	if (!sa.size)
		return;
	if (!force && !changed(p, k, function, latency, &sa, &sb))
		return;
	if (skip_stat(p, id, function, force))
		return;
	if (!force && small_change(p, id, &sa, &sb))
		return;
	names_select(p->nt, id);
}

static unsigned char *int_ones(size_t n)
{
	unsigned char *v = xmalloc(n ? n : 1);

	memset(v, 1, n ? n : 1);
	return v;
}

/*
 * __get_changed_stats: every stat of a, then the base's stats a lacks
 * (filled with integer zeros), each in matrix.json's order.
 */
static void select_pass(struct pair_ctx *p)
{
	const struct result_root *ra = p->a->rt, *rb = p->b->rt;
	size_t i, cols = p->a->cols > p->b->cols ? p->a->cols : p->b->cols;

	p->zeros = xcalloc(cols ? cols : 1, sizeof(double));
	p->zero_int = int_ones(cols);
	for (i = 0; i < ra->nstats; i++)
		if (view_has(p->a, (long)i))
			process(p, (size_t)p->nt->id_of[p->a->r][i]);
	for (i = 0; i < rb->nstats; i++) {
		size_t id = (size_t)p->nt->id_of[p->b->r][i];

		if (view_has(p->b, (long)i) && view_at(p->a, p->nt, id) < 0)
			process(p, id);
	}
	free(p->zeros);
	free(p->zero_int);
}

/*
 * _get_changed_stats: with incomplete runs on either side, a first pass
 * looks only at dmesg/last_state/stderr stats over all runs, then a second
 * one at everything over the complete runs.  The second pass filters the
 * base's runs in place (filter_incomplete_run), and _calc_changed_stat_keys
 * shares the base between the later commits: from the second later commit
 * on (base_filtered), the base has its complete runs only.
 */
static void select_changed(struct names *nt, const struct result_root *rts,
			   size_t ai, const struct compare_opts *o,
			   int base_filtered)
{
	struct pair_ctx p = { .o = o, .nt = nt };
	struct view va, vb;

	view_init(&va, &rts[ai], ai, 0);
	view_init(&vb, &rts[0], 0, base_filtered);
	p.a = &va;
	p.b = &vb;
	p.buf_v[0] = xcalloc(rts[ai].nruns + 1, sizeof(double));
	p.buf_v[1] = xcalloc(rts[0].nruns + 1, sizeof(double));
	p.buf_int[0] = xcalloc(rts[ai].nruns + 1, 1);
	p.buf_int[1] = xcalloc(rts[0].nruns + 1, 1);
	p.incomplete_pass =
		va.incomplete >= 0 || (!base_filtered && vb.incomplete >= 0);
	select_pass(&p);
	if (p.incomplete_pass) {
		view_release(&va);
		view_release(&vb);
		view_init(&va, &rts[ai], ai, 1);
		view_init(&vb, &rts[0], 0, 1);
		p.incomplete_pass = 0;
		if (va.cols && vb.cols)
			select_pass(&p);
	}
	view_release(&va);
	view_release(&vb);
	free(p.buf_v[0]);
	free(p.buf_v[1]);
	free(p.buf_int[0]);
	free(p.buf_int[1]);
}

/*
 * --all: every stat any of the roots has, as lkp-tests' all_stat_keys
 * (the union of the matrices' keys, in the roots' and the matrices'
 * order; a root without the stat shows it as missing: mean 0, no stddev,
 * as follow-up 111 shows "0.00").
 */
static void select_all(struct names *nt)
{
	size_t id;

	/* the ids are given in that order: the roots', each in its file's */
	for (id = 0; id < nt->n; id++)
		names_select(nt, id);
}

/*
 * Compare.each_changed_stat and calc_stat_change: a fail:runs row sums
 * each commit's values over all runs; a perf row takes the mean and
 * stddev of the complete runs.  A stat a commit lacks has mean 0, stddev
 * -1 and 0 failures.
 */
/* Array#sum as the day's lkp-tests had it (rules: sum). */
static double row_sum(const struct lkp_tables *t, const double *v,
		      const unsigned char *is_int, size_t n)
{
	return lkp_inject_sum(t) ? stats_sum_inject(v, is_int, n)
				 : stats_sum(v, is_int, n);
}

static void fill_row(struct cmp_row *r, const struct comparison *c,
		     const struct names *nt, size_t id, const struct view *cvs,
		     double *buf_v, unsigned char *buf_int,
		     const struct lkp_tables *t)
{
	size_t n = c->n, i;

	if (r->failure) {
		for (i = 0; i < n; i++) {
			const struct result_root *rt = cvs[i].rt;
			long at = nt->at[id * nt->nroots + i];

			r->runs[i] = rt->nruns;
			if (at >= 0)
				r->fails[i] = row_sum(t, rt->stats[at].val,
						      rt->stats[at].is_int,
						      rt->nruns);
		}
		for (i = 1; i < n; i++)
			r->change[i - 1] =
				table_fail_change(r->fails, r->runs, i);
		return;
	}
	r->abs_change = table_abs_change(&c->ts, r->name);
	for (i = 0; i < n; i++) {
		long at = view_at(&cvs[i], nt, id);
		size_t cols = cvs[i].cols;
		const double *v;
		const unsigned char *is_int;

		r->sd[i] = -1;
		if (at < 0 || !cols)
			continue;
		view_samples(&cvs[i], at, buf_v, buf_int, &v, &is_int);
		r->avg[i] = row_sum(t, v, is_int, cols) / (double)cols;
		if (cols >= 2)
			r->sd[i] = stats_stddev(v, cols, r->avg[i]);
	}
	for (i = 1; i < n; i++)
		r->change[i - 1] = table_change(&c->ts, r->avg[0], r->avg[i],
						r->abs_change);
}

/*
 * Whether the row's figures are what lkp-tests' arithmetic means: samples
 * near the largest double make the sum, the squares or the difference of
 * two means overflow, and the table would show "Inf" or "NaN" for them.
 * A relative change against a mean of 0 is what lkp-tests printed before
 * tiny_zero_base, +Inf% (or +NaN% for 0 to 0), and stays.  Returns 0, or
 * -1 after an error naming the root and the stat.
 */
static int check_row(const struct cmp_row *r, const struct comparison *c,
		     const struct result_root *rts)
{
	const char *what = NULL;
	size_t i;

	for (i = 0; i < c->n && !what; i++) {
		if (r->failure) {
			if (!isfinite(r->fails[i]))
				what = "the sum of its samples";
			continue;
		}
		if (!isfinite(r->avg[i]))
			what = "the mean of its samples";
		else if (!isfinite(r->sd[i]))
			what = "the standard deviation of its samples";
		else if (i && !isfinite(r->change[i - 1]) &&
			 (r->abs_change || r->avg[0] != 0))
			what = "its change against the base";
	}
	if (!what)
		return 0;
	return error("%s: stat '%s': %s overflows a double", rts[i - 1].dir,
		     r->name, what);
}

/* lib/stats.rb stat_key_base: the text before the first dot. */
static size_t base_len(const char *name)
{
	return strcspn(name, ".");
}

static int cmp_row_base(const void *pa, const void *pb)
{
	const struct cmp_row *a = *(struct cmp_row *const *)pa;
	const struct cmp_row *b = *(struct cmp_row *const *)pb;
	size_t alen = base_len(a->name), blen = base_len(b->name);
	int r = memcmp(a->name, b->name, alen < blen ? alen : blen);

	return r ? r : (alen > blen) - (alen < blen);
}

/*
 * Compare.sort_stats, first key: how many shown rows share the monitor.
 * Upstream keys the count by monitor alone and starts it at -10000 when
 * the first row it meets (in selection order) is a failure row.  A
 * monitor that is a test of the day's lkp-tests counts 0.  A row a sender
 * shows on purpose does not count (0-day added them to the sorted table:
 * 287 and 298 of the corpus sort fsmark.* as if their
 * fsmark.files_per_sec row were not there).
 */
static void count_bases(struct comparison *c, const struct compare_opts *o)
{
	const struct lkp_tables *t = o->tables;
	struct cmp_row **by_base =
		xcalloc(c->nrows ? c->nrows : 1, sizeof(*by_base));
	size_t i, j, k;

	for (i = 0; i < c->nrows; i++)
		by_base[i] = &c->rows[i];
	qsort(by_base, c->nrows, sizeof(*by_base), cmp_row_base);
	for (i = 0; i < c->nrows; i = j) {
		const struct cmp_row *first = by_base[i];
		long count;
		char *base;

		for (j = i + 1;
		     j < c->nrows && !cmp_row_base(&by_base[i], &by_base[j]);
		     j++)
			if (by_base[j]->seq < first->seq)
				first = by_base[j];
		count = first->failure ? -10000 : 0;
		for (k = i; k < j; k++)
			count += !shown_stat(o, by_base[k]->name);
		base = xstrndup(first->name, base_len(first->name));
		if (count > 0 && lkp_is_test(t, base))
			count = 0;
		free(base);
		for (k = i; k < j; k++)
			by_base[k]->count = count;
	}
	free(by_base);
}

/*
 * stat_sort_key: the rows of a change-sorted monitor (perf-profile) sort
 * by their first two components, and then by change.
 */
static size_t sort_key_len(const char *name, const struct lkp_tables *t)
{
	size_t len = base_len(name);
	char *base = xstrndup(name, len);
	const char *dot;
	int sorted = lkp_change_sorted(t, base);

	free(base);
	if (!sorted || !name[len])
		return strlen(name);
	dot = strchr(name + len + 1, '.');
	return dot ? (size_t)(dot - name) : strlen(name);
}

/* Ruby's String#<=>: bytes first, then the shorter string first. */
static int cmp_key(const char *a, size_t alen, const char *b, size_t blen)
{
	int r = memcmp(a, b, alen < blen ? alen : blen);

	if (r)
		return r;
	return (alen > blen) - (alen < blen);
}

static int cmp_rows(const void *pa, const void *pb, void *data)
{
	const struct cmp_row *a = pa, *b = pb;
	const size_t *n = data;
	size_t i;
	int r;

	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	r = cmp_key(a->name, a->key_len, b->name, b->key_len);
	if (r)
		return r;
	if (a->key_len < strlen(a->name))
		for (i = 0; i + 1 < *n; i++) {
			if (a->change[i] < b->change[i])
				return -1;
			if (a->change[i] > b->change[i])
				return 1;
		}
	/*
	 * Ruby's sort_by! is glibc's qsort_r, a merge sort: equal keys keep
	 * the selection order.
	 */
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The axes of the result root path that are not job parameters. */
static const char *const path_axes[] = {
	"tbox_group", "testcase", "rootfs", "kconfig", "compiler",
};

struct axis {
	char *key, *value, *kv;
};

static int cmp_axis(const void *a, const void *b)
{
	return strcmp(((const struct axis *)a)->kv,
		      ((const struct axis *)b)->kv);
}

static int is_path_axis(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(path_axes); i++)
		if (!strcmp(path_axes[i], key))
			return 1;
	return 0;
}

/*
 * Job#each_param for one job.yaml entry: a key of a program's section, or
 * a top-level key that is an option of a program the job references.
 * Keys below a monitor's section are not parameters.
 */
static int job_param(const struct job_entry *e, const struct lkp_tables *t,
		     const struct lkp_job_options *opts)
{
	if (e->section && !lkp_is_program(t, e->section))
		return 0;
	return lkp_job_options_has(t, opts, e->key);
}

static int cmp_param_key(const void *a, const void *b)
{
	const struct job_entry *x = *(const struct job_entry *const *)a;
	const struct job_entry *y = *(const struct job_entry *const *)b;
	int c = strcmp(x->key, y->key);

	/* entries are one array: the address is the job order */
	return c ? c : (x > y) - (x < y);
}

static int cmp_param_order(const void *a, const void *b)
{
	const struct job_entry *x = *(const struct job_entry *const *)a;
	const struct job_entry *y = *(const struct job_entry *const *)b;

	return (x > y) - (x < y);
}

size_t compare_job_params(const struct job *job, const struct lkp_tables *t,
			  const struct job_entry ***out)
{
	const char **keys = xcalloc(job->nr * 2 + 2, sizeof(char *));
	const struct job_entry **params = xcalloc(job->nr + 1, sizeof(*params));
	const char *testcase = job_get(job, "testcase");
	struct lkp_job_options *opts;
	size_t nr = 0, nkeys = job->nr * 2, i, j;

	/*
	 * Every key of the job, section names included, and the testcase,
	 * whose program a job references even when its options sit at the
	 * top level.
	 */
	for (i = 0; i < job->nr; i++) {
		keys[2 * i] = job->entries[i].key;
		keys[2 * i + 1] = job->entries[i].section
					  ? job->entries[i].section
					  : job->entries[i].key;
	}
	if (testcase)
		keys[nkeys++] = testcase;
	opts = lkp_job_options_new(t, keys, nkeys);
	for (i = 0; i < job->nr; i++) {
		const struct job_entry *e = &job->entries[i];

		if (!is_path_axis(e->key) && job_param(e, t, opts))
			params[nr++] = e;
	}
	lkp_job_options_free(opts);
	free(keys);
	/* one per key, its first: sorted by key, then back in job order */
	qsort(params, nr, sizeof(*params), cmp_param_key);
	for (i = j = 0; i < nr; i++)
		if (!j || strcmp(params[j - 1]->key, params[i]->key))
			params[j++] = params[i];
	nr = j;
	qsort(params, nr, sizeof(*params), cmp_param_order);
	*out = params;
	return nr;
}

static void axis_add(struct axis **ax, size_t *nr, size_t *alloc,
		     const char *key, const char *v)
{
	if (!strcmp(key, "rootfs") && strrchr(v, '/'))
		v = strrchr(v, '/') + 1;
	ALLOC_GROW(*ax, *nr + 1, *alloc);
	(*ax)[*nr].key = xstrdup(key);
	(*ax)[*nr].value = xstrdup(v);
	(*ax)[*nr].kv = xasprintf("%s=%s", key, v);
	(*nr)++;
}

/*
 * Job#axes: the path axes plus every program-option parameter, rootfs
 * reduced to its file name; sorted as "k=v" strings, as lkp-tests'
 * DataStore keeps them.
 */
static size_t job_axes(struct axis **out, const struct job *job,
		       const struct lkp_tables *t)
{
	const struct job_entry **params;
	struct axis *ax = NULL;
	size_t nr = 0, alloc = 0, np, i;

	for (i = 0; i < ARRAY_SIZE(path_axes); i++) {
		const char *v = job_get(job, path_axes[i]);

		if (v)
			axis_add(&ax, &nr, &alloc, path_axes[i], v);
	}
	np = compare_job_params(job, t, &params);
	for (i = 0; i < np; i++)
		axis_add(&ax, &nr, &alloc, params[i]->key, params[i]->val);
	free(params);
	if (nr > 1)
		qsort(ax, nr, sizeof(*ax), cmp_axis);
	*out = ax;
	return nr;
}

static void axes_free(struct axis *ax, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(ax[i].key);
		free(ax[i].value);
		free(ax[i].kv);
	}
	free(ax);
}

/* The common axes of all roots; they must agree, or the table would lie. */
static int build_axes(struct comparison *c, const struct result_root *rts,
		      const struct lkp_tables *t)
{
	struct axis *ax0, *ax;
	size_t n0, nr, i, j;
	int ret = 0;

	n0 = job_axes(&ax0, &rts[0].job, t);
	for (i = 1; i < c->n && !ret; i++) {
		nr = job_axes(&ax, &rts[i].job, t);
		for (j = 0; j < n0 && !ret; j++) {
			if (j >= nr || strcmp(ax0[j].key, ax[j].key) ||
			    strcmp(ax0[j].value, ax[j].value))
				ret = error("%s: job.yaml differs from %s's in "
					    "'%s': not one test",
					    rts[i].dir, rts[0].dir,
					    j < nr ? ax[j].key : ax0[j].key);
		}
		if (!ret && nr != n0)
			ret = error("%s: job.yaml has other parameters than "
				    "%s's: not one test",
				    rts[i].dir, rts[0].dir);
		axes_free(ax, nr);
	}
	c->naxes = n0;
	c->axis_keys = xcalloc(n0 + 1, sizeof(char *));
	c->axis_values = xcalloc(n0 + 1, sizeof(char *));
	for (i = 0; i < n0; i++) {
		c->axis_keys[i] = xstrdup(ax0[i].key);
		c->axis_values[i] = xstrdup(ax0[i].value);
	}
	axes_free(ax0, n0);
	return ret;
}

static int build_commits(struct comparison *c, const struct result_root *rts,
			 const struct compare_opts *o)
{
	size_t i;

	c->commit_ids = xcalloc(c->n, sizeof(char *));
	c->commit_lines = xcalloc(c->n, sizeof(char *));
	for (i = 0; i < c->n; i++) {
		const char *id = job_get(&rts[i].job, "commit");

		if (!id && (!o->commit_ids || !o->commit_lines))
			return error("%s/%s/job.yaml: 'commit' is missing (the "
				     "commit lines need it)",
				     rts[i].dir, rts[i].run_names[0]);
		c->commit_ids[i] =
			xstrdup(o->commit_ids ? o->commit_ids[i] : id);
		c->commit_lines[i] =
			xstrdup(o->commit_lines ? o->commit_lines[i] : id);
	}
	return 0;
}

int compare_table_style(struct table_style *ts, const struct style *st)
{
	if (style_get_int(st, "stddev_always", &ts->stddev_always) ||
	    style_get_int(st, "abs_changes", &ts->abs_changes) ||
	    style_get_int(st, "tiny_zero_base", &ts->tiny_zero_base) ||
	    style_get_int(st, "col_width", &ts->col_width))
		return -1;
	if (ts->col_width < 1 || ts->col_width > 80)
		return error("style %s: col_width %d is out of range", st->date,
			     ts->col_width);
	return 0;
}

/*
 * The rows of the selected names, in selection order, in three blocks:
 * their names, their numbers (3n each: changes, then means and deviations
 * or failures) and their run counts; with --all there are as many rows as
 * stats.
 */
static void rows_alloc(struct comparison *c, const struct names *nt)
{
	size_t i, len = 0, at = 0;

	for (i = 0; i < nt->nsel; i++)
		len += strlen(nt->name[nt->order[i]]) + 1;
	c->rows = xcalloc(nt->nsel ? nt->nsel : 1, sizeof(*c->rows));
	c->row_names = xmalloc(len ? len : 1);
	c->row_values = xcalloc(nt->nsel * 3 * c->n + 1, sizeof(double));
	c->row_runs = xcalloc(nt->nsel * c->n + 1, sizeof(size_t));
	for (i = 0; i < nt->nsel; i++) {
		const char *k = nt->name[nt->order[i]];
		size_t l = strlen(k) + 1;

		c->rows[i].name = memcpy(c->row_names + at, k, l);
		at += l;
	}
}

static int cmp_id_name(const void *a, const void *b, void *data)
{
	const struct names *nt = data;

	return strcmp(nt->name[*(const size_t *)a],
		      nt->name[*(const size_t *)b]);
}

int comparison_build(struct comparison *c, const struct result_root *rts,
		     size_t n, const struct compare_opts *o)
{
	struct names nt;
	struct view *cvs;
	size_t i, maxruns = 0;
	double *buf_v;
	unsigned char *buf_int;
	int bad = 0;

	memset(c, 0, sizeof(*c));
	c->n = n;
	if (n < 2)
		return error("a comparison needs at least two result roots");
	if (compare_table_style(&c->ts, o->style) ||
	    build_axes(c, rts, o->tables) || build_commits(c, rts, o))
		return -1;
	names_build(&nt, rts, n);
	if (o->all)
		select_all(&nt);
	else
		for (i = 1; i < n; i++)
			select_changed(
				&nt, rts, i, o,
				i > 1 && result_root_stat(&rts[0], INCOMPLETE));

	cvs = xcalloc(n, sizeof(*cvs));
	for (i = 0; i < n; i++) {
		view_init(&cvs[i], &rts[i], i, 1);
		if (rts[i].nruns > maxruns)
			maxruns = rts[i].nruns;
	}
	buf_v = xcalloc(maxruns + 1, sizeof(double));
	buf_int = xcalloc(maxruns + 1, 1);
	rows_alloc(c, &nt);
	for (i = 0; i < nt.nsel; i++) {
		struct cmp_row *r = &c->rows[c->nrows++];
		size_t id = nt.order[i];
		double *v = c->row_values + i * 3 * n;

		r->seq = i;
		r->key_len = sort_key_len(r->name, o->tables);
		r->failure = pred(&nt, id, PRED_FUNCTION, o->tables);
		r->change = v;
		if (r->failure) {
			r->fails = v + n;
			r->runs = c->row_runs + i * n;
		} else {
			r->avg = v + n;
			r->sd = v + 2 * n;
		}
		fill_row(r, c, &nt, id, cvs, buf_v, buf_int, o->tables);
		if ((bad = check_row(r, c, rts)))
			break;
	}
	free(buf_v);
	free(buf_int);
	free(cvs);
	names_release(&nt);
	if (bad)
		return -1;

	count_bases(c, o);
	qsort_r(c->rows, c->nrows, sizeof(*c->rows), cmp_rows, &c->n);
	return 0;
}

size_t compare_changed(char ***names, const struct result_root *base,
		       const struct result_root *rt,
		       const struct compare_opts *o)
{
	/* shallow copies: the pair as one array, base first */
	struct result_root pair[2] = { *base, *rt };
	struct names nt;
	size_t i, nsel;

	names_build(&nt, pair, 2);
	select_changed(&nt, pair, 1, o, 0);
	nsel = nt.nsel;
	qsort_r(nt.order, nsel, sizeof(*nt.order), cmp_id_name, &nt);
	*names = xcalloc(nsel + 1, sizeof(**names));
	for (i = 0; i < nsel; i++)
		(*names)[i] = xstrdup(nt.name[nt.order[i]]);
	names_release(&nt);
	return nsel;
}

/* One row, as the table prints it: a perf row or a fail:runs row. */
static void print_row(struct strbuf *out, const struct comparison *c,
		      const struct cmp_row *row)
{
	if (row->failure)
		table_row(out, &c->ts,
			  &(struct table_row){
				  .name = row->name,
				  .failure = 1,
				  .n = c->n,
				  .fails = row->fails,
				  .runs = row->runs,
				  .change = row->change,
			  });
	else
		table_row(out, &c->ts,
			  &(struct table_row){
				  .name = row->name,
				  .n = c->n,
				  .avg = row->avg,
				  .sd = row->sd,
				  .abs_change = row->abs_change,
				  .change = row->change,
			  });
}

/* Compare.show_group: header, fail:runs rows, perf rows, an empty line. */
void comparison_print(struct strbuf *out, const struct comparison *c)
{
	struct table_header h = {
		.naxes = c->naxes,
		.axis_keys = (const char *const *)c->axis_keys,
		.axis_values = (const char *const *)c->axis_values,
		.n = c->n,
		.commit_lines = (const char *const *)c->commit_lines,
		.commit_ids = (const char *const *)c->commit_ids,
	};
	size_t i, nfail = 0, len = 0;

	/* show_group prints nothing for a group without a changed stat. */
	if (!c->nrows)
		return;
	table_group_header(out, &c->ts, &h);
	/* the rows' text at once, not by doublings: --all prints 100,000s */
	for (i = 0; i < c->nrows; i++)
		len += strlen(c->rows[i].name) + 1 + (c->n * 2 - 1) * 16;
	strbuf_grow(out, len);
	for (i = 0; i < c->nrows; i++)
		nfail += c->rows[i].failure;
	if (nfail)
		table_fail_header(out, c->n);
	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].failure)
			print_row(out, c, &c->rows[i]);
	if (nfail < c->nrows)
		table_perf_header(out, c->n);
	for (i = 0; i < c->nrows; i++)
		if (!c->rows[i].failure)
			print_row(out, c, &c->rows[i]);
	strbuf_addch(out, '\n');
}

int comparison_print_row(struct strbuf *out, const struct comparison *c,
			 const char *name)
{
	const struct cmp_row *row = comparison_row(c, name);

	if (!row)
		return -1;
	print_row(out, c, row);
	return 0;
}

const struct cmp_row *comparison_row(const struct comparison *c,
				     const char *name)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void comparison_release(struct comparison *c)
{
	free(c->rows);
	free(c->row_names);
	free(c->row_values);
	free(c->row_runs);
	free_strv(c->axis_keys, c->naxes);
	free_strv(c->axis_values, c->naxes);
	free_strv(c->commit_ids, c->n);
	free_strv(c->commit_lines, c->n);
	memset(c, 0, sizeof(*c));
}

static const struct {
	const char *name;
	unsigned bit;
} rule_names[] = {
	{ "denylist", RULE_DENYLIST },
	{ "fail-without-pass", RULE_FUNCTION_PASS },
	{ "min-runs", RULE_MIN_RUNS },
	{ "separation", RULE_SEPARATION },
	{ "ratio-perf", RULE_RATIO_PERF },
	{ "ratio-other", RULE_RATIO_OTHER },
	{ "threshold", RULE_THRESHOLD },
	{ "threshold-delta", RULE_THRESHOLD_DELTA },
};

int compare_rule_parse(const char *name, unsigned *bit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rule_names); i++)
		if (!strcmp(rule_names[i].name, name)) {
			*bit |= rule_names[i].bit;
			return 0;
		}
	return -1;
}

int compare_roots_load(struct compare_roots *r, char *const *dirs, size_t n)
{
	size_t i;

	r->n = n;
	r->rts = xcalloc(n ? n : 1, sizeof(*r->rts));
	r->lines = r->ids = NULL;
	for (i = 0; i < n; i++)
		if (result_root_load(&r->rts[i], dirs[i]))
			return -1;
	return 0;
}

int compare_roots_label(struct compare_roots *r, compare_commit_fn find,
			void *ctx)
{
	size_t i;

	r->lines = xcalloc(r->n ? r->n : 1, sizeof(char *));
	r->ids = xcalloc(r->n ? r->n : 1, sizeof(char *));
	for (i = 0; i < r->n; i++) {
		const char *id = job_get(&r->rts[i].job, "commit");
		const struct commit_info *ci;

		if (!id)
			return error("%s/%s/job.yaml: 'commit' is missing (the "
				     "commit lines need it)",
				     r->rts[i].dir, r->rts[i].run_names[0]);
		ci = find(ctx, id, &r->rts[i]);
		if (!ci)
			return -1;
		if (ci->tag) {
			r->lines[i] = xstrdup(ci->tag);
			r->ids[i] = xstrdup(ci->tag);
		} else {
			r->lines[i] = xasprintf("%.10s (\"%s\")", ci->id,
						ci->subject ? ci->subject : "");
			r->ids[i] = xstrdup(ci->id);
		}
	}
	return 0;
}

void compare_roots_release(struct compare_roots *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->rts)
			result_root_release(&r->rts[i]);
		if (r->lines)
			free(r->lines[i]);
		if (r->ids)
			free(r->ids[i]);
	}
	free(r->rts);
	free(r->lines);
	free(r->ids);
	memset(r, 0, sizeof(*r));
}
