// SPDX-License-Identifier: GPL-2.0-only
/*
 * xalloc.c: the allocation wrappers.  Out of memory is the one condition
 * below the CLI that may end the process: nothing sensible can be done with
 * a half-built report, and checking every allocation hides the real logic.
 */
#include "robot/util/common.h"

#include <sys/mman.h>
#include <unistd.h>

static void oom(void)
{
	fputs("robot: error: out of memory\n", stderr);
	exit(EXIT_RUNTIME);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom();
	return xrealloc(ptr, nmemb * size);
}

static size_t pages(size_t size)
{
	static size_t page;

	if (!page)
		page = (size_t)sysconf(_SC_PAGESIZE);
	if (size > SIZE_MAX - page)
		oom();
	return (size + page - 1) / page * page;
}

void *xmap_resize(void *ptr, size_t old, size_t size)
{
	void *p;

	if (!ptr && !size)
		return NULL;
	if (!size) {
		munmap(ptr, pages(old));
		return NULL;
	}
	if (!ptr)
		p = mmap(NULL, pages(size), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else if (pages(old) == pages(size))
		return ptr;
	else
		p = mremap(ptr, pages(old), pages(size), MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrjoin3(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *p = xmalloc(la + ls + lb + 1);

	memcpy(p, a, la);
	memcpy(p + la, sep, ls);
	memcpy(p + la + ls, b, lb + 1);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	va_end(ap);
	return p;
}
