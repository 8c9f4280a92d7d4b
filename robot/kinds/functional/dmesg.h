/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmesg.h: the names lkp-tests gives to kernel-log lines.
 *
 * A functional report's headline is a stat such as
 * "dmesg.BUG:KASAN:slab-use-after-free_in__blk_rq_map_sg": the name LKP's
 * dmesg parser derived from one line of the run's kernel log,
 *
 *   [   94.845194][ T5251] BUG: KASAN: slab-use-after-free in
 *                          __blk_rq_map_sg+0x1a3/0x4c0
 *
 * robot finds that line again to quote the report around it.  The rules
 * (doc/functional.md, "Names") follow lib/dmesg.rb: a line names a report
 * when it matches a pattern of config/data/dmesg/oops-pattern (and none of
 * oops-pattern-ignore); the matched text is then reduced by the known
 * shapes (KASAN, WARNING ... at, INFO: task ... blocked, segfault, ...)
 * and by the masking of numbers, addresses, ids and device numbers into
 * the name.  kmsg stats name printk error lines the same way.
 *
 * Lines annotated by the kernel's decode_stacktrace.sh ("func (file:line)
 * mod" for "func+0x1a3/0x4c0 [mod]") are read as the raw line was, so a
 * decoded log gives the same names.
 */
#ifndef ROBOT_DMESG_H
#define ROBOT_DMESG_H

#include <stddef.h>

struct dmesg_rules;

/*
 * Loads the tables of config/data/dmesg as lkp-tests had them on `date`
 * (YYYY-MM-DD; the patterns changed over the years: segfaults were dmesg
 * stats from 2023-06-29 to 2025-11-13).  Returns NULL after an error
 * naming the file and entry of a pattern that does not compile.
 */
struct dmesg_rules *dmesg_rules_load(const char *date);
void dmesg_rules_free(struct dmesg_rules *r);

/*
 * The error id (the stat's name without "dmesg.") that kernel-log `line`
 * gives, or NULL when it gives none.  `len` bytes, no newline needed.  The
 * caller frees.
 */
char *dmesg_error_id(const struct dmesg_rules *r, const char *line, size_t len);

/*
 * The same for a kmsg stat ("kmsg." names): a printk message of level
 * err or worse ("<3>...", "kern  :err   : ...") that names no report.
 */
char *dmesg_kmsg_error_id(const struct dmesg_rules *r, const char *line,
			  size_t len);

/*
 * lib/dmesg.rb analyze_error_id: the name of a report's message (the text
 * a pattern matched).  NULL when it is too short to be a name.
 */
char *dmesg_analyze(const struct dmesg_rules *r, const char *message);

/*
 * Copies `line` to out with decode_stacktrace.sh's annotations taken out:
 * "sym (path:nr ...) mod" becomes "sym+0x0/0x0 [mod]".
 */
struct strbuf;
void dmesg_undecode(struct strbuf *out, const char *line, size_t len);

#endif
