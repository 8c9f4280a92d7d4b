// SPDX-License-Identifier: GPL-2.0-only
/*
 * findings.c: the build log parser of both build kinds (findings.h).
 * Hand-written: the formats are few and fixed (gcc/clang "FILE:LINE:COL:
 * SEVERITY: MSG", sparse's "sparse:" prefix, smatch's "FILE:LINE FUNC()
 * warn:", the linkers' "undefined reference" lines, make's "***" lines),
 * and a regular-expression library would be a dependency for six
 * patterns.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "robot/util/xz.h"
#include "robot/kinds/build/findings.h"

#include <ctype.h>

void findings_clean(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 0;

	if (len && s[len - 1] == '\r')
		len--;
	while (i < len) {
		unsigned char ch = (unsigned char)s[i];
		uint32_t cp;
		size_t n;

		if (ch >= 0x20 && ch < 0x7f) {
			/* a run of visible ASCII, as it is */
			for (n = i + 1;
			     n < len && (unsigned char)s[n] >= 0x20 &&
			     (unsigned char)s[n] < 0x7f;
			     n++)
				;
			strbuf_add(out, s + i, n - i);
			i = n;
			continue;
		}
		if (ch == 0x1b && i + 1 < len && s[i + 1] == '[') {
			size_t j = i + 2;

			while (j < len &&
			       (isdigit((unsigned char)s[j]) || s[j] == ';'))
				j++;
			if (j < len && (s[j] == 'm' || s[j] == 'K')) {
				i = j + 1; /* a colour or erase-line sequence */
				continue;
			}
		}
		if (ch == '\t') {
			strbuf_addch(out, '\t');
			i++;
			continue;
		}
		if (ch < 0x20 || ch == 0x7f) {
			strbuf_addch(out, '^');
			strbuf_addch(out, ch == 0x7f ? '?' : (char)(ch + 0x40));
			i++;
			continue;
		}
		n = utf8_char(s + i, len - i, &cp);
		if (!n || utf8_is_control(cp) || utf8_is_invisible(cp)) {
			strbuf_addch(out, '?');
			i += n ? n : 1;
			continue;
		}
		strbuf_add(out, s + i, n);
		i += n;
	}
}

/* ---- the branch summary's id of a finding ---- */

static int is_word(int c)
{
	return isalnum(c) || c == '_';
}

static int is_hex(int c)
{
	return isxdigit(c);
}

/* the allowed bytes of an id, before words are joined */
static int keep(int c)
{
	return isalnum(c) || strchr("_.:()/ -", c);
}

/* The line trimmed, its "did you mean" tail, [-Wflag] and modpost: gone. */
static void line_front(struct strbuf *s, struct strbuf *t, const char *line,
		       size_t len, int drop_did_you_mean)
{
	const char *cut;

	while (len && isspace((unsigned char)*line))
		line++, len--;
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	strbuf_add(s, line, len);
	if (drop_did_you_mean && (cut = strstr(s->buf, "; did you mean ")))
		strbuf_setlen(s, cut - s->buf);
	/* one trailing [-Wflag] (not clang's [-Werror,-Wflag]) */
	if (s->len && s->buf[s->len - 1] == ']') {
		char *b = NULL, *q = s->buf;

		while ((q = strstr(q, " [-W")))
			b = q++;
		if (b && !memchr(b, ',', s->buf + s->len - b) &&
		    !memchr(b + 2, ']', s->buf + s->len - 1 - (b + 2)))
			strbuf_setlen(s, b - s->buf);
	}
	if (!strncmp(s->buf, "ERROR: modpost: ", 16)) {
		strbuf_addstr(t, "ERROR: ");
		strbuf_addstr(t, s->buf + 16);
		strbuf_reset(s);
		strbuf_addbuf(s, t);
		strbuf_reset(t);
	}
}

