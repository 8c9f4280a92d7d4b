// SPDX-License-Identifier: GPL-2.0-only
/*
 * build.c: the build report kind (build.h).
 *
 * The request names one build result (doc/build-result.md): its
 * build.yaml (arch, config, compiler, commit, the make command lines),
 * its build.log and the base build's base.log.  robot parses the logs
 * (findings.h), marks the findings the base build does not have, picks
 * the finding the Subject and the source excerpt name (the first new
 * error, else the first new finding), reads the excerpt's lines from the
 * commit's own blob (git/repo.h) and renders the mail through the
 * templates of templates/build/, whose variants the dated table
 * config/data/build-styles picks.  No date is written in this file.
 */
#include "robot/util/common.h"
#include "robot/report/compose.h"
#include "robot/util/utf8.h"
#include "config/config.h"
#include "config/data.h"
#include "config/schema.h"
#include "config/style.h"
#include "git/commits.h"
#include "git/repo.h"
#include "mail/header.h"
#include "mail/lint.h"
#include "mail/msg.h"
#include "templates/expand.h"
#include "robot/kinds/build/build.h"
#include "robot/kinds/build/findings.h"

#include <time.h>
#include <unistd.h>

#define BUILD_STYLES "config/data/build-styles"
/* What is kept of a log (doc/limits.md): its lines and their text */
#define MAX_LOG_LINES 200000
#define MAX_LOG_BYTES (8u << 20)

#define F(key, kind, type, member, sub)                \
	{                                              \
		key, kind, offsetof(type, member), sub \
	}

/* ---- build.yaml ---- */

struct build_result {
	char *arch, *config, *compiler, *commit, *base, *status;
	struct strv make; /* the make command lines, as the job ran them */
	char *sparse_version;
	int w1;		  /* a W=1 build */
	char *source_rev; /* the commit as the source tree names it */
	char *rustc;	  /* the rustc of a Rust build */
	char *smatch_version;
	char *binutils;	 /* the binutils package of a clang cross build */
	int unpublished; /* config_published: false (a defconfig) */
	char *dir;	 /* the directory */
	char *file;	 /* its build.yaml */
	char *dotconfig; /* its .config, or NULL */
};

static const struct field result_fields[] = {
	F("arch", FIELD_STR, struct build_result, arch, NULL),
	F("config", FIELD_STR, struct build_result, config, NULL),
	F("compiler", FIELD_STR, struct build_result, compiler, NULL),
	F("commit", FIELD_STR, struct build_result, commit, NULL),
	F("base", FIELD_STR, struct build_result, base, NULL),
	F("status", FIELD_STR, struct build_result, status, NULL),
	F("make", FIELD_STRS, struct build_result, make, NULL),
	F("sparse_version", FIELD_STR, struct build_result, sparse_version,
	  NULL),
	F("w1", FIELD_BOOL, struct build_result, w1, NULL),
	F("source_rev", FIELD_STR, struct build_result, source_rev, NULL),
	F("rustc", FIELD_STR, struct build_result, rustc, NULL),
	F("smatch_version", FIELD_STR, struct build_result, smatch_version,
	  NULL),
	F("binutils", FIELD_STR, struct build_result, binutils, NULL),
	F("config_unpublished", FIELD_BOOL, struct build_result, unpublished,
	  NULL),
};
static const struct schema result_schema = { "build result", result_fields,
					     ARRAY_SIZE(result_fields),
					     sizeof(struct build_result) };

/* ---- the request ---- */

struct req_excerpt {
	char *file, *symbol;
	long line, from, to;
	char *blame; /* `git blame --porcelain` of the lines shown */
	long abbrev; /* the digits git abbreviates an id of the tree to */
};

struct req_bpatch {
	char *url, *base, *link, *subject, *review_repo, *review_branch;
};

struct build_req {
	char *file;
	char *kind, *date, *style, *message_id, *in_reply_to, *from;
	struct strv to, cc, references;
	char *build;	/* the build result's directory */
	char *repo;	/* the source tree (git) */
	char *greeting; /* "Hi NAME," */
	char *tree, *tree_name, *branch, *head, *position, *commit_subject;
	struct strv auto_on, also_on, cannot_apply;
	struct req_bpatch patch;
	struct objv excerpts; /* struct req_excerpt (at most one shown) */
	char *reported_by;
	int bisected; /* a commit report: the finding was bisected to it */
	int followup; /* a fix was sent as a follow-up patch */
	char *intro;  /* the sender's choice of words: thank or love */
};

static const struct field excerpt_fields[] = {
	F("file", FIELD_STR, struct req_excerpt, file, NULL),
	F("line", FIELD_COUNT, struct req_excerpt, line, NULL),
	F("symbol", FIELD_STR, struct req_excerpt, symbol, NULL),
	F("from", FIELD_COUNT, struct req_excerpt, from, NULL),
	F("to", FIELD_COUNT, struct req_excerpt, to, NULL),
	F("blame", FIELD_PATH, struct req_excerpt, blame, NULL),
	F("abbrev", FIELD_COUNT, struct req_excerpt, abbrev, NULL),
};
static const struct schema excerpt_schema = { "excerpt", excerpt_fields,
					      ARRAY_SIZE(excerpt_fields),
					      sizeof(struct req_excerpt) };

static const struct field bpatch_fields[] = {
	F("url", FIELD_STR, struct req_bpatch, url, NULL),
	F("base", FIELD_STR, struct req_bpatch, base, NULL),
	F("link", FIELD_STR, struct req_bpatch, link, NULL),
	F("subject", FIELD_STR, struct req_bpatch, subject, NULL),
	F("review_repo", FIELD_STR, struct req_bpatch, review_repo, NULL),
	F("review_branch", FIELD_STR, struct req_bpatch, review_branch, NULL),
};
static const struct schema bpatch_schema = { "patch", bpatch_fields,
					     ARRAY_SIZE(bpatch_fields),
					     sizeof(struct req_bpatch) };

