/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * functional.h: the functional report kind.
 *
 * A report is functional when its headline (the request's kpi) is a
 * function stat: a kernel-log stat (dmesg.*, kmsg.*), the state a run
 * ended in (last_state.*), a test's verdict (*.fail, stderr.*, the
 * failure patterns of lkp-tests' etc/failure).  Its body says "kernel
 * test robot noticed "<headline>" on:" (or, before 2023, "FYI, we noticed
 * the following commit"), shows the result table of the runs (before
 * 2023) or the sender's fail:runs table, the suggested tags, and the
 * evidence: the excerpt of the run's kernel log or test output
 * (robot/kinds/functional/evidence.c).  doc/functional.md describes the kind
 * and its request keys.
 */
#ifndef ROBOT_FUNCTIONAL_H
#define ROBOT_FUNCTIONAL_H

#include <stddef.h>

struct compare_roots;
struct comparison;
struct lkp_tables;
struct report_functional;
struct report_kind;
struct request;
struct strbuf;
struct strv;
struct style;

/* Whether a report on `kpi` is functional. */
int functional_kpi(const struct lkp_tables *t, const char *kpi);

struct functional_in {
	const struct request *req;
	const struct style *st;
	const struct lkp_tables *tables;
	const struct compare_roots *roots; /* base first, all labelled */
	const struct comparison *cmp;	   /* of those roots */
	size_t tested;			   /* the root of the tested commit */
	const char *release;		   /* of the tested kernel, or NULL */
};

/* The kernel logs of the evidence's run, for attaching (dmesg, kmsg). */
struct functional_logs {
	char *paths[2];
	size_t n;
};

/*
 * Fills fn (zeroed by the caller) and the logs to attach.  Returns 0, or
 * -1 after one error line naming the request key (exit 65).
 */
int functional_fill(struct report_functional *fn, struct functional_logs *logs,
		    const struct functional_in *in);
void functional_logs_release(struct functional_logs *logs);

/*
 * Appends a fail:runs table as the senders paste it into their words and
 * robot's follow-ups show it: (with `axes`, the axes header,) the
 * commits' id and dash lines, the fail:runs header and the rows of
 * `stats` (none: the comparison's failure rows), blanks at line ends
 * dropped.
 */
void functional_fail_table(struct strbuf *out, const struct comparison *cmp,
			   const struct compare_roots *roots,
			   const struct lkp_tables *tables, int axes,
			   const struct strv *stats);

/* The kind's hooks (robot/report/build.h), in robot/kinds/kinds.c's table. */
extern const struct report_kind functional_kind;

#endif
