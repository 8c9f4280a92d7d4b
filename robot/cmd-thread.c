// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-thread.c: `robot thread`, the Message-ID a report about a commit
 * replies to: the mail the commit was posted as, found on the archive at
 * lore_url (robot/delivery/thread.h says how).
 */
#include "robot/util/common.h"
#include "robot/cmds.h"
#include "robot/delivery/thread.h"
#include "config/config.h"
#include "git/commits.h"
#include "git/repo.h"
#include "mail/lore.h"

#include <getopt.h>

static const char usage_text[] =
	"usage: robot thread [-c CONFIG] [--repo DIR | --commits META] [-v]\n"
	"                    [--json] COMMIT...\n"
	"\n"
	"Prints the Message-ID of the mail COMMIT was posted as, which a\n"
	"report about it replies to, from the public-inbox archive at\n"
	"lore_url; prints nothing when there is none.  Tried in order: the\n"
	"commit's Link: and Message-Id: trailers, its patch-id, its subject\n"
	"and author.  With several commits, one line each: the commit's id,\n"
	"then the Message-ID when there is one.\n"
	"\n"
	"  -c, --config CONFIG\n"
	"                   the configuration (default: $ROBOT_CONFIG, then\n"
	"                   /etc/robot/robot.yaml, then built-in defaults)\n"
	"  --repo DIR       the git repository of the commits (default: .);\n"
	"                   it gives the patch-ids\n"
	"  --commits META   a commit-metadata file instead (no patch-ids)\n"
	"  -v, --verbose    every request, and how each commit was found, on\n"
	"                   stderr\n"
	"  --json           one JSON object a commit: commit, message_id, url,\n"
	"                   subject, how, version, newer_message_id,\n"
	"                   newer_version (null when not found)\n"
	"  -h, --help       this help\n"
	"\n"
	"exit codes: 0 (also when nothing is found), 65 an unknown commit,\n"
	"  1 a bad answer from the archive, 75 the archive cannot be reached\n"
	"  (retry later), 78 bad configuration\n";

struct thread_cli {
	const char *config, *repo, *commits;
	int verbose, json;
};

/* The options, as getopt_long reads them; robot help --options lists
 * them and t0210 holds the usage, -h and the man page to them. */
