// SPDX-License-Identifier: GPL-2.0-only
/*
 * commits.c: robot's commit metadata without libgit2: the commit-metadata
 * file, the checks both sources share, and small helpers the report needs
 * (short id, subsystem, dates).
 *
 * The file is parsed through config/'s YAML tree, strictly: the schema in
 * commits.h is fixed, every value is type-checked and every string that can
 * reach a mail header must be one line of valid UTF-8.  The same rules are
 * applied to what a repository gives (commit_info_check), so a commit looks
 * the same whichever source it came from, and commit_info_write() writes a
 * file that loads back into an identical commit_info.
 *
 * Dates are kept as git keeps them, seconds since the epoch plus the zone
 * in minutes; the file spells them "YYYY-MM-DD hh:mm:ss +hhmm", converted
 * with plain calendar arithmetic so neither TZ nor the C library's idea of
 * time zones takes part.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "git/commits.h"
#include "config/yaml.h"

#include <time.h>

/* What a string may contain besides printable UTF-8 (see text_ok). */
enum text_kind {
	TEXT_LINE, /* one line for a header: visible text (utf8.h) */
	TEXT_BODY, /* free text, never shown: TAB, LF, invisible text */
};

static int is_lower_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int valid_id(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!is_lower_hex((unsigned char)s[i]))
			return 0;
	return i == 40;
}

static int text_ok(const char *s, enum text_kind kind)
{
	/* the body is never shown: only what a line holds must be visible */
	return !utf8_check_text(
		s, kind == TEXT_BODY ? UTF8_NEWLINES | UTF8_INVISIBLE : 0,
		NULL);
}

static int valid_name(const char *s)
{
	return *s && text_ok(s, TEXT_LINE) && !strpbrk(s, "<>") &&
	       s[0] != ' ' && s[strlen(s) - 1] != ' ';
}

static int valid_email(const char *s)
{
	return text_ok(s, TEXT_LINE) && !strpbrk(s, "<>");
}