/* Pass 1: assert numbers, offsets, hex, :NUM and [NUM] go. */
static void numbers_drop(struct strbuf *t, const char *src)
{
	const char *p;

	for (p = src; *p;) {
		if (!strncmp(p, "__compiletime_assert_", 21) &&
		    isdigit((unsigned char)p[21])) {
			strbuf_addstr(t, "__compiletime_assert_NNN");
			p += 21;
			while (isdigit((unsigned char)*p))
				p++;
		} else if (p[0] == '+' && p[1] == '0' && p[2] == 'x' &&
			   is_hex((unsigned char)p[3])) {
			p += 3;
			while (is_hex((unsigned char)*p))
				p++;
		} else if (p[0] == '0' && p[1] == 'x') {
			p += 2;
			while (is_hex((unsigned char)*p))
				p++;
		} else if (p[0] == ':' && isdigit((unsigned char)p[1])) {
			p++;
			while (isdigit((unsigned char)*p))
				p++;
		} else if (p[0] == '[' && isdigit((unsigned char)p[1])) {
			const char *q = p + 1;

			while (isdigit((unsigned char)*q))
				q++;
			if (*q == ']')
				p = q + 1;
			else
				strbuf_addch(t, *p++);
		} else {
			strbuf_addch(t, *p++);
		}
	}
}

void findings_line_id(struct strbuf *out, const char *line, size_t len,
		      int drop_did_you_mean)
{
	struct strbuf s = STRBUF_INIT, t = STRBUF_INIT;
	const char *p;
	size_t i, start = out->len;
	int first;

	line_front(&s, &t, line, len, drop_did_you_mean);
	numbers_drop(&t, s.buf);
	strbuf_reset(&s);
	/* pass 2: quotes and '*' are blanks, other punctuation goes */
	for (i = 0; i < t.len; i++) {
		unsigned char c = (unsigned char)t.buf[i];

		if (c == '\'' || c == '`' || c == '*')
			strbuf_addch(&s, ' ');
		else if (keep(c))
			strbuf_addch(&s, c);
	}
	strbuf_reset(&t);
	/* pass 3: numbers standing alone go; '/' is '-' */
	for (i = 0; i < s.len;) {
		if (isdigit((unsigned char)s.buf[i]) &&
		    (!i || !is_word((unsigned char)s.buf[i - 1]))) {
			size_t j = i;

			while (j < s.len && isdigit((unsigned char)s.buf[j]))
				j++;
			if (j == s.len || !is_word((unsigned char)s.buf[j])) {
				i = j;
				continue;
			}
			strbuf_add(&t, s.buf + i, j - i);
			i = j;
			continue;
		}
		strbuf_addch(&t, s.buf[i] == '/' ? '-' : s.buf[i]);
		i++;
	}
	/* pass 4: words, their leading '-' dropped, joined */
	first = 1;
	strbuf_reset(&s);
	for (p = t.buf; *p;) {
		const char *w;
		size_t n;

		while (*p == ' ')
			p++;
		w = p;
		while (*p && *p != ' ')
			p++;
		n = p - w;
		while (n && *w == '-')
			w++, n--;
		if (!n)
			continue;
		if (!first)
			strbuf_addch(&s, ' ');
		strbuf_add(&s, w, n);
		first = 0;
	}
	for (i = 0; i < s.len; i++) {
		if (s.buf[i] == ':' && s.buf[i + 1] == ' ') {
			strbuf_addch(out, ':');
			i++;
		} else {
			strbuf_addch(out, s.buf[i] == ' ' ? '-' : s.buf[i]);
		}
	}
	if (out->len - start > 200)
		strbuf_setlen(out, start + 200);
	strbuf_release(&s);
	strbuf_release(&t);
}

/* ---- the finding report's lines ---- */

