// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c: the branch summary of a set of build results
 * (doc/build-summary.md).  Each build result is classified (success,
 * warning, error, skipped); the findings of its log get their ids
 * (findings.c); lines new against the base build are listed; the ids are
 * drawn as a tree per config; every built config is a row of the table.
 * The wording of each period is rows of config/data/summary-styles and
 * files of templates/build-summary/.
 */
#include "robot/util/common.h"
#include "robot/kinds/build/summary.h"
#include "robot/kinds/build/findings.h"
#include "robot/report/compose.h"
#include "robot/util/gz.h"
#include "robot/util/strset.h"
#include "robot/util/utf8.h"
#include "config/config.h"
#include "config/data.h"
#include "config/schema.h"
#include "config/style.h"
#include "git/commits.h"
#include "mail/header.h"
#include "mail/msg.h"
#include "templates/expand.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define STYLES "config/data/summary-styles"
/* the robot's footer is its finding reports' (add_signature()) */
#define BUILD_STYLES "config/data/build-styles"

struct sum_request {
	char *kind, *date, *style, *message_id, *from;
	struct strv to, cc;
	char *tree, *branch, *repo_url, *head, *head_subject;
	struct strv builds, recent, reports;
	long elapsed;
};

#define F(key, kind, member)                                          \
	{                                                             \
		key, kind, offsetof(struct sum_request, member), NULL \
	}
static const struct field request_fields[] = {
	F("kind", FIELD_STR, kind),
	F("date", FIELD_STR, date),
	F("style", FIELD_STR, style),
	F("message_id", FIELD_MSGID, message_id),
	F("from", FIELD_MAILBOX, from),
	F("to", FIELD_MAILBOXES, to),
	F("cc", FIELD_MAILBOXES, cc),
	F("tree", FIELD_STR, tree),
	F("branch", FIELD_STR, branch),
	F("repo_url", FIELD_STR, repo_url),
	F("head", FIELD_STR, head),
	F("head_subject", FIELD_STR, head_subject),
	F("builds", FIELD_PATHS, builds),
	F("recent", FIELD_PATHS, recent),
	F("reports", FIELD_STRS, reports),
	F("elapsed_minutes", FIELD_COUNT, elapsed),
};
#undef F
static const struct schema request_schema = { "build-summary request",
					      request_fields,
					      ARRAY_SIZE(request_fields),
					      sizeof(struct sum_request) };

struct build_yaml {
	char *arch, *config, *compiler, *commit, *base, *status;
	int tracked; /* -1: absent (true) */
};
#define F(key, member)                                                    \
	{                                                                 \
		key, FIELD_STR, offsetof(struct build_yaml, member), NULL \
	}
static const struct field build_fields[] = {
	F("arch", arch),
	F("config", config),
	F("compiler", compiler),
	F("commit", commit),
	F("base", base),
	F("status", status),
	{ "tracked", FIELD_BOOL, offsetof(struct build_yaml, tracked), NULL },
};
#undef F
static const struct schema build_schema = { "build result", build_fields,
					    ARRAY_SIZE(build_fields),
					    sizeof(struct build_yaml) };

enum build_status { ST_SUCCESS, ST_WARNING, ST_ERROR, ST_SKIPPED };

struct build {
	struct build_yaml y;
	enum build_status status;
	char *label; /* arch-config, the tree's name of it */
	int clang;
	int recent; /* a build of an earlier head: tree and lists only */
	struct strv ids;
};

struct summary {
	const char *file;
	struct sum_request req;
	struct style st;
	struct style foot; /* build-styles of the day: the footer */
	struct build *b;
	size_t nb;
	struct strv listed, unverified;
	struct strset seen; /* the lines listed, "u" + those unverified */
	size_t kept;	    /* bytes of listed lines and ids (a newline each) */
	int verdict;	    /* the worst status */
	size_t tested, skipped;
};

/* Appends a copy; the array doubles when n is a power of two (n is never
 * more than the array holds: sorting out repeats only lowers it). */
static void strv_push(struct strv *v, const char *s, size_t len)
{
	if (!(v->n & (v->n - 1)))
		v->v = xreallocarray(v->v, v->n ? 2 * v->n : 1, sizeof(*v->v));
	v->v[v->n++] = xstrndup(s, len);
}

