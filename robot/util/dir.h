/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dir.h: directories, part of the util module.
 */
#ifndef ROBOT_DIR_H
#define ROBOT_DIR_H

/*
 * mkdir -p: creates `dir` and its missing parents (mode 0755).  Returns
 * 0, or -1 with errno set from the mkdir that failed.
 */
int mkdir_p(const char *dir);

struct strbuf;

/*
 * Appends `path` relative to the directory `dir` ("../rt0"), both taken
 * as they really are (realpath); `path` itself when either does not
 * exist.
 */
void path_relative(struct strbuf *out, const char *dir, const char *path);

#endif
