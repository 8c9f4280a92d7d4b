// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract.c: a follow-up's patch and test request (extract.h).
 */
#include "robot/util/common.h"
#include "robot/util/dir.h"
#include "robot/incoming/extract.h"
#include "robot/incoming/followup.h"
#include "robot/incoming/guard.h"
#include "robot/incoming/patch.h"
#include "robot/delivery/record.h"
#include "config/config.h"
#include "config/request.h"
#include "config/yaml.h"
#include "mail/valid.h"

#include <fcntl.h>
#include <strings.h>
#include <unistd.h>

/*
 * The message of robot's the mail answers: In-Reply-To first, then the
 * References from the newest.  1 with its name, 0 none, or an exit code.
 */
static int answered(const struct followup *f, struct spool *s, char **name,
		    const char **id)
{
	size_t i;
	int ret;

	for (i = f->nrefs; i-- > 0;) {
		ret = record_find_message(s, f->refs[i], name, NULL);
		if (ret == 1)
			*id = f->refs[i];
		if (ret)
			return ret;
	}
	return 0;
}

static void key(struct strbuf *sb, const char *indent, const char *k,
		const char *v)
{
	if (!v)
		return;
	if (!strcmp(k, "-")) /* a list item */
		strbuf_addf(sb, "%s- ", indent);
	else
		strbuf_addf(sb, "%s%s: ", indent, k);
	yaml_quote(sb, v);
	strbuf_addch(sb, '\n');
}

static int write_file(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = 0;

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		ret = error_errno("cannot write '%s'", path);
	} else if (close(fd)) {
		fd = -1;
		ret = error_errno("cannot write '%s'", path);
	} else {
		fd = -1;
		if (rename(tmp, path))
			ret = error_errno("cannot write '%s'", path);
	}
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/* A path of the request, relative to DIR (where request_load reads it). */
static void path_key(struct strbuf *sb, const char *indent, const char *k,
		     const char *dir, const char *v)
{
	struct strbuf rel = STRBUF_INIT;

	if (!v)
		return;
	path_relative(&rel, dir, v);
	key(sb, indent, k, rel.buf);
	strbuf_release(&rel);
}

/* DIR/test-request.yaml */
static void test_request(struct strbuf *sb, const char *dir,
			 const struct followup *f, const struct request *rec,
			 const char *report, const struct patch_found *p)
{
	size_t i,
		n = rec->test.result_roots.n < 2 ? rec->test.result_roots.n : 2;

	strbuf_addstr(sb,
		      "# robot reply --extract-patch: the test the mail asks "
		      "for.  Build the\n"
		      "# commit with the patch applied (git am patch.mbox), "
		      "run the report's\n"
		      "# test on it, add its result root to result_roots, "
		      "then: robot reply\n"
		      "# --to THE-MAIL test-request.yaml\n");
	key(sb, "", "in_reply_to", f->message_id);
	key(sb, "", "report", rec->report ? rec->report : report);
	key(sb, "", "commit", rec->commit);
	key(sb, "", "base", rec->base);
	key(sb, "", "kpi", rec->test.kpi);
	if (n) {
		strbuf_addstr(sb, "result_roots:\n");
		for (i = 0; i < n; i++)
			path_key(sb, "", "-", dir, rec->test.result_roots.v[i]);
	}
	path_key(sb, "", "commits", dir, rec->commits);
	path_key(sb, "", "repo", dir, rec->repo);
	if (!p)
		return;
	strbuf_addstr(sb, "applied:\n");
	key(sb, "  ", "file", "patch.mbox");
	key(sb, "  ", "subject", p->subject);
	key(sb, "  ", "message_id", p->message_id);
	key(sb, "  ", "link", p->link);
	key(sb, "  ", "author", p->author);
}

/*
 * The folder's files: the patch (when there is one) and the test request.
 * Returns 0, or what write_file() or the folder's creation failed with.
 */
static int write_request(const char *dir, const struct followup *f,
			 const struct request *rec, const char *id,
			 const struct patch_found *p)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;
	int ret;

	if (mkdir_p(dir))
		return error_errno("cannot create '%s'", dir);
	if (p) {
		path = xasprintf("%s/patch.mbox", dir);
		ret = write_file(path, p->mbox.buf, p->mbox.len);
		free(path);
		if (ret)
			return ret;
	}
	test_request(&sb, dir, f, rec, id, p);
	path = xasprintf("%s/test-request.yaml", dir);
	ret = write_file(path, sb.buf, sb.len);
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* Whether a path of a patch may be written by `git am` in a tree. */
static const char *unsafe_path(const char *p, size_t len)
{
	size_t i = 0;

	if (len && p[0] == '/')
		return "an absolute path";
	while (i < len) {
		size_t e = i;

		while (e < len && p[e] != '/')
			e++;
		if (e - i == 2 && !memcmp(p + i, "..", 2))
			return "a path out of the tree (..)";
		if (e - i == 4 && !strncasecmp(p + i, ".git", 4))
			return "a path into .git";
		i = e + 1;
	}
	return NULL;
}

