// SPDX-License-Identifier: GPL-2.0-only
/*
 * buildlog.c: findings and their ids in one build-log line (buildlog.h).
 */
#include "robot/util/common.h"
#include "robot/kinds/build/buildlog.h"

#include <ctype.h>

static const char *const error_marks[] = {
	": error: ",
	": fatal error: ",
	"() error: ",
	": Error: ",
	": ERROR: ",
	"ERROR: ",
	"undefined reference",
	"undefined symbol",
	"No rule to make target",
	"relocation truncated",
	"dangerous relocation",
	"multiple definition of",
	"internal compiler error",
	": No such file or directory",
	"can't open file",
};
static const char *const warning_marks[] = {
	": warning: ",	       ": note: ",	  ": sparse: ",
	"() warn: ",	       ": WARNING: ",	  "WARNING: ",
	"Warning: ",	       ": Warning: ",	  " Invalid token: ",
	"Unneeded variable: ", "opportunity for",
};

static int has(const char *line, size_t len, const char *mark)
{
	return memmem(line, len, mark, strlen(mark)) != NULL;
}

enum finding_level findings_line_parse(const char *line, size_t len)
{
	size_t i;

	/* gcc's excerpt lines ("   12 |   x;", carets) are indented */
	if (!len || line[0] == ' ' || line[0] == '\t')
		return FINDING_NONE;
	/* every finding names where (FILE:LINE, a tool's "name:"): a line
	 * without a colon is make's or the shell's */
	if (!memchr(line, ':', len))
		return FINDING_NONE;
	for (i = 0; i < ARRAY_SIZE(error_marks); i++)
		if (has(line, len, error_marks[i]))
			return FINDING_ERROR;
	for (i = 0; i < ARRAY_SIZE(warning_marks); i++)
		if (has(line, len, warning_marks[i]))
			return FINDING_WARNING;
	return FINDING_NONE;
}

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
