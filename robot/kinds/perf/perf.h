/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.h: the performance report kind (robot/report/build.h's interface):
 * the headline is the KPI's change against the base; the sender's words
 * and tables go to the places of doc/request.md's `notes`, and rows may be
 * appended to the first table (`append`).
 */
#ifndef ROBOT_KINDS_PERF_H
#define ROBOT_KINDS_PERF_H

struct compose_ctx;
struct report;
struct report_kind;

extern const struct report_kind perf_kind;

/*
 * The sender's notes in a performance report's places: also a functional
 * request's when its first test has no data (its result roots missing).
 */
int perf_notes(struct compose_ctx *c, struct report *r);

#endif
