// SPDX-License-Identifier: GPL-2.0-only
/*
 * style.c: reading the dated style table.  The table is small (tens of
 * rows), so it is read whole and scanned; later rows for the same key win
 * as long as their date is not after the style's day.  Rows must be in
 * date order, which keeps the file readable as a history.
 *
 * A key written KEY@OPERATOR is a row of one operator's own layout: it
 * applies only to reports that operator sends (the local part of the From
 * address), and for them it wins over the rows of KEY for everyone, dated
 * before or after it.
 */
#include "robot/util/common.h"
#include "config/style.h"
#include "config/data.h"

#include <ctype.h>
#include <glob.h>
#include <unistd.h>

#define STYLE_FILE  "config/data/styles"
#define LAYOUT_FILE "config/data/layouts"

static const struct {
	const char *alias;
	const char *date;
} aliases[] = {
	{ "2016", "2016-07-25" },
	{ "2021", "2021-06-15" },
	{ "2023", "2023-06-07" },
	{ "2025", "2025-06-15" },
};

static int valid_date(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int y, m, d, i;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	y = atoi(s);
	m = atoi(s + 5);
	d = atoi(s + 8);
	return y >= 1970 && m >= 1 && m <= 12 && d >= 1 && d <= mdays[m - 1];
}

int style_resolve(const char *spec, char date[11])
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(spec, aliases[i].alias)) {
			memcpy(date, aliases[i].date, 11);
			return 0;
		}
	if (!valid_date(spec))
		return error("unknown style '%s' (want YYYY-MM-DD or one of "
			     "2016, 2021, 2023, 2025)",
			     spec);
	memcpy(date, spec, 11);
	return 0;
}

static void style_set(struct style *st, const char *key, const char *value,
		      int own)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (!strcmp(st->entries[i].key, key)) {
			/* the operator's own row stays over everyone's */
			if (st->entries[i].own && !own)
				return;
			free(st->entries[i].value);
			st->entries[i].value = xstrdup(value);
			st->entries[i].own = own;
			return;
		}
	ALLOC_GROW(st->entries, st->nr + 1, st->alloc);
	st->entries[st->nr].key = xstrdup(key);
	st->entries[st->nr].value = xstrdup(value);
	st->entries[st->nr].own = own;
	st->nr++;
}

/* Splits one row into its three fields; the value may contain blanks. */
static int parse_row(char *line, char **date, char **key, char **value)
{
	char *p = line;

	*date = p;
	p += strcspn(p, " \t");
	if (!*p)
		return -1;
	*p++ = '\0';
	p += strspn(p, " \t");
	*key = p;
	p += strcspn(p, " \t");
	if (!*p)
		return -1;
	*p++ = '\0';
	p += strspn(p, " \t");
	*value = p;
	p += strlen(p);
	while (p > *value && (p[-1] == ' ' || p[-1] == '\t'))
		*--p = '\0';
	return **value ? 0 : -1;
}

static int load_rows(struct style *st, char *text, const char *path,
		     const char *operator)
{
	char prev[11] = "0000-00-00";
	char *line, *next;
	int lineno = 0;

	for (line = text; line && *line; line = next) {
		char *date, *key, *value, *at;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		if (parse_row(line, &date, &key, &value) || !valid_date(date))
			return error("%s:%d: malformed row (want DATE KEY "
				     "VALUE)",
				     path, lineno);
		if (strcmp(date, prev) < 0)
			return error("%s:%d: row dated %s is out of order",
				     path, lineno, date);
		memcpy(prev, date, 11);
		if (strcmp(date, st->date) > 0)
			continue;
		at = strchr(key, '@');
		if (at == key || (at && !at[1]))
			return error("%s:%d: malformed key '%s' (want KEY or "
				     "KEY@OPERATOR)",
				     path, lineno, key);
		if (!at) {
			style_set(st, key, value, 0);
		} else if (operator&& !strcmp(at + 1, operator)) {
			*at = '\0';
			style_set(st, key, value, 1);
		}
	}
	return 0;
}

int style_load(struct style *st, const char *date)
{
	return style_load_for(st, date, NULL);
}

int style_load_for(struct style *st, const char *date, const char *operator)
{
	return style_load_table(st, date, operator, STYLE_FILE);
}

int style_load_table(struct style *st, const char *date, const char *operator,
		     const char * table)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!valid_date(date))
		return error("invalid style date '%s'", date);
	memcpy(st->date, date, 11);
	if (data_read(&sb, table) < 0)
		return -1;
	path = data_path(table);
	ret = load_rows(st, sb.buf, path, operator);
	if (!ret && !st->nr)
		ret = error("%s: no style is known for %s", path, date);
	free(path);
	strbuf_release(&sb);
	if (ret)
		style_release(st);
	return ret;
}

