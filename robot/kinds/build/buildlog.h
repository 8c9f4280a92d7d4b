/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buildlog.h: the few facts the branch summary needs from one line of a
 * build log (compiler, sparse, smatch, coccinelle, linker, Kconfig, make
 * output): whether it is a finding, how bad, and the id the 0-day robot
 * files it under in "Error/Warning ids grouped by kconfigs".  The finding
 * report's full parser (findings.c) reads far more of a line.
 */
#ifndef ROBOT_KINDS_BUILD_BUILDLOG_H
#define ROBOT_KINDS_BUILD_BUILDLOG_H
#include <stddef.h>
struct strbuf;

enum finding_level { FINDING_NONE, FINDING_WARNING, FINDING_ERROR };

/*
 * Whether the line (without its newline) is a finding, and its level:
 * FINDING_NONE for make's progress lines, gcc's "In function" lines, the
 * source and caret lines of its excerpts, empty lines.
 */
enum finding_level findings_line_parse(const char *line, size_t len);

/*
 * Appends the finding's id, as the robot spells it: the line with its
 * line and column numbers, offsets, hex and plain numbers, a single
 * trailing [-Wflag] and quoting dropped, '/' turned into '-', the words
 * joined with '-' and ": " closed up, cut at 200 bytes.  With
 * `drop_did_you_mean`, gcc's "; did you mean 'x'?" tail goes first.
 */
void findings_line_id(struct strbuf *out, const char *line, size_t len,
		      int drop_did_you_mean);

#endif