static void strv_free(struct strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorts byte-wise and drops repeats */
static void strv_sort_uniq(struct strv *v)
{
	size_t i, j;

	if (!v->n)
		return;
	qsort(v->v, v->n, sizeof(*v->v), cmp_str);
	for (i = j = 1; i < v->n; i++)
		if (strcmp(v->v[i], v->v[j - 1]))
			v->v[j++] = v->v[i];
		else
			free(v->v[i]);
	v->n = j;
}

static int sorted_has(const struct strv *v, const char *s)
{
	return v->n && bsearch(&s, v->v, v->n, sizeof(*v->v), cmp_str);
}

/* A line longer than this is no compiler output (bounded memory). */
#define MAX_LINE (1u << 20)
/* Finding lines kept of one log, at most, and their bytes (a newline
 * each); and the bytes the summary keeps of all its builds: the lines it
 * lists, each once, and each build's ids (doc/limits.md). */
#define MAX_FINDINGS	 200000u
#define MAX_LOG_KEPT	 (8u << 20)
#define MAX_SUMMARY_KEPT (8u << 20)

struct log_reader {
	const char *path;
	int fd;
	struct gz_reader *gz;
	size_t lineno, kept, bytes;
	struct strbuf line; /* a line that continues in the next read */
};

#define ONES  0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Whether [p, p + len) has a byte under 0x20 other than a tab. */
static int has_control(const char *p, size_t len)
{
	size_t i = 0;

	/* eight bytes at a time: any byte under 0x20 sets its high bit */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if ((w - ONES * 0x20) & ~w & HIGHS)
			break;
	}
	for (; i < len; i++)
		if ((unsigned char)p[i] < 0x20 && p[i] != '\t')
			return 1;
	return 0;
}

/* Checks the line [p, p + len) and keeps it in `out` when it is a
 * finding. */
static int log_line(struct log_reader *r, const char *p, size_t len,
		    struct strv *out)
{
	size_t i;

	r->lineno++;
	if (len && p[len - 1] == '\r')
		len--;
	if (has_control(p, len))
		for (i = 0; i < len; i++)
			if ((unsigned char)p[i] < 0x20 && p[i] != '\t')
				return error("%s:%zu: %s (0x%02x) in the log: "
					     "not compiler output",
					     r->path, r->lineno,
					     p[i] ? "a control character"
						  : "a NUL byte",
					     (unsigned char)p[i]);
	if (findings_line_level(p, len) == FINDING_NONE)
		return 0;
	if (++r->kept > MAX_FINDINGS)
		return error("%s:%zu: more than %u findings in one log",
			     r->path, r->lineno, MAX_FINDINGS);
	r->bytes += len + 1;
	if (r->bytes > MAX_LOG_KEPT)
		return error("%s:%zu: more than %u MiB of findings in one log "
			     "(robot's memory limit)",
			     r->path, r->lineno, MAX_LOG_KEPT >> 20);
	strv_push(out, p, len);
	return 0;
}

/* The lines of one read: whole ones checked where they are, the last
 * one's start kept until its end comes. */
static int log_chunk(struct log_reader *r, const char *p, const char *end,
		     struct strv *out)
{
	const char *nl;
	int ret;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			strbuf_add(&r->line, p, end - p);
			break;
		}
		if (r->line.len) {
			strbuf_add(&r->line, p, nl - p);
			ret = log_line(r, r->line.buf, r->line.len, out);
			strbuf_reset(&r->line);
		} else {
			ret = log_line(r, p, nl - p, out);
		}
		if (ret)
			return ret;
	}
	if (r->line.len > MAX_LINE)
		return error("%s:%zu: a line over %u bytes: not compiler "
			     "output",
			     r->path, r->lineno + 1, MAX_LINE);
	return 0;
}

/* Opens r->path, else its .gz (then r->path is that one's name, in
 * gzpath).  -1 with errno set when neither can be opened. */
static int log_open(struct log_reader *r, struct strbuf *gzpath, size_t bufsize)
{
	int fd = open(r->path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 || errno != ENOENT) {
		r->fd = fd;
		return fd < 0 ? -1 : 0;
	}
	strbuf_addstr(gzpath, r->path);
	strbuf_addstr(gzpath, ".gz");
	fd = open(gzpath->buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errno = ENOENT;
		return -1;
	}
	r->gz = gz_reader_open(fd, bufsize);
	if (!r->gz)
		return -1;
	r->path = gzpath->buf;
	return 0;
}

