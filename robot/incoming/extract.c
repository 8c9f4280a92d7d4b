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
	return record_find_newest(s, f->refs, f->nrefs, name, id);
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
	if (memchr(p, '\0', len))
		return "a name with a NUL byte";
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

/* One C escape of git's quoted names at p[i] (after the '\'). */
static size_t unescape(struct strbuf *out, const char *p, size_t i, size_t len)
{
	static const char from[] = "abfnrtv", to[] = "\a\b\f\n\r\t\v";
	const char *c;
	int v = 0, k;

	if (p[i] >= '0' && p[i] <= '7') {
		for (k = 0; k < 3 && i < len && p[i] >= '0' && p[i] <= '7';
		     k++, i++)
			v = v * 8 + (p[i] - '0');
		strbuf_addch(out, v & 0xff);
		return i;
	}
	c = strchr(from, p[i]);
	strbuf_addch(out, c && *c ? to[c - from] : p[i]);
	return i + 1;
}

/*
 * The path at p[0..len) as git apply reads it, into out: a name git
 * quoted ("a/\056\056/x", for bytes it does not write plainly) unquoted
 * up to its closing quote, and its a/ or b/ taken off.
 */
static void diff_path(struct strbuf *out, const char *p, size_t len)
{
	size_t i = 1;

	strbuf_reset(out);
	if (!len || p[0] != '"') {
		strbuf_add(out, p, len);
	} else {
		while (i < len && p[i] != '"') {
			if (p[i] == '\\' && i + 1 < len)
				i = unescape(out, p, i + 1, len);
			else
				strbuf_addch(out, p[i++]);
		}
	}
	if (out->len > 2 && (out->buf[0] == 'a' || out->buf[0] == 'b') &&
	    out->buf[1] == '/') {
		memmove(out->buf, out->buf + 2, out->len - 2);
		strbuf_setlen(out, out->len - 2);
	}
}

/*
 * "diff --git A B": A and B are not told apart by their text when a name
 * holds " b/", so every B that may start after a blank is checked, and A
 * up to the first of them.  The unsafe name into `path`, or NULL.
 */
static const char *git_line_unsafe(const char *rest, size_t len,
				   struct strbuf *path)
{
	const char *what;
	size_t i, a_end = len;

	for (i = 0; i + 1 < len; i++) {
		if (rest[i] != ' ' ||
		    (rest[i + 1] != '"' && strncmp(rest + i + 1, "b/", 2)))
			continue;
		if (a_end == len)
			a_end = i;
		diff_path(path, rest + i + 1, len - i - 1);
		if ((what = unsafe_path(path->buf, path->len)))
			return what;
	}
	diff_path(path, rest, a_end);
	return unsafe_path(path->buf, path->len);
}

/* The file names a line of a diff header gives, checked: why not, or NULL. */
static const char *header_unsafe(const char *line, size_t len,
				 struct strbuf *path)
{
	static const char *const named[] = {
		"--- ",	       "+++ ",	      "rename from ", "rename to ",
		"rename old ", "rename new ", "copy from ",   "copy to ",
	};
	size_t i, n;

	if (len > 11 && !strncmp(line, "diff --git ", 11))
		return git_line_unsafe(line + 11, len - 11, path);
	for (i = 0; i < ARRAY_SIZE(named); i++) {
		n = strlen(named[i]);
		if (len <= n || strncmp(line, named[i], n))
			continue;
		line += n;
		len -= n;
		/* "--- a/x\t2023-09-25 ...": the name ends at a tab */
		if (i < 2 && line[0] != '"' && memchr(line, '\t', len))
			len = (const char *)memchr(line, '\t', len) - line;
		if (len == 9 && !memcmp(line, "/dev/null", 9))
			return NULL;
		diff_path(path, line, len);
		return unsafe_path(path->buf, path->len);
	}
	return NULL;
}

/* A line that makes a file a symbolic link (mode 120000). */
static int makes_link(const char *line, size_t len)
{
	return (len >= 20 && !strncmp(line, "new file mode 120000", 20)) ||
	       (len >= 15 && !strncmp(line, "new mode 120000", 15));
}

/*
 * A patch that would write outside the tree, into .git, or make a
 * symbolic link is refused: one error line naming the file in it.  Names
 * are read as git apply reads them: quoted ones unquoted, both of a
 * "diff --git" line, where a rename or a copy comes from as well as where
 * it goes.
 */
static int unsafe_patch(const struct followup *f, const struct strbuf *mbox)
{
	struct strbuf path = STRBUF_INIT, cur = STRBUF_INIT;
	const char *line = mbox->buf, *next, *what = NULL;
	int in_hunk = 0;

	for (; *line && !what; line = next) {
		size_t len = strcspn(line, "\n");

		next = line + len + (line[len] == '\n');
		/* a hunk's lines are content ("--- x" is a removed "-- x") */
		if (!strncmp(line, "@@", 2))
			in_hunk = 1;
		else if (in_hunk && !(len && strchr(" +-\\", line[0])))
			in_hunk = 0;
		if (in_hunk)
			continue;
		if (len > 11 && !strncmp(line, "diff --git ", 11)) {
			/* the file a mode line is about: A, up to " b/" */
			const char *b = memmem(line, len, " b/", 3);

			diff_path(&cur, line + 11,
				  (b ? b : line + len) - line - 11);
		}
		if (makes_link(line, len)) {
			error("%s: the patch makes '%.200s' a symbolic link; "
			      "robot applies no such patch",
			      f->path, cur.len ? cur.buf : "?");
			what = "link";
		} else if ((what = header_unsafe(line, len, &path))) {
			error("%s: the patch touches '%.200s', %s; robot "
			      "applies no such patch",
			      f->path, path.buf, what);
		}
	}
	strbuf_release(&path);
	strbuf_release(&cur);
	return what != NULL;
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
