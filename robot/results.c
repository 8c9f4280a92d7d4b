// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c: loading one LKP result root.
 *
 * matrix.json is read whole (gunzipped when only matrix.json.gz exists)
 * and copied into plain arrays, so callers never see a JSON library.
 * Integers and reals are kept apart, because the report prints a stat
 * differently when every sample was an integer.  Duplicate JSON keys, NaN,
 * Infinity and numbers that overflow a double are refused: a result root
 * either loads exactly or not at all.
 *
 * jansson parses the text (JSON_DECODE_INT_AS_REAL not set, duplicates
 * rejected) and words every error.  A hand-written scanner was measured
 * (20 ms instead of 80 ms for 20,000 stats x 10 runs) and dropped: the
 * library meets the compare benchmark's targets on its own.
 *
 * job.yaml is flattened into (key, value, section) entries in document
 * order.  A nested mapping's leaves get the top-level key as their section;
 * a sequence becomes one entry whose value is its items joined by ", "
 * (nested collections inside a sequence are written in flow style,
 * "[a, b]" and "{k: v}").
 */
#include "common.h"
#include "results.h"
#include "utf8.h"
#include "config/yaml.h"

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>

/* The most matrix text robot reads, after decompression. */
#define MATRIX_MAX ((size_t)1 << 30)
#define READ_CHUNK ((size_t)1 << 18)

#define INCOMPLETE_STAT "last_state.is_incomplete_run"

static int read_plain(struct strbuf *sb, const char *path, int fd)
{
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) < 0)
		return error_errno("cannot read '%s'", path);
	if (S_ISDIR(st.st_mode))
		return error("cannot read '%s': Is a directory", path);
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > MATRIX_MAX)
		return error("'%s' is larger than 1 GiB", path);
	/* one spare byte, so that the read seeing EOF needs no realloc */
	if (S_ISREG(st.st_mode))
		strbuf_grow(sb, (size_t)st.st_size + 1);
	for (;;) {
		if (sb->len + 1 >= sb->alloc)
			strbuf_grow(sb, READ_CHUNK);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_errno("cannot read '%s'", path);
		if (!n)
			break;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (sb->len > MATRIX_MAX)
			return error("'%s' is larger than 1 GiB", path);
	}
	return 0;
}

static int gz_fail(gzFile gz, const char *path)
{
	int errnum;
	const char *msg = gzerror(gz, &errnum);

	if (errnum == Z_ERRNO)
		return error_errno("cannot read '%s'", path);
	return error("'%s': corrupt gzip data: %s", path,
		     msg && *msg ? msg : "unknown error");
}

static int read_gz(struct strbuf *sb, const char *path, int fd)
{
	struct stat st;
	gzFile gz;
	int n, ret = 0, rc;

	if (fstat(fd, &st) < 0)
		return error_errno("cannot read '%s'", path);
	if (S_ISDIR(st.st_mode))
		return error("cannot read '%s': Is a directory", path);
	gz = gzdopen(fd, "rb");
	if (!gz)
		return error("cannot read '%s': out of memory", path);
	gzbuffer(gz, 1 << 17);
	for (;;) {
		strbuf_grow(sb, READ_CHUNK);
		n = gzread(gz, sb->buf + sb->len, (unsigned)READ_CHUNK);
		if (n < 0) {
			ret = gz_fail(gz, path);
			break;
		}
		if (gzdirect(gz)) {
			ret = error("'%s' is not gzip data", path);
			break;
		}
		if (!n)
			break;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (sb->len > MATRIX_MAX) {
			ret = error("'%s' is larger than 1 GiB uncompressed",
				    path);
			break;
		}
	}
	/* gzclose_r() also closes fd and reports a bad trailer */
	rc = gzclose_r(gz);
	if (!ret && rc != Z_OK)
		ret = error("'%s': corrupt gzip data (error %d)", path, rc);
	return ret;
}

/*
 * Reads DIR/matrix.json, or DIR/matrix.json.gz when the former does not
 * exist.  `path` receives the name of the file read, for messages.
 */
