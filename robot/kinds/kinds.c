// SPDX-License-Identifier: GPL-2.0-only
/*
 * kinds.c: the table of report kinds (kinds.h), and composing a report of
 * the kind that claims it.
 */
#include "robot/util/common.h"
#include "robot/kinds/kinds.h"
#include "robot/kinds/functional/functional.h"
#include "robot/kinds/perf/perf.h"
#include "robot/kinds/reply/reply.h"

/*
 * Asked in this order: a kind that claims only some requests comes before
 * "perf", which claims every request; "reply" claims none (robot reply
 * composes with it, compose_reply()).
 */
static const struct report_kind_entry report_kinds[] = {
	{ "functional", &functional_kind },
	{ "perf", &perf_kind },
	{ "reply", &reply_kind },
};
static const size_t report_nkinds = ARRAY_SIZE(report_kinds);

int compose_report(struct composed *out, const struct request *req,
		   const struct robot_config *cfg, const char *style)
{
	struct compose_opts o = { .style = style };

	return compose_report_opts(out, req, cfg, &o);
}

int compose_report_opts(struct composed *out, const struct request *req,
			const struct robot_config *cfg,
			const struct compose_opts *o)
{
	return compose_run(out, req, cfg, o, report_kinds, report_nkinds);
}