static long log_read(struct log_reader *r, char *buf, size_t len)
{
	ssize_t n;

	if (r->gz)
		return gz_reader_read(r->gz, buf, len);
	do
		n = read(r->fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * The finding lines of DIR/NAME, or of DIR/NAME.gz, read in one pass (a
 * log of any size in bounded memory).  A missing optional log is none;
 * `*present` says whether there was one.
 */
static int read_lines(struct strv *out, const char *dir, const char *name,
		      int required, int *present)
{
	struct log_reader r = { .fd = -1 };
	struct strbuf path = STRBUF_INIT, gzpath = STRBUF_INIT;
	char buf[65536];
	size_t total = 0;
	int ret = 0;

	*present = 0;
	strbuf_init(&r.line, 0);
	strbuf_addstr(&path, dir);
	strbuf_addch(&path, '/');
	strbuf_addstr(&path, name);
	r.path = path.buf;
	if (log_open(&r, &gzpath, sizeof(buf))) {
		if (errno != ENOENT || required)
			ret = error("%s: cannot read: %s", path.buf,
				    strerror(errno));
		goto out;
	}
	*present = 1;
	for (;;) {
		long n = log_read(&r, buf, sizeof(buf));

		if (n < 0) {
			ret = error("%s: cannot read: %s", r.path,
				    r.gz && n == GZ_READ_CORRUPT
					    ? "not gzip data, or damaged"
				    : r.gz && n == GZ_READ_NOT_GZIP
					    ? "not gzip data"
					    : strerror(errno));
			goto out;
		}
		if (!n)
			break;
		total += (size_t)n;
		ret = log_chunk(&r, buf, buf + n, out);
		if (ret)
			goto out;
	}
	if (r.line.len)
		ret = log_line(&r, r.line.buf, r.line.len, out);
	if (!ret && required && !total)
		ret = error("%s: empty: a build log holds the build's output",
			    r.path);
out:
	if (r.fd >= 0)
		close(r.fd);
	if (r.gz && gz_reader_close(r.gz, NULL) != GZ_OK && !ret)
		ret = error("%s: cannot read: a damaged gzip trailer", r.path);
	strbuf_release(&r.line);
	strbuf_release(&path);
	strbuf_release(&gzpath);
	return ret;
}

static int load_build_yaml(struct build_yaml *y, const char *dir)
{
	char *path = xstrjoin3(dir, "/", "build.yaml");
	int ret;

	memset(y, 0, sizeof(*y));
	y->tracked = -1;
	ret = schema_load_file(y, &build_schema, path);
	if (!ret && !y->arch)
		ret = error("%s: arch: missing", path);
	if (!ret && !y->config)
		ret = error("%s: config: missing", path);
	if (!ret && !y->compiler &&
	    !(y->status && !strcmp(y->status, "skipped")))
		ret = error("%s: compiler: missing (every built config names "
			    "its compiler)",
			    path);
	free(path);
	return ret;
}

static int parse_status(const char *s, enum build_status *st)
{
	static const char *const names[] = { "success", "warning", "error",
					     "skipped" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*st = (enum build_status)i;
			return 0;
		}
	return -1;
}

static int drop_dym(const struct summary *s)
{
	const char *v = style_get(&s->st, "summary.did_you_mean");

	return v && !strcmp(v, "drop");
}

/* A new line of a build (unverified: `unv`) into the summary's lists,
 * once whatever the number of builds that have it. */
static void list_line(struct summary *s, int unv, const char *l)
{
	struct strbuf key = STRBUF_INIT;

	strbuf_addstr(&key, unv ? "u" : "l");
	strbuf_addstr(&key, l);
	if (strset_add(&s->seen, key.buf)) {
		strv_push(unv ? &s->unverified : &s->listed, l, strlen(l));
		s->kept += strlen(l) + 1;
	}
	strbuf_release(&key);
}

/*
 * Reads one build result: its ids into b->ids (none for a build that is
 * not `tracked`: its lines are listed only), its new lines into the
 * summary's lists.
 */
static int read_build(struct summary *s, const char *dir, struct build *b)
{
	struct build_yaml y;
	struct strv log = { 0 }, base = { 0 }, unv = { 0 };
	struct strbuf id = STRBUF_INIT;
	enum build_status st = ST_SUCCESS;
	enum finding_level worst = FINDING_NONE;
	int present, ret;
	size_t i, k;

	ret = load_build_yaml(&y, dir);
	if (!ret && y.status && parse_status(y.status, &st))
		ret = error("%s/build.yaml: status: '%s' is not success, "
			    "warning, error or skipped",
			    dir, y.status);
	if (ret)
		goto out;
	if (y.status && st == ST_SKIPPED)
		goto done;
	ret = read_lines(&log, dir, "build.log", 1, &present);
	/* base.log only takes lines out of build.log's findings: a clean
	 * build (most of a summary's) does not open it */
	if (!ret && log.n)
		ret = read_lines(&base, dir, "base.log", 0, &present);
	if (!ret)
		ret = read_lines(&unv, dir, "unverified.log", 0, &present);
	if (ret)
		goto out;
	strv_sort_uniq(&base);
	for (k = 0; k < 2; k++) {
		struct strv *src = k ? &unv : &log;

		for (i = 0; i < src->n; i++) {
			const char *l = src->v[i];
			enum finding_level lv =
				findings_line_level(l, strlen(l));

			if (lv == FINDING_NONE)
				continue;
			if (lv > worst && !k)
				worst = lv;
			if (y.tracked) {
				strbuf_reset(&id);
				findings_line_id(&id, l, strlen(l),
						 drop_dym(s));
				if (id.len)
					strv_push(&b->ids, id.buf, id.len);
			}
			if (!sorted_has(&base, l))
				list_line(s, k, l);
		}
	}
	if (!y.status)
		st = worst == FINDING_ERROR	? ST_ERROR
		     : worst == FINDING_WARNING ? ST_WARNING
						: ST_SUCCESS;
done : {
	b->y = y;
	memset(&y, 0, sizeof(y));
	b->status = st;
	b->label = xstrjoin3(b->y.arch, "-", b->y.config);
	/* "clang version 18.1.8 (...)", "Debian clang version 14.0.6" */
	b->clang = b->y.compiler && strstr(b->y.compiler, "clang");
	strv_sort_uniq(&b->ids);
	for (i = 0; i < b->ids.n; i++)
		s->kept += strlen(b->ids.v[i]) + 1;
	if (s->kept > MAX_SUMMARY_KEPT)
		ret = error("%s/build.log: with this build, the summary keeps "
			    "more than %u MiB of findings and ids (robot's "
			    "memory limit)",
			    dir, MAX_SUMMARY_KEPT >> 20);
}
out:
	schema_release(&y, &build_schema);
	strv_free(&log);
	strv_free(&base);
	strv_free(&unv);
	strbuf_release(&id);
	return ret;
}

static const char *style_str(const struct summary *s, const char *key)
{
	const char *v = style_get(&s->st, key);

	return v ? v : "";
}

static int style_int(const struct summary *s, const char *key)
{
	int n = 0;

	if (style_get_int(&s->st, key, &n))
		return 0;
	return n;
}

/* A style row's words with {noun} replaced. */
static void add_words(struct strbuf *out, const char *words, const char *noun)
{
	const char *p = strstr(words, "{noun}");

	if (!p) {
		strbuf_addstr(out, words);
		return;
	}
	strbuf_add(out, words, p - words);
	strbuf_addstr(out, noun);
	strbuf_addstr(out, p + 6);
}

static const char *noun(const struct summary *s)
{
	return s->verdict == ST_ERROR ? style_str(s, "summary.noun_error")
				      : style_str(s, "summary.noun_warning");
}

/*
 * The heading of the lines the robot did not verify: its words, then its
 * doubt and its ask, those of the period that has them, in parentheses
 * ("possible Error/Warning in current branch (please contact us if
 * interested):", "Unverified Warning (likely false positive, kindly check
 * if interested):").
 */
static void add_unverified_head(struct strbuf *out, const struct summary *s)
{
	const char *doubt = style_str(s, "summary.unverified_doubt");
	const char *ask = style_str(s, "summary.unverified_ask");

	add_words(out, style_str(s, "summary.unverified_words"), noun(s));
	if (*doubt || *ask)
		strbuf_addf(out, " (%s%s%s)", doubt, *doubt && *ask ? ", " : "",
			    ask);
	strbuf_addch(out, ':');
}

static void add_lines(struct strbuf *out, const struct strv *v, int indent)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		strbuf_addchars(out, ' ', indent);
		strbuf_addf(out, "%s\n", v->v[i]);
	}
}

