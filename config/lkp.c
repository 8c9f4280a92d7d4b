// SPDX-License-Identifier: GPL-2.0-only
/*
 * lkp.c: the lkp-tests tables of config/data/lkp/ as they were on a date,
 * and the predicates of lib/stats.rb and lib/perf_metrics.rb over them.
 *
 * Patterns are Ruby regexps.  They are translated once, at load time, into
 * POSIX extended regexps: \d \w \s \h and their negations become bracket
 * expressions, (?: becomes (, lazy quantifiers become greedy ones (which
 * accept the same names), a { that starts no interval is a literal.  The
 * few lines with a lookahead, P(?!L)... or P(?=L)..., are kept as a
 * fixed-length head P, the lookaheads and a tail, matched piece by piece.
 * Anything else (lookbehind, backreferences, \b, possessive quantifiers)
 * is refused, naming the file and line.
 *
 * Speed: an unordered pattern list is grouped by the literal text its
 * patterns must start with (up to RX_KEY bytes); each group is compiled as
 * one alternation, so a name is tried against a few small regexps.
 */
#include "common.h"
#include "data.h"
#include "lkp.h"

#include <ctype.h>
#include <regex.h>

#define LKP_DIR "config/data/lkp/"
#define RX_KEY	4

/* How lkp-tests applied a pattern: =~ /P/, =~ /^P/ or =~ /^P$/. */
enum rx_mode { RX_SEARCH, RX_START, RX_FULL };

/* skip_function_stat? variants, see config/data/lkp/rules. */
enum skip_mode { SKIP_NONE, SKIP_SIBLING, SKIP_PASSED, SKIP_FAIL, SKIP_EWF };

/* ------------------------------------------------------------ data files */

struct entry {
	char *text;
	int line;
};

struct entries {
	struct entry *v;
	size_t nr, alloc;
};

static void entries_release(struct entries *e)
{
	for (size_t i = 0; i < e->nr; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

static void entries_add(struct entries *e, const char *text, size_t len,
			int line)
{
	ALLOC_GROW(e->v, e->nr + 1, e->alloc);
	e->v[e->nr].text = xstrndup(text, len);
	e->v[e->nr].line = line;
	e->nr++;
}

static int valid_date(const char *s, size_t len)
{
	static const char shape[] = "dddd-dd-dd";

	if (len != 10)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i])
				    : s[i] != shape[i])
			return 0;
	}
	return 1;
}

/* The next line of sb from *pos; returns its length, or -1 at the end. */
static long next_line(const struct strbuf *sb, size_t *pos, const char **line)
{
	const char *nl;
	size_t len;

	if (*pos >= sb->len)
		return -1;
	*line = sb->buf + *pos;
	nl = memchr(*line, '\n', sb->len - *pos);
	len = nl ? (size_t)(nl - *line) : sb->len - *pos;
	*pos += len + 1;
	return (long)len;
}

/* A data file: its contents and its full path, for messages. */
struct datafile {
	struct strbuf sb;
	char *path;
};

static int datafile_read(struct datafile *f, const char *name)
{
	char *rel = xasprintf(LKP_DIR "%s", name);
	int ret;

	strbuf_init(&f->sb, 0);
	f->path = data_path(rel);
	ret = data_read(&f->sb, rel);
	free(rel);
	return ret;
}

static void datafile_release(struct datafile *f)
{
	strbuf_release(&f->sb);
	free(f->path);
	f->path = NULL;
}

static void remove_entry(struct entries *out, size_t i)
{
	free(out->v[i].text);
	memmove(out->v + i, out->v + i + 1,
		(out->nr - i - 1) * sizeof(*out->v));
	out->nr--;
}

static int apply_change(struct datafile *f, int lineno, const char *ln,
			long len, struct entries *out)
{
	size_t i;

	if (*ln == '+') {
		entries_add(out, ln + 1, len - 1, lineno);
		return 0;
	}
	for (i = 0; i < out->nr; i++) {
		if (strlen(out->v[i].text) == (size_t)len - 1 &&
		    !memcmp(out->v[i].text, ln + 1, len - 1)) {
			remove_entry(out, i);
			return 0;
		}
	}
	return error("%s:%d: '%.*s' is not in the table", f->path, lineno,
		     (int)len - 1, ln + 1);
}

/*
 * Reads the version of a table in effect on `date`: the sections up to the
 * last one dated on or before it (the first section when the date is
 * older); "@since" starts afresh, "@change" adds (+) and removes (-)
 * entries.  The whole file is checked, also past the date.
 */
static int read_table(struct datafile *f, const char *date, struct entries *out)
{
	char last[11] = "";
	size_t pos = 0;
	const char *ln;
	long len;
	int lineno = 0, kind = 0, done = 0;

	while ((len = next_line(&f->sb, &pos, &ln)) >= 0) {
		const char *d;
		size_t dlen;

		lineno++;
		if (!len || *ln == '#')
			continue;
		if (*ln != '@') {
			if (!kind)
				return error("%s:%d: entry before the first "
					     "@since",
					     f->path, lineno);
			if (kind == 's') {
				if (!done)
					entries_add(out, ln, len, lineno);
				continue;
			}
			if (*ln != '+' && *ln != '-')
				return error("%s:%d: a @change line starts "
					     "with + or -",
					     f->path, lineno);
			if (!done && apply_change(f, lineno, ln, len, out) < 0)
				return -1;
			continue;
		}
		if (len > 7 && !memcmp(ln, "@since ", 7)) {
			d = ln + 7;
			kind = 's';
		} else if (len > 8 && !memcmp(ln, "@change ", 8)) {
			d = ln + 8;
			kind = 'c';
		} else {
			return error("%s:%d: unknown directive '%.*s'", f->path,
				     lineno, (int)len, ln);
		}
		dlen = strcspn(d, " \t\n");
		if (!valid_date(d, dlen))
			return error("%s:%d: bad date '%.*s' (want "
				     "YYYY-MM-DD)",
				     f->path, lineno, (int)dlen, d);
		if (*last && memcmp(d, last, 10) <= 0)
			return error("%s:%d: section %.10s does not follow %s",
				     f->path, lineno, d, last);
		if (kind == 'c' && !*last)
			return error("%s:%d: @change before any @since",
				     f->path, lineno);
		/* sections after the one due by date are only checked */
		if (*last && memcmp(d, date, 10) > 0)
			done = 1;
		memcpy(last, d, 10);
		if (!done && kind == 's')
			entries_release(out);
	}
	if (!*last)
		return error("%s: no @since section", f->path);
	return 0;
}

static int load_entries(const char *name, const char *date, struct entries *out,
			char **path)
{
	struct datafile f;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = datafile_read(&f, name);
	if (!ret)
		ret = read_table(&f, date, out);
	if (ret)
		entries_release(out);
	*path = f.path;
	f.path = NULL;
	datafile_release(&f);
	return ret;
}

/* ------------------------------------------------------ Ruby to POSIX */

static const char ere_special[] = ".[\\()*+?{|^$";

static void emit_literal(struct strbuf *out, int c)
{
	if (strchr(ere_special, c))
		strbuf_addch(out, '\\');
	strbuf_addch(out, c);
}

