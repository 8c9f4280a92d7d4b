// SPDX-License-Identifier: GPL-2.0-only
/*
 * attach.c: the request's attachments: MIME parts, or the materials
 * published behind a download link (build.h).
 */
#include "robot/util/common.h"
#include "robot/report/build.h"
#include "robot/report/compose.h"
#include "config/request.h"
#include "mail/msg.h"
#include "mail/valid.h"

#include <sys/stat.h>

const char *compose_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
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
	struct strbuf data = STRBUF_INIT, config_name = STRBUF_INIT,
		      why = STRBUF_INIT;
	struct stat st;
	size_t i;
	int ret = 0;

	out->material_names = xcalloc(atts->n + 1, sizeof(char *));
	out->material_paths = xcalloc(atts->n + 1, sizeof(char *));
	for (i = 0; i < atts->n && !ret; i++) {
		const struct req_attachment *a =
			(const struct req_attachment *)atts->v + i;
		const char *name = a->name ? a->name : NULL;
		const char *key = "name";

		if (!a->path) {
			ret = error("%s: attachments[%zu].path: missing",
				    c->req->file, i);
			break;
		}
		if (a->kind && strcmp(a->kind, "config")) {
			ret = error("%s: attachments[%zu].kind: unknown kind "
				    "'%s' (want config)",
				    c->req->file, i, a->kind);
			break;
		}
		/*
		 * The kernel config is named after the tested kernel's
		 * release, "config-6.3.0-rc7-00002-g20f3337d350c".
		 */
		if (!name && a->kind) {
			if (!tested || !tested->release) {
				ret = error(
					"%s: attachments[%zu].kind: the "
					"tested commit has no known release "
					"to name the config after",
					c->req->file, i);
				break;
			}
			strbuf_reset(&config_name);
			strbuf_addf(&config_name, "config-%s", tested->release);
			name = config_name.buf;
			key = "kind";
		}
		if (!name) {
			name = compose_base_name(a->path);
			key = "path";
		}
		/*
		 * An attachment's name, and a published material's, which is
		 * a file in the report's folder: a base name of visible text.
		 */
		strbuf_reset(&why);
		if (valid_file_name(name, &why)) {
			ret = error("%s: attachments[%zu].%s: %s", c->req->file,
				    i, key, why.buf);
			break;
		}
		strbuf_reset(&data);
		/* a device or a FIFO would be read forever, or block cron */
		if (!stat(a->path, &st) && !S_ISREG(st.st_mode)) {
			ret = error("%s: attachments[%zu].path: '%s' is not a "
				    "regular file",
				    c->req->file, i, a->path);
		} else if (strbuf_read_file(&data, a->path)) {
			ret = error_errno("%s: attachments[%zu].path: cannot "
					  "read '%s'",
					  c->req->file, i, a->path);
		} else if (publish) {
			out->material_names[out->nmaterials] = xstrdup(name);
			out->material_paths[out->nmaterials++] =
				xstrdup(a->path);
		} else {
			ret = msg_add_part(m, name, "text/plain", data.buf,
					   data.len);
		}
	}
	strbuf_release(&data);
	strbuf_release(&config_name);
	strbuf_release(&why);
	return ret;
}
