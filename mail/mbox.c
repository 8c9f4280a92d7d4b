// SPDX-License-Identifier: GPL-2.0-only
/*
 * mbox.c: appending to the local mailbox (see mbox.h).
 */
#include "robot/util/common.h"
#include "mail/mbox.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ">*From " at the start of a line */
static int from_line(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] == '>')
		i++;
	return n - i >= 5 && !memcmp(p + i, "From ", 5);
}

void mbox_entry(struct strbuf *out, const char *sender, time_t when,
		const char *msg, size_t len)
{
	struct tm tm;
	char date[64];
	size_t i = 0, n;

	gmtime_r(&when, &tm);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	strbuf_addf(out, "From %s %s\n", sender, date);
	while (i < len) {
		const char *nl = memchr(msg + i, '\n', len - i);

		n = nl ? (size_t)(nl - (msg + i)) + 1 : len - i;
		if (from_line(msg + i, n))
			strbuf_addch(out, '>');
		strbuf_add(out, msg + i, n);
		i += n;
	}
	if (!len || msg[len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addch(out, '\n');
}

int mbox_open(struct mbox *m, const char *path)
{
	m->path = xstrdup(path);
	m->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (m->fd < 0) {
		int e = errno;

		error_errno("cannot open the local mailbox '%s'", path);
		free(m->path);
		m->path = NULL;
		errno = e;
		return -1;
	}
	return 0;
}

void mbox_close(struct mbox *m)
{
	if (m->fd >= 0)
		close(m->fd);
	free(m->path);
	m->fd = -1;
	m->path = NULL;
}

static int set_lock(int fd, short type, int wait)
{
	struct flock fl = { 0 };

	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	while (fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl))
		if (errno != EINTR)
			return -1;
	return 0;
}

long long mbox_lock(struct mbox *m)
{
	struct stat st;

	if (set_lock(m->fd, F_WRLCK, 1) || fstat(m->fd, &st)) {
		int e = errno;

		error_errno("cannot lock the local mailbox '%s'", m->path);
		errno = e;
		return -1;
	}
	return (long long)st.st_size;
}

void mbox_unlock(struct mbox *m)
{
	set_lock(m->fd, F_UNLCK, 0);
}

int mbox_write(struct mbox *m, const char *data, size_t len, int sync)
{
	struct stat st;
	size_t done = 0;
	int e;

	if (fstat(m->fd, &st))
		goto fail;
	while (done < len) {
		ssize_t n = write(m->fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto undo;
		done += (size_t)n;
	}
	if (sync && fsync(m->fd))
		goto undo;
	return 0;
undo:
	e = errno;
	if (ftruncate(m->fd, st.st_size))
		warning("cannot cut '%s' back to %lld bytes: %s", m->path,
			(long long)st.st_size, strerror(errno));
	errno = e;
fail:
	e = errno;
	error_errno("cannot write the local mailbox '%s'", m->path);
	errno = e;
	return -1;
}

enum mbox_found mbox_recover(struct mbox *m, long long offset,
			     const char *entry, size_t len)
{
	struct stat st;
	char *buf;
	size_t have;
	ssize_t n;
	enum mbox_found ret;

	if (fstat(m->fd, &st) || st.st_size <= offset)
		return MBOX_NOTHING;
	have = (size_t)(st.st_size - offset);
	if (have > len)
		have = len;
	buf = xmalloc(have ? have : 1);
	n = pread(m->fd, buf, have, offset);
	if (n != (ssize_t)have || memcmp(buf, entry, have))
		ret = MBOX_SOMETHING;
	else if (have == len)
		ret = MBOX_WHOLE;
	else if (st.st_size == offset + (long long)have &&
		 !ftruncate(m->fd, offset) && !fsync(m->fd))
		ret = MBOX_REMOVED;
	else
		ret = MBOX_SOMETHING;
	free(buf);
	return ret;
}