static int valid_trailer_key(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!(s[i] == '-' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z')))
			return 0;
	return len > 0;
}

static int valid_zone(int tz)
{
	return tz > -24 * 60 && tz < 24 * 60;
}

void commit_info_release(struct commit_info *ci)
{
	size_t i;

	free(ci->id);
	free(ci->subject);
	free(ci->tag);
	free(ci->author_name);
	free(ci->author_email);
	free(ci->committer_name);
	free(ci->committer_email);
	free(ci->body);
	for (i = 0; i < ci->trailers_nr; i++) {
		free(ci->trailers[i].key);
		free(ci->trailers[i].value);
	}
	free(ci->trailers);
	free(ci->parent);
	free(ci->release);
	memset(ci, 0, sizeof(*ci));
}

static int check_ident(const char *name, const char *email, int tz,
		       const char *what, const char *where)
{
	if (!name)
		return 0;
	if (!valid_name(name))
		return error("%s: '%s' name must be one line of valid UTF-8 "
			     "without '<' or '>'",
			     where, what);
	if (!email || !valid_email(email))
		return error("%s: '%s' email must be one line of valid UTF-8 "
			     "without '<' or '>'",
			     where, what);
	if (!valid_zone(tz))
		return error("%s: '%s' date has an impossible zone", where,
			     what);
	return 0;
}

int commit_info_check(const struct commit_info *ci, const char *where)
{
	const char *line[] = { ci->subject, ci->tag, ci->release };
	const char *line_key[] = { "subject", "tag", "release" };
	size_t i;

	if (!ci->id || !valid_id(ci->id))
		return error("%s: 'id' must be 40 lowercase hex digits", where);
	if (ci->parent && !valid_id(ci->parent))
		return error("%s: 'parent' must be 40 lowercase hex digits",
			     where);
	for (i = 0; i < ARRAY_SIZE(line); i++)
		if (line[i] && !text_ok(line[i], TEXT_LINE))
			return error("%s: '%s' must be one line of valid "
				     "UTF-8",
				     where, line_key[i]);
	if (check_ident(ci->author_name, ci->author_email, ci->author_tz,
			"author", where) ||
	    check_ident(ci->committer_name, ci->committer_email,
			ci->committer_tz, "committer", where))
		return -1;
	if (ci->body && !text_ok(ci->body, TEXT_BODY))
		return error("%s: 'body' must be valid UTF-8 without control "
			     "characters other than TAB and LF",
			     where);
	for (i = 0; i < ci->trailers_nr; i++) {
		const struct commit_trailer *t = &ci->trailers[i];

		if (!valid_trailer_key(t->key, strlen(t->key)) || !*t->value ||
		    !text_ok(t->value, TEXT_LINE))
			return error("%s: trailer '%s' must be 'Key: value' "
				     "on one line of valid UTF-8",
				     where, t->key);
	}
	return 0;
}

char *commit_short_id(const struct commit_info *ci, size_t len)
{
	return xstrndup(ci->id, len);
}

int commit_subsystem(const struct commit_info *ci, struct strbuf *out)
{
	const char *s = ci->subject, *colon, *end, *dash;

	if (!s)
		return -1;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[' && (end = strchr(s, ']'))) {
			s = end + 1;
			continue;
		}
		/*
		 * A mail's reply prefix is no subsystem: "Re: [RFC] what to
		 * do with IOCB_DSYNC?" has none (functional 430).
		 */
		if (!strncasecmp(s, "re: ", 4)) {
			s += 4;
			continue;
		}
		break;
	}
	colon = strstr(s, ": ");
	if (!colon)
		return -1;
	end = colon;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	/*
	 * Blanks may be inside ("tools/power turbostat", "dax/hmem, e820,
	 * resource": functional 471, 470); a quoted phrase ('Reapply
	 * "serial', 472), an unclosed '[' or a tab make none.
	 */
	if (end == s || *s == '[' || memchr(s, '"', end - s) ||
	    memchr(s, '\t', end - s))
		return -1;
	/* up to a '-': "io_uring/io-wq" gives "io_uring/io" */
	dash = memchr(s, '-', end - s);
	if (dash)
		end = dash;
	if (end == s)
		return -1;
	strbuf_add(out, s, end - s);
	return 0;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int y, int m, int d)
{
	/* Count years from March, so the leap day ends the year. */
	int64_t yy = m <= 2 ? y - 1 : y;
	int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t yoe = yy - era * 400;
	int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/* Reads exactly n decimal digits. */
static int digits(const char *s, int n, int *out)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int commit_date_parse(const char *s, int64_t *time, int *tz)
{
	/* "2023-04-18 10:21:55 +0800" */
	int y, mo, d, h, mi, sec, zh, zm;

	if (strlen(s) != 25 || s[4] != '-' || s[7] != '-' || s[10] != ' ' ||
	    s[13] != ':' || s[16] != ':' || s[19] != ' ' ||
	    (s[20] != '+' && s[20] != '-'))
		return -1;
	if (digits(s, 4, &y) || digits(s + 5, 2, &mo) || digits(s + 8, 2, &d) ||
	    digits(s + 11, 2, &h) || digits(s + 14, 2, &mi) ||
	    digits(s + 17, 2, &sec) || digits(s + 21, 2, &zh) ||
	    digits(s + 23, 2, &zm))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 ||
	    mi > 59 || sec > 59 || zh > 23 || zm > 59)
		return -1;
	*tz = (s[20] == '-' ? -1 : 1) * (zh * 60 + zm);
	*time = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec -
		(int64_t)*tz * 60;
	return 0;
}

void commit_date_format(struct strbuf *out, int64_t time, int tz)
{
	time_t local = (time_t)(time + (int64_t)tz * 60);
	int off = tz < 0 ? -tz : tz;
	struct tm tm;

	if (!gmtime_r(&local, &tm)) {
		strbuf_addf(out, "@%lld", (long long)time);
		return;
	}
	strbuf_addf(out, "%04d-%02d-%02d %02d:%02d:%02d %c%02d%02d",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, tz < 0 ? '-' : '+', off / 60,
		    off % 60);
}

