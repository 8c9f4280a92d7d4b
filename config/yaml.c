// SPDX-License-Identifier: GPL-2.0-only
/*
 * yaml.c: the one file that talks to libyaml.
 *
 * The tree is built from libyaml's event stream rather than its document
 * API, because only the events still show what robot refuses: anchors and
 * aliases (the document API silently shares the aliased node, which also
 * invites "billion laughs" inputs), the "<<" merge key, duplicate keys and
 * non-scalar keys.  Each refusal fails closed with one
 * "PATH:LINE:COL: problem" line.
 *
 * The builder keeps an explicit stack of open collections, so nesting is
 * bounded by YAML_MAX_DEPTH instead of the C stack.  A node is attached to
 * its parent as soon as it starts, so on any error freeing the root frees
 * everything built so far.  Duplicate keys are found with a small hash set
 * per open mapping, which keeps large mappings linear.
 */
#include "robot/util/common.h"
#include "config/yaml.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define YAML_MAX_DEPTH 256

/* The indices of a mapping's keys, hashed by key text (open addressing). */
struct keyset {
	size_t *slot; /* index + 1; 0 marks an empty slot */
	size_t size;  /* a power of two, or 0 */
};

struct frame {
	struct ynode *node; /* the open SEQ or MAP */
	size_t alloc;	    /* capacity of node->kids (and node->keys) */
	char *key;	    /* MAP: a key still waiting for its value */
	struct keyset keys; /* MAP: for duplicate detection */
};

struct builder {
	const char *name;
	struct frame *stack;
	size_t nr, alloc;
	struct ynode *root;
	size_t nodes; /* scalars, keys and collections so far */
};

/* Counts one node more; refuses the one over YAML_MAX_NODES. */
static int count_node(struct builder *b, const yaml_event_t *ev);

static void ynode_free(struct ynode *n)
{
	size_t i;

	if (!n)
		return;
	free(n->str);
	for (i = 0; i < n->n; i++) {
		if (n->keys)
			free(n->keys[i]);
		ynode_free(n->kids[i]);
	}
	free(n->keys);
	free(n->kids);
	free(n);
}

static size_t hash_str(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Returns the slot where `key` is, or the empty slot where it would go. */
static size_t *keyset_find(const struct keyset *set, char *const *keys,
			   const char *key)
{
	size_t mask = set->size - 1;
	size_t i = hash_str(key) & mask;

	while (set->slot[i] && strcmp(keys[set->slot[i] - 1], key))
		i = (i + 1) & mask;
	return &set->slot[i];
}

static void keyset_grow(struct keyset *set, char *const *keys)
{
	struct keyset bigger;
	size_t i;

	bigger.size = set->size ? set->size * 2 : 16;
	bigger.slot = xcalloc(bigger.size, sizeof(*bigger.slot));
	for (i = 0; i < set->size; i++)
		if (set->slot[i])
			*keyset_find(&bigger, keys, keys[set->slot[i] - 1]) =
				set->slot[i];
	free(set->slot);
	*set = bigger;
}

ROBOT_PRINTF(3, 4)
static int mark_error(const struct builder *b, const yaml_mark_t *mark,
		      const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s:%zu:%zu: ", b->name, mark->line + 1,
		    mark->column + 1);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

static struct ynode *new_node(enum ynode_type type, const yaml_event_t *ev)
{
	struct ynode *n = xcalloc(1, sizeof(*n));

	n->type = type;
	n->line = ev->start_mark.line + 1;
	return n;
}

/* Hands `n` to the open collection (or makes it the root). */
static void attach(struct builder *b, struct ynode *n)
{
	struct frame *f;
	struct ynode *parent;

	if (!b->nr) {
		b->root = n;
		return;
	}
	f = &b->stack[b->nr - 1];
	parent = f->node;
	if (parent->n == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 4;
		parent->kids = xreallocarray(parent->kids, f->alloc,
					     sizeof(*parent->kids));
		if (parent->type == YNODE_MAP)
			parent->keys = xreallocarray(parent->keys, f->alloc,
						     sizeof(*parent->keys));
	}
	if (parent->type == YNODE_MAP) {
		parent->keys[parent->n] = f->key;
		f->key = NULL;
	}
	parent->kids[parent->n++] = n;
}

/* Is the open collection a mapping that expects a key next? */
static int wants_key(const struct builder *b)
{
	const struct frame *f;

	if (!b->nr)
		return 0;
	f = &b->stack[b->nr - 1];
	return f->node->type == YNODE_MAP && !f->key;
}

static int take_key(struct builder *b, const yaml_event_t *ev)
{
	struct frame *f = &b->stack[b->nr - 1];
	const char *text = (const char *)ev->data.scalar.value;
	struct ynode *map = f->node;
	size_t *slot;

	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    !strcmp(text, "<<"))
		return mark_error(b, &ev->start_mark,
				  "merge keys ('%s') are not supported", text);
	/* keep the load factor at or below 1/2 */
	if ((map->n + 1) * 2 > f->keys.size)
		keyset_grow(&f->keys, map->keys);
	slot = keyset_find(&f->keys, map->keys, text);
	if (*slot)
		return mark_error(b, &ev->start_mark, "duplicate key '%s'",
				  text);
	/*
	 * The slot refers to index map->n, which attach() fills with this
	 * key; until then keyset_find() must not look at it, and it does not,
	 * because the next lookup happens only after that attach().
	 */
	*slot = map->n + 1;
	f->key = xstrdup(text);
	return 0;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	struct ynode *n;

	if (ev->data.scalar.anchor)
		return mark_error(b, &ev->start_mark,
				  "anchors are not supported (&%s)",
				  (const char *)ev->data.scalar.anchor);
	if (memchr(text, '\0', len))
		return mark_error(b, &ev->start_mark,
				  "NUL characters are not supported");
	if (count_node(b, ev))
		return -1;
	if (wants_key(b))
		return take_key(b, ev);
	n = new_node(YNODE_SCALAR, ev);
	n->str = xstrndup(text, len);
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	attach(b, n);
	return 0;
}

