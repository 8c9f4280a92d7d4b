// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisect.c: the plotted stats of a bisection and their samples
 * (bisect.h has the rules).
 *
 * Each side's result roots become one synthetic result root, the runs of
 * one root after the other's, so that the comparison code that selects
 * the table's rows (compare_changed) judges the whole bisection: good
 * samples as the base, bad samples as the later commit.
 */
#include "robot/util/common.h"
#include "robot/engine/bisect.h"
#include "robot/engine/compare.h"
#include "robot/engine/results.h"
#include "robot/engine/matrix.h"
#include "config/lkp.h"

#include <sys/stat.h>

/* One stat of one root, for the merge. */
struct entry {
	const char *name;
	size_t root, order; /* where it first appears: root, then key order */
};

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->root != b->root)
		return a->root < b->root ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The merged root of one side; rank[i] orders stats[i] as lkp-tests would. */
struct side {
	struct result_root rt;
	size_t *rank;
};

static int cmp_first(const void *pa, const void *pb)
{
	const struct entry *a = *(const struct entry *const *)pa;
	const struct entry *b = *(const struct entry *const *)pb;

	if (a->root != b->root)
		return a->root < b->root ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int merge(struct side *s, const struct result_root *rts, size_t n,
		 const char *label)
{
	struct entry *e, **first;
	const char **names;
	size_t ne = 0, nfirst = 0, i, j, k, at;
	int ret;

	memset(s, 0, sizeof(*s));
	s->rt.dir = xstrdup(label);
	for (i = 0; i < n; i++) {
		s->rt.nruns += rts[i].nruns;
		s->rt.nincomplete += rts[i].nincomplete;
		ne += rts[i].nstats;
	}
	e = xcalloc(ne + 1, sizeof(*e));
	for (i = 0, k = 0; i < n; i++)
		for (j = 0; j < rts[i].nstats; j++, k++) {
			e[k].name = rts[i].stats[j].name;
			e[k].root = i;
			e[k].order = rts[i].stats[j].order;
		}
	qsort(e, ne, sizeof(*e), cmp_entry);
	first = xcalloc(ne + 1, sizeof(*first));
	for (k = 0; k < ne; k++)
		if (!k || strcmp(e[k - 1].name, e[k].name))
			first[nfirst++] = &e[k];

	/* the stats, sorted by name, stored as a loaded matrix's */
	names = xcalloc(nfirst + 1, sizeof(*names));
	for (k = 0; k < nfirst; k++)
		names[k] = first[k]->name;
	ret = matrix_init(&s->rt, names, nfirst);
	free(names);
	s->rank = xcalloc(nfirst + 1, sizeof(*s->rank));
	s->rt.incomplete = xcalloc(s->rt.nruns + 1, 1);
	for (i = 0, at = 0; i < n; at += rts[i].nruns, i++)
		if (rts[i].incomplete)
			memcpy(s->rt.incomplete + at, rts[i].incomplete,
			       rts[i].nruns);
	for (k = 0; !ret && k < nfirst; k++) {
		struct rt_stat *st = &s->rt.stats[k];

		for (i = 0, at = 0; i < n; at += rts[i].nruns, i++) {
			const struct rt_stat *from =
				result_root_stat(&rts[i], st->name);

			if (!from)
				continue;
			memcpy(st->val + at, from->val,
			       rts[i].nruns * sizeof(*st->val));
			memcpy(st->is_int + at, from->is_int, rts[i].nruns);
			st->n = at + from->n;
		}
	}
	/* rank: the order of first appearance */
	qsort(first, nfirst, sizeof(*first), cmp_first);
	for (k = 0; !ret && k < nfirst; k++) {
		const struct rt_stat *st =
			result_root_stat(&s->rt, first[k]->name);

		s->rank[st - s->rt.stats] = k;
	}
	free(first);
	free(e);
	return ret;
}

static void side_release(struct side *s)
{
	result_root_release(&s->rt);
	free(s->rank);
}

static int load_roots(struct result_root **rts, char *const *dirs, size_t n,
		      const char *where, const char *side)
{
	size_t i;

	*rts = xcalloc(n + 1, sizeof(**rts));
	if (!n)
		return error("%s: %s: no result roots (a plot needs good and "
			     "bad samples)",
			     where, side);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (stat(dirs[i], &st))
			return error_errno("%s.%s[%zu]: cannot open '%s'",
					   where, side, i, dirs[i]);
		if (result_root_load(&(*rts)[i], dirs[i]))
			return -1;
	}
	return 0;
}