/* Splits "Name <email>" strictly (see commits.h). */
static int parse_ident(const char *s, char **name, char **email)
{
	const char *lt = strchr(s, '<');
	size_t len = strlen(s);

	if (!lt || lt == s || lt[-1] != ' ' || len < 2 || s[len - 1] != '>')
		return -1;
	*name = xstrndup(s, lt - 1 - s);
	*email = xstrndup(lt + 1, s + len - 1 - (lt + 1));
	if (!valid_name(*name) || !valid_email(*email)) {
		free(*name);
		free(*email);
		*name = *email = NULL;
		return -1;
	}
	return 0;
}

static void trailer_add(struct commit_info *ci, const char *key, size_t keylen,
			const char *value)
{
	struct commit_trailer *t;

	ALLOC_GROW(ci->trailers, ci->trailers_nr + 1, ci->trailers_alloc);
	t = &ci->trailers[ci->trailers_nr++];
	t->key = xstrndup(key, keylen);
	t->value = xstrdup(value);
}

/* "Key: value" from the file's trailers list. */
static int parse_trailer(struct commit_info *ci, const char *s)
{
	const char *colon = strchr(s, ':'), *v;

	if (!colon || !valid_trailer_key(s, colon - s))
		return -1;
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	if (!*v || !text_ok(v, TEXT_LINE))
		return -1;
	trailer_add(ci, s, colon - s, v);
	return 0;
}

/* YAML null, the one scalar that is not a string: `key:`, `~`, `null`. */
static int is_null(const struct ynode *v)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	size_t i;

	if (v->type != YNODE_SCALAR || v->quoted)
		return 0;
	for (i = 0; i < ARRAY_SIZE(nulls); i++)
		if (!strcmp(v->str, nulls[i]))
			return 1;
	return 0;
}

struct field_ctx {
	const char *path;
	const char *key;
	size_t line;
	int have_date[2]; /* author_date, committer_date seen */
};

#define FIELD_ERROR(ctx, what)                                              \
	error("%s:%zu: commits: '%s' must be %s", (ctx)->path, (ctx)->line, \
	      (ctx)->key, what)

static int set_line(char **dst, const char *s, const struct field_ctx *ctx)
{
	if (!text_ok(s, TEXT_LINE))
		return FIELD_ERROR(ctx, "one line of valid UTF-8");
	*dst = xstrdup(s);
	return 0;
}

static int set_id(char **dst, const char *s, const struct field_ctx *ctx)
{
	if (!valid_id(s))
		return FIELD_ERROR(ctx, "40 lowercase hex digits");
	*dst = xstrdup(s);
	return 0;
}

static int set_body(struct commit_info *ci, const char *s,
		    const struct field_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;

	if (!text_ok(s, TEXT_BODY))
		return FIELD_ERROR(ctx, "valid UTF-8 without control "
					"characters other than TAB and LF");
	strbuf_addstr(&sb, s);
	strbuf_rtrim(&sb);
	if (sb.len)
		ci->body = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return 0;
}

static int set_trailers(struct commit_info *ci, const struct ynode *v,
			const struct field_ctx *ctx)
{
	size_t i;

	if (v->type != YNODE_SEQ)
		return FIELD_ERROR(ctx, "a list of \"Key: value\" strings");
	for (i = 0; i < v->n; i++) {
		const struct ynode *t = v->kids[i];

		if (t->type != YNODE_SCALAR || is_null(t) ||
		    parse_trailer(ci, t->str))
			return error("%s:%zu: commits: 'trailers' entries must "
				     "be \"Key: value\" on one line of valid "
				     "UTF-8",
				     ctx->path, t->line);
	}
	return 0;
}

static int set_field(struct commit_info *ci, const struct ynode *v,
		     struct field_ctx *ctx)
{
	const char *key = ctx->key;
	const char *s = v->str;

