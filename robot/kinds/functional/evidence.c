// SPDX-License-Identifier: GPL-2.0-only
/*
 * evidence.c: cutting the excerpt of a functional report out of a run's
 * kernel log or test output (evidence.h; doc/functional.md "Evidence").
 *
 * A kernel log is read twice, streaming, so that memory stays within the
 * excerpt's bounds whatever the log's size: the first pass finds the first
 * line that names the headline (robot/kinds/functional/dmesg.c) and whether the
 * log was decoded by decode_stacktrace.sh (it then holds "Code starting with
 * the faulting instruction"); the second runs the report boundaries over the
 * log and keeps the report that holds that line, with the context lines
 * asked for.  The boundaries are those of lkp-tests' calltrace extraction,
 * re-told in doc/functional.md:
 *
 *   - a line that starts a report opens one (or, inside an open one,
 *     restarts its line count);
 *   - "---[ end trace" closes it; so does its 100th line after the last
 *     start;
 *   - in a decoded log a closed report takes the lines after it up to the
 *     next "Code starting with ..." listing (at most 150 lines counted
 *     from its start), then the listing, up to its first line that is no
 *     disassembly.
 */
#include "robot/util/common.h"
#include "robot/kinds/functional/evidence.h"
#include "robot/kinds/functional/dmesg.h"
#include "robot/engine/results.h"
#include "robot/util/utf8.h"
#include "robot/util/xz.h"

#include <ctype.h>
#include <sys/stat.h>

/* A line longer than this is cut (an excerpt line, and what is matched). */
#define LINE_CAP     65536
#define REPORT_LINES 100
#define DECODE_LINES 150
/* A last_state stat without a count: the end of the log, this long. */
#define TAIL_LINES 30
/* Lines before a test's name when its output is too long to quote whole. */
#define OUTPUT_BEFORE 20

static const char DECODE_FLAG[] = "Code starting with the faulting instruction";

/*
 * A log read twice (the headline, then the report around it) is
 * decompressed once: the first reading keeps the text when it is at most
 * LOG_KEEP_MAX bytes, and the second reads that (a dmesg.xz of 10 MB
 * took 180 million instructions of liblzma a reading).
 */
#define LOG_KEEP_MAX ((size_t)64 << 20)

struct log_cache {
	const char *path; /* whose text `text` is, whole; or NULL */
	struct strbuf text;
};

/*
 * A line of a log, without its '\n' and cut at LINE_CAP bytes, and
 * NUL-terminated: in the reader's buffer (its '\n' overwritten) when the
 * line lies in one buffer-full, else in the reader's `spill`.  It holds
 * until the next lr_next().
 */
struct log_line {
	const char *buf;
	size_t len;
	int spilled; /* in the reader's spill, not its buffer */
};

struct line_reader {
	struct xz_reader *xz;
	const char *path;
	char *buf; /* LINE_CAP bytes and a NUL */
	size_t at, len;
	int eof;
	long nr;		  /* lines read */
	unsigned long fills;	  /* buffer-fulls read */
	struct strbuf spill;	  /* a line across two buffer-fulls */
	struct log_cache *keep;	  /* the text kept while reading, or NULL */
	const struct strbuf *mem; /* the kept text read instead, or NULL */
	size_t mem_at;
};

/* `lc` (or NULL): the text of `path` is kept there, or read from there. */
static int lr_open(struct line_reader *lr, const char *path,
		   struct log_cache *lc)
{
	memset(lr, 0, sizeof(*lr));
	lr->path = path;
	lr->buf = xmalloc(LINE_CAP + 1);
	strbuf_init(&lr->spill, 0);
	if (lc && lc->path && !strcmp(lc->path, path)) {
		lr->mem = &lc->text;
		return 0;
	}
	lr->xz = xz_open(path, EVIDENCE_MAX_INPUT);
	if (!lr->xz) {
		free(lr->buf);
		lr->buf = NULL;
		return -1;
	}
	if (lc) {
		lc->path = NULL;
		strbuf_reset(&lc->text);
		lr->keep = lc;
	}
	return 0;
}

static void lr_close(struct line_reader *lr)
{
	if (lr->keep && lr->eof)
		lr->keep->path = lr->path;
	xz_close(lr->xz);
	free(lr->buf);
	strbuf_release(&lr->spill);
	lr->xz = NULL;
	lr->buf = NULL;
}

