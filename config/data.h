/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data.h: where robot's own data files live (templates/, config/data/).
 *
 * The data directory is, in order: data_dir_set() (the CLI's --data-dir),
 * $ROBOT_DATA_DIR, then the directory compiled in as ROBOT_DATA_DIR (the
 * source tree for a build, $PREFIX/share/robot for an install).
 */
#ifndef ROBOT_CONFIG_DATA_H
#define ROBOT_CONFIG_DATA_H

struct strbuf;

void data_dir_set(const char *dir);
/* Returns the data directory in use (borrowed). */
const char *data_dir(void);
/*
 * Appends the file `relpath` of the data directory to sb.  Returns 0, or -1
 * after printing an error naming the full path.
 */
int data_read(struct strbuf *sb, const char *relpath);
/* Returns the full path of `relpath` in the data directory (caller frees). */
char *data_path(const char *relpath);
/*
 * Returns the text of templates/SET/NAME without the file's final newline,
 * and its full path in *path (the caller frees both); NULL after printing
 * an error naming the path.
 */
char *data_template(const char *set, const char *name, char **path);

#endif