static const struct field req_fields[] = {
	F("kind", FIELD_STR, struct build_req, kind, NULL),
	F("date", FIELD_STR, struct build_req, date, NULL),
	F("style", FIELD_STR, struct build_req, style, NULL),
	F("message_id", FIELD_MSGID, struct build_req, message_id, NULL),
	F("in_reply_to", FIELD_MSGID, struct build_req, in_reply_to, NULL),
	F("references", FIELD_STRS, struct build_req, references, NULL),
	F("from", FIELD_MAILBOX, struct build_req, from, NULL),
	F("to", FIELD_MAILBOXES, struct build_req, to, NULL),
	F("cc", FIELD_MAILBOXES, struct build_req, cc, NULL),
	F("build", FIELD_PATH, struct build_req, build, NULL),
	F("repo", FIELD_PATH, struct build_req, repo, NULL),
	F("greeting", FIELD_STR, struct build_req, greeting, NULL),
	F("tree", FIELD_STR, struct build_req, tree, NULL),
	F("tree_name", FIELD_STR, struct build_req, tree_name, NULL),
	F("branch", FIELD_STR, struct build_req, branch, NULL),
	F("head", FIELD_STR, struct build_req, head, NULL),
	F("position", FIELD_STR, struct build_req, position, NULL),
	F("commit_subject", FIELD_STR, struct build_req, commit_subject, NULL),
	F("auto_on", FIELD_STRS, struct build_req, auto_on, NULL),
	F("also_on", FIELD_STRS, struct build_req, also_on, NULL),
	F("cannot_apply", FIELD_STRS, struct build_req, cannot_apply, NULL),
	F("patch", FIELD_OBJ, struct build_req, patch, &bpatch_schema),
	F("excerpts", FIELD_OBJS, struct build_req, excerpts, &excerpt_schema),
	F("reported_by", FIELD_MAILBOX, struct build_req, reported_by, NULL),
	F("bisected", FIELD_BOOL, struct build_req, bisected, NULL),
	F("followup_patch", FIELD_BOOL, struct build_req, followup, NULL),
	F("intro", FIELD_STR, struct build_req, intro, NULL),
};
static const struct schema req_schema = { "build request", req_fields,
					  ARRAY_SIZE(req_fields),
					  sizeof(struct build_req) };

/* ---- the excerpt's blame (git blame --porcelain) ---- */

struct blame_line {
	long final;
	char *sha, *author, *author_mail, *committer, *committer_mail, *summary,
		*filename;
	int64_t time;
	int tz;
	int boundary;
};

struct blame {
	struct blame_line *v;
	size_t n, alloc;
};

struct blame_commit {
	char *sha, *author, *author_mail, *committer, *committer_mail, *summary,
		*filename;
	int64_t time;
	int tz;
	int boundary;
};

static char *line_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != ' ')
		return NULL;
	return xstrdup(line + n + 1);
}

/* A source line takes the fields of the commit its header named. */
static void blame_add_line(struct blame *b, const struct blame_commit *cur,
			   long final)
{
	struct blame_line *l;

	ALLOC_GROW(b->v, b->n + 1, b->alloc);
	l = &b->v[b->n++];
	memset(l, 0, sizeof(*l));
	l->final = final;
	l->sha = xstrdup(cur->sha);
	l->author = xstrdup(cur->author ? cur->author : "");
	l->author_mail = xstrdup(cur->author_mail ? cur->author_mail : "");
	l->committer = xstrdup(cur->committer ? cur->committer : "");
	l->committer_mail =
		xstrdup(cur->committer_mail ? cur->committer_mail : "");
	l->summary = xstrdup(cur->summary ? cur->summary : "");
	l->filename = xstrdup(cur->filename ? cur->filename : "");
	l->time = cur->time;
	l->tz = cur->tz;
	l->boundary = cur->boundary;
}

/* A header names a commit: the one seen before, or a new one. */
static struct blame_commit *blame_commit_of(struct blame_commit **cs,
					    size_t *ncs, size_t *alloc,
					    const char *sha)
{
	struct blame_commit *cur = NULL;
	size_t i;

	for (i = 0; i < *ncs; i++)
		if (!strcmp((*cs)[i].sha, sha))
			cur = &(*cs)[i];
	if (!cur) {
		ALLOC_GROW(*cs, *ncs + 1, *alloc);
		cur = &(*cs)[(*ncs)++];
		memset(cur, 0, sizeof(*cur));
		cur->sha = xstrdup(sha);
	}
	return cur;
}

/* A commit's field line sets that field; other lines are ignored. */
static void blame_commit_field(struct blame_commit *cur, const char *p)
{
	char *val;

	if (!strcmp(p, "boundary")) {
		cur->boundary = 1;
	} else if ((val = line_value(p, "author"))) {
		free(cur->author);
		cur->author = val;
	} else if ((val = line_value(p, "author-mail"))) {
		free(cur->author_mail);
		cur->author_mail = val;
	} else if ((val = line_value(p, "author-time"))) {
		cur->time = strtoll(val, NULL, 10);
		free(val);
	} else if ((val = line_value(p, "author-tz"))) {
		int h = atoi(val);

		cur->tz = (h / 100) * 60 + h % 100;
		free(val);
	} else if ((val = line_value(p, "committer"))) {
		free(cur->committer);
		cur->committer = val;
	} else if ((val = line_value(p, "committer-mail"))) {
		free(cur->committer_mail);
		cur->committer_mail = val;
	} else if ((val = line_value(p, "summary"))) {
		free(cur->summary);
		cur->summary = val;
	} else if ((val = line_value(p, "filename"))) {
		free(cur->filename);
		cur->filename = val;
	}
}

/* The commits live only while the blame is read: each line has a copy. */
static void blame_commits_free(struct blame_commit *cs, size_t ncs)
{
	size_t i;

	for (i = 0; i < ncs; i++) {
		free(cs[i].sha);
		free(cs[i].author);
		free(cs[i].author_mail);
		free(cs[i].committer);
		free(cs[i].committer_mail);
		free(cs[i].summary);
		free(cs[i].filename);
	}
	free(cs);
}

/*
 * Reads the porcelain output of git blame: for each line a header
 * "SHA ORIG FINAL [N]", the commit's fields the first time it appears,
 * "filename PATH", then the line itself after a tab.
 */
static int blame_read(struct blame *b, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct blame_commit *cs = NULL;
	size_t ncs = 0, alloc = 0;
	struct blame_commit *cur = NULL;
	long final = 0;
	char *p, *nl;
	int ret = 0, lineno = 0;

	memset(b, 0, sizeof(*b));
	if (strbuf_read_file(&sb, path) < 0)
		return error_errno("%s: cannot read the blame", path);
	for (p = sb.buf; p < sb.buf + sb.len && !ret; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(sb.buf + sb.len - p));
		if (!nl)
			nl = sb.buf + sb.len;
		*nl = '\0';
		lineno++;
		if (*p == '\t') {
			if (!cur) {
				ret = error("%s:%d: a source line before its "
					    "header",
					    path, lineno);
				break;
			}
			blame_add_line(b, cur, final);
			continue;
		}
		if (strspn(p, "0123456789abcdef") == 40 && p[40] == ' ') {
			char sha[41];

			memcpy(sha, p, 40);
			sha[40] = '\0';
			if (sscanf(p + 41, "%*d %ld", &final) != 1) {
				ret = error("%s:%d: a bad header line", path,
					    lineno);
				break;
			}
			cur = blame_commit_of(&cs, &ncs, &alloc, sha);
			continue;
		}
		if (cur)
			blame_commit_field(cur, p);
	}
	blame_commits_free(cs, ncs);
	strbuf_release(&sb);
	return ret;
}