/* The next bytes of the log into lr->buf: how many, 0 at the end, -1. */
static ssize_t lr_fill(struct line_reader *lr)
{
	ssize_t n;

	if (lr->mem) {
		size_t left = lr->mem->len - lr->mem_at;

		n = (ssize_t)(left < LINE_CAP ? left : LINE_CAP);
		memcpy(lr->buf, lr->mem->buf + lr->mem_at, (size_t)n);
		lr->mem_at += (size_t)n;
		return n;
	}
	n = xz_read(lr->xz, lr->buf, LINE_CAP);
	if (n > 0 && lr->keep) {
		if (lr->keep->text.len + (size_t)n <= LOG_KEEP_MAX) {
			strbuf_add(&lr->keep->text, lr->buf, (size_t)n);
		} else {
			strbuf_release(&lr->keep->text);
			lr->keep = NULL;
		}
	}
	return n;
}

/* Appends what of s[0..n) fits the spilled line's LINE_CAP bytes. */
static void lr_spill(struct line_reader *lr, const char *s, size_t n)
{
	size_t room = LINE_CAP - lr->spill.len;

	strbuf_add(&lr->spill, s, n < room ? n : room);
}

/* The next line.  Returns 1, 0 at the end, -1 after an error. */
static int lr_next(struct line_reader *lr, struct log_line *line)
{
	int any = 0, spilled = 0;

	for (;;) {
		char *start, *nl;
		size_t n;

		if (lr->at == lr->len) {
			ssize_t got;

			if (lr->eof)
				break;
			got = lr_fill(lr);
			if (got < 0)
				return -1;
			lr->at = 0;
			lr->len = (size_t)got;
			lr->buf[lr->len] = '\0';
			lr->fills++;
			if (!got) {
				lr->eof = 1;
				break;
			}
		}
		any = 1;
		start = lr->buf + lr->at;
		nl = memchr(start, '\n', lr->len - lr->at);
		if (!nl) {
			if (!spilled)
				strbuf_reset(&lr->spill);
			spilled = 1;
			lr_spill(lr, start, lr->len - lr->at);
			lr->at = lr->len;
			continue;
		}
		n = (size_t)(nl - start);
		lr->at += n + 1;
		lr->nr++;
		if (spilled) {
			lr_spill(lr, start, n);
			line->buf = lr->spill.buf;
			line->len = lr->spill.len;
			line->spilled = 1;
			return 1;
		}
		/* the whole line is in the buffer, shorter than LINE_CAP */
		*nl = '\0';
		line->buf = start;
		line->len = n;
		line->spilled = 0;
		return 1;
	}
	if (!any)
		return 0;
	/* the log's last line, which no '\n' ends */
	lr->nr++;
	line->buf = lr->spill.buf;
	line->len = lr->spill.len;
	line->spilled = 1;
	return 1;
}

/*
 * Whether the lines of a log hold one of a few fixed texts, asked of each
 * line in turn: one strstr() a text over the rest of the buffer-full finds
 * where each is next, and the lines before the nearest are answered
 * without a search of their own (six strstr() of every line of a 10 MB
 * log, to find where a report starts, were 110 million instructions).
 */
#define FINDS_MAX 6

struct finder {
	const char *text[FINDS_MAX]; /* none holds a '\n' */
	size_t n;
	const char *next[FINDS_MAX]; /* where each is next, or NULL */
	const char *nearest;	     /* the least of next[], or NULL */
	unsigned long fill;	     /* the buffer-full of next[]; 0 none */
	const char *nul_from, *nul;  /* see next_nul() */
};

/*
 * Where strstr(s) stops: the first NUL from s on in the buffer-full,
 * remembered for [nul_from, nul] (the NULs that lr_next() writes later
 * are all before the line being asked about).
 */
static const char *next_nul(const struct line_reader *lr, struct finder *f,
			    const char *s)
{
	if (!f->nul || s < f->nul_from || s > f->nul) {
		f->nul_from = s;
		f->nul = memchr(s, '\0', (size_t)(lr->buf + lr->len - s));
		if (!f->nul)
			f->nul = lr->buf + lr->len;
	}
	return f->nul;
}

/*
 * The first place of `text` from the line after `line` to the end of
 * the buffer-full, or NULL; lr->buf[lr->len] is a NUL.
 */