	if (!strcmp(key, "trailers"))
		return set_trailers(ci, v, ctx);
	if (v->type != YNODE_SCALAR || is_null(v))
		return FIELD_ERROR(ctx, "a string");
	if (!strcmp(key, "id"))
		return set_id(&ci->id, s, ctx);
	if (!strcmp(key, "parent"))
		return set_id(&ci->parent, s, ctx);
	if (!strcmp(key, "subject"))
		return set_line(&ci->subject, s, ctx);
	if (!strcmp(key, "tag"))
		return set_line(&ci->tag, s, ctx);
	if (!strcmp(key, "release"))
		return set_line(&ci->release, s, ctx);
	if (!strcmp(key, "body"))
		return set_body(ci, s, ctx);
	if (!strcmp(key, "author")) {
		if (parse_ident(s, &ci->author_name, &ci->author_email))
			return FIELD_ERROR(ctx, "\"Name <email>\" on one line "
						"of valid UTF-8");
		return 0;
	}
	if (!strcmp(key, "committer")) {
		if (parse_ident(s, &ci->committer_name, &ci->committer_email))
			return FIELD_ERROR(ctx, "\"Name <email>\" on one line "
						"of valid UTF-8");
		return 0;
	}
	if (!strcmp(key, "author_date")) {
		ctx->have_date[0] = 1;
		if (commit_date_parse(s, &ci->author_time, &ci->author_tz))
			return FIELD_ERROR(ctx,
					   "\"YYYY-MM-DD hh:mm:ss +hhmm\"");
		return 0;
	}
	if (!strcmp(key, "committer_date")) {
		ctx->have_date[1] = 1;
		if (commit_date_parse(s, &ci->committer_time,
				      &ci->committer_tz))
			return FIELD_ERROR(ctx,
					   "\"YYYY-MM-DD hh:mm:ss +hhmm\"");
		return 0;
	}
	return error("%s:%zu: commits: unknown key '%s'", ctx->path, ctx->line,
		     key);
}

static int load_one(struct commit_info *ci, const struct ynode *map,
		    const char *path)
{
	struct field_ctx ctx = { .path = path };
	size_t i;

	if (map->type != YNODE_MAP)
		return error("%s:%zu: commits: each entry must be a mapping",
			     path, map->line);
	for (i = 0; i < map->n; i++) {
		ctx.key = map->keys[i];
		ctx.line = map->kids[i]->line;
		if (set_field(ci, map->kids[i], &ctx))
			return -1;
	}
	if (!ci->id)
		return error("%s:%zu: commits: 'id' is missing", path,
			     map->line);
	if (!ci->author_name != !ctx.have_date[0])
		return error("%s:%zu: commits: 'author' and 'author_date' go "
			     "together",
			     path, map->line);
	if (!ci->committer_name != !ctx.have_date[1])
		return error("%s:%zu: commits: 'committer' and "
			     "'committer_date' go together",
			     path, map->line);
	return 0;
}

/*
 * Adds commit `k` of the set to the ids seen (open addressing, `mask` + 1
 * slots of index + 1); returns 0, or -1 if its id was there already.
 */
static int id_seen(size_t *slot, size_t mask, const struct commit_set *set,
		   size_t k)
{
	const char *id = set->c[k].id;
	size_t i = (size_t)fnv1a64(FNV64_INIT, id, strlen(id)) & mask;

	for (; slot[i]; i = (i + 1) & mask)
		if (!strcmp(set->c[slot[i] - 1].id, id))
			return -1;
	slot[i] = k + 1;
	return 0;
}

static int load_list(struct commit_set *set, const struct ynode *list,
		     const char *path)
{
	size_t i, size = 16, *slot;
	int ret = 0;

	while (size < list->n * 2)
		size *= 2;
	slot = xcalloc(size, sizeof(*slot));
	for (i = 0; !ret && i < list->n; i++) {
		struct commit_info *ci;

		ALLOC_GROW(set->c, set->nr + 1, set->alloc);
		ci = &set->c[set->nr++];
		memset(ci, 0, sizeof(*ci));
		if (load_one(ci, list->kids[i], path))
			ret = -1;
		else if (id_seen(slot, size - 1, set, set->nr - 1))
			ret = error("%s:%zu: commits: duplicate id '%s'", path,
				    list->kids[i]->line, ci->id);
	}
	free(slot);
	return ret;
}

