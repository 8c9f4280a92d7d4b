// SPDX-License-Identifier: GPL-2.0-only
/*
 * data.c: locating robot's data files.  A plain directory rather than data
 * embedded in the binary: operators can read and diff the tables robot
 * uses, and --data-dir lets a test point robot at a modified copy.
 */
#include "robot/util/common.h"
#include "config/data.h"

#ifndef ROBOT_DATA_DIR
#define ROBOT_DATA_DIR "/usr/local/share/robot"
#endif

static const char *override_dir;

void data_dir_set(const char *dir)
{
	override_dir = dir;
}

const char *data_dir(void)
{
	const char *env;

	if (override_dir)
		return override_dir;
	env = getenv("ROBOT_DATA_DIR");
	if (env && *env)
		return env;
	return ROBOT_DATA_DIR;
}

char *data_path(const char *relpath)
{
	return xasprintf("%s/%s", data_dir(), relpath);
}

int data_read(struct strbuf *sb, const char *relpath)
{
	char *path = data_path(relpath);
	int ret = 0;

	if (strbuf_read_file(sb, path) < 0) {
		ret = error_errno("cannot read data file '%s'", path);
		/* robot's own files are missing: the installation's fault */
		error_status = EXIT_CONFIG;
	}
	free(path);
	return ret;
}

char *data_template(const char *set, const char *name, char **path)
{
	struct strbuf sb = STRBUF_INIT;
	char *rel = xasprintf("templates/%s/%s", set, name);

	if (data_read(&sb, rel) < 0) {
		free(rel);
		strbuf_release(&sb);
		return NULL;
	}
	if (sb.len && sb.buf[sb.len - 1] == '\n')
		strbuf_setlen(&sb, sb.len - 1);
	*path = data_path(rel);
	free(rel);
	return strbuf_detach(&sb, NULL);
}