static const char *find_after(const struct line_reader *lr, struct finder *f,
			      const struct log_line *line, const char *text)
{
	const char *s = line->buf + line->len + 1, *end = lr->buf + lr->len;

	while (s < end) {
		const char *p = strstr(s, text);

		if (p)
			return p;
		s = next_nul(lr, f, s) + 1;
	}
	return NULL;
}

/* Sets next[i] for `line` and the lines after it in the buffer. */
static void find_next(const struct line_reader *lr, struct finder *f,
		      const struct log_line *line, size_t i)
{
	f->next[i] = strstr(line->buf, f->text[i]);
	if (!f->next[i])
		f->next[i] = find_after(lr, f, line, f->text[i]);
}

/* Brings next[] and nearest to `line` (a line in the buffer). */
static void finder_move(const struct line_reader *lr, struct finder *f,
			const struct log_line *line)
{
	int fresh = f->fill != lr->fills;

	if (!fresh && (!f->nearest || f->nearest >= line->buf))
		return;
	if (fresh)
		f->nul = NULL;
	f->fill = lr->fills;
	f->nearest = NULL;
	for (size_t i = 0; i < f->n; i++) {
		/* a NULL of this buffer-full stays NULL: none is left */
		if (fresh || (f->next[i] && f->next[i] < line->buf))
			find_next(lr, f, line, i);
		if (f->next[i] && (!f->nearest || f->next[i] < f->nearest))
			f->nearest = f->next[i];
	}
}

/* lr_has() for a line a text may be in. */
static int lr_has_slow(const struct line_reader *lr, struct finder *f,
		       const struct log_line *line)
{
	const char *end = line->buf + line->len;
	size_t i;

	if (line->spilled) {
		for (i = 0; i < f->n; i++)
			if (strstr(line->buf, f->text[i]))
				return 1;
		return 0;
	}
	finder_move(lr, f, line);
	/* a text has no '\n': a place before the line's end is in it */
	if (!f->nearest || f->nearest >= end)
		return 0;
	/* but a NUL in the line ends what strstr() reads of it */
	for (i = 0; i < f->n; i++)
		if (f->next[i] && f->next[i] < end &&
		    strstr(line->buf, f->text[i]))
			return 1;
	return 0;
}

/* Whether strstr(line->buf, TEXT) finds one of f's texts. */
static inline int lr_has(const struct line_reader *lr, struct finder *f,
			 const struct log_line *line)
{
	/* the common case: none of the texts before the next line */
	if (!line->spilled && f->fill == lr->fills &&
	    (!f->nearest || f->nearest >= line->buf + line->len))
		return 0;
	return lr_has_slow(lr, f, line);
}

/* The excerpt being collected, within its bounds. */
struct excerpt {
	struct strbuf text;
	size_t nlines, max_lines, max_bytes;
	int cut;
};

/*
 * The length of the terminal colour sequence (ESC '[' digits and ';' 'm',
 * "select graphic rendition") at S, an ESC, else 0.  A test's output that
 * colours its verdicts (LTP's from late 2025, "\033[1;31mfail\033[0m") is
 * quoted with these bytes as they are, as the robot's mails show them.
 */
static size_t sgr_len(const char *s, size_t len)
{
	size_t i = 2;

	if (len < 3 || s[1] != '[')
		return 0;
	while (i < len && i < 32 &&
	       (isdigit((unsigned char)s[i]) || s[i] == ';'))
		i++;
	return i < len && s[i] == 'm' ? i + 1 : 0;
}

/* Appends one line, made safe for a mail: see evidence.h. */
static void ex_add(struct excerpt *ex, const char *s, size_t len)
{
	size_t i = 0;

	if (ex->cut)
		return;
	if (ex->nlines >= ex->max_lines ||
	    ex->text.len + len + 1 > ex->max_bytes) {
		ex->cut = 1;
		return;
	}
	if (len && s[len - 1] == '\r')
		len--;
	while (i < len) {
		uint32_t cp;
		size_t n = utf8_char(s + i, len - i, &cp), sgr;

		if (n && cp == '\033' && (sgr = sgr_len(s + i, len - i))) {
			strbuf_add(&ex->text, s + i, sgr);
			i += sgr;
		} else if (!n || (utf8_is_control(cp) && cp != '\t')) {
			strbuf_addch(&ex->text, '?');
			i += n ? n : 1;
		} else {
			strbuf_add(&ex->text, s + i, n);
			i += n;
		}
	}
	strbuf_addch(&ex->text, '\n');
	ex->nlines++;
}

