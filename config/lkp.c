// SPDX-License-Identifier: GPL-2.0-only
/*
 * lkp.c: the lkp-tests tables of config/data/lkp/ as they were on a date,
 * and the predicates of lib/stats.rb and lib/perf_metrics.rb over them.
 *
 * Patterns are Ruby regexps, compiled once at load time as they are, with
 * the anchoring lkp-tests interpolated around them (/P/, /^P/, /^P$/), by
 * config/rubyre.c.  A pattern the engine cannot read as Ruby would is
 * refused, naming the file and line.
 *
 * Speed: an unordered pattern list is grouped by the literal text its
 * patterns must start with (up to RX_KEY bytes); each group is compiled as
 * one alternation, so a name is tried against a few small regexps, found
 * through a hash of the name's first bytes.
 */
#include "robot/util/common.h"
#include "config/data.h"
#include "config/lkp.h"
#include "config/rubyre.h"

#include <ctype.h>
#include <time.h>

#define LKP_DIR "config/data/lkp/"
#define RX_KEY	4

/* How lkp-tests applied a pattern: =~ /P/, =~ /^P/ or =~ /^P$/. */
enum rx_mode { RX_SEARCH, RX_START, RX_FULL };

/* skip_function_stat? variants, see config/data/lkp/rules. */
enum skip_mode { SKIP_NONE, SKIP_SIBLING, SKIP_PASSED, SKIP_FAIL, SKIP_EWF };

/* ------------------------------------------------------------ data files */

struct entry {
	char *text; /* in the file's text; NULL once removed */
	size_t len;
	int line;
};

/*
 * A table's entries in force, in table order.  They point into the file's
 * text (`buf`, which they own), so reading a table copies nothing; the
 * entries that "-ENTRY" removes are found through a hash of the live
 * ones, built at the first removal (the lists of thousands of entries
 * that change a few at a time were quadratic).
 */
struct entries {
	struct entry *v;
	size_t nr, alloc, ndead;
	char *buf;
	uint32_t *slot; /* entry index + 1; 0 empty, ENTRY_GONE removed */
	size_t mask;
};

#define ENTRY_GONE UINT32_MAX

static void entries_unindex(struct entries *e)
{
	free(e->slot);
	e->slot = NULL;
	e->mask = 0;
}

static void entries_release(struct entries *e)
{
	entries_unindex(e);
	free(e->v);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

/* Drops the entries of the version before: an @since starts afresh. */
static void entries_reset(struct entries *e)
{
	entries_unindex(e);
	e->nr = e->ndead = 0;
}

static size_t entry_hash(const char *s, size_t len, size_t mask)
{
	uint64_t h = len;

	for (; len >= 8; s += 8, len -= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
		h ^= h >> 29;
	}
	while (len--)
		h = (h ^ (unsigned char)*s++) * UINT64_C(0x100000001b3);
	return (size_t)(h ^ h >> 32) & mask;
}

static void entry_index(struct entries *e, size_t i)
{
	size_t h = entry_hash(e->v[i].text, e->v[i].len, e->mask);

	while (e->slot[h])
		h = (h + 1) & e->mask;
	e->slot[h] = (uint32_t)i + 1;
}

/* (Re)builds the hash of the live entries, with room for twice as many. */
static void entries_index(struct entries *e)
{
	size_t slots = 64;

	while (slots < (e->nr + 1) * 4)
		slots *= 2;
	free(e->slot);
	e->slot = xcalloc(slots, sizeof(*e->slot));
	e->mask = slots - 1;
	for (size_t i = 0; i < e->nr; i++)
		if (e->v[i].text)
			entry_index(e, i);
}

static void entries_add(struct entries *e, char *text, size_t len, int line)
{
	ALLOC_GROW(e->v, e->nr + 1, e->alloc);
	text[len] = '\0';
	e->v[e->nr].text = text;
	e->v[e->nr].len = len;
	e->v[e->nr].line = line;
	e->nr++;
	if (e->slot) {
		if (e->nr * 2 > e->mask)
			entries_index(e);
		else
			entry_index(e, e->nr - 1);
	}
}

/* Removes the first live entry that is text[0..len); -1 if there is none. */
static int entries_remove(struct entries *e, const char *text, size_t len)
{
	size_t h, at = 0;

	if (!e->slot)
		entries_index(e);
	h = entry_hash(text, len, e->mask);
	for (; e->slot[h]; h = (h + 1) & e->mask) {
		uint32_t i = e->slot[h] - 1;

		if (e->slot[h] == ENTRY_GONE || e->v[i].len != len ||
		    memcmp(e->v[i].text, text, len))
			continue;
		if (!at || e->slot[at - 1] > e->slot[h])
			at = h + 1;
	}
	if (!at)
		return -1;
	e->v[e->slot[at - 1] - 1].text = NULL;
	e->slot[at - 1] = ENTRY_GONE;
	e->ndead++;
	return 0;
}

/* Closes the gaps that removals left, keeping the order. */
static void entries_compact(struct entries *e)
{
	size_t j = 0;

	if (!e->ndead)
		return;
	for (size_t i = 0; i < e->nr; i++)
		if (e->v[i].text)
			e->v[j++] = e->v[i];
	e->nr = j;
	e->ndead = 0;
	entries_unindex(e);
}

static int has_shape(const char *s, size_t len, const char *shape)
{
	if (len != strlen(shape))
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i])
				    : s[i] != shape[i])
			return 0;
	}
	return 1;
}

