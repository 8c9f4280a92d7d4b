/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strbuf.h: growable strings, the one way robot builds text.
 *
 * Invariants: `buf` is never NULL and is always NUL-terminated, also right
 * after STRBUF_INIT; `len` never counts the terminator; strbuf_detach() is
 * the only way to take ownership of `buf`.
 */
#ifndef ROBOT_STRBUF_H
#define ROBOT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT                  \
	{                            \
		0, 0, strbuf_slopbuf \
	}

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Returns the buffer, which the caller frees, and resets sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen(sb, 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
/* inline: robot builds much of its text a character at a time */
static inline void strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->len + 2 > sb->alloc)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/*
 * Appends s as a JSON string, quoted, with '"', '\\' and control characters
 * escaped (so that any name prints on one line); NULL appends null.
 */
void strbuf_add_json_string(struct strbuf *sb, const char *s);
/* Removes trailing blanks (spaces, tabs, CR and LF). */
void strbuf_rtrim(struct strbuf *sb);

/*
 * Appends s[0..len) as text whatever its bytes: control bytes but the
 * tab, and bytes that are no UTF-8, as \xNN (error lines, what robot
 * prints of a file it did not write).
 */
void strbuf_add_text(struct strbuf *sb, const char *s, size_t len);

/*
 * Opens `path` (open(2) flags, O_CLOEXEC added) when it is a regular
 * file: a FIFO is opened without blocking and refused, as any other file
 * that is no regular file, with errno ENOTREG (a directory: EISDIR).
 * Returns the descriptor, or -1 with errno set.
 */
int open_regular(const char *path, int flags);

/*
 * Appends the whole file at `path` (a regular file: open_regular).
 * Returns 0, or -1 with errno set and sb unchanged.
 */
int strbuf_read_file(struct strbuf *sb, const char *path);
/*
 * strbuf_read_file() of a file of at most `max` bytes: 1, with nothing
 * read, when fstat() says it holds more (one open, no stat() before).
 */
int strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max);
/*
 * Appends what `fd` holds from its offset to the end.  Returns 0, or -1
 * with errno set and sb unchanged.
 */
int strbuf_read_fd(struct strbuf *sb, int fd);

#endif