static void ex_reset(struct excerpt *ex)
{
	strbuf_reset(&ex->text);
	ex->nlines = 0;
	ex->cut = 0;
}

/* The last `cap` lines seen (the context before a report). */
struct ring {
	struct strbuf *lines;
	size_t cap, n, head;
};

static void ring_init(struct ring *r, size_t cap)
{
	size_t i;

	r->cap = cap;
	r->n = r->head = 0;
	r->lines = cap ? xcalloc(cap, sizeof(*r->lines)) : NULL;
	for (i = 0; i < cap; i++)
		strbuf_init(&r->lines[i], 0);
}

static void ring_push(struct ring *r, const char *line, size_t len)
{
	struct strbuf *slot;

	if (!r->cap)
		return;
	slot = &r->lines[(r->head + r->n) % r->cap];
	if (r->n == r->cap) {
		slot = &r->lines[r->head];
		r->head = (r->head + 1) % r->cap;
	} else {
		r->n++;
	}
	strbuf_reset(slot);
	strbuf_add(slot, line, len);
}

static void ring_flush(struct ring *r, struct excerpt *ex)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct strbuf *l = &r->lines[(r->head + i) % r->cap];

		ex_add(ex, l->buf, l->len);
	}
}

static void ring_release(struct ring *r)
{
	size_t i;

	for (i = 0; i < r->cap; i++)
		strbuf_release(&r->lines[i]);
	free(r->lines);
}

/* Where a report starts (lkp-tests' calltrace heads). */
static const char *const report_heads[FINDS_MAX] = {
	"---[ cut here ", " BUG: ",   " WARNING: ",
	" INFO: ",	  " UBSAN: ", " kernel BUG at ",
};

/* A line of a decode_stacktrace.sh disassembly listing. */
static int disassembly(const char *s)
{
	const char *p;

	if (!strncmp(s, "===", 3))
		return 1;
	if (s[0] == ' ' && s[1] == ' ' &&
	    ((s[2] == ' ' && isxdigit((unsigned char)s[3]) && s[4] == ':') ||
	     (isxdigit((unsigned char)s[2]) && isxdigit((unsigned char)s[3]) &&
	      s[4] == ':')))
		return 1;
	p = s + strspn(s, " ");
	return p > s && !strncmp(p, "...", 3);
}

/* The report boundaries, one line at a time. */
struct machine {
	int decoded; /* the log holds decode_stacktrace listings */
	int in_report, ended, in_listing, listing_done;
	long count;
	long index; /* of the current report, -1 before the first */
	struct finder heads;
};

enum step { STEP_OUT, STEP_IN, STEP_NEW };

static enum step machine_step(struct machine *m, const struct line_reader *lr,
			      const struct log_line *line)
{
	const char *s = line->buf;

	if (lr_has(lr, &m->heads, line)) {
		enum step ret = STEP_IN;

		m->in_report = 1;
		if (m->ended || m->index < 0) {
			m->index++;
			m->ended = 0;
			ret = STEP_NEW;
		}
		m->in_listing = m->listing_done = 0;
		m->count = 1;
		return ret;
	}
	if (m->in_report && strstr(s, "---[ end trace ")) {
		m->in_report = 0;
		m->ended = 1;
		return STEP_IN;
	}
	if (m->in_report) {
		if (++m->count > REPORT_LINES) {
			m->in_report = 0;
			m->ended = 1;
		}
		return STEP_IN;
	}
	if (m->ended && m->decoded && !m->listing_done) {
		if (!m->in_listing) {
			m->count++;
			if (strstr(s, DECODE_FLAG))
				m->in_listing = 1;
			if (m->count > DECODE_LINES)
				m->listing_done = 1;
			return STEP_IN;
		}
		if (!disassembly(s)) {
			m->in_listing = 0;
			m->listing_done = 1;
			return STEP_OUT;
		}
		return STEP_IN;
	}
	return STEP_OUT;
}