static int cmp_build(const void *a, const void *b)
{
	return strcmp((*(struct build *const *)a)->label,
		      (*(struct build *const *)b)->label);
}

/* One tree of ids by config: `family` -1 is every config. */
static void add_tree(struct strbuf *out, const struct summary *s,
		     const char *root, int family)
{
	struct build **v = xcalloc(s->nb + 1, sizeof(*v));
	size_t n = 0, i, j, lines = 0;
	/* a tree cut after so many lines of its drawing (0: never) */
	size_t max = (size_t)style_int(s, "summary.tree_max_lines");

	for (i = 0; i < s->nb; i++)
		if (s->b[i].ids.n && (family < 0 || s->b[i].clang == family))
			v[n++] = &s->b[i];
	if (n) {
		qsort(v, n, sizeof(*v), cmp_build);
		strbuf_addf(out, "%s\n", root);
		for (i = 0; i < n; i++) {
			int last = i + 1 == n;

			if (max && lines++ >= max)
				break;
			strbuf_addf(out, "%s %s\n", last ? "`--" : "|--",
				    v[i]->label);
			for (j = 0; j < v[i]->ids.n; j++)
				if (!max || lines++ < max)
					strbuf_addf(out, "%s   %s %s\n",
						    last ? " " : "|",
						    j + 1 == v[i]->ids.n
							    ? "`--"
							    : "|--",
						    v[i]->ids.v[j]);
		}
	}
	free(v);
}

