/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * findings.h: robot's one parser of a build log (gcc, clang, sparse,
 * smatch, coccinelle, the linkers, objtool, kernel-doc, make, Kconfig),
 * for both build kinds.
 *
 * A log is cut into lines; each line is shown safely (findings_clean())
 * and classified: a finding (a diagnostic naming a severity, most of them
 * a file and a line), or context (the compiler's source echo and caret
 * lines, "In function", "In file included from", the closing counts).
 * A finding is new when the base build's log has no finding with the same
 * key: its file and message without the line and column numbers, so a
 * finding that only moved is not new (doc/build-result.md).
 *
 * One table of marks (findings.c) says for each what the two reports make
 * of a line that has it: the finding report's severity (struct bline's
 * sev, for a line without "FILE:LINE: SEVERITY"), and the branch
 * summary's level and id (findings_line_level(), findings_line_id()).
 * The two differ where the robot's two reports do: the summary files
 * sparse's "file.c: sparse: ..." and a note under an id, the finding
 * report marks neither, and make's "***" line is an error of the finding
 * report that the summary lists under no id.
 */
#ifndef ROBOT_KINDS_BUILD_FINDINGS_H
#define ROBOT_KINDS_BUILD_FINDINGS_H

#include <stddef.h>

struct strbuf;

enum finding_sev {
	SEV_NONE,    /* context, not a finding */
	SEV_NOTE,    /* a note: shown, never marked new */
	SEV_WARNING, /* compiler, linker, objtool, kernel-doc warnings */
	SEV_ERROR,   /* errors, fatal errors, link errors, make errors */
	SEV_SPARSE,  /* a sparse line (file:line:col: sparse: ...) */
	SEV_SMATCH,  /* file:line func() warn: / error: */
	SEV_KCONFIG, /* Kconfig's "WARNING: unmet direct dependencies" and
			its indented lines: shown apart, for reference */
};

struct bline {
	char *text; /* shown safely: no control bytes, valid UTF-8 */
	enum finding_sev sev;
	char *file; /* the file it names, or NULL */
	long line;  /* its line there, or 0 */
	char *key;  /* for the base comparison, or NULL */
	int is_new;
};

struct blog {
	struct bline *v;
	size_t n, alloc;
	size_t bytes; /* of the kept lines' text, a newline each */
};

enum finding_level { FINDING_NONE, FINDING_WARNING, FINDING_ERROR };

/*
 * The branch summary's view of one line (without its newline): whether it
 * is a finding, and its level.  FINDING_NONE for make's progress lines,
 * gcc's "In function" lines, the source and caret lines of its excerpts,
 * empty lines.
 */
enum finding_level findings_line_level(const char *line, size_t len);

/*
 * Appends the finding's id, as the robot spells it: the line with its
 * line and column numbers, offsets, hex and plain numbers, a single
 * trailing [-Wflag] and quoting dropped, '/' turned into '-', the words
 * joined with '-' and ": " closed up, cut at 200 bytes.  With
 * `drop_did_you_mean`, gcc's "; did you mean 'x'?" tail goes first.
 */
void findings_line_id(struct strbuf *out, const char *line, size_t len,
		      int drop_did_you_mean);

/*
 * Appends `s` (len bytes, one line without its newline) to `out` shown
 * safely: a final CR dropped, SGR colour sequences (ESC [ ... m) dropped,
 * any other control byte shown as ^X (DEL as ^?), bytes that are not
 * UTF-8 as '?'.  Tabs are kept.
 */
void findings_clean(struct strbuf *out, const char *s, size_t len);

/*
 * Reads the log `path` (plain, .gz or .xz by its magic) line by line.
 * Keeps the findings and their context: at most `max_lines` lines and
 * `max_bytes` of their text as shown (a newline each; 0: no limit), what
 * bounds robot's memory (doc/limits.md).  Returns 0, or -1 after one
 * error naming the file: a missing, unreadable or empty log, a log with
 * NUL bytes in more than a few lines (binary junk), more kept than the
 * limits.
 */
int blog_read(struct blog *log, const char *path, size_t max_lines,
	      size_t max_bytes);
/* Marks the findings of `log` that `base` (NULL: none) does not have. */
void blog_mark_new(struct blog *log, const struct blog *base);
void blog_release(struct blog *log);

#endif