void style_release(struct style *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++) {
		free(st->entries[i].key);
		free(st->entries[i].value);
	}
	free(st->entries);
	st->entries = NULL;
	st->nr = st->alloc = 0;
}

static void style_unset(struct style *st, const char *key)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (!strcmp(st->entries[i].key, key)) {
			free(st->entries[i].key);
			free(st->entries[i].value);
			st->entries[i] = st->entries[--st->nr];
			return;
		}
}

/* Is `word` one of the blank-separated words of `list`? */
static int has_word(const char *list, const char *word)
{
	size_t len = strlen(word);
	const char *p = list;

	while (*(p += strspn(p, " \t"))) {
		size_t n = strcspn(p, " \t");

		if (n == len && !memcmp(p, word, len))
			return 1;
		p += n;
	}
	return 0;
}

/* The values of `key` in the layouts table `text`, or NULL (caller frees). */
static char *layout_values(const char *text, const char *key, size_t klen)
{
	const char *line, *end;

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (*line != '#' && !strncmp(line, key, klen) &&
		    (line[klen] == ' ' || line[klen] == '\t'))
			return xstrndup(line + klen, end - line - klen);
	}
	return NULL;
}

/* Has templates/SET a file NAME, or NAME with a data suffix (NAME-*)? */
static int set_has(const char *set, const char *name)
{
	char *rel = xasprintf("templates/%s/%s", set, name);
	char *path = data_path(rel), *pattern;
	glob_t g;
	int ok = !access(path, F_OK);

	if (!ok) {
		pattern = xasprintf("%s-*", path);
		ok = !glob(pattern, GLOB_NOSORT, NULL, &g);
		if (ok)
			globfree(&g);
		free(pattern);
	}
	free(path);
	free(rel);
	return ok;
}

/*
 * Can the style's template set render the layout KEY VALUE?  A key no
 * file is named after is a value of the code (fsubject_prefix_max);
 * `default` is the key's own file.  Key and value are words of the
 * layouts table, no glob pattern.
 */
static int layout_file(const struct style *st, const char *key,
		       const char *value)
{
	const char *set = style_get(st, "template");
	char *name;
	int ok;

	if (!set)
		return 0;
	if (!set_has(set, key) || !strcmp(value, "default"))
		return 1;
	name = xasprintf("%s-%s", key, value);
	ok = set_has(set, name);
	free(name);
	return ok;
}

static int layout_one(struct style *st, const char *text, const char *choice,
		      const char *file)
{
	size_t klen = strcspn(choice, " \t");
	const char *value = choice + klen + strspn(choice + klen, " \t");
	const char *now;
	char *values, *key;
	int ret = 0;

	if (!klen || !*value || value[strcspn(value, " \t")])
		return error("%s: layout: '%s': want KEY VALUE", file, choice);
	key = xstrndup(choice, klen);
	values = layout_values(text, key, klen);
	now = style_get(st, key);
	if (!now)
		now = "default";
	if (!values)
		ret = error("%s: layout: '%s' is no layout key (%s)", file, key,
			    LAYOUT_FILE);
	else if (!has_word(values, value))
		ret = error("%s: layout: %s: unknown value '%s' (want one "
			    "of %s)",
			    file, key, value, values + strspn(values, " \t"));
	else if (!has_word(values, now))
		ret = error("%s: layout: %s: the style of %s has '%s', which "
			    "is no layout of it",
			    file, key, st->date, now);
	else if (!layout_file(st, key, value))
		ret = error("%s: layout: %s: templates/%s has no layout '%s'",
			    file, key, style_get(st, "template"), value);
	else if (!strcmp(value, "default"))
		style_unset(st, key);
	else
		style_set(st, key, value, 1);
	free(key);
	free(values);
	return ret;
}

int style_layout(struct style *st, char *const *choices, size_t n,
		 const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (!n)
		return 0;
	if (data_read(&sb, LAYOUT_FILE) < 0)
		return -1;
	for (i = 0; i < n && !ret; i++)
		ret = layout_one(st, sb.buf, choices[i], file);
	strbuf_release(&sb);
	return ret;
}

const char *style_get(const struct style *st, const char *key)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (!strcmp(st->entries[i].key, key))
			return st->entries[i].value;
	return NULL;
}

int style_get_int(const struct style *st, const char *key, int *out)
{
	const char *v = style_get(st, key);
	char *end;
	long n;

	if (!v)
		return error("style %s: no value for '%s' in %s", st->date, key,
			     STYLE_FILE);
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < INT_MIN || n > INT_MAX)
		return error("style %s: '%s' is not an integer: '%s'", st->date,
			     key, v);
	*out = (int)n;
	return 0;
}
