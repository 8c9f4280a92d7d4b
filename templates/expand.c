// SPDX-License-Identifier: GPL-2.0-only
/*
 * expand.c: `{name}` placeholders, expanded through a callback.
 *
 * The text is copied in runs up to the next brace or newline (newlines
 * only to count lines for messages).  A brace is either doubled (a
 * literal brace) or opens a placeholder that must close on the same line.
 * Every failure prints one `robot: error: FILE:LINE: ...` line and undoes
 * what this call appended, so a caller never sees half a rendering.
 *
 * Rejected alternatives: printf-style `%x` codes (cryptic in templates
 * that are mostly prose) and leaving unknown placeholders in the output
 * (a report with a literal `{tree}` in it would go out to a mailing list).
 * This is the shape of redis' sdstemplate() and git's strbuf_expand().
 */
#include "robot/util/common.h"
#include "templates/expand.h"

static int valid_name(const char *name, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_.", name[i]))
			return 0;
	return 1;
}

/*
 * Expands the placeholder at *pp (which points at its '{') and advances
 * *pp past its '}'.
 */
static int expand_one(struct strbuf *out, const char **pp, const char *file,
		      int line, tmpl_lookup_fn lookup, void *ctx)
{
	const char *name = *pp + 1;
	size_t len = strcspn(name, "}\n");
	char *copy;
	int ret;

	if (name[len] != '}')
		return error("%s:%d: unterminated placeholder '{%.*s'", file,
			     line, (int)len, name);
	if (!valid_name(name, len))
		return error("%s:%d: bad placeholder name '{%.*s}'", file, line,
			     (int)len, name);
	copy = xstrndup(name, len);
	ret = lookup(ctx, copy, out);
	if (ret > 0)
		ret = error("%s:%d: unknown placeholder '{%s}'", file, line,
			    copy);
	free(copy);
	*pp = name + len + 1;
	return ret < 0 ? -1 : 0;
}

int tmpl_expand(struct strbuf *out, const char *text, const char *file,
		tmpl_lookup_fn lookup, void *ctx)
{
	size_t orig = out->len;
	const char *p = text;
	int line = 1;

	while (*p) {
		size_t n = strcspn(p, "{}\n");

		strbuf_add(out, p, n);
		p += n;
		if (*p == '\n') {
			strbuf_addch(out, *p++);
			line++;
		} else if (*p && p[1] == *p) {
			strbuf_addch(out, *p);
			p += 2;
		} else if (*p == '}') {
			error("%s:%d: stray '}' (write '}}' for a brace)", file,
			      line);
			goto fail;
		} else if (*p && expand_one(out, &p, file, line, lookup, ctx)) {
			goto fail;
		}
	}
	return 0;
fail:
	strbuf_setlen(out, orig);
	return -1;
}
