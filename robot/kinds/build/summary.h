/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * summary.h: the branch summary (`kind: build-summary`, doc/build-summary.md):
 * "[tree:branch] BUILD SUCCESS | BUILD SUCCESS WITH WARNING | BUILD
 * REGRESSION <sha>" over the build results of one branch head.
 */
#ifndef ROBOT_KINDS_BUILD_SUMMARY_H
#define ROBOT_KINDS_BUILD_SUMMARY_H
struct composed;
struct compose_opts;
struct robot_config;

/*
 * Composes the summary the request at `path` describes into `out`.
 * Returns 0, or an exit code after one "robot: error:" line naming the
 * file and the key.
 */
int summary_compose(struct composed *out, const char *path,
		    const struct robot_config *cfg,
		    const struct compose_opts *o);

#endif
