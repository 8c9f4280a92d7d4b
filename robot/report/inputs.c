// SPDX-License-Identifier: GPL-2.0-only
/*
 * inputs.c: the input file and key behind each placeholder of the
 * templates, and the part of the mail each template writes, for the one
 * error a report with missing values gives (inputs.h).
 */
#include "robot/util/common.h"
#include "robot/report/inputs.h"
#include "robot/report/report.h"

enum from {
	FROM_NONE,    /* computed by robot: no input to blame */
	FROM_REQUEST, /* a key of the request */
	FROM_CONFIG,  /* a key of the configuration */
	FROM_COMMIT,  /* a key of the tested commit's metadata */
	FROM_JOB,     /* a key of the test's job.yaml */
};

/*
 * Placeholders and where their values come from.  `key` is the input's
 * key (NULL: the placeholder's own name); `line` the part of the mail
 * that shows it, for the templates (a body) that write many parts.
 */
static const struct source {
	const char *placeholder;
	enum from from;
	const char *key;
	const char *line;
	int optional; /* data some reports have and others do not */
} sources[] = {
	{ "commit_id", FROM_REQUEST, "commit", "the commit line", 0 },
	{ "sha10", FROM_REQUEST, "commit", "the commit line", 0 },
	{ "commit_subject", FROM_COMMIT, "subject", "the commit line", 0 },
	{ "headline_subject", FROM_COMMIT, "subject", "the commit line", 0 },
	{ "subsystem", FROM_COMMIT, "subject", "the Subject", 1 },
	{ "subject_gap", FROM_REQUEST, "tree", "the Subject", 1 },
	{ "confidence", FROM_REQUEST, "confidence", "the Subject", 1 },
	{ "repo_url", FROM_REQUEST, NULL, "the line under the commit", 0 },
	{ "branch", FROM_REQUEST, NULL, "the line under the commit", 0 },
	{ "tree", FROM_REQUEST, NULL, "the Subject", 0 },
	{ "patch_url", FROM_REQUEST, "patch.url", "the patch lines", 1 },
	{ "patch_base", FROM_REQUEST, "patch.base", "the patch lines", 1 },
	{ "patch_link", FROM_REQUEST, "patch.link", "the patch lines", 1 },
	{ "patch_subject", FROM_REQUEST, "patch.subject", "the patch lines",
	  1 },
	{ "reported_by", FROM_CONFIG, NULL, "the suggested tags", 0 },
	{ "sender_name", FROM_CONFIG, NULL, "the signature", 0 },
	{ "disclaimer", FROM_CONFIG, NULL, "the disclaimer", 1 },
	{ "message_id", FROM_REQUEST, NULL, "the links to the report", 0 },
	{ "msgid", FROM_REQUEST, "message_id", "the links to the report", 0 },
	{ "date", FROM_REQUEST, NULL, "the download link", 0 },
	{ "archive_url", FROM_CONFIG, NULL, "the download link", 0 },
	{ "list_archive_url", FROM_CONFIG, NULL, "the suggested tags", 0 },
	{ "kpi", FROM_REQUEST, NULL, "the headline", 0 },
	{ "test_description", FROM_REQUEST, NULL, "the test description", 1 },
	{ "test_url", FROM_REQUEST, NULL, "the test description", 1 },
	{ "testcase", FROM_JOB, NULL, "the testcase line", 0 },
	{ "tbox_group", FROM_JOB, NULL, "the test's section", 0 },
	{ "kconfig", FROM_JOB, NULL, "the config line", 0 },
	{ "compiler", FROM_JOB, NULL, "the compiler line", 0 },
	{ "nr_cpu", FROM_JOB, NULL, "the test machine line", 0 },
	{ "nr_node", FROM_JOB, NULL, "the test machine line", 0 },
	{ "brand", FROM_JOB, NULL, "the test machine line", 0 },
	{ "model", FROM_JOB, NULL, "the test machine line", 0 },
	{ "memory", FROM_JOB, NULL, "the test machine line", 0 },
	{ "arch", FROM_JOB, "kconfig", "the reproduce steps", 0 },
	{ "version", FROM_JOB, "bm_initrd", "the parameters", 0 },
	{ "release", FROM_COMMIT, "release", "the reproduce steps", 0 },
	{ "still_tree", FROM_REQUEST, "still[].tree", "the still lines", 0 },
	{ "still_tree_right", FROM_REQUEST, "still[].tree", "the still lines",
	  0 },
	{ "still_tree_bare", FROM_REQUEST, "still[].tree", "the still lines",
	  0 },
	{ "still_commit", FROM_REQUEST, "still[].commit", "the still lines",
	  0 },
};

/*
 * The part of the mail a template writes, by the start of its file name
 * (the longest match wins); a body writes many parts and leaves it to
 * the placeholder's `line`.
 */