/* Whether p starts with a decimal number; *end after it. */
static int number(const char *p, const char **end, long *v)
{
	char *e;

	if (!isdigit((unsigned char)*p))
		return 0;
	errno = 0;
	*v = strtol(p, &e, 10);
	if (errno || *v > 100000000)
		return 0;
	*end = e;
	return 1;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The marks of a finding in a line, and what each report makes of a line
 * that has one: the finding report's severity of a line that does not
 * start "FILE:LINE: SEVERITY" (bline_parse()), and the branch summary's
 * level (findings_line_level()).  An error mark beats a warning mark.
 */
enum mark_at {
	ANYWHERE,
	AT_START,
	MAKE_LINE, /* anywhere in a line of make's ("make[2]: *** ...") */
};

static const struct mark {
	const char *text;
	enum mark_at at;
	enum finding_sev report;
	enum finding_level summary;
} marks[] = {
	/* gcc, clang, the assemblers, smatch, coccinelle, rustc */
	{ " error: ", ANYWHERE, SEV_ERROR, FINDING_NONE },
	{ ": error: ", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ ": fatal error: ", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "() error: ", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ ": Error: ", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ ": ERROR: ", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "ERROR: ", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "ERROR: ", AT_START, SEV_ERROR, FINDING_ERROR },
	{ "error: ", AT_START, SEV_ERROR, FINDING_NONE },
	{ "error[", AT_START, SEV_ERROR, FINDING_NONE },
	{ "internal compiler error", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ ": No such file or directory", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "can't open file", ANYWHERE, SEV_NONE, FINDING_ERROR },
	/* the linkers */
	{ "undefined reference", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "undefined reference to", ANYWHERE, SEV_ERROR, FINDING_ERROR },
	{ "undefined symbol", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "undefined symbol: ", ANYWHERE, SEV_ERROR, FINDING_ERROR },
	{ "multiple definition of", ANYWHERE, SEV_ERROR, FINDING_ERROR },
	{ "relocation truncated", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ "dangerous relocation", ANYWHERE, SEV_NONE, FINDING_ERROR },
	/* make: its "***" line stops on a finding listed already */
	{ "No rule to make target", ANYWHERE, SEV_NONE, FINDING_ERROR },
	{ ": *** ", MAKE_LINE, SEV_ERROR, FINDING_NONE },
	/* warnings: compilers, sparse, smatch, coccinelle, Sphinx, tools */
	{ ": warning: ", ANYWHERE, SEV_WARNING, FINDING_WARNING },
	{ "warning: ", AT_START, SEV_WARNING, FINDING_NONE },
	{ ": note: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ ": sparse: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ "() warn: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ ": WARNING: ", ANYWHERE, SEV_WARNING, FINDING_WARNING },
	{ "WARNING: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ "WARNING: ", AT_START, SEV_WARNING, FINDING_WARNING },
	{ "Warning: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ "Warning: ", AT_START, SEV_WARNING, FINDING_WARNING },
	{ ": Warning: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ " Invalid token: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ "Unneeded variable: ", ANYWHERE, SEV_NONE, FINDING_WARNING },
	{ "opportunity for", ANYWHERE, SEV_NONE, FINDING_WARNING },
};

static int has_mark(const char *line, size_t len, const struct mark *m)
{
	size_t n = strlen(m->text);

	switch (m->at) {
	case AT_START:
		return len >= n && !memcmp(line, m->text, n);
	case MAKE_LINE:
		if (len < 4 || memcmp(line, "make", 4))
			return 0;
		break;
	case ANYWHERE:
		break;
	}
	return memmem(line, len, m->text, n) != NULL;
}

/* The bytes of [s, s + len) as bits (a byte's low six bits say which):
 * a text whose bits are not all among a line's is not in it. */
static uint64_t byte_bits(const char *s, size_t len)
{
	uint64_t bits = 0;
	size_t i;

	for (i = 0; i < len; i++)
		bits |= UINT64_C(1) << ((unsigned char)s[i] & 63);
	return bits;
}

/* The worst severity (report) or level (summary) the marks give. */
static void marked(const char *line, size_t len, enum finding_sev *report,
		   enum finding_level *summary)
{
	static uint64_t mark_bits[ARRAY_SIZE(marks)];
	uint64_t line_bits = byte_bits(line, len);
	size_t i;

	*report = SEV_NONE;
	*summary = FINDING_NONE;
	if (!mark_bits[0])
		for (i = 0; i < ARRAY_SIZE(marks); i++)
			mark_bits[i] =
				byte_bits(marks[i].text, strlen(marks[i].text));
	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		const struct mark *m = &marks[i];

		if ((m->report > *report || m->summary > *summary) &&
		    !(mark_bits[i] & ~line_bits) && has_mark(line, len, m)) {
			if (m->report > *report)
				*report = m->report;
			if (m->summary > *summary)
				*summary = m->summary;
		}
	}
}

enum finding_level findings_line_level(const char *line, size_t len)
{
	enum finding_sev report;
	enum finding_level summary;

	/* gcc's excerpt lines ("   12 |   x;", carets) are indented */
	if (!len || line[0] == ' ' || line[0] == '\t')
		return FINDING_NONE;
	/* every finding names where (FILE:LINE, a tool's "name:"): a line
	 * without a colon is make's or the shell's */
	if (!memchr(line, ':', len))
		return FINDING_NONE;
	marked(line, len, &report, &summary);
	return summary;
}

/* The severity word after "FILE:LINE[:COL]: ", or SEV_NONE. */
static enum finding_sev severity(const char *p)
{
	if (starts(p, "sparse: "))
		return SEV_SPARSE;
	if (starts(p, "error: ") || starts(p, "fatal error: ") ||
	    starts(p, "Error: ") || starts(p, "undefined reference") ||
	    strstr(p, "multiple definition of"))
		return SEV_ERROR;
	if (starts(p, "warning: ") || starts(p, "Warning: "))
		return SEV_WARNING;
	if (starts(p, "note: "))
		return SEV_NOTE;
	return SEV_NONE;
}

/*
 * The key of a finding: its file, then its text from the message on, so
 * that the line and column numbers do not count.
 */
static char *make_key(const char *file, const char *msg)
{
	return xasprintf("%s\t%s", file ? file : "", msg);
}

/* Whether the file [p, end) is a Makefile: make's complaints are errors */
static int makefile(const char *p, const char *end)
{
	const char *base = p, *q;

	for (q = p; q < end; q++)
		if (*q == '/')
			base = q + 1;
	return !strncmp(base, "Makefile", 8) || !strncmp(base, "Kbuild", 6) ||
	       (end - base > 3 && !strncmp(end - 3, ".mk", 3));
}

/* Classifies one cleaned line into `l` (text is taken over). */
static void bline_parse(struct bline *l, char *text)
{
	const char *p = text, *colon, *q;
	long line = 0, col = 0;
	enum finding_sev sev;

	memset(l, 0, sizeof(*l));
	l->text = text;
	/* FILE:LINE[:COL[-COL]]: SEVERITY or FILE:LINE FUNC() warn: */
	colon = strchr(p, ':');
	if (colon && colon > p && !strchr(" \t", *p) &&
	    !memchr(p, ' ', (size_t)(colon - p)) &&
	    number(colon + 1, &q, &line)) {
		const char *msg;

		if (*q == ':' && number(q + 1, &q, &col) && *q == '-')
			number(q + 1, &q, &col);
		if (*q == ':' && q[1] == ' ') {
			msg = q + 2;
			sev = severity(msg);
			/* "Makefile:1752: target ...", coccinelle,
			 * Sphinx's "FILE:LINE: WARNING: ..." */
			if (sev == SEV_NONE)
				sev = strstr(msg, "rror") || makefile(p, colon)
					      ? SEV_ERROR
					      : SEV_WARNING;
		} else if (*q == ' ' &&
			   (strstr(q, " warn: ") || strstr(q, " error: "))) {
			msg = q + 1;
			sev = SEV_SMATCH;
		} else {
			sev = SEV_NONE;
			msg = NULL;
		}
		if (sev != SEV_NONE) {
			l->sev = sev;
			l->file = xstrndup(p, (size_t)(colon - p));
			l->line = line;
			l->key = make_key(l->file, msg);
			return;
		}
	}
	/* the linkers, objtool, make, rustc, kernel-doc, scripts */
	{
		enum finding_level unused;

		marked(p, strlen(p), &sev, &unused);
	}
	if (sev != SEV_NONE) {
		l->sev = sev;
		l->key = make_key(NULL, p);
	}
}

/* kbuild's quiet command lines ("  CC      x.o") and make's chatter */
static int noise(const char *s)
{
	const char *p = s;

	if (starts(s, "make[") && (strstr(s, ": Entering directory") ||
				   strstr(s, ": Leaving directory")))
		return 1;
	if (p[0] != ' ' || p[1] != ' ' || !isupper((unsigned char)p[2]))
		return 0;
	for (p += 2; isupper((unsigned char)*p) || isdigit((unsigned char)*p) ||
		     *p == '_';
	     p++)
		;
	return *p == ' ' && p - s >= 3 && strspn(p, " ") >= 2;
}

struct blog_limits {
	size_t lines, bytes;
};

static int keep_line(struct blog *log, const char *s, size_t len,
		     const struct blog_limits *max, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	findings_clean(&sb, s, len);
	if (noise(sb.buf)) {
		strbuf_release(&sb);
		return 0;
	}
	if (max->lines && log->n >= max->lines) {
		strbuf_release(&sb);
		return error("%s: more than %zu lines of compiler output "
			     "(build.log: not a build log?)",
			     path, max->lines);
	}
	if (max->bytes && sb.len + 1 > max->bytes - log->bytes) {
		strbuf_release(&sb);
		return error("%s: more than %zu MiB of compiler output kept "
			     "(robot's memory limit; not a build log?)",
			     path, max->bytes >> 20);
	}
	log->bytes += sb.len + 1;
	ALLOC_GROW(log->v, log->n + 1, log->alloc);
	bline_parse(&log->v[log->n], strbuf_detach(&sb, NULL));
	{
		struct bline *l = &log->v[log->n];
		const struct bline *prev = log->n ? l - 1 : NULL;

		if (starts(l->text, "WARNING: unmet direct dependencies ") ||
		    (prev && prev->sev == SEV_KCONFIG &&
		     (starts(l->text, "  Depends on ") ||
		      starts(l->text, "  Selected by ") ||
		      starts(l->text, "  - ")))) {
			free(l->key);
			l->key = NULL;
			l->sev = SEV_KCONFIG;
		}
	}
	log->n++;
	return 0;
}

int blog_read(struct blog *log, const char *path, size_t max_lines,
	      size_t max_bytes)
{
	const struct blog_limits max = { max_lines, max_bytes };
	struct xz_reader *r = xz_open(path, 0);
	struct strbuf line = STRBUF_INIT;
	char buf[65536];
	size_t total = 0, nuls = 0, lines = 0;
	int ret = 0, nul_here = 0;
	ssize_t n;

	memset(log, 0, sizeof(*log));
	if (!r)
		return -1;
	while ((n = xz_read(r, buf, sizeof(buf))) > 0) {
		ssize_t i;

		total += (size_t)n;
		for (i = 0; i < n && !ret; i++) {
			if (buf[i] != '\n') {
				if (!buf[i])
					nul_here = 1;
				/* a line is cut at 4096 bytes: no log
				 * line is longer, junk may be */
				if (line.len < 4096)
					strbuf_addch(&line, buf[i]);
				continue;
			}
			lines++;
			nuls += nul_here;
			if (nuls > 3) {
				ret = error("%s: NUL bytes in %zu lines: "
					    "binary junk, not a build log",
					    path, nuls);
				break;
			}
			ret = keep_line(log, line.buf, line.len, &max, path);
			strbuf_reset(&line);
			nul_here = 0;
		}
		if (ret)
			break;
	}
	if (n < 0)
		ret = -1;
	if (!ret && line.len)
		ret = keep_line(log, line.buf, line.len, &max, path);
	if (!ret && !total)
		ret = error("%s: the build log is empty", path);
	if (!ret && nuls > 3)
		ret = error("%s: NUL bytes in %zu lines: binary junk, not a "
			    "build log",
			    path, nuls);
	xz_close(r);
	strbuf_release(&line);
	if (ret)
		blog_release(log);
	return ret;
}

/*
 * A key of the base build's log counts once for each of its findings: a
 * log with two findings of one key where the base had one has one new,
 * the first (826: two "no member named" errors, the base had one).
 */
static const struct blog *sort_log;
static int sort_by_text;

static const char *sort_str(size_t i)
{
	return sort_by_text ? sort_log->v[i].text : sort_log->v[i].key;
}

static int cmp_line(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_str(i), sort_str(j));

	return c ? c : (i > j) - (i < j);
}

static size_t *sorted(const struct blog *log, int by_text, const char *skip,
		      size_t *m)
{
	size_t *idx = xcalloc(log->n + 1, sizeof(*idx)), i;

	*m = 0;
	for (i = 0; i < log->n; i++)
		if (log->v[i].key && !(skip && skip[i]))
			idx[(*m)++] = i;
	sort_log = log;
	sort_by_text = by_text;
	qsort(idx, *m, sizeof(*idx), cmp_line);
	return idx;
}

/* The first of idx[0..n) whose string (text or key) is >= s. */
static size_t lower(const struct blog *log, const size_t *idx, size_t n,
		    int by_text, const char *s)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bline *l = &log->v[idx[mid]];

		if (strcmp(by_text ? l->text : l->key, s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Two passes.  A finding the base build printed as it is (the same line
 * and column) is old, each base line answering one finding, the last
 * ones of the same text (851: two "expected ')'" errors at 300 new, the
 * two at 308 old; 793: the first three of six equal link errors new).  Of the
 * others, those whose key (the line without its numbers) the base has left are
 * old too, the base's count of it answering as many: the first ones of a key
 * are the new ones (826: two "no member named" errors, the base had one
 * more of them at another line; 713: a sparse line that only moved).
 */
void blog_mark_new(struct blog *log, const struct blog *base)
{
	static const struct blog none;
	size_t *bidx, *lidx, nb, nl, i;
	char *used, *old;

	if (!base)
		base = &none;
	used = xcalloc(base->n + 1, 1);
	old = xcalloc(log->n + 1, 1);
	bidx = sorted(base, 1, NULL, &nb);
	lidx = sorted(log, 1, NULL, &nl);
	for (i = 0; i < nl;) {
		const char *text = log->v[lidx[i]].text;
		size_t j = i, lo, had = 0, total;

		while (j < nl && !strcmp(log->v[lidx[j]].text, text))
			j++;
		total = j - i;
		lo = lower(base, bidx, nb, 1, text);
		while (lo + had < nb &&
		       !strcmp(base->v[bidx[lo + had]].text, text))
			had++;
		/* the last `had` of them are the base's lines */
		for (; i < j; i++) {
			size_t k = i - (j - total);

			if (k + had >= total) {
				old[lidx[i]] = 1;
				used[bidx[lo + (k + had - total)]] = 1;
			}
		}
	}
	free(lidx);
	free(bidx);
	bidx = sorted(base, 0, used, &nb);
	lidx = sorted(log, 0, old, &nl);
	for (i = 0; i < nl;) {
		const char *key = log->v[lidx[i]].key;
		size_t j = i, lo, had = 0, total;

		while (j < nl && !strcmp(log->v[lidx[j]].key, key))
			j++;
		total = j - i;
		lo = lower(base, bidx, nb, 0, key);
		while (lo + had < nb &&
		       !strcmp(base->v[bidx[lo + had]].key, key))
			had++;
		for (; i < j; i++)
			log->v[lidx[i]].is_new = i - (j - total) + had < total;
	}
	free(bidx);
	free(lidx);
	free(used);
	free(old);
}

void blog_release(struct blog *log)
{
	size_t i;

	for (i = 0; i < log->n; i++) {
		free(log->v[i].text);
		free(log->v[i].file);
		free(log->v[i].key);
	}
	free(log->v);
	memset(log, 0, sizeof(*log));
}