/* The letters a line must contain to give `name`: a cheap first test. */
static char *name_token(const char *name)
{
	const char *p = name, *best = NULL;
	size_t best_len = 0;

	while (*p) {
		size_t n = 0, i;
		int hexish = 1;

		while (isalpha((unsigned char)p[n]))
			n++;
		for (i = 0; i < n; i++)
			if (!strchr("abcdef", p[i]))
				hexish = 0;
		if (n > best_len && !(hexish && (n == 8 || n == 16))) {
			best = p;
			best_len = n;
		}
		p += n ? n : 1;
	}
	return best_len >= 3 ? xstrndup(best, best_len) : NULL;
}

enum kind { KIND_DMESG, KIND_KMSG, KIND_TAIL, KIND_OUTPUT };

static enum kind kind_of(const char *kpi)
{
	if (!strncmp(kpi, "dmesg.", 6))
		return KIND_DMESG;
	if (!strncmp(kpi, "kmsg.", 5))
		return KIND_KMSG;
	if (!strncmp(kpi, "last_state.", 11))
		return KIND_TAIL;
	return KIND_OUTPUT;
}

/* Pass 1 over a log: the first line naming `name`, and the decode mark. */
static int find_headline(const char *path, enum kind kind, const char *name,
			 const struct dmesg_rules *rules, long *at,
			 int *decoded, struct log_cache *lc)
{
	struct log_line line;
	struct line_reader lr;
	char *token = name_token(name);
	struct finder flag = { .text = { DECODE_FLAG }, .n = 1 };
	struct finder tok = { .text = { token }, .n = 1 };
	int ret;

	*at = 0;
	*decoded = 0;
	if (lr_open(&lr, path, lc)) {
		free(token);
		return -1;
	}
	while ((ret = lr_next(&lr, &line)) > 0) {
		char *id;

		if (!*decoded && lr_has(&lr, &flag, &line))
			*decoded = 1;
		if (*at || (token && !lr_has(&lr, &tok, &line)))
			continue;
		id = kind == KIND_KMSG
			     ? dmesg_kmsg_error_id(rules, line.buf, line.len)
			     : dmesg_error_id(rules, line.buf, line.len);
		if (id && !strcmp(id, name))
			*at = lr.nr;
		free(id);
	}
	lr_close(&lr);
	free(token);
	return ret;
}

/* Pass 2: the report holding line `at`, with its context. */
static int cut_report(struct excerpt *ex, const char *path, long at,
		      int decoded, const struct evidence_opts *o,
		      struct log_cache *lc)
{
	struct machine m = { .decoded = decoded, .index = -1 };
	struct log_line line;
	struct line_reader lr;
	struct ring ring;
	long target = -2, after = 0;
	int ret, rest_of_log = 0, done = 0;

	for (size_t i = 0; i < ARRAY_SIZE(report_heads); i++)
		m.heads.text[m.heads.n++] = report_heads[i];
	if (lr_open(&lr, path, lc))
		return -1;
	ring_init(&ring, (size_t)o->before);
	while (!done && (ret = lr_next(&lr, &line)) > 0) {
		enum step step = machine_step(&m, &lr, &line);

		if (target == -2) {
			if (step == STEP_NEW) {
				ex_reset(ex);
				ring_flush(&ring, ex);
			}
			if (step != STEP_OUT && lr.nr < at)
				ex_add(ex, line.buf, line.len);
			if (lr.nr == at) {
				if (step == STEP_OUT) {
					/* in no report: from here on */
					ex_reset(ex);
					ring_flush(&ring, ex);
					rest_of_log = 1;
				}
				ex_add(ex, line.buf, line.len);
				target = m.index;
			}
			ring_push(&ring, line.buf, line.len);
			continue;
		}
		if (rest_of_log) {
			ex_add(ex, line.buf, line.len);
			done = ex->cut;
			continue;
		}
		if (!after && step == STEP_IN && m.index == target) {
			ex_add(ex, line.buf, line.len);
			continue;
		}
		/* the report has ended: the context after it */
		if (after++ < o->after)
			ex_add(ex, line.buf, line.len);
		else
			done = 1;
	}
	if (done)
		ret = 0;
	ring_release(&ring);
	lr_close(&lr);
	return ret < 0 ? -1 : 0;
}