static int on_start(struct builder *b, const yaml_event_t *ev,
		    enum ynode_type type)
{
	const yaml_char_t *anchor = type == YNODE_MAP
					    ? ev->data.mapping_start.anchor
					    : ev->data.sequence_start.anchor;
	struct ynode *n;
	struct frame *f;

	if (anchor)
		return mark_error(b, &ev->start_mark,
				  "anchors are not supported (&%s)",
				  (const char *)anchor);
	if (wants_key(b))
		return mark_error(b, &ev->start_mark,
				  "mapping keys must be scalars");
	if (b->nr >= YAML_MAX_DEPTH)
		return mark_error(b, &ev->start_mark,
				  "nesting deeper than %d levels",
				  YAML_MAX_DEPTH);
	if (count_node(b, ev))
		return -1;
	n = new_node(type, ev);
	attach(b, n);
	ALLOC_GROW(b->stack, b->nr + 1, b->alloc);
	f = &b->stack[b->nr++];
	memset(f, 0, sizeof(*f));
	f->node = n;
	return 0;
}

static int count_node(struct builder *b, const yaml_event_t *ev)
{
	if (++b->nodes <= YAML_MAX_NODES)
		return 0;
	return mark_error(b, &ev->start_mark,
			  "more than %d YAML nodes (robot's memory limit for "
			  "one YAML file)",
			  YAML_MAX_NODES);
}

static void pop(struct builder *b)
{
	struct frame *f = &b->stack[--b->nr];

	free(f->key);
	free(f->keys.slot);
}

static void report_parser(const struct builder *b, const yaml_parser_t *p)
{
	switch (p->error) {
	case YAML_MEMORY_ERROR:
		error("%s: out of memory while parsing YAML", b->name);
		break;
	case YAML_READER_ERROR:
		error("%s: byte %zu: %s", b->name, p->problem_offset,
		      p->problem ? p->problem : "cannot read");
		break;
	default:
		error("%s:%zu:%zu: %s%s%s", b->name, p->problem_mark.line + 1,
		      p->problem_mark.column + 1,
		      p->problem ? p->problem : "invalid YAML",
		      p->context ? " " : "", p->context ? p->context : "");
		break;
	}
}

/* Feeds one event to the builder; returns 1 when the document is done. */
static int on_event(struct builder *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_start(b, ev, YNODE_SEQ);
	case YAML_MAPPING_START_EVENT:
		return on_start(b, ev, YNODE_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		pop(b);
		return 0;
	case YAML_ALIAS_EVENT:
		return mark_error(b, &ev->start_mark,
				  "aliases are not supported (*%s)",
				  (const char *)ev->data.alias.anchor);
	case YAML_DOCUMENT_END_EVENT:
	case YAML_STREAM_END_EVENT:
		return 1;
	default:
		return 0;
	}
}