static void blame_release(struct blame *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].sha);
		free(b->v[i].author);
		free(b->v[i].author_mail);
		free(b->v[i].committer);
		free(b->v[i].committer_mail);
		free(b->v[i].summary);
		free(b->v[i].filename);
	}
	free(b->v);
}

static const struct blame_line *blame_find(const struct blame *b, long line)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->v[i].final == line)
			return &b->v[i];
	return NULL;
}

/*
 * The columns of a line as `git blame --date=short` prints them, "SHA
 * [PATH] (AUTHOR DATE LINE) ", the author padded to the widest of the
 * excerpt, then as the robot shows them: its first "(" dropped, its first
 * ") " two blanks, and the line number's own column "@" on a line a
 * finding names (so an author with a ")" keeps the one after the line
 * number, 854).
 */
static size_t text_width(const char *s)
{
	size_t n = strlen(s), i = 0, w = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = utf8_char(s + i, n - i, &cp);

		if (!k)
			k = 1, cp = '?';
		i += k;
		w += (cp >= 0x1100 && cp <= 0x115f) ||
				     (cp >= 0x2e80 && cp <= 0xa4cf) ||
				     (cp >= 0xac00 && cp <= 0xd7a3) ||
				     (cp >= 0xf900 && cp <= 0xfaff) ||
				     (cp >= 0xff00 && cp <= 0xff60)
			     ? 2
			     : 1;
	}
	return w;
}

static void blame_columns(struct strbuf *out, const struct blame_line *b, int w,
			  int wpath, size_t wauthor, const struct tm *tm,
			  int mark, int wnum, long ln)
{
	struct strbuf g = STRBUF_INIT;
	size_t pad = wauthor - text_width(b->author);
	char *p;

	if (b->boundary)
		strbuf_addf(&g, "^%.*s ", w - 1, b->sha);
	else
		strbuf_addf(&g, "%.*s ", w, b->sha);
	if (wpath >= 0)
		strbuf_addf(&g, "%-*s ", wpath, b->filename);
	{
		char num[32];

		/* the mark goes right before the digits (704: "  @65") */
		snprintf(num, sizeof(num), "%c%ld", mark ? '@' : ' ', ln);
		strbuf_addf(&g, "(%s%*s %04d-%02d-%02d %*s) ", b->author,
			    (int)pad, "", tm->tm_year + 1900, tm->tm_mon + 1,
			    tm->tm_mday, wnum + 1, num);
	}
	p = strchr(g.buf, '(');
	memmove(p, p + 1, strlen(p + 1) + 1);
	g.len--;
	p = strstr(g.buf, ") ");
	if (p)
		*p = ' ';
	strbuf_addbuf(out, &g);
	strbuf_release(&g);
}

/* ---- the context of one composition ---- */

struct var {
	const char *name;
	char *value; /* NULL: no value, the template line is left out */
};

struct bctx {
	const struct robot_config *cfg;
	struct build_req req;
	struct build_result res;
	struct blog log, base;
	struct style st;
	char day[11]; /* the style's */
	int y, m, d;  /* the report's local day */
	struct var *vars;
	size_t nvars, alloc;
	int missing;
	const struct bline *target; /* the finding the Subject names */
	int errors, warnings, sparse, smatch, notes;
};

static void set_var(struct bctx *c, const char *name, char *value)
{
	size_t i;

	for (i = 0; i < c->nvars; i++)
		if (!strcmp(c->vars[i].name, name)) {
			free(c->vars[i].value);
			c->vars[i].value = value;
			return;
		}
	ALLOC_GROW(c->vars, c->nvars + 1, c->alloc);
	c->vars[c->nvars].name = name;
	c->vars[c->nvars++].value = value;
}

static void set_str(struct bctx *c, const char *name, const char *value)
{
	set_var(c, name, value ? xstrdup(value) : NULL);
}

static int lookup(void *ctx, const char *name, struct strbuf *out)
{
	struct bctx *c = ctx;
	size_t i;

	for (i = 0; i < c->nvars; i++)
		if (!strcmp(c->vars[i].name, name)) {
			if (c->vars[i].value)
				strbuf_addstr(out, c->vars[i].value);
			else
				c->missing = 1;
			return 0;
		}
	return 1;
}

/*
 * Appends the block NAME: templates/build/NAME-VARIANT when the style
 * has a row "build.NAME VARIANT", else templates/build/NAME.  Each line
 * of the template is a line of the mail; a line naming a placeholder
 * without a value is left out.
 */
static int block_file(struct bctx *c, struct strbuf *out, const char *file);

static int block(struct bctx *c, struct strbuf *out, const char *name)
{
	const char *variant;
	char *key = xasprintf("build.%s", name), *file;
	int ret;

	variant = style_get(&c->st, key);
	free(key);
	file = variant && strcmp(variant, "-")
		       ? xasprintf("%s-%s", name, variant)
		       : xstrdup(name);
	ret = block_file(c, out, file);
	free(file);
	return ret;
}

static int block_file(struct bctx *c, struct strbuf *out, const char *file)
{
	char *text, *path = NULL;
	struct strbuf line = STRBUF_INIT;
	const char *p;
	int ret = 0;

	text = data_template("build", file, &path);
	if (!text) {
		error_status = EXIT_CONFIG;
		return -1;
	}
	for (p = text; *text && p;) {
		const char *nl = strchr(p, '\n');
		char *one = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);

		strbuf_reset(&line);
		c->missing = 0;
		if (tmpl_expand(&line, one, path, lookup, c)) {
			free(one);
			error_status = EXIT_CONFIG;
			ret = -1;
			break;
		}
		free(one);
		if (!c->missing) {
			strbuf_addbuf(out, &line);
			strbuf_addch(out, '\n');
		}
		p = nl ? nl + 1 : NULL;
	}
	strbuf_release(&line);
	free(text);
	free(path);
	return ret;
}