/* A set of bytes 1..255; bit 0 (NUL) is never set. */
struct cset {
	unsigned char bit[32];
};

static void cset_add(struct cset *s, int c)
{
	if (c > 0 && c < 256)
		s->bit[c >> 3] |= 1u << (c & 7);
}

static int cset_has(const struct cset *s, int c)
{
	return (s->bit[c >> 3] >> (c & 7)) & 1;
}

static void cset_invert(struct cset *s)
{
	for (int c = 1; c < 256; c++)
		s->bit[c >> 3] ^= 1u << (c & 7);
}

static void cset_union(struct cset *s, const struct cset *o)
{
	for (size_t i = 0; i < sizeof(s->bit); i++)
		s->bit[i] |= o->bit[i];
}

/* \d \w \s \h and their negations; returns 0 for any other letter. */
static int class_escape(int d, struct cset *s)
{
	int neg = isupper(d), c;

	memset(s, 0, sizeof(*s));
	switch (tolower(d)) {
	case 'd':
		for (c = '0'; c <= '9'; c++)
			cset_add(s, c);
		break;
	case 'w':
		for (c = 1; c < 128; c++)
			if (isalnum(c) || c == '_')
				cset_add(s, c);
		break;
	case 's':
		for (const char *p = " \t\n\v\f\r"; *p; p++)
			cset_add(s, *p);
		break;
	case 'h':
		for (c = 1; c < 128; c++)
			if (isxdigit(c))
				cset_add(s, c);
		break;
	default:
		return 0;
	}
	if (neg)
		cset_invert(s);
	return 1;
}

/* The byte a Ruby escape \d stands for, or -1 when it is not one byte. */
static int escape_char(int d)
{
	switch (d) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case 'f':
		return '\f';
	case 'v':
		return '\v';
	case 'e':
		return 27;
	case 'a':
		return 7;
	}
	if (!d || isalnum(d))
		return -1;
	return d;
}

/* Named POSIX classes inside a Ruby class: [[:alpha:]] and friends. */
static int named_class(const char *name, size_t len, struct cset *s)
{
	static const struct {
		const char *name;
		int (*is)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha },
		{ "blank", isblank }, { "cntrl", iscntrl },
		{ "digit", isdigit }, { "graph", isgraph },
		{ "lower", islower }, { "print", isprint },
		{ "punct", ispunct }, { "space", isspace },
		{ "upper", isupper }, { "xdigit", isxdigit },
	};

	for (size_t i = 0; i < ARRAY_SIZE(classes); i++) {
		if (strlen(classes[i].name) != len ||
		    memcmp(classes[i].name, name, len))
			continue;
		for (int c = 1; c < 128; c++)
			if (classes[i].is(c))
				cset_add(s, c);
		return 0;
	}
	return -1;
}

/* One class member: a byte, an escape, or (for ranges) -1 on error. */
static int class_char(const char *src, size_t len, size_t *i)
{
	int d;

	if (*i >= len)
		return -1;
	if (src[*i] != '\\')
		return (unsigned char)src[(*i)++];
	if (*i + 1 >= len)
		return -1;
	d = escape_char((unsigned char)src[*i + 1]);
	*i += 2;
	return d;
}

/* Parses the Ruby class at src[*i] == '['. */
static int parse_class(const char *src, size_t len, size_t *i, struct cset *s,
		       const char **why)
{
	int neg = 0, first = 1;

	memset(s, 0, sizeof(*s));
	(*i)++;
	if (*i < len && src[*i] == '^') {
		neg = 1;
		(*i)++;
	}
	for (;;) {
		struct cset sub;
		int lo, hi;

		if (*i >= len) {
			*why = "unterminated [";
			return -1;
		}
		if (src[*i] == ']' && !first) {
			(*i)++;
			break;
		}
		first = 0;
		if (src[*i] == '[') {
			const char *end;

			if (*i + 1 >= len || src[*i + 1] != ':' ||
			    !(end = strstr(src + *i, ":]")) ||
			    named_class(src + *i + 2, end - (src + *i + 2), s) <
				    0) {
				*why = "nested character class";
				return -1;
			}
			*i = end + 2 - src;
			continue;
		}
		if (src[*i] == '&' && *i + 1 < len && src[*i + 1] == '&') {
			*why = "class intersection &&";
			return -1;
		}
		if (src[*i] == '\\' && *i + 1 < len &&
		    class_escape((unsigned char)src[*i + 1], &sub)) {
			cset_union(s, &sub);
			*i += 2;
			continue;
		}
		lo = class_char(src, len, i);
		if (lo < 0) {
			*why = "unsupported escape in a class";
			return -1;
		}
		if (*i + 1 < len && src[*i] == '-' && src[*i + 1] != ']') {
			(*i)++;
			if (src[*i] == '[' ||
			    (src[*i] == '\\' && *i + 1 < len &&
			     class_escape((unsigned char)src[*i + 1], &sub))) {
				*why = "bad class range";
				return -1;
			}
			hi = class_char(src, len, i);
			if (hi < lo) {
				*why = "bad class range";
				return -1;
			}
			for (int c = lo; c <= hi; c++)
				cset_add(s, c);
		} else {
			cset_add(s, lo);
		}
	}
	if (neg)
		cset_invert(s);
	return 0;
}

/* Bracket members in an order POSIX reads literally. */
static void emit_members(struct strbuf *out, const struct cset *s, int neg)
{
	int dash = cset_has(s, '-'), caret = cset_has(s, '^');
	size_t start = out->len;

	if (cset_has(s, ']'))
		strbuf_addch(out, ']');
	for (int c = 1; c < 128; c++) {
		int e;

		if (!cset_has(s, c) || strchr("]^-[", c))
			continue;
		for (e = c; e + 1 < 128 && cset_has(s, e + 1) &&
			    !strchr("]^-[", e + 1);
		     e++)
			;
		if (e - c >= 2) {
			strbuf_addch(out, c);
			strbuf_addch(out, '-');
			strbuf_addch(out, e);
		} else {
			for (int k = c; k <= e; k++)
				strbuf_addch(out, k);
		}
		c = e;
	}
	if (cset_has(s, '['))
		strbuf_addch(out, '[');
	if (caret && !neg && out->len == start && dash) {
		strbuf_addstr(out, "-^");
		return;
	}
	if (caret)
		strbuf_addch(out, '^');
	if (dash)
		strbuf_addch(out, '-');
}

static int emit_set(struct strbuf *out, const struct cset *s, const char **why)
{
	int high = cset_has(s, 0x80), count = 0, only = 0;
	struct cset ascii = *s;

	for (int c = 0x81; c < 256; c++) {
		if (cset_has(s, c) != high) {
			*why = "non-ASCII character class";
			return -1;
		}
	}
	memset(ascii.bit + 16, 0, 16);
	if (high) {
		/* [^...] over the ASCII bytes left out */
		for (int c = 1; c < 128; c++)
			ascii.bit[c >> 3] ^= 1u << (c & 7);
	}
	for (int c = 1; c < 128; c++) {
		if (cset_has(&ascii, c)) {
			count++;
			only = c;
		}
	}
	if (!count) {
		if (!high) {
			*why = "empty character class";
			return -1;
		}
		strbuf_addch(out, '.');
		return 0;
	}
	if (!high && count == 1) {
		emit_literal(out, only);
		return 0;
	}
	strbuf_addstr(out, high ? "[^" : "[");
	emit_members(out, &ascii, high);
	strbuf_addch(out, ']');
	return 0;
}

