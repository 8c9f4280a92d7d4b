// SPDX-License-Identifier: GPL-2.0-only
/*
 * reply.c: the text of a follow-up (reply.h).
 *
 * The layout is 0-day's own follow-up (the robot account's answer of
 * 2021-07-07 to a developer, in the shared corpus): mutt's attribution
 * "On <date>, <name> wrote:", their mail quoted with "> " up to their
 * question, an empty line, "Hi <name>,", the words, the table, the
 * signature, an empty line and the rest of their mail quoted.  The
 * templates hold every word; a block is templates/SET/NAME[-VARIANT]
 * with VARIANT the style's row for NAME, as for reports.
 */
#include "robot/util/common.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/patch.h"
#include "robot/kinds/reply/reply.h"
#include "config/data.h"
#include "config/style.h"
#include "git/commits.h"
#include "templates/expand.h"

#include <strings.h>
#include <time.h>

/* Blocks nest (reply > statement > verdict); never deeper than this. */
#define MAX_DEPTH 6

struct rrender {
	const struct reply_view *v;
	const struct commit_info *ci; /* a commit line's commit */
	const char *set;
	const char *file;
	int depth;
	int lenient;	     /* > 0: a missing value is no error (first fit) */
	const char *missing; /* the last value missing */
};

static int rlookup(void *ctx, const char *name, struct strbuf *out);
static int b_statement_text(struct rrender *rr, struct strbuf *out);

/* The file of block NAME: NAME-VARIANT by the style, else NAME. */
static char *block_name(const struct rrender *rr, const char *block,
			const char *suffix)
{
	const char *variant = style_get(rr->v->st, block);

	return xasprintf("%s%s%s%s", block, variant ? "-" : "",
			 variant ? variant : "", suffix ? suffix : "");
}

static int expand_text(struct rrender *rr, struct strbuf *out, const char *text,
		       const char *path)
{
	const char *saved = rr->file;
	int ret;

	if (rr->depth >= MAX_DEPTH)
		return error("%s: templates nest deeper than %d", path,
			     MAX_DEPTH);
	rr->depth++;
	rr->file = path;
	ret = tmpl_expand(out, text, path, rlookup, rr);
	rr->depth--;
	rr->file = saved;
	return ret;
}

static int expand_file(struct rrender *rr, struct strbuf *out, const char *name)
{
	char *path = NULL, *text = data_template(rr->set, name, &path);
	int ret;

	if (!text)
		return -1;
	ret = expand_text(rr, out, text, path);
	free(text);
	free(path);
	return ret;
}

static int expand_block(struct rrender *rr, struct strbuf *out,
			const char *block, const char *suffix)
{
	char *name = block_name(rr, block, suffix);
	int ret = expand_file(rr, out, name);

	free(name);
	return ret;
}

/*
 * The first line of block NAME whose values are all there (empty lines
 * do not count): how a commit line falls back from the tag to the id.
 */
static int expand_first_fit(struct rrender *rr, struct strbuf *out,
			    const char *block)
{
	char *name = block_name(rr, block, NULL), *path = NULL;
	char *text = data_template(rr->set, name, &path);
	const char *line, *end;
	int ret = 1;

	free(name);
	if (!text)
		return -1;
	for (line = text; ret > 0 && *line; line = end + !!*end) {
		struct strbuf one = STRBUF_INIT, res = STRBUF_INIT;

		end = line + strcspn(line, "\n");
		if (end == line)
			continue;
		strbuf_add(&one, line, end - line);
		rr->lenient++;
		rr->missing = NULL;
		ret = expand_text(rr, &res, one.buf, path);
		rr->lenient--;
		if (!ret && !rr->missing)
			strbuf_addbuf(out, &res);
		else if (!ret)
			ret = 1;
		strbuf_release(&one);
		strbuf_release(&res);
	}
	if (ret > 0)
		ret = error("%s: no line fits (no value for '{%s}')", path,
			    rr->missing ? rr->missing : "?");
	free(text);
	free(path);
	return ret;
}