static int style_is(const struct bctx *c, const char *key)
{
	const char *v = style_get(&c->st, key);

	return v && !strcmp(v, "1");
}

/* ---- loading ---- */

static int load_result(struct bctx *c)
{
	struct build_result *r = &c->res;
	char *log, *base;
	int ret;

	if (!c->req.build)
		return error("%s: build: missing (the build result's "
			     "directory)",
			     c->req.file);
	r->dir = xstrdup(c->req.build);
	r->file = xasprintf("%s/build.yaml", r->dir);
	if (schema_load_file(r, &result_schema, r->file))
		return -1;
	if (r->config && !r->compiler)
		return error("%s: compiler: missing (the compiler the config "
			     "was built with)",
			     r->file);
	if (!r->commit)
		return error("%s: commit: missing (the commit built)", r->file);
	if (r->status && strcmp(r->status, "success") &&
	    strcmp(r->status, "warning") && strcmp(r->status, "error"))
		return error("%s: status: '%s' is not success, warning or "
			     "error",
			     r->file, r->status);
	log = xasprintf("%s/build.log", r->dir);
	ret = blog_read(&c->log, log, MAX_LOG_LINES, MAX_LOG_BYTES);
	free(log);
	if (ret)
		return -1;
	base = xasprintf("%s/base.log", r->dir);
	if (!access(base, F_OK)) {
		ret = blog_read(&c->base, base, MAX_LOG_LINES, MAX_LOG_BYTES);
		if (ret) {
			free(base);
			return -1;
		}
		blog_mark_new(&c->log, &c->base);
	} else {
		blog_mark_new(&c->log, NULL);
	}
	free(base);
	return 0;
}

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* The local day of the request's date: "Sat, 21 Mar 2026 16:21:51 +0800". */
static int report_day(struct bctx *c)
{
	char mon[4] = "", tzs[6] = "", wday[4] = "";
	int hh, mm, ss, n = 0;
	size_t i;

	if (!c->req.date) {
		time_t t;
		struct tm tm;
		int sde = source_date_epoch(&t);

		if (sde < 0)
			return -1;
		if (!sde)
			t = time(NULL);
		gmtime_r(&t, &tm);
		c->y = tm.tm_year + 1900;
		c->m = tm.tm_mon + 1;
		c->d = tm.tm_mday;
		return 0;
	}
	if (sscanf(c->req.date, "%3s, %2d %3s %4d %2d:%2d:%2d %5s%n", wday,
		   &c->d, mon, &c->y, &hh, &mm, &ss, tzs, &n) != 8 ||
	    c->req.date[n])
		return error("%s: date: '%s' is not a mail's Date ('Sat, 21 "
			     "Mar 2026 16:21:51 +0800')",
			     c->req.file, c->req.date);
	for (i = 0; i < ARRAY_SIZE(months); i++)
		if (!strcmp(mon, months[i]))
			c->m = (int)i + 1;
	if (!c->m)
		return error("%s: date: '%s': unknown month", c->req.file,
			     c->req.date);
	return 0;
}

static int load(struct bctx *c, const char *path, const char *style)
{
	c->req.file = xstrdup(path);
	if (schema_load_file(&c->req, &req_schema, path) || report_day(c))
		return -1;
	if (style || c->req.style) {
		if (style_resolve(style ? style : c->req.style, c->day))
			return -1;
	} else {
		snprintf(c->day, sizeof(c->day), "%04d-%02d-%02d", c->y, c->m,
			 c->d);
	}
	if (style_load_table(&c->st, c->day, NULL, BUILD_STYLES)) {
		error_status = EXIT_CONFIG;
		return -1;
	}
	return load_result(c);
}

/* ---- the findings ---- */

static void count(struct bctx *c)
{
	size_t i;

	for (i = 0; i < c->log.n; i++) {
		const struct bline *l = &c->log.v[i];

		if (!l->is_new)
			continue;
		if (l->sev == SEV_ERROR)
			c->errors++;
		else if (l->sev == SEV_WARNING)
			c->warnings++;
		else if (l->sev == SEV_SPARSE)
			c->sparse++;
		else if (l->sev == SEV_SMATCH)
			c->smatch++;
		else if (l->sev == SEV_NOTE)
			c->notes++;
		if (!c->target && l->sev == SEV_ERROR)
			c->target = l;
	}
	for (i = 0; i < c->log.n && !c->target; i++)
		if (c->log.v[i].is_new && c->log.v[i].sev != SEV_NOTE)
			c->target = &c->log.v[i];
}

/*
 * The Subject's finding: the target line without the compiler's option
 * (" [-Wfoo]"), sparse's type details (" @@ expected ... @@ got ...").
 */
static char *subject_finding(const struct bline *l)
{
	char *s = xstrdup(l->text), *p;
	size_t n;

	p = strstr(s, " @@ ");
	if (p)
		*p = '\0';
	n = strlen(s);
	if (n && s[n - 1] == ']') {
		p = strrchr(s, '[');
		if (p && p > s && p[-1] == ' ' &&
		    (!strncmp(p, "[-W", 3) || !strncmp(p, "[-Werror", 8)))
			p[-1] = '\0';
	}
	return s;
}

/* ---- the excerpt ---- */

