// SPDX-License-Identifier: GPL-2.0-only
/*
 * attach.c: the request's attachments: MIME parts, or the materials
 * published behind a download link (build.h).
 */
#include "robot/util/common.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "config/request.h"
#include "mail/encode.h"
#include "mail/msg.h"
#include "mail/valid.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

const char *compose_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The name attachment i goes by, in `buf` when it is made: the request's,
 * or the kernel config's after the tested kernel's release ("config-6.3.0-
 * rc7-00002-g20f3337d350c"), or the file's own.  `key` gets the request's
 * key it comes from.  NULL after an error.
 */
static const char *attachment_name(const struct compose_ctx *c, size_t i,
				   const struct req_attachment *a,
				   const struct commit_info *tested,
				   struct strbuf *buf, const char **key)
{
	*key = "name";
	if (a->name)
		return a->name;
	if (a->kind) {
		if (!tested || !tested->release) {
			error("%s: attachments[%zu].kind: the tested commit "
			      "has no known release to name the config after",
			      c->req->file, i);
			return NULL;
		}
		strbuf_reset(buf);
		strbuf_addf(buf, "config-%s", tested->release);
		*key = "kind";
		return buf->buf;
	}
	*key = "path";
	return compose_base_name(a->path);
}

/*
 * The largest file a request attaches to a mail (its base64 must fit in
 * a message robot sends: SPOOL_MESSAGE_MAX); a larger one is published.
 */
#define ATTACH_MAX ((size_t)64 << 20)

static int readable(const char *path)
{
	int fd = open_regular(path, O_RDONLY);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* One attachment: checked, then a MIME part or a material to publish. */
static int attach_one(struct msg *m, const struct compose_ctx *c, size_t i,
		      const struct commit_info *tested, struct composed *out,
		      int publish)
{
	const struct req_attachment *a =
		(const struct req_attachment *)c->req->attachments.v + i;
	struct strbuf data = STRBUF_INIT, config_name = STRBUF_INIT,
		      why = STRBUF_INIT;
	const char *name, *key;
	struct stat st;
	int ret = -1;

	if (!a->path)
		return error("%s: attachments[%zu].path: missing", c->req->file,
			     i);
	if (a->kind && strcmp(a->kind, "config"))
		return error("%s: attachments[%zu].kind: unknown kind '%s' "
			     "(want config)",
			     c->req->file, i, a->kind);
	name = attachment_name(c, i, a, tested, &config_name, &key);
	if (!name)
		goto out;
	/*
	 * An attachment's name, and a published material's, which is a file
	 * in the report's folder: a base name of visible text.
	 */
	if (valid_file_name(name, &why))
		error("%s: attachments[%zu].%s: %s", c->req->file, i, key,
		      why.buf);
	/* a device or a FIFO would be read forever, or block cron */
	else if (!stat(a->path, &st) && !S_ISREG(st.st_mode))
		error("%s: attachments[%zu].path: '%s' is not a regular file",
		      c->req->file, i, a->path);
	/* what goes in the mail is read whole: at most ATTACH_MAX of it */
	else if (!publish && !stat(a->path, &st) &&
		 (size_t)st.st_size > ATTACH_MAX)
		error("%s: attachments[%zu].path: '%s' is %lld bytes, more "
		      "than %zu MiB, the largest file robot attaches to a mail",
		      c->req->file, i, a->path, (long long)st.st_size,
		      ATTACH_MAX >> 20);
	/* a material to publish is copied later: only opened here */
	else if (publish ? !readable(a->path)
			 : strbuf_read_file(&data, a->path) != 0)
		error_errno("%s: attachments[%zu].path: cannot read '%s'",
			    c->req->file, i, a->path);
	else if (publish) {
		out->material_names[out->nmaterials] = xstrdup(name);
		out->material_paths[out->nmaterials++] = xstrdup(a->path);
		ret = 0;
	} else {
		/* text as text/plain, other bytes as they are */
		int binary =
			mime_charset_of(data.buf, data.len) == MIME_CS_BINARY;

		ret = msg_add_part(m, name,
				   binary ? "application/octet-stream"
					  : "text/plain",
				   data.buf, data.len);
	}
out:
	strbuf_release(&data);
	strbuf_release(&config_name);
	strbuf_release(&why);
	return ret;
}

/*
 * The attachments: MIME parts, or, for styles that publish the materials
 * behind a download link, files for compose_publish().
 */
int compose_add_attachments(struct msg *m, const struct compose_ctx *c,
			    const struct commit_info *tested,
			    struct composed *out, int publish)
{
	const struct objv *atts = &c->req->attachments;
	size_t i;
	int ret = 0;

	out->material_names = xcalloc(atts->n + 1, sizeof(char *));
	out->material_paths = xcalloc(atts->n + 1, sizeof(char *));
	for (i = 0; i < atts->n && !ret; i++)
		ret = attach_one(m, c, i, tested, out, publish);
	return ret;
}
