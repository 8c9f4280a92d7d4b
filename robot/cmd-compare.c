// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-compare.c: `robot compare`, the comparison block for result roots.
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/engine/compare.h"
#include "robot/engine/results.h"
#include "config/data.h"
#include "config/lkp.h"
#include "config/style.h"
#include "git/commits.h"
#include "git/repo.h"

#include <getopt.h>
#include <time.h>

static const char usage_text[] =
	"usage: robot compare [--style STYLE] [--commits META | --repo DIR]\n"
	"                     [--kpi STAT] [--all] [--data-dir DIR]\n"
	"                     [--no-rule RULE]... RT RT [RT...]\n"
	"\n"
	"Prints the comparison block of a 0-day report for LKP result roots,\n"
	"base first: axes, commits, the fail:runs table and the %stddev/%change\n"
	"table, with the rows lkp-tests would select, in its order.\n"
	"\n"
	"  --style STYLE    YYYY-MM-DD, or 2016, 2021, 2023, 2025: write the\n"
	"                   table as the robot did on that day (default: today)\n"
	"  --commits META   commit-metadata file: commit lines show\n"
	"                   'sha10 (\"subject\")' or the tag, as the mails do\n"
	"  --repo DIR       the same from a git repository\n"
	"  --all            every stat of any root, without selection\n"
	"  --kpi STAT       the bisected stat: shown without the significance\n"
	"                   tests, as lkp-tests' force_STAT option does\n"
	"  --data-dir DIR   robot's data files (default: built in)\n"
	"  --no-rule RULE   for tests: switch a selection rule off (denylist,\n"
	"                   fail-without-pass, min-runs, separation, ratio-perf,\n"
	"                   ratio-other, threshold, threshold-delta); repeatable\n"
	"  -h, --help       this help\n";

struct compare_cli {
	const char *style;
	const char *commits, *repo;
	const char *kpi;
	int all;
	unsigned disabled;
};

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "style", required_argument, NULL, 's' },
	{ "commits", required_argument, NULL, 'm' },
	{ "repo", required_argument, NULL, 'g' },
	{ "all", no_argument, NULL, 'a' },
	{ "kpi", required_argument, NULL, 'k' },
	{ "data-dir", required_argument, NULL, 'd' },
	{ "no-rule", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options compare_options = { ":h", longopts };

static int parse_options(struct compare_cli *cli, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, compare_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			cli->style = optarg;
			break;
		case 'm':
			cli->commits = optarg;
			break;
		case 'g':
			cli->repo = optarg;
			break;
		case 'a':
			cli->all = 1;
			break;
		case 'k':
			cli->kpi = optarg;
			break;
		case 'd':
			data_dir_set(optarg);
			break;
		case 'r':
			if (compare_rule_parse(optarg, &cli->disabled)) {
				usage_error("compare", "unknown rule '%s'",
					    optarg);
				return -1;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			usage_option_error("compare", c, argv);
			return -1;
		}
	}
	return 0;
}

/* Today's date, from SOURCE_DATE_EPOCH when set (reproducible builds). */
static int today(char date[11])
{
	time_t now;
	struct tm tm;
	int sde = source_date_epoch(&now);

	if (sde < 0)
		return -1;
	if (!sde)
		now = time(NULL);
	if (!gmtime_r(&now, &tm))
		return error("the clock's time does not convert to a date");
	strftime(date, 11, "%Y-%m-%d", &tm);
	return 0;
}

/* The metadata of the commits, from the metadata file or the repository. */
struct labels {
	const char *path;
	struct commit_set set;
};

static const struct commit_info *find_commit(void *ctx, const char *id,
					     const struct result_root *rt)
{
	struct labels *l = ctx;
	const struct commit_info *ci = commits_find(&l->set, id);

	if (!ci)
		error("%s: commit '%s' of %s is not in it", l->path, id,
		      rt->dir);
	return ci;
}

static int load_commits(struct labels *l, const struct compare_cli *cli,
			const struct compare_roots *roots)
{
	const char **revs = xcalloc(roots->n, sizeof(char *));
	size_t i;
	int ret = 0;

	l->path = cli->commits ? cli->commits : cli->repo;
	for (i = 0; i < roots->n && !ret; i++) {
		revs[i] = job_get(&roots->rts[i].job, "commit");
		if (!revs[i])
			ret = error("%s/%s/job.yaml: 'commit' is missing (the "
				    "commit lines need it)",
				    roots->rts[i].dir,
				    roots->rts[i].run_names[0]);
	}
	if (!ret)
		ret = cli->commits ? commits_load_file(&l->set, cli->commits)
				   : repo_load_commits(&l->set, cli->repo, revs,
						       roots->n);
	free(revs);
	return ret;
}

