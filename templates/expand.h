/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expand.h: the template expander.  It fails closed.
 *
 * A template is text with placeholders `{name}`, where name is one or more
 * of [a-z0-9_.].  `{{` and `}}` stand for literal braces.  Each placeholder
 * is handed to a lookup callback, which appends the value.  An unknown
 * name, an unterminated `{`, a bad name, a stray `}` or a failed lookup is
 * a hard error naming the template's file and line.  A placeholder never
 * expands to an empty string by accident.
 */
#ifndef ROBOT_TEMPLATES_EXPAND_H
#define ROBOT_TEMPLATES_EXPAND_H

struct strbuf;

/*
 * Appends the value of placeholder `name` to `out`.  Returns 0 when it did,
 * 1 when the name is unknown (the expander reports it), or -1 after it
 * printed an error itself.
 */
typedef int (*tmpl_lookup_fn)(void *ctx, const char *name, struct strbuf *out);

/*
 * Expands `text` and appends the result to `out`.  `file` names the
 * template in error messages ("FILE:LINE: unknown placeholder '{foo}'").
 * Returns 0, or -1 after one error line; on error `out` is left as it was.
 */
int tmpl_expand(struct strbuf *out, const char *text, const char *file,
		tmpl_lookup_fn lookup, void *ctx);

#endif