static const struct part {
	const char *prefix;
	const char *what;
} parts[] = {
	{ "subject", "the Subject" },
	{ "fsubject", "the Subject" },
	{ "machine", "the test machine line" },
	{ "source", "the line under the commit" },
	{ "fsource", "the line under the commit" },
	{ "tags", "the suggested tags" },
	{ "ftags", "the suggested tags" },
	{ "repro-download", "the download link" },
	{ "frepro-download", "the download link" },
	{ "archive-url", "the download link" },
	{ "repro", "the reproduce steps" },
	{ "frepro", "the reproduce steps" },
	{ "footer", "the signature" },
	{ "signature", "the signature" },
	{ "disclaimer", "the disclaimer" },
	{ "cfg", "the config and compiler lines" },
	{ "fcfg", "the config and compiler lines" },
	{ "section", "the test's section" },
	{ "addition", "the In-addition table" },
	{ "param", "the parameters" },
	{ "fparams", "the parameters" },
	{ "testdesc", "the test description" },
	{ "ftestdesc", "the test description" },
	{ "patch", "the patch lines" },
	{ "still", "the still lines" },
	{ "fstill", "the still lines" },
};

struct need {
	char *file; /* NULL: no input (robot computes the value) */
	char *key;  /* as the message shows it: "'memory'" */
	const char *what;
	int machine; /* a host field: the request's `machine` stands in */
	int robot;   /* no input gives it: robot failed to compute it */
	int config;  /* a key of the configuration */
};

/* what resolve() says of a key beside its file */
enum { NEED_MACHINE = 1, NEED_CONFIG = 2 };

struct needs {
	struct need *v;
	size_t n, alloc;
};

struct needs *needs_new(void)
{
	return xcalloc(1, sizeof(struct needs));
}

void needs_free(struct needs *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		free(n->v[i].file);
		free(n->v[i].key);
	}
	free(n->v);
	free(n);
}

size_t needs_count(const struct needs *n)
{
	return n ? n->n : 0;
}

static const struct source *source_of(const char *placeholder)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sources); i++)
		if (!strcmp(sources[i].placeholder, placeholder))
			return &sources[i];
	return NULL;
}

/* The part of the mail template `tmpl` (a path) writes, or NULL. */
static const char *part_of(const char *tmpl)
{
	const char *base = strrchr(tmpl, '/'), *best = NULL;
	size_t i, best_len = 0;

	base = base ? base + 1 : tmpl;
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		size_t len = strlen(parts[i].prefix);

		if (!strncmp(base, parts[i].prefix, len) &&
		    (!base[len] || base[len] == '-') && len > best_len) {
			best = parts[i].what;
			best_len = len;
		}
	}
	return best;
}

int needs_optional(const char *placeholder)
{
	const struct source *s = source_of(placeholder);

	return s && s->optional;
}

static const char * or (const char *s, const char *fallback)
{
	return s && *s ? s : fallback;
}

/* Takes file and shown; the same key of the same file is kept once. */
static void add(struct needs *n, char *file, char *shown, const char *what,
		int flags)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->v[i].key, shown) &&
		    !strcmp(or (n->v[i].file, ""), or (file, ""))) {
			free(file);
			free(shown);
			return;
		}
	ALLOC_GROW(n->v, n->n + 1, n->alloc);
	n->v[n->n].file = file;
	n->v[n->n].key = shown;
	n->v[n->n].what = what;
	n->v[n->n].machine = !!(flags & NEED_MACHINE);
	n->v[n->n].robot = !file;
	n->v[n->n].config = !!(flags & NEED_CONFIG);
	n->n++;
}

/*
 * The input file of `placeholder` and its key as the message shows it.
 * Returns 0, or 1 when it is not to be asked for (its result roots or
 * the tested commit are missing themselves).
 */
static int resolve(const struct report *r, const struct report_test *t,
		   const char *placeholder, const char *tmpl, char **file,
		   char **shown, const char **what, int *flags)
{
	const struct source *s = source_of(placeholder);
	const char *key = s && s->key ? s->key : placeholder;

	*what = part_of(tmpl);
	if (!*what)
		*what = s ? s->line : "the report";
	if (s && s->from == FROM_JOB && t && t->no_inputs)
		return 1;
	if (s && s->from == FROM_COMMIT && !r->commit_id)
		return 1;
	*file = NULL;
	switch (s ? s->from : FROM_NONE) {
	case FROM_REQUEST:
		*file = xstrdup(or (r->origin.request, "the request"));
		break;
	case FROM_CONFIG:
		if (r->origin.config && !strcmp(r->origin.config, "(built-in)"))
			*file = xstrdup("the built-in configuration");
		else
			*file = xstrdup(
				or (r->origin.config, "the configuration"));
		break;
	case FROM_COMMIT:
		*file = xstrdup(or (r->origin.commits, "the commit metadata"));
		break;
	case FROM_JOB:
		*file = xstrdup(
			or (t ? t->job_file : NULL, "the test's job.yaml"));
		break;
	case FROM_NONE:
		break;
	}
	if (s && s->from == FROM_COMMIT)
		*shown = xasprintf("'%s' of commit %.10s", key, r->commit_id);
	else
		*shown = xasprintf("'%s'", key);
	*flags = 0;
	if (s && s->from == FROM_JOB &&
	    !strcmp(s->line, "the test machine line"))
		*flags |= NEED_MACHINE;
	if (s && s->from == FROM_CONFIG)
		*flags |= NEED_CONFIG;
	return 0;
}