static int has_family(const struct summary *s, int family)
{
	size_t i;

	for (i = 0; i < s->nb; i++)
		if (s->b[i].ids.n && s->b[i].clang == family)
			return 1;
	return 0;
}

static void add_sections(struct strbuf *out, const struct summary *s)
{
	const char *nn = noun(s);
	int inline_reports = !strcmp(style_str(s, "summary.reports"), "inline");
	int indent = style_int(s, "summary.indent");
	struct strv links = { s->req.reports.v, s->req.reports.n };

	if (s->verdict != ST_ERROR && s->verdict != ST_WARNING)
		return;
	if (links.n && !inline_reports) {
		strbuf_addch(out, '\n');
		add_words(out, style_str(s, "summary.reports_head"), nn);
		strbuf_addstr(out, "\n\n");
		add_lines(out, &links, 0);
	}
	if (s->listed.n || (inline_reports && links.n)) {
		strbuf_addch(out, '\n');
		add_words(out,
			  style_str(s, s->verdict == ST_ERROR
					       ? "summary.found_head_error"
					       : "summary.found_head_warning"),
			  nn);
		strbuf_addstr(out, "\n\n");
		if (inline_reports && links.n) {
			add_lines(out, &links, indent);
			if (s->listed.n)
				strbuf_addch(out, '\n');
		}
		add_lines(out, &s->listed, indent);
	}
	if (s->unverified.n) {
		strbuf_addch(out, '\n');
		add_unverified_head(out, s);
		strbuf_addstr(out, "\n\n");
		add_lines(out, &s->unverified, indent);
	}
	strbuf_addch(out, '\n');
	add_words(out,
		  style_str(s, s->verdict == ST_ERROR
				       ? "summary.ids_head_error"
				       : "summary.ids_head_warning"),
		  nn);
	strbuf_addstr(out, "\n\n");
	if (style_int(s, "summary.tree_split")) {
		int both = has_family(s, 0) && has_family(s, 1);

		add_tree(out, s, "gcc_recent_errors", 0);
		if (both && style_int(s, "summary.tree_gap"))
			strbuf_addch(out, '\n');
		add_tree(out, s, "clang_recent_errors", 1);
	} else {
		add_tree(out, s, "recent_errors", -1);
	}
}

/* The compiler as the table names it: its family, or with its version. */
static void compiler_name(struct strbuf *out, const char *compiler,
			  const char *how)
{
	size_t w = strcspn(compiler, " ");
	const char *dash = memchr(compiler, '-', w);
	const char *clang = strstr(compiler, "clang version ");

	if (!strcmp(how, "family")) {
		size_t f = strcspn(compiler, " -");

		if (strstr(compiler, "clang"))
			strbuf_addstr(out, "clang");
		else
			strbuf_add(out, compiler, f);
		return;
	}
	if (dash && dash + 1 < compiler + w && strchr("0123456789", dash[1])) {
		/* "gcc-12 (Debian 12.2.0-14) 12.2.0": the program's name */
		strbuf_add(out, compiler, w);
	} else if (clang) {
		/* "clang version 18.1.8 (...)": its major version */
		const char *v = clang + 14;

		strbuf_addstr(out, "clang-");
		strbuf_add(out, v, strspn(v, "0123456789"));
	} else {
		/* "gcc (GCC) 14.2.0": the program and its last word */
		const char *last = strrchr(compiler, ' ');

		strbuf_add(out, compiler, w);
		if (last) {
			strbuf_addch(out, '-');
			strbuf_addstr(out, last + 1);
		}
	}
}

