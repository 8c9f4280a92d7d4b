/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commits.h: commit metadata, robot's own view of a commit.
 *
 * Two sources fill the same structure: a real repository (git/repo.h,
 * through libgit2) and a commit-metadata file, a YAML file for operators
 * whose repository lives elsewhere and for round-trip tests, since real
 * sha1s cannot be recreated:
 *
 *     commits:
 *     - id: 20f3337d350c4e1b4ac66d731fd4e98565bf6cc0
 *       subject: "x86: don't use REP_GOOD or ERMS for small memory clearing"
 *       tag: v6.3-rc2                    # the commit is exactly this tag
 *       author: "René Lévesque <rene@example.org>"
 *       author_date: "2023-04-18 10:21:55 +0800"
 *       committer: "Ingo Molnar <mingo@kernel.org>"
 *       committer_date: "2023-04-19 09:00:00 +0200"
 *       parent: 68674f94ffc9dddc45e7733963ecc35c5eaa09d2
 *       release: 6.3.0-rc7-00002-g20f3337d350c
 *       body: |
 *         Free text, any number of lines.
 *
 *         Signed-off-by: Linus Torvalds <torvalds@linux-foundation.org>
 *       trailers:
 *       - "Signed-off-by: Linus Torvalds <torvalds@linux-foundation.org>"
 *
 * The schema is fixed; every key but `id` is optional; any other key is an
 * error, and so is a value of the wrong type (a list where a string is
 * expected, or YAML null: `key:`, `key: ~`, `key: null`).
 *
 *   id, parent       40 lowercase hex digits
 *   subject, tag,    one line of visible UTF-8: no control characters at all
 *   release          (no CR, LF, TAB or NUL) and no invisible ones (bidi
 *                    controls, zero-width characters, the BOM: utf8.h),
 *                    since they go into headers
 *   author,          "Name <email>": a non-empty one-line name without '<'
 *   committer        or '>', one blank, then a non-empty one-line email in
 *                    angle brackets, nothing after it
 *   author_date,     "YYYY-MM-DD hh:mm:ss +hhmm" exactly (git's ISO form,
 *   committer_date   `git log --date=iso`): a real calendar date, hh < 24,
 *                    mm and ss < 60, a sign and a four-digit zone (hh < 24,
 *                    mm < 60).  Required together with author/committer
 *                    and only with them.
 *   body             valid UTF-8, any number of lines; no control
 *                    characters but TAB and LF; trailing blanks and
 *                    newlines are dropped (so `|` and `|-` are the same)
 *                    and an empty body counts as none
 *   trailers         a list of "Key: value" strings: Key is letters,
 *                    digits and '-'; value is a non-empty one-line string
 *                    (blanks after the colon are skipped).  They are taken
 *                    as given, never derived from body; a repository's
 *                    body holds its trailers too, so write both.
 */
#ifndef ROBOT_GIT_COMMITS_H
#define ROBOT_GIT_COMMITS_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* One `Key: value` line of the message's last paragraph. */
struct commit_trailer {
	char *key;   /* as written: "Signed-off-by", case kept */
	char *value; /* one line; a folded value is unfolded with one blank */
};

struct commit_info {
	char *id;      /* 40 hex digits */
	char *subject; /* first paragraph on one line, like %s; may be NULL */
	char *tag;     /* the tag naming exactly this commit, or NULL */

	/*
	 * Identities.  A NULL name means unknown (a metadata file without
	 * `author`): then the email is NULL and time and zone are 0.
	 */
	char *author_name, *author_email;
	int64_t author_time; /* seconds since the epoch */
	int author_tz;	     /* minutes east of UTC: +0800 is 480 */
	char *committer_name, *committer_email;
	int64_t committer_time;
	int committer_tz;

	/* The message after the subject and its blank line, or NULL. */
	char *body;
	struct commit_trailer *trailers;
	size_t trailers_nr, trailers_alloc;

	char *parent;  /* first parent id, or NULL for a root commit */
	char *release; /* kernel release, "6.3.0-rc7-00002-g20f3337d350c" */
};

struct commit_set {
	struct commit_info *c;
	size_t nr, alloc;
};

/* Frees every field and zeroes ci; a zeroed ci may be released again. */
void commit_info_release(struct commit_info *ci);

/*
 * Checks what a repository gave: the same rules as the metadata file's,
 * reported as "WHERE: 'key' must be ..." (-1), or 0.
 */
int commit_info_check(const struct commit_info *ci, const char *where);

/* The first `len` digits of the id (all of them if shorter); free it. */
char *commit_short_id(const struct commit_info *ci, size_t len);

/*
 * Appends the subsystem of the subject, as the report's Subject shows it:
 * leading "[...]" groups are dropped first ("[PATCH v2 3/4] mm/slub: fix"
 * gives "mm/slub"), then it is the word before the first ": ", up to a '-'
 * ("sched/fair: ..." gives "sched/fair", "io_uring/io-wq: ..." gives
 * "io_uring/io", "btrfs_get_tree_subvol(): ..." keeps its parentheses, as
 * 0-day's Subjects show them: corpus mails 261 "[block/mq]" for
 * "block/mq-deadline: ...", 315, functional 436 "[blk]", 462).  Text with
 * a blank or a quote before the ": " is no subsystem (`Reapply "serial:
 * ..."`, functional 472).  Returns 0, or -1 with `out` unchanged when there
 * is no subject, no ": " or no word before it.
 */
int commit_subsystem(const struct commit_info *ci, struct strbuf *out);

/*
 * Appends a date as the metadata file writes it: "2023-04-18 10:21:55
 * +0800" for (1681784515, 480).
 */
void commit_date_format(struct strbuf *out, int64_t time, int tz);
/* Parses that form strictly.  Returns 0, or -1 without a message. */
int commit_date_parse(const char *s, int64_t *time, int *tz);

/*
 * Appends ci as one entry of the metadata file's `commits:` list ("- id:
 * ..."); every string is double-quoted and escaped, so loading the text
 * back gives the same commit_info.
 */
void commit_info_write(struct strbuf *out, const struct commit_info *ci);

/*
 * Loads a commit-metadata file.  Returns 0, or -1 after one error naming
 * file:line and key (unknown keys, a bad id, a value of the wrong type,
 * CR/LF or invalid UTF-8 where one line is expected).
 */
int commits_load_file(struct commit_set *set, const char *path);
void commits_release(struct commit_set *set);

/* Finds a commit by full id or unique prefix of 7+ digits (borrowed). */
const struct commit_info *commits_find(const struct commit_set *set,
				       const char *id);

#endif