static char *split_lines(const char *text, size_t *n, char ***out)
{
	char *copy = xstrdup(text), *p;
	size_t alloc = 0;

	*n = 0;
	*out = NULL;
	for (p = copy; *p;) {
		char *nl = strchr(p, '\n');

		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return copy;
}

/*
 * A path as the build printed it, as the tree has it: "fs//cifs/x.c"
 * (a Makefile's trailing slash) and "./arch/x.h" name "fs/cifs/x.c" and
 * "arch/x.h".
 */
static char *tree_path(const char *file)
{
	char *out = xmalloc(strlen(file) + 1), *o = out;
	const char *p = file;

	while (p[0] == '.' && p[1] == '/')
		p += 2;
	for (; *p; p++)
		if (*p != '/' || (o > out && o[-1] != '/'))
			*o++ = *p;
	*o = '\0';
	return out;
}

/*
 * Whether a new finding of `file` names `line` (720, 745, 826: the lines
 * of the old ones are not marked).
 */
static int named(const struct bctx *c, const char *file, long line)
{
	size_t i;

	for (i = 0; i < c->log.n; i++) {
		const struct bline *l = &c->log.v[i];

		if (l->file && l->line == line && l->is_new &&
		    !strcmp(l->file, file))
			return 1;
	}
	return 0;
}

/*
 * The excerpt's file as the source revision the build read has it (the
 * commit built when none is named); a commit without it is an error.
 */
static int excerpt_source(struct bctx *c, const struct req_excerpt *e,
			  struct strbuf *src)
{
	struct repo *repo = NULL;
	char *path;
	int r;

	if (repo_open(&repo, c->req.repo))
		return -1;
	path = tree_path(e->file);
	r = repo_file_at(repo,
			 c->res.source_rev ? c->res.source_rev : c->res.commit,
			 path, src);
	free(path);
	repo_close(repo);
	if (r > 0)
		return error("%s: excerpts[0].file: commit %s has no file '%s'",
			     c->req.file, c->res.commit, e->file);
	return r < 0 ? -1 : 0;
}

/* The columns of the excerpt's blamed lines. */
struct excerpt_cols {
	size_t wauthor, wpath;
	int renamed, wnum;
};

/*
 * The author and path columns are as wide as their widest line, the path
 * shown only when a line comes from another file; the line numbers as
 * wide as the last one.
 */
static void excerpt_widths(const struct blame *bl, const char *file, long from,
			   long to, struct excerpt_cols *w)
{
	long ln;

	memset(w, 0, sizeof(*w));
	for (ln = from; ln <= to; ln++) {
		const struct blame_line *b = blame_find(bl, ln);

		if (!b)
			continue;
		if (text_width(b->author) > w->wauthor)
			w->wauthor = text_width(b->author);
		if (strlen(b->filename) > w->wpath)
			w->wpath = strlen(b->filename);
		if (strcmp(b->filename, file))
			w->renamed = 1;
	}
	w->wnum = snprintf(NULL, 0, "%ld", to);
}

/*
 * One line of the excerpt, "> " marking a line a new finding names:
 * after its blame columns when there is a blame (then every line needs
 * one), else after its number.  The finding's line blamed on another
 * commit than the one built is the commit that introduced it.
 */
static int excerpt_line(struct bctx *c, struct strbuf *body,
			const struct req_excerpt *e, const struct blame *bl,
			const struct excerpt_cols *w, const char *text, long ln,
			const struct blame_line **intro, long *first_intro)
{
	struct strbuf sb = STRBUF_INIT;
	int mark = named(c, e->file, ln);
	const struct blame_line *b = bl->n ? blame_find(bl, ln) : NULL;

	if (bl->n && !b)
		return error("%s: excerpts[0].blame: '%s' has no line %ld",
			     c->req.file, e->blame, ln);
	if (b) {
		/* the tree's abbreviation (a property of the
		 * repository, not of the period: 745 16 digits,
		 * 766 and 852 14), git's default 12 without it */
		int aw = e->abbrev ? (int)e->abbrev + 1 : 13;
		int64_t lt = b->time + (int64_t)b->tz * 60;
		time_t tt = (time_t)lt;
		struct tm tm;

		gmtime_r(&tt, &tm);
		blame_columns(body, b, aw, w->renamed ? (int)w->wpath : -1,
			      w->wauthor, &tm, mark, w->wnum, ln);
		if (ln == e->line && strncmp(b->sha, c->res.commit, 40))
			*intro = b, *first_intro = ln;
	} else {
		strbuf_addf(&sb, "%s%ld", mark ? "> " : "", ln);
		strbuf_addf(body, "%6s\t", sb.buf);
	}
	strbuf_reset(&sb);
	findings_clean(&sb, text, strlen(text));
	strbuf_addbuf(body, &sb);
	strbuf_addch(body, '\n');
	strbuf_release(&sb);
	return 0;
}

/*
 * The commit that introduced the finding's line, with its author and
 * committer: named on a report of a tree, and on one of a posted patch
 * when the style asks for it (build.intro_on_patch).
 */
static int excerpt_intro(struct bctx *c, struct strbuf *body,
			 const struct blame_line *intro, long first_intro)
{
	if (!intro || ((c->req.patch.url || c->req.patch.subject) &&
		       !style_is(c, "build.intro_on_patch")))
		return 0;
	set_var(c, "intro_line", xasprintf("%ld", first_intro));
	set_str(c, "intro_sha", intro->sha);
	set_str(c, "intro_summary", intro->summary);
	set_var(c, "intro_to",
		xasprintf("%s %s", intro->author, intro->author_mail));
	set_var(c, "intro_cc",
		xasprintf("%s %s", intro->committer, intro->committer_mail));
	strbuf_addch(body, '\n');
	return block(c, body, "introduced");
}

static int excerpt(struct bctx *c, struct strbuf *body)
{
	const struct req_excerpt *e;
	struct strbuf src = STRBUF_INIT;
	struct blame bl = { 0 };
	struct excerpt_cols w;
	char **lines, *copy;
	size_t nlines;
	long from, to, ln, first_intro = 0;
	int ret = -1;
	const struct blame_line *intro = NULL;

	if (!c->req.excerpts.n)
		return 0;
	e = c->req.excerpts.v;
	if (!e->file || !e->line)
		return error("%s: excerpts[0]: file and line needed",
			     c->req.file);
	if (!c->req.repo)
		return error("%s: repo: missing (the source tree the excerpt "
			     "is read from)",
			     c->req.file);
	if (excerpt_source(c, e, &src))
		goto out;
	copy = split_lines(src.buf, &nlines, &lines);
	from = e->from ? e->from : (e->line > 20 ? e->line - 20 : 1);
	to = e->to ? e->to : e->line + 3;
	if ((size_t)to > nlines)
		to = (long)nlines;
	if ((size_t)e->line > nlines || from > e->line) {
		error("%s: excerpts[0].line: '%s' of commit %s has %zu lines, "
		      "not line %ld",
		      c->req.file, e->file, c->res.commit, nlines, e->line);
		goto free_lines;
	}
	if (e->blame && blame_read(&bl, e->blame))
		goto free_lines;
	set_str(c, "vim_file", e->file);
	set_var(c, "vim_line", xasprintf("%ld", e->line));
	set_str(c, "vim_symbol", e->symbol);
	set_str(c, "if_no_symbol", e->symbol ? NULL : "");
	strbuf_addstr(body, "\n");
	if (block(c, body, "vim"))
		goto free_lines;
	excerpt_widths(&bl, e->file, from, to, &w);
	for (ln = from; ln <= to; ln++)
		if (excerpt_line(c, body, e, &bl, &w, lines[ln - 1], ln, &intro,
				 &first_intro))
			goto free_lines;
	if (excerpt_intro(c, body, intro, first_intro))
		goto free_lines;
	ret = 0;
free_lines:
	free(lines);
	free(copy);
out:
	blame_release(&bl);
	strbuf_release(&src);
	return ret;
}

/* ---- the mail ---- */

static char *join(const struct strv *v, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!v->n)
		return NULL;
	for (i = 0; i < v->n; i++)
		strbuf_addf(&sb, "%s%s", i ? sep : "", v->v[i]);
	return strbuf_detach(&sb, NULL);
}