/* The table's layout: its style rows, read once for all its rows. */
struct table_style {
	const char *how; /* summary.compiler_name */
	int arch_w, config_w, gap, compiler_w;
};

/* S left-aligned in a field of WIDTH (printf's "%-*s") */
static void add_left(struct strbuf *out, const char *s, int width)
{
	size_t n = strlen(s);

	if (width < 0)
		width = -width;
	strbuf_add(out, s, n);
	if (width > 0 && n < (size_t)width)
		strbuf_addchars(out, ' ', (size_t)width - n);
}

/* S right-aligned in a field of WIDTH (printf's "%*s": a negative
 * WIDTH aligns it left) */
static void add_right(struct strbuf *out, const char *s, int width)
{
	size_t n = strlen(s);

	if (width < 0) {
		add_left(out, s, width);
		return;
	}
	if (width > 0 && n < (size_t)width)
		strbuf_addchars(out, ' ', (size_t)width - n);
	strbuf_add(out, s, n);
}

static void add_row(struct strbuf *out, const struct table_style *ts,
		    const struct build *b, struct strbuf *c)
{
	add_left(out, b->y.arch, ts->arch_w);
	add_right(out, b->y.config, ts->config_w);
	if (strcmp(ts->how, "none")) {
		strbuf_reset(c);
		compiler_name(c, b->y.compiler, ts->how);
		strbuf_addchars(out, ' ', ts->gap);
		add_left(out, c->buf, ts->compiler_w);
	}
	strbuf_addch(out, '\n');
}

static void add_table(struct strbuf *out, const struct summary *s,
		      const char *head, int family)
{
	struct strbuf c = STRBUF_INIT;
	struct table_style ts = {
		.how = style_str(s, "summary.compiler_name"),
		.arch_w = style_int(s, "summary.arch_width"),
		.config_w = style_int(s, "summary.config_width"),
		.gap = style_int(s, "summary.compiler_gap"),
		.compiler_w = style_int(s, "summary.compiler_width"),
	};
	size_t i, n = 0;

	for (i = 0; i < s->nb; i++)
		if (s->b[i].status != ST_SKIPPED && !s->b[i].recent &&
		    (family < 0 || s->b[i].clang == family))
			n++;
	if (!n)
		return;
	strbuf_addch(out, '\n');
	if (head) {
		strbuf_addstr(out, head);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < s->nb; i++)
		if (s->b[i].status != ST_SKIPPED && !s->b[i].recent &&
		    (family < 0 || s->b[i].clang == family))
			add_row(out, &ts, &s->b[i], &c);
	strbuf_release(&c);
}

static void add_tables(struct strbuf *out, const struct summary *s)
{
	const char *head = style_str(s, "summary.table_head");

	if (!strcmp(head, "family")) {
		add_table(out, s, "gcc tested configs:", 0);
		add_table(out, s, "clang tested configs:", 1);
	} else if (!strcmp(head, "single")) {
		add_table(out, s, "tested configs:", -1);
	} else {
		add_table(out, s, NULL, -1);
	}
}

static int template_add(struct strbuf *out, const struct summary *s,
			const char *block);
static int add_signature(struct strbuf *out, const struct summary *s);

static int lookup(void *ctx, const char *name, struct strbuf *out)
{
	const struct summary *s = ctx;
	const struct sum_request *r = &s->req;

	if (!strcmp(name, "repo_url"))
		strbuf_addstr(out, r->repo_url);
	else if (!strcmp(name, "tree_sep"))
		strbuf_addchars(out, ' ', style_int(s, "summary.tree_sep"));
	else if (!strcmp(name, "branch"))
		strbuf_addstr(out, r->branch);
	else if (!strcmp(name, "tree"))
		strbuf_addstr(out, r->tree);
	else if (!strcmp(name, "head"))
		strbuf_addstr(out, r->head);
	else if (!strcmp(name, "head_subject"))
		strbuf_addstr(out, r->head_subject);
	else if (!strcmp(name, "verdict"))
		strbuf_addstr(out, s->verdict == ST_ERROR ? "REGRESSION"
				   : s->verdict == ST_WARNING
					   ? "SUCCESS WITH WARNING"
					   : "SUCCESS");
	else if (!strcmp(name, "sections"))
		add_sections(out, s);
	else if (!strcmp(name, "elapsed"))
		strbuf_addf(out, "%ld", r->elapsed);
	else if (!strcmp(name, "tested"))
		strbuf_addf(out, "%zu", s->tested);
	else if (!strcmp(name, "skipped"))
		strbuf_addf(out, "%zu", s->skipped);
	else if (!strcmp(name, "success"))
		return s->verdict == ST_SUCCESS
			       ? template_add(out, s, "success")
			       : 0;
	else if (!strcmp(name, "tables"))
		add_tables(out, s);
	else if (!strcmp(name, "signature"))
		return add_signature(out, s);
	else
		return 1;
	return 0;
}

