/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patchid.h: the stable patch-id of a change, the key public-inbox
 * indexes every posted patch under (its `patchid:` search prefix).
 *
 * A patch-id is a SHA-1 of the diff with line numbers and whitespace left
 * out, so the same change posted against another base, or applied as a
 * commit, has the same id.  "Stable" (`git patch-id --stable`) hashes each
 * file's part on its own and adds the digests, so the order of the files
 * does not matter either.  robot computes it from the diff libgit2 prints
 * (git/repo.h), so no git binary is needed; tests/t6100 checks it
 * against `git show --binary --format=email C | git patch-id --stable`.
 *
 * Which lines count follows git 2.39 (Debian 12's): the "diff --git" line
 * and the extended headers before "---" ("new file mode", "rename from",
 * "similarity index", ...; not "index"), the "---"/"+++" lines and every
 * line of every hunk, each with all its blanks removed; hunk headers and
 * "\ No newline at end of file" are skipped; a binary file counts as its
 * two blob ids.  Later git versions hash some header-only changes (a mode
 * change alone) differently, so such rare patches may not be found on an
 * archive indexed by another git.
 */
#ifndef ROBOT_GIT_PATCHID_H
#define ROBOT_GIT_PATCHID_H

#include <stddef.h>

struct repo;

#define PATCH_ID_HEXSZ 40

/*
 * The stable patch-id of the unified diff text[0..len).  Returns 1 with
 * the id in hex (lowercase, NUL-terminated), or 0 when the text holds no
 * patch (git patch-id prints nothing then).
 */
int patch_id_stable(const char *text, size_t len, char hex[PATCH_ID_HEXSZ + 1]);

/*
 * SHA-256 of data[0..len) in lowercase hex (NUL-terminated): the digest
 * others use where a name must be collision-free (robot/inbox.h's request
 * folders), so that nettle stays in this one module.
 */
#define SHA256_HEXSZ 64
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEXSZ + 1]);

/* The diff algorithms robot tries, in order (git/repo.h). */
#define PATCH_ID_MAX 3

/*
 * The patch-ids of commit `rev`, one per diff algorithm whose diff
 * differs from the ones before (myers, patience, minimal: a patch may
 * have been posted with any), the first being myers's, git's default.
 * Returns how many (0 for a merge or a commit that changes nothing), or
 * -1 after an error naming the commit.
 */
int repo_patch_ids(struct repo *repo, const char *rev,
		   char ids[PATCH_ID_MAX][PATCH_ID_HEXSZ + 1]);

#endif