int ydoc_load_mem(struct ydoc *doc, const char *name, const char *buf,
		  size_t len)
{
	struct builder b = { 0 };
	yaml_parser_t parser;
	yaml_event_t ev;
	int ret = 0;

	doc->path = NULL;
	doc->root = NULL;
	b.name = name;
	if (len > YAML_MAX_BYTES)
		return error("%s: %zu bytes, more than %d MiB (robot's memory "
			     "limit for one YAML file)",
			     name, len, YAML_MAX_BYTES >> 20);
	if (!yaml_parser_initialize(&parser))
		return error("%s: out of memory while parsing YAML", name);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!ret) {
		if (!yaml_parser_parse(&parser, &ev)) {
			report_parser(&b, &parser);
			ret = -1;
			break;
		}
		ret = on_event(&b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	while (b.nr)
		pop(&b);
	free(b.stack);
	if (ret < 0) {
		ynode_free(b.root);
		return -1;
	}
	doc->path = xstrdup(name);
	doc->root = b.root;
	return 0;
}

int ydoc_load_file(struct ydoc *doc, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret;

	doc->path = NULL;
	doc->root = NULL;
	/* the limit comes before any byte is read */
	ret = strbuf_read_file_max(&sb, path, YAML_MAX_BYTES);
	if (ret < 0)
		return error_errno("cannot read '%s'", path);
	if (ret > 0)
		return error("%s: %lld bytes, more than %d MiB (robot's memory "
			     "limit for one YAML file)",
			     path,
			     stat(path, &st) ? (long long)YAML_MAX_BYTES + 1
					     : (long long)st.st_size,
			     YAML_MAX_BYTES >> 20);
	ret = ydoc_load_mem(doc, path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/* ydoc_peek_file()'s walk of the events (the caller deletes `ev`):
 * 1 when done, with *found set when `key` had a scalar value. */
struct peek {
	const char *key;
	size_t depth;	/* open collections; 1: in the root mapping */
	int want_value; /* 1: after a key, 2: after the wanted key */
	char *found;
};

static int peek_event(struct peek *pk, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		if (!pk->depth && ev->type != YAML_MAPPING_START_EVENT)
			return 1; /* the root is no mapping */
		if (pk->depth == 1 && !pk->want_value)
			return 1; /* a key that is no scalar */
		if (pk->depth == 1 && pk->want_value == 2)
			return 1; /* the key's value is no scalar */
		pk->depth++;
		return 0;
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		if (--pk->depth == 1)
			pk->want_value = 0;
		return !pk->depth;
	case YAML_SCALAR_EVENT:
		if (pk->depth != 1)
			return !pk->depth; /* the root is a scalar */
		if (!pk->want_value) {
			pk->want_value =
				strcmp((const char *)ev->data.scalar.value,
				       pk->key)
					? 1
					: 2;
			return 0;
		}
		if (pk->want_value == 2 && !ev->data.scalar.anchor &&
		    !memchr(ev->data.scalar.value, '\0',
			    ev->data.scalar.length))
			pk->found =
				xstrdup((const char *)ev->data.scalar.value);
		pk->want_value = 0;
		return pk->found != NULL;
	case YAML_ALIAS_EVENT:
	case YAML_DOCUMENT_END_EVENT:
	case YAML_STREAM_END_EVENT:
		return 1;
	default:
		return 0;
	}
}

char *ydoc_peek_file(const char *path, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct peek pk = { key, 0, 0, NULL };
	yaml_parser_t parser;
	yaml_event_t ev;
	int done = 0;

	if (strbuf_read_file_max(&sb, path, YAML_MAX_BYTES)) {
		strbuf_release(&sb);
		return NULL;
	}
	if (!yaml_parser_initialize(&parser)) {
		strbuf_release(&sb);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)sb.buf,
				     sb.len);
	while (!done && yaml_parser_parse(&parser, &ev)) {
		done = peek_event(&pk, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	strbuf_release(&sb);
	return pk.found;
}

void ydoc_release(struct ydoc *doc)
{
	ynode_free(doc->root);
	free(doc->path);
	doc->root = NULL;
	doc->path = NULL;
}

const struct ynode *ynode_get(const struct ynode *map, const char *key)
{
	size_t i;

	if (!map || map->type != YNODE_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return map->kids[i];
	return NULL;
}

void yaml_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			strbuf_addf(out, "\\%c", c);
		else if (c == '\n')
			strbuf_addstr(out, "\\n");
		else if (c == '\t')
			strbuf_addstr(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(out, "\\u%04x", c);
		else
			strbuf_addch(out, c);
	}
	strbuf_addch(out, '"');
}