/* A Ruby interval {n}, {n,}, {,m}, {n,m} at src[i]; 0 if { is literal. */
static int parse_interval(const char *src, size_t len, size_t i, size_t *end,
			  struct strbuf *out)
{
	size_t j = i + 1, n0, n1 = 0, m0 = 0, m1 = 0;
	int comma = 0;

	n0 = j;
	while (j < len && isdigit((unsigned char)src[j]))
		j++;
	n1 = j;
	if (j < len && src[j] == ',') {
		comma = 1;
		m0 = ++j;
		while (j < len && isdigit((unsigned char)src[j]))
			j++;
		m1 = j;
	}
	if (j >= len || src[j] != '}' || (n1 == n0 && (!comma || m1 == m0)))
		return 0;
	strbuf_addch(out, '{');
	if (n1 == n0)
		strbuf_addch(out, '0');
	else
		strbuf_add(out, src + n0, n1 - n0);
	if (comma) {
		strbuf_addch(out, ',');
		strbuf_add(out, src + m0, m1 - m0);
	}
	strbuf_addch(out, '}');
	*end = j + 1;
	return 1;
}

/* After a quantifier: a lazy ? changes nothing here; + is refused. */
static int quant_suffix(const char *src, size_t len, size_t *i,
			const char **why)
{
	if (*i < len && src[*i] == '?') {
		(*i)++;
	} else if (*i < len && src[*i] == '+') {
		*why = "possessive quantifier";
		return -1;
	}
	return 0;
}

/* Appends the POSIX ERE for the Ruby regexp src[0..len). */
static int translate(const char *src, size_t len, struct strbuf *out,
		     const char **why)
{
	size_t i = 0, end;
	int depth = 0, d;
	struct cset s;

	while (i < len) {
		int c = (unsigned char)src[i];

		switch (c) {
		case '\\':
			if (i + 1 >= len) {
				*why = "trailing backslash";
				return -1;
			}
			d = (unsigned char)src[i + 1];
			i += 2;
			if (d == 'A') {
				strbuf_addch(out, '^');
			} else if (d == 'z' || d == 'Z') {
				strbuf_addch(out, '$');
			} else if (class_escape(d, &s)) {
				if (emit_set(out, &s, why) < 0)
					return -1;
			} else if ((d = escape_char(d)) >= 0) {
				emit_literal(out, d);
			} else {
				*why = "unsupported escape";
				return -1;
			}
			break;
		case '[':
			if (parse_class(src, len, &i, &s, why) < 0 ||
			    emit_set(out, &s, why) < 0)
				return -1;
			break;
		case '(':
			if (i + 1 < len && src[i + 1] == '?') {
				if (i + 2 < len && src[i + 2] == ':') {
					strbuf_addch(out, '(');
					depth++;
					i += 3;
					break;
				}
				if (i + 2 < len && strchr("!=", src[i + 2]))
					*why = "lookahead other than right "
					       "after a fixed-length start";
				else if (i + 2 < len && src[i + 2] == '<')
					*why = "lookbehind or named group";
				else
					*why = "unsupported (? group";
				return -1;
			}
			strbuf_addch(out, '(');
			depth++;
			i++;
			break;
		case ')':
			if (!depth) {
				*why = "unbalanced )";
				return -1;
			}
			depth--;
			strbuf_addch(out, ')');
			i++;
			break;
		case '{':
			if (parse_interval(src, len, i, &end, out)) {
				i = end;
				if (quant_suffix(src, len, &i, why) < 0)
					return -1;
			} else {
				strbuf_addstr(out, "\\{");
				i++;
			}
			break;
		case '*':
		case '+':
		case '?':
			strbuf_addch(out, c);
			i++;
			if (quant_suffix(src, len, &i, why) < 0)
				return -1;
			break;
		default:
			strbuf_addch(out, c);
			i++;
		}
	}
	if (depth) {
		*why = "unbalanced (";
		return -1;
	}
	return 0;
}

/* Skips the Ruby class or escape at src[i]; returns the index after it. */
static size_t skip_atom(const char *src, size_t len, size_t i)
{
	if (src[i] == '\\')
		return i + 2 <= len ? i + 2 : len;
	if (src[i] != '[')
		return i + 1;
	i++;
	if (i < len && src[i] == '^')
		i++;
	if (i < len && src[i] == ']')
		i++;
	while (i < len && src[i] != ']') {
		if (src[i] == '\\')
			i++;
		else if (src[i] == '[' && i + 1 < len && src[i + 1] == ':') {
			const char *e = strstr(src + i, ":]");
			if (e)
				i = e + 1 - src;
		}
		i++;
	}
	return i < len ? i + 1 : len;
}

/* Whether src has a | outside every group and class. */
static int top_level_alt(const char *src)
{
	size_t len = strlen(src), i = 0;
	int depth = 0;

	while (i < len) {
		if (src[i] == '(')
			depth++;
		else if (src[i] == ')')
			depth--;
		else if (src[i] == '|' && !depth)
			return 1;
		i = strchr("\\[", src[i]) ? skip_atom(src, len, i) : i + 1;
	}
	return 0;
}

/* The end of the group opened at src[i] == '(', or 0. */
static size_t group_end(const char *src, size_t len, size_t i)
{
	int depth = 0;

	while (i < len) {
		if (src[i] == '(')
			depth++;
		else if (src[i] == ')' && !--depth)
			return i + 1;
		i = strchr("\\[", src[i]) ? skip_atom(src, len, i) : i + 1;
	}
	return 0;
}

/* The first top-level lookaround of src, or -1. */
static long find_lookaround(const char *src, size_t len)
{
	size_t i = 0;
	int depth = 0;

	while (i < len) {
		if (src[i] == '(' && !depth && i + 2 < len &&
		    src[i + 1] == '?' && strchr("!=<", src[i + 2]) &&
		    !(src[i + 2] == '<' && i + 3 < len &&
		      !strchr("!=", src[i + 3])))
			return (long)i;
		if (src[i] == '(')
			depth++;
		else if (src[i] == ')')
			depth--;
		i = strchr("\\[", src[i]) ? skip_atom(src, len, i) : i + 1;
	}
	return -1;
}

/* The length of the strings the Ruby regexp src matches, or -1 if varied. */
static long fixed_length(const char *src, size_t len)
{
	size_t i = 0;
	long n = 0;

	while (i < len && src[i] == '^')
		i++;
	while (i < len) {
		if (strchr("(){}*+?|^$", src[i]))
			return -1;
		i = skip_atom(src, len, i);
		n++;
	}
	return n;
}

/*
 * The literal text every name the pattern matches must start with, up to
 * RX_KEY bytes (empty when the pattern is not anchored at the start).
 */
