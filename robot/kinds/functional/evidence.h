/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evidence.h: the excerpt a functional report quotes from a run's files.
 *
 * For a dmesg/kmsg stat it is the kernel's report that the headline line
 * belongs to, read from the run's dmesg (or kmsg, plain or .xz), as the
 * kernel's decode_stacktrace.sh left it.  The report runs from the line
 * that starts it ("------------[ cut here ]------------", or a line with
 * " BUG: ", " WARNING: ", " INFO: ", " UBSAN: ", " kernel BUG at ") to its
 * "---[ end trace" line; a report that never ends stops after 100 lines,
 * and in a decoded log it then goes on to the end of the next "Code
 * starting with the faulting instruction" listing.  A headline line that
 * is in no such report starts the excerpt itself, which then runs to the
 * end of the log.  For a last_state stat the excerpt is the end of the log;
 * for a test's stat, the test's `output` file (around the test's name
 * when it is too long).  doc/functional.md says it all with examples.
 *
 * Every excerpt is bounded by max_lines and max_bytes (defaults below):
 * a longer one is cut there.  Lines are kept as they are but for a final
 * CR; a byte that is not UTF-8 text (a control character but TAB, or an
 * invalid sequence) becomes '?', so a binary file cannot break the mail.
 * A terminal colour sequence (ESC '[' digits and ';' 'm') is kept: the
 * robot's mails quote a test's coloured output as it is.
 */
#ifndef ROBOT_EVIDENCE_H
#define ROBOT_EVIDENCE_H

#include <stddef.h>

struct dmesg_rules;
struct result_root;

#define EVIDENCE_MAX_LINES 6000
#define EVIDENCE_MAX_BYTES (512 * 1024)
/* No log or output file is read past this many (decompressed) bytes. */
#define EVIDENCE_MAX_INPUT (256u << 20)

struct evidence_opts {
	const char *file; /* a file of the run dir; NULL: by the stat */
	const char
		*run; /* a run dir ("3"); NULL: the first run with the stat */
	long before, after; /* context lines around a kernel report */
	long from, lines;   /* a part of the file: its first line (from 1) and
			       the number of lines; 0: the rule */
	long max_lines, max_bytes; /* 0: EVIDENCE_MAX_LINES, _MAX_BYTES */
};

struct evidence {
	char *text;    /* the excerpt, every line ending in '\n' */
	char *path;    /* the file it came from */
	char *run_dir; /* that file's run directory */
	size_t nlines;
	int cut; /* the limits cut it short */
};

/*
 * Finds the excerpt of stat `kpi` in result root `rt` (the tested commit's).
 * `where` prefixes errors (the request file and key).  Returns 0, or -1
 * after one error line: no run has the stat, the file is missing or not
 * readable, no line of the log names the headline, the options name a
 * part outside the file.
 */
int evidence_find(struct evidence *ev, const struct result_root *rt,
		  const char *kpi, const struct evidence_opts *o,
		  const struct dmesg_rules *rules, const char *where);
void evidence_release(struct evidence *ev);

/*
 * The kernel logs of a run dir that exist, in the order a report attaches
 * them: "dmesg" then "kmsg", each plain or ".xz".  Fills up to two paths
 * (the caller frees them) and returns how many.
 */
size_t evidence_logs(const char *run_dir, char *paths[2]);

#endif