static void roots_free(struct result_root *rts, size_t n)
{
	size_t i;

	for (i = 0; rts && i < n; i++)
		result_root_release(&rts[i]);
	free(rts);
}

struct ranked {
	size_t rank;
	struct bisect_plot plot;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

static double *copy_values(const struct rt_stat *st, size_t n)
{
	double *v = xcalloc(n + 1, sizeof(*v));

	memcpy(v, st->val, n * sizeof(*v));
	return v;
}

int bisect_plots(struct bisect_plot **out, size_t *n, char *const *good,
		 size_t ngood, char *const *bad, size_t nbad,
		 const struct compare_opts *o, const char *where)
{
	struct result_root *g = NULL, *b = NULL;
	struct compare_opts opts = *o;
	struct side sg, sb;
	struct ranked *r;
	char **names;
	size_t nnames, i, nr = 0;
	int ret;

	*out = NULL;
	*n = 0;
	if (load_roots(&g, good, ngood, where, "good") ||
	    load_roots(&b, bad, nbad, where, "bad")) {
		roots_free(g, ngood);
		roots_free(b, nbad);
		return -1;
	}
	ret = merge(&sg, g, ngood, "bisect good");
	if (!ret)
		ret = merge(&sb, b, nbad, "bisect bad");
	else
		memset(&sb, 0, sizeof(sb));
	roots_free(g, ngood);
	roots_free(b, nbad);
	if (ret) {
		side_release(&sg);
		side_release(&sb);
		return -1;
	}

	opts.all = 0;
	nnames = compare_changed(&names, &sg.rt, &sb.rt, &opts);
	r = xcalloc(nnames + 1, sizeof(*r));
	for (i = 0; i < nnames; i++) {
		const struct rt_stat *sgood =
			result_root_stat(&sg.rt, names[i]);
		const struct rt_stat *sbad = result_root_stat(&sb.rt, names[i]);

		if (sgood && !sgood->n)
			sgood = NULL;
		if (sbad && !sbad->n)
			sbad = NULL;
		if ((!sgood && !sbad) ||
		    !lkp_bisectable_stat(o->tables, names[i]) ||
		    lkp_function_stat(o->tables, names[i]))
			continue;
		/* a stat the bad side lacks comes after the bad side's */
		r[nr].rank = sbad ? sb.rank[sbad - sb.rt.stats]
				  : sb.rt.nstats + sg.rank[sgood - sg.rt.stats];
		r[nr].plot.stat = xstrdup(names[i]);
		if (sgood) {
			r[nr].plot.ngood = sgood->n;
			r[nr].plot.good = copy_values(sgood, sgood->n);
		}
		if (sbad) {
			r[nr].plot.nbad = sbad->n;
			r[nr].plot.bad = copy_values(sbad, sbad->n);
		}
		nr++;
	}
	qsort(r, nr, sizeof(*r), cmp_ranked);
	*out = xcalloc(nr + 1, sizeof(**out));
	for (i = 0; i < nr; i++)
		(*out)[i] = r[i].plot;
	*n = nr;
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(r);
	side_release(&sg);
	side_release(&sb);
	return 0;
}

void bisect_plots_free(struct bisect_plot *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].stat);
		free(p[i].good);
		free(p[i].bad);
	}
	free(p);
}