static int value(struct rrender *rr, struct strbuf *out, const char *name,
		 const char *v)
{
	if (v && *v) {
		strbuf_addstr(out, v);
		return 0;
	}
	rr->missing = name;
	if (rr->lenient)
		return 0;
	return error("%s: the reply has no value for '{%s}'", rr->file, name);
}

/* ---- the quote ---- */

static int is_blank_line(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return 0;
	return 1;
}

/*
 * A paragraph of one line that is only a name, as kernel developers sign
 * ("            Linus", "-Peter", "Vincent Guittot"): one or two words,
 * each a capital (or a letter outside ASCII) and letters, at most 30
 * bytes, nothing else.
 */
static int name_only(const char *p, size_t n)
{
	size_t i = 0, words = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i < n && p[i] == '-')
		i++;
	while (n > i && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (i == n || n - i > 30)
		return 0;
	while (i < n) {
		unsigned char c = (unsigned char)p[i];

		if (!(c >= 'A' && c <= 'Z') && c < 0x80)
			return 0;
		if (++words > 2)
			return 0;
		for (i++; i < n && p[i] != ' '; i++) {
			c = (unsigned char)p[i];
			if (c < 0x80 &&
			    !((c | 0x20) >= 'a' && (c | 0x20) <= 'z') &&
			    c != '-' && c != '\'')
				return 0;
		}
		if (i < n)
			i++;
		if (i < n && p[i] == ' ')
			return 0;
	}
	return 1;
}

/* A short closing paragraph: "Thanks,\nDavid", "Regards", "Cheers". */
static int sign_off(const char *const *lines, const size_t *lens, size_t from,
		    size_t to)
{
	static const char *const words[] = {
		"thanks", "thank you",	  "regards",	 "best", "cheers",
		"br",	  "kind regards", "many thanks", "thx",	 "ta",
	};
	const char *first = lines[from];
	size_t i, n = lens[from];

	if (to - from > 3)
		return 0;
	if (to - from == 1 && name_only(first, n))
		return 1;
	for (i = from; i < to; i++)
		if (lens[i] > 40)
			return 0;
	while (n && (first[n - 1] == ',' || first[n - 1] == '.' ||
		     first[n - 1] == '!' || first[n - 1] == ' '))
		n--;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		size_t k = strlen(words[i]);

		if (n >= k && !strncasecmp(first, words[i], k) &&
		    (n == k || first[k] == ' ' || first[k] == ','))
			return 1;
	}
	return 0;
}

static void quote_lines(struct strbuf *out, const char *const *lines,
			const size_t *lens, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		strbuf_addstr(out, "> ");
		strbuf_add(out, lines[i], lens[i]);
		strbuf_addch(out, '\n');
	}
}

void reply_quote_split(const char *text, int with_patch, struct strbuf *head,
		       struct strbuf *tail)
{
	const char **lines = NULL;
	size_t *lens = NULL, n = 0, alloc = 0, alloc2 = 0, i, end, at;
	size_t last = 0, start;
	int own_found = 0;
	size_t keep = with_patch ? strlen(text) : patch_text_start(text);
	const char *p = text, *stop = text + keep;