static int read_matrix(struct strbuf *sb, struct strbuf *path, const char *dir)
{
	int fd, ret;

	strbuf_addf(path, "%s/matrix.json", dir);
	fd = open(path->buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ret = read_plain(sb, path->buf, fd);
		close(fd);
		return ret;
	}
	if (errno != ENOENT)
		return error_errno("cannot read '%s'", path->buf);
	strbuf_addstr(path, ".gz");
	fd = open(path->buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return error("cannot read '%s/matrix.json' (nor "
			     "matrix.json.gz): No such file or directory",
			     dir);
	if (fd < 0)
		return error_errno("cannot read '%s'", path->buf);
	return read_gz(sb, path->buf, fd);
}

static int cmp_stat(const void *a, const void *b)
{
	const struct rt_stat *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int cmp_name(const void *name, const void *elem)
{
	const struct rt_stat *st = elem;

	return strcmp(name, st->name);
}

/* Gives `st` its name and nruns integer zeros. */
static void stat_init(struct rt_stat *st, char *name, size_t nruns)
{
	st->name = name;
	st->val = xcalloc(nruns, sizeof(*st->val));
	st->is_int = xmalloc(nruns);
	memset(st->is_int, 1, nruns);
}

static void free_stats(struct result_root *rt)
{
	size_t i;

	for (i = 0; i < rt->nstats; i++) {
		free(rt->stats[i].name);
		free(rt->stats[i].val);
		free(rt->stats[i].is_int);
	}
	free(rt->stats);
	rt->stats = NULL;
	rt->nstats = 0;
}

int rt_check_stat_name(const char *name, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (!*name) {
		strbuf_addstr(why, "the stat name \"\" is empty");
		ret = -1;
	} else if (utf8_check_text(name, 0, &sb)) {
		strbuf_addstr(why, "the stat name ");
		strbuf_add_json_string(why, name);
		strbuf_addf(why, " is not one line of visible text (%s)",
			    sb.buf);
		ret = -1;
	}
	strbuf_release(&sb);
	return ret;
}

/* Copies one stat's samples, padding a short array with integer zeros. */
static int load_stat(struct rt_stat *st, const char *file, const char *name,
		     json_t *arr, size_t nruns)
{
	struct strbuf why = STRBUF_INIT;
	size_t i, n;

	if (rt_check_stat_name(name, &why)) {
		error("%s: %s", file, why.buf);
		strbuf_release(&why);
		return -1;
	}

	if (!json_is_array(arr))
		return error("%s: stat '%s' is not an array", file, name);
	n = json_array_size(arr);
	if (n > nruns)
		return error("%s: stat '%s' has %zu values, but stats_source "
			     "lists %zu runs",
			     file, name, n, nruns);
	stat_init(st, xstrdup(name), nruns);
	st->n = n;
	for (i = 0; i < n; i++) {
		json_t *v = json_array_get(arr, i);

		if (json_is_integer(v)) {
			st->val[i] = (double)json_integer_value(v);
		} else if (json_is_real(v)) {
			st->val[i] = json_real_value(v);
			st->is_int[i] = 0;
			if (!isfinite(st->val[i]))
				return error("%s: stat '%s'[%zu] is out of "
					     "range",
					     file, name, i);
		} else {
			return error("%s: stat '%s'[%zu] is not a number", file,
				     name, i);
		}
	}
	return 0;
}

static int load_stats_source(struct result_root *rt, char ***out,
			     const char *file, json_t *root)
{
	json_t *src = json_object_get(root, "stats_source");
	size_t i, n;

	if (!src)
		return error("%s: no \"stats_source\"", file);
	if (!json_is_array(src))
		return error("%s: \"stats_source\" is not an array", file);
	n = json_array_size(src);
	if (!n)
		return error("%s: \"stats_source\" is empty", file);
	for (i = 0; i < n; i++)
		if (!json_is_string(json_array_get(src, i)))
			return error("%s: stats_source[%zu] is not a string",
				     file, i);
	rt->nruns = n;
	*out = xcalloc(n, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = xstrdup(json_string_value(json_array_get(src, i)));
	return 0;
}

static int load_matrix(struct result_root *rt, char ***src, const char *file,
		       json_t *root)
{
	const char *key;
	json_t *val;
	size_t n;

	if (!json_is_object(root))
		return error("%s: not a JSON object", file);
	if (load_stats_source(rt, src, file, root) < 0)
		return -1;
	n = json_object_size(root) - 1;
	if (!n)
		return error("%s: no stats (empty matrix)", file);
	rt->stats = xcalloc(n, sizeof(*rt->stats));
	json_object_foreach(root, key, val)
	{
		if (!strcmp(key, "stats_source"))
			continue;
		rt->stats[rt->nstats].order = rt->nstats;
		if (load_stat(&rt->stats[rt->nstats++], file, key, val,
			      rt->nruns) < 0)
			return -1;
	}
	qsort(rt->stats, rt->nstats, sizeof(*rt->stats), cmp_stat);
	return 0;
}

static int json_parse(struct result_root *rt, char ***src, const char *file,
		      const struct strbuf *text)
{
	json_error_t jerr;
	json_t *root;
	int ret;

	root = json_loadb(text->buf, text->len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return error("%s:%d:%d: invalid JSON: %s", file, jerr.line,
			     jerr.column, jerr.text);
	ret = load_matrix(rt, src, file, root);
	json_decref(root);
	return ret;
}

static void mark_incomplete(struct result_root *rt)
{
	const struct rt_stat *st = result_root_stat(rt, INCOMPLETE_STAT);
	size_t i;

	rt->incomplete = xcalloc(rt->nruns, 1);
	if (!st)
		return;
	for (i = 0; i < rt->nruns; i++) {
		if (st->val[i] == 1) {
			rt->incomplete[i] = 1;
			rt->nincomplete++;
		}
	}
}

/*
 * The run directory of a stats_source path: the last component of its
 * dirname ("/result/.../<sha>/3/stats.json" gives "3").
 */
static int run_name(struct strbuf *out, const char *src)
{
	const char *end = strrchr(src, '/'), *start;

	if (!end)
		return -1;
	while (end > src && end[-1] == '/')
		end--;
	start = end;
	while (start > src && start[-1] != '/')
		start--;
	if (start == end || (end - start == 1 && *start == '.') ||
	    (end - start == 2 && !strncmp(start, "..", 2)))
		return -1;
	strbuf_add(out, start, (size_t)(end - start));
	return 0;
}

/*
 * Checks that every run's job.yaml exists; `jobs` gets their paths
 * (rt->nruns of them, to free).
 */
static int check_runs(struct result_root *rt, char **src, const char *file,
		      char ***jobs)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	size_t i, at;
	int ret = 0;

	*jobs = xcalloc(rt->nruns, sizeof(**jobs));
	rt->run_names = xcalloc(rt->nruns + 1, sizeof(char *));
	for (i = 0; !ret && i < rt->nruns; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/", rt->dir);
		at = path.len;
		if (run_name(&path, src[i]) < 0) {
			ret = error("%s: stats_source[%zu] '%s' names no run "
				    "directory",
				    file, i, src[i]);
			break;
		}
		rt->run_names[i] = xstrdup(path.buf + at);
		strbuf_addstr(&path, "/job.yaml");
		if (stat(path.buf, &st) < 0)
			ret = error_errno("cannot read '%s'", path.buf);
		else if (!S_ISREG(st.st_mode))
			ret = error("cannot read '%s': not a regular file",
				    path.buf);
		else
			(*jobs)[i] = xstrdup(path.buf);
	}
	strbuf_release(&path);
	return ret;
}

static void job_add(struct job *job, const char *key, char *val,
		    const char *section)
{
	struct job_entry *e;

	ALLOC_GROW(job->entries, job->nr + 1, job->alloc);
	e = &job->entries[job->nr++];
	e->key = xstrdup(key);
	e->val = val;
	e->section = section ? xstrdup(section) : NULL;
}

/* Writes a collection inside a sequence in YAML flow style. */
static void add_flow(struct strbuf *sb, const struct ynode *n)
{
	size_t i;

	if (n->type == YNODE_SCALAR) {
		strbuf_addstr(sb, n->str);
		return;
	}
	strbuf_addch(sb, n->type == YNODE_MAP ? '{' : '[');
	for (i = 0; i < n->n; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		if (n->type == YNODE_MAP)
			strbuf_addf(sb, "%s: ", n->keys[i]);
		add_flow(sb, n->kids[i]);
	}
	strbuf_addch(sb, n->type == YNODE_MAP ? '}' : ']');
}

static void flatten(struct job *job, const struct ynode *map,
		    const char *section)
{
	size_t i, j;

	for (i = 0; i < map->n; i++) {
		const struct ynode *kid = map->kids[i];
		struct strbuf sb = STRBUF_INIT;

		switch (kid->type) {
		case YNODE_SCALAR:
			job_add(job, map->keys[i], xstrdup(kid->str), section);
			break;
		case YNODE_SEQ:
			for (j = 0; j < kid->n; j++) {
				if (j)
					strbuf_addstr(&sb, ", ");
				add_flow(&sb, kid->kids[j]);
			}
			job_add(job, map->keys[i], strbuf_detach(&sb, NULL),
				section);
			break;
		case YNODE_MAP:
			flatten(job, kid, section ? section : map->keys[i]);
			break;
		}
	}
}

static int load_job(struct job *job, const char *path)
{
	struct ydoc doc;

	if (ydoc_load_file(&doc, path) < 0)
		return -1;
	if (!doc.root || doc.root->type != YNODE_MAP) {
		ydoc_release(&doc);
		return error("%s: not a YAML mapping", path);
	}
	flatten(job, doc.root, NULL);
	ydoc_release(&doc);
	return 0;
}

static int parse_matrix(struct result_root *rt, const char *file,
			struct strbuf *text, char ***jobs)
{
	char **src = NULL;
	size_t i, nruns;
	int ret;

	ret = json_parse(rt, &src, file, text);
	strbuf_release(text);
	nruns = rt->nruns;
	if (!ret)
		ret = check_runs(rt, src, file, jobs);
	for (i = 0; src && i < nruns; i++)
		free(src[i]);
	free(src);
	return ret;
}

static void job_release(struct job *job)
{
	size_t i;

	for (i = 0; i < job->nr; i++) {
		free(job->entries[i].key);
		free(job->entries[i].val);
		free(job->entries[i].section);
	}
	free(job->entries);
	memset(job, 0, sizeof(*job));
}

/*
 * Every run's job.yaml must load, and name the commit the first one names:
 * the runs of one result root test one commit.
 */
static int load_jobs(struct result_root *rt, char **jobs)
{
	const char *commit, *other;
	struct job job = { 0 };
	size_t i;
	int ret;

	if (load_job(&rt->job, jobs[0]))
		return -1;
	commit = job_get(&rt->job, "commit");
	for (i = 1; i < rt->nruns; i++) {
		ret = load_job(&job, jobs[i]);
		other = job_get(&job, "commit");
		if (!ret &&
		    (!commit != !other || (commit && strcmp(commit, other))))
			ret = error(
				"%s: commit: '%s' is not the commit of %s "
				"('%s'): the runs of a result root test one "
				"commit",
				jobs[i], other ? other : "(none)", jobs[0],
				commit ? commit : "(none)");
		job_release(&job);
		if (ret)
			return -1;
	}
	return 0;
}

int result_root_load(struct result_root *rt, const char *dir)
{
	struct strbuf text = STRBUF_INIT, file = STRBUF_INIT;
	char **jobs = NULL;
	struct stat st;
	size_t i, nruns;
	int ret;

	memset(rt, 0, sizeof(*rt));
	if (stat(dir, &st) < 0)
		return error_errno("cannot open result root '%s'", dir);
	if (!S_ISDIR(st.st_mode))
		return error("result root '%s' is not a directory", dir);
	rt->dir = xstrdup(dir);
	ret = read_matrix(&text, &file, dir);
	if (!ret)
		ret = parse_matrix(rt, file.buf, &text, &jobs);
	if (!ret) {
		mark_incomplete(rt);
		ret = load_jobs(rt, jobs);
	}
	nruns = rt->nruns;
	for (i = 0; jobs && i < nruns; i++)
		free(jobs[i]);
	free(jobs);
	strbuf_release(&text);
	strbuf_release(&file);
	if (ret)
		result_root_release(rt);
	return ret;
}

void result_root_release(struct result_root *rt)
{
	size_t i;

	free_stats(rt);
	free(rt->incomplete);
	for (i = 0; rt->run_names && i < rt->nruns; i++)
		free(rt->run_names[i]);
	free(rt->run_names);
	job_release(&rt->job);
	free(rt->dir);
	memset(rt, 0, sizeof(*rt));
}

const struct rt_stat *result_root_stat(const struct result_root *rt,
				       const char *name)
{
	if (!rt->nstats)
		return NULL;
	return bsearch(name, rt->stats, rt->nstats, sizeof(*rt->stats),
		       cmp_name);
}

const char *job_get(const struct job *job, const char *key)
{
	size_t i;

	for (i = 0; i < job->nr; i++)
		if (!strcmp(job->entries[i].key, key))
			return job->entries[i].val;
	return NULL;
}
