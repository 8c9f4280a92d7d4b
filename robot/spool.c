// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool.c: queueing a message without ever losing or doubling it.
 *
 * The write is the maildir recipe: the bytes go to tmp/<name>.<pid>, are
 * fsync'd, then link()ed to new/<name>.eml, which fails if another compose
 * got there first, and the directory is fsync'd before we report success.
 * A crash leaves at worst a stray file in tmp/, never a half message in
 * new/.  The name is a digest of the report's identity, so finding an
 * earlier copy is a stat() in each state directory; a lock file keeps two
 * composes of the same report from both passing that check.
 */
#include "common.h"
#include "spool.h"
#include "utf8.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const state_dirs[] = { "tmp", "new", "sent", "failed",
					  "hold" };

void spool_key_name(struct strbuf *out, const char *key)
{
	size_t len = strlen(key);

	/* two seeds give 128 bits of name */
	strbuf_addf(out, "%016llx%016llx",
		    (unsigned long long)fnv1a64(FNV64_INIT, key, len),
		    (unsigned long long)fnv1a64(UINT64_C(0x84222325cbf29ce4),
						key, len));
}

static int make_dirs(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return error_errno("cannot create spool '%s'", dir);
	for (i = 0; i < ARRAY_SIZE(state_dirs) && !ret; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", dir, state_dirs[i]);
		if (mkdir(sb.buf, 0755) && errno != EEXIST)
			ret = error_errno("cannot create '%s'", sb.buf);
	}
	strbuf_release(&sb);
	return ret;
}

/* The Message-ID header of a queued file, unfolded. */
static void read_message_id(struct strbuf *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	if (strbuf_read_file(&sb, path))
		goto out;
	for (p = sb.buf; *p && *p != '\n'; p = strchr(p, '\n') + 1) {
		if (!strncasecmp(p, "Message-ID:", 11)) {
			p += 11;
			p += strspn(p, " \t");
			strbuf_add(out, p, strcspn(p, "\n"));
			break;
		}
		if (!strchr(p, '\n'))
			break;
	}
out:
	strbuf_release(&sb);
}

static int fsync_path(const char *path, int directory)
{
	int fd = open(path, (directory ? O_DIRECTORY : 0) | O_RDONLY);
	int ret = 0;

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	if (fsync(fd))
		ret = error_errno("cannot fsync '%s'", path);
	close(fd);
	return ret;
}

static int write_tmp(const char *path, const char *msg, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	size_t done = 0;

	if (fd < 0)
		return error_errno("cannot create '%s'", path);
	while (done < len) {
		ssize_t n = write(fd, msg + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot write '%s'", path);
			close(fd);
			unlink(path);
			return -1;
		}
		done += (size_t)n;
	}
	if (fsync(fd) || close(fd)) {
		error_errno("cannot write '%s'", path);
		unlink(path);
		return -1;
	}
	return 0;
}

/* Looks for an earlier copy of the report in the state directories. */
static int find_copy(const char *dir, const char *name, enum spool_result *res,
		     struct strbuf *first_id)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int found = 0;

	for (i = 1; i < ARRAY_SIZE(state_dirs) && !found; i++) {
		struct stat st;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/%s.eml", dir, state_dirs[i], name);
		if (stat(path.buf, &st))
			continue;
		found = 1;
		*res = strcmp(state_dirs[i], "sent") ? SPOOL_ALREADY_QUEUED
						     : SPOOL_ALREADY_SENT;
		read_message_id(first_id, path.buf);
	}
	strbuf_release(&path);
	return found;
}

int spool_enqueue(const char *dir, const char *key, const char *msg, size_t len,
		  enum spool_result *res, struct strbuf *first_id)
{
	struct strbuf name = STRBUF_INIT, tmp = STRBUF_INIT, dst = STRBUF_INIT;
	int lock = -1, ret = -1;

	if (make_dirs(dir))
		return -1;
	strbuf_addf(&tmp, "%s/compose.lock", dir);
	lock = open(tmp.buf, O_WRONLY | O_CREAT, 0644);
	if (lock < 0 || flock(lock, LOCK_EX)) {
		error_errno("cannot lock '%s'", tmp.buf);
		goto out;
	}
	spool_key_name(&name, key);
	if (find_copy(dir, name.buf, res, first_id)) {
		ret = 0;
		goto out;
	}
	strbuf_reset(&tmp);
	strbuf_addf(&tmp, "%s/tmp/%s.%ld", dir, name.buf, (long)getpid());
	strbuf_addf(&dst, "%s/new/%s.eml", dir, name.buf);
	/*
	 * A file already there is a compose that died (kill -9, a crash)
	 * with our pid, which has come round again: we hold the lock, so no
	 * live compose writes it.  Without this, O_EXCL would refuse it.
	 */
	if (unlink(tmp.buf) && errno != ENOENT) {
		error_errno("cannot remove stale '%s'", tmp.buf);
		goto out;
	}
	if (write_tmp(tmp.buf, msg, len))
		goto out;
	if (link(tmp.buf, dst.buf)) {
		error_errno("cannot queue '%s'", dst.buf);
		unlink(tmp.buf);
		goto out;
	}
	unlink(tmp.buf);
	strbuf_reset(&tmp);
	strbuf_addf(&tmp, "%s/new", dir);
	if (fsync_path(tmp.buf, 1))
		goto out;
	*res = SPOOL_QUEUED;
	ret = 0;
out:
	if (lock >= 0)
		close(lock);
	strbuf_release(&name);
	strbuf_release(&tmp);
	strbuf_release(&dst);
	return ret;
}
