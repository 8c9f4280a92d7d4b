// SPDX-License-Identifier: GPL-2.0-only
/*
 * kind.c: the functional report kind (functional.h): its data from the
 * top-level test's roots, its kernel logs attached.
 */
#include "robot/util/common.h"
#include "robot/engine/compare.h"
#include "robot/engine/results.h"
#include "robot/util/xz.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "robot/report/report.h"
#include "robot/kinds/functional/functional.h"
#include "robot/kinds/perf/perf.h"
#include "config/request.h"
#include "mail/msg.h"

#include <sys/stat.h>

/* What the kind keeps while the report is built (kind_data). */
struct functional_state {
	struct report_functional *fn;
	struct functional_logs logs;
};

static struct functional_state *state_of(struct compose_ctx *c)
{
	if (!c->kind_data)
		c->kind_data = xcalloc(1, sizeof(struct functional_state));
	return c->kind_data;
}

/*
 * The data of a functional report, from the top-level test's roots: the
 * tested commit's root is the one of the request's commit, else the last.
 */
static int build_functional(struct compose_ctx *c,
			    const struct compare_roots *roots,
			    const struct comparison *cmp)
{
	struct functional_in in = { .req = c->req,
				    .st = &c->st,
				    .tables = c->tables,
				    .roots = roots,
				    .cmp = cmp,
				    .tested = roots->n - 1 };
	const struct commit_info *ci = NULL;
	struct functional_state *st;
	size_t i;

	if (c->req->commit) {
		ci = compose_commit(c, c->req->commit, "commit");
		if (!ci)
			return -1;
		for (i = 0; i < roots->n; i++) {
			const char *id = job_get(&roots->rts[i].job, "commit");

			if (id && !strcmp(id, ci->id))
				in.tested = i;
		}
		in.release = ci->release;
	}
	st = state_of(c);
	st->fn = xcalloc(1, sizeof(*st->fn));
	return functional_fill(st->fn, &st->logs, &in);
}

/*
 * A functional report's kernel logs: attached as NAME.xz (compressed here
 * when the run kept them plain), or published with the materials.
 */
#define LOG_MAX_ATTACH (64u << 20)

static int add_logs(struct msg *m, const struct compose_ctx *c,
		    struct composed *out, int publish)
{
	const struct functional_state *fs = c->kind_data;
	const struct functional_logs *logs = fs ? &fs->logs : NULL;
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	for (i = 0; logs && i < logs->n && !ret; i++) {
		const char *path = logs->paths[i],
			   *base = compose_base_name(path);
		size_t len = strlen(base);
		char *name = len > 3 && !strcmp(base + len - 3, ".xz")
				     ? xstrdup(base)
				     : xasprintf("%s.xz", base);

		if (publish) {
			out->material_names = xreallocarray(out->material_names,
							    out->nmaterials + 2,
							    sizeof(char *));
			out->material_paths = xreallocarray(out->material_paths,
							    out->nmaterials + 2,
							    sizeof(char *));
			out->material_names[out->nmaterials] = xstrdup(base);
			out->material_paths[out->nmaterials++] = xstrdup(path);
			free(name);
			continue;
		}
		strbuf_reset(&data);
		error_quiet++;
		/* a plain log is measured first: no need to compress 1 GiB */
		ret = !stat(path, &st) && st.st_size > (off_t)LOG_MAX_ATTACH
			      ? -1
			      : xz_compress_file(&data, path, LOG_MAX_ATTACH);
		error_quiet--;
		if (ret) {
			/* a log too big to mail: the report goes without it */
			warning("%s: the kernel log '%s' is not attached (more "
				"than %u MiB, or unreadable)",
				c->req->file, path, LOG_MAX_ATTACH >> 20);
			ret = 0;
		} else {
			error_quiet++;
			ret = msg_add_part(m, name, "application/x-xz",
					   data.buf, data.len);
			error_quiet--;
			if (ret)
				error("%s: cannot attach '%s'", c->req->file,
				      name);
		}
		free(name);
	}
	strbuf_release(&data);
	return ret;
}

static int functional_claims(const struct compose_ctx *c)
{
	return functional_kpi(c->tables, c->req->test.kpi);
}

/* The top-level test gives the report's data; a section, its KPI's row. */
static int functional_compared(struct compose_ctx *c, struct report_test *t,
			       const struct compare_roots *roots,
			       const struct comparison *cmp, const char *where)
{
	if (*where)
		return compose_kpi_change(c, t, cmp, where);
	return build_functional(c, roots, cmp);
}

/*
 * The report's functional data; a report whose first test had none (its
 * result roots missing, named with the other missing inputs) takes the
 * sender's notes as a performance report does.
 */
static int functional_finish(struct compose_ctx *c, struct report *r)
{
	struct functional_state *st = c->kind_data;

	if (st && st->fn) {
		r->fn = st->fn;
		st->fn = NULL;
		return 0;
	}
	return perf_notes(c, r);
}

static void functional_release(struct compose_ctx *c)
{
	struct functional_state *st = c->kind_data;

	if (!st)
		return;
	if (st->fn) {
		struct report tmp = { .fn = st->fn };

		report_release(&tmp);
	}
	functional_logs_release(&st->logs);
	free(st);
	c->kind_data = NULL;
}

const struct report_kind functional_kind = {
	.name = "functional",
	.what = "functional report",
	.claims = functional_claims,
	.compared = functional_compared,
	.finish = functional_finish,
	.attach = add_logs,
	.release = functional_release,
};
