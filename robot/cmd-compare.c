// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-compare.c: `robot compare`, the comparison block for result roots.
 */
#include "common.h"
#include "cmds.h"
#include "compare.h"
#include "results.h"
#include "config/data.h"
#include "config/lkp.h"
#include "config/style.h"
#include "git/commits.h"
#include "git/repo.h"

#include <getopt.h>
#include <time.h>

static const char usage_text[] =
	"usage: robot compare [--style STYLE] [--commits META | --repo DIR]\n"
	"                     [--kpi STAT] RT RT [RT...]\n"
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
	"  --all            every stat the roots share, without selection\n"
	"  --kpi STAT       the bisected stat: shown without the significance\n"
	"                   tests, as lkp-tests' force_STAT option does\n"
	"  --data-dir DIR   robot's data files (default: built in)\n"
	"  --no-rule RULE   for tests: switch a selection rule off (denylist,\n"
	"                   fail-without-pass, min-runs, separation, ratio-perf,\n"
	"                   ratio-other, threshold)\n";

struct compare_cli {
	const char *style;
	const char *commits, *repo;
	const char *kpi;
	int all;
	unsigned disabled;
};

static int parse_options(struct compare_cli *cli, int argc, char **argv)
{
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
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
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
			usage_error("compare", "unknown option '%s'",
				    argv[optind - 1]);
			return -1;
		}
	}
	return 0;
}

/* Today's date, from SOURCE_DATE_EPOCH when set (reproducible builds). */
static void today(char date[11])
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(date, 11, "%Y-%m-%d", &tm);
}

/*
 * The commit lines and ids the mails print, from the metadata file or the
 * repository.
 */
static int commit_labels(char **lines, char **ids,
			 const struct compare_cli *cli,
			 const struct result_root *rts, size_t n)
{
	const char *path = cli->commits ? cli->commits : cli->repo;
	struct commit_set set;
	const char **revs = xcalloc(n, sizeof(char *));
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		revs[i] = job_get(&rts[i].job, "commit");
	for (i = 0; i < n && !ret; i++)
		if (!revs[i])
			ret = error("%s: job.yaml has no 'commit'", rts[i].dir);
	if (!ret)
		ret = cli->commits
			      ? commits_load_file(&set, cli->commits)
			      : repo_load_commits(&set, cli->repo, revs, n);
	free(revs);
	if (ret)
		return -1;
	for (i = 0; i < n && !ret; i++) {
		const char *id = job_get(&rts[i].job, "commit");
		const struct commit_info *ci =
			id ? commits_find(&set, id) : NULL;

		if (!ci) {
			ret = error("%s: commit '%s' of %s is not in it", path,
				    id ? id : "(none)", rts[i].dir);
		} else if (ci->tag) {
			lines[i] = xstrdup(ci->tag);
			ids[i] = xstrdup(ci->tag);
		} else {
			lines[i] = xasprintf("%.10s (\"%s\")", ci->id,
					     ci->subject ? ci->subject : "");
			ids[i] = xstrdup(ci->id);
		}
	}
	commits_release(&set);
	return ret;
}

static int run(const struct compare_cli *cli, char **dirs, size_t n)
{
	struct result_root *rts = xcalloc(n, sizeof(*rts));
	char **lines = xcalloc(n, sizeof(char *));
	char **ids = xcalloc(n, sizeof(char *));
	struct compare_opts o = { .all = cli->all,
				  .disabled = cli->disabled,
				  .force = cli->kpi };
	struct lkp_tables *tables = NULL;
	struct comparison cmp = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct style st = { 0 };
	char date[11];
	int status = EXIT_DATAERR;
	size_t i;

	if (cli->style) {
		if (style_resolve(cli->style, date)) {
			status = EXIT_USAGE;
			goto out;
		}
	} else {
		today(date);
	}
	if (style_load(&st, date) || !(tables = lkp_tables_load(date))) {
		status = EXIT_RUNTIME;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (result_root_load(&rts[i], dirs[i]))
			goto out;
	if ((cli->commits || cli->repo) &&
	    commit_labels(lines, ids, cli, rts, n))
		goto out;
	o.style = &st;
	o.tables = tables;
	if (cli->commits || cli->repo) {
		o.commit_lines = (const char *const *)lines;
		o.commit_ids = (const char *const *)ids;
	}
	if (comparison_build(&cmp, rts, n, &o))
		goto out;
	comparison_print(&out, &cmp);
	fwrite(out.buf, 1, out.len, stdout);
	status = EXIT_OK;
out:
	comparison_release(&cmp);
	strbuf_release(&out);
	for (i = 0; i < n; i++) {
		result_root_release(&rts[i]);
		free(lines[i]);
		free(ids[i]);
	}
	free(rts);
	free(lines);
	free(ids);
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