static size_t literal_key(const char *src, enum rx_mode mode, char *key)
{
	size_t i = 0, n = 0;

	if (top_level_alt(src) || (mode == RX_SEARCH && src[0] != '^')) {
		key[0] = '\0';
		return 0;
	}
	while (src[i] == '^')
		i++;
	while (n < RX_KEY && src[i]) {
		int c = (unsigned char)src[i];
		size_t next = i + 1;

		if (c == '\\') {
			c = (unsigned char)src[i + 1];
			if (!c || isalnum(c))
				break;
			next = i + 2;
		} else if (strchr(".[](){}*+?|^$", c)) {
			break;
		}
		if (src[next] && strchr("*?{+", src[next]))
			break;
		key[n++] = c;
		i = next;
	}
	key[n] = '\0';
	return n;
}

/* ---------------------------------------------------- compiled patterns */

struct rx_look {
	regex_t re;
	int negative;
};

/*
 * One compiled Ruby regexp.  Without lookaheads `re` is the whole pattern.
 * With them, `re` is the fixed-length head (head_len bytes, anchored at
 * the start of the name or tried at every offset), then each lookahead
 * and the tail are tried where the head ends.
 */
struct rx {
	regex_t re;
	struct rx_look *look;
	size_t nr_look;
	size_t head_len;
	int has_re, lookaround, anchored, has_tail;
	regex_t tail;
};

static void rx_release(struct rx *rx)
{
	if (rx->has_re)
		regfree(&rx->re);
	for (size_t i = 0; i < rx->nr_look; i++)
		regfree(&rx->look[i].re);
	free(rx->look);
	if (rx->has_tail)
		regfree(&rx->tail);
	memset(rx, 0, sizeof(*rx));
}

static int posix_compile(regex_t *re, const char *ere, const char **why)
{
	static char msg[128];
	int rc = regcomp(re, ere, REG_EXTENDED | REG_NOSUB);

	if (!rc)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	*why = msg;
	return -1;
}

/* Compiles "^(" + Ruby src[0..len) + ")" (+ "$" if full). */
static int compile_anchored(regex_t *re, const char *src, size_t len, int full,
			    const char **why)
{
	struct strbuf ere = STRBUF_INIT;
	int ret;

	strbuf_addstr(&ere, "^(");
	ret = translate(src, len, &ere, why);
	if (!ret) {
		strbuf_addstr(&ere, full ? ")$" : ")");
		ret = posix_compile(re, ere.buf, why);
	}
	strbuf_release(&ere);
	return ret;
}

static int rx_compile_lookaround(struct rx *rx, const char *src, size_t at,
				 enum rx_mode mode, const char **why)
{
	size_t len = strlen(src), i = at, skip = 0, alloc = 0;
	long n;

	if (top_level_alt(src)) {
		*why = "lookahead in a pattern with a top-level |";
		return -1;
	}
	n = fixed_length(src, at);
	if (n < 0) {
		*why = "lookahead after a start of varying length";
		return -1;
	}
	while (skip < at && src[skip] == '^')
		skip++;
	rx->lookaround = 1;
	rx->head_len = n;
	rx->anchored = mode != RX_SEARCH || skip;
	if (compile_anchored(&rx->re, src + skip, at - skip, 0, why) < 0)
		return -1;
	rx->has_re = 1;
	while (i + 2 < len && src[i] == '(' && src[i + 1] == '?' &&
	       strchr("!=", src[i + 2])) {
		size_t end = group_end(src, len, i);
		struct rx_look *l;

		if (!end) {
			*why = "unbalanced (";
			goto fail;
		}
		ALLOC_GROW(rx->look, rx->nr_look + 1, alloc);
		l = &rx->look[rx->nr_look];
		l->negative = src[i + 2] == '!';
		if (compile_anchored(&l->re, src + i + 3, end - 1 - (i + 3), 0,
				     why) < 0)
			goto fail;
		rx->nr_look++;
		i = end;
	}
	if (i < len || mode == RX_FULL) {
		if (compile_anchored(&rx->tail, src + i, len - i,
				     mode == RX_FULL, why) < 0)
			goto fail;
		rx->has_tail = 1;
	}
	return 0;
fail:
	rx_release(rx);
	return -1;
}

/* Compiles one Ruby regexp applied as `mode`. */
static int rx_compile(struct rx *rx, const char *src, enum rx_mode mode,
		      const char **why)
{
	struct strbuf ere = STRBUF_INIT;
	long at = find_lookaround(src, strlen(src));
	int ret;

	memset(rx, 0, sizeof(*rx));
	if (at >= 0) {
		if (src[at + 2] == '<') {
			*why = "lookbehind";
			return -1;
		}
		return rx_compile_lookaround(rx, src, (size_t)at, mode, why);
	}
	if (mode != RX_SEARCH)
		strbuf_addch(&ere, '^');
	ret = translate(src, strlen(src), &ere, why);
	if (!ret) {
		if (mode == RX_FULL)
			strbuf_addch(&ere, '$');
		ret = posix_compile(&rx->re, ere.buf, why);
	}
	rx->has_re = !ret;
	strbuf_release(&ere);
	return ret;
}

static int rx_match_at(const struct rx *rx, const char *s, size_t at)
{
	const char *p = s + at + rx->head_len;

	if (regexec(&rx->re, s + at, 0, NULL, 0))
		return 0;
	for (size_t i = 0; i < rx->nr_look; i++) {
		int m = !regexec(&rx->look[i].re, p, 0, NULL, 0);

		if (m == rx->look[i].negative)
			return 0;
	}
	return !rx->has_tail || !regexec(&rx->tail, p, 0, NULL, 0);
}

static int rx_match(const struct rx *rx, const char *s)
{
	size_t len;

	if (!rx->lookaround)
		return !regexec(&rx->re, s, 0, NULL, 0);
	len = strlen(s);
	for (size_t at = 0; at + rx->head_len <= len; at++) {
		if (rx_match_at(rx, s, at))
			return 1;
		if (rx->anchored)
			break;
	}
	return 0;
}

/* ------------------------------------------------ unordered pattern sets */

struct rx_bucket {
	char key[RX_KEY + 1];
	size_t keylen;
	regex_t re;
};

struct rxset {
	struct rx_bucket *b;
	size_t nr;
	struct rx *special;
	size_t nr_special;
};

static void rxset_release(struct rxset *set)
{
	for (size_t i = 0; i < set->nr; i++)
		regfree(&set->b[i].re);
	free(set->b);
	for (size_t i = 0; i < set->nr_special; i++)
		rx_release(&set->special[i]);
	free(set->special);
	memset(set, 0, sizeof(*set));
}

struct member {
	char key[RX_KEY + 1];
	size_t idx;
	char *ere;
	int line;
};

static int key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int rx_error(const char *path, int line, const char *pattern,
		    const char *why)
{
	return error("%s:%d: cannot use Ruby regexp '%s': %s", path, line,
		     pattern, why);
}

static int rxset_add_group(struct rxset *set, struct member *m, size_t n,
			   const char *path, const struct entries *e)
{
	struct strbuf ere = STRBUF_INIT;
	struct rx_bucket *b = &set->b[set->nr];
	const char *why = NULL;

	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&ere, '|');
		strbuf_addstr(&ere, m[i].ere);
	}
	if (posix_compile(&b->re, ere.buf, &why) < 0) {
		/* find the line to blame */
		for (size_t i = 0; i < n; i++) {
			regex_t one;

			if (posix_compile(&one, m[i].ere, &why) < 0) {
				strbuf_release(&ere);
				return rx_error(path, m[i].line,
						e->v[m[i].idx].text, why);
			}
			regfree(&one);
		}
		strbuf_release(&ere);
		return error("%s: cannot compile the patterns starting with "
			     "'%s': %s",
			     path, m[0].key, why);
	}
	strbuf_release(&ere);
	memcpy(b->key, m[0].key, sizeof(b->key));
	b->keylen = strlen(b->key);
	set->nr++;
	return 0;
}