/* The end of a log: its last `n` lines. */
static int cut_tail(struct excerpt *ex, const char *path, long n)
{
	struct log_line line;
	struct line_reader lr;
	struct ring ring;
	int ret;

	if (lr_open(&lr, path, NULL))
		return -1;
	ring_init(&ring, (size_t)n);
	while ((ret = lr_next(&lr, &line)) > 0)
		ring_push(&ring, line.buf, line.len);
	if (!ret)
		ring_flush(&ring, ex);
	ring_release(&ring);
	lr_close(&lr);
	return ret;
}

/* Lines [from, from + n) of a file (n 0: to the end). */
static int cut_lines(struct excerpt *ex, const char *path, long from, long n)
{
	struct log_line line;
	struct line_reader lr;
	int ret;

	if (lr_open(&lr, path, NULL))
		return -1;
	while ((ret = lr_next(&lr, &line)) > 0 && !ex->cut) {
		if (lr.nr < from)
			continue;
		if (n && lr.nr >= from + n)
			break;
		ex_add(ex, line.buf, line.len);
	}
	lr_close(&lr);
	return ret < 0 ? -1 : 0;
}

/*
 * The name of the test a stat is about, as the output spells it: the part
 * between the testcase and the verdict ("xfstests.generic.324.fail" gives
 * "generic.324"; tried also as "generic/324").
 */
static char *test_name(const char *kpi)
{
	const char *dot = strchr(kpi, '.'), *end = strrchr(kpi, '.');

	if (!dot || end <= dot + 1)
		return NULL;
	return xstrndup(dot + 1, (size_t)(end - dot - 1));
}

/*
 * A test's output: all of it when it fits, else from OUTPUT_BEFORE lines
 * before the first line that names the test (or the start).
 */
static int cut_output(struct excerpt *ex, const char *path, const char *kpi)
{
	struct log_line line;
	struct line_reader lr;
	char *name = test_name(kpi), *slashed = NULL, *p;
	long lines = 0, first = 0;
	size_t bytes = 0;
	int ret;

	if (name) {
		slashed = xstrdup(name);
		p = strchr(slashed, '.');
		if (p)
			*p = '/';
	}
	if (lr_open(&lr, path, NULL)) {
		free(name);
		free(slashed);
		return -1;
	}
	while ((ret = lr_next(&lr, &line)) > 0) {
		lines++;
		bytes += line.len + 1;
		if (!first && name &&
		    (strstr(line.buf, name) || strstr(line.buf, slashed)))
			first = lr.nr;
	}
	lr_close(&lr);
	free(name);
	free(slashed);
	if (ret < 0)
		return -1;
	if ((size_t)lines <= ex->max_lines && bytes <= ex->max_bytes)
		first = 1;
	else
		first = first > OUTPUT_BEFORE ? first - OUTPUT_BEFORE : 1;
	return cut_lines(ex, path, first, 0);
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

size_t evidence_logs(const char *run_dir, char *paths[2])
{
	static const char *const names[] = { "dmesg", "kmsg" };
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *plain = xasprintf("%s/%s", run_dir, names[i]);
		char *xz = xasprintf("%s/%s.xz", run_dir, names[i]);

		if (is_file(plain)) {
			paths[n++] = plain;
			free(xz);
		} else if (is_file(xz)) {
			paths[n++] = xz;
			free(plain);
		} else {
			free(plain);
			free(xz);
		}
	}
	return n;
}

/* The file to read: o->file, else the log or output the stat is from. */
static char *pick_file(const char *run_dir, enum kind kind,
		       const struct evidence_opts *o, const char *where)
{
	char *logs[2] = { NULL, NULL }, *path = NULL;
	size_t n;

	if (o->file) {
		char *p = xasprintf("%s/%s", run_dir, o->file);

		if (is_file(p))
			return p;
		free(p);
		p = xasprintf("%s/%s.xz", run_dir, o->file);
		if (is_file(p))
			return p;
		free(p);
		error("%s: %s/%s: no such file", where, run_dir, o->file);
		return NULL;
	}
	if (kind == KIND_OUTPUT) {
		path = xasprintf("%s/output", run_dir);
		if (is_file(path))
			return path;
		error("%s: %s: no such file (a test's output)", where, path);
		free(path);
		return NULL;
	}
	n = evidence_logs(run_dir, logs);
	if (!n) {
		error("%s: %s: no dmesg or kmsg (plain or .xz)", where,
		      run_dir);
		return NULL;
	}
	/* kmsg stats read kmsg first, the others dmesg first */
	if (kind == KIND_KMSG && n == 2 && strstr(logs[1], "/kmsg")) {
		path = logs[1];
		free(logs[0]);
	} else {
		path = logs[0];
		free(logs[1]);
	}
	return path;
}