static char *bare_id(const char *id)
{
	size_t n = strlen(id);

	if (n >= 2 && id[0] == '<' && id[n - 1] == '>')
		return xstrndup(id + 1, n - 2);
	return xstrdup(id);
}

/*
 * The web page of the commit built, as the reproduce steps name it: the
 * review branch's on GitHub for a posted patch; a git.kernel.org tree's
 * cgit page, a GitHub tree's commit page; none for other trees.
 */
static char *commit_link_of(const struct bctx *c, int gated)
{
	const struct build_req *q = &c->req;
	const char *t = q->tree;
	size_t n;

	if (q->patch.url || q->patch.subject)
		return q->patch.review_repo &&
				       (!gated ||
					style_is(c, "build.commit_link"))
			       ? xasprintf("%s/commit/%s", q->patch.review_repo,
					   c->res.commit)
			       : NULL;
	if (!t || (gated && !style_is(c, "build.commit_link")))
		return NULL;
	n = strlen(t);
	if (!strncmp(t, "https://git.kernel.org/", 23))
		return xasprintf("%s/commit/?id=%s", t, c->res.commit);
	if (!strncmp(t, "git://git.kernel.org/", 21))
		return xasprintf("https://%s/commit/?id=%s", t + 6,
				 c->res.commit);
	if (!strncmp(t, "https://github.com/", 19))
		return xasprintf(
			"%.*s/commit/%s",
			(int)(n > 4 && !strcmp(t + n - 4, ".git") ? n - 4 : n),
			t, c->res.commit);
	return NULL;
}

static char *commit_link(const struct bctx *c)
{
	return commit_link_of(c, 1);
}

/*
 * The request's words: the greeting, the patch or the tree and branch
 * built, and the commit.
 */
static void fill_request_vars(struct bctx *c)
{
	const struct build_req *q = &c->req;
	const struct build_result *r = &c->res;

	set_str(c, "name", q->greeting && *q->greeting ? q->greeting : NULL);
	set_str(c, "if_noname", q->greeting && !*q->greeting ? "" : NULL);
	set_str(c, "verdict", c->errors ? "ERROR" : "WARNING");
	set_str(c, "auto_on", q->auto_on.n ? q->auto_on.v[0] : NULL);
	set_var(c, "also_on", join(&q->also_on, " "));
	set_var(c, "cannot_apply", join(&q->cannot_apply, " "));
	set_str(c, "url", q->patch.url);
	set_str(c, "base", q->patch.base);
	set_str(c, "patch_link", q->patch.link);
	set_str(c, "patch_subject", q->patch.subject);
	set_str(c, "review_repo", q->patch.review_repo);
	set_str(c, "review_branch", q->patch.review_branch);
	set_str(c, "tree", q->tree);
	set_str(c, "tree_name", q->tree_name);
	set_str(c, "branch", q->branch);
	set_str(c, "head", q->head);
	set_str(c, "commit", r->commit);
	set_str(c, "position", q->position);
	set_str(c, "commit_subject", q->commit_subject);
}

/*
 * The build's: its config, architecture and the versions of its tools,
 * and whether it built a posted patch, a linked one, a published config.
 */
static void fill_build_vars(struct bctx *c)
{
	const struct build_req *q = &c->req;
	const struct build_result *r = &c->res;
	int patch = q->patch.url || q->patch.subject;

	set_str(c, "config", r->config);
	set_str(c, "arch", r->arch);
	set_str(c, "compiler", r->compiler);
	set_str(c, "sparse_version", r->sparse_version);
	set_str(c, "w1", r->w1 ? " (this is a W=1 build)" : "");
	set_str(c, "if_patch", patch ? "" : NULL);
	set_str(c, "if_link", q->patch.link ? "" : NULL);
	set_str(c, "if_config", r->config ? "" : NULL);
	set_str(c, "rustc", r->rustc);
	set_str(c, "smatch_version", r->smatch_version);
	set_str(c, "binutils", r->binutils);
	set_str(c, "if_binutils", r->binutils ? "" : NULL);
	set_str(c, "if_published", r->unpublished ? NULL : "");
	set_str(c, "if_linked", r->unpublished || r->dotconfig ? NULL : "");
	set_str(c, "if_unpublished", r->unpublished ? "" : NULL);
}

/*
 * The reproduce steps: where the commit is fetched from (the review
 * branch for a posted patch, else the tree) and which steps are shown.
 */
static void fill_step_vars(struct bctx *c)
{
	const struct build_req *q = &c->req;
	const struct build_result *r = &c->res;
	int patch = q->patch.url || q->patch.subject;

	set_var(c, "commit_link", commit_link(c));
	set_var(c, "fetch_link", commit_link_of(c, 0));
	set_str(c, "remote_name", patch ? "linux-review" : q->tree_name);
	set_str(c, "remote_url", patch ? q->patch.review_repo : q->tree);
	set_str(c, "remote_branch", patch ? q->patch.review_branch : q->branch);
	set_str(c, "if_remote",
		(patch ? q->patch.review_repo &&
				 style_is(c, "build.remote_steps")
		       : q->tree && style_is(c, "build.remote_steps"))
			? ""
			: NULL);
	set_str(c, "if_more", q->also_on.n || q->cannot_apply.n ? "" : NULL);
	set_str(c, "if_checkout",
		!patch || (q->patch.review_repo &&
			   style_is(c, "build.remote_steps"))
			? ""
			: NULL);
	set_str(c, "if_commit", patch ? NULL : "");
	set_str(c, "if_sparse", r->sparse_version ? "" : NULL);
	set_str(c, "if_attached", r->dotconfig ? "" : NULL);
}

/* The make lines, and whether one cross-compiles or builds in build_dir. */
static void fill_make_vars(struct bctx *c)
{
	const struct build_result *r = &c->res;
	size_t i;

	for (i = 0; i < r->make.n; i++)
		if (strstr(r->make.v[i], "make.cross"))
			break;
	set_str(c, "if_cross", i < r->make.n ? "" : NULL);
	for (i = 0; i < r->make.n; i++)
		if (strstr(r->make.v[i], "O=build_dir"))
			break;
	set_str(c, "if_build_dir", i < r->make.n ? "" : NULL);
	set_var(c, "make", join(&r->make, "\n        "));
}

