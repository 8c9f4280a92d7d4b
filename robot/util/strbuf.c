// SPDX-License-Identifier: GPL-2.0-only
/*
 * strbuf.c: growable strings.  An empty strbuf points at a shared static
 * byte, so STRBUF_INIT needs no allocation and every strbuf can be read as a
 * C string at any time.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;

	if (extra > SIZE_MAX - sb->len - 1)
		die("string too large");
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	if (want < sb->alloc * 3 / 2)
		want = sb->alloc * 3 / 2;
	if (want < 64)
		want = 64;
	sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
	if (sb->len == 0)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen beyond the buffer");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	if (!n)
		return;
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
		      fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed");
	if ((size_t)n >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_add_text(struct strbuf *sb, const char *s, size_t len)
{
	size_t i = 0, k;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;

		if (c >= 0x80 && (k = utf8_char(s + i, len - i, &cp))) {
			strbuf_add(sb, s + i, k);
			i += k;
		} else if (c >= 0x80 || c == 0x7f || (c < 0x20 && c != '\t')) {
			strbuf_addf(sb, "\\x%02x", c);
			i++;
		} else {
			strbuf_addch(sb, c);
			i++;
		}
	}
}

void strbuf_add_json_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p, *end;

	if (!s) {
		strbuf_addstr(sb, "null");
		return;
	}
	end = (const unsigned char *)s + strlen(s);
	strbuf_addch(sb, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		uint32_t cp;
		size_t k;

		if (*p == '"' || *p == '\\') {
			strbuf_addf(sb, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			strbuf_addf(sb, "\\u%04x", *p);
		} else if (*p >= 0x80) {
			/* valid JSON whatever the bytes: no UTF-8, U+00XX */
			k = utf8_char((const char *)p, end - p, &cp);
			if (k) {
				strbuf_add(sb, p, k);
				p += k - 1;
			} else {
				strbuf_addf(sb, "\\u%04x", *p);
			}
		} else {
			strbuf_addch(sb, *p);
		}
	}
	strbuf_addch(sb, '"');
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && strchr(" \t\r\n", sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

/* open_regular(), and what fstat() said of the file. */
static int open_regular_stat(const char *path, int flags, struct stat *st)
{
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		e = fstat(fd, st)	   ? errno
		    : S_ISDIR(st->st_mode) ? EISDIR
					   : ENOTREG;
		close(fd);
		errno = e;
		return -1;
	}
	/*
	 * O_NONBLOCK stays: it changes nothing for a regular file (POSIX:
	 * a read blocks only where no data is available yet, which a
	 * regular file never is), and clearing it cost two system calls a
	 * file (a summary reads 500)
	 */
	return fd;
}

int open_regular(const char *path, int flags)
{
	struct stat st;

	return open_regular_stat(path, flags, &st);
}

/* Below this much room a read goes through the stack, not the buffer. */
#define READ_IN_PLACE_MIN 4096

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	size_t oldlen = sb->len;
	char tmp[65536];

	for (;;) {
		/*
		 * Into the buffer when it has room (strbuf_read_file sized it
		 * from fstat: no copy), else through tmp, which grows it
		 */
		size_t room = sb->alloc ? sb->alloc - sb->len - 1 : 0;
		int direct = room >= READ_IN_PLACE_MIN;
		ssize_t n = direct ? read(fd, sb->buf + sb->len, room)
				   : read(fd, tmp, sizeof(tmp));

		if (!n)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			strbuf_setlen(sb, oldlen);
			errno = err;
			return -1;
		}
		if (direct)
			strbuf_setlen(sb, sb->len + (size_t)n);
		else
			strbuf_add(sb, tmp, (size_t)n);
	}
}

/*
 * strbuf_read_fd() of a regular file fstat() said holds `size` bytes.
 * When one read asked for more and brought exactly those, it stopped at
 * the end of the file (POSIX: a regular file's read is short only there,
 * or on a signal, which a local file's read does not take), so the read
 * that would return 0 is not made: one system call a file less.
 */
static int read_sized(struct strbuf *sb, int fd, off_t size)
{
	size_t room = sb->alloc ? sb->alloc - sb->len - 1 : 0;
	size_t oldlen = sb->len;
	ssize_t n;
	int err;

	if (size <= 0 || room <= (size_t)size)
		return strbuf_read_fd(sb, fd);
	do
		n = read(fd, sb->buf + sb->len, room);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	strbuf_setlen(sb, sb->len + (size_t)n);
	if (n == size || !n)
		return 0;
	if (!strbuf_read_fd(sb, fd))
		return 0;
	err = errno;
	strbuf_setlen(sb, oldlen);
	errno = err;
	return -1;
}

int strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max)
{
	struct stat st;
	int fd = open_regular_stat(path, O_RDONLY, &st), ret, err;

	if (fd < 0)
		return -1;
	if ((uintmax_t)st.st_size > max) {
		close(fd);
		return 1;
	}
	/* the size it has now: one allocation, not a doubling a read */
	if (st.st_size > 0)
		strbuf_grow(sb, (size_t)st.st_size + 1);
	ret = read_sized(sb, fd, st.st_size);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	return strbuf_read_file_max(sb, path, SIZE_MAX);
}
