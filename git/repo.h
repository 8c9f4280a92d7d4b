/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * repo.h: commit metadata from a real git repository (through libgit2,
 * which no other module sees).
 *
 * A revision is anything git_revparse_single() takes: a full id, a unique
 * prefix, a branch or tag name, "HEAD~2".  It is peeled to a commit.
 *
 * What each commit_info field is, when it comes from a repository:
 *
 *   id, parent   full ids; parent is the first parent (NULL for a root)
 *   subject      the first paragraph of the message, its lines joined by
 *                blanks, as `git log --format=%s` prints it
 *   body         the rest of the message, trailing blanks cut; NULL if none
 *   trailers     the `Key: value` lines of the message's last paragraph, as
 *                `git interpret-trailers --parse` finds them; a folded value
 *                is unfolded with single blanks
 *   author, committer  name and email as recorded (no mailmap)
 *   tag          a tag pointing exactly at the commit: annotated tags win
 *                over lightweight ones, then the bytewise smallest name
 *                ("v6.3-rc7" over "v6.3-rc7-light" if both are annotated)
 *   release      the kernel release of the commit as the kernel's
 *                scripts/setlocalversion names a build of it, without
 *                localversion files or CONFIG_LOCALVERSION: the top-level
 *                Makefile's VERSION.PATCHLEVEL.SUBLEVEL EXTRAVERSION
 *                ("6.3.0-rc7"), then, unless `git describe --tags` finds a
 *                tag exactly at the commit, "-%05d" with the number of
 *                commits it counts since that tag (left out when no tag is
 *                reachable) and "-g" with the first 12 digits of the id:
 *                "6.3.0-rc7-00002-g20f3337d350c".  NULL when the commit has
 *                no top-level Makefile with a numeric VERSION.  As with
 *                `--tags`, lightweight tags count: one exactly at the
 *                commit means no suffix.  (The kernel's own script counts
 *                from annotated tags only, since v6.3 from the tag
 *                "v<KERNELVERSION>" only; the results agree whenever that
 *                tag is the nearest one, as on mainline.)
 *
 * Every text field is checked as the metadata file's are (commits.h); a
 * commit whose subject or names are not valid UTF-8 is an error.
 *
 * libgit2's global state is initialised by repo_open() and shut down by
 * repo_close() (the calls are counted, so nesting is fine); the one-shot
 * functions do both.  Repositories owned by another user are read: robot
 * only reads objects and runs nothing a repository's config names, so
 * git's safe.directory check is turned off.
 */
#ifndef ROBOT_GIT_REPO_H
#define ROBOT_GIT_REPO_H

#include <stddef.h>

#include "git/commits.h"

struct repo;

/*
 * Opens the repository at `dir` exactly (a work tree, its .git or a bare
 * repository; parent directories are not searched).  Returns 0, or -1 after
 * an error naming dir.
 */
int repo_open(struct repo **out, const char *dir);
void repo_close(struct repo *repo);

/*
 * Fills ci (which the caller releases with commit_info_release) from the
 * commit `rev` names.  Returns 0, or -1 after one error naming the commit
 * and the repository, with ci zeroed.
 */
int repo_lookup(struct repo *repo, struct commit_info *ci, const char *rev);

/*
 * The same without tag and release, which cost a walk of the tags and of
 * the history (git describe): for lookups that need only the commit's
 * own fields (robot thread).
 */
int repo_lookup_basic(struct repo *repo, struct commit_info *ci,
		      const char *rev);

/* The same as repo_open + repo_lookup + repo_close. */
int repo_commit_info(struct commit_info *ci, const char *repo_dir,
		     const char *rev);

/*
 * Fills a commit set with one entry per revision, in order, so commits_find
 * works on it as on a loaded metadata file.  Returns 0, or -1 after one
 * error, with the set empty.
 */
int repo_load_commits(struct commit_set *set, const char *repo_dir,
		      const char *const *revs, size_t nr);

/* How a diff is computed: git's --diff-algorithm (histogram: none). */
enum repo_diff_algo {
	REPO_DIFF_MYERS, /* git's default */
	REPO_DIFF_PATIENCE,
	REPO_DIFF_MINIMAL,
};

/*
 * Appends the patch of commit `rev` against its first parent (the empty
 * tree for a root commit) as `git show --binary --format=` prints it
 * with git's default options: renames found (50% similarity), the indent
 * heuristic, full ids on the index lines, binary files as "GIT binary
 * patch" data.  Returns
 * 0, 1 for a merge (git show prints no patch of its own), or -1 after an
 * error naming the commit and the repository.
 */
int repo_diff_text(struct repo *repo, const char *rev, enum repo_diff_algo algo,
		   struct strbuf *out);

/*
 * Appends the content of file `path` as commit `rev` has it (its blob, not
 * the work tree).  Returns 0, 1 when the commit has no such file (nothing
 * printed), or -1 after an error naming the commit and the repository.
 */
int repo_file_at(struct repo *repo, const char *rev, const char *path,
		 struct strbuf *out);

/* Whether `dir` itself is a git repository (1 or 0); prints nothing. */
int repo_is_repo(const char *dir);

#endif
