/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xalloc.h: allocation that never returns NULL.  On exhaustion these print
 * "robot: error: out of memory" and exit 1; no caller checks for NULL.
 */
#ifndef ROBOT_XALLOC_H
#define ROBOT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc for `nmemb` elements of `size` bytes, checking the product */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
/*
 * Page-mapped blocks, for big arrays that grow by doubling: resizing moves
 * the pages (mremap) instead of copying them, and new pages read as zero.
 * `old` is the size asked for before (0 with ptr NULL, which maps a new
 * block); size 0 unmaps the block and returns NULL.
 */
void *xmap_resize(void *ptr, size_t old, size_t size);
/* Copies a string (the caller frees the copy). */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* a, sep and b end to end: xasprintf("%s%s%s", a, sep, b) without
 * printf's cost, for paths and names built in loops */
char *xstrjoin3(const char *a, const char *sep, const char *b);
/* Returns a freshly allocated formatted string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
