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

struct line_reader {
	struct xz_reader *xz;
	const char *path;
	char *buf;
	size_t at, len;
	int eof;
	long nr;		  /* lines read */
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
	lr->buf = xmalloc(LINE_CAP);
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

/*
 * The next line, without its '\n' and cut at LINE_CAP bytes.  Returns 1,
 * 0 at the end, -1 after an error.
 */
static int lr_next(struct line_reader *lr, struct strbuf *line)
{
	int any = 0;

	strbuf_reset(line);
	for (;;) {
		char *nl;

		if (lr->at == lr->len) {
			ssize_t n;

			if (lr->eof)
				break;
			n = lr_fill(lr);
			if (n < 0)
				return -1;
			lr->at = 0;
			lr->len = (size_t)n;
			if (!n) {
				lr->eof = 1;
				break;
			}
		}
		any = 1;
		nl = memchr(lr->buf + lr->at, '\n', lr->len - lr->at);
		if (nl) {
			size_t n = (size_t)(nl - (lr->buf + lr->at));

			if (line->len < LINE_CAP)
				strbuf_add(line, lr->buf + lr->at,
					   n < LINE_CAP - line->len
						   ? n
						   : LINE_CAP - line->len);
			lr->at += n + 1;
			lr->nr++;
			return 1;
		}
		if (line->len < LINE_CAP) {
			size_t n = lr->len - lr->at;

			strbuf_add(line, lr->buf + lr->at,
				   n < LINE_CAP - line->len
					   ? n
					   : LINE_CAP - line->len);
		}
		lr->at = lr->len;
	}
	if (!any)
		return 0;
	lr->nr++;
	return 1;
}

/* The excerpt being collected, within its bounds. */
struct excerpt {
	struct strbuf text;
	size_t nlines, max_lines, max_bytes;
	int cut;
};

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
		size_t n = utf8_char(s + i, len - i, &cp);

		if (!n || (utf8_is_control(cp) && cp != '\t')) {
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

static void ring_push(struct ring *r, const struct strbuf *line)
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
	strbuf_addbuf(slot, line);
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
static int report_start(const char *s)
{
	return strstr(s, "---[ cut here ") || strstr(s, " BUG: ") ||
	       strstr(s, " WARNING: ") || strstr(s, " INFO: ") ||
	       strstr(s, " UBSAN: ") || strstr(s, " kernel BUG at ");
}

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
};

enum step { STEP_OUT, STEP_IN, STEP_NEW };

static enum step machine_step(struct machine *m, const char *s)
{
	if (report_start(s)) {
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
	struct strbuf line = STRBUF_INIT;
	struct line_reader lr;
	char *token = name_token(name);
	int ret;

	*at = 0;
	*decoded = 0;
	if (lr_open(&lr, path, lc)) {
		free(token);
		return -1;
	}
	while ((ret = lr_next(&lr, &line)) > 0) {
		char *id;

		if (!*decoded && strstr(line.buf, DECODE_FLAG))
			*decoded = 1;
		if (*at || (token && !strstr(line.buf, token)))
			continue;
		id = kind == KIND_KMSG
			     ? dmesg_kmsg_error_id(rules, line.buf, line.len)
			     : dmesg_error_id(rules, line.buf, line.len);
		if (id && !strcmp(id, name))
			*at = lr.nr;
		free(id);
	}
	lr_close(&lr);
	strbuf_release(&line);
	free(token);
	return ret;
}

/* Pass 2: the report holding line `at`, with its context. */
static int cut_report(struct excerpt *ex, const char *path, long at,
		      int decoded, const struct evidence_opts *o,
		      struct log_cache *lc)
{
	struct machine m = { .decoded = decoded, .index = -1 };
	struct strbuf line = STRBUF_INIT;
	struct line_reader lr;
	struct ring ring;
	long target = -2, after = 0;
	int ret, rest_of_log = 0, done = 0;

	if (lr_open(&lr, path, lc))
		return -1;
	ring_init(&ring, (size_t)o->before);
	while (!done && (ret = lr_next(&lr, &line)) > 0) {
		enum step step = machine_step(&m, line.buf);

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
			ring_push(&ring, &line);
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
	strbuf_release(&line);
	return ret < 0 ? -1 : 0;
}

/* The end of a log: its last `n` lines. */
static int cut_tail(struct excerpt *ex, const char *path, long n)
{
	struct strbuf line = STRBUF_INIT;
	struct line_reader lr;
	struct ring ring;
	int ret;

	if (lr_open(&lr, path, NULL))
		return -1;
	ring_init(&ring, (size_t)n);
	while ((ret = lr_next(&lr, &line)) > 0)
		ring_push(&ring, &line);
	if (!ret)
		ring_flush(&ring, ex);
	ring_release(&ring);
	lr_close(&lr);
	strbuf_release(&line);
	return ret;
}

/* Lines [from, from + n) of a file (n 0: to the end). */
static int cut_lines(struct excerpt *ex, const char *path, long from, long n)
{
	struct strbuf line = STRBUF_INIT;
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
	strbuf_release(&line);
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
	struct strbuf line = STRBUF_INIT;
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
	strbuf_release(&line);
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
