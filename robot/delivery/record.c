// SPDX-License-Identifier: GPL-2.0-only
/*
 * record.c: the records of queued reports (record.h).
 */
#include "robot/util/common.h"
#include "robot/delivery/record.h"
#include "robot/delivery/msgindex.h"
#include "config/request.h"
#include "config/yaml.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The first state folder, in spool_list()'s order, that holds a message
 * `msgid`: 1 with its name (the index's) and state, else 0; with
 * `errors`, the exit code of a folder before it that cannot be read, as
 * listing each folder in turn would.
 */
static int find(struct spool *s, const char *msgid, int errors,
		const char **found, enum spool_state *st)
{
	enum spool_state i;
	int ret;

	for (i = 0; i < SPOOL_NSTATES; i++) {
		if (errors && (ret = msgindex_error(s, i)))
			return ret;
		*found = msgindex_get(s, i, msgid);
		if (*found) {
			*st = i;
			return 1;
		}
	}
	return 0;
}

int record_find_message(struct spool *s, const char *msgid, char **name,
			enum spool_state *st)
{
	enum spool_state at = SPOOL_NEW;
	const char *found;
	int ret;

	msgindex_update(s);
	ret = find(s, msgid, 1, &found, &at);
	if (ret == 1 && name)
		*name = xstrdup(found);
	if (ret == 1 && st)
		*st = at;
	return ret;
}

int record_find_newest(struct spool *s, char *const *ids, size_t n, char **name,
		       const char **id)
{
	enum spool_state i;
	const char *found;
	size_t k;
	int ret;

	/* one look at the spool, whatever n is: every state readable */
	msgindex_update(s);
	for (i = 0; i < SPOOL_NSTATES; i++)
		if ((ret = msgindex_error(s, i)))
			return ret;
	for (k = n; k-- > 0;)
		if (find(s, ids[k], 0, &found, &i)) {
			*name = xstrdup(found);
			*id = ids[k];
			return 1;
		}
	return 0;
}

static char *absolute(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

static void key(struct strbuf *sb, const char *k, const char *v, int path)
{
	char *abs;

	if (!v)
		return;
	strbuf_addf(sb, "%s: ", k);
	if (path) {
		abs = absolute(v);
		yaml_quote(sb, abs);
		free(abs);
	} else {
		yaml_quote(sb, v);
	}
	strbuf_addch(sb, '\n');
}

static char *record_path(const struct spool *s, const char *name,
			 const char *ext)
{
	return xasprintf("%s/reports%s%s%s", s->dir, name ? "/" : "",
			 name ? name : "", ext ? ext : "");
}

int record_exists(struct spool *s, const char *name)
{
	char *p = record_path(s, name, ".yaml");
	int ret = !access(p, F_OK);

	free(p);
	return ret;
}

void record_remove(struct spool *s, const char *name)
{
	char *p = record_path(s, name, ".yaml");

	unlink(p);
	free(p);
}

int record_write(struct spool *s, const char *name,
		 const struct report_record *r)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = record_path(s, NULL, NULL), *dst, *tmp;
	size_t i;
	int fd, ret = 0;

	if (!s->locked)
		BUG("record_write without the lock");
	strbuf_addstr(&sb, "# robot: the record of a queued message "
			   "(robot reply reads it)\n");
	key(&sb, "message_id", r->message_id, 0);
	key(&sb, "commit", r->commit, 0);
	key(&sb, "base", r->base, 0);
	key(&sb, "kpi", r->kpi, 0);
	if (r->nroots) {
		strbuf_addstr(&sb, "result_roots:\n");
		for (i = 0; i < r->nroots; i++) {
			char *abs = absolute(r->result_roots[i]);

			strbuf_addstr(&sb, "- ");
			yaml_quote(&sb, abs);
			strbuf_addch(&sb, '\n');
			free(abs);
		}
	}
	key(&sb, "commits", r->commits, 1);
	key(&sb, "repo", r->repo, 1);
	key(&sb, "tree", r->tree, 0);
	key(&sb, "repo_url", r->repo_url, 0);
	key(&sb, "branch", r->branch, 0);
	key(&sb, "report", r->report, 0);
	key(&sb, "in_reply_to", r->in_reply_to, 0);
	if (mkdir_private(dir) && errno != EEXIST) {
		ret = spool_errno_exit(errno);
		error_errno("cannot create '%s'", dir);
		free(dir);
		strbuf_release(&sb);
		return ret;
	}
	dst = record_path(s, name, ".yaml");
	tmp = xasprintf("%s/tmp/%s.record.%ld", s->dir, name, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && fchmod(fd, 0600)) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 &&
	    (write(fd, sb.buf, sb.len) != (ssize_t)sb.len || fsync(fd))) {
		int e = errno;

		close(fd);
		errno = e;
		fd = -1;
	} else if (fd >= 0 && close(fd)) {
		fd = -1;
	} else if (fd >= 0 && rename(tmp, dst)) {
		fd = -1;
	}
	if (fd < 0) {
		ret = spool_errno_exit(errno);
		error_errno("cannot write '%s'", dst);
		unlink(tmp);
	}
	free(dir);
	free(dst);
	free(tmp);
	strbuf_release(&sb);
	return ret;
}

int record_load(struct request *req, struct spool *s, const char *name)
{
	char *path = record_path(s, name, ".yaml");
	struct stat st;
	int ret;

	memset(req, 0, sizeof(*req));
	if (stat(path, &st)) {
		free(path);
		return 1;
	}
	ret = request_load(req, path);
	free(path);
	return ret ? -1 : 0;
}
