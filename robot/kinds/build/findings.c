// SPDX-License-Identifier: GPL-2.0-only
/*
 * findings.c: the build log parser (findings.h).  Hand-written: the
 * formats are few and fixed (gcc/clang "FILE:LINE:COL: SEVERITY: MSG",
 * sparse's "sparse:" prefix, smatch's "FILE:LINE FUNC() warn:", the
 * linkers' "undefined reference" lines, make's "***" lines), and a
 * regular-expression library would be a dependency for six patterns.
 */
#include "common.h"
#include "utf8.h"
#include "xz.h"
#include "kinds/build/findings.h"

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

		if (ch == 0x1b && i + 1 < len && s[i + 1] == '[') {
			size_t j = i + 2;

			while (j < len && (isdigit((unsigned char)s[j]) ||
					   s[j] == ';'))
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

void bline_parse(struct bline *l, char *text)
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
		} else if (*q == ' ' && (strstr(q, " warn: ") ||
					 strstr(q, " error: "))) {
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
	sev = SEV_NONE;
	if (strstr(p, "undefined reference to") ||
	    strstr(p, "multiple definition of") ||
	    strstr(p, "undefined symbol: ") || starts(p, "ERROR: ") ||
	    starts(p, "error: ") || starts(p, "error[") ||
	    (starts(p, "make") && strstr(p, ": *** ")) ||
	    strstr(p, " error: "))
		sev = SEV_ERROR;
	else if (starts(p, "Warning: ") || starts(p, "WARNING: ") ||
		 starts(p, "warning: ") || strstr(p, ": warning: "))
		sev = SEV_WARNING;
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

static int keep_line(struct blog *log, const char *s, size_t len,
		     size_t max_lines, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	findings_clean(&sb, s, len);
	if (noise(sb.buf)) {
		strbuf_release(&sb);
		return 0;
	}
	if (max_lines && log->n >= max_lines) {
		strbuf_release(&sb);
		return error("%s: more than %zu lines of compiler output "
			     "(build.log: not a build log?)",
			     path, max_lines);
	}
	ALLOC_GROW(log->v, log->n + 1, log->alloc);
	bline_parse(&log->v[log->n++], strbuf_detach(&sb, NULL));
	return 0;
}

int blog_read(struct blog *log, const char *path, size_t max_lines)
{
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
			ret = keep_line(log, line.buf, line.len, max_lines,
					path);
			strbuf_reset(&line);
			nul_here = 0;
		}
		if (ret)
			break;
	}
	if (n < 0)
		ret = -1;
	if (!ret && line.len)
		ret = keep_line(log, line.buf, line.len, max_lines, path);
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A key of the base build's log counts once for each of its findings: a
 * log with two findings of one key where the base had one has one new,
 * the first (826: two "no member named" errors, the base had one).
 */
static const struct blog *sort_log;

static int cmp_line(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_log->v[i].key, sort_log->v[j].key);

	return c ? c : (i > j) - (i < j);
}

/* a note is new or old as any finding (715: new notes marked) */
static int keyed(const struct bline *l)
{
	return l->key != NULL;
}

void blog_mark_new(struct blog *log, const struct blog *base)
{
	char **keys = NULL;
	size_t *idx, i, n = 0, m = 0;

	if (base) {
		keys = xcalloc(base->n + 1, sizeof(*keys));
		for (i = 0; i < base->n; i++)
			if (keyed(&base->v[i]))
				keys[n++] = base->v[i].key;
		qsort(keys, n, sizeof(*keys), cmp_str);
	}
	idx = xcalloc(log->n + 1, sizeof(*idx));
	for (i = 0; i < log->n; i++)
		if (keyed(&log->v[i]))
			idx[m++] = i;
	sort_log = log;
	qsort(idx, m, sizeof(*idx), cmp_line);
	for (i = 0; i < m;) {
		const char *key = log->v[idx[i]].key;
		size_t j = i, lo = 0, hi = n, had = 0, total;

		while (j < m && !strcmp(log->v[idx[j]].key, key))
			j++;
		total = j - i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(keys[mid], key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		while (lo + had < n && !strcmp(keys[lo + had], key))
			had++;
		/* the first total - had of them are new */
		for (; i < j; i++)
			log->v[idx[i]].is_new = i - (j - total) + had < total;
	}
	free(idx);
	free(keys);
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
