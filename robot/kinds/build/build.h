/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * build.h: the build report kind (`kind: build`): a finding report on one
 * commit or one posted patch, from a build result directory
 * (doc/build-result.md) and a request (doc/build.md, doc/build-result.md).
 */
#ifndef ROBOT_KINDS_BUILD_BUILD_H
#define ROBOT_KINDS_BUILD_BUILD_H

struct composed;
struct compose_opts;
struct robot_config;

/*
 * Loads the build request `path` and composes its report into `out`
 * (compose.h's struct composed).  Returns 0, or an exit code after one
 * error line naming the file and the key (65 for bad input, 78 for
 * robot's own data files).
 */
int build_compose(struct composed *out, const char *path,
		  const struct robot_config *cfg, const struct compose_opts *o);

#endif