	/* their patch is not quoted: the reply says which one it tested */
	while (*p && p < stop) {
		size_t len = strcspn(p, "\n");

		ALLOC_GROW(lines, n + 1, alloc);
		ALLOC_GROW(lens, n + 1, alloc2);
		lines[n] = p;
		lens[n] = len;
		n++;
		p += len + (p[len] == '\n');
	}
	/* their signature goes */
	for (end = 0; end < n; end++)
		if (lens[end] == 3 && !memcmp(lines[end], "-- ", 3))
			break;
	while (end && is_blank_line(lines[end - 1], lens[end - 1]))
		end--;
	/* the last paragraph of their own words (not a quote) */
	for (i = end; i-- > 0;)
		if (lens[i] && lines[i][0] != '>' &&
		    !is_blank_line(lines[i], lens[i])) {
			last = i;
			own_found = 1;
			break;
		}
	at = end;
	if (own_found) {
		for (start = last;
		     start > 0 && lens[start - 1] &&
		     lines[start - 1][0] != '>' &&
		     !is_blank_line(lines[start - 1], lens[start - 1]);
		     start--)
			;
		at = last + 1;
		if (sign_off(lines, lens, start, last + 1)) {
			/* the paragraph of own words before the sign-off */
			for (i = start; i-- > 0;)
				if (lens[i] && lines[i][0] != '>' &&
				    !is_blank_line(lines[i], lens[i])) {
					at = i + 1;
					break;
				}
		}
	}
	quote_lines(head, lines, lens, 0, at);
	quote_lines(tail, lines, lens, at, end);
	free(lines);
	free(lens);
}

/* "Tue, Jul 06, 2021 at 11:08:54AM +0200": mutt's date in the attribution */
static void attribution_date(struct strbuf *out, const struct followup *f)
{
	time_t local = (time_t)(f->date + (int64_t)f->tz * 60);
	int tz = f->tz < 0 ? -f->tz : f->tz;
	struct tm tm;
	char buf[64];

	gmtime_r(&local, &tm);
	strftime(buf, sizeof(buf), "%a, %b %d, %Y at %I:%M:%S%p", &tm);
	strbuf_addf(out, "%s %c%02d%02d", buf, f->tz < 0 ? '-' : '+', tz / 60,
		    tz % 60);
}

/* ---- the blocks ---- */

/*
 * Whether their patch is quoted: robot leaves it out when its own
 * statement names the patch it applied; the operator's own words
 * (`statement`), or a reply that applied none, quote the mail whole, as
 * the robot account's follow-up of 2020-03-26 quotes the fix it tested.
 */
static int quote_patch(const struct reply_view *v)
{
	return !v->applied || v->statement;
}