/*
 * The links by message id: the materials' archive (under the day the id
 * was made) and the list archive's page.
 */
static void fill_link_vars(struct bctx *c, const char *id)
{
	set_str(c, "msgid", id);
	if (c->cfg->archive_url && strspn(id, "0123456789") >= 8)
		/* the materials' folder is the day the id was made */
		set_var(c, "archive_url",
			xasprintf("%s/%.8s/%s", c->cfg->archive_url, id, id));
	else if (c->cfg->archive_url)
		set_var(c, "archive_url",
			xasprintf("%s/%04d%02d%02d/%s", c->cfg->archive_url,
				  c->y, c->m, c->d, id));
	else
		set_str(c, "archive_url", NULL);
	set_var(c, "closes",
		c->cfg->list_archive_url
			? xasprintf("%s/%s/", c->cfg->list_archive_url, id)
			: NULL);
	/* the word before the report's own address: Link: or Closes: */
	set_str(c, "report_link", style_get(&c->st, "build.report_link"));
}

/* What the report is about: errors, warnings, or both. */
static void fill_what_vars(struct bctx *c)
{
	struct strbuf sb = STRBUF_INIT;
	const char *kind = c->errors ? "error" : "warning";

	/* new notes count as warnings here (715) */
	strbuf_addstr(&sb, c->errors && (c->warnings || c->notes)
				   ? "error/warnings"
			   : c->errors ? "errors"
				       : "warnings");
	set_var(c, "what", strbuf_detach(&sb, NULL));
	set_str(c, "kind", kind);
}

static void fill_vars(struct bctx *c, const char *msgid)
{
	const struct build_req *q = &c->req;
	const char *from = q->from ? q->from : c->cfg->from;
	char *id = bare_id(msgid);

	fill_request_vars(c);
	fill_build_vars(c);
	fill_step_vars(c);
	fill_make_vars(c);
	set_str(c, "reported_by", q->reported_by ? q->reported_by : from);
	fill_link_vars(c, id);
	fill_what_vars(c);
	free(id);
}

/* A report of smatch's findings alone: their own layout (712, 734, 747) */
static int smatch_only(const struct bctx *c)
{
	return c->smatch && !c->errors && !c->warnings && !c->sparse;
}

/*
 * smatch's findings: "New smatch warnings:" and "Old smatch warnings:"
 * when the base build had some of them (747, 847), else "smatch
 * warnings:" (734, 804); no column of marks.
 */
static int smatch_lines(struct bctx *c, struct strbuf *body)
{
	size_t i, old = 0;
	int pass, ret = 0;

	for (i = 0; i < c->log.n; i++)
		old += c->log.v[i].sev == SEV_SMATCH && !c->log.v[i].is_new;
	for (pass = 0; pass < (old ? 2 : 1) && !ret; pass++) {
		ret = block(c, body,
			    !old   ? "smatch-only"
			    : pass ? "smatch-old"
				   : "smatch-new");
		for (i = 0; !ret && i < c->log.n; i++) {
			const struct bline *l = &c->log.v[i];

			if (l->sev == SEV_SMATCH && l->is_new == !pass) {
				strbuf_addstr(body, l->text);
				strbuf_addch(body, '\n');
			}
		}
	}
	return ret;
}

/*
 * The words after the greeting: the style's, or, in the years when the
 * robot chose between "Thank you for the patch!" and "I love your
 * patch!" with no rule a mail shows, the request's `intro`.
 */
static int intro_block(struct bctx *c, struct strbuf *body)
{
	const char *name = c->errors ? "intro-error" : "intro-warning";
	const char *v =
		style_get(&c->st, name[6] == 'e' ? "build.intro-error"
						 : "build.intro-warning");
	char *file;
	int ret;

	if (!c->req.intro || (v && !strcmp(v, "noticed")))
		return block(c, body, name);
	if (strcmp(c->req.intro, "thank") && strcmp(c->req.intro, "love"))
		return error("%s: intro: '%s' is not thank or love",
			     c->req.file, c->req.intro);
	file = xasprintf("%s-%s", name, c->req.intro);
	ret = block_file(c, body, file);
	free(file);
	return ret;
}

static int render_body(struct bctx *c, struct strbuf *body)
{
	const struct build_req *q = &c->req;
	int patch = q->patch.url || q->patch.subject;
	size_t i;
	int ret = 0, kconfig = 0;

	if (q->greeting)
		ret = block(c, body, "greeting");
	if (!ret && patch)
		ret = intro_block(c, body);
	else if (!ret && q->bisected)
		ret = block(c, body, "bisected");
	if (!ret && patch)
		ret = block(c, body, "patch");
	if (!ret && !patch)
		ret = block(c, body, "commit");
	/* a static checker's report (sparse's or smatch's findings only) */
	if (!ret &&
	    !(((c->sparse && !c->errors && !c->warnings) || smatch_only(c)) &&
	      style_is(c, "build.checker_no_config")) &&
	    c->res.config)
		ret = block(c, body, "config");
	if (!ret && !smatch_only(c))
		ret = block(c, body, "reproduce");
	if (!ret)
		ret = block(c, body, "tags");
	if (!ret && smatch_only(c))
		ret = smatch_lines(c, body);
	else if (!ret) {
		ret = block(c, body,
			    c->sparse && !c->errors && !c->warnings
				    ? "heading-sparse"
				    : "heading");
		for (i = 0; !ret && i < c->log.n; i++) {
			const struct bline *l = &c->log.v[i];

			if (l->sev == SEV_KCONFIG) {
				kconfig = 1;
				continue;
			}
			/* "--": grep's separator of a log cut to its
			 * findings */
			if (*l->text && strcmp(l->text, "--"))
				strbuf_addstr(body, l->is_new ? ">> " : "   ");
			strbuf_addstr(body, l->text);
			strbuf_addch(body, '\n');
		}
	}
	if (!ret && kconfig) {
		/* Kconfig's words, apart and unmarked (815) */
		ret = block(c, body, "kconfig");
		for (i = 0; !ret && i < c->log.n; i++) {
			const char *t = c->log.v[i].text;

			if (c->log.v[i].sev != SEV_KCONFIG)
				continue;
			strbuf_addf(body, "   %s\n", t + strspn(t, " "));
		}
	}
	if (!ret && c->req.followup)
		ret = block(c, body, "followup");
	if (!ret && c->req.excerpts.n) {
		const char *gap = style_get(
			&c->st,
			(c->sparse || c->smatch) && !c->errors && !c->warnings
				? "build.sparse_gap"
				: "build.log_gap");
		int k;

		for (k = gap ? atoi(gap) : 0; k > 0; k--)
			strbuf_addch(body, '\n');
	}
	if (!ret)
		ret = excerpt(c, body);
	if (!ret)
		ret = block(c, body, "signature");
	return ret;
}

