// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c: loading one LKP result root.
 *
 * matrix.json is robot/engine/matrix.c's; this file checks the stat names, that
 * every run of stats_source has its directory and job.yaml, loads every
 * run's job.yaml and marks the incomplete runs.
 *
 * job.yaml is flattened into (key, value, section) entries in document
 * order.  A nested mapping's leaves get the top-level key as their section;
 * a sequence becomes one entry whose value is its items joined by ", "
 * (nested collections inside a sequence are written in flow style,
 * "[a, b]" and "{k: v}").
 */
#include "robot/util/common.h"
#include "robot/engine/results.h"
#include "robot/engine/matrix.h"
#include "robot/util/utf8.h"
#include "config/yaml.h"

#include <sys/stat.h>
#include <unistd.h>

#define INCOMPLETE_STAT "last_state.is_incomplete_run"

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

static int parse_matrix(struct result_root *rt, struct strbuf *file,
			char ***jobs)
{
	char **src = NULL;
	size_t i, nruns;
	int ret;

	ret = matrix_load(rt, &src, file, rt->dir);
	nruns = rt->nruns;
	if (!ret)
		ret = check_runs(rt, src, file->buf, jobs);
	if (!ret && nruns)
		rt->source = xstrdup(src[0]);
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
	struct strbuf file = STRBUF_INIT;
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
	ret = parse_matrix(rt, &file, &jobs);
	if (!ret) {
		mark_incomplete(rt);
		ret = load_jobs(rt, jobs);
	}
	nruns = rt->nruns;
	for (i = 0; jobs && i < nruns; i++)
		free(jobs[i]);
	free(jobs);
	strbuf_release(&file);
	if (ret)
		result_root_release(rt);
	return ret;
}

void result_root_release(struct result_root *rt)
{
	size_t i;

	matrix_release(rt);
	free(rt->incomplete);
	for (i = 0; rt->run_names && i < rt->nruns; i++)
		free(rt->run_names[i]);
	free(rt->run_names);
	job_release(&rt->job);
	free(rt->source);
	free(rt->dir);
	memset(rt, 0, sizeof(*rt));
}

const struct rt_stat *result_root_stat(const struct result_root *rt,
				       const char *name)
{
	return matrix_find(rt, name);
}

const char *job_get(const struct job *job, const char *key)
{
	size_t i;

	for (i = 0; i < job->nr; i++)
		if (!strcmp(job->entries[i].key, key))
			return job->entries[i].val;
	return NULL;
}