/* The run to read: o->run, else the first whose value of kpi is > 0. */
static const char *pick_run(const struct result_root *rt, const char *kpi,
			    const struct evidence_opts *o, const char *where)
{
	const struct rt_stat *s;
	size_t i;

	if (o->run) {
		if (!*o->run || strchr(o->run, '/') || !strcmp(o->run, ".") ||
		    !strcmp(o->run, "..")) {
			error("%s: run: '%s' is not a run directory", where,
			      o->run);
			return NULL;
		}
		return o->run;
	}
	s = result_root_stat(rt, kpi);
	for (i = 0; s && i < rt->nruns; i++)
		if (s->val[i] > 0)
			return rt->run_names[i];
	error("%s: %s: no run has '%s' (name the run: evidence run)", where,
	      rt->dir, kpi);
	return NULL;
}

int evidence_find(struct evidence *ev, const struct result_root *rt,
		  const char *kpi, const struct evidence_opts *o,
		  const struct dmesg_rules *rules, const char *where)
{
	struct excerpt ex = { STRBUF_INIT, 0, 0, 0, 0 };
	struct log_cache lc = { NULL, STRBUF_INIT };
	enum kind kind = kind_of(kpi);
	const char *run;
	int ret = -1;

	memset(ev, 0, sizeof(*ev));
	ex.max_lines =
		o->max_lines > 0 ? (size_t)o->max_lines : EVIDENCE_MAX_LINES;
	ex.max_bytes =
		o->max_bytes > 0 ? (size_t)o->max_bytes : EVIDENCE_MAX_BYTES;
	if (o->before < 0 || o->after < 0 || o->from < 0 || o->lines < 0)
		return error("%s: counts cannot be negative", where);
	run = pick_run(rt, kpi, o, where);
	if (!run)
		return -1;
	ev->run_dir = xasprintf("%s/%s", rt->dir, run);
	ev->path = pick_file(ev->run_dir, kind, o, where);
	if (!ev->path)
		goto out;
	if (o->from || (kind == KIND_OUTPUT && o->lines)) {
		ret = cut_lines(&ex, ev->path, o->from ? o->from : 1, o->lines);
		if (!ret && !ex.nlines && !ex.cut)
			ret = error("%s: %s has no line %ld", where, ev->path,
				    o->from);
	} else if (kind == KIND_OUTPUT) {
		ret = cut_output(&ex, ev->path, kpi);
	} else if (kind == KIND_TAIL) {
		ret = cut_tail(&ex, ev->path, o->lines ? o->lines : TAIL_LINES);
	} else {
		const char *name = kpi + (kind == KIND_DMESG ? 6 : 5);
		long at;
		int decoded;

		ret = find_headline(ev->path, kind, name, rules, &at, &decoded,
				    &lc);
		if (!ret && !at)
			ret = error("%s: %s: no line names '%s' (the headline)",
				    where, ev->path, kpi);
		else if (!ret)
			ret = cut_report(&ex, ev->path, at, decoded, o, &lc);
		if (!ret && o->lines && ex.nlines > (size_t)o->lines) {
			/* the sender's count of lines wins */
			size_t keep = 0, i;

			for (i = 0; i < (size_t)o->lines; i++)
				keep += strcspn(ex.text.buf + keep, "\n") + 1;
			strbuf_setlen(&ex.text, keep);
			ex.nlines = (size_t)o->lines;
		}
	}
	strbuf_release(&lc.text);
	if (ret)
		goto out;
	if (!ex.nlines) {
		ret = error("%s: %s: the excerpt is empty", where, ev->path);
		goto out;
	}
	ev->nlines = ex.nlines;
	ev->cut = ex.cut;
	ev->text = strbuf_detach(&ex.text, NULL);
	return 0;
out:
	strbuf_release(&ex.text);
	evidence_release(ev);
	return -1;
}

void evidence_release(struct evidence *ev)
{
	free(ev->text);
	free(ev->path);
	free(ev->run_dir);
	memset(ev, 0, sizeof(*ev));
}
