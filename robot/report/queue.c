// SPDX-License-Identifier: GPL-2.0-only
/*
 * queue.c: a composed message into the spool: its materials published
 * under archive_dir, its record written, the message queued (compose.h).
 */
#include "robot/util/common.h"
#include "robot/util/dir.h"
#include "robot/delivery/record.h"
#include "robot/report/compose.h"
#include "config/config.h"
#include "config/request.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

void composed_release(struct composed *c)
{
	size_t i;

	strbuf_release(&c->bytes);
	free(c->message_id);
	free(c->key);
	free(c->archive_dir);
	free(c->commit_id);
	free(c->base_id);
	for (i = 0; i < c->nmaterials; i++) {
		free(c->material_names[i]);
		free(c->material_paths[i]);
	}
	free(c->material_names);
	free(c->material_paths);
	memset(c, 0, sizeof(*c));
}

/* mkdir -p; 0 or an exit code */
static int make_path(const char *dir)
{
	int ret;

	if (!mkdir_p(dir))
		return 0;
	ret = spool_errno_exit(errno);
	error_errno("cannot create '%s' (archive_dir)", dir);
	return ret;
}

/*
 * Removes the ".NAME.PID.tmp" files that a compose killed while
 * publishing left in the folder.  The caller holds the spool's lock, as
 * every publisher does, so none of them is being written.
 */
static int clean_stale(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t n;
	int ret = 0;

	if (!d) {
		ret = spool_errno_exit(errno);
		error_errno("cannot read '%s'", dir);
		return ret;
	}
	while ((de = readdir(d))) {
		n = strlen(de->d_name);
		if (de->d_name[0] != '.' || n < 6 ||
		    strcmp(de->d_name + n - 4, ".tmp"))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT) {
			ret = spool_errno_exit(errno);
			error_errno("cannot remove '%s/%s'", dir, de->d_name);
			break;
		}
	}
	closedir(d);
	return ret;
}

/*
 * One material: written aside with its source's permissions (a file only
 * its owner may read is not published world-readable), fsync'd, then
 * renamed over the old copy, so a reader never sees it half written.
 */
static int publish_one(const char *src, const char *tmp, const char *dst)
{
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	size_t done = 0;
	int fd = -1, ret = 0;

	if (stat(src, &st) || strbuf_read_file(&data, src)) {
		ret = error_errno("cannot read '%s'", src);
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, st.st_mode & 0666))
		goto fail;
	while (done < data.len) {
		ssize_t n = write(fd, data.buf + done, data.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		done += (size_t)n;
	}
	test_crash_point("publish");
	if (fsync(fd))
		goto fail;
	ret = close(fd);
	fd = -1;
	if (ret)
		goto fail;
	if (rename(tmp, dst)) {
		ret = spool_errno_exit(errno);
		error_errno("cannot rename '%s' to '%s'", tmp, dst);
		unlink(tmp);
	}
	goto out;
fail:
	ret = spool_errno_exit(errno);
	error_errno("cannot write '%s'", tmp);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	strbuf_release(&data);
	return ret;
}

int compose_publish(const struct composed *c)
{
	struct strbuf dst = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t i;
	int ret, fd;

	if (!c->archive_dir || !c->nmaterials)
		return 0;
	ret = make_path(c->archive_dir);
	if (!ret)
		ret = clean_stale(c->archive_dir);
	for (i = 0; i < c->nmaterials && !ret; i++) {
		strbuf_reset(&dst);
		strbuf_reset(&tmp);
		strbuf_addf(&dst, "%s/%s", c->archive_dir,
			    c->material_names[i]);
		strbuf_addf(&tmp, "%s/.%s.%ld.tmp", c->archive_dir,
			    c->material_names[i], (long)getpid());
		ret = publish_one(c->material_paths[i], tmp.buf, dst.buf);
	}
	/* the renames are durable before the message that links them */
	if (!ret) {
		fd = open(c->archive_dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (fsync(fd) && errno != EINVAL)) {
			ret = spool_errno_exit(errno);
			error_errno("cannot fsync '%s'", c->archive_dir);
		}
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&dst);
	strbuf_release(&tmp);
	return ret;
}

void compose_record(struct report_record *rec, const struct composed *c,
		    const struct request *req)
{
	memset(rec, 0, sizeof(*rec));
	rec->message_id = c->message_id;
	rec->commit = c->commit_id;
	rec->base = c->base_id;
	rec->kpi = req->test.kpi;
	rec->result_roots = req->test.result_roots.v;
	rec->nroots = req->test.result_roots.n;
	rec->commits = req->commits;
	rec->repo = req->repo;
	rec->tree = req->tree;
	rec->repo_url = req->repo_url;
	rec->branch = req->branch;
	rec->report = req->report;
}

/*
 * The materials are published before the message is queued: a queued
 * message whose download link leads nowhere could not be repaired, since
 * composing it again only answers "already queued".  Publishing is
 * idempotent (the same files, replaced whole), so a repeated compose of a
 * queued or sent report rewrites the same bytes; so is the record.  All
 * happens holding the spool's lock, so that two composes of one report
 * neither queue it twice nor remove each other's half-written materials.
 */
int compose_queue(const struct composed *c, const struct robot_config *cfg,
		  const struct report_record *rec, struct strbuf *said)
{
	struct strbuf name = STRBUF_INIT, first = STRBUF_INIT;
	enum spool_result res;
	struct spool s;
	int had_record, ret = spool_open(&s, cfg->spool, 1, cfg->file);

	if (ret)
		return ret;
	ret = spool_lock(&s);
	if (!ret)
		ret = compose_publish(c);
	spool_key_name(&name, c->key);
	had_record = rec && record_exists(&s, name.buf);
	if (!ret && rec)
		ret = record_write(&s, name.buf, rec);
	if (!ret)
		ret = spool_enqueue(&s, c->key, c->bytes.buf, c->bytes.len,
				    &res, &first);
	/* no record of a message that was never queued */
	if (ret && rec && !had_record)
		record_remove(&s, name.buf);
	spool_unlock(&s);
	spool_close(&s);
	if (!ret && res == SPOOL_QUEUED)
		strbuf_addstr(said, c->message_id);
	else if (!ret)
		strbuf_addf(said, "already %s: %s",
			    res == SPOOL_ALREADY_SENT ? "sent" : "queued",
			    first.buf);
	strbuf_release(&name);
	strbuf_release(&first);
	return ret;
}
