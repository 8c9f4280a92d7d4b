// SPDX-License-Identifier: GPL-2.0-only
/*
 * schema.c: a table-driven loader from robot's YAML tree into structs.
 * One walker serves the request, the configuration and their nested
 * lists, so every file gets the same strictness and the same wording of
 * errors.  Paths are resolved against the folder of the file that names
 * them, so a request can be moved together with its result roots.
 */
#include "robot/util/common.h"
#include "robot/util/utf8.h"
#include "config/schema.h"
#include "config/yaml.h"
#include "mail/valid.h"

static char *resolve_path(const char *file, const char *value)
{
	const char *slash = strrchr(file, '/');

	if (value[0] == '/' || !slash)
		return xstrdup(value);
	return xasprintf("%.*s/%s", (int)(slash - file), file, value);
}

struct loader {
	const char *path;
	struct strbuf where; /* the key path, for messages */
};

static int bad(struct loader *l, const struct ynode *n, const char *what)
{
	return error("%s:%zu: %s: %s", l->path, n->line, l->where.buf, what);
}

/* The one validator of each kind of string (see enum field_kind). */
static int check_value(enum field_kind kind, const char *s, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	/* free text may span lines; a path is never shown, what it names is */
	unsigned flags = kind == FIELD_TEXT ? UTF8_NEWLINES
			 : kind == FIELD_PATH || kind == FIELD_PATHS
				 ? UTF8_INVISIBLE
				 : 0;
	int ret = utf8_check_text(s, flags, &sb);

	if (ret) {
		strbuf_addf(why, "must be %s (%s)",
			    kind == FIELD_TEXT ? "visible UTF-8 text"
			    : flags ? "one line of valid UTF-8 without control "
				      "characters"
				    : "one line of visible UTF-8 text",
			    sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	strbuf_release(&sb);
	switch (kind) {
	case FIELD_MAILBOX:
	case FIELD_MAILBOXES:
		return valid_mailbox(s, why);
	case FIELD_MSGID:
		return valid_msgid(s, strlen(s), why);
	case FIELD_FILENAME:
		return valid_file_name(s, why);
	default:
		return 0;
	}
}

static int load_string(struct loader *l, char **dst, const struct ynode *n,
		       enum field_kind kind)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	if (n->type != YNODE_SCALAR)
		return bad(l, n, "must be a string");
	if (check_value(kind, n->str, &why)) {
		ret = bad(l, n, why.buf);
		strbuf_release(&why);
		return ret;
	}
	free(*dst);
	*dst = kind == FIELD_PATH || kind == FIELD_PATHS
		       ? resolve_path(l->path, n->str)
		       : xstrdup(n->str);
	return 0;
}

static int load_strings(struct loader *l, struct strv *dst,
			const struct ynode *n, enum field_kind kind)
{
	size_t i, len = l->where.len;

	if (n->type == YNODE_SCALAR) {
		dst->v = xcalloc(1, sizeof(char *));
		dst->n = 1;
		return load_string(l, &dst->v[0], n, kind);
	}
	if (n->type != YNODE_SEQ)
		return bad(l, n, "must be a list of strings");
	dst->v = xcalloc(n->n ? n->n : 1, sizeof(char *));
	for (i = 0; i < n->n; i++) {
		dst->n = i + 1;
		strbuf_addf(&l->where, "[%zu]", i);
		if (load_string(l, &dst->v[i], n->kids[i], kind))
			return -1;
		strbuf_setlen(&l->where, len);
	}
	return 0;
}

/*
 * The edit distance of a and b (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours count one), for
 * keys of at most 63 bytes; a longer one is far from every key.
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[64][64];

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * "unknown key", and the nearest key of the schema when one is close: at
 * most 2 edits, and fewer than half the key's length ("kpis": "kpi").
 */
static int unknown_key(struct loader *l, const struct ynode *n,
		       const struct schema *s, const char *key)
{
	const char *best = NULL;
	size_t j, dist, best_dist = (size_t)-1;
	char what[160];

	for (j = 0; j < s->nfields; j++) {
		dist = edit_distance(key, s->fields[j].key);
		if (dist < best_dist) {
			best_dist = dist;
			best = s->fields[j].key;
		}
	}
	if (best && best_dist <= 2 && 2 * best_dist < strlen(best)) {
		snprintf(what, sizeof(what), "unknown key (did you mean `%s`?)",
			 best);
		return bad(l, n, what);
	}
	return bad(l, n, "unknown key");
}

static int load_map(struct loader *l, void *obj, const struct schema *s,
		    const struct ynode *map);

static int load_objs(struct loader *l, struct objv *dst, const struct ynode *n,
		     const struct schema *sub)
{
	size_t i, len = l->where.len;

	if (n->type != YNODE_SEQ)
		return bad(l, n, "must be a list");
	dst->v = xcalloc(n->n ? n->n : 1, sub->size);
	for (i = 0; i < n->n; i++) {
		dst->n = i + 1;
		strbuf_addf(&l->where, "[%zu]", i);
		if (load_map(l, (char *)dst->v + i * sub->size, sub,
			     n->kids[i]))
			return -1;
		strbuf_setlen(&l->where, len);
	}
	return 0;
}

static int load_field(struct loader *l, void *obj, const struct field *f,
		      const struct ynode *n)
{
	void *dst = (char *)obj + f->offset;

	switch (f->kind) {
	case FIELD_STR:
	case FIELD_TEXT:
	case FIELD_PATH:
	case FIELD_MAILBOX:
	case FIELD_MSGID:
	case FIELD_FILENAME:
		return load_string(l, dst, n, f->kind);
	case FIELD_STRS:
	case FIELD_PATHS:
	case FIELD_MAILBOXES:
		return load_strings(l, dst, n, f->kind);
	case FIELD_OBJ:
		return load_map(l, dst, f->sub, n);
	case FIELD_OBJS:
		return load_objs(l, dst, n, f->sub);
	case FIELD_BOOL:
		if (n->type != YNODE_SCALAR || n->quoted ||
		    (strcmp(n->str, "true") && strcmp(n->str, "false")))
			return bad(l, n, "must be true or false");
		*(int *)dst = !strcmp(n->str, "true");
		return 0;
	case FIELD_COUNT:
		if (n->type != YNODE_SCALAR || n->quoted || !*n->str ||
		    strlen(n->str) > 10 ||
		    strspn(n->str, "0123456789") != strlen(n->str) ||
		    atol(n->str) > 1000000000L)
			return bad(l, n, "must be a count (0 to 1000000000)");
		*(long *)dst = atol(n->str);
		return 0;
	}
	BUG("unknown field kind %d", (int)f->kind);
}

static int load_map(struct loader *l, void *obj, const struct schema *s,
		    const struct ynode *map)
{
	size_t i, j, len = l->where.len;

	if (map->type != YNODE_MAP)
		return bad(l, map, "must be a mapping");
	for (i = 0; i < map->n; i++) {
		for (j = 0; j < s->nfields; j++)
			if (!strcmp(s->fields[j].key, map->keys[i]))
				break;
		if (len)
			strbuf_addch(&l->where, '.');
		strbuf_addstr(&l->where, map->keys[i]);
		if (j == s->nfields) {
			int ret = unknown_key(l, map->kids[i], s, map->keys[i]);

			strbuf_setlen(&l->where, len);
			return ret;
		}
		if (load_field(l, obj, &s->fields[j], map->kids[i]))
			return -1;
		strbuf_setlen(&l->where, len);
	}
	return 0;
}

int schema_load(void *obj, const struct schema *s, const struct ynode *map,
		const char *path)
{
	struct loader l = { .path = path, .where = STRBUF_INIT };
	int ret;

	if (!map)
		return error("%s: empty %s", path, s->name);
	if (map->type != YNODE_MAP)
		return error("%s:%zu: the %s must be a mapping", path,
			     map->line, s->name);
	ret = load_map(&l, obj, s, map);
	strbuf_release(&l.where);
	return ret;
}

int schema_load_file(void *obj, const struct schema *s, const char *path)
{
	struct ydoc doc = { 0 };
	int ret = ydoc_load_file(&doc, path);

	if (!ret)
		ret = schema_load(obj, s, doc.root, path);
	ydoc_release(&doc);
	return ret;
}

void schema_release(void *obj, const struct schema *s)
{
	size_t i, j;

	for (i = 0; i < s->nfields; i++) {
		const struct field *f = &s->fields[i];
		void *p = (char *)obj + f->offset;

		switch (f->kind) {
		case FIELD_STR:
		case FIELD_TEXT:
		case FIELD_PATH:
		case FIELD_MAILBOX:
		case FIELD_MSGID:
		case FIELD_FILENAME:
			free(*(char **)p);
			break;
		case FIELD_STRS:
		case FIELD_PATHS:
		case FIELD_MAILBOXES:
			for (j = 0; j < ((struct strv *)p)->n; j++)
				free(((struct strv *)p)->v[j]);
			free(((struct strv *)p)->v);
			break;
		case FIELD_OBJ:
			schema_release(p, f->sub);
			break;
		case FIELD_BOOL:
		case FIELD_COUNT:
			break;
		case FIELD_OBJS:
			for (j = 0; j < ((struct objv *)p)->n; j++)
				schema_release((char *)((struct objv *)p)->v +
						       j * f->sub->size,
					       f->sub);
			free(((struct objv *)p)->v);
			break;
		}
	}
	memset(obj, 0, s->size);
}