static int rxset_build(struct rxset *set, const struct entries *e,
		       enum rx_mode mode, const char *path)
{
	struct member *m = xcalloc(e->nr ? e->nr : 1, sizeof(*m));
	size_t nr = 0, i, j, alloc = 0;
	int ret = -1;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < e->nr; i++) {
		const char *src = e->v[i].text, *why = NULL;
		struct strbuf ere = STRBUF_INIT;

		if (find_lookaround(src, strlen(src)) >= 0) {
			ALLOC_GROW(set->special, set->nr_special + 1, alloc);
			if (rx_compile(&set->special[set->nr_special], src,
				       mode, &why) < 0) {
				rx_error(path, e->v[i].line, src, why);
				goto out;
			}
			set->nr_special++;
			continue;
		}
		strbuf_addstr(&ere, mode == RX_SEARCH ? "(" : "(^");
		if (translate(src, strlen(src), &ere, &why) < 0) {
			strbuf_release(&ere);
			rx_error(path, e->v[i].line, src, why);
			goto out;
		}
		strbuf_addstr(&ere, mode == RX_FULL ? "$)" : ")");
		literal_key(src, mode, m[nr].key);
		m[nr].idx = i;
		m[nr].line = e->v[i].line;
		m[nr].ere = strbuf_detach(&ere, NULL);
		nr++;
	}
	qsort(m, nr, sizeof(*m), member_cmp);
	set->b = xcalloc(nr ? nr : 1, sizeof(*set->b));
	for (i = 0; i < nr; i = j) {
		for (j = i + 1; j < nr && !strcmp(m[i].key, m[j].key); j++)
			;
		if (rxset_add_group(set, m + i, j - i, path, e) < 0)
			goto out;
	}
	ret = 0;
out:
	for (i = 0; i < nr; i++)
		free(m[i].ere);
	free(m);
	if (ret)
		rxset_release(set);
	return ret;
}