static int valid_date(const char *s, size_t len)
{
	return has_shape(s, len, "dddd-dd-dd");
}

/* Two digits at s, as a number. */
static int digits2(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/*
 * Days from 1970-01-01 to the day y-m-d of the proleptic Gregorian
 * calendar; a day past the month's end counts on into the next, as
 * timegm() does (which cost a thousand instructions a section).
 */
static long long days_since_epoch(int y, int m, int d)
{
	long long era;
	int yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (int)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/*
 * The instant a day or a time of the tables stands for, in seconds since
 * the epoch: "YYYY-MM-DD" is the start of that day in the robot's
 * timezone, +0800 (config/data/lkp/generate dates a version by the day
 * its commit reached lkp-tests there); a section's "YYYY-MM-DDThh:mm:ss
 * +zzzz" (no blank) and a report's "YYYY-MM-DD hh:mm:ss +zzzz" are that
 * time.  Returns 1 for a time, 0 for a day, -1 for neither.
 */
static int parse_when(const char *s, size_t len, long long *t)
{
	struct tm tm;
	int zone, timed;

	if (valid_date(s, len))
		timed = 0;
	else if (has_shape(s, len, "dddd-dd-ddTdd:dd:dd+dddd") ||
		 has_shape(s, len, "dddd-dd-ddTdd:dd:dd-dddd") ||
		 has_shape(s, len, "dddd-dd-dd dd:dd:dd +dddd") ||
		 has_shape(s, len, "dddd-dd-dd dd:dd:dd -dddd"))
		timed = 1;
	else
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = atoi(s) - 1900;
	tm.tm_mon = digits2(s + 5) - 1;
	tm.tm_mday = digits2(s + 8);
	zone = 8 * 60;
	if (timed) {
		const char *z = s + len - 5;

		tm.tm_hour = digits2(s + 11);
		tm.tm_min = digits2(s + 14);
		tm.tm_sec = digits2(s + 17);
		zone = digits2(z + 1) * 60 + digits2(z + 3);
		if (*z == '-')
			zone = -zone;
	}
	if (tm.tm_mon > 11 || !tm.tm_mday || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	*t = days_since_epoch(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday) *
		     86400LL +
	     tm.tm_hour * 3600LL + tm.tm_min * 60LL + tm.tm_sec - zone * 60LL;
	return timed;
}

/*
 * A lookup of the tables: its text and, when it has a time, that instant
 * (parsed once per table file, not per section).
 */
struct lookup {
	const char *text;
	int timed;
	long long at;
};

/*
 * Whether a section dated `d` (at the instant `at` when `timed`) is in
 * force at the lookup `w`: a dated section from its day on (the day part
 * of the lookup); a timed one from its time on, when the lookup has a
 * time, else from its day on too.
 */
static int section_due(const char *d, int timed, long long at,
		       const struct lookup *w)
{
	if (timed && w->timed)
		return w->at >= at;
	return memcmp(d, w->text, 10) <= 0;
}

/* The next line of sb from *pos; returns its length, or -1 at the end. */
static long next_line(const struct strbuf *sb, size_t *pos, char **line)
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

static int apply_change(struct datafile *f, int lineno, char *ln, long len,
			struct entries *out)
{
	if (*ln == '+') {
		entries_add(out, ln + 1, (size_t)len - 1, lineno);
		return 0;
	}
	if (!entries_remove(out, ln + 1, (size_t)len - 1))
		return 0;
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
	long long last = 0, at;
	size_t pos = 0;
	char *ln;
	long len;
	int lineno = 0, kind = 0, done = 0, seen = 0, timed;
	struct lookup w = { .text = date };

	w.timed = parse_when(date, strlen(date), &w.at) == 1;

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
					entries_add(out, ln, (size_t)len,
						    lineno);
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
		timed = parse_when(d, dlen, &at);
		if (timed < 0 || (dlen > 10 && d[10] != 'T'))
			return error("%s:%d: bad date '%.*s' (want "
				     "YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+zzzz)",
				     f->path, lineno, (int)dlen, d);
		if (seen && at <= last)
			return error("%s:%d: section %.*s does not follow "
				     "the one before",
				     f->path, lineno, (int)dlen, d);
		if (kind == 'c' && !seen)
			return error("%s:%d: @change before any @since",
				     f->path, lineno);
		/* sections after the one due by date are only checked */
		if (seen && !section_due(d, timed, at, &w))
			done = 1;
		last = at;
		seen = 1;
		if (!done && kind == 's')
			entries_reset(out);
	}
	if (!seen)
		return error("%s: no @since section", f->path);
	entries_compact(out);
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
	/* the entries point into the text */
	out->buf = strbuf_detach(&f.sb, NULL);
	if (ret)
		entries_release(out);
	*path = f.path;
	f.path = NULL;
	datafile_release(&f);
	return ret;
}

/* ------------------------------------------------------ pattern index */

/*
 * The literal text every string the pattern matches must start with, up
 * to RX_KEY bytes, read conservatively so that it only ever indexes: a
 * search pattern needs a leading '^'; then plain characters and escaped
 * punctuation count, up to the first other metacharacter, without a
 * character that a quantifier follows; a '|' outside brackets and groups
 * empties the key.  The pattern itself goes to the engine as it is.
 */
static size_t literal_key(const char *src, enum rx_mode mode, char *key)
{
	size_t i, n = 0;
	int depth = 0, in_class = 0;

	key[0] = '\0';
	for (i = 0; src[i]; i++) {
		if (src[i] == '\\') {
			i += !!src[i + 1];
		} else if (src[i] == '[') {
			/* a ']' right after '[' or '[^' is a member */
			if (src[i + 1] == '^')
				i++;
			if (src[i + 1] == ']')
				i++;
			in_class++;
		} else if (in_class) {
			in_class -= src[i] == ']';
		} else if (src[i] == '(') {
			depth++;
		} else if (src[i] == ')') {
			depth--;
		} else if (src[i] == '|' && depth <= 0) {
			return 0;
		}
	}
	if (mode == RX_SEARCH && src[0] != '^')
		return 0;
	for (i = 0; src[i] == '^'; i++)
		;
	while (n < RX_KEY && src[i]) {
		int c = (unsigned char)src[i];
		size_t next = i + 1;

		if (c == '\\') {
			c = (unsigned char)src[i + 1];
			if (!c || !ispunct(c))
				break;
			next = i + 2;
		} else if (strchr(".[](){}*+?|^$", c)) {
			break;
		}
		if (src[next] && strchr("*?{+", src[next]))
			break;
		key[n++] = (char)c;
		i = next;
	}
	key[n] = '\0';
	return n;
}

static int rx_error(const char *path, int line, const char *pattern,
		    const char *why)
{
	return error("%s:%d: cannot use Ruby regexp '%s': %s", path, line,
		     pattern, why);
}

/* The Ruby source of `src` applied as lkp-tests applied it. */
static void rx_source(struct strbuf *out, const char *src, enum rx_mode mode)
{
	/* interpolated as Ruby does it: /^#{p}$/ anchors the text as is */
	strbuf_addstr(out, mode == RX_SEARCH ? "(?:" : "(?:^");
	strbuf_addstr(out, src);
	strbuf_addstr(out, mode == RX_FULL ? "$)" : ")");
}

static int rx_matches(struct ruby_re *re, const char *s, size_t len)
{
	int m = ruby_re_match(re, s, len);

	if (m < 0) {
		warning("the regexp engine gave up on '%s'", s);
		return 0;
	}
	return m;
}

/* ------------------------------------------------ unordered pattern sets */

/* A literal key: the first member of what a key index finds. */
struct rx_key {
	char key[RX_KEY + 1];
	size_t keylen;
};

/* Records that start with a struct rx_key, hashed by their key. */
struct key_index {
	uint32_t *slot; /* record index + 1; 0 is empty */
	size_t mask;
	unsigned lengths; /* bit n: some key is n bytes long */
};

/* The first n <= RX_KEY bytes of s as one number, and its hash. */
static uint32_t key_pack(const char *s, size_t n)
{
	uint32_t k = 0;

	for (size_t i = 0; i < n; i++)
		k = k << 8 | (unsigned char)s[i];
	return k;
}

static size_t key_hash(uint32_t packed, size_t n, size_t mask)
{
	return (size_t)(((packed ^ (uint32_t)n << 29) * 2654435761u) >> 7) &
	       mask;
}

static const struct rx_key *record_key(const void *base, size_t size, size_t i)
{
	return (const struct rx_key *)(const void *)((const char *)base +
						     i * size);
}

/* Indexes the nr records of `size` bytes at base; their keys differ. */
static void key_index_build(struct key_index *ix, const void *base, size_t nr,
			    size_t size)
{
	size_t slots = 16;

	while (slots < nr * 2)
		slots *= 2;
	ix->mask = slots - 1;
	ix->slot = xcalloc(slots, sizeof(*ix->slot));
	for (size_t i = 0; i < nr; i++) {
		const struct rx_key *k = record_key(base, size, i);
		size_t h = key_hash(key_pack(k->key, k->keylen), k->keylen,
				    ix->mask);

		while (ix->slot[h])
			h = (h + 1) & ix->mask;
		ix->slot[h] = (uint32_t)i + 1;
		ix->lengths |= 1u << k->keylen;
	}
}

/* The index of the record whose key is the first n bytes of s, or -1. */
static long key_index_find(const struct key_index *ix, const void *base,
			   size_t size, const char *s, size_t n)
{
	size_t h;

	if (!(ix->lengths >> n & 1))
		return -1;
	h = key_hash(key_pack(s, n), n, ix->mask);
	for (; ix->slot[h]; h = (h + 1) & ix->mask) {
		const struct rx_key *k =
			record_key(base, size, ix->slot[h] - 1);

		if (k->keylen == n && !memcmp(k->key, s, n))
			return (long)ix->slot[h] - 1;
	}
	return -1;
}

/*
 * The patterns of a set are grouped by their literal key; each group is
 * one alternation, anchored at the start when its key is not empty, so a
 * name is tried against at most RX_KEY + 1 small regexps.
 */
struct rx_bucket {
	struct rx_key k;
	struct ruby_re *re;
};

struct rxset {
	struct rx_bucket *b;
	size_t nr;
	struct key_index ix;
};

static void rxset_release(struct rxset *set)
{
	for (size_t i = 0; i < set->nr; i++)
		ruby_re_free(set->b[i].re);
	free(set->b);
	free(set->ix.slot);
	memset(set, 0, sizeof(*set));
}

struct member {
	char key[RX_KEY + 1];
	size_t idx;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int rxset_add_group(struct rxset *set, const struct member *m, size_t n,
			   enum rx_mode mode, const char *path,
			   const struct entries *e)
{
	struct strbuf src = STRBUF_INIT;
	struct rx_bucket *b = &set->b[set->nr];
	unsigned flags = RUBY_RE_OFTEN;
	const char *why = NULL;

	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&src, '|');
		rx_source(&src, e->v[m[i].idx].text, mode);
	}
	if (m[0].key[0])
		flags |= RUBY_RE_ANCHORED;
	b->re = ruby_re_compile(src.buf, src.len, flags, &why);
	strbuf_release(&src);
	if (!b->re) {
		/* find the line to blame */
		for (size_t i = 0; i < n; i++) {
			struct strbuf one = STRBUF_INIT;
			struct ruby_re *re;

			rx_source(&one, e->v[m[i].idx].text, mode);
			re = ruby_re_compile(one.buf, one.len, 0, &why);
			strbuf_release(&one);
			if (!re)
				return rx_error(path, e->v[m[i].idx].line,
						e->v[m[i].idx].text, why);
			ruby_re_free(re);
		}
		return error("%s: cannot compile the patterns starting with "
			     "'%s': %s",
			     path, m[0].key, why);
	}
	memcpy(b->k.key, m[0].key, sizeof(b->k.key));
	b->k.keylen = strlen(b->k.key);
	set->nr++;
	return 0;
}

static int rxset_build(struct rxset *set, const struct entries *e,
		       enum rx_mode mode, const char *path)
{
	struct member *m = xcalloc(e->nr ? e->nr : 1, sizeof(*m));
	size_t i, j;
	int ret = 0;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < e->nr; i++) {
		literal_key(e->v[i].text, mode, m[i].key);
		m[i].idx = i;
	}
	qsort(m, e->nr, sizeof(*m), member_cmp);
	set->b = xcalloc(e->nr ? e->nr : 1, sizeof(*set->b));
	for (i = 0; !ret && i < e->nr; i = j) {
		for (j = i + 1; j < e->nr && !strcmp(m[i].key, m[j].key); j++)
			;
		ret = rxset_add_group(set, m + i, j - i, mode, path, e);
	}
	free(m);
	if (ret)
		rxset_release(set);
	else
		key_index_build(&set->ix, set->b, set->nr, sizeof(*set->b));
	return ret;
}