static char *make_msgid(const struct bctx *c, unsigned revision)
{
	uint64_t h = fnv1a64(FNV64_INIT, c->res.commit, strlen(c->res.commit));

	/* a correction (compose --force) is another message */
	h = fnv1a64(h, &revision, sizeof(revision));
	if (c->res.config)
		h = fnv1a64(h, c->res.config, strlen(c->res.config));
	return xasprintf("<%04d%02d%02d.%08x-%s@%s>", c->y, c->m, c->d,
			 (uint32_t)(h ^ (h >> 32)), c->cfg->message_id_user,
			 c->cfg->message_id_domain);
}

static int headers(struct bctx *c, struct msg *m, const char *subject,
		   const char *msgid)
{
	const struct build_req *q = &c->req;
	char *refs = join(&q->references, " ");
	int ret = 0;

	if (q->date)
		ret = compose_add_header(m, "Date", q->date, q->file, "date");
	if (!ret)
		ret = compose_add_addresses(m, q->from, &q->to, &q->cc, q->file,
					    c->cfg, 0);
	if (!ret)
		ret = compose_add_header(m, "Subject", subject, q->build,
					 "build.log (the Subject's finding)");
	if (!ret)
		ret = compose_add_header(m, "Message-ID", msgid, q->file,
					 "message_id");
	if (!ret && (refs || q->in_reply_to))
		ret = compose_add_header(m, "References",
					 refs ? refs : q->in_reply_to, q->file,
					 "references");
	if (!ret && q->in_reply_to)
		ret = compose_add_header(m, "In-Reply-To", q->in_reply_to,
					 q->file, "in_reply_to");
	free(refs);
	return ret;
}

static void ctx_release(struct bctx *c)
{
	size_t i;

	for (i = 0; i < c->nvars; i++)
		free(c->vars[i].value);
	free(c->vars);
	free(c->req.file);
	/* schema_release() clears the struct: its own members first */
	free(c->res.dir);
	free(c->res.file);
	free(c->res.dotconfig);
	schema_release(&c->req, &req_schema);
	schema_release(&c->res, &result_schema);
	blog_release(&c->log);
	blog_release(&c->base);
	style_release(&c->st);
}

/* The build's .config is attached when its folder has one. */
static void find_dotconfig(struct bctx *c)
{
	char *dc = xasprintf("%s/.config", c->res.dir);

	if (!access(dc, R_OK))
		c->res.dotconfig = dc;
	else
		free(dc);
}

/* The subject: "Re: " and the posted patch's, else the template's line. */
static int compose_subject(struct bctx *c, struct strbuf *subject)
{
	if (c->req.patch.subject)
		strbuf_addf(subject, "Re: %s", c->req.patch.subject);
	else if (block(c, subject, "subject"))
		return -1;
	while (subject->len && subject->buf[subject->len - 1] == '\n')
		strbuf_setlen(subject, subject->len - 1);
	return 0;
}

/* The body, ending in a single newline. */
static int compose_body(struct bctx *c, struct strbuf *body)
{
	if (render_body(c, body))
		return -1;
	while (body->len > 1 && body->buf[body->len - 1] == '\n' &&
	       body->buf[body->len - 2] == '\n')
		strbuf_setlen(body, body->len - 1);
	return 0;
}

/* The build's .config, when there is one, attached to the mail. */
static int attach_dotconfig(const struct bctx *c, struct msg *m)
{
	struct strbuf dc = STRBUF_INIT;
	int ret;

	if (!c->res.dotconfig)
		return 0;
	if (strbuf_read_file(&dc, c->res.dotconfig) < 0) {
		error_errno("%s: cannot read", c->res.dotconfig);
		strbuf_release(&dc);
		return -1;
	}
	/* the 2019-2021 mails attach it gzipped; robot: as text */
	ret = msg_add_part(m, "config", "text/plain", dc.buf, dc.len);
	strbuf_release(&dc);
	return ret;
}

/* The mail's bytes, which must pass the lint. */
static int render_mail(struct composed *out, struct msg *m, const char *path)
{
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	if (msg_render(&out->bytes, m))
		goto out;
	if (msg_lint(out->bytes.buf, out->bytes.len, &why)) {
		error("%s: the mail fails the lint: %s", path, why.buf);
		error_status = EXIT_RUNTIME;
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&why);
	return ret;
}

int build_compose(struct composed *out, const char *path,
		  const struct robot_config *cfg, const struct compose_opts *o)
{
	struct bctx c = { 0 };
	struct strbuf body = STRBUF_INIT, subject = STRBUF_INIT;
	struct msg m;
	char *finding = NULL;
	int ret = -1;

	error_status = 0;
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->bytes, 0);
	msg_init(&m);
	c.cfg = cfg;
	if (load(&c, path, o ? o->style : NULL))
		goto out;
	find_dotconfig(&c);
	count(&c);
	if (!c.target) {
		error("%s/build.log: no new finding against base.log: nothing "
		      "to report",
		      c.res.dir);
		goto out;
	}
	out->message_id = c.req.message_id
				  ? xstrdup(c.req.message_id)
				  : make_msgid(&c, o ? o->revision : 0);
	fill_vars(&c, out->message_id);
	finding = subject_finding(c.target);
	set_var(&c, "finding", finding);
	if (compose_subject(&c, &subject) || compose_body(&c, &body))
		goto out;
	out->key = xasprintf("build %s %s %s r%u", c.res.commit,
			     c.res.config ? c.res.config : "-",
			     c.target->key ? c.target->key : "",
			     o ? o->revision : 0);
	out->commit_id = xstrdup(c.res.commit);
	if (c.res.base)
		out->base_id = xstrdup(c.res.base);
	if (msg_set_body(&m, body.buf, body.len) ||
	    headers(&c, &m, subject.buf, out->message_id) ||
	    attach_dotconfig(&c, &m) || render_mail(out, &m, path))
		goto out;
	ret = 0;
out:
	msg_release(&m);
	ctx_release(&c);
	strbuf_release(&body);
	strbuf_release(&subject);
	return ret ? error_exit_code(EXIT_DATAERR) : 0;
}
