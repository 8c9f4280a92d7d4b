// SPDX-License-Identifier: GPL-2.0-only
/*
 * fields.c: the strings a placeholder names that struct report does not hold
 * as such: short ids, percentages, the Subject's pieces (render.h).
 */
#include "robot/util/common.h"
#include "robot/report/render.h"
#include "robot/report/report.h"
#include "robot/engine/rubyfmt.h"
#include "config/style.h"

#include <math.h>

/* Strings that do not exist as such in struct report. */

int f_sha10(struct render *rc, struct strbuf *out)
{
	const char *id = rc->r->commit_id;

	if (!id || strlen(id) < 10)
		return render_no_value(rc, "sha10");
	strbuf_add(out, id, 10);
	return 0;
}

/* The Message-ID without its angle brackets, as in the links to it. */
int f_msgid(struct render *rc, struct strbuf *out)
{
	const char *id = rc->r->message_id;
	size_t len;

	if (!id || !*id)
		return render_no_value(rc, "msgid");
	id += *id == '<';
	len = strlen(id);
	strbuf_add(out, id, len - (len && id[len - 1] == '>'));
	return 0;
}

/* The KPI's relative change as the headline prints it: sign, no '+'. */
int f_pct(struct render *rc, struct strbuf *out)
{
	rubyfmt(out, "", 0, 1, 'f', rc->t->change);
	return 0;
}

/*
 * The same without its sign: the 2025 headlines ("6.5% regression"); a
 * KPI whose direction is unknown keeps it ("-5.2% regression").
 */
int f_pct_abs(struct render *rc, struct strbuf *out)
{
	double v = rc->t->no_direction ? rc->t->change : fabs(rc->t->change);

	rubyfmt(out, "", 0, 1, 'f', v);
	return 0;
}

/*
 * The same with its minus sign turned into a blank: the 2025 In-addition
 * rows ("iozone.average_KBps  14.1% regression", mails 129, 135, 136).
 */
int f_pct_blank(struct render *rc, struct strbuf *out)
{
	size_t at = out->len;

	rubyfmt(out, "", 0, 1, 'f', rc->t->change);
	if (out->buf[at] == '-')
		out->buf[at] = ' ';
	return 0;
}

/*
 * The subject on the "commit:" line: the posted patch's own subject for
 * a report on a patch ("[PATCH v2 3/5] mm: memcg: ..."), which the
 * applied commit lost, else the commit's.
 */
int f_headline_subject(struct render *rc, struct strbuf *out)
{
	const struct report *r = rc->r;

	if ((r->patch_url || r->patch_link) && r->patch_subject &&
	    *r->patch_subject)
		return render_add_value(rc, out, "headline_subject",
					r->patch_subject);
	return render_add_value(rc, out, "headline_subject", r->commit_subject);
}

/* Characters, not bytes: what Ruby's ljust pads to. */
size_t text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * The blanks between the Subject's "<sha10>:" and the KPI: two, unless
 * the Subject up to the end of the KPI would then be wider than the
 * style's subject_width, which takes one (0 means always one).  The
 * line rendered so far is the text of `out` after its last newline.
 */
int f_kpi_gap(struct render *rc, struct strbuf *out)
{
	const char *line = strrchr(out->buf, '\n');
	int limit;

	if (style_get_int(rc->st, "subject_width", &limit))
		return -1;
	line = line ? line + 1 : out->buf;
	if (!rc->t->kpi)
		return render_no_value(rc, "kpi_gap");
	strbuf_addstr(out,
		      limit && text_width(line) + 2 + text_width(rc->t->kpi) <=
					      (size_t)limit
			      ? "  "
			      : " ");
	return 0;
}

/* The blanks before the Subject's "<sha10>:": the style's subject_lead. */
int f_subject_lead(struct render *rc, struct strbuf *out)
{
	int n;

	if (style_get_int(rc->st, "subject_lead", &n))
		return -1;
	if (n < 1 || n > 2)
		return error("style %s: subject_lead is %d (want 1 or 2)",
			     rc->st->date, n);
	strbuf_addchars(out, ' ', n);
	return 0;
}

int f_kind(struct render *rc, struct strbuf *out)
{
	strbuf_addstr(out, rc->t->improvement ? "improvement" : "regression");
	return 0;
}

/* An explicit machine text wins; else the first `machine` line that fits. */
int f_machine(struct render *rc, struct strbuf *out)
{
	if (rc->t->host.text && *rc->t->host.text) {
		strbuf_addstr(out, rc->t->host.text);
		return 0;
	}
	return render_expand_first_fit(rc, out, "machine", NULL);
}

int f_archive_url(struct render *rc, struct strbuf *out)
{
	return render_add_value(rc, out, "archive_url", rc->r->archive_url);
}

/*
 * The disclaimer's text (under "Disclaimer:", the block
 * `disclaimer-section` a body shows with {opt.disclaimer_section}) and
 * the signature that ends the mail: the operator's (the configuration's
 * `disclaimer` and `signature`), the 0-day robot's of the period when
 * the configuration says `0day` (the `disclaimer` and `footer` blocks),
 * else no disclaimer and the neutral signature (the `signature` block).
 * The operator's signature is used as it is; a disclaimer loses its
 * trailing newlines, the body has its own.
 */
int f_disclaimer(struct render *rc, struct strbuf *out)
{
	const char *text = rc->r->disclaimer;
	size_t len;

	if (rc->r->disclaimer_0day)
		return render_expand(rc, out, "disclaimer", NULL);
	if (!text)
		return render_no_value(rc, "disclaimer");
	len = strlen(text);
	while (len && text[len - 1] == '\n')
		len--;
	strbuf_add(out, text, len);
	return 0;
}

int f_signature(struct render *rc, struct strbuf *out)
{
	if (rc->r->signature_0day)
		return render_expand(rc, out, "footer", NULL);
	if (!rc->r->signature)
		return render_expand(rc, out, "signature", NULL);
	strbuf_addstr(out, rc->r->signature);
	return 0;
}

/* Only inside a parameter template. */
int f_key(struct render *rc, struct strbuf *out)
{
	return rc->kv ? render_add_value(rc, out, "key", rc->kv->key) : 1;
}

int f_value(struct render *rc, struct strbuf *out)
{
	return rc->kv ? render_add_value(rc, out, "value", rc->kv->value) : 1;
}

/* Only inside a still line: the tree, padded so that the ids align. */
int f_still_tree(struct render *rc, struct strbuf *out)
{
	size_t len;

	if (!rc->still)
		return 1;
	if (render_add_value(rc, out, "still_tree", rc->still->tree))
		return -1;
	len = strlen(rc->still->tree);
	strbuf_addchars(out, ' ', rc->still_width - len);
	return 0;
}

/* The same, padded on the left: the ids align and the trees end together. */
int f_still_tree_right(struct render *rc, struct strbuf *out)
{
	if (!rc->still)
		return 1;
	if (!rc->still->tree || !*rc->still->tree)
		return render_no_value(rc, "still_tree_right");
	strbuf_addchars(out, ' ', rc->still_width - strlen(rc->still->tree));
	strbuf_addstr(out, rc->still->tree);
	return 0;
}

int f_still_commit(struct render *rc, struct strbuf *out)
{
	return rc->still ? render_add_value(rc, out, "still_commit",
					    rc->still->commit)
			 : 1;
}

/* Only inside a wrapper: the list it wraps. */
int f_items(struct render *rc, struct strbuf *out)
{
	if (!rc->items)
		return 1;
	strbuf_addstr(out, rc->items);
	return 0;
}