void needs_add(struct needs *n, const struct report *r,
	       const struct report_test *t, const char *placeholder,
	       const char *tmpl)
{
	const char *what;
	char *file, *shown;
	int flags;

	if (!resolve(r, t, placeholder, tmpl, &file, &shown, &what, &flags))
		add(n, file, shown, what, flags);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void needs_add_either(struct needs *n, const struct report *r,
		      const struct report_test *t, const char *const *names,
		      size_t count, const char *tmpl)
{
	const char **sorted = xcalloc(count, sizeof(*sorted));
	struct strbuf either = STRBUF_INIT;
	const char *what, *first_what = NULL;
	char *file, *shown, *first = NULL;
	int flags, first_flags = 0;
	size_t i;

	memcpy(sorted, names, count * sizeof(*sorted));
	qsort(sorted, count, sizeof(*sorted), cmp_str);
	for (i = 0; i < count; i++) {
		if (resolve(r, t, sorted[i], tmpl, &file, &shown, &what,
			    &flags))
			continue;
		if (either.len)
			strbuf_addstr(&either, " or ");
		strbuf_addstr(&either, shown);
		free(shown);
		if (first) {
			free(file);
			continue;
		}
		first = file;
		first_what = what;
		first_flags = flags;
	}
	if (first)
		add(n, first, strbuf_detach(&either, NULL), first_what,
		    first_flags);
	strbuf_release(&either);
	free(sorted);
}

void needs_add_key(struct needs *n, const char *file, const char *key,
		   const char *what)
{
	add(n, xstrdup(file), xasprintf("'%s'", key), what, 0);
}

/* "'a'", "'a' and 'b'", "'a', 'b' and 'c'" */
static void add_list(struct strbuf *out, const struct need *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(out, i + 1 == n ? " and " : ", ");
		strbuf_addstr(out, v[i]->key);
	}
}

static int same_file(const struct need *a, const struct need *b)
{
	return !strcmp(or (a->file, ""), or (b->file, ""));
}

/* "needs", or "need" after "the commit lines" */
static const char *verb(const char *what)
{
	size_t len = strlen(what);

	return len && what[len - 1] == 's' ? "need" : "needs";
}

/* One input file's part of the message: its keys and who needs them. */
static void add_file(struct strbuf *out, const struct needs *n, size_t first)
{
	const struct need **keys = xcalloc(n->n, sizeof(*keys));
	const struct need **group = xcalloc(n->n, sizeof(*group));
	const struct need *f = &n->v[first];
	size_t nkeys = 0, i, j, ngroup;
	int machine = 0, one_part = 1;

	for (i = first; i < n->n; i++)
		if (same_file(&n->v[i], f)) {
			keys[nkeys++] = &n->v[i];
			machine |= n->v[i].machine;
			one_part &= !strcmp(n->v[i].what, f->what);
		}
	if (f->file)
		strbuf_addf(out, "%s: ", f->file);
	else
		strbuf_addstr(out, "the report has no value for ");
	add_list(out, keys, nkeys);
	if (f->file)
		strbuf_addstr(out, nkeys > 1 ? " are missing" : " is missing");
	strbuf_addstr(out, " (");
	if (one_part) {
		strbuf_addf(out, "%s %s %s", f->what, verb(f->what),
			    nkeys > 1 ? "them" : "it");
	} else {
		/* each part once, with the keys it needs */
		for (i = 0; i < nkeys; i++) {
			for (j = 0; j < i; j++)
				if (!strcmp(keys[j]->what, keys[i]->what))
					break;
			if (j < i)
				continue;
			for (j = i, ngroup = 0; j < nkeys; j++)
				if (!strcmp(keys[j]->what, keys[i]->what))
					group[ngroup++] = keys[j];
			if (i)
				strbuf_addstr(out, "; ");
			strbuf_addf(out, "%s %s ", keys[i]->what,
				    verb(keys[i]->what));
			add_list(out, group, ngroup);
		}
	}
	if (machine)
		strbuf_addstr(out, ", unless the request gives 'machine'");
	strbuf_addch(out, ')');
	free(keys);
	free(group);
}

int needs_report(const struct needs *n)
{
	struct strbuf msg = STRBUF_INIT;
	size_t i, j;
	int inputs = 0, config = 1;

	for (i = 0; i < n->n; i++)
		inputs |= !n->v[i].robot;
	for (i = 0; i < n->n; i++) {
		/* a value robot could not compute for want of an input */
		if (inputs && n->v[i].robot)
			continue;
		config &= n->v[i].config;
		for (j = 0; j < i; j++)
			if (same_file(&n->v[j], &n->v[i]))
				break;
		if (j < i)
			continue;
		if (msg.len)
			strbuf_addstr(&msg, "; ");
		add_file(&msg, n, i);
	}
	/* only the configuration lacks keys: bad configuration, 78 */
	if (config && n->n)
		error_status = EXIT_CONFIG;
	error("%s", msg.buf);
	strbuf_release(&msg);
	return -1;
}
