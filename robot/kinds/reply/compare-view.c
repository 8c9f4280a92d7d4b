// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare-view.c: lkp-tests' older comparison view, `compare -f FIELD
 * RESULT_ROOT...` (sbin/compare, 2015-2021), as the robot account's
 * follow-ups of 2020 show it (reply.h, reply_compare_view): one column
 * per commit, one row per test ("testcase/testparams/testbox", read from
 * the result root's LKP path), and the geometric mean of the rows.
 *
 * Its rules, from sbin/compare's add_stats, show_delta, show_header and
 * show_one_diff:
 *  - a root's samples of FIELD (zeros when it has none), their average
 *    and population deviation;
 *  - a test whose samples of one commit scatter (deviation above half
 *    the average, or a negative average) is left out unless FIELD is a
 *    latency stat, and so is a test only one commit has;
 *  - the change against the first commit, "%8.0f%%" (blank below 3%,
 *    "%8.0g%%" from 100000%), the absolute difference "%9.0g" for
 *    perf-profile and latency_stats; the value "%10d", "%10.2f" when a
 *    sample is a real below 100, "%10.4g" from 1e8; " ±%3d%%" when the
 *    deviation is above 3% of it;
 *  - the GEO-MEAN row: exp of the mean of the logs of each commit's
 *    values above 0, the commits that have none left out.
 */
#include "robot/util/common.h"
#include "robot/engine/results.h"
#include "robot/engine/rubyfmt.h"
#include "robot/engine/stats.h"
#include "robot/kinds/reply/reply.h"
#include "config/lkp.h"

#include <math.h>

#define ABS_WIDTH 10
#define REL_WIDTH 10
#define ERR_WIDTH 6

/* One row: a test, the value of each commit (has[d]: it was compared). */
struct cv_case {
	char *key, *desc;
	double *v, *sd;
	int *has;
	size_t ndims;
};

struct cv {
	const char *field;
	int is_float, is_exp, abs_change;
	struct cv_case *cases;
	size_t ncases, ndims;
};

/*
 * The LKP path of a root's first run, /result/TESTCASE/PATH_PARAMS/
 * TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/RUN/stats.json: the test
 * without its commit (`key`) and "TESTCASE/PATH_PARAMS/TBOX_GROUP".
 */
static int parse_source(const struct result_root *rt, char **key, char **desc)
{
	const char *src = rt->source ? rt->source : "";
	const char *p = strstr(src, "/result/");
	const char *c[10];
	size_t n = 0, i;
	int empty = 0;

	if (p) {
		p += strlen("/result/");
		c[n++] = p;
		for (; *p && n < ARRAY_SIZE(c); p++)
			if (*p == '/')
				c[n++] = p + 1;
	}
	for (i = 0; i + 1 < n; i++)
		empty |= c[i + 1] - c[i] < 2;
	if (n != 9 || empty || strcmp(c[8], "stats.json"))
		return error("%s/matrix.json: stats_source[0] '%s' is no LKP "
			     "result path (/result/TESTCASE/PATH_PARAMS/"
			     "TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/RUN/"
			     "stats.json): the compare view reads its test "
			     "there",
			     rt->dir, src);
	*key = xstrndup(src, c[6] - src);
	*desc = xstrndup(c[0], c[3] - 1 - c[0]);
	return 0;
}

static void sample_kinds(struct cv *cv, const struct rt_stat *s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++) {
		double a = fabs(s->val[i]);

		if (!s->is_int[i] && a < 100 && a != 0)
			cv->is_float = 1;
		if (a >= 100000000)
			cv->is_exp = 1;
	}
}

static struct cv_case *case_of(struct cv *cv, char *key, char *desc)
{
	size_t i;

	for (i = 0; i < cv->ncases; i++)
		if (!strcmp(cv->cases[i].key, key)) {
			free(key);
			free(desc);
			return &cv->cases[i];
		}
	cv->cases = xrealloc(cv->cases, (cv->ncases + 1) * sizeof(*cv->cases));
	cv->cases[cv->ncases] = (struct cv_case){
		.key = key,
		.desc = desc,
		.v = xcalloc(cv->ndims, sizeof(double)),
		.sd = xcalloc(cv->ndims, sizeof(double)),
		.has = xcalloc(cv->ndims, sizeof(int)),
		.ndims = cv->ndims,
	};
	return &cv->cases[cv->ncases++];
}

/* Whether a commit's samples scatter too much to show (show_delta). */
static int noisy(const struct result_root *rt, double v, double sd)
{
	return rt->nruns > 1 && (fabs(sd) > fabs(v) / 2 || v < 0);
}

static void case_release(struct cv_case *c)
{
	free(c->key);
	free(c->desc);
	free(c->v);
	free(c->sd);
	free(c->has);
}

static int cmp_case(const void *a, const void *b)
{
	return strcmp(((const struct cv_case *)a)->key,
		      ((const struct cv_case *)b)->key);
}

/* The cases of the roots, sorted as Hash[$cases.sort]; noisy ones out. */
static int gather(struct cv *cv, const struct result_root *rts, size_t n,
		  const struct lkp_tables *t)
{
	int latency = lkp_latency_stat(t, cv->field);
	size_t i, k, keep = 0;

	for (i = 0; i < n; i++) {
		const struct rt_stat *s = result_root_stat(&rts[i], cv->field);
		struct cv_case *c;
		char *key = NULL, *desc = NULL;
		double *zeros = NULL;
		const double *v;

		if (parse_source(&rts[i], &key, &desc))
			return -1;
		c = case_of(cv, key, desc);
		if (!s)
			zeros = xcalloc(rts[i].nruns + 1, sizeof(double));
		v = s ? s->val : zeros;
		c->v[i] = s ? stats_mean(v, s->is_int, rts[i].nruns) : 0;
		c->sd[i] = stats_stddev(v, rts[i].nruns, c->v[i]);
		c->has[i] = 1;
		sample_kinds(cv, s, rts[i].nruns);
		free(zeros);
	}
	for (k = 0; k < cv->ncases; k++) {
		struct cv_case *c = &cv->cases[k];
		size_t dims = 0;
		int drop = 0;

		for (i = 0; i < n; i++) {
			dims += c->has[i];
			if (c->has[i] && !latency &&
			    noisy(&rts[i], c->v[i], c->sd[i]))
				drop = 1;
		}
		if (dims < 2 || drop) {
			case_release(c);
			continue;
		}
		cv->cases[keep++] = *c;
	}
	cv->ncases = keep;
	qsort(cv->cases, cv->ncases, sizeof(*cv->cases), cmp_case);
	return 0;
}

/* show_one_diff: one commit's cell (its change when not the first). */
static void cell(struct strbuf *out, const struct cv *cv, int first, double v0,
		 double v, const double *sd)
{
	if (!first) {
		double p = v0 != 0 ? 100.0 * (v - v0) / v0 : 0;

		if (cv->abs_change) {
			rubyfmt(out, "", REL_WIDTH - 1, 0, 'g', v - v0);
			strbuf_addch(out, ' ');
		} else if (fabs(p) < 3) {
			strbuf_addchars(out, ' ', REL_WIDTH);
		} else {
			rubyfmt(out, "", REL_WIDTH - 2, 0,
				fabs(p) < 100000 ? 'f' : 'g', p);
			strbuf_addstr(out, "% ");
		}
	}
	if (cv->is_exp && !(!cv->is_float && fabs(v) < 100000000))
		rubyfmt(out, "", ABS_WIDTH, 4, 'g', v);
	else if (!cv->is_exp && cv->is_float)
		rubyfmt(out, "", ABS_WIDTH, 2, 'f', v);
	else
		rubyfmt_trunc(out, ABS_WIDTH, v);
	if (sd && (v != 0 ? 100 * *sd / v : *sd) > 3) {
		strbuf_addstr(out, " ±");
		rubyfmt_trunc(out, ERR_WIDTH - 3, v != 0 ? 100 * *sd / v : *sd);
		strbuf_addch(out, '%');
	} else {
		strbuf_addchars(out, ' ', ERR_WIDTH);
	}
	strbuf_addstr(out, "  ");
}

static void header(struct strbuf *out, const struct cv *cv,
		   const char *const *names)
{
	size_t i;

	for (i = 0; i < cv->ndims; i++) {
		int w = i ? REL_WIDTH + ABS_WIDTH + ERR_WIDTH
			  : ABS_WIDTH + ERR_WIDTH;

		strbuf_addf(out, "%*.*s  ", w, w, names[i]);
	}
	strbuf_addstr(out, "testcase/testparams/testbox\n");
	for (i = 0; i < cv->ndims; i++) {
		strbuf_addchars(out, '-',
				i ? REL_WIDTH + ABS_WIDTH + ERR_WIDTH
				  : ABS_WIDTH + ERR_WIDTH);
		strbuf_addstr(out, "  ");
	}
	strbuf_addstr(out, "---------------------------\n");
	strbuf_addstr(out, "         %stddev");
	for (i = 1; i < cv->ndims; i++)
		strbuf_addstr(out, "      change         %stddev");
	strbuf_addstr(out, "\n             \\  ");
	for (i = 1; i < cv->ndims; i++)
		strbuf_addstr(out, "        |                \\  ");
	strbuf_addch(out, '\n');
}

static void rows(struct strbuf *out, const struct cv *cv,
		 const struct result_root *rts)
{
	double *sum = xcalloc(cv->ndims, sizeof(double));
	int *has_sum = xcalloc(cv->ndims, sizeof(int));
	size_t i, k;
	double v0;

	for (k = 0; k < cv->ncases; k++) {
		const struct cv_case *c = &cv->cases[k];

		for (i = 0; i < cv->ndims; i++) {
			/* a commit the test lacks shows 0 */
			cell(out, cv, !i, c->v[0], c->v[i],
			     c->has[i] && rts[i].nruns > 1 ? &c->sd[i] : NULL);
			if (c->v[i] > 0) {
				sum[i] += log(c->v[i]);
				has_sum[i] = 1;
			}
		}
		strbuf_addf(out, "%s\n", c->desc);
	}
	for (i = 0; i < cv->ndims; i++)
		if (has_sum[i])
			sum[i] = exp(sum[i] / (double)cv->ncases);
	v0 = sum[0];
	for (i = 0; i < cv->ndims; i++)
		if (has_sum[i])
			cell(out, cv, !i, v0, sum[i], NULL);
	strbuf_addf(out, "GEO-MEAN %s\n", cv->field);
	free(sum);
	free(has_sum);
}

int reply_compare_view(struct strbuf *out, const struct result_root *rts,
		       size_t n, const char *const *names,
		       const char *const *lines, const char *field,
		       const struct lkp_tables *t)
{
	struct cv cv = { .field = field, .ndims = n };
	size_t i;
	int ret;

	cv.abs_change = !strncmp(field, "perf-profile", 12) ||
			!strncmp(field, "latency_stats", 13);
	ret = gather(&cv, rts, n, t);
	if (!ret && cv.ncases) {
		strbuf_addstr(out, "commit: \n");
		for (i = 0; i < n; i++)
			strbuf_addf(out, "  %s\n", lines[i]);
		strbuf_addch(out, '\n');
		header(out, &cv, names);
		rows(out, &cv, rts);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < cv.ncases; i++)
		case_release(&cv.cases[i]);
	free(cv.cases);
	return ret;
}