/* --kpi names a stat of at least one root (it is shown even if absent in some)
 */
static int check_kpi(const struct compare_roots *roots, const char *kpi)
{
	size_t i;

	for (i = 0; i < roots->n; i++)
		if (result_root_stat(&roots->rts[i], kpi))
			return 0;
	return error("--kpi: no result root has a stat '%s' (%s, %s%s)", kpi,
		     roots->rts[0].dir, roots->rts[1].dir,
		     roots->n > 2 ? ", ..." : "");
}

/*
 * A table the min-runs rule emptied says so: with fewer than 3 complete
 * runs on both sides lkp-tests compares no perf stat at all, and an empty
 * table with exit 0 would read as "nothing changed".  Perf rows gone but
 * fail:runs or --kpi rows left: a warning; nothing left: an error.
 */
static int explain_empty(const struct comparison *cmp,
			 const struct compare_roots *roots,
			 const struct compare_opts *o)
{
	const struct result_root *rts = roots->rts;
	struct strbuf why = STRBUF_INIT;
	size_t i, perf = 0;

	if (!compare_min_runs_drops_all(rts, roots->n, o))
		return 0;
	for (i = 0; i < cmp->nrows; i++)
		perf += !cmp->rows[i].failure &&
			!(o->force && !strcmp(o->force, cmp->rows[i].name));
	if (perf)
		return 0;
	strbuf_addf(&why,
		    "%s has %zu complete runs and %s %zu: lkp-tests compares "
		    "a stat only with 3 or more on one side (rule min-runs; "
		    "--no-rule min-runs turns it off)",
		    rts[0].dir, rts[0].nruns - rts[0].nincomplete, rts[1].dir,
		    rts[1].nruns - rts[1].nincomplete);
	if (cmp->nrows)
		warning("%s", why.buf);
	else
		error("%s", why.buf);
	strbuf_release(&why);
	return cmp->nrows ? 0 : -1;
}

static int run(const struct compare_cli *cli, char **dirs, size_t n)
{
	struct compare_opts o = { .all = cli->all,
				  .disabled = cli->disabled,
				  .force = cli->kpi };
	struct compare_roots roots = { 0 };
	struct labels labels = { 0 };
	struct lkp_tables *tables = NULL;
	struct comparison cmp = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct style st = { 0 };
	char date[11];
	int status = EXIT_DATAERR;

	if (cli->style) {
		if (style_resolve(cli->style, date)) {
			status = EXIT_USAGE;
			goto out;
		}
	} else if (today(date)) {
		goto out; /* EXIT_DATAERR, as compose */
	}
	if (style_load(&st, date) || !(tables = lkp_tables_load(date))) {
		status = EXIT_RUNTIME;
		goto out;
	}
	if (compare_roots_load(&roots, dirs, n))
		goto out;
	if (cli->commits || cli->repo) {
		if (load_commits(&labels, cli, &roots) ||
		    compare_roots_label(&roots, find_commit, &labels))
			goto out;
		o.commit_lines = (const char *const *)roots.lines;
		o.commit_ids = (const char *const *)roots.ids;
	}
	o.style = &st;
	o.tables = tables;
	if (cli->kpi && check_kpi(&roots, cli->kpi))
		goto out;
	if (comparison_build(&cmp, roots.rts, n, &o) ||
	    explain_empty(&cmp, &roots, &o))
		goto out;
	comparison_print(&out, &cmp);
	fwrite(out.buf, 1, out.len, stdout);
	status = EXIT_OK;
out:
	comparison_release(&cmp);
	strbuf_release(&out);
	compare_roots_release(&roots);
	commits_release(&labels.set);
	lkp_tables_free(tables);
	style_release(&st);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli cli = { 0 };
	int r = parse_options(&cli, argc, argv);

	if (r > 0)
		return EXIT_OK;
	if (r < 0)
		return EXIT_USAGE;
	if (argc - optind < 2)
		return usage_error("compare",
				   "two or more result roots needed");
	return run(&cli, argv + optind, (size_t)(argc - optind));
}
