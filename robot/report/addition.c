// SPDX-License-Identifier: GPL-2.0-only
/*
 * addition.c: the "In addition to that" table, drawn the way terminal-table
 * does (render.h).
 */
#include "robot/util/common.h"
#include "robot/report/render.h"
#include "robot/report/report.h"

/* The "In addition to that" table, drawn the way terminal-table does. */
struct add_row {
	size_t label; /* index into the labels */
	char *text;
	int last; /* a border follows */
};

struct add_table {
	struct add_row *rows;
	size_t nr, alloc;
	char **labels; /* change, machine, parameters; then "" */
	size_t nlabels, labels_alloc;
};

static void add_row(struct add_table *tab, size_t label, struct strbuf *text)
{
	ALLOC_GROW(tab->rows, tab->nr + 1, tab->alloc);
	tab->rows[tab->nr].label = label;
	tab->rows[tab->nr].text = strbuf_detach(text, NULL);
	tab->rows[tab->nr].last = 0;
	tab->nr++;
}

/*
 * The rows of one test: its KPI, its machine (when the period shows it),
 * its sorted parameters.
 */
static int add_test_rows(struct render *rc, struct add_table *tab)
{
	const struct report_test *t = rc->t;
	struct strbuf sb = STRBUF_INIT;
	size_t *order = param_order(rc, t, "sorted");
	size_t i;
	int ret = render_expand(rc, &sb, "addition-change", NULL);

	if (!ret)
		add_row(tab, 0, &sb);
	/* `addition-machine`: the machine row, left out when it is empty */
	if (!ret && !(ret = render_expand(rc, &sb, "addition-machine", NULL)) &&
	    sb.len)
		add_row(tab, 1, &sb);
	for (i = 0; !ret && i < t->nparams; i++) {
		rc->kv = &t->params[order[i]];
		ret = render_expand(rc, &sb, "addition-param", NULL);
		if (!ret)
			add_row(tab, i ? 3 : 2, &sb);
	}
	rc->kv = NULL;
	if (tab->nr)
		tab->rows[tab->nr - 1].last = 1;
	free(order);
	strbuf_release(&sb);
	return ret;
}

static void add_border(struct strbuf *out, size_t lw, size_t tw)
{
	strbuf_addch(out, '+');
	strbuf_addchars(out, '-', lw + 2);
	strbuf_addch(out, '+');
	strbuf_addchars(out, '-', tw + 2);
	strbuf_addstr(out, "+\n");
}

static void add_draw(const struct add_table *tab, struct strbuf *out)
{
	size_t lw = 0, tw = 0, i;

	for (i = 0; i < tab->nlabels; i++)
		if (text_width(tab->labels[i]) > lw)
			lw = text_width(tab->labels[i]);
	for (i = 0; i < tab->nr; i++)
		if (text_width(tab->rows[i].text) > tw)
			tw = text_width(tab->rows[i].text);
	add_border(out, lw, tw);
	for (i = 0; i < tab->nr; i++) {
		const char *label = tab->labels[tab->rows[i].label];

		strbuf_addf(out, "| %s", label);
		strbuf_addchars(out, ' ', lw - text_width(label));
		strbuf_addf(out, " | %s", tab->rows[i].text);
		strbuf_addchars(out, ' ', tw - text_width(tab->rows[i].text));
		strbuf_addstr(out, " |\n");
		if (tab->rows[i].last)
			add_border(out, lw, tw);
	}
}

/*
 * `addition-labels`: the first column's texts, one a line, for the change,
 * the machine and the first parameter; further parameters have none.
 */
static int add_labels(struct render *rc, struct add_table *tab)
{
	char *name = render_block_file(rc, "addition-labels", NULL);
	const struct tmpl *t = render_load(rc, name);
	const char *p;

	free(name);
	if (!t)
		return -1;
	for (p = t->text; *p; p += *p == '\n') {
		size_t len = strcspn(p, "\n");

		ALLOC_GROW(tab->labels, tab->nlabels + 1, tab->labels_alloc);
		tab->labels[tab->nlabels++] = xstrndup(p, len);
		p += len;
	}
	if (tab->nlabels != 3)
		return error("%s: want 3 lines (the change, the machine, the "
			     "parameters), not %zu",
			     t->path, tab->nlabels);
	ALLOC_GROW(tab->labels, tab->nlabels + 1, tab->labels_alloc);
	tab->labels[tab->nlabels++] = xstrdup("");
	return 0;
}

static void add_release(struct add_table *tab)
{
	size_t i;

	for (i = 0; i < tab->nr; i++)
		free(tab->rows[i].text);
	for (i = 0; i < tab->nlabels; i++)
		free(tab->labels[i]);
	free(tab->rows);
	free(tab->labels);
}

int b_addition(struct render *rc, struct strbuf *out)
{
	const struct report_test *saved = rc->t;
	struct add_table tab = { 0 };
	struct strbuf table = STRBUF_INIT;
	size_t i;
	int ret;

	rc->used |= USED_ADDITION;
	if (!rc->r->nadditions)
		return 0;
	ret = add_labels(rc, &tab);
	for (i = 0; !ret && i < rc->r->nadditions; i++) {
		rc->t = &rc->r->additions[i];
		ret = add_test_rows(rc, &tab);
	}
	rc->t = saved;
	if (!ret) {
		add_draw(&tab, &table);
		rc->items = table.buf;
		ret = render_expand(rc, out, "addition", NULL);
		rc->items = NULL;
	}
	add_release(&tab);
	strbuf_release(&table);
	return ret;
}