int commits_load_file(struct commit_set *set, const char *path)
{
	struct ydoc doc = { 0 };
	const struct ynode *list;
	size_t i;
	int ret = 0;

	memset(set, 0, sizeof(*set));
	if (ydoc_load_file(&doc, path) < 0)
		return -1;
	if (!doc.root || doc.root->type != YNODE_MAP) {
		ret = error("%s: commit metadata must be a mapping", path);
		goto out;
	}
	for (i = 0; i < doc.root->n; i++)
		if (strcmp(doc.root->keys[i], "commits")) {
			ret = error("%s:%zu: unknown key '%s'", path,
				    doc.root->kids[i]->line, doc.root->keys[i]);
			goto out;
		}
	list = ynode_get(doc.root, "commits");
	if (!list || list->type != YNODE_SEQ) {
		ret = error("%s: 'commits' must be a list", path);
		goto out;
	}
	ret = load_list(set, list, path);
out:
	ydoc_release(&doc);
	if (ret)
		commits_release(set);
	return ret;
}

void commits_release(struct commit_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		commit_info_release(&set->c[i]);
	free(set->c);
	memset(set, 0, sizeof(*set));
}

const struct commit_info *commits_find(const struct commit_set *set,
				       const char *id)
{
	const struct commit_info *found = NULL;
	size_t len = strlen(id), i;

	if (len < 7)
		return NULL;
	for (i = 0; i < set->nr; i++)
		if (!strncmp(set->c[i].id, id, len)) {
			if (found)
				return NULL;
			found = &set->c[i];
		}
	return found;
}

/*
 * Appends s as a YAML double-quoted scalar.  Besides '"' and '\', every
 * character YAML would fold or refuse is escaped: control characters
 * (LF too, so a body stays on one line), the separators and BOM.
 */
static void add_quoted(struct strbuf *out, const char *s)
{
	size_t len = strlen(s), i = 0, n;

	strbuf_addch(out, '"');
	while (i < len) {
		uint32_t cp;

		n = utf8_char(s + i, len - i, &cp);
		if (!n) /* not reached for checked input */
			BUG("invalid UTF-8 in commit metadata");
		if (cp == '"' || cp == '\\')
			strbuf_addf(out, "\\%c", (int)cp);
		else if (cp == '\n')
			strbuf_addstr(out, "\\n");
		else if (cp == '\t')
			strbuf_addstr(out, "\\t");
		else if (utf8_is_control(cp) || cp == 0xfeff || cp == 0xfffe ||
			 cp == 0xffff)
			strbuf_addf(out, "\\u%04lx", (unsigned long)cp);
		else
			strbuf_add(out, s + i, n);
		i += n;
	}
	strbuf_addch(out, '"');
}

static void add_field(struct strbuf *out, const char *key, const char *s)
{
	if (!s)
		return;
	strbuf_addf(out, "  %s: ", key);
	add_quoted(out, s);
	strbuf_addch(out, '\n');
}

static void add_ident(struct strbuf *out, const char *key, const char *name,
		      const char *email, int64_t time, int tz)
{
	struct strbuf sb = STRBUF_INIT;

	if (!name)
		return;
	strbuf_addf(&sb, "%s <%s>", name, email ? email : "");
	add_field(out, key, sb.buf);
	strbuf_reset(&sb);
	commit_date_format(&sb, time, tz);
	strbuf_addf(out, "  %s_date: \"%s\"\n", key, sb.buf);
	strbuf_release(&sb);
}

void commit_info_write(struct strbuf *out, const struct commit_info *ci)
{
	size_t i;

	strbuf_addf(out, "- id: %s\n", ci->id);
	add_field(out, "subject", ci->subject);
	add_field(out, "tag", ci->tag);
	add_ident(out, "author", ci->author_name, ci->author_email,
		  ci->author_time, ci->author_tz);
	add_ident(out, "committer", ci->committer_name, ci->committer_email,
		  ci->committer_time, ci->committer_tz);
	if (ci->parent)
		strbuf_addf(out, "  parent: %s\n", ci->parent);
	add_field(out, "release", ci->release);
	add_field(out, "body", ci->body);
	if (ci->trailers_nr)
		strbuf_addstr(out, "  trailers:\n");
	for (i = 0; i < ci->trailers_nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s: %s", ci->trailers[i].key,
			    ci->trailers[i].value);
		strbuf_addstr(out, "  - ");
		add_quoted(out, sb.buf);
		strbuf_addch(out, '\n');
		strbuf_release(&sb);
	}
}