/*
 * The robot's footer: the one its finding reports had on the day
 * (build-styles' build.signature, templates/build/signature-*), without
 * their empty line before it and with one after it; from 2024-10 (818
 * on) "--" without its blank (summary.signature_bare).
 */
static int add_signature(struct strbuf *out, const struct summary *s)
{
	const char *v = style_get(&s->foot, "build.signature");
	char *name = v ? xasprintf("signature-%s", v) : xstrdup("signature");
	char *path = NULL, *text = data_template("build", name, &path);
	const char *p;

	free(name);
	free(path);
	if (!text)
		return -1;
	p = text + (*text == '\n');
	if (style_int(s, "summary.signature_bare") && !strncmp(p, "-- \n", 4)) {
		strbuf_addstr(out, "--\n");
		p += 4;
	}
	strbuf_addstr(out, p);
	strbuf_addch(out, '\n');
	free(text);
	return 0;
}

/* templates/build-summary/BLOCK, or BLOCK-VARIANT by the style's row */
static int template_add(struct strbuf *out, const struct summary *s,
			const char *block)
{
	char *key = xasprintf("summary.%s", block), *name, *path = NULL, *text;
	const char *variant = style_get(&s->st, key);
	int ret;

	name = variant ? xasprintf("%s-%s", block, variant) : xstrdup(block);
	text = data_template("build-summary", name, &path);
	ret = text ? tmpl_expand(out, text, path, lookup, (void *)(uintptr_t)s)
		   : -1;
	free(text);
	free(path);
	free(name);
	free(key);
	return ret;
}

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed",
				     "Thu", "Fri", "Sat" };
