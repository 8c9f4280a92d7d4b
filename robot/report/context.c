// SPDX-License-Identifier: GPL-2.0-only
/*
 * context.c: the context every kind builds its report in (build.h):
 * the report's date, the style's day with the operator's rows, the
 * lkp-tests tables of that moment, the commit metadata.
 */
#include "robot/util/common.h"
#include "robot/engine/results.h"
#include "robot/report/build.h"
#include "config/config.h"
#include "config/lkp.h"
#include "config/request.h"
#include "git/repo.h"

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed",
				     "Thu", "Fri", "Sat" };

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

static int parse_tz(const char *s, int *tz)
{
	if (strlen(s) != 5 || (s[0] != '+' && s[0] != '-') ||
	    strspn(s + 1, "0123456789") != 4)
		return -1;
	*tz = ((s[1] - '0') * 10 + (s[2] - '0')) * 60 + (s[3] - '0') * 10 +
	      (s[4] - '0');
	if (s[0] == '-')
		*tz = -*tz;
	return 0;
}

static void when_set(struct when *w, time_t t, int tz)
{
	time_t local = t + (time_t)tz * 60;

	w->t = t;
	w->tz = tz;
	gmtime_r(&local, &w->local);
}

/*
 * "2023-06-07 14:32:17 +0800", or the RFC 5322 form of a mail's Date
 * header, "Wed, 7 Jun 2023 14:32:17 +0800".
 */
static int parse_date(struct when *w, const char *s)
{
	char mon[4] = "", tzs[6] = "", wday[4] = "", iso[40];
	int y, m = 0, d, hh, mm, ss, tz, n = 0;
	int64_t t;
	size_t i;

	/* a Date header's form is rewritten into the numeric one */
	if (sscanf(s, "%3s, %2d %3s %4d %2d:%2d:%2d %5s%n", wday, &d, mon, &y,
		   &hh, &mm, &ss, tzs, &n) == 8 &&
	    !s[n]) {
		for (i = 0; i < ARRAY_SIZE(months); i++)
			if (!strcmp(mon, months[i]))
				m = (int)i + 1;
		snprintf(iso, sizeof(iso), "%04d-%02d-%02d %02d:%02d:%02d %s",
			 y, m, d, hh, mm, ss, tzs);
		s = iso;
	}
	/* one parser for "YYYY-MM-DD hh:mm:ss +zzzz" (git/commits.c) */
	if (commit_date_parse(s, &t, &tz) || t < 0)
		return -1;
	when_set(w, (time_t)t, tz);
	return 0;
}

/* The request's date, else SOURCE_DATE_EPOCH, else the clock. */
static int report_when(struct when *w, const struct request *req,
		       const struct robot_config *cfg)
{
	time_t t;
	int tz, sde;

	if (req->date) {
		if (parse_date(w, req->date))
			return error("%s: date: '%s' is not "
				     "'YYYY-MM-DD hh:mm:ss +zzzz'",
				     req->file, req->date);
		return 0;
	}
	if (parse_tz(cfg->timezone, &tz))
		return error("%s: timezone: bad value '%s'", cfg->file,
			     cfg->timezone);
	sde = source_date_epoch(&t);
	if (sde < 0)
		return -1;
	when_set(w, sde ? t : time(NULL), tz);
	return 0;
}

/* RFC 5322 §3.3 date-time, as 0-day's mailer writes it. */
void compose_format_date(struct strbuf *out, const struct when *w)
{
	int tz = w->tz < 0 ? -w->tz : w->tz;

	strbuf_addf(out, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d",
		    wdays[w->local.tm_wday], w->local.tm_mday,
		    months[w->local.tm_mon], w->local.tm_year + 1900,
		    w->local.tm_hour, w->local.tm_min, w->local.tm_sec,
		    w->tz < 0 ? '-' : '+', tz / 60, tz % 60);
}

/* The metadata of commit `id`, from the request's file or repository. */
const struct commit_info *compose_commit(struct compose_ctx *c, const char *id,
					 const char *what)
{
	const struct commit_info *ci = commits_find(&c->commits, id);
	struct commit_info fresh;

	if (ci)
		return ci;
	if (c->req->repo) {
		if (repo_commit_info(&fresh, c->req->repo, id))
			return NULL;
		ALLOC_GROW(c->commits.c, c->commits.nr + 1, c->commits.alloc);
		c->commits.c[c->commits.nr] = fresh;
		return &c->commits.c[c->commits.nr++];
	}
	if (c->req->commits)
		error("%s: commit '%s' (%s) is not in '%s'", c->req->file, id,
		      what, c->req->commits);
	else
		error("%s: commit '%s' (%s): the request names neither "
		      "'commits' nor 'repo'",
		      c->req->file, id, what);
	return NULL;
}

/* compare_commit_fn for the comparisons: the request's commit metadata. */
const struct commit_info *compose_find_commit(void *ctx, const char *id,
					      const struct result_root *rt)
{
	return compose_commit(ctx, id, rt->dir);
}

char *compose_strdup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * A Message-ID robot can use: one <id@host>, as the header wants it, and,
 * when the id names the materials' folder under archive_dir (`folder`: a
 * style that publishes them), no '/': "<a/../../b@host>" must not climb
 * out of it.  Other periods take any id the header takes: a mailer's
 * "<YsbxPjmWXXobY/QH@host>".
 */
