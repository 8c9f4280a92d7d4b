// SPDX-License-Identifier: GPL-2.0-only
/*
 * commit-info.c: a test helper that prints robot's commit metadata in a
 * stable "key: value" form, so shell tests can drive git/ directly:
 *
 *   commit-info repo DIR REV...     repo_commit_info() for each REV
 *   commit-info file META ID...     commits_load_file(), then commits_find()
 *   commit-info yaml DIR REV...     the commits as a metadata file
 *   commit-info repo-set DIR REV... repo_load_commits(), printed in order
 *   commit-info subsystem SUBJ...   commit_subsystem(), "(none)" if none
 *   commit-info is-repo DIR         exits 0 if DIR is a repository, else 1
 *
 * Fields that are NULL are left out; commits are separated by a blank
 * line.  Exits 65 (bad input) at the first failure, 2 on usage errors.
 */
#include "robot/util/common.h"
#include "git/commits.h"
#include "git/repo.h"

static void print_ident(const char *key, const char *name, const char *email,
			int64_t time, int tz)
{
	struct strbuf sb = STRBUF_INIT;

	if (!name)
		return;
	commit_date_format(&sb, time, tz);
	printf("%s: %s <%s>\n", key, name, email);
	printf("%s_date: %s (%lld %d)\n", key, sb.buf, (long long)time, tz);
	strbuf_release(&sb);
}

static void print_field(const char *key, const char *value)
{
	if (value)
		printf("%s: %s\n", key, value);
}

static void print_commit(const struct commit_info *ci)
{
	struct strbuf sb = STRBUF_INIT;
	char *shortid = commit_short_id(ci, 12);
	const char *p;
	size_t i, len;

	print_field("id", ci->id);
	print_field("short", shortid);
	print_field("subject", ci->subject);
	if (!commit_subsystem(ci, &sb))
		print_field("subsystem", sb.buf);
	print_field("tag", ci->tag);
	print_ident("author", ci->author_name, ci->author_email,
		    ci->author_time, ci->author_tz);
	print_ident("committer", ci->committer_name, ci->committer_email,
		    ci->committer_time, ci->committer_tz);
	print_field("parent", ci->parent);
	print_field("release", ci->release);
	for (i = 0; i < ci->trailers_nr; i++)
		printf("trailer: %s: %s\n", ci->trailers[i].key,
		       ci->trailers[i].value);
	if (ci->body) {
		/* One "> line" per body line; empty lines as a bare ">". */
		puts("body:");
		for (p = ci->body;; p += len + 1) {
			len = strcspn(p, "\n");
			if (len)
				printf("> %.*s\n", (int)len, p);
			else
				puts(">");
			if (!p[len])
				break;
		}
	}
	free(shortid);
	strbuf_release(&sb);
}

static int from_repo(const char *dir, char **revs, int n, int yaml)
{
	struct commit_info ci;
	struct strbuf sb = STRBUF_INIT;
	int i;

	if (yaml)
		strbuf_addstr(&sb, "commits:\n");
	for (i = 0; i < n; i++) {
		if (repo_commit_info(&ci, dir, revs[i])) {
			strbuf_release(&sb);
			return EXIT_DATAERR;
		}
		if (yaml) {
			commit_info_write(&sb, &ci);
		} else {
			if (i)
				putchar('\n');
			print_commit(&ci);
		}
		commit_info_release(&ci);
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	return EXIT_OK;
}

static int from_file(const char *path, char **ids, int n)
{
	struct commit_set set;
	int i, ret = EXIT_OK;

	if (commits_load_file(&set, path))
		return EXIT_DATAERR;
	for (i = 0; i < n; i++) {
		const struct commit_info *ci = commits_find(&set, ids[i]);

		if (!ci) {
			error("%s: no commit '%s'", path, ids[i]);
			ret = EXIT_DATAERR;
			break;
		}
		if (i)
			putchar('\n');
		print_commit(ci);
	}
	commits_release(&set);
	return ret;
}

static int from_repo_set(const char *dir, char **revs, int n)
{
	struct commit_set set;
	size_t i;

	if (repo_load_commits(&set, dir, (const char *const *)revs, n))
		return EXIT_DATAERR;
	for (i = 0; i < set.nr; i++) {
		if (i)
			putchar('\n');
		print_commit(&set.c[i]);
	}
	commits_release(&set);
	return EXIT_OK;
}

static int subsystems(char **subjects, int n)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < n; i++) {
		struct commit_info ci = { .subject = subjects[i] };

		strbuf_reset(&sb);
		puts(commit_subsystem(&ci, &sb) ? "(none)" : sb.buf);
	}
	strbuf_release(&sb);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc == 3 && !strcmp(argv[1], "is-repo"))
		return repo_is_repo(argv[2]) ? EXIT_OK : 1;
	if (argc >= 3 && !strcmp(argv[1], "subsystem"))
		ret = subsystems(argv + 2, argc - 2);
	else if (argc >= 4 && !strcmp(argv[1], "repo"))
		ret = from_repo(argv[2], argv + 3, argc - 3, 0);
	else if (argc >= 4 && !strcmp(argv[1], "yaml"))
		ret = from_repo(argv[2], argv + 3, argc - 3, 1);
	else if (argc >= 4 && !strcmp(argv[1], "repo-set"))
		ret = from_repo_set(argv[2], argv + 3, argc - 3);
	else if (argc >= 4 && !strcmp(argv[1], "file"))
		ret = from_file(argv[2], argv + 3, argc - 3);
	else {
		fprintf(stderr, "usage: commit-info (repo|yaml|repo-set) DIR "
				"REV...\n"
				"       commit-info file META ID...\n"
				"       commit-info subsystem SUBJECT...\n"
				"       commit-info is-repo DIR\n");
		return EXIT_USAGE;
	}
	if (fflush(stdout) && ret == EXIT_OK)
		ret = EXIT_RUNTIME;
	return ret;
}