/*
 * A patch that would write outside the tree, into .git, or make a
 * symbolic link is refused: one error line naming the file in it.
 */
static int unsafe_patch(const struct followup *f, const struct strbuf *mbox)
{
	const char *line = mbox->buf, *next, *cur = "?";
	size_t curlen = 1;
	int in_hunk = 0;

	for (; *line; line = next) {
		size_t len = strcspn(line, "\n");
		const char *path = NULL, *what;
		size_t plen = 0;

		next = line + len + (line[len] == '\n');
		/* a hunk's lines are content ("--- x" is a removed "-- x") */
		if (!strncmp(line, "@@", 2))
			in_hunk = 1;
		else if (in_hunk && !(len && strchr(" +-\\", line[0])))
			in_hunk = 0;
		if (in_hunk)
			continue;
		if (len > 4 &&
		    (!strncmp(line, "--- ", 4) || !strncmp(line, "+++ ", 4))) {
			path = line + 4;
			plen = strcspn(path, "\t\n");
			if (plen == 9 && !memcmp(path, "/dev/null", 9))
				continue;
			if (plen > 2 && (path[0] == 'a' || path[0] == 'b') &&
			    path[1] == '/') {
				path += 2;
				plen -= 2;
			}
		} else if (len > 11 && !strncmp(line, "diff --git ", 11)) {
			const char *b = strstr(line, " b/");

			path = line + 11;
			plen = (b && b < line + len ? b : line + len) - path;
			if (plen > 2 && path[0] == 'a' && path[1] == '/') {
				path += 2;
				plen -= 2;
			}
			cur = path;
			curlen = plen;
		} else if (len > 10 && (!strncmp(line, "rename to ", 10) ||
					!strncmp(line, "copy to ", 8))) {
			path = line + (line[0] == 'r' ? 10 : 8);
			plen = line + len - path;
		} else if ((len >= 20 &&
			    !strncmp(line, "new file mode 120000", 20)) ||
			   (len >= 15 &&
			    !strncmp(line, "new mode 120000", 15))) {
			error("%s: the patch makes '%.*s' a symbolic link; robot "
			      "applies no such patch",
			      f->path, (int)(curlen < 200 ? curlen : 200), cur);
			return 1;
		}
		if (!path || !(what = unsafe_path(path, plen)))
			continue;
		error("%s: the patch touches '%.*s', %s; robot applies no such "
		      "patch",
		      f->path, (int)(plen < 200 ? plen : 200), path, what);
		return 1;
	}
	return 0;
}

int extract_mail(const struct followup *f, const struct robot_config *cfg,
		 struct spool *s, struct lore *lore, const char *dir,
		 int need_patch, enum extract_result *res, struct strbuf *why)
{
	struct patch_found p = { 0 };
	struct request rec;
	const char *id = NULL;
	char *name = NULL;
	int ret, found = 0;

	memset(&rec, 0, sizeof(rec));
	strbuf_init(&p.mbox, 0);
	/* the id the request names must be one robot reply takes */
	if (f->message_id) {
		struct strbuf sb = STRBUF_INIT;

		if (valid_msgid(f->message_id, strlen(f->message_id), &sb)) {
			error("%s: Message-ID: %s", f->path, sb.buf);
			strbuf_release(&sb);
			return EXIT_DATAERR;
		}
	}
	if (guard_check(f, cfg, NULL, s, why)) {
		*res = EXTRACT_IGNORED;
		return 0;
	}
	ret = answered(f, s, &name, &id);
	if (ret > 1)
		return ret;
	if (!ret) {
		strbuf_addstr(why, "it answers none of robot's messages (its "
				   "In-Reply-To and References are not in the "
				   "spool)");
		*res = EXTRACT_NO_REPORT;
		return 0;
	}
	ret = record_load(&rec, s, name);
	free(name);
	if (ret) {
		request_release(&rec);
		if (ret < 0)
			return EXIT_DATAERR;
		strbuf_addf(why,
			    "robot keeps no record of %s (queued as it "
			    "was?)",
			    id);
		*res = EXTRACT_NO_REPORT;
		return 0;
	}
	ret = patch_find(&p, f, lore);
	if (ret < 0) {
		ret = -ret;
		goto out;
	}
	found = ret;
	ret = 0;
	if (found && unsafe_patch(f, &p.mbox)) {
		ret = EXIT_DATAERR;
		goto out;
	}
	if (!found && need_patch) {
		strbuf_addstr(why, "it carries no patch");
		*res = EXTRACT_NO_PATCH;
		goto out;
	}
	ret = write_request(dir, f, &rec, id, found ? &p : NULL);
	if (ret)
		goto out;
	*res = EXTRACT_WRITTEN;
	if (found && p.subject)
		strbuf_addf(why, "%s patch \"%s\"", patch_how_name(p.how),
			    p.subject);
	else if (found)
		strbuf_addf(why, "%s patch (a diff without a subject)",
			    patch_how_name(p.how));
	else
		strbuf_addstr(why, "no patch: a retest");
out:
	if (ret < 0)
		ret = error_exit_code(EXIT_RUNTIME);
	patch_found_release(&p);
	request_release(&rec);
	return ret;
}
