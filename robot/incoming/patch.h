/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patch.h: the patch a follow-up carries, as `git am` takes it.
 *
 * Where a developer puts the fix they want tested:
 *
 *   inline    in their own words (not the lines they quote): a unified
 *             diff, after a scissors line ("-- >8 --") with its own From:
 *             and Subject:, or the whole mail as git send-email writes
 *             a patch;
 *   attached  a part named *.patch or *.diff, typed text/x-patch,
 *             text/x-diff or application/x-patch, or any text attachment
 *             holding a diff; a `git format-patch` file is kept whole;
 *   a link    to the patch on a public-inbox archive (lore): its
 *             Message-ID is fetched as <lore_url><id>/raw and read again
 *             for an inline or attached patch.
 *
 * The first found in that order wins.  The result is an mbox of one
 * message per patch, each with From, Date and Subject, so that `git am
 * patch.mbox` applies it.
 */
#ifndef ROBOT_PATCH_H
#define ROBOT_PATCH_H

#include "robot/util/strbuf.h"

struct followup;
struct lore;

enum patch_how {
	PATCH_INLINE = 1,
	PATCH_ATTACHED,
	PATCH_LINK,
};

struct patch_found {
	enum patch_how how;
	struct strbuf mbox;
	char *subject;	  /* the (first) patch's own Subject, or NULL */
	char *message_id; /* the mail the patch came in */
	char *author;	  /* "Name <addr>" */
	char *link;	  /* PATCH_LINK: the URL */
	char *file;	  /* PATCH_ATTACHED: the part's file name */
};

/* A name for the way the patch came: "inline", "attached", "lore link". */
const char *patch_how_name(enum patch_how how);

/*
 * Looks for the patch in `f`; a link is followed through `lore` (NULL:
 * links are not followed).  Returns 1 (found, out filled), 0 (none), or
 * minus an exit code after an error: the archive cannot be asked now
 * (-75), its answer is unusable (-1).  Release `out` either way.
 */
int patch_find(struct patch_found *out, const struct followup *f,
	       struct lore *lore);
void patch_found_release(struct patch_found *p);

/*
 * The length of the unified diff at the start of `text`: file headers and
 * hunks, the hunks' line counts honoured (an empty line counts as an
 * empty context line, as mailers strip its blank).  0 when `text` does
 * not start with a diff.
 */
size_t patch_diff_len(const char *text);

/*
 * Where the patch starts in a mail's text, for quoting their words
 * without it: the scissors line, else the "---" line before the diff
 * (git's separator of message and patch), else the diff; the length of
 * the text when it holds no patch.
 */
size_t patch_text_start(const char *text);

#endif