int compose_check_message_id(const char *id, const char *file, const char *key,
			     int folder)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (hdr_validate("Message-ID", id, strlen(id), &why))
		ret = error("%s: %s: %s", file, key, why.buf);
	else if (folder && strchr(id, '/'))
		ret = error("%s: %s: '%s' contains '/' (the id names a folder "
			    "under archive_dir)",
			    file, key, id);
	strbuf_release(&why);
	return ret;
}

/*
 * The operator who sends the report: the local part of the From address
 * ("kernel test robot <oliver.sang@intel.com>": "oliver.sang"), whose own
 * layout rows the style table may have.  NULL without one.
 */
static char *report_operator(const struct compose_ctx *c)
{
	const char *from = c->req->from ? c->req->from : c->cfg->from;
	const char *lt, *at;

	if (!from)
		return NULL;
	lt = strrchr(from, '<');
	if (lt)
		from = lt + 1;
	at = strchr(from, '@');
	if (!at || at == from)
		return NULL;
	return xstrndup(from, at - from);
}

/*
 * The style's day, from --style, else the request's style, else its date;
 * with the rows of the sending operator's own layout.
 * A bad value is the request's fault and the error names the key; only a
 * broken style table is reported as the table's.
 */
static int ctx_style(struct compose_ctx *c, const char *style)
{
	const struct request *req = c->req;
	const char *file = req->file, *key = "style";
	char day[11], *operator;
	int ret;

	if (style) {
		file = "command line";
		key = "--style";
	} else if (req->style) {
		style = req->style;
	} else {
		key = req->date ? "date" : "the report's date";
		strftime(day, sizeof(day), "%Y-%m-%d", &c->when.local);
	}
	if (style) {
		error_quiet++;
		ret = style_resolve(style, day);
		error_quiet--;
		if (ret)
			return error("%s: %s: unknown style '%s' (want "
				     "YYYY-MM-DD or one of 2016, 2021, 2023, "
				     "2025)",
				     file, key, style);
	}
	operator= report_operator(c);
	error_quiet++;
	ret = style_load_for(&c->st, day, operator);
	error_quiet--;
	free(operator);
	if (!ret) {
		ret = style_layout(&c->st, req->layout.v, req->layout.n,
				   req->file);
		if (ret)
			style_release(&c->st);
		return ret;
	}
	/* is the table fine, and the day merely older than its first row? */
	error_quiet++;
	ret = style_load(&c->st, "9999-12-31");
	error_quiet--;
	style_release(&c->st);
	if (!ret)
		return error("%s: %s: no style is known for %s (the style "
			     "table starts later)",
			     file, key, day);
	/* robot's own table is missing or broken: say why */
	error_status = error_exit_code(EXIT_CONFIG);
	return style_load(&c->st, day);
}

/*
 * The moment whose lkp-tests tables the report uses: the report's time
 * (a version committed later that day is not deployed yet: config/data/
 * lkp/README), or the style's day when --style or the request's style
 * names one.
 */
static const char *tables_when(const struct compose_ctx *c, const char *style,
			       char *buf, size_t size)
{
	int tz = c->when.tz < 0 ? -c->when.tz : c->when.tz;
	size_t n;

	if (style || c->req->style)
		return c->st.date;
	n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &c->when.local);
	/* a year past 9999 or a zone past 99 hours: the day will do */
	if (n != 19 || tz >= 100 * 60)
		return c->st.date;
	snprintf(buf + n, size - n, " %c%02d%02d", c->when.tz < 0 ? '-' : '+',
		 tz / 60, tz % 60);
	return buf;
}

/* `report`: a report (not a reply), which may publish its materials */
int compose_ctx_init(struct compose_ctx *c, const struct request *req,
		     const struct robot_config *cfg, const char *style,
		     int report)
{
	char when[48];
	const char *repro;

	memset(c, 0, sizeof(*c));
	c->req = req;
	c->cfg = cfg;

	if (report_when(&c->when, req, cfg) || ctx_style(c, style))
		return -1;
	/*
	 * The styles whose reproduce block is the download link (`repro
	 * download` in config/data/styles) attach nothing: the attachments
	 * are the materials behind that link, published under archive_dir.
	 * A report sent without the reproduce block (`no_repro`) attaches
	 * its materials whatever the period, as parts (config, job-script,
	 * job.yaml, repro-script) and no link.
	 */
	repro = style_get(&c->st, "repro");
	c->publish =
		report && repro && !strcmp(repro, "download") && !req->no_repro;
	c->tables = lkp_tables_load(tables_when(c, style, when, sizeof(when)));
	if (!c->tables) {
		/* robot's own lkp-tests tables */
		error_status = error_exit_code(EXIT_CONFIG);
		return -1;
	}
	if (req->commits && commits_load_file(&c->commits, req->commits))
		return -1;
	if (req->message_id &&
	    compose_check_message_id(req->message_id, req->file, "message_id",
				     c->publish))
		return -1;
	return 0;
}

void compose_ctx_release(struct compose_ctx *c)
{
	thread_found_release(&c->thread);
	if (c->kind && c->kind->release)
		c->kind->release(c);
	style_release(&c->st);
	lkp_tables_free(c->tables);
	commits_release(&c->commits);
	free(c->tested);
	free(c->base_id);
	free(c->second_id);
	free(c->note);
}