static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* The request's date (or SOURCE_DATE_EPOCH, else now, in UTC). */
static int when(const struct summary *s, struct strbuf *hdr, char day[11])
{
	int64_t t64 = 0;
	int tz = 0;
	time_t t, local;
	struct tm tm;

	if (s->req.date) {
		if (commit_date_parse(s->req.date, &t64, &tz))
			return error("%s: date: '%s' is not 'YYYY-MM-DD "
				     "hh:mm:ss +zzzz'",
				     s->file, s->req.date);
		t = (time_t)t64;
	} else {
		int sde = source_date_epoch(&t);

		if (sde < 0)
			return -1;
		if (!sde)
			t = time(NULL);
	}
	local = t + (time_t)tz * 60;
	gmtime_r(&local, &tm);
	strbuf_addf(hdr, "%s, %02d %s %d %02d:%02d:%02d %c%02d%02d",
		    wdays[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    tz < 0 ? '-' : '+', (tz < 0 ? -tz : tz) / 60,
		    (tz < 0 ? -tz : tz) % 60);
	{
		char buf[40];

		snprintf(buf, sizeof(buf), "%04d-%02d-%02d", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday);
		memcpy(day, buf, 10);
		day[10] = '\0';
	}
	return 0;
}

static int load_request(struct summary *s, const char *path)
{
	struct sum_request *r = &s->req;
	int ret = schema_load_file(r, &request_schema, path);

	if (ret)
		return ret;
	if (!r->kind || strcmp(r->kind, "build-summary"))
		return error("%s: kind: want build-summary", path);
	if (!r->tree)
		return error("%s: tree: missing (the tree's short name)", path);
	if (!r->branch)
		return error("%s: branch: missing", path);
	if (!r->repo_url)
		return error("%s: repo_url: missing", path);
	if (!r->head || strlen(r->head) != 40 ||
	    strspn(r->head, "0123456789abcdef") != 40)
		return error("%s: head: want the branch head's full sha", path);
	if (!r->head_subject)
		return error("%s: head_subject: missing", path);
	if (!r->builds.n)
		return error("%s: builds: no build results", path);
	return 0;
}

static void summary_release(struct summary *s)
{
	size_t i;

	for (i = 0; i < s->nb; i++) {
		schema_release(&s->b[i].y, &build_schema);
		free(s->b[i].label);
		strv_free(&s->b[i].ids);
	}
	free(s->b);
	strv_free(&s->listed);
	strv_free(&s->unverified);
	strset_release(&s->seen);
	schema_release(&s->req, &request_schema);
	style_release(&s->st);
	style_release(&s->foot);
}

/* Date, From, To, Cc, Subject and Message-ID of the summary. */
static int add_headers(struct msg *m, const struct summary *s,
		       const struct robot_config *cfg, const char *date,
		       const char *subject, const char *msgid)
{
	const char *path = s->file;

	if (compose_add_header(m, "Date", date, path, "date") ||
	    compose_add_addresses(m, s->req.from, &s->req.to, &s->req.cc, path,
				  cfg, 1) ||
	    compose_add_header(m, "Subject", subject, path,
			       "tree, branch, head"))
		return -1;
	return compose_add_header(m, "Message-ID", msgid, path, "message_id");
}

/* The verdict, and the configs tested and skipped: a config built twice
 * (by gcc and clang) counts once, or twice where the style says so. */
static void count_builds(struct summary *s)
{
	struct strset labels = STRSET_INIT;
	int twice = style_int(s, "summary.count_twice");
	size_t i;

	s->verdict = ST_SUCCESS;
	for (i = 0; i < s->nb; i++) {
		if (s->b[i].status == ST_SKIPPED) {
			s->skipped += !s->b[i].recent;
			continue;
		}
		if (s->b[i].status > (enum build_status)s->verdict)
			s->verdict = s->b[i].status;
		if (!s->b[i].recent)
			s->tested +=
				twice || strset_add(&labels, s->b[i].label);
	}
	strset_release(&labels);
}

int summary_compose(struct composed *out, const char *path,
		    const struct robot_config *cfg,
		    const struct compose_opts *o)
{
	struct summary s = { 0 };
	struct strbuf date = STRBUF_INIT, body = STRBUF_INIT,
		      subject = STRBUF_INIT;
	struct msg m;
	char day[11];
	size_t i;
	int ret = -1;

	error_status = 0;
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->bytes, 0);
	msg_init(&m);
	s.file = path;
	if (load_request(&s, path) || when(&s, &date, day))
		goto out;
	if (o && o->style ? style_resolve(o->style, day)
	    : s.req.style ? style_resolve(s.req.style, day)
			  : 0)
		goto out;
	if (style_load_table(&s.st, day, NULL, STYLES) ||
	    style_load_table(&s.foot, day, NULL, BUILD_STYLES))
		goto out;
	s.b = xcalloc(s.req.builds.n + s.req.recent.n, sizeof(*s.b));
	for (i = 0; i < s.req.builds.n + s.req.recent.n; i++) {
		int recent = i >= s.req.builds.n;

		/* released with the others, also when it fails half read */
		s.nb = i + 1;
		s.b[i].recent = recent;
		if (read_build(&s,
			       recent ? s.req.recent.v[i - s.req.builds.n]
				      : s.req.builds.v[i],
			       &s.b[i]))
			goto out;
	}
	strv_sort_uniq(&s.listed);
	strv_sort_uniq(&s.unverified);
	count_builds(&s);
	if (template_add(&body, &s, "body") ||
	    template_add(&subject, &s, "subject"))
		goto out;
	out->message_id =
		s.req.message_id
			? xstrdup(s.req.message_id)
			: xasprintf("<summary.%.12s.%s-%s@%s>", s.req.head, day,
				    cfg->message_id_user,
				    cfg->message_id_domain);
	out->key = xasprintf("build-summary %s %s %s", s.req.tree, s.req.branch,
			     s.req.head);
	out->commit_id = xstrdup(s.req.head);
	if (add_headers(&m, &s, cfg, date.buf, subject.buf, out->message_id) ||
	    msg_set_body(&m, body.buf, body.len) || msg_render(&out->bytes, &m))
		goto out;
	ret = 0;
out:
	msg_release(&m);
	summary_release(&s);
	strbuf_release(&date);
	strbuf_release(&body);
	strbuf_release(&subject);
	return ret ? error_exit_code(EXIT_DATAERR) : 0;
}