static const struct rx_bucket *rxset_bucket(const struct rxset *set,
					    const char *s, size_t n)
{
	size_t lo = 0, hi = set->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(set->b[mid].key, set->b[mid].keylen, s, n);

		if (!c)
			return &set->b[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int rxset_match(const struct rxset *set, const char *s)
{
	for (size_t k = 0; k <= RX_KEY; k++) {
		const struct rx_bucket *b = rxset_bucket(set, s, k);

		if (b && !regexec(&b->re, s, 0, NULL, 0))
			return 1;
		if (!s[k])
			break;
	}
	for (size_t i = 0; i < set->nr_special; i++)
		if (rx_match(&set->special[i], s))
			return 1;
	return 0;
}

static int load_rxset(struct rxset *set, const char *name, const char *date,
		      enum rx_mode mode)
{
	struct entries e;
	char *path;
	int ret = load_entries(name, date, &e, &path);

	if (!ret)
		ret = rxset_build(set, &e, mode, path);
	entries_release(&e);
	free(path);
	return ret;
}

/* ---------------------------------------- ordered "REGEXP VALUE" tables */

struct valued {
	struct rx rx;
	double value;
	long ivalue;
	int is_int;
	/* the literal start of every match: a cheap test before regexec */
	char key[RX_KEY + 1];
	size_t keylen;
};

struct ordered {
	struct valued *v;
	size_t nr;
};

static void ordered_release(struct ordered *o)
{
	for (size_t i = 0; i < o->nr; i++)
		rx_release(&o->v[i].rx);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

static int parse_value(const char *s, struct valued *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	v->is_int = !strpbrk(s, ".eEnN");
	if (v->is_int) {
		v->ivalue = strtol(s, &end, 10);
		v->value = (double)v->ivalue;
	} else {
		v->value = strtod(s, &end);
	}
	return *end || errno ? -1 : 0;
}

static int load_ordered(struct ordered *o, const char *name, const char *date)
{
	struct entries e;
	char *path;
	int ret = load_entries(name, date, &e, &path);

	memset(o, 0, sizeof(*o));
	if (ret)
		goto out;
	o->v = xcalloc(e.nr ? e.nr : 1, sizeof(*o->v));
	for (size_t i = 0; i < e.nr; i++) {
		char *text = e.v[i].text, *sp = strrchr(text, ' ');
		struct valued *v = &o->v[o->nr];
		const char *why = NULL;

		if (!sp || sp == text || parse_value(sp + 1, v) < 0) {
			ret = error("%s:%d: want 'REGEXP VALUE'", path,
				    e.v[i].line);
			break;
		}
		*sp = '\0';
		if (rx_compile(&v->rx, text, RX_FULL, &why) < 0) {
			ret = rx_error(path, e.v[i].line, text, why);
			break;
		}
		v->keylen = literal_key(text, RX_FULL, v->key);
		o->nr++;
	}
	if (ret)
		ordered_release(o);
out:
	entries_release(&e);
	free(path);
	return ret;
}

static const struct valued *ordered_find(const struct ordered *o, const char *s)
{
	for (size_t i = 0; i < o->nr; i++) {
		const struct valued *v = &o->v[i];

		if (v->keylen && strncmp(s, v->key, v->keylen))
			continue;
		if (rx_match(&v->rx, s))
			return v;
	}
	return NULL;
}

/* ------------------------------------------------------- name lists */

struct names {
	char **v;
	size_t nr, alloc;
};

static void names_release(struct names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	memset(n, 0, sizeof(*n));
}

static void names_add(struct names *n, const char *s, size_t len)
{
	ALLOC_GROW(n->v, n->nr + 1, n->alloc);
	n->v[n->nr++] = xstrndup(s, len);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_sort(struct names *n)
{
	qsort(n->v, n->nr, sizeof(*n->v), str_cmp);
}

static int names_has(const struct names *n, const char *s)
{
	return n->nr && bsearch(&s, n->v, n->nr, sizeof(*n->v), str_cmp);
}

static int load_names(struct names *n, const char *name, const char *date)
{
	struct entries e;
	char *path;
	int ret = load_entries(name, date, &e, &path);

	memset(n, 0, sizeof(*n));
	for (size_t i = 0; !ret && i < e.nr; i++)
		names_add(n, e.v[i].text, strlen(e.v[i].text));
	names_sort(n);
	entries_release(&e);
	free(path);
	return ret;
}

/* Literal prefixes, sorted and indexed by their first byte. */
struct prefixes {
	struct names n;
	size_t start[257];
};

static void prefixes_index(struct prefixes *p)
{
	size_t i = 0;

	names_sort(&p->n);
	for (int c = 0; c < 256; c++) {
		p->start[c] = i;
		while (i < p->n.nr && (unsigned char)p->n.v[i][0] == c)
			i++;
	}
	p->start[256] = i;
}

static int prefixes_match(const struct prefixes *p, const char *s)
{
	int c = (unsigned char)s[0];

	for (size_t i = p->start[c]; i < p->start[c + 1]; i++)
		if (!strncmp(s, p->n.v[i], strlen(p->n.v[i])))
			return 1;
	return 0;
}

/* ------------------------------------------------------------- params */

struct option {
	char *name;
	char type;
};

struct program {
	char *name;
	struct option *opt;
	size_t nr_opt;
};

static int option_cmp(const void *a, const void *b)
{
	return strcmp(((const struct option *)a)->name,
		      ((const struct option *)b)->name);
}

static int program_cmp(const void *a, const void *b)
{
	return strcmp(((const struct program *)a)->name,
		      ((const struct program *)b)->name);
}

static const struct option *option_find(const struct option *v, size_t nr,
					const char *name)
{
	struct option key = { (char *)(uintptr_t)name, 0 };

	return nr ? bsearch(&key, v, nr, sizeof(*v), option_cmp) : NULL;
}

/* ------------------------------------------------------------- tables */

struct lkp_tables {
	char date[11];
	struct rxset deny, allow, report, failure, pass, latency;
	struct rxset perf_patterns;
	struct prefixes perf_prefixes;
	struct ordered threshold, index_perf, index_latency;
	struct names tests;
	struct program *prog;
	size_t nr_prog;
	struct option *always, *opts;
	size_t nr_always, nr_opts;
	double nonperf_ratio;
	struct names excludes;
	enum skip_mode skip;
	double perf_profile;
	int perf_profile_integer;
	struct names new_monitors, change_sorted;
	int function_perf_prefix;
	int inject_sum;
};

static void free_options(struct option *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

void lkp_tables_free(struct lkp_tables *t)
{
	if (!t)
		return;
	rxset_release(&t->deny);
	rxset_release(&t->allow);
	rxset_release(&t->report);
	rxset_release(&t->failure);
	rxset_release(&t->pass);
	rxset_release(&t->latency);
	rxset_release(&t->perf_patterns);
	names_release(&t->perf_prefixes.n);
	ordered_release(&t->threshold);
	ordered_release(&t->index_perf);
	ordered_release(&t->index_latency);
	names_release(&t->tests);
	for (size_t i = 0; i < t->nr_prog; i++) {
		free(t->prog[i].name);
		free_options(t->prog[i].opt, t->prog[i].nr_opt);
	}
	free(t->prog);
	free_options(t->always, t->nr_always);
	free_options(t->opts, t->nr_opts);
	names_release(&t->excludes);
	names_release(&t->new_monitors);
	names_release(&t->change_sorted);
	free(t);
}

static int load_prefixes(struct lkp_tables *t, const char *date)
{
	struct names progs;
	struct entries e;
	char *path;
	int ret = load_entries("perf-metrics-prefixes", date, &e, &path);

	memset(&t->perf_prefixes, 0, sizeof(t->perf_prefixes));
	for (size_t i = 0; !ret && i < e.nr; i++) {
		const char *s = e.v[i].text;

		/* the file is split on blanks: one line may hold several */
		while (*s) {
			size_t n = strcspn(s, " \t");

			if (n)
				names_add(&t->perf_prefixes.n, s, n);
			s += n;
			s += strspn(s, " \t");
		}
	}
	entries_release(&e);
	free(path);
	if (ret)
		return -1;
	if (load_names(&progs, "perf-metric-programs", date) < 0)
		return -1;
	for (size_t i = 0; i < progs.nr; i++) {
		char *p = xasprintf("%s.", progs.v[i]);

		names_add(&t->perf_prefixes.n, p, strlen(p));
		free(p);
	}
	names_release(&progs);
	prefixes_index(&t->perf_prefixes);
	return 0;
}

static void add_option(struct option **v, size_t *nr, size_t *alloc,
		       const char *name, size_t len, char type)
{
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[*nr].name = xstrndup(name, len);
	(*v)[*nr].type = type;
	(*nr)++;
}

/* Sorts and merges duplicates; a '=' declaration wins. */
static void options_sort(struct option *v, size_t *nr)
{
	size_t i, j;

	if (!*nr)
		return;
	qsort(v, *nr, sizeof(*v), option_cmp);
	for (i = 0, j = 1; j < *nr; j++) {
		if (!strcmp(v[i].name, v[j].name)) {
			if (v[j].type == '=')
				v[i].type = '=';
			free(v[j].name);
		} else {
			v[++i] = v[j];
		}
	}
	*nr = i + 1;
}

static int parse_params_line(struct lkp_tables *t, const char *s,
			     const char *path, int line, size_t *prog_alloc,
			     size_t *always_alloc, size_t *opts_alloc)
{
	size_t n = strcspn(s, " \t"), alloc = 0;
	struct program *p = NULL;
	int always = n == 1 && *s == '*';

	if (!n)
		return error("%s:%d: want 'PROGRAM [-OPTION|=OPTION...]'", path,
			     line);
	if (!always) {
		ALLOC_GROW(t->prog, t->nr_prog + 1, *prog_alloc);
		p = &t->prog[t->nr_prog++];
		memset(p, 0, sizeof(*p));
		p->name = xstrndup(s, n);
	}
	for (s += n; *(s += strspn(s, " \t")); s += n) {
		n = strcspn(s, " \t");
		if (n < 2 || (*s != '-' && *s != '='))
			return error("%s:%d: option '%.*s' wants a - or = "
				     "type",
				     path, line, (int)n, s);
		if (always)
			add_option(&t->always, &t->nr_always, always_alloc,
				   s + 1, n - 1, *s);
		else
			add_option(&p->opt, &p->nr_opt, &alloc, s + 1, n - 1,
				   *s);
		add_option(&t->opts, &t->nr_opts, opts_alloc, s + 1, n - 1, *s);
	}
	if (p)
		options_sort(p->opt, &p->nr_opt);
	return 0;
}

static int load_params(struct lkp_tables *t, const char *date)
{
	struct entries e;
	char *path;
	size_t prog_alloc = 0, always_alloc = 0, opts_alloc = 0;
	int ret = load_entries("params", date, &e, &path);

	for (size_t i = 0; !ret && i < e.nr; i++)
		ret = parse_params_line(t, e.v[i].text, path, e.v[i].line,
					&prog_alloc, &always_alloc,
					&opts_alloc);
	entries_release(&e);
	free(path);
	if (ret)
		return -1;
	if (t->nr_prog)
		qsort(t->prog, t->nr_prog, sizeof(*t->prog), program_cmp);
	options_sort(t->always, &t->nr_always);
	options_sort(t->opts, &t->nr_opts);
	return 0;
}

/* ------------------------------------------------------------- rules */

struct rule {
	const char *name;
	/* the latest row due by date, and the oldest row */
	char *value[2];
	char date[2][11];
	int line[2];
};

static void rule_keep(struct rule *r, int which, const char *ln,
		      const char *value, size_t len, int lineno)
{
	free(r->value[which]);
	r->value[which] = xstrndup(value, len);
	memcpy(r->date[which], ln, 10);
	r->date[which][10] = '\0';
	r->line[which] = lineno;
}

static int parse_rule_row(struct rule *rules, size_t nr, const char *path,
			  int lineno, const char *ln, size_t len,
			  const char *date)
{
	size_t dlen = strcspn(ln, " \t"), nlen, i;
	const char *name, *value;
	struct rule *r = NULL;

	name = ln + dlen + strspn(ln + dlen, " \t");
	nlen = strcspn(name, " \t\n");
	value = name + nlen + strspn(name + nlen, " \t");
	if (!valid_date(ln, dlen) || !nlen || value >= ln + len)
		return error("%s:%d: want 'YYYY-MM-DD NAME VALUE'", path,
			     lineno);
	for (i = 0; i < nr; i++)
		if (strlen(rules[i].name) == nlen &&
		    !memcmp(rules[i].name, name, nlen))
			r = &rules[i];
	if (!r)
		return error("%s:%d: unknown rule '%.*s'", path, lineno,
			     (int)nlen, name);
	if (memcmp(ln, date, 10) <= 0 &&
	    (!r->value[0] || memcmp(ln, r->date[0], 10) >= 0))
		rule_keep(r, 0, ln, value, ln + len - value, lineno);
	if (!r->value[1] || memcmp(ln, r->date[1], 10) < 0)
		rule_keep(r, 1, ln, value, ln + len - value, lineno);
	return 0;
}

/* A rule's list of names, blank-separated; "none" alone is the empty list. */
static int words_to_names(struct names *n, const char *v)
{
	names_release(n);
	if (!strcmp(v, "none"))
		return 0;
	for (const char *s = v; *(s += strspn(s, " \t"));) {
		size_t len = strcspn(s, " \t");

		if (len == 4 && !memcmp(s, "none", 4))
			return -1;
		names_add(n, s, len);
		s += len;
	}
	names_sort(n);
	return 0;
}

static int apply_rules(struct lkp_tables *t, struct rule *rules,
		       const char *path)
{
	static const char *const skips[] = { "none", "sibling", "passed",
					     "fail", "ewf" };
	const char *v[8], *word;
	int line[8];
	char *end;
	size_t i;

	for (i = 0; i < 8; i++) {
		int w = rules[i].value[0] ? 0 : 1;

		if (!rules[i].value[w])
			return error("%s: no rule '%s'", path, rules[i].name);
		v[i] = rules[i].value[w];
		line[i] = rules[i].line[w];
	}
	t->nonperf_ratio = strtod(v[0], &end);
	if (*end || t->nonperf_ratio <= 0)
		return error("%s:%d: bad ratio '%s'", path, line[0], v[0]);
	words_to_names(&t->excludes, v[1]);
	for (i = 0; i < ARRAY_SIZE(skips); i++)
		if (!strcmp(v[2], skips[i]))
			break;
	if (i == ARRAY_SIZE(skips))
		return error("%s:%d: unknown function_skip '%s'", path, line[2],
			     v[2]);
	t->skip = (enum skip_mode)i;
	if (words_to_names(&t->new_monitors, v[4]))
		return error("%s:%d: 'none' and names do not mix", path,
			     line[4]);
	if (words_to_names(&t->change_sorted, v[5]))
		return error("%s:%d: 'none' and names do not mix", path,
			     line[5]);
	if (strcmp(v[6], "0") && strcmp(v[6], "1"))
		return error("%s:%d: want 0 or 1, not '%s'", path, line[6],
			     v[6]);
	t->function_perf_prefix = v[6][0] == '1';
	if (strcmp(v[7], "inject") && strcmp(v[7], "ruby"))
		return error("%s:%d: want inject or ruby, not '%s'", path,
			     line[7], v[7]);
	t->inject_sum = !strcmp(v[7], "inject");

	/* perf_profile: none | all N | integer N */
	if (!strcmp(v[3], "none"))
		return 0;
	word = v[3] + strcspn(v[3], " \t");
	t->perf_profile_integer =
		word - v[3] == 7 && !strncmp(v[3], "integer", 7);
	if ((!t->perf_profile_integer &&
	     (word - v[3] != 3 || strncmp(v[3], "all", 3))) ||
	    (t->perf_profile = strtod(word, &end)) <= 0 || *end)
		return error("%s:%d: bad perf_profile '%s'", path, line[3],
			     v[3]);
	return 0;
}

/* rules: "DATE NAME VALUE" rows; see config/data/lkp/rules. */
static int load_rules(struct lkp_tables *t, const char *date)
{
	struct rule rules[] = {
		{ .name = "nonperf_ratio" },
		{ .name = "function_exclude" },
		{ .name = "function_skip" },
		{ .name = "perf_profile" },
		{ .name = "new_monitors" },
		{ .name = "change_sorted" },
		{ .name = "function_perf_prefix" },
		{ .name = "sum" },
	};
	struct datafile f;
	size_t pos = 0;
	const char *ln;
	long len;
	int lineno = 0, ret = datafile_read(&f, "rules");

	while (!ret && (len = next_line(&f.sb, &pos, &ln)) >= 0) {
		lineno++;
		if (len && *ln != '#')
			ret = parse_rule_row(rules, ARRAY_SIZE(rules), f.path,
					     lineno, ln, len, date);
	}
	if (!ret)
		ret = apply_rules(t, rules, f.path);
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		free(rules[i].value[0]);
		free(rules[i].value[1]);
	}
	datafile_release(&f);
	return ret;
}

struct lkp_tables *lkp_tables_load(const char *date)
{
	struct lkp_tables *t;

	if (!date || !valid_date(date, strlen(date))) {
		error("bad lkp table date '%s' (want YYYY-MM-DD)",
		      date ? date : "(null)");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	memcpy(t->date, date, 10);
	if (load_rxset(&t->deny, "stat-denylist", date, RX_SEARCH) < 0 ||
	    load_rxset(&t->allow, "stat-allowlist", date, RX_SEARCH) < 0 ||
	    load_rxset(&t->report, "report-allowlist", date, RX_SEARCH) < 0 ||
	    load_rxset(&t->failure, "failure", date, RX_START) < 0 ||
	    load_rxset(&t->pass, "pass", date, RX_START) < 0 ||
	    load_rxset(&t->latency, "latency", date, RX_START) < 0 ||
	    load_rxset(&t->perf_patterns, "perf-metrics-patterns", date,
		       RX_SEARCH) < 0 ||
	    load_prefixes(t, date) < 0 ||
	    load_ordered(&t->threshold, "perf-metrics-threshold", date) < 0 ||
	    load_ordered(&t->index_perf, "index-perf", date) < 0 ||
	    load_ordered(&t->index_latency, "index-latency", date) < 0 ||
	    load_names(&t->tests, "tests", date) < 0 ||
	    load_params(t, date) < 0 || load_rules(t, date) < 0) {
		lkp_tables_free(t);
		return NULL;
	}
	return t;
}

const char *lkp_tables_date(const struct lkp_tables *t)
{
	return t->date;
}

/* ---------------------------------------------------------- predicates */

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

int lkp_bisectable_stat(const struct lkp_tables *t, const char *stat)
{
	return rxset_match(&t->allow, stat) || !rxset_match(&t->deny, stat);
}

int lkp_new_monitor(const struct lkp_tables *t, const char *monitor)
{
	return names_has(&t->new_monitors, monitor);
}

int lkp_inject_sum(const struct lkp_tables *t)
{
	return t->inject_sum;
}

int lkp_change_sorted(const struct lkp_tables *t, const char *monitor)
{
	return names_has(&t->change_sorted, monitor);
}

int lkp_report_allowed(const struct lkp_tables *t, const char *stat)
{
	return rxset_match(&t->report, stat);
}

int lkp_failure_stat(const struct lkp_tables *t, const char *stat)
{
	return rxset_match(&t->failure, stat);
}

int lkp_pass_stat(const struct lkp_tables *t, const char *stat)
{
	return rxset_match(&t->pass, stat);
}

int lkp_function_stat(const struct lkp_tables *t, const char *stat)
{
	for (size_t i = 0; i < t->excludes.nr; i++)
		if (strstr(stat, t->excludes.v[i]))
			return 0;
	if (t->function_perf_prefix && prefixes_match(&t->perf_prefixes, stat))
		return 0;
	return lkp_failure_stat(t, stat) || lkp_pass_stat(t, stat);
}

int lkp_latency_stat(const struct lkp_tables *t, const char *stat)
{
	return rxset_match(&t->latency, stat);
}

int lkp_perf_metric(const struct lkp_tables *t, const char *stat)
{
	return rxset_match(&t->perf_patterns, stat) ||
	       prefixes_match(&t->perf_prefixes, stat);
}

int lkp_reasonable_change(const struct lkp_tables *t, const char *stat,
			  double delta, double max)
{
	const struct valued *v = ordered_find(&t->threshold, stat);

	if (v) {
		if (max < v->value)
			return 0;
		/* Integer thresholds: Ruby's v / 2 is integer division */
		if (v->is_int && delta < (double)(v->ivalue / 2))
			return 0;
		return 1;
	}
	if (starts_with(stat, "iostat"))
		return max > 1;
	if (starts_with(stat, "pagetypeinfo") ||
	    starts_with(stat, "buddyinfo") || starts_with(stat, "slabinfo"))
		return delta > 100;
	if (starts_with(stat, "proc-vmstat") || strstr(stat, "meminfo"))
		return max > 1000;
	if (starts_with(stat, "lock_stat")) {
		/*
		 * lkp-tests compares the whole name with 'waittime-total'
		 * and 'holdtime-total' first, which a lock_stat name never
		 * equals; so only the /time/ test matters.
		 */
		return strstr(stat, "time") ? delta > 1000 : delta > 10000;
	}
	if (starts_with(stat, "interrupts") || starts_with(stat, "softirqs"))
		return max > 10000;
	return 1;
}

double lkp_nonperf_ratio(const struct lkp_tables *t)
{
	return t->nonperf_ratio;
}

double lkp_perf_profile_threshold(const struct lkp_tables *t, int *integer_only)
{
	if (integer_only)
		*integer_only = t->perf_profile_integer;
	return t->perf_profile;
}

static int has_sibling(int (*base_has)(void *, const char *), void *ctx,
		       const char *base, const char *const *suffixes)
{
	struct strbuf key = STRBUF_INIT;
	int found = 0;

	for (; !found && *suffixes; suffixes++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.%s", base, *suffixes);
		found = base_has(ctx, key.buf);
	}
	strbuf_release(&key);
	return found;
}

int lkp_skip_function_stat(const struct lkp_tables *t, const char *stat,
			   int (*base_has)(void *ctx, const char *key),
			   void *ctx)
{
	static const char *const pass[] = { "pass", NULL };
	static const char *const passed[] = { "pass", "passed", NULL };
	static const char *const fail[] = { "fail", NULL };
	static const char *const ewf[] = { "error", "warn", "fail", NULL };
	static const char *const any[] = { "pass",  "passed", "fail",
					   "error", "warn",   NULL };
	const char *dot = strrchr(stat, '.');
	char *base;
	int skip = 0;

	if (starts_with(stat, "dmesg.") || starts_with(stat, "kmsg.") ||
	    starts_with(stat, "last_state.") || starts_with(stat, "stderr."))
		return 0;
	base = dot ? xstrndup(stat, dot - stat) : xstrdup(stat);
	switch (t->skip) {
	case SKIP_NONE:
		break;
	case SKIP_SIBLING:
		/*
		 * lkp-tests looked for any BASE.<x> key; the common
		 * counterparts and the stat itself stand in for that.
		 */
		skip = !base_has(ctx, stat) &&
		       !has_sibling(base_has, ctx, base, any);
		break;
	case SKIP_PASSED:
		skip = !has_sibling(base_has, ctx, base, passed);
		break;
	case SKIP_FAIL:
		if (ends_with(stat, ".fail"))
			skip = !has_sibling(base_has, ctx, base, pass);
		else if (ends_with(stat, ".pass"))
			skip = !has_sibling(base_has, ctx, base, fail);
		break;
	case SKIP_EWF:
		if (ends_with(stat, ".error") || ends_with(stat, ".warn") ||
		    ends_with(stat, ".fail"))
			skip = !has_sibling(base_has, ctx, base, pass);
		else if (ends_with(stat, ".pass"))
			skip = !has_sibling(base_has, ctx, base, ewf);
		break;
	}
	free(base);
	return skip;
}

int lkp_kpi_value(const struct lkp_tables *t, const char *stat, double *value)
{
	const struct valued *v = ordered_find(&t->index_perf, stat);

	if (!v)
		v = ordered_find(&t->index_latency, stat);
	if (!v)
		return 0;
	if (value)
		*value = v->value;
	return 1;
}

int lkp_kpi_direction(const struct lkp_tables *t, const char *stat)
{
	double v;

	if (!lkp_kpi_value(t, stat, &v))
		return 0;
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

int lkp_is_test(const struct lkp_tables *t, const char *name)
{
	return names_has(&t->tests, name);
}

int lkp_is_program(const struct lkp_tables *t, const char *name)
{
	struct program key = { (char *)(uintptr_t)name, NULL, 0 };

	return t->nr_prog && bsearch(&key, t->prog, t->nr_prog,
				     sizeof(*t->prog), program_cmp);
}

int lkp_is_param(const struct lkp_tables *t, const char *key)
{
	return option_find(t->always, t->nr_always, key) ||
	       lkp_is_program(t, key) || option_find(t->opts, t->nr_opts, key);
}

int lkp_job_param(const struct lkp_tables *t, const char *key,
		  const char *const *job_keys, size_t nr_keys)
{
	if (option_find(t->always, t->nr_always, key) || lkp_is_program(t, key))
		return 1;
	for (size_t i = 0; i < nr_keys; i++) {
		struct program pk = { (char *)(uintptr_t)job_keys[i], NULL, 0 };
		const struct program *p;

		if (!t->nr_prog)
			break;
		p = bsearch(&pk, t->prog, t->nr_prog, sizeof(*t->prog),
			    program_cmp);
		if (p && option_find(p->opt, p->nr_opt, key))
			return 1;
	}
	return 0;
}

int lkp_param_type(const struct lkp_tables *t, const char *key)
{
	const struct option *o = option_find(t->always, t->nr_always, key);

	if (!o)
		o = option_find(t->opts, t->nr_opts, key);
	return o ? o->type : 0;
}