static int rxset_match(const struct rxset *set, const char *s)
{
	size_t len = strlen(s);

	for (size_t k = 0; k <= RX_KEY && k <= len; k++) {
		long i =
			key_index_find(&set->ix, set->b, sizeof(*set->b), s, k);

		if (i >= 0 && rx_matches(set->b[i].re, s, len))
			return 1;
	}
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

/*
 * The first pattern that matches wins.  Patterns are indexed by their
 * literal key like a set's, so a name is tried only against the patterns
 * its first bytes allow, in table order.  Each is compiled when it is
 * first tried (most of index-perf's 1,300 never are);
 * lkp_tables_verify() compiles them all.
 */
struct valued {
	char *src; /* the Ruby regexp, anchored */
	struct ruby_re *re;
	int line, failed;
	int anchored; /* it has a literal key: a match starts at 0 */
	double value;
	long ivalue;
	int is_int;
};

/* The patterns of one key, in table order. */
struct okey {
	struct rx_key k;
	size_t *idx;
	size_t nr;
};

struct ordered {
	struct valued *v;
	size_t nr;
	struct okey *keys;
	size_t nkeys;
	struct key_index ix;
	char *path;
	unsigned flags; /* RUBY_RE_OFTEN or 0 */
};

static void ordered_release(struct ordered *o)
{
	for (size_t i = 0; i < o->nr; i++) {
		free(o->v[i].src);
		ruby_re_free(o->v[i].re);
	}
	for (size_t i = 0; i < o->nkeys; i++)
		free(o->keys[i].idx);
	free(o->v);
	free(o->keys);
	free(o->ix.slot);
	free(o->path);
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

/* Compiles entry v if it is not yet; 0, or -1 after an error. */
static int valued_compile(const struct ordered *o, struct valued *v)
{
	const char *why = NULL;
	unsigned flags = o->flags;

	if (v->re)
		return 0;
	if (v->failed)
		return -1;
	if (v->anchored)
		flags |= RUBY_RE_ANCHORED;
	v->re = ruby_re_compile(v->src, strlen(v->src), flags, &why);
	if (v->re)
		return 0;
	v->failed = 1;
	/* "(?:^" PATTERN "$)" */
	return error("%s:%d: cannot use Ruby regexp '%.*s': %s", o->path,
		     v->line, (int)strlen(v->src) - 6, v->src + 4, why);
}

static void ordered_index(struct ordered *o, const char (*keys)[RX_KEY + 1])
{
	size_t i, j;

	o->keys = xcalloc(o->nr + 1, sizeof(*o->keys));
	for (i = 0; i < o->nr; i++) {
		struct okey *k = NULL;

		for (j = 0; j < o->nkeys && !k; j++)
			if (!strcmp(o->keys[j].k.key, keys[i]))
				k = &o->keys[j];
		if (!k) {
			k = &o->keys[o->nkeys++];
			memcpy(k->k.key, keys[i], sizeof(k->k.key));
			k->k.keylen = strlen(k->k.key);
			k->idx = xcalloc(o->nr, sizeof(*k->idx));
		}
		k->idx[k->nr++] = i;
	}
	key_index_build(&o->ix, o->keys, o->nkeys, sizeof(*o->keys));
}

static int load_ordered(struct ordered *o, const char *name, const char *date,
			unsigned flags)
{
	struct entries e;
	char(*keys)[RX_KEY + 1] = NULL;
	char *path = NULL;
	int ret = load_entries(name, date, &e, &path);

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (ret)
		goto out;
	o->flags = flags;
	o->v = xcalloc(e.nr ? e.nr : 1, sizeof(*o->v));
	keys = xcalloc(e.nr ? e.nr : 1, sizeof(*keys));
	for (size_t i = 0; i < e.nr; i++) {
		char *text = e.v[i].text, *sp = strrchr(text, ' ');
		struct valued *v = &o->v[o->nr];
		struct strbuf src = STRBUF_INIT;

		if (!sp || sp == text || parse_value(sp + 1, v) < 0) {
			ret = error("%s:%d: want 'REGEXP VALUE'", o->path,
				    e.v[i].line);
			break;
		}
		*sp = '\0';
		v->anchored = literal_key(text, RX_FULL, keys[o->nr]) > 0;
		rx_source(&src, text, RX_FULL);
		v->src = strbuf_detach(&src, NULL);
		v->line = e.v[i].line;
		o->nr++;
	}
	if (!ret)
		ordered_index(o, (const char(*)[RX_KEY + 1]) keys);
	free(keys);
out:
	if (ret)
		ordered_release(o);
	entries_release(&e);
	return ret;
}

static const struct valued *ordered_find(const struct ordered *o, const char *s)
{
	const struct okey *cand[RX_KEY + 1];
	size_t pos[RX_KEY + 1], nc = 0, len = strlen(s);

	for (size_t k = 0; k <= RX_KEY && k <= len; k++) {
		long i =
			key_index_find(&o->ix, o->keys, sizeof(*o->keys), s, k);

		if (i >= 0) {
			cand[nc] = &o->keys[i];
			pos[nc++] = 0;
		}
	}
	/* the candidates' lists, merged into table order */
	for (;;) {
		size_t best = nc, at;
		struct valued *v;

		for (size_t c = 0; c < nc; c++)
			if (pos[c] < cand[c]->nr &&
			    (best == nc ||
			     cand[c]->idx[pos[c]] < cand[best]->idx[pos[best]]))
				best = c;
		if (best == nc)
			return NULL;
		at = cand[best]->idx[pos[best]++];
		v = &o->v[at];
		if (!valued_compile(o, v) && rx_matches(v->re, s, len))
			return v;
	}
}

static int ordered_verify(const struct ordered *o)
{
	for (size_t i = 0; i < o->nr; i++)
		if (valued_compile(o, &o->v[i]) < 0)
			return -1;
	return 0;
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

/* Adds program SP's options to T's program of that name (made if none). */
static void merge_program(struct lkp_tables *t, const struct program *sp,
			  size_t *prog_alloc, size_t *opts_alloc)
{
	struct program *p = NULL;
	size_t i, alloc;

	for (i = 0; i < t->nr_prog && !p; i++)
		if (!strcmp(t->prog[i].name, sp->name))
			p = &t->prog[i];
	if (!p) {
		ALLOC_GROW(t->prog, t->nr_prog + 1, *prog_alloc);
		p = &t->prog[t->nr_prog++];
		memset(p, 0, sizeof(*p));
		p->name = xstrdup(sp->name);
	}
	alloc = p->nr_opt;
	for (i = 0; i < sp->nr_opt; i++) {
		const char *name = sp->opt[i].name;

		add_option(&p->opt, &p->nr_opt, &alloc, name, strlen(name),
			   sp->opt[i].type);
		add_option(&t->opts, &t->nr_opts, opts_alloc, name,
			   strlen(name), sp->opt[i].type);
	}
	options_sort(p->opt, &p->nr_opt);
}

/*
 * params-deployed: program options the robot's own lkp-tests had before
 * the public repository did, "FROM UNTIL PROGRAM [-OPTION|=OPTION...]"
 * (days; FROM included, UNTIL not): on a date in between, PROGRAM has
 * these options too.  Every line is parsed as a params line, also one
 * not due.  The generator does not write this file; each line says which
 * mails show it (config/data/lkp/README, "Deployed early").
 */
static int deployed_params(struct lkp_tables *t, const char *date,
			   size_t *prog_alloc, size_t *opts_alloc)
{
	struct datafile f;
	size_t pos = 0;
	char *ln;
	long len;
	int lineno = 0, ret = datafile_read(&f, "params-deployed");

	while (!ret && (len = next_line(&f.sb, &pos, &ln)) >= 0) {
		struct lkp_tables *s;
		size_t alloc[3] = { 0, 0, 0 };
		long long at;
		char *rest;

		lineno++;
		if (!len || *ln == '#')
			continue;
		if (len < 24 || ln[10] != ' ' || ln[21] != ' ' ||
		    parse_when(ln, 10, &at) != 0 ||
		    parse_when(ln + 11, 10, &at) != 0 ||
		    strncmp(ln, ln + 11, 10) >= 0 || ln[22] == '*') {
			ret = error("%s:%d: want 'FROM UNTIL PROGRAM "
				    "[-OPTION|=OPTION...]' (FROM before UNTIL, "
				    "YYYY-MM-DD)",
				    f.path, lineno);
			break;
		}
		s = xcalloc(1, sizeof(*s));
		rest = xstrndup(ln + 22, (size_t)len - 22);
		ret = parse_params_line(s, rest, f.path, lineno, &alloc[0],
					&alloc[1], &alloc[2]);
		free(rest);
		if (!ret && strncmp(date, ln, 10) >= 0 &&
		    strncmp(date, ln + 11, 10) < 0)
			merge_program(t, &s->prog[0], prog_alloc, opts_alloc);
		lkp_tables_free(s);
	}
	datafile_release(&f);
	return ret;
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
	if (!ret)
		ret = deployed_params(t, date, &prog_alloc, &opts_alloc);
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
	char *ln;
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

	long long at;

	if (!date || parse_when(date, strlen(date), &at) < 0 ||
	    date[10] == 'T') {
		error("bad lkp table date '%s' (want YYYY-MM-DD or "
		      "YYYY-MM-DD hh:mm:ss +zzzz)",
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
	    load_ordered(&t->threshold, "perf-metrics-threshold", date,
			 RUBY_RE_OFTEN) < 0 ||
	    load_ordered(&t->index_perf, "index-perf", date, 0) < 0 ||
	    load_ordered(&t->index_latency, "index-latency", date, 0) < 0 ||
	    load_names(&t->tests, "tests", date) < 0 ||
	    load_params(t, date) < 0 || load_rules(t, date) < 0) {
		lkp_tables_free(t);
		return NULL;
	}
	return t;
}

int lkp_tables_verify(const struct lkp_tables *t)
{
	return ordered_verify(&t->threshold) ||
			       ordered_verify(&t->index_perf) ||
			       ordered_verify(&t->index_latency)
		       ? -1
		       : 0;
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
			  double delta, double max, int int_delta)
{
	const struct valued *v = ordered_find(&t->threshold, stat);

	if (v) {
		if (max < v->value)
			return 0;
		/* Integer thresholds: Ruby's v / 2 is integer division */
		if (int_delta && v->is_int && delta < (double)(v->ivalue / 2))
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

static int has_sibling(int (*base_has)(void *, const char *, int), void *ctx,
		       const char *base, const char *const *suffixes)
{
	struct strbuf key = STRBUF_INIT;
	int found = 0;

	for (; !found && *suffixes; suffixes++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.%s", base, *suffixes);
		found = base_has(ctx, key.buf, 0);
	}
	strbuf_release(&key);
	return found;
}

int lkp_skip_function_stat(const struct lkp_tables *t, const char *stat,
			   int (*base_has)(void *ctx, const char *key,
					   int any_child),
			   void *ctx)
{
	static const char *const pass[] = { "pass", NULL };
	static const char *const passed[] = { "pass", "passed", NULL };
	static const char *const fail[] = { "fail", NULL };
	static const char *const ewf[] = { "error", "warn", "fail", NULL };
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
		 * ae5d5ee28: kept when the base has any key matching
		 * /^BASE\.[^.]*$/ (BASE put into the regex as it is; a
		 * literal prefix here, the same for every name without
		 * regex characters but the dots)
		 */
		skip = !base_has(ctx, base, 1);
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

/* The option names of the programs one job references, sorted. */
struct lkp_job_options {
	const char **name;
	size_t nr;
};

static int cmp_ptr(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

struct lkp_job_options *lkp_job_options_new(const struct lkp_tables *t,
					    const char *const *job_keys,
					    size_t nr_keys)
{
	struct lkp_job_options *o = xcalloc(1, sizeof(*o));
	const struct program **progs;
	size_t nprogs = 0, nopts = 0, i, j, k;

	progs = xcalloc(nr_keys + 1, sizeof(*progs));
	for (i = 0; t->nr_prog && i < nr_keys; i++) {
		struct program pk = { (char *)(uintptr_t)job_keys[i], NULL, 0 };
		const struct program *p =
			bsearch(&pk, t->prog, t->nr_prog, sizeof(*t->prog),
				program_cmp);

		if (p)
			progs[nprogs++] = p;
	}
	/* each program once, then the union of their options */
	qsort(progs, nprogs, sizeof(*progs), cmp_ptr);
	for (i = j = 0; i < nprogs; i++)
		if (!j || progs[j - 1] != progs[i])
			progs[j++] = progs[i];
	nprogs = j;
	for (i = 0; i < nprogs; i++)
		nopts += progs[i]->nr_opt;
	o->name = xcalloc(nopts + 1, sizeof(*o->name));
	for (i = 0; i < nprogs; i++)
		for (k = 0; k < progs[i]->nr_opt; k++)
			o->name[o->nr++] = progs[i]->opt[k].name;
	qsort(o->name, o->nr, sizeof(*o->name), str_cmp);
	free(progs);
	return o;
}

int lkp_job_options_has(const struct lkp_tables *t,
			const struct lkp_job_options *o, const char *key)
{
	if (option_find(t->always, t->nr_always, key) || lkp_is_program(t, key))
		return 1;
	return o->nr &&
	       bsearch(&key, o->name, o->nr, sizeof(*o->name), str_cmp);
}

void lkp_job_options_free(struct lkp_job_options *o)
{
	if (!o)
		return;
	free(o->name);
	free(o);
}

int lkp_param_type(const struct lkp_tables *t, const char *key)
{
	const struct option *o = option_find(t->always, t->nr_always, key);

	if (!o)
		o = option_find(t->opts, t->nr_opts, key);
	return o ? o->type : 0;
}
