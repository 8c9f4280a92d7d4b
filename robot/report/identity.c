// SPDX-License-Identifier: GPL-2.0-only
/*
 * identity.c: a report's identity (the spool's key), its Message-ID, the
 * day that names its materials' folder, its links (build.h).
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "robot/report/report.h"
#include "config/config.h"
#include "config/request.h"

/* The identity of a report: commit, test, parameters, box and KPI. */
static char *report_key(const struct report *r)
{
	const struct report_test *t = &r->tests[0];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addf(&sb, "commit=%s\ntestcase=%s\ntbox_group=%s\nkpi=%s\n",
		    r->commit_id ? r->commit_id : "",
		    t->testcase ? t->testcase : "",
		    t->tbox_group ? t->tbox_group : "", t->kpi ? t->kpi : "");
	for (i = 0; i < t->nparams; i++)
		strbuf_addf(&sb, "%s=%s\n", t->params[i].key,
			    t->params[i].value);
	return strbuf_detach(&sb, NULL);
}

/*
 * 0-day's form: <YYYYMMDDhhmm.HEX-USER@DOMAIN>, HEX a 32-bit digest in 8
 * digits.
 */
char *compose_message_id(const struct compose_ctx *c, const char *key)
{
	uint64_t h64 = fnv1a64(FNV64_INIT, key, strlen(key));
	uint32_t h = (uint32_t)(h64 ^ (h64 >> 32));

	return xasprintf("<%04d%02d%02d%02d%02d.%08x-%s@%s>",
			 c->when.local.tm_year + 1900, c->when.local.tm_mon + 1,
			 c->when.local.tm_mday, c->when.local.tm_hour,
			 c->when.local.tm_min, h, c->cfg->message_id_user,
			 c->cfg->message_id_domain);
}

char *compose_pick_message_id(const struct compose_ctx *c, const char *key)
{
	const struct request *req = c->req;
	char *id;

	if (req->message_id)
		return xstrdup(req->message_id);
	id = compose_message_id(c, key);
	if (compose_check_message_id(id, c->cfg->file,
				     "message_id_user, message_id_domain", 1)) {
		free(id);
		return NULL;
	}
	return id;
}

/*
 * The day the report was made, YYYYMMDD, which names the materials'
 * folder: the one in 0-day's Message-ID, <YYYYMMDDhhmm.HEX-USER@DOMAIN>,
 * when it has that form, else the Date's.  A report can go out days after
 * it was made: a Date of 2023-10-21 with an id of 202310202303... links
 * archive/20231020/.
 */
static char *report_day(const struct compose_ctx *c, const char *msgid)
{
	struct tm tm = { 0 };
	int y, m, d;

	if (strlen(msgid) > 14 && msgid[0] == '<' &&
	    strspn(msgid + 1, "0123456789") == 12 && msgid[13] == '.' &&
	    sscanf(msgid + 1, "%4d%2d%2d", &y, &m, &d) == 3 && y >= 1970 &&
	    m >= 1 && m <= 12 && d >= 1 && d <= 31) {
		time_t t;

		tm.tm_year = y - 1900;
		tm.tm_mon = m - 1;
		tm.tm_mday = d;
		t = timegm(&tm);
		gmtime_r(&t, &tm);
		if (tm.tm_mday == d)
			return xasprintf("%04d%02d%02d", y, m, d);
	}
	return xasprintf("%04d%02d%02d", c->when.local.tm_year + 1900,
			 c->when.local.tm_mon + 1, c->when.local.tm_mday);
}

/* The report's identity, Message-ID, day, links and the operator's texts. */
int compose_fill_identity(struct compose_ctx *c, struct report *r,
			  struct composed *out)
{
	out->key = report_key(r);
	if (c->revision) {
		char *key = xasprintf("%srevision=%u\n", out->key, c->revision);

		free(out->key);
		out->key = key;
	}
	out->message_id = compose_pick_message_id(c, out->key);
	if (!out->message_id)
		return -1;
	r->message_id = xstrdup(out->message_id);
	out->commit_id = compose_strdup(r->commit_id);
	out->base_id = compose_strdup(c->base_id);
	r->date = report_day(c, r->message_id);
	if (c->cfg->archive_url)
		r->archive_url = xasprintf(
			"%s/%s/%.*s", c->cfg->archive_url, r->date,
			(int)strlen(r->message_id) - 2, r->message_id + 1);
	r->list_archive_url = compose_strdup(c->cfg->list_archive_url);
	r->disclaimer = compose_strdup(c->cfg->disclaimer);
	r->signature = compose_strdup(c->cfg->signature);
	r->disclaimer_0day = c->cfg->disclaimer_0day;
	r->signature_0day = c->cfg->signature_0day;
	return 0;
}