static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "repo", required_argument, NULL, 'g' },
	{ "commits", required_argument, NULL, 'm' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_options thread_options = { ":c:vh", longopts };

static int parse_options(struct thread_cli *cli, int argc, char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	/* ":": a missing value */
	while ((c = getopt_long(argc, argv, thread_options.shortopts, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			cli->config = optarg;
			break;
		case 'g':
			cli->repo = optarg;
			break;
		case 'm':
			cli->commits = optarg;
			break;
		case 'v':
			cli->verbose = 1;
			break;
		case 'j':
			cli->json = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			usage_option_error("thread", c, argv);
			return -1;
		}
	}
	return 0;
}

static int exit_of(int lore_status)
{
	switch (lore_status) {
	case LORE_TEMPFAIL:
		return EXIT_TEMPFAIL;
	case LORE_ERROR:
		return EXIT_RUNTIME;
	default:
		return EXIT_OK;
	}
}

static void say_found(const struct commit_info *ci,
		      const struct thread_found *f)
{
	fprintf(stderr, "robot: thread: %.12s: %s (by %s, v%d)", ci->id,
		f->message_id, f->how, f->version);
	if (f->newer_id)
		fprintf(stderr, "; newer: v%d %s", f->newer_version,
			f->newer_id);
	fputc('\n', stderr);
}

/* --json: one object a commit, found or not (doc/commands.md). */
static void found_json(const struct commit_info *ci,
		       const struct thread_found *f)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_addstr(&out, "{\"commit\": ");
	strbuf_add_json_string(&out, ci->id);
	strbuf_addstr(&out, ", \"message_id\": ");
	strbuf_add_json_string(&out, f ? f->message_id : NULL);
	strbuf_addstr(&out, ", \"url\": ");
	strbuf_add_json_string(&out, f ? f->url : NULL);
	strbuf_addstr(&out, ", \"subject\": ");
	strbuf_add_json_string(&out, f ? f->subject : NULL);
	strbuf_addstr(&out, ", \"how\": ");
	strbuf_add_json_string(&out, f ? f->how : NULL);
	if (f && f->version)
		strbuf_addf(&out, ", \"version\": %d", f->version);
	else
		strbuf_addstr(&out, ", \"version\": null");
	strbuf_addstr(&out, ", \"newer_message_id\": ");
	strbuf_add_json_string(&out, f ? f->newer_id : NULL);
	if (f && f->newer_id)
		strbuf_addf(&out, ", \"newer_version\": %d}\n",
			    f->newer_version);
	else
		strbuf_addstr(&out, ", \"newer_version\": null}\n");
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

static void print_one(const struct thread_cli *cli,
		      const struct commit_info *ci, int r,
		      const struct thread_found *f, int n)
{
	if (r == LORE_FOUND) {
		if (cli->verbose)
			say_found(ci, f);
		if (cli->json)
			found_json(ci, f);
		else if (n > 1)
			printf("%s %s\n", ci->id, f->message_id);
		else
			printf("%s\n", f->message_id);
	} else if (r == LORE_NONE) {
		if (cli->verbose)
			fprintf(stderr, "robot: thread: %.12s: none\n", ci->id);
		if (cli->json)
			found_json(ci, NULL);
		else if (n > 1)
			printf("%s\n", ci->id);
	}
}

/*
 * The commits up to the first one that is not there, looked up together
 * (thread_find_many: one search a sender for steps 3 and 4), printed in
 * order up to the first that failed.
 */
static int lookup(struct lore *l, const struct thread_cli *cli,
		  struct repo *repo, const struct commit_set *set, char **revs,
		  int n)
{
	struct commit_info *fresh = xcalloc((size_t)n + 1, sizeof(*fresh));
	const struct commit_info **ci = xcalloc((size_t)n + 1, sizeof(*ci));
	struct thread_found *f = xcalloc((size_t)n + 1, sizeof(*f));
	int *r = xcalloc((size_t)n + 1, sizeof(*r));
	int i, nci, done, status = EXIT_OK, missing = 0;

	for (nci = 0; nci < n && !missing; nci++) {
		if (repo) {
			missing = repo_lookup_basic(repo, &fresh[nci],
						    revs[nci]) != 0;
			ci[nci] = &fresh[nci];
		} else {
			ci[nci] = commits_find(set, revs[nci]);
			if (!ci[nci]) {
				error("%s: commit '%s' is not in it",
				      cli->commits, revs[nci]);
				missing = 1;
			}
		}
	}
	nci -= missing;
	done = (int)thread_find_many(l, ci, (size_t)nci, repo, f, r);
	for (i = 0; i < done; i++) {
		if (status == EXIT_OK)
			print_one(cli, ci[i], r[i], &f[i], n);
		if (status == EXIT_OK)
			status = exit_of(r[i]);
		thread_found_release(&f[i]);
	}
	for (i = 0; i < n; i++)
		commit_info_release(&fresh[i]);
	free(fresh);
	free(ci);
	free(f);
	free(r);
	return status == EXIT_OK && missing ? EXIT_DATAERR : status;
}

int cmd_thread(int argc, char **argv)
{
	struct thread_cli cli = { 0 };
	struct robot_config cfg;
	struct commit_set set = { 0 };
	struct repo *repo = NULL;
	struct lore *l = NULL;
	int status, r = parse_options(&cli, argc, argv);

	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (argc - optind < 1)
		return usage_error("thread", "a commit needed");
	if (cli.repo && cli.commits)
		return usage_error("thread",
				   "--repo and --commits exclude each other");
	if (config_load(&cfg, cli.config) ||
	    thread_lore_open(&l, &cfg, 0, cli.verbose)) {
		config_release(&cfg);
		return EXIT_CONFIG;
	}
	status = EXIT_DATAERR;
	if (cli.commits ? commits_load_file(&set, cli.commits)
			: repo_open(&repo, cli.repo ? cli.repo : "."))
		goto out;
	status = lookup(l, &cli, repo, &set, argv + optind, argc - optind);
	if (cli.verbose)
		fprintf(stderr, "robot: thread: %zu requests to %s\n",
			lore_requests(l), cfg.lore_url);
out:
	repo_close(repo);
	commits_release(&set);
	lore_close(l);
	config_release(&cfg);
	return status;
}
