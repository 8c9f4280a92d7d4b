// SPDX-License-Identifier: GPL-2.0-only
/*
 * dir.c: directories (see dir.h).
 */
#include "common.h"
#include "dir.h"

#include <sys/stat.h>

int mkdir_p(const char *dir)
{
	char *p = xstrdup(dir), *s;
	int ret = 0, saved = 0;

	for (s = p + 1; *s && !ret; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			ret = -1;
			saved = errno;
		}
		*s = '/';
	}
	if (!ret && mkdir(p, 0755) && errno != EEXIST) {
		ret = -1;
		saved = errno;
	}
	free(p);
	if (ret)
		errno = saved;
	return ret;
}