static int b_quote(struct rrender *rr, struct strbuf *out)
{
	struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;
	int ret = 0;

	reply_quote_split(rr->v->parent->text, quote_patch(rr->v), &head,
			  &tail);
	if (head.len) {
		/* first fit: a mail without a Date is answered "NAME wrote:" */
		ret = expand_first_fit(rr, out, "reply-attribution");
		if (!ret) {
			strbuf_addch(out, '\n');
			strbuf_addbuf(out, &head);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_release(&head);
	strbuf_release(&tail);
	return ret;
}

static int b_tail(struct rrender *rr, struct strbuf *out)
{
	struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;

	reply_quote_split(rr->v->parent->text, quote_patch(rr->v), &head,
			  &tail);
	if (tail.len) {
		strbuf_addch(out, '\n');
		strbuf_addbuf(out, &tail);
	}
	strbuf_release(&head);
	strbuf_release(&tail);
	return 0;
}

/* The characters of s[0..n) (UTF-8 continuation bytes do not count). */
static size_t columns(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/*
 * Appends `text` with each paragraph (lines up to an empty one) filled
 * to `width` columns at blanks; a word longer than that has a line.
 */
static void fill(struct strbuf *out, const char *text, size_t width)
{
	const char *p = text;
	size_t col = 0;

	while (*p) {
		size_t n;

		if (*p == '\n' && (p[1] == '\n' || !p[1])) {
			/* a paragraph ends: its empty lines stay */
			while (*p == '\n') {
				strbuf_addch(out, '\n');
				p++;
			}
			col = 0;
			continue;
		}
		if (*p == ' ' || *p == '\n') {
			p++;
			continue;
		}
		n = strcspn(p, " \n");
		if (col && col + 1 + n > width) {
			strbuf_addch(out, '\n');
			col = 0;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, n);
		col += columns(p, n);
		p += n;
	}
}

static int b_statement(struct rrender *rr, struct strbuf *out)
{
	const char *own = rr->v->statement;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (own) {
		/* the operator's words, as written: no fill */
		size_t n = strlen(own);

		while (n && own[n - 1] == '\n')
			n--;
		strbuf_add(out, own, n);
		return 0;
	}
	ret = b_statement_text(rr, &sb);

	if (!ret)
		fill(out, sb.buf, 72);
	strbuf_release(&sb);
	return ret;
}

static int b_statement_text(struct rrender *rr, struct strbuf *out)
{
	static const char *const suffix[] = {
		[REPLY_UNJUDGED] = "",
		[REPLY_GONE] = "-gone",
		[REPLY_STILL] = "-still",
		[REPLY_TURNED] = "-turned",
	};
	const struct reply_view *v = rr->v;

	if (!v->applied)
		return expand_file(rr, out, "reply-none");
	return expand_block(rr, out, "reply-applied",
			    v->kpi ? suffix[v->verdict] : "");
}

static int b_tested(struct rrender *rr, struct strbuf *out)
{
	int ret;

	if (!rr->v->tested_by)
		return 0;
	ret = expand_block(rr, out, "rtested", NULL);
	if (!ret)
		strbuf_addstr(out, "\n\n");
	return ret;
}

static int b_remark(struct rrender *rr, struct strbuf *out)
{
	const char *r = rr->v->remark;
	size_t n;

	if (!r || !*r)
		return 0;
	n = strlen(r);
	strbuf_addstr(out, r);
	if (r[n - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addch(out, '\n');
	return 0;
}

/* The patch, by its subject when it has one: `reply-patch`, first fit. */
static int f_patch(struct rrender *rr, struct strbuf *out)
{
	return expand_first_fit(rr, out, "reply-patch");
}

static int f_parent_date(struct rrender *rr, struct strbuf *out)
{
	if (!rr->v->parent->has_date) {
		if (rr->lenient)
			return value(rr, out, "parent_date", NULL);
		/* the follow-up is the input at fault, not the template */
		error_status = EXIT_DATAERR;
		return error("%s: Date: missing, or not a date of the years "
			     "1900 to 9999",
			     rr->v->parent->path);
	}
	attribution_date(out, rr->v->parent);
	return 0;
}

static int f_first_name(struct rrender *rr, struct strbuf *out)
{
	size_t len = out->len;

	followup_first_name(rr->v->parent, out);
	return out->len > len ? 0 : value(rr, out, "first_name", NULL);
}

/* Commit line values. */
static int f_abbrev(struct rrender *rr, struct strbuf *out, const char *name,
		    size_t n)
{
	const char *id = rr->ci ? rr->ci->id : NULL;

	if (!id || strlen(id) < n)
		return value(rr, out, name, NULL);
	strbuf_add(out, id, n);
	return 0;
}

static int f_sha9(struct rrender *rr, struct strbuf *out)
{
	return f_abbrev(rr, out, "sha9", 9);
}

static int f_sha10(struct rrender *rr, struct strbuf *out)
{
	return f_abbrev(rr, out, "sha10", 10);
}

static int f_sha12(struct rrender *rr, struct strbuf *out)
{
	return f_abbrev(rr, out, "sha12", 12);
}

static int f_sha13(struct rrender *rr, struct strbuf *out)
{
	return f_abbrev(rr, out, "sha13", 13);
}

static int f_id(struct rrender *rr, struct strbuf *out)
{
	return value(rr, out, "id", rr->ci ? rr->ci->id : NULL);
}

static int f_tag(struct rrender *rr, struct strbuf *out)
{
	return value(rr, out, "tag", rr->ci ? rr->ci->tag : NULL);
}

static int f_subject(struct rrender *rr, struct strbuf *out)
{
	return value(rr, out, "subject", rr->ci ? rr->ci->subject : NULL);
}

#define V(field) offsetof(struct reply_view, field)

static const struct {
	const char *name;
	size_t offset; /* a string of struct reply_view, or ... */
	int (*fn)(struct rrender *rr, struct strbuf *out); /* ... this */
} fields[] = {
	{ "quote", 0, b_quote },
	{ "tail", 0, b_tail },
	{ "statement", 0, b_statement },
	{ "tested", 0, b_tested },
	{ "remark", 0, b_remark },
	{ "patch", 0, f_patch },
	{ "parent_date", 0, f_parent_date },
	{ "first_name", 0, f_first_name },
	{ "sha9", 0, f_sha9 },
	{ "sha10", 0, f_sha10 },
	{ "sha12", 0, f_sha12 },
	{ "sha13", 0, f_sha13 },
	{ "id", 0, f_id },
	{ "tag", 0, f_tag },
	{ "subject", 0, f_subject },
	{ "sender_name", V(sender_name), NULL },
	{ "tested_by", V(tested_by), NULL },
	{ "tables", V(tables), NULL },
	{ "patch_subject", V(patch_subject), NULL },
	{ "patch_ref", V(patch_ref), NULL },
	{ "bad_line", V(bad_line), NULL },
	{ "kpi", V(kpi), NULL },
	{ "kind", V(kind), NULL },
	{ "bad_pct", V(bad_pct), NULL },
	{ "fix_pct", V(fix_pct), NULL },
	{ "fix_kind", V(fix_kind), NULL },
};

static int rlookup(void *ctx, const char *name, struct strbuf *out)
{
	struct rrender *rr = ctx;
	size_t i;

	/* {t.NAME}: the block NAME ('_' for '-') in its variant */
	if (!strncmp(name, "t.", 2) && name[2]) {
		char *block = xstrdup(name + 2), *p;
		int ret;

		for (p = block; *p; p++)
			if (*p == '_')
				*p = '-';
		ret = expand_block(rr, out, block, NULL);
		free(block);
		return ret;
	}
	if (!strcmp(name, "parent_name"))
		return value(rr, out, name,
			     followup_sender_name(rr->v->parent));
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (strcmp(fields[i].name, name))
			continue;
		if (fields[i].fn)
			return fields[i].fn(rr, out);
		return value(rr, out, name,
			     *(const char *const *)((const char *)rr->v +
						    fields[i].offset));
	}
	return 1;
}

static const char *reply_set(const struct style *st)
{
	const char *set = style_get(st, "rset");

	if (!set)
		error("style %s: no 'rset' row in config/data/styles (the "
		      "templates of replies)",
		      st->date);
	return set;
}

int reply_render(struct strbuf *body, const struct reply_view *v)
{
	struct rrender rr = { .v = v };
	size_t len = body->len;
	int ret;

	rr.set = reply_set(v->st);
	if (!rr.set)
		return -1;
	ret = expand_file(&rr, body, "reply");
	if (ret)
		strbuf_setlen(body, len);
	return ret;
}

int reply_commit_line(struct strbuf *out, const struct style *st,
		      const struct commit_info *ci)
{
	struct reply_view v = { .st = st };
	struct rrender rr = { .v = &v, .ci = ci };

	rr.set = reply_set(st);
	if (!rr.set)
		return -1;
	return expand_first_fit(&rr, out, "rcommit");
}

void reply_table_layout(struct strbuf *block, const struct style *st)
{
	const char *strip = style_get(st, "rstrip");
	struct strbuf sb = STRBUF_INIT;
	const char *p = block->buf;

	if (!strip || strcmp(strip, "1"))
		return;
	while (*p) {
		size_t len = strcspn(p, "\n"), n = len;

		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		strbuf_add(&sb, p, n);
		if (p[len] == '\n')
			strbuf_addch(&sb, '\n');
		p += len + (p[len] == '\n');
	}
	strbuf_reset(block);
	strbuf_addbuf(block, &sb);
	strbuf_release(&sb);
}
