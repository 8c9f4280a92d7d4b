/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inputs.h: where each value of a report comes from, so that a report
 * that lacks values is one error naming the operator's files and keys,
 * never a template.
 *
 * report_render() first renders the report once collecting rather than
 * failing: every placeholder without a value is added here with the
 * template that asked for it.  Each placeholder maps to the input it is
 * read from (the request, the configuration, the commit metadata, a
 * result root's job.yaml) and its key there; each template maps to the
 * part of the mail it writes ("the test machine line").  needs_report()
 * then prints one line that lists, per input file, every missing key:
 *
 *   rt0/0/job.yaml: 'memory' is missing (the test machine line needs it)
 *
 * The tables are in inputs.c; doc/result-root.md and doc/request.md
 * list the same keys for the operator.
 */
#ifndef ROBOT_INPUTS_H
#define ROBOT_INPUTS_H

#include <stddef.h>

struct report;
struct report_test;

struct needs;

struct needs *needs_new(void);
void needs_free(struct needs *n);

/*
 * Records that `placeholder` had no value in `tmpl` (a template path, the
 * last two components of which name the set and the block) while test
 * `t` (may be NULL) was being rendered.  The same input key is kept once.
 */
void needs_add(struct needs *n, const struct report *r,
	       const struct report_test *t, const char *placeholder,
	       const char *tmpl);

/*
 * Records that one of `names` (placeholders of the same input file) is
 * missing: "'brand' or 'model' is missing".
 */
void needs_add_either(struct needs *n, const struct report *r,
		      const struct report_test *t, const char *const *names,
		      size_t count, const char *tmpl);

/*
 * Records that `key` of input `file` is missing, which `what` ("the
 * comparison") needs: for the inputs robot reads before the templates.
 */
void needs_add_key(struct needs *n, const char *file, const char *key,
		   const char *what);

size_t needs_count(const struct needs *n);

/*
 * Whether the placeholder is data only some reports have (a posted
 * patch's, the subsystem, a test description): a one-line-per-form
 * template's line that needs it is not the form to ask values for.
 */
int needs_optional(const char *placeholder);

/*
 * Prints the one error line for everything recorded (grouped by input
 * file, in the order first seen) and returns -1.
 */
int needs_report(const struct needs *n);

#endif
