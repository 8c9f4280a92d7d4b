// SPDX-License-Identifier: GPL-2.0-only
/*
 * dir.c: directories (see dir.h).
 */
#include "robot/util/common.h"
#include "robot/util/dir.h"

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

void path_relative(struct strbuf *out, const char *dir, const char *path)
{
	char *d = realpath(dir, NULL), *p = realpath(path, NULL);
	const char *a, *b;
	size_t common = 0, i;

	if (!d || !p) {
		strbuf_addstr(out, p ? p : path);
		free(d);
		free(p);
		return;
	}
	/* the last '/' up to which both agree (a whole component) */
	for (i = 0; d[i] && d[i] == p[i]; i++)
		if (d[i] == '/')
			common = i;
	if (!d[i] && (p[i] == '/' || !p[i]))
		common = i;
	a = d + common;
	b = p + common;
	for (; *a; a++)
		if (*a == '/')
			strbuf_addstr(out, "../");
	b += *b == '/';
	if (*b)
		strbuf_addstr(out, b);
	else if (out->len)
		strbuf_setlen(out, out->len - 1); /* "../.." */
	else
		strbuf_addch(out, '.');
	free(d);
	free(p);
}
