/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * build.h: what every report kind shares while a report is built, and the
 * small interface a kind implements (struct report_kind).
 *
 * compose_run() takes a request through the steps every kind has: the
 * date, the style's day, the lkp-tests tables and the commit metadata
 * (compose_ctx_init), the tests (compose_build_test for each: its result
 * roots, their comparison, the table), the report's fields, the rendering
 * through the templates (robot/report/report.h), the headers, the
 * attachments and the lint.  The kind (robot/kinds/<kind>/) adds its own
 * parts through the hooks of struct report_kind; the table of kinds is
 * above this folder (robot/kinds/kinds.c), so robot/report/ includes no
 * kind.  doc/architecture.md says how to add a kind.
 */
#ifndef ROBOT_REPORT_BUILD_H
#define ROBOT_REPORT_BUILD_H

#include "robot/delivery/thread.h"
#include "config/style.h"
#include "git/commits.h"

#include <time.h>

struct compare_opts;
struct compare_roots;
struct comparison;
struct compose_opts;
struct composed;
struct lkp_tables;
struct msg;
struct needs;
struct report;
struct report_test;
struct req_test;
struct request;
struct result_root;
struct robot_config;
struct strbuf;
struct strv;

/* The report's moment, in its own zone. */
struct when {
	time_t t;
	int tz; /* minutes east of UTC */
	struct tm local;
};

struct compose_ctx {
	const struct request *req;
	const struct robot_config *cfg;
	const struct report_kind *kind;
	void *kind_data; /* the kind's own state (its release frees it) */
	struct style st;
	struct lkp_tables *tables;
	struct commit_set commits; /* from the file, or read from the repo */
	struct when when;
	char *tested; /* the full id of the tested commit; NULL: not given */
	/* inputs found missing while building (the report's; borrowed) */
	struct needs *needs;
	int offline;		    /* --dry-run: the lore cache only */
	unsigned revision;	    /* compose --force: the Nth correction */
	struct thread_found thread; /* the posted patch, when threaded */
	int threaded;
	/*
	 * a report whose period publishes its materials under archive_dir
	 * (`repro download`), in a folder the Message-ID names
	 */
	int publish;
	char *base_id;	 /* the full id of the first test's base */
	char *note;	 /* the request's note_parts, the rows printed */
	char *second_id; /* ... and of its second column */
};

/*
 * A report kind: its name, how it knows its requests, and what it adds to
 * the steps every kind shares.  A NULL hook does what its comment says.
 * Each hook returns 0, or -1 after one error line naming the request key.
 */
struct report_kind {
	const char *name; /* "perf", as the table of kinds names it */
	const char *what; /* "functional report", for messages */
	/* whether the request is one of this kind's (NULL: never picked) */
	int (*claims)(const struct compose_ctx *c);
	/*
	 * labels a test's result roots with their commit lines (NULL: the
	 * comparison's own, the base checked not to be the tested commit)
	 */
	int (*label)(struct compose_ctx *c, struct compare_roots *roots);
	/*
	 * after a test's comparison (`where`: "" for the top-level test,
	 * "sections[0]."): its KPI's row, the kind's data of the test
	 */
	int (*compared)(struct compose_ctx *c, struct report_test *t,
			const struct compare_roots *roots,
			const struct comparison *cmp, const char *where);
	/*
	 * the request's append rows, after the first test's table (NULL:
	 * the kind's tables take none, an error)
	 */
	int (*append)(struct compose_ctx *c, const struct result_root *rts,
		      size_t n, const struct comparison *cmp,
		      const struct compare_opts *o, struct strbuf *block);
	/* after a test's table is printed (NULL: nothing) */
	void (*printed)(struct compose_ctx *c, struct report_test *t,
			const struct compare_roots *roots,
			const struct comparison *cmp,
			const struct compare_opts *o, struct strbuf *block,
			const char *where);
	/* after the tests: the kind's parts of the report (NULL: none) */
	int (*finish)(struct compose_ctx *c, struct report *r);
	/* the kind's own attachments, after the request's (NULL: none) */
	int (*attach)(struct msg *m, const struct compose_ctx *c,
		      struct composed *out, int publish);
	/* frees kind_data (NULL: nothing to free) */
	void (*release)(struct compose_ctx *c);
};

/* One row of the table of kinds (robot/kinds/kinds.c). */
struct report_kind_entry {
	const char *name;
	const struct report_kind *ops;
};

/*
 * Composes a report of the first kind of `kinds` that claims the request
 * (robot/kinds/kinds.h's compose_report_opts).  Returns 0 or an exit
 * code after one error line.
 */
int compose_run(struct composed *out, const struct request *req,
		const struct robot_config *cfg, const struct compose_opts *o,
		const struct report_kind_entry *kinds, size_t nkinds);

/* context.c: the context, the date, the commit metadata */
int compose_ctx_init(struct compose_ctx *c, const struct request *req,
		     const struct robot_config *cfg, const char *style,
		     int report);
void compose_ctx_release(struct compose_ctx *c);
const struct commit_info *compose_commit(struct compose_ctx *c, const char *id,
					 const char *what);
const struct commit_info *compose_find_commit(void *ctx, const char *id,
					      const struct result_root *rt);
char *compose_strdup(const char *s);
int compose_check_message_id(const char *id, const char *file, const char *key,
			     int folder);
void compose_format_date(struct strbuf *out, const struct when *w);

/* compose.c: the tests and the report's fields */
int compose_build_test(struct compose_ctx *c, const struct req_test *rq,
		       struct report_test *t, const char *where,
		       const char *key);
int compose_kpi_change(struct compose_ctx *c, struct report_test *t,
		       const struct comparison *cmp, const char *where);
char *compose_message_id(const struct compose_ctx *c, const char *key);
/* The request's message_id, or one generated from `key` and checked;
 * NULL after one error line. */
char *compose_pick_message_id(const struct compose_ctx *c, const char *key);
char *compose_strip_re(const char *s);

/* identity.c: the report's key, Message-ID, day and links */
int compose_fill_identity(struct compose_ctx *c, struct report *r,
			  struct composed *out);

/* headers.c: the headers, the mailer, the lint */
void compose_add_mailbox(struct strbuf *list, const char *display,
			 const char *addr);
/* Date (the report's time) and From (the request's, else the config's). */
int compose_add_date_from(struct msg *m, const struct compose_ctx *c);
int compose_add_headers(struct msg *m, const struct compose_ctx *c,
			const struct commit_info *tested, const char *subject,
			const char *msgid);
int compose_mailer_apply(const struct compose_ctx *c, struct msg *m,
			 struct strbuf *subject, struct strbuf *body);
int compose_lint(const struct composed *out, const struct request *req);

/* attach.c: the request's attachments */
const char *compose_base_name(const char *path);
int compose_add_attachments(struct msg *m, const struct compose_ctx *c,
			    const struct commit_info *tested,
			    struct composed *out, int publish);

#endif
