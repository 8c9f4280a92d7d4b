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

int extract_mail(const struct followup *f, const struct robot_config *cfg,
		 struct spool *s, struct lore *lore, const char *dir,
		 int need_patch, enum extract_result *res, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	struct patch_found p = { 0 };
	struct request rec;
	const char *id = NULL;
	char *name = NULL, *path;
	int ret, found = 0;

	memset(&rec, 0, sizeof(rec));
	strbuf_init(&p.mbox, 0);
	/* the id the request names must be one robot reply takes */
	if (f->message_id &&
	    valid_msgid(f->message_id, strlen(f->message_id), &sb)) {
		error("%s: Message-ID: %s", f->path, sb.buf);
		strbuf_release(&sb);
		return EXIT_DATAERR;
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
	if (!found && need_patch) {
		strbuf_addstr(why, "it carries no patch");
		*res = EXTRACT_NO_PATCH;
		goto out;
	}
	if (mkdir_p(dir)) {
		ret = error_errno("cannot create '%s'", dir);
		goto out;
	}
	if (found) {
		path = xasprintf("%s/patch.mbox", dir);
		ret = write_file(path, p.mbox.buf, p.mbox.len);
		free(path);
		if (ret)
			goto out;
	}
	test_request(&sb, dir, f, &rec, id, found ? &p : NULL);
	path = xasprintf("%s/test-request.yaml", dir);
	ret = write_file(path, sb.buf, sb.len);
	free(path);
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
	strbuf_release(&sb);
	return ret;
}
